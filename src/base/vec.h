/* vec.h — growable plain arrays.
 *
 * Bulk trace data lives in contiguous arrays that grow geometrically; this
 * is the one place that knows how. A vec never holds pointers into itself,
 * so growing it (which may move it) is always safe.
 */
#ifndef SKEIN_VEC_H
#define SKEIN_VEC_H

#include <stddef.h>

/* Makes room for at least `need` elements of `size` bytes in *data, whose
 * capacity is *cap. Returns 0, or ERR_NOMEM leaving *data untouched. */
int vec_reserve(void **data, size_t *cap, size_t need, size_t size);

/* Typed convenience: `VEC_PUSH(v, n, cap, value)` appends value to array v
 * holding n elements. Evaluates to 0 or ERR_NOMEM. */
#define VEC_GROW(v, n, cap) \
	((n) < (cap) ? 0 : vec_reserve((void **)&(v), &(cap), (n) + 1, sizeof *(v)))

#endif
