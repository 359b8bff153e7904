/* hmap.h — an open-addressing hash map from a 128-bit key (two uint64_t)
 * to a uint32_t value, with deletion. Used for per-timeline request tables
 * and message channels: one entry per open request or per channel, never
 * one per event.
 */
#ifndef SKEIN_HMAP_H
#define SKEIN_HMAP_H

#include <stddef.h>
#include <stdint.h>

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

#endif
