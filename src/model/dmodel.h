/* dmodel.h — one rank's shard of the model, for the analysis as an MPI
 * job (doc/distributed.md).
 *
 * The ranks of a job cut the timelines between them: rank r holds the
 * timelines [tl_lo, tl_hi), with their calls, ends, frames and quiet
 * calls (struct trace_call, which name no ids: local call_first). A
 * timeline's records are contiguous and the timelines' come in id order,
 * so a rank's records of each kind are the serial model's [off, off + n)
 * (struct dslice), `off` being an exclusive scan of the ranks' counts.
 * A trace whose timelines' records are not in id order cannot be cut so
 * (ERR_USAGE): its analysis is the serial one.
 *
 * d->t is a trace of the rank's own: every definition (strings, regions,
 * communicators, locations, timelines), the trace's information summed
 * over the ranks, and its own records, where
 *
 *  - a location's events (trace_location.events) are those this rank
 *    read of it, 0 for the locations other ranks read: the whole trace's
 *    are the sum over the ranks (which rank reads a location without a
 *    timeline is the reader's choice);
 *
 *  - its RMA operations and passive-target epochs are those of its
 *    timelines (the windows are definitions), with LOCAL op ids;
 *  - ids of ops, ends and frames inside them are LOCAL (oprec.frame,
 *    oprec.end_first, frame.parent; timeline.op_first and frame_first of
 *    its timelines; the others have no ops or frames, and 0 there): local
 *    id i is global id off + i, modulo 2^32 (so a timeline of its own
 *    that was never begun, 0 in the whole model, holds 0 - off), op ids
 *    counted as trace_op_count() counts them (two per stored call);
 *  - ids of messages and collectives are GLOBAL (trace_end.id);
 *  - t->msgs are the messages its timelines sent, ids send.off + i for
 *    i < send.n, then those of its receives whose send is missing (lone
 *    receives), ids lone_id[k], in id order; every op id in them
 *    (send_op, recv_op, send_done_op) is GLOBAL;
 *  - t->colls are every collective, the same on every rank (global ids;
 *    member_first and member_count into the global member list), and
 *    t->coll_members the rank's own members only (global op ids), in the
 *    global list's order, t->coll_sent the bytes each sent: its members
 *    of collective i are coll_members[coll_first[i] .. coll_first[i + 1]),
 *    and sit at member_first + member_before[i] in the global list.
 */
#ifndef SKEIN_DMODEL_H
#define SKEIN_DMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* A rank's run of a kind's records: global ids [off, off + n) of all. */
struct dslice {
	uint32_t off, n, all;
};

struct dmodel {
	uint32_t rank, size;
	struct trace *t;
	int shell;                 /* t shares its definitions (dmodel_slice) */
	uint32_t tl_lo, tl_hi;
	struct dslice oprec, ends, frames, sends, calls, rmas, epochs;
	uint32_t n_lone, lone_all; /* lone receives: ids send.all + 0 .. lone_all - 1 in all */
	uint32_t *lone_id;
	uint32_t *coll_first;      /* n_colls + 1 */
	uint32_t *member_before;   /* n_colls */
};

/* The global id of a local op, and back (TRACE_NONE when not the rank's). */
static inline uint32_t
dmodel_op_global(const struct dmodel *d, uint32_t op)
{
	return op + 2 * d->oprec.off;
}

static inline uint32_t
dmodel_op_local(const struct dmodel *d, uint32_t op)
{
	uint32_t lo = 2 * d->oprec.off;
	return op >= lo && op - lo < 2 * d->oprec.n ? op - lo : TRACE_NONE;
}

/* The rank holding timeline tl, given every rank's first timeline
 * (tl_first[0 .. size], tl_first[size] = the timelines' count). */
uint32_t dmodel_rank_of(const uint32_t *tl_first, uint32_t size, uint32_t tl);

/* Rank `rank` of `size`'s shard of the whole model `full` (read only,
 * whose definitions it shares: it must outlive the shard), holding
 * timelines [tl_lo, tl_hi): what a distributed read and match of the same
 * trace must give (the tests' reference). ERR_USAGE when full's records
 * are not in timeline order; ERR_NOMEM. */
int dmodel_slice(const struct trace *full, uint32_t rank, uint32_t size, uint32_t tl_lo,
		 uint32_t tl_hi, struct dmodel *out);

/* 0 when a and b hold the same shard; else 1 with what differs first in
 * why (a sentence). */
int dmodel_compare(const struct dmodel *a, const struct dmodel *b, char *why, size_t n);

void dmodel_free(struct dmodel *d);

struct dcomm;
struct build;

/* The distributed match (dmatch.c), called by every rank of c: rank
 * c->rank's share of the trace, read and joined but not matched (t and
 * its builder b holding the receive and collective halves, ids counted
 * from 0 in the share: otf2_share_local), holding timelines [tl_lo,
 * tl_hi), becomes its shard, exactly the one dmodel_slice() cuts from
 * the model one process reads and matches (build_finish). The ranks'
 * timeline runs must tile the trace's timelines in rank order.
 *
 * t's information is the share's part (otf2_share_local): its records,
 * its events' warnings and calls without records are summed over the
 * ranks, the span is the ranks' widest (a t_begin of UINT64_MAX: no
 * record), each location's events are the one rank's that read it (0 on
 * the others); the definitions' warnings (no MPI ranks, no local
 * definitions) are every rank's alike and kept. The events, the event
 * count mismatches, the messages' and collectives' warnings are counted
 * afresh over the whole trace.
 *
 * Takes t and b in every case: on success t is out->t and b is
 * destroyed; on failure both are. Returns the same on every rank: 0,
 * ERR_USAGE (the runs do not tile the timelines, or t's records are not
 * in timeline order), ERR_LIMIT, ERR_NOMEM (on any rank) or
 * ERR_CANCELLED (progress returned non-zero on a rank). */
int dmodel_finish(struct dcomm *c, struct trace *t, struct build *b, uint32_t tl_lo, uint32_t tl_hi,
		  struct dmodel *out, trace_progress_fn progress, void *ud);

/* Collective: the threads' and streams' frames (trace.h's lanes) each
 * rank read for the lanes of its share, onto every rank, so that every
 * rank's t holds every lane's (in lane order, each rank's after those of
 * the ranks before it). Returns 0, ERR_LIMIT (more than 2^32 - 3 frames)
 * or ERR_NOMEM / the exchange's code (t unchanged). */
int trace_lanes_gather(struct dcomm *c, struct trace *t);

#endif
