/* test_charm_iter.c — the iterations of the Charm++ runs in
 * ../shared/traces/projections (iterations_period.c): the period of
 * their application phases by default, an entry method's executions when
 * one is named, and none where nothing repeats. The Jacobi runs' ground
 * truth (their README): 10 iterations (8 in the 64-chare run), each an
 * application phase of ghost exchanges and the reduction that follows;
 * the injected busy-wait in the 5th. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/iterations.h"
#include "model/charm.h"
#include "projections/projections_read.h"

static struct analysis *
analyse(const struct trace *t, const char *iter_region, int find)
{
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.iter_region = iter_region;
	o.iter_find = find;
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (analysis_run(t, &o, NULL, NULL, &a, &e))
		fail_msg("analysis: %s", e.msg);
	return a;
}

static const char *
lop_entry(const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	uint32_t r = analysis_lop_region(a, l);
	return r == TRACE_NONE ? "" : trace_str(t, trace_regions(t, NULL)[r].name);
}

/* Each iteration of a holds exactly one application phase with events,
 * first, and its runtime phases after it: the phases in step order. */
static void
assert_app_then_runtime(const struct analysis *a)
{
	const struct iterations *it = iterations_get(a);
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	for (uint32_t k = 0; k < it->count; k++) {
		uint32_t app = 0, runtime = 0, first_app = UINT32_MAX, first = UINT32_MAX;
		for (uint32_t p = 0; p < np; p++) {
			if (iterations_of_step(a, parts[p].step_first) != k || !parts[p].comm_count)
				continue;
			if (parts[p].step_first < first)
				first = parts[p].step_first;
			if (parts[p].runtime) {
				runtime++;
			} else {
				app++;
				first_app = parts[p].step_first;
			}
		}
		if (app != 1 || runtime < 1 || first_app != first || first != it->starts[k])
			fail_msg("iteration %u: %u application and %u runtime phases, starting at %u "
				 "(the application's at %u)", k, app, runtime, first, first_app);
	}
}

static const struct {
	const char *run;
	uint32_t count;
} jacobi[] = {
	{ "projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts", 10 },
	{ "projections/charm-jacobi2d_16c_4pe_10it_plain/jacobi2d.prj.sts", 10 },
	{ "projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts", 10 },
	{ "projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts", 8 },
	{ "projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts", 10 },
};

/* By default: the period of the application phases. */
static void
test_jacobi_iterations(void **state)
{
	(void)state;
	int any = 0;
	for (size_t i = 0; i < sizeof jacobi / sizeof jacobi[0]; i++) {
		struct trace *t = tu_load_charm(jacobi[i].run);
		if (!t)
			continue;
		any = 1;
		struct analysis *a = analyse(t, NULL, ITER_FIND_AUTO);
		const struct iterations *it = iterations_get(a);
		if (it->count != jacobi[i].count || it->source != ITER_STRUCTURE)
			fail_msg("%s: %u iterations found by %s", jacobi[i].run, it->count,
				 iterations_source_name(it->source));
		assert_int_equal(it->period_parts, 2);
		assert_app_then_runtime(a);
		/* every Jacobi_compute is in the iteration of its phase, k-th
		 * on its chare in iteration k - 1 */
		uint32_t n_tl;
		trace_timelines(t, &n_tl);
		for (uint32_t tl = 0; tl < n_tl; tl++) {
			uint32_t first, count, k = 0;
			analysis_timeline_lops(a, tl, &first, &count);
			for (uint32_t l = first; l < first + count; l++) {
				if (strcmp(lop_entry(a, l), "Jacobi::Jacobi_compute"))
					continue;
				uint32_t ki = iterations_of_lop(a, l);
				if (ki != k)
					fail_msg("%s: chare %u's compute %u in iteration %u", jacobi[i].run, tl, k, ki);
				k++;
			}
			assert_true(k == 0 || k == jacobi[i].count);
		}
		/* with detection off, none */
		struct analysis *off = analyse(t, NULL, ITER_FIND_OFF);
		assert_int_equal(iterations_get(off)->count, 0);
		analysis_destroy(off);
		analysis_destroy(a);
		trace_destroy(t);
	}
	if (!any)
		skip();
}

/* The injected busy-wait is in the 5th iteration (0-based 4). */
static void
test_imbalance_iteration(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts");
	if (!t)
		skip();
	struct analysis *a = analyse(t, NULL, ITER_FIND_AUTO);
	uint32_t n;
	const uint32_t *hot = analysis_hotspots(a, &n);
	assert_true(n > 0);
	assert_string_equal(lop_entry(a, hot[0]), "Jacobi::Jacobi_compute");
	assert_int_equal(iterations_of_lop(a, hot[0]), 4);
	analysis_destroy(a);
	trace_destroy(t);
}

/* --iteration-region on a Charm++ run names an entry method: each k-th
 * execution on a chare starts the k-th iteration. */
static void
test_named_entry(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct analysis *s = analyse(t, NULL, ITER_FIND_AUTO);
	const struct iterations *si = iterations_get(s);
	static const char *const marks[] = { "Jacobi::Jacobi_begin_iteration", "*::Jacobi_compute" };
	for (size_t i = 0; i < 2; i++) {
		struct analysis *a = analyse(t, marks[i], ITER_FIND_AUTO);
		const struct iterations *it = iterations_get(a);
		if (it->count != 10 || it->source != ITER_NAMED || it->named_none)
			fail_msg("%s: %u iterations found by %s", marks[i], it->count,
				 iterations_source_name(it->source));
		assert_int_not_equal(it->region, TRACE_NONE);
		assert_true(strncmp(trace_str(t, trace_regions(t, NULL)[it->region].name),
				    "Jacobi::Jacobi_", 15) == 0);
		/* the same iterations as the application phases' period */
		for (uint32_t k = 0; k <= it->count; k++)
			assert_int_equal(it->starts[k], si->starts[k]);
		assert_app_then_runtime(a);
		analysis_destroy(a);
	}
	/* receiveGhosts runs 2 to 4 times an iteration: its k-th executions
	 * do not follow each other phase by phase, and that is said */
	struct analysis *a = analyse(t, "Jacobi::receiveGhosts", ITER_FIND_AUTO);
	assert_int_equal(iterations_get(a)->count, 0);
	assert_true(iterations_get(a)->named_none);
	analysis_destroy(a);
	analysis_destroy(s);
	trace_destroy(t);
}

/* Runs that do not loop have no iterations: a ping-pong whose two
 * application phases of one shape are no loop, a chain, a ring, one
 * reduction. */
static void
test_no_false_loops(void **state)
{
	(void)state;
	static const char *const runs[] = {
		"projections/charm-allreduce_16c_4pe/AllReduce.prj.sts",
		"projections/charm-hello1d_8c_4pe/hello1d.prj.sts",
		"projections/charm-ring_group_4pe/ring.prj.sts",
		"projections/charm-simple_reduction_16c_4pe/simple_reduction.prj.sts",
		"projections/charm-synth-projections-4pe/main.sts",
		"projections/pipit-charm-pingpong-projections/pingpong.prj.sts",
	};
	int any = 0;
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		struct trace *t = tu_load_charm(runs[i]);
		if (!t)
			continue;
		any = 1;
		struct analysis *a = analyse(t, NULL, ITER_FIND_AUTO);
		if (iterations_get(a)->count)
			fail_msg("%s: %u iterations", runs[i], iterations_get(a)->count);
		assert_false(iterations_get(a)->named_none);
		analysis_destroy(a);
		trace_destroy(t);
	}
	if (!any)
		skip();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jacobi_iterations),
		cmocka_unit_test(test_imbalance_iteration),
		cmocka_unit_test(test_named_entry),
		cmocka_unit_test(test_no_false_loops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
