/* graph.c — the graph algorithms the structure stages of every paradigm
 * share: a union-find over lops, strongly connected components (Tarjan,
 * iterative) and the longest-path depths of a DAG with its Kahn order.
 */
#include "analysis_impl.h"

#include "base/par.h"
#include "base/recycle.h"

#include <stdlib.h>
#include <string.h>

static int
singletons_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct uf *u = ctx;
	uint32_t i0, i1;
	par_share(u->n, w, nw, &i0, &i1);
	for (uint32_t i = i0; i < i1; i++)
		u->parent[i] = i;
	return 0;
}

/* Every element its own set, a share each (a fresh array's pages are
 * first touched here) */
int
uf_init(struct uf *u, uint32_t n)
{
	u->n = n;
	u->parent = recycle_malloc(((size_t)n + 1) * sizeof *u->parent);
	if (!u->parent)
		return ERR_NOMEM;
	return par_run(n >= 1u << 16 ? par_workers() : 1, singletons_worker, u);
}

void
uf_fini(struct uf *u)
{
	recycle_free(u->parent, ((size_t)u->n + 1) * sizeof *u->parent);
	u->parent = NULL;
}

uint32_t
uf_find(struct uf *u, uint32_t x)
{
	uint32_t r = x;
	while (u->parent[r] != r)
		r = u->parent[r];
	while (u->parent[x] != r) {      /* path compression */
		uint32_t next = u->parent[x];
		u->parent[x] = r;
		x = next;
	}
	return r;
}

int
uf_union(struct uf *u, uint32_t x, uint32_t y)
{
	x = uf_find(u, x);
	y = uf_find(u, y);
	if (x == y)
		return 0;
	/* the smaller id becomes the root, so results do not depend on the
	 * order of unions */
	if (x < y)
		u->parent[y] = x;
	else
		u->parent[x] = y;
	return 1;
}

/* The same union-find shared by the workers of a stage: finds halve the
 * path they walk, and a root is linked by compare-and-swap, the smaller
 * id the root as in uf_union. Every link points to a smaller id, so a
 * set's root is its smallest member whatever the order of the unions,
 * and a union that links counts one set less exactly once. A halving is
 * a compare-and-swap from the parent the walk read: a node another
 * worker has meanwhile pointed higher (uf_number points every member at
 * its root) keeps that parent, where a plain store could put back the
 * ancestor read before. Parents only ever move up the tree, so the swap
 * cannot mistake an old value for a new one. */
uint32_t
uf_find_shared(uint32_t *parent, uint32_t x)
{
	for (;;) {
		uint32_t p = __atomic_load_n(&parent[x], __ATOMIC_ACQUIRE);
		if (p == x)
			return x;
		uint32_t g = __atomic_load_n(&parent[p], __ATOMIC_ACQUIRE);
		if (g != p)     /* an ancestor still: only roots are ever linked */
			__atomic_compare_exchange_n(&parent[x], &p, g, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
		x = g;
	}
}

int
uf_unite_shared(uint32_t *parent, uint32_t x, uint32_t y)
{
	for (;;) {
		x = uf_find_shared(parent, x);
		y = uf_find_shared(parent, y);
		if (x == y)
			return 0;
		if (x > y) {
			uint32_t z = x;
			x = y;
			y = z;
		}
		uint32_t root = y;
		if (__atomic_compare_exchange_n(&parent[y], &root, x, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return 1;
	}
}

/* Dense ids of the sets, on every core. Pass 0: each member of a share
 * points straight at its root (uf_find_shared), and the share's
 * roots are counted; pass 1: the roots are numbered from the roots of the
 * shares before; pass 2: every other member takes its root's id. A
 * set's root is its smallest lop (both unions make the smaller root the
 * root), so where roots are members, ids follow the first members. */
struct uf_numbering {
	uint32_t *parent, *id, *roots;
	const uint8_t *member;
	uint32_t n;
	uint32_t first[PAR_MAX];     /* pass 0: roots in the share; then the first id */
	int pass, loose;
};

static int
uf_number_worker(void *ctx, uint32_t w, uint32_t nw)
{
	/* the fields in locals: the atomics below would have them read
	 * again every lop, and a count in g written every lop, next to the
	 * other workers' */
	struct uf_numbering *g = ctx;
	uint32_t l0, l1, *parent = g->parent, *id = g->id, *roots = g->roots;
	const uint8_t *member = g->member;
	const int pass = g->pass;
	uint32_t k = pass == 1 ? g->first[w] : 0;
	int loose = 0;
	par_share(g->n, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++) {
		if (!member[l]) {
			if (pass == 0)
				id[l] = TRACE_NONE;
			continue;
		}
		if (pass == 0) {
			uint32_t r = uf_find_shared(parent, l);
			/* most already point there (the numbering before left
			 * them so, and unions link roots): no line written */
			if (__atomic_load_n(&parent[l], __ATOMIC_RELAXED) != r)
				__atomic_store_n(&parent[l], r, __ATOMIC_RELEASE);
			k += r == l;
			loose |= !member[r];
		} else if (pass == 1 && parent[l] == l) {
			if (roots)
				roots[k] = l;
			id[l] = k++;
		} else if (pass == 2 && parent[l] != l) {
			id[l] = id[parent[l]];
		}
	}
	if (pass == 0) {
		g->first[w] = k;
		if (loose)
			__atomic_store_n(&g->loose, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

int
uf_number(uint32_t *parent, uint32_t n, const uint8_t *member, uint32_t *id, uint32_t *n_sets,
	  uint32_t **roots)
{
	uint32_t nw = par_workers();
	struct uf_numbering g = { .parent = parent, .id = id, .member = member, .n = n };
	if (roots)
		*roots = NULL;
	par_run(nw, uf_number_worker, &g);
	uint32_t k = 0;
	if (g.loose) {
		/* a set whose root is no member: ids at first members met, on
		 * one core (the members point at their roots now) */
		uint32_t *of_root = malloc(((size_t)n + 1) * sizeof *of_root);
		uint32_t *r = roots ? malloc(((size_t)n + 1) * sizeof *r) : NULL;
		if (!of_root || (roots && !r)) {
			free(of_root);
			free(r);
			return ERR_NOMEM;
		}
		memset(of_root, 0xff, ((size_t)n + 1) * sizeof *of_root);
		for (uint32_t l = 0; l < n; l++) {
			if (!member[l])
				continue;
			if (of_root[parent[l]] == TRACE_NONE) {
				if (r)
					r[k] = parent[l];
				of_root[parent[l]] = k++;
			}
			id[l] = of_root[parent[l]];
		}
		free(of_root);
		if (roots)
			*roots = r;
		*n_sets = k;
		return 0;
	}
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t c = g.first[w];
		g.first[w] = k;
		k += c;
	}
	if (roots && !(g.roots = *roots = malloc(((size_t)k + 1) * sizeof **roots)))
		return ERR_NOMEM;
	for (g.pass = 1; g.pass <= 2; g.pass++)
		par_run(nw, uf_number_worker, &g);
	*n_sets = k;
	return 0;
}

/* Iterative Tarjan over the partition graph (CSR first/succ, n nodes).
 * comp[v] receives the component id. Returns the number of components or
 * a negative error. Recursion would overflow on real traces. */
int64_t
tarjan(uint32_t n, const uint32_t *first, const uint32_t *succ, uint32_t *comp)
{
	uint32_t *index = malloc((n + 1) * sizeof *index);
	uint32_t *low = malloc((n + 1) * sizeof *low);
	uint32_t *stack = malloc((n + 1) * sizeof *stack);
	uint32_t *call = malloc((n + 1) * sizeof *call);     /* DFS call stack: node */
	uint32_t *edge = malloc((n + 1) * sizeof *edge);     /* next edge per node */
	uint8_t *on = calloc(n + 1, 1);
	int64_t ncomp = 0;
	if (!index || !low || !stack || !call || !edge || !on) {
		ncomp = ERR_NOMEM;
		goto out;
	}
	for (uint32_t v = 0; v < n; v++)
		index[v] = TRACE_NONE;
	uint32_t next_index = 0, sp = 0;
	for (uint32_t root = 0; root < n; root++) {
		if (index[root] != TRACE_NONE)
			continue;
		uint32_t depth = 0;
		call[depth++] = root;
		index[root] = low[root] = next_index++;
		edge[root] = first[root];
		stack[sp++] = root;
		on[root] = 1;
		while (depth) {
			uint32_t v = call[depth - 1];
			if (edge[v] < first[v + 1]) {
				uint32_t w = succ[edge[v]++];
				if (index[w] == TRACE_NONE) {
					index[w] = low[w] = next_index++;
					edge[w] = first[w];
					stack[sp++] = w;
					on[w] = 1;
					call[depth++] = w;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			if (low[v] == index[v]) {
				uint32_t w;
				do {
					w = stack[--sp];
					on[w] = 0;
					comp[w] = (uint32_t)ncomp;
				} while (w != v);
				ncomp++;
			}
			depth--;
			if (depth) {
				uint32_t parent = call[depth - 1];
				if (low[v] < low[parent])
					low[parent] = low[v];
			}
		}
	}
out:
	free(index);
	free(low);
	free(stack);
	free(call);
	free(edge);
	free(on);
	return ncomp;
}

int
dag_depths(uint32_t n, const uint32_t *first, const uint32_t *succ, uint32_t *depth,
	   uint32_t *order, uint32_t *indeg)
{
	memset(indeg, 0, (size_t)n * sizeof *indeg);
	for (uint32_t e = 0; e < first[n]; e++)
		indeg[succ[e]]++;
	uint32_t head = 0, tail = 0;
	for (uint32_t p = 0; p < n; p++) {
		depth[p] = 0;
		if (!indeg[p])
			order[tail++] = p;
	}
	while (head < tail) {
		uint32_t p = order[head++];
		for (uint32_t e = first[p]; e < first[p + 1]; e++) {
			uint32_t q = succ[e];
			if (depth[p] + 1 > depth[q])
				depth[q] = depth[p] + 1;
			if (--indeg[q] == 0)
				order[tail++] = q;
		}
	}
	return tail == n ? 0 : ERR_FORMAT;   /* a cycle left: a bug */
}
