/* test_dist_metrics.c — lateness, differential lateness, causes, start-up
 * and hotspots worked out by each rank for its own lops
 * (analysis/dist_metrics.h), without MPI: on every corpus trace and every
 * shared OTF2 trace, with the default options and with sender progress
 * and start-up counted, the serial analysis is cut by timelines into 1
 * to 5 shards run as threads (its partitions and steps given), and every
 * rank's differential lateness and cause bytes, its large values and far
 * causes, the partition-step and global-step minima it holds, rank 0's
 * hotspots and the start-up and progress counts are the serial ones,
 * byte for byte. This test reads the analysis's internals
 * (analysis_impl.h): the stage's output is them.
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/dist/dist_metrics.h"
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

#define SAME(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s, rank %u of %u: ", w->path, c->rank, c->size); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			bad = 1; \
			goto out; \
		} \
	} while (0)

static int
rank_main(struct dcomm *c, void *ud)
{
	struct world *w = ud;
	const struct analysis *a = w->a;
	struct dmodel d;
	struct analysis *la = NULL;
	uint32_t off = 0, *sf = NULL, *sc = NULL;
	int bad = 0;
	if (dmodel_slice(w->t, c->rank, c->size, w->first[c->rank], w->first[c->rank + 1], &d) ||
	    dist_slice_analysis(a, &d, &la, &off))
		return 1;
	sf = malloc((a->n_parts + 1) * sizeof *sf);
	sc = malloc((a->n_parts + 1) * sizeof *sc);
	for (uint32_t p = 0; p < a->n_parts; p++) {
		sf[p] = a->parts[p].step_first;
		sc[p] = a->parts[p].step_count;
	}
	struct dmet_in in = { &d, la, off, a->n_parts, a->n_steps, c->rank == 0 ? sf : NULL,
			      c->rank == 0 ? sc : NULL };
	struct dmet_out o = { .diff = malloc((la->n_lops + 1) * sizeof *o.diff),
			      .cause = malloc(la->n_lops + 1) };
	int rc = dist_metrics(c, &in, &o);
	SAME(rc == 0, "dist_metrics: %d", rc);
	for (uint32_t i = 0; i < la->n_lops; i++) {
		SAME(o.diff[i] == a->diff[off + i], "lop %u: diff %u, serial %u", off + i, o.diff[i],
		     a->diff[off + i]);
		SAME(o.cause[i] == a->cause[off + i], "lop %u: cause 0x%x, serial 0x%x", off + i,
		     o.cause[i], a->cause[off + i]);
	}
	/* the rank's large values and far causes: the serial lists' run */
	uint32_t k = 0;
	while (k < a->n_diff_big && a->diff_big[k].lop < off)
		k++;
	for (uint32_t i = 0; i < o.n_big; i++, k++)
		SAME(k < a->n_diff_big && a->diff_big[k].lop == o.big[i].lop &&
		     a->diff_big[k].diff == o.big[i].diff, "large value %u", i);
	k = 0;
	while (k < a->n_cause_far && a->cause_far[k].lop < off)
		k++;
	for (uint32_t i = 0; i < o.n_far; i++, k++)
		SAME(k < a->n_cause_far && a->cause_far[k].lop == o.far[i].lop &&
		     a->cause_far[k].cause_lop == o.far[i].cause_lop, "far cause %u", i);
	/* the minima it holds */
	SAME(o.n_slots == a->pmin_first[a->n_parts], "slots %u, serial %u", o.n_slots,
	     a->pmin_first[a->n_parts]);
	for (uint32_t p = o.part_lo; p <= o.part_hi; p++)
		SAME(o.pmin_first[p - o.part_lo] == a->pmin_first[p], "partition %u's first slot", p);
	for (uint32_t s = o.pmin_first[0]; s < o.pmin_first[o.part_hi - o.part_lo]; s++)
		SAME(o.pmin[s - o.pmin_first[0]] == a->pmin[s], "slot %u: %llu, serial %llu", s,
		     (unsigned long long)o.pmin[s - o.pmin_first[0]], (unsigned long long)a->pmin[s]);
	for (uint32_t s = o.step_lo; s < o.step_hi; s++)
		SAME(o.gmin[s - o.step_lo] == a->gmin[s], "global step %u", s);
	if (c->rank == 0) {
		SAME(o.n_hot == a->n_hot && o.n_hot_all == a->n_hot_all, "hotspot counts");
		SAME(!o.n_hot || !memcmp(o.hot, a->hot, o.n_hot * sizeof *o.hot), "hotspots");
		SAME(!o.n_hot_all || !memcmp(o.hot_all, a->hot_all, o.n_hot_all * sizeof *o.hot_all),
		     "hotspots with start-up");
	}
	SAME(o.progress_receives == a->stats.progress_receives, "progress receives %u, serial %u",
	     o.progress_receives, a->stats.progress_receives);
	SAME(o.startup_hidden == a->stats.startup_hidden, "start-up hidden");
	SAME(o.startup_lops == a->stats.startup_lops, "start-up lops");
	SAME(o.startup_max_lop == a->stats.startup_max_lop, "latest start-up %u, serial %u",
	     o.startup_max_lop, a->stats.startup_max_lop);
out:
	dmet_out_free(&o);
	free(o.diff);
	free(o.cause);
	free(sf);
	free(sc);
	dist_slice_free(la);
	dmodel_free(&d);
	return bad;
}

static void
check_trace(const char *path, const struct analysis_opts *o)
{
	struct trace *t = tu_load(path);
	struct analysis *a = tu_analyse(t, o);
	struct world w = { .t = t, .a = a, .path = path };
	uint32_t n_tl, n_ops;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	trace_ops(t, &n_ops);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		uint32_t tl = 0, ops = 0;
		for (uint32_t r = 0; r < n; r++) {
			w.first[r] = tl;
			while (tl < n_tl && (r + 1 == n || (uint64_t)ops * n < (uint64_t)n_ops * (r + 1)))
				ops += tls[tl++].op_count;
		}
		w.first[n] = n_tl;
		int rc = dcomm_threads_run(n, rank_main, &w);
		if (rc)
			print_error("%s on %u ranks: metrics differ (see above)\n", path, n);
		assert_int_equal(rc, 0);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

static void
check_all(const char *const *p, size_t n)
{
	struct analysis_opts o;
	analysis_opts_default(&o);
	for (size_t i = 0; i < n; i++)
		check_trace(p[i], &o);
	o.sender_progress = !o.sender_progress;
	o.startup = !o.startup;
	o.hotspots = 3;
	for (size_t i = 0; i < n; i++)
		check_trace(p[i], &o);
}

static void
corpus_metrics_are_the_serial_ones(void **state)
{
	(void)state;
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
		fprintf(stderr, "test_dist_metrics: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_metrics_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed metrics", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
