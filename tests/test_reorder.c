/* test_reorder.c — seed 004's reordering for MPI traces (opts.reorder,
 * src/analysis/reorder.c) on the project's corpus.
 *
 * gen-gather-6-delay: every iteration, ranks 1..5 send to rank 0, which
 * receives them as MPI_ANY_SOURCE would, in arrival order (jitter, and a
 * 3 ms delay on rank 1 in iteration 2, shuffle it); with leap merge each
 * gather is one partition. In time order rank 0's receives follow the
 * arrivals; reordered, they follow the idealised replay, whose ties go to
 * the lower sender rank: 1, 2, 3, 4, 5 in every iteration. Sends and
 * collectives never move, and every corpus trace still verifies.
 */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"

static struct analysis *
run(const struct trace *t, int reorder, int leap)
{
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.reorder = reorder;
	o.leap_merge = leap;
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (analysis_run(t, &o, NULL, NULL, &a, &e)) {
		print_error("analysis: %s\n", e.msg);
		fail();
	}
	return a;
}

/* The rank that sent what receive lop l received (the lowest, if many). */
static uint32_t
sender(const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_ops, n_ends, first, count;
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_end *ends = trace_ends(t, &n_ends);
	const struct trace_msg *msgs = trace_msgs(t, NULL);
	analysis_lop_ops(a, l, &first, &count);
	uint32_t best = TRACE_NONE;
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t e1 = op + 1 < n_ops ? trace_op_get(&ops, op + 1).end_first : n_ends;
		for (uint32_t e = trace_op_get(&ops, op).end_first; e < e1; e++)
			if (ends[e].role == END_RECV && msgs[ends[e].id].send_op != TRACE_NONE &&
			    trace_op_get(&ops, msgs[ends[e].id].send_op).timeline < best)
				best = trace_op_get(&ops, msgs[ends[e].id].send_op).timeline;
	}
	return best;
}

/* Rank 0's receives, partition by partition: how many partitions list
 * their senders out of rank order, and how many hold receives at all. */
static void
gather_order(const struct analysis *a, uint32_t *unordered, uint32_t *gathers)
{
	uint32_t first, count;
	analysis_timeline_lops(a, 0, &first, &count);
	*unordered = *gathers = 0;
	uint32_t part = TRACE_NONE, prev = 0, n = 0;
	int bad = 0;
	for (uint32_t l = first; l <= first + count; l++) {
		int end = l == first + count;
		if (end || analysis_lop_part(a, l) != part) {
			if (n > 1) {
				(*gathers)++;
				*unordered += (uint32_t)bad;
			}
			if (end)
				break;
			part = analysis_lop_part(a, l);
			n = 0;
			bad = 0;
		}
		if (analysis_lop_kind(a, l) != OP_RECV)
			continue;
		uint32_t s = sender(a, l);
		if (n++ && s < prev)
			bad = 1;
		prev = s;
	}
}

static void
test_gather_reordered(void **state)
{
	(void)state;
	char path[1024];
	PROJECT_PATH(path, "traces/corpus/gen-gather-6-delay/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *phys = run(t, 0, 1), *re = run(t, 1, 1);
	assert_true(analysis_verified(phys));
	assert_true(analysis_verified(re));
	uint32_t unordered, gathers;
	gather_order(phys, &unordered, &gathers);
	assert_int_equal(gathers, 4);              /* one per iteration */
	assert_true(unordered >= 1);               /* arrivals shuffle them */
	assert_int_equal(analysis_stats(phys)->reordered, 0);
	gather_order(re, &unordered, &gathers);
	assert_int_equal(gathers, 4);
	assert_int_equal(unordered, 0);            /* rank order, every time */
	assert_true(analysis_stats(re)->reordered > 0);

	/* the same ops, other steps: the receive from rank 1 comes first */
	uint32_t n = analysis_lop_count(re), moved = 0;
	assert_int_equal(n, analysis_lop_count(phys));
	uint32_t n_ops;
	trace_ops(t, &n_ops);
	uint32_t *step_phys = calloc(n_ops, sizeof *step_phys);
	assert_non_null(step_phys);
	for (uint32_t l = 0; l < n; l++) {
		uint32_t f, c;
		analysis_lop_ops(phys, l, &f, &c);
		step_phys[f] = analysis_lop_step(phys, l);
	}
	for (uint32_t l = 0; l < n; l++) {
		uint32_t f, c;
		analysis_lop_ops(re, l, &f, &c);
		moved += step_phys[f] != analysis_lop_step(re, l);
	}
	free(step_phys);
	assert_true(moved > 0);
	/* step counts and partitions are the reordering's to keep */
	assert_int_equal(analysis_step_count(re), analysis_step_count(phys));
	analysis_destroy(phys);
	analysis_destroy(re);
	trace_destroy(t);
}

/* Along every timeline, whatever came before an op that is not a
 * receive (a send, a collective, a wait) in time still comes before it:
 * such ops keep their order, and receives only move ahead of them. */
static void
check_fixed_order(const struct analysis *a, const char *path)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_tl;
	trace_timelines(t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t first, count;
		analysis_timeline_lops(a, tl, &first, &count);
		uint64_t min_after = UINT64_MAX;     /* earliest enter after the cursor */
		for (uint32_t l = first + count; l-- > first;) {
			enum trace_op_kind k = analysis_lop_kind(a, l);
			if (k == OP_COMPUTE)
				continue;
			uint64_t en = analysis_lop_enter(a, l);
			if (k != OP_RECV && min_after < en)
				fail_msg("%s: timeline %u: an op that entered at %llu now comes after the %s "
					 "entering at %llu", path, tl, (unsigned long long)min_after,
					 trace_op_kind_name(k), (unsigned long long)en);
			if (en < min_after)
				min_after = en;
		}
	}
}

static void
test_corpus_verifies(void **state)
{
	(void)state;
	char pat[1024];
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	glob_t g;
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct trace *t = tu_load(g.gl_pathv[i]);
		for (int leap = 0; leap <= 1; leap++) {
			struct analysis *a = run(t, 1, leap);
			if (!analysis_verified(a))
				fail_msg("%s (leap merge %d): the verifier fails with reordering", g.gl_pathv[i], leap);
			check_fixed_order(a, g.gl_pathv[i]);
			analysis_destroy(a);
		}
		trace_destroy(t);
	}
	globfree(&g);
}

/* Without leap merge the gather's receives are a partition each: there
 * is nothing to reorder, and the structure is the time-order one. */
static void
test_nothing_to_reorder(void **state)
{
	(void)state;
	char path[1024];
	PROJECT_PATH(path, "traces/corpus/gen-gather-6-delay/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *phys = run(t, 0, 0), *re = run(t, 1, 0);
	assert_int_equal(analysis_stats(re)->reordered, 0);
	assert_int_equal(analysis_step_count(re), analysis_step_count(phys));
	for (uint32_t l = 0; l < analysis_lop_count(re); l++)
		assert_int_equal(analysis_lop_step(re, l), analysis_lop_step(phys, l));
	analysis_destroy(phys);
	analysis_destroy(re);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gather_reordered),
		cmocka_unit_test(test_corpus_verifies),
		cmocka_unit_test(test_nothing_to_reorder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
