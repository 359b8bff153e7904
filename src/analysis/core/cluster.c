/* cluster.c — k-medoids and single linkage over ranks' lateness vectors. */
#include "cluster.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_impl.h"

void
cluster_fini(struct clustering *c)
{
	free(c->ranks);
	free(c->cluster);
	free(c->medoid);
	free(c->size);
	free(c->merges);
	memset(c, 0, sizeof *c);
}

/* Medoid updates try at most this many candidates per cluster (the
 * members nearest the cluster's mean): exact for small clusters, and it
 * keeps a cluster of thousands of ranks from costing its size squared. */
#define MAX_CANDIDATES 64
#define MAX_ROUNDS 30

double
cluster_l1(const double *x, const double *y, uint32_t w)
{
	double d = 0;
	for (uint32_t s = 0; s < w; s++)
		d += x[s] > y[s] ? x[s] - y[s] : y[s] - x[s];
	return d;
}

#define ROW(v, w, i) ((v) + (size_t)(i) * (w))

/* Nearest medoid of every row; returns 1 if an assignment changed. */
static int
assign(const double *v, uint32_t n, uint32_t w, const uint32_t *med, uint32_t k, uint32_t *cl)
{
	int moved = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t best = 0;
		double bd = DBL_MAX;
		for (uint32_t c = 0; c < k; c++) {
			double d = cluster_l1(ROW(v, w, i), ROW(v, w, med[c]), w);
			if (d < bd) {
				bd = d;
				best = c;
			}
		}
		if (cl[i] != best) {
			cl[i] = best;
			moved = 1;
		}
	}
	return moved;
}

/* Moves each medoid to the candidate member with the least total
 * distance to its cluster; returns 1 if a medoid moved. Scratch: mean
 * (w), mem and near (n). */
static int
update(const double *v, uint32_t n, uint32_t w, uint32_t *med, uint32_t k, const uint32_t *cl,
       double *mean, uint32_t *mem, double *near)
{
	int changed = 0;
	for (uint32_t c = 0; c < k; c++) {
		uint32_t m = 0;
		for (uint32_t i = 0; i < n; i++)
			if (cl[i] == c)
				mem[m++] = i;
		if (m < 2)
			continue;
		uint32_t cand = m;
		if (m > MAX_CANDIDATES) {
			/* the members nearest the mean, by partial selection */
			memset(mean, 0, w * sizeof *mean);
			for (uint32_t j = 0; j < m; j++)
				for (uint32_t s = 0; s < w; s++)
					mean[s] += ROW(v, w, mem[j])[s] / m;
			for (uint32_t j = 0; j < m; j++)
				near[j] = cluster_l1(ROW(v, w, mem[j]), mean, w);
			for (uint32_t j = 0; j < MAX_CANDIDATES; j++) {
				uint32_t b = j;
				for (uint32_t q = j + 1; q < m; q++)
					if (near[q] < near[b] || (near[q] == near[b] && mem[q] < mem[b]))
						b = q;
				double td = near[j]; near[j] = near[b]; near[b] = td;
				uint32_t ti = mem[j]; mem[j] = mem[b]; mem[b] = ti;
			}
			cand = MAX_CANDIDATES;
		}
		uint32_t best = med[c];
		double bd = 0;
		for (uint32_t j = 0; j < m; j++)
			bd += cluster_l1(ROW(v, w, med[c]), ROW(v, w, mem[j]), w);
		for (uint32_t q = 0; q < cand; q++) {
			double sum = 0;
			for (uint32_t j = 0; j < m && sum <= bd; j++)
				sum += cluster_l1(ROW(v, w, mem[q]), ROW(v, w, mem[j]), w);
			if (sum < bd || (sum == bd && mem[q] < best)) {
				bd = sum;
				best = mem[q];
			}
		}
		if (best != med[c]) {
			med[c] = best;
			changed = 1;
		}
	}
	return changed;
}

int
cluster_kmedoids(const double *v, uint32_t n, uint32_t w, uint32_t *k, uint32_t *med, uint32_t *cl)
{
	if (n == 0) {
		*k = 0;
		return 0;
	}
	double *near = malloc(((size_t)n + 1) * sizeof *near);
	double *mean = malloc(((size_t)w + 1) * sizeof *mean);
	uint32_t *mem = malloc(((size_t)n + 1) * sizeof *mem);
	if (!near || !mean || !mem) {
		free(near);
		free(mean);
		free(mem);
		return ERR_NOMEM;
	}
	/* farthest-first seeding from the latest row (lowest on ties) */
	uint32_t seed = 0;
	double most = -1;
	for (uint32_t i = 0; i < n; i++) {
		double s = 0;
		for (uint32_t d = 0; d < w; d++)
			s += ROW(v, w, i)[d];
		if (s > most) {
			most = s;
			seed = i;
		}
	}
	uint32_t m = 0;
	med[m++] = seed;
	for (uint32_t i = 0; i < n; i++)
		near[i] = cluster_l1(ROW(v, w, i), ROW(v, w, seed), w);
	while (m < *k) {
		uint32_t far = 0;
		double fd = -1;
		for (uint32_t i = 0; i < n; i++)
			if (near[i] > fd) {
				fd = near[i];
				far = i;
			}
		if (fd <= 0)
			break;            /* fewer distinct rows than k */
		med[m++] = far;
		for (uint32_t i = 0; i < n; i++) {
			double d = cluster_l1(ROW(v, w, i), ROW(v, w, far), w);
			if (d < near[i])
				near[i] = d;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		cl[i] = UINT32_MAX;
	for (int round = 0; round < MAX_ROUNDS; round++) {
		int moved = assign(v, n, w, med, m, cl);
		int changed = update(v, n, w, med, m, cl, mean, mem, near);
		if (!moved && !changed)
			break;
	}
	assign(v, n, w, med, m, cl);
	/* medoids with equal rows can leave a cluster empty: drop it */
	uint32_t kept = 0, *remap = mem;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t cnt = 0;
		for (uint32_t i = 0; i < n && !cnt; i++)
			cnt = cl[i] == j;
		remap[j] = cnt ? kept : UINT32_MAX;
		if (cnt)
			med[kept++] = med[j];
	}
	for (uint32_t i = 0; i < n; i++)
		cl[i] = remap[cl[i]];
	*k = kept;
	free(near);
	free(mean);
	free(mem);
	return 0;
}

void
cluster_link(const double *v, uint32_t w, const uint32_t *med, uint32_t k,
	     struct cluster_merge *merges, uint32_t *group)
{
	for (uint32_t j = 0; j < k; j++)
		group[j] = j;
	/* k <= CLUSTER_MAX_K: the quadratic scan per merge is fine */
	for (uint32_t step = 0; step + 1 < k; step++) {
		double bd = DBL_MAX;
		uint32_t bi = 0, bj = 0;
		for (uint32_t i = 0; i < k; i++)
			for (uint32_t j = i + 1; j < k; j++) {
				if (group[i] == group[j])
					continue;
				double d = cluster_l1(ROW(v, w, med[i]), ROW(v, w, med[j]), w);
				if (d < bd) {
					bd = d;
					bi = i;
					bj = j;
				}
			}
		uint32_t gi = group[bi], gj = group[bj], ng = k + step;
		merges[step] = (struct cluster_merge){ .a = gi, .b = gj, .distance = bd };
		for (uint32_t i = 0; i < k; i++)
			if (group[i] == gi || group[i] == gj)
				group[i] = ng;
	}
}

int
cluster_partition(const struct analysis *a, uint32_t part, uint32_t k, struct clustering *c)
{
	memset(c, 0, sizeof *c);
	if (part >= a->n_parts || k < 1 || k > CLUSTER_MAX_K)
		return ERR_USAGE;
	const struct analysis_part *P = &a->parts[part];
	uint32_t first = a->part_lop_first[part], last = a->part_lop_first[part + 1];
	uint32_t w = P->step_count;
	/* the ranks of the partition: part_lops is grouped by rank */
	uint32_t n = 0;
	for (uint32_t i = first; i < last; i++)
		if (i == first || a->lop_tl[a->part_lops[i]] != a->lop_tl[a->part_lops[i - 1]])
			n++;
	c->ranks = malloc((n + 1) * sizeof *c->ranks);
	c->cluster = malloc((n + 1) * sizeof *c->cluster);
	double *v = calloc((size_t)n * w + 1, sizeof *v);
	uint32_t *med = malloc((k + 1) * sizeof *med);
	int rc = ERR_NOMEM;
	if (!c->ranks || !c->cluster || !v || !med)
		goto out;
	n = 0;
	for (uint32_t i = first; i < last; i++) {
		uint32_t l = a->part_lops[i];
		if (i == first || a->lop_tl[l] != a->lop_tl[a->part_lops[i - 1]])
			c->ranks[n++] = a->lop_tl[l];
		v[(size_t)(n - 1) * w + (a->lop_step[l] - P->step_first)] = (double)lop_late(a, l);
	}
	c->n_ranks = n;
	if ((rc = cluster_kmedoids(v, n, w, &k, med, c->cluster)))
		goto out;
	rc = ERR_NOMEM;
	c->n_clusters = k;
	c->medoid = malloc((k + 1) * sizeof *c->medoid);
	c->size = calloc(k + 1, sizeof *c->size);
	c->merges = malloc((k + 1) * sizeof *c->merges);
	uint32_t *group = malloc((k + 1) * sizeof *group);
	if (!c->medoid || !c->size || !c->merges || !group) {
		free(group);
		goto out;
	}
	for (uint32_t j = 0; j < k; j++)
		c->medoid[j] = c->ranks[med[j]];
	for (uint32_t i = 0; i < n; i++)
		c->size[c->cluster[i]]++;
	cluster_link(v, w, med, k, c->merges, group);
	free(group);
	rc = 0;
out:
	free(v);
	free(med);
	if (rc)
		cluster_fini(c);
	return rc;
}
