/* recycle.c — see recycle.h.
 *
 * The pool is a list of spans, each the pages of one freed block's
 * used part, moved elsewhere (mremap with MREMAP_DONTUNMAP: the block
 * keeps an empty mapping until free() returns it, so a block the
 * allocator carved from its heap is left whole) to a range reserved for
 * it. A block allocated
 * afterwards takes pages from the last span's start, as many as its
 * whole pages need, span after span; a span taken whole is gone, the
 * rest of one stays where it is. Only a block's whole pages move, never
 * its first (the allocator's header may sit on it). A block whose first
 * whole page is already in memory came from the heap's free memory and
 * gains nothing: it is left alone (mincore). Every move may add a
 * mapping to the process, so moves are bounded between drains (the
 * system's limit is 65530 by default).
 */
#define _GNU_SOURCE     /* mremap, malloc_usable_size */

#include "recycle.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(__GLIBC__) && defined(MREMAP_DONTUNMAP)
#define CAN_MOVE 1
#else
#define CAN_MOVE 0
#endif

#if CAN_MOVE

/* blocks below this are not worth a move */
#define RECYCLE_MIN ((size_t)1 << 20)
#define SPANS_MAX 64
#define MOVES_MAX 1024

struct span {
	uintptr_t at;
	size_t len;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct span spans[SPANS_MAX];
static unsigned n_spans;
static size_t pooled;
static unsigned moves;

static uintptr_t
page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	return pg > 0 ? (uintptr_t)pg : 4096;
}

/* The whole pages of the n bytes at p but the first, [*lo, *hi): 1 when
 * they are worth moving. */
static int
inner(const void *p, size_t n, uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t b = (uintptr_t)p, page = page_size();
	*lo = ((b + page - 1) & ~(page - 1)) + page;
	*hi = (b + n) & ~(page - 1);
	return *hi > *lo && *hi - *lo >= RECYCLE_MIN;
}

/* Moves the pages of the first `used` bytes of p's block into the pool. */
static void
give(void *p, size_t used)
{
	uintptr_t lo, hi;
	size_t n = malloc_usable_size(p);
	if (!inner(p, used < n ? used : n, &lo, &hi))
		return;
	size_t len = hi - lo;
	pthread_mutex_lock(&lock);
	if (n_spans < SPANS_MAX && moves < MOVES_MAX) {
		/* to a range of its own: without MREMAP_FIXED, Linux refuses some
		 * of these moves (EINVAL, EFAULT) that it makes to a given one */
		void *to = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (to != MAP_FAILED &&
		    mremap((void *)lo, len, len, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to) !=
			    MAP_FAILED) {
			spans[n_spans++] = (struct span){ (uintptr_t)to, len };
			pooled += len;
			moves++;
		} else if (to != MAP_FAILED) {
			munmap(to, len);
		}
	}
	pthread_mutex_unlock(&lock);
}

/* Puts pooled pages under p's block; returns the end of those it put,
 * from the block's first inner page (lo) on. */
static uintptr_t
take(void *p, uintptr_t *from)
{
	uintptr_t lo, hi;
	if (!inner(p, malloc_usable_size(p), &lo, &hi))
		return *from = 0;
	*from = lo;
	pthread_mutex_lock(&lock);
	unsigned char in = 0;
	if (n_spans && mincore((void *)lo, page_size(), &in) == 0 && !(in & 1)) {
		while (lo < hi && n_spans && moves < MOVES_MAX) {
			struct span *s = &spans[n_spans - 1];
			size_t len = s->len < hi - lo ? s->len : hi - lo;
			if (mremap((void *)s->at, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)lo) ==
			    MAP_FAILED)
				break;
			moves++;
			pooled -= len;
			lo += len;
			s->at += len;
			if (!(s->len -= len))
				n_spans--;
		}
	}
	pthread_mutex_unlock(&lock);
	return lo;
}

void *
recycle_malloc(size_t n)
{
	void *p = malloc(n);
	uintptr_t from;
	if (p)
		take(p, &from);
	return p;
}

void *
recycle_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	uintptr_t from;
	if (p) {
		uintptr_t to = take(p, &from);
		if (to > from)
			memset((void *)from, 0, to - from);
	}
	return p;
}

void
recycle_free(void *p, size_t used)
{
	if (p)
		give(p, used);
	free(p);
}

void
recycle_drain(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < n_spans; i++)
		munmap((void *)spans[i].at, spans[i].len);
	n_spans = 0;
	pooled = 0;
	moves = 0;
	pthread_mutex_unlock(&lock);
}

size_t
recycle_pooled(void)
{
	pthread_mutex_lock(&lock);
	size_t n = pooled;
	pthread_mutex_unlock(&lock);
	return n;
}

#else

void *
recycle_malloc(size_t n)
{
	return malloc(n);
}

void *
recycle_calloc(size_t n, size_t size)
{
	return calloc(n, size);
}

void
recycle_free(void *p, size_t used)
{
	(void)used;
	free(p);
}

void
recycle_drain(void)
{
}

size_t
recycle_pooled(void)
{
	return 0;
}

#endif
