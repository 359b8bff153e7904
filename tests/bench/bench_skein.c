/* bench_skein.c — skein's load and each analysis stage on one trace (an
 * OTF2 archive or a Projections run's .sts).
 * Prints one line: events load lops partition leap steps metrics total
 * peak_rss_kb ops lops (times in seconds). */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/analysis.h"
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
	if (argc != 2) {
		fprintf(stderr, "usage: bench_skein TRACE\n");
		return 2;
	}
	struct err e = { 0 };
	struct trace *t = NULL;
	double t0 = now();
	if (projections_is_run(argv[1]) ? projections_read(argv[1], NULL, &t, &e)
					: otf2_read(argv[1], NULL, &t, &e)) {
		fprintf(stderr, "bench_skein: %s\n", e.msg);
		return 1;
	}
	double t1 = now();
	struct analysis *a = NULL;
	if (analysis_run(t, NULL, NULL, NULL, &a, &e)) {
		fprintf(stderr, "bench_skein: %s\n", e.msg);
		return 1;
	}
	double t2 = now();
	const struct analysis_stats *s = analysis_stats(a);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint32_t n_ops;
	trace_ops(t, &n_ops);
	printf("%llu %.3f %.3f %.3f %.3f %.3f %.3f %.3f %ld %u %u %d\n",
	       (unsigned long long)trace_info(t)->events, t1 - t0, s->t_lops, s->t_partition,
	       s->t_leap, s->t_steps, s->t_metrics, t2 - t0, ru.ru_maxrss, n_ops,
	       analysis_lop_count(a), analysis_verified(a));
	analysis_destroy(a);
	trace_destroy(t);
	return 0;
}
