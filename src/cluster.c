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

/* L1 distance between ranks i and j over w steps of the matrix v. */
static double
dist(const double *v, uint32_t w, uint32_t i, uint32_t j)
{
	const double *x = v + (size_t)i * w, *y = v + (size_t)j * w;
	double d = 0;
	for (uint32_t s = 0; s < w; s++)
		d += x[s] > y[s] ? x[s] - y[s] : y[s] - x[s];
	return d;
}

/* Assigns every rank to its nearest medoid; returns 1 if anything moved. */
static int
assign(const double *v, uint32_t n, uint32_t w, const uint32_t *med, uint32_t k, uint32_t *cl)
{
	int moved = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t best = 0;
		double bd = DBL_MAX;
		for (uint32_t c = 0; c < k; c++) {
			double d = dist(v, w, i, med[c]);
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

/* Moves each medoid to the member with the least total distance to its
 * cluster. Returns 1 if a medoid changed. */
static int
update(const double *v, uint32_t n, uint32_t w, uint32_t *med, uint32_t k, const uint32_t *cl)
{
	int changed = 0;
	for (uint32_t c = 0; c < k; c++) {
		uint32_t best = med[c];
		double bd = DBL_MAX;
		for (uint32_t i = 0; i < n; i++) {
			if (cl[i] != c)
				continue;
			double sum = 0;
			for (uint32_t j = 0; j < n && sum < bd; j++)
				if (cl[j] == c)
					sum += dist(v, w, i, j);
			if (sum < bd) {
				bd = sum;
				best = i;
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
	double *near = malloc((n + 1) * sizeof *near);
	int rc = ERR_NOMEM;
	if (!c->ranks || !c->cluster || !v || !med || !near)
		goto out;
	n = 0;
	for (uint32_t i = first; i < last; i++) {
		uint32_t l = a->part_lops[i];
		if (i == first || a->lop_tl[l] != a->lop_tl[a->part_lops[i - 1]])
			c->ranks[n++] = a->lop_tl[l];
		v[(size_t)(n - 1) * w + (a->lop_step[l] - P->step_first)] = (double)a->late[l];
	}
	c->n_ranks = n;
	if (k > n)
		k = n;
	/* farthest-first seeding from the latest rank */
	uint32_t seed = 0;
	double most = -1;
	for (uint32_t i = 0; i < n; i++) {
		double s = 0;
		for (uint32_t t = 0; t < w; t++)
			s += v[(size_t)i * w + t];
		if (s > most) {
			most = s;
			seed = i;
		}
	}
	uint32_t m = 0;
	med[m++] = seed;
	for (uint32_t i = 0; i < n; i++)
		near[i] = dist(v, w, i, seed);
	while (m < k) {
		uint32_t far = 0;
		double fd = -1;
		for (uint32_t i = 0; i < n; i++)
			if (near[i] > fd) {
				fd = near[i];
				far = i;
			}
		if (fd <= 0)
			break;            /* fewer distinct vectors than k */
		med[m++] = far;
		for (uint32_t i = 0; i < n; i++) {
			double d = dist(v, w, i, far);
			if (d < near[i])
				near[i] = d;
		}
	}
	k = m;
	for (uint32_t i = 0; i < n; i++)
		c->cluster[i] = UINT32_MAX;
	/* alternate until stable; 50 rounds bound pathological oscillation */
	for (int iter = 0; iter < 50; iter++) {
		int moved = assign(v, n, w, med, k, c->cluster);
		int changed = update(v, n, w, med, k, c->cluster);
		if (!moved && !changed)
			break;
	}
	assign(v, n, w, med, k, c->cluster);

	c->n_clusters = k;
	c->medoid = malloc((k + 1) * sizeof *c->medoid);
	c->size = calloc(k + 1, sizeof *c->size);
	c->merges = malloc((k + 1) * sizeof *c->merges);
	uint32_t *group = malloc((k + 1) * sizeof *group);
	if (!c->medoid || !c->size || !c->merges || !group) {
		free(group);
		goto out;
	}
	for (uint32_t j = 0; j < k; j++) {
		c->medoid[j] = c->ranks[med[j]];
		group[j] = j;
	}
	for (uint32_t i = 0; i < n; i++)
		c->size[c->cluster[i]]++;
	/* single linkage over medoids (k <= 20: the quadratic scan is fine) */
	for (uint32_t step = 0; step + 1 < k; step++) {
		double bd = DBL_MAX;
		uint32_t bi = 0, bj = 0;
		for (uint32_t i = 0; i < k; i++)
			for (uint32_t j = i + 1; j < k; j++) {
				if (group[i] == group[j])
					continue;
				/* single linkage: the closest pair of members of the
				 * two groups is the group distance */
				double d = dist(v, w, med[i], med[j]);
				if (d < bd) {
					bd = d;
					bi = i;
					bj = j;
				}
			}
		uint32_t gi = group[bi], gj = group[bj], ng = k + step;
		c->merges[step] = (struct cluster_merge){ .a = gi, .b = gj, .distance = bd };
		for (uint32_t i = 0; i < k; i++)
			if (group[i] == gi || group[i] == gj)
				group[i] = ng;
	}
	free(group);
	rc = 0;
out:
	free(v);
	free(med);
	free(near);
	if (rc)
		cluster_fini(c);
	return rc;
}
