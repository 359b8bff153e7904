/* dist_leap.h — the leap merge (leap.c) in a distributed analysis
 * (doc/distributed.md "The leap merge"). */
#ifndef SKEIN_DIST_LEAP_H
#define SKEIN_DIST_LEAP_H

#include <stdint.h>

#include "analysis/core/analysis_impl.h"
#include "base/dcomm.h"
#include "model/dmodel.h"

/* Collective: partition_leap_merge over the ranks' shares of a
 * distributed analysis as dist_structure leaves it (dist.h: lops
 * [lop_off, lop_off + a->n_lops) of the whole, every partition and the
 * DAG on every rank). Rank 0 runs the merge over every rank's records;
 * each rank then finalizes its partitions again (dist_refinalize, which
 * also fills part_first when not NULL). a->stats.leaps and
 * incomplete_leaps are the serial ones on every rank. progress is
 * rank 0's ("leap merging"). 0, or the same error on every rank. */
int dist_leap_merge(struct dcomm *c, const struct dmodel *d, struct analysis *a, uint32_t lop_off,
		    uint32_t *part_first, trace_progress_fn progress, void *ud);

#endif
