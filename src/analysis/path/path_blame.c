/* path_blame.c — each region's blame (path.h): the waiting its time
 * caused, given to the regions that time went to.
 *
 * What made a place late is what it spent more time in than the place
 * that waited for it, since the two last met (Scalasca spreads a delay
 * over the call paths in proportion to their excess): a delay's cost
 * (explain.h) goes to the regions of its operation that took longer than
 * in the same step's operation of the rank that waited, an OpenMP
 * barrier's wait (hybrid.h) to the regions of the last thread that took
 * longer than in the waiting thread's since the team last met (the
 * fork's latency as idle), each region's share over its time there.
 * Without such a reference, or where nothing took longer, a delay's cost
 * is spread over its operation's time. A device wait's time goes to what
 * the stream ran while the host waited (the kernel, its idle time in
 * between); a lock's and a taskwait's to the holder's region, the task.
 * Time a place spent in a lane wait of its own is no work of its own:
 * the share that falls on it is handed on to what that wait waited for,
 * a few hops at most. So no region takes more blame than its own
 * exclusive time in the stretches that made others wait. */
#include "path_impl.h"

#include "base/sort.h"
#include "base/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Hops a share is handed on over lane waits (a thread late because it
 * waited for another, ...); past them it stays where it is. */
#define BLAME_HOPS 16

/* An amount of blame to give [lo, hi) of a place, evenly (`share`s, to
 * be cut at the place's lane waits), or each tick of it weighing w
 * (`piece`s, the place's own). */
struct share {
	uint64_t lo, hi;
	double amount;
	uint32_t place, hops;
};
struct piece {
	uint64_t lo, hi;
	double w;
	uint32_t place;
};

struct blame {
	const struct analysis *a;
	const struct hybrid *h;
	uint32_t n_regions, n_tl;
	uint32_t *wait_first;     /* place p's lane waits: [wait_first[p], wait_first[p + 1]) */
	uint64_t *reach;          /* the latest end of a place's waits up to each */
	struct share *todo;
	struct piece *done;
	size_t n_todo, cap_todo, n_done, cap_done;
	double *extra;            /* per slot: blame outside the timelines' profile */
	/* per slot: a stretch's and its reference's time, the slots touched */
	double *mine, *theirs, *weight;
	uint32_t *touched, n_touched;
	uint8_t *seen;
	uint32_t *ref;            /* per delay: its reference lop, or TRACE_NONE */
};

/* The region a lop's time counts for where it has no time to spread: its
 * call's, or for computation the innermost user region around it. */
static uint32_t
lop_region(const struct analysis *a, uint32_t l)
{
	struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
	if (o.region != TRACE_NONE)
		return o.region;
	if (o.frame == TRACE_NONE)
		return TRACE_NONE;
	uint32_t nf;
	return trace_frames(a->t, &nf)[o.frame].region;
}

static int
give(struct blame *b, struct share x)
{
	if (x.hi <= x.lo || !(x.amount > 0))
		return 0;
	if (VEC_GROW(b->todo, b->n_todo, b->cap_todo))
		return ERR_NOMEM;
	b->todo[b->n_todo++] = x;
	return 0;
}

static int
keep(struct blame *b, struct piece x)
{
	if (x.hi <= x.lo || !(x.w > 0))
		return 0;
	if (VEC_GROW(b->done, b->n_done, b->cap_done))
		return ERR_NOMEM;
	b->done[b->n_done++] = x;
	return 0;
}

/* A place's slot for time in no frame: a lane idle, a rank outside every
 * user region. */
static uint32_t
no_frame(const struct blame *b, uint32_t place)
{
	return path_slot(place < b->n_tl ? TRACE_NONE : PATH_REGION_IDLE, b->n_regions);
}

/* ---- by excess ---- */

struct tally {
	struct blame *b;
	double *into;
};

static void
tally_add(void *ctx, uint32_t region, int64_t ticks)
{
	struct tally *y = ctx;
	uint32_t s = path_slot(region, y->b->n_regions);
	if (!y->b->seen[s]) {
		y->b->seen[s] = 1;
		y->b->touched[y->b->n_touched++] = s;
	}
	y->into[s] += (double)ticks;
}

static void
tally(struct blame *b, uint32_t place, uint64_t lo, uint64_t hi, double *into)
{
	struct tally y = { b, into };
	uint64_t none = hybrid_stretch(b->a->t, b->h, place, lo, hi, tally_add, &y);
	uint32_t s = no_frame(b, place);
	if (!b->seen[s]) {
		b->seen[s] = 1;
		b->touched[b->n_touched++] = s;
	}
	into[s] += (double)none;
}

struct runs {
	struct blame *b;
	uint32_t place, hops;
	int rc;
};

static void
run_give(void *ctx, uint64_t lo, uint64_t hi, uint32_t region)
{
	struct runs *r = ctx;
	uint32_t s = region == TRACE_NONE ? no_frame(r->b, r->place) : path_slot(region, r->b->n_regions);
	if (!r->rc && r->b->weight[s] > 0)
		r->rc = give(r->b, (struct share){ lo, hi, r->b->weight[s] * (double)(hi - lo), r->place, r->hops });
}

/* `amount` to [lo, hi) of place, each region's part in proportion to
 * how much longer it took there than in [ref_lo, ref_hi) of ref, over
 * its time; evenly when nothing took longer. */
static int
by_excess(struct blame *b, uint32_t place, uint64_t lo, uint64_t hi, uint32_t ref, uint64_t ref_lo,
	  uint64_t ref_hi, double amount, uint32_t hops)
{
	b->n_touched = 0;
	tally(b, place, lo, hi, b->mine);
	tally(b, ref, ref_lo, ref_hi, b->theirs);
	double excess = 0;
	for (uint32_t i = 0; i < b->n_touched; i++) {
		uint32_t s = b->touched[i];
		double e = b->mine[s] - b->theirs[s];
		excess += e > 0 && b->mine[s] > 0 ? e : 0;
	}
	for (uint32_t i = 0; i < b->n_touched; i++) {
		uint32_t s = b->touched[i];
		double e = b->mine[s] - b->theirs[s];
		b->weight[s] = excess > 0 && e > 0 && b->mine[s] > 0 ? amount * e / excess / b->mine[s] : 0;
	}
	struct runs r = { b, place, hops, 0 };
	if (excess > 0)
		hybrid_stretch_runs(b->a->t, b->h, place, lo, hi, run_give, &r);
	else
		r.rc = give(b, (struct share){ lo, hi, amount, place, hops });
	for (uint32_t i = 0; i < b->n_touched; i++) {
		uint32_t s = b->touched[i];
		b->mine[s] = b->theirs[s] = b->weight[s] = 0;
		b->seen[s] = 0;
	}
	return r.rc;
}

/* ---- handing on over lane waits ---- */

/* `amount` for part [s, e) of lane wait x handed on to the place it
 * waited for: a device wait's to the stream over the same time; a
 * barrier's to the last thread's stretch since the team last met, by
 * its excess over the waiting thread's. */
static int
hand_on(struct blame *b, const struct hybrid_wait *x, uint64_t s, uint64_t e, double amount, uint32_t hops)
{
	if (x->kind == HYW_BARRIER)
		return by_excess(b, x->cause, x->since, x->to, x->place, x->own_since, x->from, amount, hops);
	return give(b, (struct share){ s, e, amount, x->cause, hops });
}

/* Gives share x to its place: its parts in the place's lane waits are
 * handed on (to the place they waited for, or to their one region), the
 * rest is the place's own. */
static int
cut(struct blame *b, struct share x)
{
	const struct hybrid *h = b->h;
	struct piece all = { x.lo, x.hi, x.amount / (double)(x.hi - x.lo), x.place };
	if (x.place >= h->n_places || x.hops >= BLAME_HOPS)
		return keep(b, all);
	const struct hybrid_wait *wv = h->waits;
	uint32_t k0 = b->wait_first[x.place], k1 = b->wait_first[x.place + 1], lo = k0, hi = k1;
	while (lo < hi) {            /* the waits begun before x: [k0, lo) */
		uint32_t mid = lo + (hi - lo) / 2;
		if (wv[mid].from < x.lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > k0 && b->reach[lo - 1] > x.lo)
		lo--;                 /* begun before, still on at x.lo */
	uint64_t at = x.lo;
	for (uint32_t k = lo; k < k1 && wv[k].from < x.hi; k++) {
		uint64_t s = wv[k].from > at ? wv[k].from : at, e = wv[k].to < x.hi ? wv[k].to : x.hi;
		if (e <= s)
			continue;
		if (keep(b, (struct piece){ at, s, all.w, x.place }))
			return ERR_NOMEM;
		double amount = all.w * (double)(e - s);
		if (hybrid_wait_spreads(wv[k].kind)) {
			if (hand_on(b, &wv[k], s, e, amount, x.hops + 1))
				return ERR_NOMEM;
		} else {
			b->extra[path_slot(hybrid_blamed_region(b->a->t, h, &wv[k]), b->n_regions)] += amount;
		}
		at = e;
	}
	return keep(b, (struct piece){ at, x.hi, all.w, x.place });
}

/* ---- the delays' references ---- */

/* Each delay's reference: the operation at its step on a rank that
 * waited for it directly (the one before the waiting call), or
 * TRACE_NONE. */
static int
delay_refs(struct blame *b, const struct analysis_delay *d, uint32_t nd)
{
	const struct analysis *a = b->a;
	b->ref = malloc(((size_t)nd + 1) * sizeof *b->ref);
	if (!b->ref)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < nd; i++)
		b->ref[i] = TRACE_NONE;
	uint32_t nw;
	const struct analysis_wait *w = analysis_waits(a, &nw);
	for (uint32_t i = 0; i < nw; i++) {
		uint32_t root = w[i].root_lop, o = w[i].lop;
		if (root >= a->n_lops || w[i].cause_lop >= a->n_lops || o == 0 ||
		    a->lop_tl[w[i].cause_lop] != a->lop_tl[root] || a->lop_tl[o - 1] != a->lop_tl[o] ||
		    a->lop_step[o - 1] != a->lop_step[root])
			continue;
		const struct analysis_delay *x = analysis_lop_delay(a, root);
		if (x && b->ref[x - d] == TRACE_NONE)
			b->ref[x - d] = o - 1;
	}
	return 0;
}

/* The delays' and the lane waits' shares, cut until none is left to
 * hand on. */
static int
seed(struct blame *b, struct path *p, uint64_t *blame)
{
	const struct analysis *a = b->a;
	uint32_t nd;
	const struct analysis_delay *d = analysis_delays(a, &nd);
	int rc = delay_refs(b, d, nd);
	for (uint32_t i = 0; i < nd && !rc; i++) {
		uint32_t l = d[i].lop, r = b->ref[i];
		p->blame_total += d[i].cost;
		uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
		if (ex <= en)
			blame[path_slot(lop_region(a, l), b->n_regions)] += d[i].cost;
		else if (r != TRACE_NONE && lop_exit(a, r) > lop_enter(a, r))
			rc = by_excess(b, a->lop_tl[l], en, ex, a->lop_tl[r], lop_enter(a, r), lop_exit(a, r),
				       (double)d[i].cost, 0);
		else
			rc = give(b, (struct share){ en, ex, (double)d[i].cost, a->lop_tl[l], 0 });
	}
	for (uint32_t i = 0; i < b->h->n_waits && !rc; i++) {
		const struct hybrid_wait *x = &b->h->waits[i];
		p->blame_total += x->to - x->from;
		if (hybrid_wait_spreads(x->kind))
			rc = hand_on(b, x, x->from, x->to, (double)(x->to - x->from), 1);
		else
			b->extra[path_slot(hybrid_blamed_region(a->t, b->h, x), b->n_regions)] +=
				(double)(x->to - x->from);
	}
	while (b->n_todo && !rc)
		rc = cut(b, b->todo[--b->n_todo]);
	return rc;
}

/* ---- the places' pieces to regions ---- */

/* A boundary of a piece: at t the weight changes by dw. */
struct edge {
	uint64_t t;
	double dw;
	uint32_t place;
};

static int
by_place_time(const void *ctx, uint32_t x, uint32_t y)
{
	const struct edge *e = ctx;
	if (e[x].place != e[y].place)
		return e[x].place < e[y].place ? -1 : 1;
	if (e[x].t != e[y].t)
		return e[x].t < e[y].t ? -1 : 1;
	return x < y ? -1 : x > y;
}

struct weighted {
	double *extra;
	double w;
	uint32_t n_regions;
};

static void
weighted_add(void *ctx, uint32_t region, int64_t ticks)
{
	struct weighted *c = ctx;
	c->extra[path_slot(region, c->n_regions)] += c->w * (double)ticks;
}

/* The pieces of each place made disjoint (overlapping pieces' weights
 * add up: several threads waiting for one); a timeline's into spans for
 * one profile, a lane's regions by hybrid_stretch, its time in no
 * region as idle. */
static int
settle(struct blame *b, struct path_spans *sp, double *spread)
{
	uint32_t n_tl = b->n_tl, ne = (uint32_t)(2 * b->n_done);
	struct edge *e = malloc(((size_t)ne + 1) * sizeof *e);
	uint32_t *ord = malloc(((size_t)ne + 1) * sizeof *ord);
	int rc = !e || !ord ? ERR_NOMEM : 0;
	for (uint32_t i = 0; !rc && i < b->n_done; i++) {
		const struct piece *x = &b->done[i];
		e[2 * i] = (struct edge){ x->lo, x->w, x->place };
		e[2 * i + 1] = (struct edge){ x->hi, -x->w, x->place };
	}
	for (uint32_t i = 0; !rc && i < ne; i++)
		ord[i] = i;
	if (!rc)
		rc = sort_ids(ord, ne, by_place_time, e);
	/* the timelines' stretches: at most one a boundary */
	if (!rc)
		rc = path_spans_alloc(sp, n_tl, ne, 1);
	double w = 0;
	uint32_t tl = 0;
	for (uint32_t i = 0; !rc && i < ne; i++) {
		const struct edge *x = &e[ord[i]];
		w = i && e[ord[i - 1]].place == x->place ? w + x->dw : x->dw;
		if (i + 1 == ne || e[ord[i + 1]].place != x->place || e[ord[i + 1]].t == x->t || w < 1e-12)
			continue;
		uint64_t lo = x->t, hi = e[ord[i + 1]].t;
		if (x->place < n_tl) {
			while (tl < x->place)
				sp->first[++tl] = sp->n;
			sp->lo[sp->n] = lo;
			sp->hi[sp->n] = hi;
			sp->w[sp->n++] = w;
			*spread += w * (double)(hi - lo);
		} else {
			struct weighted c = { b->extra, w, b->n_regions };
			uint64_t idle = hybrid_stretch(b->a->t, b->h, x->place, lo, hi, weighted_add, &c);
			b->extra[path_slot(PATH_REGION_IDLE, b->n_regions)] += w * (double)idle;
		}
	}
	while (!rc && tl < n_tl)
		sp->first[++tl] = sp->n;
	free(e);
	free(ord);
	return rc;
}

/* Each place's lane waits (h->waits is by place, then time) and how far
 * they reach; the tables by_excess counts in. */
static int
prepare(struct blame *b)
{
	const struct hybrid *h = b->h;
	size_t slots = (size_t)b->n_regions + 3;
	b->wait_first = calloc((size_t)h->n_places + 2, sizeof *b->wait_first);
	b->reach = malloc(((size_t)h->n_waits + 1) * sizeof *b->reach);
	b->mine = calloc(slots, sizeof *b->mine);
	b->theirs = calloc(slots, sizeof *b->theirs);
	b->weight = calloc(slots, sizeof *b->weight);
	b->touched = malloc(slots * sizeof *b->touched);
	b->seen = calloc(slots, 1);
	if (!b->wait_first || !b->reach || !b->mine || !b->theirs || !b->weight || !b->touched || !b->seen)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < h->n_waits; i++)
		b->wait_first[h->waits[i].place + 1]++;
	for (uint32_t p = 0; p < h->n_places; p++)
		b->wait_first[p + 1] += b->wait_first[p];
	for (uint32_t i = 0; i < h->n_waits; i++) {
		int same = i && h->waits[i - 1].place == h->waits[i].place;
		b->reach[i] = same && b->reach[i - 1] > h->waits[i].to ? b->reach[i - 1] : h->waits[i].to;
	}
	return 0;
}

int
path_blame(const struct analysis *a, const struct hybrid *h, struct path *p, uint64_t *blame,
	   uint32_t n_regions)
{
	struct blame b = { .a = a, .h = h, .n_regions = n_regions };
	trace_timelines(a->t, &b.n_tl);
	/* a run without lanes: its ranks are the places, without waits */
	struct hybrid none = { .n_timelines = b.n_tl, .n_places = b.n_tl };
	if (!h || !h->n_places)
		b.h = &none;
	struct path_spans sp = { 0 };
	b.extra = calloc((size_t)n_regions + 3, sizeof *b.extra);
	int rc = b.extra ? 0 : ERR_NOMEM;
	if (!rc)
		rc = prepare(&b);
	if (!rc)
		rc = seed(&b, p, blame);
	double spread = 0;
	if (!rc)
		rc = settle(&b, &sp, &spread);
	uint64_t covered = 0;
	if (!rc)
		rc = path_add_profile(a, &sp, blame, NULL, &covered, n_regions);
	if (!rc) {
		/* what no region covered on a timeline (computation outside
		 * every region) */
		if (spread > (double)covered)
			b.extra[path_slot(TRACE_NONE, n_regions)] += spread - (double)covered;
		for (uint32_t s = 0; s < n_regions + 3; s++)
			if (b.extra[s] > 0)
				blame[s] += (uint64_t)llround(b.extra[s]);
	}
	path_spans_free(&sp);
	free(b.extra);
	free(b.wait_first);
	free(b.reach);
	free(b.mine);
	free(b.theirs);
	free(b.weight);
	free(b.touched);
	free(b.seen);
	free(b.ref);
	free(b.todo);
	free(b.done);
	return rc;
}
