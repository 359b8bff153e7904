/* hmap.h — open-addressing hash maps to a uint32_t value, with deletion.
 *
 * struct hmap takes a 128-bit key (two uint64_t): message channels,
 * definitions' refs, per-chare tables. struct hmap64 takes a 64-bit key
 * in slots of half the size, for the tables looked up on every event
 * (the requests in flight on a timeline). Both hold one entry per open
 * request or per channel, never one per event.
 */
#ifndef SKEIN_HMAP_H
#define SKEIN_HMAP_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct hmap_slot {
	uint64_t a, b;
	uint32_t value;
	uint32_t used;
};

struct hmap {
	struct hmap_slot *slots;
	size_t cap;     /* power of two, or 0 */
	size_t n;
};

/* An all-zero struct hmap is an empty map. */
void hmap_fini(struct hmap *m);
void hmap_clear(struct hmap *m);

/* Inserts or overwrites. Returns 0 or ERR_NOMEM. */
int hmap_put(struct hmap *m, uint64_t a, uint64_t b, uint32_t value);

/* Returns a pointer to the value for (a, b), or NULL. The pointer is valid
 * until the next put or delete. */
uint32_t *hmap_get(const struct hmap *m, uint64_t a, uint64_t b);

/* Removes (a, b); returns 1 and its value in *value if it was there. */
int hmap_take(struct hmap *m, uint64_t a, uint64_t b, uint32_t *value);

struct hmap64_slot {
	uint64_t key;
	uint32_t value;
	uint32_t used;
};

struct hmap64 {
	struct hmap64_slot *slots;
	size_t cap;     /* power of two, or 0 */
	size_t n;
	unsigned shift; /* 64 - log2(cap) */
};

/* An all-zero struct hmap64 is an empty map; the calls are hmap's,
 * put and take inline (they run on every event). */
void hmap64_fini(struct hmap64 *m);
void hmap64_clear(struct hmap64 *m);
/* Doubles the slots (the first 16); 0 or ERR_NOMEM. For put. */
int hmap64_grow(struct hmap64 *m);

/* Fibonacci hashing: the high bits of one product, which every bit of
 * the key reaches (request ids are often consecutive). */
static inline size_t
hmap64_slot_(const struct hmap64 *m, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> m->shift);
}

/* The slot holding key, or the empty one ending its probe chain. */
static inline size_t
hmap64_probe_(const struct hmap64 *m, uint64_t key)
{
	size_t i = hmap64_slot_(m, key);
	while (m->slots[i].used && m->slots[i].key != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static inline int
hmap64_put(struct hmap64 *m, uint64_t key, uint32_t value)
{
	size_t i = m->cap ? hmap64_probe_(m, key) : 0;
	if (m->cap && m->slots[i].used) {
		m->slots[i].value = value;
		return 0;
	}
	if ((m->n + 1) * 4 > m->cap * 3) {
		if (hmap64_grow(m))
			return ERR_NOMEM;
		i = hmap64_probe_(m, key);
	}
	m->slots[i] = (struct hmap64_slot){ .key = key, .value = value, .used = 1 };
	m->n++;
	return 0;
}

static inline int
hmap64_take(struct hmap64 *m, uint64_t key, uint32_t *value)
{
	if (!m->cap)
		return 0;
	size_t hole = hmap64_probe_(m, key), mask = m->cap - 1;
	if (!m->slots[hole].used)
		return 0;
	*value = m->slots[hole].value;
	/* backward-shift deletion, as hmap_take */
	for (size_t j = (hole + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
		size_t home = hmap64_slot_(m, m->slots[j].key);
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].used = 0;
	m->n--;
	return 1;
}

#endif
