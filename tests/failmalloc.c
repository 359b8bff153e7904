/* failmalloc.c — preloaded (LD_PRELOAD) into a skein run to make its
 * allocations fail: with SKEIN_FAIL_AT=k the k-th call of malloc, calloc
 * or realloc in the process (the libraries' included) returns NULL, and
 * every other one succeeds; with SKEIN_FAIL_COUNT=FILE the number of
 * calls the run made is written to FILE as it exits. tests/hostile.sh
 * runs commands with each allocation failing in turn: out of memory is
 * one line and exit 1, never a crash or another status. glibc's own
 * entry points serve the rest. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static uint64_t fail_at, calls;
static int armed;

__attribute__((constructor)) static void
arm(void)
{
	const char *v = getenv("SKEIN_FAIL_AT");
	fail_at = v ? strtoull(v, NULL, 10) : 0;
	armed = 1;
}

__attribute__((destructor)) static void
report(void)
{
	const char *path = getenv("SKEIN_FAIL_COUNT");
	armed = 0;
	FILE *f = path ? fopen(path, "w") : NULL;
	if (f) {
		fprintf(f, "%llu\n", (unsigned long long)calls);
		fclose(f);
	}
}

/* as glibc's do, a failed allocation sets errno */
static int
fails(void)
{
	if (!armed || ++calls != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *
malloc(size_t n)
{
	return fails() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

void *
realloc(void *p, size_t n)
{
	return fails() ? NULL : __libc_realloc(p, n);
}
