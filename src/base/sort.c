/* sort.c — a stable bottom-up merge sort of ids with a context. */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

int
sort_ids(uint32_t *v, uint32_t n, sort_cmp_fn cmp, const void *ctx)
{
	if (n < 2)
		return 0;
	uint32_t *tmp = malloc((size_t)n * sizeof *tmp);
	if (!tmp)
		return ERR_NOMEM;
	for (uint64_t w = 1; w < n; w *= 2) {
		for (uint64_t lo = 0; lo < n; lo += 2 * w) {
			uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			uint64_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, (size_t)n * sizeof *v);
	}
	free(tmp);
	return 0;
}
