/* outliers.c — operations far slower than their own instances in the
 * other iterations (doc/analysis.md, "Outliers against the iterations").
 *
 * An iterative run repeats its operations: the k-th operation of rank r
 * in one iteration is "the same" as the k-th of r in another when every
 * operation before it in the iteration is the same too (kind and region:
 * a prefix of the iteration's shape, hashed, against the rank's first
 * iteration of the most common length). Instances are grouped by (rank,
 * place); an instance that lasted at least OUTLIER_FACTOR
 * times its group's median, and longer than the median by at least
 * OUTLIER_SHARE of the median iteration, is an outlier, ranked by that
 * excess. This finds a stall where lateness cannot, in a serialised phase
 * (a ping-pong) with no peer at its step. Linear, but for the median of
 * each group (quickselect, linear in the group).
 */
#include "explain_impl.h"

#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

#define OUTLIER_FACTOR 3
#define OUTLIER_SHARE 0.05
#define OUTLIER_MIN_INSTANCES 3

/* The k-th smallest of v[0..n) (v is reordered): quickselect with a
 * three-way partition, so runs of equal values cost nothing. */
static uint64_t
select_kth(uint64_t *v, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n;
	while (hi - lo > 1) {
		uint64_t pivot = v[lo + (hi - lo) / 2], t;
		uint32_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (v[i] < pivot) {
				t = v[lt];
				v[lt++] = v[i];
				v[i++] = t;
			} else if (v[i] > pivot) {
				t = v[--gt];
				v[gt] = v[i];
				v[i] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[lo];
}

static int
by_excess(const void *x, const void *y)
{
	const struct analysis_outlier *p = x, *q = y;
	uint64_t ep = p->duration - p->median, eq = q->duration - q->median;
	if (ep != eq)
		return ep > eq ? -1 : 1;
	return p->lop < q->lop ? -1 : p->lop > q->lop;
}

/* The median of the iterations' lengths: from the first enter of each
 * to the first enter of the next (iter: each lop's iteration). */
static uint64_t
median_iteration(const struct analysis *a, const uint32_t *iter, uint32_t count)
{
	uint64_t *first = malloc(((size_t)count + 1) * sizeof *first);
	if (!first)
		return 0;
	for (uint32_t i = 0; i <= count; i++)
		first[i] = UINT64_MAX;
	for (uint32_t l = 0; l < a->n_lops; l++) {
		uint32_t it = iter[l];
		if (it < count && lop_enter(a, l) < first[it])
			first[it] = lop_enter(a, l);
	}
	uint32_t n = 0;
	for (uint32_t i = 0; i + 1 < count; i++)
		if (first[i] != UINT64_MAX && first[i + 1] != UINT64_MAX && first[i + 1] > first[i])
			first[n++] = first[i + 1] - first[i];
	uint64_t m = n ? select_kth(first, n, n / 2) : 0;
	free(first);
	return m;
}

/* Each lop's group (TRACE_NONE: none) from one pass a rank: the rank's
 * reference iteration is the first of the most common length; the p-th
 * lop of another iteration joins group (rank, p) while its iteration's
 * shape so far is the reference's. group holds each lop's iteration on
 * entry, its group on return. Returns the number of groups, or
 * TRACE_NONE on no memory. */
static uint32_t
assign_groups(const struct analysis *a, uint32_t count, uint32_t *group)
{
	uint32_t n_tl, n_groups = 0;
	trace_timelines(a->t, &n_tl);
	uint32_t *len = calloc((size_t)count + 1, sizeof *len);
	uint32_t *start = malloc(((size_t)count + 1) * sizeof *start);
	uint64_t *ref = NULL;
	size_t cap = 0;
	if (!len || !start) {
		free(len);
		free(start);
		return TRACE_NONE;
	}
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t l0 = a->tl_lop[tl], l1 = a->tl_lop[tl + 1];
		memset(len, 0, (size_t)count * sizeof *len);
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t k = group[l];
			if (k == TRACE_NONE || k >= count)
				continue;
			if (len[k]++ == 0)
				start[k] = l;
		}
		/* the reference: the first iteration of the most common length */
		uint32_t best = TRACE_NONE, best_n = 0;
		for (uint32_t k = 0; k < count; k++) {
			if (!len[k])
				continue;
			uint32_t same = 0;
			for (uint32_t j = 0; j < count && same <= count; j++)
				same += len[j] == len[k];
			if (same > best_n) {
				best_n = same;
				best = k;
			}
			if (same * 2 > count)
				break;      /* a majority: no other can win */
		}
		if (best == TRACE_NONE) {
			for (uint32_t l = l0; l < l1; l++)
				group[l] = TRACE_NONE;
			continue;
		}
		uint32_t L = len[best];
		if (L > cap) {
			uint64_t *r = realloc(ref, (size_t)L * sizeof *r);
			if (!r) {
				n_groups = TRACE_NONE;
				break;
			}
			ref = r;
			cap = L;
		}
		uint64_t h = HASH_SEED;
		for (uint32_t p = 0, l = start[best]; p < L && l < l1; l++) {
			if (group[l] != best)
				continue;
			h = hash_mix(hash_mix(h, a->lop_kind[l]), analysis_lop_region(a, l));
			ref[p++] = h;
		}
		uint32_t cur = TRACE_NONE, p = 0;
		int same = 0;
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t k = group[l];
			group[l] = TRACE_NONE;
			if (k == TRACE_NONE || k >= count)
				continue;
			if (k != cur) {
				cur = k;
				p = 0;
				h = HASH_SEED;
				same = 1;
			}
			h = hash_mix(hash_mix(h, a->lop_kind[l]), analysis_lop_region(a, l));
			same = same && p < L && ref[p] == h;
			if (same)
				group[l] = n_groups + p;
			p++;
		}
		n_groups += L;
	}
	free(len);
	free(start);
	free(ref);
	return n_groups;
}

int
explain_outliers(struct analysis *a)
{
	const struct iterations *it = iterations_get(a);
	if (it->count < OUTLIER_MIN_INSTANCES)
		return 0;
	uint32_t n = a->n_lops;
	uint32_t *group = malloc(((size_t)n + 1) * sizeof *group);
	uint32_t *first = NULL, *fill = NULL, n_groups;
	uint64_t *dur = NULL, *med = NULL;
	struct analysis_outlier *out = NULL;
	int rc = ERR_NOMEM;
	if (!group)
		goto done;
	iterations_of_lops(a, 0, n, group);
	uint64_t floor = (uint64_t)((double)median_iteration(a, group, it->count) * OUTLIER_SHARE);
	if ((n_groups = assign_groups(a, it->count, group)) == TRACE_NONE)
		goto done;
	first = calloc((size_t)n_groups + 2, sizeof *first);
	fill = malloc(((size_t)n_groups + 1) * sizeof *fill);
	med = malloc(((size_t)n_groups + 1) * sizeof *med);
	if (!first || !fill || !med)
		goto done;
	for (uint32_t l = 0; l < n; l++)
		if (group[l] != TRACE_NONE)
			first[group[l] + 1]++;
	for (uint32_t g = 0; g < n_groups; g++)
		first[g + 1] += first[g];
	dur = malloc(((size_t)first[n_groups] + 1) * sizeof *dur);
	if (!dur)
		goto done;
	memcpy(fill, first, (size_t)n_groups * sizeof *fill);
	for (uint32_t l = 0; l < n; l++)
		if (group[l] != TRACE_NONE)
			dur[fill[group[l]]++] = lop_duration(a, l);
	for (uint32_t g = 0; g < n_groups; g++) {
		uint32_t c = first[g + 1] - first[g];
		med[g] = c >= OUTLIER_MIN_INSTANCES ? select_kth(dur + first[g], c, c / 2) : UINT64_MAX;
	}
	size_t n_out = 0, cap = 0;
	for (uint32_t l = 0; l < n; l++) {
		uint32_t g = group[l];
		if (g == TRACE_NONE || med[g] == UINT64_MAX)
			continue;
		uint64_t d = lop_duration(a, l), m = med[g];
		if (d <= m || d - m < floor || d / OUTLIER_FACTOR < m)
			continue;
		if (n_out == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct analysis_outlier *o = realloc(out, nc * sizeof *o);
			if (!o)
				goto done;
			out = o;
			cap = nc;
		}
		out[n_out++] = (struct analysis_outlier){ .lop = l, .instances = first[g + 1] - first[g],
							  .duration = d, .median = m };
	}
	if (n_out)
		qsort(out, n_out, sizeof *out, by_excess);
	a->n_outliers = (uint32_t)(n_out < a->opts.hotspots ? n_out : a->opts.hotspots);
	a->outliers = out;
	out = NULL;
	rc = 0;
done:
	free(group);
	free(first);
	free(fill);
	free(med);
	free(dur);
	free(out);
	return rc;
}

const struct analysis_outlier *
analysis_outliers(const struct analysis *a, uint32_t *n)
{
	*n = a->n_outliers;
	return a->outliers;
}

const struct analysis_outlier *
analysis_lop_outlier(const struct analysis *a, uint32_t lop)
{
	for (uint32_t i = 0; i < a->n_outliers; i++)
		if (a->outliers[i].lop == lop)
			return &a->outliers[i];
	return NULL;
}
