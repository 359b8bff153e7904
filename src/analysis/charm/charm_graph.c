/* charm_graph.c — the partition graph of the Charm++ stages: edges between
 * lops seen through the union-find of partitions, cycle merge, leaps.
 *
 * Every stage that merges partitions or adds edges ends with a rebuild:
 * partitions are numbered densely (in order of their smallest lop, so the
 * result does not depend on the order of merges), edges are mapped to
 * partition pairs and deduplicated, and — where the paper asks for a cycle
 * merge — strongly connected components are merged and the graph built
 * again. A rebuild costs the lops and the edges, never more.
 */
#include "charm_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/vec.h"

int
charm_init(struct charm *c, struct analysis *a)
{
	memset(c, 0, sizeof *c);
	c->a = a;
	c->t = a->t;
	c->n = a->n_lops;
	trace_timelines(c->t, &c->n_tl);
	c->cls = calloc(c->n + 1, 1);
	c->block = malloc((c->n + 1) * sizeof *c->block);
	c->serial = malloc((c->n + 1) * sizeof *c->serial);
	c->pid = malloc((c->n + 1) * sizeof *c->pid);
	if (!c->cls || !c->block || !c->serial || !c->pid || uf_init(&c->u, c->n))
		return ERR_NOMEM;
	return 0;
}

static void
free_graph(struct charm *c)
{
	free(c->root);
	free(c->prt);
	free(c->first);
	free(c->succ);
	free(c->leap);
	free(c->order);
	free(c->ch_first);
	free(c->chares);
	free(c->ch_lop);
	c->root = c->first = c->succ = c->leap = c->order = c->ch_first = c->chares = NULL;
	c->ch_lop = NULL;
	c->prt = NULL;
}

void
charm_fini(struct charm *c)
{
	free(c->cls);
	free(c->block);
	free(c->block_entry);
	free(c->serial);
	free(c->pid);
	free(c->e);
	uf_fini(&c->u);
	free_graph(c);
}

int
charm_edge_add(struct charm *c, uint32_t a, uint32_t b, enum charm_edge_kind kind)
{
	if (VEC_GROW(c->e, c->n_e, c->cap_e))
		return ERR_NOMEM;
	c->e[c->n_e++] = (struct charm_edge){ .a = a, .b = b, .kind = (uint8_t)kind };
	return 0;
}

uint32_t
charm_partition_of(const struct charm *c, uint32_t lop)
{
	return lop < c->n ? c->pid[lop] : TRACE_NONE;
}

/* Partition ids from the union-find, in order of smallest lop, with
 * each partition's root (the one its id was given for) and whether it
 * holds a runtime lop. A set's root is its smallest lop (uf_union), so
 * where every root is classified, the roots in lop order are the
 * partitions in order: the workers find each lop's root (uf_find_shared)
 * and count the roots of their pieces, the pieces' counts give each
 * piece its first id, and the workers number their roots and then every
 * lop. Every union joins classified lops (charm_initial, the merges
 * and the cycles join classified lops or partitions' roots), so a set
 * with one holds no other; should one not, one core numbers them as
 * before, giving an id at the first lop met of each set. */
struct numbering {
	struct charm *c;
	uint32_t *rid;                 /* a root's id */
	struct par_pieces pieces;
	uint32_t n_pieces;
	uint32_t count[PAR_PIECES_MAX];        /* each piece's roots, then its first id */
	int round;                     /* 0: roots; 1: the roots' ids; 2: every lop's */
	int loose;                     /* a classified lop's root is not */
};

static int
number_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct numbering *g = ctx;
	struct charm *c = g->c;
	uint32_t k;
	(void)nw;
	while (par_take(&g->pieces, w, &k)) {
		uint32_t from, to, n = 0;
		par_share(c->n, k, g->n_pieces, &from, &to);
		for (uint32_t l = from; l < to; l++) {
			if (g->round == 0) {
				uint32_t r = c->cls[l] == CLS_NONE ? TRACE_NONE : uf_find_shared(c->u.parent, l);
				c->pid[l] = r;
				n += r == l;
				if (r != TRACE_NONE && c->cls[r] == CLS_NONE)
					__atomic_store_n(&g->loose, 1, __ATOMIC_RELAXED);
			} else if (g->round == 1) {
				if (c->pid[l] == l) {
					uint32_t id = g->count[k] + n++;
					g->rid[l] = id;
					c->root[id] = l;
				}
			} else if (c->pid[l] != TRACE_NONE) {
				uint32_t id = g->rid[c->pid[l]];
				c->pid[l] = id;
				if (c->cls[l] == CLS_RT)
					__atomic_store_n(&c->prt[id], 1, __ATOMIC_RELAXED);
			}
		}
		if (g->round == 0)
			g->count[k] = n;
	}
	return 0;
}

/* One core's numbering, for a set whose root is unclassified. */
static int
number_serial(struct charm *c, uint32_t *id_of_root)
{
	memset(id_of_root, 0xff, (c->n + 1) * sizeof *id_of_root);
	size_t np = 0, cap_root = 0, cap_prt = 0;
	for (uint32_t l = 0; l < c->n; l++) {
		c->pid[l] = TRACE_NONE;
		if (c->cls[l] == CLS_NONE)
			continue;
		uint32_t r = uf_find(&c->u, l);
		if (id_of_root[r] == TRACE_NONE) {
			if (VEC_GROW(c->root, np, cap_root) || VEC_GROW(c->prt, np, cap_prt))
				return ERR_NOMEM;
			c->root[np] = r;
			c->prt[np] = 0;
			id_of_root[r] = (uint32_t)np++;
		}
		uint32_t id = id_of_root[r];
		c->pid[l] = id;
		if (c->cls[l] == CLS_RT)
			c->prt[id] = 1;
	}
	c->np = (uint32_t)np;
	/* one past the last, as the arrays have always had */
	if (VEC_GROW(c->root, np, cap_root) || VEC_GROW(c->prt, np, cap_prt))
		return ERR_NOMEM;
	c->prt[np] = 0;
	return 0;
}

static int
number(struct charm *c)
{
	free_graph(c);
	struct numbering *g = calloc(1, sizeof *g);
	uint32_t *rid = malloc((c->n + 1) * sizeof *rid);
	int rc = g && rid ? 0 : ERR_NOMEM;
	if (!rc) {
		uint32_t nw = par_workers();
		*g = (struct numbering){ .c = c, .rid = rid, .n_pieces = PAR_PIECES(nw) };
		par_pieces_init(&g->pieces, g->n_pieces, nw);
		par_run(nw, number_worker, g);
		if (g->loose) {
			rc = number_serial(c, rid);
		} else {
			uint32_t np = 0;
			for (uint32_t k = 0; k < g->n_pieces; k++) {
				uint32_t n = g->count[k];
				g->count[k] = np;
				np += n;
			}
			c->np = np;
			c->root = malloc(((size_t)np + 1) * sizeof *c->root);
			c->prt = calloc((size_t)np + 1, sizeof *c->prt);
			rc = c->root && c->prt ? 0 : ERR_NOMEM;
			for (g->round = 1; !rc && g->round <= 2; g->round++) {
				par_pieces_init(&g->pieces, g->n_pieces, nw);
				par_run(nw, number_worker, g);
			}
		}
	}
	free(rid);
	free(g);
	return rc;
}

/* Deduplicated successor lists from the edges: their targets grouped by
 * source partition in edge order, then each source's distinct targets,
 * an edge inside one partition dropped. On every core: each worker reads
 * its equal share of the edges' partitions (two reads of pid at random)
 * and counts them per source, the counts give each worker where its
 * targets of each source go (after the shares before it: edge order),
 * then the sources are taken a piece at a time, a stamp per target
 * keeping the first of each (a stamp array per worker). */
struct succ_build {
	struct charm *c;
	uint32_t *pa, *pb, *to, *by_src;
	uint32_t *cnt[PAR_MAX], *stamp[PAR_MAX];
	struct par_pieces pieces;
	uint32_t n_pieces;
	int round;                 /* 0: count; 1: group; 2: count distinct; 3: fill */
};

static int
succ_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct succ_build *g = ctx;
	struct charm *c = g->c;
	uint32_t from, to;
	if (g->round <= 1) {
		par_share((uint32_t)c->n_e, w, nw, &from, &to);
		uint32_t *cnt = g->cnt[w];
		for (uint32_t i = from; i < to; i++) {
			if (g->round == 0) {
				g->pa[i] = c->pid[c->e[i].a];
				g->pb[i] = c->pid[c->e[i].b];
				if (g->pa[i] != TRACE_NONE)
					cnt[g->pa[i]]++;
			} else if (g->pa[i] != TRACE_NONE) {
				g->to[cnt[g->pa[i]]++] = g->pb[i];
			}
		}
		return 0;
	}
	uint32_t k, *stamp = g->stamp[w];
	while (par_take(&g->pieces, w, &k)) {
		par_share(c->np, k, g->n_pieces, &from, &to);
		for (uint32_t p = from; p < to; p++) {
			uint32_t n = 0;
			for (uint32_t i = g->by_src[p]; i < g->by_src[p + 1]; i++) {
				uint32_t q = g->to[i];
				if (q == TRACE_NONE || q == p || stamp[q] == p)
					continue;
				stamp[q] = p;
				if (g->round == 3)
					c->succ[c->first[p] + n] = q;
				n++;
			}
			if (g->round == 2)
				c->first[p + 1] = n;
		}
	}
	return 0;
}

static int
successors(struct charm *c)
{
	uint32_t np = c->np, nw = par_workers();
	struct succ_build *g = calloc(1, sizeof *g);
	c->first = calloc((size_t)np + 2, sizeof *c->first);
	int rc = ERR_NOMEM;
	if (!g || !c->first || c->n_e >= UINT32_MAX)
		goto out;
	g->c = c;
	g->n_pieces = PAR_PIECES(nw);
	g->pa = malloc((c->n_e + 1) * sizeof *g->pa);
	g->pb = malloc((c->n_e + 1) * sizeof *g->pb);
	g->to = malloc((c->n_e + 1) * sizeof *g->to);
	g->by_src = malloc(((size_t)np + 2) * sizeof *g->by_src);
	if (!g->pa || !g->pb || !g->to || !g->by_src)
		goto out;
	for (uint32_t w = 0; w < nw; w++) {
		g->cnt[w] = calloc((size_t)np + 1, sizeof *g->cnt[w]);
		g->stamp[w] = malloc(((size_t)np + 1) * sizeof *g->stamp[w]);
		if (!g->cnt[w] || !g->stamp[w])
			goto out;
		memset(g->stamp[w], 0xff, ((size_t)np + 1) * sizeof *g->stamp[w]);
	}
	par_run(nw, succ_worker, g);
	/* each worker's counts become where its targets of a source go */
	uint32_t at = 0;
	for (uint32_t p = 0; p < np; p++) {
		g->by_src[p] = at;
		for (uint32_t w = 0; w < nw; w++) {
			uint32_t n = g->cnt[w][p];
			g->cnt[w][p] = at;
			at += n;
		}
	}
	g->by_src[np] = at;
	for (g->round = 1; g->round <= 3; g->round++) {
		if (g->round == 3) {
			for (uint32_t p = 0; p < np; p++)
				c->first[p + 1] += c->first[p];
			if (!(c->succ = malloc(((size_t)c->first[np] + 1) * sizeof *c->succ)))
				goto out;
			for (uint32_t w = 0; w < nw; w++)
				memset(g->stamp[w], 0xff, ((size_t)np + 1) * sizeof *g->stamp[w]);
		}
		par_pieces_init(&g->pieces, g->n_pieces, nw);
		par_run(nw, succ_worker, g);
	}
	rc = 0;
out:
	if (g) {
		free(g->pa);
		free(g->pb);
		free(g->to);
		free(g->by_src);
		for (uint32_t w = 0; w < PAR_MAX; w++) {
			free(g->cnt[w]);
			free(g->stamp[w]);
		}
	}
	free(g);
	return rc;
}

/* Merges every strongly connected component; returns how many merges
 * were made (0: the graph is a DAG), or a negative error. */
static int64_t
merge_cycles(struct charm *c)
{
	uint32_t *comp = malloc(((size_t)c->np + 1) * sizeof *comp);
	if (!comp)
		return ERR_NOMEM;
	int64_t ncomp = tarjan(c->np, c->first, c->succ, comp);
	if (ncomp < 0 || (uint32_t)ncomp == c->np) {
		free(comp);
		return ncomp < 0 ? ncomp : 0;
	}
	uint32_t *rep = malloc(((size_t)ncomp + 1) * sizeof *rep);
	if (!rep) {
		free(comp);
		return ERR_NOMEM;
	}
	memset(rep, 0xff, ((size_t)ncomp + 1) * sizeof *rep);
	int64_t merges = 0;
	for (uint32_t p = 0; p < c->np; p++) {
		if (rep[comp[p]] == TRACE_NONE)
			rep[comp[p]] = c->root[p];
		else
			merges += uf_union(&c->u, rep[comp[p]], c->root[p]);
	}
	free(rep);
	free(comp);
	return merges;
}

int
charm_graph_build(struct charm *c, int cycles)
{
	for (;;) {
		int rc = number(c);
		if (rc || (rc = successors(c)))
			return rc;
		if (!cycles)
			break;
		int64_t merged = merge_cycles(c);
		if (merged < 0)
			return (int)merged;
		if (merged == 0)
			break;
	}
	c->leap = malloc(((size_t)c->np + 1) * sizeof *c->leap);
	c->order = malloc(((size_t)c->np + 1) * sizeof *c->order);
	uint32_t *indeg = malloc(((size_t)c->np + 1) * sizeof *indeg);
	int rc = ERR_NOMEM;
	if (c->leap && c->order && indeg)
		rc = dag_depths(c->np, c->first, c->succ, c->leap, c->order, indeg);
	free(indeg);
	c->n_leaps = 0;
	for (uint32_t p = 0; !rc && p < c->np; p++)
		if (c->leap[p] + 1 > c->n_leaps)
			c->n_leaps = c->leap[p] + 1;
	return rc;
}

int
charm_graph_chares(struct charm *c)
{
	uint32_t np = c->np;
	free(c->ch_first);
	free(c->chares);
	free(c->ch_lop);
	c->chares = c->ch_lop = NULL;
	c->ch_first = calloc((size_t)np + 2, sizeof *c->ch_first);
	uint32_t *last = malloc(((size_t)np + 1) * sizeof *last);
	if (!c->ch_first || !last) {
		free(last);
		return ERR_NOMEM;
	}
	/* lops are numbered timeline by timeline, so a partition meets its
	 * timelines in increasing order: a new one differs from the last */
	memset(last, 0xff, ((size_t)np + 1) * sizeof *last);
	for (int pass = 0; pass < 2; pass++) {
		uint32_t *fill = NULL;
		if (pass) {
			for (uint32_t p = 0; p < np; p++)
				c->ch_first[p + 1] += c->ch_first[p];
			c->chares = malloc(((size_t)c->ch_first[np] + 1) * sizeof *c->chares);
			c->ch_lop = malloc(((size_t)c->ch_first[np] + 1) * sizeof *c->ch_lop);
			fill = malloc(((size_t)np + 1) * sizeof *fill);
			if (!c->chares || !c->ch_lop || !fill) {
				free(fill);
				free(last);
				return ERR_NOMEM;
			}
			memcpy(fill, c->ch_first, (size_t)np * sizeof *fill);
			memset(last, 0xff, ((size_t)np + 1) * sizeof *last);
		}
		for (uint32_t l = 0; l < c->n; l++) {
			uint32_t p = c->pid[l];
			if (p == TRACE_NONE)
				continue;
			uint32_t tl = c->a->lop_tl[l];
			if (last[p] == tl)
				continue;
			last[p] = tl;
			if (pass) {
				c->ch_lop[fill[p]] = l;
				c->chares[fill[p]++] = tl;
			} else
				c->ch_first[p + 1]++;
		}
		free(fill);
	}
	free(last);
	return 0;
}

uint32_t
charm_first_on(const struct charm *c, uint32_t p, uint32_t tl)
{
	uint32_t lo = c->ch_first[p], hi = c->ch_first[p + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->chares[mid] < tl)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ch_first[p + 1] && c->chares[lo] == tl ? c->ch_lop[lo] : TRACE_NONE;
}
