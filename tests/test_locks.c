/* test_locks.c — lock competition (analysis/explain/locks.c; doc/analysis.md,
 * "Wait states"): waits for MPI_Win_lock_all holders and of its calls,
 * the roots of lock
 * chains and lateness lost in a lock wait, on four ranks written through
 * the builder, whose answers are worked out by hand: each case says how.
 * Times are ticks; the window is on the world, and every lock is on rank
 * 0's part of it (rank 0 only serves it). */
#include "testutil.h"

#include "analysis/explain/explain.h"
#include "model/build.h"
#include "model/trace_impl.h"

enum { R_BARRIER, R_ALLREDUCE, R_PUT, R_GET, R_LOCK, R_UNLOCK, R_FLUSH, R_LOCK_ALL, R_UNLOCK_ALL,
       R_COUNT };
enum { C_WORLD };
enum { W_A };

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
		{ "MPI_Barrier", ROLE_COLLECTIVE }, { "MPI_Allreduce", ROLE_COLLECTIVE },
		{ "MPI_Put", ROLE_MPI_OTHER }, { "MPI_Get", ROLE_MPI_OTHER },
		{ "MPI_Win_lock", ROLE_MPI_OTHER }, { "MPI_Win_unlock", ROLE_MPI_OTHER },
		{ "MPI_Win_flush", ROLE_MPI_OTHER }, { "MPI_Win_lock_all", ROLE_MPI_OTHER },
		{ "MPI_Win_unlock_all", ROLE_MPI_OTHER },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(f->t, regions[i].name, regions[i].role, 4, &f->reg[i]), 0);
	uint32_t world[4] = { 0, 1, 2, 3 }, id;
	assert_int_equal(trace_add_comm(f->t, 0, world, 4, 0, &id), 0);
	assert_int_equal(trace_add_win(f->t, 0, C_WORLD, 0, &id), 0);
	assert_int_equal(trace_set_timelines(f->t, 4), 0);
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
#define FINISH() assert_int_equal(build_finish(f->b, NULL, NULL), 0)
/* a call of region r over [x, y) with the records of the rest */
#define CALL(x, y, r, ...) do { \
	assert_int_equal(build_enter(f->b, (x), f->reg[r]), 0); \
	__VA_ARGS__; \
	assert_int_equal(build_leave(f->b, (y), f->reg[r]), 0); \
} while (0)
#define COLL(x, y, r, type) CALL((x), (y), (r), \
	assert_int_equal(build_coll_end(f->b, (x), (type), C_WORLD, UINT32_MAX, 0, 0), 0))
#define BARRIER(x, y) COLL((x), (y), R_BARRIER, COLL_BARRIER)
#define ALLREDUCE(x, y) COLL((x), (y), R_ALLREDUCE, COLL_ALLREDUCE)
/* a lock of rank 0's part asked at x, returning at y (exclusive unless
 * shared); its release at y of an unlock over [x, y) */
#define LOCK(x, y, shared) CALL((x), (y), R_LOCK, \
	assert_int_equal(build_rma_lock(f->b, (x), W_A, 0, (shared)), 0))
#define UNLOCK(x, y) CALL((x), (y), R_UNLOCK, assert_int_equal(build_rma_release(f->b, (y), W_A, 0), 0))
#define GET(x, y, m) CALL((x), (y), R_GET, \
	assert_int_equal(build_rma_op(f->b, (x), RMA_GET, 0, W_A, 0, 0, 8, (m)), 0))

/* Rank 2 takes MPI_Win_lock_all at 10 (shared locks on every target,
 * rank 0's too), computes 1000 ticks (12 to 1012) and lets go at 1013,
 * in MPI_Win_unlock_all. Rank 3 asks for an exclusive lock on rank 0 at
 * 20 and has it at 1020: it waited from 20 to the release, 993 ticks,
 * for rank 2's unlock_all. Rank 1's shared lock (30 to 40) waits for
 * nothing: shared locks do not conflict. Delays: since the barrier rank
 * 2 worked 1002 (its computation and lock_all call), rank 3 10: the
 * excess, 992, explains the wait (s = 1): rank 2's computation is the
 * root and the first problem, where rank 3's lock call, its 1000 ticks
 * taken for work, was (helper-50's run). */
static void
lock_all_holds(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	BARRIER(1100, 1110);
	END();
	TL(1);
	BARRIER(0, 10);
	LOCK(30, 40, 1);
	UNLOCK(40, 41);
	BARRIER(1100, 1110);
	END();
	TL(2);
	BARRIER(0, 10);
	CALL(10, 12, R_LOCK_ALL, assert_int_equal(build_rma_lock(f->b, 10, W_A, UINT32_MAX, 1), 0));
	CALL(1012, 1014, R_UNLOCK_ALL, assert_int_equal(build_rma_release(f->b, 1013, W_A, UINT32_MAX), 0));
	BARRIER(1100, 1110);
	END();
	TL(3);
	BARRIER(0, 10);
	LOCK(20, 1020, 0);
	UNLOCK(1020, 1021);
	BARRIER(1100, 1110);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t unlock_all = tu_comm_lop(a, 2, 2), comp = unlock_all - 1;
	assert_int_equal(analysis_lop_kind(a, comp), OP_COMPUTE);
	assert_int_equal(analysis_lop_duration(a, comp), 1000);
	const struct analysis_wait *w = analysis_lop_wait(a, tu_comm_lop(a, 3, 1));
	assert_non_null(w);
	assert_int_equal(w->kind, WAIT_LOCK);
	assert_int_equal(w->time, 993);
	assert_int_equal(w->cause_lop, unlock_all);
	assert_int_equal(w->root_lop, comp);
	assert_null(analysis_lop_wait(a, tu_comm_lop(a, 1, 1)));
	const struct analysis_delay *d = analysis_lop_delay(a, comp);
	assert_non_null(d);
	assert_int_equal(d->direct, 992);
	assert_null(analysis_lop_delay(a, tu_comm_lop(a, 3, 1)));
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, comp);
	analysis_destroy(a);
}

/* A lock_all call waits for the exclusive epochs of its window, on any
 * target, asked before it (lockwait-4: MPICH and Open MPI wait in
 * MPI_Win_lock_all). Rank 2 locks rank 0's part exclusively (10 to 11),
 * computes 300 ticks and lets go at 312; rank 3 locks its own part
 * exclusively (10 to 11), computes 1000 ticks (11 to 1011) and lets go
 * at 1012; rank 0 takes a shared lock on rank 1's part (12 to 13) and
 * lets go at 1014. Rank 1 calls MPI_Win_lock_all at 20, returning at
 * 1015: it waited for the exclusive epochs, the last released rank 3's,
 * from 20 to 1012 (992 ticks; not to rank 0's shared release at 1014,
 * which it does not wait for), for rank 3's unlock, whose epoch held the
 * lock 992 ticks of the call (rank 2's 292). Delays: since the barrier
 * rank 3 worked 1001 (its lock call and computation) to its unlock,
 * rank 1 10: the excess, 991, explains the wait (s = 1): rank 3's
 * computation is the root and the first problem, where rank 1's
 * MPI_Win_lock_all, its 995 ticks taken for work, was. */
static void
lock_all_waits(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	CALL(12, 13, R_LOCK, assert_int_equal(build_rma_lock(f->b, 12, W_A, 1, 1), 0));
	CALL(1013, 1014, R_UNLOCK, assert_int_equal(build_rma_release(f->b, 1014, W_A, 1), 0));
	BARRIER(1100, 1110);
	END();
	TL(1);
	BARRIER(0, 10);
	CALL(20, 1015, R_LOCK_ALL, assert_int_equal(build_rma_lock(f->b, 20, W_A, UINT32_MAX, 1), 0));
	CALL(1015, 1017, R_UNLOCK_ALL, assert_int_equal(build_rma_release(f->b, 1016, W_A, UINT32_MAX), 0));
	BARRIER(1100, 1110);
	END();
	TL(2);
	BARRIER(0, 10);
	LOCK(10, 11, 0);
	UNLOCK(311, 312);
	BARRIER(1100, 1110);
	END();
	TL(3);
	BARRIER(0, 10);
	CALL(10, 11, R_LOCK, assert_int_equal(build_rma_lock(f->b, 10, W_A, 3, 0), 0));
	CALL(1011, 1012, R_UNLOCK, assert_int_equal(build_rma_release(f->b, 1012, W_A, 3), 0));
	BARRIER(1100, 1110);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t lock_all = tu_comm_lop(a, 1, 1), unlock3 = tu_comm_lop(a, 3, 2), comp = unlock3 - 1;
	assert_int_equal(analysis_lop_kind(a, comp), OP_COMPUTE);
	assert_int_equal(analysis_lop_duration(a, comp), 1000);
	const struct analysis_wait *w = analysis_lop_wait(a, lock_all);
	assert_non_null(w);
	assert_int_equal(w->kind, WAIT_LOCK);
	assert_int_equal(w->time, 992);
	assert_int_equal(w->cause_lop, unlock3);
	assert_int_equal(w->root_lop, comp);
	for (uint32_t r = 0; r < 4; r += 2)     /* rank 0's shared lock, rank 2's: no one before */
		assert_null(analysis_lop_wait(a, tu_comm_lop(a, r, 1)));
	assert_null(analysis_lop_wait(a, tu_comm_lop(a, 3, 1)));
	const struct analysis_delay *d = analysis_lop_delay(a, comp);
	assert_non_null(d);
	assert_int_equal(d->direct, 991);
	assert_null(analysis_lop_delay(a, lock_all));
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, comp);
	for (uint32_t i = 0; i < np; i++)
		assert_true(p[i].lop != lock_all);
	analysis_destroy(a);
}

/* Lateness lost in a lock wait shows where all ranks next meet (lock-4,
 * lh-mpich). Rank 2 locks, puts and flushes, holds the lock over a
 * barrier all pass at 20 and computes 1000 ticks (20 to 1020) before it
 * lets go at 1021; ranks 3 and 1 ask for the lock at 20 and 21 and wait
 * until 1021 (rank 1 1003 ticks, for rank 2, which held the lock longer
 * in its call than rank 3), read and unlock, rank 1 in 50 ticks where
 * rank 3 takes one; rank 0 waits in the Allreduce from 25. Ranks 1 and
 * 3 make the same calls: one partition, where rank 1's unlock is late by
 * 52 (it returned at 1076, rank 3's at 1024) and the rest by nothing,
 * though both waited 1000 ticks. Rank 1's computation before the
 * Allreduce returned at 1076, rank 0's at 25: it created 1051 - 52 =
 * 999, none of it inside (it lasts nothing), none in the stretch before
 * (which stops at the late unlock). It is the stall of rank 2's
 * computation, which rank 1 waited for in its lock: that problem (one,
 * the larger: rank 2's delay), not a second one of rank 1's. */
static void
lost_in_lock_wait(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	BARRIER(10, 20);
	ALLREDUCE(25, 1200);
	END();
	TL(1);
	BARRIER(0, 10);
	BARRIER(10, 20);
	LOCK(21, 1025, 0);
	GET(1025, 1026, 2);
	UNLOCK(1026, 1076);
	ALLREDUCE(1076, 1200);
	END();
	TL(2);
	BARRIER(0, 10);
	LOCK(10, 11, 0);
	CALL(11, 12, R_PUT, assert_int_equal(build_rma_op(f->b, 11, RMA_PUT, 0, W_A, 0, 8, 0, 1), 0));
	CALL(12, 13, R_FLUSH, assert_int_equal(build_rma_complete(f->b, 12, RMA_DONE_REMOTE, W_A, 1), 0);
	     assert_int_equal(build_rma_sync(f->b, 12), 0));
	BARRIER(13, 20);
	UNLOCK(1020, 1021);
	ALLREDUCE(1021, 1200);
	END();
	TL(3);
	BARRIER(0, 10);
	BARRIER(10, 20);
	LOCK(20, 1022, 0);
	GET(1022, 1023, 3);
	UNLOCK(1023, 1024);
	ALLREDUCE(1024, 1200);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t unlock = tu_comm_lop(a, 2, 5), hold = unlock - 1, hot = tu_comm_lop(a, 1, 5) - 1;
	assert_int_equal(analysis_lop_duration(a, hold), 1000);
	assert_int_equal(analysis_lop_part(a, tu_comm_lop(a, 1, 4)), analysis_lop_part(a, tu_comm_lop(a, 3, 4)));
	assert_int_equal(analysis_lop_lateness(a, tu_comm_lop(a, 1, 4)), 52);
	assert_int_equal(analysis_lop_lateness(a, hot), 1051);
	assert_int_equal(analysis_lop_diff(a, hot), 999);
	struct analysis_lost lost;
	analysis_lop_lost(a, hot, &lost);
	assert_int_equal(lost.before, 0);
	const struct analysis_wait *w = analysis_lop_wait(a, tu_comm_lop(a, 1, 2));
	assert_non_null(w);
	assert_int_equal(w->kind, WAIT_LOCK);
	assert_int_equal(w->time, 1003);
	assert_int_equal(w->cause_lop, unlock);
	assert_int_equal(w->root_lop, hold);
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, hold);
	assert_int_equal(p[0].kind, PROBLEM_DELAY);
	for (uint32_t i = 0; i < np; i++)
		assert_true(p[i].lop != hot && p[i].surfaced != hot);
	analysis_destroy(a);
}

/* The holder's own lateness where all next meet is its hold too
 * (rma4's delayed lock, OpenCoarrays' critical with a stalled image).
 * Ranks 1, 2 and 3 lock, read and unlock, one partition; rank 2 has
 * the lock first (10 to 11), reads, computes 1000 ticks (12 to 1012) and
 * unlocks in 88 (its release at 1100), while ranks 1 and 3, which asked
 * at 12 and 13, had the lock at 1013 and 1016 (the release is recorded
 * as the unlock returns, after the lock was free) and unlocked by 1018.
 * At the unlock's step rank 2 is late by 85 (it returned at 1100, rank
 * 1's at 1015), though it held the lock; its computation before the Allreduce
 * returned at 1100, rank 0's at 25: it created 1075 - 85 = 990, none
 * inside, none in the stretch (it stops at the late unlock). It is the
 * hold others waited for: that problem, not a second. */
static void
holder_lost(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	ALLREDUCE(25, 1200);
	END();
	TL(1);
	BARRIER(0, 10);
	LOCK(12, 1013, 0);
	GET(1013, 1014, 1);
	UNLOCK(1014, 1015);
	ALLREDUCE(1015, 1200);
	END();
	TL(2);
	BARRIER(0, 10);
	LOCK(10, 11, 0);
	GET(11, 12, 2);
	UNLOCK(1012, 1100);
	ALLREDUCE(1100, 1200);
	END();
	TL(3);
	BARRIER(0, 10);
	LOCK(13, 1016, 0);
	GET(1016, 1017, 3);
	UNLOCK(1017, 1018);
	ALLREDUCE(1018, 1200);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t unlock = tu_comm_lop(a, 2, 3), hold = unlock - 1, hot = tu_comm_lop(a, 2, 4) - 1;
	assert_int_equal(analysis_lop_duration(a, hold), 1000);
	assert_int_equal(analysis_lop_part(a, unlock), analysis_lop_part(a, tu_comm_lop(a, 1, 3)));
	assert_int_equal(analysis_lop_lateness(a, unlock), 85);
	assert_int_equal(analysis_lop_diff(a, hot), 990);
	struct analysis_lost lost;
	analysis_lop_lost(a, hot, &lost);
	assert_int_equal(lost.before, 0);
	for (uint32_t r = 1; r < 4; r += 2) {
		const struct analysis_wait *w = analysis_lop_wait(a, tu_comm_lop(a, r, 1));
		assert_non_null(w);
		assert_int_equal(w->kind, WAIT_LOCK);
		assert_int_equal(w->root_lop, hold);
	}
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, hold);
	for (uint32_t i = 0; i < np; i++)
		assert_true(p[i].lop != hot && p[i].surfaced != hot);
	analysis_destroy(a);
}

/* The stalled rank's own lateness where all next meet goes to its stall
 * when the others waited for it there, not in a lock (OpenCoarrays'
 * critical under Open MPI, caf-prog-ompi: image 3 stalled 0.3 s between
 * two lock epochs, the others spinning in theirs had finished and
 * waited at the barrier). Ranks 1, 2 and 3 lock, read and unlock rank
 * 0's part; rank 3 asks at 11 and waits for rank 1's release at 13 (2
 * ticks: a lock wait). Rank 2 unlocks at 20 and computes 1000 ticks (20
 * to 1020); ranks 1 and 3 run a second epoch and enter the Allreduce at
 * 30, rank 0 at 25. Rank 2 runs two more epochs (1020 to 1026: the
 * second at steps no other rank reaches, late by nothing) and enters at
 * 1027. One partition for ranks 1 to 3: rank 2's computation exits at
 * 1020, theirs at 21 and 25, late by 999, its second epoch's unlock by
 * 999 (1023 against rank 1's 24). Its computation before the Allreduce
 * exits at 1027, rank 0's at 25: it created 1002 (its predecessor, the
 * third epoch's unlock, is late by nothing), 1 inside, 3 in the six
 * lops before (the stretch stops at the late unlock), 998 found
 * nowhere. The others' waits at the Allreduce (1002 + 997 + 997) are
 * rooted in the 1000-tick computation, at least half of 998: that
 * problem, the delay's 2996, not rank 2's third MPI_Win_unlock (1 tick,
 * the longest of the stretch) with 1002. */
static void
holder_waited_at_collective(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	ALLREDUCE(25, 1200);
	END();
	TL(1);
	BARRIER(0, 10);
	LOCK(10, 11, 0);
	GET(11, 12, 1);
	UNLOCK(12, 13);
	LOCK(21, 22, 0);
	GET(22, 23, 4);
	UNLOCK(23, 24);
	ALLREDUCE(30, 1200);
	END();
	TL(2);
	BARRIER(0, 10);
	LOCK(17, 18, 0);
	GET(18, 19, 2);
	UNLOCK(19, 20);
	LOCK(1020, 1021, 0);
	GET(1021, 1022, 5);
	UNLOCK(1022, 1023);
	LOCK(1023, 1024, 0);
	GET(1024, 1025, 6);
	UNLOCK(1025, 1026);
	ALLREDUCE(1027, 1200);
	END();
	TL(3);
	BARRIER(0, 10);
	LOCK(11, 14, 0);
	GET(14, 15, 3);
	UNLOCK(15, 16);
	LOCK(25, 26, 0);
	GET(26, 27, 7);
	UNLOCK(27, 28);
	ALLREDUCE(30, 1200);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t stall = tu_comm_lop(a, 2, 4) - 1, hot = tu_comm_lop(a, 2, 10) - 1;
	uint32_t unlock2 = tu_comm_lop(a, 2, 6), unlock3 = tu_comm_lop(a, 2, 9);
	assert_int_equal(analysis_lop_duration(a, stall), 1000);
	assert_int_equal(analysis_lop_part(a, stall), analysis_lop_part(a, tu_comm_lop(a, 1, 1)));
	assert_int_equal(analysis_lop_lateness(a, stall), 999);
	assert_int_equal(analysis_lop_lateness(a, unlock2), 999);
	assert_int_equal(analysis_lop_lateness(a, unlock3), 0);
	assert_int_equal(analysis_lop_diff(a, hot), 1002);
	struct analysis_lost lost;
	analysis_lop_lost(a, hot, &lost);
	assert_int_equal(lost.inside, 1);
	assert_int_equal(lost.before, 3);
	assert_int_equal(lost.from, unlock2 + 1);
	const struct analysis_wait *w = analysis_lop_wait(a, tu_comm_lop(a, 3, 1));
	assert_non_null(w);
	assert_int_equal(w->kind, WAIT_LOCK);
	assert_int_equal(w->time, 2);
	for (uint32_t r = 0; r < 4; r += 1 + (r == 1)) {
		w = analysis_lop_wait(a, tu_comm_lop(a, r, r ? 7 : 1));
		assert_non_null(w);
		assert_int_equal(w->kind, WAIT_NXN);
		assert_int_equal(w->time, r ? 997 : 1002);
		assert_int_equal(w->root_lop, stall);
	}
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, stall);
	assert_int_equal(p[0].kind, PROBLEM_DELAY);
	assert_int_equal(p[0].amount, 2996);
	for (uint32_t i = 0; i < np; i++)
		assert_true(p[i].surfaced != hot);
	analysis_destroy(a);
}

/* A chain: rank 1 holds the lock from 11 to its release at 250 (238
 * ticks of computation); rank 2 asks at 100, waits for it until 250
 * (150 of its call's 300: MPI granted it at 400) and holds it over 130
 * of computation to 531; rank 3 asks at 200 and waits until 531 (331),
 * for rank 2, which held the lock longer in its call (131 against rank
 * 1's 50). The delays' rule, Scalasca's: rank 2 worked 370 since the
 * barrier (90, its lock call's 150 not waited, 130), rank 3 190; the
 * excess, 180, explains more of the wait than rank 2's own wait (150),
 * so the root is the lop of rank 2's that worked longest: its lock call.
 * That call mostly waited for rank 1's lock, so the root is its wait's:
 * rank 1's computation, whose holding held both up. */
static void
chain(void **state)
{
	struct fx *f = *state;
	TL(0);
	BARRIER(0, 10);
	BARRIER(1000, 1010);
	END();
	TL(1);
	BARRIER(0, 10);
	LOCK(10, 11, 0);
	UNLOCK(249, 250);
	BARRIER(1000, 1010);
	END();
	TL(2);
	BARRIER(0, 10);
	LOCK(100, 400, 0);
	UNLOCK(530, 531);
	BARRIER(1000, 1010);
	END();
	TL(3);
	BARRIER(0, 10);
	LOCK(200, 540, 0);
	UNLOCK(540, 541);
	BARRIER(1000, 1010);
	END();
	FINISH();
	struct analysis *a = tu_analyse(f->t, NULL);
	uint32_t unlock1 = tu_comm_lop(a, 1, 2), hold = unlock1 - 1;
	uint32_t lock2 = tu_comm_lop(a, 2, 1), unlock2 = tu_comm_lop(a, 2, 2);
	assert_int_equal(analysis_lop_duration(a, hold), 238);
	const struct analysis_wait *w2 = analysis_lop_wait(a, lock2);
	assert_non_null(w2);
	assert_int_equal(w2->kind, WAIT_LOCK);
	assert_int_equal(w2->time, 150);
	assert_int_equal(w2->cause_lop, unlock1);
	assert_int_equal(w2->root_lop, hold);
	const struct analysis_wait *w3 = analysis_lop_wait(a, tu_comm_lop(a, 3, 1));
	assert_non_null(w3);
	assert_int_equal(w3->kind, WAIT_LOCK);
	assert_int_equal(w3->time, 331);
	assert_int_equal(w3->cause_lop, unlock2);
	assert_int_equal(w3->root_lop, hold);
	/* Böhme's cost stays where the rule put it: rank 2's lock call, the
	 * excess 180 */
	const struct analysis_delay *d = analysis_lop_delay(a, lock2);
	assert_non_null(d);
	assert_int_equal(d->direct, 180);
	analysis_destroy(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(lock_all_holds, setup, teardown),
		cmocka_unit_test_setup_teardown(lock_all_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(lost_in_lock_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_waited_at_collective, setup, teardown),
		cmocka_unit_test_setup_teardown(chain, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
