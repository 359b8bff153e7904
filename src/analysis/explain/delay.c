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
#include "base/recycle.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

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

/* Each end's peer: the sender of a receive, the receiver of a send,
 * TRACE_NONE for the others. */
static uint32_t
peer_of_end(const struct analysis *a, const struct trace_end *e)
{
	return e->role == END_RECV ? a->msgs[e->id].sender
		: e->role == END_SEND ? a->msgs[e->id].receiver : TRACE_NONE;
}

/* A byte of a peer, kept per end: the intervals read every end of every
 * lop they walk, and reading each end's message at random cost more than
 * the rest of the walk. Only an end whose byte is the peer's reads its
 * message, to be sure (one end an interval, where it ends, and a 255th of
 * the others); a byte instead of the peer itself keeps the table at a
 * quarter of the size, which was the explanations' peak (4 bytes an end:
 * 13 MB at 10^7 events). */
static uint8_t
peer_byte(uint32_t peer)
{
	return (uint8_t)(peer ^ peer >> 8 ^ peer >> 16 ^ peer >> 24);
}

/* Did lop l synchronise with rank peer? SYNC_EXIT: it received from peer
 * or is a collective (synchronised when it left); SYNC_ENTER: it only
 * sent to peer (synchronised when it entered: what it waited for after,
 * for another rank, is in the interval that follows); else 0. */
enum { SYNC_ENTER = 1, SYNC_EXIT = 2 };

static int
synced_with(const struct analysis *a, const uint8_t *peer_bytes, uint32_t l, uint32_t peer)
{
	uint8_t k = a->lop_kind[l];
	if (k == OP_COMPUTE)
		return 0;
	if (k == OP_COLLECTIVE)
		return SYNC_EXIT;
	uint32_t ne;
	int how = 0;
	uint8_t b = peer_byte(peer);
	const struct trace_end *e = lop_ends(a, l, &ne);
	const uint8_t *pb = peer_bytes + (e - a->ends);
	for (uint32_t i = 0; i < ne; i++) {
		if (pb[i] != b || peer_of_end(a, &e[i]) != peer)
			continue;
		if (e[i].role == END_RECV)
			return SYNC_EXIT;
		if (e[i].role == END_SEND)
			how = SYNC_ENTER;
	}
	return how;
}

/* The ends' peer bytes, in end order, on every core (the messages are
 * read at random). */
struct peering {
	const struct analysis *a;
	uint8_t *p;
};

static int
peers_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	const struct peering *g = ctx;
	const struct analysis *a = g->a;
	uint32_t i0, i1;
	par_share(a->n_ends, wk, nw, &i0, &i1);
	for (uint32_t i = i0; i < i1; i++)
		g->p[i] = peer_byte(peer_of_end(a, &a->ends[i]));
	return 0;
}

static uint8_t *
end_peers(const struct analysis *a)
{
	struct peering g = { a, recycle_malloc((size_t)a->n_ends + 1) };
	if (g.p)
		par_run(par_workers(), peers_worker, &g);
	return g.p;
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

/* A set of lops (or of waits) with each one's rank in it: a bit a
 * member of [0, n), and the members before each word of 64. A lookup is
 * two reads from 2 bits an item. It says which lops wait and where their
 * waits are (a->waits is in lop order), where a binary search over the
 * waits missed the cache at every step, numbers the delays' records in
 * lop order and places the inflows of the waits that receive any. */
struct lop_set {
	uint64_t *bits;
	uint32_t *before;
	size_t nw;
};

static int
lop_set_init(uint32_t n, struct lop_set *ix)
{
	ix->nw = ((size_t)n + 63) / 64 + 1;
	ix->bits = calloc(ix->nw, sizeof *ix->bits);
	ix->before = malloc(ix->nw * sizeof *ix->before);
	return ix->bits && ix->before ? 0 : ERR_NOMEM;
}

static void
lop_set_add(struct lop_set *ix, uint32_t l)
{
	ix->bits[l / 64] |= UINT64_C(1) << (l % 64);
}

/* Once every member is in: the counts; returns how many. */
static uint32_t
lop_set_count(struct lop_set *ix)
{
	uint32_t n = 0;
	for (size_t k = 0; k < ix->nw; k++) {
		ix->before[k] = n;
		n += (uint32_t)__builtin_popcountll(ix->bits[k]);
	}
	return n;
}

/* Lop l's rank among the members, or TRACE_NONE when it is not one. */
static uint32_t
lop_set_rank(const struct lop_set *ix, uint32_t l)
{
	uint64_t word = ix->bits[l / 64], bit = UINT64_C(1) << (l % 64);
	return word & bit ? ix->before[l / 64] + (uint32_t)__builtin_popcountll(word & (bit - 1)) : TRACE_NONE;
}

static void
lop_set_free(struct lop_set *ix)
{
	free(ix->bits);
	free(ix->before);
	*ix = (struct lop_set){ 0 };
}

static int
wait_index_build(const struct analysis *a, struct lop_set *ix)
{
	if (lop_set_init(a->n_lops, ix))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < a->n_waits; i++)
		lop_set_add(ix, a->waits[i].lop);
	lop_set_count(ix);
	return 0;
}

/* The wait of lop l, or NULL. */
static const struct analysis_wait *
wait_at(const struct analysis *a, const struct lop_set *ix, uint32_t l)
{
	uint32_t k = lop_set_rank(ix, l);
	return k == TRACE_NONE ? NULL : &a->waits[k];
}

/* The interval of lop l (on its timeline, back from the lop before it)
 * with rank peer; its waits appended to t when t is not NULL. The waits
 * are found in the index. */
static int
interval_of(const struct analysis *a, const struct lop_set *ix, const uint8_t *peer_bytes, uint32_t l,
	    uint32_t peer, struct interval *iv, struct targets *t)
{
	uint32_t first = a->tl_lop[a->lop_tl[l]];
	uint64_t best = 0;
	*iv = (struct interval){ .longest = TRACE_NONE, .first_wait = t ? (uint32_t)t->n : 0 };
	for (uint32_t k = l, n = 0; k > first && n < DELAY_MAX_LOPS; n++) {
		uint32_t p = --k;
		const struct analysis_wait *w = wait_at(a, ix, p);
		int how = synced_with(a, peer_bytes, p, peer);
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

/* What a wait passes on: its delay's excess x and the time its cause
 * waited in its interval, wd (ticks); the shares follow from them and
 * the wait's time (shares_of). 16 bytes a wait, the stage's largest
 * array: x and wd in 32 bits (PASS_BIG: both in the list of large
 * ones), and the targets found from where they start in the list of
 * the worker that took the wait's piece (the pieces' table says which
 * worker, and where the piece's last wait's targets end). */
struct pass {
	uint32_t delay;            /* its lop, then its record (delays_number);
	                            * TRACE_NONE: no excess */
	uint32_t first;            /* its targets, the waits it propagates to */
	uint32_t x, wd;
};

#define PASS_BIG UINT32_MAX

/* A wait whose x or wd does not fit in 32 bits. */
struct pass_big {
	uint32_t wait;
	uint64_t x, wd;
};

struct bigs {
	struct pass_big *v;
	size_t n, cap;
};

struct shares {
	double direct, onward;     /* ticks: the delay's share, the waits' */
	double frac;               /* of its inflow, to the delay */
};

static struct shares
shares_of(double x, double wd, uint64_t time)
{
	double T = (double)time, s = x + wd > 0 ? (T < x + wd ? T / (x + wd) : 1.0) : 0.0;
	return (struct shares){ .direct = s * x, .onward = s * wd, .frac = x + wd > 0 ? x / (x + wd) : 0.0 };
}

/* The passes worked out on every core: pieces of the waits, each
 * worker's targets in a list of its own; for each piece, the worker
 * that took it and the end of its targets in that worker's list. */
struct passing {
	struct analysis *a;
	const uint8_t *peer_bytes;
	struct lop_set ix;
	struct pass *pass;
	struct par_pieces pieces;
	struct targets t[PAR_MAX];
	struct bigs big[PAR_MAX];  /* then all of them in big[0], by wait */
	uint8_t piece_w[PAR_PIECES_MAX];
	uint32_t piece_end[PAR_PIECES_MAX];
};

/* The piece wait i is in, and its waits' end. */
static uint32_t
piece_of(const struct passing *g, uint32_t i, uint32_t *i1)
{
	uint32_t n = g->a->n_waits, np = g->pieces.n, c = (uint32_t)((uint64_t)i * np / n), lo, hi;
	for (;;) {
		par_share(n, c, np, &lo, &hi);
		if (i < lo)
			c--;
		else if (i >= hi)
			c++;
		else
			break;
	}
	*i1 = hi;
	return c;
}

/* Wait i's targets, *cnt of them. */
static const uint32_t *
targets_of(const struct passing *g, uint32_t i, uint32_t *cnt)
{
	uint32_t i1, c = piece_of(g, i, &i1);
	uint32_t end = i + 1 < i1 ? g->pass[i + 1].first : g->piece_end[c];
	*cnt = end - g->pass[i].first;
	return g->t[g->piece_w[c]].v + g->pass[i].first;
}

static int
big_cmp(const void *x, const void *y)
{
	const struct pass_big *p = x, *q = y;
	return (p->wait > q->wait) - (p->wait < q->wait);
}

/* Wait i's x and wd, as doubles. */
static void
pass_xw(const struct passing *g, uint32_t i, double *x, double *wd)
{
	const struct pass *p = &g->pass[i];
	if (p->x != PASS_BIG && p->wd != PASS_BIG) {
		*x = (double)p->x;
		*wd = (double)p->wd;
		return;
	}
	struct pass_big key = { .wait = i };
	const struct pass_big *b = bsearch(&key, g->big[0].v, g->big[0].n, sizeof key, big_cmp);
	*x = (double)b->x;
	*wd = (double)b->wd;
}

/* The large ones of every worker in one list, by wait. */
static int
bigs_join(struct passing *g)
{
	for (uint32_t w = 1; w < PAR_MAX; w++) {
		struct bigs *b = &g->big[w];
		for (size_t k = 0; k < b->n; k++) {
			if (VEC_GROW(g->big[0].v, g->big[0].n, g->big[0].cap))
				return ERR_NOMEM;
			g->big[0].v[g->big[0].n++] = b->v[k];
		}
		free(b->v);
		*b = (struct bigs){ 0 };
	}
	if (g->big[0].n)
		qsort(g->big[0].v, g->big[0].n, sizeof *g->big[0].v, big_cmp);
	return 0;
}

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
			/* the causes are anywhere: their lops' arrays asked for
			 * well ahead, then their calls */
			if (i + 32 < n)
				analysis_lop_prefetch(a, a->waits[i + 32].cause_lop - 1, 0);
			if (i + 8 < n)
				analysis_lop_prefetch(a, a->waits[i + 8].cause_lop - 1, 1);
			const struct analysis_wait *w = &a->waits[i];
			uint32_t W = a->lop_tl[w->lop], D = a->lop_tl[w->cause_lop];
			struct interval iw, id;
			int rc = interval_of(a, &g->ix, g->peer_bytes, w->lop, D, &iw, NULL);
			if (!rc)
				rc = interval_of(a, &g->ix, g->peer_bytes, w->cause_lop, W, &id, &g->t[wk]);
			if (rc)
				return rc;
			uint64_t x = id.work > iw.work ? id.work - iw.work : 0;
			struct pass *p = &g->pass[i];
			*p = (struct pass){ .delay = x ? id.longest : TRACE_NONE, .first = id.first_wait,
					    .x = (uint32_t)x, .wd = (uint32_t)id.waited };
			if (x >= PASS_BIG || id.waited >= PASS_BIG) {
				struct bigs *b = &g->big[wk];
				if (VEC_GROW(b->v, b->n, b->cap))
					return ERR_NOMEM;
				b->v[b->n++] = (struct pass_big){ i, x, id.waited };
				p->x = p->wd = PASS_BIG;
			}
		}
		g->piece_w[c] = (uint8_t)wk;
		g->piece_end[c] = (uint32_t)g->t[wk].n;
	}
	return 0;
}

/* The delays, one record per delaying lop, in lop order: each wait's
 * pass names its record (pass.delay becomes its rank among the delaying
 * lops). A record opens at its lop's first share that came to
 * something, taken latest first, and counts the shares after (waits 0:
 * not open); the open ones are a->delays. (A slot per lop, 4 bytes a
 * lop, and a list grown as delays opened were once this stage's peak;
 * then a sort of the waits by delay, 32 bytes a wait.) */
static int
delays_number(struct analysis *a, struct pass *pass, struct analysis_delay **out, uint32_t *n_out)
{
	uint32_t n = a->n_waits;
	struct lop_set ds;
	struct analysis_delay *v = NULL;
	if (!lop_set_init(a->n_lops, &ds)) {
		for (uint32_t i = 0; i < n; i++)
			if (pass[i].delay != TRACE_NONE)
				lop_set_add(&ds, pass[i].delay);
		*n_out = lop_set_count(&ds);
		v = recycle_calloc((size_t)*n_out + 1, sizeof *v);
	}
	for (uint32_t i = 0; v && i < n; i++) {
		if (pass[i].delay == TRACE_NONE)
			continue;
		uint32_t k = lop_set_rank(&ds, pass[i].delay);
		v[k].lop = pass[i].delay;
		pass[i].delay = k;
	}
	lop_set_free(&ds);
	*out = v;
	return v ? 0 : ERR_NOMEM;
}

/* The waits by exit, latest first and the later wait first among equal
 * exits: the order in which they pass their shares on. The waits are in
 * lop order, so they fall into runs whose exits do not fall (a
 * timeline's, where its clock runs forwards), which a heap of the runs'
 * heads merges. Each wait's exit is read once, in wait order, and kept
 * as its step from the wait before in its run (RUN_START: the first of
 * a run; STEP_FAR: a step past 32 bits, its exit read again when the
 * merge comes to it): 4 bytes a wait beside the order, freed before the
 * records are numbered, and the heap's 16 a run, where the exits
 * themselves took 8 and the radix sort by exit 36 (its keys, their
 * sorted copy and the order). A run is a timeline's waits where its
 * lops are in time order; reordered lops (--reorder) make shorter ones,
 * 24 bytes a wait at worst. Reading every exit from the operations in
 * the merge's order instead (one stream a run) made the stage a third
 * slower. */
struct head {
	uint64_t exit;
	uint32_t at, lo;           /* the run's next wait, at, and its first */
};

#define RUN_START UINT32_MAX
#define STEP_FAR (UINT32_MAX - 1)

static int
head_first(const struct head *x, const struct head *y)
{
	return x->exit != y->exit ? x->exit > y->exit : x->at > y->at;
}

static void
heap_down(struct head *h, uint32_t n, uint32_t k)
{
	for (;;) {
		uint32_t c = 2 * k + 1, best = k;
		if (c < n && head_first(&h[c], &h[best]))
			best = c;
		if (c + 1 < n && head_first(&h[c + 1], &h[best]))
			best = c + 1;
		if (best == k)
			return;
		struct head x = h[k];
		h[k] = h[best];
		h[best] = x;
		k = best;
	}
}

/* The waits' steps, read on every core (each exit a call's record). */
struct stepping {
	const struct analysis *a;
	uint32_t *step;
};

static int
steps_worker(void *ctx, uint32_t wk, uint32_t nw)
{
	const struct stepping *g = ctx;
	const struct analysis *a = g->a;
	uint32_t i0, i1;
	par_share(a->n_waits, wk, nw, &i0, &i1);
	uint64_t prev = i0 > 0 && i0 < i1 ? lop_exit(a, a->waits[i0 - 1].lop) : 0;
	for (uint32_t i = i0; i < i1; i++) {
		uint64_t e = lop_exit(a, a->waits[i].lop);
		g->step[i] = i == 0 || e < prev ? RUN_START : e - prev < STEP_FAR ? (uint32_t)(e - prev) : STEP_FAR;
		prev = e;
	}
	return 0;
}

static int
by_exit(const struct analysis *a, uint32_t *order)
{
	uint32_t n = a->n_waits, nh = 0;
	size_t sz = ((size_t)n + 1) * sizeof(uint32_t), cap = 0;
	uint32_t *step = recycle_malloc(sz);
	struct head *h = NULL;
	int rc = step ? 0 : ERR_NOMEM;
	if (!rc)
		par_run(par_workers(), steps_worker, &(struct stepping){ a, step });
	/* a run's head is its last wait, its exit read again */
	for (uint32_t i = 1; !rc && i <= n; i++) {
		if (i < n && step[i] != RUN_START)
			continue;
		if (VEC_GROW(h, nh, cap))
			rc = ERR_NOMEM;
		else
			h[nh++] = (struct head){ lop_exit(a, a->waits[i - 1].lop), i - 1, 0 };
	}
	if (!rc && n) {
		for (uint32_t r = 1; r < nh; r++)
			h[r].lo = h[r - 1].at + 1;
		for (uint32_t k = nh / 2; k-- > 0;)
			heap_down(h, nh, k);
	}
	for (uint32_t k = 0; !rc && nh; k++) {
		order[k] = h[0].at;
		if (h[0].at > h[0].lo) {
			uint32_t d = step[h[0].at--];
			h[0].exit = d != STEP_FAR ? h[0].exit - d : lop_exit(a, a->waits[h[0].at].lop);
		} else {
			h[0] = h[--nh];
		}
		heap_down(h, nh, 0);
	}
	recycle_free(step, sz);
	free(h);
	return rc;
}

static void
delay_add(struct analysis_delay *d, uint64_t cost, uint64_t direct)
{
	if (!d->waits && !cost)
		return;
	d->cost += cost;
	d->direct += direct;
	d->waits++;
}

/* The open records, in order, into a->delays. */
static void
delays_done(struct analysis *a, struct analysis_delay *v, uint32_t nd)
{
	uint32_t m = 0;
	for (uint32_t k = 0; k < nd; k++)
		if (v[k].waits)
			v[m++] = v[k];
	struct analysis_delay *w = realloc(v, ((size_t)m + 1) * sizeof *v);
	a->delays = w ? w : v;
	a->n_delays = m;
}

/* The waits that are targets, whose inflows are kept (the others
 * receive none: 0, as in a zeroed array of every wait's). */
static int
targeted(const struct passing *g, struct lop_set *ts, uint32_t *n_out)
{
	if (lop_set_init(g->a->n_waits, ts))
		return ERR_NOMEM;
	for (uint32_t w = 0; w < PAR_MAX; w++)
		for (size_t k = 0; k < g->t[w].n; k++)
			lop_set_add(ts, g->t[w].v[k]);
	*n_out = lop_set_count(ts);
	return 0;
}

int
explain_delays(struct analysis *a)
{
	uint32_t n = a->n_waits, nt = 0;
	size_t sz_order = ((size_t)n + 1) * sizeof(uint32_t), sz_pass = ((size_t)n + 1) * sizeof(struct pass),
	       sz_inflow = 0;
	/* the passes first, with the peers and the index; then the order
	 * (its exits, 8 bytes a wait, freed before the records are
	 * numbered); the inflows last, only the targets' */
	uint32_t *order = NULL;
	struct pass *pass = NULL;
	double *inflow = NULL;
	uint8_t *peers = NULL;
	struct lop_set ts = { 0 };
	struct passing g = { .a = a };
	int rc = ERR_NOMEM;
	if (!(peers = end_peers(a)) || !(pass = recycle_malloc(sz_pass)) || wait_index_build(a, &g.ix))
		goto out;
	g.peer_bytes = peers;
	g.pass = pass;
	uint32_t nw = par_workers();
	par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
	if ((rc = par_run(nw, pass_worker, &g)))
		goto out;
	free(peers);        /* unmapped: nothing after takes that many pages */
	peers = NULL;
	lop_set_free(&g.ix);
	rc = ERR_NOMEM;
	struct analysis_delay *dv = NULL;
	uint32_t nd = 0;
	if (!(order = recycle_malloc(sz_order)) || by_exit(a, order) || bigs_join(&g) ||
	    delays_number(a, pass, &dv, &nd))
		goto out;
	if (targeted(&g, &ts, &nt) || !(inflow = recycle_calloc((size_t)nt + 1, sizeof *inflow))) {
		free(dv);
		goto out;
	}
	sz_inflow = ((size_t)nt + 1) * sizeof *inflow;
	/* latest first: the short-term share, and the long-term one from
	 * what the later waits passed this one */
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = order[k], c, r = lop_set_rank(&ts, i);
		const struct pass *p = &pass[i];
		double x, wd, in = r != TRACE_NONE ? inflow[r] : 0.0;
		pass_xw(&g, i, &x, &wd);
		struct shares sh = shares_of(x, wd, a->waits[i].time);
		if (p->delay != TRACE_NONE)
			delay_add(&dv[p->delay], ticks_of(sh.direct + in * sh.frac), ticks_of(sh.direct));
		double on = sh.onward + in * (1.0 - sh.frac);
		const uint32_t *t = targets_of(&g, i, &c);
		for (uint32_t j = 0; j < c && wd > 0; j++) {
			uint32_t q = t[j];
			inflow[lop_set_rank(&ts, q)] += on * (double)a->waits[q].time / wd;
		}
	}
	/* earliest first: each wait's root (a delay's lop from its record) */
	for (uint32_t k = n; k-- > 0;) {
		uint32_t i = order[k], c;
		const struct pass *p = &pass[i];
		double x, wd;
		pass_xw(&g, i, &x, &wd);
		struct shares sh = shares_of(x, wd, a->waits[i].time);
		uint32_t big = TRACE_NONE;
		const uint32_t *t = targets_of(&g, i, &c);
		for (uint32_t j = 0; j < c; j++) {
			uint32_t q = t[j];
			if (big == TRACE_NONE || a->waits[q].time > a->waits[big].time)
				big = q;
		}
		uint32_t via = big != TRACE_NONE && sh.onward > sh.direct ? a->waits[big].root_lop : TRACE_NONE;
		a->waits[i].root_lop = via != TRACE_NONE ? via : p->delay != TRACE_NONE ? dv[p->delay].lop : TRACE_NONE;
	}
	delays_done(a, dv, nd);
	rc = 0;
out:
	lop_set_free(&g.ix);
	lop_set_free(&ts);
	free(peers);
	recycle_free(pass, sz_pass);
	recycle_free(order, sz_order);
	recycle_free(inflow, sz_inflow);
	for (uint32_t w = 0; w < PAR_MAX; w++) {
		free(g.t[w].v);
		free(g.big[w].v);
	}
	return rc;
}
