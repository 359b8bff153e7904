/* dist_slice.c — a rank's share of a whole analysis (dist_slice.h). */
#include "dist_slice.h"

#include <stdlib.h>
#include <string.h>

#include "model/trace_impl.h"

void
dist_slice_free(struct analysis *la)
{
	if (!la)
		return;
	free(la->lop_op);
	free(la->op_lop);
	free(la->tl_lop);
	free(la->lop_tl);
	free(la->lop_kind);
	free(la->lop_part);
	free(la->lop_step);
	free(la->parts);
	free(la->dag_first);
	free(la->dag_succ);
	free(la->part_order);
	free(la->iter_starts);
	free(la->iter_runs);
	free(la);
}

int
dist_slice_analysis(const struct analysis *full, const struct dmodel *d, struct analysis **out,
		    uint32_t *lop_off)
{
	*out = NULL;
	if (full->op_of_lop || full->charm)
		return ERR_USAGE;
	const struct trace *t = d->t;
	uint32_t n_tl = (uint32_t)t->n_timelines;
	uint32_t l0 = d->tl_lo < n_tl ? full->tl_lop[d->tl_lo] : full->n_lops;
	uint32_t l1 = d->tl_hi < n_tl ? full->tl_lop[d->tl_hi] : full->n_lops;
	uint32_t n = l1 - l0, op0 = 2 * d->oprec.off, n_ops = 2 * d->oprec.n;
	struct analysis *la = calloc(1, sizeof *la);
	if (!la)
		return ERR_NOMEM;
	la->t = t;
	la->ops = trace_ops(t, &la->n_ops);
	la->msgs = t->msgs;
	la->ends = trace_ends(t, &la->n_ends);
	la->opts = full->opts;
	la->n_lops = n;
	la->dm = d;
	la->lops_all = full->n_lops;
	la->lop_off = l0;
	/* the partitions, every rank's */
	uint32_t np = full->n_parts, ne = full->dag_first ? full->dag_first[np] : 0;
	la->n_parts = np;
	la->n_steps = full->n_steps;
	la->parts = malloc(((size_t)np + 1) * sizeof *la->parts);
	la->dag_first = malloc(((size_t)np + 2) * sizeof *la->dag_first);
	la->dag_succ = malloc(((size_t)ne + 1) * sizeof *la->dag_succ);
	la->part_order = malloc(((size_t)np + 1) * sizeof *la->part_order);
	if (!la->parts || !la->dag_first || !la->dag_succ || !la->part_order) {
		dist_slice_free(la);
		return ERR_NOMEM;
	}
	memcpy(la->parts, full->parts, (size_t)np * sizeof *la->parts);
	if (full->dag_first) {
		memcpy(la->dag_first, full->dag_first, ((size_t)np + 1) * sizeof *la->dag_first);
		memcpy(la->dag_succ, full->dag_succ, (size_t)ne * sizeof *la->dag_succ);
	}
	if (full->part_order)
		memcpy(la->part_order, full->part_order, (size_t)np * sizeof *la->part_order);
	la->lop_op = malloc(((size_t)n + 1) * sizeof *la->lop_op);
	la->op_lop = malloc(((size_t)n_ops + 1) * sizeof *la->op_lop);
	la->tl_lop = malloc(((size_t)n_tl + 1) * sizeof *la->tl_lop);
	la->lop_tl = malloc(((size_t)n + 1) * sizeof *la->lop_tl);
	la->lop_kind = malloc((size_t)n + 1);
	la->lop_part = malloc(((size_t)n + 1) * sizeof *la->lop_part);
	la->lop_step = malloc(((size_t)n + 1) * sizeof *la->lop_step);
	if (!la->lop_op || !la->op_lop || !la->tl_lop || !la->lop_tl || !la->lop_kind ||
	    !la->lop_part || !la->lop_step) {
		dist_slice_free(la);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i <= n; i++)
		la->lop_op[i] = full->lop_op[l0 + i] - op0;
	for (uint32_t j = 0; j < n_ops; j++)
		la->op_lop[j] = op_lop_of(full, op0 + j) - l0;
	for (uint32_t tl = 0; tl <= n_tl; tl++)
		la->tl_lop[tl] = tl <= d->tl_lo ? 0 : tl >= d->tl_hi ? n : full->tl_lop[tl] - l0;
	memcpy(la->lop_tl, full->lop_tl + l0, (size_t)n * sizeof *la->lop_tl);
	memcpy(la->lop_kind, full->lop_kind + l0, n);
	memcpy(la->lop_part, full->lop_part + l0, (size_t)n * sizeof *la->lop_part);
	memcpy(la->lop_step, full->lop_step + l0, (size_t)n * sizeof *la->lop_step);
	*out = la;
	*lop_off = l0;
	return 0;
}
