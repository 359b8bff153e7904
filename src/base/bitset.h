/* bitset.h — a fixed-size set of bits, one per item (a sample, an object).
 *
 * The explorer's selection of samples is one of these: every pane reads
 * it, and selections combine with new / OR / AND in place. Bits past n in
 * the last word are always zero, so counting and comparing words is exact.
 */
#ifndef SKEIN_BITSET_H
#define SKEIN_BITSET_H

#include <stddef.h>
#include <stdint.h>

struct bitset {
	uint64_t *w;
	uint32_t n;          /* bits */
};

/* An empty set of n bits. Returns 0 or ERR_NOMEM. */
int bitset_init(struct bitset *b, uint32_t n);
void bitset_fini(struct bitset *b);

static inline size_t bitset_words(uint32_t n) { return ((size_t)n + 63) / 64; }
static inline int bitset_test(const struct bitset *b, uint32_t i) { return (int)(b->w[i >> 6] >> (i & 63)) & 1; }
static inline void bitset_set(struct bitset *b, uint32_t i) { b->w[i >> 6] |= (uint64_t)1 << (i & 63); }

void bitset_clear(struct bitset *b);
/* Bits set. */
uint32_t bitset_count(const struct bitset *b);
/* b = b | o, b = b & o, b = o; both of the same size. */
void bitset_or(struct bitset *b, const struct bitset *o);
void bitset_and(struct bitset *b, const struct bitset *o);
void bitset_copy(struct bitset *b, const struct bitset *o);

#endif
