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

#include "base/par.h"

#include <stdlib.h>
#include <string.h>

static int
is_isend_name(const char *name)
{
	return strcmp(name, "MPI_Isend") == 0 || strcmp(name, "MPI_Issend") == 0 ||
	       strcmp(name, "MPI_Ibsend") == 0 || strcmp(name, "MPI_Irsend") == 0;
}

/* Lops are found on every core, each worker for a share of the
 * timelines. A timeline has no more lops than ops, so worker w numbers
 * its lops from the ops of the timelines before its share (base) and
 * they are moved down to their place afterwards. */
struct lopping {
	struct analysis *a;
	const uint8_t *isend;          /* per region: an MPI_Isend kind */
	uint32_t cut[PAR_MAX + 1];     /* timelines */
	uint32_t base[PAR_MAX];        /* where worker w's lops were numbered from */
	uint32_t count[PAR_MAX];       /* how many it found */
	uint32_t shift[PAR_MAX];       /* how far down they go */
	uint32_t coalesced[PAR_MAX];
	int fix;                       /* 0: find the lops; 1: move them */
	uint32_t fix_cut[PAR_MAX + 1]; /* timelines whose ids are fixed */
};

/* Worker w's lops moved down to follow the ones before, the shares in
 * order, in one of the arrays (which by k). */
static void
move_down(struct lopping *g, uint32_t nw, int k)
{
	struct analysis *a = g->a;
	for (uint32_t w = 1, n = g->count[0]; w < nw; n += g->count[w++]) {
		if (!g->shift[w] || !g->count[w])
			continue;
		if (k == 0)
			memmove(a->lop_op + n, a->lop_op + g->base[w], (size_t)g->count[w] * sizeof *a->lop_op);
		else if (k == 1)
			memmove(a->lop_tl + n, a->lop_tl + g->base[w], (size_t)g->count[w] * sizeof *a->lop_tl);
		else
			memmove(a->lop_kind + n, a->lop_kind + g->base[w], g->count[w]);
	}
}

/* The move, on every core: each array moved by one worker, and the ids
 * of the moved lops in op_lop and tl_lop fixed, each worker for a share
 * of the timelines whose lops moved. */
static void
fix_worker(struct lopping *g, uint32_t w, uint32_t nw)
{
	struct analysis *a = g->a;
	const struct trace_timeline *tls = trace_timelines(a->t, NULL);
	for (int k = 0; k < 3; k++)
		if ((uint32_t)k % nw == w)
			move_down(g, nw, k);
	uint32_t share = 1;
	for (uint32_t tl = g->fix_cut[w]; tl < g->fix_cut[w + 1]; tl++) {
		while (tl >= g->cut[share + 1])
			share++;
		uint32_t d = g->shift[share];
		if (!d)
			continue;
		a->tl_lop[tl] -= d;
		for (uint32_t i = tls[tl].op_first; i < tls[tl].op_first + tls[tl].op_count; i++)
			a->op_lop[i] -= d;
	}
}

static int
lop_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct lopping *g = ctx;
	struct analysis *a = g->a;
	const struct trace_timeline *tls = trace_timelines(a->t, NULL);
	struct trace_opv ops = a->ops;
	if (g->fix) {
		fix_worker(g, w, nw);
		return 0;
	}
	uint32_t n = g->base[w];
	for (uint32_t tl = g->cut[w]; tl < g->cut[w + 1]; tl++) {
		a->tl_lop[tl] = n;
		uint32_t first = tls[tl].op_first, end = first + tls[tl].op_count;
		uint32_t open = TRACE_NONE;     /* the coalesced Isend lop being grown */
		for (uint32_t i = first; i < end; i++) {
			const struct trace_op o = trace_op_get(&ops, i);
			int coalescible = a->opts.coalesce_isends && o.kind == OP_SEND &&
				o.region != TRACE_NONE && g->isend[o.region];
			if (o.kind == OP_COMPUTE && open != TRACE_NONE && i + 1 < end) {
				const struct trace_op next = trace_op_get(&ops, i + 1);
				if (next.kind == OP_SEND && next.region != TRACE_NONE && g->isend[next.region]) {
					a->op_lop[i] = open;
					continue;
				}
			}
			if (coalescible && open != TRACE_NONE) {
				a->op_lop[i] = open;
				g->coalesced[w]++;
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
	g->count[w] = n - g->base[w];
	return 0;
}

/* *p to its first size bytes (kept as it is if that fails) */
static void
shrink(void **p, size_t size)
{
	void *q = realloc(*p, size);
	if (q)
		*p = q;
}

static uint64_t
tl_ops(const void *ctx, uint32_t tl)
{
	const struct trace_timeline *tls = ctx;
	return (uint64_t)tls[tl].op_count + 1;
}

int
lops_build(struct analysis *a)
{
	const struct trace *t = a->t;
	uint32_t n_ops, n_tl, n_regions;
	trace_ops(t, &n_ops);
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

	uint32_t nw = par_workers();
	struct lopping g = { .a = a, .isend = isend };
	par_split(n_tl, nw, tl_ops, tls, g.cut);
	uint32_t ops_before = 0;
	for (uint32_t w = 0, tl = 0; w < nw; w++) {
		for (; tl < g.cut[w]; tl++)
			ops_before += tls[tl].op_count;
		g.base[w] = ops_before;
	}
	par_run(nw, lop_worker, &g);
	/* each worker's lops go down to follow the ones before (fix_worker) */
	uint32_t n = 0;
	for (uint32_t w = 0; w < nw; w++) {
		g.shift[w] = g.base[w] - n;
		n += g.count[w];
		a->stats.coalesced_isends += g.coalesced[w];
	}
	g.fix = 1;
	par_split(n_tl - g.cut[1], nw, tl_ops, tls + g.cut[1], g.fix_cut);
	for (uint32_t w = 0; w <= nw; w++)
		g.fix_cut[w] += g.cut[1];
	par_run(nw, lop_worker, &g);
	a->tl_lop[n_tl] = n;
	a->lop_op[n] = n_ops;
	a->n_lops = n;
	free(isend);
	/* the shares beyond the first touched pages past the lops: give
	 * them back */
	shrink((void **)&a->lop_op, ((size_t)n + 1) * sizeof *a->lop_op);
	shrink((void **)&a->lop_tl, ((size_t)n + 1) * sizeof *a->lop_tl);
	shrink((void **)&a->lop_kind, (size_t)n + 1);
	return 0;
}
