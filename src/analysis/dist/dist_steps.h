/* dist_steps.h — stepping in a distributed analysis (doc/distributed.md).
 *
 * A partition is closed under its messages and collectives (both ends of
 * every message it steps by, every member of its collectives, are its
 * own), so it steps alone, with the serial stepper (steps.c:
 * steps_local). Each partition is stepped by the rank that holds its
 * first lop: partitions are numbered in the order of their first
 * communication lop, so rank r owns the partitions [part_first[r],
 * part_first[r + 1]). Every rank sends the lops of partitions it does
 * not own to their owner (all-to-all); the owner steps them in a model
 * of their own, made of just those lops, and sends each lop's step back.
 * The partitions' widths are gathered, their first global steps worked
 * out on rank 0 from the partition DAG, as steps_offsets does, and
 * sent to every rank.
 *
 * An owner steps its partitions in rounds: each round deals, steps and
 * sends back the next run of its partitions whose lops and ends number
 * at most a budget (a partition larger than that alone), so the model
 * it makes stays a fraction of its share. Memory: a rank holds its lops
 * and one round's lops of the partitions it owns, one entry per
 * partition besides, and rank 0 the DAG.
 */
#ifndef SKEIN_DIST_STEPS_H
#define SKEIN_DIST_STEPS_H

#include <stdint.h>

#include "base/dcomm.h"

/* One of the rank's lops, as stepping needs it. */
struct dstep_lop {
	uint64_t enter;
	uint32_t tl;
	uint32_t part;          /* global partition id */
	uint8_t kind;           /* enum trace_op_kind */
};

/* One end of a lop: a message it sends or receives that the analysis
 * steps by (msg_ok: both ends there, sizes agreeing when they must), or
 * a collective it takes part in. Message ends the analysis skips are
 * left out. */
struct dstep_end {
	uint32_t id;            /* global message or collective id */
	uint32_t partner;       /* message: the global lop at its other end */
	uint8_t role;           /* enum trace_end_role */
};

struct dstep_in {
	uint32_t lop_off, n_lops;      /* the rank's lops: global [off, off + n) */
	const struct dstep_lop *lops;
	const uint32_t *end_first;     /* n_lops + 1: lop i's ends */
	const struct dstep_end *ends;  /* in the order the serial lop has them */
	uint32_t n_timelines;
	uint32_t n_parts;
	const uint32_t *part_first;    /* size + 1: the partitions each rank owns */
	/* rank 0 only: the partition DAG (a topological order, successors) */
	const uint32_t *part_order, *dag_first, *dag_succ;
	/* lops, end_first and ends are malloc'd and dist_steps frees them
	 * when it is done with them (in every case): after the last round */
	int consume;
	/* set: the owners replay their partitions for the reordering
	 * (reorder_keys) instead of stepping them: lop_w and lop_from are
	 * filled, nothing else */
	int reorder;
	/* a round's budget of lops and ends per owner (the largest any rank
	 * gives); 0: a sixteenth of the largest rank's, at least
	 * DSTEP_BATCH_MIN */
	uint64_t batch;
};

#define DSTEP_BATCH_MIN (1u << 16)

struct dstep_out {
	uint32_t *lop_step;     /* n_lops: global steps (TRACE_NONE for none), caller's array */
	uint32_t n_steps;       /* every rank */
	uint64_t relaxed;       /* every rank: orderings the stepper forced */
	/* when not NULL (n_parts each): each partition's first global step
	 * and width, on every rank */
	uint32_t *step_first, *step_count;
	/* with in->reorder (n_lops each, caller's): each lop's replay clock
	 * and a receive's lowest sender timeline (TRACE_NONE: none) */
	uint32_t *lop_w, *lop_from;
	uint32_t n_rounds;      /* every rank: the rounds the owners stepped in */
};

/* Every rank's share of the serial steps_assign; 0, or the same error on
 * every rank. */
int dist_steps(struct dcomm *c, const struct dstep_in *in, struct dstep_out *out);

/* The partitions renamed by their first global step, as
 * partition_renumber does (each partition's span in a->parts must be
 * set, and a->n_steps): a's partitions, DAG and topological order (the
 * same on every rank, so every rank renames them alike, no exchange),
 * and lop_part of the rank's n_lops lops. 0 or ERR_NOMEM (local). */
struct analysis;
int dist_renumber(struct analysis *a, uint32_t *lop_part, uint32_t n_lops);

#endif
