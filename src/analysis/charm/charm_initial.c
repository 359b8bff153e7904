/* charm_initial.c — initial partitions (seed 004, §3.1.1).
 *
 * A serial block is an entry-method execution with the SDAG continuations
 * that ran right after it on the same chare (the reader flags them
 * OPF_BLOCK_CONT). Its events — the sink that started it, the sends it
 * made — belong together, except that the block is split where its
 * dependencies change between application and runtime (Fig. 2): each
 * maximal run of events of one class is an initial partition, and
 * consecutive runs are linked by a happened-before edge.
 *
 * SDAG (§2.1): every `serial` is an entry method numbered in parse order;
 * an entry that runs right before a serial is absorbed into it. So the
 * events of a block count for the first serial of their block at or after
 * them, and on each chare an event of serial n+1 comes after the latest
 * event of serial n before it (an edge), when both serials are SDAG
 * entries of the same chare type.
 */
#include "charm_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/vec.h"

/* The class of lop l: the kind of dependency of its usable messages. */
static uint8_t
lop_class(const struct analysis *a, uint32_t l)
{
	uint32_t n;
	const struct trace_end *e = lop_ends(a, l, &n);
	uint8_t cls = CLS_NONE;
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].role == END_COLL || !msg_ok(a, e[i].id))
			continue;
		if (msg_runtime(a, e[i].id))
			return CLS_RT;
		cls = CLS_APP;
	}
	return cls;
}

/* The serial blocks and each lop's SDAG serial, a worker per equal
 * share of the lops, in three passes (each reads the op records once
 * between them): a lop's class, whether it starts a block, its region
 * (kept in serial[] meanwhile), and the blocks each share starts; then
 * the block ids from the shares' first ids, and what the share's last
 * block holds beyond it; then the serials, back to front. */
struct blocking {
	struct charm *c;
	const struct trace_entry *en;
	uint32_t n_en;
	uint32_t starts[PAR_MAX];     /* blocks a share starts, then its first id */
	uint32_t carry[PAR_MAX];      /* the first SDAG region after a share, in its last block */
	int pass;
};

static int
starts_block(const struct analysis *a, uint32_t l)
{
	return l == a->tl_lop[a->lop_tl[l]] ||
	       !(trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_BLOCK_CONT);
}

static int
sdag_region(const struct blocking *g, uint32_t r)
{
	return r != TRACE_NONE && r < g->n_en && g->en[r].sdag;
}

static int
blocking_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct blocking *g = ctx;
	struct charm *c = g->c;
	const struct analysis *a = c->a;
	uint32_t from, to;
	par_share(c->n, w, nw, &from, &to);
	if (g->pass == 0) {
		uint32_t nb = 0;
		for (uint32_t l = from; l < to; l++) {
			const struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
			c->cls[l] = lop_class(a, l);
			c->serial[l] = o.region;
			int start = l == a->tl_lop[a->lop_tl[l]] || !(o.flags & OPF_BLOCK_CONT);
			nb += (uint32_t)start;
			c->block[l] = start;          /* the ids in the next pass */
		}
		g->starts[w] = nb;
		return 0;
	}
	if (g->pass == 1) {
		uint32_t nb = g->starts[w];
		for (uint32_t l = from; l < to; l++) {
			if (c->block[l]) {
				c->block_entry[nb] = c->serial[l];
				nb++;
			}
			c->block[l] = nb - 1;
		}
		/* the share's last block, where it goes on past the share */
		g->carry[w] = TRACE_NONE;
		for (uint32_t k = to; k < c->n && !starts_block(a, k); k++)
			if (sdag_region(g, c->serial[k])) {
				g->carry[w] = c->serial[k];
				break;
			}
		return 0;
	}
	uint32_t next = g->carry[w];
	for (uint32_t l = to; l-- > from;) {
		if (l + 1 == c->n || c->block[l + 1] != c->block[l])
			next = TRACE_NONE;
		if (sdag_region(g, c->serial[l]))
			next = c->serial[l];
		c->serial[l] = next;
	}
	return 0;
}

/* block[l], block_entry and serial[l]: the serial block of lop l and the
 * region that started each block; the SDAG region l's events count for
 * (its own, or the first serial after it in its block), or TRACE_NONE. */
static int
blocks(struct charm *c, const struct trace_entry *en, uint32_t n_en)
{
	uint32_t nw = par_workers();
	struct blocking g = { .c = c, .en = en, .n_en = n_en };
	par_run(nw, blocking_worker, &g);
	uint32_t nb = 0;
	for (uint32_t w = 0; w < nw; w++) {
		uint32_t k = g.starts[w];
		g.starts[w] = nb;
		nb += k;
	}
	c->n_blocks = nb;
	c->block_entry = malloc(((size_t)nb + 1) * sizeof *c->block_entry);
	if (!c->block_entry)
		return ERR_NOMEM;
	g.pass = 1;
	par_run(nw, blocking_worker, &g);
	g.pass = 2;
	par_run(nw, blocking_worker, &g);
	return 0;
}

/* The partitions' links within the timelines, on every core: shares of
 * whole timelines (charm_tl_cuts; no block or chare crosses one). Each
 * run of one class within a block is united in the shared union-find
 * (its sets and their roots do not depend on the order of the unions),
 * consecutive runs are linked by an edge; with SDAG, on each chare an
 * event of serial n+1 is linked after the latest event of serial n
 * before it (last and stamp per region, a pair per worker). The edges
 * are listed per share and appended as one core would add them: the
 * runs' in lop order, then the serials'. */
struct linking {
	struct charm *c;
	const struct trace_entry *en;
	uint32_t n_en;
	int sdag;                      /* SDAG edges wanted */
	uint32_t cut[PAR_MAX + 1];
	struct charm_edge *e[2][PAR_MAX];   /* runs' edges, serials' edges */
	size_t n[2][PAR_MAX], cap[2][PAR_MAX];
	int rc[PAR_MAX];
};

static int
link_add(struct linking *g, int list, uint32_t w, uint32_t a, uint32_t b, enum charm_edge_kind kind)
{
	if (VEC_GROW(g->e[list][w], g->n[list][w], g->cap[list][w]))
		return g->rc[w] = ERR_NOMEM;
	g->e[list][w][g->n[list][w]++] = (struct charm_edge){ .a = a, .b = b, .kind = (uint8_t)kind };
	return 0;
}

static int
sdag_links(struct linking *g, uint32_t w)
{
	const struct charm *c = g->c;
	const struct analysis *a = c->a;
	const struct trace_entry *en = g->en;
	uint32_t *last = malloc(((size_t)g->n_en + 1) * sizeof *last);   /* per region: last event lop */
	uint32_t *stamp = malloc(((size_t)g->n_en + 1) * sizeof *stamp);  /* ... on this timeline */
	int rc = last && stamp ? 0 : (g->rc[w] = ERR_NOMEM);
	if (!rc)
		memset(stamp, 0xff, ((size_t)g->n_en + 1) * sizeof *stamp);
	for (uint32_t l = g->cut[w]; l < g->cut[w + 1] && !rc; l++) {
		uint32_t s = c->serial[l], tl = a->lop_tl[l];
		if (c->cls[l] == CLS_NONE || s == TRACE_NONE)
			continue;
		/* the serial numbered before s: the entries are in rising id
		 * order (the reader's; a saved model's are checked so), so
		 * entry ep - 1, when there is one, is s's neighbour */
		uint32_t p = s && en[s - 1].ep + 1 == en[s].ep ? s - 1 : TRACE_NONE;
		if (p != TRACE_NONE && en[p].sdag && en[p].sts_chare == en[s].sts_chare &&
		    stamp[p] == tl && c->block[last[p]] != c->block[l])
			rc = link_add(g, 1, w, last[p], l, EDGE_SDAG);
		last[s] = l;
		stamp[s] = tl;
	}
	free(last);
	free(stamp);
	return rc;
}

static int
link_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct linking *g = ctx;
	struct charm *c = g->c;
	uint32_t prev = TRACE_NONE;
	(void)nw;
	for (uint32_t l = g->cut[w]; l < g->cut[w + 1]; l++) {
		if (l > g->cut[w] && c->block[l] != c->block[l - 1])
			prev = TRACE_NONE;
		if (c->cls[l] == CLS_NONE)
			continue;
		if (prev != TRACE_NONE) {
			if (c->cls[prev] == c->cls[l])
				uf_unite_shared(c->u.parent, prev, l);
			else if (link_add(g, 0, w, prev, l, EDGE_SPLIT))
				return ERR_NOMEM;
		}
		prev = l;
	}
	return g->sdag ? sdag_links(g, w) : 0;
}

static int
links(struct charm *c, const struct trace_entry *en, uint32_t n_en)
{
	uint32_t nw = par_workers();
	struct linking *g = calloc(1, sizeof *g);
	if (!g)
		return ERR_NOMEM;
	*g = (struct linking){ .c = c, .en = en, .n_en = n_en, .sdag = c->a->opts.charm_sdag && n_en };
	int rc = 0;
	charm_tl_cuts(c, nw, g->cut);
	par_run(nw, link_worker, g);
	for (uint32_t w = 0; w < nw && !rc; w++)
		rc = g->rc[w];
	for (int list = 0; list < 2 && !rc; list++)
		for (uint32_t w = 0; w < nw && !rc; w++)
			for (size_t k = 0; k < g->n[list][w] && !rc; k++)
				rc = charm_edge_add(c, g->e[list][w][k].a, g->e[list][w][k].b, g->e[list][w][k].kind);
	for (int list = 0; list < 2; list++)
		for (uint32_t w = 0; w < PAR_MAX; w++)
			free(g->e[list][w]);
	free(g);
	return rc;
}

int
charm_initial(struct charm *c)
{
	uint32_t n_en;
	const struct trace_entry *en = trace_entries(c->t, &n_en);
	int rc = blocks(c, en, n_en);
	if (!rc)
		rc = links(c, en, n_en);
	if (!rc)
		rc = charm_graph_build(c, 0);
	if (!rc)
		c->a->stats.charm_initial = c->np;
	return rc;
}
