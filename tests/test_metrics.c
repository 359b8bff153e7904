/* test_metrics.c — exact lateness, differential and global lateness on
 * real traces, worked out by hand from otf2-print's timestamps (quoted in
 * each test; all in ns, the traces' tick). A metric computed over the
 * wrong set of operations, or a predecessor missed or added, changes
 * these numbers. */
#include "testutil.h"

#include <glob.h>

#include "analysis/core/analysis.h"

static struct analysis *
analyse(const struct trace *t, const struct analysis_opts *o)
{
	struct analysis *a = tu_analyse(t, o);
	assert_true(analysis_verified(a));
	return a;
}

/* The n-th communication lop (0-based) of rank r. */
static uint32_t
comm(const struct analysis *a, uint32_t r, uint32_t n)
{
	uint32_t l = tu_comm_lop(a, r, n);
	assert_int_not_equal(l, TRACE_NONE);
	return l;
}

/* casita-4_mpi_ls_barr: a late-sender chain, then one MPI_Barrier. Its
 * Enter and Leave per rank (otf2-print, minus the global offset
 * 106106710787758):
 *
 *   rank  ENTER          LEAVE
 *   0     20085304384    20085350429
 *   1     12250142035    20085351223
 *   2     13241508576    20085361184
 *   3     13354995994    20085407321
 *
 * The barrier is one partition and one step: lateness = LEAVE − the
 * earliest LEAVE = 0, 794, 10755, 56892 (Ravel's rows say the same). The
 * computation before it ends at ENTER: its lateness is ENTER − the
 * earliest ENTER (rank 1) = 7835162349, 0, 991366541, 1104853959. So the
 * barrier's differential lateness is 794 on rank 1 (its computation was
 * not late) and 0 elsewhere (their computations were later than the
 * barrier is). The op before each computation (a send on ranks 0-2,
 * rank 3's receive) has lateness 0 (Ravel's rows), so each
 * computation's differential lateness is all its lateness. Global
 * lateness equals lateness: nothing else shares these steps. The same
 * with skein's defaults and with the paper's pipeline. */
static void
casita4_barrier(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-4_mpi_ls_barr/traces.otf2");
	struct trace *t = tu_load(path);
	static const uint64_t late[4] = { 0, 794, 10755, 56892 }, diff[4] = { 0, 794, 0, 0 };
	static const uint64_t agg[4] = { 7835162349ull, 0, 991366541ull, 1104853959ull };
	/* communication ops before the barrier: rank 0 sends, 1 and 2
	 * receive and send, 3 receives */
	static const uint32_t before[4] = { 1, 2, 2, 1 };
	for (int paper = 0; paper < 2; paper++) {
		struct analysis_opts o;
		if (paper)
			analysis_opts_paper(&o);
		else
			analysis_opts_default(&o);
		struct analysis *a = analyse(t, &o);
		for (uint32_t r = 0; r < 4; r++) {
			uint32_t b = comm(a, r, before[r]);
			assert_int_equal(analysis_lop_kind(a, b), OP_COLLECTIVE);
			assert_int_equal(analysis_lop_lateness(a, b), late[r]);
			assert_int_equal(analysis_lop_global_lateness(a, b), late[r]);
			assert_int_equal(analysis_lop_diff(a, b), diff[r]);
			assert_int_equal(analysis_lop_lateness(a, b - 1), agg[r]);
			assert_int_equal(analysis_lop_global_lateness(a, b - 1), agg[r]);
			/* the op before each computation was not late: all its
			 * lateness is its own (rank 0's needs more than 32 bits) */
			assert_int_equal(analysis_lop_diff(a, b - 1), agg[r]);
		}
		assert_int_equal(analysis_lop_cause(a, comm(a, 1, 2)), CAUSE_COMPUTE);
		assert_int_equal(analysis_lop_cause(a, comm(a, 3, 1)), CAUSE_TIMELINE);
		analysis_destroy(a);
	}
	trace_destroy(t);
}

/* traces/corpus/overlap-4-delay: iteration 0 of a ring exchange of large
 * blocks, Isends then computation then one Waitall, with 100 ms injected
 * into rank 1's computation. From otf2-print (minus 2259000000000):
 *
 *   rank  Isends leave   Waitall enter  Waitall leave (= MPI_IRECV)
 *   0     814434985      814488024      918139374
 *   1     814764414      916379983      918485177
 *   2     814908954      815092797      918503770
 *   3     814464605      814517483      815672417
 *
 * Lateness (one partition: Isends, computation, Waitalls on three steps):
 *   Isends:       0, 329429, 473969, 29620          (leave − rank 0's)
 *   computation:  0, 101891959, 604773, 29459       (enter − rank 0's)
 *   Waitall:      102466957, 102812760, 102831353, 0 (leave − rank 3's)
 * Rank 1's computation created its lateness: 101891959 − its Isends'
 * 329429 = 101562530. Ranks 0 and 2 each receive rank 1's block, which
 * arrived (918139374, 918503770) only after rank 1 entered the Waitall
 * completing its Isends (916379983): with sender progress, rank 1's
 * computation (101891959) is their predecessor, so they created only
 * 102466957 − 101891959 = 574998 and 102831353 − 101891959 = 939394,
 * propagated from it (d). The paper's predecessors are their own
 * computation and the senders' Isends: rank 0 then "created in flight"
 * 102466957 − 329429 = 102137528, rank 2 102831353 − 604773 = 102226580,
 * both more than rank 1's computation: the paper's top hotspot is rank
 * 2's Waitall. */
static void
overlap_progress(void **state)
{
	(void)state;
	char path[1024];
	struct trace *t = tu_load(PROJECT_PATH(path, "traces/corpus/overlap-4-delay/traces.otf2"));
	struct analysis *a = analyse(t, NULL);
	uint32_t w0 = comm(a, 0, 2), w1 = comm(a, 1, 2), w2 = comm(a, 2, 2), w3 = comm(a, 3, 2);
	uint32_t c1 = w1 - 1;
	assert_int_equal(analysis_lop_kind(a, w0), OP_RECV);
	assert_int_equal(analysis_lop_lateness(a, comm(a, 1, 1)), 329429);
	assert_int_equal(analysis_lop_lateness(a, c1), 101891959);
	assert_int_equal(analysis_lop_diff(a, c1), 101562530);
	assert_int_equal(analysis_lop_cause(a, c1), CAUSE_COMPUTE);
	assert_int_equal(analysis_lop_lateness(a, w0), 102466957);
	assert_int_equal(analysis_lop_lateness(a, w1), 102812760);
	assert_int_equal(analysis_lop_lateness(a, w2), 102831353);
	assert_int_equal(analysis_lop_lateness(a, w3), 0);
	assert_int_equal(analysis_lop_diff(a, w0), 574998);
	assert_int_equal(analysis_lop_diff(a, w2), 939394);
	assert_int_equal(analysis_lop_cause(a, w0), CAUSE_MESSAGE);
	assert_int_equal(analysis_lop_cause_lop(a, w0), c1);
	assert_int_equal(analysis_lop_cause_lop(a, w2), c1);
	uint32_t nh;
	const uint32_t *hot = analysis_hotspots(a, &nh);
	assert_true(nh > 0);
	assert_int_equal(hot[0], c1);
	assert_true(analysis_stats(a)->progress_receives >= 2);
	analysis_destroy(a);

	struct analysis_opts o;
	analysis_opts_paper(&o);
	a = analyse(t, &o);
	assert_int_equal(analysis_lop_diff(a, w0), 102137528);
	assert_int_equal(analysis_lop_diff(a, w2), 102226580);
	assert_int_equal(analysis_lop_cause(a, w0), CAUSE_IN_FLIGHT);
	assert_int_equal(analysis_lop_diff(a, c1), 101562530);
	hot = analysis_hotspots(a, &nh);
	assert_int_equal(hot[0], w2);
	assert_int_equal(hot[1], w0);
	assert_int_equal(hot[2], c1);
	assert_int_equal(analysis_stats(a)->progress_receives, 0);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A lop's key for the minima: its partition and step, or its step. */
struct keyed {
	uint64_t key, exit;
	uint32_t lop;
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	return a->key < b->key ? -1 : a->key > b->key;
}

/* min[l]: the earliest exit among the lops whose key is l's (lops
 * without a step: none). */
static void
minima(const struct analysis *a, int global, uint64_t *min)
{
	uint32_t n = analysis_lop_count(a), m = 0;
	struct keyed *k = malloc(((size_t)n + 1) * sizeof *k);
	assert_non_null(k);
	for (uint32_t l = 0; l < n; l++) {
		uint32_t p = analysis_lop_part(a, l), s = analysis_lop_step(a, l);
		min[l] = UINT64_MAX;
		if (s != TRACE_NONE && (global || p != TRACE_NONE))
			k[m++] = (struct keyed){ (global ? 0 : (uint64_t)p << 32) | s,
						 analysis_lop_exit(a, l), l };
	}
	qsort(k, m, sizeof *k, cmp_keyed);
	for (uint32_t i = 0, j; i < m; i = j) {
		uint64_t lo = UINT64_MAX;
		for (j = i; j < m && k[j].key == k[i].key; j++)
			lo = k[j].exit < lo ? k[j].exit : lo;
		for (uint32_t x = i; x < j; x++)
			min[k[x].lop] = lo;
	}
	free(k);
}

/* Every corpus trace, with the defaults, the paper's pipeline and
 * --reorder: lateness and global lateness are, by their definition, a
 * lop's exit minus the earliest exit among the lops of its partition
 * and step, or of its global step (skein keeps only those minima, not
 * the lateness of each lop); a propagated cause's differential lateness
 * is the lateness beyond its cause's lop's, and no lop's is more than
 * its lateness. */
static void
definitions_on_corpus(void **state)
{
	(void)state;
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 20);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct trace *t = tu_load(g.gl_pathv[i]);
		for (int set = 0; set < 3; set++) {
			struct analysis_opts o;
			if (set == 1)
				analysis_opts_paper(&o);
			else
				analysis_opts_default(&o);
			o.reorder = set == 2;
			struct analysis *a = tu_analyse(t, &o);
			uint32_t n = analysis_lop_count(a);
			uint64_t *pmin = malloc(((size_t)n + 1) * sizeof *pmin);
			uint64_t *gmin = malloc(((size_t)n + 1) * sizeof *gmin);
			assert_true(pmin && gmin);
			minima(a, 0, pmin);
			minima(a, 1, gmin);
			for (uint32_t l = 0; l < n; l++) {
				uint64_t x = analysis_lop_exit(a, l), late = analysis_lop_lateness(a, l);
				assert_int_equal(late, pmin[l] == UINT64_MAX ? 0 : x - pmin[l]);
				assert_int_equal(analysis_lop_global_lateness(a, l),
						 gmin[l] == UINT64_MAX ? 0 : x - gmin[l]);
				uint64_t d = analysis_lop_diff(a, l);
				assert_true(d <= late);
				uint32_t c = analysis_lop_cause_lop(a, l);
				if (c != TRACE_NONE) {
					uint64_t lc = analysis_lop_lateness(a, c);
					assert_int_equal(d, late > lc ? late - lc : 0);
				}
			}
			free(pmin);
			free(gmin);
			analysis_destroy(a);
		}
		trace_destroy(t);
	}
	globfree(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(casita4_barrier),
		cmocka_unit_test(overlap_progress),
		cmocka_unit_test(definitions_on_corpus),
	};
	return cmocka_run_group_tests_name("exact metrics on real traces", tests, NULL, NULL);
}
