/* cluster.h — grouping ranks by their lateness, for traces wider than a
 * screen (DESIGN.md §3.7; Ravel's approach: k-medoids, then single
 * linkage over the medoids, so clusters can be expanded one level at a
 * time).
 *
 * Each rank of a partition is described by its lateness at every local
 * step of the partition (0 where it has no operation); distance is the L1
 * norm (total difference in lateness, in ticks). Deterministic: the first
 * medoid is the rank with the largest total lateness (lowest rank on
 * ties), each next one the rank farthest from the medoids chosen so far;
 * then assignment and medoid updates alternate until nothing changes
 * (cluster_kmedoids).
 */
#ifndef SKEIN_CLUSTER_H
#define SKEIN_CLUSTER_H

#include <stdint.h>

#include "analysis.h"

#define CLUSTER_MAX_K 20

struct cluster_merge {
	uint32_t a, b;        /* the groups joined: cluster ids, or n_clusters + i for merge i */
	double distance;      /* single-linkage distance between them (ticks) */
};

struct clustering {
	uint32_t n_ranks;          /* ranks taking part in the partition */
	uint32_t *ranks;           /* n_ranks: their timeline ids, ascending */
	uint32_t *cluster;         /* n_ranks: cluster of ranks[i] */
	uint32_t n_clusters;
	uint32_t *medoid;          /* n_clusters: timeline id of each medoid */
	uint32_t *size;            /* n_clusters */
	struct cluster_merge *merges;   /* n_clusters - 1, closest first */
};

/* Clusters the ranks of partition `part` into at most k groups (1..20; no
 * more than the ranks). Fills c (free with cluster_fini). Returns 0,
 * ERR_USAGE for a bad part or k, or ERR_NOMEM. */
int cluster_partition(const struct analysis *a, uint32_t part, uint32_t k,
		      struct clustering *c);
void cluster_fini(struct clustering *c);

/* The k-medoids core, shared with the explorer's trace-wide clustering:
 * n rows of w values (row-major v), L1 distance, at most *k clusters.
 * Farthest-first seeding from the row with the largest sum (lowest on
 * ties); assignment and medoid updates then alternate until stable (at
 * most 30 rounds; a medoid update tries the 64 members nearest the
 * cluster's mean, all of them in smaller clusters). Writes cl[n] (each
 * row's cluster) and med[*k] (each cluster's medoid row); *k becomes the
 * number of clusters, none empty. Returns 0 or ERR_NOMEM. */
int cluster_kmedoids(const double *v, uint32_t n, uint32_t w, uint32_t *k,
		     uint32_t *med, uint32_t *cl);
/* Single linkage over the k medoids: merges[k - 1], closest first
 * (group: k scratch). */
void cluster_link(const double *v, uint32_t w, const uint32_t *med, uint32_t k,
		  struct cluster_merge *merges, uint32_t *group);
double cluster_l1(const double *x, const double *y, uint32_t w);

#endif
