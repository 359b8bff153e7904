/* recycle.h — pages of freed arrays under the arrays allocated next.
 *
 * A page's first touch is the dearest part of filling a large array on
 * the VMs skein is measured on (2–4 µs: the kernel's fault, its clearing
 * and the host's own fault), and between reading a trace and analysing
 * it skein frees the matching's halves (a quarter of what the analysis
 * then allocates) just before the analysis allocates its arrays.
 * recycle_free(p, used) moves the whole pages of a large block into a
 * pool before freeing it (Linux's mremap: the pages move, nothing is copied);
 * recycle_malloc and recycle_calloc put pooled pages under the whole
 * pages of the block they allocate, zeroed for recycle_calloc, so that
 * its first touches find pages already there. recycle_drain() gives the
 * pool back. The pool is shared by all threads (a lock). Where pages
 * cannot move (another system, a block from the heap's own free memory,
 * a small block), these are malloc, calloc and free.
 */
#ifndef SKEIN_RECYCLE_H
#define SKEIN_RECYCLE_H

#include <stddef.h>

void *recycle_malloc(size_t n);
void *recycle_calloc(size_t n, size_t size);

/* Frees p, giving the pool the whole pages of its first `used` bytes
 * (those written: the rest of a block grown by doubling was never
 * touched, and is worth nothing to the next block). */
void recycle_free(void *p, size_t used);

/* Gives back the pages still pooled (at the end of an analysis). */
void recycle_drain(void);

/* Bytes pooled now (for tests). */
size_t recycle_pooled(void);

#endif
