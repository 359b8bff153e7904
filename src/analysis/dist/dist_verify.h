/* dist_verify.h — the analysis's invariants (verify.c) checked in a
 * distributed analysis, each rank on its own lops (doc/distributed.md). */
#ifndef SKEIN_DIST_VERIFY_H
#define SKEIN_DIST_VERIFY_H

#include <stdint.h>

#include "analysis/core/analysis_impl.h"
#include "base/dcomm.h"
#include "model/dmodel.h"

struct dver_in {
	const struct dmodel *d;
	const struct analysis *la;    /* as dist_metrics.h says */
	uint32_t lop_off;
	/* rank 0: the partition DAG and each partition's steps */
	uint32_t n_parts;
	const uint32_t *dag_first, *dag_succ, *step_first, *step_count;
};

/* The counts verify_run makes but the forced orderings (the stepping's)
 * and those of reordered lops (not distributed), summed, into out on
 * every rank. 0, or the same error on every rank. */
int dist_verify(struct dcomm *c, const struct dver_in *in, struct analysis_verify *out);

#endif
