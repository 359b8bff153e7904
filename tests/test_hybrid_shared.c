/* test_hybrid_shared.c — threads and GPU streams (analysis/hybrid) and
 * the blame of the critical path through them (analysis/path) on shared
 * Score-P traces, against otf2-print's records read by hand and CASITA's
 * report (../shared/reference/casita): which call each copy goes with
 * where the tracer lost copies; where an OpenMP barrier's wait goes. */
#include "testutil.h"

#include "analysis/core/analysis.h"
#include "analysis/hybrid/hybrid.h"
#include "analysis/path/path.h"
#include "analysis/profile/profile.h"
#include "analysis/run/run.h"

#include <stdlib.h>
#include <string.h>

static const char *
frame_name(const struct trace *t, const struct hybrid *h, uint32_t place, uint32_t f)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, h, place, &first, &n);
	return trace_str(t, trace_regions(t, NULL)[fr[f].region].name);
}

static uint64_t
distance(uint64_t x, uint64_t lo, uint64_t hi)
{
	return x < lo ? lo - x : x > hi ? x - hi : 0;
}

/* casita-2_jacobi_blame_cpu_015 lost copies (otf2-print: each rank has
 * 2,002 cuMemcpyHtoD_v2 and 1,983 RMA_GET on its stream, 2,001
 * cuMemcpyDtoH_v2 and 1,982 RMA_PUT, 2,000 cuLaunchKernel and 1,980
 * kernels; rank 1's cuMemcpyHtoD_v2 at 688664815580314 has no copy), and
 * its device clock runs up to 50 us behind the host's (the copies begin
 * before their calls). Paired by direction, every copy
 * released by its call goes with a call of its own direction, within
 * 100 us of it (calls of one direction come 1.8 ms apart, an iteration);
 * in time order regardless of direction, one lost copy shifted every
 * later pair. */
static void
jacobi_copies(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2");
	struct trace *t = tu_load(path);
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	uint32_t paired = 0;
	for (uint32_t k = 0; k < h.n_edges; k++) {
		const struct hybrid_edge *e = &h.edges[k];
		if (e->place < h.n_timelines || e->by == e->place)
			continue;
		const char *work = frame_name(t, &h, e->place, e->frame);
		if (work[0] != '[')
			continue;             /* a kernel */
		const char *call = frame_name(t, &h, e->by, e->by_frame);
		uint32_t first, n;
		const struct trace_frame *cf = hybrid_place_frames(t, &h, e->by, &first, &n);
		assert_string_equal(call, !strcmp(work, "[copy to device]") ? "cuMemcpyHtoD_v2" : "cuMemcpyDtoH_v2");
		assert_true(distance(e->at, cf[e->by_frame].t_enter, cf[e->by_frame].t_leave) < 100000);
		paired++;
	}
	/* of the 7,930 copies, all but those queued behind copy_kernel (one
	 * an iteration of a rank's 990) began on an idle stream */
	assert_true(paired > 7930 - 2 * 1000);
	/* otf2-print: rank 1 enters cuMemcpyHtoD_v2 at 688664838660227, its
	 * copy_kernel ends at 688664838923538, then the call's own copy
	 * runs: the call waited 263,311 ns for copy_kernel. Of the blocking
	 * HtoD calls only three of the set-up wait for a copy (the
	 * 28-MB copy before them still running: RMA_OP_COMPLETE_BLOCKING
	 * after the call's enter); none in the iterations. */
	uint64_t off = trace_info(t)->global_offset;
	int found = 0;
	uint32_t for_copy = 0;
	for (uint32_t k = 0; k < h.n_waits; k++) {
		const struct hybrid_wait *w = &h.waits[k];
		if (w->kind != HYW_DEVICE || strcmp(frame_name(t, &h, w->place, w->frame), "cuMemcpyHtoD_v2"))
			continue;
		const char *cause = frame_name(t, &h, w->cause, w->cause_frame);
		if (cause[0] == '[') {
			for_copy++;
			assert_true(trace_seconds(t, w->from) < 0.775);
		}
		if (w->place == 1 && w->from + off == 688664838660227ull) {
			assert_string_equal(cause, "copy_kernel");
			assert_int_equal(w->to + off, 688664838923538ull);
			found = 1;
		}
	}
	assert_true(found);
	assert_int_equal(for_copy, 3);
	/* 19 HtoD and 19 DtoH calls a rank without their copy, 20
	 * launches without their kernel */
	assert_int_equal(h.unpaired_calls, 2 * (19 + 19 + 20));
	assert_int_equal(h.unpaired_work, 0);
	hybrid_free(&h);
	trace_destroy(t);
}

static const char *
region_name(const struct trace *t, uint32_t r)
{
	uint32_t n;
	const struct trace_region *reg = trace_regions(t, &n);
	return r < n ? trace_str(t, reg[r].name) : "-";
}

static uint64_t
blame_of(const struct trace *t, const struct path *p, const char *name)
{
	for (uint32_t i = 0; i < p->n_regions; i++)
		if (!strcmp(region_name(t, p->regions[i].region), name))
			return p->regions[i].blame;
	return 0;
}

/* The path of a shared trace, and no region blamed for more than its
 * exclusive time in the whole run (every place: the profile with the
 * lanes): a wait's time goes where the time that caused it went. */
static struct analysis *
analysed(const char *rel, struct trace **t, struct path *p)
{
	char path[1024];
	if (!tu_shared(path, sizeof path, rel))
		return NULL;
	*t = tu_load(path);
	struct analysis *a = NULL;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	assert_int_equal(analysis_run(*t, &o, NULL, NULL, &a, &e), 0);
	assert_int_equal(path_compute(a, p, NULL), 0);
	struct profile pr;
	assert_int_equal(profile_compute(*t, NULL, &pr, NULL), 0);
	uint32_t n_regions;
	trace_regions(*t, &n_regions);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct path_region *r = &p->regions[i];
		uint64_t excl = 0;
		for (uint32_t k = 0; k < pr.n_regions; k++)
			if (pr.regions[k].region == r->region)
				excl = pr.regions[k].excl;
		if (r->region < n_regions && r->blame > excl + 1000)
			fail_msg("%s: blame %llu ns, exclusive time %llu ns", region_name(*t, r->region),
				 (unsigned long long)r->blame, (unsigned long long)excl);
	}
	profile_free(&pr);
	return a;
}

/* casita-2_cuda_simple (otf2-print): rank 1's master forks at
 * 9604711646976848 and loops 2.527 ms; its OpenMP thread 1 begins its
 * part at ...649540124, 2.563 ms after the fork, loops 2.419 ms and
 * enters the implicit barrier at ...651965072, which the master entered
 * at ...649571352: 2,393,720 ns. The thread was late by the fork's
 * latency, not by its critical section (2.5 us, entered just before its
 * barrier), which took the wait as its blame: the wait is named by the
 * loop, the region the thread spent most of its stretch in, and no
 * region's blame is more than its time. */
static void
cuda_barrier(void **state)
{
	(void)state;
	struct trace *t;
	struct path p;
	struct analysis *a = analysed("otf2/casita-2_cuda_simple/traces.otf2", &t, &p);
	if (!a)
		skip();
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	uint64_t off = trace_info(t)->global_offset;
	int found = 0;
	for (uint32_t k = 0; k < h.n_waits; k++) {
		const struct hybrid_wait *w = &h.waits[k];
		if (w->kind != HYW_BARRIER || w->place != 1 || w->from + off != 9604711649571352ull)
			continue;
		assert_int_equal(w->to - w->from, 2393720);
		assert_string_equal(region_name(t, hybrid_blamed_region(t, &h, w)), "!$omp for @jacobi_cuda.c:175");
		found = 1;
	}
	assert_true(found);
	hybrid_free(&h);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* casita-1_xeonphi_jacobi_01: the OpenMP thread waits 10.01 s in its
 * barrier for the master, inside "!$omp master @jacobi_target.c:393"
 * (83 us of its own) around "!$omp offloading overhead" (9.976 s):
 * CASITA's top region by blame, 9.975527 s; and its blame of the
 * targetmap at line 396 and the loop at line 277 (2.947 and 0.267 ms). */
static void
xeonphi_master(void **state)
{
	(void)state;
	struct trace *t;
	struct path p;
	struct analysis *a = analysed("otf2/casita-1_xeonphi_jacobi_01/traces.otf2", &t, &p);
	if (!a)
		skip();
	uint64_t top = 0;
	for (uint32_t i = 0; i < p.n_regions; i++)
		if (p.regions[i].blame > p.regions[top].blame)
			top = i;
	assert_string_equal(region_name(t, p.regions[top].region), "!$omp offloading overhead");
	/* to CASITA's 0.01% */
	uint64_t b = blame_of(t, &p, "!$omp offloading overhead");
	assert_true(b > 9975527000ull - 997553 && b < 9975527000ull + 997553);
	assert_true(blame_of(t, &p, "!$omp master @jacobi_target.c:393") <= 83000);
	assert_int_equal((blame_of(t, &p, "!$omp targetmap @jacobi_target.c:396") + 500000) / 1000000, 3);
	b = blame_of(t, &p, "!$omp for @jacobi_target.c:277");
	assert_true(b > 260000 && b < 270000);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* casita-1_ocl_deps (otf2-print, 2,194,922,618 ticks a second): the
 * host enters clFinish at 105222952670062; the queue runs $rot13 from
 * ...662086 to ...688195, then the read back (RMA_PUT at ...703332,
 * completed at ...705085). The one device wait is clFinish's, 35,023
 * ticks, named by $rot13, whose part of it (18,133 ticks, 8.26 us) is
 * its blame (CASITA's top region: 8 us). clEnqueueReadBuffer (...648101
 * to ...668575) returned while $rot13 ran: it did not block. */
static void
ocl_finish(void **state)
{
	(void)state;
	struct trace *t;
	struct path p;
	struct analysis *a = analysed("otf2/casita-1_ocl_deps/traces.otf2", &t, &p);
	if (!a)
		skip();
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	assert_int_equal(h.n_waits, 1);
	const struct hybrid_wait *w = &h.waits[0];
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, &h, w->place, &first, &n);
	assert_string_equal(region_name(t, fr[w->frame].region), "clFinish");
	assert_int_equal(w->from + trace_info(t)->global_offset, 105222952670062ull);
	assert_int_equal(w->to - w->from, 105222952705085ull - 105222952670062ull);
	assert_string_equal(region_name(t, hybrid_blamed_region(t, &h, w)), "$rot13");
	hybrid_free(&h);
	uint64_t b = blame_of(t, &p, "$rot13");     /* ticks, as the trace's */
	assert_true(b + 2 >= 18133 && b <= 18133 + 2);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* casita-1_scorep-ompt-host-nested: the time between a fork and a
 * thread's part of it is on the path as (idle), 3.046 ms of 10.581
 * (28.8%), which CASITA counts to the forking thread's "!$omp parallel"
 * and "!$omp wait_barrier" (1.834 and 1.705 ms; skein 41 and 44 us);
 * "main" is CASITA's 5.581 ms. */
static void
nested_fork(void **state)
{
	(void)state;
	struct trace *t;
	struct path p;
	struct analysis *a = analysed("otf2/casita-1_scorep-ompt-host-nested/traces.otf2", &t, &p);
	if (!a)
		skip();
	uint64_t idle = 0, parallel = 0, main_time = 0;
	for (uint32_t i = 0; i < p.n_regions; i++) {
		const char *name = region_name(t, p.regions[i].region);
		if (p.regions[i].region == PATH_REGION_IDLE)
			idle = p.regions[i].time;
		if (!strncmp(name, "!$omp parallel", 14))
			parallel += p.regions[i].time;
		if (!strcmp(name, "main"))
			main_time = p.regions[i].time;
	}
	assert_int_equal((uint64_t)(trace_seconds(t, idle) * 1e6 + 0.5), 3046);
	assert_int_equal((uint64_t)(trace_seconds(t, main_time) * 1e6 + 0.5), 5581);
	assert_int_equal((uint64_t)(trace_seconds(t, parallel) * 1e6 + 0.5), 41);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jacobi_copies),
		cmocka_unit_test(cuda_barrier),
		cmocka_unit_test(xeonphi_master),
		cmocka_unit_test(ocl_finish),
		cmocka_unit_test(nested_fork),
	};
	return cmocka_run_group_tests_name("threads and streams on shared traces", tests, NULL, NULL);
}
