/* delay.c — the root causes of the wait states: Böhme et al.'s delay
 * analysis, as Scalasca computes it, on skein's operations
 * (doc/analysis.md, "Root causes").
 *
 * A wait of lop o (on rank W, time T) for lop c (on rank D) happened
 * because D reached c later than W reached o. Each rank's synchronisation
 * interval runs back from the lop to the last operation it synchronised
 * with the other rank (a message between them, or a collective): the
 * work there is its time less the time its wait states took. A call that
 * only sent to the other rank synchronised when it entered, so the time
 * it then waited for a third belongs to the interval. D's delay
 * is its excess, x = max(0, work_D - work_W), and w is the time D itself
 * waited in its interval: it may have reached c late because it was made
 * to wait. With s = min(T / (x + w), 1), the delay's short-term cost is
 * s x, given to the operation of D's interval that worked longest; s w
 * propagates to D's wait states there, in proportion to their times; what
 * x + w cannot explain stays unexplained, as in Scalasca. Long-term
 * costs: what later waits propagated to a wait, g, goes the same way,
 * g x / (x + w) to the delay and the rest to those wait states. Waits are
 * taken latest first (by the exit of the waiting lop, which is after
 * everything that caused it), so each has received every later share
 * before it passes its own on. A wait's root is its delay when that
 * explains more of it than the waits it propagates to, else the root of
 * the largest of those, followed earliest first.
 *
 * The waits are worked out on every core. An interval is bounded
 * (DELAY_MAX_LOPS lops back): on real traces a
 * rank meets its partner within a few operations; this bounds a
 * pathological trace. Collectives count as synchronising with every rank.
 */
#include "explain_impl.h"

#include "base/par.h"
#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>

/* Ticks from a sum in double, rounded, held below 2^64 (times from a
 * corrupt saved file can add up past it: the conversion would be
 * undefined). */
static uint64_t
ticks_of(double x)
{
	if (!(x > 0))
		return 0;
	return x < 0x1p64 - 4096 ? (uint64_t)(x + 0.5) : UINT64_MAX;
}

#define DELAY_MAX_LOPS 1024

const struct analysis_wait *
explain_wait_of(const struct analysis *a, uint32_t l)
{
	size_t i = vec_find_u32(a->waits, a->n_waits, sizeof *a->waits, l);
	return i < a->n_waits ? &a->waits[i] : NULL;
}

/* Did lop l synchronise with rank peer? SYNC_EXIT: it received from peer
 * or is a collective (synchronised when it left); SYNC_ENTER: it only
 * sent to peer (synchronised when it entered: what it waited for after,
 * for another rank, is in the interval that follows); else 0. */
enum { SYNC_ENTER = 1, SYNC_EXIT = 2 };

static int
synced_with(const struct analysis *a, const uint32_t *peer_of, uint32_t l, uint32_t peer)
{
	uint8_t k = a->lop_kind[l];
	if (k == OP_COMPUTE)
		return 0;
	if (k == OP_COLLECTIVE)
		return SYNC_EXIT;
	uint32_t ne;
	int how = 0;
	const struct trace_end *e = lop_ends(a, l, &ne);
	const uint32_t *pe = peer_of + (e - a->ends);
	for (uint32_t i = 0; i < ne; i++) {
		if (pe[i] != peer)
			continue;
		if (e[i].role == END_RECV)
			return SYNC_EXIT;
		if (e[i].role == END_SEND)
			how = SYNC_ENTER;
	}
	return how;
}

/* Each end's peer, read once in end order: the sender of a receive, the
 * receiver of a send, TRACE_NONE for the others (the intervals read
 * them again and again, at random messages otherwise). */
static uint32_t *
end_peers(const struct analysis *a)
{
	uint32_t *p = malloc(((size_t)a->n_ends + 1) * sizeof *p);
	for (uint32_t i = 0; p && i < a->n_ends; i++) {
		const struct trace_end *e = &a->ends[i];
		p[i] = e->role == END_RECV ? a->msgs[e->id].sender
			: e->role == END_SEND ? a->msgs[e->id].receiver : TRACE_NONE;
	}
	return p;
}

/* A synchronisation interval: the work since the last synchronisation
 * with the partner, the time waited there and in which waits, and the
 * lop that worked longest. */
struct interval {
	uint64_t work, waited;
	uint32_t longest;          /* TRACE_NONE: no work */
	uint32_t first_wait;       /* into the list of waits passed to */
	uint32_t n_waits;
};

struct targets {
	uint32_t *v;               /* indices into a->waits */
	size_t n, cap;
};

/* The index of the first wait whose lop is at least l (a->n_waits: none). */
static uint32_t
wait_at_or_after(const struct analysis *a, uint32_t l)
{
	uint32_t lo = 0, hi = a->n_waits;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (a->waits[mid].lop < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The interval of lop l (on its timeline, back from the lop before it)
 * with rank peer; its waits appended to t when t is not NULL. The waits
 * are walked back beside the lops (a->waits is in lop order). */
static int
interval_of(const struct analysis *a, const uint32_t *peer_of, uint32_t l, uint32_t peer, struct interval *iv,
	    struct targets *t)
{
	uint32_t first = a->tl_lop[a->lop_tl[l]], wi = wait_at_or_after(a, l);
	uint64_t best = 0;
	*iv = (struct interval){ .longest = TRACE_NONE, .first_wait = t ? (uint32_t)t->n : 0 };
	for (uint32_t k = l, n = 0; k > first && n < DELAY_MAX_LOPS; n++) {
		uint32_t p = --k;
		while (wi > 0 && a->waits[wi - 1].lop > p)
			wi--;
		const struct analysis_wait *w = wi > 0 && a->waits[wi - 1].lop == p ? &a->waits[wi - 1] : NULL;
		int how = synced_with(a, peer_of, p, peer);
		if (how == SYNC_EXIT)
			break;
		uint64_t d = lop_duration(a, p), wt = 0;
		if (w) {
			wt = w->time < d ? w->time : d;
			iv->waited += wt;
			if (t) {
				if (VEC_GROW(t->v, t->n, t->cap))
					return ERR_NOMEM;
				t->v[t->n++] = (uint32_t)(w - a->waits);
				iv->n_waits++;
			}
		}
		if (how == SYNC_ENTER)
			break;             /* its wait came after it synchronised */
		iv->work += d - wt;
		if (d - wt > best) {
			best = d - wt;
			iv->longest = p;
		}
	}
	return 0;
}

/* What a wait passes on. */
struct pass {
	uint32_t delay;            /* TRACE_NONE: no excess */
	uint32_t first, n;         /* its targets: the waits it propagates to */
	uint32_t w;                /* in the target list of worker w */
	double direct, onward;     /* ticks: the delay's share, the waits' */
	double frac;               /* of its inflow, to the delay */
	double waited;             /* the targets' time, the weights' sum */
};

/* A wait by the exit of its lop, for the order latest first. */
struct by_exit {
	uint64_t exit;
	uint32_t lop, i;
};

/* The passes worked out on every core: pieces of the waits, each
 * worker's targets in a list of its own. */
struct passing {
	struct analysis *a;
	const uint32_t *peer_of;
	struct pass *pass;
	struct by_exit *ex;
	struct par_pieces pieces;
	struct targets t[PAR_MAX];
};

static int
pass_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	struct passing *g = ctx;
	const struct analysis *a = g->a;
	uint32_t c, n = a->n_waits;
	(void)nw;
	while (par_take(&g->pieces, wk, &c)) {
		uint32_t i0, i1;
		par_share(n, c, g->pieces.n, &i0, &i1);
		for (uint32_t i = i0; i < i1; i++) {
			const struct analysis_wait *w = &a->waits[i];
			uint32_t W = a->lop_tl[w->lop], D = a->lop_tl[w->cause_lop];
			struct interval iw, id;
			int rc = interval_of(a, g->peer_of, w->lop, D, &iw, NULL);
			if (!rc)
				rc = interval_of(a, g->peer_of, w->cause_lop, W, &id, &g->t[wk]);
			if (rc)
				return rc;
			double x = id.work > iw.work ? (double)(id.work - iw.work) : 0.0, wd = (double)id.waited;
			double T = (double)w->time, s = x + wd > 0 ? (T < x + wd ? T / (x + wd) : 1.0) : 0.0;
			g->pass[i] = (struct pass){ .delay = x > 0 ? id.longest : TRACE_NONE, .first = id.first_wait,
						    .n = id.n_waits, .w = wk, .direct = s * x, .onward = s * wd,
						    .frac = x + wd > 0 ? x / (x + wd) : 0.0, .waited = wd };
			g->ex[i] = (struct by_exit){ lop_exit(a, w->lop), w->lop, i };
		}
	}
	return 0;
}

/* The delays in lop order, those of one lop in the order found: a stable
 * radix sort by lop, then the records moved (*d replaced). */
static int
sort_by_lop(struct analysis_delay **d, uint32_t n)
{
	struct sort_kv *kv = malloc(((size_t)n + 1) * sizeof *kv);
	struct analysis_delay *s = malloc(((size_t)n + 1) * sizeof *s);
	int rc = kv && s ? 0 : ERR_NOMEM;
	for (uint32_t i = 0; i < n && !rc; i++)
		kv[i] = (struct sort_kv){ (*d)[i].lop, i };
	if (!rc)
		rc = sort_keyed(kv, n);
	for (uint32_t i = 0; i < n && !rc; i++)
		s[i] = (*d)[kv[i].id];
	free(kv);
	if (rc) {
		free(s);
		return rc;
	}
	free(*d);
	*d = s;
	return 0;
}

int
explain_delays(struct analysis *a)
{
	uint32_t n = a->n_waits;
	struct pass *pass = malloc(((size_t)n + 1) * sizeof *pass);
	uint32_t *order = malloc(((size_t)n + 1) * sizeof *order);
	struct by_exit *ex = malloc(((size_t)n + 1) * sizeof *ex);
	double *inflow = calloc((size_t)n + 1, sizeof *inflow);
	struct analysis_delay *d = malloc(((size_t)n + 1) * sizeof *d);
	uint32_t *peers = end_peers(a);
	struct passing g = { .a = a, .peer_of = peers, .pass = pass, .ex = ex };
	int rc = ERR_NOMEM;
	if (!pass || !order || !ex || !inflow || !d || !peers)
		goto out;
	uint32_t nw = par_workers();
	par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
	if ((rc = par_run(nw, pass_worker, &g)))
		goto out;
	rc = ERR_NOMEM;
	/* latest exit first, then the later lop: two stable radix passes,
	 * the minor key first (qsort took a third of this stage) */
	struct sort_kv *kv = malloc(((size_t)n + 1) * sizeof *kv);
	if (!kv)
		goto out;
	for (uint32_t k = 0; k < n; k++)
		kv[k] = (struct sort_kv){ UINT32_MAX - ex[k].lop, k };
	int sorted = sort_keyed(kv, n) == 0;
	for (uint32_t k = 0; k < n && sorted; k++)
		kv[k].key = UINT64_MAX - ex[kv[k].id].exit;
	sorted = sorted && sort_keyed(kv, n) == 0;
	for (uint32_t k = 0; k < n && sorted; k++)
		order[k] = ex[kv[k].id].i;
	free(kv);
	if (!sorted)
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
				.cost = ticks_of(p->direct + inflow[i] * p->frac),
				.direct = ticks_of(p->direct) };
		double on = p->onward + inflow[i] * (1.0 - p->frac);
		for (uint32_t j = 0; j < p->n && p->waited > 0; j++) {
			uint32_t q = g.t[p->w].v[p->first + j];
			inflow[q] += on * (double)a->waits[q].time / p->waited;
		}
	}
	/* earliest first: each wait's root */
	for (uint32_t k = n; k-- > 0;) {
		uint32_t i = order[k];
		const struct pass *p = &pass[i];
		uint32_t big = TRACE_NONE;
		for (uint32_t j = 0; j < p->n; j++) {
			uint32_t q = g.t[p->w].v[p->first + j];
			if (big == TRACE_NONE || a->waits[q].time > a->waits[big].time)
				big = q;
		}
		uint32_t via = big != TRACE_NONE && p->onward > p->direct ? a->waits[big].root_lop : TRACE_NONE;
		a->waits[i].root_lop = via != TRACE_NONE ? via : p->delay;
	}
	/* one delay per lop; a delay whose share came to nothing is none */
	if (sort_by_lop(&d, nd))
		goto out;
	uint32_t m = 0;
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
	free(peers);
	free(pass);
	free(order);
	free(ex);
	free(inflow);
	free(d);
	for (uint32_t w = 0; w < PAR_MAX; w++)
		free(g.t[w].v);
	return rc;
}
