/* failalloc.h — allocations failing on demand, for a test linked with
 * -Wl,--wrap=malloc,--wrap=calloc (Makefile): the library's malloc and
 * calloc come here. On a thread that armed it (armed = 1, allocs = 0),
 * the fail_at-th allocation since fails. Include it in one file of the
 * test only. */
#ifndef SKEIN_TEST_FAILALLOC_H
#define SKEIN_TEST_FAILALLOC_H

#include <stddef.h>
#include <stdint.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
static _Thread_local int armed;
static _Thread_local uint64_t allocs;
static uint64_t fail_at;

static int
fails(void)
{
	return armed && ++allocs == fail_at;
}

void *
__wrap_malloc(size_t n)
{
	return fails() ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	return fails() ? NULL : __real_calloc(n, size);
}

#endif
