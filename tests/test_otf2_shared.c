/* test_otf2_shared.c — the OTF2 reader against every real trace in
 * ../shared/traces/otf2. Expected numbers come from otf2-print (COUNTS.md,
 * tools/otf2-counts) and from independent scripts over otf2-print output
 * (message FIFO matching with communicator rank translation, collective
 * grouping per communicator); operation counts follow from the MPI regions
 * entered (doc/model.md says which calls become operations). */
#include "testutil.h"

#include <string.h>

#include "report/info.h"

#define MAXR 32

struct expect {
	const char *rel;
	uint64_t events;
	uint64_t records[REC_COUNT];
	uint32_t ranks;
	uint64_t rank_events[MAXR];
	uint32_t other_locations;
	uint64_t ops[OP_KIND_COUNT];
	uint64_t msgs, matched, self_msgs;
	uint64_t colls[COLL_TYPE_COUNT];
	uint64_t calls_without_records;
};

static const struct expect traces[] = {
	{
		.rel = "otf2/pipit-pingpong-otf2/traces.otf2",
		.events = 120,
		.records = { [REC_ENTER] = 42, [REC_LEAVE] = 42, [REC_MPI_SEND] = 16,
			     [REC_MPI_RECV] = 16, [REC_OTHER] = 4 },
		.ranks = 2, .rank_events = { 60, 60 },
		.ops = { [OP_COMPUTE] = 32, [OP_SEND] = 16, [OP_RECV] = 16 },
		.msgs = 16, .matched = 16,
	},
	{
		.rel = "otf2/pipit-pingpong-otf2-papi/traces.otf2",
		.events = 204,
		.records = { [REC_ENTER] = 42, [REC_LEAVE] = 42, [REC_MPI_SEND] = 16,
			     [REC_MPI_RECV] = 16, [REC_OTHER] = 88 },
		.ranks = 2, .rank_events = { 102, 102 },
		.ops = { [OP_COMPUTE] = 32, [OP_SEND] = 16, [OP_RECV] = 16 },
		.msgs = 16, .matched = 16,
	},
	{
		.rel = "otf2/casita-4_mpi_ls_barr/traces.otf2",
		.events = 110,
		.records = { [REC_ENTER] = 48, [REC_LEAVE] = 48, [REC_MPI_SEND] = 3,
			     [REC_MPI_RECV] = 3, [REC_MPI_COLLECTIVE_BEGIN] = 4,
			     [REC_MPI_COLLECTIVE_END] = 4 },
		.ranks = 4, .rank_events = { 25, 30, 30, 25 },
		.ops = { [OP_COMPUTE] = 10, [OP_SEND] = 3, [OP_RECV] = 3, [OP_COLLECTIVE] = 4 },
		.msgs = 3, .matched = 3,
		.colls = { [COLL_BARRIER] = 1 },
	},
	{
		.rel = "otf2/tracer-stencil4d-32/traces.otf2",
		.events = 4324,
		.records = { [REC_ENTER] = 1251, [REC_LEAVE] = 1249, [REC_MPI_SEND] = 512,
			     [REC_MPI_IRECV_REQUEST] = 512, [REC_MPI_IRECV] = 512,
			     [REC_MPI_COLLECTIVE_BEGIN] = 96, [REC_MPI_COLLECTIVE_END] = 96,
			     [REC_MEASUREMENT_ON_OFF] = 96 },
		.ranks = 32,
		.rank_events = { 139, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135,
				 135, 135, 135, 135, 135, 135, 135, 135, 135, 135, 135,
				 135, 135, 135, 135, 135, 135, 135, 135, 135, 135 },
		/* 512 Send, 64 Waitall completing Irecvs, 96 Barrier */
		.ops = { [OP_COMPUTE] = 672, [OP_SEND] = 512, [OP_RECV] = 64, [OP_COLLECTIVE] = 96 },
		.msgs = 512, .matched = 512,
		.colls = { [COLL_BARRIER] = 3 },
	},
	{
		.rel = "otf2/sstmacro-mpi-coverage-10/traces.otf2",
		.events = 22180,
		.records = { [REC_ENTER] = 7010, [REC_LEAVE] = 7010, [REC_MPI_ISEND] = 1440,
			     [REC_MPI_ISEND_COMPLETE] = 1440, [REC_MPI_IRECV_REQUEST] = 1440,
			     [REC_MPI_IRECV] = 1440, [REC_MPI_COLLECTIVE_BEGIN] = 1200,
			     [REC_MPI_COLLECTIVE_END] = 1200 },
		.ranks = 10,
		.rank_events = { 2218, 2218, 2218, 2218, 2218, 2218, 2218, 2218, 2218, 2218 },
		/* 1440 Isend, 480 Waitall completing Isends and Irecvs, 1200
		 * blocking collectives; 1080 Iallgather/Ialltoall/Iallreduce and
		 * their 1080 Waits carry no records */
		.ops = { [OP_COMPUTE] = 3120, [OP_SEND] = 1440, [OP_RECV] = 480,
			 [OP_COLLECTIVE] = 1200 },
		.msgs = 1440, .matched = 1440, .self_msgs = 952,
		.colls = { [COLL_ALLGATHER] = 204, [COLL_ALLTOALL] = 204, [COLL_ALLREDUCE] = 204,
			   [COLL_GATHER] = 17, [COLL_SCATTER] = 17, [COLL_REDUCE] = 17,
			   [COLL_BCAST] = 17 },
		.calls_without_records = 2160,
	},
	{
		.rel = "otf2/casita-2_cuda_simple/traces.otf2",
		.events = 2816,
		.records = { [REC_ENTER] = 1087, [REC_LEAVE] = 1087, [REC_MPI_SEND] = 20,
			     [REC_MPI_RECV] = 20, [REC_MPI_COLLECTIVE_BEGIN] = 24,
			     [REC_MPI_COLLECTIVE_END] = 24, [REC_RMA_WIN_CREATE] = 4,
			     [REC_RMA_WIN_DESTROY] = 4, [REC_RMA_PUT] = 42, [REC_RMA_GET] = 44,
			     [REC_RMA_OP_COMPLETE_BLOCKING] = 86, [REC_THREAD_ACQUIRE_LOCK] = 40,
			     [REC_THREAD_RELEASE_LOCK] = 40, [REC_THREAD_TEAM_BEGIN] = 98,
			     [REC_OTHER] = 196 },
		/* the CUDA copies' RMA records are on the GPU streams' locations,
		 * which are no timelines: counted, not modelled */
		.ranks = 2, .rank_events = { 1032, 1018 }, .other_locations = 4,
		/* MPI_Sendrecv keeps both its send and its receive */
		.ops = { [OP_COMPUTE] = 44, [OP_SENDRECV] = 20, [OP_COLLECTIVE] = 24 },
		.msgs = 20, .matched = 20,
		.colls = { [COLL_BARRIER] = 2, [COLL_ALLREDUCE] = 10 },
	},
	{
		.rel = "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2",
		.events = 300816,
		.records = { [REC_ENTER] = 110425, [REC_LEAVE] = 110425, [REC_MPI_SEND] = 2000,
			     [REC_MPI_RECV] = 2000, [REC_MPI_COLLECTIVE_BEGIN] = 2004,
			     [REC_MPI_COLLECTIVE_END] = 2004, [REC_RMA_WIN_CREATE] = 4,
			     [REC_RMA_WIN_DESTROY] = 4, [REC_RMA_PUT] = 3964, [REC_RMA_GET] = 3966,
			     [REC_RMA_OP_COMPLETE_BLOCKING] = 7930, [REC_THREAD_ACQUIRE_LOCK] = 8000,
			     [REC_THREAD_RELEASE_LOCK] = 8000, [REC_THREAD_TEAM_BEGIN] = 16036,
			     [REC_OTHER] = 24054 },
		.ranks = 2, .rank_events = { 72418, 72404 }, .other_locations = 8,
		.ops = { [OP_COMPUTE] = 4004, [OP_SENDRECV] = 2000, [OP_COLLECTIVE] = 2004 },
		.msgs = 2000, .matched = 2000,
		.colls = { [COLL_BARRIER] = 2, [COLL_ALLREDUCE] = 1000 },
	},
	{
		.rel = "otf2/casita-1_xeonphi_jacobi_01/traces.otf2",
		.events = 11770,
		.records = { [REC_ENTER] = 3759, [REC_LEAVE] = 3759,
			     [REC_MPI_COLLECTIVE_BEGIN] = 102, [REC_MPI_COLLECTIVE_END] = 102,
			     [REC_RMA_WIN_CREATE] = 1, [REC_RMA_WIN_DESTROY] = 1, [REC_RMA_PUT] = 404,
			     [REC_RMA_GET] = 404, [REC_RMA_OP_COMPLETE_BLOCKING] = 808,
			     [REC_THREAD_TEAM_BEGIN] = 410, [REC_THREAD_TASK_CREATE] = 400,
			     [REC_THREAD_TASK_SWITCH] = 400, [REC_OTHER] = 1220 },
		.ranks = 1, .rank_events = { 7522 }, .other_locations = 3,
		/* the offload copies' RMA records on the rank (outside any MPI
		 * call, inside "!$omp target..." regions): from each copy's first
		 * record to the region's next Enter or Leave, 607 one-sided ops */
		.ops = { [OP_COMPUTE] = 709, [OP_COLLECTIVE] = 102, [OP_RMA] = 607 },
		.colls = { [COLL_BARRIER] = 2, [COLL_ALLREDUCE] = 100 },
	},
	{
		.rel = "otf2/casita-1_ocl_deps/traces.otf2",
		.events = 48,
		.records = { [REC_ENTER] = 20, [REC_LEAVE] = 20, [REC_RMA_WIN_CREATE] = 2,
			     [REC_RMA_WIN_DESTROY] = 2, [REC_RMA_PUT] = 1, [REC_RMA_GET] = 1,
			     [REC_RMA_OP_COMPLETE_BLOCKING] = 2 },
		/* no MPI: the process is a timeline, its master thread's */
		.ranks = 1, .rank_events = { 40 }, .other_locations = 1,
	},
	{
		.rel = "otf2/casita-1_scorep-ompt-host-nested/traces.otf2",
		.events = 172,
		.records = { [REC_ENTER] = 86, [REC_LEAVE] = 86 },
		.ranks = 1, .rank_events = { 42 }, .other_locations = 9,
	},
	{
		.rel = "otf2/fastotf2-simple-mi300/traces.otf2",
		.events = 72670,
		.records = { [REC_ENTER] = 40, [REC_LEAVE] = 40, [REC_OTHER] = 72590 },
		.ranks = 1, .rank_events = { 80 }, .other_locations = 31,
	},
	{
		/* APEX names its anchor APEX.otf2; its one MPI "rank" location
		 * has no events, the two HPX worker threads have them all */
		.rel = "otf2/apex-hpx-als-movielens/APEX.otf2",
		.events = 16124,
		.records = { [REC_ENTER] = 8062, [REC_LEAVE] = 8062 },
		.ranks = 1, .rank_events = { 0 }, .other_locations = 2,
	},
};

static void
check_trace(void **state)
{
	const struct expect *x = *state;
	char path[1024];
	SHARED_TRACE(path, x->rel);
	struct trace *t = tu_load(path);
	const struct trace_info *info = trace_info(t);
	assert_int_equal(info->events, x->events);
	for (int k = 0; k < REC_COUNT; k++) {
		if (info->records[k] != x->records[k])
			print_error("%s: records %s\n", x->rel, trace_rec_name(k));
		assert_int_equal(info->records[k], x->records[k]);
	}
	uint32_t n_tl, n_locs;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	trace_locations(t, &n_locs);
	assert_int_equal(n_tl, x->ranks);
	for (uint32_t i = 0; i < n_tl && i < MAXR; i++)
		assert_int_equal(tls[i].events, x->rank_events[i]);
	assert_int_equal(n_locs - n_tl, x->other_locations);

	struct summary s;
	assert_int_equal(summary_compute(t, &s), 0);
	for (int k = 0; k < OP_KIND_COUNT; k++) {
		if (s.ops[k] != x->ops[k])
			print_error("%s: ops %s\n", x->rel, trace_op_kind_name(k));
		assert_int_equal(s.ops[k], x->ops[k]);
	}
	assert_int_equal(s.msgs, x->msgs);
	assert_int_equal(s.msgs_matched, x->matched);
	for (int k = 0; k < COLL_TYPE_COUNT; k++) {
		if (s.colls[k] != x->colls[k])
			print_error("%s: collectives %s\n", x->rel, trace_coll_type_name(k));
		assert_int_equal(s.colls[k], x->colls[k]);
	}
	assert_int_equal(s.colls_incomplete, 0);
	assert_int_equal(info->mpi_calls_without_records, x->calls_without_records);
	summary_fini(&s);

	uint32_t n_msgs;
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	uint64_t self = 0;
	for (uint32_t i = 0; i < n_msgs; i++)
		self += msgs[i].sender == msgs[i].receiver;
	assert_int_equal(self, x->self_msgs);
	trace_destroy(t);
}

/* Structural invariants of the model, on every trace: ops of a timeline
 * are contiguous, ordered and disjoint; every matched message links a
 * send op on its sender to a receive op on its receiver; every collective
 * member is a collective op on a member of its communicator. */
static void
check_model(void **state)
{
	const struct expect *x = *state;
	char path[1024];
	SHARED_TRACE(path, x->rel);
	struct trace *t = tu_load(path);
	uint32_t n_tl, n_ops, n_msgs, n_colls;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_coll *colls = trace_colls(t, &n_colls);
	uint32_t next = 0;
	for (uint32_t r = 0; r < n_tl; r++) {
		assert_int_equal(tls[r].op_first, next);
		next += tls[r].op_count;
		for (uint32_t i = tls[r].op_first; i < tls[r].op_first + tls[r].op_count; i++) {
			assert_int_equal(trace_op_get(&ops, i).timeline, r);
			assert_true(trace_op_get(&ops, i).t_enter <= trace_op_get(&ops, i).t_exit);
			if (i > tls[r].op_first)
				assert_true(trace_op_get(&ops, i - 1).t_exit <= trace_op_get(&ops, i).t_enter);
			/* compute and communication alternate */
			assert_int_equal(trace_op_get(&ops, i).kind == OP_COMPUTE, (i - tls[r].op_first) % 2 == 0);
		}
	}
	assert_int_equal(next, n_ops);
	for (uint32_t m = 0; m < n_msgs; m++) {
		if (msgs[m].send_op != TRACE_NONE) {
			assert_int_equal(trace_op_get(&ops, msgs[m].send_op).timeline, msgs[m].sender);
			assert_true(trace_op_get(&ops, msgs[m].send_op).kind == OP_SEND || trace_op_get(&ops, msgs[m].send_op).kind == OP_SENDRECV);
		}
		if (msgs[m].recv_op != TRACE_NONE) {
			assert_int_equal(trace_op_get(&ops, msgs[m].recv_op).timeline, msgs[m].receiver);
			assert_true(trace_op_get(&ops, msgs[m].recv_op).kind == OP_RECV || trace_op_get(&ops, msgs[m].recv_op).kind == OP_SENDRECV);
		}
	}
	const uint32_t *members = trace_coll_members(t);
	for (uint32_t c = 0; c < n_colls; c++)
		for (uint32_t k = 0; k < colls[c].member_count; k++)
			assert_int_equal(trace_op_get(&ops, members[colls[c].member_first + k]).kind, OP_COLLECTIVE);
	trace_destroy(t);
}

/* The late-sender chain: rank k receives from k-1 before sending to k+1. */
static void
casita_chain(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-4_mpi_ls_barr/traces.otf2");
	struct trace *t = tu_load(path);
	uint32_t n_msgs;
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	struct trace_opv ops = trace_ops(t, NULL);
	assert_int_equal(n_msgs, 3);
	for (uint32_t m = 0; m < 3; m++) {
		assert_int_equal(msgs[m].sender + 1, msgs[m].receiver);
		assert_true(msgs[m].t_send <= msgs[m].t_recv);
	}
	/* on ranks 1 and 2 the receive comes before the send */
	for (uint32_t r = 1; r <= 2; r++) {
		uint32_t recv = TRACE_NONE, send = TRACE_NONE;
		for (uint32_t m = 0; m < 3; m++) {
			if (msgs[m].receiver == r)
				recv = msgs[m].recv_op;
			if (msgs[m].sender == r)
				send = msgs[m].send_op;
		}
		assert_true(recv < send);
		assert_true(trace_op_get(&ops, recv).t_exit <= trace_op_get(&ops, send).t_enter);
	}
	trace_destroy(t);
}

/* Tracing switched off and on, mis-nested user regions on rank 0, no
 * MPI_Finalize: warnings with counts, a usable result. */
static void
stencil_quirks(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/tracer-stencil4d-32/traces.otf2");
	struct trace *t = tu_load(path);
	const struct trace_info *info = trace_info(t);
	/* 96 MEASUREMENT_ON_OFF records: each rank switches off twice, on once */
	assert_int_equal(info->warnings[WARN_MEASUREMENT_OFF], 64);
	assert_true(info->warnings[WARN_MISNESTED_LEAVE] > 0);
	assert_int_equal(info->warnings[WARN_UNMATCHED_SEND], 0);
	assert_int_equal(info->warnings[WARN_UNMATCHED_RECV], 0);
	/* each Waitall completes 8 receives, from the 8 neighbours */
	uint32_t n_ops;
	struct trace_opv ops = trace_ops(t, &n_ops);
	for (uint32_t i = 0; i < n_ops; i++) {
		if (trace_op_get(&ops, i).kind != OP_RECV)
			continue;
		uint32_t n;
		trace_op_ends(t, i, &n);
		assert_int_equal(n, 8);
		assert_string_equal(trace_str(t, trace_regions(t, NULL)[trace_op_get(&ops, i).region].name), "MPI_Waitall");
	}
	trace_destroy(t);
}

/* `skein info` of a trace as text (malloc'd). */
static char *
info_text(const struct trace *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(info_write(t, f, INFO_TEXT, 0), 0);
	fclose(f);
	return buf;
}

/* Locations that are not ranks are counted and named in the summary. */
static void
other_locations_named(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-2_cuda_simple/traces.otf2");
	struct trace *t = tu_load(path);
	char *buf = info_text(t);
	/* otf2-print: 94 and 92 ENTERs on the OpenMP threads; on each
	 * stream 20 kernels and 43 copies (22 RMA_GET, 21 RMA_PUT); 40
	 * THREAD_ACQUIRE_LOCK, all of lock 0 */
	assert_non_null(strstr(buf, "\nlanes         4 under their ranks (threads 2, gpu streams 2), "
				"312 regions and copies\nlocks         40 acquisitions of 1 lock by the threads\n"
				"other locs    0\n"));
	uint32_t n, nf, nl;
	const struct trace_lane *L = trace_lanes(t, &n);
	const struct trace_frame *fr = trace_lane_frames(t, &nf);
	const struct trace_location *locs = trace_locations(t, &nl);
	assert_int_equal(n, 4);
	assert_int_equal(nf, 312);
	static const char *const names[] = { "OMP thread 1", "CUDA[0:7]", "OMP thread 1", "CUDA[0:7]" };
	static const uint32_t frames[] = { 94, 63, 92, 63 }, ranks[] = { 0, 0, 1, 1 };
	for (uint32_t i = 0; i < n; i++) {
		assert_string_equal(trace_str(t, locs[L[i].location].name), names[i]);
		assert_int_equal(L[i].timeline, ranks[i]);
		assert_int_equal(L[i].kind, i % 2 ? LANE_GPU : LANE_THREAD);
		assert_int_equal(L[i].frame_count, frames[i]);
		uint32_t copies = 0;
		for (uint32_t f = L[i].frame_first; f < L[i].frame_first + L[i].frame_count; f++) {
			assert_int_equal(fr[f].timeline, i);
			assert_true(fr[f].t_leave >= fr[f].t_enter);
			copies += trace_str(t, trace_regions(t, NULL)[fr[f].region].name)[0] == '[';
		}
		assert_int_equal(copies, i % 2 ? 43 : 0);
	}
	free(buf);
	trace_destroy(t);
}

/* info keeps one field per line: APEX's creator string holds four lines
 * of build details; fastotf2's metric locations have empty names. */
static void
info_one_line_per_field(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/apex-hpx-als-movielens");
	struct trace *t = tu_load(path);
	char *buf = info_text(t);
	assert_non_null(strstr(buf, "\ncreator       APEX version 1.2.0-5d21a20-master / Built on: 11:54:40 Jan 30 2019 / "));
	assert_non_null(strstr(buf, " (OTF2 2.1.1)\ntime span "));
	free(buf);
	trace_destroy(t);
	SHARED_TRACE(path, "otf2/fastotf2-simple-mi300/traces.otf2");
	t = tu_load(path);
	buf = info_text(t);
	assert_null(strstr(buf, ",  [Process]"));
	assert_non_null(strstr(buf, "Per process metrics [Process], (unnamed) [Process]"));
	free(buf);
	trace_destroy(t);
}

/* A directory works as well as its anchor file. */
static void
directory_path(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/apex-hpx-als-movielens");
	struct trace *t = tu_load(path);
	assert_non_null(strstr(trace_info(t)->path, "APEX.otf2"));
	trace_destroy(t);
}

int
main(void)
{
	enum { N = sizeof traces / sizeof traces[0] };
	struct CMUnitTest tests[2 * N + 5];
	static char names[N][160];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "%s invariants", traces[i].rel);
		tests[2 * i] = (struct CMUnitTest){ .name = traces[i].rel, .test_func = check_trace,
						    .initial_state = (void *)&traces[i] };
		tests[2 * i + 1] = (struct CMUnitTest){ .name = names[i], .test_func = check_model,
							.initial_state = (void *)&traces[i] };
	}
	tests[2 * N] = (struct CMUnitTest)cmocka_unit_test(casita_chain);
	tests[2 * N + 1] = (struct CMUnitTest)cmocka_unit_test(stencil_quirks);
	tests[2 * N + 2] = (struct CMUnitTest)cmocka_unit_test(directory_path);
	tests[2 * N + 3] = (struct CMUnitTest)cmocka_unit_test(other_locations_named);
	tests[2 * N + 4] = (struct CMUnitTest)cmocka_unit_test(info_one_line_per_field);
	return cmocka_run_group_tests_name("otf2 reader on ../shared traces", tests, NULL, NULL);
}
