/* view_cluster.c — trace-wide clustering of ranks and the clustered rows
 * built on it (see view_cluster.h). */
#include "view_cluster.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the clustering ------------------------------------------------------ */

void
view_clustering_fini(struct view_clustering *c)
{
	free(c->cluster);
	free(c->medoid);
	free(c->size);
	free(c->merges);
	free(c->dist);
	memset(c, 0, sizeof *c);
}

struct part_key {
	uint32_t step, id;
};

static int
cmp_part_key(const void *x, const void *y)
{
	const struct part_key *a = x, *b = y;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* The feature matrix: n ranks × *w dimensions, each a rank's lateness
 * summed over one partition (or a run of neighbouring ones). */
static double *
features(const struct analysis *a, uint32_t n, uint32_t *w)
{
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	uint32_t dims = np < VIEW_CLUSTER_DIMS ? np : VIEW_CLUSTER_DIMS;
	if (dims == 0)
		dims = 1;
	struct part_key *keys = malloc((np ? np : 1) * sizeof *keys);
	uint32_t *dim = malloc((np ? np : 1) * sizeof *dim);
	double *v = calloc((size_t)n * dims + 1, sizeof *v);
	if (!keys || !dim || !v) {
		free(keys);
		free(dim);
		free(v);
		return NULL;
	}
	for (uint32_t p = 0; p < np; p++)
		keys[p] = (struct part_key){ parts[p].step_first, p };
	qsort(keys, np, sizeof *keys, cmp_part_key);
	for (uint32_t i = 0; i < np; i++)
		dim[keys[i].id] = (uint32_t)((uint64_t)i * dims / np);
	for (uint32_t r = 0; r < n; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		for (uint32_t l = first; l < first + count; l++) {
			uint32_t p = analysis_lop_part(a, l);
			if (p < np)
				v[(size_t)r * dims + dim[p]] += (double)analysis_lop_lateness(a, l);
		}
	}
	free(keys);
	free(dim);
	*w = dims;
	return v;
}

int
view_cluster_ranks(const struct analysis *a, uint32_t k, struct view_clustering *c, struct err *e)
{
	memset(c, 0, sizeof *c);
	if (k < 1 || k > CLUSTER_MAX_K)
		return err_set(e, ERR_USAGE, "clusters: k must be 1 to %d, not %u", CLUSTER_MAX_K, k);
	uint32_t n;
	trace_timelines(analysis_trace(a), &n);
	uint32_t w = 0;
	double *v = features(a, n, &w);
	uint32_t *med = malloc((k + 1) * sizeof *med);
	uint32_t *group = malloc((k + 1) * sizeof *group);
	c->cluster = malloc(((size_t)n + 1) * sizeof *c->cluster);
	int rc = ERR_NOMEM;
	if (!v || !med || !group || !c->cluster)
		goto out;
	c->n_ranks = n;
	if (n == 0) {
		rc = 0;
		goto out;
	}
	uint32_t kept = k;
	if ((rc = cluster_kmedoids(v, n, w, &kept, med, c->cluster)))
		goto out;
	rc = ERR_NOMEM;
	c->n_clusters = kept;
	c->medoid = malloc(kept * sizeof *c->medoid);
	c->size = calloc(kept, sizeof *c->size);
	c->merges = malloc(kept * sizeof *c->merges);
	c->dist = malloc((size_t)kept * kept * sizeof *c->dist);
	if (!c->medoid || !c->size || !c->merges || !c->dist)
		goto out;
	for (uint32_t j = 0; j < kept; j++) {
		c->medoid[j] = med[j];
		for (uint32_t q = 0; q < kept; q++)
			c->dist[(size_t)j * kept + q] = cluster_l1(v + (size_t)med[j] * w, v + (size_t)med[q] * w, w);
	}
	for (uint32_t i = 0; i < n; i++)
		c->size[c->cluster[i]]++;
	cluster_link(v, w, med, kept, c->merges, group);
	rc = 0;
out:
	free(v);
	free(med);
	free(group);
	if (rc) {
		view_clustering_fini(c);
		return err_set(e, rc, "out of memory");
	}
	return 0;
}

/* ---- rows ------------------------------------------------------------------- */

struct group {
	uint32_t first;     /* into members */
	uint32_t n;
	uint32_t medoid;
	int expanded;
};

struct view_cluster {
	const struct analysis *a;
	struct view_clustering c;
	uint32_t level;
	uint32_t n_groups;
	struct group *groups;          /* n_clusters at most */
	uint32_t *members;             /* n_ranks: ranks grouped, ascending in each */
	uint32_t *group_of;            /* n_ranks */
	struct view_row *rows;         /* n_ranks + n_clusters at most */
	uint32_t n_rows;
	uint32_t *row_of;              /* n_ranks */
	uint32_t gen;
};

static void
build_rows(struct view_cluster *vc)
{
	uint32_t r = 0;
	for (uint32_t g = 0; g < vc->n_groups; g++) {
		const struct group *gr = &vc->groups[g];
		uint32_t head = r;
		vc->rows[r++] = (struct view_row){ g, TRACE_NONE };
		for (uint32_t i = 0; i < gr->n; i++) {
			uint32_t rank = vc->members[gr->first + i];
			vc->row_of[rank] = head;
			if (gr->expanded && gr->n > 1) {
				vc->row_of[rank] = r;
				vc->rows[r++] = (struct view_row){ g, rank };
			}
		}
	}
	vc->n_rows = r;
	vc->gen++;
}

/* The groups of the cut with `level` groups: clusters joined by the first
 * n_clusters - level merges. */
static void
cut(struct view_cluster *vc, uint32_t level)
{
	const struct view_clustering *c = &vc->c;
	uint32_t k = c->n_clusters;
	if (k == 0) {
		vc->level = vc->n_groups = 0;
		build_rows(vc);
		return;
	}
	level = level < 1 ? 1 : level > k ? k : level;
	vc->level = level;
	/* root[j]: the node (cluster or merge) that holds cluster j at this cut */
	uint32_t root[CLUSTER_MAX_K];
	for (uint32_t j = 0; j < k; j++)
		root[j] = j;
	for (uint32_t s = 0; s < k - level; s++)
		for (uint32_t j = 0; j < k; j++)
			if (root[j] == c->merges[s].a || root[j] == c->merges[s].b)
				root[j] = k + s;
	/* groups ordered by their lowest rank: ranks ascend, so first seen */
	uint32_t gid[2 * CLUSTER_MAX_K];
	for (uint32_t i = 0; i < 2 * k; i++)
		gid[i] = UINT32_MAX;
	uint32_t ng = 0;
	for (uint32_t rank = 0; rank < c->n_ranks; rank++) {
		uint32_t node = root[c->cluster[rank]];
		if (gid[node] == UINT32_MAX) {
			gid[node] = ng;
			vc->groups[ng++] = (struct group){ 0 };
		}
		vc->group_of[rank] = gid[node];
		vc->groups[gid[node]].n++;
	}
	vc->n_groups = ng;
	uint32_t at = 0;
	for (uint32_t g = 0; g < ng; g++) {
		vc->groups[g].first = at;
		at += vc->groups[g].n;
		vc->groups[g].n = 0;
	}
	for (uint32_t rank = 0; rank < c->n_ranks; rank++) {
		struct group *gr = &vc->groups[vc->group_of[rank]];
		vc->members[gr->first + gr->n++] = rank;
	}
	/* the medoid of a joined group: the constituent medoid with the least
	 * size-weighted distance to the others */
	for (uint32_t g = 0; g < ng; g++) {
		double bd = DBL_MAX;
		uint32_t best = UINT32_MAX;
		for (uint32_t i = 0; i < k; i++) {
			if (gid[root[i]] != g)
				continue;
			double sum = 0;
			for (uint32_t j = 0; j < k; j++)
				if (gid[root[j]] == g)
					sum += c->size[j] * c->dist[(size_t)i * k + j];
			if (sum < bd || (sum == bd && c->medoid[i] < best)) {
				bd = sum;
				best = c->medoid[i];
			}
		}
		vc->groups[g].medoid = best;
	}
	build_rows(vc);
}

int
view_cluster_create(const struct analysis *a, struct view_cluster **out, struct err *e)
{
	struct view_cluster *vc = calloc(1, sizeof *vc);
	if (!vc)
		return err_set(e, ERR_NOMEM, "out of memory");
	vc->a = a;
	int rc = view_cluster_ranks(a, CLUSTER_MAX_K, &vc->c, e);
	if (rc) {
		free(vc);
		return rc;
	}
	uint32_t n = vc->c.n_ranks, k = vc->c.n_clusters;
	vc->groups = calloc(k + 1, sizeof *vc->groups);
	vc->members = malloc((n + 1) * sizeof *vc->members);
	vc->group_of = malloc((n + 1) * sizeof *vc->group_of);
	vc->row_of = malloc((n + 1) * sizeof *vc->row_of);
	vc->rows = malloc(((size_t)n + k + 1) * sizeof *vc->rows);
	if (!vc->groups || !vc->members || !vc->group_of || !vc->row_of || !vc->rows) {
		view_cluster_destroy(vc);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	cut(vc, k);
	*out = vc;
	return 0;
}

void
view_cluster_destroy(struct view_cluster *vc)
{
	if (!vc)
		return;
	view_clustering_fini(&vc->c);
	free(vc->groups);
	free(vc->members);
	free(vc->group_of);
	free(vc->row_of);
	free(vc->rows);
	free(vc);
}

const struct view_clustering *view_cluster_clustering(const struct view_cluster *vc) { return &vc->c; }
uint32_t view_cluster_levels(const struct view_cluster *vc) { return vc->c.n_clusters; }
uint32_t view_cluster_level(const struct view_cluster *vc) { return vc->level; }
uint32_t view_cluster_groups(const struct view_cluster *vc) { return vc->n_groups; }
uint32_t view_cluster_generation(const struct view_cluster *vc) { return vc->gen; }

void
view_cluster_set_level(struct view_cluster *vc, uint32_t level)
{
	cut(vc, level);
}

const uint32_t *
view_cluster_members(const struct view_cluster *vc, uint32_t g, uint32_t *n)
{
	if (g >= vc->n_groups) {
		*n = 0;
		return vc->members;
	}
	*n = vc->groups[g].n;
	return vc->members + vc->groups[g].first;
}

uint32_t
view_cluster_medoid(const struct view_cluster *vc, uint32_t g)
{
	return g < vc->n_groups ? vc->groups[g].medoid : TRACE_NONE;
}

uint32_t
view_cluster_group_of(const struct view_cluster *vc, uint32_t rank)
{
	return rank < vc->c.n_ranks ? vc->group_of[rank] : TRACE_NONE;
}

int
view_cluster_expanded(const struct view_cluster *vc, uint32_t g)
{
	return g < vc->n_groups && vc->groups[g].expanded && vc->groups[g].n > 1;
}

int
view_cluster_expand(struct view_cluster *vc, uint32_t g, int on)
{
	if (g >= vc->n_groups || vc->groups[g].n < 2 || vc->groups[g].expanded == !!on)
		return 0;
	vc->groups[g].expanded = !!on;
	build_rows(vc);
	return 1;
}

int
view_cluster_expand_all(struct view_cluster *vc, int on)
{
	int any = 0;
	for (uint32_t g = 0; g < vc->n_groups; g++)
		if (vc->groups[g].n > 1 && vc->groups[g].expanded != !!on) {
			vc->groups[g].expanded = !!on;
			any = 1;
		}
	if (any)
		build_rows(vc);
	return any;
}

const struct view_row *
view_cluster_rows(const struct view_cluster *vc, uint32_t *n)
{
	*n = vc->n_rows;
	return vc->rows;
}

uint32_t
view_cluster_row_of(const struct view_cluster *vc, uint32_t rank)
{
	return rank < vc->c.n_ranks ? vc->row_of[rank] : 0;
}

void
view_cluster_ranges(const struct view_cluster *vc, uint32_t g, char *buf, size_t n)
{
	uint32_t cnt;
	const uint32_t *m = view_cluster_members(vc, g, &cnt);
	size_t len = 0;
	if (n)
		buf[0] = 0;
	for (uint32_t i = 0; i < cnt && len < n; ) {
		uint32_t j = i;
		while (j + 1 < cnt && m[j + 1] == m[j] + 1)
			j++;
		int w = j == i ? snprintf(buf + len, n - len, "%s%u", i ? ", " : "", m[i])
			: snprintf(buf + len, n - len, "%s%u-%u", i ? ", " : "", m[i], m[j]);
		if (w < 0)
			break;
		len += (size_t)w;
		i = j + 1;
	}
	if (len >= n && n > 4)    /* truncated: say so */
		memcpy(buf + n - 4, "...", 4);
}

uint64_t
view_cluster_block(const struct view_cluster *vc, struct view_index *ix, enum view_metric m,
		   uint32_t row, uint32_t s0, uint32_t s1, uint32_t *rep, uint32_t *count,
		   unsigned *kinds)
{
	*rep = TRACE_NONE;
	*count = 0;
	if (row >= vc->n_rows)
		return 0;
	const struct view_row *r = &vc->rows[row];
	if (r->rank != TRACE_NONE)
		return view_index_block(ix, m, r->rank, r->rank + 1, s0, s1, rep, count, kinds);
	uint32_t n;
	const uint32_t *mem = view_cluster_members(vc, r->group, &n);
	int numeric = view_metric_numeric(m);
	uint64_t best = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t rr, cc;
		uint64_t x = view_index_block(ix, m, mem[i], mem[i] + 1, s0, s1, &rr, &cc, kinds);
		*count += cc;
		if (rr != TRACE_NONE && (*rep == TRACE_NONE || (numeric && x > best))) {
			*rep = rr;
			best = x;
		}
	}
	return best;
}
