#include "hmap.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

static size_t
slot_of(uint64_t a, uint64_t b, size_t cap)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

void
hmap_fini(struct hmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

void
hmap_clear(struct hmap *m)
{
	if (m->n)
		memset(m->slots, 0, m->cap * sizeof *m->slots);
	m->n = 0;
}

static int
grow(struct hmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	struct hmap_slot *s = calloc(ncap, sizeof *s);
	if (!s)
		return ERR_NOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].used)
			continue;
		size_t j = slot_of(m->slots[i].a, m->slots[i].b, ncap);
		while (s[j].used)
			j = (j + 1) & (ncap - 1);
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = ncap;
	return 0;
}

/* The slot holding (a, b), or the empty slot ending its probe chain
 * (where it would go). The map must have slots. */
static size_t
probe(const struct hmap *m, uint64_t a, uint64_t b)
{
	size_t i = slot_of(a, b, m->cap);
	while (m->slots[i].used && (m->slots[i].a != a || m->slots[i].b != b))
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t *
hmap_get(const struct hmap *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return NULL;
	size_t i = probe(m, a, b);
	return m->slots[i].used ? &m->slots[i].value : NULL;
}

int
hmap_put(struct hmap *m, uint64_t a, uint64_t b, uint32_t value)
{
	size_t i = m->cap ? probe(m, a, b) : 0;
	if (m->cap && m->slots[i].used) {
		m->slots[i].value = value;
		return 0;
	}
	if ((m->n + 1) * 4 > m->cap * 3) {
		if (grow(m))
			return ERR_NOMEM;
		i = probe(m, a, b);
	}
	m->slots[i] = (struct hmap_slot){ .a = a, .b = b, .value = value, .used = 1 };
	m->n++;
	return 0;
}

int
hmap_take(struct hmap *m, uint64_t a, uint64_t b, uint32_t *value)
{
	if (!m->cap)
		return 0;
	size_t hole = probe(m, a, b);
	if (!m->slots[hole].used)
		return 0;
	*value = m->slots[hole].value;
	size_t mask = m->cap - 1;
	/* Backward-shift deletion keeps probe chains intact without tombstones. */
	for (size_t j = (hole + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
		size_t home = slot_of(m->slots[j].a, m->slots[j].b, m->cap);
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			m->slots[hole] = m->slots[j];
			hole = j;
		}
	}
	m->slots[hole].used = 0;
	m->n--;
	return 1;
}
