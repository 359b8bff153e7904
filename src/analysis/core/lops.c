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
#include "base/recycle.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static int
is_isend_name(const char *name)
{
	return strcmp(name, "MPI_Isend") == 0 || strcmp(name, "MPI_Issend") == 0 ||
	       strcmp(name, "MPI_Ibsend") == 0 || strcmp(name, "MPI_Irsend") == 0;
}

/* Lops are found on every core, in two passes over pieces of the
 * timelines that the workers take in turn: the first counts each
 * piece's lops, the second numbers them from the count of the pieces
 * before, so each is written once, in its place, and the arrays have
 * their final size from the start. (Numbering each share from its ops
 * before and moving the lops down afterwards cost a move and a second
 * write of op_lop, on pages touched twice.) */
struct lopping {
	struct analysis *a;
	const uint8_t *isend;          /* per region: an MPI_Isend kind */
	struct par_pieces pieces;
	uint32_t cut[PAR_PIECES_MAX + 1];      /* timelines */
	uint32_t count[PAR_PIECES_MAX];        /* each piece's lops; then,
	                                        * filling, its first lop */
	uint32_t coalesced[PAR_MAX];
	int fill;                      /* 0: count the lops; 1: number them */
};

/* The lops of timeline tl numbered from n, returning how many; with
 * fill, written (op_lop, lop_op, lop_tl, lop_kind, tl_lop) and the
 * coalesced Isends counted. */
static inline uint32_t
timeline_lops(struct analysis *a, const uint8_t *isend, uint32_t tl, uint32_t n, int fill,
	      uint32_t *coalesced)
{
	const struct trace_timeline *tls = trace_timelines(a->t, NULL);
	struct trace_opv ops = a->ops;
	uint32_t first = tls[tl].op_first, end = first + tls[tl].op_count, n0 = n;
	uint32_t open = TRACE_NONE;     /* the coalesced Isend lop being grown */
	if (fill)
		a->tl_lop[tl] = n;
	for (uint32_t i = first; i < end; i++) {
		const struct trace_op o = trace_op_get(&ops, i);
		int coalescible = a->opts.coalesce_isends && o.kind == OP_SEND &&
			o.region != TRACE_NONE && isend[o.region];
		if (o.kind == OP_COMPUTE && open != TRACE_NONE && i + 1 < end) {
			const struct trace_op next = trace_op_get(&ops, i + 1);
			if (next.kind == OP_SEND && next.region != TRACE_NONE && isend[next.region]) {
				if (fill)
					a->op_lop[i] = open;
				continue;
			}
		}
		if (coalescible && open != TRACE_NONE) {
			if (fill) {
				a->op_lop[i] = open;
				(*coalesced)++;
			}
			continue;
		}
		open = coalescible ? n : TRACE_NONE;
		if (fill) {
			a->op_lop[i] = n;
			a->lop_op[n] = i;
			a->lop_tl[n] = tl;
			a->lop_kind[n] = o.kind;
		}
		n++;
	}
	return n - n0;
}

static int
lop_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct lopping *g = ctx;
	uint32_t c;
	(void)nw;
	while (par_take(&g->pieces, w, &c)) {
		uint32_t n = g->fill ? g->count[c] : 0;
		for (uint32_t tl = g->cut[c]; tl < g->cut[c + 1]; tl++) {
			if (g->fill)
				n += timeline_lops(g->a, g->isend, tl, n, 1, &g->coalesced[w]);
			else
				n += timeline_lops(g->a, g->isend, tl, n, 0, NULL);
		}
		if (!g->fill)
			g->count[c] = n;
	}
	return 0;
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
	a->op_lop = recycle_malloc((n_ops + 1) * sizeof *a->op_lop);
	a->tl_lop = malloc((n_tl + 1) * sizeof *a->tl_lop);
	if (!isend || !a->op_lop || !a->tl_lop) {
		free(isend);
		return ERR_NOMEM;
	}
	for (uint32_t r = 0; r < n_regions; r++)
		isend[r] = (uint8_t)is_isend_name(trace_str(t, regions[r].name));

	uint32_t nw = par_workers(), np = PAR_PIECES(nw);
	struct lopping g = { .a = a, .isend = isend };
	par_split(n_tl, np, tl_ops, tls, g.cut);
	par_pieces_init(&g.pieces, np, nw);
	par_run(nw, lop_worker, &g);
	uint32_t n = 0;
	for (uint32_t c = 0; c < np; c++) {
		uint32_t k = g.count[c];
		g.count[c] = n;
		n += k;
	}
	a->lop_op = recycle_malloc(((size_t)n + 1) * sizeof *a->lop_op);
	a->lop_tl = recycle_malloc(((size_t)n + 1) * sizeof *a->lop_tl);
	a->lop_kind = recycle_malloc((size_t)n + 1);
	if (!a->lop_op || !a->lop_tl || !a->lop_kind) {
		free(isend);
		return ERR_NOMEM;
	}
	g.fill = 1;
	par_pieces_init(&g.pieces, np, nw);
	par_run(nw, lop_worker, &g);
	for (uint32_t w = 0; w < nw; w++)
		a->stats.coalesced_isends += g.coalesced[w];
	a->tl_lop[n_tl] = n;
	a->lop_op[n] = n_ops;
	a->n_lops = n;
	free(isend);
	return 0;
}

/* op_lop is 4 bytes an op (114 MiB of the analysis's 624 at 10^8 events
 * on the floor tool's archive); the index is 12 bytes a word of 64 ops.
 * It gives op_lop back exactly when op_lop starts at lop 0 and each op's
 * lop is the one before's or the next: the workers check that while
 * they set the bits of their words, and a trace whose lops are not runs
 * of ops in op order keeps op_lop. */
struct indexing {
	const uint32_t *op_lop;
	uint64_t *bits;
	uint32_t *before;           /* each word's bits counted, then the sums before */
	uint32_t n_ops, n_words;
	atomic_int bad;
};

static int
index_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct indexing *g = ctx;
	const uint32_t *ol = g->op_lop;
	uint32_t from, to;
	par_share(g->n_words, w, nw, &from, &to);
	for (uint32_t k = from; k < to && !atomic_load_explicit(&g->bad, memory_order_relaxed); k++) {
		uint32_t op = k * 64, end = g->n_ops - op < 64 ? g->n_ops : op + 64;
		uint64_t word = 0;
		for (; op < end; op++) {
			uint32_t step = op ? ol[op] - ol[op - 1] : ol[0] + 1;
			if (step > 1)
				atomic_store(&g->bad, 1);
			word |= (uint64_t)step << (op % 64);
		}
		g->bits[k] = word;
		g->before[k] = (uint32_t)__builtin_popcountll(word);
	}
	return 0;
}

int
lops_index_ops(struct analysis *a)
{
	uint32_t n = a->n_ops, nw = (n + 63) / 64;
	if (!a->op_lop || a->op_of_lop || !n)
		return 0;
	struct indexing g = { .op_lop = a->op_lop, .n_ops = n, .n_words = nw };
	g.bits = recycle_malloc((size_t)nw * sizeof *g.bits);
	g.before = recycle_malloc((size_t)nw * sizeof *g.before);
	if (!g.bits || !g.before) {
		free(g.bits);
		free(g.before);
		return ERR_NOMEM;
	}
	par_run(par_workers(), index_worker, &g);
	if (atomic_load(&g.bad)) {      /* not runs in op order: op_lop stays */
		free(g.bits);
		free(g.before);
		return 0;
	}
	uint32_t c = 0;
	for (uint32_t k = 0; k < nw; k++) {
		uint32_t here = g.before[k];
		g.before[k] = c;
		c += here;
	}
	recycle_free(a->op_lop, (size_t)n * sizeof *a->op_lop);
	a->op_lop = NULL;
	a->op_begins = g.bits;
	a->op_begins_before = g.before;
	return 0;
}
