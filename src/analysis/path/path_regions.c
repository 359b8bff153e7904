/* path_regions.c — each region's time on the critical path and its blame
 * (path.h): the exclusive time of the regions the path's segments cover,
 * and the cost of the delays (explain.h) of each region's operations. */
#include "path_impl.h"

#include <stdlib.h>
#include <string.h>

/* Slot of region r in the table: regions, then start-up, idle, none. */
static uint32_t
slot_of(uint32_t r, uint32_t n_regions)
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

/* The region a lop's time counts for: its call's, or for computation
 * the innermost user region around it. */
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

/* Time of segment s into the table, by the ops it covers. */
static void
add_segment(const struct analysis *a, const struct path_seg *s, uint64_t *time, uint64_t *calls,
	    uint32_t n_regions)
{
	if (s->kind != PATH_RUN) {
		time[slot_of(s->kind == PATH_STARTUP ? PATH_REGION_STARTUP : PATH_REGION_IDLE, n_regions)] +=
			s->to - s->from;
		return;
	}
	uint32_t n_tl;
	const struct trace_timeline *T = &trace_timelines(a->t, &n_tl)[s->tl];
	uint32_t lo = 0, hi = T->op_count;   /* the first op ending after s->from */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (trace_op_get(&a->ops, T->op_first + mid).t_exit <= s->from)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint64_t covered = 0;
	for (uint32_t i = lo; i < T->op_count; i++) {
		struct trace_op o = trace_op_get(&a->ops, T->op_first + i);
		if (o.t_enter >= s->to)
			break;
		uint64_t f = o.t_enter > s->from ? o.t_enter : s->from, e = o.t_exit < s->to ? o.t_exit : s->to;
		if (e <= f)
			continue;
		uint32_t slot = slot_of(lop_region(a, a->op_lop[T->op_first + i]), n_regions);
		time[slot] += e - f;
		if (o.kind != OP_COMPUTE)
			calls[slot]++;
		covered += e - f;
	}
	time[slot_of(TRACE_NONE, n_regions)] += s->to - s->from - covered;
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
path_regions(const struct analysis *a, struct path *p)
{
	uint32_t n_regions;
	trace_regions(a->t, &n_regions);
	size_t slots = (size_t)n_regions + 3;
	uint64_t *time = calloc(slots, sizeof *time), *calls = calloc(slots, sizeof *calls),
		 *blame = calloc(slots, sizeof *blame);
	int rc = ERR_NOMEM;
	if (!time || !calls || !blame)
		goto out;
	for (uint32_t i = 0; i < p->n_segs; i++)
		add_segment(a, &p->segs[i], time, calls, n_regions);
	uint32_t nd;
	const struct analysis_delay *d = analysis_delays(a, &nd);
	for (uint32_t i = 0; i < nd; i++) {
		blame[slot_of(lop_region(a, d[i].lop), n_regions)] += d[i].cost;
		p->blame_total += d[i].cost;
	}
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
