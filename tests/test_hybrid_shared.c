/* test_hybrid_shared.c — threads and GPU streams (analysis/hybrid) on
 * shared Score-P traces, against otf2-print's records read by hand:
 * which call each copy goes with where the tracer lost copies. */
#include "testutil.h"

#include "analysis/hybrid/hybrid.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jacobi_copies),
	};
	return cmocka_run_group_tests_name("threads and streams on shared traces", tests, NULL, NULL);
}
