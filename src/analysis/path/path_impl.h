/* path_impl.h — the stages of path_compute (path.h):
 *
 *   path.c          the MPI walk, the segments' index, the getters
 *   path_charm.c    the Charm++ walk over the PEs
 *   path_regions.c  each region's time on the path
 *   path_blame.c    each region's blame: the delays' costs and the lane
 *                   waits spread over the regions their time went to
 */
#ifndef SKEIN_PATH_IMPL_H
#define SKEIN_PATH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "path.h"

#include "analysis/core/analysis_impl.h"
#include "analysis/explain/explain.h"
#include "analysis/hybrid/hybrid.h"

/* The walk's output: segments latest first. */
struct path_walk {
	struct path_seg *segs;
	size_t n, cap;
	uint64_t from, to;     /* the run */
	uint32_t jumps;
	const struct hybrid *h;   /* the lanes' dependencies (MPI) */
};

/* Appends [from, to) on tl (nothing when empty). 0 or ERR_NOMEM. */
int path_push(struct path_walk *w, uint32_t tl, uint64_t from, uint64_t to, uint8_t kind,
	      uint32_t wait, uint32_t release);

int path_walk_charm(const struct analysis *a, struct path_walk *w);
/* A Charm++ run's ops by PE (pe: trace_op_pes), then enter, then id,
 * into order[0..n_ops), each op's place there into pos, and the op that
 * ends last (the first of equals) into *last. 0 or ERR_NOMEM. */
int path_pe_order(const struct analysis *a, const uint32_t *pe, uint32_t *order, uint32_t *pos, uint32_t *last);
int path_regions(const struct analysis *a, const struct hybrid *h, struct path *p);

/* The regions' table: region r's slot among n_regions + 3 (the regions,
 * then start-up, idle, none). */
uint32_t path_slot(uint32_t r, uint32_t n_regions);

/* Spans per timeline for a profile scope (profile.h): timeline tl's are
 * [first[tl], first[tl + 1]), disjoint and in time order; w: their
 * weights, or NULL. */
struct path_spans {
	uint32_t *first;
	uint64_t *lo, *hi;
	double *w;
	uint32_t n;
};
/* Room for n spans over n_tl timelines. 0 or ERR_NOMEM. */
int path_spans_alloc(struct path_spans *s, uint32_t n_tl, uint32_t n, int weighted);
void path_spans_free(struct path_spans *s);
/* Adds the exclusive time of every region over the spans (a profile of
 * them, weighted by theirs) to time[slot] and calls[slot] (calls may be
 * NULL) and their sum to *covered; the time in spans that no region
 * covers is left for the caller. 0 or ERR_NOMEM. */
int path_add_profile(const struct analysis *a, const struct path_spans *sp, uint64_t *time, uint64_t *calls,
		     uint64_t *covered, uint32_t n_regions);

/* Blame kept on a place: [lo, hi), each tick weighing w. */
struct path_piece {
	uint64_t lo, hi;
	double w;
	uint32_t place;
};
/* The edges of pieces d[0 .. n) (edge 2i: where piece i begins, its
 * weight added; 2i + 1: where it ends, taken away) by place, time and
 * number into ord[0 .. 2n): the order path_blame sums the weights in,
 * which its sums' last bits follow. 0 or ERR_NOMEM. */
int path_edge_order(const struct path_piece *d, uint32_t n, uint32_t *ord);

/* Each region's blame into blame[slot] (n_regions + 3 slots) and its
 * sum into p->blame_total. 0 or ERR_NOMEM. */
int path_blame(const struct analysis *a, const struct hybrid *h, struct path *p, uint64_t *blame,
	       uint32_t n_regions);

#endif
