/* mem_cluster.c — clusters of samples along an attribute (seed 002 §7.3).
 *
 * The samples with a value are sorted by it; windows of w consecutive
 * samples, each starting step samples after the last (the last one ends
 * at the last sample), are the leaves. Each holds per-resource sample and
 * cycle counts at the scoring depth, hence a score. Neighbours are merged
 * bottom-up, the pair whose scores differ least first (ties: the leftmost
 * pair), into a cluster spanning both; since the scores do not depend on
 * how many samples a set holds, a merged cluster is scored afresh from
 * its counts (the two children's, less the samples they share). A cut at
 * k clusters replays the first leaves − k merges.
 */
#include "mem_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct merge {
	uint32_t left, right;     /* leaf slots: right joins left */
	double score;             /* of the cluster made */
};

struct mem_tree {
	const double *v;          /* the attribute */
	uint32_t *order, n;       /* samples with a value, by value */
	uint32_t leaves;
	uint32_t *first, *end;    /* per leaf: positions [first, end) */
	double *score;            /* per leaf */
	struct merge *merges;     /* leaves - 1 */
};

struct by_value {
	double x;
	uint32_t i;
};

static int
value_cmp(const void *pa, const void *pb)
{
	const struct by_value *a = pa, *b = pb;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static double
distance(double a, double b)
{
	if (isnan(a) && isnan(b))
		return 0;
	if (isnan(a) || isnan(b))
		return HUGE_VAL;
	return fabs(a - b);
}

/* A min-heap of neighbour pairs; stale entries are skipped when popped. */
struct pair {
	double d;
	uint32_t left, right;
	uint32_t stamp_l, stamp_r;
};

static int
pair_less(const struct pair *a, const struct pair *b)
{
	return a->d < b->d || (a->d == b->d && a->left < b->left);
}

static void
heap_push(struct pair *h, uint32_t *n, struct pair p)
{
	uint32_t i = (*n)++;
	while (i > 0 && pair_less(&p, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = p;
}

static struct pair
heap_pop(struct pair *h, uint32_t *n)
{
	struct pair top = h[0], last = h[--*n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && pair_less(&h[c + 1], &h[c]))
			c++;
		if (!pair_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

/* Adds (sign +1) or removes the counts of positions [a, b) into s, c. */
static void
count(const struct mem_tree *t, const struct mem_depth *d, const uint64_t *lat, uint32_t a, uint32_t b,
      uint64_t *s, uint64_t *c, int sign)
{
	for (uint32_t p = a; p < b; p++) {
		uint32_t i = t->order[p], r = d->res[i];
		if (r >= d->n)
			continue;
		if (sign > 0) {
			s[r]++;
			c[r] += lat[i];
		} else {
			s[r]--;
			c[r] -= lat[i];
		}
	}
}

void
mem_tree_destroy(struct mem_tree *t)
{
	if (!t)
		return;
	free(t->order);
	free(t->first);
	free(t->end);
	free(t->score);
	free(t->merges);
	free(t);
}

int
mem_tree_build(const struct mem *m, uint32_t a, const struct bitset *sel, uint32_t w, uint32_t step,
	       enum mem_metric k, const struct mem_depth *d, struct mem_tree **out, struct err *e)
{
	*out = NULL;
	const struct samples_attr *at = samples_attr(m->s, a);
	if (!at)
		return err_set(e, ERR_USAGE, "no attribute %u", a);
	if (w < 2 || step < 1 || step >= w)
		return err_set(e, ERR_USAGE, "windows of %u samples moved by %u: the step must be at least 1 "
			       "and less than the window (w >= 2)", w, step);
	uint32_t ns = samples_info(m->s)->n;
	struct mem_tree *t = calloc(1, sizeof *t);
	struct by_value *bv = malloc(((size_t)ns + 1) * sizeof *bv);
	if (!t || !bv || !(t->order = malloc(((size_t)ns + 1) * sizeof *t->order)))
		goto nomem;
	t->v = at->v;
	for (uint32_t i = 0; i < ns; i++)
		if (!isnan(at->v[i]) && (!sel || bitset_test(sel, i)))
			bv[t->n++] = (struct by_value){ at->v[i], i };
	qsort(bv, t->n, sizeof *bv, value_cmp);
	for (uint32_t p = 0; p < t->n; p++)
		t->order[p] = bv[p].i;
	free(bv);
	bv = NULL;
	/* the leaves */
	uint32_t cap = t->n > w ? (t->n - w) / step + 2 : 1;
	t->first = malloc(cap * sizeof *t->first);
	t->end = malloc(cap * sizeof *t->end);
	t->score = malloc(cap * sizeof *t->score);
	t->merges = malloc(cap * sizeof *t->merges);
	if (!t->first || !t->end || !t->score || !t->merges)
		goto nomem;
	if (t->n == 0) {
		*out = t;
		return 0;
	}
	for (uint32_t start = 0;; start += step) {
		if ((uint64_t)start + w >= t->n) {
			t->first[t->leaves] = t->n > w ? t->n - w : 0;
			t->end[t->leaves++] = t->n;
			break;
		}
		t->first[t->leaves] = start;
		t->end[t->leaves++] = start + w;
	}
	/* counts per live cluster (in its leftmost leaf's slot) */
	uint32_t L = t->leaves, R = d->n ? d->n : 1;
	const uint64_t *lat = samples_latency(m->s);
	uint64_t *s = calloc((size_t)L * R, sizeof *s), *c = calloc((size_t)L * R, sizeof *c);
	uint64_t *os = calloc(R, sizeof *os), *oc = calloc(R, sizeof *oc);
	uint32_t *next = malloc(L * sizeof *next), *prev = malloc(L * sizeof *prev);
	uint32_t *stamp = calloc(L, sizeof *stamp), *last = malloc(L * sizeof *last);
	struct pair *heap = malloc(((size_t)L * 3 + 1) * sizeof *heap);
	double *live = malloc(L * sizeof *live);
	int rc = 0;
	if (!s || !c || !os || !oc || !next || !prev || !stamp || !last || !heap || !live) {
		rc = ERR_NOMEM;
		goto done;
	}
	for (uint32_t l = 0; l < L; l++) {
		count(t, d, lat, t->first[l], t->end[l], s + (size_t)l * R, c + (size_t)l * R, 1);
		t->score[l] = live[l] = mem_score_ld(k, m->ld, s + (size_t)l * R, c + (size_t)l * R, d->n);
		next[l] = l + 1 < L ? l + 1 : SAMPLES_NONE;
		prev[l] = l ? l - 1 : SAMPLES_NONE;
		last[l] = t->end[l];
	}
	uint32_t nh = 0;
	for (uint32_t l = 0; l + 1 < L; l++)
		heap_push(heap, &nh, (struct pair){ distance(live[l], live[l + 1]), l, l + 1, 0, 0 });
	for (uint32_t done_merges = 0; done_merges + 1 < L && nh;) {
		struct pair p = heap_pop(heap, &nh);
		if (p.stamp_l != stamp[p.left] || p.stamp_r != stamp[p.right] || next[p.left] != p.right)
			continue;
		uint32_t l = p.left, r = p.right;
		/* left += right − the samples both hold */
		uint64_t *sl = s + (size_t)l * R, *cl = c + (size_t)l * R;
		uint64_t *sr = s + (size_t)r * R, *cr = c + (size_t)r * R;
		for (uint32_t x = 0; x < R; x++) {
			sl[x] += sr[x];
			cl[x] += cr[x];
		}
		if (t->first[r] < last[l]) {
			memset(os, 0, R * sizeof *os);
			memset(oc, 0, R * sizeof *oc);
			count(t, d, lat, t->first[r], last[l], os, oc, 1);
			for (uint32_t x = 0; x < R; x++) {
				sl[x] -= os[x];
				cl[x] -= oc[x];
			}
		}
		last[l] = last[r];
		live[l] = mem_score_ld(k, m->ld, sl, cl, d->n);
		t->merges[done_merges++] = (struct merge){ l, r, live[l] };
		next[l] = next[r];
		if (next[r] != SAMPLES_NONE)
			prev[next[r]] = l;
		stamp[l]++;
		stamp[r]++;
		if (prev[l] != SAMPLES_NONE)
			heap_push(heap, &nh, (struct pair){ distance(live[prev[l]], live[l]), prev[l], l,
							    stamp[prev[l]], stamp[l] });
		if (next[l] != SAMPLES_NONE)
			heap_push(heap, &nh, (struct pair){ distance(live[l], live[next[l]]), l, next[l],
							    stamp[l], stamp[next[l]] });
	}
done:
	free(s);
	free(c);
	free(os);
	free(oc);
	free(next);
	free(prev);
	free(stamp);
	free(last);
	free(heap);
	free(live);
	if (rc)
		goto nomem;
	*out = t;
	return 0;
nomem:
	free(bv);
	mem_tree_destroy(t);
	return err_set(e, ERR_NOMEM, "out of memory");
}

uint32_t mem_tree_leaves(const struct mem_tree *t) { return t->leaves; }

const uint32_t *
mem_tree_order(const struct mem_tree *t, uint32_t *n)
{
	if (n)
		*n = t->n;
	return t->order;
}

uint32_t
mem_tree_cut(const struct mem_tree *t, uint32_t k, struct mem_cluster *out)
{
	uint32_t L = t->leaves;
	if (L == 0)
		return 0;
	k = k < 1 ? 1 : k > L ? L : k;
	uint32_t *endp = malloc(L * sizeof *endp);
	double *score = malloc(L * sizeof *score);
	uint8_t *dead = calloc(L, 1);
	if (!endp || !score || !dead) {
		free(endp);
		free(score);
		free(dead);
		return 0;
	}
	for (uint32_t l = 0; l < L; l++) {
		endp[l] = t->end[l];
		score[l] = t->score[l];
	}
	for (uint32_t i = 0; i < L - k; i++) {
		const struct merge *mg = &t->merges[i];
		endp[mg->left] = endp[mg->right];
		score[mg->left] = mg->score;
		dead[mg->right] = 1;
	}
	uint32_t n = 0;
	for (uint32_t l = 0; l < L && n < k; l++) {
		if (dead[l])
			continue;
		struct mem_cluster *cl = &out[n++];
		cl->first = t->first[l];
		cl->end = endp[l];
		cl->samples = cl->end - cl->first;
		cl->lo = t->v[t->order[cl->first]];
		cl->hi = t->v[t->order[cl->end - 1]];
		cl->score = score[l];
	}
	free(endp);
	free(score);
	free(dead);
	return n;
}

double
mem_tree_boundary(const struct mem_tree *t, const struct mem_cluster *a, const struct mem_cluster *b)
{
	uint32_t mid = (uint32_t)(((uint64_t)a->end + b->first) / 2);
	if (mid >= t->n)
		mid = t->n ? t->n - 1 : 0;
	return t->n ? t->v[t->order[mid]] : NAN;
}

void
mem_pick_order(const struct mem_tree *t, uint32_t first, uint32_t end, struct bitset *out)
{
	bitset_clear(out);
	for (uint32_t p = first; p < end && p < t->n; p++)
		bitset_set(out, t->order[p]);
}
