/* hybrid_blame.c — where a lane wait's time went on the place it waited
 * for (hybrid.h): the regions of the late thread or the busy stream over
 * the wait, and the one a wait is named by. */
#include "hybrid_impl.h"

int
hybrid_wait_spreads(uint8_t kind)
{
	return kind == HYW_BARRIER || kind == HYW_DEVICE;
}

/* A frame's time inside [from, to) to its region, taken from its
 * parent's (exclusive time); 1 when it has no parent. */
static int
add_frame(const struct trace_frame *fr, uint32_t f, uint64_t from, uint64_t to, hybrid_add_fn add,
	  void *ctx, uint64_t *top)
{
	uint64_t lo = fr[f].t_enter > from ? fr[f].t_enter : from, hi = fr[f].t_leave < to ? fr[f].t_leave : to;
	if (hi <= lo)
		return 0;
	add(ctx, fr[f].region, (int64_t)(hi - lo));
	if (fr[f].parent != TRACE_NONE) {
		add(ctx, fr[fr[f].parent].region, -(int64_t)(hi - lo));
		return 0;
	}
	*top += hi - lo;
	return 1;
}

/* The first of frames [first, end) entered at or after t (a place's
 * frames are in enter order, their times never back), into *at as
 * well. Searched from *at when it lies in [first, end], where the last
 * search on the place ended, in steps that double, then by halves (the
 * blame asks for most stretches of a place in time order); by halves
 * over them all when at is NULL or outside. */
uint32_t
hybrid_first_entered(const struct trace_frame *fr, uint32_t first, uint32_t end, uint64_t t, uint32_t *at)
{
	uint32_t lo = first, hi = end;
	if (at && *at >= first && *at <= end) {
		uint32_t from = *at;
		uint64_t step = 1;
		if (from < end && fr[from].t_enter < t) {
			/* after from: up to the first probe entered at or after t */
			lo = from + 1;
			while (step < end - from && fr[from + step].t_enter < t) {
				lo = (uint32_t)(from + step + 1);
				step *= 2;
			}
			hi = step < end - from ? (uint32_t)(from + step) : end;
		} else {
			/* at or before from: back to the first probe entered before t */
			hi = from;
			while (step <= from - first && fr[from - step].t_enter >= t) {
				hi = (uint32_t)(from - step);
				step *= 2;
			}
			lo = step <= from - first ? (uint32_t)(from - step + 1) : first;
		}
	}
	while (lo < hi) {            /* the frames entered before t: [first, lo) */
		uint32_t mid = lo + (hi - lo) / 2;
		if (fr[mid].t_enter < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (at)
		*at = lo;
	return lo;
}

uint64_t
hybrid_stretch(const struct trace *t, const struct hybrid *h, uint32_t place, uint64_t from, uint64_t to,
	       hybrid_add_fn add, void *ctx, uint32_t *cur)
{
	if (place >= h->n_places || to <= from)
		return 0;
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, h, place, &first, &n);
	uint32_t lo = hybrid_first_entered(fr, first, first + n, from, cur);
	uint64_t top = 0;
	/* the frames open at from: the last entered before it and its
	 * ancestors (a frame entered before from and still open then is an
	 * ancestor of every frame entered after it until from) */
	uint32_t f = lo > first ? lo - 1 : TRACE_NONE;
	while (f != TRACE_NONE && fr[f].t_leave <= from)
		f = fr[f].parent;
	for (; f != TRACE_NONE; f = fr[f].parent)
		add_frame(fr, f, from, to, add, ctx, &top);
	for (uint32_t k = lo; k < first + n && fr[k].t_enter < to; k++)
		add_frame(fr, k, from, to, add, ctx, &top);
	return top < to - from ? to - from - top : 0;
}

/* Frames open at once that hybrid_stretch_runs follows (deeper ones
 * count as their parent). */
#define RUN_DEPTH 256

/* Hands [lo, hi) of the innermost frame f (TRACE_NONE: none) to run. */
static void
emit(const struct trace_frame *fr, uint32_t f, uint64_t lo, uint64_t hi, hybrid_run_fn run, void *ctx)
{
	if (hi > lo)
		run(ctx, lo, hi, f == TRACE_NONE ? TRACE_NONE : fr[f].region);
}

void
hybrid_stretch_runs(const struct trace *t, const struct hybrid *h, uint32_t place, uint64_t from, uint64_t to,
		    hybrid_run_fn run, void *ctx, uint32_t *cur)
{
	if (place >= h->n_places || to <= from)
		return;
	uint32_t first, n, stack[RUN_DEPTH], depth = 0, chain[RUN_DEPTH], nc = 0;
	const struct trace_frame *fr = hybrid_place_frames(t, h, place, &first, &n);
	uint32_t lo = hybrid_first_entered(fr, first, first + n, from, cur);
	uint32_t f = lo > first ? lo - 1 : TRACE_NONE;
	while (f != TRACE_NONE && fr[f].t_leave <= from)
		f = fr[f].parent;
	for (; f != TRACE_NONE && nc < RUN_DEPTH; f = fr[f].parent)
		chain[nc++] = f;
	while (nc)
		stack[depth++] = chain[--nc];          /* outermost first */
	uint64_t at = from;
	for (uint32_t k = lo; k <= first + n; k++) {
		uint64_t e = k < first + n && fr[k].t_enter < to ? fr[k].t_enter : to;
		/* the frames that closed before e, innermost first */
		while (depth && fr[stack[depth - 1]].t_leave < e) {
			uint64_t end = fr[stack[depth - 1]].t_leave;
			emit(fr, stack[depth - 1], at, end, run, ctx);
			at = end > at ? end : at;
			depth--;
		}
		emit(fr, depth ? stack[depth - 1] : TRACE_NONE, at, e, run, ctx);
		at = e > at ? e : at;
		if (e == to)
			break;
		if (depth < RUN_DEPTH)
			stack[depth++] = k;
	}
}

/* The regions' time over a stretch, for naming: a few regions, the
 * rest dropped (a wait is named by its largest). */
#define NAME_REGIONS 64
struct tally {
	uint32_t region[NAME_REGIONS];
	int64_t time[NAME_REGIONS];
	uint32_t n;
};

static void
tally_add(void *ctx, uint32_t region, int64_t ticks)
{
	struct tally *y = ctx;
	uint32_t i = 0;
	while (i < y->n && y->region[i] != region)
		i++;
	if (i == y->n) {
		if (y->n == NAME_REGIONS)
			return;
		y->region[y->n] = region;
		y->time[y->n++] = 0;
	}
	y->time[i] += ticks;
}

uint32_t
hybrid_blamed_region(const struct trace *t, const struct hybrid *h, const struct hybrid_wait *w)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, h, w->cause, &first, &n);
	uint32_t f = w->cause_frame, parent = fr[f].parent;
	if (w->kind == HYW_CRITICAL && parent != TRACE_NONE) {
		/* the critical section the holder was in (the cause is its
		 * body, found without the locks' records) */
		const struct trace_region *r = &trace_regions(t, NULL)[fr[f].region];
		if (hybrid_class(trace_str(t, r->name), r->paradigm) == HY_CRITICAL_BODY)
			return fr[parent].region;
	}
	if (!hybrid_wait_spreads(w->kind))
		return fr[f].region;
	/* the region the late thread (since the team last met) or the busy
	 * stream spent most of the wait in (not its time outside any
	 * region: a fork's latency) */
	struct tally y = { .n = 0 };
	hybrid_stretch(t, h, w->cause, w->since, w->to, tally_add, &y, NULL);
	uint32_t best = fr[f].region;
	int64_t most = 0;
	for (uint32_t i = 0; i < y.n; i++)
		if (y.time[i] > most)
			most = y.time[i], best = y.region[i];
	return best;
}
