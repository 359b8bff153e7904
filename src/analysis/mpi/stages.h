/* stages.h — seed 000's structure stages for MPI traces (section 3),
 * over struct analysis (analysis/core/analysis_impl.h):
 *
 *   merge.c        mandatory, Waitall and caller merges; user phases
 *   leap.c, leap_graph.c, leap_input.c  leap merge (Algorithm 1)
 *   steps.c        strides, local and global steps
 *   steps_merge.c  the global-step and automatic merges
 *   reorder.c      receives ordered by forward replay (seed 004 §3.2.1)
 *
 * run/run.c calls them in that order, the distributed job (analysis/dist/)
 * each stage's halves. Each returns 0 or ERR_NOMEM / ERR_CANCELLED.
 */
#ifndef SKEIN_ANALYSIS_MPI_STAGES_H
#define SKEIN_ANALYSIS_MPI_STAGES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/core/analysis_impl.h"

/* The partitions found, through the cycle merge (merge.c); the leap merge
 * (leap_input.c). */
int partition_build(struct analysis *a);
/* The one-sided merges, part of the mandatory ones (merge.c): each RMA
 * operation's call with the call that completed it, and a rank's RMA
 * calls (OP_RMA) with no other communication call between them. The
 * trace's RMA operations name ops a->op_lop maps (a distributed
 * analysis's shard: its own, by local id). Returns the unions that
 * joined two sets. */
uint32_t partition_unite_rma(const struct analysis *a, struct uf *u);
int partition_leap_merge(struct analysis *a);

/* The automatic merge's signature of a partition (below). */
struct sig {
	uint64_t h1, h2;
};
/* Each partition's local and global steps (steps.c); with sig, each
 * partition's signature into sig[p] as well (the automatic merge). */
int steps_assign(struct analysis *a, struct sig *sig);
/* steps_assign's two halves: each partition's local steps into lop_step
 * (its width into width[p]; forced orderings added to verify.relaxed;
 * with sig, its signature into sig[p]), which needs only the partition's
 * own lops, ends, messages and collectives (a distributed analysis steps
 * a partition on one rank); then each partition's first global step
 * into offset[p] (and parts[p].step_first / step_count, n_steps) from
 * the partition DAG. */
int steps_local(struct analysis *a, uint32_t *width, struct sig *sig);
/* The automatic merge's parts (steps_merge.c): a partition's signature, the
 * hash of its distinct (call, caller) keys in increasing order (keys
 * kept so by steps_key_add, which returns their new count); two
 * partitions to merge, by a communication lop of each; and one pass's
 * pairs from each partition's first communication lop rep[p] and, with
 * alike, its signature. */
struct merge_pair {
	uint32_t x, y;
};
uint32_t steps_key_add(uint64_t *keys, uint32_t n, uint64_t x);
struct sig steps_sig_of(const uint64_t *keys, uint32_t n);
int steps_merge_pairs(const struct analysis *a, int alike, const uint32_t *rep, const struct sig *sig,
		      struct merge_pair **pairs, size_t *n, size_t *cap);
int steps_offsets(struct analysis *a, const uint32_t *width, uint32_t *offset);
/* steps_assign, then merges partitions whose global step spans overlap
 * and steps again until none do; with alike, merges only partitions
 * that make the same calls. */
int steps_global_merge(struct analysis *a, int alike);

/* seed 004 §3.2.1 for MPI traces (opts.reorder): each timeline's receives
 * within a partition reordered by idealised forward replay; sends,
 * collectives and waits keep their order (reorder.c). */
int reorder_mpi(struct analysis *a);
/* Its two halves. reorder_keys: the replay, partition by partition, into
 * w (each lop's clock value) and from (a receive's lowest sender
 * timeline), n_lops each, TRACE_NONE where none; needs part_lop_first
 * and part_lops. gid, when not NULL, is each lop's id in a whole
 * analysis whose lops a holds only some of (a partition owner's model:
 * every lop of its partitions, dist_steps.c), ascending in part_lops
 * within a partition. reorder_apply: each
 * timeline's runs ordered by them, the lops permuted, stats.reordered. */
int reorder_keys(const struct analysis *a, const uint32_t *gid, uint32_t *w, uint32_t *from);
int reorder_apply(struct analysis *a, const uint32_t *w, const uint32_t *from);

/* User phases: lop_phase[l] = how many phase-starting Enters happened on
 * the lop's timeline before it (lop_phase_region: the region of the
 * last), and the communication lops of each phase united; *sets loses
 * one for each union. */
int partition_assign_phases(struct analysis *a, struct uf *u, uint32_t *sets);

/* The caller merge in two halves (merge.c). caller_counts: with
 * count[n_frames] and most[n_regions] zeroed, most[r] becomes the most
 * communication below one call of region r in a->t (a rank's own frames
 * in a distributed run: the maximum over the ranks is the serial one).
 * caller_unite: unites consecutive communication lops of a timeline under
 * one call of the nearest multi-caller (most > 1). */
void caller_counts(const struct analysis *a, uint32_t *count, uint32_t *most);
void caller_unite(const struct analysis *a, struct uf *u, const uint32_t *most);

#endif
