/* view_cluster.h — clustered rows: the ranks of a whole trace grouped by
 * their lateness, for traces with more ranks than a screen has rows.
 *
 * The analysis clusters each partition on its own (cluster.h); rows are
 * ranks for the whole trace, so the explorer needs one grouping for all
 * of it. Each rank is described by its lateness summed per partition
 * (partitions in step order; beyond VIEW_CLUSTER_DIMS partitions,
 * neighbouring ones share a dimension), and grouped the way cluster.c
 * groups a partition: k-medoids with L1 distance, deterministic
 * farthest-first seeding from the latest rank, then single linkage over
 * the medoids. The merges give a hierarchy: "level L" is the cut with L
 * groups, so the view can join or split one level at a time without
 * clustering again.
 *
 *   view_cluster_create → set_level / expand … → view_cluster_destroy
 *
 * Built on the public analysis API only; the analysis must outlive it.
 */
#ifndef SKEIN_VIEW_CLUSTER_H
#define SKEIN_VIEW_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/core/analysis.h"
#include "analysis/core/cluster.h"
#include "base/err.h"
#include "view_index.h"

#define VIEW_CLUSTER_DIMS 128

/* A trace-wide clustering of ranks (plain data; view_cluster_ranks fills
 * it, view_clustering_fini frees it). */
struct view_clustering {
	uint32_t n_ranks;
	uint32_t n_clusters;            /* ≤ k; fewer when fewer ranks differ */
	uint32_t *cluster;              /* n_ranks: cluster of each rank */
	uint32_t *medoid;               /* n_clusters: rank */
	uint32_t *size;                 /* n_clusters: ranks in each, all > 0 */
	struct cluster_merge *merges;   /* n_clusters - 1, closest first; ids as in cluster.h */
	double *dist;                   /* n_clusters²: L1 distance between medoids (ticks) */
};

/* Clusters all ranks of a's trace into at most k groups (1..CLUSTER_MAX_K).
 * Returns 0, ERR_USAGE for a bad k (e says why) or ERR_NOMEM. */
int view_cluster_ranks(const struct analysis *a, uint32_t k, struct view_clustering *c, struct err *e);
void view_clustering_fini(struct view_clustering *c);

/* ---- rows: a cut of the hierarchy, with groups expanded into ranks ---- */

struct view_cluster;

/* One grid row: a group (rank == TRACE_NONE), or one rank of an
 * expanded group shown under it. */
struct view_row {
	uint32_t group;
	uint32_t rank;
};

/* Clusters a's ranks into at most CLUSTER_MAX_K clusters and shows them
 * at the finest level, all collapsed. Returns 0 or ERR_NOMEM. */
int view_cluster_create(const struct analysis *a, struct view_cluster **out, struct err *e);
void view_cluster_destroy(struct view_cluster *vc);

/* The clustering behind the rows; borrowed until destroy. */
const struct view_clustering *view_cluster_clustering(const struct view_cluster *vc);

/* Levels available: 1 .. view_cluster_levels() (= the clusters found). */
uint32_t view_cluster_levels(const struct view_cluster *vc);
uint32_t view_cluster_level(const struct view_cluster *vc);
/* Shows the cut with `level` groups (clamped), all collapsed. */
void view_cluster_set_level(struct view_cluster *vc, uint32_t level);

/* Groups at the current level, ordered by their lowest rank. */
uint32_t view_cluster_groups(const struct view_cluster *vc);
/* The ranks of group g, ascending; borrowed until the next change. */
const uint32_t *view_cluster_members(const struct view_cluster *vc, uint32_t g, uint32_t *n);
/* The group's medoid: the rank that represents it (for a joined group,
 * the constituent medoid nearest the others, weighted by size). */
uint32_t view_cluster_medoid(const struct view_cluster *vc, uint32_t g);
/* The group holding rank. */
uint32_t view_cluster_group_of(const struct view_cluster *vc, uint32_t rank);

int view_cluster_expanded(const struct view_cluster *vc, uint32_t g);
/* Expands (on) or collapses group g; a group of one rank stays one row.
 * Returns 1 if anything changed. */
int view_cluster_expand(struct view_cluster *vc, uint32_t g, int on);
/* Expands or collapses every group; returns 1 if anything changed. */
int view_cluster_expand_all(struct view_cluster *vc, int on);

/* Rows in display order; borrowed until the next change. */
const struct view_row *view_cluster_rows(const struct view_cluster *vc, uint32_t *n);
/* The row showing rank: its own row if its group is expanded (or holds
 * only it), else the group's. */
uint32_t view_cluster_row_of(const struct view_cluster *vc, uint32_t rank);
/* Changes with every change of level or expansion (for caches). */
uint32_t view_cluster_generation(const struct view_cluster *vc);

/* Writes the ranks of group g as ranges ("0-2, 5, 9-11") into buf. */
void view_cluster_ranges(const struct view_cluster *vc, uint32_t g, char *buf, size_t n);

/* The aggregate of a row over steps [s0, s1), as view_index_block
 * computes it for a block of consecutive ranks: the representative lop
 * (largest value for numeric metrics) in *rep, the lop count in *count,
 * the representative's value returned. */
uint64_t view_cluster_block(const struct view_cluster *vc, struct view_index *ix, enum view_metric m,
			    uint32_t row, uint32_t s0, uint32_t s1, uint32_t *rep, uint32_t *count,
			    unsigned *kinds);

#endif
