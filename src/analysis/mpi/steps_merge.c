/* steps_merge.c — the automatic merge of partitions by global step
 * (doc/analysis.md): partitions whose global step spans overlap are
 * merged (with alike, only those that make the same calls, by their
 * signatures, folded while steps.c reads each partition's messages) and
 * stepped again until none overlap.
 */
#include "analysis/core/analysis_impl.h"
#include "stages.h"

#include "base/hmap.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* What a partition does (struct sig, analysis_impl.h): a 128-bit hash of
 * the set of (MPI region, innermost user region) of its communication
 * lops: two partitions with equal signatures make the same calls from
 * the same code. */

/* Key x joins the n distinct keys in increasing order in keys (a
 * partition has few distinct ones among many). Returns the new n. */
uint32_t
steps_key_add(uint64_t *keys, uint32_t n, uint64_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (keys[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && keys[lo] == x)
		return n;
	memmove(keys + lo + 1, keys + lo, (size_t)(n - lo) * sizeof *keys);
	keys[lo] = x;
	return n + 1;
}

struct sig
steps_sig_of(const uint64_t *keys, uint32_t n)
{
	/* FNV-1a and a multiplicative mix over the distinct keys */
	uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x9e3779b97f4a7c15ull;
	for (uint32_t i = 0; i < n; i++) {
		for (int b = 0; b < 8; b++) {
			h1 ^= (keys[i] >> (8 * b)) & 0xff;
			h1 *= 0x100000001b3ull;
		}
		h2 = (h2 ^ keys[i]) * 0xff51afd7ed558ccdull;
		h2 ^= h2 >> 33;
	}
	return (struct sig){ h1, h2 };
}

/* A run of partitions (in order of first step) whose step spans overlap:
 * its representative lop and where it ends. */
struct run {
	uint32_t rep, end;
};

int
steps_merge_pairs(const struct analysis *a, int alike, const uint32_t *rep, const struct sig *sig,
		  struct merge_pair **pairs, size_t *n, size_t *cap)
{
	uint32_t np = a->n_parts;
	uint32_t *order = malloc((np + 1) * sizeof *order);
	struct run *runs = malloc((np + 1) * sizeof *runs);
	struct hmap classes = { 0 };
	int rc = ERR_NOMEM;
	*n = 0;
	if (!order || !runs || parts_by_first_step(a, order))
		goto out;
	/* one run per class of alike partitions (one class without alike) */
	uint32_t n_runs = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i], cls = 0;
		const struct analysis_part *P = &a->parts[p];
		if (rep[p] == TRACE_NONE)
			continue;
		if (alike) {
			uint32_t *c = hmap_get(&classes, sig[p].h1, sig[p].h2);
			if (c) {
				cls = *c;
			} else {
				cls = n_runs;
				if (hmap_put(&classes, sig[p].h1, sig[p].h2, cls))
					goto out;
			}
		}
		if (cls == n_runs) {
			runs[n_runs++] = (struct run){ TRACE_NONE, 0 };
		}
		struct run *r = &runs[cls];
		if (r->rep != TRACE_NONE && P->step_first < r->end) {
			if (VEC_GROW(*pairs, *n, *cap))
				goto out;
			(*pairs)[(*n)++] = (struct merge_pair){ r->rep, rep[p] };
		} else {
			r->rep = rep[p];
		}
		if (P->step_first + P->step_count > r->end)
			r->end = P->step_first + P->step_count;
	}
	rc = 0;
out:
	hmap_fini(&classes);
	free(order);
	free(runs);
	return rc;
}

/* One pass: the partitions whose global step spans overlap (with sig,
 * each partition's signature: only those with equal signatures), as
 * pairs to unite in that order into *pairs (*n of them). Each pair joins
 * a partition not seen before to a run, so every pair merges something.
 * Returns 0 or ERR_NOMEM. */
static int
merge_pass(struct analysis *a, const struct sig *sig, struct merge_pair **pairs, size_t *n,
	   size_t *cap)
{
	uint32_t np = a->n_parts;
	uint32_t *rep = malloc((np + 1) * sizeof *rep);
	int rc = ERR_NOMEM;
	*n = 0;
	if (rep) {
		for (uint32_t p = 0; p < np; p++)
			rep[p] = part_first_comm(a, p);
		rc = steps_merge_pairs(a, sig != NULL, rep, sig, pairs, n, cap);
	}
	free(rep);
	return rc;
}

/* Merges partitions whose global step spans overlap (with alike, only
 * partitions that make the same calls), then steps again, until none
 * overlap. Sets each partition's merged_from. */
int
steps_global_merge(struct analysis *a, int alike)
{
	/* the partitions of before, each by its first communication lop:
	 * afterwards, the partition holding it counts one more */
	uint32_t n0 = a->n_parts;
	uint32_t *first = malloc(((size_t)n0 + 1) * sizeof *first);
	/* merging only lowers the count of partitions */
	struct sig *sig = alike ? malloc(((size_t)n0 + 1) * sizeof *sig) : NULL;
	if (!first || (alike && !sig)) {
		free(first);
		free(sig);
		return ERR_NOMEM;
	}
	for (uint32_t p = 0; p < n0; p++)
		first[p] = part_first_comm(a, p);
	int rc = steps_assign(a, sig);
	struct merge_pair *pairs = NULL;
	size_t n_pairs = 0, cap = 0;
	while (!rc) {
		rc = merge_pass(a, sig, &pairs, &n_pairs, &cap);
		if (rc || !n_pairs)
			break;
		/* the partitions as a union-find, the pairs united, and steps
		 * again from scratch: the old ones go first, and the
		 * union-find once it has made the partitions */
		struct uf u;
		if (partition_to_uf(a, &u)) {
			rc = ERR_NOMEM;
			break;
		}
		for (size_t i = 0; i < n_pairs; i++)
			uf_union(&u, pairs[i].x, pairs[i].y);
		free(a->lop_step);
		a->lop_step = NULL;
		rc = partition_finalize(a, &u);
		uf_fini(&u);
		if (!rc)
			rc = steps_assign(a, sig);
	}
	free(pairs);
	free(sig);
	for (uint32_t p = 0; p < a->n_parts && !rc; p++)
		a->parts[p].merged_from = 0;
	for (uint32_t q = 0; q < n0 && !rc; q++)
		if (first[q] != TRACE_NONE)
			a->parts[a->lop_part[first[q]]].merged_from++;
	free(first);
	return rc;
}
