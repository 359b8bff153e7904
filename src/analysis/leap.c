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
 * The work is done on the partitions as they stand on entry ("base"
 * partitions), never on the operations: a union-find over base partitions
 * holds the merges, each rooted at its smallest member, so that roots in
 * increasing order are the merged partitions in the order partition ids
 * would give them. Merges of one pass over a leap are applied together,
 * then the contracted graph is rebuilt from the base edges (merging any
 * cycles the merges closed) and the leaps recomputed: a rebuild costs the
 * base partitions and edges, not the operations. Passes look at the
 * operations of the leap at hand only. At the end the merges go into a
 * union-find over lops and the partitions are finalized once.
 *
 * The order of the base edges within a merged partition is the order of
 * their first lop, as a rebuild from lops would list them, so the result
 * is the same as merging lops directly.
 */
#include "analysis_impl.h"

#include <stdlib.h>
#include <string.h>

struct edge {
	uint32_t src, dst;   /* base partitions, later merged ids */
	uint32_t key;        /* the first lop of src whose next lop is in dst */
};

struct leaper {
	struct analysis *a;
	uint32_t nb;                /* base partitions */
	struct uf bu;               /* union-find over base partitions, root = min */
	uint32_t *bnext, *btail;    /* members of a root: a list through bnext */
	uint32_t *brep;             /* base partition: a communication lop */
	struct edge *be;            /* base edges */
	uint32_t nbe, cap_be;
	/* merged partitions ("parts") after the last rebuild, dense ids in
	 * order of their smallest member */
	uint32_t np;
	uint32_t *root;             /* part -> base root */
	uint32_t *part_of;          /* base -> part */
	uint32_t *leap;             /* part -> leap */
	uint32_t *first, *succ;     /* DAG over parts, successors by key */
	uint32_t *pfirst, *pred;    /* the reverse DAG */
	uint32_t n_leaps;
	uint32_t *leap_first, *leap_parts;
	/* scratch */
	struct edge *ce;
	uint32_t *stamp, *pos, *comp, *tmp;
	uint32_t n_tl, n_active;
	uint8_t *active;            /* timeline has communication */
	uint32_t *in_leap, tstamp;  /* timeline covered by the leap at hand */
	uint32_t *tl_first, *tl_last, *tl_seen, *touched, dstamp;
};

static uint32_t
bfind(struct leaper *L, uint32_t x)
{
	return uf_find(&L->bu, x);
}

/* Unites two base sets (uf_union keeps the smaller root) and splices
 * their member lists; 1 if they were apart. */
static int
bunion(struct leaper *L, uint32_t x, uint32_t y)
{
	x = bfind(L, x);
	y = bfind(L, y);
	if (!uf_union(&L->bu, x, y))
		return 0;
	if (y < x) {
		uint32_t t = x;
		x = y;
		y = t;
	}
	L->bnext[L->btail[x]] = y;
	L->btail[x] = L->btail[y];
	return 1;
}

#define MEMBERS(L, part, b) \
	for (uint32_t b = (L)->root[part]; b != TRACE_NONE; b = (L)->bnext[b])

static int
cmp_key(const void *x, const void *y)
{
	const struct edge *e = x, *f = y;
	return (e->key > f->key) - (e->key < f->key);
}

static void
add_base_edge(void *ctx, uint32_t p, uint32_t q, uint32_t l)
{
	struct leaper *L = ctx;
	if (L->nbe < L->cap_be)    /* the DAG's edge count: always room */
		L->be[L->nbe++] = (struct edge){ p, q, l };
}

/* The base partitions' edges (the DAG's, from part_edges), each with the
 * first lop that makes it, and each partition's first communication lop. */
static int
base_edges(struct leaper *L)
{
	struct analysis *a = L->a;
	uint32_t ne = a->dag_first[L->nb];
	L->be = malloc(((size_t)ne + 1) * sizeof *L->be);
	L->ce = malloc(((size_t)ne + 1) * sizeof *L->ce);
	if (!L->be || !L->ce)
		return ERR_NOMEM;
	L->cap_be = ne;
	part_edges(a, L->stamp, add_base_edge, L);
	for (uint32_t p = 0; p < L->nb; p++) {
		L->brep[p] = TRACE_NONE;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1] && L->brep[p] == TRACE_NONE; k++)
			if (a->lop_kind[a->part_lops[k]] != OP_COMPUTE)
				L->brep[p] = a->part_lops[k];
	}
	return 0;
}

/* Contracts the base graph through the union-find into the parts' DAG,
 * merging cycles, and computes the leaps. */
static int
rebuild(struct leaper *L)
{
	for (;;) {
		uint32_t np = 0;
		for (uint32_t b = 0; b < L->nb; b++)
			if (bfind(L, b) == b)
				L->root[np++] = b;
		L->np = np;
		for (uint32_t i = 0; i < np; i++)
			MEMBERS(L, i, b)
				L->part_of[b] = i;
		/* contracted edges grouped by source, one per (src, dst) with
		 * the smallest key, in key order */
		memset(L->first, 0, (np + 2) * sizeof *L->first);
		for (uint32_t e = 0; e < L->nbe; e++) {
			uint32_t s = L->part_of[L->be[e].src], d = L->part_of[L->be[e].dst];
			if (s != d)
				L->first[s + 1]++;
		}
		for (uint32_t i = 0; i < np; i++)
			L->first[i + 1] += L->first[i];
		memcpy(L->tmp, L->first, (np + 1) * sizeof *L->tmp);
		for (uint32_t e = 0; e < L->nbe; e++) {
			uint32_t s = L->part_of[L->be[e].src], d = L->part_of[L->be[e].dst];
			if (s != d)
				L->ce[L->tmp[s]++] = (struct edge){ s, d, L->be[e].key };
		}
		for (uint32_t i = 0; i < np; i++)
			L->stamp[i] = TRACE_NONE;
		uint32_t n = 0;
		for (uint32_t s = 0; s < np; s++) {
			uint32_t from = n;
			for (uint32_t e = L->first[s]; e < L->first[s + 1]; e++) {
				struct edge c = L->ce[e];
				if (L->stamp[c.dst] == s) {
					if (c.key < L->ce[L->pos[c.dst]].key)
						L->ce[L->pos[c.dst]].key = c.key;
					continue;
				}
				L->stamp[c.dst] = s;
				L->pos[c.dst] = n;
				L->ce[n++] = c;
			}
			qsort(L->ce + from, n - from, sizeof *L->ce, cmp_key);
			L->first[s] = from;
		}
		L->first[np] = n;
		for (uint32_t e = 0; e < n; e++)
			L->succ[e] = L->ce[e].dst;
		int64_t ncomp = tarjan(np, L->first, L->succ, L->comp);
		if (ncomp < 0)
			return (int)ncomp;
		if ((uint32_t)ncomp == np)
			break;
		for (uint32_t c = 0; c < (uint32_t)ncomp; c++)
			L->tmp[c] = TRACE_NONE;
		for (uint32_t i = 0; i < np; i++) {
			uint32_t c = L->comp[i];
			if (L->tmp[c] == TRACE_NONE)
				L->tmp[c] = L->root[i];
			else
				bunion(L, L->tmp[c], L->root[i]);
		}
	}
	uint32_t np = L->np, ne = L->first[np];
	/* leaps: longest-path depths */
	int rc = dag_depths(np, L->first, L->succ, L->leap, L->comp, L->tmp);
	if (rc)
		return rc;
	L->n_leaps = 0;
	for (uint32_t i = 0; i < np; i++)
		if (L->leap[i] + 1 > L->n_leaps)
			L->n_leaps = L->leap[i] + 1;
	/* the reverse DAG */
	memset(L->pfirst, 0, (np + 2) * sizeof *L->pfirst);
	for (uint32_t e = 0; e < ne; e++)
		L->pfirst[L->succ[e] + 1]++;
	for (uint32_t i = 0; i < np; i++)
		L->pfirst[i + 1] += L->pfirst[i];
	memcpy(L->tmp, L->pfirst, (np + 1) * sizeof *L->tmp);
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t e = L->first[p]; e < L->first[p + 1]; e++)
			L->pred[L->tmp[L->succ[e]]++] = p;
	/* the parts of each leap, in id order */
	memset(L->leap_first, 0, ((size_t)L->n_leaps + 2) * sizeof *L->leap_first);
	for (uint32_t p = 0; p < np; p++)
		L->leap_first[L->leap[p] + 1]++;
	for (uint32_t k = 0; k < L->n_leaps; k++)
		L->leap_first[k + 1] += L->leap_first[k];
	memcpy(L->tmp, L->leap_first, ((size_t)L->n_leaps + 1) * sizeof *L->tmp);
	for (uint32_t p = 0; p < np; p++)
		L->leap_parts[L->tmp[L->leap[p]]++] = p;
	return 0;
}

/* Marks the timelines of part p as covered; returns how many were new
 * (with dry, stops at the first and marks nothing). */
static uint32_t
cover(struct leaper *L, uint32_t p, int dry)
{
	struct analysis *a = L->a;
	uint32_t added = 0;
	MEMBERS(L, p, b)
		for (uint32_t k = a->part_lop_first[b]; k < a->part_lop_first[b + 1]; k++) {
			uint32_t l = a->part_lops[k], tl = a->lop_tl[l];
			if (a->lop_kind[l] == OP_COMPUTE || L->in_leap[tl] == L->tstamp)
				continue;
			added++;
			if (dry)
				return added;
			L->in_leap[tl] = L->tstamp;
		}
	return added;
}

/* Incoming and outgoing leap distances of part p (UINT64_MAX when none):
 * on each of its timelines, from the communication lop before its first
 * to its first, and from its last to the one after. */
static void
distances(struct leaper *L, uint32_t p, uint64_t *in, uint64_t *out)
{
	struct analysis *a = L->a;
	uint32_t leap = L->leap[p], nt = 0;
	*in = *out = UINT64_MAX;
	L->dstamp++;
	MEMBERS(L, p, b) {
		uint32_t k = a->part_lop_first[b], end = a->part_lop_first[b + 1];
		while (k < end) {
			uint32_t tl = a->lop_tl[a->part_lops[k]], j = k;
			while (j < end && a->lop_tl[a->part_lops[j]] == tl)
				j++;
			uint32_t lo = a->part_lops[k], hi = a->part_lops[j - 1];
			if (L->tl_seen[tl] != L->dstamp) {
				L->tl_seen[tl] = L->dstamp;
				L->tl_first[tl] = lo;
				L->tl_last[tl] = hi;
				L->touched[nt++] = tl;
			} else {
				if (lo < L->tl_first[tl])
					L->tl_first[tl] = lo;
				if (hi > L->tl_last[tl])
					L->tl_last[tl] = hi;
			}
			k = j;
		}
	}
	for (uint32_t i = 0; i < nt; i++) {
		uint32_t tl = L->touched[i];
		uint32_t first = L->tl_first[tl], last = L->tl_last[tl];
		if (a->lop_kind[first] == OP_COMPUTE)
			first++;
		if (first >= 2 + a->tl_lop[tl]) {
			uint32_t q = a->lop_part[first - 2];
			if (q != TRACE_NONE && L->leap[L->part_of[q]] + 1 == leap) {
				uint64_t en = lop_enter(a, first), ex = lop_exit(a, first - 2);
				uint64_t d = en > ex ? en - ex : 0;
				if (d < *in)
					*in = d;
			}
		}
		if (last + 2 < a->tl_lop[tl + 1]) {
			uint32_t q = a->lop_part[last + 2];
			if (q != TRACE_NONE && L->leap[L->part_of[q]] == leap + 1) {
				uint64_t en = lop_enter(a, last + 2), ex = lop_exit(a, last);
				uint64_t d = en > ex ? en - ex : 0;
				if (d < *out)
					*out = d;
			}
		}
	}
}

/* Covers leap k's timelines; returns 1 when every active timeline is in. */
static int
leap_complete(struct leaper *L, uint32_t k)
{
	L->tstamp++;
	if (k >= L->n_leaps)
		return 1;
	uint32_t covered = 0;
	for (uint32_t i = L->leap_first[k]; i < L->leap_first[k + 1]; i++)
		covered += cover(L, L->leap_parts[i], 0);
	return covered >= L->n_active;
}

/* One pass of Algorithm 1's inner loop over leap k, after leap_complete
 * marked its coverage. Returns the number of merges made. */
static uint32_t
pass(struct leaper *L, uint32_t k)
{
	uint32_t merges = 0;
	double factor = L->a->opts.leap_factor;
	for (uint32_t i = L->leap_first[k]; i < L->leap_first[k + 1]; i++) {
		uint32_t p = L->leap_parts[i];
		uint64_t in, out;
		distances(L, p, &in, &out);
		if (in != UINT64_MAX && (out == UINT64_MAX || (double)in * factor < (double)out)) {
			/* much closer to the previous leap: merge backwards */
			for (uint32_t e = L->pfirst[p]; e < L->pfirst[p + 1]; e++) {
				uint32_t q = L->pred[e];
				if (L->leap[q] + 1 == k)
					merges += (uint32_t)bunion(L, L->root[q], L->root[p]);
			}
			continue;
		}
		/* absorb from the next leap only ("un-processed partitions
		 * from the next leap"), and only what adds ranks */
		for (uint32_t e = L->first[p]; e < L->first[p + 1]; e++) {
			uint32_t c = L->succ[e];
			if (L->leap[c] != k + 1)
				continue;
			if (cover(L, c, 1)) {   /* will_expand */
				cover(L, c, 0);
				merges += (uint32_t)bunion(L, L->root[p], L->root[c]);
			}
		}
	}
	return merges;
}

static int
setup(struct leaper *L)
{
	struct analysis *a = L->a;
	uint32_t nb = L->nb = a->n_parts, ne = a->dag_first[nb];
	size_t n1 = (size_t)nb + 2;
	if (uf_init(&L->bu, nb))
		return ERR_NOMEM;
	uint32_t **arrays[] = { &L->bnext, &L->btail, &L->brep, &L->root,
				&L->part_of, &L->leap, &L->first, &L->pfirst, &L->leap_first,
				&L->leap_parts, &L->stamp, &L->pos, &L->comp, &L->tmp };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		if (!(*arrays[i] = malloc(n1 * sizeof **arrays[i])))
			return ERR_NOMEM;
	L->succ = malloc(((size_t)ne + 1) * sizeof *L->succ);
	L->pred = malloc(((size_t)ne + 1) * sizeof *L->pred);
	trace_timelines(a->t, &L->n_tl);
	size_t nt = (size_t)L->n_tl + 1;
	L->active = calloc(nt, 1);
	L->in_leap = calloc(nt, sizeof *L->in_leap);
	L->tl_seen = calloc(nt, sizeof *L->tl_seen);
	L->tl_first = malloc(nt * sizeof *L->tl_first);
	L->tl_last = malloc(nt * sizeof *L->tl_last);
	L->touched = malloc(nt * sizeof *L->touched);
	if (!L->succ || !L->pred || !L->active || !L->in_leap || !L->tl_seen ||
	    !L->tl_first || !L->tl_last || !L->touched)
		return ERR_NOMEM;
	for (uint32_t l = 0; l < a->n_lops; l++)
		if (a->lop_kind[l] != OP_COMPUTE && !L->active[a->lop_tl[l]]) {
			L->active[a->lop_tl[l]] = 1;
			L->n_active++;
		}
	for (uint32_t b = 0; b < nb; b++) {
		L->btail[b] = b;
		L->bnext[b] = TRACE_NONE;
	}
	return base_edges(L);
}

static void
cleanup(struct leaper *L)
{
	uf_fini(&L->bu);
	uint32_t *arrays[] = { L->bnext, L->btail, L->brep, L->root, L->part_of,
			       L->leap, L->first, L->pfirst, L->leap_first, L->leap_parts,
			       L->stamp, L->pos, L->comp, L->tmp, L->succ, L->pred, L->in_leap,
			       L->tl_seen, L->tl_first, L->tl_last, L->touched };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		free(arrays[i]);
	free(L->be);
	free(L->ce);
	free(L->active);
}

/* Hands the merges to the lops and finalizes the partitions. */
static int
apply(struct leaper *L)
{
	struct analysis *a = L->a;
	struct uf u = { 0 };
	int rc = partition_to_uf(a, &u);
	for (uint32_t b = 0; !rc && b < L->nb; b++) {
		uint32_t r = bfind(L, b);
		if (r != b)
			uf_union(&u, L->brep[r], L->brep[b]);
	}
	if (!rc)
		rc = partition_finalize(a, &u);
	uf_fini(&u);
	return rc;
}

int
partition_leap_merge(struct analysis *a)
{
	struct leaper L = { .a = a };
	uint32_t merged = 0;
	int rc = setup(&L);
	if (!rc)
		rc = rebuild(&L);
	for (uint32_t k = 0; !rc && k < L.n_leaps;) {
		if (a->progress && a->progress(a->ud, "leap merging", k, L.n_leaps)) {
			rc = ERR_CANCELLED;
			break;
		}
		/* grow leap k until it is complete or stops changing */
		int complete;
		while (!(complete = leap_complete(&L, k))) {
			uint32_t merges = pass(&L, k);
			if (!merges)
				break;
			merged += merges;
			if ((rc = rebuild(&L)))
				break;
			/* a leap can take many passes: stay cancellable */
			if (a->progress && a->progress(a->ud, "leap merging", k, L.n_leaps)) {
				rc = ERR_CANCELLED;
				break;
			}
		}
		if (rc)
			break;
		if (!complete && a->opts.leap_force) {
			uint32_t merges = 0;
			for (uint32_t i = L.leap_first[k]; i < L.leap_first[k + 1]; i++) {
				uint32_t p = L.leap_parts[i];
				for (uint32_t e = L.first[p]; e < L.first[p + 1]; e++)
					merges += (uint32_t)bunion(&L, L.root[p], L.root[L.succ[e]]);
			}
			if (merges) {
				merged += merges;
				rc = rebuild(&L);
				continue;        /* try leap k again */
			}
		}
		if (!complete)
			a->stats.incomplete_leaps++;
		k++;
	}
	if (!rc && merged)
		rc = apply(&L);
	if (!rc)
		a->stats.leaps = L.n_leaps;
	cleanup(&L);
	return rc;
}
