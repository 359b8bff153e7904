/* delay.c — the root causes of the wait states: Böhme et al.'s delay
 * analysis, as Scalasca computes it, on skein's operations
 * (doc/analysis.md, "Root causes").
 *
 * A wait of lop o (on rank W, time T) for lop c (on rank D) happened
 * because D reached c later than W reached o. Each rank's interval runs
 * from its previous synchronisation point (a lop that received from
 * another rank, took part in a collective or waited) to the lop: on D the
 * time it spent there is its work since, T_D; on W, T_W. D's delay is its
 * excess, x = max(0, T_D - T_W), and w_D is the wait of D's own previous
 * synchronisation point: D may have reached c late because it was already
 * late there. With s = min(T / (x + w_D), 1), the delay's short-term cost
 * is s x, given to the longest operation of D's interval, and s w_D
 * propagates to D's previous wait; what x + w_D cannot explain stays
 * unexplained, as in Scalasca. Long-term costs: the waiting a wait caused
 * in turn (the share later waits propagated to it, g) goes the same
 * way, g x / (x + w_D) to the delay, the rest to D's previous wait.
 * Waits are taken latest first (by the exit of the waiting lop, after
 * everything that caused it), so each has received every later share
 * before it passes its own on. A wait's root is the delay that explains
 * most of it, followed earliest first.
 *
 * The intervals come from one pass over every timeline (interval_pass),
 * each delay's and each wait's from there: linear but for sorting the
 * waits by exit.
 */
#include "explain_impl.h"

#include "base/bitset.h"
#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>

const struct analysis_wait *
explain_wait_of(const struct analysis *a, uint32_t l)
{
	size_t i = vec_find_u32(a->waits, a->n_waits, sizeof *a->waits, l);
	return i < a->n_waits ? &a->waits[i] : NULL;
}

/* A lop's interval: its rank's work since its previous synchronisation
 * point, the longest lop of that work, and that point. */
struct interval {
	uint64_t work;
	uint32_t longest;          /* TRACE_NONE: no work */
	uint32_t sync;             /* TRACE_NONE: none since the rank's start */
};

/* Did lop l synchronise with another rank: wait, make another wait
 * (marked: a send waited for is a synchronisation point of its sender,
 * as in Scalasca), take part in a collective, or receive from another
 * rank? */
static int
synchronises(const struct analysis *a, uint32_t l, const struct bitset *marked)
{
	uint8_t k = a->lop_kind[l];
	if (k == OP_COMPUTE)
		return 0;
	if (k == OP_COLLECTIVE || bitset_test(marked, l))
		return 1;
	if (k != OP_RECV && k != OP_SENDRECV)
		return 0;
	uint32_t ne, tl = a->lop_tl[l];
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++)
		if (e[i].role == END_RECV && a->msgs[e[i].id].sender != tl)
			return 1;
	return 0;
}

/* The interval of every lop that waits or is waited for, in want[]
 * (sorted lops) order, from one pass over their timelines. */
static void
interval_pass(const struct analysis *a, const uint32_t *want, uint32_t n_want, const struct bitset *marked,
	      struct interval *out)
{
	uint32_t k = 0;
	while (k < n_want) {
		uint32_t tl = a->lop_tl[want[k]];
		struct interval cur = { 0, TRACE_NONE, TRACE_NONE };
		uint64_t longest = 0;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1] && k < n_want && a->lop_tl[want[k]] == tl;
		     l++) {
			while (k < n_want && want[k] == l)
				out[k++] = cur;
			if (synchronises(a, l, marked)) {
				cur = (struct interval){ 0, TRACE_NONE, l };
				longest = 0;
				continue;
			}
			uint64_t d = lop_duration(a, l);
			cur.work += d;
			if (cur.longest == TRACE_NONE || d > longest) {
				cur.longest = l;
				longest = d;
			}
		}
		while (k < n_want && a->lop_tl[want[k]] == tl)
			out[k++] = cur;            /* past the timeline's end: not reached */
	}
}

static int
cmp_u32(const void *x, const void *y)
{
	uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
	return p < q ? -1 : p > q;
}

static uint32_t
find_u32(const uint32_t *v, uint32_t n, uint32_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What a wait passes on: the delay's short-term share, the rest for the
 * previous wait of its cause's rank, and the fraction of what it
 * receives in turn that is the delay's. */
struct pass {
	uint32_t delay;            /* TRACE_NONE: no excess */
	uint32_t prev;             /* index into a->waits, or TRACE_NONE */
	double direct, onward;     /* ticks */
	double frac;               /* of the inflow, to the delay */
};

static int
later_exit(const void *ctx, uint32_t x, uint32_t y)
{
	const struct analysis *a = ctx;
	uint64_t ex = lop_exit(a, a->waits[x].lop), ey = lop_exit(a, a->waits[y].lop);
	if (ex != ey)
		return ex > ey ? -1 : 1;
	return a->waits[x].lop > a->waits[y].lop ? -1 : a->waits[x].lop < a->waits[y].lop;
}

static int
by_lop(const void *x, const void *y)
{
	const struct analysis_delay *p = x, *q = y;
	return p->lop < q->lop ? -1 : p->lop > q->lop;
}

int
explain_delays(struct analysis *a)
{
	uint32_t n = a->n_waits, n_want = 0;
	uint32_t *want = malloc(((size_t)2 * n + 1) * sizeof *want);
	struct bitset marked = { 0 };
	struct interval *iv = malloc(((size_t)2 * n + 1) * sizeof *iv);
	struct pass *pass = malloc(((size_t)n + 1) * sizeof *pass);
	uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
	double *inflow = calloc((size_t)n + 1, sizeof *inflow);
	struct analysis_delay *d = malloc(((size_t)n + 1) * sizeof *d);
	int rc = ERR_NOMEM;
	if (!want || !iv || !pass || !order || !inflow || !d || bitset_init(&marked, a->n_lops))
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		want[n_want++] = a->waits[i].lop;
		want[n_want++] = a->waits[i].cause_lop;
		bitset_set(&marked, a->waits[i].lop);
		bitset_set(&marked, a->waits[i].cause_lop);
	}
	qsort(want, n_want, sizeof *want, cmp_u32);
	uint32_t m = 0;
	for (uint32_t i = 0; i < n_want; i++)
		if (m == 0 || want[m - 1] != want[i])
			want[m++] = want[i];
	n_want = m;
	interval_pass(a, want, n_want, &marked, iv);
	for (uint32_t i = 0; i < n; i++) {
		const struct analysis_wait *w = &a->waits[i];
		const struct interval *iw = &iv[find_u32(want, n_want, w->lop)];
		const struct interval *id = &iv[find_u32(want, n_want, w->cause_lop)];
		double x = id->work > iw->work ? (double)(id->work - iw->work) : 0.0;
		const struct analysis_wait *q = id->sync == TRACE_NONE ? NULL : explain_wait_of(a, id->sync);
		double wd = q ? (double)q->time : 0.0, t = (double)w->time;
		double s = x + wd > 0 ? (t < x + wd ? t / (x + wd) : 1.0) : 0.0;
		pass[i] = (struct pass){ .delay = x > 0 ? id->longest : TRACE_NONE,
					 .prev = q ? (uint32_t)(q - a->waits) : TRACE_NONE,
					 .direct = s * x, .onward = s * wd,
					 .frac = x + wd > 0 ? x / (x + wd) : 0.0 };
		order[i] = i;
	}
	if ((rc = sort_ids(order, n, later_exit, a)))
		goto out;
	/* latest first: the short-term share, and the long-term one from
	 * what the later waits passed this one */
	uint32_t nd = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k];
		const struct pass *p = &pass[i];
		if (p->delay != TRACE_NONE)
			d[nd++] = (struct analysis_delay){
				.lop = p->delay, .waits = 1,
				.cost = (uint64_t)(p->direct + inflow[i] * p->frac + 0.5),
				.direct = (uint64_t)(p->direct + 0.5) };
		if (p->prev != TRACE_NONE)
			inflow[p->prev] += p->onward + inflow[i] * (1.0 - p->frac);
	}
	/* earliest first: each wait's root */
	for (uint32_t k = n; k-- > 0;) {
		uint32_t i = order[k];
		const struct pass *p = &pass[i];
		a->waits[i].root_lop = p->prev != TRACE_NONE && p->onward > p->direct
			? a->waits[p->prev].root_lop : p->delay;
	}
	/* one delay per lop; a delay whose share came to nothing is none */
	qsort(d, nd, sizeof *d, by_lop);
	m = 0;
	for (uint32_t i = 0; i < nd; i++) {
		if (m && d[m - 1].lop == d[i].lop) {
			d[m - 1].cost += d[i].cost;
			d[m - 1].direct += d[i].direct;
			d[m - 1].waits += d[i].waits;
		} else if (d[i].cost) {
			d[m++] = d[i];
		}
	}
	a->delays = d;
	a->n_delays = m;
	d = NULL;
	rc = 0;
out:
	bitset_fini(&marked);
	free(want);
	free(iv);
	free(pass);
	free(order);
	free(inflow);
	free(d);
	return rc;
}
