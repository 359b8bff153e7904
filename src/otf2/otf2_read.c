/* otf2_read.c — opening an archive and reading its events per location. */
#include "otf2_read.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/OTF2_Pthread_Locks.h>

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
	if (!r->otf2_msg[0])
		snprintf(r->otf2_msg, sizeof r->otf2_msg, "%s%s%s",
			 OTF2_Error_GetDescription(code), detail[0] ? ": " : "", detail);
	pthread_mutex_unlock(&r->msg_mu);
	return code;
}

void
otf2r_last_msg(struct otf2r *r, char *buf, size_t n)
{
	pthread_mutex_lock(&r->msg_mu);
	snprintf(buf, n, "%s", r->otf2_msg);
	pthread_mutex_unlock(&r->msg_mu);
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Finds the anchor file for path; *anchor is malloc'd. */
static int
resolve_anchor(const char *path, char **anchor, struct err *e)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		*anchor = strdup(path);
		return *anchor ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	DIR *d = opendir(path);
	if (!d)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	char *found = NULL;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".otf2"))
			continue;
		count++;
		if (!found || strcmp(de->d_name, "traces.otf2") == 0) {
			free(found);
			if (!(found = strdup(de->d_name))) {
				closedir(d);
				return err_set(e, ERR_NOMEM, "%s: out of memory", path);
			}
		}
	}
	closedir(d);
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

/* An OTF2 anchor starts with a 3-byte-length-prefixed "OTF2"; checking it
 * first gives a clear message for a non-trace file instead of OTF2's. */
static int
check_magic(const char *anchor, struct err *e)
{
	FILE *f = fopen(anchor, "rb");
	if (!f)
		return err_set(e, ERR_IO, "%s: %s", anchor, strerror(errno));
	unsigned char head[8] = { 0 };
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n < 6 || memcmp(head + 2, "OTF2", 4) != 0)
		return err_set(e, ERR_IO, "%s: not an OTF2 archive (no OTF2 anchor header)", anchor);
	return 0;
}

/* ---- the reading sequence ---- */

static int
read_local_definitions(struct otf2r *r, OTF2_Reader *rd)
{
	/* Mapping tables and clock offsets live in the local definitions;
	 * events read without them keep local ids and raw clocks. Archives
	 * that have none for a location are fine. */
	for (size_t i = 0; i < r->t->n_locations; i++)
		OTF2_Reader_SelectLocation(rd, r->t->locations[i].id);
	if (OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS)
		return 0;
	for (size_t i = 0; i < r->t->n_locations; i++) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r->t->locations[i].id);
		if (!dr)
			continue;
		uint64_t n = 0;
		OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
		OTF2_Reader_CloseDefReader(rd, dr);
		if (st != OTF2_SUCCESS)
			return err_set(r->e, ERR_FORMAT,
				       "%s: corrupt local definitions of location %llu (%s)",
				       r->anchor, (unsigned long long)r->t->locations[i].id,
				       r->otf2_msg[0] ? r->otf2_msg : OTF2_Error_GetDescription(st));
	}
	OTF2_Reader_CloseDefFiles(rd);
	r->otf2_msg[0] = '\0';
	return 0;
}

static int
read_archive(struct otf2r *r, const struct otf2_read_opts *o)
{
	OTF2_Reader *rd = OTF2_Reader_Open(r->anchor);
	if (!rd)
		return err_set(r->e, ERR_IO, "%s: cannot open OTF2 archive (%s)", r->anchor,
			       r->otf2_msg[0] ? r->otf2_msg : "unknown reason");
	int rc = 0;
	/* events are read on several threads (otf2_events.c) */
	if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS ||
	    (par_workers() > 1 && OTF2_Pthread_Reader_SetLockingCallbacks(rd, NULL) != OTF2_SUCCESS)) {
		rc = err_set(r->e, ERR_FORMAT, "%s: cannot read archive (%s)", r->anchor,
			     r->otf2_msg[0] ? r->otf2_msg : "unknown reason");
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
	if ((rc = read_local_definitions(r, rd)))
		goto out;
	if ((rc = otf2r_read_events(r, rd, o)))
		goto out;
	rc = build_finish(r->b, o ? o->progress : NULL, o ? o->ud : NULL);
	if (rc)
		err_set(r->e, rc, "%s: %s while matching messages", r->anchor, err_name(rc));
out:
	OTF2_Reader_Close(rd);
	return rc;
}

int
otf2_read(const char *path, const struct otf2_read_opts *opts,
	  struct trace **out, struct err *e)
{
	*out = NULL;
	char *anchor = NULL;
	int rc = resolve_anchor(path, &anchor, e);
	if (rc)
		return rc;
	if ((rc = check_magic(anchor, e))) {
		free(anchor);
		return rc;
	}
	struct otf2r r = { .e = e, .anchor = anchor };
	r.t = trace_new();
	if (!r.t || trace_set_path(r.t, anchor) || pthread_mutex_init(&r.msg_mu, NULL)) {
		trace_destroy(r.t);
		free(anchor);
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	/* OTF2 prints its errors to stderr unless told otherwise; keep them
	 * for our own one-line message. The callback is process-wide. */
	OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(on_otf2_error, &r);
	rc = read_archive(&r, opts);
	OTF2_Error_RegisterCallback(prev, NULL);
	build_destroy(r.b);
	otf2r_free_definitions(&r);
	pthread_mutex_destroy(&r.msg_mu);
	free(anchor);
	if (rc) {
		trace_destroy(r.t);
		return rc;
	}
	*out = r.t;
	return 0;
}
