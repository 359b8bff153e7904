/* bench_saved.c [RUNS] FILE — opening a saved analysis (saved_open: the
 * mapping, the sums and the checks of every index) RUNS times (default
 * 5), the file's pages in the page cache. Prints one line: bytes, then
 * the median wall time, the median CPU time (user plus system, the
 * process's, over the open alone) and the fastest wall time, in seconds.
 * doc/performance.md "Saved analyses" compares it with the version
 * before the checks, run in turn. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/saved/saved.h"

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static int
cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

int
main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_saved [RUNS] FILE\n");
		return 2;
	}
	int runs = argc == 3 ? atoi(argv[1]) : 5;
	const char *path = argv[argc - 1];
	if (runs < 1 || runs > 99)
		return 2;
	double wall[99], used[99];
	for (int i = 0; i < runs; i++) {
		struct trace *t = NULL;
		struct analysis *a = NULL;
		struct err e = { 0 };
		double w0 = now(), c0 = cpu();
		if (saved_open(path, &t, &a, NULL, &e)) {
			fprintf(stderr, "bench_saved: %s\n", e.msg);
			return 1;
		}
		wall[i] = now() - w0;
		used[i] = cpu() - c0;
		analysis_destroy(a);
		trace_destroy(t);
	}
	struct stat st;
	stat(path, &st);
	qsort(wall, (size_t)runs, sizeof *wall, cmp);
	double fastest = wall[0];
	qsort(used, (size_t)runs, sizeof *used, cmp);
	printf("%lld %.4f %.4f %.4f\n", (long long)st.st_size, wall[runs / 2], used[runs / 2], fastest);
	return 0;
}
