/* dist_merge.h — the automatic merge (steps_merge.c: steps_global_merge)
 * in a distributed analysis (doc/distributed.md). */
#ifndef SKEIN_DIST_MERGE_H
#define SKEIN_DIST_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/mpi/stages.h"
#include "base/dcomm.h"

/* One pass's pairs of partitions to merge (by their first
 * communication lops, global), the same on every rank: a is the rank's
 * share (lop_part global, a->lop_off its first lop, every partition's
 * span in a->parts). Collective; 0 or the same error on every rank. */
int dist_merge_pairs(struct dcomm *c, const struct analysis *a, int alike, struct merge_pair **pairs,
		     size_t *n, size_t *cap);

#endif
