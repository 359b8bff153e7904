/* test_charm_nomem.c — the Charm++ analysis with each of its allocations
 * failing in turn: every run ends with 0 or ERR_NOMEM, never a crash,
 * and (under ASan) frees what it took. The allocations fail through
 * failalloc.h; on one thread (SKEIN_THREADS=1: par_run runs every share
 * on its caller) the k-th allocation after arming fails.
 * (iterations_detect wrote its tokens through a failed allocation:
 * found by helper-29 with a preloaded failing malloc.) */
#include "testutil.h"

#include <stdlib.h>

#include "analysis/run/run.h"
#include "projections/projections_read.h"

#include "failalloc.h"

static void
each_allocation(const char *run)
{
	struct trace *t = tu_load_charm(run);
	if (!t) {
		unsetenv("SKEIN_THREADS");
		skip();
	}
	uint64_t failed = 0;
	for (fail_at = 1;; fail_at++) {
		struct analysis *a = NULL;
		struct err e = { 0 };
		allocs = 0;
		armed = 1;
		int rc = analysis_run(t, NULL, NULL, NULL, &a, &e);
		armed = 0;
		if (allocs < fail_at) {         /* nothing failed: done */
			assert_int_equal(rc, 0);
			analysis_destroy(a);
			break;
		}
		if (rc != 0 && rc != ERR_NOMEM)
			fail_msg("allocation %llu failing: error %d (%s)", (unsigned long long)fail_at, rc,
				 e.msg);
		failed += rc == ERR_NOMEM;
		analysis_destroy(a);
	}
	/* the run allocates hundreds of times, and most failures are said */
	assert_true(fail_at > 200);
	assert_true(failed > fail_at / 2);
	trace_destroy(t);
}

/* a 1-D and a 2-D Jacobi run (about 440 and 3,200 allocations) */
static void
test_each_allocation(void **state)
{
	(void)state;
	setenv("SKEIN_THREADS", "1", 1);
	each_allocation("projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts");
	each_allocation("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	unsetenv("SKEIN_THREADS");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_allocation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
