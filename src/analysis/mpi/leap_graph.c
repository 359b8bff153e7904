/* leap_graph.c — the leap merge's graph of merged partitions: its edges
 * through the union-find, its cycles, and its leaps, levelled whole or
 * only in the window of the leap being grown (see leap_impl.h).
 *
 * The results are the ones a rebuild of the whole graph after every pass
 * gives: the same cycles are merged in the same order (each cycle's
 * partitions united with its smallest, in ascending order), and each pass
 * sees leap k's partitions in ascending order, their predecessors in
 * ascending order and their successors in order of the first lop that
 * leads to them.
 */
#include "leap_impl.h"

#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

uint32_t
leap_find(struct leaper *L, uint32_t x)
{
	return uf_find(&L->bu, x);
}

int
leap_union(struct leaper *L, uint32_t x, uint32_t y)
{
	x = leap_find(L, x);
	y = leap_find(L, y);
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

int
leap_list_push(struct leap_list *l, uint32_t x)
{
	if (VEC_GROW(l->v, l->n, l->cap))
		return ERR_NOMEM;
	l->v[l->n++] = x;
	return 0;
}

void
leap_list_free(struct leap_list *l)
{
	free(l->v);
	*l = (struct leap_list){ 0 };
}

static int
cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* qsort, except on fewer than two items (a list never grown is NULL) */
static void
sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

/* ---- base edges ---- */

int
leap_graph_init(struct leaper *L)
{
	uint32_t nb = L->nb;
	L->be = L->in->edges;
	L->nbe = L->in->n_edges;
	L->out_first = calloc((size_t)nb + 2, sizeof *L->out_first);
	L->in_first = calloc((size_t)nb + 2, sizeof *L->in_first);
	L->in_src = malloc(((size_t)L->nbe + 1) * sizeof *L->in_src);
	if (!L->out_first || !L->in_first || !L->in_src)
		return ERR_NOMEM;
	for (uint32_t e = 0; e < L->nbe; e++) {
		L->out_first[L->be[e].src + 1]++;
		L->in_first[L->be[e].dst + 1]++;
	}
	for (uint32_t b = 0; b < nb; b++) {
		L->out_first[b + 1] += L->out_first[b];
		L->in_first[b + 1] += L->in_first[b];
	}
	memcpy(L->pos, L->in_first, (size_t)nb * sizeof *L->pos);
	for (uint32_t e = 0; e < L->nbe; e++)
		L->in_src[L->pos[L->be[e].dst]++] = L->be[e].src;
	return 0;
}

/* ---- a merged partition's neighbours ---- */

static uint32_t
next_stamp(struct leaper *L)
{
	if (++L->stamp_gen == 0) {
		memset(L->stamp, 0, (size_t)L->nb * sizeof *L->stamp);
		L->stamp_gen = 1;
	}
	return L->stamp_gen;
}

/* The predecessors of merged partition r into L->tmp, ascending. */
static int
preds(struct leaper *L, uint32_t r)
{
	uint32_t s = next_stamp(L);
	L->tmp.n = 0;
	LEAP_MEMBERS(L, r, b)
		for (uint32_t e = L->in_first[b]; e < L->in_first[b + 1]; e++) {
			uint32_t q = leap_find(L, L->in_src[e]);
			if (q == r || L->stamp[q] == s)
				continue;
			L->stamp[q] = s;
			if (leap_list_push(&L->tmp, q))
				return ERR_NOMEM;
		}
	sort(L->tmp.v, L->tmp.n, sizeof *L->tmp.v, cmp_u32);
	return 0;
}


/* The successors of merged partition r into L->tmp, each once, in order
 * of the first lop of r that leads to it. */
static int
succs(struct leaper *L, uint32_t r)
{
	uint32_t s = next_stamp(L);
	L->tmp.n = 0;
	LEAP_MEMBERS(L, r, b)
		for (uint32_t e = L->out_first[b]; e < L->out_first[b + 1]; e++) {
			uint32_t q = leap_find(L, L->be[e].dst), k = L->be[e].key;
			if (q == r)
				continue;
			if (L->stamp[q] == s) {
				if (k < L->key[q])
					L->key[q] = k;
				continue;
			}
			L->stamp[q] = s;
			L->key[q] = k;
			if (leap_list_push(&L->tmp, q))
				return ERR_NOMEM;
		}
	/* keys are distinct (each lop leads to one next lop): sort
	 * (key, root) pairs */
	if (L->tmp.n > L->cap_pairs) {
		uint64_t *v = realloc(L->pairs, 2 * L->tmp.n * sizeof *v);
		if (!v)
			return ERR_NOMEM;
		L->pairs = v;
		L->cap_pairs = 2 * L->tmp.n;
	}
	for (size_t i = 0; i < L->tmp.n; i++)
		L->pairs[i] = (uint64_t)L->key[L->tmp.v[i]] << 32 | L->tmp.v[i];
	sort(L->pairs, L->tmp.n, sizeof *L->pairs, cmp_u64);
	for (size_t i = 0; i < L->tmp.n; i++)
		L->tmp.v[i] = (uint32_t)L->pairs[i];
	return 0;
}

/* ---- cycles ---- */

/* Merges the cycles among the merged partitions in `nodes` (roots, each
 * once, ascending; edges leaving the set are ignored) until none is
 * left; nodes then holds the roots that remain. pos maps a root to its
 * index while this runs. */
static int
merge_cycles(struct leaper *L, struct leap_list *nodes)
{
	for (;;) {
		uint32_t n = (uint32_t)nodes->n;
		uint32_t *first = malloc(((size_t)n + 1) * sizeof *first);
		struct leap_list succ = { 0 };
		uint32_t *comp = malloc(((size_t)n + 1) * sizeof *comp);
		uint32_t *anchor = malloc(((size_t)n + 1) * sizeof *anchor);
		int rc = first && comp && anchor ? 0 : ERR_NOMEM;
		uint32_t inside = next_stamp(L);
		for (uint32_t i = 0; i < n; i++) {
			L->stamp[nodes->v[i]] = inside;
			L->pos[nodes->v[i]] = i;
		}
		for (uint32_t i = 0; i < n && !rc; i++) {
			first[i] = (uint32_t)succ.n;
			LEAP_MEMBERS(L, nodes->v[i], b)
				for (uint32_t e = L->out_first[b]; e < L->out_first[b + 1] && !rc; e++) {
					uint32_t q = leap_find(L, L->be[e].dst);
					if (q != nodes->v[i] && L->stamp[q] == inside)
						rc = leap_list_push(&succ, L->pos[q]);
				}
		}
		int64_t nc = 0;
		if (!rc) {
			first[n] = (uint32_t)succ.n;
			nc = tarjan(n, first, succ.v, comp);
			if (nc < 0)
				rc = (int)nc;
		}
		if (!rc && (uint32_t)nc < n) {
			for (uint32_t c = 0; c < (uint32_t)nc; c++)
				anchor[c] = TRACE_NONE;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t c = comp[i];
				if (anchor[c] == TRACE_NONE)
					anchor[c] = nodes->v[i];
				else
					leap_union(L, anchor[c], nodes->v[i]);
			}
			uint32_t m = 0;
			for (uint32_t i = 0; i < n; i++)
				if (leap_find(L, nodes->v[i]) == nodes->v[i])
					nodes->v[m++] = nodes->v[i];
			nodes->n = m;
		}
		free(first);
		free(comp);
		free(anchor);
		leap_list_free(&succ);
		if (rc || (uint32_t)nc == n)
			return rc;
	}
}

/* ---- levelling ---- */

static void
set_dep(struct leaper *L, uint32_t r, uint32_t d)
{
	LEAP_MEMBERS(L, r, b)
		L->bdep[b] = d;
}

/* Takes leap k's partitions, with their neighbours, for the next pass. */
static int
snapshot(struct leaper *L, uint32_t k)
{
	L->k = k;
	L->kp.n = L->kpred_first.n = L->kpred.n = L->kpred_dep.n = 0;
	L->ksucc_first.n = L->ksucc.n = L->ksucc_dep.n = 0;
	const struct leap_list *lv = leap_level(L, k);
	int rc = 0;
	for (size_t i = 0; i < lv->n && !rc; i++) {
		uint32_t p = lv->v[i];
		rc = leap_list_push(&L->kp, p);
		rc = rc ? rc : leap_list_push(&L->kpred_first, (uint32_t)L->kpred.n);
		rc = rc ? rc : leap_list_push(&L->ksucc_first, (uint32_t)L->ksucc.n);
		rc = rc ? rc : preds(L, p);
		for (size_t j = 0; j < L->tmp.n && !rc; j++) {
			rc = leap_list_push(&L->kpred, L->tmp.v[j]);
			rc = rc ? rc : leap_list_push(&L->kpred_dep, L->bdep[L->tmp.v[j]]);
		}
		rc = rc ? rc : succs(L, p);
		for (size_t j = 0; j < L->tmp.n && !rc; j++) {
			rc = leap_list_push(&L->ksucc, L->tmp.v[j]);
			rc = rc ? rc : leap_list_push(&L->ksucc_dep, L->bdep[L->tmp.v[j]]);
		}
	}
	rc = rc ? rc : leap_list_push(&L->kpred_first, (uint32_t)L->kpred.n);
	rc = rc ? rc : leap_list_push(&L->ksucc_first, (uint32_t)L->ksucc.n);
	return rc;
}

int
leap_level_all(struct leaper *L, uint32_t k)
{
	struct leap_list *w = &L->w;
	w->n = 0;
	int rc = 0;
	for (uint32_t b = 0; b < L->nb && !rc; b++)
		if (leap_find(L, b) == b)
			rc = leap_list_push(w, b);
	if (!rc)
		rc = merge_cycles(L, w);
	if (rc)
		return rc;
	/* longest-path depths, Kahn's order over the whole graph */
	uint32_t n = (uint32_t)w->n;
	uint32_t *indeg = calloc((size_t)n + 1, sizeof *indeg);
	uint32_t *depth = calloc((size_t)n + 1, sizeof *depth);
	uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
	if (!indeg || !depth || !queue) {
		rc = ERR_NOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		L->pos[w->v[i]] = i;
	for (uint32_t i = 0; i < n && !rc; i++) {
		rc = succs(L, w->v[i]);
		for (size_t j = 0; j < L->tmp.n && !rc; j++)
			indeg[L->pos[L->tmp.v[j]]]++;
	}
	uint32_t head = 0, tail = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!indeg[i])
			queue[tail++] = i;
	while (head < tail && !rc) {
		uint32_t i = queue[head++];
		rc = succs(L, w->v[i]);
		for (size_t j = 0; j < L->tmp.n && !rc; j++) {
			uint32_t c = L->pos[L->tmp.v[j]];
			if (depth[i] + 1 > depth[c])
				depth[c] = depth[i] + 1;
			if (--indeg[c] == 0)
				queue[tail++] = c;
		}
	}
	if (rc)
		goto out;
	if (tail < n) {
		rc = ERR_FORMAT;   /* a cycle left: cannot happen after merge_cycles */
		goto out;
	}
	L->n_leaps = 0;
	for (uint32_t i = 0; i < n; i++)
		if (depth[i] + 1 > L->n_leaps)
			L->n_leaps = depth[i] + 1;
	L->lo = k ? k - 1 : 0;
	for (uint32_t j = 0; j < LEAP_LEVELS; j++)
		L->level[j].n = 0;
	for (uint32_t i = 0; i < n && !rc; i++) {
		uint32_t d = depth[i];
		set_dep(L, w->v[i], d <= k + 1 ? d : LEAP_UNRESOLVED);
		if (d >= L->lo && d <= k + 1)
			rc = leap_list_push(&L->level[d - L->lo], w->v[i]);
	}
	if (!rc)
		rc = snapshot(L, k);
out:
	free(indeg);
	free(depth);
	free(queue);
	return rc;
}

int
leap_level_window(struct leaper *L, uint32_t k, int merged)
{
	uint32_t lo = k ? k - 1 : 0;
	struct leap_list *w = &L->w, *cand = &L->cand;
	/* the window's partitions as they are now: the roots of every
	 * partition levelled at lo or later */
	w->n = 0;
	uint32_t s = next_stamp(L);
	int rc = 0;
	for (uint32_t j = lo; j < L->lo + LEAP_LEVELS && !rc; j++) {
		if (j < L->lo)
			continue;
		const struct leap_list *lv = &L->level[j - L->lo];
		for (size_t i = 0; i < lv->n && !rc; i++) {
			uint32_t r = leap_find(L, lv->v[i]);
			if (L->stamp[r] != s) {
				L->stamp[r] = s;
				rc = leap_list_push(w, r);
			}
		}
	}
	if (rc)
		return rc;
	sort(w->v, w->n, sizeof *w->v, cmp_u32);
	if (merged && (rc = merge_cycles(L, w)))
		return rc;
	for (size_t i = 0; i < w->n; i++)
		set_dep(L, w->v[i], LEAP_UNRESOLVED);
	/* level lo, lo + 1 ... k + 1: a candidate is at level j when all its
	 * predecessors are levelled before j; the candidates are the window's
	 * partitions and the successors of each level */
	L->lo = lo;
	for (uint32_t j = 0; j < LEAP_LEVELS; j++)
		L->level[j].n = 0;
	cand->n = 0;
	for (size_t i = 0; i < w->n && !rc; i++)
		rc = leap_list_push(cand, w->v[i]);
	w->n = 0;
	for (uint32_t j = lo; j <= k + 1 && !rc; j++) {
		struct leap_list *lv = &L->level[j - lo];
		size_t keep = 0;
		for (size_t i = 0; i < cand->n && !rc; i++) {
			uint32_t c = cand->v[i];
			if ((rc = preds(L, c)))
				break;
			int ready = 1;
			for (size_t q = 0; q < L->tmp.n && ready; q++)
				ready = L->bdep[L->tmp.v[q]] != LEAP_UNRESOLVED && L->bdep[L->tmp.v[q]] < j;
			if (ready)
				rc = leap_list_push(lv, c);
			else
				cand->v[keep++] = c;
		}
		cand->n = keep;
		if (rc)
			break;
		sort(lv->v, lv->n, sizeof *lv->v, cmp_u32);
		for (size_t i = 0; i < lv->n; i++)
			set_dep(L, lv->v[i], j);
		/* their successors join the candidates (each once); w is free
		 * now and collects them */
		if (++L->mark_gen == 0) {
			memset(L->mark, 0, (size_t)L->nb * sizeof *L->mark);
			L->mark_gen = 1;
		}
		uint32_t cs = L->mark_gen;
		for (size_t i = 0; i < cand->n; i++)
			L->mark[cand->v[i]] = cs;
		for (size_t i = 0; i < lv->n && !rc; i++) {
			if ((rc = succs(L, lv->v[i])))
				break;
			for (size_t q = 0; q < L->tmp.n && !rc; q++) {
				uint32_t c = L->tmp.v[q];
				if (L->bdep[c] == LEAP_UNRESOLVED && L->mark[c] != cs) {
					L->mark[c] = cs;
					rc = leap_list_push(w, c);
				}
			}
		}
		for (size_t i = 0; i < w->n && !rc; i++)
			rc = leap_list_push(cand, w->v[i]);
		w->n = 0;
	}
	return rc ? rc : snapshot(L, k);
}
