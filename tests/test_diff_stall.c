/* test_diff_stall.c — skein diff of two runs where one sat out a stall
 * inside a collective with every other member (Quantum ESPRESSO with
 * rank 1 stopped 0.3 s in an MPI_Alltoall, abinit in an MPI_Allreduce):
 * the members entered and left together, so no lateness was made and
 * the largest change of differential lateness is elsewhere; the diff
 * names the slowdown (helper-42). Traces written by hand (testdsl.h). */
#include "testwaits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/diff.h"
#include "report/diff_report.h"

/* Two ranks, four rounds of 10 ticks of work and an MPI_Allreduce; in
 * round `stall` (none: -1) both sit in the Allreduce 300 ticks. */
static struct trace *
rounds(int stall)
{
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
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
	struct trace *tb = rounds(-1), *ta = rounds(2);
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
	assert_non_null(strstr(json, "\"largest_slowdown\": {"));
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
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stall_in_collective),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
