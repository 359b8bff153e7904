/* dist_slice.h — a rank's share of a whole analysis, as a distributed
 * analysis holds it (doc/distributed.md): the reference the distributed
 * stages' tests compare with, and the input they are given when the
 * stage before them is not distributed yet. */
#ifndef SKEIN_DIST_SLICE_H
#define SKEIN_DIST_SLICE_H

#include <stdint.h>

#include "analysis/core/analysis_impl.h"
#include "model/dmodel.h"

/* The lops of shard d's timelines in the whole analysis `full` (of the
 * whole model d was cut from), as an analysis over d's trace: lop_op,
 * op_lop, tl_lop (n_timelines + 1; other ranks' timelines empty),
 * lop_tl, lop_kind with local ids (global lop = *lop_off + local, op
 * ids as in d), lop_part and lop_step as they are (global), the
 * options; every partition (parts, the DAG, the topological order,
 * n_parts, n_steps), d as la->dm, the lops' slice (lop_off, lops_all);
 * la->dc is the caller's to set. ERR_USAGE for an analysis whose lops are reordered
 * (op_of_lop), ERR_NOMEM. */
int dist_slice_analysis(const struct analysis *full, const struct dmodel *d,
			struct analysis **out, uint32_t *lop_off);
void dist_slice_free(struct analysis *la);

#endif
