/* bench_skein.c [--leap-merge] TRACE — skein's load and each analysis
 * stage on one trace (an OTF2 archive or a Projections run's .sts; the
 * default analysis, or with the leap merge).
 * Prints one line: events load lops partition leap steps metrics total
 * peak_rss_kb ops lops verified cpu_s path_s (times in seconds; cpu_s is
 * user plus system time of the whole process up to the analysis' end;
 * path_s the critical path's, computed after it as analyze does). */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/core/analysis.h"
#include "analysis/path/path.h"
#include "analysis/run/run.h"
#include "otf2/otf2_read.h"
#include "projections/projections_read.h"

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	int leap = argc == 3 && strcmp(argv[1], "--leap-merge") == 0;
	if (argc != 2 + leap) {
		fprintf(stderr, "usage: bench_skein [--leap-merge] TRACE\n");
		return 2;
	}
	const char *path = argv[1 + leap];
	struct analysis_opts opts;
	analysis_opts_default(&opts);
	opts.leap_merge = leap;
	struct err e = { 0 };
	struct trace *t = NULL;
	double t0 = now();
	if (projections_is_run(path) ? projections_read(path, NULL, &t, &e)
				     : otf2_read(path, NULL, &t, &e)) {
		fprintf(stderr, "bench_skein: %s\n", e.msg);
		return 1;
	}
	double t1 = now();
	struct analysis *a = NULL;
	if (analysis_run(t, &opts, NULL, NULL, &a, &e)) {
		fprintf(stderr, "bench_skein: %s\n", e.msg);
		return 1;
	}
	double t2 = now();
	const struct analysis_stats *s = analysis_stats(a);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint32_t n_ops;
	trace_ops(t, &n_ops);
	double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	double t3 = now();
	struct path p;
	if (path_compute(a, &p, &e)) {
		fprintf(stderr, "bench_skein: %s\n", e.msg);
		return 1;
	}
	double t4 = now();
	path_free(&p);
	printf("%llu %.3f %.3f %.3f %.3f %.3f %.3f %.3f %ld %u %u %d %.3f %.3f\n",
	       (unsigned long long)trace_info(t)->events, t1 - t0, s->t_lops, s->t_partition,
	       s->t_leap, s->t_steps, s->t_metrics, t2 - t0, ru.ru_maxrss, n_ops,
	       analysis_lop_count(a), analysis_verified(a), cpu, t4 - t3);
	analysis_destroy(a);
	trace_destroy(t);
	return 0;
}
