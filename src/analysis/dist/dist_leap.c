/* dist_leap.c — the leap merge in a distributed analysis
 * (doc/distributed.md "The leap merge").
 *
 * Algorithm 1 walks the partition graph leap by leap, each pass looking
 * at whole partitions: which timelines a leap covers and how far each
 * partition sits from its neighbours. leap.h reduces that to one record
 * per partition and timeline, and the graph's edges with their keys.
 * A timeline is one rank's, so each rank makes the records of its own
 * timelines; the partition DAG is on every rank already, and each edge's
 * key (the least lop that leads along it) is the least over the ranks.
 * Rank 0 gathers the records and runs leap_run, the serial merge, on
 * them; every rank learns the merged sets and finalizes its partitions
 * again (dist_refinalize), as the serial apply does.
 *
 * Memory: rank 0 holds the records of every partition on every timeline
 * it touches (40 bytes each, at most one per communication lop and
 * usually far fewer), twice while it groups them; the other ranks their
 * own timelines' records until they are sent.
 */
#include "dist_leap.h"

#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "dist.h"
#include "analysis/mpi/leap.h"

/* The least lop leading along each DAG edge, on every rank (TRACE_NONE
 * for an edge no lop leads along, which cannot be: the DAG was made from
 * the lops). */
static int
edge_keys(struct dcomm *c, const struct analysis *a, uint32_t lop_off, uint64_t *key)
{
	uint32_t np = a->n_parts, ne = a->dag_first[np], n_tl;
	struct hmap at = { 0 };
	int rc = 0;
	for (uint32_t e = 0; e < ne; e++)
		key[e] = TRACE_NONE;
	for (uint32_t p = 0; p < np && !rc; p++)
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1] && !rc; e++)
			rc = hmap_put(&at, p, a->dag_succ[e], e);
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++)
		for (uint32_t l = a->tl_lop[tl]; l + 2 < a->tl_lop[tl + 1]; l++) {
			uint32_t p = a->lop_part[l], q = a->lop_part[l + 2];
			if (a->lop_kind[l] == OP_COMPUTE || p == TRACE_NONE || q == TRACE_NONE || p == q)
				continue;
			const uint32_t *e = hmap_get(&at, p, q);
			if (e && lop_off + l < key[*e])
				key[*e] = lop_off + l;
		}
	hmap_fini(&at);
	rc = dcomm_agree(c, rc);
	return rc ? rc : dcomm_reduce(c, key, ne, DCOMM_MIN);
}

/* Rank 0: the merge over the gathered records; root[0 .. np) and, after
 * them, merged, leaps and incomplete. */
static int
merge(const struct analysis *a, const uint64_t *key, struct leap_rec *recs, size_t n,
      uint32_t n_active, uint32_t *root, trace_progress_fn progress, void *ud)
{
	uint32_t np = a->n_parts, ne = a->dag_first[np];
	struct leap_rec *grouped = NULL;
	uint32_t *first = NULL;
	struct leap_edge *edges = malloc(((size_t)ne + 1) * sizeof *edges);
	int rc = edges ? leap_group(recs, n, np, &grouped, &first) : (free(recs), ERR_NOMEM);
	for (uint32_t p = 0; p < np && !rc; p++)
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			edges[e] = (struct leap_edge){ p, a->dag_succ[e], (uint32_t)key[e] };
	struct leap_in in = {
		.n_parts = np, .n_active = n_active, .rec_first = first, .recs = grouped,
		.edges = edges, .n_edges = ne, .factor = a->opts.leap_factor,
		.force = a->opts.leap_force, .progress = progress, .ud = ud,
	};
	trace_timelines(a->t, &in.n_timelines);
	struct leap_out out = { .root = root };
	if (!rc)
		rc = leap_run(&in, &out);
	root[np] = out.merged;
	root[np + 1] = out.leaps;
	root[np + 2] = out.incomplete;
	free(edges);
	free(grouped);
	free(first);
	return rc;
}

int
dist_leap_merge(struct dcomm *c, const struct dmodel *d, struct analysis *a, uint32_t lop_off,
		uint32_t *part_first, trace_progress_fn progress, void *ud)
{
	uint32_t np = a->n_parts, ne = a->dag_first[np];
	uint64_t *key = malloc(((size_t)ne + 1) * sizeof *key);
	uint32_t *stamp = malloc(((size_t)np + 1) * sizeof *stamp);
	uint32_t *slot = malloc(((size_t)np + 1) * sizeof *slot);
	uint64_t active = leap_active(a);
	struct leap_rec *recs = NULL;
	size_t n = 0;
	int rc = key && stamp && slot ? 0 : ERR_NOMEM;
	if (!rc)
		rc = leap_records(a, lop_off, stamp, slot, &recs, &n);
	free(stamp);
	free(slot);
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = edge_keys(c, a, lop_off, key);
	if (!rc)
		rc = dcomm_reduce(c, &active, 1, DCOMM_SUM);
	/* every record to rank 0 */
	uint64_t *count = rc ? NULL : calloc(2 * (size_t)c->size, sizeof *count);
	rc = rc ? rc : dcomm_agree(c, count ? 0 : ERR_NOMEM);
	void *got = NULL;
	if (!rc) {
		count[0] = n * sizeof *recs;
		rc = dcomm_alltoallv(c, recs, count, &got, count + c->size);
	}
	free(recs);
	/* rank 0 merges; every rank learns the sets */
	uint32_t *root = NULL;
	if (!rc && c->rank == 0) {
		size_t n_got = 0;
		for (uint32_t r = 0; r < c->size; r++)
			n_got += count[c->size + r] / sizeof *recs;
		root = malloc(((size_t)np + 3) * sizeof *root);
		rc = root ? merge(a, key, got, n_got, (uint32_t)active, root, progress, ud)
			  : (free(got), ERR_NOMEM);
		got = NULL;
	}
	free(got);
	free(key);
	rc = dcomm_agree(c, rc);
	void *all = NULL;
	if (!rc)
		rc = dcomm_allgatherv(c, root, c->rank == 0 ? ((uint64_t)np + 3) * sizeof *root : 0,
				      &all, count);
	free(root);
	free(count);
	root = all;
	if (!rc) {
		a->stats.leaps = root[np + 1];
		a->stats.incomplete_leaps += root[np + 2];
	}
	/* the sets numbered by their least partition (the order of their
	 * first lops), the lops' partitions renamed, the partitions made again */
	if (!rc && root[np]) {
		uint32_t ng = 0;
		for (uint32_t p = 0; p < np; p++)
			root[p] = root[p] == p ? ng++ : root[root[p]];
		for (uint32_t l = 0; l < a->n_lops; l++)
			if (a->lop_kind[l] != OP_COMPUTE && a->lop_part[l] != TRACE_NONE)
				a->lop_part[l] = root[a->lop_part[l]];
		free(root);
		root = NULL;
		rc = dist_refinalize(c, d, a, lop_off, ng, part_first);
	}
	free(root);
	return rc;
}
