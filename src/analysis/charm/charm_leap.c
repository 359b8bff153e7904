/* charm_leap.c — the leap stages of seed 004 §3.1.4.
 *
 * A leap is the set of partitions at one longest-path depth of the
 * partition DAG. The phase DAG must have two properties so that each
 * chare has one path through it (no two events of a chare share a step):
 *   (1) the partitions of a leap share no chare;
 *   (2) each partition's successors cover its chares, except chares that
 *       appear in no later leap.
 *
 * Merging by leap (Alg. 4): partitions of one leap that share a chare are
 * merged, application with application and runtime with runtime (the
 * paper merges the two kinds only in cycle merges). Merging two
 * partitions of one leap leaves every leap as it was (the merged one's
 * predecessors are all in earlier leaps), so all leaps are merged from one
 * computation of the leaps.
 *
 * Property (1) is then enforced: an application and a runtime partition
 * (or, with leap merge off, any two) that share a chare in one leap are
 * ordered by physical time — the earlier events on a shared chare come
 * first — with an edge. Edges move partitions to later leaps, where new
 * overlaps can appear, so this repeats until no leap overlaps; should
 * the ordering not settle (it is bounded), the partitions still
 * overlapping are merged. Conflicting orders form a cycle, which the
 * cycle merge resolves.
 *
 * Property (2) (Alg. 5): going from the last leap back, each partition
 * gets an edge to the partition of the nearest later leap that holds
 * each of its chares, unless that one is a successor already. (The
 * paper's test, "the successors cover its chares", passes when a later
 * successor holds the chare, and leaves the chare's next partition
 * unordered with this one: their steps could collide; the fuzzer found
 * it.) Such edges go to later leaps only, so leaps and acyclicity are
 * kept.
 */
#include "charm_impl.h"

#include <stdlib.h>
#include <string.h>

#define ORDER_ROUNDS 64

/* Partitions grouped by leap: lp_first[k]..lp_first[k+1] of lp. */
static int
by_leap(const struct charm *c, uint32_t **first, uint32_t **parts)
{
	*first = calloc((size_t)c->n_leaps + 2, sizeof **first);
	*parts = malloc(((size_t)c->np + 1) * sizeof **parts);
	if (!*first || !*parts)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < c->np; p++)
		(*first)[c->leap[p] + 1]++;
	for (uint32_t k = 0; k < c->n_leaps; k++)
		(*first)[k + 1] += (*first)[k];
	uint32_t *fill = malloc(((size_t)c->n_leaps + 1) * sizeof *fill);
	if (!fill)
		return ERR_NOMEM;
	memcpy(fill, *first, (size_t)c->n_leaps * sizeof *fill);
	for (uint32_t p = 0; p < c->np; p++)
		(*parts)[fill[c->leap[p]]++] = p;
	free(fill);
	return 0;
}

int
charm_leap_merge(struct charm *c)
{
	int rc = 0;
	if (c->a->opts.charm_leap_merge) {
		uint32_t *lf = NULL, *lp = NULL;
		uint32_t *owner = malloc(2 * ((size_t)c->n_tl + 1) * sizeof *owner);
		uint32_t *stamp = malloc(2 * ((size_t)c->n_tl + 1) * sizeof *stamp);
		if (!owner || !stamp || (rc = charm_graph_chares(c)) || (rc = by_leap(c, &lf, &lp))) {
			rc = rc ? rc : ERR_NOMEM;
		} else {
			memset(stamp, 0xff, 2 * ((size_t)c->n_tl + 1) * sizeof *stamp);
			for (uint32_t k = 0; k < c->n_leaps; k++)
				for (uint32_t i = lf[k]; i < lf[k + 1]; i++) {
					uint32_t p = lp[i];
					size_t base = c->prt[p] ? c->n_tl + 1 : 0;
					for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1]; j++) {
						size_t x = base + c->chares[j];
						if (stamp[x] == k)
							uf_union(&c->u, c->root[owner[x]], c->root[p]);
						else {
							stamp[x] = k;
							owner[x] = p;
						}
					}
				}
		}
		free(lf);
		free(lp);
		free(owner);
		free(stamp);
		if (!rc)
			rc = charm_graph_build(c, 1);
	}
	if (!rc)
		c->a->stats.charm_leap = c->np;
	return rc;
}

struct overlap {
	uint32_t p, q;     /* p < q */
	uint32_t tl;       /* a chare they share */
};

static int
cmp_overlap(const void *x, const void *y)
{
	const struct overlap *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (a->q != b->q)
		return a->q < b->q ? -1 : 1;
	return a->tl < b->tl ? -1 : a->tl > b->tl;
}

/* One round of property (1): returns 1 if something changed. */
static int
order_round(struct charm *c, int last_round)
{
	uint32_t *lf = NULL, *lp = NULL;
	uint32_t *owner = malloc(((size_t)c->n_tl + 1) * sizeof *owner);
	uint32_t *stamp = malloc(((size_t)c->n_tl + 1) * sizeof *stamp);
	struct overlap *ov = NULL;
	size_t n_ov = 0, cap_ov = 0;
	int rc = 0, changed = 0;
	if (!owner || !stamp || (rc = charm_graph_chares(c)) || (rc = by_leap(c, &lf, &lp))) {
		rc = rc ? rc : ERR_NOMEM;
		goto out;
	}
	memset(stamp, 0xff, ((size_t)c->n_tl + 1) * sizeof *stamp);
	for (uint32_t k = 0; k < c->n_leaps && !rc; k++)
		for (uint32_t i = lf[k]; i < lf[k + 1] && !rc; i++) {
			uint32_t p = lp[i];
			for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1]; j++) {
				uint32_t x = c->chares[j];
				if (stamp[x] != k) {
					stamp[x] = k;
					owner[x] = p;
					continue;
				}
				uint32_t q = owner[x];
				if (c->a->opts.charm_leap_merge && c->prt[q] == c->prt[p]) {
					changed |= uf_union(&c->u, c->root[q], c->root[p]);
					continue;
				}
				if (n_ov == cap_ov) {
					size_t ncap = cap_ov ? cap_ov * 2 : 64;
					struct overlap *n = realloc(ov, ncap * sizeof *n);
					if (!n) {
						rc = ERR_NOMEM;
						break;
					}
					ov = n;
					cap_ov = ncap;
				}
				ov[n_ov++] = (struct overlap){ .p = q < p ? q : p, .q = q < p ? p : q, .tl = x };
			}
		}
	if (rc)
		goto out;
	if (n_ov > 1)
		qsort(ov, n_ov, sizeof *ov, cmp_overlap);
	for (size_t i = 0; i < n_ov && !rc; i++) {
		if (i && ov[i].p == ov[i - 1].p && ov[i].q == ov[i - 1].q)
			continue;             /* one edge per pair, on their first shared chare */
		if (last_round) {
			changed |= uf_union(&c->u, c->root[ov[i].p], c->root[ov[i].q]);
			continue;
		}
		uint32_t x = charm_first_on(c, ov[i].p, ov[i].tl), y = charm_first_on(c, ov[i].q, ov[i].tl);
		int x_first = lop_enter(c->a, x) < lop_enter(c->a, y) ||
			      (lop_enter(c->a, x) == lop_enter(c->a, y) && x < y);
		rc = x_first ? charm_edge_add(c, x, y, EDGE_ORDER) : charm_edge_add(c, y, x, EDGE_ORDER);
		c->edges_added++;
		changed = 1;
	}
out:
	free(lf);
	free(lp);
	free(owner);
	free(stamp);
	free(ov);
	if (!rc && changed)
		rc = charm_graph_build(c, 1);
	return rc ? rc : changed;
}

/* Alg. 5: chares' paths through the DAG. */
static int
chare_paths(struct charm *c)
{
	uint32_t *lf = NULL, *lp = NULL;
	uint32_t *next_owner = malloc(((size_t)c->n_tl + 1) * sizeof *next_owner);
	uint32_t *linked = malloc(((size_t)c->np + 1) * sizeof *linked);
	int rc = 0;
	if (!next_owner || !linked || (rc = charm_graph_chares(c)) ||
	    (rc = by_leap(c, &lf, &lp))) {
		rc = rc ? rc : ERR_NOMEM;
		goto out;
	}
	memset(next_owner, 0xff, ((size_t)c->n_tl + 1) * sizeof *next_owner);
	memset(linked, 0xff, ((size_t)c->np + 1) * sizeof *linked);
	size_t before = c->n_e;
	for (uint32_t k = c->n_leaps; k-- > 0 && !rc;) {
		for (uint32_t i = lf[k]; i < lf[k + 1] && !rc; i++) {
			uint32_t p = lp[i];
			for (uint32_t e = c->first[p]; e < c->first[p + 1]; e++)
				linked[c->succ[e]] = p;         /* p's successors */
			for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1] && !rc; j++) {
				uint32_t x = c->chares[j], q = next_owner[x];
				/* a successor elsewhere that holds x does not do: x's
				 * next partition must come after p, or the two share
				 * x unordered */
				if (q == TRACE_NONE || linked[q] == p)
					continue;
				linked[q] = p;
				rc = charm_edge_add(c, c->root[p], c->root[q], EDGE_PATH);
			}
		}
		for (uint32_t i = lf[k]; i < lf[k + 1]; i++)
			for (uint32_t j = c->ch_first[lp[i]]; j < c->ch_first[lp[i] + 1]; j++)
				next_owner[c->chares[j]] = lp[i];
	}
	c->edges_added += (uint32_t)(c->n_e - before);
out:
	free(lf);
	free(lp);
	free(next_owner);
	free(linked);
	return rc ? rc : charm_graph_build(c, 0);
}

int
charm_enforce(struct charm *c)
{
	for (int round = 0;; round++) {
		int rc = order_round(c, round + 1 >= ORDER_ROUNDS);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
	}
	int rc = chare_paths(c);
	c->a->stats.charm_edges = c->edges_added;
	return rc;
}
