/* path.c — the walk back along the critical path (path.h). The regions'
 * shares and blame are path_regions.c's. */
#include "path_impl.h"

#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* Where timeline tl's record ends: the latest exit of its operations and
 * leave of its user regions. */
static uint64_t
tl_end(const struct analysis *a, const struct trace_timeline *tl, const struct trace_frame *fr)
{
	uint64_t end = tl->t_start;
	if (tl->op_count) {
		struct trace_op o = trace_op_get(&a->ops, tl->op_first + tl->op_count - 1);
		if (o.t_exit > end)
			end = o.t_exit;
	}
	for (uint32_t f = tl->frame_first; f < tl->frame_first + tl->frame_count; f++)
		if (fr[f].parent == TRACE_NONE && fr[f].t_leave > end)
			end = fr[f].t_leave;
	return end;
}

/* The last of timeline tl's ops [first, first + n) to enter before t, or
 * first - 1 (as a signed index) when none does. */
static int64_t
last_before(const struct analysis *a, uint32_t first, uint32_t n, uint64_t t)
{
	uint32_t lo = 0, hi = n;   /* ops [0, lo) enter before t, [hi, n) do not */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (trace_op_get(&a->ops, first + mid).t_enter < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)first + (int64_t)lo - 1;
}

int
path_push(struct path_walk *w, uint32_t tl, uint64_t from, uint64_t to, uint8_t kind, uint32_t wait,
     uint32_t release)
{
	if (from >= to)
		return 0;
	if (VEC_GROW(w->segs, w->n, w->cap))
		return ERR_NOMEM;
	w->segs[w->n++] = (struct path_seg){ .from = from, .to = to, .tl = tl, .wait_lop = wait,
					     .release_lop = release, .kind = kind };
	return 0;
}

/* Where the wait of lop l released it, and which lop released it: 0 when
 * it was in no wait state the path can follow. */
static int
release_of(const struct analysis *a, uint32_t l, uint64_t *t, uint32_t *by)
{
	const struct analysis_wait *w = analysis_lop_wait(a, l);
	if (!w || w->cause_lop == TRACE_NONE || w->cause_lop >= a->n_lops || a->lop_tl[w->cause_lop] == a->lop_tl[l])
		return 0;
	*t = trace_op_get(&a->ops, lop_first_op(a, l)).t_enter + w->time;
	*by = w->cause_lop;
	return 1;
}

/* A lane's first and last time: its frames' span. */
static void
lane_span(const struct analysis *a, uint32_t lane, uint64_t *first, uint64_t *last)
{
	uint32_t nf;
	const struct trace_lane *L = &trace_lanes(a->t, NULL)[lane];
	const struct trace_frame *fr = trace_lane_frames(a->t, &nf);
	*first = UINT64_MAX;
	*last = 0;
	for (uint32_t f = L->frame_first; f < L->frame_first + L->frame_count; f++) {
		if (fr[f].depth)
			continue;
		*first = fr[f].t_enter < *first ? fr[f].t_enter : *first;
		*last = fr[f].t_leave > *last ? fr[f].t_leave : *last;
	}
}

/* Where lane `lane`'s stretch of work around t began: the enter of its
 * outermost frame that t is in (enter < t <= leave), or t in a gap. */
static uint64_t
lane_work_start(const struct analysis *a, uint32_t lane, uint64_t t)
{
	uint32_t nf;
	const struct trace_lane *L = &trace_lanes(a->t, NULL)[lane];
	const struct trace_frame *fr = trace_lane_frames(a->t, &nf);
	/* the frames entered before t: [first, lo) */
	uint32_t lo = hybrid_first_entered(fr, L->frame_first, L->frame_first + L->frame_count, t, NULL);
	uint64_t start = t;
	/* the last entered before t and its ancestors: the outermost still
	 * open at t (a frame's ancestors entered before it) */
	for (uint32_t f = lo > L->frame_first ? lo - 1 : TRACE_NONE; f != TRACE_NONE; f = fr[f].parent)
		if (fr[f].t_leave >= t)
			start = fr[f].t_enter;
	/* an earlier outermost frame may still cover t (frames of other
	 * branches are not ancestors): the top-level frames before it */
	for (uint32_t f = lo; f-- > L->frame_first && fr[f].t_enter < start;)
		if (fr[f].depth == 0) {
			if (fr[f].t_leave >= t)
				start = fr[f].t_enter;
			break;
		}
	return start;
}

/* Where a rank's scan for its next MPI jump stands: the walk comes back
 * to a rank ever earlier, so its scan only goes down. `next` is the op
 * to look at next (ops above it were looked at and let go: their release
 * came at or after an earlier query's time, so after any later one);
 * `found` the op it stopped at (TRACE_NONE: none yet), its lop, release
 * and releaser. */
struct scan {
	int64_t next;
	uint32_t found, wl, by;
	uint64_t rel;
	int started;
};

/* The MPI wait rank tl's walk back from t meets first whose release came
 * before t: its lop in *wl (TRACE_NONE: none), release time and releaser.
 * Each op of the rank is looked at once over the whole walk. */
static void
mpi_jump(const struct analysis *a, const struct trace_timeline *T, struct scan *sc, uint64_t t,
	 uint32_t *wl, uint64_t *rel, uint32_t *by)
{
	int64_t top = last_before(a, T->op_first, T->op_count, t);
	*wl = TRACE_NONE;
	if (!sc->started || sc->next > top) {
		if (!sc->started || sc->found == TRACE_NONE || (int64_t)sc->found > top)
			sc->found = TRACE_NONE;
		sc->next = sc->found != TRACE_NONE ? (int64_t)sc->found - 1 : top;
		sc->started = 1;
	}
	if (sc->found != TRACE_NONE) {
		if (sc->rel < t) {
			*wl = sc->wl, *rel = sc->rel, *by = sc->by;
			return;
		}
		sc->found = TRACE_NONE;   /* released too late now: look below it */
	}
	for (int64_t x = sc->next; x >= (int64_t)T->op_first; x--) {
		uint32_t op = (uint32_t)x, l = op_lop_of(a, op);
		if (trace_op_get(&a->ops, op).kind == OP_COMPUTE || lop_last_op(a, l) != op)
			continue;
		if (release_of(a, l, rel, by) && *rel < t) {
			*wl = l;
			sc->found = op, sc->wl = l, sc->rel = *rel, sc->by = *by;
			sc->next = x - 1;
			return;
		}
	}
	sc->next = (int64_t)T->op_first - 1;
}

/* The rank of place p (a timeline, or a lane's). */
static uint32_t
place_rank(const struct analysis *a, uint32_t p, uint32_t n_tl)
{
	return p < n_tl ? p : trace_lanes(a->t, NULL)[p - n_tl].timeline;
}

/* MPI: back from the end of the rank or lane that ends last (path.h). */
static int
walk_mpi(const struct analysis *a, struct path_walk *w)
{
	uint32_t n_tl, n_fr, n_lanes;
	const struct trace_timeline *tls = trace_timelines(a->t, &n_tl);
	const struct trace_frame *fr = trace_frames(a->t, &n_fr);
	trace_lanes(a->t, &n_lanes);
	uint64_t end = 0, lo, hi;
	uint32_t tl = TRACE_NONE;
	for (uint32_t i = 0; i < n_tl; i++) {
		uint64_t e = tl_end(a, &tls[i], fr);
		if (tl == TRACE_NONE || e > end)
			end = e, tl = i;
	}
	for (uint32_t i = 0; i < n_lanes && tl != TRACE_NONE; i++) {
		lane_span(a, i, &lo, &hi);
		if (hi > end)
			end = hi, tl = n_tl + i;
	}
	if (tl == TRACE_NONE)
		return 0;
	struct scan *sc = calloc((size_t)n_tl + 1, sizeof *sc);
	if (!sc)
		return ERR_NOMEM;
	w->to = end > w->to ? end : w->to;
	uint64_t t = w->to;
	int rc = 0;
	for (;;) {
		uint64_t rel = 0;
		uint32_t by = TRACE_NONE, wl = TRACE_NONE;
		if (tl < n_tl)
			mpi_jump(a, &tls[tl], &sc[tl], t, &wl, &rel, &by);
		const struct hybrid_edge *e = w->h ? hybrid_edge_before(w->h, tl, t) : NULL;
		if (tl >= n_tl) {
			/* a lane whose work around t nothing released (a thread
			 * of a nested team, a kernel without its launch) or that
			 * is idle at t: back to its rank where the work began */
			uint64_t s = lane_work_start(a, tl - n_tl, t);
			s = s < t ? s : t;
			if (!e || e->at < s) {
				if ((rc = path_push(w, tl, s, t, PATH_RUN, TRACE_NONE, TRACE_NONE)))
					break;
				tl = trace_lanes(a->t, NULL)[tl - n_tl].timeline;
				t = s;
				continue;
			}
		}
		if (e && (wl == TRACE_NONE || e->at > rel)) {
			/* to the device work, the last thread, the launch, the
			 * fork, the work a queued kernel waited for */
			if ((rc = path_push(w, tl, e->at, t, PATH_RUN, TRACE_NONE, TRACE_NONE)) ||
			    (rc = path_push(w, tl, e->by_at, e->at, PATH_IDLE, TRACE_NONE, TRACE_NONE)))
				break;
			w->jumps += place_rank(a, e->by, n_tl) != place_rank(a, tl, n_tl);
			tl = e->by;
			t = e->by_at;
			continue;
		}
		if (wl == TRACE_NONE)
			break;
		if ((rc = path_push(w, tl, rel, t, PATH_RUN, wl, by)))
			break;
		w->jumps++;
		tl = a->lop_tl[by];
		t = rel;
	}
	free(sc);
	if (rc)
		return rc;
	/* the rest of the place, and before it the run's start-up */
	uint64_t begin;
	if (tl < n_tl) {
		begin = tls[tl].t_start;
	} else {
		lane_span(a, tl - n_tl, &lo, &hi);
		begin = lo;
	}
	begin = begin > w->from ? begin : w->from;
	uint64_t start = begin < t ? begin : t;
	if (path_push(w, tl, start, t, PATH_RUN, TRACE_NONE, TRACE_NONE) ||
	    path_push(w, tl, w->from < start ? w->from : start, start, PATH_STARTUP, TRACE_NONE, TRACE_NONE))
		return ERR_NOMEM;
	return 0;
}

/* The segments in time order, and by timeline. */
static int
index_segs(struct path *p, struct path_walk *w, uint32_t n_tl)
{
	for (uint32_t i = 0; i < w->n / 2; i++) {
		struct path_seg s = w->segs[i];
		w->segs[i] = w->segs[w->n - 1 - i];
		w->segs[w->n - 1 - i] = s;
	}
	p->segs = w->segs;
	p->n_segs = (uint32_t)w->n;
	w->segs = NULL;
	p->n_places = n_tl;
	p->tl_first = calloc((size_t)n_tl + 1, sizeof *p->tl_first);
	p->tl_segs = malloc(((size_t)p->n_segs + 1) * sizeof *p->tl_segs);
	if (!p->tl_first || !p->tl_segs)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < p->n_segs; i++)
		p->tl_first[p->segs[i].tl + 1]++;
	for (uint32_t i = 0; i < n_tl; i++)
		p->tl_first[i + 1] += p->tl_first[i];
	/* placed in time order: each timeline's list is in time order too */
	uint32_t *at = malloc(((size_t)n_tl + 1) * sizeof *at);
	if (!at)
		return ERR_NOMEM;
	memcpy(at, p->tl_first, ((size_t)n_tl + 1) * sizeof *at);
	for (uint32_t i = 0; i < p->n_segs; i++)
		p->tl_segs[at[p->segs[i].tl]++] = i;
	free(at);
	return 0;
}

int
path_compute(const struct analysis *a, struct path *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	const struct trace_info *ti = trace_info(a->t);
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	struct path_walk w = { .from = ti->t_begin, .to = ti->t_end };
	struct hybrid h = { 0 };
	uint32_t n_lanes = 0;
	if (!a->charm)
		trace_lanes(a->t, &n_lanes);
	int rc = n_lanes ? hybrid_compute(a->t, &h, e) : 0;
	if (rc) {
		path_free(out);
		return rc;
	}
	w.h = n_lanes ? &h : NULL;
	if (!rc)
		rc = a->charm ? path_walk_charm(a, &w) : walk_mpi(a, &w);
	if (!rc)
		rc = index_segs(out, &w, n_tl + n_lanes);
	out->n_timelines = n_tl;
	free(w.segs);
	if (!rc) {
		out->from = w.from;
		out->to = w.to;
		out->length = w.to - w.from;
		out->jumps = w.jumps;
		rc = path_regions(a, w.h, out);
	}
	hybrid_free(&h);
	if (rc) {
		path_free(out);
		return err_set(e, rc, "the critical path: out of memory");
	}
	return 0;
}

void
path_free(struct path *p)
{
	free(p->segs);
	free(p->tl_first);
	free(p->tl_segs);
	free(p->regions);
	memset(p, 0, sizeof *p);
}

/* The place in timeline tl's segments (tl_segs) of the first ending
 * after t, or tl_first[tl + 1] when none does. */
static uint32_t
first_ending_after(const struct path *p, uint32_t tl, uint64_t t)
{
	uint32_t lo = p->tl_first[tl], hi = p->tl_first[tl + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (p->segs[p->tl_segs[mid]].to <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct path_seg *
path_at(const struct path *p, uint32_t tl, uint64_t t)
{
	if (tl >= p->n_places)
		return NULL;
	uint32_t lo = first_ending_after(p, tl, t);
	if (lo == p->tl_first[tl + 1])
		return NULL;
	const struct path_seg *s = &p->segs[p->tl_segs[lo]];
	return s->from <= t ? s : NULL;
}

int
path_overlaps(const struct path *p, uint32_t tl, uint64_t from, uint64_t to)
{
	if (tl >= p->n_places)
		return 0;
	uint32_t lo = first_ending_after(p, tl, from);
	if (lo == p->tl_first[tl + 1])
		return 0;
	const struct path_seg *s = &p->segs[p->tl_segs[lo]];
	return s->from < to || (from == to && s->from <= from);
}

uint64_t
path_time_in(const struct path *p, uint32_t tl, uint64_t from, uint64_t to)
{
	if (tl >= p->n_places || to <= from)
		return 0;
	uint32_t lo = first_ending_after(p, tl, from), end = p->tl_first[tl + 1];
	uint64_t sum = 0;
	for (uint32_t k = lo; k < end; k++) {
		const struct path_seg *s = &p->segs[p->tl_segs[k]];
		if (s->from >= to)
			break;
		if (s->kind != PATH_RUN)
			continue;
		uint64_t a = s->from > from ? s->from : from, b = s->to < to ? s->to : to;
		sum += b - a;
	}
	return sum;
}
