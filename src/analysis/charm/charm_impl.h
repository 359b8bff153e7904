/* charm_impl.h — the Charm++ structure stages (seed 004, §3), shared by:
 *
 *   charm_graph.c    happened-before edges between lops, the contracted
 *                    partition graph, cycle merge, leaps, partition chares
 *   charm_initial.c  serial blocks, dependency classes, initial partitions
 *                    split at application/runtime boundaries (§3.1.1)
 *   charm_merge.c    dependency merge (Alg. 1), serial block repair (Alg. 2)
 *   charm_infer.c    dependencies inferred from partition sources (Alg. 3)
 *   charm_leap.c     merge by leap (Alg. 4), DAG property 1, chare paths
 *                    (Alg. 5, property 2)
 *   charm_parts.c    lops without events join partitions; the partition
 *                    arrays of struct analysis
 *   charm_steps.c    step assignment with reordering by idealised forward
 *                    replay (§3.2), global steps, lops in logical order
 *   charm_metrics.c  idle experienced, differential duration, imbalance (§4)
 *
 * Lops of a Charm++ trace are its ops, one each. An *event* is a lop with
 * at least one usable message end (a sink or a source); a partition is a
 * set of event lops (a union-find over lops), until charm_parts_finalize
 * gives every lop one. Edges are kept between lops, so merges never need
 * to rewrite them: the partition graph is the edges seen through the
 * union-find, rebuilt (charm_graph_build) after each stage that merges.
 */
#ifndef SKEIN_CHARM_IMPL_H
#define SKEIN_CHARM_IMPL_H

#include "analysis/core/analysis_impl.h"
#include "model/charm.h"

/* What kind of dependency a lop's events are (seed 004 §3.1). */
enum { CLS_NONE, CLS_APP, CLS_RT };

/* Why an edge exists. */
enum charm_edge_kind {
	EDGE_SPLIT,        /* consecutive events of one serial block, split at an
	                    * application/runtime boundary (§3.1.1 (2)) */
	EDGE_SDAG,         /* serial n before serial n+1 on a chare (§2.1, §3.1.1 (3)) */
	EDGE_INFERRED,     /* partition sources in physical time (Alg. 3) */
	EDGE_ORDER,        /* application and runtime phases sharing a leap (§3.1.4) */
	EDGE_PATH,         /* a chare's path through the phase DAG (Alg. 5) */
};

struct charm_edge {
	uint32_t a, b;         /* lops: a happened before b */
	uint8_t kind;
};

struct charm {
	struct analysis *a;
	const struct trace *t;
	uint32_t n;                 /* lops (== ops) */
	uint32_t n_tl;
	uint8_t *cls;               /* per lop: CLS_* */
	uint32_t *block;            /* per lop: serial block */
	uint32_t n_blocks;
	uint32_t *block_entry;      /* per block: the region that started it */
	uint32_t *serial;           /* per lop: the SDAG serial its events count for, or NONE */
	struct uf u;                /* partitions of event lops */
	struct charm_edge *e;
	size_t n_e, cap_e;
	/* the contracted graph (charm_graph_build) */
	uint32_t np;
	uint32_t *pid;              /* per lop: partition, TRACE_NONE for non-events */
	uint32_t *root;             /* per partition: its union-find root */
	uint8_t *prt;               /* per partition: a runtime partition */
	uint32_t *first, *succ;     /* edges, deduplicated, CSR */
	uint32_t *leap;             /* per partition: longest path from a source */
	uint32_t *order;            /* a topological order */
	uint32_t n_leaps;
	/* partitions' chares (charm_graph_chares): sorted, CSR, with the
	 * partition's first lop on each */
	uint32_t *ch_first, *chares, *ch_lop;
	/* counts for analysis_stats */
	uint32_t edges_added;
};

/* Sets up c for a (classes, blocks and the union-find empty). Returns 0
 * or ERR_NOMEM. */
int charm_init(struct charm *c, struct analysis *a);
void charm_fini(struct charm *c);

/* Adds edge a -> b. Returns 0 or ERR_NOMEM. */
int charm_edge_add(struct charm *c, uint32_t a, uint32_t b, enum charm_edge_kind kind);

/* Rebuilds the contracted graph from the union-find and the edges:
 * partition ids, runtime flags, deduplicated successor lists. With
 * merge_cycles, strongly connected components are merged first (the
 * cycle merge of §3.1), so the result is a DAG; leaps and a topological
 * order are computed. Returns 0, ERR_NOMEM, or ERR_FORMAT when a cycle
 * is left (without merge_cycles). */
int charm_graph_build(struct charm *c, int merge_cycles);

/* The chares (timelines) of every partition, into ch_first / chares /
 * ch_lop. */
int charm_graph_chares(struct charm *c);
/* nw shares of the lops, [cut[w], cut[w + 1]), each cut moved forward
 * to a timeline's first lop (lops are numbered timeline by timeline:
 * no timeline, and so no serial block, in two shares). */
void charm_tl_cuts(const struct charm *c, uint32_t nw, uint32_t *cut);
/* Partition p's first lop on timeline tl, or TRACE_NONE (after
 * charm_graph_chares). */
uint32_t charm_first_on(const struct charm *c, uint32_t p, uint32_t tl);

/* Partitions and their timelines, for tests and reports. */
uint32_t charm_partition_of(const struct charm *c, uint32_t lop);

/* The stages, each followed by what it promises. */
int charm_initial(struct charm *c);       /* classes, blocks, initial partitions, edges */
int charm_dependency_merge(struct charm *c);   /* Alg. 1 + cycle merge */
int charm_repair_merge(struct charm *c);  /* Alg. 2 + cycle merge */
int charm_infer(struct charm *c);         /* Alg. 3 + cycle merge */
int charm_leap_merge(struct charm *c);    /* Alg. 4 */
int charm_enforce(struct charm *c);       /* property 1 (ordering edges), Alg. 5 */
/* Every lop into a partition; fills a's partition arrays and DAG. */
int charm_parts_finalize(struct charm *c);

/* §3.2 on the partitions charm_parts_finalize made: local steps
 * (reordered unless a->opts.reorder is 0), global steps, then each
 * timeline's lops renumbered into step order (a->op_of_lop). */
int charm_steps(struct charm *c);
/* The workers for work done phase by phase with scratch sized for the
 * largest phase (its lops in *most): every core, but one when there are
 * fewer than two phases or one holds over a quarter of the run (the
 * copies would cost more memory than the cores save time). */
uint32_t charm_phase_workers(const struct analysis *a, uint32_t *most);

/* §4: idle experienced, differential duration, imbalance. */
int charm_metrics_compute(struct analysis *a);

/* The whole Charm++ structure: the stages above in order. */
int charm_structure(struct analysis *a);

/* Is message m a runtime dependency? */
static inline int
msg_runtime(const struct analysis *a, uint32_t m)
{
	return (a->msgs[m].flags & MSGF_RUNTIME) != 0;
}

#endif
