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

/* An all-zero struct hmap64 is an empty map; the calls are hmap's. */
void hmap64_fini(struct hmap64 *m);
void hmap64_clear(struct hmap64 *m);
int hmap64_put(struct hmap64 *m, uint64_t key, uint32_t value);
int hmap64_take(struct hmap64 *m, uint64_t key, uint32_t *value);

#endif
