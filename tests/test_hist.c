/* test_hist.c — histograms, the activity timeline and the call density,
 * on values and hand-built traces whose answer is known. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "model/build.h"
#include "analysis/core/hist.h"
#include "analysis/run/run.h"
#include "model/trace_impl.h"

static void
linear_and_log_bins(void **state)
{
	(void)state;
	double v[10];
	for (int i = 0; i < 10; i++)
		v[i] = i;
	struct hist h;
	assert_int_equal(hist_build(v, 10, 10, 0, &h), 0);
	for (uint32_t b = 0; b < 10; b++)
		assert_int_equal(h.count[b], 1);
	assert_int_equal(h.peak, 1);
	assert_true(hist_edge(&h, 0) == 0 && hist_edge(&h, 10) == 9);
	hist_fini(&h);

	double w[6] = { 0, 1, 10, 100, 1000, -3 };
	assert_int_equal(hist_build(w, 6, 3, 1, &h), 0);
	assert_int_equal(h.zero, 2);             /* 0 and -3 have no logarithm */
	assert_int_equal(h.total, 6);
	assert_int_equal(h.count[0], 1);         /* [1, 10) */
	assert_int_equal(h.count[1], 1);         /* [10, 100) */
	assert_int_equal(h.count[2], 2);         /* [100, 1000] */
	assert_true(fabs(hist_edge(&h, 1) - 10) < 1e-9);
	hist_fini(&h);

	double one = 5;
	assert_int_equal(hist_build(&one, 1, 4, 0, &h), 0);
	assert_int_equal(h.count[0], 1);
	hist_fini(&h);
	assert_int_equal(hist_build(v, 10, 0, 0, &h), ERR_USAGE);
}

static struct trace *
corpus(const char *name)
{
	char path[1024], rel[256];
	snprintf(rel, sizeof rel, "traces/corpus/%s/traces.otf2", name);
	PROJECT_PATH(path, rel);
	return tu_load(path);
}

/* On the stencil with a 100 ms delay: lateness values for every lop and
 * for one partition; the largest is the delay; message sizes. */
static void
collect(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4-delay");
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(analysis_run(t, NULL, NULL, NULL, &a, &e), 0);
	double *v;
	size_t n;
	assert_int_equal(hist_collect(a, HM_LATENESS, TRACE_NONE, NULL, &v, &n), 0);
	assert_int_equal(n, analysis_lop_count(a));
	double max = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	assert_true(max > 0.09 && max < 0.2);
	free(v);
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	struct hist_select sel = { .part = 2 };
	assert_int_equal(hist_collect(a, HM_DIFF, TRACE_NONE, &sel, &v, &n), 0);
	assert_int_equal(n, parts[2].lop_count);
	free(v);
	sel = (struct hist_select){ .part = TRACE_NONE, .step_first = 0, .step_end = 2 };
	assert_int_equal(hist_collect(a, HM_DURATION, TRACE_NONE, &sel, &v, &n), 0);
	assert_int_equal(n, 4);                  /* the setup barrier on 4 ranks */
	free(v);
	assert_int_equal(hist_collect_msg_sizes(t, &v, &n), 0);
	assert_int_equal(n, 96);
	struct hist h;
	assert_int_equal(hist_build(v, n, 8, 1, &h), 0);
	assert_int_equal(h.count[0], 96);        /* all 64 bytes */
	hist_fini(&h);
	free(v);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Two ranks: rank 0 in MPI_Send during [0, 50), rank 1 in MPI_Recv during
 * [0, 100). Over [0, 100) in two bins: bin 0 has Send 0.5 and Recv 0.5 of
 * the ranks, bin 1 Recv 0.5. */
static void
activity(void **state)
{
	(void)state;
	struct trace *t = trace_new();
	uint32_t rs, rr, id, world[2] = { 0, 1 };
	assert_int_equal(trace_add_region(t, "MPI_Send", ROLE_SEND, 4, &rs), 0);
	assert_int_equal(trace_add_region(t, "MPI_Recv", ROLE_RECV, 4, &rr), 0);
	assert_int_equal(trace_add_comm(t, 0, world, 2, 0, &id), 0);
	assert_int_equal(trace_set_timelines(t, 2), 0);
	struct build *b = build_create(t);
	assert_int_equal(build_timeline_begin(b, 0), 0);
	assert_int_equal(build_enter(b, 0, rs), 0);
	assert_int_equal(build_send(b, 10, 1, 0, 0, 8, UINT64_MAX), 0);
	assert_int_equal(build_leave(b, 50, rs), 0);
	assert_int_equal(build_timeline_end(b), 0);
	assert_int_equal(build_timeline_begin(b, 1), 0);
	assert_int_equal(build_enter(b, 0, rr), 0);
	assert_int_equal(build_recv(b, 90, 0, 0, 0, 8, UINT64_MAX), 0);
	assert_int_equal(build_leave(b, 100, rr), 0);
	assert_int_equal(build_timeline_end(b), 0);
	assert_int_equal(build_finish(b, NULL, NULL), 0);
	build_destroy(b);
	struct activity act;
	assert_int_equal(activity_compute(t, 0, 100, 2, 8, &act), 0);
	assert_int_equal(act.n_funcs, 2);
	assert_int_equal(act.func_region[0], rr);    /* most time first */
	uint32_t w = act.n_funcs + 1;
	assert_true(fabs(act.frac[0 * w + 0] - 0.5) < 1e-9);    /* Recv, bin 0 */
	assert_true(fabs(act.frac[0 * w + 1] - 0.5) < 1e-9);    /* Send, bin 0 */
	assert_true(fabs(act.frac[1 * w + 0] - 0.5) < 1e-9);    /* Recv, bin 1 */
	assert_true(fabs(act.frac[1 * w + 1]) < 1e-9);
	activity_fini(&act);
	/* with one function column, Send falls into "other" */
	assert_int_equal(activity_compute(t, 0, 100, 2, 1, &act), 0);
	assert_int_equal(act.n_funcs, 1);
	assert_true(fabs(act.frac[0 * 2 + 1] - 0.5) < 1e-9);
	activity_fini(&act);

	/* density: two calls, of 50 and 100 ticks, start at 0: one column;
	 * the longer call in the top row */
	struct density d;
	assert_int_equal(density_compute(t, 0, 100, 4, 2, 0, DENSITY_LOG, 0.25, &d), 0);
	assert_int_equal(d.d_max, 1);
	assert_int_equal(d.d[0 * 4 + 0], 1);        /* row 0: the longest */
	assert_int_equal(d.region[0], rr);
	assert_int_equal(d.d[1 * 4 + 0], 1);
	assert_true(d.opacity[0] == 1.0f);
	assert_true(d.opacity[1] == 0.0f);           /* empty cell */
	density_fini(&d);
	trace_destroy(t);
}

/* Seed 003's activity timeline counts every MPI call, the quiet ones too
 * (MPI_Wait, Irecv, Comm_split, the non-blocking collectives, which carry
 * no record the structure keeps): on SST/macro's coverage trace, over the
 * span the explorer draws (from the end of the ranks' start-up to the
 * trace's end), the fractions add up to the MPI share of the ranks' time.
 * otf2-print's events give 98.46% there (the time inside outermost
 * MPI_* regions over 10 ranks x [1.209608 s, 1.247804 s]); counting the
 * ops alone gave 89%. */
static void
activity_quiet_calls(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/sstmacro-mpi-coverage-10/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(analysis_run(t, NULL, NULL, NULL, &a, &e), 0);
	uint64_t t0 = analysis_startup_end(a), t1 = trace_info(t)->t_end;
	assert_true(t1 > t0);
	struct activity act;
	uint32_t bins = 118;
	assert_int_equal(activity_compute(t, t0, t1, bins, 6, &act), 0);
	double sum = 0;
	for (size_t i = 0; i < (size_t)bins * (act.n_funcs + 1); i++)
		sum += act.frac[i];
	sum /= bins;
	assert_true(fabs(sum - 0.9846) < 0.01);
	/* MPI_Wait, a quiet call here, is among the six busiest */
	int wait = 0;
	const struct trace_region *reg = trace_regions(t, NULL);
	for (uint32_t i = 0; i < act.n_funcs; i++)
		wait |= !strcmp(trace_str(t, reg[act.func_region[i]].name), "MPI_Wait");
	assert_true(wait);
	activity_fini(&act);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The opacity maps of seed 003 §2.3 on many equal calls and one outlier:
 * the outlier keeps the minimum opacity, the densest cell gets 1. */
static void
opacity_maps(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4-delay");
	struct density lin, lg;
	uint64_t end = trace_info(t)->t_end + 1;
	assert_int_equal(density_compute(t, 0, end, 20, 10, 0, DENSITY_LINEAR, 0.2, &lin), 0);
	assert_int_equal(density_compute(t, 0, end, 20, 10, 1, DENSITY_LOG, 0.2, &lg), 0);
	assert_true(lin.d_max > 1);
	uint64_t total = 0;
	for (uint32_t c = 0; c < 200; c++) {
		total += lin.d[c];
		if (!lin.d[c]) {
			assert_true(lin.opacity[c] == 0);
			continue;
		}
		float want = (float)(0.2 + 0.8 * (double)lin.d[c] / lin.d_max);
		assert_true(fabsf(lin.opacity[c] - want) < 1e-6f);
		assert_true(lin.opacity[c] >= 0.2f - 1e-6f && lin.opacity[c] <= 1.0f + 1e-6f);
		if (lin.d[c] == lin.d_max)
			assert_true(fabsf(lin.opacity[c] - 1.0f) < 1e-6f);
	}
	for (uint32_t c = 0; c < 200; c++)
		if (lg.d[c] == 1)
			assert_true(fabsf(lg.opacity[c] - 0.2f) < 1e-6f);
	/* every communication call of the trace is a point */
	uint32_t n_ops, comm = 0;
	struct trace_opv ops = trace_ops(t, &n_ops);
	for (uint32_t i = 0; i < n_ops; i++)
		comm += trace_op_get(&ops, i).kind != OP_COMPUTE;
	assert_int_equal(total, comm);
	density_fini(&lin);
	density_fini(&lg);
	struct density bad;
	assert_int_equal(density_compute(t, 0, end, 20, 10, 0, DENSITY_LOG, 1.5, &bad), ERR_USAGE);
	trace_destroy(t);
}

/* Each cell's colour is its dominant function's among the most called
 * (or "other"), and the legend's calls add up to the points plotted. */
static void
assert_colours(const struct density *d)
{
	uint64_t sum = 0;
	for (uint32_t k = 0; k <= d->n_funcs; k++)
		sum += d->func_calls[k];
	assert_int_equal(sum, d->points);
	for (uint32_t k = 1; k < d->n_funcs; k++)
		assert_true(d->func_calls[k] <= d->func_calls[k - 1]);
	for (size_t c = 0; c < (size_t)d->w * d->h; c++) {
		if (!d->d[c]) {
			assert_int_equal(d->func[c], d->n_funcs);
			continue;
		}
		if (d->func[c] < d->n_funcs)
			assert_int_equal(d->func_region[d->func[c]], d->region[c]);
		else
			for (uint32_t k = 0; k < d->n_funcs; k++)
				assert_int_not_equal(d->func_region[k], d->region[c]);
	}
}

/* Seed 003 colours the calls by their function: on stencil-4-delay
 * MPI_Isend makes most calls, and the densest cells are its. */
static void
density_colours(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4-delay");
	struct density d;
	uint64_t end = trace_info(t)->t_end + 1;
	assert_int_equal(density_compute(t, 0, end, 20, 10, 0, DENSITY_LINEAR, 0.2, &d), 0);
	assert_colours(&d);
	assert_true(d.n_funcs >= 3 && d.n_funcs <= DENSITY_FUNCS);
	assert_string_equal(trace_str(t, trace_regions(t, NULL)[d.func_region[0]].name), "MPI_Isend");
	density_fini(&d);
	/* the minimum opacity is the caller's: 0 lets a single call fade to
	 * nothing in linear, 1 draws every call at full opacity */
	assert_int_equal(density_compute(t, 0, end, 20, 10, 0, DENSITY_LINEAR, 1.0, &d), 0);
	for (size_t c = 0; c < 200; c++)
		assert_true(d.d[c] ? d.opacity[c] == 1.0f : d.opacity[c] == 0.0f);
	density_fini(&d);
	trace_destroy(t);
}

/* A Charm++ run's points are all its entry-method executions, with or
 * without messages: in jacobi2d_imb the injected 20 ms Jacobi_compute
 * (which sends nothing) is the longest point, alone in the top row. */
static void
charm_density(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts");
	if (!t)
		skip();
	uint64_t end = trace_info(t)->t_end + 1;
	struct density d;
	assert_int_equal(density_compute(t, 0, end, 40, 12, 0, DENSITY_LOG, 0.2, &d), 0);
	uint32_t n_ops, pts = 0, computes = 0;
	struct trace_opv ops = trace_ops(t, &n_ops);
	uint64_t longest = 0;
	uint32_t longest_region = TRACE_NONE;
	for (uint32_t i = 0; i < n_ops; i++) {
		struct trace_op o = trace_op_get(&ops, i);
		if (o.region == TRACE_NONE)
			continue;
		pts++;
		computes += o.kind == OP_COMPUTE;
		if (o.t_exit - o.t_enter > longest) {
			longest = o.t_exit - o.t_enter;
			longest_region = o.region;
		}
	}
	assert_true(computes > 100);
	assert_int_equal(d.points, pts);
	assert_true(fabs(d.dur_hi - log10(trace_seconds(t, longest) + 1e-9)) < 1e-9);
	assert_string_equal(trace_str(t, trace_regions(t, NULL)[longest_region].name), "Jacobi::Jacobi_compute");
	assert_true(longest >= 20000);
	uint32_t top = 0;
	for (uint32_t x = 0; x < d.w; x++)
		if (d.d[x]) {
			top += d.d[x];
			assert_int_equal(d.region[x], longest_region);
		}
	assert_int_equal(top, 1);
	assert_colours(&d);
	density_fini(&d);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linear_and_log_bins),
		cmocka_unit_test(collect),
		cmocka_unit_test(activity),
		cmocka_unit_test(activity_quiet_calls),
		cmocka_unit_test(opacity_maps),
		cmocka_unit_test(density_colours),
		cmocka_unit_test(charm_density),
	};
	return cmocka_run_group_tests_name("histograms", tests, NULL, NULL);
}
