/* bitset.c — see bitset.h. */
#include "bitset.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

int
bitset_init(struct bitset *b, uint32_t n)
{
	b->n = n;
	b->w = calloc(bitset_words(n) ? bitset_words(n) : 1, sizeof *b->w);
	return b->w ? 0 : ERR_NOMEM;
}

void
bitset_fini(struct bitset *b)
{
	free(b->w);
	b->w = NULL;
	b->n = 0;
}

void
bitset_clear(struct bitset *b)
{
	memset(b->w, 0, bitset_words(b->n) * sizeof *b->w);
}

uint32_t
bitset_count(const struct bitset *b)
{
	uint32_t c = 0;
	for (size_t i = 0; i < bitset_words(b->n); i++)
		c += (uint32_t)__builtin_popcountll(b->w[i]);
	return c;
}

void
bitset_or(struct bitset *b, const struct bitset *o)
{
	for (size_t i = 0; i < bitset_words(b->n); i++)
		b->w[i] |= o->w[i];
}

void
bitset_and(struct bitset *b, const struct bitset *o)
{
	for (size_t i = 0; i < bitset_words(b->n); i++)
		b->w[i] &= o->w[i];
}

void
bitset_copy(struct bitset *b, const struct bitset *o)
{
	memcpy(b->w, o->w, bitset_words(b->n) * sizeof *b->w);
}
