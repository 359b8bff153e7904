/* dist_impl.h — the inside of the distributed structure stages (dist.h):
 *
 *   dist_xchg.c   records sent to the ranks that own them (alltoallv)
 *   dist_lops.c   the entry point: lops, local unions, the stages' counts
 *   dist_union.c  global sets from local ones: cross-rank links, numbering
 *   dist_cc.c     connected components of pairs spread over the ranks
 *   dist_graph.c  the partition graph, its cycles merged, counts, order
 *
 * Every function taking a struct dctx is collective: all ranks call it
 * in the same order and get the same rc. A local failure is passed in
 * (rc) or agreed on before the next exchange, so no rank waits for one
 * that gave up.
 */
#ifndef SKEIN_DIST_IMPL_H
#define SKEIN_DIST_IMPL_H

#include "analysis/core/analysis_impl.h"
#include "dist.h"

struct dctx {
	struct dcomm *c;
	const struct dmodel *d;
	struct analysis *a;          /* local lops; lop_part global ids */
	uint32_t lop_off, lops_all;  /* global lops [lop_off, lop_off + a->n_lops) */
	uint32_t *op_first;          /* size + 1: each rank's first global op */
	uint32_t *lop_first;         /* size + 1: each rank's first global lop */
};

struct dpair {
	uint32_t a, b;
};

/* The rank whose run of first[0 .. size] (ascending, first[size] the
 * total) holds id. */
static inline uint32_t
dx_owner(const uint32_t *first, uint32_t size, uint32_t id)
{
	return dmodel_rank_of(first, size, id);
}

/* dcomm_exchange after agreeing on rc (this rank's failure so far):
 * record i of n goes to rank dest[i], *out (the caller's to free) gets
 * the *n_out that came, in rank order, each rank's in the order it sent
 * them. at[i], when not NULL, is where record i stood among all this
 * rank sent (in rank order), so a reply that comes back in that order
 * finds its request. */
int dx_send(struct dcomm *c, int rc, const void *rec, size_t n, size_t size, const uint32_t *dest,
	    void **out, size_t *n_out, uint32_t *at);

/* v[0 .. n) (size bytes each) sorted by order, keeping the first of each
 * run of records that are the same; returns how many are kept. */
size_t dx_sort_unique(void *v, size_t n, size_t size, int (*order)(const void *, const void *),
		      int (*same)(const void *, const void *));

/* Sorts and removes repeated pairs (by a, then b) in place; *n shrinks. */
void dx_pairs_unique(struct dpair *p, size_t *n);

/* Connected components (dist_cc.c). */
struct dcc {
	uint32_t *node;       /* this rank's nodes (ends of a pair of two), sorted */
	uint32_t *root;       /* each one's component's root (one of its members) */
	size_t n;
	uint64_t nodes, comps;        /* over all ranks */
	uint32_t rounds, exchanges;   /* hooking rounds and exchanges made */
	uint64_t most_in;             /* the most records one exchange brought here */
};

/* The components of the graph whose edges are the pairs p[0 .. n) that
 * each rank gives (any pair on any rank; a pair (v, v) is no edge);
 * node v belongs to rank dx_owner(first, size, v). The root of a
 * component is the same on every rank, and the same whatever the ranks
 * (it depends on the members only), but it is not its least member
 * (dist_cc.c says why). rc: this rank's failure so far. out is the
 * caller's to dcc_fini; on failure it holds no nodes. */
int dist_components(struct dcomm *c, int rc, const uint32_t *first, const struct dpair *p, size_t n,
		    struct dcc *out);
void dcc_fini(struct dcc *cc);

/* The global sets of communication lops: each rank's local union-find u
 * (over its lops; roots are each set's first lop) joined across the ranks
 * through messages whose ends are on two ranks, collectives, and the
 * Waitall links whose ends are (with waitall). *sets becomes the number
 * of global sets (the same on every rank). With roots, a->lop_part of
 * every communication lop becomes its set's number: sets in order of
 * their first lop, as number_partitions numbers them (dist_union.c). */
int dist_sets(struct dctx *x, struct uf *u, int waitall, int roots, uint32_t *sets);

/* From lop_part of the communication lops: computation lops attached,
 * then the partition graph gathered, its cycles merged until it is a
 * DAG (partition_finalize's loop), the topological order and leaps, and
 * every partition's counts; n_parts the partitions numbered so far
 * (dist_graph.c). */
int dist_finalize(struct dctx *x, uint32_t n_parts);

#endif
