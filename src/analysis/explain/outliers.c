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
 * each group (quickselect, linear in the group). A rank's groups are its
 * own, so the ranks are worked on every core; their outliers are then
 * sorted together (by excess, then lop: one order whatever the cores).
 */
#include "explain_impl.h"

#include "base/hash.h"
#include "base/par.h"
#include "base/recycle.h"
#include "base/vec.h"

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

/* One worker's room, grown as its timelines need and kept from one to
 * the next. */
struct lane {
	uint64_t *first;           /* each iteration's first enter */
	uint32_t *len, *start;     /* per iteration */
	uint64_t *ref;             /* the reference's shape, prefix by prefix */
	uint32_t *at;              /* per group: where its durations begin */
	uint64_t *dur, *med;
	uint32_t *slot;            /* without iterations: (kind, region) -> group */
	size_t ref_cap, at_cap, dur_cap, med_cap;
	struct analysis_outlier *out;
	size_t n_out, out_cap;
};

/* The timelines on every core: first each lop's iteration (into group)
 * and each iteration's first enter, then each timeline's groups and
 * outliers, all within the timeline. */
struct finding {
	struct analysis *a;
	uint32_t count, n_tl, n_regions;
	int by_region;           /* no iterations: every call against its kind and region */
	uint32_t *group;
	uint64_t floor;
	struct par_pieces pieces;
	struct lane lane[PAR_MAX];
};

static int
iter_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	struct finding *f = ctx;
	const struct analysis *a = f->a;
	struct lane *s = &f->lane[wk];
	uint32_t tl;
	(void)nw;
	while (par_take(&f->pieces, wk, &tl)) {
		uint32_t l0 = a->tl_lop[tl], l1 = a->tl_lop[tl + 1];
		iterations_of_lops(a, l0, l1, f->group + l0);
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t it = f->group[l];
			if (it < f->count && lop_enter(a, l) < s->first[it])
				s->first[it] = lop_enter(a, l);
		}
	}
	return 0;
}

/* The median of the iterations' lengths: from the first enter of each
 * to the first enter of the next (the workers' first enters, the
 * earliest of each). */
static uint64_t
median_iteration(struct finding *f, uint32_t nw)
{
	uint64_t *first = f->lane[0].first;
	for (uint32_t w = 1; w < nw; w++)
		for (uint32_t i = 0; i < f->count; i++)
			if (f->lane[w].first[i] < first[i])
				first[i] = f->lane[w].first[i];
	uint32_t n = 0;
	for (uint32_t i = 0; i + 1 < f->count; i++)
		if (first[i] != UINT64_MAX && first[i + 1] != UINT64_MAX && first[i + 1] > first[i])
			first[n++] = first[i + 1] - first[i];
	return n ? select_kth(first, n, n / 2) : 0;
}

/* A lop outside every iteration, in group[] between timeline_groups and
 * region_groups: no group of the iterations' (>= their count), whose
 * calls are then grouped by region. */
#define OUTSIDE (TRACE_NONE - 1)

/* Timeline tl's groups: the rank's reference iteration is the first of
 * the most common length; the p-th lop of another iteration joins group
 * p while its iteration's shape so far is the reference's. group holds
 * each lop's iteration on entry, its group on return (OUTSIDE for a lop
 * of no iteration). Returns the number of groups, or TRACE_NONE on no
 * memory. */
static uint32_t
timeline_groups(const struct analysis *a, uint32_t count, uint32_t tl, uint32_t *group, struct lane *s)
{
	uint32_t l0 = a->tl_lop[tl], l1 = a->tl_lop[tl + 1];
	uint32_t *len = s->len, *start = s->start;
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
			group[l] = group[l] < count ? TRACE_NONE : OUTSIDE;
		return 0;
	}
	uint32_t L = len[best];
	if (vec_reserve((void **)&s->ref, &s->ref_cap, L, sizeof *s->ref))
		return TRACE_NONE;
	uint64_t h = HASH_SEED;
	for (uint32_t p = 0, l = start[best]; p < L && l < l1; l++) {
		if (group[l] != best)
			continue;
		h = hash_mix(hash_mix(h, a->lop_kind[l]), analysis_lop_region(a, l));
		s->ref[p++] = h;
	}
	uint32_t cur = TRACE_NONE, p = 0;
	int same = 0;
	for (uint32_t l = l0; l < l1; l++) {
		uint32_t k = group[l];
		group[l] = k < count ? TRACE_NONE : OUTSIDE;
		if (k >= count)
			continue;
		if (k != cur) {
			cur = k;
			p = 0;
			h = HASH_SEED;
			same = 1;
		}
		h = hash_mix(hash_mix(h, a->lop_kind[l]), analysis_lop_region(a, l));
		same = same && p < L && s->ref[p] == h;
		if (same)
			group[l] = p;
		p++;
	}
	return L;
}

/* Without iterations, timeline tl's groups are its calls by kind and
 * region (a rank's MPI_Alltoall against its other MPI_Alltoall calls);
 * computations are in none (their region says little of their work).
 * With outside, only the lops group[] marks OUTSIDE (of no iteration)
 * are grouped so. Returns the number of groups. */
static uint32_t
region_groups(const struct analysis *a, uint32_t n_regions, uint32_t tl, uint32_t *group, struct lane *s,
	      int outside)
{
	uint32_t l0 = a->tl_lop[tl], l1 = a->tl_lop[tl + 1], L = 0;
	size_t n_slots = (size_t)OP_KIND_COUNT * (n_regions + 1);
	memset(s->slot, 0xff, n_slots * sizeof *s->slot);
	for (uint32_t l = l0; l < l1; l++) {
		uint32_t r = analysis_lop_region(a, l);
		if (a->lop_kind[l] == OP_COMPUTE || a->lop_kind[l] >= OP_KIND_COUNT ||
		    (outside && group[l] != OUTSIDE)) {
			group[l] = TRACE_NONE;
			continue;
		}
		uint32_t *g = &s->slot[(size_t)a->lop_kind[l] * (n_regions + 1) + (r < n_regions ? r : n_regions)];
		if (*g == TRACE_NONE)
			*g = L++;
		group[l] = *g;
	}
	return L;
}

/* Timeline tl's outliers against its L groups' medians, appended to the
 * lane's list. */
static int
timeline_outliers(const struct analysis *a, uint32_t tl, uint32_t L, const uint32_t *group, uint64_t floor,
		  struct lane *s)
{
	uint32_t l0 = a->tl_lop[tl], l1 = a->tl_lop[tl + 1];
	if (vec_reserve((void **)&s->at, &s->at_cap, (size_t)L + 2, sizeof *s->at) ||
	    vec_reserve((void **)&s->med, &s->med_cap, (size_t)L + 1, sizeof *s->med))
		return ERR_NOMEM;
	uint32_t *at = s->at;
	memset(at, 0, ((size_t)L + 2) * sizeof *at);
	for (uint32_t l = l0; l < l1; l++)
		if (group[l] < L)
			at[group[l] + 2]++;
	for (uint32_t g = 0; g < L; g++)
		at[g + 2] += at[g + 1];
	/* at[g + 1]: where group g's durations go; once they are in, where
	 * they end (and at[g] where they begin) */
	if (vec_reserve((void **)&s->dur, &s->dur_cap, (size_t)at[L + 1] + 1, sizeof *s->dur))
		return ERR_NOMEM;
	for (uint32_t l = l0; l < l1; l++)
		if (group[l] < L)
			s->dur[at[group[l] + 1]++] = lop_duration(a, l);
	for (uint32_t g = 0; g < L; g++) {
		uint32_t b = at[g], c = at[g + 1] - b;
		s->med[g] = c >= OUTLIER_MIN_INSTANCES ? select_kth(s->dur + b, c, c / 2) : UINT64_MAX;
	}
	for (uint32_t l = l0; l < l1; l++) {
		uint32_t g = group[l];
		if (g >= L || s->med[g] == UINT64_MAX)
			continue;
		uint64_t d = lop_duration(a, l), m = s->med[g];
		if (d <= m || d - m < floor || d / OUTLIER_FACTOR < m)
			continue;
		/* the start-up is no iteration's work (kept out as the
		 * hotspots keep it out) */
		if (!a->opts.startup && analysis_lop_startup(a, l))
			continue;
		if (VEC_GROW(s->out, s->n_out, s->out_cap))
			return ERR_NOMEM;
		s->out[s->n_out++] = (struct analysis_outlier){ .lop = l, .instances = at[g + 1] - at[g],
								.duration = d, .median = m };
	}
	return 0;
}

static int
group_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	struct finding *f = ctx;
	struct lane *s = &f->lane[wk];
	uint32_t tl;
	(void)nw;
	while (par_take(&f->pieces, wk, &tl)) {
		/* against the calls of a kind and region: 1% of the rank's
		 * span is what a user would call a stall */
		const struct trace_timeline *T = &trace_timelines(f->a->t, NULL)[tl];
		uint32_t l0 = f->a->tl_lop[tl], l1 = f->a->tl_lop[tl + 1];
		uint64_t end = l1 > l0 ? lop_exit(f->a, l1 - 1) : 0;
		uint64_t span = end > T->t_start ? end - T->t_start : 0;
		uint32_t L;
		if (f->by_region) {
			L = region_groups(f->a, f->n_regions, tl, f->group, s, 0);
		} else {
			/* the iterations' instances, then what is in no
			 * iteration against its own calls of a kind and region
			 * (a stall before the iterations begin) */
			L = timeline_groups(f->a, f->count, tl, f->group, s);
			if (L == TRACE_NONE)
				return ERR_NOMEM;
			if (L && timeline_outliers(f->a, tl, L, f->group, f->floor, s))
				return ERR_NOMEM;
			L = region_groups(f->a, f->n_regions, tl, f->group, s, 1);
		}
		if (L == TRACE_NONE)
			return ERR_NOMEM;
		if (L && timeline_outliers(f->a, tl, L, f->group, span / 100, s))
			return ERR_NOMEM;
	}
	return 0;
}

static void
lanes_free(struct finding *f)
{
	for (uint32_t w = 0; w < PAR_MAX; w++) {
		struct lane *s = &f->lane[w];
		free(s->first);
		free(s->len);
		free(s->start);
		free(s->ref);
		free(s->at);
		free(s->dur);
		free(s->med);
		free(s->slot);
		free(s->out);
	}
}

int
explain_outliers(struct analysis *a)
{
	const struct iterations *it = iterations_get(a);
	int by_region = analysis_outliers_by_region(a);
	uint32_t nw = par_workers(), n_tl, n_regions;
	trace_timelines(a->t, &n_tl);
	trace_regions(a->t, &n_regions);
	struct finding *f = calloc(1, sizeof *f);
	int rc = f ? 0 : ERR_NOMEM;
	if (!rc) {
		*f = (struct finding){ .a = a, .count = it->count, .n_tl = n_tl, .n_regions = n_regions,
				       .by_region = by_region,
				       .group = recycle_malloc(((size_t)a->n_lops + 1) * sizeof *f->group) };
		rc = f->group ? 0 : ERR_NOMEM;
	}
	for (uint32_t w = 0; w < nw && !rc; w++) {
		f->lane[w].slot = malloc((size_t)OP_KIND_COUNT * (n_regions + 1) * sizeof *f->lane[w].slot);
		rc = f->lane[w].slot ? 0 : ERR_NOMEM;
	}
	for (uint32_t w = 0; w < nw && !rc && !by_region; w++) {
		struct lane *s = &f->lane[w];
		s->first = malloc(((size_t)it->count + 1) * sizeof *s->first);
		s->len = malloc(((size_t)it->count + 1) * sizeof *s->len);
		s->start = malloc(((size_t)it->count + 1) * sizeof *s->start);
		rc = s->first && s->len && s->start ? 0 : ERR_NOMEM;
		for (uint32_t i = 0; !rc && i <= it->count; i++)
			s->first[i] = UINT64_MAX;
	}
	if (!rc && !by_region) {
		par_pieces_init(&f->pieces, n_tl, nw);
		rc = par_run(nw, iter_worker, f);
	}
	if (!rc) {
		if (!by_region)
			f->floor = (uint64_t)((double)median_iteration(f, nw) * OUTLIER_SHARE);
		par_pieces_init(&f->pieces, n_tl, nw);
		rc = par_run(nw, group_worker, f);
	}
	/* the workers' outliers together, largest excess first */
	size_t n_out = 0;
	for (uint32_t w = 0; w < nw && !rc; w++)
		n_out += f->lane[w].n_out;
	struct analysis_outlier *out = NULL;
	if (!rc && n_out) {
		out = malloc(n_out * sizeof *out);
		rc = out ? 0 : ERR_NOMEM;
	}
	for (uint32_t w = 0, at = 0; w < nw && out; w++) {
		if (f->lane[w].n_out)
			memcpy(out + at, f->lane[w].out, f->lane[w].n_out * sizeof *out);
		at += (uint32_t)f->lane[w].n_out;
	}
	if (out)
		qsort(out, n_out, sizeof *out, by_excess);
	if (!rc) {
		a->n_outliers = (uint32_t)(n_out < a->opts.hotspots ? n_out : a->opts.hotspots);
		a->outliers = out;
	}
	if (f) {
		recycle_free(f->group, ((size_t)a->n_lops + 1) * sizeof *f->group);
		lanes_free(f);
	}
	free(f);
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

int
analysis_outliers_by_region(const struct analysis *a)
{
	return iterations_get(a)->count < OUTLIER_MIN_INSTANCES;
}

int
analysis_outlier_by_region(const struct analysis *a, uint32_t lop)
{
	return analysis_outliers_by_region(a) || iterations_of_lop(a, lop) == TRACE_NONE;
}
