/* sort.h — sorting ids with a context.
 *
 * C11's qsort passes no context to its comparison, so code that orders
 * ids by what a table says about them (lops by time, partitions by step)
 * either keeps the table in a global or writes its own sort. This is the
 * one sort with a context: stable (equal ids keep their order), O(n log n).
 */
#ifndef SKEIN_SORT_H
#define SKEIN_SORT_H

#include <stdint.h>

/* Negative, zero or positive as a orders before, with or after b. */
typedef int (*sort_cmp_fn)(const void *ctx, uint32_t a, uint32_t b);

/* Sorts v[0..n) by cmp. Returns 0, or ERR_NOMEM (v unchanged). */
int sort_ids(uint32_t *v, uint32_t n, sort_cmp_fn cmp, const void *ctx);

#endif
