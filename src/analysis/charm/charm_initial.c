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

/* Each lop's class, a worker per equal share of the lops (a class reads
 * the lop's messages, scattered over the trace). */
static int
class_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct charm *c = ctx;
	uint32_t from, to;
	par_share(c->n, w, nw, &from, &to);
	for (uint32_t l = from; l < to; l++)
		c->cls[l] = lop_class(c->a, l);
	return 0;
}

static int
blocks(struct charm *c)
{
	const struct analysis *a = c->a;
	uint32_t nb = 0;
	par_run(par_workers(), class_worker, c);
	for (uint32_t l = 0; l < c->n; l++) {
		const struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
		int first = l == a->tl_lop[a->lop_tl[l]];
		if (first || !(o.flags & OPF_BLOCK_CONT))
			nb++;
		c->block[l] = nb - 1;
	}
	c->n_blocks = nb;
	c->block_entry = malloc(((size_t)nb + 1) * sizeof *c->block_entry);
	if (!c->block_entry)
		return ERR_NOMEM;
	for (uint32_t l = 0; l < c->n; l++)
		if (l == 0 || c->block[l] != c->block[l - 1])
			c->block_entry[c->block[l]] = trace_op_get(&a->ops, lop_first_op(a, l)).region;
	return 0;
}

/* serial[l]: the SDAG region l's events count for (its own, or the
 * first serial after it in its block), or TRACE_NONE. */
static void
serials(struct charm *c, const struct trace_entry *en, uint32_t n_en)
{
	const struct analysis *a = c->a;
	uint32_t next = TRACE_NONE;
	for (uint32_t l = c->n; l-- > 0;) {
		if (l + 1 == c->n || c->block[l + 1] != c->block[l])
			next = TRACE_NONE;
		uint32_t r = trace_op_get(&a->ops, lop_first_op(a, l)).region;
		if (r != TRACE_NONE && r < n_en && en[r].sdag)
			next = r;
		c->serial[l] = next;
	}
}

/* Serial n+1 after serial n on each chare. */
static int
sdag_edges(struct charm *c, const struct trace_entry *en, uint32_t n_en)
{
	const struct analysis *a = c->a;
	uint32_t max_ep = 0;
	for (uint32_t r = 0; r < n_en; r++)
		if (en[r].ep > max_ep)
			max_ep = en[r].ep;
	uint32_t *region_of_ep = malloc(((size_t)max_ep + 2) * sizeof *region_of_ep);
	uint32_t *last = malloc(((size_t)n_en + 1) * sizeof *last);   /* per region: last event lop */
	uint32_t *stamp = malloc(((size_t)n_en + 1) * sizeof *stamp);  /* ... on this timeline */
	int rc = ERR_NOMEM;
	if (!region_of_ep || !last || !stamp)
		goto out;
	memset(region_of_ep, 0xff, ((size_t)max_ep + 2) * sizeof *region_of_ep);
	memset(stamp, 0xff, ((size_t)n_en + 1) * sizeof *stamp);
	for (uint32_t r = 0; r < n_en; r++)
		region_of_ep[en[r].ep] = r;
	rc = 0;
	for (uint32_t tl = 0; tl < c->n_tl && !rc; tl++)
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1] && !rc; l++) {
			uint32_t s = c->serial[l];
			if (c->cls[l] == CLS_NONE || s == TRACE_NONE)
				continue;
			uint32_t ep = en[s].ep;
			uint32_t p = ep ? region_of_ep[ep - 1] : TRACE_NONE;
			if (p != TRACE_NONE && en[p].sdag && en[p].sts_chare == en[s].sts_chare &&
			    stamp[p] == tl && c->block[last[p]] != c->block[l])
				rc = charm_edge_add(c, last[p], l, EDGE_SDAG);
			last[s] = l;
			stamp[s] = tl;
		}
out:
	free(region_of_ep);
	free(last);
	free(stamp);
	return rc;
}

int
charm_initial(struct charm *c)
{
	int rc = blocks(c);
	if (rc)
		return rc;
	/* runs of one class within a block: a partition each, linked */
	uint32_t prev = TRACE_NONE;
	for (uint32_t l = 0; l < c->n && !rc; l++) {
		if (l && c->block[l] != c->block[l - 1])
			prev = TRACE_NONE;
		if (c->cls[l] == CLS_NONE)
			continue;
		if (prev != TRACE_NONE) {
			if (c->cls[prev] == c->cls[l])
				uf_union(&c->u, prev, l);
			else
				rc = charm_edge_add(c, prev, l, EDGE_SPLIT);
		}
		prev = l;
	}
	uint32_t n_en;
	const struct trace_entry *en = trace_entries(c->t, &n_en);
	serials(c, en, n_en);
	if (!rc && c->a->opts.charm_sdag && n_en)
		rc = sdag_edges(c, en, n_en);
	if (!rc)
		rc = charm_graph_build(c, 0);
	if (!rc)
		c->a->stats.charm_initial = c->np;
	return rc;
}
