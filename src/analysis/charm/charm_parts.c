/* charm_parts.c — from the phases of the Charm++ stages to the partition
 * arrays every later stage (steps, verifier, metrics, views, reports)
 * reads.
 *
 * The paper partitions events only. skein's lops also include executions
 * (or pieces of them) without events — SDAG serials that compute, the
 * runtime's bookkeeping, constructors whose creation was not traced —
 * which need a phase and a step to be drawn and measured. Each joins the
 * phase of the nearest event before it in its serial block, else the
 * nearest after it there; a block without any event joins the phase of
 * the lop before it on its timeline. Blocks without events that come
 * before a timeline's first event (constructors, mostly), and timelines
 * without a single event, form one phase of their own that precedes
 * every phase on those timelines. (doc/charm.md: "Operations
 * without events".)
 */
#include "charm_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"

/* lop -> partition for every lop, a share of whole timelines each (what
 * a lop takes comes from its block or timeline): part, and whether a lop
 * went to the leading phase in init[w]. */
struct attaching {
	const struct charm *c;
	uint32_t *part;
	uint32_t cut[PAR_MAX + 1];
	int init[PAR_MAX];
};

static int
attach_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct attaching *g = ctx;
	const struct charm *c = g->c;
	const struct analysis *a = c->a;
	uint32_t *part = g->part, l0 = g->cut[w], l1 = g->cut[w + 1];
	(void)nw;
	for (uint32_t l = l0; l < l1; l++)
		part[l] = c->pid[l];
	/* within blocks: forward from the last event, then backward */
	for (uint32_t l = l0 + 1; l < l1; l++)
		if (part[l] == TRACE_NONE && c->block[l] == c->block[l - 1] && part[l - 1] != TRACE_NONE)
			part[l] = part[l - 1];
	for (uint32_t l = l1; l-- > l0 + 1;)
		if (part[l - 1] == TRACE_NONE && c->block[l] == c->block[l - 1] && part[l] != TRACE_NONE)
			part[l - 1] = part[l];
	/* blocks without events: after the lop before them, or the leading
	 * phase when nothing with events came before on the timeline */
	for (uint32_t l = l0; l < l1; l++) {
		if (part[l] != TRACE_NONE)
			continue;
		if (l > a->tl_lop[a->lop_tl[l]] && part[l - 1] != c->np) {
			part[l] = part[l - 1];
			continue;
		}
		part[l] = c->np;
		g->init[w] = 1;
	}
	return 0;
}

/* Returns the partition count. The leading phase, if any, is partition
 * c->np (*init set to 1). */
static uint32_t
attach(struct charm *c, uint32_t *part, int *init)
{
	struct attaching g = { .c = c, .part = part };
	uint32_t nw = par_workers();
	charm_tl_cuts(c, nw, g.cut);
	par_run(nw, attach_worker, &g);
	*init = 0;
	for (uint32_t w = 0; w < nw; w++)
		*init |= g.init[w];
	return c->np + (uint32_t)*init;
}

/* Each partition's counts and leap, a piece of the partitions at a time
 * on every core (its lops read at random). */
struct describing {
	const struct charm *c;
	const uint32_t *depth;
	struct par_pieces pieces;
};

static int
describe_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct describing *g = ctx;
	const struct charm *c = g->c;
	struct analysis *a = c->a;
	uint32_t k;
	(void)nw;
	while (par_take(&g->pieces, w, &k)) {
		uint32_t p0, p1;
		par_share(a->n_parts, k, g->pieces.n, &p0, &p1);
		for (uint32_t p = p0; p < p1; p++) {
			struct analysis_part *P = &a->parts[p];
			P->phase = P->phase_region = TRACE_NONE;
			P->leap = g->depth[p];
			P->runtime = p < c->np ? c->prt[p] : 0;
			uint32_t last_tl = TRACE_NONE;
			for (uint32_t i = a->part_lop_first[p]; i < a->part_lop_first[p + 1]; i++) {
				uint32_t l = a->part_lops[i];
				P->lop_count++;
				P->comm_count += c->cls[l] != CLS_NONE;
				if (a->lop_tl[l] != last_tl) {
					P->ranks++;
					last_tl = a->lop_tl[l];
				}
			}
		}
	}
	return 0;
}

int
charm_parts_finalize(struct charm *c)
{
	struct analysis *a = c->a;
	uint32_t n = a->n_lops;
	free(a->lop_part);
	a->lop_part = malloc((n + 1) * sizeof *a->lop_part);
	if (!a->lop_part)
		return ERR_NOMEM;
	int init;
	uint32_t np = attach(c, a->lop_part, &init);
	a->n_parts = np;
	free(a->parts);
	free(a->part_lop_first);
	free(a->part_lops);
	free(a->dag_first);
	free(a->dag_succ);
	free(a->part_order);
	/* the leading phase precedes every phase on its timelines (it is a
	 * prefix of each): at most one edge per phase */
	uint32_t n_edges = c->first[c->np] + (init ? np : 0);
	a->parts = calloc((size_t)np + 1, sizeof *a->parts);
	a->part_lop_first = calloc((size_t)np + 2, sizeof *a->part_lop_first);
	a->part_lops = malloc((n + 1) * sizeof *a->part_lops);
	a->dag_first = calloc((size_t)np + 2, sizeof *a->dag_first);
	a->dag_succ = malloc(((size_t)n_edges + 1) * sizeof *a->dag_succ);
	a->part_order = malloc(((size_t)np + 1) * sizeof *a->part_order);
	uint32_t *depth = malloc(((size_t)np + 1) * sizeof *depth);
	uint32_t *indeg = malloc(((size_t)np + 1) * sizeof *indeg);
	uint32_t *stamp = malloc(((size_t)np + 1) * sizeof *stamp);
	int rc = ERR_NOMEM;
	if (!a->parts || !a->part_lop_first || !a->part_lops || !a->dag_first || !a->dag_succ ||
	    !a->part_order || !depth || !indeg || !stamp)
		goto out;
	/* lops grouped by partition, in lop (timeline, then time) order */
	if ((rc = partition_lists(a, 0)))
		goto out;
	/* the DAG: the stages' edges, then the leading phase's */
	memcpy(a->dag_first, c->first, ((size_t)c->np + 1) * sizeof *a->dag_first);
	memcpy(a->dag_succ, c->succ, (size_t)c->first[c->np] * sizeof *a->dag_succ);
	uint32_t m = c->first[c->np];
	if (init) {
		memset(stamp, 0xff, ((size_t)np + 1) * sizeof *stamp);
		for (uint32_t tl = 0; tl < c->n_tl; tl++) {
			if (a->tl_lop[tl] == a->tl_lop[tl + 1] || a->lop_part[a->tl_lop[tl]] != c->np)
				continue;
			for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
				uint32_t q = a->lop_part[l];
				if (q != c->np && stamp[q] != c->np) {
					stamp[q] = c->np;
					a->dag_succ[m++] = q;
				}
			}
		}
		a->dag_first[np] = m;
	}
	if ((rc = dag_depths(np, a->dag_first, a->dag_succ, depth, a->part_order, indeg)))
		goto out;
	struct describing g = { .c = c, .depth = depth };
	uint32_t nw = par_workers();
	par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
	rc = par_run(nw, describe_worker, &g);
out:
	free(depth);
	free(indeg);
	free(stamp);
	return rc;
}
