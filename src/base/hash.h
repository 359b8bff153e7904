/* hash.h — 64-bit hashing for keys made of strings and small integers.
 *
 * Signatures (a partition's structure, compared within a trace and across
 * two traces) and the string table hash through these, so one string
 * hashes the same everywhere.
 */
#ifndef SKEIN_HASH_H
#define SKEIN_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_SEED 1469598103934665603ull

/* FNV-1a over len bytes of s, continuing from h (HASH_SEED to start). */
static inline uint64_t
hash_bytes_from(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static inline uint64_t
hash_bytes(const char *s, size_t len)
{
	return hash_bytes_from(HASH_SEED, s, len);
}

/* Folds v into h (order matters), with a full avalanche so that small
 * integers spread over all bits. */
static inline uint64_t
hash_mix(uint64_t h, uint64_t v)
{
	uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

#endif
