/* dist_lops.c — the distributed structure stages' entry point (dist.h):
 * each rank's lops, its local unions, the stages' global set counts.
 *
 * Lops are per timeline, so the serial lops_build over the shard's own
 * trace gives the rank's lops, numbered from 0: global ids follow from an
 * exscan of the ranks' counts (a rank's timelines, and so its lops, come
 * after the lower ranks'). Partitioning then unites, per stage, what a
 * rank sees alone (messages with both ends its own, its members of each
 * collective, its Waitall and caller merges) and joins the ranks' sets
 * across the links between them (dist_union.c), counting the sets after
 * the mandatory and after the Waitall merges as partition_build does.
 */
#include "analysis/mpi/stages.h"
#include "dist_impl.h"

#include <stdlib.h>
#include <string.h>

const uint32_t *
dist_part_order(const struct analysis *a)
{
	return a->part_order;
}

int
dist_reference(const struct trace *t, const struct analysis_opts *opts, struct analysis **out,
	       struct err *e)
{
	int rc = analysis_new(t, opts, out, e);
	if (!rc && !(rc = lops_build(*out)))
		rc = partition_build(*out);
	if (rc && *out) {
		analysis_destroy(*out);
		*out = NULL;
		err_set(e, rc, "partitioning: %s", err_name(rc));
	}
	return rc;
}

/* Every rank's first global op and first global lop (ranks + 1 each). */
static int
offsets(struct dctx *x)
{
	const struct dmodel *d = x->d;
	uint32_t size = x->c->size;
	uint64_t v[3] = { x->a->n_lops, x->a->n_lops, x->a->stats.coalesced_isends };
	int rc = dcomm_exscan(x->c, v, 1);
	if (!rc)
		rc = dcomm_reduce(x->c, v + 1, 2, DCOMM_SUM);
	if (rc)
		return rc;
	if (v[1] >= TRACE_NONE - 1)
		return ERR_LIMIT;
	x->lop_off = (uint32_t)v[0];
	x->lops_all = (uint32_t)v[1];
	x->a->stats.coalesced_isends = (uint32_t)v[2];
	x->op_first = malloc(((size_t)size + 1) * sizeof *x->op_first);
	x->lop_first = malloc(((size_t)size + 1) * sizeof *x->lop_first);
	uint64_t *count = malloc(size * sizeof *count);
	if ((rc = dcomm_agree(x->c, x->op_first && x->lop_first && count ? 0 : ERR_NOMEM))) {
		free(count);
		return rc;
	}
	uint32_t mine[2] = { 2 * d->oprec.off, x->lop_off };
	void *all = NULL;
	rc = dcomm_allgatherv(x->c, mine, sizeof mine, &all, count);
	const uint32_t *g = all;
	for (uint32_t r = 0; r < size && !rc; r++) {
		x->op_first[r] = g[2 * r];
		x->lop_first[r] = g[2 * r + 1];
	}
	x->op_first[size] = 2 * d->oprec.all;
	x->lop_first[size] = x->lops_all;
	free(all);
	free(count);
	return rc;
}

/* The local lop of a global op of this rank, or TRACE_NONE. */
static uint32_t
local_lop(const struct dctx *x, uint32_t op)
{
	uint32_t lo = op == TRACE_NONE ? TRACE_NONE : dmodel_op_local(x->d, op);
	return lo == TRACE_NONE ? TRACE_NONE : x->a->op_lop[lo];
}

/* The mandatory merges a rank sees alone; the size mismatches counted
 * once, by the sender's rank. */
static void
unite_mandatory(struct dctx *x, struct uf *u)
{
	const struct dmodel *d = x->d;
	struct analysis *a = x->a;
	for (uint32_t i = 0; i < d->sends.n; i++) {
		const struct trace_msg *m = &a->msgs[i];
		if (!msg_ok(a, i)) {
			a->stats.size_mismatches += (m->flags & MSGF_SIZE_MISMATCH) &&
				m->recv_op != TRACE_NONE;
			continue;
		}
		uint32_t r = local_lop(x, m->recv_op);
		if (r != TRACE_NONE)
			uf_union(u, local_lop(x, m->send_op), r);
	}
	uint32_t nc;
	trace_colls(d->t, &nc);
	const uint32_t *members = trace_coll_members(d->t);
	for (uint32_t c = 0; c < nc; c++)
		for (uint32_t k = d->coll_first[c] + 1; k < d->coll_first[c + 1]; k++)
			uf_union(u, local_lop(x, members[d->coll_first[c]]), local_lop(x, members[k]));
	/* one-sided: on the rank alone (the shard's RMA operations name its
	 * own ops by local id) */
	partition_unite_rma(a, u);
}

static void
unite_waitall(struct dctx *x, struct uf *u)
{
	const struct trace_msg *msgs = x->a->msgs;
	for (uint32_t i = 0; i < x->d->sends.n; i++) {
		const struct trace_msg *m = &msgs[i];
		uint32_t w = m->send_done_op != m->send_op ? local_lop(x, m->send_done_op) : TRACE_NONE;
		if (w != TRACE_NONE)
			uf_union(u, local_lop(x, m->send_op), w);
	}
}

/* The caller merge: which functions are multi-callers is the maximum
 * over the ranks' calls; the merges themselves are along timelines. */
static int
unite_callers(struct dctx *x, struct uf *u)
{
	uint32_t n_frames, n_regions;
	trace_frames(x->d->t, &n_frames);
	trace_regions(x->d->t, &n_regions);
	uint32_t *count = calloc((size_t)n_frames + 1, sizeof *count);
	uint32_t *most = calloc((size_t)n_regions + 1, sizeof *most);
	uint64_t *wide = calloc((size_t)n_regions + 1, sizeof *wide);
	int rc = dcomm_agree(x->c, count && most && wide ? 0 : ERR_NOMEM);
	if (!rc) {
		caller_counts(x->a, count, most);
		for (uint32_t r = 0; r < n_regions; r++)
			wide[r] = most[r];
		rc = dcomm_reduce(x->c, wide, n_regions, DCOMM_MAX);
	}
	if (!rc) {
		for (uint32_t r = 0; r < n_regions; r++)
			most[r] = (uint32_t)wide[r];
		caller_unite(x->a, u, most);
	}
	free(count);
	free(most);
	free(wide);
	return rc;
}

static int
partition(struct dctx *x)
{
	struct analysis *a = x->a;
	const struct analysis_opts *o = &a->opts;
	struct uf u = { 0 };
	a->lop_part = malloc(((size_t)a->n_lops + 1) * sizeof *a->lop_part);
	int rc = a->lop_part ? uf_init(&u, a->n_lops) : ERR_NOMEM;
	if ((rc = dcomm_agree(x->c, rc)))
		goto out;
	uint32_t sets = 0;
	/* user phases: each rank's lops of a phase united, the phases joined
	 * across ranks with the collectives */
	if (o->n_phases)
		rc = partition_assign_phases(a, &u, &sets);
	a->opts.phases = NULL;     /* borrowed from the caller, used only here */
	if ((rc = dcomm_agree(x->c, rc)))
		goto out;
	unite_mandatory(x, &u);
	uint64_t mism = a->stats.size_mismatches;
	if ((rc = dcomm_reduce(x->c, &mism, 1, DCOMM_SUM)))
		goto out;
	a->stats.size_mismatches = (uint32_t)mism;
	int last = !o->waitall_merge && !o->caller_merge;
	if ((rc = dist_sets(x, &u, 0, last, &sets)))
		goto out;
	a->stats.partitions_initial = a->stats.partitions_waitall = sets;
	if (o->waitall_merge) {
		unite_waitall(x, &u);
		if ((rc = dist_sets(x, &u, 1, !o->caller_merge, &sets)))
			goto out;
		a->stats.partitions_waitall = sets;
	}
	if (o->caller_merge &&
	    (!(rc = unite_callers(x, &u)) && (rc = dist_sets(x, &u, o->waitall_merge, 1, &sets))))
		goto out;
	if (!rc)
		rc = dist_finalize(x, sets);
	a->stats.partitions_scc = a->n_parts;
out:
	uf_fini(&u);
	return rc;
}

/* Partitions are numbered in the order of their first lop, and ranks hold
 * lops in order: those whose first lop is on ranks 0 .. r are the ids up
 * to the largest on those ranks. */
static int
part_runs(struct dctx *x, uint32_t *part_first)
{
	const struct analysis *a = x->a;
	uint32_t top = 0, size = x->c->size;
	for (uint32_t l = 0; l < a->n_lops; l++)
		if (a->lop_kind[l] != OP_COMPUTE && a->lop_part[l] + 1 > top)
			top = a->lop_part[l] + 1;
	uint64_t *count = malloc(size * sizeof *count);
	int rc = dcomm_agree(x->c, count ? 0 : ERR_NOMEM);
	void *all = NULL;
	if (!rc)
		rc = dcomm_allgatherv(x->c, &top, sizeof top, &all, count);
	const uint32_t *tops = all;
	part_first[0] = 0;
	for (uint32_t r = 0; r < size && !rc; r++)
		part_first[r + 1] = tops[r] > part_first[r] ? tops[r] : part_first[r];
	free(all);
	free(count);
	return rc;
}

int
dist_structure(struct dcomm *c, const struct dmodel *d, const struct analysis_opts *opts,
	       struct analysis **out, struct dslice *lops, uint32_t *part_first, struct err *e)
{
	*out = NULL;
	struct err mine = { 0 };
	struct analysis *a = NULL;
	int rc = analysis_new(d->t, opts, &a, &mine);
	if (!rc && trace_info(d->t)->paradigm != PARADIGM_MPI)
		rc = err_set(&mine, ERR_USAGE, "only MPI traces are analysed distributed");
	if (!rc && (d->rank != c->rank || d->size != c->size))
		rc = err_set(&mine, ERR_USAGE, "rank %u of %u given the shard of rank %u of %u",
			     c->rank, c->size, d->rank, d->size);
	struct dctx x = { .c = c, .d = d, .a = a };
	if (!rc)
		rc = lops_build(a);
	if (!(rc = dcomm_agree(c, rc)) && !(rc = offsets(&x)) && !(rc = partition(&x)) && part_first)
		rc = part_runs(&x, part_first);
	free(x.op_first);
	free(x.lop_first);
	if (rc) {
		analysis_destroy(a);
		if (mine.code && e)
			*e = mine;
		return err_set(e, rc, "distributed partitioning: %s", err_name(rc));
	}
	*lops = (struct dslice){ x.lop_off, a->n_lops, x.lops_all };
	*out = a;
	return 0;
}

int
dist_refinalize(struct dcomm *c, const struct dmodel *d, struct analysis *a, uint32_t lop_off,
		uint32_t n_parts, uint32_t *part_first)
{
	struct dctx x = { .c = c, .d = d, .a = a, .lop_off = lop_off };
	int rc = dist_finalize(&x, n_parts);
	if (!rc && part_first)
		rc = part_runs(&x, part_first);
	return rc;
}
