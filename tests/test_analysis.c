/* test_analysis.c — logical structure and metrics on hand-built traces
 * whose answer is worked out by hand (each case says how), and on the real
 * traces in ../shared with hand-worked partition and step counts. */
#include "testutil.h"

#include <string.h>

#include "analysis/analysis.h"
#include "analysis/cluster.h"
#include "model/build.h"
#include "model/trace_impl.h"

enum { R_MAIN, R_ITER, R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAITALL, R_SENDRECV,
       R_ALLREDUCE, R_BCAST, R_STEP, R_PUT, R_GET, R_COUNT };

/* ---- a tiny trace-writing DSL over the builder ---- */

struct dsl {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_COUNT];
	uint64_t now;
	uint64_t req;
	uint64_t done;      /* when the next Waitall's last completion arrives */
};

static struct dsl *
dsl_new(uint32_t ranks)
{
	struct dsl *d = calloc(1, sizeof *d);
	d->t = trace_new();
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "main", ROLE_USER }, { "iteration", ROLE_USER }, { "MPI_Send", ROLE_SEND },
		{ "MPI_Recv", ROLE_RECV }, { "MPI_Isend", ROLE_SEND }, { "MPI_Irecv", ROLE_RECV },
		{ "MPI_Waitall", ROLE_WAIT }, { "MPI_Sendrecv", ROLE_SENDRECV },
		{ "MPI_Allreduce", ROLE_COLLECTIVE }, { "MPI_Bcast", ROLE_COLLECTIVE },
		{ "step", ROLE_USER }, { "put", ROLE_USER }, { "get", ROLE_USER },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(d->t, regions[i].name, regions[i].role, 4, &d->reg[i]), 0);
	uint32_t world[64], id;
	for (uint32_t i = 0; i < ranks; i++)
		world[i] = i;
	assert_int_equal(trace_add_comm(d->t, 0, world, ranks, 0, &id), 0);
	assert_int_equal(trace_set_timelines(d->t, ranks), 0);
	d->b = build_create(d->t);
	return d;
}

static void
rank(struct dsl *d, uint32_t r)
{
	if (r)
		assert_int_equal(build_timeline_end(d->b), 0);
	assert_int_equal(build_timeline_begin(d->b, r), 0);
	d->now = 0;
	d->req = 0;
}

static struct trace *
dsl_done(struct dsl *d)
{
	assert_int_equal(build_timeline_end(d->b), 0);
	assert_int_equal(build_finish(d->b, NULL, NULL), 0);
	build_destroy(d->b);
	struct trace *t = d->t;
	free(d);
	return t;
}

static void at(struct dsl *d, uint64_t t) { if (t > d->now) d->now = t; }
static void completes_at(struct dsl *d, uint64_t t) { d->done = t; }
static void work(struct dsl *d, uint64_t dt) { d->now += dt; }

static void
call(struct dsl *d, int region)
{
	assert_int_equal(build_enter(d->b, d->now, d->reg[region]), 0);
}

static void
ret(struct dsl *d, int region)
{
	d->now += 1;
	assert_int_equal(build_leave(d->b, d->now, d->reg[region]), 0);
	d->now += 1;
}

static void
send_bytes(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t bytes)
{
	call(d, R_SEND);
	assert_int_equal(build_send(d->b, d->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	ret(d, R_SEND);
}

static void
recv_bytes(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t bytes)
{
	call(d, R_RECV);
	assert_int_equal(build_recv(d->b, d->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	ret(d, R_RECV);
}

static void send(struct dsl *d, uint32_t peer, uint32_t tag) { send_bytes(d, peer, tag, 8); }
static void recv(struct dsl *d, uint32_t peer, uint32_t tag) { recv_bytes(d, peer, tag, 8); }

/* Isend with request id = ++req; returns the request */
static uint64_t
isend(struct dsl *d, uint32_t peer, uint32_t tag)
{
	call(d, R_ISEND);
	assert_int_equal(build_send(d->b, d->now, peer, 0, tag, 8, ++d->req), 0);
	ret(d, R_ISEND);
	return d->req;
}

static uint64_t
irecv(struct dsl *d)
{
	call(d, R_IRECV);
	assert_int_equal(build_irecv_request(d->b, d->now, ++d->req), 0);
	ret(d, R_IRECV);
	return d->req;
}

/* Waitall completing n requests: sends[i] (isend requests) and the
 * receives (req, peer, tag) */
struct rq { uint64_t req; uint32_t peer, tag; int is_recv; };
static void
waitall(struct dsl *d, const struct rq *rq, int n)
{
	call(d, R_WAITALL);
	d->now = d->done > d->now ? d->done : d->now;    /* blocked inside */
	d->done = 0;
	for (int i = 0; i < n; i++) {
		if (rq[i].is_recv)
			assert_int_equal(build_recv(d->b, d->now, rq[i].peer, 0, rq[i].tag, 8, rq[i].req), 0);
		else
			assert_int_equal(build_isend_complete(d->b, d->now, rq[i].req), 0);
	}
	ret(d, R_WAITALL);
}

static void
sendrecv(struct dsl *d, uint32_t to, uint32_t from, uint32_t tag)
{
	call(d, R_SENDRECV);
	assert_int_equal(build_send(d->b, d->now, to, 0, tag, 8, UINT64_MAX), 0);
	assert_int_equal(build_recv(d->b, d->now, from, 0, tag, 8, UINT64_MAX), 0);
	ret(d, R_SENDRECV);
}

static void
allreduce(struct dsl *d)
{
	call(d, R_ALLREDUCE);
	assert_int_equal(build_coll_begin(d->b, d->now), 0);
	assert_int_equal(build_coll_end(d->b, d->now, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
	ret(d, R_ALLREDUCE);
}

static void
bcast(struct dsl *d, uint32_t root)
{
	call(d, R_BCAST);
	assert_int_equal(build_coll_begin(d->b, d->now), 0);
	assert_int_equal(build_coll_end(d->b, d->now, COLL_BCAST, 0, root, 8, 8), 0);
	ret(d, R_BCAST);
}

#define analyse tu_analyse

/* The lop of the n-th communication operation (0-based) of rank r. */
static uint32_t
comm(const struct analysis *a, uint32_t r, uint32_t n)
{
	uint32_t l = tu_comm_lop(a, r, n);
	if (l == TRACE_NONE)
		fail_msg("rank %u has no communication op %u", r, n);
	return l;
}

#define STEP(a, r, n) analysis_lop_step(a, comm(a, r, n))
#define PART(a, r, n) analysis_lop_part(a, comm(a, r, n))

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

/* Lateness and its explanation. Three ranks, one partition: each sends to
 * the next in a ring (Irecv, Send, Waitall), after computing 100 ticks;
 * rank 1 computes 1100. Rank 1's computation is 1000 late and created it
 * (a); its send inherits it along its timeline (b); rank 2's Waitall
 * receives it from the late sender (d). */
static void
lateness_cases(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	for (uint32_t r = 0; r < 3; r++) {
		rank(d, r);
		uint64_t q = irecv(d);              /* now = 2 */
		work(d, r == 1 ? 1100 : 100);       /* compute ends at 102 or 1102 */
		send(d, (r + 1) % 3, 0);            /* send exits at 103 / 1103 */
		/* a message arrives two ticks after its send's exit */
		completes_at(d, r == 2 ? 1105 : 105);
		struct rq w = { q, (r + 2) % 3, 0, 1 };
		waitall(d, &w, 1);                  /* exits at now + 1 */
	}
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	struct analysis *a = analyse(t, &o);
	assert_true(analysis_verified(a));
	uint32_t s1 = comm(a, 1, 0), c1 = s1 - 1, w2 = comm(a, 2, 1), w0 = comm(a, 0, 1);
	assert_int_equal(analysis_lop_kind(a, c1), OP_COMPUTE);
	assert_int_equal(analysis_lop_lateness(a, c1), 1000);
	assert_int_equal(analysis_lop_diff(a, c1), 1000);
	assert_int_equal(analysis_lop_cause(a, c1), CAUSE_COMPUTE);
	assert_int_equal(analysis_lop_lateness(a, s1), 1000);
	assert_int_equal(analysis_lop_diff(a, s1), 0);
	assert_int_equal(analysis_lop_cause(a, s1), CAUSE_TIMELINE);
	assert_int_equal(analysis_lop_cause_lop(a, s1), c1);
	assert_int_equal(analysis_lop_lateness(a, w2), 1000);
	assert_int_equal(analysis_lop_cause(a, w2), CAUSE_MESSAGE);
	assert_int_equal(analysis_lop_cause_lop(a, w2), s1);
	assert_int_equal(analysis_lop_lateness(a, w0), 0);
	assert_int_equal(analysis_lop_cause(a, w0), CAUSE_NONE);
	/* the only hotspot is the computation */
	uint32_t nh;
	const uint32_t *hot = analysis_hotspots(a, &nh);
	assert_int_equal(nh, 1);
	assert_int_equal(hot[0], c1);
	analysis_destroy(a);
	/* by default that computation, before rank 1's first communication,
	 * is its start-up: same metrics, but no hotspot */
	a = analyse(t, NULL);
	assert_true(analysis_lop_startup(a, c1));
	assert_false(analysis_lop_startup(a, s1));
	assert_int_equal(analysis_lop_diff(a, c1), 1000);
	analysis_hotspots(a, &nh);
	assert_int_equal(nh, 0);
	assert_int_equal(analysis_stats(a)->startup_lops, 3);
	assert_int_equal(analysis_stats(a)->startup_hidden, 1);
	assert_int_equal(analysis_stats(a)->startup_max_lop, c1);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The sender a receive's lateness was propagated from (d) is named by
 * where it is among the receive's ends: ranks 1-11 Isend to rank 0 (and
 * all but the late one to rank 12 too), rank L computing 1000 ticks
 * longer. Rank 0's Waitall, whose receives are in rank order, exits at
 * 1111: 1006 after the senders' Waitalls in its step (work 100, two
 * Isends of 2 ticks, a Waitall of 1: 105). Its lateness comes from L's
 * Isend (exiting at 1101, the others' at 103: 998 late), its (L-1)-th
 * receive: the 3rd for L = 3, within what the cause byte holds; the
 * 10th for L = 10, past it. */
static void
cause_lop_by_end(void **state)
{
	(void)state;
	for (uint32_t late = 3; late <= 10; late += 7) {
		struct dsl *d = dsl_new(13);
		for (uint32_t r = 0; r < 13; r++) {
			rank(d, r);
			struct rq rq[11];
			int n = 0;
			if (r == 0 || r == 12) {
				for (uint32_t s = 1; s <= 11; s++)
					if (r == 0 || s != late)
						rq[n++] = (struct rq){ irecv(d), s, 0, 1 };
				work(d, 100);
				completes_at(d, r == 0 ? 1110 : 110);
			} else {
				work(d, r == late ? 1100 : 100);
				rq[n++] = (struct rq){ isend(d, 0, 0), 0, 0, 0 };
				if (r != late)
					rq[n++] = (struct rq){ isend(d, 12, 0), 0, 0, 0 };
			}
			waitall(d, rq, n);
		}
		struct trace *t = dsl_done(d);
		struct analysis_opts o;
		analysis_opts_default(&o);
		o.sender_progress = 0;
		struct analysis *a = analyse(t, &o);
		uint32_t w0 = comm(a, 0, 0), s = comm(a, late, 0);
		assert_int_equal(STEP(a, 0, 0), STEP(a, late, 1));
		assert_int_equal(analysis_lop_lateness(a, w0), 1006);
		assert_int_equal(analysis_lop_lateness(a, s), 998);
		assert_int_equal(analysis_lop_cause(a, w0), CAUSE_MESSAGE);
		assert_int_equal(analysis_lop_cause_lop(a, w0), s);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* A receive late although its sender was not: created in flight (c). */
static void
late_in_flight(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		uint64_t q = irecv(d);
		work(d, 100);
		send(d, 1 - r, 0);
		completes_at(d, r == 1 ? 5000 : 110);    /* rank 1's message comes late */
		struct rq w = { q, 1 - r, 0, 1 };
		waitall(d, &w, 1);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	uint32_t w1 = comm(a, 1, 1);
	/* Waitalls exit at 111 and 5001 */
	assert_int_equal(analysis_lop_lateness(a, w1), 4890);
	assert_int_equal(analysis_lop_diff(a, w1), 4890);
	assert_int_equal(analysis_lop_cause(a, w1), CAUSE_IN_FLIGHT);
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

/* Global lateness over partitions that share global steps: after one
 * Allreduce, ranks 0 and 1 compute 100 ticks and exchange with a
 * Sendrecv, ranks 2 and 3 compute 600 and do the same. With the paper's
 * partitions the two pairs are separate partitions on the same two
 * steps: inside each, nobody is late; across the step, the second pair
 * is 500 late (Sendrecvs exit at 103 and 603, computations end at 102
 * and 602). Skein's default merges the two pairs (same calls, same
 * steps), so the 500 becomes lateness, created by both computations: the
 * two hotspots tie at 500 and come in rank order. */
static void
global_lateness(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(4);
	for (uint32_t r = 0; r < 4; r++) {
		rank(d, r);
		allreduce(d);
		work(d, r < 2 ? 100 : 600);
		sendrecv(d, r ^ 1, r ^ 1, 0);
	}
	struct trace *t = dsl_done(d);
	struct analysis_opts o;
	analysis_opts_paper(&o);
	struct analysis *a = analyse(t, &o);
	uint32_t np;
	analysis_parts(a, &np);
	assert_int_equal(np, 3);
	assert_int_not_equal(PART(a, 0, 1), PART(a, 2, 1));
	assert_int_equal(STEP(a, 0, 1), STEP(a, 2, 1));
	for (uint32_t r = 0; r < 4; r++) {
		uint32_t x = comm(a, r, 1);
		uint64_t g = r < 2 ? 0 : 500;
		assert_int_equal(analysis_lop_lateness(a, x), 0);
		assert_int_equal(analysis_lop_lateness(a, x - 1), 0);
		assert_int_equal(analysis_lop_global_lateness(a, x), g);
		assert_int_equal(analysis_lop_global_lateness(a, x - 1), g);
		assert_int_equal(analysis_lop_diff(a, x - 1), 0);
	}
	analysis_destroy(a);

	a = analyse(t, NULL);
	analysis_parts(a, &np);
	assert_int_equal(np, 2);
	for (uint32_t r = 0; r < 4; r++) {
		uint32_t x = comm(a, r, 1);
		uint64_t g = r < 2 ? 0 : 500;
		assert_int_equal(analysis_lop_lateness(a, x), g);
		assert_int_equal(analysis_lop_global_lateness(a, x), g);
		assert_int_equal(analysis_lop_lateness(a, x - 1), g);
		assert_int_equal(analysis_lop_diff(a, x - 1), g);
		assert_int_equal(analysis_lop_diff(a, x), 0);
	}
	uint32_t nh;
	const uint32_t *hot = analysis_hotspots(a, &nh);
	assert_int_equal(nh, 2);
	assert_int_equal(hot[0], comm(a, 2, 1) - 1);
	assert_int_equal(hot[1], comm(a, 3, 1) - 1);
	analysis_destroy(a);
	/* with room for one, the tie goes to the lower rank */
	analysis_opts_default(&o);
	o.hotspots = 1;
	a = analyse(t, &o);
	hot = analysis_hotspots(a, &nh);
	assert_int_equal(nh, 1);
	assert_int_equal(hot[0], comm(a, 2, 1) - 1);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Hotspot order among ties: 24 ranks in one collective, every other one
 * computing 50 ticks more, so 12 computations share the largest
 * differential lateness. Whatever the bounded heap keeps, the hotspots
 * come largest first and, among equals, in lop order (lower rank first),
 * and a smaller k keeps a prefix of that order. */
static void
hotspot_ties(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(24);
	for (uint32_t r = 0; r < 24; r++) {
		rank(d, r);
		allreduce(d);
		work(d, r % 2 ? 150 : 100);
		allreduce(d);
	}
	struct trace *t = dsl_done(d);
	uint32_t want[12];
	for (uint32_t k = 0; k < 3; k++) {
		struct analysis_opts o;
		analysis_opts_default(&o);
		o.hotspots = k == 0 ? 20 : k == 1 ? 12 : 5;
		struct analysis *a = analyse(t, &o);
		uint32_t nh;
		const uint32_t *hot = analysis_hotspots(a, &nh);
		assert_int_equal(nh, o.hotspots < 12 ? o.hotspots : 12);
		for (uint32_t i = 0; i < nh; i++) {
			if (k == 0)
				want[i] = comm(a, 2 * i + 1, 1) - 1;
			assert_int_equal(hot[i], want[i]);
			assert_int_equal(analysis_lop_diff(a, hot[i]), 50);
		}
		analysis_destroy(a);
	}
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

/* Six ranks, one Allreduce: ranks 0-2 compute 100 ticks before it, ranks
 * 3-5 compute 1000 (1010 on rank 5). The DSL's Allreduce does not block,
 * so lateness vectors (computation, Allreduce) are (0, 0), (900, 900) and
 * (910, 910): two clusters, 0-2 and 3-5, at L1 distance 1800; three
 * clusters split rank 5 off at distance 20. */
static void
clusters(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(6);
	for (uint32_t r = 0; r < 6; r++) {
		rank(d, r);
		work(d, r < 3 ? 100 : r == 5 ? 1010 : 1000);
		allreduce(d);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	struct clustering c;
	assert_int_equal(cluster_partition(a, 0, 2, &c), 0);
	assert_int_equal(c.n_ranks, 6);
	assert_int_equal(c.n_clusters, 2);
	for (uint32_t i = 1; i < 6; i++)
		assert_int_equal(c.cluster[i] == c.cluster[0], i < 3);
	/* seeded with the latest rank: cluster 0 is the late one */
	assert_int_equal(c.medoid[0] >= 3, 1);
	assert_int_equal(c.size[0], 3);
	assert_int_equal(c.merges[0].distance, 1800);
	cluster_fini(&c);
	assert_int_equal(cluster_partition(a, 0, 3, &c), 0);
	assert_int_equal(c.n_clusters, 3);
	assert_int_equal(c.cluster[3], c.cluster[4]);
	assert_int_not_equal(c.cluster[3], c.cluster[5]);
	/* the closest groups join first: {3,4} with {5} at 20 ticks */
	assert_int_equal(c.merges[0].distance, 20);
	assert_int_equal(c.merges[1].distance, 1800);
	cluster_fini(&c);
	/* more clusters than distinct vectors: only the distinct ones */
	assert_int_equal(cluster_partition(a, 0, 20, &c), 0);
	assert_int_equal(c.n_clusters, 3);
	cluster_fini(&c);
	assert_int_equal(cluster_partition(a, 0, 0, &c), ERR_USAGE);
	assert_int_equal(cluster_partition(a, 7, 2, &c), ERR_USAGE);
	assert_null(analysis_clustering(a, 0));
	analysis_destroy(a);
	/* as an analysis option: every partition clustered */
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.clusters = 2;
	a = analyse(t, &o);
	const struct clustering *k = analysis_clustering(a, 0);
	assert_non_null(k);
	assert_int_equal(k->n_clusters, 2);
	assert_int_equal(k->size[0], 3);
	analysis_destroy(a);
	o.clusters = 21;
	struct err e = { 0 };
	assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), ERR_USAGE);
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
 *  xeonphi: one rank, 100 Allreduce + 2 Barrier: 102, 204. */
static const struct shared_expect shared[] = {
	{ "otf2/pipit-pingpong-otf2/traces.otf2", 16, 64 },
	{ "otf2/casita-4_mpi_ls_barr/traces.otf2", 4, 14 },
	{ "otf2/tracer-stencil4d-32/traces.otf2", 5, 42 },
	{ "otf2/casita-2_cuda_simple/traces.otf2", 22, 44 },
	{ "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2", 2002, 4004 },
	{ "otf2/casita-1_xeonphi_jacobi_01/traces.otf2", 102, 204 },
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
		cmocka_unit_test(lateness_cases),
		cmocka_unit_test(cause_lop_by_end),
		cmocka_unit_test(late_in_flight),
		cmocka_unit_test(cycle_merge),
		cmocka_unit_test(waitall_merge),
		cmocka_unit_test(leap_merge),
		cmocka_unit_test(leap_force),
		cmocka_unit_test(leap_cancel),
		cmocka_unit_test(caller_merge),
		cmocka_unit_test(caller_merge_nested),
		cmocka_unit_test(caller_merge_collective),
		cmocka_unit_test(global_lateness),
		cmocka_unit_test(hotspot_ties),
		cmocka_unit_test(match_size),
		cmocka_unit_test(user_phases),
		cmocka_unit_test(broken_cycle),
		cmocka_unit_test(clusters),
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
