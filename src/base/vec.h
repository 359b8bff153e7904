/* vec.h — growable plain arrays.
 *
 * Bulk trace data lives in contiguous arrays that grow geometrically; this
 * is the one place that knows how. A vec never holds pointers into itself,
 * so growing it (which may move it) is always safe.
 */
#ifndef SKEIN_VEC_H
#define SKEIN_VEC_H

#include <stddef.h>
#include <stdint.h>

/* Makes room for at least `need` elements of `size` bytes in *data, whose
 * capacity is *cap. Returns 0, or ERR_NOMEM leaving *data untouched. */
int vec_reserve(void **data, size_t *cap, size_t need, size_t size);

/* Typed convenience: `VEC_PUSH(v, n, cap, value)` appends value to array v
 * holding n elements. Evaluates to 0 or ERR_NOMEM. */
#define VEC_GROW(v, n, cap) \
	((n) < (cap) ? 0 : vec_reserve((void **)&(v), &(cap), (n) + 1, sizeof *(v)))

/* Records are named by 32-bit ids, the top two values kept as markers
 * (TRACE_NONE and one below it): a vec of records holds at most this
 * many. */
#define VEC_MAX_ID (UINT32_MAX - 2)

/* Makes room for one more element at the end of a vec of records and
 * puts its id (the old count) in *id, incrementing *n. Returns 0,
 * ERR_LIMIT (VEC_MAX_ID reached) or ERR_NOMEM; *n is unchanged on error. */
int vec_push_id(void **data, size_t *n, size_t *cap, size_t size, uint32_t *id);
/* The same, inline while there is room (the builders' per-event path). */
static inline int
vec_push_id_fast(void **data, size_t *n, size_t *cap, size_t size, uint32_t *id)
{
	if (*n < *cap && *n <= VEC_MAX_ID) {
		*id = (uint32_t)(*n)++;
		return 0;
	}
	return vec_push_id(data, n, cap, size, id);
}
#define VEC_NEW_ID(v, n, cap, id) vec_push_id_fast((void **)&(v), &(n), &(cap), sizeof *(v), (id))

/* Records of `size` bytes that start with a 32-bit key (read with
 * memcpy: the records need not be aligned): vec_cmp_u32 orders two by
 * it for qsort; vec_find_u32 finds key among n of them sorted by it, its
 * index, or n when it is not there. */
int vec_cmp_u32(const void *x, const void *y);
size_t vec_find_u32(const void *v, size_t n, size_t size, uint32_t key);

#endif
