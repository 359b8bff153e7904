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
#include <string.h>

static int
permute_u32(uint32_t **arr, const uint32_t *old, uint32_t n)
{
	if (!*arr)
		return 0;
	uint32_t *x = malloc(((size_t)n + 1) * sizeof *x);
	if (!x)
		return ERR_NOMEM;
	for (uint32_t l = 0; l < n; l++)
		x[l] = (*arr)[old[l]];
	free(*arr);
	*arr = x;
	return 0;
}

int
lops_permute(struct analysis *a, const uint32_t *old)
{
	uint32_t n = a->n_lops;
	int single = !a->op_last_of_lop && (a->op_of_lop || a->lop_op[n] == n);
	uint32_t *newid = malloc(((size_t)n + 1) * sizeof *newid);
	uint32_t *first = malloc(((size_t)n + 1) * sizeof *first);
	uint32_t *last = single ? NULL : malloc(((size_t)n + 1) * sizeof *last);
	uint8_t *kind = malloc((size_t)n + 1);
	if (!newid || !first || (!single && !last) || !kind) {
		free(newid);
		free(first);
		free(last);
		free(kind);
		return ERR_NOMEM;
	}
	for (uint32_t l = 0; l < n; l++) {
		uint32_t o = old[l];
		newid[o] = l;
		first[l] = lop_first_op(a, o);
		if (last)
			last[l] = lop_last_op(a, o);
		kind[l] = a->lop_kind[o];
	}
	int rc = permute_u32(&a->lop_part, old, n);
	if (!rc)
		rc = permute_u32(&a->lop_step, old, n);
	if (!rc)
		rc = permute_u32(&a->lop_phase, old, n);
	if (!rc)
		rc = permute_u32(&a->lop_phase_region, old, n);
	if (rc) {
		free(newid);
		free(first);
		free(last);
		free(kind);
		return rc;
	}
	for (uint32_t op = 0; op < a->n_ops; op++)
		a->op_lop[op] = newid[a->op_lop[op]];
	free(a->op_of_lop);
	free(a->op_last_of_lop);
	free(a->lop_kind);
	a->op_of_lop = first;
	a->op_last_of_lop = last;
	a->lop_kind = kind;
	/* partitions' lop lists, again in lop order */
	free(newid);
	if (a->lop_part && a->part_lops) {
		uint32_t *fill = malloc(((size_t)a->n_parts + 1) * sizeof *fill);
		if (!fill)
			return ERR_NOMEM;
		memcpy(fill, a->part_lop_first, (size_t)a->n_parts * sizeof *fill);
		for (uint32_t l = 0; l < n; l++)
			a->part_lops[fill[a->lop_part[l]]++] = l;
		free(fill);
	}
	return 0;
}
