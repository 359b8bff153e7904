/* dist_merge.c — the automatic merge's pairs in a distributed analysis
 * (dist_merge.h): each partition's first communication lop (the least
 * over the ranks) and signature (each rank's distinct (call, caller)
 * keys sent to the partition's holder, which puts them together and
 * hashes them), on every rank; then the pass itself, the same on every
 * rank (steps_merge_pairs). */
#include "analysis/mpi/stages.h"
#include "dist_merge.h"

#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "model/trace_impl.h"

/* A partition's key, on its way to the partition's holder. */
struct pkey {
	uint32_t part, pad;
	uint64_t key;
};

static int
cmp_pkey(const void *x, const void *y)
{
	const struct pkey *a = x, *b = y;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

/* Every partition's signature, on every rank. */
static int
signatures(struct dcomm *c, const struct analysis *a, struct sig *sig)
{
	const struct trace_frame *frames = trace_frames(a->t, NULL);
	uint32_t np = a->n_parts, n = c->size;
	struct hmap seen = { 0 };
	struct pkey *k = malloc(((size_t)a->n_lops + 1) * sizeof *k);
	uint32_t *to = malloc(((size_t)a->n_lops + 1) * sizeof *to);
	int rc = k && to ? 0 : ERR_NOMEM;
	size_t nk = 0;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = a->lop_part[l];
		if (a->lop_kind[l] == OP_COMPUTE || p == TRACE_NONE)
			continue;
		const struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
		uint32_t caller = o.frame == TRACE_NONE ? TRACE_NONE : frames[o.frame].region;
		uint64_t key = (uint64_t)o.region << 32 | caller;
		if (hmap_get(&seen, key, p))
			continue;
		if ((rc = hmap_put(&seen, key, p, 1)))
			break;
		k[nk] = (struct pkey){ p, 0, key };
		to[nk++] = dcomm_even_owner(p, np, n);
	}
	hmap_fini(&seen);
	rc = dcomm_agree(c, rc);
	void *got = NULL;
	size_t n_got = 0;
	if (!rc)
		rc = dcomm_exchange(c, k, nk, sizeof *k, to, &got, &n_got);
	free(k);
	free(to);
	/* the holder's partitions, their keys in increasing order */
	uint32_t p0 = (uint32_t)((uint64_t)np * c->rank / n), p1 = (uint32_t)((uint64_t)np * (c->rank + 1) / n);
	struct sig *mine = rc ? NULL : malloc(((size_t)(p1 - p0) + 1) * sizeof *mine);
	uint64_t *keys = rc ? NULL : malloc((n_got + 1) * sizeof *keys);
	rc = rc ? rc : dcomm_agree(c, mine && keys ? 0 : ERR_NOMEM);
	struct pkey *g = got;
	if (!rc)
		qsort(g, n_got, sizeof *g, cmp_pkey);
	for (size_t i = 0, p = p0; p < p1 && !rc; p++) {
		uint32_t m = 0;
		for (; i < n_got && g[i].part == p; i++)
			if (!m || keys[m - 1] != g[i].key)
				keys[m++] = g[i].key;
		mine[p - p0] = steps_sig_of(keys, m);
	}
	free(got);
	free(keys);
	if (!rc)
		rc = dcomm_gather_runs(c, mine, p1 - p0, sizeof *mine, sig, np);
	free(mine);
	return rc;
}

int
dist_merge_pairs(struct dcomm *c, const struct analysis *a, int alike, struct merge_pair **pairs,
		 size_t *n, size_t *cap)
{
	uint32_t np = a->n_parts;
	uint64_t *first = malloc(((size_t)np + 1) * sizeof *first);
	uint32_t *rep = malloc(((size_t)np + 1) * sizeof *rep);
	struct sig *sig = malloc(((size_t)np + 1) * sizeof *sig);
	int rc = dcomm_agree(c, first && rep && sig ? 0 : ERR_NOMEM);
	*n = 0;
	for (uint32_t p = 0; p < np && !rc; p++)
		first[p] = TRACE_NONE;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = a->lop_part[l];
		if (p != TRACE_NONE && a->lop_kind[l] != OP_COMPUTE && a->lop_off + l < first[p])
			first[p] = a->lop_off + l;
	}
	if (!rc)
		rc = dcomm_reduce(c, first, np, DCOMM_MIN);
	for (uint32_t p = 0; p < np && !rc; p++)
		rep[p] = (uint32_t)first[p];
	if (!rc && alike)
		rc = signatures(c, a, sig);
	if (!rc)
		rc = dcomm_agree(c, steps_merge_pairs(a, alike, rep, sig, pairs, n, cap));
	free(first);
	free(rep);
	free(sig);
	return rc;
}
