/* test_recycle.c — src/base/recycle.c: a freed block's written pages go
 * to the pool and under the next block allocated, which then writes them
 * without page faults; recycle_calloc's block reads zero; only the used
 * part of a block is pooled; small blocks are freed as they are; the
 * pool drains. Page faults are counted by the kernel (getrusage), with
 * room for the sanitizers' own shadow pages. */
#include "testutil.h"

#include <malloc.h>     /* mallopt */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "base/recycle.h"

#define MB ((size_t)1 << 20)

static long
faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Can this system move pages at all? (Linux with MREMAP_DONTUNMAP and
 * glibc's malloc_usable_size) */
static int
moves(void)
{
#if defined(__SANITIZE_THREAD__)
	return 0;        /* its allocator touches what it hands out */
#endif
	char *p = malloc(8 * MB);
	assert_non_null(p);
	memset(p, 1, 8 * MB);
	recycle_free(p, 8 * MB);
	int ok = recycle_pooled() > 0;
	recycle_drain();
	return ok;
}

static void
pages_move_to_the_next_block(void **state)
{
	(void)state;
	if (!moves())
		skip();
	size_t n = 32 * MB;
	unsigned char *p = malloc(n);
	assert_non_null(p);
	memset(p, 0xab, n);
	recycle_free(p, n);
	/* all of it but the first page and the partial ones */
	assert_true(recycle_pooled() >= n - 3 * 4096);
	assert_true(recycle_pooled() <= n);
	unsigned char *q = recycle_malloc(16 * MB);
	assert_non_null(q);
	assert_true(recycle_pooled() <= n - 15 * MB);
	long f0 = faults();
	memset(q, 0x5a, 16 * MB);
	long f = faults() - f0;
	/* 4,096 pages written; without the pool each would fault */
	assert_true(f < 4096 / 4);
	for (size_t i = 0; i < 16 * MB; i += 4096)
		assert_int_equal(q[i], 0x5a);
	free(q);
	recycle_drain();
	assert_int_equal(recycle_pooled(), 0);
}

static void
calloc_reads_zero(void **state)
{
	(void)state;
	if (!moves())
		skip();
	size_t n = 16 * MB;
	unsigned char *p = malloc(n);
	assert_non_null(p);
	memset(p, 0xff, n);
	recycle_free(p, n);
	assert_true(recycle_pooled() > 0);
	unsigned char *q = recycle_calloc(n / 8, 8);
	assert_non_null(q);
	assert_true(recycle_pooled() < 2 * 4096);
	for (size_t i = 0; i < n; i++)
		if (q[i]) {
			fail_msg("byte %zu is %d", i, q[i]);
		}
	free(q);
	recycle_drain();
}

static void
only_the_used_part(void **state)
{
	(void)state;
	if (!moves())
		skip();
	size_t cap = 64 * MB, used = 5 * MB;
	char *p = malloc(cap);
	assert_non_null(p);
	memset(p, 1, used);
	recycle_free(p, used);
	size_t got = recycle_pooled();
	assert_true(got >= used - 3 * 4096);
	assert_true(got <= used);
	recycle_drain();
	assert_int_equal(recycle_pooled(), 0);
}

static void
small_blocks_are_freed(void **state)
{
	(void)state;
	char *p = malloc(MB / 2);
	assert_non_null(p);
	memset(p, 1, MB / 2);
	recycle_free(p, MB / 2);
	assert_int_equal(recycle_pooled(), 0);
	recycle_free(NULL, 0);
	char *q = recycle_malloc(100);
	assert_non_null(q);
	free(q);
	q = recycle_calloc(10, 10);
	assert_non_null(q);
	for (int i = 0; i < 100; i++)
		assert_int_equal(q[i], 0);
	free(q);
}

/* A block larger than the pool takes all of it and faults in the rest;
 * blocks from several frees fill one block. */
static void
spans_fill_a_larger_block(void **state)
{
	(void)state;
	if (!moves())
		skip();
	char *a = malloc(8 * MB), *b = malloc(8 * MB);
	assert_non_null(a);
	assert_non_null(b);
	memset(a, 1, 8 * MB);
	memset(b, 2, 8 * MB);
	recycle_free(a, 8 * MB);
	recycle_free(b, 8 * MB);
	size_t pooled = recycle_pooled();
	assert_true(pooled >= 16 * MB - 6 * 4096);
	char *c = recycle_calloc(1, 24 * MB);
	assert_non_null(c);
	assert_int_equal(recycle_pooled(), 0);
	for (size_t i = 0; i < 24 * MB; i += 512)
		assert_int_equal(c[i], 0);
	memset(c, 3, 24 * MB);
	free(c);
	recycle_drain();
}

int
main(void)
{
	/* large blocks mapped, as skein's reading leaves glibc's malloc
	 * (otf2_events.c), not served by a threshold that follows frees */
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pages_move_to_the_next_block),
		cmocka_unit_test(calloc_reads_zero),
		cmocka_unit_test(only_the_used_part),
		cmocka_unit_test(small_blocks_are_freed),
		cmocka_unit_test(spans_fill_a_larger_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
