/* test_dist_verify.c — the invariants checked by every rank on its own
 * lops (analysis/dist_verify.h), without MPI: on every corpus trace and
 * every shared OTF2 trace cut into 1 to 5 shards run as threads, the
 * counts are the serial verifier's (analysis_verify), on every rank.
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/dist/dist_slice.h"
#include "analysis/dist/dist_verify.h"
#include "base/dcomm.h"
#include "disttest.h"
#include "model/dmodel.h"

static char **paths;
static size_t n_paths;

struct world {
	const struct trace *t;
	const struct analysis *a;
	uint32_t first[8], *sf, *sc;
};

static int
rank_main(struct dcomm *c, void *ud)
{
	struct world *w = ud;
	const struct analysis *a = w->a;
	struct dmodel d;
	struct analysis *la = NULL;
	uint32_t off = 0;
	if (dmodel_slice(w->t, c->rank, c->size, w->first[c->rank], w->first[c->rank + 1], &d) ||
	    dist_slice_analysis(a, &d, &la, &off))
		return 1;
	struct dver_in in = { &d, la, off, a->n_parts, a->dag_first, a->dag_succ, w->sf, w->sc };
	struct analysis_verify v = { 0 };
	int rc = dist_verify(c, &in, &v);
	const struct analysis_verify *s = &a->verify;
	int bad = rc || v.messages_checked != s->messages_checked ||
		  v.cross_partition != s->cross_partition || v.message_order != s->message_order ||
		  v.timeline_order != s->timeline_order || v.collective_split != s->collective_split ||
		  v.partition_overlap != s->partition_overlap;
	if (bad)
		fprintf(stderr, "rank %u of %u: rc %d, checked %llu (serial %llu), order %llu (%llu)\n",
			c->rank, c->size, rc, (unsigned long long)v.messages_checked,
			(unsigned long long)s->messages_checked, (unsigned long long)v.message_order,
			(unsigned long long)s->message_order);
	dist_slice_free(la);
	dmodel_free(&d);
	return bad;
}

static void
check(const char *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct trace *t = tu_load(p[i]);
		struct analysis *a = tu_analyse(t, NULL);
		struct world w = { .t = t, .a = a };
		w.sf = malloc((a->n_parts + 1) * sizeof *w.sf);
		w.sc = malloc((a->n_parts + 1) * sizeof *w.sc);
		for (uint32_t q = 0; q < a->n_parts; q++) {
			w.sf[q] = a->parts[q].step_first;
			w.sc[q] = a->parts[q].step_count;
		}
		assert_true(a->verify.messages_checked > 0 || !trace_msgs(t, NULL));
		for (uint32_t k = DT_FIRST_RANKS; k <= DT_LAST_RANKS(5); k = DT_NEXT_RANKS(k)) {
			dt_cut(t, k, w.first);
			if (dcomm_threads_run(k, rank_main, &w)) {
				print_error("%s on %u ranks: counts differ\n", p[i], k);
				fail();
			}
		}
		free(w.sf);
		free(w.sc);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

static void
corpus_counts_are_the_serial_ones(void **state)
{
	(void)state;
	check((const char *const *)paths, n_paths);
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
		fprintf(stderr, "test_dist_verify: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_counts_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed verifier", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
