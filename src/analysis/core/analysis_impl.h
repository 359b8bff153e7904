/* analysis_impl.h — the inside of struct analysis, shared by its stages:
 *
 *   lops.c       logical ops and Isend coalescing
 *   graph.c      union-find, strongly connected components, DAG depths
 *   partition.c  the partitions from a union-find; the DAG; renumbering
 *   verify.c     the invariants
 *   metrics.c    lateness, differential lateness, causes, hotspots
 *   iterations.c, signature.c  the iterations
 *
 * and by each paradigm's structure stages: seed 000's for MPI
 * (analysis/mpi/stages.h), seed 004's for Charm++ (analysis/charm/).
 *
 * Per-lop arrays are indexed by lop id; per-partition arrays by partition
 * id (dense after partition_finalize()).
 */
#ifndef SKEIN_ANALYSIS_IMPL_H
#define SKEIN_ANALYSIS_IMPL_H

#include "analysis.h"
#include "iterations.h"
#include "base/dcomm.h"
#include "base/sort.h"
#include "model/dmodel.h"
#include "model/trace.h"

/* A lop's differential lateness too large for a->diff. */
struct lop_big {
	uint32_t lop, zero;
	uint64_t diff;
};

/* A lop's cause lop that its cause byte does not name. */
struct lop_far {
	uint32_t lop, cause_lop;
};

/* Lops from lop up to the next run's first are in iteration iter
 * (TRACE_NONE: set-up, wrap-up; ITER_OF_STEP: each in its global
 * step's): iterations.c. */
struct iter_run {
	uint32_t lop, iter;
};
#define ITER_OF_STEP (TRACE_NONE - 1)
/* The iteration of step s, looked for first in iteration `near` and the
 * next (where the step before was): iterations_query.c. */
uint32_t iterations_near_step(const struct iterations *it, uint32_t s, uint32_t near,
			      const struct analysis *a);

struct analysis {
	const struct trace *t;
	trace_progress_fn progress;   /* may be NULL; stages report through it */
	void *ud;
	/* the model's arrays, cached: stages touch them per lop */
	struct trace_opv ops;         /* read with trace_op_get */
	const struct trace_msg *msgs;
	const struct trace_end *ends;
	uint32_t n_ops, n_ends;
	struct analysis_opts opts;
	int charm;                    /* a Charm++ trace (seed 004's stages) */
	uint32_t unused_opts;         /* AOPT_* the caller set that do not apply */
	struct analysis_stats stats;
	struct analysis_verify verify;

	/* lops */
	uint32_t n_lops;
	uint32_t *lop_op;        /* n_lops + 1: first trace op; CSR over ops */
	uint32_t *op_lop;        /* n_ops: trace op -> lop; NULL once lops_index_ops
				  * has replaced it by the two arrays below */
	/* op -> lop where each lop is a run of ops in op order (MPI without
	 * reordering): a bit an op, set where its lop begins, and the lops
	 * begun before each word of 64 (op_lop_of) */
	uint64_t *op_begins;
	uint32_t *op_begins_before;
	uint32_t *tl_lop;        /* n_timelines + 1: first lop of each timeline */
	uint32_t *lop_tl;        /* n_lops: timeline */
	uint8_t *lop_kind;       /* n_lops: enum trace_op_kind */

	/* partitions */
	uint32_t n_parts;
	uint32_t *lop_part;      /* n_lops */
	struct analysis_part *parts;
	uint32_t *part_lop_first;   /* n_parts + 1: CSR into part_lops */
	uint32_t *part_lops;        /* lops grouped by partition, in timeline order */
	uint32_t *dag_first;        /* n_parts + 1: CSR into dag_succ */
	uint32_t *dag_succ;
	uint32_t *part_order;       /* n_parts: a topological order */
	uint32_t *lop_phase;        /* n_lops: user phase index, or NULL without phases */
	uint32_t *lop_phase_region; /* n_lops: region that opened that phase */

	/* steps */
	uint32_t *lop_step;      /* global step */
	uint32_t n_steps;

	/* metrics (metrics.c). Lateness is not stored per lop: it is the
	 * lop's exit minus the earliest exit of its partition step (pmin)
	 * or of its global step (gmin): lop_late, lop_glate. Differential
	 * lateness is, in 32 bits (lop_diff), and the lop a propagated
	 * cause came from is found again (lop_cause_lop). */
	uint32_t *pmin_first;    /* n_parts + 1: partition p's steps are pmin[pmin_first[p] ..] */
	uint64_t *pmin;          /* pmin_first[n_parts] */
	uint64_t *gmin;          /* n_steps */
	uint32_t *diff;          /* n_lops: differential lateness, or DIFF_BIG: in diff_big */
	struct lop_big *diff_big;   /* the lops whose is DIFF_BIG or more, in lop order */
	uint32_t n_diff_big;
	uint8_t *cause;          /* n_lops: enum analysis_cause, CAUSE_FROM_STARTUP, the sender */
	struct lop_far *cause_far;  /* message causes the cause byte does not name, in lop order */
	uint32_t n_cause_far;
	uint32_t *hot;
	uint32_t n_hot;
	uint32_t *hot_all;       /* the hotspots with start-up counted */
	uint32_t n_hot_all;

	struct clustering *clusters;   /* n_parts, when opts.clusters > 0 */

	/* iterations (iterations.c) */
	struct iterations iters;
	/* n_parts: each partition's signature (signature.h), folded while
	 * the partitions are stepped for iterations_detect, which frees it;
	 * NULL when it is not (signature_parts then) */
	uint64_t *part_isig;
	uint32_t *iter_starts;
	/* each lop's iteration, as runs of consecutive lops in one iteration
	 * (iterations_of_lop); NULL without iterations */
	struct iter_run *iter_runs;
	uint32_t n_iter_runs;
	/* Reordering (charm_steps.c, reorder.c) puts each timeline's lops in
	 * logical order, which can differ from time order: lop l is ops
	 * op_of_lop[l] .. op_last_of_lop[l] (NULL: lop_op holds; the second
	 * NULL alone: one op per lop, as in Charm++ traces); lops_permute.c */
	uint32_t *op_of_lop, *op_last_of_lop;
	uint64_t *idle_exp;      /* n_lops: idle experienced (§4), or NULL */
	uint64_t *dur_diff;      /* n_lops: differential duration */
	uint64_t *imbalance;     /* n_lops: its PE's load above the least loaded, in its phase */
	uint64_t *part_imbalance;   /* n_parts: most minus least loaded PE */
	uint32_t *part_region;      /* n_parts: the entry most of its events ran */
	/* Charm++: each PE's lops in time order (by enter, equal enters by
	 * lop id), PE after PE from pe_first[pe] (trace_pe_count + 1 of
	 * them); the idle experienced sorts them (charm_metrics.c) and keeps
	 * them for the critical path and the explorer's PE rows. NULL when
	 * not computed (an analysis read from a saved file). */
	uint32_t *pe_first, *pe_lops;

	/* What lateness cannot see (analysis/explain/explain.h): computed
	 * after the metrics and saved with them (a file skein-mpi wrote
	 * holds none: computed when it opens). Waits, delays in lop order;
	 * outliers and problems largest first. explained: they are there
	 * (computed or read); explain_mapped: in the saved file's mapping. */
	struct analysis_wait *waits;
	uint32_t n_waits;
	struct analysis_delay *delays;
	uint32_t n_delays;
	struct analysis_outlier *outliers;
	uint32_t n_outliers;
	struct analysis_problem *problems;
	uint32_t n_problems;
	int explained, explain_mapped;

	int mapped;              /* the arrays are in a saved file (saved.c) */
	/* Work counted for the tests of complexity (not saved): the lops the
	 * Charm++ stepper's stall cursor passed over (charm_steps.c; one
	 * pass a phase at most, however many stalls). */
	uint64_t stall_scans;

	/* A distributed analysis's share (doc/distributed.md): the ranks'
	 * collectives, and this rank's lops [lop_off, lop_off + n_lops) of
	 * lops_all, over its shard's trace (model/dmodel.h: ids of ops, ends,
	 * frames and lops local; of partitions, steps, messages and
	 * collectives global). NULL for the whole analysis. Stages that run
	 * distributed (iterations.c, signature.c) take their part and agree
	 * with the other ranks through it. */
	struct dcomm *dc;
	const struct dmodel *dm;
	uint32_t lop_off, lops_all;
};

/* The lop holding trace op `op`: a->op_lop's, or the lops begun up to
 * it less one. */
static inline uint32_t
op_lop_of(const struct analysis *a, uint32_t op)
{
	if (a->op_lop)
		return a->op_lop[op];
	uint64_t upto = a->op_begins[op / 64] & (~(uint64_t)0 >> (63 - op % 64));
	return a->op_begins_before[op / 64] + (uint32_t)__builtin_popcountll(upto) - 1;
}

/* The first and last trace ops of lop l. */
static inline uint32_t
lop_first_op(const struct analysis *a, uint32_t l)
{
	return a->op_of_lop ? a->op_of_lop[l] : a->lop_op[l];
}

static inline uint32_t
lop_last_op(const struct analysis *a, uint32_t l)
{
	return a->op_last_of_lop ? a->op_last_of_lop[l] : a->op_of_lop ? a->op_of_lop[l] : a->lop_op[l + 1] - 1;
}

/* The ends of lop l (all its trace ops' ends are contiguous). */
static inline const struct trace_end *
lop_ends(const struct analysis *a, uint32_t l, uint32_t *n)
{
	uint32_t first = trace_op_get(&a->ops, lop_first_op(a, l)).end_first;
	uint32_t next = lop_last_op(a, l) + 1;
	*n = (next < a->n_ops ? trace_op_get(&a->ops, next).end_first : a->n_ends) - first;
	return a->ends + first;
}

static inline uint64_t
lop_enter(const struct analysis *a, uint32_t l)
{
	return trace_op_get(&a->ops, lop_first_op(a, l)).t_enter;
}

static inline uint64_t
lop_exit(const struct analysis *a, uint32_t l)
{
	return trace_op_get(&a->ops, lop_last_op(a, l)).t_exit;
}

/* enter to exit; 0 for a lop whose clock runs backwards */
static inline uint64_t
lop_duration(const struct analysis *a, uint32_t l)
{
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
	return ex > en ? ex - en : 0;
}

/* cause[l] holds enum analysis_cause (CAUSE_MASK); CAUSE_FROM_STARTUP:
 * l's lateness came from a rank's start-up (analysis_lop_from_startup);
 * and for CAUSE_MESSAGE, from bit CAUSE_SRC_SHIFT, where the sender is
 * among l's receive ends: 2k for the sender of the k-th, 2k + 1 for the
 * computation before the call that completed it (sender progress);
 * CAUSE_SRC_FAR: in a->cause_far. */
#define CAUSE_MASK 0x07u
#define CAUSE_FROM_STARTUP 0x08u
#define CAUSE_SRC_SHIFT 4
#define CAUSE_SRC_FAR 15u

/* a->diff[l] below this is l's differential lateness; at it, the value
 * is in a->diff_big. */
#define DIFF_BIG UINT32_MAX

/* Lateness of lop l: its exit after the earliest exit of its partition
 * step; 0 outside the steps. */
static inline uint64_t
lop_late(const struct analysis *a, uint32_t l)
{
	uint32_t p = a->lop_part[l], s = a->lop_step[l];
	if (p == TRACE_NONE || s == TRACE_NONE)
		return 0;
	return lop_exit(a, l) - a->pmin[a->pmin_first[p] + s - a->parts[p].step_first];
}

/* Global lateness: the same over the whole global step. */
static inline uint64_t
lop_glate(const struct analysis *a, uint32_t l)
{
	uint32_t s = a->lop_step[l];
	return s == TRACE_NONE ? 0 : lop_exit(a, l) - a->gmin[s];
}

uint64_t lop_diff_big(const struct analysis *a, uint32_t l);

/* Differential lateness: l's lateness beyond its latest predecessor's. */
static inline uint64_t
lop_diff(const struct analysis *a, uint32_t l)
{
	uint32_t d = a->diff[l];
	return d < DIFF_BIG ? d : lop_diff_big(a, l);
}

static inline enum analysis_cause
lop_cause(const struct analysis *a, uint32_t l)
{
	return (enum analysis_cause)(a->cause[l] & CAUSE_MASK);
}

/* The lop whose lateness l's propagated from (causes b and d), or
 * TRACE_NONE (metrics.c). */
uint32_t lop_cause_lop(const struct analysis *a, uint32_t l);

/* Do a collective's members meet in a rendezvous of the stepping
 * (mpi/steps.c; the distributed stepping's input, dist_run.c)? Those of
 * a non-blocking one are the calls that completed it, which need not
 * have met: each is placed as its own rank allows (doc/analysis.md). */
static inline int
coll_meets(const struct trace_coll *c)
{
	return c->member_count > 1 && !(c->flags & COLLF_NONBLOCKING);
}

/* The stretch of lops just before l on its timeline that are late by
 * nothing (alone at their step), back to the last that was late, a
 * collective or the rank's start-up, at most LOST_MAX_LOPS (analysis.c): its first lop in
 * *from (l when empty), its summed duration in *sum; returns the longest
 * of them, or TRACE_NONE for none. Where a lop created more lateness
 * than it lasted, this is where the rest was lost (explain's
 * analysis_lop_lost; analysis_lop_cause's created-rma). */
#define LOST_MAX_LOPS 4096
uint32_t lop_lost_before(const struct analysis *a, uint32_t l, uint64_t *sum, uint32_t *from);

/* A lop's cause byte from its lateness, differential lateness, whether
 * it receives, whether its latest predecessor was a sender and which
 * (src, as the cause byte names it; CAUSE_SRC_FAR and up: *far is set,
 * the lop kept aside): "created here" (a, or c for a receive) when at
 * least half its lateness is its own, else propagated along the
 * timeline (b) or from a sender (d); doc/analysis.md. */
static inline uint8_t
metrics_cause(uint64_t late, uint64_t diff, int receives, int from_sender, uint32_t src, int *far)
{
	*far = 0;
	if (late == 0)
		return CAUSE_NONE;
	if (diff >= late - diff)
		return receives ? CAUSE_IN_FLIGHT : CAUSE_COMPUTE;
	if (!from_sender)
		return CAUSE_TIMELINE;
	if (src < CAUSE_SRC_FAR)
		return (uint8_t)(CAUSE_MESSAGE | src << CAUSE_SRC_SHIFT);
	*far = 1;
	return (uint8_t)(CAUSE_MESSAGE | CAUSE_SRC_FAR << CAUSE_SRC_SHIFT);
}

/* Is message m usable for structure: both ends present, and (with
 * match_size) both ends agreeing on its size? */
static inline int
msg_ok(const struct analysis *a, uint32_t m)
{
	const struct trace_msg *msg = &a->msgs[m];
	return msg->send_op != TRACE_NONE && msg->recv_op != TRACE_NONE &&
	       !(a->opts.match_size && (msg->flags & MSGF_SIZE_MISMATCH));
}

/* The options checked (ERR_USAGE, e says why) and an empty analysis of t
 * with them, to be filled by the stages: analysis_run's start, and the
 * distributed stages' (dist.h). */
int analysis_new(const struct trace *t, const struct analysis_opts *opts, struct analysis **out,
		 struct err *e);

/* Stage entry points; each returns 0 or ERR_NOMEM / ERR_CANCELLED. */
int lops_build(struct analysis *a);
/* Once no stage writes op_lop (after the structure's): replaces it by the
 * index op_lop_of reads (an MPI trace's lops are runs of ops in op order
 * unless reordered), checked op by op against it; keeps it when the
 * index does not give it back. 0 or ERR_NOMEM. */
int lops_index_ops(struct analysis *a);
void verify_run(struct analysis *a);
int metrics_compute(struct analysis *a);
int iterations_detect(struct analysis *a);

/* Partition helpers shared by the paradigms' structure stages (graph.c,
 * partition.c; mpi/, charm/). */

/* Union-find over lops (communication lops only are ever united). */
struct uf {
	uint32_t *parent;
	uint32_t n;
};
int uf_init(struct uf *u, uint32_t n);
void uf_fini(struct uf *u);
uint32_t uf_find(struct uf *u, uint32_t x);
/* Unites the sets of x and y; returns 1 if they were apart. */
int uf_union(struct uf *u, uint32_t x, uint32_t y);
/* The same over a parent array that the workers of a stage share (graph.c
 * says how): x's root, and x and y united (1 if they were apart). */
uint32_t uf_find_shared(uint32_t *parent, uint32_t x);
int uf_unite_shared(uint32_t *parent, uint32_t x, uint32_t y);
/* Dense ids of the sets of lops 0 .. n - 1 whose member byte is not 0,
 * in order of each set's first member, into id[] (TRACE_NONE for the
 * others), and their number; every member ends pointing at its root;
 * with roots, *roots (malloc'd, n_sets + 1) gets each id's root. On
 * every core where every set's root (its smallest lop) is a member, else
 * on one. Returns 0 or ERR_NOMEM. */
int uf_number(uint32_t *parent, uint32_t n, const uint8_t *member, uint32_t *id, uint32_t *n_sets,
	      uint32_t **roots);

/* Renumbers partitions densely from a union-find over lops, assigns each
 * computation lop to the partition of the communication lop that follows
 * it (or precedes it, at the end of a timeline), and rebuilds the
 * partition arrays, the DAG (merging any cycles first) and a topological
 * order. */
int partition_finalize(struct analysis *a, struct uf *u);

/* P's counts cleared, its leap kept: a detected partition merged from
 * none, before its lops are counted. */
void part_clear(struct analysis_part *P);

/* A topological order of the partition DAG into part_order (Kahn's), and
 * each partition's leap: its longest-path depth from the sources. */
int partition_order(struct analysis *a);

/* The partitions in order of their first global step (stable: by id
 * within a step) into order[n_parts]. Returns 0 or ERR_NOMEM. */
int parts_by_first_step(const struct analysis *a, uint32_t *order);

/* a->part_lop_first (n_parts + 1, allocated) and a->part_lops (n_lops,
 * allocated): each partition's lops in lop order, from a->lop_part
 * (TRACE_NONE: in none), on every core; with attach, each computation
 * lop attached first (lops_attach_computation). 0 or ERR_NOMEM. */
int partition_lists(struct analysis *a, int attach);

/* Renumbers partitions in order of their first global step. */
int partition_renumber(struct analysis *a);

/* Puts lops in a new order: lop l becomes old lop old[l]. Every per-lop
 * array and op_lop follow, as do the partitions' lop lists. The caller
 * only permutes within timelines (lops_permute.c). */
int lops_permute(struct analysis *a, const uint32_t *old);

/* Strongly connected components of a graph in CSR form (n nodes, edges
 * first[v]..first[v+1] of succ): comp[v] gets v's component. Returns the
 * number of components, or ERR_NOMEM (negative). */
int64_t tarjan(uint32_t n, const uint32_t *first, const uint32_t *succ, uint32_t *comp);

/* Longest-path depth from the sources of every node of a DAG in CSR form
 * (n nodes), with Kahn's order into order; indeg is n of scratch. Returns
 * 0, or ERR_FORMAT when a cycle is left. */
int dag_depths(uint32_t n, const uint32_t *first, const uint32_t *succ, uint32_t *depth,
	       uint32_t *order, uint32_t *indeg);

/* The work of partition p (its lops, plus one) for par_split; ctx is the
 * analysis. */
uint64_t part_weight(const void *ctx, uint32_t p);

/* The first communication lop of partition p, or TRACE_NONE. */
uint32_t part_first_comm(const struct analysis *a, uint32_t p);

/* The partition graph's edges: fn(ctx, p, q, l) once for each p -> q,
 * where a communication lop of p is followed on its timeline by one of
 * q ≠ p and l is the first such lop of p; sources in partition order.
 * stamp is n_parts of scratch. */
typedef void (*part_edge_fn)(void *ctx, uint32_t p, uint32_t q, uint32_t l);
void part_edges(const struct analysis *a, uint32_t *stamp, part_edge_fn fn, void *ctx);

/* Each computation lop of [l0, l1) joins the partition of the
 * communication lop after it on its timeline (TRACE_NONE when there is
 * none); lop_part of communication lops must be set. */
void lops_attach_computation(struct analysis *a, uint32_t l0, uint32_t l1);

/* Builds a union-find whose sets are the current partitions. */
int partition_to_uf(const struct analysis *a, struct uf *u);

#endif
