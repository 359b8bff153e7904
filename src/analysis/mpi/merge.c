/* merge.c — phase partitioning (seed 000, section 3.1): the merges that
 * find an MPI trace's partitions.
 *
 * Every communication lop starts as its own partition. The two ends of a
 * message and the members of a collective are merged (mandatory), then the
 * ops whose requests one Waitall completes (optional), then every strongly
 * connected component of the partition graph, so the partitions form a
 * DAG. Computation lops belong to the partition of the communication lop
 * that follows them. User phases replace detection: all lops of phase k
 * start in one partition, and the mandatory merges still apply.
 */
#include "analysis/core/analysis_impl.h"
#include "stages.h"

#include "base/par.h"
#include "base/recycle.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int
partition_assign_phases(struct analysis *a, struct uf *u, uint32_t *sets)
{
	const struct trace *t = a->t;
	uint32_t n_regions, n_frames, n_tl;
	const struct trace_region *regions = trace_regions(t, &n_regions);
	const struct trace_frame *frames = trace_frames(t, &n_frames);
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	uint8_t *starts = calloc(n_regions + 1, 1);
	a->lop_phase = malloc((a->n_lops + 1) * sizeof *a->lop_phase);
	a->lop_phase_region = malloc((a->n_lops + 1) * sizeof *a->lop_phase_region);
	uint32_t *first_of_phase = NULL;
	size_t cap = 0;
	if (!starts || !a->lop_phase || !a->lop_phase_region) {
		free(starts);
		return ERR_NOMEM;
	}
	for (uint32_t r = 0; r < n_regions; r++)
		for (uint32_t k = 0; k < a->opts.n_phases; k++)
			if (fnmatch(a->opts.phases[k].region_glob, trace_str(t, regions[r].name), 0) == 0)
				starts[r] = 1;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t f = tls[tl].frame_first, fend = f + tls[tl].frame_count;
		uint32_t phase = 0, region = TRACE_NONE;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t enter = lop_enter(a, l);
			/* frames are in enter order on their timeline */
			for (; f < fend && frames[f].t_enter <= enter; f++)
				if (starts[frames[f].region]) {
					phase++;
					region = frames[f].region;
				}
			a->lop_phase[l] = phase;
			a->lop_phase_region[l] = region;
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			if (phase >= cap) {
				size_t ncap = cap ? cap : 64;
				while (ncap <= phase)
					ncap *= 2;
				uint32_t *p = realloc(first_of_phase, ncap * sizeof *p);
				if (!p) {
					free(first_of_phase);
					free(starts);
					return ERR_NOMEM;
				}
				for (size_t i = cap; i < ncap; i++)
					p[i] = TRACE_NONE;
				first_of_phase = p;
				cap = ncap;
			}
			if (first_of_phase[phase] == TRACE_NONE)
				first_of_phase[phase] = l;
			else
				*sets -= (uint32_t)uf_union(u, first_of_phase[phase], l);
		}
	}
	free(first_of_phase);
	free(starts);
	return 0;
}

/* Ravel's caller merge (DESIGN.md §8; the paper does not describe it).
 * A function is a *multi-caller* when some call of it had more than one
 * communication below it, anywhere in the trace: collectives count two,
 * other communication calls one (each MPI_Isend of a coalesced run
 * counts), waits that only complete Isends none — as Ravel counts. Each
 * communication lop's caller is the nearest enclosing call (frame) of a
 * multi-caller; two consecutive communication lops of a rank with the
 * same caller are merged. */
void
caller_counts(const struct analysis *a, uint32_t *count, uint32_t *most)
{
	uint32_t n_frames;
	const struct trace_frame *frames = trace_frames(a->t, &n_frames);
	for (uint32_t i = 0; i < a->n_ops; i++) {
		const struct trace_op o = trace_op_get(&a->ops, i);
		if (o.frame != TRACE_NONE && o.kind != OP_COMPUTE && o.kind != OP_WAIT)
			count[o.frame] += o.kind == OP_COLLECTIVE ? 2 : 1;
	}
	/* a frame's parent was entered before it: children come later */
	for (uint32_t f = n_frames; f-- > 0;) {
		if (frames[f].parent != TRACE_NONE)
			count[frames[f].parent] += count[f];
		if (count[f] > most[frames[f].region])
			most[frames[f].region] = count[f];
	}
}

void
caller_unite(const struct analysis *a, struct uf *u, const uint32_t *most)
{
	uint32_t n_tl;
	const struct trace_frame *frames = trace_frames(a->t, NULL);
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t prev = TRACE_NONE, prev_caller = TRACE_NONE;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			uint32_t f = trace_op_get(&a->ops, lop_first_op(a, l)).frame;
			while (f != TRACE_NONE && most[frames[f].region] <= 1)
				f = frames[f].parent;
			if (f != TRACE_NONE && f == prev_caller)
				uf_union(u, prev, l);
			prev = l;
			prev_caller = f;
		}
	}
}

static int
caller_merge(struct analysis *a, struct uf *u)
{
	uint32_t n_frames, n_regions;
	trace_frames(a->t, &n_frames);
	trace_regions(a->t, &n_regions);
	uint32_t *count = calloc((size_t)n_frames + 1, sizeof *count);
	uint32_t *most = calloc((size_t)n_regions + 1, sizeof *most);
	if (count && most) {
		caller_counts(a, count, most);
		caller_unite(a, u, most);
	}
	free(count);
	free(most);
	return count && most ? 0 : ERR_NOMEM;
}

/* The message, collective and Waitall merges, on every core: each
 * worker unites the pairs of a share of the messages and collectives
 * (uf_find_shared), counting the unions that joined two sets. */
enum { MERGE_MANDATORY, MERGE_WAITALL };
struct merging {
	const struct analysis *a;
	uint32_t *parent;
	int kind;
	struct par_pieces pieces;     /* of the messages and collectives */
	uint32_t united[PAR_MAX], mismatches[PAR_MAX];
};

static int
merge_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct merging *g = ctx;
	const struct analysis *a = g->a;
	uint32_t n_msgs, n_colls, m0, m1, c0, c1, united = 0, mismatches = 0, piece;
	const struct trace_msg *msgs = trace_msgs(a->t, &n_msgs);
	const struct trace_coll *colls = trace_colls(a->t, &n_colls);
	const uint32_t *members = trace_coll_members(a->t);
	(void)nw;
	while (par_take(&g->pieces, w, &piece)) {
		par_share(n_msgs, piece, g->pieces.n, &m0, &m1);
		par_share(n_colls, piece, g->pieces.n, &c0, &c1);
		for (uint32_t m = m0; m < m1; m++) {
			const struct trace_msg *x = &msgs[m];
			if (g->kind == MERGE_WAITALL) {
				if (x->send_op != TRACE_NONE && x->send_done_op != TRACE_NONE &&
				    x->send_done_op != x->send_op)
					united += (uint32_t)uf_unite_shared(g->parent, op_lop_of(a, x->send_op),
									 op_lop_of(a, x->send_done_op));
			} else if (!msg_ok(a, m)) {
				mismatches += (x->flags & MSGF_SIZE_MISMATCH) && x->send_op != TRACE_NONE &&
					      x->recv_op != TRACE_NONE;
			} else {
				united += (uint32_t)uf_unite_shared(g->parent, op_lop_of(a, x->send_op),
								 op_lop_of(a, x->recv_op));
			}
		}
		for (uint32_t c = c0; c < c1 && g->kind == MERGE_MANDATORY; c++)
			for (uint32_t k = 1; k < colls[c].member_count; k++)
				united += (uint32_t)uf_unite_shared(g->parent,
								 op_lop_of(a, members[colls[c].member_first]),
								 op_lop_of(a, members[colls[c].member_first + k]));
	}
	g->united[w] = united;
	g->mismatches[w] = mismatches;
	return 0;
}

uint32_t
partition_unite_rma(const struct analysis *a, struct uf *u)
{
	uint32_t n_rmas, n_tl, united = 0;
	const struct trace_rma *rmas = trace_rmas(a->t, &n_rmas);
	trace_timelines(a->t, &n_tl);
	for (uint32_t i = 0; i < n_rmas; i++)
		if (rmas[i].op != TRACE_NONE && rmas[i].done_op != TRACE_NONE)
			united += (uint32_t)uf_union(u, op_lop_of(a, rmas[i].op), op_lop_of(a, rmas[i].done_op));
	if (!trace_has_rma(a->t))
		return united;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t prev = TRACE_NONE;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			if (a->lop_kind[l] == OP_RMA && prev != TRACE_NONE && a->lop_kind[prev] == OP_RMA)
				united += (uint32_t)uf_union(u, prev, l);
			prev = l;
		}
	}
	return united;
}

/* The union-find's sets made, a share of the lops on each worker, and
 * its communication lops counted (united[w], for now). */
static int
init_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct merging *g = ctx;
	const struct analysis *a = g->a;
	uint32_t l0, l1, comm = 0;
	par_share(a->n_lops, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++) {
		g->parent[l] = l;
		comm += a->lop_kind[l] != OP_COMPUTE;
	}
	g->united[w] = comm;
	return 0;
}

int
partition_build(struct analysis *a)
{
	struct uf u = { .n = a->n_lops };
	a->lop_part = recycle_malloc((a->n_lops + 1) * sizeof *a->lop_part);
	u.parent = recycle_malloc((a->n_lops + 1) * sizeof *u.parent);
	if (!a->lop_part || !u.parent) {
		free(u.parent);
		return ERR_NOMEM;
	}
	int rc = 0;
	/* the sets are the communication lops less the unions that joined
	 * two of them (only communication lops are ever united) */
	uint32_t sets = 0, nw = par_workers();
	struct merging g = { .a = a, .parent = u.parent };
	par_run(nw, init_worker, &g);
	for (uint32_t w = 0; w < nw; w++) {
		sets += g.united[w];
		g.united[w] = 0;
	}
	if (a->opts.n_phases && (rc = partition_assign_phases(a, &u, &sets)))
		goto out;

	g.kind = MERGE_MANDATORY;
	par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
	par_run(nw, merge_worker, &g);
	for (uint32_t w = 0; w < nw; w++) {
		sets -= g.united[w];
		a->stats.size_mismatches += g.mismatches[w];
		g.united[w] = 0;
	}
	sets -= partition_unite_rma(a, &u);
	a->stats.partitions_initial = sets;

	if (a->opts.waitall_merge) {
		g.kind = MERGE_WAITALL;
		par_pieces_init(&g.pieces, PAR_PIECES(nw), nw);
		par_run(nw, merge_worker, &g);
		for (uint32_t w = 0; w < nw; w++)
			sets -= g.united[w];
	}
	a->stats.partitions_waitall = sets;

	if (a->opts.caller_merge && (rc = caller_merge(a, &u)))
		goto out;

	rc = partition_finalize(a, &u);
	a->stats.partitions_scc = a->n_parts;
out:
	uf_fini(&u);
	return rc;
}
