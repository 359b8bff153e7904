/* test_dist_iter.c — iterations found in a distributed analysis
 * (iterations.c and signature.c with a->dc: each rank its own lops and
 * timelines, the partition-level search the same on every rank), without
 * MPI: on every corpus trace and every shared OTF2 trace, found
 * automatically and by structure, cut into 1 to 5 shards run as threads,
 * every rank finds the serial iterations (count, source, region, periods,
 * irregular ones, their starts) and holds exactly the serial runs of
 * lops that start among its own. This test reads the analysis's
 * internals (analysis_impl.h).
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/dist/dist_slice.h"
#include "base/dcomm.h"
#include "disttest.h"
#include "model/dmodel.h"

static char **paths;
static size_t n_paths;

struct world {
	const struct trace *t;
	const struct analysis *a;
	uint32_t first[8];
	const char *path;
};

static int
rank_main(struct dcomm *c, void *ud)
{
	struct world *w = ud;
	const struct analysis *a = w->a;
	struct dmodel d;
	struct analysis *la = NULL;
	uint32_t off = 0;
	int bad = 0;
	if (dmodel_slice(w->t, c->rank, c->size, w->first[c->rank], w->first[c->rank + 1], &d) ||
	    dist_slice_analysis(a, &d, &la, &off))
		return 1;
	la->dc = c;
	int rc = iterations_detect(la);
	const struct iterations *x = &la->iters, *y = &a->iters;
	if (rc || x->count != y->count || x->source != y->source || x->region != y->region ||
	    x->period_parts != y->period_parts || x->period_steps != y->period_steps ||
	    x->irregular != y->irregular) {
		fprintf(stderr, "%s, rank %u of %u: rc %d, %u iterations (serial %u), source %d (%d)\n",
			w->path, c->rank, c->size, rc, x->count, y->count, x->source, y->source);
		bad = 1;
	}
	if (!bad && y->count && memcmp(la->iter_starts, a->iter_starts, (y->count + 1) * sizeof(uint32_t)))
		bad = 1, fprintf(stderr, "%s: iteration starts differ\n", w->path);
	/* the runs that start among its lops, and only those */
	uint32_t k = 0, n = 0;
	while (!bad && y->count && k < a->n_iter_runs && a->iter_runs[k].lop < off)
		k++;
	for (; !bad && y->count && k < a->n_iter_runs && a->iter_runs[k].lop < off + la->n_lops; k++, n++)
		if (n >= la->n_iter_runs || la->iter_runs[n].lop != a->iter_runs[k].lop ||
		    la->iter_runs[n].iter != a->iter_runs[k].iter) {
			fprintf(stderr, "%s, rank %u of %u: run %u differs\n", w->path, c->rank, c->size, n);
			bad = 1;
		}
	if (!bad && y->count && n != la->n_iter_runs)
		bad = 1, fprintf(stderr, "%s: %u runs, serial %u\n", w->path, la->n_iter_runs, n);
	dist_slice_free(la);
	dmodel_free(&d);
	return bad;
}

static void
check(const char *path, enum analysis_iter_find how)
{
	struct trace *t = tu_load(path);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.iter_find = how;
	struct analysis *a = tu_analyse(t, &o);
	struct world w = { .t = t, .a = a, .path = path };
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		dt_cut(t, n, w.first);
		if (dcomm_threads_run(n, rank_main, &w)) {
			print_error("%s on %u ranks: iterations differ\n", path, n);
			fail();
		}
	}
	analysis_destroy(a);
	trace_destroy(t);
}

static void
check_all(const char *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		check(p[i], ITER_FIND_AUTO);
		check(p[i], ITER_FIND_STRUCTURE);
	}
}

static void
corpus_iterations_are_the_serial_ones(void **state)
{
	(void)state;
	size_t found = 0;
	for (size_t i = 0; i < n_paths; i++) {
		struct trace *t = tu_load(paths[i]);
		struct analysis *a = tu_analyse(t, NULL);
		found += a->iters.count > 0;
		analysis_destroy(a);
		trace_destroy(t);
	}
	assert_true(found >= n_paths / 2);     /* the test compares iterations */
	check_all((const char *const *)paths, n_paths);
}

static void
shared_traces_alike(void **state)
{
	(void)state;
	dt_shared(check_all);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_dist_iter: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_iterations_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed iterations", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
