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

/* Partition ids from the union-find, in order of smallest lop (the
 * classified lops' sets: uf_number, which gives each id's root), then
 * whether each holds a runtime lop, a share of the lops each (a flag
 * read before it is set: a large runtime partition's lops on both
 * cores would otherwise write one line by turns). */
static int
runtime_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct charm *c = ctx;
	uint32_t l0, l1;
	par_share(c->n, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++)
		if (c->cls[l] == CLS_RT && !__atomic_load_n(&c->prt[c->pid[l]], __ATOMIC_RELAXED))
			__atomic_store_n(&c->prt[c->pid[l]], 1, __ATOMIC_RELAXED);
	return 0;
}

/* After the first numbering only unions have happened (the classes are
 * set once), so the old partitions give the new: each old partition's
 * new root is the find of its old root, a set's smallest lop (the
 * union-find links the smaller id as root); the new ids, in order of
 * their roots, go to the old ids whose root is still one; every other
 * old id takes the id of its new root's old one; a new partition is a
 * runtime one where one of its old ones was; then each lop's id is
 * mapped. One pass over the lops, where uf_number and runtime_worker
 * took four. Rounds, on every core, a share each: 0 the finds (and the
 * roots a share keeps counted), 1 the kept roots' ids, 2 the other old
 * ids' and the runtime flags, 3 the lops. */
struct renumbering {
	struct charm *c;
	const uint32_t *old_root;
	const uint8_t *old_prt;
	uint32_t old_np;
	uint32_t *r;                 /* per old id: its new root */
	uint32_t *map;               /* per old id: its new id */
	uint32_t first[PAR_MAX];     /* round 0: roots kept in the share; then its first id */
	int round;
	int loose;                   /* a new root is no classified lop (no stage
	                              * makes one): number afresh */
};

static int
renumber_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct renumbering *g = ctx;
	struct charm *c = g->c;
	uint32_t q0, q1;
	if (g->round == 3) {
		par_share(c->n, w, nw, &q0, &q1);
		for (uint32_t l = q0; l < q1; l++)
			if (c->pid[l] != TRACE_NONE)
				c->pid[l] = g->map[c->pid[l]];
		return 0;
	}
	par_share(g->old_np, w, nw, &q0, &q1);
	uint32_t k = g->first[w];
	for (uint32_t q = q0; q < q1; q++) {
		if (g->round == 0) {
			g->r[q] = uf_find_shared(c->u.parent, g->old_root[q]);
			k += g->r[q] == g->old_root[q];
			if (c->cls[g->r[q]] == CLS_NONE)
				__atomic_store_n(&g->loose, 1, __ATOMIC_RELAXED);
		} else if (g->round == 1) {
			if (g->r[q] == g->old_root[q]) {
				c->root[k] = g->r[q];
				g->map[q] = k++;
			}
		} else {
			if (g->r[q] != g->old_root[q])
				g->map[q] = g->map[c->pid[g->r[q]]];   /* a kept root's old id */
			if (g->old_prt[q])
				__atomic_store_n(&c->prt[g->map[q]], 1, __ATOMIC_RELAXED);
		}
	}
	if (g->round == 0)
		g->first[w] = k;
	return 0;
}

/* 0, ERR_NOMEM, or 1 when the parts must be numbered afresh. */
static int
renumber_parts(struct charm *c, const uint32_t *old_root, const uint8_t *old_prt, uint32_t old_np)
{
	struct renumbering g = { .c = c, .old_root = old_root, .old_prt = old_prt, .old_np = old_np,
				 .r = malloc(((size_t)old_np + 1) * sizeof *g.r),
				 .map = malloc(((size_t)old_np + 1) * sizeof *g.map) };
	c->root = malloc(((size_t)old_np + 1) * sizeof *c->root);
	c->prt = calloc((size_t)old_np + 1, sizeof *c->prt);
	int rc = g.r && g.map && c->root && c->prt ? 0 : ERR_NOMEM;
	uint32_t nw = par_workers(), k = 0;
	if (!rc)
		par_run(nw, renumber_worker, &g);
	if (!rc && g.loose)
		rc = 1;
	for (uint32_t w = 0; w < nw && !rc; w++) {
		uint32_t n = g.first[w];
		g.first[w] = k;
		k += n;
	}
	for (g.round = 1; g.round <= 3 && !rc; g.round++)
		par_run(nw, renumber_worker, &g);
	if (!rc)
		c->np = k;
	free(g.r);
	free(g.map);
	return rc;
}

static int
number(struct charm *c)
{
	uint32_t *old_root = c->root, old_np = c->np;
	uint8_t *old_prt = c->prt;
	c->root = NULL;
	c->prt = NULL;
	free_graph(c);
	c->np = 0;
	int rc = old_root && old_prt ? renumber_parts(c, old_root, old_prt, old_np) : 1;
	if (rc == 1) {
		free(c->root);
		free(c->prt);
		c->root = NULL;
		c->prt = NULL;
		_Static_assert(CLS_NONE == 0, "cls is 0 for unclassified lops");
		uint32_t np;
		rc = uf_number(c->u.parent, c->n, c->cls, c->pid, &np, &c->root);
		if (!rc && !(c->prt = calloc((size_t)np + 1, sizeof *c->prt)))
			rc = ERR_NOMEM;
		if (!rc) {
			c->np = np;
			rc = par_run(par_workers(), runtime_worker, c);
		}
	}
	free(old_root);
	free(old_prt);
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
		/* fixed equal shares, not pieces: round 1 writes where round 0's
		 * counts of the same share said */
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
	/* workers' arrays, 8 bytes a partition each, kept below about what
	 * the edges (12 bytes each) and the union-find (4 a lop) take: the
	 * first builds have partitions by the million */
	uint32_t np = c->np, nw = par_workers();
	uint64_t cap = 1 + ((uint64_t)c->n_e * 12 + (uint64_t)c->n * 4) / 8 / (np ? np : 1);
	if (nw > cap)
		nw = (uint32_t)cap;
	struct succ_build *g = calloc(1, sizeof *g);
	c->first = calloc((size_t)np + 2, sizeof *c->first);
	int rc = c->n_e >= UINT32_MAX ? ERR_LIMIT : ERR_NOMEM;
	if (!g || !c->first || rc == ERR_LIMIT)
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
	par_starts(g->cnt, nw, np, g->by_src);
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

/* The leaps from the DAG's depths; ERR_FORMAT when the graph has a
 * cycle. */
static int
depths(struct charm *c)
{
	free(c->leap);
	free(c->order);
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

/* With cycles, the depths come first: where they find no cycle (the
 * usual case, and always the last round) Tarjan would only have
 * confirmed it, at four times their cost. */
int
charm_graph_build(struct charm *c, int cycles)
{
	for (;;) {
		int rc = number(c);
		if (rc || (rc = successors(c)))
			return rc;
		rc = depths(c);
		if (rc != ERR_FORMAT || !cycles)
			return rc;
		int64_t merged = merge_cycles(c);
		if (merged < 0)
			return (int)merged;
		if (merged == 0)
			return ERR_FORMAT;    /* a cycle the components do not show: a bug */
	}
}

void
charm_tl_cuts(const struct charm *c, uint32_t nw, uint32_t *cut)
{
	cut[0] = 0;
	cut[nw] = c->n;
	for (uint32_t w = 1; w < nw; w++) {
		uint32_t l, l1;
		par_share(c->n, w, nw, &l, &l1);
		l = l > cut[w - 1] ? l : cut[w - 1];
		while (l > 0 && l < c->n && c->a->lop_tl[l] == c->a->lop_tl[l - 1])
			l++;
		cut[w] = l;
	}
}

/* Each partition's chares in order with the first lop of each, on every
 * core: lops are numbered timeline by timeline, so a partition meets its
 * timelines in increasing order (a new one differs from the last), and
 * shares of the lops cut at timeline starts never see one (partition,
 * timeline) twice. Round 0 counts each share's pairs per partition,
 * round 1 writes them where par_starts puts them (share order: timeline
 * order). Each worker holds two words a partition, so the workers are
 * as many as fit in what the union-find holds. */
struct chares_job {
	struct charm *c;
	uint32_t cut[PAR_MAX + 1];
	uint32_t *cnt[PAR_MAX], *last[PAR_MAX];
	int round;
};

static int
chares_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct chares_job *g = ctx;
	struct charm *c = g->c;
	(void)nw;
	uint32_t *cnt = g->cnt[w], *last = g->last[w];
	const uint32_t *pid = c->pid, *lop_tl = c->a->lop_tl;
	memset(last, 0xff, ((size_t)c->np + 1) * sizeof *last);
	for (uint32_t l = g->cut[w]; l < g->cut[w + 1]; l++) {
		uint32_t p = pid[l];
		if (p == TRACE_NONE)
			continue;
		uint32_t tl = lop_tl[l];
		if (last[p] == tl)
			continue;
		last[p] = tl;
		if (g->round) {
			c->ch_lop[cnt[p]] = l;
			c->chares[cnt[p]++] = tl;
		} else {
			cnt[p]++;
		}
	}
	return 0;
}

int
charm_graph_chares(struct charm *c)
{
	uint32_t np = c->np;
	free(c->ch_first);
	free(c->chares);
	free(c->ch_lop);
	c->chares = c->ch_lop = NULL;
	c->ch_first = malloc(((size_t)np + 1) * sizeof *c->ch_first);
	struct chares_job *g = calloc(1, sizeof *g);
	int rc = c->ch_first && g ? 0 : ERR_NOMEM;
	uint32_t nw = par_workers();
	/* each worker's two words a partition within the union-find's */
	while (nw > 1 && (size_t)nw * 2 * np > 2 * (size_t)c->n)
		nw--;
	for (uint32_t w = 0; !rc && w < nw; w++) {
		g->cnt[w] = calloc((size_t)np + 1, sizeof *g->cnt[w]);
		g->last[w] = malloc(((size_t)np + 1) * sizeof *g->last[w]);
		if (!g->cnt[w] || !g->last[w])
			rc = ERR_NOMEM;
	}
	if (!rc) {
		g->c = c;
		charm_tl_cuts(c, nw, g->cut);
		par_run(nw, chares_worker, g);
		uint32_t total = par_starts(g->cnt, nw, np, c->ch_first);
		c->chares = malloc(((size_t)total + 1) * sizeof *c->chares);
		c->ch_lop = malloc(((size_t)total + 1) * sizeof *c->ch_lop);
		if (!c->chares || !c->ch_lop) {
			rc = ERR_NOMEM;
		} else {
			g->round = 1;
			par_run(nw, chares_worker, g);
		}
	}
	for (uint32_t w = 0; g && w < nw; w++) {
		free(g->cnt[w]);
		free(g->last[w]);
	}
	free(g);
	return rc;
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
