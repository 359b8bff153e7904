/* dist_xchg.c — records sent to the ranks that own them, and replies
 * (dist_impl.h). */
#include "dist_impl.h"

#include <stdlib.h>
#include <string.h>

int
dx_send(struct dcomm *c, int rc, const void *rec, size_t n, size_t size, const uint32_t *dest,
	void **out, size_t *n_out, uint64_t *from, uint32_t *at)
{
	uint32_t nr = c->size;
	*out = NULL;
	*n_out = 0;
	uint64_t *scount = calloc(nr, sizeof *scount);
	uint64_t *rcount = calloc(nr, sizeof *rcount);
	uint64_t *pos = calloc(nr, sizeof *pos);
	char *buf = malloc(n * size + 1);
	if (!rc && (!scount || !rcount || !pos || !buf))
		rc = ERR_NOMEM;
	if ((rc = dcomm_agree(c, rc)))
		goto out;
	for (size_t i = 0; i < n; i++)
		scount[dest[i]]++;
	for (uint32_t r = 1; r < nr; r++)
		pos[r] = pos[r - 1] + scount[r - 1];
	const char *src = rec;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = pos[dest[i]]++;
		memcpy(buf + k * size, src + i * size, size);
		if (at)
			at[i] = (uint32_t)k;
	}
	for (uint32_t r = 0; r < nr; r++)
		scount[r] *= size;
	rc = dcomm_alltoallv(c, buf, scount, out, rcount);
	if (!rc) {
		uint64_t total = 0;
		for (uint32_t r = 0; r < nr; r++) {
			total += rcount[r] / size;
			if (from)
				from[r] = rcount[r] / size;
		}
		*n_out = total;
	}
out:
	free(scount);
	free(rcount);
	free(pos);
	free(buf);
	return rc;
}

int
dx_reply(struct dcomm *c, int rc, const void *rep, size_t n, size_t size, const uint64_t *from,
	 void **out, size_t *n_out)
{
	uint32_t *dest = malloc((n + 1) * sizeof *dest);
	if (!rc && !dest)
		rc = ERR_NOMEM;
	size_t k = 0;
	for (uint32_t r = 0; r < c->size && !rc; r++)
		for (uint64_t j = 0; j < from[r] && k < n; j++)
			dest[k++] = r;
	rc = dx_send(c, rc, rep, rc ? 0 : n, size, dest, out, n_out, NULL, NULL);
	free(dest);
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
