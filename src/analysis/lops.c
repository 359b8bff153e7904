/* lops.c — logical operations, with optional Isend coalescing.
 *
 * Section 3.3: an uninterrupted run of neighbouring MPI_Isend calls on a
 * timeline becomes one operation from the first call's enter to the last
 * call's exit, carrying all their messages. "Uninterrupted" means no other
 * communication operation in between; calls without records (MPI_Irecv
 * posting, MPI_Comm_rank) and computation do not interrupt, and the
 * computation between the Isends is absorbed into the coalesced lop.
 */
#include "analysis_impl.h"

#include <stdlib.h>
#include <string.h>

static int
is_isend_name(const char *name)
{
	return strcmp(name, "MPI_Isend") == 0 || strcmp(name, "MPI_Issend") == 0 ||
	       strcmp(name, "MPI_Ibsend") == 0 || strcmp(name, "MPI_Irsend") == 0;
}

int
lops_build(struct analysis *a)
{
	const struct trace *t = a->t;
	uint32_t n_ops, n_tl, n_regions;
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	const struct trace_region *regions = trace_regions(t, &n_regions);
	uint8_t *isend = calloc(n_regions + 1, 1);
	a->op_lop = malloc((n_ops + 1) * sizeof *a->op_lop);
	a->lop_op = malloc((n_ops + 1) * sizeof *a->lop_op);
	a->lop_tl = malloc((n_ops + 1) * sizeof *a->lop_tl);
	a->lop_kind = malloc(n_ops + 1);
	a->tl_lop = malloc((n_tl + 1) * sizeof *a->tl_lop);
	if (!isend || !a->op_lop || !a->lop_op || !a->lop_tl || !a->lop_kind || !a->tl_lop) {
		free(isend);
		return ERR_NOMEM;
	}
	for (uint32_t r = 0; r < n_regions; r++)
		isend[r] = (uint8_t)is_isend_name(trace_str(t, regions[r].name));

	uint32_t n = 0;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		a->tl_lop[tl] = n;
		uint32_t first = tls[tl].op_first, end = first + tls[tl].op_count;
		uint32_t open = TRACE_NONE;     /* the coalesced Isend lop being grown */
		for (uint32_t i = first; i < end; i++) {
			const struct trace_op o = trace_op_get(&ops, i);
			int coalescible = a->opts.coalesce_isends && o.kind == OP_SEND &&
				o.region != TRACE_NONE && isend[o.region];
			if (o.kind == OP_COMPUTE && open != TRACE_NONE && i + 1 < end) {
				const struct trace_op next = trace_op_get(&ops, i + 1);
				if (next.kind == OP_SEND && next.region != TRACE_NONE && isend[next.region]) {
					a->op_lop[i] = open;
					continue;
				}
			}
			if (coalescible && open != TRACE_NONE) {
				a->op_lop[i] = open;
				a->stats.coalesced_isends++;
				continue;
			}
			open = coalescible ? n : TRACE_NONE;
			a->op_lop[i] = n;
			a->lop_op[n] = i;
			a->lop_tl[n] = tl;
			a->lop_kind[n] = o.kind;
			n++;
		}
	}
	a->tl_lop[n_tl] = n;
	a->lop_op[n] = n_ops;
	a->n_lops = n;
	free(isend);
	return 0;
}
