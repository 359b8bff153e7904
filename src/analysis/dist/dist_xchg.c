/* dist_xchg.c — records sent to the ranks that own them, and replies
 * (dist_impl.h). */
#include "dist_impl.h"

#include <stdlib.h>
#include <string.h>

int
dx_send(struct dcomm *c, int rc, const void *rec, size_t n, size_t size, const uint32_t *dest,
	void **out, size_t *n_out, uint32_t *at)
{
	*out = NULL;
	*n_out = 0;
	uint32_t *pos = at ? calloc((size_t)c->size + 1, sizeof *pos) : NULL;
	if (!rc && at && !pos)
		rc = ERR_NOMEM;
	/* where each record goes in the rank-ordered send buffer */
	for (size_t i = 0; i < n && pos && !rc; i++)
		pos[dest[i] + 1]++;
	for (uint32_t r = 0; r < c->size && pos && !rc; r++)
		pos[r + 1] += pos[r];
	for (size_t i = 0; i < n && pos && !rc; i++)
		at[i] = pos[dest[i]]++;
	free(pos);
	if (!(rc = dcomm_agree(c, rc)))
		rc = dcomm_exchange(c, rec, n, size, dest, out, n_out);
	return rc;
}

static int
pair_cmp(const void *x, const void *y)
{
	const struct dpair *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static int
same_pair(const void *x, const void *y)
{
	return !pair_cmp(x, y);
}

void
dx_pairs_unique(struct dpair *p, size_t *n)
{
	*n = dx_sort_unique(p, *n, sizeof *p, pair_cmp, same_pair);
}

size_t
dx_sort_unique(void *v, size_t n, size_t size, int (*order)(const void *, const void *),
	       int (*same)(const void *, const void *))
{
	if (!n)
		return 0;
	qsort(v, n, size, order);
	char *b = v;
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (!same(b + i * size, b + (k - 1) * size))
			memmove(b + k++ * size, b + i * size, size);
	return k;
}
