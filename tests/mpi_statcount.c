/* mpi_statcount.c — an LD_PRELOAD shim for tests/mpi.sh: counts the
 * stat() calls a process makes on paths holding ".log" (a Projections
 * run's logs looked up) and appends "<pid> <count>" to the file named
 * by SKEIN_STATCOUNT_FILE at exit, so the test can tell which processes
 * looked the logs up. cc -shared -fPIC -o statcount.so mpi_statcount.c -ldl. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned long looked;

int
stat(const char *path, struct stat *st)
{
	static int (*real)(const char *, struct stat *);
	if (!real)
		real = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "stat");
	if (path && strstr(path, ".log"))
		looked++;
	return real(path, st);
}

__attribute__((destructor)) static void
report(void)
{
	const char *to = getenv("SKEIN_STATCOUNT_FILE");
	FILE *f = to ? fopen(to, "a") : NULL;
	if (!f)
		return;
	fprintf(f, "%ld %lu\n", (long)getpid(), looked);
	fclose(f);
}
