#include "vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

int
vec_reserve(void **data, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return ERR_NOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return ERR_NOMEM;
	void *p = realloc(*data, ncap * size);
	if (!p)
		return ERR_NOMEM;
	*data = p;
	*cap = ncap;
	return 0;
}

int
vec_push_id(void **data, size_t *n, size_t *cap, size_t size, uint32_t *id)
{
	if (*n > VEC_MAX_ID)
		return ERR_LIMIT;
	int rc = vec_reserve(data, cap, *n + 1, size);
	if (rc)
		return rc;
	*id = (uint32_t)(*n)++;
	return 0;
}

int
vec_cmp_u32(const void *x, const void *y)
{
	uint32_t a, b;
	memcpy(&a, x, sizeof a);
	memcpy(&b, y, sizeof b);
	return (a > b) - (a < b);
}

size_t
vec_find_u32(const void *v, size_t n, size_t size, uint32_t key)
{
	const unsigned char *b = v;
	size_t lo = 0, hi = n;
	uint32_t x = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		memcpy(&x, b + mid * size, sizeof x);
		if (x < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n)
		memcpy(&x, b + lo * size, sizeof x);
	return lo < n && x == key ? lo : n;
}
