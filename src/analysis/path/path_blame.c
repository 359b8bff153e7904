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

#include "base/par.h"
#include "base/sort.h"
#include "base/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Hops a share is handed on over lane waits (a thread late because it
 * waited for another, ...); past them it stays where it is. */
#define BLAME_HOPS 16

/* An amount of blame to give [lo, hi) of a place evenly, to be cut at
 * the place's lane waits into pieces (path_impl.h), the place's own. */
struct share {
	uint64_t lo, hi;
	double amount;
	uint32_t place, hops;
};

struct blame {
	const struct analysis *a;
	const struct hybrid *h;
	uint32_t n_regions, n_tl;
	uint32_t *wait_first;     /* place p's lane waits: [wait_first[p], wait_first[p + 1]) */
	uint32_t *at;             /* per place: where its last stretch began (hybrid_stretch) */
	uint64_t *reach;          /* the latest end of a place's waits up to each */
	struct share *todo;
	struct path_piece *done;
	size_t n_todo, cap_todo, n_done, cap_done;
	int direct;               /* no lane waits: cut keeps every share whole */
	double *extra;            /* per slot: blame outside the timelines' profile */
	/* per slot: a stretch's and its reference's time, the slots touched */
	double *mine, *theirs, *weight;
	uint32_t *touched, n_touched;
	uint8_t *seen;
	uint32_t *ref;            /* per delay: its reference lop, or TRACE_NONE */
	/* the timelines' spans settle makes, their room, the timeline they
	 * have come to and the blame they spread */
	struct path_spans sp;
	size_t cap_sp;
	uint32_t sp_tl;
	double spread;
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
keep(struct blame *b, struct path_piece x)
{
	if (x.hi <= x.lo || !(x.w > 0))
		return 0;
	if (VEC_GROW(b->done, b->n_done, b->cap_done))
		return ERR_NOMEM;
	b->done[b->n_done++] = x;
	return 0;
}

/* Without lane waits a share is kept as it comes, as cut would keep it
 * (drain puts the pieces in cut's order). */
static int
give(struct blame *b, struct share x)
{
	if (x.hi <= x.lo || !(x.amount > 0))
		return 0;
	if (b->direct)
		return keep(b, (struct path_piece){ x.lo, x.hi, x.amount / (double)(x.hi - x.lo), x.place });
	if (VEC_GROW(b->todo, b->n_todo, b->cap_todo))
		return ERR_NOMEM;
	b->todo[b->n_todo++] = x;
	return 0;
}

/* Place p's cursor for hybrid_stretch, or NULL. */
static uint32_t *
cursor(const struct blame *b, uint32_t p)
{
	return p < b->h->n_places ? &b->at[p] : NULL;
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
	uint64_t none = hybrid_stretch(b->a->t, b->h, place, lo, hi, tally_add, &y, cursor(b, place));
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
		hybrid_stretch_runs(b->a->t, b->h, place, lo, hi, run_give, &r, cursor(b, place));
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
	struct path_piece all = { x.lo, x.hi, x.amount / (double)(x.hi - x.lo), x.place };
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
		if (keep(b, (struct path_piece){ at, s, all.w, x.place }))
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
	return keep(b, (struct path_piece){ at, x.hi, all.w, x.place });
}

/* ---- the delays' references ---- */

/* The waits of one worker's share that name a reference: pairs of the
 * delay's index and the reference, in wait order. */
struct refs_share {
	uint32_t *v;
	size_t n, cap;
};
struct refs_job {
	const struct analysis *a;
	const struct analysis_delay *d;
	const struct analysis_wait *w;
	uint32_t nw;
	struct refs_share out[PAR_MAX];
};

static int
refs_worker(void *ctx, uint32_t wi, uint32_t nw)
{
	struct refs_job *j = ctx;
	const struct analysis *a = j->a;
	const struct analysis_wait *w = j->w;
	struct refs_share *o = &j->out[wi];
	uint32_t from, to;
	par_share(j->nw, wi, nw, &from, &to);
	for (uint32_t i = from; i < to; i++) {
		/* the tests that read the least at random first: the root's
		 * step (three waits of four fail it on the floor tool's 10^7
		 * archive), then the cause's and the root's timelines */
		uint32_t root = w[i].root_lop, l = w[i].lop;
		if (root >= a->n_lops || w[i].cause_lop >= a->n_lops || l == 0 ||
		    a->lop_tl[l - 1] != a->lop_tl[l] || a->lop_step[l - 1] != a->lop_step[root] ||
		    a->lop_tl[w[i].cause_lop] != a->lop_tl[root])
			continue;
		const struct analysis_delay *x = analysis_lop_delay(a, root);
		if (!x)
			continue;
		if (vec_reserve((void **)&o->v, &o->cap, o->n + 2, sizeof *o->v))
			return ERR_NOMEM;
		o->v[o->n++] = (uint32_t)(x - j->d);
		o->v[o->n++] = l - 1;
	}
	return 0;
}

/* Each delay's reference: the operation at its step on a rank that
 * waited for it directly (the one before the waiting call; the first
 * such wait's), or TRACE_NONE. The waits are looked at on every core,
 * each worker's share listing what it found, and the lists are read in
 * wait order. */
static int
delay_refs(struct blame *b, const struct analysis_delay *d, uint32_t nd)
{
	b->ref = malloc(((size_t)nd + 1) * sizeof *b->ref);
	if (!b->ref)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < nd; i++)
		b->ref[i] = TRACE_NONE;
	struct refs_job j = { .a = b->a, .d = d };
	j.w = analysis_waits(b->a, &j.nw);
	uint32_t nw = par_workers();
	int rc = par_run(nw, refs_worker, &j);
	for (uint32_t k = 0; k < nw; k++) {
		for (size_t i = 0; !rc && i < j.out[k].n; i += 2)
			if (b->ref[j.out[k].v[i]] == TRACE_NONE)
				b->ref[j.out[k].v[i]] = j.out[k].v[i + 1];
		free(j.out[k].v);
	}
	return rc;
}

/* Cuts the shares one delay or lane wait gave as cut would take them
 * from a stack of everyone's: the last given first, each with what it
 * hands on before the one given before it. Without lane waits they were
 * kept as given (give): they are put in that order. */
static int
drain(struct blame *b, size_t mark)
{
	int rc = 0;
	while (b->n_todo && !rc)
		rc = cut(b, b->todo[--b->n_todo]);
	for (size_t i = mark, j = b->n_done; b->direct && i + 1 < j; i++, j--) {
		struct path_piece x = b->done[i];
		b->done[i] = b->done[j - 1];
		b->done[j - 1] = x;
	}
	return rc;
}

/* Delay i's cost given to the regions of its operation (by their excess
 * over its reference's), its shares cut. */
static int
seed_delay(struct blame *b, struct path *p, uint64_t *blame, const struct analysis_delay *d, uint32_t i)
{
	const struct analysis *a = b->a;
	uint32_t l = d[i].lop, r = b->ref[i];
	size_t mark = b->n_done;
	int rc = 0;
	p->blame_total += d[i].cost;
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
	if (ex <= en)
		blame[path_slot(lop_region(a, l), b->n_regions)] += d[i].cost;
	else if (r != TRACE_NONE && lop_exit(a, r) > lop_enter(a, r))
		rc = by_excess(b, a->lop_tl[l], en, ex, a->lop_tl[r], lop_enter(a, r), lop_exit(a, r),
			       (double)d[i].cost, 0);
	else
		rc = give(b, (struct share){ en, ex, (double)d[i].cost, a->lop_tl[l], 0 });
	return rc ? rc : drain(b, mark);
}

static int settle(struct blame *b);
static int spans_room(struct blame *b, size_t need);

/* The delays' and the lane waits' shares, cut until none is left to
 * hand on. One stack of them all, the delays' pushed first, would be
 * cut from its top: so the waits, then the delays, are taken from the
 * last, each one's shares cut before the one before it gives its own,
 * which keeps the pieces in the stack's order without the stack. The
 * waits that go to one region are added first, in their order (a sum
 * of doubles' last bits follows it).
 *
 * Without lane waits a delay's pieces are all on its own timeline, and
 * the delays come by timeline (their lops do): each timeline's delays
 * are taken from its last and its pieces settled before the next
 * timeline's are made. They come in the order they have in the list of
 * every piece (path_edge_order orders a place's edges by time, then by
 * the pieces' order, whatever their numbers), and the timelines settle
 * in the order settle takes the places of that list: the same spans and
 * the same sums, one timeline's pieces held instead of every delay's
 * (doc/performance.md, "Where the 10^8 peak is"). */
static int
seed(struct blame *b, struct path *p, uint64_t *blame)
{
	const struct analysis *a = b->a;
	uint32_t nd;
	const struct analysis_delay *d = analysis_delays(a, &nd);
	int rc = delay_refs(b, d, nd), by_place = b->direct;
	for (uint32_t i = 1; by_place && i < nd; i++)
		by_place = a->lop_tl[d[i - 1].lop] <= a->lop_tl[d[i].lop];
	if (!rc && b->direct && !by_place)
		rc = vec_reserve((void **)&b->done, &b->cap_done, (size_t)nd + 1, sizeof *b->done);
	const struct hybrid_wait *wv = b->h->waits;
	for (uint32_t i = 0; i < b->h->n_waits && !rc; i++) {
		p->blame_total += wv[i].to - wv[i].from;
		if (!hybrid_wait_spreads(wv[i].kind))
			b->extra[path_slot(hybrid_blamed_region(a->t, b->h, &wv[i]), b->n_regions)] +=
				(double)(wv[i].to - wv[i].from);
	}
	for (uint32_t i = b->h->n_waits; i-- > 0 && !rc;) {
		if (!hybrid_wait_spreads(wv[i].kind))
			continue;
		size_t mark = b->n_done;
		rc = hand_on(b, &wv[i], wv[i].from, wv[i].to, (double)(wv[i].to - wv[i].from), 1);
		if (!rc)
			rc = drain(b, mark);
	}
	if (!by_place) {
		for (uint32_t i = nd; i-- > 0 && !rc;)
			rc = seed_delay(b, p, blame, d, i);
		/* every piece at once: at most a span an edge */
		return rc ? rc : spans_room(b, 2 * b->n_done + 1);
	}
	/* a span a delay, as most runs have (a piece a delay, one place's
	 * apart); settle makes more room if need be */
	if (!rc)
		rc = spans_room(b, (size_t)nd + 1);
	for (uint32_t lo = 0, hi; lo < nd && !rc; lo = hi) {
		uint32_t tl = a->lop_tl[d[lo].lop];
		for (hi = lo + 1; hi < nd && a->lop_tl[d[hi].lop] == tl; hi++)
			;
		for (uint32_t i = hi; i-- > lo && !rc;)
			rc = seed_delay(b, p, blame, d, i);
		if (!rc)
			rc = settle(b);
	}
	return rc;
}

/* ---- the places' pieces to regions ---- */

/* The pieces' boundaries: edge 2i is where piece i begins (its weight
 * added), 2i + 1 where it ends (taken away). */
static uint64_t
edge_t(const struct path_piece *d, uint32_t x)
{
	return x & 1 ? d[x >> 1].hi : d[x >> 1].lo;
}

/* Edges x and y by place, then time: negative, zero or positive. */
static int
edge_cmp(const struct path_piece *d, uint32_t x, uint32_t y)
{
	uint32_t px = d[x >> 1].place, py = d[y >> 1].place;
	if (px != py)
		return px < py ? -1 : 1;
	uint64_t tx = edge_t(d, x), ty = edge_t(d, y);
	return tx < ty ? -1 : tx > ty;
}

static uint64_t
edge_key(const void *ctx, uint32_t x)
{
	return edge_t(ctx, x);
}

/* One place's edges v[0 .. n), put there from its last piece to its
 * first, into their order: by time, then number. Read so, the pieces of
 * a place that do not overlap and were kept latest first (cut keeps the
 * last share given first, and the delays come in lop order) are in time
 * order but where one piece ends as the next begins: those two edges
 * are put in number order as they come. Other pieces are sorted by time
 * in number order (the sort keeps the order of equal times). */
static int
place_order(const struct path_piece *d, uint32_t *v, uint32_t n)
{
	uint32_t k = 1;
	while (k < n && edge_cmp(d, v[k - 1], v[k]) <= 0)
		k++;
	if (k < n) {
		for (uint32_t i = 0, j = n - 2; i < j; i += 2, j -= 2) {
			uint32_t lo = v[i], hi = v[i + 1];
			v[i] = v[j];
			v[i + 1] = v[j + 1];
			v[j] = lo;
			v[j + 1] = hi;
		}
		return sort_ids_keyed(v, n, edge_key, d);
	}
	for (k = 1; k < n; k++) {
		/* v[0 .. k) is in order: v[k] goes before the edges of its
		 * time numbered after it */
		uint32_t x = v[k], j = k;
		while (j && v[j - 1] > x && !edge_cmp(d, v[j - 1], x)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	return 0;
}

int
path_edge_order(const struct path_piece *d, uint32_t n, uint32_t *ord)
{
	uint32_t n_places = 0;
	for (uint32_t i = 0; i < n; i++)
		n_places = d[i].place >= n_places ? d[i].place + 1 : n_places;
	uint32_t *at = calloc((size_t)n_places + 1, sizeof *at);
	if (!at)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		at[d[i].place + 1] += 2;
	for (uint32_t p = 0; p < n_places; p++)
		at[p + 1] += at[p];
	/* each place's edges from its last piece; at[p] ends as where
	 * place p + 1's begin */
	for (uint32_t i = n; i-- > 0;) {
		ord[at[d[i].place]++] = 2 * i;
		ord[at[d[i].place]++] = 2 * i + 1;
	}
	int rc = 0;
	for (uint32_t p = 0, from = 0; p < n_places && !rc; from = at[p++])
		rc = place_order(d, ord + from, at[p] - from);
	free(at);
	return rc;
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

/* Room for `need` spans: that many the first time (a count foreseen),
 * twice as many as before or `need` after. 0 or ERR_NOMEM. */
static int
spans_room(struct blame *b, size_t need)
{
	if (need <= b->cap_sp)
		return 0;
	size_t cap = b->cap_sp && 2 * b->cap_sp > need ? 2 * b->cap_sp : need;
	uint64_t *lo = realloc(b->sp.lo, cap * sizeof *lo);
	if (lo)
		b->sp.lo = lo;
	uint64_t *hi = lo ? realloc(b->sp.hi, cap * sizeof *hi) : NULL;
	if (hi)
		b->sp.hi = hi;
	double *w = hi ? realloc(b->sp.w, cap * sizeof *w) : NULL;
	if (!w)
		return ERR_NOMEM;
	b->sp.w = w;
	b->cap_sp = cap;
	return 0;
}

/* The pieces kept so far (of places after those settled before) made
 * disjoint on each place (overlapping pieces' weights add up: several
 * threads waiting for one); a timeline's into spans for one profile, a
 * lane's regions by hybrid_stretch, its time in no region as idle. The
 * pieces are then let go. */
static int
settle(struct blame *b)
{
	uint32_t n_tl = b->n_tl, ne = (uint32_t)(2 * b->n_done);
	const struct path_piece *d = b->done;
	struct path_spans *sp = &b->sp;
	if (!ne)
		return 0;
	uint32_t *ord = malloc(((size_t)ne + 1) * sizeof *ord);
	int rc = !ord ? ERR_NOMEM : path_edge_order(d, (uint32_t)b->n_done, ord);
	double w = 0;
	uint32_t tl = b->sp_tl;
	for (uint32_t i = 0; !rc && i < ne; i++) {
		const struct path_piece *x = &d[ord[i] >> 1], *next = i + 1 < ne ? &d[ord[i + 1] >> 1] : NULL;
		double dw = ord[i] & 1 ? -x->w : x->w;
		w = i && d[ord[i - 1] >> 1].place == x->place ? w + dw : dw;
		uint64_t lo = edge_t(d, ord[i]), hi = next ? edge_t(d, ord[i + 1]) : lo;
		if (!next || next->place != x->place || hi == lo || w < 1e-12)
			continue;
		if (x->place < n_tl) {
			if (sp->n == b->cap_sp && (rc = spans_room(b, (size_t)sp->n + 1)))
				break;
			while (tl < x->place)
				sp->first[++tl] = sp->n;
			sp->lo[sp->n] = lo;
			sp->hi[sp->n] = hi;
			sp->w[sp->n++] = w;
			b->spread += w * (double)(hi - lo);
		} else {
			struct weighted c = { b->extra, w, b->n_regions };
			uint64_t idle = hybrid_stretch(b->a->t, b->h, x->place, lo, hi, weighted_add, &c,
						       cursor(b, x->place));
			b->extra[path_slot(PATH_REGION_IDLE, b->n_regions)] += w * (double)idle;
		}
	}
	b->sp_tl = tl;
	b->n_done = 0;
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
	b->at = malloc(((size_t)h->n_places + 1) * sizeof *b->at);
	b->reach = malloc(((size_t)h->n_waits + 1) * sizeof *b->reach);
	b->mine = calloc(slots, sizeof *b->mine);
	b->theirs = calloc(slots, sizeof *b->theirs);
	b->weight = calloc(slots, sizeof *b->weight);
	b->touched = malloc(slots * sizeof *b->touched);
	b->seen = calloc(slots, 1);
	if (!b->wait_first || !b->at || !b->reach || !b->mine || !b->theirs || !b->weight || !b->touched ||
	    !b->seen)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < h->n_places; p++)
		b->at[p] = TRACE_NONE;
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
	b.direct = b.h->n_waits == 0;
	b.extra = calloc((size_t)n_regions + 3, sizeof *b.extra);
	b.sp.first = calloc((size_t)b.n_tl + 2, sizeof *b.sp.first);
	int rc = b.extra && b.sp.first ? 0 : ERR_NOMEM;
	if (!rc)
		rc = prepare(&b);
	if (!rc)
		rc = seed(&b, p, blame);
	if (!rc)
		rc = settle(&b);
	/* the pieces and the references are done with */
	free(b.ref);
	free(b.todo);
	free(b.done);
	b.ref = NULL;
	b.todo = NULL;
	b.done = NULL;
	while (!rc && b.sp_tl < b.n_tl)
		b.sp.first[++b.sp_tl] = b.sp.n;
	uint64_t covered = 0;
	if (!rc)
		rc = path_add_profile(a, &b.sp, blame, NULL, &covered, n_regions);
	if (!rc) {
		/* what no region covered on a timeline (computation outside
		 * every region) */
		if (b.spread > (double)covered)
			b.extra[path_slot(TRACE_NONE, n_regions)] += b.spread - (double)covered;
		for (uint32_t s = 0; s < n_regions + 3; s++)
			if (b.extra[s] > 0)
				blame[s] += (uint64_t)llround(b.extra[s]);
	}
	path_spans_free(&b.sp);
	free(b.extra);
	free(b.wait_first);
	free(b.at);
	free(b.reach);
	free(b.mine);
	free(b.theirs);
	free(b.weight);
	free(b.touched);
	free(b.seen);
	return rc;
}
