/* view_lanes.c — lanes as rows of timeline cells (view_lanes.h). */
#include "view_lanes.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/hybrid/hybrid.h"

uint32_t
view_lanes_of(const struct trace *t, uint32_t r, uint32_t *out, uint32_t max)
{
	uint32_t n, k = 0;
	const struct trace_lane *L = trace_lanes(t, &n);
	for (uint32_t i = 0; i < n; i++)
		if (L[i].timeline == r) {
			if (k < max)
				out[k] = i;
			k++;
		}
	return k;
}

static uint8_t
kind_of(const struct trace *t, const struct trace_lane *L, uint32_t region)
{
	const struct trace_region *reg = &trace_regions(t, NULL)[region];
	const char *name = trace_str(t, reg->name);
	enum hybrid_class c = hybrid_class(name, reg->paradigm);
	if (c == HY_BARRIER || c == HY_SYNC || c == HY_CRITICAL || c == HY_LOCK || c == HY_TASKWAIT)
		return LC_WAIT;
	if (L->kind != LANE_GPU)
		return LC_WORK;
	return trace_region_is_copy(t, region) ? LC_COPY : LC_KERNEL;
}

void
view_lane_cells(const struct trace *t, uint32_t lane, uint64_t t0, uint64_t t1, uint32_t w,
		struct lane_cell *out)
{
	uint32_t nf;
	const struct trace_lane *L = &trace_lanes(t, NULL)[lane];
	const struct trace_frame *fr = trace_lane_frames(t, &nf);
	/* per cell: the chosen frame's coverage, depth, and whether it
	 * covers half the cell */
	uint64_t *cov = calloc(w ? w : 1, sizeof *cov);
	uint32_t *depth = calloc(w ? w : 1, sizeof *depth);
	for (uint32_t x = 0; x < w; x++)
		out[x] = (struct lane_cell){ TRACE_NONE, LC_IDLE };
	if (!cov || !depth || t1 <= t0 || !w) {
		free(cov);
		free(depth);
		return;
	}
	double per = (double)(t1 - t0) / w;
	for (uint32_t f = L->frame_first; f < L->frame_first + L->frame_count; f++) {
		uint64_t a = fr[f].t_enter > t0 ? fr[f].t_enter : t0, b = fr[f].t_leave < t1 ? fr[f].t_leave : t1;
		if (b <= a && !(fr[f].t_enter >= t0 && fr[f].t_enter < t1))
			continue;
		uint32_t x0 = (uint32_t)((double)(a - t0) / per), x1 = (uint32_t)((double)(b - t0) / per);
		x0 = x0 < w ? x0 : w - 1;
		x1 = x1 < w ? x1 : w - 1;
		for (uint32_t x = x0; x <= x1; x++) {
			uint64_t lo = t0 + (uint64_t)(per * x), hi = t0 + (uint64_t)(per * (x + 1));
			uint64_t s = a > lo ? a : lo, e = b < hi ? b : hi, c = e > s ? e - s : 0;
			int half = 2 * c >= hi - lo, had = 2 * cov[x] >= hi - lo;
			int better = out[x].region == TRACE_NONE || (half && (!had || fr[f].depth >= depth[x])) ||
				     (!half && !had && c > cov[x]);
			if (!better)
				continue;
			out[x] = (struct lane_cell){ fr[f].region, kind_of(t, L, fr[f].region) };
			cov[x] = c;
			depth[x] = fr[f].depth;
		}
	}
	free(cov);
	free(depth);
}

uint64_t
view_lane_busy(const struct trace *t, uint32_t lane, uint64_t t0, uint64_t t1, uint32_t *top)
{
	uint32_t nf, nr;
	const struct trace_lane *L = &trace_lanes(t, NULL)[lane];
	const struct trace_frame *fr = trace_lane_frames(t, &nf);
	trace_regions(t, &nr);
	uint64_t *excl = calloc((size_t)nr + 1, sizeof *excl), busy = 0;
	*top = TRACE_NONE;
	for (uint32_t f = L->frame_first; excl && f < L->frame_first + L->frame_count; f++) {
		uint64_t a = fr[f].t_enter > t0 ? fr[f].t_enter : t0, b = fr[f].t_leave < t1 ? fr[f].t_leave : t1;
		if (b <= a)
			continue;
		/* exclusive: less the children's (modulo 2^64 on the way) */
		excl[fr[f].region] += b - a;
		if (fr[f].parent != TRACE_NONE)
			excl[fr[fr[f].parent].region] -= b - a;
		else
			busy += b - a;
	}
	for (uint32_t r = 0; excl && r < nr; r++)
		if (excl[r] && (*top == TRACE_NONE || excl[r] > excl[*top]))
			*top = r;
	free(excl);
	return busy;
}

uint32_t
view_lane_glyph(uint8_t kind)
{
	switch (kind) {
	case LC_WORK: return 0x00b7;       /* · as computation */
	case LC_WAIT: return 'W';          /* as a wait */
	case LC_KERNEL: return 0x25aa;     /* ▪ */
	case LC_COPY: return 0x2195;       /* ↕ */
	default: return ' ';
	}
}
