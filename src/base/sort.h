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

/* An id with its key, for sort_keyed. */
struct sort_kv {
	uint64_t key;
	uint32_t id;
};
/* Sorts v[0..n) by key, smallest first, stable (equal keys keep their
 * order): a radix sort of 16-bit digits (8-bit ones below 65,536
 * records, an insertion sort up to 32), the digits no two keys differ
 * in skipped; for hundreds of thousands of records several times faster
 * than qsort, which calls its comparison n log n times. Two calls, the
 * minor key first, sort by two keys. Returns 0 or ERR_NOMEM (v
 * unchanged). */
int sort_keyed(struct sort_kv *v, uint32_t n);

/* Sorts the ids v[0..n) by key(ctx, id), smallest first, stable: the
 * order sort_ids gives with a comparison of those keys that keeps equal
 * ids' order, by sort_keyed (a key is read once, not 2 n log n times).
 * Uses 32 bytes an id while it runs. Returns 0 or ERR_NOMEM (v
 * unchanged). */
int sort_ids_keyed(uint32_t *v, uint32_t n, uint64_t (*key)(const void *ctx, uint32_t id), const void *ctx);

/* The k records of a stream that come first by larger key, then smaller
 * id (the hotspots, the longest waits), in a heap h of room k whose root
 * is the last kept: sort_top_offer returns the new n (x joins when fewer
 * than k are kept or it comes before the last); sort_top_ids writes the
 * n kept ids in that order (h is scratch). O(log k) an offer. */
uint32_t sort_top_offer(struct sort_kv *h, uint32_t n, uint32_t k, struct sort_kv x);
void sort_top_ids(struct sort_kv *h, uint32_t n, uint32_t k, uint32_t *out);

#endif
