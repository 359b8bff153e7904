/* test_report_par.c — the report written on every core (the JSON lists
 * in pieces per worker, report_json_items; the CSV tables' rows in
 * shares per worker, report_csv_rows; the iterations' totals summed per
 * worker) is the report one core writes: JSON, text, the CSV tables and
 * `export --csv|--json` on 1, 2, 3, 4 and 7 threads, byte for byte, on
 * corpus traces with wait states and on a shared Charm++ run, and when
 * a worker's memory runs out. Under TSan this is where the workers'
 * pieces meet. */
#include <stdlib.h>
#include <string.h>

#include "testdsl.h"

#include "analysis/explain/explain.h"
#include "report/export.h"
#include "report/report.h"

enum { EXPORT_CSV = 100, EXPORT_JSON };

/* The report of a in fmt (table for CSV) with SKEIN_THREADS=threads. */
static char *
report_on(const struct analysis *a, enum report_format fmt, enum report_table table, const char *threads,
	  size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	setenv("SKEIN_THREADS", threads, 1);
	if ((int)fmt == EXPORT_CSV)
		assert_int_equal(export_csv(a, f), 0);
	else if ((int)fmt == EXPORT_JSON)
		assert_int_equal(export_json(a, f), 0);
	else
		assert_int_equal(report_write(a, f, fmt, table, NULL), 0);
	unsetenv("SKEIN_THREADS");
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Under TSan each run is some ten times slower: the reports are
 * compared on one of the counts of threads above one where on all four,
 * a different one for each trace (which), so the corpus traces still
 * take 2, 3, 4 and 7 between them, every kind of report on each; and the
 * reallocs fail every third in turn (the first, and some of every
 * round's). Every parallel writer still runs on more than one worker,
 * its pieces or shares meeting, on every trace. */
#if defined(__SANITIZE_THREAD__)
#define TSAN_SUBSET 1
#else
#define TSAN_SUBSET 0
#endif

static void
same_reports(const struct analysis *a, size_t which)
{
	static const struct {
		enum report_format fmt;
		enum report_table table;
	} kinds[] = {
		{ REPORT_JSON, TABLE_HOTSPOTS }, { REPORT_TEXT, TABLE_HOTSPOTS }, { REPORT_CSV, TABLE_WAITS },
		{ REPORT_CSV, TABLE_ITERATIONS }, { REPORT_CSV, TABLE_TIMELINES }, { REPORT_CSV, TABLE_OPS },
		{ REPORT_CSV, TABLE_HOTSPOTS }, { REPORT_CSV, TABLE_DELAYS }, { REPORT_CSV, TABLE_OUTLIERS },
		{ REPORT_CSV, TABLE_PROBLEMS }, { (enum report_format)EXPORT_CSV, TABLE_HOTSPOTS },
		{ (enum report_format)EXPORT_JSON, TABLE_HOTSPOTS },
	};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		size_t n1, n;
		char *one = report_on(a, kinds[k].fmt, kinds[k].table, "1", &n1);
		assert_true(n1 > 20);       /* a header at least */
		static const char *const threads[] = { "2", "3", "4", "7" };
		for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
			if (TSAN_SUBSET && i != which % (sizeof threads / sizeof *threads))
				continue;
			const char *name = threads[i];
			char *more = report_on(a, kinds[k].fmt, kinds[k].table, name, &n);
			assert_int_equal(n, n1);
			assert_memory_equal(one, more, n1);
			free(more);
		}
		free(one);
	}
}

static void
corpus_reports(void **state)
{
	(void)state;
	static const char *const names[] = { "stencil-4-delay", "lammps-melt-4", "wavefront-9-delay",
					     "gen-stencil-8-2nodes-delay" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct trace *t = tu_load_corpus(names[i]);
		struct analysis *a = tu_analyse(t, NULL);
		uint32_t n;
		analysis_waits(a, &n);
		assert_true(n > 0);
		same_reports(a, i);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

static void
charm_reports(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct analysis *a = tu_analyse(t, NULL);
	same_reports(a, 2);         /* under TSan 4 threads, one a PE */
	analysis_destroy(a);
	trace_destroy(t);
}

/* The pieces' memory failing (linked with -Wl,--wrap=realloc: the
 * JSON pieces and the CSV shares grow their memory by realloc from 64
 * KiB): the k-th realloc of at least that much fails, on whichever
 * worker makes it. The round whose piece ran out is written again on
 * one core, so the report is the same bytes. */
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
static _Atomic uint64_t big_reallocs, fail_big_at;

void *
__wrap_realloc(void *p, size_t n)
{
	if (n >= (size_t)1 << 16 && fail_big_at && ++big_reallocs == fail_big_at)
		return NULL;
	return __real_realloc(p, n);
}

/* Fails the reallocs of fmt's (table's) report on 2 threads in turn
 * (under TSan every third) until one goes through without a failure;
 * how many failed. */
static uint64_t
fail_each_realloc(const struct analysis *a, enum report_format fmt, enum report_table table)
{
	size_t n1, n;
	char *one = report_on(a, fmt, table, "1", &n1);
	uint64_t k, failed = 0;
	for (k = 1;; k += TSAN_SUBSET ? 3 : 1) {
		big_reallocs = 0;
		fail_big_at = k;
		char *more = report_on(a, fmt, table, "2", &n);
		fail_big_at = 0;
		assert_int_equal(n, n1);
		assert_memory_equal(one, more, n1);
		free(more);
		if (big_reallocs < k)
			break;              /* none failed: every one was tried */
		failed++;
	}
	print_message("%zu bytes, %llu reallocs of 64 KiB or more failed in turn\n", n1, (unsigned long long)failed);
	free(one);
	return failed;
}

static void
pieces_without_memory(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("lammps-melt-4");      /* pieces past 64 KiB */
	struct analysis *a = tu_analyse(t, NULL);
	assert_true(fail_each_realloc(a, REPORT_JSON, TABLE_HOTSPOTS) > 1);
	assert_true(fail_each_realloc(a, REPORT_CSV, TABLE_OPS) > 1);     /* as export --csv writes */
	analysis_destroy(a);
	trace_destroy(t);

	/* a table of two rounds (32,768 rows each): the rows of a round
	 * written again on one core come before the next round's */
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		call(d, R_MAIN);
		for (uint32_t i = 0; i < 10000; i++) {
			at(d, 10 * (uint64_t)i);
			if ((i & 1) == r)
				send(d, 1 - r, 0);
			else
				recv(d, 1 - r, 0);
			work(d, 3);
		}
		ret(d, R_MAIN);
	}
	t = dsl_done(d);
	a = tu_analyse(t, NULL);
	assert_true(analysis_lop_count(a) > 32768);
	assert_true(fail_each_realloc(a, REPORT_CSV, TABLE_OPS) > 1);
	analysis_destroy(a);
	trace_destroy(t);
}

/* More workers than rows: the shares with none write nothing. */
static void
fewer_rows_than_workers(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	for (uint32_t r = 0; r < 2; r++) {
		rank(d, r);
		call(d, R_MAIN);
		if (r == 0)
			send(d, 1, 0);
		else
			recv(d, 0, 0);
		ret(d, R_MAIN);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = tu_analyse(t, NULL);
	assert_true(analysis_lop_count(a) < 7);
	size_t n1, n;
	char *one = report_on(a, REPORT_CSV, TABLE_OPS, "1", &n1);
	char *more = report_on(a, REPORT_CSV, TABLE_OPS, "7", &n);
	assert_int_equal(n, n1);
	assert_memory_equal(one, more, n1);
	free(one);
	free(more);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_reports),
		cmocka_unit_test(charm_reports),
		cmocka_unit_test(pieces_without_memory),
		cmocka_unit_test(fewer_rows_than_workers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
