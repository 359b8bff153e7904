/* saved_write.c — writing a saved analysis (saved.h, doc/format.md).
 *
 * Sections are written one after another, each summed as it goes; the
 * header and the table are written last, so a file cut short never
 * looks whole. Written to a new file beside the target and renamed
 * into place when whole. */
#include "saved.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "saved_impl.h"

struct writer {
	FILE *f;
	uint64_t off;
	struct section sec[S_END];
	uint32_t n;
	int failed;
	unsigned char *stage;    /* SUM_BLOCK bytes: records with their padding zeroed */
};

/* The bytes C leaves as padding in the saved records, [lo, hi) of each
 * record. Memory holds there whatever it held before, so they are
 * written as zeros: two saves of one analysis are the same bytes but for
 * the stage timings (tests/saved.sh). */
#define END_OF(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))
static const struct {
	enum sec id;
	uint32_t lo, hi;
} paddings[] = {
	{ S_LOCATIONS, END_OF(struct trace_location, type), offsetof(struct trace_location, events) },
	{ S_REGIONS, END_OF(struct trace_region, paradigm), sizeof(struct trace_region) },
	{ S_LANES, END_OF(struct trace_lane, kind), sizeof(struct trace_lane) },
	{ S_HOLDS, END_OF(struct trace_hold, model), sizeof(struct trace_hold) },
	{ S_COMMS, END_OF(struct trace_comm, is_self), sizeof(struct trace_comm) },
	{ S_COLLS, END_OF(struct trace_coll, flags), offsetof(struct trace_coll, bytes_sent) },
	{ S_CHARES, END_OF(struct trace_chare, runtime), sizeof(struct trace_chare) },
	{ S_ENTRIES, END_OF(struct trace_entry, runtime), sizeof(struct trace_entry) },
	{ S_PARTS, END_OF(struct analysis_part, runtime), sizeof(struct analysis_part) },
	{ S_WAITS, END_OF(struct analysis_wait, kind), offsetof(struct analysis_wait, time) },
	{ S_PROBLEMS, END_OF(struct analysis_problem, kind), sizeof(struct analysis_problem) },
};

void
saved_zero_padding(uint32_t id, uint32_t elem, unsigned char *buf, uint64_t off, size_t k)
{
	size_t p = 0;
	while (p < sizeof paddings / sizeof *paddings && paddings[p].id != id)
		p++;
	if (p == sizeof paddings / sizeof *paddings || !elem)
		return;
	uint32_t lo = paddings[p].lo, hi = paddings[p].hi;
	/* the records these bytes hold a part of */
	for (uint64_t r = off / elem * elem; r < off + k; r += elem) {
		uint64_t a = r + lo > off ? r + lo : off;
		uint64_t b = r + hi < off + k ? r + hi : off + k;
		if (a < b)
			memset(buf + (a - off), 0, (size_t)(b - a));
	}
}

/* Writes n bytes of records of elem bytes through w->stage, with their
 * padding zeroed; returns their checksum (the one saved_checksum() gives
 * for the staged bytes). */
static uint64_t
put_zeroed(struct writer *w, enum sec id, const unsigned char *data, uint64_t n, uint32_t elem)
{
	uint64_t acc = saved_sum_start(n);
	for (uint64_t off = 0; off < n; off += SUM_BLOCK) {
		size_t k = n - off < SUM_BLOCK ? (size_t)(n - off) : SUM_BLOCK;
		memcpy(w->stage, data + off, k);
		saved_zero_padding(id, elem, w->stage, off, k);
		acc = saved_combine(acc, saved_block_sum(w->stage, k));
		if (fwrite(w->stage, 1, k, w->f) != k)
			w->failed = 1;
	}
	return acc;
}

int
saved_has_padding(uint32_t id)
{
	for (size_t p = 0; p < sizeof paddings / sizeof *paddings; p++)
		if (paddings[p].id == id)
			return 1;
	return 0;
}

/* Writes op_lop (n ops, 4 bytes each) of an analysis that keeps it as an
 * index (op_lop_of) through w->stage: the bytes and the checksum of the
 * array it replaced. */
static uint64_t
put_op_lop(struct writer *w, const struct analysis *a, uint64_t n)
{
	uint64_t acc = saved_sum_start(n * sizeof(uint32_t));
	uint32_t *v = (uint32_t *)(void *)w->stage, per = SUM_BLOCK / sizeof *v;
	for (uint64_t op = 0; op < n; op += per) {
		uint32_t k = n - op < per ? (uint32_t)(n - op) : per;
		for (uint32_t i = 0; i < k; i++)
			v[i] = op_lop_of(a, (uint32_t)(op + i));
		acc = saved_combine(acc, saved_block_sum(w->stage, (size_t)k * sizeof *v));
		if (fwrite(w->stage, sizeof *v, k, w->f) != k)
			w->failed = 1;
	}
	return acc;
}

/* data NULL for op_lop: it is a's index (put_op_lop) */
static void
put_section_of(struct writer *w, enum sec id, uint32_t elem, const void *data, uint64_t count,
	       const struct analysis *a)
{
	static const char zero[ALIGN];
	uint64_t bytes = count * elem;
	uint64_t pad = (ALIGN - w->off % ALIGN) % ALIGN;
	if (pad && fwrite(zero, 1, pad, w->f) != pad)
		w->failed = 1;
	w->off += pad;
	struct section *s = &w->sec[w->n++];
	*s = (struct section){ .id = id, .elem_size = elem, .count = count, .offset = w->off,
			       .bytes = bytes };
	if (bytes && !data && id == S_OP_LOP) {
		s->sum = put_op_lop(w, a, count);
	} else if (bytes && saved_has_padding(id)) {
		s->sum = put_zeroed(w, id, data, bytes, elem);
	} else {
		s->sum = saved_checksum(data, bytes);
		if (bytes && fwrite(data, 1, bytes, w->f) != bytes)
			w->failed = 1;
	}
	w->off += bytes;
}

static void
put_section(struct writer *w, enum sec id, uint32_t elem, const void *data, uint64_t count)
{
	put_section_of(w, id, elem, data, count, NULL);
}

void
saved_fill_meta(struct meta *m, const struct analysis *a, const struct analysis_opts *ran)
{
	const struct trace *t = a->t;
	const struct analysis_opts *o = &a->opts;
	memset(m, 0, sizeof *m);
	saved_stat_identity(t->info.path, &m->anchor_size, &m->anchor_mtime_ns, &m->defs_size,
		      &m->defs_mtime_ns);
	memcpy(m->version, t->info.version, sizeof m->version);
	m->ticks_per_second = t->info.ticks_per_second;
	m->global_offset = t->info.global_offset;
	m->t_begin = t->info.t_begin;
	m->t_end = t->info.t_end;
	m->events = t->info.events;
	memcpy(m->records, t->info.records, sizeof m->records);
	memcpy(m->warnings, t->info.warnings, sizeof m->warnings);
	m->mpi_calls_without_records = t->info.mpi_calls_without_records;
	m->no_local_defs = t->info.no_local_defs;
#define TO_META(f) m->f = (uint32_t)o->f;
	SAVED_FLAGS(TO_META)
#undef TO_META
	m->n_phases = o->n_phases;
	m->hotspots = o->hotspots;
	m->has_iter_region = ran->iter_region != NULL;
	m->leap_factor = o->leap_factor;
	m->n_lops = a->n_lops;
	m->n_parts = a->n_parts;
	m->n_steps = a->n_steps;
	m->n_hot = a->n_hot;
	m->n_hot_all = a->n_hot_all;
	m->has_phases = a->lop_phase != NULL;
	m->stats = a->stats;
	m->verify = a->verify;
	const struct iterations *it = &a->iters;
	m->iter_count = it->count;
	m->iter_source = (uint32_t)it->source;
	m->iter_region = it->region;
	m->iter_period_parts = it->period_parts;
	m->iter_period_steps = it->period_steps;
	m->iter_irregular = it->irregular;
	m->n_iter_runs = it->count ? a->n_iter_runs : 0;
	struct has h = saved_has_of(a);
	m->paradigm = t->info.paradigm;
	m->has_op_of_lop = (uint32_t)h.op_of_lop;
	m->has_op_last_of_lop = (uint32_t)h.op_last_of_lop;
	m->has_charm_metrics = (uint32_t)h.charm_metrics;
	m->has_explain = (uint32_t)h.explain;
}

/* NUL-separated strings as one section. */
static int
put_strings(struct writer *w, enum sec id, const char *const *s, uint32_t n)
{
	size_t len = 0;
	for (uint32_t i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	char *buf = malloc(len + 1), *p = buf;
	if (!buf)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++) {
		size_t k = strlen(s[i]) + 1;
		memcpy(p, s[i], k);
		p += k;
	}
	put_section(w, id, 1, buf, len);
	w->sec[w->n - 1].count = n;     /* strings, not bytes */
	w->sec[w->n - 1].elem_size = 0;
	free(buf);
	return 0;
}

int
saved_append_explain(const char *path, const struct analysis *a, struct err *e)
{
	/* only to the file a was opened from (its arrays are the mapping's:
	 * an analysis run again with other options numbers its lops anew) */
	if (!a->explained || a->charm || a->explain_mapped || !a->mapped)
		return 0;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	struct writer w = { .f = fd < 0 ? NULL : fdopen(fd, "r+b") };
	if (!w.f) {
		if (fd >= 0)
			close(fd);
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	}
	/* unbuffered (sections go out a block at a time): nothing left in a
	 * buffer to land after the file is cut back */
	setvbuf(w.f, NULL, _IONBF, 0);
	struct header h;
	struct meta m;
	struct section *ms = NULL;
	int rc = 0;
	if (fread(&h, sizeof h, 1, w.f) != 1 || memcmp(h.magic, SAVED_MAGIC, 8) ||
	    h.version != SAVED_VERSION || h.n_sections > S_END - 4 ||
	    fread(w.sec, sizeof w.sec, 1, w.f) != 1)
		rc = err_set(e, ERR_IO, "%s: not a saved analysis of this version", path);
	for (uint32_t i = 0; !rc && i < h.n_sections; i++)
		if (w.sec[i].id == S_META)
			ms = &w.sec[i];
	if (!rc && (!ms || ms->bytes != sizeof m || fseeko(w.f, (off_t)ms->offset, SEEK_SET) ||
		    fread(&m, sizeof m, 1, w.f) != 1))
		rc = err_set(e, ERR_IO, "%s: cannot read its meta section", path);
	if (!rc && m.has_explain) {
		fclose(w.f);
		return 0;
	}
	w.stage = rc ? NULL : malloc(SUM_BLOCK);
	if (!rc && !w.stage)
		rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
	uint64_t old_size = h.file_size;
	if (!rc) {
		/* first the sections after the last, as saved_write puts them,
		 * on the disk; only then the meta section, the table and the
		 * header that say so: until then the file is the one it was */
		w.n = h.n_sections;
		w.off = h.file_size;
		if (fseeko(w.f, (off_t)w.off, SEEK_SET))
			w.failed = 1;
		struct array arr[MAX_ARRAYS];
		uint32_t na = saved_arrays((struct trace *)a->t, (struct analysis *)a, saved_has_of(a), arr);
		for (uint32_t i = 0; i < na && !w.failed; i++)
			if (arr[i].id >= S_WAITS && arr[i].id <= S_PROBLEMS)
				put_section(&w, arr[i].id, arr[i].elem, *arr[i].ptr, arr[i].count);
		if (!w.failed && (fflush(w.f) || fsync(fd)))
			w.failed = 1;
		if (!w.failed) {
			m.has_explain = 1;
			ms->sum = saved_checksum(&m, sizeof m);
			h.n_sections = w.n;
			h.file_size = w.off;
			h.table_sum = saved_checksum(w.sec, sizeof w.sec);
			h.header_sum = 0;
			h.header_sum = saved_checksum(&h, sizeof h);
			if (fseeko(w.f, (off_t)ms->offset, SEEK_SET) || fwrite(&m, sizeof m, 1, w.f) != 1 ||
			    fseeko(w.f, 0, SEEK_SET) || fwrite(&h, sizeof h, 1, w.f) != 1 ||
			    fwrite(w.sec, sizeof w.sec, 1, w.f) != 1 || fflush(w.f))
				w.failed = 1;
		}
		/* what failed before the meta section was written: the file cut
		 * back to what it was */
		if (w.failed && !m.has_explain && ftruncate(fd, (off_t)old_size))
			rc = err_set(e, ERR_IO, "%s: cannot write, nor cut back (%s)", path, strerror(errno));
	}
	if (fclose(w.f))
		w.failed = 1;
	free(w.stage);
	if (!rc && w.failed)
		rc = err_set(e, ERR_IO, "%s: cannot write (%s)", path, strerror(errno));
	return rc;
}

int
saved_write(const struct analysis *a, const struct analysis_opts *ran, const char *path,
	    struct err *e)
{
	struct trace *t = (struct trace *)a->t;
	const struct analysis_phase_rule *phases = ran->phases;
	/* the phase rules the analysis used (a Charm++ run uses none) */
	uint32_t n_phases = a->opts.n_phases ? ran->n_phases : 0;
	if (saved_may_replace(path, e))
		return ERR_IO;
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	snprintf(tmp, plen + 16, "%s.tmp%ld", path, (long)getpid());
	/* a new file of our own: never through a link or a FIFO left there */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	struct writer w = { .f = fd < 0 ? NULL : fdopen(fd, "wb") };
	if (!w.f) {
		int rc = err_set(e, ERR_IO, "%s: %s", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return rc;
	}
	int rc = 0;
	uint32_t n_str = intern_count(t->strings);
	const char **strs = malloc(((size_t)n_str + n_phases + 1) * sizeof *strs);
	w.stage = malloc(SUM_BLOCK);
	if (!strs || !w.stage)
		rc = ERR_NOMEM;
	struct header h = { .version = SAVED_VERSION, .byte_order = BYTE_ORDER_MARK,
			    .header_size = sizeof h };
	memcpy(h.magic, SAVED_MAGIC, sizeof h.magic);
	/* room for the header and the table, written last */
	struct section blank[S_END] = { 0 };
	if (fwrite(&h, sizeof h, 1, w.f) != 1 || fwrite(blank, sizeof blank, 1, w.f) != 1)
		w.failed = 1;
	w.off = sizeof h + sizeof blank;
	struct meta m;
	saved_fill_meta(&m, a, ran);
	put_section(&w, S_META, sizeof m, &m, 1);
	for (uint32_t i = 0; i < n_str && !rc; i++)
		strs[i] = intern_str(t->strings, i);
	if (!rc)
		rc = put_strings(&w, S_STRINGS, strs, n_str);
	const char *one[1] = { t->info.path ? t->info.path : "" };
	if (!rc)
		rc = put_strings(&w, S_PATH, one, 1);
	one[0] = t->info.creator ? t->info.creator : "";
	if (!rc)
		rc = put_strings(&w, S_CREATOR, one, 1);
	for (uint32_t i = 0; i < n_phases && !rc; i++)
		strs[i] = phases[i].region_glob;
	if (!rc)
		rc = put_strings(&w, S_PHASES, strs, n_phases);
	one[0] = ran->iter_region ? ran->iter_region : "";
	if (!rc)
		rc = put_strings(&w, S_ITER_REGION, one, ran->iter_region != NULL);
	struct array arr[MAX_ARRAYS];
	uint32_t na = saved_arrays(t, (struct analysis *)a, saved_has_of(a), arr);
	for (uint32_t i = 0; i < na && !rc; i++)
		if (!saved_optional(arr[i].id) || arr[i].count)
			put_section_of(&w, arr[i].id, arr[i].elem, *arr[i].ptr, arr[i].count, a);
	h.n_sections = w.n;
	h.file_size = w.off;
	h.table_sum = saved_checksum(w.sec, sizeof w.sec);
	h.header_sum = saved_checksum(&h, sizeof h);
	if (!rc && (fseek(w.f, 0, SEEK_SET) || fwrite(&h, sizeof h, 1, w.f) != 1 ||
		    fwrite(w.sec, sizeof w.sec, 1, w.f) != 1))
		w.failed = 1;
	if (fclose(w.f))
		w.failed = 1;
	if (!rc && w.failed)
		rc = err_set(e, ERR_IO, "%s: cannot write (%s)", path, strerror(errno));
	else if (rc)
		err_set(e, rc, "%s: %s", path, err_name(rc));
	if (!rc && rename(tmp, path))
		rc = err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
	free(strs);
	free(w.stage);
	free(tmp);
	return rc;
}

