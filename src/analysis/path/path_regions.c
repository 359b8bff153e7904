/* path_regions.c — each region's time on the critical path (path.h): the
 * exclusive time of the regions in the path's stretches of each timeline
 * (a profile over them: profile.h's spans) and of each lane; their blame
 * is path_blame.c's. */
#include "path_impl.h"

#include "analysis/profile/profile.h"

#include <stdlib.h>
#include <string.h>

uint32_t
path_slot(uint32_t r, uint32_t n_regions)
{
	if (r == PATH_REGION_STARTUP)
		return n_regions;
	if (r == PATH_REGION_IDLE)
		return n_regions + 1;
	if (r == TRACE_NONE || r >= n_regions)
		return n_regions + 2;
	return r;
}

static uint32_t
region_of_slot(uint32_t s, uint32_t n_regions)
{
	if (s < n_regions)
		return s;
	return s == n_regions ? PATH_REGION_STARTUP : s == n_regions + 1 ? PATH_REGION_IDLE : TRACE_NONE;
}

void
path_spans_free(struct path_spans *s)
{
	free(s->first);
	free(s->lo);
	free(s->hi);
	free(s->w);
}

int
path_spans_alloc(struct path_spans *s, uint32_t n_tl, uint32_t n, int weighted)
{
	memset(s, 0, sizeof *s);
	s->first = calloc((size_t)n_tl + 2, sizeof *s->first);
	s->lo = malloc((n ? n : 1) * sizeof *s->lo);
	s->hi = malloc((n ? n : 1) * sizeof *s->hi);
	s->w = weighted ? malloc((n ? n : 1) * sizeof *s->w) : NULL;
	if (!s->first || !s->lo || !s->hi || (weighted && !s->w)) {
		path_spans_free(s);
		return ERR_NOMEM;
	}
	return 0;
}

int
path_add_profile(const struct analysis *a, const struct path_spans *sp, uint64_t *time, uint64_t *calls,
	    uint64_t *covered, uint32_t n_regions)
{
	struct profile_scope sc;
	profile_scope_all(&sc);
	sc.span_first = sp->first;
	sc.span_lo = sp->lo;
	sc.span_hi = sp->hi;
	sc.span_w = sp->w;
	struct profile prof;
	if (profile_compute(a->t, &sc, &prof, NULL))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < prof.n_regions; i++) {
		const struct profile_region *r = &prof.regions[i];
		uint32_t slot = path_slot(r->region, n_regions);
		time[slot] += r->excl;
		if (calls)
			calls[slot] += r->calls;
		*covered += r->excl;
	}
	profile_free(&prof);
	return 0;
}

/* The regions' exclusive time in the path's stretches of a lane: its
 * frames against its segments, both in time order; its time outside
 * every frame (a stream between kernels) as no region's. */
static void
lane_time(const struct analysis *a, const struct path *p, uint32_t place, uint64_t *time,
	  uint64_t *calls, uint32_t n_regions)
{
	uint32_t nf, k0 = p->tl_first[place], end = p->tl_first[place + 1];
	if (k0 == end)
		return;
	const struct trace_lane *L = &trace_lanes(a->t, NULL)[place - p->n_timelines];
	const struct trace_frame *fr = trace_lane_frames(a->t, &nf);
	uint64_t run = 0, top = 0;
	for (uint32_t k = k0; k < end; k++) {
		const struct path_seg *g = &p->segs[p->tl_segs[k]];
		if (g->kind == PATH_RUN)
			run += g->to - g->from;
	}
	for (uint32_t f = L->frame_first; f < L->frame_first + L->frame_count; f++) {
		while (k0 < end && p->segs[p->tl_segs[k0]].to <= fr[f].t_enter)
			k0++;
		uint64_t on = 0;
		for (uint32_t k = k0; k < end; k++) {
			const struct path_seg *g = &p->segs[p->tl_segs[k]];
			if (g->from >= fr[f].t_leave)
				break;
			if (g->kind != PATH_RUN)
				continue;
			uint64_t lo = g->from > fr[f].t_enter ? g->from : fr[f].t_enter,
				 hi = g->to < fr[f].t_leave ? g->to : fr[f].t_leave;
			on += hi > lo ? hi - lo : 0;
		}
		if (!on)
			continue;
		/* exclusive: a frame's time less its children's (modulo 2^64
		 * on the way, exact at the end) */
		time[path_slot(fr[f].region, n_regions)] += on;
		calls[path_slot(fr[f].region, n_regions)]++;
		if (fr[f].parent != TRACE_NONE)
			time[path_slot(fr[fr[f].parent].region, n_regions)] -= on;
		else
			top += on;
	}
	if (run > top)
		time[path_slot(TRACE_NONE, n_regions)] += run - top;
}

/* Each region's exclusive time on the path: a profile over the path's
 * stretches of its own timelines' time; start-up and idle as such. */
static int
path_time(const struct analysis *a, const struct path *p, uint64_t *time, uint64_t *calls,
	  uint32_t n_regions)
{
	uint32_t n_tl = p->n_timelines, n = 0;
	uint64_t run = 0, covered = 0;
	for (uint32_t i = 0; i < p->n_segs; i++) {
		const struct path_seg *g = &p->segs[i];
		if (g->kind == PATH_RUN && g->tl >= n_tl)
			continue;            /* a lane's: lane_time */
		if (g->kind == PATH_RUN) {
			n++;
			run += g->to - g->from;
		} else {
			time[path_slot(g->kind == PATH_STARTUP ? PATH_REGION_STARTUP : PATH_REGION_IDLE,
				     n_regions)] += g->to - g->from;
		}
	}
	struct path_spans sp;
	if (path_spans_alloc(&sp, n_tl, n, 0))
		return ERR_NOMEM;
	/* timeline by timeline, in time order (the path's index) */
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		sp.first[tl] = sp.n;
		for (uint32_t k = p->tl_first[tl]; k < p->tl_first[tl + 1]; k++) {
			const struct path_seg *g = &p->segs[p->tl_segs[k]];
			if (g->kind != PATH_RUN || g->to <= g->from)
				continue;
			if (sp.n > sp.first[tl] && g->from <= sp.hi[sp.n - 1]) {
				if (g->to > sp.hi[sp.n - 1])
					sp.hi[sp.n - 1] = g->to;    /* touching stretches: one span */
				continue;
			}
			sp.lo[sp.n] = g->from;
			sp.hi[sp.n] = g->to;
			sp.n++;
		}
	}
	sp.first[n_tl] = sp.n;
	int rc = path_add_profile(a, &sp, time, calls, &covered, n_regions);
	path_spans_free(&sp);
	if (!rc && run > covered)
		time[path_slot(TRACE_NONE, n_regions)] += run - covered;
	for (uint32_t pl = n_tl; pl < p->n_places && !rc; pl++)
		lane_time(a, p, pl, time, calls, n_regions);
	return rc;
}

static int
by_time(const void *p, const void *q)
{
	const struct path_region *x = p, *y = q;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->blame != y->blame)
		return x->blame > y->blame ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

int
path_regions(const struct analysis *a, const struct hybrid *h, struct path *p)
{
	uint32_t n_regions;
	trace_regions(a->t, &n_regions);
	size_t slots = (size_t)n_regions + 3;
	uint64_t *time = calloc(slots, sizeof *time), *calls = calloc(slots, sizeof *calls),
		 *blame = calloc(slots, sizeof *blame);
	int rc = ERR_NOMEM;
	if (!time || !calls || !blame || path_time(a, p, time, calls, n_regions) ||
	    path_blame(a, h, p, blame, n_regions))
		goto out;
	uint32_t n = 0;
	for (size_t s = 0; s < slots; s++)
		n += time[s] || blame[s];
	p->regions = calloc(n ? n : 1, sizeof *p->regions);
	if (!p->regions)
		goto out;
	for (size_t s = 0; s < slots; s++)
		if (time[s] || blame[s])
			p->regions[p->n_regions++] = (struct path_region){
				.region = region_of_slot((uint32_t)s, n_regions), .time = time[s],
				.blame = blame[s], .calls = calls[s] };
	qsort(p->regions, p->n_regions, sizeof *p->regions, by_time);
	rc = 0;
out:
	free(time);
	free(calls);
	free(blame);
	return rc;
}
