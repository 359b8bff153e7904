/* dist.h — the structure stages as a distributed job: logical operations
 * and partitioning over the ranks' shards of the model (model/dmodel.h,
 * doc/distributed.md "Distributed partitioning").
 *
 * dist_structure is collective over c: every rank calls it with its own
 * shard and the same options, and every rank gets back the same rc (0 or
 * the error of the lowest failing rank; e is set on every rank). On
 * success *out is an analysis over d->t (which must outlive it, as the
 * shard must) holding the rank's share of what the serial lops_build and
 * partition_build give, before stepping renumbers the partitions:
 *
 *  - its lops are the serial lops [lops->off, lops->off + lops->n) of
 *    lops->all, read through analysis.h with LOCAL ids: lop i is global
 *    lop lops->off + i; analysis_lop_ops and analysis_op_lop speak of the
 *    shard's local ops (global op = local + 2 * d->oprec.off);
 *    analysis_timeline_lops of its timelines gives local lops;
 *    analysis_lop_timeline, analysis_lop_kind are the serial ones;
 *  - analysis_lop_part is the GLOBAL partition id, the serial one;
 *  - analysis_parts (every partition, with its counts and leap),
 *    analysis_part_succ (the partition DAG, successors in the serial
 *    order), dist_part_order (the serial topological order) and
 *    analysis_stats' partitions_initial, partitions_waitall,
 *    partitions_scc, size_mismatches and coalesced_isends are the
 *    serial ones, on every rank;
 *  - part_first, when not NULL (c->size + 1 entries), the partitions
 *    whose first communication lop is on each rank: rank r's are
 *    [part_first[r], part_first[r + 1]) (owners dist_steps can take;
 *    dist_run deals equal runs of ids instead: a partition spanning all
 *    ranks has its first lop on rank 0).
 *
 * With user phases (opts->n_phases) analysis_parts' phase and
 * phase_region are the serial ones too. Charm++ traces are refused with
 * ERR_USAGE (their structure is seed 004's).
 */
#ifndef SKEIN_DIST_H
#define SKEIN_DIST_H

#include "analysis/core/analysis.h"
#include "base/dcomm.h"
#include "model/dmodel.h"

int dist_structure(struct dcomm *c, const struct dmodel *d, const struct analysis_opts *opts,
		   struct analysis **out, struct dslice *lops, uint32_t *part_first, struct err *e);

/* Collective: the partitions again after the rank's communication lops
 * were given new set numbers 0 .. n_parts - 1 in a->lop_part (numbered
 * in the order of their first lop): computation attached, the graph,
 * its cycles merged, the order, the counts, and part_first, as
 * dist_structure leaves them (the automatic merge, dist_run.c). */
int dist_refinalize(struct dcomm *c, const struct dmodel *d, struct analysis *a, uint32_t lop_off,
		    uint32_t n_parts, uint32_t *part_first);

/* The partitions in a topological order (n_parts of them), as the serial
 * partitioning leaves them. */
const uint32_t *dist_part_order(const struct analysis *a);

/* The serial stages dist_structure distributes, on a whole model: lops
 * and partitions as analysis_run has them before stepping (the tests'
 * reference). Free with analysis_destroy. */
int dist_reference(const struct trace *t, const struct analysis_opts *opts, struct analysis **out,
		   struct err *e);

#endif
