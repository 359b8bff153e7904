/* test_dist_saved.c — the saved file written by every rank
 * (analysis/dsaved.h), without MPI: on every corpus trace and every
 * shared OTF2 trace, the model's sections written from 1 to 5 shards
 * (dmodel_slice, as threads) are, record for record and checksum for
 * checksum, the sections `skein analyze --save` writes (saved_write);
 * the file is read back by its documented layout (doc/format.md). With
 * the head and the analysis's sections too (each rank's share of the
 * serial analysis, its metrics worked out by dist_metrics), the whole
 * file is saved_write's, byte for byte. And what goes wrong is said on
 * every rank: runs that do not cover a section, a directory that is not
 * there. Under ASan 1, 3 and 5 shards (DT_NEXT_RANKS), under TSan 3.
 * This test reads the analysis's internals (analysis_impl.h). */
#include "testutil.h"

#include <glob.h>
#include <string.h>
#include <unistd.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/dist/dist_metrics.h"
#include "analysis/dist/dist_slice.h"
#include "analysis/dist/dsaved.h"
#include "analysis/saved/saved.h"
#include "analysis/saved/saved_impl.h"
#include "base/dcomm.h"
#include "disttest.h"
#include "model/dmodel.h"
#include "model/trace.h"

static char **paths;
static size_t n_paths;

/* A section table entry as doc/format.md lays it out. */
struct entry {
	uint32_t id, elem;
	uint64_t count, offset, bytes, sum;
};

/* The file's bytes and its table (the entries in use). */
struct file {
	unsigned char *b;
	size_t n;
	struct entry e[82];
	uint32_t n_e;
};

static void
file_read(const char *path, struct file *f)
{
	f->b = (unsigned char *)tu_slurp(path, &f->n);
	assert_non_null(f->b);
	assert_true(f->n >= 64 + 82 * 48);
	assert_memory_equal(f->b, "SKEINSAV", 8);
	uint32_t n;
	memcpy(&n, f->b + 16, 4);
	uint64_t size;
	memcpy(&size, f->b + 24, 8);
	assert_int_equal(size, f->n);
	f->n_e = n;
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *p = f->b + 64 + 48 * i;
		memcpy(&f->e[i].id, p, 4);
		memcpy(&f->e[i].elem, p + 4, 4);
		memcpy(&f->e[i].count, p + 8, 8);
		memcpy(&f->e[i].offset, p + 16, 8);
		memcpy(&f->e[i].bytes, p + 24, 8);
		memcpy(&f->e[i].sum, p + 32, 8);
		assert_true(f->e[i].offset % 64 == 0 && f->e[i].offset + f->e[i].bytes <= f->n);
	}
}

static const struct entry *
entry_of(const struct file *f, uint32_t id)
{
	for (uint32_t i = 0; i < f->n_e; i++)
		if (f->e[i].id == id)
			return &f->e[i];
	return NULL;
}

struct job {
	const struct trace *t;
	const struct analysis *a;    /* mode 3: the whole file */
	uint32_t first[8];
	char path[256];
	int mode;                 /* 0 the model; 1 runs that leave a hole; 2 no directory;
				   * 3 the whole file; 4 a section of BIG records;
				   * 5 a run past the section's end */
};

/* Head, model and analysis from the rank's shares of j->a. */
static int
whole(struct dcomm *c, struct dsaved *w, const struct job *j, const struct dmodel *d)
{
	const struct analysis *a = j->a;
	struct analysis *la = NULL;
	uint32_t off = 0, *sf = malloc((a->n_parts + 1) * sizeof *sf);
	uint32_t *sc = malloc((a->n_parts + 1) * sizeof *sc);
	for (uint32_t p = 0; p < a->n_parts; p++) {
		sf[p] = a->parts[p].step_first;
		sc[p] = a->parts[p].step_count;
	}
	int rc = dist_slice_analysis(a, d, &la, &off);
	struct dmet_out m = { .diff = malloc(((la ? la->n_lops : 0) + 1) * sizeof *m.diff),
			      .cause = malloc((la ? la->n_lops : 0) + 1) };
	struct dmet_in in = { d, la, off, a->n_parts, a->n_steps, sf, sc };
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = dist_metrics(c, &in, &m);
	if (!rc) {
		la->dc = c;
		rc = iterations_detect(la);
	}
	if (!rc)
		rc = dsaved_put_head(w, c, a, analysis_options(a));
	if (!rc)
		rc = dsaved_put_model(w, c, d);
	struct dsave_lops x = { d, la, off, a->n_lops, a->n_parts, a->n_steps, a->parts,
				a->dag_first, a->dag_succ, a->part_order, &m };
	if (!rc)
		rc = dsaved_put_analysis(w, c, &x);
	dmet_out_free(&m);
	free(m.diff);
	free(m.cause);
	free(sf);
	free(sc);
	dist_slice_free(la);
	return rc;
}

/* Mode 4: a section of some 41 MiB, more blocks than an owner writes in
 * one round (dsaved.c), its records v(i) cut among the ranks in runs
 * that do not fall on block boundaries, two runs per rank. */
#define BIG ((10u << 20) + 3333u)

static uint32_t
v_of(uint64_t i)
{
	return (uint32_t)(i * 2654435761u) ^ (uint32_t)(i >> 7);
}

static uint64_t
big_cut(uint32_t k, uint32_t n)
{
	return k == 2 * n ? BIG : (uint64_t)BIG * k / (2 * n) + (k ? 7919u * k % 4096 : 0);
}

static int
put_big(struct dcomm *c, struct dsaved *w)
{
	struct drun r[2];
	uint32_t *v[2];
	for (int k = 0; k < 2; k++) {
		uint64_t lo = big_cut(2 * c->rank + k, c->size), hi = big_cut(2 * c->rank + k + 1, c->size);
		v[k] = malloc((hi - lo + 1) * sizeof *v[k]);
		for (uint64_t i = lo; v[k] && i < hi; i++)
			v[k][i - lo] = v_of(i);
		r[k] = (struct drun){ lo, hi - lo, v[k] };
	}
	int rc = dcomm_agree(c, v[0] && v[1] ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dsaved_put(w, 60, sizeof(uint32_t), BIG, r, 2);
	free(v[0]);
	free(v[1]);
	return rc;
}

static int
rank_main(struct dcomm *c, void *ud)
{
	struct job *j = ud;
	struct dmodel d;
	struct err e = { 0 };
	if (j->mode == 4) {
		struct dsaved *w;
		int rc = dsaved_open(c, j->path, &w, &e);
		if (!rc)
			rc = dsaved_close(w, put_big(c, w), &e);
		return rc;
	}
	int rc = dmodel_slice(j->t, c->rank, c->size, j->first[c->rank], j->first[c->rank + 1], &d);
	if (rc)
		return rc;
	struct dsaved *w;
	rc = dsaved_open(c, j->path, &w, &e);
	if (!rc && j->mode == 3)
		rc = whole(c, w, j, &d);
	if (!rc && j->mode == 0)
		rc = dsaved_put_model(w, c, &d);
	if (!rc && j->mode == 5) {
		/* the last rank claims one record past the section's end */
		uint32_t v[11] = { 0 };
		struct drun r = { c->rank * 10ull, c->rank + 1 == c->size ? 11 : 10, v };
		rc = dsaved_put(w, 60, sizeof *v, c->size * 10ull, &r, 1);
	}
	if (!rc && j->mode == 1) {
		/* every rank claims records [r * 10, r * 10 + 5) of 10 per rank */
		uint32_t v[5] = { 1, 2, 3, 4, 5 };
		struct drun r = { c->rank * 10ull, 5, v };
		rc = dsaved_put(w, 60, sizeof *v, c->size * 10ull, &r, 1);
	}
	if (!rc || j->mode != 2)
		rc = w ? dsaved_close(w, rc, &e) : rc;
	dmodel_free(&d);
	return rc;
}

static void
check_trace(const char *path)
{
	struct trace *t = tu_load(path);
	struct analysis *a = tu_analyse(t, NULL);
	struct err e = { 0 };
	char serial[256];
	snprintf(serial, sizeof serial, "/tmp/skein-test-dsaved-%d.skein", (int)getpid());
	assert_int_equal(saved_write(a, analysis_options(a), serial, &e), 0);
	struct file s;
	file_read(serial, &s);
	uint32_t n_tl, n_ops;
	trace_timelines(t, &n_tl);
	trace_ops(t, &n_ops);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		struct job j = { .t = t };
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-dsaved-%d-%u.skein", (int)getpid(), n);
		/* timelines cut by calls, as the reader cuts locations */
		uint32_t tl = 0, ops = 0;
		const struct trace_timeline *tls = trace_timelines(t, NULL);
		for (uint32_t r = 0; r < n; r++) {
			j.first[r] = tl;
			while (tl < n_tl && (r + 1 == n || (uint64_t)ops * n < (uint64_t)n_ops * (r + 1)))
				ops += tls[tl++].op_count;
		}
		j.first[n] = n_tl;
		assert_int_equal(dcomm_threads_run(n, rank_main, &j), 0);
		struct file m;
		file_read(j.path, &m);
		/* the model's sections, the ones saved_write wrote, alike */
		for (uint32_t id = 16; id <= 32; id++) {
			const struct entry *x = entry_of(&s, id), *y = entry_of(&m, id);
			assert_non_null(x);
			assert_non_null(y);
			if (x->elem != y->elem || x->count != y->count || x->bytes != y->bytes ||
			    x->sum != y->sum || memcmp(s.b + x->offset, m.b + y->offset, x->bytes)) {
				print_error("%s on %u ranks: section %u differs\n", path, n, id);
				fail();
			}
		}
		/* between sections, zeros */
		for (uint32_t i = 0; i + 1 < m.n_e; i++)
			for (uint64_t k = m.e[i].offset + m.e[i].bytes; k < m.e[i + 1].offset; k++)
				assert_int_equal(m.b[k], 0);
		free(m.b);
		unlink(j.path);
	}
	free(s.b);
	unlink(serial);
	analysis_destroy(a);
	trace_destroy(t);
}

static void
model_sections_are_the_serial_ones(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i]);
}

static void
shared_traces_alike(void **state)
{
	(void)state;
	char dir[1200], pat[1300];
	if (!tu_shared(dir, sizeof dir, "otf2"))
		return;
	for (int depth = 1; depth <= 2; depth++) {
		snprintf(pat, sizeof pat, depth == 1 ? "%s/*/traces.otf2" : "%s/*/*/traces.otf2", dir);
		glob_t g;
		if (glob(pat, 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++)
			check_trace(g.gl_pathv[i]);
		globfree(&g);
	}
}

/* The whole file from the ranks: saved_write's bytes. */
static void
check_whole(const char *path)
{
	struct trace *t = tu_load(path);
	struct analysis *a = tu_analyse(t, NULL);
	struct err e = { 0 };
	char serial[256];
	snprintf(serial, sizeof serial, "/tmp/skein-test-dsaved-w-%d.skein", (int)getpid());
	assert_int_equal(saved_write(a, analysis_options(a), serial, &e), 0);
	size_t ns = 0, nm = 0;
	char *s = tu_slurp(serial, &ns);
	assert_non_null(s);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		struct job j = { .t = t, .a = a, .mode = 3 };
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-dsaved-w-%d-%u.skein", (int)getpid(), n);
		dt_cut(t, n, j.first);
		assert_int_equal(dcomm_threads_run(n, rank_main, &j), 0);
		/* then, as skein-mpi's rank 0 does, the explanations added from
		 * the file opened: the serial file's bytes */
		dt_append_explain(j.path);
		char *m = tu_slurp(j.path, &nm);
		assert_non_null(m);
		dt_same_bytes(path, n, s, ns, m, nm);
		free(m);
		unlink(j.path);
	}
	free(s);
	unlink(serial);
	analysis_destroy(a);
	trace_destroy(t);
}

static void
whole_files_are_saved_writes(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_paths; i++)
		check_whole(paths[i]);
}

static void
whole_shared(const char *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check_whole(p[i]);
}

static void
shared_whole_files(void **state)
{
	(void)state;
	dt_shared(whole_shared);
}

static void
failures_said_on_every_rank(void **state)
{
	(void)state;
	struct trace *t = tu_load(paths[0]);
	struct job j = { .t = t, .mode = 1 };
	uint32_t n_tl;
	trace_timelines(t, &n_tl);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(4); n = DT_NEXT_RANKS(n)) {
		for (uint32_t r = 0; r <= n; r++)
			j.first[r] = r == n ? n_tl : 0;
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-dsaved-hole-%d.skein", (int)getpid());
		assert_int_equal(dcomm_threads_run(n, rank_main, &j), ERR_USAGE);
		assert_false(tu_exists(j.path));
	}
	j.mode = 5;
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(4); n = DT_NEXT_RANKS(n)) {
		for (uint32_t r = 0; r <= n; r++)
			j.first[r] = r == n ? n_tl : 0;
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-dsaved-past-%d.skein", (int)getpid());
		assert_int_equal(dcomm_threads_run(n, rank_main, &j), ERR_USAGE);
		assert_false(tu_exists(j.path));
	}
	j.mode = 2;
	snprintf(j.path, sizeof j.path, "/nonexistent-dir-%d/x.skein", (int)getpid());
	assert_int_equal(dcomm_threads_run(3, rank_main, &j), ERR_IO);
	trace_destroy(t);
}

/* A section larger than a round, cut anyhow among the ranks: its bytes
 * and the serial checksum of them (saved_checksum). */
static void
big_sections_in_rounds(void **state)
{
	(void)state;
	uint32_t *all = malloc((uint64_t)BIG * sizeof *all);
	assert_non_null(all);
	for (uint64_t i = 0; i < BIG; i++)
		all[i] = v_of(i);
	uint64_t sum = saved_checksum(all, (uint64_t)BIG * sizeof *all);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		struct job j = { .mode = 4 };
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-dsaved-big-%d-%u.skein", (int)getpid(), n);
		assert_int_equal(dcomm_threads_run(n, rank_main, &j), 0);
		struct file f;
		file_read(j.path, &f);
		const struct entry *x = entry_of(&f, 60);
		assert_non_null(x);
		assert_int_equal(x->count, BIG);
		assert_int_equal(x->bytes, (uint64_t)BIG * sizeof *all);
		assert_int_equal(x->sum, sum);
		assert_memory_equal(f.b + x->offset, all, x->bytes);
		free(f.b);
		unlink(j.path);
	}
	free(all);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_dist_saved: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_sections_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
		cmocka_unit_test(whole_files_are_saved_writes),
		cmocka_unit_test(shared_whole_files),
		cmocka_unit_test(failures_said_on_every_rank),
		cmocka_unit_test(big_sections_in_rounds),
	};
	int rc = cmocka_run_group_tests_name("distributed saved file", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
