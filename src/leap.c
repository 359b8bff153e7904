/* leap.c — leap merge (seed 000, section 3.1, Algorithm 1).
 *
 * A leap is the set of partitions at one depth of the partition DAG
 * (longest path from a source, so every predecessor of a leap-k partition
 * is in an earlier leap). Going leap by leap, an incomplete leap (one that
 * misses some rank that communicates at all) grows: each of its partitions
 * either merges backwards into its previous-leap neighbours, when its
 * incoming leap distance is `leap_factor` times smaller than its outgoing
 * one, or absorbs those children that bring ranks the leap lacks. When a
 * leap stops changing and is still incomplete, `leap_force` merges all its
 * partitions with their successors and tries again; otherwise the leap is
 * accepted as it is.
 *
 * Merges of one pass over a leap are applied together (through a
 * union-find over lops), then the DAG and the leaps are rebuilt; ids from
 * before a rebuild are never used after it. A rebuild is linear in the
 * operations, so the whole merge is O(leaps x operations) when many
 * leaps are incomplete: it reports progress per leap and can be
 * cancelled through the progress callback.
 */
#include "analysis_impl.h"

#include <stdlib.h>
#include <string.h>

struct leaper {
	struct analysis *a;
	uint32_t n_tl;
	uint8_t *active;       /* per timeline: has communication at all */
	uint32_t n_active;
	uint32_t *in_leap;     /* per timeline: stamp of the leap that covers it */
	uint32_t stamp;
	uint32_t *pred_first, *pred;   /* reverse DAG */
	uint32_t *rep;         /* per partition: a communication lop */
	uint32_t n_leaps;
	uint32_t *leap_first, *leap_parts;  /* the partitions of each leap */
};

static int
build_reverse(struct leaper *L)
{
	struct analysis *a = L->a;
	uint32_t np = a->n_parts, ne = a->dag_first[np];
	free(L->pred_first);
	free(L->pred);
	free(L->rep);
	free(L->leap_first);
	free(L->leap_parts);
	L->leap_first = L->leap_parts = NULL;
	L->pred_first = calloc(np + 2, sizeof *L->pred_first);
	L->pred = malloc((ne + 1) * sizeof *L->pred);
	L->rep = malloc((np + 1) * sizeof *L->rep);
	if (!L->pred_first || !L->pred || !L->rep)
		return ERR_NOMEM;
	for (uint32_t e = 0; e < ne; e++)
		L->pred_first[a->dag_succ[e] + 1]++;
	for (uint32_t p = 0; p < np; p++)
		L->pred_first[p + 1] += L->pred_first[p];
	/* np + 1 bounds both the partitions and the leaps */
	uint32_t *fill = malloc((np + 1) * sizeof *fill);
	if (!fill)
		return ERR_NOMEM;
	memcpy(fill, L->pred_first, (np + 1) * sizeof *fill);
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			L->pred[fill[a->dag_succ[e]]++] = p;
	/* bucket the partitions by leap, so a leap costs its own size */
	L->n_leaps = 0;
	for (uint32_t p = 0; p < np; p++)
		if (a->parts[p].leap + 1 > L->n_leaps)
			L->n_leaps = a->parts[p].leap + 1;
	L->leap_first = calloc((size_t)L->n_leaps + 2, sizeof *L->leap_first);
	L->leap_parts = malloc((np + 1) * sizeof *L->leap_parts);
	if (!L->leap_first || !L->leap_parts) {
		free(fill);
		return ERR_NOMEM;
	}
	for (uint32_t p = 0; p < np; p++)
		L->leap_first[a->parts[p].leap + 1]++;
	for (uint32_t k = 0; k < L->n_leaps; k++)
		L->leap_first[k + 1] += L->leap_first[k];
	memcpy(fill, L->leap_first, (L->n_leaps + 1) * sizeof *fill);
	for (uint32_t p = 0; p < np; p++)
		L->leap_parts[fill[a->parts[p].leap]++] = p;
	free(fill);
	for (uint32_t p = 0; p < np; p++) {
		L->rep[p] = TRACE_NONE;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++)
			if (a->lop_kind[a->part_lops[k]] != OP_COMPUTE) {
				L->rep[p] = a->part_lops[k];
				break;
			}
	}
	return 0;
}

/* Marks the timelines of p as covered (stamp); returns how many were new. */
static uint32_t
cover(struct leaper *L, uint32_t p, int dry)
{
	struct analysis *a = L->a;
	uint32_t added = 0;
	for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
		uint32_t l = a->part_lops[k], tl = a->lop_tl[l];
		if (a->lop_kind[l] == OP_COMPUTE || L->in_leap[tl] == L->stamp)
			continue;
		added++;
		if (dry)
			return added;
		L->in_leap[tl] = L->stamp;
	}
	return added;
}

/* Incoming and outgoing leap distances of p (UINT64_MAX when none). */
static void
distances(struct leaper *L, uint32_t p, uint64_t *in, uint64_t *out)
{
	struct analysis *a = L->a;
	uint32_t leap = a->parts[p].leap;
	*in = *out = UINT64_MAX;
	uint32_t k = a->part_lop_first[p], end = a->part_lop_first[p + 1];
	while (k < end) {
		/* the lops of p on one timeline: [k, j) */
		uint32_t tl = a->lop_tl[a->part_lops[k]], j = k;
		while (j < end && a->lop_tl[a->part_lops[j]] == tl)
			j++;
		uint32_t first = a->part_lops[k], last = a->part_lops[j - 1];
		/* first/last communication lop of p there */
		if (a->lop_kind[first] == OP_COMPUTE)
			first++;
		if (first >= 2 + a->tl_lop[tl]) {
			uint32_t prev = first - 2;      /* the communication lop before */
			uint32_t q = a->lop_part[prev];
			if (q != TRACE_NONE && a->parts[q].leap + 1 == leap) {
				uint64_t en = lop_enter(a, first), ex = lop_exit(a, prev);
				uint64_t d = en > ex ? en - ex : 0;
				if (d < *in)
					*in = d;
			}
		}
		if (last + 2 < a->tl_lop[tl + 1]) {
			uint32_t next = last + 2;
			uint32_t q = a->lop_part[next];
			if (q != TRACE_NONE && a->parts[q].leap == leap + 1) {
				uint64_t en = lop_enter(a, next), ex = lop_exit(a, last);
				uint64_t d = en > ex ? en - ex : 0;
				if (d < *out)
					*out = d;
			}
		}
		k = j;
	}
}

/* Covers leap k's timelines; returns 1 when every active timeline is in. */
static int
leap_complete(struct leaper *L, uint32_t k)
{
	L->stamp++;
	uint32_t covered = 0;
	if (k >= L->n_leaps)
		return 1;
	for (uint32_t i = L->leap_first[k]; i < L->leap_first[k + 1]; i++)
		covered += cover(L, L->leap_parts[i], 0);
	return covered >= L->n_active;
}

/* One pass of Algorithm 1's inner loop over leap k. Returns the number of
 * merges made (applied to u). */
static uint32_t
pass(struct leaper *L, uint32_t k, struct uf *u)
{
	struct analysis *a = L->a;
	uint32_t merges = 0;
	double factor = a->opts.leap_factor;
	for (uint32_t i = L->leap_first[k]; i < L->leap_first[k + 1]; i++) {
		uint32_t p = L->leap_parts[i];
		if (L->rep[p] == TRACE_NONE)
			continue;
		uint64_t in, out;
		distances(L, p, &in, &out);
		if (in != UINT64_MAX && (out == UINT64_MAX || (double)in * factor < (double)out)) {
			/* much closer to the previous leap: merge backwards */
			for (uint32_t e = L->pred_first[p]; e < L->pred_first[p + 1]; e++) {
				uint32_t q = L->pred[e];
				if (a->parts[q].leap + 1 == k)
					merges += (uint32_t)uf_union(u, L->rep[q], L->rep[p]);
			}
			continue;
		}
		/* absorb from the next leap only ("un-processed partitions
		 * from the next leap"), and only what adds ranks */
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++) {
			uint32_t c = a->dag_succ[e];
			if (a->parts[c].leap == k + 1 && cover(L, c, 1)) {   /* will_expand */
				cover(L, c, 0);
				merges += (uint32_t)uf_union(u, L->rep[p], L->rep[c]);
			}
		}
	}
	return merges;
}

static int
rebuild(struct leaper *L, struct uf *u)
{
	int rc = partition_finalize(L->a, u);
	uf_fini(u);
	if (rc)
		return rc;
	if ((rc = build_reverse(L)))
		return rc;
	return partition_to_uf(L->a, u);
}

int
partition_leap_merge(struct analysis *a)
{
	struct leaper L = { .a = a };
	trace_timelines(a->t, &L.n_tl);
	L.active = calloc(L.n_tl + 1, 1);
	L.in_leap = calloc(L.n_tl + 1, sizeof *L.in_leap);
	struct uf u = { 0 };
	int rc = ERR_NOMEM;
	if (!L.active || !L.in_leap)
		goto out;
	for (uint32_t l = 0; l < a->n_lops; l++)
		if (a->lop_kind[l] != OP_COMPUTE && !L.active[a->lop_tl[l]]) {
			L.active[a->lop_tl[l]] = 1;
			L.n_active++;
		}
	if ((rc = build_reverse(&L)) || (rc = partition_to_uf(a, &u)))
		goto out;
	for (uint32_t k = 0; k < L.n_leaps;) {
		if (a->progress && a->progress(a->ud, "leap merging", k, L.n_leaps)) {
			rc = ERR_CANCELLED;
			goto out;
		}
		/* grow leap k until it is complete or stops changing */
		while (!leap_complete(&L, k)) {
			/* the pass needs the leap's coverage as it grows */
			uint32_t merges = pass(&L, k, &u);
			if (!merges)
				break;
			if ((rc = rebuild(&L, &u)))
				goto out;
		}
		if (!leap_complete(&L, k) && a->opts.leap_force) {
			uint32_t merges = 0;
			for (uint32_t i = L.leap_first[k]; i < L.leap_first[k + 1]; i++) {
				uint32_t p = L.leap_parts[i];
				for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
					merges += (uint32_t)uf_union(&u, L.rep[p], L.rep[a->dag_succ[e]]);
			}
			if (merges) {
				if ((rc = rebuild(&L, &u)))
					goto out;
				continue;        /* try leap k again */
			}
		}
		if (!leap_complete(&L, k))
			a->stats.incomplete_leaps++;
		k++;
	}
	a->stats.leaps = L.n_leaps;
	rc = 0;
out:
	uf_fini(&u);
	free(L.active);
	free(L.in_leap);
	free(L.pred_first);
	free(L.pred);
	free(L.rep);
	free(L.leap_first);
	free(L.leap_parts);
	return rc;
}
