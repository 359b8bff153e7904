/* otf2_read.c — opening an archive and reading its events per location. */
#include "otf2_read.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/OTF2_Pthread_Locks.h>

#include "base/file.h"
#include "base/par.h"
#include "otf2_impl.h"

static OTF2_ErrorCode
on_otf2_error(void *ud, const char *file, uint64_t line, const char *func,
	      OTF2_ErrorCode code, const char *fmt, va_list va)
{
	struct otf2r *r = ud;
	(void)file; (void)line; (void)func;
	if (!r)
		return code;
	char detail[160] = "";
	if (fmt)
		vsnprintf(detail, sizeof detail, fmt, va);
	pthread_mutex_lock(&r->msg_mu);
	if (!r->otf2_msg[0]) {
		r->otf2_err = code;
		snprintf(r->otf2_msg, sizeof r->otf2_msg, "%s%s%s",
			 OTF2_Error_GetDescription(code), detail[0] ? ": " : "", detail);
	}
	pthread_mutex_unlock(&r->msg_mu);
	return code;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The anchors (*.otf2) directory d holds: *count of them, and in *chosen
 * (malloc'd, when chosen is not NULL) "traces.otf2" if it is one, else
 * the first read. Returns 0 or ERR_NOMEM. */
static int
anchors_in(DIR *d, char **chosen, int *count)
{
	*count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".otf2"))
			continue;
		++*count;
		if (chosen && (!*chosen || strcmp(de->d_name, "traces.otf2") == 0)) {
			free(*chosen);
			if (!(*chosen = strdup(de->d_name)))
				return ERR_NOMEM;
		}
	}
	return 0;
}

int
otf2_dir_has_anchor(const char *path)
{
	DIR *d = opendir(path);
	int count = 0;
	if (d) {
		anchors_in(d, NULL, &count);
		closedir(d);
	}
	return count > 0;
}

/* Finds the anchor file for path; *anchor is malloc'd. Only a regular
 * file is taken, so a FIFO named as the trace never blocks. */
static int
resolve_anchor(const char *path, char **anchor, struct err *e)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		if (!S_ISREG(st.st_mode))
			return err_set(e, ERR_IO, "%s: is %s, not an OTF2 archive", path,
				       file_kind(st.st_mode));
		*anchor = strdup(path);
		return *anchor ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	DIR *d = opendir(path);
	if (!d)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	char *found = NULL;
	int count;
	int rc = anchors_in(d, &found, &count);
	closedir(d);
	if (rc) {
		free(found);
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	if (!found)
		return err_set(e, ERR_IO, "%s: directory holds no OTF2 anchor file (*.otf2)", path);
	if (count > 1 && strcmp(found, "traces.otf2") != 0) {
		free(found);
		return err_set(e, ERR_IO, "%s: directory holds several OTF2 anchor files; name one", path);
	}
	size_t n = strlen(path) + strlen(found) + 2;
	*anchor = malloc(n);
	if (*anchor)
		snprintf(*anchor, n, "%s%s%s", path, has_suffix(path, "/") ? "" : "/", found);
	free(found);
	return *anchor ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
}

/* The archive's files are named after the anchor: NAME.otf2, NAME.def
 * (global definitions), NAME/ID.def and NAME/ID.evt (a location's local
 * definitions and events). libotf2 opens them itself, so each is checked
 * here first: a regular file, or not there at all. */
static int
archive_paths(struct otf2r *r, struct err *e)
{
	if (!has_suffix(r->anchor, ".otf2"))
		return err_set(e, ERR_IO, "%s: not an OTF2 archive (an anchor file's name ends in .otf2)",
			       r->anchor);
	size_t n = strlen(r->anchor) - 5;
	if (n >= sizeof r->base - 32)
		return err_set(e, ERR_LIMIT, "%s: path too long", r->anchor);
	memcpy(r->base, r->anchor, n);
	r->base[n] = '\0';
	char def[sizeof r->base + 8];
	snprintf(def, sizeof def, "%s.def", r->base);
	uint64_t def_bytes = 0;
	struct err fe = { 0 };
	int rc = otf2r_check_anchor(r->anchor, &r->anc, e);
	if (rc)
		return rc;
	if (file_check_regular(def, &def_bytes, &fe))
		return err_set(e, ERR_FORMAT, "%s: cannot open the global definitions (%s)", r->anchor,
			       fe.msg);
	if ((rc = otf2r_check_defs(def, r->anc.def_chunk, 1, NULL, NULL, e)))
		return rc;
	/* libotf2 sizes tables by these counts; each location and each
	 * definition is a record of several bytes in the global definitions */
	if (r->anc.n_locations > def_bytes / 4 || r->anc.n_global_defs > def_bytes / 2 ||
	    r->anc.n_locations > OTF2R_MAX_LOCATIONS)
		return err_set(e, ERR_FORMAT, "%s: truncated or corrupt global definitions (the anchor "
			       "declares %llu definitions and %llu locations in %llu bytes)", def,
			       (unsigned long long)r->anc.n_global_defs,
			       (unsigned long long)r->anc.n_locations, (unsigned long long)def_bytes);
	return 0;
}

void
otf2r_local_path(const struct otf2r *r, uint64_t location, const char *ext, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%llu.%s", r->base, (unsigned long long)location, ext);
}

int
otf2r_fail(struct otf2r *r, struct err *e, int code, OTF2_ErrorCode st, const char *path,
	   const char *what)
{
	/* reader threads may report at the same time (otf2_events.c) */
	char msg[sizeof r->otf2_msg];
	pthread_mutex_lock(&r->msg_mu);
	OTF2_ErrorCode c = st != OTF2_SUCCESS ? st : r->otf2_err;
	snprintf(msg, sizeof msg, "%s", r->otf2_msg);
	pthread_mutex_unlock(&r->msg_mu);
	const char *why = msg[0] ? msg
		: c != OTF2_SUCCESS ? OTF2_Error_GetDescription(c) : "unknown reason";
	if (c != OTF2_SUCCESS && otf2_code(c) == ERR_NOMEM)
		return err_set(e, ERR_NOMEM, "%s: %s: out of memory (%s)", path, what, why);
	return err_set(e, code, "%s: %s (%s)", path, what, why);
}

/* ---- the reading sequence ---- */

/* The location's local state, made on first use; NULL when out of memory. */
static struct otf2r_local *
local_of(struct otf2r *r)
{
	if (!r->locals && !(r->locals = calloc(r->t->n_locations, sizeof *r->locals)))
		return NULL;
	return &r->locals[r->local_at];
}

/* Location local_at's mapping table of kind type: kept when it is one
 * of the records skein reads. libotf2's tables stay libotf2's, freed
 * when the reader is closed; skein's own (own: otf2r_walk_defs made it,
 * one of a kind at most) are freed with the locations' state, or here
 * when not kept. Returns 0 or ERR_NOMEM. */
static int
add_mapping(struct otf2r *r, OTF2_MappingType type, OTF2_IdMap *map, int own)
{
	r->local_maps++;
	r->local_kinds[r->local_at] |= OTF2R_LOCAL_MAPS;
	struct otf2r_local *l = local_of(r);
	const OTF2_IdMap **slot = !l ? NULL
		: type == OTF2_MAPPING_REGION ? &l->region_map
		: type == OTF2_MAPPING_COMM ? &l->comm_map
		: type == OTF2_MAPPING_CALLING_CONTEXT ? &l->cc_map
		: type == OTF2_MAPPING_RMA_WIN ? &l->win_map
		: type == OTF2_MAPPING_ATTRIBUTE ? &l->attr_map
		: type == OTF2_MAPPING_LOCATION ? &l->loc_map : NULL;
	if (own && l)
		l->own_maps = 1;
	if (own && !slot)
		OTF2_IdMap_Free(map);
	if (slot)
		*slot = map;
	return l ? 0 : ERR_NOMEM;
}

/* Location local_at's clock offset. Returns 0 or ERR_NOMEM. */
static int
add_clock_offset(struct otf2r *r, uint64_t time, int64_t offset)
{
	r->local_maps++;
	r->local_kinds[r->local_at] |= OTF2R_LOCAL_OFFSETS;
	struct otf2r_local *l = local_of(r);
	if (!l)
		return ERR_NOMEM;
	if (l->n_clock == l->cap_clock) {
		size_t cap = l->cap_clock ? 2 * l->cap_clock : 4;
		uint64_t *t = realloc(l->clock_time, cap * sizeof *t);
		if (t)
			l->clock_time = t;
		int64_t *o = t ? realloc(l->clock_offset, cap * sizeof *o) : NULL;
		if (!o)
			return ERR_NOMEM;
		l->clock_offset = o;
		l->cap_clock = cap;
	}
	l->clock_time[l->n_clock] = time;
	l->clock_offset[l->n_clock++] = offset;
	return 0;
}

/* libotf2's definition reader's callbacks, and otf2r_walk_defs's sink */
static OTF2_CallbackCode
on_mapping(void *ud, OTF2_MappingType type, const OTF2_IdMap *map)
{
	return add_mapping(ud, type, (OTF2_IdMap *)map, 0) ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_clock_offset(void *ud, OTF2_TimeStamp time, int64_t offset, double deviation)
{
	(void)deviation;
	return add_clock_offset(ud, time, offset) ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static int
own_mapping(void *ctx, uint8_t type, OTF2_IdMap *map)
{
	return add_mapping(ctx, (OTF2_MappingType)type, map, 1);
}

static int
own_clock(void *ctx, uint64_t time, int64_t offset)
{
	return add_clock_offset(ctx, time, offset);
}

/* Turns each location's clock offsets into the stretches its events are
 * corrected by. Returns 0, ERR_NOMEM or ERR_FORMAT (offsets whose times
 * do not rise, which libotf2 refuses too when it reads them). */
static int
clock_intervals(struct otf2r *r)
{
	for (size_t i = 0; r->locals && i < r->t->n_locations; i++) {
		struct otf2r_local *l = &r->locals[i];
		if (l->n_clock < 2)
			continue;
		if (!(l->iv = malloc(l->n_clock * sizeof *l->iv)))
			return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		long n = otf2_clock_intervals(l->clock_time, l->clock_offset, l->n_clock, l->iv);
		if (n < 0)
			return err_set(r->e, ERR_FORMAT, "%s: location %llu: clock offsets out of order",
				       r->anchor, (unsigned long long)r->t->locations[i].id);
		l->n_iv = (uint32_t)n;
	}
	return 0;
}

void
otf2r_free_locals(struct otf2r *r)
{
	for (size_t i = 0; r->locals && i < r->t->n_locations; i++) {
		struct otf2r_local *l = &r->locals[i];
		if (l->own_maps) {
			OTF2_IdMap_Free((OTF2_IdMap *)l->region_map);
			OTF2_IdMap_Free((OTF2_IdMap *)l->comm_map);
			OTF2_IdMap_Free((OTF2_IdMap *)l->cc_map);
			OTF2_IdMap_Free((OTF2_IdMap *)l->win_map);
			OTF2_IdMap_Free((OTF2_IdMap *)l->attr_map);
			OTF2_IdMap_Free((OTF2_IdMap *)l->loc_map);
		}
		free(r->locals[i].clock_time);
		free(r->locals[i].clock_offset);
		free(r->locals[i].iv);
	}
	free(r->locals);
	r->locals = NULL;
}

/* The state of one location's local definitions file. */
enum local_state { LOCAL_READ, LOCAL_MISSING, LOCAL_EMPTY };

/* Classifies location i's local definitions file: LOCAL_READ (present,
 * not empty), LOCAL_MISSING, LOCAL_EMPTY, or a negative ERR_* when it
 * cannot be read at all (not a regular file, no permission). */
static int
local_state(struct otf2r *r, uint32_t i, char *path, size_t n)
{
	otf2r_local_path(r, r->t->locations[i].id, "def", path, n);
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? LOCAL_MISSING
			: err_set(r->e, ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return err_set(r->e, ERR_IO, "%s: is %s, not a regular file", path, file_kind(st.st_mode));
	if (access(path, R_OK) != 0)
		return err_set(r->e, ERR_IO, "%s: %s", path, strerror(errno));
	return st.st_size == 0 ? LOCAL_EMPTY : LOCAL_READ;
}

/* Reads one location's local definitions; counts its mapping tables and
 * clock offsets in r->local_maps. */
static int
read_local(struct otf2r *r, OTF2_Reader *rd, OTF2_DefReaderCallbacks *cb, uint32_t i,
	   const char *path)
{
	OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r->t->locations[i].id);
	if (!dr)
		return otf2r_fail(r, r->e, ERR_FORMAT, OTF2_SUCCESS, path, "cannot open the local definitions");
	OTF2_Reader_RegisterDefCallbacks(rd, dr, cb, r);
	r->local_at = i;
	uint64_t n = 0;
	OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
	OTF2_Reader_CloseDefReader(rd, dr);
	if (st == OTF2_SUCCESS)
		return 0;
	if (st == OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", path);
	return otf2r_fail(r, r->e, ERR_FORMAT, st, path, "corrupt local definitions");
}

/* Mapping tables and clock offsets live in the local definitions; events
 * read without them keep local ids and raw clocks. A location's file is
 * read only when it is there (no reader, and no chunk-sized buffer, for
 * the others). One that is missing or empty is an error when other
 * locations map their ids (its events would be misread), else a warning
 * naming it: the archive's writer wrote global ids (doc/robustness.md).
 * The files of locations lo to hi - 1 only (a share's, whose events are
 * read; every location for a whole read) are read, by skein
 * (otf2r_walk_defs) or under SKEIN_OTF2_EVENTS=library by libotf2: the
 * others are checked and their mapping tables and clock offsets counted
 * by otf2r_check_defs, which is all that is needed of them, so each of
 * a distributed read's processes does not read every location's. */
static int
read_local_definitions(struct otf2r *r, OTF2_Reader *rd, uint32_t lo, uint32_t hi)
{
	struct trace *t = r->t;
	char path[sizeof r->base + 32];
	uint32_t first_absent = TRACE_NONE, n_absent = 0, n_read = 0;
	uint8_t *state = malloc(t->n_locations ? t->n_locations : 1);
	r->local_kinds = calloc(t->n_locations ? t->n_locations : 1, 1);
	if (!state || !r->local_kinds) {
		free(state);
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	}
	int rc = 0;
	for (uint32_t i = 0; i < t->n_locations && rc == 0; i++) {
		OTF2_Reader_SelectLocation(rd, t->locations[i].id);
		int s = local_state(r, i, path, sizeof path);
		if (s < 0) {
			rc = s;
			break;
		}
		state[i] = (uint8_t)s;
		n_read += s == LOCAL_READ;
	}
	/* skein's own decoding of the events reads the share's tables and
	 * offsets itself too: libotf2 clears a buffer of the definitions'
	 * chunk size for each location it reads (1 MiB and more: 0.1 s at
	 * 1024 locations, on one core), and its readers of the events would
	 * need its own tables */
	int own = otf2r_own_decoding();
	struct otf2r_local_sink sink = { own_mapping, own_clock, r };
	OTF2_DefReaderCallbacks *cb = NULL;
	OTF2_ErrorCode st;
	if (rc == 0 && n_read && !own) {
		cb = OTF2_DefReaderCallbacks_New();
		if (!cb)
			rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		else if ((st = OTF2_Reader_OpenDefFiles(rd)) != OTF2_SUCCESS)
			rc = otf2r_fail(r, r->e, ERR_FORMAT, st, r->anchor, "cannot open the local definitions");
	}
	if (cb && rc == 0) {
		OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, on_mapping);
		OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, on_clock_offset);
	}
	for (uint32_t i = 0; (cb || own) && i < t->n_locations && rc == 0; i++) {
		if (state[i] != LOCAL_READ)
			continue;
		otf2r_local_path(r, t->locations[i].id, "def", path, sizeof path);
		if (own && i >= lo && i < hi) {
			r->local_at = i;
			rc = otf2r_walk_defs(path, r->anc.def_chunk, 0, &sink, NULL, NULL, r->e);
			continue;
		}
		uint64_t records = 0, maps = 0;
		/* a file of no records (a header and its end, as every
		 * location's of a trace with global ids) is not handed to
		 * libotf2, which clears a chunk-sized buffer for each */
		if ((rc = otf2r_check_defs(path, r->anc.def_chunk, 0, &records, &maps, r->e)) || !records)
			continue;
		if (!own && i >= lo && i < hi)
			rc = read_local(r, rd, cb, i, path);
		else
			r->local_maps += maps;
	}
	if (cb)
		OTF2_Reader_CloseDefFiles(rd);
	OTF2_DefReaderCallbacks_Delete(cb);
	/* only locations that have events need their mappings */
	for (uint32_t i = 0; i < t->n_locations && rc == 0; i++) {
		if (state[i] == LOCAL_READ || t->locations[i].events_declared == 0)
			continue;
		otf2r_local_path(r, t->locations[i].id, "def", path, sizeof path);
		if (r->local_maps)
			rc = err_set(r->e, ERR_FORMAT, "%s: local definitions %s, while the other locations' "
				     "map ids and clocks: this location's events would be misread", path,
				     state[i] == LOCAL_EMPTY ? "empty" : "missing");
		else if (n_absent++ == 0)
			first_absent = i;
	}
	if (rc == 0 && n_absent) {
		otf2r_local_path(r, t->locations[first_absent].id, "def", path, sizeof path);
		t->info.warnings[WARN_NO_LOCAL_DEFS] += n_absent;
		if (trace_intern(t, path, &t->info.no_local_defs))
			rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	}
	free(state);
	if (rc == 0)
		rc = clock_intervals(r);
	r->otf2_msg[0] = '\0';
	return rc;
}

/* Reads the archive into r->t: everything, matched (share NULL), or
 * the definitions and the events of one share into its blocks. */
static int
read_archive(struct otf2r *r, const struct otf2_read_opts *o, struct otf2_share *share)
{
	OTF2_Reader *rd = OTF2_Reader_Open(r->anchor);
	if (!rd)
		return otf2r_fail(r, r->e, ERR_IO, OTF2_SUCCESS, r->anchor, "cannot open OTF2 archive");
	int rc = 0;
	/* events are read on several threads (otf2_events.c) */
	OTF2_ErrorCode st = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	if (st == OTF2_SUCCESS && par_workers() > 1)
		st = OTF2_Pthread_Reader_SetLockingCallbacks(rd, NULL);
	if (st != OTF2_SUCCESS) {
		rc = otf2r_fail(r, r->e, ERR_FORMAT, st, r->anchor, "cannot read archive");
		goto out;
	}
	uint8_t v[3] = { 0 };
	char *creator = NULL;
	if (OTF2_Reader_GetVersion(rd, &v[0], &v[1], &v[2]) == OTF2_SUCCESS)
		for (int i = 0; i < 3; i++)
			r->t->info.version[i] = v[i];
	if (OTF2_Reader_GetCreator(rd, &creator) == OTF2_SUCCESS) {
		rc = trace_set_creator(r->t, creator);
		free(creator);
		if (rc) {
			err_set(r->e, rc, "%s: out of memory", r->anchor);
			goto out;
		}
	}
	if ((rc = otf2r_read_definitions(r, rd)))
		goto out;
	if (r->t->n_locations == 0) {
		rc = err_set(r->e, ERR_FORMAT, "%s: the archive defines no locations", r->anchor);
		goto out;
	}
	r->b = build_create(r->t);
	if (!r->b) {
		rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		goto out;
	}
	if (share) {
		uint32_t *cut = malloc(((size_t)share->n_parts + 1) * sizeof *cut);
		if (!cut) {
			rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
			goto out;
		}
		otf2r_share_cut(r->t, share->n_parts, cut);
		share->lo = cut[share->part];
		share->hi = cut[share->part + 1];
		free(cut);
	}
	if ((rc = read_local_definitions(r, rd, share ? share->lo : 0,
					 share ? share->hi : (uint32_t)r->t->n_locations)))
		goto out;
	if (share) {
		rc = otf2r_read_blocks(r, rd, o, share->lo, share->hi, &share->blocks,
				       &share->n_blocks, &share->counts);
		share->cap_blocks = share->n_blocks;
		goto out;
	}
	if ((rc = otf2r_read_events(r, rd, o)))
		goto out;
	rc = build_finish(r->b, o ? o->progress : NULL, o ? o->ud : NULL);
	if (rc)
		otf2r_build_error(r->e, rc, r->anchor, "matching messages");
out:
	OTF2_Reader_Close(rd);
	return rc;
}

/* Opens the archive at path and reads it into r (see read_archive);
 * on success r->t is the caller's, and r->b with it for a share. */
static int
read_path(const char *path, const struct otf2_read_opts *opts, struct otf2_share *share,
	  struct otf2r *r, struct err *e)
{
	char *anchor = NULL;
	int rc = resolve_anchor(path, &anchor, e);
	if (rc)
		return rc;
	*r = (struct otf2r){ .e = e, .anchor = anchor };
	if ((rc = archive_paths(r, e))) {
		free(anchor);
		return rc;
	}
	r->t = trace_new();
	if (!r->t || trace_set_path(r->t, anchor) || pthread_mutex_init(&r->msg_mu, NULL)) {
		trace_destroy(r->t);
		free(anchor);
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	/* OTF2 prints its errors to stderr unless told otherwise; keep them
	 * for our own one-line message. The callback is process-wide. */
	OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(on_otf2_error, r);
	rc = read_archive(r, opts, share);
	OTF2_Error_RegisterCallback(prev, NULL);
	if (rc || !share) {
		build_destroy(r->b);
		r->b = NULL;
	}
	otf2r_free_definitions(r);
	free(r->local_kinds);
	r->local_kinds = NULL;
	otf2r_free_locals(r);
	pthread_mutex_destroy(&r->msg_mu);
	free(anchor);
	r->anchor = NULL;
	if (rc) {
		trace_destroy(r->t);
		r->t = NULL;
	}
	return rc;
}

int
otf2_read(const char *path, const struct otf2_read_opts *opts,
	  struct trace **out, struct err *e)
{
	struct otf2r r;
	*out = NULL;
	int rc = read_path(path, opts, NULL, &r, e);
	if (!rc)
		*out = r.t;
	return rc;
}

int
otf2_share_read(const char *path, const struct otf2_read_opts *opts, uint32_t part,
		uint32_t n_parts, struct otf2_share **out, struct err *e)
{
	*out = NULL;
	if (n_parts == 0 || part >= n_parts)
		return err_set(e, ERR_USAGE, "share %u of %u", part, n_parts);
	struct otf2_share *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	s->part = part;
	s->n_parts = n_parts;
	s->next_head = part + 1;
	s->counts.t_begin = UINT64_MAX;
	int rc = read_path(path, opts, s, &s->r, e);
	if (rc) {
		otf2_share_destroy(s);
		return rc;
	}
	*out = s;
	return 0;
}

int
otf2r_build_error(struct err *e, int rc, const char *path, const char *stage)
{
	if (rc == ERR_LIMIT)
		return err_set(e, rc, "%s: more than skein can index while %s (%s)", path, stage,
			       trace_limits_text());
	return err_set(e, rc, "%s: %s while %s", path, err_name(rc), stage);
}
