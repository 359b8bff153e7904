/* test_rma.c — one-sided communication, non-blocking and persistent
 * collectives in the model and the analysis (doc/analysis.md "One-sided,
 * non-blocking and persistent operations"), on streams written through
 * the builder whose answers are worked out by hand: fences and a
 * window's creation are collectives of its group, grouped per window;
 * RMA calls are communication ops (OP_RMA) merged with the calls that
 * complete them; their bytes reach `comm`; passive-target epochs per
 * rank; a non-blocking collective's member is the call that completed
 * it, in the order the ranks started them; and lateness lost in RMA
 * calls is not computation's. */
#include "testutil.h"

#include <string.h>

#include "analysis/explain/explain.h"
#include "analysis/profile/profile.h"
#include "model/build.h"
#include "model/trace_impl.h"

enum { R_MAIN, R_BARRIER, R_ALLREDUCE, R_IBCAST, R_WAIT, R_WAITALL, R_WIN_CREATE, R_WIN_FREE,
       R_FENCE, R_PUT, R_GET, R_ACC, R_LOCK, R_UNLOCK, R_FLUSH, R_LOCK_ALL, R_UNLOCK_ALL,
       R_POST, R_START, R_COMPLETE, R_WAIT_EPOCH, R_COUNT };
/* communicators: the world, and ranks 1 and 0 in that order */
enum { C_WORLD, C_REV };
/* windows: on the world, on C_REV, on the world again */
enum { W_A, W_B, W_C };

struct fx {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_COUNT];
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	f->t = trace_new();
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "main", ROLE_USER }, { "MPI_Barrier", ROLE_COLLECTIVE },
		{ "MPI_Allreduce", ROLE_COLLECTIVE }, { "MPI_Ibcast", ROLE_COLLECTIVE },
		{ "MPI_Wait", ROLE_WAIT }, { "MPI_Waitall", ROLE_WAIT },
		{ "MPI_Win_create", ROLE_MPI_OTHER }, { "MPI_Win_free", ROLE_MPI_OTHER },
		{ "MPI_Win_fence", ROLE_MPI_OTHER }, { "MPI_Put", ROLE_MPI_OTHER },
		{ "MPI_Get", ROLE_MPI_OTHER }, { "MPI_Accumulate", ROLE_MPI_OTHER },
		{ "MPI_Win_lock", ROLE_MPI_OTHER }, { "MPI_Win_unlock", ROLE_MPI_OTHER },
		{ "MPI_Win_flush", ROLE_MPI_OTHER }, { "MPI_Win_lock_all", ROLE_MPI_OTHER },
		{ "MPI_Win_unlock_all", ROLE_MPI_OTHER }, { "MPI_Win_post", ROLE_MPI_OTHER },
		{ "MPI_Win_start", ROLE_MPI_OTHER }, { "MPI_Win_complete", ROLE_MPI_OTHER },
		{ "MPI_Win_wait", ROLE_MPI_OTHER },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(f->t, regions[i].name, regions[i].role, 4, &f->reg[i]), 0);
	uint32_t world[2] = { 0, 1 }, rev[2] = { 1, 0 }, id;
	assert_int_equal(trace_add_comm(f->t, 0, world, 2, 0, &id), 0);
	assert_int_equal(trace_add_comm(f->t, 0, rev, 2, 0, &id), 0);
	assert_int_equal(trace_add_win(f->t, 0, C_WORLD, 0, &id), 0);
	assert_int_equal(trace_add_win(f->t, 0, C_REV, 0, &id), 0);
	assert_int_equal(trace_add_win(f->t, 0, C_WORLD, 0, &id), 0);
	assert_int_equal(trace_set_timelines(f->t, 2), 0);
	/* the analysis asks whether the trace recorded one-sided records */
	f->t->info.records[REC_RMA_PUT] = 1;
	f->b = build_create(f->t);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;
	build_destroy(f->b);
	trace_destroy(f->t);
	free(f);
	return 0;
}

#define TL(r) assert_int_equal(build_timeline_begin(f->b, (r)), 0)
#define END() assert_int_equal(build_timeline_end(f->b), 0)
#define ENTER(t, r) assert_int_equal(build_enter(f->b, (t), f->reg[r]), 0)
#define LEAVE(t, r) assert_int_equal(build_leave(f->b, (t), f->reg[r]), 0)
#define FINISH() assert_int_equal(build_finish(f->b, NULL, NULL), 0)
/* a call of region r over [x, y) with the records of the rest */
#define CALL(x, y, r, ...) do { ENTER((x), (r)); __VA_ARGS__; LEAVE((y), (r)); } while (0)
#define BARRIER(x, y) CALL((x), (y), R_BARRIER, \
	assert_int_equal(build_coll_end(f->b, (x), COLL_BARRIER, C_WORLD, UINT32_MAX, 0, 0), 0))
#define WINCOLL(x, y, r, type, win) CALL((x), (y), (r), \
	assert_int_equal(build_rma_coll_end(f->b, (y), (type), (win), UINT32_MAX, 0, 0), 0))
#define FENCE(x, y, win) WINCOLL((x), (y), R_FENCE, COLL_BARRIER, (win))
#define OP(t, kind, win, remote, sent, recv, match) \
	assert_int_equal(build_rma_op(f->b, (t), (kind), 0, (win), (remote), (sent), (recv), (match)), 0)
#define DONE(t, how, win, match) \
	assert_int_equal(build_rma_complete(f->b, (t), (how), (win), (match)), 0)

static struct trace_op
op(struct fx *f, uint32_t i)
{
	uint32_t n;
	trace_ops(f->t, &n);
	assert_true(i < n);
	return trace_op(f->t, i);
}

/* A fence epoch: create, fence, put (rank 0) or get (rank 1), fence,
 * free. The fences and the window's creation and freeing are collectives
 * of the window's group; each transfer is an RMA call completed by the
 * second fence, and in its partition. */
static void
fence_epoch(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 2; r++) {
		uint64_t d = r * 5;
		TL(r);
		WINCOLL(0, 10 + d, R_WIN_CREATE, COLL_CREATE_HANDLE, W_A);
		FENCE(20, 30 + d, W_A);
		if (r == 0)
			CALL(40, 50, R_PUT, OP(40, RMA_PUT, W_A, 1, 64, 0, 1));
		else
			CALL(40, 60, R_GET, OP(40, RMA_GET, W_A, 0, 0, 32, 1));
		CALL(70, 80, R_FENCE, if (r == 1) DONE(79, RMA_DONE_REMOTE, W_A, 1);
		     assert_int_equal(build_rma_coll_end(f->b, 80, COLL_BARRIER, W_A, UINT32_MAX, 0, 0), 0));
		WINCOLL(90, 100, R_WIN_FREE, COLL_DESTROY_HANDLE, W_A);
		END();
	}
	FINISH();
	/* per rank: compute, create, compute, fence, compute, transfer,
	 * compute, fence, compute, free */
	uint32_t n_ops, n_colls, n_rmas;
	trace_ops(f->t, &n_ops);
	assert_int_equal(n_ops, 20);
	for (uint32_t r = 0; r < 2; r++) {
		assert_int_equal(op(f, 10 * r + 1).kind, OP_COLLECTIVE);
		assert_int_equal(op(f, 10 * r + 3).kind, OP_COLLECTIVE);
		assert_int_equal(op(f, 10 * r + 5).kind, OP_RMA);
		assert_int_equal(op(f, 10 * r + 7).kind, OP_COLLECTIVE);
		assert_int_equal(op(f, 10 * r + 9).kind, OP_COLLECTIVE);
	}
	const struct trace_coll *c = trace_colls(f->t, &n_colls);
	assert_int_equal(n_colls, 4);
	const uint8_t types[4] = { COLL_CREATE_HANDLE, COLL_BARRIER, COLL_BARRIER, COLL_DESTROY_HANDLE };
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(c[i].type, types[i]);
		assert_int_equal(c[i].member_count, 2);
		assert_int_equal(c[i].flags, COLLF_RMA);
		assert_int_equal(c[i].comm, C_WORLD);
	}
	assert_int_equal(trace_info(f->t)->warnings[WARN_INCOMPLETE_COLL], 0);
	const struct trace_rma *x = trace_rmas(f->t, &n_rmas);
	assert_int_equal(n_rmas, 2);
	assert_int_equal(x[0].op, 5);
	assert_int_equal(x[0].done_op, TRACE_NONE);      /* rank 0's put: its fence has no record */
	assert_int_equal(x[1].op, 15);
	assert_int_equal(x[1].done_op, 17);
	assert_int_equal(x[1].done, RMA_DONE_REMOTE);
	assert_int_equal(x[1].t_done, 79);
	assert_true(x[0].target == 1 && x[0].bytes_sent == 64 && x[0].kind == RMA_PUT);
	assert_true(x[1].target == 0 && x[1].bytes_recv == 32 && x[1].kind == RMA_GET);

	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verified(a));
	/* the create, the first fence, the second with rank 1's get (its
	 * completion), and the free; rank 0's put alone (nothing completes
	 * it) */
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 5);
	uint32_t fence2 = tu_comm_lop(a, 1, 3), get = tu_comm_lop(a, 1, 2);
	assert_int_equal(analysis_lop_part(a, get), analysis_lop_part(a, fence2));
	assert_int_equal(analysis_lop_part(a, tu_comm_lop(a, 0, 3)), analysis_lop_part(a, fence2));
	assert_true(analysis_lop_part(a, tu_comm_lop(a, 0, 2)) != analysis_lop_part(a, fence2));
	/* a fence is a step of its group: both ranks' at one step */
	assert_int_equal(analysis_lop_step(a, tu_comm_lop(a, 0, 1)), analysis_lop_step(a, tu_comm_lop(a, 1, 1)));
	analysis_destroy(a);
}

/* Windows' collectives are grouped per window: the ranks fence two
 * windows in opposite orders, with a barrier of the world between, and
 * every collective is whole (grouped per communicator, each fence would
 * pair with the other window's). Such a program would deadlock where
 * fences synchronise; the structure has a cycle the stepping breaks
 * (relaxed), and the verifier says so. */
static void
per_window(void **state)
{
	struct fx *f = *state;
	TL(0);
	FENCE(0, 10, W_A); BARRIER(20, 30); FENCE(40, 50, W_C);
	END();
	TL(1);
	FENCE(0, 10, W_C); BARRIER(20, 30); FENCE(40, 50, W_A);
	END();
	FINISH();
	uint32_t n;
	const struct trace_coll *c = trace_colls(f->t, &n);
	assert_int_equal(n, 3);
	assert_int_equal(trace_info(f->t)->warnings[WARN_INCOMPLETE_COLL], 0);
	/* the communicators' collectives first, then each window's */
	assert_int_equal(c[0].flags, 0);
	assert_int_equal(c[1].flags, COLLF_RMA);
	assert_int_equal(c[2].flags, COLLF_RMA);
	const uint32_t *m = trace_coll_members(f->t);
	assert_int_equal(m[c[1].member_first], 1);       /* window A: rank 0's first call */
	assert_int_equal(m[c[1].member_first + 1], 11);  /* rank 1's third */
	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verify(a)->relaxed > 0);
	analysis_destroy(a);
}

/* A window on the communicator (1, 0): its ranks are translated through
 * it. Passive-target epochs per rank, operations completed by a flush
 * and an unlock, lock_all over every rank; bytes by origin and target. */
static void
passive_target(void **state)
{
	struct fx *f = *state;
	TL(0);
	/* rank 0 of W_B is world rank 1 */
	CALL(0, 5, R_LOCK, assert_int_equal(build_rma_lock(f->b, 1, W_B, 0, 0), 0));
	CALL(10, 20, R_PUT, OP(10, RMA_PUT, W_B, 0, 100, 0, 7));
	CALL(30, 35, R_FLUSH, DONE(34, RMA_DONE_REMOTE, W_B, 7);
	     assert_int_equal(build_rma_sync(f->b, 34), 0));
	CALL(40, 50, R_GET, OP(41, RMA_GET, W_B, 0, 0, 40, 8));
	CALL(60, 70, R_UNLOCK, DONE(69, RMA_DONE_REMOTE, W_B, 8);
	     assert_int_equal(build_rma_release(f->b, 69, W_B, 0), 0));
	BARRIER(80, 90);
	CALL(100, 105, R_LOCK_ALL, assert_int_equal(build_rma_lock(f->b, 101, W_A, UINT32_MAX, 1), 0));
	CALL(110, 115, R_ACC, assert_int_equal(build_rma_op(f->b, 110, RMA_ATOMIC, 7, W_A, 1, 8, 8, 9), 0));
	END();          /* lock_all never released: open at the end */
	TL(1);
	BARRIER(80, 90);
	END();
	FINISH();
	uint32_t n_rmas, n_ep;
	const struct trace_rma *x = trace_rmas(f->t, &n_rmas);
	assert_int_equal(n_rmas, 3);
	assert_true(x[0].target == 1 && x[0].op == 3 && x[0].done_op == 5 && x[0].done == RMA_DONE_REMOTE);
	assert_true(x[1].target == 1 && x[1].op == 7 && x[1].done_op == 9 && x[1].bytes_recv == 40);
	assert_true(x[2].target == 1 && x[2].kind == RMA_ATOMIC && x[2].atomic == 7 &&
		    x[2].done_op == TRACE_NONE && x[2].done == RMA_DONE_NONE);
	const struct trace_epoch *e = trace_epochs(f->t, &n_ep);
	assert_int_equal(n_ep, 2);
	assert_true(e[0].timeline == 0 && e[0].win == W_B && e[0].target == 1 && !e[0].shared &&
		    e[0].t_begin == 1 && e[0].t_end == 69 && e[0].op_begin == 1 && e[0].op_end == 9 &&
		    !e[0].open);
	assert_true(e[1].target == TRACE_NONE && e[1].shared && e[1].open && e[1].op_end == TRACE_NONE &&
		    e[1].t_end == 115);
	uint32_t first;
	assert_int_equal(trace_tl_epochs(f->t, 0, &first), 2);
	assert_int_equal(trace_tl_epochs(f->t, 1, &first), 0);
	assert_int_equal(trace_tl_rmas(f->t, 0, &first), 3);
	/* every call is an op; the lock .. unlock run is one partition of
	 * rank 0, as is lock_all .. accumulate: with the barrier, 3 */
	for (uint32_t i = 1; i < 10; i += 2)
		assert_int_equal(op(f, i).kind, OP_RMA);
	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verified(a));
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 3);
	/* comm: rank 0 -> 1, 3 operations, 108 bytes put and 48 got */
	struct comm c;
	struct err er = { 0 };
	assert_int_equal(comm_compute(f->t, NULL, &c, &er), 0);
	assert_int_equal(c.n_rma_pairs, 1);
	assert_true(c.rma_pairs[0].origin == 0 && c.rma_pairs[0].target == 1);
	assert_true(c.rma_pairs[0].ops[RMA_PUT] == 1 && c.rma_pairs[0].ops[RMA_GET] == 1 &&
		    c.rma_pairs[0].ops[RMA_ATOMIC] == 1);
	assert_true(c.rma_pairs[0].bytes_put == 108 && c.rma_pairs[0].bytes_got == 48);
	assert_int_equal(c.messages, 0);
	/* a window of ranks kept: only rank 1 kept leaves nothing */
	uint8_t kept[2] = { 0, 1 };
	struct profile_scope s;
	profile_scope_all(&s);
	s.ranks = kept;
	comm_free(&c);
	assert_int_equal(comm_compute(f->t, &s, &c, &er), 0);
	assert_int_equal(c.n_rma_pairs, 0);
	comm_free(&c);
	analysis_destroy(a);
}

/* Generalised active target: post, start, put, complete, wait are one
 * run of RMA calls on each rank (no record pairs a post with a start). */
static void
post_start_complete_wait(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 2; r++) {
		TL(r);
		BARRIER(0, 10);
		CALL(20, 25, R_POST, assert_int_equal(build_rma_sync(f->b, 21), 0));
		CALL(30, 35, R_START, assert_int_equal(build_rma_sync(f->b, 31), 0));
		CALL(40, 45, R_PUT, OP(41, RMA_PUT, W_A, 1 - r, 8, 0, 1));
		CALL(50, 55, R_COMPLETE, DONE(54, RMA_DONE_LOCAL, W_A, 1);
		     assert_int_equal(build_rma_sync(f->b, 54), 0));
		CALL(60, 65, R_WAIT_EPOCH, assert_int_equal(build_rma_sync(f->b, 64), 0));
		BARRIER(70, 80);
		END();
	}
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verified(a));
	uint32_t np;
	analysis_parts(a, &np);
	/* two barriers and a run on each rank; the runs make the same calls
	 * at the same global steps: the automatic merge joins them (so the
	 * ranks' RMA calls are compared at their steps) */
	assert_int_equal(np, 3);
	for (uint32_t r = 0; r < 2; r++)
		for (uint32_t k = 2; k < 5; k++)
			assert_int_equal(analysis_lop_part(a, tu_comm_lop(a, r, k)),
					 analysis_lop_part(a, tu_comm_lop(a, r, 1)));
	analysis_destroy(a);
}

/* Non-blocking collectives: each rank's k-th collective *started* on a
 * communicator is its k-th there; the member is the call that completed
 * it. Rank 0 completes its Ibcast after an Allreduce it started later,
 * rank 1 before; a Waitall completes two Ibcasts in the reverse order. */
static void
nonblocking_order(void **state)
{
	struct fx *f = *state;
	TL(0);
	CALL(0, 5, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 1, 11), 0));
	CALL(10, 20, R_ALLREDUCE,
	     assert_int_equal(build_coll_end(f->b, 19, COLL_ALLREDUCE, C_WORLD, UINT32_MAX, 8, 8), 0));
	CALL(30, 40, R_WAIT,
	     assert_int_equal(build_nbc_complete(f->b, 39, COLL_BCAST, C_WORLD, 0, 16, 0, 11), 0));
	CALL(50, 55, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 51, 12), 0));
	CALL(60, 65, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 61, 13), 0));
	CALL(70, 80, R_WAITALL,
	     assert_int_equal(build_nbc_complete(f->b, 79, COLL_BCAST, C_WORLD, 0, 16, 0, 13), 0);
	     assert_int_equal(build_nbc_complete(f->b, 79, COLL_BARRIER, C_WORLD, UINT32_MAX, 0, 0, 12), 0));
	END();
	TL(1);
	CALL(0, 5, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 1, 21), 0));
	CALL(10, 20, R_WAIT,
	     assert_int_equal(build_nbc_complete(f->b, 19, COLL_BCAST, C_WORLD, 0, 0, 16, 21), 0));
	CALL(30, 40, R_ALLREDUCE,
	     assert_int_equal(build_coll_end(f->b, 39, COLL_ALLREDUCE, C_WORLD, UINT32_MAX, 8, 8), 0));
	CALL(50, 55, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 51, 22), 0));
	CALL(56, 58, R_WAIT,
	     assert_int_equal(build_nbc_complete(f->b, 57, COLL_BARRIER, C_WORLD, UINT32_MAX, 0, 0, 22), 0));
	CALL(60, 65, R_IBCAST, assert_int_equal(build_nbc_request(f->b, 61, 23), 0));
	CALL(66, 68, R_WAIT,
	     assert_int_equal(build_nbc_complete(f->b, 67, COLL_BCAST, C_WORLD, 0, 0, 16, 23), 0));
	END();
	FINISH();
	uint32_t n;
	const struct trace_coll *c = trace_colls(f->t, &n);
	assert_int_equal(n, 4);
	assert_int_equal(trace_info(f->t)->warnings[WARN_INCOMPLETE_COLL], 0);
	assert_int_equal(trace_info(f->t)->warnings[WARN_UNKNOWN_REQUEST], 0);
	const uint8_t types[4] = { COLL_BCAST, COLL_ALLREDUCE, COLL_BARRIER, COLL_BCAST };
	const uint8_t flags[4] = { COLLF_NONBLOCKING, 0, COLLF_NONBLOCKING, COLLF_NONBLOCKING };
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(c[i].type, types[i]);
		assert_int_equal(c[i].flags, flags[i]);
		assert_int_equal(c[i].member_count, 2);
		assert_int_equal(c[i].bytes_sent, types[i] == COLL_BCAST ? 16 : types[i] == COLL_ALLREDUCE ? 16 : 0);
	}
	/* rank 0's calls with records: Allreduce (op 1), Wait (3), the
	 * Waitall split at its second completion: the Ibcast's piece (5),
	 * the barrier's (7); rank 1's (from op 8): Wait (9), Allreduce (11),
	 * Wait (13), Wait (15). The Ibcasts themselves are no ops. */
	const uint32_t *m = trace_coll_members(f->t);
	uint32_t r1 = trace_timelines(f->t, NULL)[1].op_first;
	assert_int_equal(r1, 8);
	assert_true(m[c[0].member_first] == 3 && m[c[0].member_first + 1] == 9);
	assert_true(m[c[1].member_first] == 1 && m[c[1].member_first + 1] == 11);
	assert_true(m[c[2].member_first] == 7 && m[c[2].member_first + 1] == 13);
	assert_true(m[c[3].member_first] == 5 && m[c[3].member_first + 1] == 15);
	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verified(a));
	/* no wait state for a non-blocking collective: its members did not
	 * start it */
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		const struct analysis_wait *w = analysis_lop_wait(a, l);
		assert_true(!w || w->kind != WAIT_LATE_BROADCAST);
	}
	analysis_destroy(a);
}

/* Lateness lost in RMA calls is not computation's. Rank 0 spends 1000
 * ticks in an MPI_Get under a lock while rank 1 waits at the barrier:
 * the computation just before rank 0's barrier is late by 993 and
 * lasted nothing. Its cause is created-rma, the problem is the Get, and
 * no hotspot is a computation created-compute. */
static void
lost_in_rma(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	CALL(10, 11, R_LOCK, assert_int_equal(build_rma_lock(f->b, 10, W_A, 1, 0), 0));
	CALL(11, 1011, R_GET, OP(11, RMA_GET, W_A, 1, 0, 1 << 20, 1));
	CALL(1011, 1012, R_FLUSH, DONE(1011, RMA_DONE_REMOTE, W_A, 1);
	     assert_int_equal(build_rma_sync(f->b, 1011), 0));
	CALL(1012, 1013, R_UNLOCK, assert_int_equal(build_rma_release(f->b, 1012, W_A, 1), 0));
	BARRIER(1013, 1020);
	END();
	TL(1);
	BARRIER(0, 10);
	BARRIER(20, 1020);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	assert_true(analysis_verified(a));
	uint32_t bar = tu_comm_lop(a, 0, 5), comp = bar - 1, get = tu_comm_lop(a, 0, 2);
	assert_int_equal(analysis_lop_kind(a, comp), OP_COMPUTE);
	assert_int_equal(analysis_lop_lateness(a, comp), 993);
	assert_int_equal(analysis_lop_diff(a, comp), 993);
	assert_int_equal(analysis_lop_cause(a, comp), CAUSE_RMA);
	struct analysis_lost lost;
	assert_int_equal(analysis_lop_lost(a, comp, &lost), 1);
	assert_int_equal(lost.culprit, get);
	uint32_t n_hot;
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	for (uint32_t i = 0; i < n_hot; i++)
		assert_false(analysis_lop_kind(a, hot[i]) == OP_COMPUTE &&
			     analysis_lop_cause(a, hot[i]) == CAUSE_COMPUTE);
	uint32_t n_prob;
	const struct analysis_problem *p = analysis_problems(a, &n_prob);
	assert_true(n_prob >= 1);
	assert_int_equal(p[0].lop, get);
	/* the wait at the barrier: its root is the Get, the longest work */
	const struct analysis_wait *w = analysis_lop_wait(a, tu_comm_lop(a, 1, 1));
	assert_non_null(w);
	assert_int_equal(w->root_lop, get);
	analysis_destroy(a);
}

/* An RMA record outside any MPI call (Score-P's offload copies): one
 * call without a region from the first record to the next Enter or
 * Leave, on a window that is a device's (no rank). */
static void
outside_a_call(void **state)
{
	struct fx *f = *state;
	uint32_t dev;
	assert_int_equal(trace_add_win(f->t, 0, C_WORLD, WINF_DEVICE, &dev), 0);
	TL(0);
	ENTER(0, R_MAIN);
	OP(10, RMA_PUT, dev, 1, 4096, 0, 42);
	DONE(50, RMA_DONE_BLOCKING, dev, 42);
	BARRIER(60, 70);
	LEAVE(80, R_MAIN);
	END();
	TL(1);
	BARRIER(60, 70);
	END();
	FINISH();
	assert_int_equal(op(f, 1).kind, OP_RMA);
	assert_int_equal(op(f, 1).t_enter, 10);
	assert_int_equal(op(f, 1).t_exit, 60);
	assert_int_equal(op(f, 1).region, TRACE_NONE);
	assert_int_equal(op(f, 1).frame, 0);
	uint32_t n;
	const struct trace_rma *x = trace_rmas(f->t, &n);
	assert_int_equal(n, 1);
	assert_true(x[0].target == TRACE_NONE && x[0].op == 1 && x[0].done_op == 1 &&
		    x[0].done == RMA_DONE_BLOCKING);
	struct comm c;
	struct err er = { 0 };
	assert_int_equal(comm_compute(f->t, NULL, &c, &er), 0);
	assert_int_equal(c.n_rma_pairs, 0);
	assert_int_equal(c.device_ops, 1);
	assert_int_equal(c.device_bytes, 4096);
	comm_free(&c);
}

/* Blocks joined in any split give the one model (as a single builder):
 * RMA operations and epochs renumbered with the ops. */
static void
blocks_join(void **state)
{
	struct fx *f = *state;
	struct build *blk[2] = { build_block_create(f->t), build_block_create(f->t) };
	for (uint32_t r = 0; r < 2; r++) {
		struct build *b = blk[r];
		assert_int_equal(build_timeline_begin(b, r), 0);
		assert_int_equal(build_enter(b, 0, f->reg[R_LOCK]), 0);
		assert_int_equal(build_rma_lock(b, 1, W_A, 1 - r, 0), 0);
		assert_int_equal(build_leave(b, 2, f->reg[R_LOCK]), 0);
		assert_int_equal(build_enter(b, 3, f->reg[R_PUT]), 0);
		assert_int_equal(build_rma_op(b, 3, RMA_PUT, 0, W_A, 1 - r, 8, 0, 5), 0);
		assert_int_equal(build_leave(b, 4, f->reg[R_PUT]), 0);
		assert_int_equal(build_enter(b, 5, f->reg[R_UNLOCK]), 0);
		assert_int_equal(build_rma_complete(b, 5, RMA_DONE_REMOTE, W_A, 5), 0);
		assert_int_equal(build_rma_release(b, 5, W_A, 1 - r), 0);
		assert_int_equal(build_leave(b, 6, f->reg[R_UNLOCK]), 0);
		assert_int_equal(build_timeline_end(b), 0);
	}
	assert_int_equal(build_join(f->b, blk, 2), 0);
	FINISH();
	uint32_t n, ne;
	const struct trace_rma *x = trace_rmas(f->t, &n);
	const struct trace_epoch *e = trace_epochs(f->t, &ne);
	assert_int_equal(n, 2);
	assert_int_equal(ne, 2);
	assert_true(x[0].op == 3 && x[0].done_op == 5 && x[0].origin == 0);
	assert_true(x[1].op == 9 && x[1].done_op == 11 && x[1].origin == 1);
	assert_true(e[1].op_begin == 7 && e[1].op_end == 11 && e[1].timeline == 1);
	struct err er = { 0 };
	assert_int_equal(trace_check(f->t, &er), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(fence_epoch, setup, teardown),
		cmocka_unit_test_setup_teardown(per_window, setup, teardown),
		cmocka_unit_test_setup_teardown(passive_target, setup, teardown),
		cmocka_unit_test_setup_teardown(post_start_complete_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(nonblocking_order, setup, teardown),
		cmocka_unit_test_setup_teardown(lost_in_rma, setup, teardown),
		cmocka_unit_test_setup_teardown(outside_a_call, setup, teardown),
		cmocka_unit_test_setup_teardown(blocks_join, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
