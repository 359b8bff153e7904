/* test_lateness.c — lateness, differential lateness, their causes, the
 * hotspots and clusters on hand-built traces whose answer is worked out
 * by hand (each case says how). */
#include "testdsl.h"

#include <string.h>

#include "analysis/core/cluster.h"
#include "analysis/run/run.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lateness_cases),
		cmocka_unit_test(cause_lop_by_end),
		cmocka_unit_test(late_in_flight),
		cmocka_unit_test(global_lateness),
		cmocka_unit_test(hotspot_ties),
		cmocka_unit_test(clusters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
