/* test_diff_stall.c — skein diff of two runs where one sat out a stall
 * inside a collective with every other member (Quantum ESPRESSO with
 * rank 1 stopped 0.3 s in an MPI_Alltoall, abinit in an MPI_Allreduce):
 * the members entered and left together, so no lateness was made and
 * the largest change of differential lateness is elsewhere; the diff
 * names the slowdown (helper-42). A rank stopped where the structure
 * changed, between calls nothing pairs (hpcc), a wait for the largest
 * change through another rank's wait (kary_tree), and what the AFTER
 * run's problems say held an operation up (hpcc, LAMMPS) (helper-56).
 * Traces written by hand (testdsl.h). */
#include "testwaits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/diff.h"
#include "report/diff_report.h"
#include "view/view.h"

/* `ranks` ranks, four rounds of 10 ticks of work and an MPI_Allreduce;
 * in round `stall` (none: -1) all sit in the Allreduce 300 ticks. */
static struct trace *
rounds(uint32_t ranks, int stall)
{
	struct dsl *d = dsl_new(ranks);
	for (uint32_t r = 0; r < ranks; r++) {
		start(d, r);
		for (int i = 0; i < 4; i++) {
			work(d, 10 + r);
			call(d, R_ALLREDUCE);
			assert_int_equal(build_coll_begin(d->b, d->now), 0);
			at(d, (uint64_t)(i == stall ? 300 : 1) + d->now + (r ? 0 : 1));
			assert_int_equal(build_coll_end(d->b, d->now, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
			ret(d, R_ALLREDUCE);
		}
	}
	return dsl_done(d);
}

static char *
report(const struct diff *d, enum report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(diff_report_write(d, f, fmt, DIFF_TABLE_OPS, 10), 0);
	fclose(f);
	return buf;
}

static void
stall_in_collective(void **state)
{
	(void)state;
	struct trace *tb = rounds(2, -1), *ta = rounds(2, 2);
	struct analysis *b = analyse(tb, NULL), *a = analyse(ta, NULL);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b, a, &d, &e), 0);
	char *text = report(d, REPORT_TEXT), *json = report(d, REPORT_JSON);
	uint32_t l0 = comm(a, 0, 3), step = analysis_lop_step(a, l0);
	char want[128];
	snprintf(want, sizeof want, "\nlargest slowdown: rank 0 step %u ", step);
	if (!strstr(text, want) || !strstr(text, "MPI_Allreduce: duration +299.0 s (302.0 s, before 3.000 s)") ||
	    !strstr(text, "; as much for rank 1\n"))
		fail_msg("no slowdown at step %u in:\n%s", step, text);
	/* the JSON says what the text says: the durations after and
	 * before, the rank that took as much longer */
	const char *facts[] = { "\"largest_slowdown\": {\n    \"rank\": 0,", "\"d_duration_s\": 299,",
				"\"duration_after_s\": 302,", "\"duration_before_s\": 3,",
				"\"as_much_for_ranks\": [\n      1\n    ],", "\"other_than_largest_change\": false" };
	for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
		if (!strstr(json, facts[i]))
			fail_msg("no '%s' in:\n%s", facts[i], json);
	free(text);
	free(json);
	/* a run against itself: no slowdown */
	diff_destroy(d);
	assert_int_equal(diff_run(b, b, &d, &e), 0);
	text = report(d, REPORT_TEXT);
	json = report(d, REPORT_JSON);
	assert_null(strstr(text, "largest slowdown"));
	assert_non_null(strstr(json, "\"largest_slowdown\": null"));
	free(text);
	free(json);
	diff_destroy(d);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
	/* seven ranks: the text names four of the six others and says how
	 * many more; the JSON has them all */
	tb = rounds(7, -1);
	ta = rounds(7, 2);
	b = analyse(tb, NULL);
	a = analyse(ta, NULL);
	assert_int_equal(diff_run(b, a, &d, &e), 0);
	text = report(d, REPORT_TEXT);
	json = report(d, REPORT_JSON);
	if (!strstr(text, "; as much for rank 1, 2, 3, 4 and 2 more\n") ||
	    !strstr(json, "\"as_much_for_ranks\": [\n      1,\n      2,\n      3,\n      4,\n      5,\n      6\n    ],"))
		fail_msg("not the six others:\n%s\n%s", text, json);
	free(text);
	free(json);
	diff_destroy(d);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* Two ranks, four rounds of 10 ticks of work and an MPI_Allreduce that
 * each leaves a tick after the last entered, plus `extra` ticks of its
 * own. In the AFTER run (after 1) rank 0 works 5 ticks in round 1 and
 * stays 300 ticks more in its Allreduce, which rank 1 leaves in time:
 * rank 0's Allreduce creates 300 ticks of lateness and lasts 305
 * longer, the largest change and the largest slowdown at once; rank 1
 * waits 300 ticks for it in round 2. The AFTER run's stalls besides:
 *   0: none;
 *   1: both sit out round 3's Allreduce 303 ticks more (they leave
 *      together: no lateness), a slowdown the largest change does not
 *      name but a smaller one than its own;
 *   2: in round 2 rank 0 stays 303 ticks more, rank 1 310 beyond its
 *      wait: 610 ticks longer, of which 300 waiting for rank 0;
 *   3: both stay 10 ticks more in round 2: rank 1's Allreduce lasts
 *      310 ticks longer, 300 of them waiting for rank 0. */
static uint64_t
extra(int after, int mode, int r, int i)
{
	if (!after)
		return 0;
	if (i == 1 && r == 0)
		return 300;
	if (mode == 1 && i == 3)
		return 303;
	if (mode == 2 && i == 2)
		return r ? 310 : 303;
	if (mode == 3 && i == 2)
		return 10;
	return 0;
}

static struct trace *
alone(int after, int mode)
{
	uint64_t until[2][4], t[2] = { 2, 2 };      /* start() leaves them at 2 */
	for (int i = 0; i < 4; i++) {
		uint64_t in[2];
		for (int r = 0; r < 2; r++)
			in[r] = t[r] + (after && i == 1 && r == 0 ? 5 : 10);
		uint64_t last = in[0] > in[1] ? in[0] : in[1];
		for (int r = 0; r < 2; r++) {
			until[r][i] = last + 1 + extra(after, mode, r, i);
			t[r] = until[r][i] + 2;         /* coll_until's leave, then a tick */
		}
	}
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		for (int i = 0; i < 4; i++) {
			work(d, after && i == 1 && r == 0 ? 5 : 10);
			coll_until(d, COLL_ALLREDUCE, UINT32_MAX, until[r][i]);
		}
	}
	return dsl_done(d);
}

/* The same, rank 0 sending to rank 1 before each Allreduce; in round 2
 * of the AFTER run its MPI_Send stays 300 ticks (rank 1's receive has
 * the message in time): the lateness is created at the computation
 * after it and said to be lost in the send. */
static struct trace *
held_send(int after)
{
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		for (int i = 0; i < 4; i++) {
			int stall = after && i == 2 && r == 0;
			work(d, stall ? 5 : 10);
			if (r == 0)
				send_until(d, 1, (uint32_t)i, d->now + (stall ? 300 : 1));
			else
				recv(d, 0, (uint32_t)i);
			allreduce(d);
		}
	}
	return dsl_done(d);
}

/* Diffs tb against ta; the text and JSON reports into *text, *json. */
static void
diff_both(struct trace *tb, struct trace *ta, struct analysis **b, struct analysis **a, char **text, char **json)
{
	*b = analyse(tb, NULL);
	*a = analyse(ta, NULL);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(*b, *a, &d, &e), 0);
	*text = report(d, REPORT_TEXT);
	*json = report(d, REPORT_JSON);
	diff_destroy(d);
}

/* The largest slowdown is not said again when the largest change names
 * it: as its own operation (it would have read "largest slowdown: rank
 * 0 step 5 ... MPI_Allreduce" under "largest change: rank 0 step 5 ...
 * MPI_Allreduce"), as the operation its lateness was lost in, or as one
 * its lateness reached; a wait for it does not count; the next slowdown
 * that it does not name is said as the largest other. */
static void
slowdown_said_once(void **state)
{
	(void)state;
	for (int mode = 0; mode < 4; mode++) {
		struct trace *tb = alone(0, mode), *ta = alone(1, mode);
		struct analysis *b, *a;
		char *text, *json, want[256];
		diff_both(tb, ta, &b, &a, &text, &json);
		uint32_t step = analysis_lop_step(a, comm(a, 0, 2));
		snprintf(want, sizeof want, "\nlargest change: rank 0 step %u iteration 2 MPI_Allreduce: "
			 "differential lateness +300.0 s (created-compute), lateness +300.0 s\n", step);
		if (!strstr(text, want))
			fail_msg("no '%s' in:\n%s", want, text);
		if (mode == 0 || mode == 3) {
			/* rank 0's Allreduce of round 1, or rank 1's wait for it */
			if (strstr(text, "slowdown"))
				fail_msg("the largest change said twice:\n%s", text);
			assert_non_null(strstr(json, "\"largest_slowdown\": null"));
		} else if (mode == 1) {
			/* round 3's stall (a larger one, rank 0's of round 1, is
			 * the largest change's) */
			snprintf(want, sizeof want, "\nlargest other slowdown: rank 0 step %u iteration 4 MPI_Allreduce: "
				 "duration +303.0 s (305.0 s, before 2.000 s), lateness 0; as much for rank 1\n",
				 analysis_lop_step(a, comm(a, 0, 4)));
			if (!strstr(text, want))
				fail_msg("no '%s' in:\n%s", want, text);
			const char *facts[] = { "\"largest_slowdown\": {\n    \"rank\": 0,", "\"d_duration_s\": 303,",
						"\"d_lateness_s\": 0,", "\"duration_after_s\": 305,",
						"\"duration_before_s\": 2,", "\"as_much_for_ranks\": [\n      1\n    ],",
						"\"waited_for_largest_change_s\": 0,", "\"other_than_largest_change\": true" };
			for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
				if (!strstr(json, facts[i]))
					fail_msg("no '%s' in:\n%s", facts[i], json);
		} else {
			/* rank 1's 610 ticks, of which 300 waiting for rank 0
			 * (310 its own, rank 0's 303 less) */
			snprintf(want, sizeof want, "\nlargest slowdown: rank 1 step %u iteration 3 MPI_Allreduce: "
				 "duration +610.0 s (612.0 s, before 2.000 s), lateness +7.000 s; it waited 300.0 s for "
				 "the largest change\n", analysis_lop_step(a, comm(a, 1, 3)));
			if (!strstr(text, want))
				fail_msg("no '%s' in:\n%s", want, text);
			const char *facts[] = { "\"largest_slowdown\": {\n    \"rank\": 1,", "\"d_duration_s\": 610,",
						"\"duration_after_s\": 612,", "\"as_much_for_ranks\": [],",
						"\"waited_for_largest_change_s\": 300,", "\"other_than_largest_change\": false" };
			for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
				if (!strstr(json, facts[i]))
					fail_msg("no '%s' in:\n%s", facts[i], json);
		}
		free(text);
		free(json);
		analysis_destroy(a);
		analysis_destroy(b);
		trace_destroy(ta);
		trace_destroy(tb);
	}
	/* the send the lateness was lost in, named by the largest change */
	struct trace *tb = held_send(0), *ta = held_send(1);
	struct analysis *b, *a;
	char *text, *json, want[256];
	diff_both(tb, ta, &b, &a, &text, &json);
	snprintf(want, sizeof want, ", the longest step %u MPI_Send (took 301.0 s)\n", analysis_lop_step(a, comm(a, 0, 5)));
	if (!strstr(text, want) || strstr(text, "slowdown"))
		fail_msg("no '%s', or a slowdown, in:\n%s", want, text);
	assert_non_null(strstr(json, "\"largest_slowdown\": null"));
	free(text);
	free(json);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* Two ranks exchange a message each way (an Isend, then an MPI_Waitall
 * for the receive and the send), between two MPI_Allreduce; 10 ticks of
 * work before the Isend and after it. In the AFTER run (after 1) rank 1
 * first sends rank 0 one more message with an MPI_Send, received in rank
 * 0's Waitall, and is stopped `stop` ticks after it; rank 0 completes its
 * Isend in an MPI_Test and works 10 ticks more. The exchange's partition
 * changed structure, and the stopped computation comes after rank 1's
 * call that differs and before the calls both runs make at the end
 * (pair_ends pairs its first computation, and its Isend, computation and
 * Waitall): nothing pairs it, as nothing paired hpcc's rank 0 polling
 * while rank 1 was stopped. Rank 0's Waitall waits for rank 1's Isend,
 * posted at 14 + stop. */
static struct trace *
stopped_between(int after, uint64_t stop)
{
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		work(d, 10);
		if (after && r == 1) {
			send(d, 0, 9);
			work(d, stop);
		}
		uint64_t q = isend(d, 1 - r, r);
		work(d, 10);
		if (after && r == 0) {
			call(d, R_TEST);
			assert_int_equal(build_isend_complete(d->b, d->now, q), 0);
			ret(d, R_TEST);
			work(d, 10);
		}
		completes_at(d, r == 0 && after ? 16 + stop : 0);
		struct rq rq[3] = { { 0, 1 - r, 1 - r, 1 }, { 0, 1, 9, 1 }, { q, 0, 0, 0 } };
		waitall(d, after && r == 0 ? rq : (const struct rq[]){ rq[0], rq[2] }, 2);
		allreduce(d);
	}
	return dsl_done(d);
}

static void
stop_unpaired(void **state)
{
	(void)state;
	struct trace *tb = stopped_between(0, 0), *ta = stopped_between(1, 300);
	struct analysis *b, *a;
	char *text, *json, want[320];
	diff_both(tb, ta, &b, &a, &text, &json);
	/* rank 1's stopped computation, [13, 314), against rank 0's at its
	 * step, [13, 24): 290 ticks of lateness created there, where rank
	 * 1's computations of the exchange created none before */
	uint32_t l = comm(a, 1, 2) - 1;
	assert_int_equal(analysis_lop_kind(a, l), OP_COMPUTE);
	assert_int_equal(analysis_lop_diff(a, l), 290);
	snprintf(want, sizeof want, "\nlargest change: rank 1 step %u iteration - (computation): differential lateness "
		 "+290.0 s (created-compute), lateness +290.0 s\n  nothing paired it, the partitions around it having "
		 "changed structure: the most rank 1's (computation) created in that stretch before was 0, step %u\n",
		 analysis_lop_step(a, l), analysis_lop_step(b, comm(b, 1, 1) - 1));
	if (!strstr(text, want))
		fail_msg("no '%s' in:\n%s", want, text);
	const char *facts[] = { "\"worse_unpaired\": [\n    {\n      \"rank\": 1,\n      \"kind\": \"compute\",",
				"\"d_diff_s\": 290,", "\"before_most_diff_s\": 0\n    }\n  ],",
				"\"propagation\": [\n    {\n      \"rank\": 1," };
	for (size_t i = 0; i < sizeof facts / sizeof *facts; i++)
		if (!strstr(json, facts[i]))
			fail_msg("no '%s' in:\n%s", facts[i], json);
	free(text);
	free(json);
	/* the other way round, the stop is what got better most, at its
	 * place in the BEFORE run */
	char *back, *back_json;
	struct diff *bd = NULL;
	struct err be = { 0 };
	assert_int_equal(diff_run(a, b, &bd, &be), 0);
	back = report(bd, REPORT_TEXT);
	back_json = report(bd, REPORT_JSON);
	assert_true(bd->n_unpaired_better >= 1);
	assert_int_equal(bd->unpaired_better[0].before, l);
	snprintf(want, sizeof want, "\nlargest change: rank 1 step %u before iteration - (computation): differential "
		 "lateness -290.0 s (created-compute), lateness -290.0 s\n  nothing paired it, the partitions around it "
		 "having changed structure: the most rank 1's (computation) created in that stretch after was 0, step %u\n",
		 analysis_lop_step(a, l), analysis_lop_step(b, comm(b, 1, 1) - 1));
	if (!strstr(back, want) || !strstr(back_json, "\"unpaired\": \"before\",\n    \"after_most_diff_s\": 0,"))
		fail_msg("no '%s' in:\n%s\n%s", want, back, back_json);
	free(back);
	free(back_json);
	diff_destroy(bd);
	analysis_destroy(a);
	trace_destroy(ta);
	/* the same change of structure with no stop: nothing unpaired
	 * created more than before */
	ta = stopped_between(1, 0);
	a = analyse(ta, NULL);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b, a, &d, &e), 0);
	assert_int_equal(d->n_changed, 1);
	assert_int_equal(d->n_unpaired + d->n_unpaired_better + d->n_better, 0);
	/* (rank 0's Test and 10 ticks of work after it make it that much
	 * later at the closing Allreduce: a paired change) */
	assert_int_equal(d->n_worse, 1);
	assert_true(fabs(d->ops[d->worse[0]].d_diff - 10) < 1e-9);
	diff_destroy(d);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* The explorer's details at rank r, step `step` of d's AFTER run a, the
 * two runs compared (skein diff on a terminal), 160 columns wide. */
static char *
explore_at(struct analysis *a, struct diff *d, uint32_t r, uint32_t step)
{
	char keys[64];
	snprintf(keys, sizeof keys, ":rank %u<Enter>:step %u<Enter>", r, step);
	struct view_opts vo = { .label = "stopped", .this_host = TU_HOST, .this_machine = TU_MACHINE, .diff = d,
				.metric = METRIC_DELTA, .start_origin = 1 };
	struct view_render_opts ro = { .w = 160, .h = 60, .keys = keys, .depth = DEPTH_NONE };
	char *got = NULL;
	size_t n = 0;
	struct err e = { 0 };
	FILE *mem = open_memstream(&got, &n);
	assert_non_null(mem);
	assert_int_equal(view_render(a, &vo, &ro, mem, NULL, &e), 0);
	fclose(mem);
	return got;
}

/* The explorer marks the largest change skein diff names when nothing
 * paired it: stop_unpaired's stopped computation of rank 1 (an AFTER
 * operation; worse[0] was marked, rank 0's Waitall, whatever it was),
 * and the other way round, that computation in the BEFORE run, at the
 * AFTER operation it was compared with. */
static void
explorer_unpaired(void **state)
{
	(void)state;
	struct trace *tb = stopped_between(0, 0), *ta = stopped_between(1, 300);
	struct analysis *b = analyse(tb, NULL), *a = analyse(ta, NULL);
	struct diff *d = NULL, *bd = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b, a, &d, &e), 0);
	uint32_t l = comm(a, 1, 2) - 1, m = comm(b, 1, 1) - 1;
	assert_ptr_equal(diff_largest(d), &d->unpaired[0]);
	assert_int_equal(d->unpaired[0].after, l);
	char *got = explore_at(a, d, 1, analysis_lop_step(a, l)), want[160];
	snprintf(want, sizeof want, "that stretch before (step %u, 0)", analysis_lop_step(b, m));
	if (!strstr(got, "the largest change between the runs: diff.") ||
	    !strstr(got, "+290.0 s beyond the most its call created in") || !strstr(got, want))
		fail_msg("rank 1's stop not marked as the largest change ('%s'):\n%s", want, got);
	free(got);
	if (d->n_worse) {           /* worse[0], elsewhere, is not marked */
		uint32_t w = d->ops[d->worse[0]].after;
		got = explore_at(a, d, analysis_lop_timeline(a, w), analysis_lop_step(a, w));
		if (strstr(got, "the largest change between the runs"))
			fail_msg("worse[0] marked as the largest change:\n%s", got);
		free(got);
	}
	assert_int_equal(diff_run(a, b, &bd, &e), 0);
	assert_ptr_equal(diff_largest(bd), &bd->unpaired_better[0]);
	got = explore_at(b, bd, 1, analysis_lop_step(b, m));
	snprintf(want, sizeof want, "-290.0 s at step %u before, which nothing", analysis_lop_step(a, l));
	if (!strstr(got, "the largest change between the runs: diff.") || !strstr(got, want))
		fail_msg("no '%s':\n%s", want, got);
	free(got);
	diff_destroy(bd);
	diff_destroy(d);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* A tree of three ranks, as kary_tree's: ranks 1 and 2 send up to rank 0,
 * which waits for both in an MPI_Waitall and sends back down, rank 1
 * first. In the AFTER run (after 1) rank 1 works 100 ticks more (the
 * largest change: +100 of differential lateness) and its message is 10
 * ticks in flight: rank 0 waits for it, and rank 2, its receive posted
 * at 20, waits for rank 0's send of 126 where it had it at 20: its
 * MPI_Recv lasts 106 ticks longer. Rank 2 synchronised with rank 0 in
 * that Waitall (its own message), so its wait's root is rank 0's
 * operations after it, not the delay; but rank 0 sat in the Waitall
 * for most of rank 2's wait, waiting for rank 1's delay: the wait is
 * the largest change's, not a slowdown of its own. */
static struct trace *
tree3(int after)
{
	struct dsl *d = dsl_new(3);
	start(d, 0);
	work(d, 10);
	struct rq rq[2] = { { irecv(d), 1, 1, 1 }, { irecv(d), 2, 2, 1 } };
	completes_at(d, after ? 122 : 0);
	waitall(d, rq, 2);
	send(d, 1, 3);
	send(d, 2, 4);
	allreduce(d);
	start(d, 1);
	work(d, after ? 110 : 10);
	send(d, 0, 1);
	recv_until(d, 0, 3, 0);
	allreduce(d);
	start(d, 2);
	work(d, 10);
	send(d, 0, 2);
	work(d, 6);
	recv_until(d, 0, 4, after ? 126 : 20);
	allreduce(d);
	return dsl_done(d);
}

static void
wait_chain(void **state)
{
	(void)state;
	struct trace *tb = tree3(0), *ta = tree3(1);
	struct analysis *b, *a;
	char *text, *json, want[256];
	diff_both(tb, ta, &b, &a, &text, &json);
	/* rank 2's receive took 106 ticks longer (1 before, [20, 127)
	 * after), more than the largest change's 100 */
	uint32_t r2 = comm(a, 2, 2);
	assert_int_equal(analysis_lop_duration(a, r2) - analysis_lop_duration(b, comm(b, 2, 2)), 106);
	snprintf(want, sizeof want, "\nlargest change: rank 1 step %u iteration - (computation): differential lateness "
		 "+100.0 s (created-compute), lateness +100.0 s\n", analysis_lop_step(a, comm(a, 1, 1) - 1));
	if (!strstr(text, want) || strstr(text, "slowdown"))
		fail_msg("no '%s', or a slowdown, in:\n%s", want, text);
	assert_non_null(strstr(json, "\"largest_slowdown\": null"));
	free(text);
	free(json);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* hpcc's polling, as test_waits.c's polled_send writes it: rank 0 posts
 * an MPI_Isend to rank 1 at 2 and tests it in vain every 2 ticks until
 * `until` - 2, completing it in one more test at `until`; rank 1 sits in
 * MPI_Waitall, its receive posted, until the message arrives `late`
 * ticks after that. BEFORE at 20, AFTER at 300 and 5 late (rank 1
 * stopped in its Waitall). */
static struct trace *
polled(uint64_t until, uint64_t late)
{
	struct dsl *d = dsl_new(2);
	start(d, 0);
	uint64_t req = isend(d, 1, 0);
	while (d->now < until - 2) {
		call(d, R_TEST);
		ret(d, R_TEST);
	}
	at(d, until);
	call(d, R_TEST);
	assert_int_equal(build_isend_complete(d->b, d->now, req), 0);
	ret(d, R_TEST);
	start(d, 1);
	uint64_t r = irecv(d);
	work(d, 3);
	completes_at(d, until + late);
	waitall(d, &(struct rq){ r, 0, 0, 1 }, 1);
	return dsl_done(d);
}

/* The largest change is rank 0's polling computation; the AFTER run's
 * problems say rank 1's Waitall held it up (explain's polled_for), and
 * the diff says so: the stopped rank named. That Waitall took longer by
 * more (285 ticks), but it is the largest change's: no slowdown of its
 * own. */
static void
held_up(void **state)
{
	(void)state;
	struct trace *tb = polled(20, 0), *ta = polled(300, 5);
	struct analysis *b, *a;
	char *text, *json, want[256], took[32];
	diff_both(tb, ta, &b, &a, &text, &json);
	uint32_t comp = comm(a, 0, 2) - 1, wall = comm(a, 1, 1);
	/* its polling ends 280 ticks later, as does the lateness it creates */
	snprintf(want, sizeof want, "\nlargest change: rank 0 step %u iteration - (computation): differential "
		 "lateness +280.0 s (created-compute), lateness +280.0 s\n", analysis_lop_step(a, comp));
	if (!strstr(text, want))
		fail_msg("no '%s' in:\n%s", want, text);
	/* rank 1's Waitall, [7, 306): start to 2, its Irecv to 4, 3 of work;
	 * 14 before */
	assert_int_equal(analysis_lop_duration(a, wall), 299);
	assert_int_equal(analysis_lop_duration(b, comm(b, 1, 1)), 14);
	trace_fmt_duration(ta, analysis_lop_duration(a, wall), took, sizeof took);
	snprintf(want, sizeof want, "\n  rank 1's MPI_Waitall (step %u, took %s) held it up, as analyze's problems say\n",
		 analysis_lop_step(a, wall), took);
	if (!strstr(text, want) || strstr(text, "slowdown"))
		fail_msg("no '%s', or a slowdown, in:\n%s", want, text);
	snprintf(want, sizeof want, "\"held_up_by\": {\n      \"rank\": 1,\n      \"step\": %u,\n      "
		 "\"region\": \"MPI_Waitall\",\n      \"duration_s\": 299\n    }\n  },\n  \"largest_slowdown\": null",
		 analysis_lop_step(a, wall));
	if (!strstr(json, want))
		fail_msg("no '%s' in:\n%s", want, json);
	free(text);
	free(json);
	/* the other way round: what held it up before */
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(a, b, &d, &e), 0);
	text = report(d, REPORT_TEXT);
	json = report(d, REPORT_JSON);
	snprintf(want, sizeof want, "\n  before, rank 1's MPI_Waitall (step %u, took %s) held it up, as analyze's "
		 "problems say\n", analysis_lop_step(a, wall), took);
	if (!strstr(text, want))
		fail_msg("no '%s' in:\n%s", want, text);
	snprintf(want, sizeof want, "\"held_up_by\": {\n      \"rank\": 1,\n      \"step\": %u,", analysis_lop_step(a, wall));
	if (!strstr(json, want))
		fail_msg("no '%s' in:\n%s", want, json);
	free(text);
	free(json);
	diff_destroy(d);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* LAMMPS with rank 1 stopped in an MPI_Send: four rounds from T = 2 +
 * 40 i; ranks 1 and 2 send to rank 0 (from T + 5), which receives both
 * in an MPI_Waitall and answers rank 1 (from T + 10), whose MPI_Irecv
 * was posted first and is completed in an MPI_Waitall after its send.
 * In the last round of the AFTER run (after 1) rank 1 is stopped in its
 * send until T + 300, and rank 0's answer, nothing taking it, lasts
 * until T + 310. */
static struct trace *
send_to_stopped(int after)
{
	struct dsl *d = dsl_new(3);
	for (uint32_t r = 0; r < 3; r++) {
		start(d, r);
		for (uint32_t i = 0; i < 4; i++) {
			uint64_t T = 2 + 40 * i;
			int stall = after && i == 3;
			at(d, T);
			if (r == 0) {
				struct rq rq[2] = { { irecv(d), 1, i, 1 }, { irecv(d), 2, i, 1 } };
				at(d, T + 6);
				waitall(d, rq, 2);
				at(d, T + 10);
				send_until(d, 1, 9, stall ? T + 310 : T + 10);
			} else if (r == 1) {
				uint64_t q = irecv(d);
				at(d, T + 5);
				send_until(d, 0, i, stall ? T + 300 : T + 5);
				completes_at(d, stall ? T + 310 : 0);
				waitall(d, &(struct rq){ q, 0, 9, 1 }, 1);
			} else {
				at(d, T + 5);
				send(d, 0, i);
			}
		}
	}
	return dsl_done(d);
}

/* Rank 0's answer took 300 ticks longer ([T + 10, T + 311) against a
 * tick), more than the 295 of lateness rank 1's send created (the
 * largest change: its exit at T + 301 against rank 2's send's at T +
 * 6), all of it while that send held it up (the AFTER run's problem:
 * an outlier held by it): the largest change's, no slowdown. */
static void
held_by_largest(void **state)
{
	(void)state;
	struct trace *tb = send_to_stopped(0), *ta = send_to_stopped(1);
	struct analysis *b, *a;
	char *text, *json, want[256];
	diff_both(tb, ta, &b, &a, &text, &json);
	uint32_t s1 = comm(a, 1, 7), s0 = comm(a, 0, 8);
	assert_int_equal(analysis_lop_duration(a, s0) - analysis_lop_duration(b, comm(b, 0, 8)), 300);
	const struct analysis_problem *p = NULL;
	uint32_t np;
	const struct analysis_problem *all = analysis_problems(a, &np);
	for (uint32_t k = 0; k < np; k++)
		if (all[k].surfaced == s0)
			p = &all[k];
	assert_non_null(p);
	assert_int_equal(p->lop, s1);
	snprintf(want, sizeof want, "\nlargest change: rank 1 step %u iteration - MPI_Send: differential lateness "
		 "+295.0 s (created-compute), lateness +295.0 s\n", analysis_lop_step(a, s1));
	if (!strstr(text, want) || strstr(text, "slowdown"))
		fail_msg("no '%s', or a slowdown, in:\n%s", want, text);
	assert_non_null(strstr(json, "\"largest_slowdown\": null"));
	free(text);
	free(json);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* Two ranks, four rounds at T = 2 + 400 i: an MPI_Allreduce at T + 5
 * (left at T + 6), then rank 0 computes to T + 10 and enters an
 * MPI_Bcast it is the root of, which it leaves a tick after rank 1 has
 * entered its own, rank 1 computing 5 ticks first. In round 2 of the
 * AFTER run (after 1) rank 1 enters its Allreduce at T + 3, is stopped
 * in it until T + 306 and computes 6 ticks after it (QE with rank 1
 * stopped in an MPI_Allreduce, +302.2 ms: rank 0's Bcast, +301.9 ms, ran
 * through the stop). */
static struct trace *
stop_before_root(int after)
{
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		for (uint64_t i = 0; i < 4; i++) {
			uint64_t T = 2 + 400 * i, r1 = after && i == 2 ? T + 312 : T + 11;
			int stop = r && after && i == 2;
			at(d, stop ? T + 3 : T + 5);
			coll_until(d, COLL_ALLREDUCE, UINT32_MAX, stop ? T + 306 : T + 6);
			at(d, r ? r1 : T + 10);
			call(d, R_BCAST);
			assert_int_equal(build_coll_begin(d->b, d->now), 0);
			at(d, r1 + 1);
			assert_int_equal(build_coll_end(d->b, d->now, COLL_BCAST, 0, 0, 8, 8), 0);
			ret(d, R_BCAST);
		}
	}
	return dsl_done(d);
}

/* Rank 0's Bcast took 301 ticks longer ([T + 10, T + 313) against
 * [T + 10, T + 12)), more than the 300 of lateness rank 1's stopped
 * Allreduce created (the largest change), with no wait state (a root
 * waits for no one) and no problem of the AFTER run's saying so (the
 * problems keep the Allreduce's own outlier, 302 ticks over its median
 * against the Bcast's 301); but it ran
 * through the stop, which began first, and through the computation the
 * stop made late: 302 ticks of it rank 1 spent in what the largest
 * change names, no slowdown beyond it. */
static void
held_by_stop(void **state)
{
	(void)state;
	struct trace *tb = stop_before_root(0), *ta = stop_before_root(1);
	struct analysis *b, *a;
	char *text, *json, want[256];
	diff_both(tb, ta, &b, &a, &text, &json);
	uint32_t ar = comm(a, 1, 5), bc = comm(a, 0, 6);
	assert_int_equal(analysis_lop_duration(a, bc) - analysis_lop_duration(b, comm(b, 0, 6)), 301);
	assert_null(analysis_lop_wait(a, bc));
	uint32_t np;
	const struct analysis_problem *p = analysis_problems(a, &np);
	for (uint32_t k = 0; k < np; k++)
		assert_true(p[k].surfaced != bc);
	snprintf(want, sizeof want, "\nlargest change: rank 1 step %u iteration 2 MPI_Allreduce: differential "
		 "lateness +300.0 s (created-compute), lateness +300.0 s\n", analysis_lop_step(a, ar));
	if (!strstr(text, want) || strstr(text, "slowdown"))
		fail_msg("no '%s', or a slowdown, in:\n%s", want, text);
	assert_non_null(strstr(json, "\"largest_slowdown\": null"));
	free(text);
	free(json);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

/* Two ranks, four rounds in a user region named in characters two
 * columns wide, with a combining accent (U+0301, no column): work and
 * a collective named so too; in round 2 of the AFTER run (after 1) rank
 * 1 sits in it 300 ticks longer. */
static struct trace *
wide_rounds(int after)
{
	struct dsl *d = dsl_new(2);
	assert_int_equal(trace_add_region(d->t, "\u8a08\u7b97\u30eb\u30fc\u30d7e\u0301_\u9577\u3044", ROLE_USER, 4,
					  &d->reg[R_ITER]), 0);
	assert_int_equal(trace_add_region(d->t, "\u5168\u4f53\u30ea\u30c0\u30af\u30b7\u30e7\u30f3\u51e6\u7406",
					  ROLE_COLLECTIVE, 4, &d->reg[R_ALLREDUCE]), 0);
	for (uint32_t r = 0; r < 2; r++) {
		start(d, r);
		for (int i = 0; i < 4; i++) {
			call(d, R_ITER);
			work(d, 10);
			call(d, R_ALLREDUCE);
			assert_int_equal(build_coll_begin(d->b, d->now), 0);
			at(d, d->now + (after && i == 2 && r == 1 ? 301 : 1));
			assert_int_equal(build_coll_end(d->b, d->now, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
			ret(d, R_ALLREDUCE);
			ret(d, R_ITER);
		}
	}
	return dsl_done(d);
}

/* The report's columns by terminal columns, as analyze's and profile's:
 * the collective's name, 20 columns, cut to 15 and "\u2026" in the
 * operation column's 16, a blank after; the region, 16 columns
 * (16 characters, the accent none), cut to 12 and "\u2026" (13) in the
 * 14 of "in", one blank after; "computation in " and it, 31 columns,
 * cut to 25 (the accented e, whose accent goes with it, would make 26)
 * and "\u2026", the regions table's 26 (printf cut them by bytes: the
 * rows columns short, their last character split). */
static void
wide_names(void **state)
{
	(void)state;
	struct trace *tb = wide_rounds(0), *ta = wide_rounds(1);
	struct analysis *b, *a;
	char *text, *json;
	diff_both(tb, ta, &b, &a, &text, &json);
	static const char *const want[] = {
		/* a worse row and the propagation's: operation, in, then the
		 * 11-column diff or lateness */
		" \u5168\u4f53\u30ea\u30c0\u30af\u30b7\u30e7\u2026  \u8a08\u7b97\u30eb\u30fc\u30d7e\u0301_\u2026  "
		"   +300.0 s",
		" (computation)    \u8a08\u7b97\u30eb\u30fc\u30d7e\u0301_\u2026      300.0 s",
		"\ncomputation in \u8a08\u7b97\u30eb\u30fc\u30d7\u2026 ",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		if (!strstr(text, want[i]))
			fail_msg("no '%s' in:\n%s", want[i], text);
	free(text);
	free(json);
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stall_in_collective),
		cmocka_unit_test(slowdown_said_once),
		cmocka_unit_test(stop_unpaired),
		cmocka_unit_test(explorer_unpaired),
		cmocka_unit_test(wait_chain),
		cmocka_unit_test(held_up),
		cmocka_unit_test(held_by_largest),
		cmocka_unit_test(held_by_stop),
		cmocka_unit_test(wide_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
