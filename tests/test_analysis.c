/* test_analysis.c — logical structure on hand-built traces whose answer
 * is worked out by hand (each case says how), and on the real traces in
 * ../shared with hand-worked partition and step counts; lateness and
 * its causes are test_lateness.c's. */
#include "testdsl.h"

#include <string.h>

#include "analysis/core/cluster.h"
#include "analysis/run/run.h"

/* ---- cases ---- */


/* The two levels of the binomial reduction below, once the level-1
 * messages (1 -> 0, 3 -> 2) are one partition. */
static void
check_levels(const struct analysis *a)
{
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	assert_int_equal(np, 2);
	assert_int_equal(analysis_stats(a)->partitions_steps, 3);
	assert_int_equal(parts[0].merged_from, 2);
	assert_int_equal(parts[1].merged_from, 1);
	assert_true(analysis_verified(a));
	assert_int_equal(STEP(a, 1, 0), STEP(a, 3, 0));          /* level 1 sends */
	assert_int_equal(STEP(a, 0, 0), STEP(a, 2, 0));          /* level 1 receives */
	assert_true(STEP(a, 1, 0) < STEP(a, 0, 0));
	assert_true(STEP(a, 0, 0) < STEP(a, 2, 1));              /* level 2 send after */
	assert_true(STEP(a, 2, 1) < STEP(a, 0, 1));
	assert_int_equal(PART(a, 1, 0), 0);
	assert_int_equal(PART(a, 2, 1), 1);
	assert_int_equal(parts[0].ranks, 4);
	assert_int_equal(parts[1].ranks, 2);
	/* each level is compute, send, compute, receive: 4 local steps */
	assert_int_equal(parts[0].step_count, 4);
	assert_int_equal(parts[1].step_first, 4);
	assert_int_equal(analysis_step_count(a), 8);
}

/* A binomial reduction on 4 ranks: level 1 sends 1 -> 0 and 3 -> 2, level
 * 2 sends 2 -> 0. Every message is a partition; the two of level 1 share
 * global steps. The paper's global-step merge joins them, and so does
 * skein's automatic merge, as they make the same calls. */
static void
binomial_levels(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	rank(d, 0); work(d, 10); recv(d, 1, 0); recv(d, 2, 0);
	rank(d, 1); work(d, 10); send(d, 0, 0);
	rank(d, 2); work(d, 10); recv(d, 3, 0); send(d, 0, 0);
	rank(d, 3); work(d, 10); send(d, 2, 0);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	assert_int_equal(np, 3);
	assert_int_equal(parts[0].merged_from, 1);
	assert_true(analysis_verified(a));
	analysis_destroy(a);

	o.global_step_merge = 1;
	a = analyse(t, &o);
	check_levels(a);
	assert_int_equal(analysis_stats(a)->auto_merged, 0);
	analysis_destroy(a);

	a = analyse(t, NULL);
	check_levels(a);
	assert_int_equal(analysis_stats(a)->auto_merged, 1);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A ring round on 4 ranks: Irecv from the left, Send to the right, Wait.
 * The messages form a cycle through the ranks' timelines, so the round is
 * one partition; all sends share a step, all waits the next. */
static void
ring_round(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	for (uint32_t r = 0; r < 4; r++) {
		rank(d, r);
		work(d, 5 + r);
		uint64_t q = irecv(d);
		send(d, (r + 1) % 4, 7);
		at(d, 100);
		struct rq w = { q, (r + 3) % 4, 7, 1 };
		waitall(d, &w, 1);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 1);
	assert_true(analysis_verified(a));
	for (uint32_t r = 1; r < 4; r++) {
		assert_int_equal(STEP(a, r, 0), STEP(a, 0, 0));
		assert_int_equal(STEP(a, r, 1), STEP(a, 0, 1));
	}
	assert_int_equal(STEP(a, 0, 0), 1);
	assert_int_equal(STEP(a, 0, 1), 3);
	assert_int_equal(analysis_step_count(a), 4);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Two ranks exchanging with MPI_Sendrecv: each op sends to and receives
 * from the other, a cycle at op granularity. Both calls are one partition
 * at one step (an exchange, like a collective), and the verifier accepts
 * it. Ravel drops the receive and crashes here. */
static void
sendrecv_exchange(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		for (int i = 0; i < 3; i++) {
			work(d, 10);
			sendrecv(d, 1 - r, 1 - r, 0);
			allreduce(d);
		}
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 6);
	assert_true(analysis_verified(a));
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(STEP(a, 0, i), STEP(a, 1, i));
	assert_int_equal(analysis_verify(a)->messages_checked, 6);
	assert_int_equal(analysis_step_count(a), 12);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Isend coalescing (section 3.3): rank r posts r+1 Irecvs and r+1 Isends
 * (to distinct peers) then one Waitall. With coalescing every rank's
 * Isends are one op and all Waitalls share one step; without, a rank's
 * Waitall comes after its own (r+1)-th send stride. */
static void
coalescing(void **state)
{
	(void)state;
	/* peers: rank r sends to r+1..r+k (mod 4), k = 1 + (r % 2) */
	static const uint32_t k[4] = { 1, 2, 1, 2 };
	struct dsl *d = dsl_new(4);
	for (uint32_t r = 0; r < 4; r++) {
		rank(d, r);
		work(d, 10);
		struct rq rq[8];
		int n = 0;
		/* receives: from every s with s + j == r, j <= k[s] */
		for (uint32_t s = 0; s < 4; s++)
			for (uint32_t j = 1; j <= k[s]; j++)
				if ((s + j) % 4 == r) {
					rq[n] = (struct rq){ irecv(d), s, j, 1 };
					n++;
				}
		for (uint32_t j = 1; j <= k[r]; j++) {
			rq[n] = (struct rq){ isend(d, (r + j) % 4, j), 0, 0, 0 };
			n++;
		}
		at(d, 200);
		waitall(d, rq, n);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	assert_true(analysis_verified(a));
	assert_int_equal(analysis_stats(a)->coalesced_isends, 2);
	for (uint32_t r = 1; r < 4; r++) {
		assert_int_equal(STEP(a, r, 0), STEP(a, 0, 0));     /* the sends */
		assert_int_equal(STEP(a, r, 1), STEP(a, 0, 1));     /* the Waitalls */
	}
	analysis_destroy(a);

	struct analysis_opts o;
	analysis_opts_default(&o);
	o.coalesce_isends = 0;
	a = analyse(t, &o);
	assert_true(analysis_verified(a));
	assert_int_equal(analysis_stats(a)->coalesced_isends, 0);
	/* rank 1's second Isend has stride 2, so its Waitall is later than
	 * rank 0's, whose only Isend has stride 1 */
	assert_int_equal(STEP(a, 1, 1), STEP(a, 0, 0) + 2);
	assert_true(STEP(a, 1, 2) > STEP(a, 0, 1));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Two messages crossing on two ranks: rank 0 sends then receives, rank 1
 * sends then receives. Each message alone is a partition, but together
 * they form a cycle in the partition graph and must merge. */
static void
cycle_merge(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); work(d, 5); send(d, 1, 1); recv(d, 1, 2);
	rank(d, 1); work(d, 5); send(d, 0, 2); recv(d, 0, 1);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	assert_int_equal(analysis_stats(a)->partitions_initial, 2);
	assert_int_equal(analysis_stats(a)->partitions_scc, 1);
	assert_true(analysis_verified(a));
	assert_int_equal(STEP(a, 0, 0), STEP(a, 1, 0));
	assert_int_equal(STEP(a, 0, 1), STEP(a, 1, 1));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Waitall merge: rank 0 Isends to ranks 1 and 2, then computes, then one
 * Waitall completes both. The two messages are separate partitions until
 * the Waitall merges its Isends' partitions with its own. */
static void
waitall_merge(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	rank(d, 0);
	work(d, 5);
	uint64_t a1 = isend(d, 1, 0);
	work(d, 50);
	send(d, 2, 9);                         /* interrupts coalescing */
	uint64_t a2 = isend(d, 2, 0);
	struct rq rq[2] = { { a1, 0, 0, 0 }, { a2, 0, 0, 0 } };
	waitall(d, rq, 2);
	rank(d, 1); work(d, 60); recv(d, 0, 0);
	rank(d, 2); work(d, 60); recv(d, 0, 9); recv(d, 0, 0);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.waitall_merge = 0;
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 4);        /* Isend+recv, Send+recv, Isend+recv, Waitall */
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	a = analyse(t, NULL);
	analysis_parts(a, &np);
	/* the Waitall pulls in both Isends; the cycle through rank 2 then
	 * pulls in the blocking send too */
	assert_int_equal(analysis_stats(a)->partitions_waitall, 2);
	assert_int_equal(np, 1);
	assert_true(analysis_verified(a));
	assert_int_equal(PART(a, 0, 0), PART(a, 0, 3));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Leap merge (Fig. 3): a bulk-synchronous step where rank 3 skips its
 * message to rank 0, so the round is a chain 0->1->2->3 of three
 * partitions, each covering two ranks. The first leap {0->1} is
 * incomplete and absorbs its children until it has all four ranks. */
static void
leap_merge(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	rank(d, 0); work(d, 10); send(d, 1, 0); allreduce(d);
	rank(d, 1); work(d, 10); recv(d, 0, 0); send(d, 2, 0); allreduce(d);
	rank(d, 2); work(d, 10); recv(d, 1, 0); send(d, 3, 0); allreduce(d);
	rank(d, 3); work(d, 10); recv(d, 2, 0); allreduce(d);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	assert_int_equal(np, 4);
	assert_int_equal(parts[0].ranks, 2);
	assert_int_equal(parts[3].ranks, 4);       /* the allreduce */
	analysis_destroy(a);

	struct analysis_opts o;
	analysis_opts_default(&o);
	o.leap_merge = 1;
	a = analyse(t, &o);
	parts = analysis_parts(a, &np);
	assert_int_equal(np, 2);
	assert_int_equal(parts[0].ranks, 4);
	assert_int_equal(parts[1].ranks, 4);
	assert_int_equal(analysis_stats(a)->incomplete_leaps, 0);
	assert_true(analysis_verified(a));
	/* the chain keeps its order inside the merged partition */
	assert_true(STEP(a, 0, 0) < STEP(a, 1, 1));
	assert_true(STEP(a, 1, 1) < STEP(a, 2, 1));
	analysis_destroy(a);
	trace_destroy(t);
}

static int
cancel_leaps(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	int *seen = ud;
	if (strcmp(stage, "leap merging") != 0)
		return 0;
	(*seen)++;
	return 1;
}

/* Leap merging reports progress per leap and stops when asked to. */
static void
leap_cancel(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); work(d, 10); send(d, 1, 0); allreduce(d);
	rank(d, 1); work(d, 10); recv(d, 0, 0); allreduce(d);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.leap_merge = 1;
	struct analysis *a = NULL;
	struct err e = { 0 };
	int seen = 0;
	assert_int_equal(analysis_run(t, &o, cancel_leaps, &seen, &a, &e), ERR_CANCELLED);
	assert_null(a);
	assert_int_equal(seen, 1);
	assert_non_null(strstr(e.msg, "cancelled"));
	trace_destroy(t);
}

/* Leap force: leap 0 is an exchange between ranks 0 and 1 whose only
 * next-leap child is a second exchange between the same ranks, so it
 * cannot grow and stays incomplete; ranks 2 and 3 join later through a
 * chain 1->2->3. Without force, leap 0 is accepted incomplete and the
 * second exchange absorbs the chain: two partitions. With force, leap 0
 * merges with its successors and then absorbs the chain: one. */
static void
leap_force(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	rank(d, 0);
	work(d, 10); sendrecv(d, 1, 1, 0); work(d, 20); sendrecv(d, 1, 1, 1);
	rank(d, 1);
	work(d, 10); sendrecv(d, 0, 0, 0); work(d, 20); sendrecv(d, 0, 0, 1); send(d, 2, 2);
	rank(d, 2); work(d, 50); recv(d, 1, 2); send(d, 3, 3);
	rank(d, 3); work(d, 60); recv(d, 2, 3);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 4);
	analysis_destroy(a);
	o.leap_merge = 1;
	a = analyse(t, &o);
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	assert_int_equal(analysis_stats(a)->incomplete_leaps, 1);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	o.leap_force = 1;
	a = analyse(t, &o);
	const struct analysis_part *parts = analysis_parts(a, &np);
	assert_int_equal(np, 1);
	assert_int_equal(parts[0].ranks, 4);
	assert_int_equal(analysis_stats(a)->incomplete_leaps, 0);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Caller merge: rank 0's two sends are issued by one call of "main";
 * they are two partitions unless caller merge joins them. */
static void
caller_merge(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); call(d, R_MAIN); work(d, 5); send(d, 1, 0); work(d, 5); send(d, 1, 1); ret(d, R_MAIN);
	rank(d, 1); work(d, 5); recv(d, 0, 0); recv(d, 0, 1);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	analysis_destroy(a);
	o.caller_merge = 1;
	a = analyse(t, &o);
	analysis_parts(a, &np);
	assert_int_equal(np, 1);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Ravel's caller merge with nested functions: each call of "step" calls
 * "put" twice (rank 0, one Send each) or "get" twice (rank 1, one Recv
 * each). put and get never issue more than one communication, step
 * issues two, so the caller of every call is the step instance around
 * it: a step's two messages merge, and the two calls of step stay apart
 * (the same function, but not the same call). The innermost-function
 * rule would merge nothing (each put is its own call). */
static void
caller_merge_nested(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		call(d, R_MAIN);
		for (uint32_t i = 0; i < 2; i++) {
			call(d, R_STEP);
			for (uint32_t k = 0; k < 2; k++) {
				work(d, 5);
				call(d, r ? R_GET : R_PUT);
				if (r)
					recv(d, 0, 2 * i + k);
				else
					send(d, 1, 2 * i + k);
				ret(d, r ? R_GET : R_PUT);
			}
			ret(d, R_STEP);
		}
		ret(d, R_MAIN);
	}
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 4);
	/* four partitions of four steps (computation, Send, computation, Recv) */
	assert_int_equal(analysis_step_count(a), 16);
	analysis_destroy(a);
	o.caller_merge = 1;
	a = analyse(t, &o);
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	/* merging changes the steps too: a step's two Sends are strides 1 and
	 * 2 and each Recv follows its Send, so the first Recv shares the
	 * second Send's step: 3 communication steps per partition, not 4 */
	assert_int_equal(analysis_step_count(a), 12);
	assert_int_equal(PART(a, 0, 0), PART(a, 0, 1));
	assert_int_equal(PART(a, 1, 0), PART(a, 0, 1));
	assert_int_not_equal(PART(a, 0, 1), PART(a, 0, 2));
	assert_int_equal(PART(a, 0, 2), PART(a, 1, 3));
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* Ravel counts a collective as two communications: a function that makes
 * one Allreduce is a multi-caller, so two calls of it in a row stay two
 * partitions under caller merge (were a collective one, the caller would
 * be main, which made both, and they would merge). */
static void
caller_merge_collective(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		call(d, R_MAIN);
		for (int i = 0; i < 2; i++) {
			work(d, 5);
			call(d, R_STEP);
			allreduce(d);
			ret(d, R_STEP);
		}
		ret(d, R_MAIN);
	}
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	o.caller_merge = 1;
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	analysis_destroy(a);
	trace_destroy(t);
}

/* match_size: a receive that recorded another size than its send is
 * flagged when loading; with match_size the analysis ignores the message,
 * so its two ends fall into separate partitions. */
static void
match_size(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); work(d, 5); send_bytes(d, 1, 0, 8); send_bytes(d, 1, 1, 8);
	rank(d, 1); work(d, 9); recv_bytes(d, 0, 0, 8); recv_bytes(d, 0, 1, 16);
	struct trace *t = dsl_done(d);
	assert_int_equal(trace_info(t)->warnings[WARN_SIZE_MISMATCH], 1);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	assert_int_equal(analysis_verify(a)->messages_checked, 2);
	analysis_destroy(a);
	o.match_size = 1;
	a = analyse(t, &o);
	analysis_parts(a, &np);
	assert_int_equal(np, 3);
	assert_int_equal(analysis_stats(a)->size_mismatches, 1);
	assert_int_equal(analysis_verify(a)->messages_checked, 1);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* User phases: every Enter of "iteration" starts a phase. Two iterations
 * of two independent pairs (0<->1, 2<->3) are four partitions when
 * detected by the paper's rules, two (one per iteration) with the phase
 * rule. */
static void
user_phases(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	for (uint32_t r = 0; r < 4; r++) {
		rank(d, r);
		for (int i = 0; i < 2; i++) {
			call(d, R_ITER);
			work(d, 10);
			sendrecv(d, r ^ 1, r ^ 1, 0);
			ret(d, R_ITER);
		}
	}
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 4);
	analysis_destroy(a);
	/* by default the two pairs of an iteration make the same calls at the
	 * same steps and merge */
	a = analyse(t, NULL);
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	analysis_destroy(a);
	struct analysis_phase_rule rule = { "iter*" };
	analysis_opts_default(&o);
	o.phases = &rule;
	o.n_phases = 1;
	a = analyse(t, &o);
	const struct analysis_part *parts = analysis_parts(a, &np);
	assert_int_equal(np, 2);
	assert_int_equal(parts[0].phase, 1);
	assert_int_equal(parts[1].phase, 2);
	assert_int_equal(parts[0].ranks, 4);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* A non-synchronising collective lets a message overtake it: rank 0
 * broadcasts (root, returns at once) then sends to rank 1, which receives
 * before entering the broadcast. The records imply a cycle; the stepper
 * breaks it, counts it, and still terminates with every op placed. */
static void
broken_cycle(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); work(d, 5); bcast(d, 0); send(d, 1, 0);
	rank(d, 1); work(d, 5); recv(d, 0, 0); bcast(d, 0);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	assert_true(analysis_verify(a)->relaxed > 0);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++)
		assert_int_not_equal(analysis_lop_step(a, l), TRACE_NONE);
	analysis_destroy(a);
	trace_destroy(t);
}

static void
bad_options(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0); rank(d, 1);
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.leap_factor = -1;
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), ERR_USAGE);
	assert_null(a);
	assert_non_null(strstr(e.msg, "leap factor"));
	/* an empty trace analyses to nothing, cleanly */
	a = analyse(t, NULL);
	assert_int_equal(analysis_lop_count(a), 0);
	assert_int_equal(analysis_step_count(a), 0);
	assert_true(analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* ---- the shared traces ---- */

struct shared_expect {
	const char *rel;
	uint32_t partitions, steps;
};

/* Hand-worked: each count follows from the trace's calls (see COUNTS.md):
 *  pingpong: 16 blocking messages, each its own partition of compute, send,
 *   compute, receive: 16 x 4 steps.
 *  casita-4: the chain 0->1, 1->2, 2->3 (3 partitions of 4 steps) and one
 *   barrier (2 steps).
 *  stencil4d: per iteration 8 blocking Sends (strides 1..8) and a Waitall
 *   (after them): 18 steps, then a barrier (2); two iterations and a final
 *   barrier: 5 partitions, 18+2+18+2+2 = 42 steps.
 *  cuda_simple: 2 barriers + 10 x (Sendrecv exchange, Allreduce), 2 steps
 *   each: 22 partitions, 44 steps.
 *  jacobi: the same with 1000 iterations: 2002, 4004.
 *  xeonphi: one rank, 100 Allreduce + 2 Barrier, and between each two
 *   (and before the first) a run of offload copies (one-sided ops, 607
 *   in all, each its own step): 102 + 103 partitions, 102 x 2 + 607 x 2
 *   steps. */
static const struct shared_expect shared[] = {
	{ "otf2/pipit-pingpong-otf2/traces.otf2", 16, 64 },
	{ "otf2/casita-4_mpi_ls_barr/traces.otf2", 4, 14 },
	{ "otf2/tracer-stencil4d-32/traces.otf2", 5, 42 },
	{ "otf2/casita-2_cuda_simple/traces.otf2", 22, 44 },
	{ "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2", 2002, 4004 },
	{ "otf2/casita-1_xeonphi_jacobi_01/traces.otf2", 205, 1418 },
};

static void
shared_counts(void **state)
{
	const struct shared_expect *x = *state;
	char path[1024];
	SHARED_TRACE(path, x->rel);
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, NULL);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, x->partitions);
	assert_int_equal(analysis_step_count(a), x->steps);
	assert_true(analysis_verified(a));
	assert_int_equal(analysis_verify(a)->relaxed, 0);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The late-sender chain gets consecutive steps, then the barrier. */
static void
casita_chain_steps(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-4_mpi_ls_barr/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, NULL);
	/* rank k's receive (from k-1) is at step 4k-1, its send at 4k+1 */
	assert_int_equal(STEP(a, 0, 0), 1);
	assert_int_equal(STEP(a, 1, 0), 3);
	assert_int_equal(STEP(a, 1, 1), 5);
	assert_int_equal(STEP(a, 2, 0), 7);
	assert_int_equal(STEP(a, 2, 1), 9);
	assert_int_equal(STEP(a, 3, 0), 11);
	for (uint32_t r = 0; r < 4; r++)
		assert_int_equal(analysis_lop_step(a, comm(a, r, r == 0 || r == 3 ? 1 : 2)), 13);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The stencil's two iterations have identical structure: partition 0 and
 * partition 2 place every rank's ops at the same local steps. */
static void
stencil_iterations(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/tracer-stencil4d-32/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, NULL);
	uint32_t np, n_tl;
	const struct analysis_part *parts = analysis_parts(a, &np);
	trace_timelines(t, &n_tl);
	assert_int_equal(parts[0].step_count, parts[2].step_count);
	assert_int_equal(parts[0].lop_count, parts[2].lop_count);
	for (uint32_t r = 0; r < n_tl; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		uint32_t it0[64], it1[64], n0 = 0, n1 = 0;
		for (uint32_t l = first; l < first + count; l++) {
			if (analysis_lop_part(a, l) == 0 && n0 < 64)
				it0[n0++] = analysis_lop_local_step(a, l);
			if (analysis_lop_part(a, l) == 2 && n1 < 64)
				it1[n1++] = analysis_lop_local_step(a, l);
		}
		assert_int_equal(n0, 18);
		assert_int_equal(n1, 18);
		assert_memory_equal(it0, it1, n0 * sizeof *it0);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

/* The verifier passes on every shared trace with MPI, with every option. */
static void
shared_verifier(void **state)
{
	(void)state;
	static const char *const rels[] = {
		"otf2/sstmacro-mpi-coverage-10/traces.otf2",
		"otf2/tracer-stencil4d-32/traces.otf2",
		"otf2/casita-2_cuda_simple/traces.otf2",
		"otf2/casita-4_mpi_ls_barr/traces.otf2",
		"otf2/pipit-pingpong-otf2-papi/traces.otf2",
	};
	for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++) {
		char path[1024];
		SHARED_TRACE(path, rels[i]);
		struct trace *t = tu_load(path);
		for (int combo = 0; combo < 16; combo++) {
			struct analysis_opts o;
			analysis_opts_default(&o);
			o.coalesce_isends = combo & 1;
			o.waitall_merge = !!(combo & 2);
			o.leap_merge = !!(combo & 4);
			o.global_step_merge = !!(combo & 8);
			struct analysis *a = analyse(t, &o);
			if (!analysis_verified(a))
				print_error("%s: options %d fail the verifier\n", rels[i], combo);
			assert_true(analysis_verified(a));
			analysis_destroy(a);
		}
		trace_destroy(t);
	}
}

/* The k-medoids core on rows whose medoid is known: values 1 5 1 4 3 5
 * have two best medoids, 4 and 3 (total distance 9 each), and the lower
 * row wins. A medoid update that stopped summing a candidate's distances
 * as soon as they equalled the best total took row 0 (total 13). */
static void
kmedoids_exact(void **state)
{
	(void)state;
	const double v[] = { 1, 5, 1, 4, 3, 5 };
	uint32_t k = 1, med[2], cl[6];
	assert_int_equal(cluster_kmedoids(v, 6, 1, &k, med, cl), 0);
	assert_int_equal(k, 1);
	assert_int_equal(med[0], 3);
	for (int i = 0; i < 6; i++)
		assert_int_equal(cl[i], 0);
	/* two clusters: {1, 1} and {5, 4, 3, 5}; in the second, rows 1 (5)
	 * and 3 (4) tie at total distance 3 and the lower row wins */
	k = 2;
	assert_int_equal(cluster_kmedoids(v, 6, 1, &k, med, cl), 0);
	assert_int_equal(k, 2);
	assert_int_equal(cl[0], cl[2]);
	assert_int_equal(cl[1], cl[3]);
	assert_int_equal(cl[1], cl[4]);
	assert_int_equal(cl[1], cl[5]);
	assert_int_not_equal(cl[0], cl[1]);
	assert_int_equal(med[cl[1]], 1);
	assert_int_equal(med[cl[0]], 0);
	/* identical rows: fewer clusters than asked, none empty */
	const double same[] = { 2, 2, 2 };
	k = 3;
	assert_int_equal(cluster_kmedoids(same, 3, 1, &k, med, cl), 0);
	assert_int_equal(k, 1);
}

int
main(void)
{
	enum { NS = sizeof shared / sizeof shared[0] };
	int n = 0;
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(binomial_levels),
		cmocka_unit_test(ring_round),
		cmocka_unit_test(sendrecv_exchange),
		cmocka_unit_test(coalescing),
		cmocka_unit_test(cycle_merge),
		cmocka_unit_test(waitall_merge),
		cmocka_unit_test(leap_merge),
		cmocka_unit_test(leap_force),
		cmocka_unit_test(leap_cancel),
		cmocka_unit_test(caller_merge),
		cmocka_unit_test(caller_merge_nested),
		cmocka_unit_test(caller_merge_collective),
		cmocka_unit_test(match_size),
		cmocka_unit_test(user_phases),
		cmocka_unit_test(broken_cycle),
		cmocka_unit_test(bad_options),
		cmocka_unit_test(casita_chain_steps),
		cmocka_unit_test(stencil_iterations),
		cmocka_unit_test(shared_verifier),
		cmocka_unit_test(kmedoids_exact),
	};
	struct CMUnitTest tests[sizeof fixed / sizeof fixed[0] + NS];
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		tests[n++] = fixed[i];
	for (int i = 0; i < NS; i++)
		tests[n++] = (struct CMUnitTest){ .name = shared[i].rel, .test_func = shared_counts,
						  .initial_state = (void *)&shared[i] };
	return _cmocka_run_group_tests("analysis", tests, (size_t)n, NULL, NULL);
}
