/* lops_permute.c — putting a timeline's lops in another order.
 *
 * Reordering (seed 004 §3.2.1) gives a timeline's lops a logical order
 * that may differ from their time order. Lop ids stay contiguous per
 * timeline and increase along it, so every stage after the reordering
 * walks the logical order as it walked time order before; the way back
 * to the trace's ops is op_of_lop (first op) and op_last_of_lop (last op;
 * NULL when every lop is one op, as in Charm++ traces).
 */
#include "analysis_impl.h"

#include <stdlib.h>

#include "base/par.h"

/* The per-lop arrays in the new order, on every core: a share of the
 * lops each, then of the ops (op_lop). */
struct permuting {
	struct analysis *a;
	const uint32_t *old;
	uint32_t *newid, *first, *last;
	uint8_t *kind;
	uint32_t *arr[4], *from[4];   /* lop_part, lop_step, lop_phase, lop_phase_region */
	int round;                    /* 0: the lops; 1: op_lop */
};

static int
permute_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct permuting *g = ctx;
	struct analysis *a = g->a;
	uint32_t i0, i1;
	if (g->round) {
		par_share(a->n_ops, w, nw, &i0, &i1);
		for (uint32_t op = i0; op < i1; op++)
			a->op_lop[op] = g->newid[a->op_lop[op]];
		return 0;
	}
	par_share(a->n_lops, w, nw, &i0, &i1);
	for (uint32_t l = i0; l < i1; l++) {
		uint32_t o = g->old[l];
		g->newid[o] = l;
		g->first[l] = lop_first_op(a, o);
		if (g->last)
			g->last[l] = lop_last_op(a, o);
		g->kind[l] = a->lop_kind[o];
		for (int k = 0; k < 4; k++)
			if (g->arr[k])
				g->arr[k][l] = g->from[k][o];
	}
	return 0;
}

int
lops_permute(struct analysis *a, const uint32_t *old)
{
	uint32_t n = a->n_lops;
	int single = !a->op_last_of_lop && (a->op_of_lop || a->lop_op[n] == n);
	uint32_t **arrs[4] = { &a->lop_part, &a->lop_step, &a->lop_phase, &a->lop_phase_region };
	struct permuting g = { .a = a, .old = old, .newid = malloc(((size_t)n + 1) * sizeof *g.newid),
			       .first = malloc(((size_t)n + 1) * sizeof *g.first),
			       .last = single ? NULL : malloc(((size_t)n + 1) * sizeof *g.last),
			       .kind = malloc((size_t)n + 1) };
	int rc = g.newid && g.first && (single || g.last) && g.kind ? 0 : ERR_NOMEM;
	for (int k = 0; k < 4 && !rc; k++) {
		g.from[k] = *arrs[k];
		if (g.from[k] && !(g.arr[k] = malloc(((size_t)n + 1) * sizeof *g.arr[k])))
			rc = ERR_NOMEM;
	}
	if (rc) {
		free(g.newid);
		free(g.first);
		free(g.last);
		free(g.kind);
		for (int k = 0; k < 4; k++)
			free(g.arr[k]);
		return rc;
	}
	uint32_t nw = par_workers();
	par_run(nw, permute_worker, &g);
	g.round = 1;
	par_run(nw, permute_worker, &g);
	for (int k = 0; k < 4; k++)
		if (g.from[k]) {
			free(*arrs[k]);
			*arrs[k] = g.arr[k];
		}
	free(a->op_of_lop);
	free(a->op_last_of_lop);
	free(a->lop_kind);
	a->op_of_lop = g.first;
	a->op_last_of_lop = g.last;
	a->lop_kind = g.kind;
	free(g.newid);
	/* partitions' lop lists, again in lop order */
	if (a->lop_part && a->part_lops)
		return partition_lists(a, 0);
	return 0;
}
