/* dist_metrics.h — lateness, differential lateness, causes and hotspots
 * in a distributed analysis (doc/distributed.md): what metrics.c works
 * out, each rank for its own lops.
 *
 *  - The earliest exit of each partition step: every rank takes the
 *    minima over its lops, sends them to the rank holding that
 *    partition's minima (rank r: partitions [n_parts·r/size,
 *    n_parts·(r+1)/size)), which keeps the least and sends it back; so
 *    each rank learns the minima of the partition steps its lops are at,
 *    and the holders have the file's section. The same for global steps
 *    (held in equal runs of steps; nothing comes back: the metrics read
 *    only partition minima).
 *  - Differential lateness: what a receive needs from its message's
 *    sender (the sender lop's lateness, and that of the computation
 *    before the call that completed a non-blocking send, with those
 *    lops) is worked out by the sender's rank and sent to the
 *    receiver's; then each rank walks its own timelines as metrics.c
 *    does.
 *  - Hotspots: every rank's best, merged on rank 0. Start-up lateness
 *    is followed forward along the causes in rounds, a cause crossing
 *    ranks by message.
 *
 * The rank's lops are given as a local analysis over its shard's trace:
 * lop_op, op_lop, tl_lop (n_timelines + 1, those of other ranks empty),
 * lop_tl, lop_kind with local ids, lop_part and lop_step global, and the
 * options.
 */
#ifndef SKEIN_DIST_METRICS_H
#define SKEIN_DIST_METRICS_H

#include <stdint.h>

#include "analysis/core/analysis_impl.h"
#include "base/dcomm.h"
#include "model/dmodel.h"

struct dmet_in {
	const struct dmodel *d;
	const struct analysis *la;
	uint32_t lop_off;             /* global id of la's lop 0 */
	uint32_t n_parts, n_steps;
	/* rank 0: each partition's first global step and width */
	const uint32_t *step_first, *step_count;
};

struct dmet_out {
	uint32_t *diff;               /* la->n_lops, the caller's */
	uint8_t *cause;               /* la->n_lops, the caller's */
	struct lop_big *big;          /* global lop ids, in lop order */
	uint32_t n_big;
	struct lop_far *far;          /* global lop ids, in lop order */
	uint32_t n_far;
	/* the minima held here: partitions [part_lo, part_hi), their slots
	 * from pmin_first[0] on (global slot ids, part_hi - part_lo + 1 of
	 * them), and global steps [step_lo, step_hi) */
	uint32_t part_lo, part_hi, n_slots;
	uint32_t *pmin_first;
	uint64_t *pmin;
	uint32_t step_lo, step_hi;
	uint64_t *gmin;
	/* rank 0 */
	uint32_t *hot, *hot_all;
	uint32_t n_hot, n_hot_all;
	/* every rank */
	uint32_t progress_receives, startup_hidden, startup_lops, startup_max_lop;
};

/* 0, or the same error on every rank. */
int dist_metrics(struct dcomm *c, const struct dmet_in *in, struct dmet_out *out);
/* Frees what dist_metrics allocated in out (not diff and cause). */
void dmet_out_free(struct dmet_out *out);

#endif
