/* hybrid_omp.c — a rank's OpenMP teams (hybrid.h): the master's parallel
 * regions, the threads' parts of them, and the barriers' wait states. */
#include "hybrid_impl.h"

#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Is frame i inside another frame of class c or c2 below `stop`? */
static int
inside2(const struct hy *y, const struct trace_frame *fr, uint32_t i, uint8_t c, uint8_t c2, uint32_t stop)
{
	for (uint32_t p = fr[i].parent; p != TRACE_NONE && p != stop; p = fr[p].parent)
		if (cls_of(y, &fr[p]) == c || cls_of(y, &fr[p]) == c2)
			return 1;
	return 0;
}

/* A member of a team: its place, its part of the region (a frame), and
 * its barriers (bar[bar_first .. bar_first + n_bar)). */
struct member {
	uint32_t place, frame;
	uint32_t bar_first, n_bar;
};

struct team {
	struct member *m;
	size_t n, cap;
	uint32_t *bar;          /* frames of the members' barriers */
	size_t n_bar, cap_bar;
};

/* The barriers of member x: the outermost barrier frames inside its part. */
static int
barriers(struct hy *y, struct team *tm, struct member *x)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, x->place, &first, &n);
	x->bar_first = (uint32_t)tm->n_bar;
	for (uint32_t k = x->frame + 1; k < first + n && fr[k].t_enter <= fr[x->frame].t_leave; k++) {
		/* the part's own: not inside a barrier, nor in a nested team */
		if (cls_of(y, &fr[k]) != HY_BARRIER || inside2(y, fr, k, HY_BARRIER, HY_PARALLEL, x->frame))
			continue;
		if (VEC_GROW(tm->bar, tm->n_bar, tm->cap_bar))
			return ERR_NOMEM;
		tm->bar[tm->n_bar++] = k;
	}
	x->n_bar = (uint32_t)tm->n_bar - x->bar_first;
	return 0;
}

/* Where member x's stretch before the team's j-th barrier began: its
 * end of barrier j - 1, or the fork (the master's entering the region:
 * m[0]). */
static uint64_t
stretch_start(const struct hy *y, const struct team *tm, const struct member *x, uint32_t j)
{
	uint32_t first, n;
	if (j)
		return hybrid_place_frames(y->t, y->h, x->place, &first, &n)[tm->bar[x->bar_first + j - 1]].t_leave;
	return hybrid_place_frames(y->t, y->h, tm->m[0].place, &first, &n)[tm->m[0].frame].t_enter;
}

/* The team's j-th barrier: every member that entered before the last
 * waited for it (Scalasca's wait at an OpenMP barrier), for the last's
 * time since the team last met. */
static int
one_barrier(struct hy *y, const struct team *tm, uint32_t j)
{
	uint32_t first, n, last = 0;
	uint64_t last_enter = 0;
	for (size_t i = 0; i < tm->n; i++) {
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, tm->m[i].place, &first, &n);
		uint64_t e = fr[tm->bar[tm->m[i].bar_first + j]].t_enter;
		if (i == 0 || e > last_enter)
			last_enter = e, last = (uint32_t)i;
	}
	const struct member *L = &tm->m[last];
	uint32_t last_frame = tm->bar[L->bar_first + j];
	uint64_t since = stretch_start(y, tm, L, j);
	for (size_t i = 0; i < tm->n; i++) {
		if (i == last)
			continue;
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, tm->m[i].place, &first, &n);
		uint32_t f = tm->bar[tm->m[i].bar_first + j];
		if (fr[f].t_enter >= last_enter)
			continue;
		uint64_t to = last_enter < fr[f].t_leave ? last_enter : fr[f].t_leave;
		uint32_t w;
		if (hy_add_wait(y, fr[f].t_enter, to, tm->m[i].place, f, L->place, last_frame, HYW_BARRIER,
				&w) ||
		    hy_add_edge(y, to, tm->m[i].place, f, to, L->place, last_frame, w))
			return ERR_NOMEM;
		uint64_t own = stretch_start(y, tm, &tm->m[i], j);
		y->h->waits[w].since = since < fr[f].t_enter ? since : fr[f].t_enter;
		y->h->waits[w].own_since = own < fr[f].t_enter ? own : fr[f].t_enter;
	}
	y->h->barriers++;
	return 0;
}

/* A parallel region a place forked (the rank's outermost, or one nested
 * in a thread's part), or a thread's part of one (a lane's outermost
 * parallel region or implicit task); `fork`: the part's, once found. */
struct region {
	uint64_t enter, leave;
	uint64_t tag;            /* its team's id + 1 (trace_tags), or 0 */
	uint32_t place, frame, fork;
	uint8_t unsure;          /* a fork: a part begun while it was open has no team */
};

static int
by_enter(const void *p, const void *q)
{
	const struct region *a = p, *b = q;
	if (a->enter != b->enter)
		return a->enter < b->enter ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

/* By fork, then by place (a team's members in place order, as before
 * nested teams), then by time. */
static int
by_fork(const void *p, const void *q)
{
	const struct region *a = p, *b = q;
	if (a->fork != b->fork)
		return a->fork < b->fork ? -1 : 1;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	return by_enter(p, q);
}

static int
by_place(const void *p, const void *q)
{
	const struct region *a = p, *b = q;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	return by_enter(p, q);
}

/* Place p's forks and parts (rank: p == tl) into f and w. */
static int
regions_of(struct hy *y, uint32_t p, uint32_t tl, struct region **f, size_t *nf, size_t *cf,
	   struct region **w, size_t *nw, size_t *cw)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, p, &first, &n);
	for (uint32_t k = first; k < first + n; k++) {
		uint8_t c = cls_of(y, &fr[k]);
		if (c != HY_PARALLEL && c != HY_IMPLICIT)
			continue;
		int nested = inside2(y, fr, k, HY_PARALLEL, HY_IMPLICIT, TRACE_NONE);
		struct region x = { fr[k].t_enter, fr[k].t_leave, hy_tag(y, p, &fr[k]), p, k, TRACE_NONE, 0 };
		if (c == HY_PARALLEL && (nested || p == tl)) {
			if (VEC_GROW(*f, *nf, *cf))
				return ERR_NOMEM;
			(*f)[(*nf)++] = x;
		} else if (!nested && p != tl) {
			if (VEC_GROW(*w, *nw, *cw))
				return ERR_NOMEM;
			(*w)[(*nw)++] = x;
		}
	}
	return 0;
}

/* Is fork g open when part x begins (entered by then, not yet left), on
 * another place? */
static int
open_at(const struct region *g, const struct region *x)
{
	return g->place != x->place && g->enter <= x->enter && g->leave > x->enter;
}

/* The fork of part x: the one fork on another place open when it began,
 * after the fork of its place's part before (`after`, or SIZE_MAX: a
 * place takes part in a fork once, in order); else, as a thread's clock
 * may put its part a little before the fork, the first later fork that
 * overlaps it. f is in order of entering. TRACE_NONE when none, or when
 * several were open (*unsure set): with nested teams a thread's part may
 * belong to a team forked by another thread or, started late, to the
 * outer team, and time alone does not tell (the trace did not name the
 * team: no tag, fork_tagged); a wrong team would
 * give wrong waits, so those forks' teams are not matched (their
 * `unsure` set). The 64 forks entered last before it are looked at; past
 * them, a fork still open (pm: the latest leave among f[0 .. k]) makes
 * it unsure too. */
static uint32_t
fork_of(struct region *f, size_t nf, const uint64_t *pm, const struct region *x, size_t after,
	int *unsure)
{
	size_t lo = 0, hi = nf, start = after == SIZE_MAX ? 0 : after + 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f[mid].enter <= x->enter)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint32_t found = TRACE_NONE, open = 0;
	size_t k = lo, steps = 0;
	for (; k > start && steps < 64; steps++) {
		k--;
		if (open_at(&f[k], x) && open++ == 0)
			found = (uint32_t)k;
	}
	int unseen = k > start && pm[k - 1] > x->enter;
	*unsure = open > 1 || (open && unseen) || (!open && unseen);
	if (*unsure) {
		for (size_t g = lo; g-- > start;)     /* rare: several open */
			if (open_at(&f[g], x))
				f[g].unsure = 1;
		return TRACE_NONE;
	}
	if (open)
		return found;
	for (size_t j = lo > start ? lo : start; j < nf && f[j].enter <= x->leave; j++)
		if (f[j].place != x->place)
			return (uint32_t)j;
	return TRACE_NONE;
}

/* A tagged fork: its tag, its index in the forks (in order of entering). */
struct fork_tag {
	uint64_t tag;
	uint32_t k;
};

static int
by_fork_tag(const void *p, const void *q)
{
	const struct fork_tag *a = p, *b = q;
	if (a->tag != b->tag)
		return a->tag < b->tag ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* The fork tagged with part x's team, on another place and overlapping
 * it in time (a tag that names another instance of the team, a thread
 * having missed one, is not trusted), or TRACE_NONE. */
static uint32_t
fork_tagged(const struct region *f, const struct fork_tag *ix, size_t n, const struct region *x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix[mid].tag < x->tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* of the forks with its tag (in order of entering), those entered
	 * before it left, the last 64 (a tag is one team's, or one team
	 * instance's: a hostile trace may give many the same) */
	size_t end = lo, hi2 = n;
	while (end < hi2) {
		size_t mid = end + (hi2 - end) / 2;
		if (ix[mid].tag == x->tag && f[ix[mid].k].enter < x->leave)
			end = mid + 1;
		else
			hi2 = mid;
	}
	for (size_t i = end, seen = 0; i-- > lo && seen < 64; seen++) {
		const struct region *g = &f[ix[i].k];
		if (g->place != x->place && g->enter < x->leave && x->enter < g->leave)
			return ix[i].k;
	}
	return TRACE_NONE;
}

/* Fork f's team: its master and the parts found for it (w: by place,
 * the first of a place's), their fork edges, its barriers (not for a
 * team that may miss members: fork_of). */
static int
one_team(struct hy *y, struct team *tm, const struct region *f, const struct region *w, size_t nw)
{
	tm->n = tm->n_bar = 0;
	if (VEC_GROW(tm->m, tm->n, tm->cap))
		return ERR_NOMEM;
	tm->m[tm->n++] = (struct member){ .place = f->place, .frame = f->frame };
	for (size_t i = 0; i < nw; i++) {
		if ((i && w[i].place == w[i - 1].place) || w[i].place == f->place)
			continue;
		if (VEC_GROW(tm->m, tm->n, tm->cap) ||
		    hy_add_edge(y, w[i].enter, w[i].place, w[i].frame, f->enter, f->place, f->frame, TRACE_NONE))
			return ERR_NOMEM;
		tm->m[tm->n++] = (struct member){ .place = w[i].place, .frame = w[i].frame };
	}
	if (tm->n < 2 || f->unsure)
		return 0;
	y->h->teams++;
	uint32_t common = UINT32_MAX;
	int rc = 0;
	for (size_t i = 0; i < tm->n && !rc; i++) {
		rc = barriers(y, tm, &tm->m[i]);
		if (tm->m[i].n_bar < common)
			common = tm->m[i].n_bar;
	}
	for (uint32_t j = 0; j < common && !rc; j++)
		rc = one_barrier(y, tm, j);
	return rc;
}

int
omp_teams(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes)
{
	const struct trace_lane *L = trace_lanes(y->t, NULL);
	struct region *f = NULL, *w = NULL;
	size_t nf = 0, cf = 0, nw = 0, cw = 0;
	struct team tm = { 0 };
	int rc = regions_of(y, tl, tl, &f, &nf, &cf, &w, &nw, &cw);
	for (uint32_t i = 0; i < n_lanes && !rc; i++)
		if (L[lanes[i]].kind == LANE_THREAD)
			rc = regions_of(y, y->h->n_timelines + lanes[i], tl, &f, &nf, &cf, &w, &nw, &cw);
	uint64_t *pm = NULL;
	struct fork_tag *ix = NULL;
	size_t n_ix = 0;
	if (!rc && nf && (!(pm = malloc(nf * sizeof *pm)) || !(ix = malloc(nf * sizeof *ix))))
		rc = ERR_NOMEM;
	if (!rc && nf) {
		qsort(f, nf, sizeof *f, by_enter);
		for (size_t k = 0; k < nf; k++) {
			pm[k] = k && pm[k - 1] > f[k].leave ? pm[k - 1] : f[k].leave;
			if (f[k].tag)
				ix[n_ix++] = (struct fork_tag){ f[k].tag, (uint32_t)k };
		}
		qsort(ix, n_ix, sizeof *ix, by_fork_tag);
		/* each place's parts in time order, each after its last fork */
		if (nw)
			qsort(w, nw, sizeof *w, by_place);
		size_t after = SIZE_MAX;
		for (size_t i = 0; i < nw; i++) {
			int unsure = 0;
			if (i && w[i].place != w[i - 1].place)
				after = SIZE_MAX;
			/* a part tagged with its team joins the fork of that team */
			w[i].fork = w[i].tag ? fork_tagged(f, ix, n_ix, &w[i]) : TRACE_NONE;
			if (w[i].fork == TRACE_NONE)
				w[i].fork = fork_of(f, nf, pm, &w[i], after, &unsure);
			y->h->parts_unsure += (uint64_t)unsure;
			if (w[i].fork != TRACE_NONE)
				after = w[i].fork;
		}
		if (nw)
			qsort(w, nw, sizeof *w, by_fork);
		/* the parts of fork k are a run of w */
		size_t at = 0;
		for (size_t k = 0; k < nf && !rc; k++) {
			size_t end = at;
			while (end < nw && w[end].fork == k)
				end++;
			rc = one_team(y, &tm, &f[k], w + at, end - at);
			at = end;
		}
	}
	free(pm);
	free(ix);
	free(f);
	free(w);
	free(tm.m);
	free(tm.bar);
	return rc;
}

/* A critical section's body (holding the lock) and the section around
 * it (entered to wait for the lock). */
struct hold {
	uint64_t enter, leave, wait_from;
	uint32_t place, frame, crit;
};

static int
by_hold_enter(const void *p, const void *q)
{
	const struct hold *a = p, *b = q;
	if (a->enter != b->enter)
		return a->enter < b->enter ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

int
omp_criticals(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes)
{
	uint32_t first, n;
	struct hold *v = NULL;
	size_t nv = 0, cap = 0;
	for (uint32_t i = 0; i <= n_lanes; i++) {
		uint32_t place = hy_thread_place(y, tl, lanes, n_lanes, i);
		if (place == TRACE_NONE)
			continue;
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, place, &first, &n);
		for (uint32_t k = first; k < first + n; k++) {
			uint32_t p = fr[k].parent;
			if (cls_of(y, &fr[k]) != HY_CRITICAL_BODY || p == TRACE_NONE || cls_of(y, &fr[p]) != HY_CRITICAL)
				continue;
			if (VEC_GROW(v, nv, cap)) {
				free(v);
				return ERR_NOMEM;
			}
			v[nv++] = (struct hold){ fr[k].t_enter, fr[k].t_leave, fr[p].t_enter, place, k, p };
		}
	}
	if (nv)
		qsort(v, nv, sizeof *v, by_hold_enter);
	int rc = 0;
	/* the lock passes from one body to the next: a thread that asked for
	 * it while another held it waited until that one let go. The holder:
	 * of the bodies before, the one that ended last on another place
	 * (the two latest on distinct places are kept) */
	size_t top = SIZE_MAX, second = SIZE_MAX;
	for (size_t k = 1; k < nv && !rc; k++) {
		const struct hold *b = &v[k - 1];     /* the body before joins the candidates */
		if (top == SIZE_MAX || b->leave > v[top].leave) {
			if (top != SIZE_MAX && v[top].place != b->place)
				second = top;
			top = k - 1;
		} else if (b->place != v[top].place && (second == SIZE_MAX || b->leave > v[second].leave)) {
			second = k - 1;
		}
		const struct hold *cur = &v[k];
		size_t h = v[top].place != cur->place ? top : second;
		if (h == SIZE_MAX)
			continue;
		const struct hold *prev = &v[h];
		if (prev->leave <= cur->wait_from)
			continue;
		uint64_t to = prev->leave < cur->enter ? prev->leave : cur->enter;
		if (to <= cur->wait_from)
			continue;
		uint32_t w;
		if (hy_add_wait(y, cur->wait_from, to, cur->place, cur->crit, prev->place, prev->frame, HYW_CRITICAL,
				&w) ||
		    hy_add_edge(y, to, cur->place, cur->crit, to, prev->place, prev->frame, w))
			rc = ERR_NOMEM;
	}
	free(v);
	return rc;
}

/* The innermost of place p's frames open at time `at` (entered no later
 * (strict: before), left no earlier), or TRACE_NONE: the last frame
 * entered by then, or the first of its enclosing frames still open. A
 * lock is acquired as the call that waited for it returns, often at the
 * tick the code holding it is entered: the call is the frame entered
 * before, the code the frame entered by then. */
static uint32_t
frame_at(const struct hy *y, uint32_t p, uint64_t at, int strict)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, p, &first, &n);
	uint32_t lo = first, hi = first + n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (fr[mid].t_enter < at || (!strict && fr[mid].t_enter == at))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first)
		return TRACE_NONE;
	uint32_t f = lo - 1;
	while (f != TRACE_NONE && fr[f].t_leave < at)
		f = fr[f].parent;
	return f;
}

/* A hold, placed, and the process it is in. */
struct placed_hold {
	uint64_t acquire, release;
	uint32_t place, rank, lock, order;
	uint8_t model;
};

static int
by_lock_order(const void *p, const void *q)
{
	const struct placed_hold *a = p, *b = q;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->model != b->model)
		return a->model < b->model ? -1 : 1;
	if (a->lock != b->lock)
		return a->lock < b->lock ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->acquire != b->acquire)
		return a->acquire < b->acquire ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

/* Each location's place: its rank's timeline, or its lane's place. */
static uint32_t *
places_of_locations(const struct hy *y)
{
	uint32_t nloc, n_lanes;
	const struct trace_location *loc = trace_locations(y->t, &nloc);
	const struct trace_lane *lanes = trace_lanes(y->t, &n_lanes);
	uint32_t *v = malloc(((size_t)nloc + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < nloc; i++)
		v[i] = loc[i].timeline < y->h->n_timelines ? loc[i].timeline : TRACE_NONE;
	for (uint32_t i = 0; i < n_lanes; i++)
		if (lanes[i].location < nloc)
			v[lanes[i].location] = y->h->n_timelines + i;
	return v;
}

/* The region place p ran while it held a lock over [acq, rel]: of the
 * frames in the innermost one around both (cf), the one that covers the
 * most of the hold, not counting the calls that take and let go of the
 * lock (Score-P records the release inside omp_unset_lock, after the
 * code holding the lock returned); cf itself when there is none. */
static uint32_t
held_in(const struct hy *y, uint32_t p, uint32_t cf, uint64_t acq, uint64_t rel)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, p, &first, &n);
	uint32_t best = cf, k = frame_at(y, p, acq, 0);
	uint64_t most = 0;
	/* the child of cf open at the acquiring, then those entered after */
	while (k != TRACE_NONE && k != cf && fr[k].parent != cf)
		k = fr[k].parent;
	if (k == cf || k == TRACE_NONE)
		k = frame_at(y, p, acq, 0) == TRACE_NONE ? first : frame_at(y, p, acq, 0) + 1;
	for (; k < first + n && fr[k].t_enter <= rel; k++) {
		uint8_t c = cls_of(y, &fr[k]);
		if (fr[k].parent != cf || c == HY_LOCK || c == HY_UNLOCK)
			continue;
		uint64_t lo = fr[k].t_enter > acq ? fr[k].t_enter : acq;
		uint64_t hi = fr[k].t_leave < rel ? fr[k].t_leave : rel;
		if (hi > lo && hi - lo > most)
			most = hi - lo, best = k;
	}
	return best;
}

/* A wait for the lock b took, which a held before it (the acquisition
 * before b's): from b's entering the call or critical section it
 * acquired the lock in, to a's letting go (or b's acquiring, if a
 * clock put that first); blamed on the region a held the lock in
 * (held_in). */
static int
lock_wait(struct hy *y, const struct placed_hold *a, const struct placed_hold *b)
{
	uint32_t first, n;
	const struct trace_frame *fb = hybrid_place_frames(y->t, y->h, b->place, &first, &n);
	uint32_t wf = frame_at(y, b->place, b->acquire, 1);
	if (wf == TRACE_NONE)
		return 0;
	uint8_t c = cls_of(y, &fb[wf]);
	if (c != HY_CRITICAL && c != HY_LOCK)
		return 0;            /* no call around the acquiring: no wait seen */
	uint64_t from = fb[wf].t_enter, to = a->release < b->acquire ? a->release : b->acquire;
	if (to <= from)
		return 0;
	const struct trace_frame *fa = hybrid_place_frames(y->t, y->h, a->place, &first, &n);
	uint32_t cf = frame_at(y, a->place, a->acquire, 0);
	while (cf != TRACE_NONE && fa[cf].t_leave < a->release)
		cf = fa[cf].parent;
	if (cf == TRACE_NONE)
		return 0;
	cf = held_in(y, a->place, cf, a->acquire, a->release);
	uint32_t w;
	if (hy_add_wait(y, from, to, b->place, wf, a->place, cf, c == HY_CRITICAL ? HYW_CRITICAL : HYW_LOCK, &w) ||
	    hy_add_edge(y, to, b->place, wf, to, a->place, cf, w))
		return ERR_NOMEM;
	return 0;
}

int
thread_locks(struct hy *y, uint8_t *locked)
{
	uint32_t nh;
	const struct trace_hold *hd = trace_holds(y->t, &nh);
	if (!nh)
		return 0;
	uint32_t *place = places_of_locations(y), nloc;
	trace_locations(y->t, &nloc);
	struct placed_hold *v = malloc(((size_t)nh + 1) * sizeof *v);
	if (!place || !v) {
		free(place);
		free(v);
		return ERR_NOMEM;
	}
	size_t nv = 0;
	for (uint32_t i = 0; i < nh; i++) {
		uint32_t p = hd[i].location < nloc ? place[hd[i].location] : TRACE_NONE;
		if (p == TRACE_NONE)
			continue;
		uint32_t r = hybrid_place_rank(y->t, y->h, p);
		v[nv++] = (struct placed_hold){ hd[i].acquire, hd[i].release, p, r, hd[i].lock, hd[i].order,
						hd[i].model };
		/* its critical sections have their locks' records (OpenMP's,
		 * on a thread) */
		if (hd[i].model == HY_PARADIGM_OPENMP &&
		    (p < y->h->n_timelines || trace_lanes(y->t, NULL)[p - y->h->n_timelines].kind == LANE_THREAD))
			locked[r] = 1;
	}
	free(place);
	if (nv)
		qsort(v, nv, sizeof *v, by_lock_order);
	/* the lock passes from each hold to the next of its lock and process
	 * (by acquisition order); a thread taking it again waited for none;
	 * where an acquisition is missing (not recorded, or dropped) the
	 * holder before is unknown */
	int rc = 0;
	for (size_t i = 1; i < nv && !rc; i++) {
		const struct placed_hold *a = &v[i - 1], *b = &v[i];
		if (a->rank != b->rank || a->model != b->model || a->lock != b->lock)
			continue;
		if (b->order != a->order + 1) {
			y->h->lock_gaps++;
			continue;
		}
		if (a->place == b->place)
			continue;
		y->h->lock_passes++;
		rc = lock_wait(y, a, b);
	}
	free(v);
	return rc;
}
