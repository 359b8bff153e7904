/* charm_infer.c — inferring dependencies from partition sources (seed
 * 004, Alg. 3).
 *
 * After the dependency merge, the events that start a phase are sends:
 * they have the fewest dependencies. Missing control dependencies (made
 * inside the runtime, not traced) are inferred from the physical order of
 * sources on each chare: every source is followed by the next source on
 * its chare, and when that source is in another partition, an edge is
 * added. A cycle merge follows. Lops of a timeline are still in time
 * order here, so "the next source" is the next lop on the timeline that
 * sends.
 */
#include "charm_impl.h"

#include <stdlib.h>

#include "base/par.h"
#include "base/vec.h"

static int
is_source(const struct analysis *a, uint32_t l)
{
	uint32_t n;
	const struct trace_end *e = lop_ends(a, l, &n);
	for (uint32_t i = 0; i < n; i++)
		if (e[i].role == END_SEND && msg_ok(a, e[i].id))
			return 1;
	return 0;
}

/* The timelines cut into pieces the workers take in turn, each piece's
 * edges in a list of its own, added in piece order: the order one core
 * adds them in (is_source reads ends and messages at random). */
struct inferring {
	struct charm *c;
	struct par_pieces pieces;
	uint32_t cut[PAR_PIECES_MAX + 1];
	struct {
		struct charm_edge *v;
		size_t n, cap;
	} out[PAR_PIECES_MAX];
};

static int
infer_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct inferring *g = ctx;
	const struct charm *c = g->c;
	const struct analysis *a = c->a;
	uint32_t k;
	(void)nw;
	while (par_take(&g->pieces, w, &k)) {
		for (uint32_t tl = g->cut[k]; tl < g->cut[k + 1]; tl++) {
			uint32_t prev = TRACE_NONE;
			for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
				if (c->cls[l] == CLS_NONE || !is_source(a, l))
					continue;
				if (prev != TRACE_NONE && c->pid[prev] != c->pid[l]) {
					if (VEC_GROW(g->out[k].v, g->out[k].n, g->out[k].cap))
						return ERR_NOMEM;
					g->out[k].v[g->out[k].n++] =
						(struct charm_edge){ .a = prev, .b = l, .kind = EDGE_INFERRED };
				}
				prev = l;
			}
		}
	}
	return 0;
}

static uint64_t
tl_lops(const void *ctx, uint32_t tl)
{
	const struct analysis *a = ctx;
	return (uint64_t)(a->tl_lop[tl + 1] - a->tl_lop[tl]) + 1;
}

int
charm_infer(struct charm *c)
{
	const struct analysis *a = c->a;
	int rc = 0;
	if (a->opts.charm_infer) {
		struct inferring *g = calloc(1, sizeof *g);
		if (!g)
			return ERR_NOMEM;
		uint32_t nw = par_workers(), np = PAR_PIECES(nw);
		g->c = c;
		par_split(c->n_tl, np, tl_lops, a, g->cut);
		par_pieces_init(&g->pieces, np, nw);
		rc = par_run(nw, infer_worker, g);
		for (uint32_t k = 0; k < np; k++) {
			for (size_t i = 0; !rc && i < g->out[k].n; i++)
				rc = charm_edge_add(c, g->out[k].v[i].a, g->out[k].v[i].b, EDGE_INFERRED);
			free(g->out[k].v);
		}
		free(g);
	}
	if (!rc)
		rc = charm_graph_build(c, 1);
	if (!rc)
		c->a->stats.charm_infer = c->np;
	return rc;
}
