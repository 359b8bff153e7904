/* test_dist_merge.c — the automatic merge's pairs in a distributed
 * analysis (analysis/dist_merge.h), without MPI: on every corpus trace
 * and every shared OTF2 trace analysed without the automatic merge (so
 * its partitions are those the merge's first pass sees), cut into 1 to
 * 5 shards run as threads, every rank finds the serial pass's pairs, in
 * order, with and without alike signatures. This test reads the
 * analysis's internals (analysis_impl.h).
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/dist/dist_merge.h"
#include "analysis/dist/dist_slice.h"
#include "base/dcomm.h"
#include "disttest.h"
#include "model/dmodel.h"

static char **paths;
static size_t n_paths;
static size_t pairs_seen;     /* the serial pairs compared */

struct world {
	const struct trace *t;
	const struct analysis *a;
	uint32_t first[8];
	struct merge_pair *want[2];
	size_t n_want[2];
};

static int
rank_main(struct dcomm *c, void *ud)
{
	struct world *w = ud;
	struct dmodel d;
	struct analysis *la = NULL;
	uint32_t off = 0;
	int bad = 0;
	if (dmodel_slice(w->t, c->rank, c->size, w->first[c->rank], w->first[c->rank + 1], &d) ||
	    dist_slice_analysis(w->a, &d, &la, &off))
		return 1;
	for (int alike = 0; alike <= 1 && !bad; alike++) {
		struct merge_pair *p = NULL;
		size_t n = 0, cap = 0;
		int rc = dist_merge_pairs(c, la, alike, &p, &n, &cap);
		if (rc || n != w->n_want[alike] || (n && memcmp(p, w->want[alike], n * sizeof *p))) {
			fprintf(stderr, "rank %u of %u, alike %d: rc %d, %zu pairs (serial %zu)\n", c->rank,
				c->size, alike, rc, n, w->n_want[alike]);
			bad = 1;
		}
		free(p);
	}
	dist_slice_free(la);
	dmodel_free(&d);
	return bad;
}

static void
check(const char *const *p, size_t n_p)
{
	for (size_t i = 0; i < n_p; i++) {
		struct trace *t = tu_load(p[i]);
		struct analysis_opts o;
		analysis_opts_default(&o);
		o.auto_merge = 0;
		struct analysis *a = tu_analyse(t, &o);
		struct world w = { .t = t, .a = a };
		uint32_t *rep = malloc((a->n_parts + 1) * sizeof *rep);
		struct sig *sig = malloc((a->n_parts + 1) * sizeof *sig);
		for (uint32_t q = 0; q < a->n_parts; q++) {
			rep[q] = TRACE_NONE;
			for (uint32_t k = a->part_lop_first[q]; k < a->part_lop_first[q + 1]; k++)
				if (a->lop_kind[a->part_lops[k]] != OP_COMPUTE) {
					rep[q] = a->part_lops[k];
					break;
				}
		}
		/* the serial signatures, made as the partitions are stepped */
		uint32_t *width = calloc(a->n_parts + 1, sizeof *width);
		assert_non_null(width);
		assert_int_equal(steps_local(a, width, sig), 0);
		free(width);
		size_t cap[2] = { 0, 0 };
		for (int alike = 0; alike <= 1; alike++)
			assert_int_equal(steps_merge_pairs(a, alike, rep, sig, &w.want[alike],
							   &w.n_want[alike], &cap[alike]), 0);
		pairs_seen += w.n_want[0] + w.n_want[1];
		for (uint32_t k = DT_FIRST_RANKS; k <= DT_LAST_RANKS(5); k = DT_NEXT_RANKS(k)) {
			dt_cut(t, k, w.first);
			if (dcomm_threads_run(k, rank_main, &w)) {
				print_error("%s on %u ranks: pairs differ\n", p[i], k);
				fail();
			}
		}
		free(w.want[0]);
		free(w.want[1]);
		free(rep);
		free(sig);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

static void
corpus_pairs_are_the_serial_ones(void **state)
{
	(void)state;
	check((const char *const *)paths, n_paths);
	assert_true(pairs_seen > 0);
}

static void
shared_traces_alike(void **state)
{
	(void)state;
	dt_shared(check);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_dist_merge: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_pairs_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed merge pairs", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
