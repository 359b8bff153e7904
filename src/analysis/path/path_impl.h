/* path_impl.h — the stages of path_compute (path.h):
 *
 *   path.c          the MPI walk, the segments' index, the getters
 *   path_charm.c    the Charm++ walk over the PEs
 *   path_regions.c  each region's time on the path and its blame
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

#endif
