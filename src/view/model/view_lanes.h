/* view_lanes.h — a rank's threads and GPU streams (model/trace.h's
 * lanes) as rows of cells over a span of time, for the timeline: what
 * each cell shows. */
#ifndef SKEIN_VIEW_LANES_H
#define SKEIN_VIEW_LANES_H

#include <stdint.h>

#include "model/trace.h"

/* What a cell of a lane shows. */
enum lane_cell_kind {
	LC_IDLE,           /* no region in it */
	LC_WORK,           /* a thread's region */
	LC_WAIT,           /* a barrier or a synchronisation: waiting */
	LC_KERNEL,         /* a GPU kernel */
	LC_COPY,           /* a copy between host and device */
};
struct lane_cell {
	uint32_t region;   /* TRACE_NONE when idle */
	uint8_t kind;      /* enum lane_cell_kind */
};

/* Rank r's lanes (indices into trace_lanes), at most max of them into
 * out; returns how many it has. */
uint32_t view_lanes_of(const struct trace *t, uint32_t r, uint32_t *out, uint32_t max);

/* Lane `lane`'s w cells over [t0, t1): each the innermost frame that
 * covers half of it, else the frame that covers most of it. O(frames of
 * the lane + cells they cover × their depth). */
void view_lane_cells(const struct trace *t, uint32_t lane, uint64_t t0, uint64_t t1, uint32_t w,
		     struct lane_cell *out);

/* Lane `lane`'s time inside its outermost frames within [t0, t1) (its
 * busy time), and in *top the region with the most exclusive time there
 * (TRACE_NONE: none). O(its frames). */
uint64_t view_lane_busy(const struct trace *t, uint32_t lane, uint64_t t0, uint64_t t1, uint32_t *top);

/* The glyph of a cell's kind. */
uint32_t view_lane_glyph(uint8_t kind);

#endif
