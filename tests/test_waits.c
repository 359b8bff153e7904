/* test_waits.c — the wait states, their root causes and where created
 * lateness was lost (analysis/explain/explain.h), on traces written by
 * hand whose answers are worked out by hand: each case says how. Times
 * are ticks; every trace starts with an MPI_Allreduce that all ranks
 * enter at 0 and leave at 1 (now 2), so that no computation is a
 * rank's start-up. */
#include "testwaits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "analysis/explain/explain.h"
#include "analysis/run/run.h"
#include "report/report.h"

/* Late sender: rank 0 computes 10 and enters MPI_Recv at 12; rank 1
 * computes 90 and enters MPI_Send at 92. Rank 0 waits 92 - 12 = 80 for
 * rank 1's send. Intervals back to the Allreduce: rank 0 worked 10,
 * rank 1 90: the excess 80 explains the whole wait: rank 1's
 * computation is the root, with a cost of 80, directly. */
static void
late_sender(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	start(d, 0);
	work(d, 10);
	recv_until(d, 1, 0, 100);
	start(d, 1);
	work(d, 90);
	send(d, 0, 0);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t r = comm(a, 0, 1), s = comm(a, 1, 1);
	assert_wait(a, r, WAIT_LATE_SENDER, 80, s, s - 1);
	const struct analysis_delay *dl = analysis_lop_delay(a, s - 1);
	assert_non_null(dl);
	assert_int_equal(dl->cost, 80);
	assert_int_equal(dl->direct, 80);
	assert_int_equal(dl->waits, 1);
	assert_null(analysis_lop_wait(a, s));
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 1);
	assert_int_equal(p[0].lop, s - 1);
	assert_int_equal(p[0].kind, PROBLEM_DELAY);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Late receiver: rank 0 enters a blocking MPI_Send at 12 and stays in
 * it until 95; rank 1 computes 80 and posts its MPI_Recv at 82. Rank 0
 * waited 82 - 12 = 70 for the receive; rank 1's computation (80 against
 * rank 0's 10) is the root. A send whose receive came after it left
 * (an eager send) waits for nothing. */
static void
late_receiver(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	start(d, 0);
	work(d, 10);
	send_until(d, 1, 0, 95);     /* 12 .. 96 */
	send(d, 2, 1);               /* 98 .. 99: rank 2 receives at 200 */
	start(d, 1);
	work(d, 80);
	recv(d, 0, 0);               /* 82 */
	start(d, 2);
	work(d, 198);
	recv(d, 0, 1);               /* 200 */
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t s = comm(a, 0, 1), r = comm(a, 1, 1);
	assert_wait(a, s, WAIT_LATE_RECEIVER, 70, r, r - 1);
	assert_null(analysis_lop_wait(a, comm(a, 0, 2)));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Collectives: ranks 0, 1, 2 compute 10, 30, 70 and enter at 12, 32,
 * 72; all leave at 73. Barrier and N x N: ranks 0 and 1 wait 60 and 40
 * for rank 2. One to all (root 0 entering last, at 72): ranks 1, 2 wait
 * for it (late broadcast) when they entered before it. All to one (root
 * 0 entering first, at 12): the root waits for the last of the others,
 * 72 - 12 = 60 (early reduce). */
static void
collectives(void **state)
{
	(void)state;
	static const struct { int type, kind; uint32_t root; uint64_t w[3]; } cases[] = {
		{ COLL_BARRIER, WAIT_BARRIER, UINT32_MAX, { 60, 40, 0 } },
		{ COLL_ALLREDUCE, WAIT_NXN, UINT32_MAX, { 60, 40, 0 } },
		/* every all-to-all is N x N (CP2K's Alltoallv waited unseen) */
		{ COLL_ALLTOALL, WAIT_NXN, UINT32_MAX, { 60, 40, 0 } },
		{ COLL_ALLTOALLV, WAIT_NXN, UINT32_MAX, { 60, 40, 0 } },
		{ COLL_ALLTOALLW, WAIT_NXN, UINT32_MAX, { 60, 40, 0 } },
		{ COLL_ALLGATHERV, WAIT_NXN, UINT32_MAX, { 60, 40, 0 } },
		{ COLL_REDUCE, WAIT_EARLY_REDUCE, 0, { 60, 0, 0 } },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct dsl *d = dsl_new(3);
		static const uint64_t comp[3] = { 10, 30, 70 };
		for (uint32_t r = 0; r < 3; r++) {
			start(d, r);
			work(d, comp[r]);
			coll_until(d, cases[c].type, cases[c].root, 73);
		}
		struct trace *t = dsl_done(d);
		struct analysis *a = analyse(t, NULL);
		for (uint32_t r = 0; r < 3; r++) {
			const struct analysis_wait *w = analysis_lop_wait(a, comm(a, r, 1));
			if (!cases[c].w[r]) {
				assert_null(w);
				continue;
			}
			assert_non_null(w);
			assert_int_equal(w->kind, cases[c].kind);
			assert_int_equal(w->time, cases[c].w[r]);
			assert_int_equal(analysis_lop_timeline(a, w->cause_lop), 2);
			assert_int_equal(w->root_lop, comm(a, 2, 1) - 1);   /* rank 2's computation */
		}
		if (cases[c].kind != WAIT_EARLY_REDUCE) {
			/* rank 2's computation made both wait: 60 + 40 */
			const struct analysis_delay *dl = analysis_lop_delay(a, comm(a, 2, 1) - 1);
			assert_non_null(dl);
			assert_int_equal(dl->cost, 100);
			assert_int_equal(dl->waits, 2);
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
	/* late broadcast: the root, rank 0, enters last */
	struct dsl *d = dsl_new(3);
	static const uint64_t comp[3] = { 70, 10, 30 };
	for (uint32_t r = 0; r < 3; r++) {
		start(d, r);
		work(d, comp[r]);
		coll_until(d, COLL_BCAST, 0, 73);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	assert_null(analysis_lop_wait(a, comm(a, 0, 1)));
	const struct analysis_wait *w1 = wait_of(a, comm(a, 1, 1)), *w2 = wait_of(a, comm(a, 2, 1));
	assert_int_equal(w1->kind, WAIT_LATE_BROADCAST);
	assert_int_equal(w1->time, 60);
	assert_int_equal(w2->time, 40);
	assert_int_equal(w1->cause_lop, comm(a, 0, 1));
	analysis_destroy(a);
	trace_destroy(t);
}

/* A chain: rank 2 computes 100 and sends to rank 1 at 102; rank 1 waits
 * for it in MPI_Recv from 12 (wait 102 - 12 = 90), then sends to rank 0
 * at once (105), which waits in its MPI_Recv from 12 (105 - 12 = 93).
 * Rank 0's wait is not rank 1's work (10 against rank 0's 10: no excess)
 * but rank 1's own wait: it propagates, so both waits' root is rank 2's
 * computation, whose cost is its direct 90 (the excess 100 - 10) plus
 * what rank 0's wait passed on through rank 1's. */
static void
chain(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	start(d, 0);
	work(d, 10);
	recv_until(d, 1, 0, 110);
	start(d, 1);
	work(d, 10);
	recv_until(d, 2, 0, 103);   /* 12 .. 104 */
	send(d, 0, 0);              /* 106 */
	start(d, 2);
	work(d, 100);
	send(d, 1, 0);              /* 102 */
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t r0 = comm(a, 0, 1), r1 = comm(a, 1, 1), c2 = comm(a, 2, 1) - 1;
	const struct analysis_wait *w0 = wait_of(a, r0), *w1 = wait_of(a, r1);
	assert_int_equal(w1->time, 90);
	assert_int_equal(w0->time, 93);
	assert_int_equal(w1->root_lop, c2);
	assert_int_equal(w0->root_lop, c2);
	const struct analysis_delay *dl = analysis_lop_delay(a, c2);
	assert_non_null(dl);
	assert_int_equal(dl->direct, 90);
	/* rank 0's 93 propagated through rank 1's 90-tick wait */
	assert_true(dl->cost >= 90 + 89 && dl->cost <= 90 + 93);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Lateness lost before an operation: analysis_lop_lost on every lop of
 * the traces whose culprit is known (traces/waits/waitsome-4: rank 2's
 * computation after its MPI_Waitsome alone at its step) is checked in
 * tests/waits.sh through the problems; here, its arithmetic: an
 * operation that created no more than it lasted lost nothing before. */
static void
lost_arithmetic(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	start(d, 0);
	work(d, 10);
	send(d, 1, 0);
	start(d, 1);
	work(d, 500);
	recv(d, 0, 0);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		struct analysis_lost lost;
		int before = analysis_lop_lost(a, l, &lost);
		assert_int_equal(lost.created, analysis_lop_diff(a, l));
		assert_true(lost.inside + lost.before <= lost.created);
		assert_true(lost.inside <= analysis_lop_duration(a, l));
		assert_int_equal(before, lost.before > 0);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

/* Polling: rank 0 posts an MPI_Irecv (2..3), then calls MPI_Test,
 * which completes nothing, 20 times (4..5, 6..7, ..., 42..43) and once
 * more at 44, completing the receive; rank 1 computes 30 and enters
 * MPI_Send at 32. A test never waits (Scalasca), but the computation
 * before the completing test polled from its first test, 4, until the
 * send began, 32: 28 ticks of polling, for rank 1's send, whose
 * computation is the root. Without the failed tests there is no
 * polling (a test that completes at once waited for nothing). */
static void
polling(void **state)
{
	(void)state;
	for (int failed = 20; failed >= 0; failed -= 20) {
		struct dsl *d = dsl_new(2);
		start(d, 0);
		uint64_t req = irecv(d);
		for (int k = 0; k < failed; k++) {
			call(d, R_TEST);
			ret(d, R_TEST);
		}
		at(d, 44);
		call(d, R_TEST);
		assert_int_equal(build_recv(d->b, d->now, 1, 0, 0, 8, req), 0);
		ret(d, R_TEST);
		start(d, 1);
		work(d, 30);
		send(d, 0, 0);
		struct trace *t = dsl_done(d);
		struct analysis *a = analyse(t, NULL);
		uint32_t test = comm(a, 0, 1), s = comm(a, 1, 1);
		assert_null(analysis_lop_wait(a, test));
		if (failed) {
			assert_wait(a, test - 1, WAIT_POLLING, 28, s, s - 1);
			assert_string_equal(analysis_wait_name(WAIT_POLLING), "polling");
		} else {
			assert_null(analysis_lop_wait(a, test - 1));
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* The chain above with no time in the calls after the waits: rank 1's
 * wait and rank 0's both end at 102, rank 1 sending to rank 0 as its
 * receive returns; a later wait of rank 0's (for rank 1's second send)
 * puts rank 0's waits in a run of exits of their own. Waits are taken
 * latest first and, among equal exits, the later operation first: rank
 * 1's (later in lop order) passes on before rank 0's has given it
 * anything, so rank 2's computation keeps only its direct 90; taken the
 * other way round, rank 0's 90 would have reached it through rank 1 (a
 * cost of 180). */
static void
equal_exits(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	struct build *b;
	start(d, 0);
	work(d, 10);
	b = d->b;
	assert_int_equal(build_enter(b, 12, d->reg[R_RECV]), 0);
	assert_int_equal(build_recv(b, 102, 1, 0, 0, 8, UINT64_MAX), 0);
	assert_int_equal(build_leave(b, 102, d->reg[R_RECV]), 0);
	d->now = 104;
	recv_until(d, 1, 1, 160);   /* a later wait on rank 0: exits 161 */
	start(d, 1);
	assert_int_equal(build_enter(b, 12, d->reg[R_RECV]), 0);
	assert_int_equal(build_recv(b, 102, 2, 0, 0, 8, UINT64_MAX), 0);
	assert_int_equal(build_leave(b, 102, d->reg[R_RECV]), 0);
	assert_int_equal(build_enter(b, 102, d->reg[R_SEND]), 0);
	assert_int_equal(build_send(b, 102, 0, 0, 0, 8, UINT64_MAX), 0);
	assert_int_equal(build_leave(b, 102, d->reg[R_SEND]), 0);
	d->now = 104;
	work(d, 50);
	send(d, 0, 1);              /* 154 */
	start(d, 2);
	work(d, 100);
	send(d, 1, 0);              /* 102 */
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t r0 = comm(a, 0, 1), r1 = comm(a, 1, 1), c2 = comm(a, 2, 1) - 1;
	const struct analysis_wait *w0 = wait_of(a, r0), *w1 = wait_of(a, r1);
	assert_int_equal(w1->time, 90);
	assert_int_equal(w0->time, 90);
	assert_int_equal(w1->root_lop, c2);
	const struct analysis_delay *dl = analysis_lop_delay(a, c2);
	assert_non_null(dl);
	assert_int_equal(dl->direct, 90);
	assert_int_equal(dl->cost, 90);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A rank whose peer shares the waiting rank's byte: the delay intervals
 * keep a byte of each end's peer and read the message only where the
 * bytes agree, and ranks 0 and 257 have the same byte. Rank 1 receives
 * from rank 257 at 12 (sent at 7), computes 80 and sends to rank 0 at
 * 94, which has waited in MPI_Recv since 12 (82). Rank 1's interval
 * runs back to the start-up Allreduce, past the receive from 257: its
 * work, 10 + 80 and the receive, against rank 0's 10, explains the
 * whole wait, with the 80 as its root. Taking the byte for the peer
 * would end the interval at that receive (work 80, excess 70: a cost
 * of 70). */
static void
peer_bytes(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(258);
	start(d, 0);
	work(d, 10);
	recv_until(d, 1, 0, 120);
	start(d, 1);
	work(d, 10);
	recv(d, 257, 0);
	work(d, 80);
	send(d, 0, 0);
	for (uint32_t r = 2; r < 257; r++)
		start(d, r);
	start(d, 257);
	work(d, 5);
	send(d, 1, 0);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t r = comm(a, 0, 1), s = comm(a, 1, 2);
	assert_wait(a, r, WAIT_LATE_SENDER, 82, s, s - 1);
	const struct analysis_delay *dl = analysis_lop_delay(a, s - 1);
	assert_non_null(dl);
	assert_int_equal(dl->cost, 82);
	assert_int_equal(dl->direct, 82);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A created problem is where most of the lateness was created: at the
 * culprit before the hotspot (or its wait's root) only when more was
 * lost before it than inside it, and no less than was found nowhere or
 * the culprit's time (at most what was lost before) is a tenth of it.
 * On traces/waits/waitsome-4-openmpi rank 1's computation in iteration
 * 2 created 300.8 ms and lasted 300.4: the 0.45 ms before it once made
 * rank 2's 214-us computation the problem of 300.8 ms. */
static void
created_where_most(void **state)
{
	(void)state;
	static const char *const traces[] = { "traces/waits/waitsome-4-openmpi/traces.otf2",
					      "traces/waits/waitsome-4/traces.otf2",
					      "traces/corpus/wavefront-9-delay/traces.otf2" };
	uint32_t mostly_inside = 0, mostly_before = 0;
	for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
		char path[1200];
		PROJECT_PATH(path, traces[i]);
		struct trace *t = tu_load(path);
		struct analysis *a = tu_analyse(t, NULL);
		uint32_t np;
		const struct analysis_problem *p = analysis_problems(a, &np);
		for (uint32_t k = 0; k < np; k++) {
			if (p[k].kind != PROBLEM_CREATED)
				continue;
			struct analysis_lost lost;
			analysis_lop_lost(a, p[k].surfaced, &lost);
			uint64_t cd = analysis_lop_duration(a, lost.culprit);
			cd = cd < lost.before ? cd : lost.before;
			if (lost.before > lost.inside &&
			    (lost.before >= lost.created - lost.inside - lost.before || 10 * cd >= lost.created)) {
				assert_int_not_equal(p[k].lop, p[k].surfaced);
				mostly_before++;
			} else {
				assert_int_equal(p[k].lop, p[k].surfaced);
				mostly_inside += lost.before > 0;
			}
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
	/* both cases met (the MPICH waitsome-4's is the one before) */
	assert_true(mostly_inside > 0);
	assert_true(mostly_before > 0);
}

/* A problem is never put on an operation that took under a tenth of
 * its amount (its own hotspot aside, where the lateness surfaced): the
 * longest of a stretch does not stand for lateness the stretch did not
 * lose, nor for time the stretch lost waiting. Until 2026-12-01
 * lockall-4-openmpi's 'created 73.00 ms' was on a 12-us MPI_Put (28 us
 * lost in the stretch), lock-4-openmpi's 35.18 ms on an 11-us
 * MPI_Win_lock, gen-gather-6-delay's 3.000 ms on a 98-us computation
 * beside rank 0's 3.0-ms wait for rank 1 (now rank 1's computation,
 * that wait's root), late-sender-4-openmpi's 164.6 ms on rank 2's 14-ms
 * computation (now rank 3's 60-ms one, the root of the longest of rank
 * 0's waits in the stretch). */
static void
never_a_sliver(void **state)
{
	(void)state;
	static const char *const traces[] = { "traces/onesided/lockall-4-openmpi/traces.otf2",
					      "traces/onesided/lock-4-openmpi/traces.otf2",
					      "traces/corpus/gen-gather-6-delay/traces.otf2",
					      "traces/waits/late-sender-4-openmpi/traces.otf2" };
	uint32_t moved = 0;
	for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
		char path[1200];
		PROJECT_PATH(path, traces[i]);
		struct trace *t = tu_load(path);
		struct analysis *a = tu_analyse(t, NULL);
		uint32_t np;
		const struct analysis_problem *p = analysis_problems(a, &np);
		for (uint32_t k = 0; k < np; k++) {
			if (p[k].surfaced == TRACE_NONE || p[k].surfaced == p[k].lop)
				continue;
			assert_true(10 * analysis_lop_duration(a, p[k].lop) >= p[k].amount);
			moved++;
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
	assert_true(moved > 0);
}

/* Polling for a send (hpcc, a rank stopped for 0.3 s): rank 0 posts an
 * MPI_Isend to rank 1 at 2, tests it in vain every 2 ticks (4..299) and
 * once more at 300, completing it; rank 1 posted its receive and sits in
 * MPI_Waitall from 9 until the message arrives at 300. No wait state
 * says so (the send was posted before rank 1 waited, and a test never
 * waits), so rank 0's computation before the completing test created
 * the lateness: about 290 ticks. It polled for most of its time for
 * the request whose other end is rank 1, which was in its MPI_Waitall
 * (not waiting for anything late) all that time: the problem is rank
 * 1's MPI_Waitall. Without the failed tests there was no polling, nor
 * with 20 (4..43) and then work, nor with one (the usual overlap of
 * computation and communication: helper-35's case, once blamed on rank
 * 1), nor when the send completes in an MPI_Waitall after that work:
 * the problem stays rank 0's computation. */
static void
polled_send(void **state)
{
	(void)state;
	static const struct { int failed, wait; } cases[] = { { -1, 0 }, { 20, 0 }, { 0, 0 }, { 1, 0 }, { 1, 1 } };
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct dsl *d = dsl_new(2);
		start(d, 0);
		uint64_t req = isend(d, 1, 0);
		/* -1: tests in vain all the way (4, 6, ..., 298) */
		for (int i = 0; cases[k].failed < 0 ? d->now < 298 : i < cases[k].failed; i++) {
			call(d, R_TEST);
			ret(d, R_TEST);
		}
		at(d, 300);
		if (cases[k].wait) {
			waitall(d, &(struct rq){ req, 1, 0, 0 }, 1);
		} else {
			call(d, R_TEST);
			assert_int_equal(build_isend_complete(d->b, d->now, req), 0);
			ret(d, R_TEST);
		}
		start(d, 1);
		uint64_t r = irecv(d);
		work(d, 3);
		completes_at(d, 300);
		waitall(d, &(struct rq){ r, 0, 0, 1 }, 1);
		struct trace *t = dsl_done(d);
		struct analysis *a = analyse(t, NULL);
		uint32_t comp = comm(a, 0, 2) - 1, wall = comm(a, 1, 1);
		assert_int_equal(analysis_lop_kind(a, comp), OP_COMPUTE);
		assert_int_equal(analysis_lop_kind(a, wall), OP_RECV);
		assert_true(analysis_lop_diff(a, comp) > 250);
		assert_null(analysis_lop_wait(a, wall));
		uint32_t np;
		const struct analysis_problem *p = analysis_problems(a, &np);
		assert_true(np >= 1);
		assert_int_equal(p[0].kind, PROBLEM_CREATED);
		assert_int_equal(p[0].surfaced, comp);
		assert_int_equal(p[0].lop, cases[k].failed < 0 ? wall : comp);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* The problem with lop `surfaced` as its surfaced operation, or NULL. */
static const struct analysis_problem *
problem_surfaced(const struct analysis *a, uint32_t surfaced)
{
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	for (uint32_t k = 0; k < np; k++)
		if (p[k].surfaced == surfaced)
			return &p[k];
	return NULL;
}

/* Lateness created in a blocking send is held up by the receiver (LAMMPS
 * on 4 ranks, rank 2 stopped in an MPI_Send for 0.3 s: rank 3's
 * MPI_Send to it created 300.9 ms and was problem 2, a second name for
 * the one stall). Ranks 0 and 3 send to rank 1 at one step, rank 3 at
 * 32 for one tick, rank 0 from 32 to 301: rank 0's send created about
 * 268 ticks, and no wait state covers it (rank 1 posted its receives
 * with MPI_Irecv at 2 and 4).
 *   computing: rank 1 computes from 6 to 296, then completes both
 *     receives: its computation held the send up (the receive was
 *     posted, nothing took it);
 *   stopped: rank 1 sends 3 messages to rank 2 in a tick each, then a
 *     fourth from 12 to 300 (an outlier: its median is 1): that send,
 *     begun before rank 0's and not waiting, held it up, and is the one
 *     problem of both;
 *   both sent: rank 1 sends to rank 0 from 12 to 300 too, received with
 *     an MPI_Irecv; neither send is an outlier, and two sends that both
 *     took long say nothing of which held the other: rank 0's stays its
 *     own problem. */
static void
send_held(void **state)
{
	(void)state;
	enum { COMPUTING, STOPPED, BOTH_SENT };
	for (int k = COMPUTING; k <= BOTH_SENT; k++) {
		struct dsl *d = dsl_new(4);
		start(d, 0);
		uint64_t r10 = k == BOTH_SENT ? irecv(d) : 0;
		at(d, 32);
		send_until(d, 1, 0, 300);
		if (k == BOTH_SENT)
			waitall(d, &(struct rq){ r10, 1, 9, 1 }, 1);
		start(d, 1);
		uint64_t r0 = irecv(d), r3 = irecv(d);   /* now 6 */
		if (k == COMPUTING) {
			work(d, 290);
		} else if (k == STOPPED) {
			for (uint32_t i = 0; i < 3; i++)
				send(d, 2, i);                /* 6, 8, 10 */
			send_until(d, 2, 3, 299);             /* 12 .. 300 */
		} else {
			at(d, 12);
			send_until(d, 0, 9, 299);
		}
		waitall(d, (struct rq[]){ { r0, 0, 0, 1 }, { r3, 3, 1, 1 } }, 2);
		start(d, 2);
		if (k == STOPPED) {
			for (uint32_t i = 0; i < 3; i++)
				recv_until(d, 1, i, 7 + 2 * i);
			recv_until(d, 1, 3, 300);
		}
		start(d, 3);
		at(d, 32);
		send(d, 1, 1);
		struct trace *t = dsl_done(d);
		struct analysis *a = analyse(t, NULL);
		uint32_t s0 = comm(a, 0, 1), s1 = comm(a, 1, k == STOPPED ? 4 : 1);
		assert_int_equal(STEP(a, 0, 1), STEP(a, 3, 1));
		assert_true(analysis_lop_diff(a, s0) > 200);
		assert_null(analysis_lop_wait(a, s0));
		const struct analysis_problem *p = problem_surfaced(a, s0);
		uint32_t np;
		const struct analysis_problem *all = analysis_problems(a, &np);
		assert_true(np >= 1);
		if (k == COMPUTING) {
			assert_non_null(p);
			assert_int_equal(p->kind, PROBLEM_CREATED);
			assert_int_equal(p->lop, comm(a, 1, 1) - 1);
			assert_int_equal(analysis_lop_kind(a, p->lop), OP_COMPUTE);
		} else if (k == STOPPED) {
			assert_int_equal(all[0].lop, s1);
			assert_int_equal(all[0].kind, PROBLEM_OUTLIER);
			for (uint32_t i = 0; i < np; i++)
				assert_int_not_equal(all[i].lop, s0);
		} else {
			assert_non_null(p);
			assert_int_equal(p->lop, s0);
			assert_int_equal(p->kind, PROBLEM_CREATED);
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* A stall before the iterations begin (CP2K, 2 ranks, rank 1 stopped
 * for 0.5 s while both sat in an MPI_Alltoallv of the set-up: the
 * iterations were found from half way on, and the stall was not among
 * the first 200 problems). Both ranks make four MPI_Bcasts of a tick,
 * then one both sit in from 12 to 300 (no wait: they enter together),
 * then four iterations (the "iteration" region: a Sendrecv and an
 * Allreduce each). The stalled Bcast is in no iteration, so it is held
 * against its rank's other Bcasts outside them (median 1): each rank's
 * is an outlier, the first problems. */
static void
outside_iterations(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		for (int i = 0; i < 4; i++)
			bcast(d, 0);                    /* 2 .. 10 */
		call(d, R_BCAST);                       /* 10 .. 300 */
		assert_int_equal(build_coll_begin(d->b, d->now), 0);
		at(d, 299);
		assert_int_equal(build_coll_end(d->b, d->now, COLL_BCAST, 0, 0, 8, 8), 0);
		ret(d, R_BCAST);
		for (int i = 0; i < 4; i++) {
			call(d, R_ITER);
			work(d, 5);
			sendrecv(d, 1 - r, 1 - r, (uint32_t)i);
			allreduce(d);
			ret(d, R_ITER);
		}
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	assert_int_equal(iterations_get(a)->count, 4);
	assert_int_equal(analysis_outliers_by_region(a), 0);
	uint32_t no, np;
	const struct analysis_outlier *o = analysis_outliers(a, &no);
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(no >= 2 && np >= 2);
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t stalled = comm(a, r, 5);
		assert_int_equal(analysis_lop_kind(a, stalled), OP_COLLECTIVE);
		assert_int_equal(iterations_of_lop(a, stalled), TRACE_NONE);
		const struct analysis_outlier *x = analysis_lop_outlier(a, stalled);
		assert_non_null(x);
		assert_int_equal(x->instances, 5);
		assert_int_equal(x->median, 1);
		assert_true(analysis_outlier_by_region(a, stalled));
		assert_true(p[0].lop == stalled || p[1].lop == stalled);
	}
	(void)o;
	/* the text and the JSON say what the median is over: the rank's
	 * calls outside the iterations, not all its calls */
	for (int fmt = 0; fmt < 2; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		assert_non_null(f);
		assert_int_equal(report_write(a, f, fmt ? REPORT_JSON : REPORT_TEXT, TABLE_HOTSPOTS, NULL), 0);
		fclose(f);
		const char *want = fmt ? "\"against\": \"calls outside the iterations\""
			: "its median in the rank's 5 calls outside the iterations ";
		if (!strstr(buf, want) || (!fmt && strstr(buf, "5 calls 1")))
			fail_msg("no '%s' in:\n%s", want, buf);
		free(buf);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

/* Rank r's lop at global step `step`, or UINT32_MAX. */
static uint32_t
lop_at(const struct analysis *a, uint32_t r, uint32_t step)
{
	uint32_t first, count;
	analysis_timeline_lops(a, r, &first, &count);
	for (uint32_t k = first; k < first + count; k++)
		if (analysis_lop_step(a, k) == step)
			return k;
	return UINT32_MAX;
}

/* Lateness created just after a wait that the rank shared with another
 * at its step is that wait's root's (traces/waits/waitsome-4, rank 1
 * stopped computing 0.3 s in iteration 2). Ranks 0 and 2 both waited
 * for it at step 25, so rank 2's MPI_Waitsome there is late by little
 * (6.65 ms), and its computation at step 26, which took 213,115 ns,
 * created 311,715,315: nothing was found before it (the stretch stops at
 * that late Waitsome), so 311,715,315 - 213,115 = 311,502,200 is
 * unfound, and the Waitsome just before waited 311,596,104 for rank 1's
 * send, rooted in its step-18 computation: between half and twice the
 * unfound. The created lateness is that computation's, which made the
 * others wait 928.5 ms (problem 1); until 2026-12-01 it was problem 2,
 * 'created 311.7 ms', a second name for the one stall. */
static void
waited_together(void **state)
{
	(void)state;
	char path[1200];
	PROJECT_PATH(path, "traces/waits/waitsome-4/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = tu_analyse(t, NULL);
	uint32_t hot = lop_at(a, 2, 26), waited = lop_at(a, 2, 25), root = lop_at(a, 1, 18);
	assert_int_equal(waited + 1, hot);
	assert_int_equal(analysis_lop_duration(a, hot), 213115);
	assert_int_equal(analysis_lop_diff(a, hot), 311715315);
	struct analysis_lost lost;
	analysis_lop_lost(a, hot, &lost);
	assert_int_equal(lost.before, 0);
	const struct analysis_wait *w = analysis_lop_wait(a, waited);
	assert_non_null(w);
	assert_int_equal(w->kind, WAIT_LATE_SENDER);
	assert_int_equal(w->time, 311596104);
	assert_int_equal(w->root_lop, root);
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	assert_true(np >= 2);
	assert_int_equal(p[0].lop, root);
	assert_int_equal(p[0].kind, PROBLEM_DELAY);
	assert_null(problem_surfaced(a, hot));
	for (uint32_t k = 1; k < np; k++)
		assert_true(p[k].amount < 100000000);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A hold is followed through an operation that was held itself
 * (traces/realapps/lammps-melt-4-stop, Open MPI on 4 ranks of a loaded
 * machine, 0.95 s after rank 2's stop: rank 3's computation at step
 * 5474 took 87.3 ms where the others' took 0.36 to 0.43 ms, from
 * 3.0796 s to 3.1668 s, with nothing but MPI_Wtime in it). Rank 2's
 * MPI_Send to rank 3 at step 5475 (3.0617 to 3.1669 s) created 102.5 ms,
 * held by that computation; rank 1's MPI_Send to rank 3 at step 5483
 * (3.0653 to 3.1803 s, 115.0 ms against a 33.29-us median) was held by
 * the problem that began first over it, rank 2's send, and so by what
 * held that: rank 3's computation. Until 2026-12-01 'rank 2's MPI_Send
 * (step 5475) held up rank 1's MPI_Send (step 5483)' was problem 2, and
 * the computation's own hold of rank 2's send problem 4. */
static void
held_through(void **state)
{
	(void)state;
	char path[1200];
	PROJECT_PATH(path, "traces/realapps/lammps-melt-4-stop/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = tu_analyse(t, NULL);
	uint32_t s1 = lop_at(a, 1, 5483), s2 = lop_at(a, 2, 5475), c3 = lop_at(a, 3, 5474);
	assert_int_equal(analysis_lop_kind(a, c3), OP_COMPUTE);
	assert_true(analysis_lop_enter(a, s2) < analysis_lop_enter(a, s1));
	assert_true(analysis_lop_enter(a, s1) < analysis_lop_enter(a, c3));
	assert_true(analysis_lop_duration(a, c3) > 80000000);
	assert_non_null(analysis_lop_outlier(a, s1));
	const struct analysis_problem *p = problem_surfaced(a, s1);
	assert_non_null(p);
	assert_int_equal(p->kind, PROBLEM_OUTLIER);
	assert_int_equal(p->lop, c3);
	uint32_t np;
	const struct analysis_problem *all = analysis_problems(a, &np);
	for (uint32_t k = 0; k < np; k++)
		assert_int_not_equal(all[k].lop, s2);
	analysis_destroy(a);
	trace_destroy(t);
}

/* An outlier call is held by a computation that began after it but lay
 * inside it, on a rank it exchanged messages with
 * (traces/corpus/overlap-4-delay, MPICH and Open MPI: a ring of 4 ranks
 * posting 256-KiB Isends to both neighbours, rank 1 delayed 100 ms
 * between its Isends and its MPI_Waitall in iteration 0). Rank 0's
 * MPI_Waitall at step 5 took 103.7 ms (101.6 ms under Open MPI) and
 * waited for little (a late sender of 0.24 ms, 10.2 ms): the messages
 * were sent, but rank 1 progressed nothing until its computation at
 * step 4 was over, which began 0.28 ms (0.12 ms) after the Waitall and
 * ended 1.8 ms (1.4 ms) before it. Rank 2's Waitall likewise (under
 * Open MPI it too began before the computation). Until 2026-12-01 rank
 * 0's Waitall was problem 1, 'took 103.7 ms', with the computation
 * second (only a problem that began first held another), and rank 2's
 * Waitall was held by rank 0's. */
static void
held_inside(void **state)
{
	(void)state;
	static const char *const traces[] = { "overlap-4-delay", "overlap-4-delay-openmpi" };
	for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
		struct trace *t = tu_load_corpus(traces[i]);
		struct analysis *a = tu_analyse(t, NULL);
		uint32_t w0 = lop_at(a, 0, 5), c1 = lop_at(a, 1, 4), w2 = lop_at(a, 2, 5);
		assert_int_equal(analysis_lop_kind(a, c1), OP_COMPUTE);
		assert_true(analysis_lop_enter(a, w0) < analysis_lop_enter(a, c1));
		assert_true(analysis_lop_exit(a, c1) < analysis_lop_exit(a, w0));
		assert_true(analysis_lop_duration(a, c1) > 100000000);
		const struct analysis_wait *w = analysis_lop_wait(a, w0);
		assert_true(!w || 2 * w->time < analysis_lop_duration(a, w0));
		assert_non_null(analysis_lop_outlier(a, w0));
		assert_non_null(analysis_lop_outlier(a, w2));
		uint32_t np;
		const struct analysis_problem *p = analysis_problems(a, &np);
		assert_true(np >= 1);
		assert_int_equal(p[0].lop, c1);
		assert_int_equal(p[0].kind, PROBLEM_OUTLIER);
		assert_int_equal(p[0].surfaced, w0);
		for (uint32_t k = 0; k < np; k++)   /* at most the little they created */
			if (p[k].lop == w0 || p[k].lop == w2)
				assert_true(p[k].amount < 1000000);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* The rule of held_inside on a trace written by hand. Rank 0 receives
 * four messages from rank S, each in an MPI_Waitall after its MPI_Irecv;
 * S sent them all by 8 (no late sender), the first three complete at
 * once and the fourth only at 300, in a Waitall entered at 16 (an
 * outlier: the others took a tick). Rank 1 sends to rank 2 at 20 and
 * again at 296, computing between (from 22: after rank 0's Waitall
 * began, inside it), and rank 2 waits for both: that computation made
 * rank 2 wait, a problem that did not wait itself.
 *   peer: S is rank 1, which progressed nothing while computing: rank
 *     0's Waitall was held by the computation;
 *   no peer: S is rank 2; rank 0 exchanged nothing with rank 1, and a
 *     computation there that began after the Waitall says nothing of it:
 *     the Waitall stays its own problem. */
static void
held_inside_peer(void **state)
{
	(void)state;
	for (int peer = 1; peer >= 0; peer--) {
		uint32_t src = peer ? 1 : 2;
		struct dsl *d = dsl_new(3);
		start(d, 0);
		for (uint32_t i = 0; i < 4; i++) {
			uint64_t r = irecv(d);
			if (i == 3)
				completes_at(d, 300);
			waitall(d, &(struct rq){ r, src, i, 1 }, 1);
		}
		start(d, 1);
		for (uint32_t i = 0; peer && i < 4; i++)
			send(d, 0, i);
		at(d, 20);
		send(d, 2, 10);
		at(d, 296);
		send(d, 2, 11);
		start(d, 2);
		for (uint32_t i = 0; !peer && i < 4; i++)
			send(d, 0, i);
		recv_until(d, 1, 10, 20);
		recv_until(d, 1, 11, 296);
		struct trace *t = dsl_done(d);
		struct analysis *a = analyse(t, NULL);
		uint32_t w0 = comm(a, 0, 4), c1 = comm(a, 1, peer ? 5 : 1) + 1;
		assert_int_equal(analysis_lop_kind(a, w0), OP_RECV);
		assert_int_equal(analysis_lop_enter(a, w0), 16);
		assert_int_equal(analysis_lop_kind(a, c1), OP_COMPUTE);
		assert_int_equal(analysis_lop_enter(a, c1), 21);
		assert_null(analysis_lop_wait(a, w0));
		assert_non_null(analysis_lop_outlier(a, w0));
		uint32_t np;
		const struct analysis_problem *p = analysis_problems(a, &np);
		assert_true(np >= 2);
		int c1_problem = 0;
		for (uint32_t k = 0; k < np; k++)
			c1_problem |= p[k].lop == c1;
		assert_true(c1_problem);
		assert_int_equal(p[0].kind, PROBLEM_OUTLIER);
		assert_int_equal(p[0].lop, peer ? c1 : w0);
		assert_int_equal(p[0].surfaced, peer ? w0 : TRACE_NONE);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(late_sender),
		cmocka_unit_test(late_receiver),
		cmocka_unit_test(collectives),
		cmocka_unit_test(chain),
		cmocka_unit_test(lost_arithmetic),
		cmocka_unit_test(polling),
		cmocka_unit_test(peer_bytes),
		cmocka_unit_test(equal_exits),
		cmocka_unit_test(created_where_most),
		cmocka_unit_test(waited_together),
		cmocka_unit_test(never_a_sliver),
		cmocka_unit_test(polled_send),
		cmocka_unit_test(send_held),
		cmocka_unit_test(outside_iterations),
		cmocka_unit_test(held_through),
		cmocka_unit_test(held_inside),
		cmocka_unit_test(held_inside_peer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
