/* partition.c — the partitions as every paradigm has them: renumbered
 * densely from a union-find over lops, computation lops attached to the
 * communication lop after them, the partition DAG (cycles merged) with a
 * topological order and each partition's leap, and the partitions
 * renumbered by their first global step. How partitions are found is
 * each paradigm's own (mpi/merge.c, charm/).
 */
#include "analysis_impl.h"

#include "base/par.h"
#include "base/recycle.h"

#include <stdlib.h>
#include <string.h>

/* part_edges for the sources p0 .. p1 - 1 */
static void
part_edges_of(const struct analysis *a, uint32_t *stamp, uint32_t p0, uint32_t p1,
	      part_edge_fn fn, void *ctx)
{
	for (uint32_t p = 0; p < a->n_parts; p++)
		stamp[p] = TRACE_NONE;
	/* partitions' lops are grouped by partition, so all edges out of p
	 * are seen together and one stamp per target dedups them */
	for (uint32_t p = p0; p < p1; p++) {
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k];
			if (a->lop_kind[l] == OP_COMPUTE || l + 2 >= a->tl_lop[a->lop_tl[l] + 1])
				continue;
			uint32_t q = a->lop_part[l + 2];
			if (q == p || q == TRACE_NONE || stamp[q] == p)
				continue;
			stamp[q] = p;
			fn(ctx, p, q, l);
		}
	}
}

void
part_edges(const struct analysis *a, uint32_t *stamp, part_edge_fn fn, void *ctx)
{
	part_edges_of(a, stamp, 0, a->n_parts, fn, ctx);
}

static void
count_edge(void *ctx, uint32_t p, uint32_t q, uint32_t l)
{
	(void)q;
	(void)l;
	((struct analysis *)ctx)->dag_first[p + 1]++;
}

struct fill_ctx {
	struct analysis *a;
	uint32_t *fill;
};

static void
fill_edge(void *ctx, uint32_t p, uint32_t q, uint32_t l)
{
	struct fill_ctx *f = ctx;
	(void)l;
	f->a->dag_succ[f->fill[p]++] = q;
}

/* The partition graph is built on every core, each worker for a share
 * of the sources with a stamp array of its own: counting (fill NULL),
 * then filling. */
struct graphing {
	struct analysis *a;
	uint32_t *fill;
	uint32_t cut[PAR_MAX + 1];
};

static int
graph_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct graphing *g = ctx;
	struct analysis *a = g->a;
	(void)nw;
	uint32_t *stamp = malloc(((size_t)a->n_parts + 1) * sizeof *stamp);
	if (!stamp)
		return ERR_NOMEM;
	struct fill_ctx f = { a, g->fill };
	part_edges_of(a, stamp, g->cut[w], g->cut[w + 1], g->fill ? fill_edge : count_edge,
		      g->fill ? (void *)&f : (void *)a);
	free(stamp);
	return 0;
}

/* Builds the partition graph from timeline order (part_edges), counting
 * then filling. Sets a->dag_first / a->dag_succ. */
static int
build_graph(struct analysis *a)
{
	uint32_t np = a->n_parts, nw = par_workers();
	free(a->dag_first);
	free(a->dag_succ);
	a->dag_succ = NULL;
	a->dag_first = calloc(np + 2, sizeof *a->dag_first);
	if (!a->dag_first)
		return ERR_NOMEM;
	struct graphing g = { .a = a };
	par_split(np, nw, part_weight, a, g.cut);
	if (par_run(nw, graph_worker, &g))
		return ERR_NOMEM;
	for (uint32_t p = 0; p < np; p++)
		a->dag_first[p + 1] += a->dag_first[p];
	g.fill = malloc((np + 1) * sizeof *g.fill);
	a->dag_succ = malloc((a->dag_first[np] + 1) * sizeof *a->dag_succ);
	if (!a->dag_succ || !g.fill) {
		free(g.fill);
		return ERR_NOMEM;
	}
	memcpy(g.fill, a->dag_first, (np + 1) * sizeof *g.fill);
	int rc = par_run(nw, graph_worker, &g);
	free(g.fill);
	return rc;
}

/* Each partition's lops in lop order: a counting sort on every core
 * (par_bucket), the computation lops attached first a share each. */
static int
attach_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct analysis *a = ctx;
	uint32_t l0, l1;
	par_share(a->n_lops, w, nw, &l0, &l1);
	lops_attach_computation(a, l0, l1);
	return 0;
}

static uint32_t
part_of(const void *ctx, uint32_t l)
{
	return ((const struct analysis *)ctx)->lop_part[l];
}

int
partition_lists(struct analysis *a, int attach)
{
	if (attach)
		par_run(par_workers(), attach_worker, a);
	return par_bucket(a->n_lops, a->n_parts, part_of, a, a->part_lop_first, a->part_lops);
}

void
lops_attach_computation(struct analysis *a, uint32_t l0, uint32_t l1)
{
	/* none when computation follows: its own is not set yet, as when
	 * this ran lop by lop */
	for (uint32_t l = l0; l < l1; l++) {
		if (a->lop_kind[l] != OP_COMPUTE)
			continue;
		uint32_t next = l + 1;
		a->lop_part[l] = next < a->tl_lop[a->lop_tl[l] + 1] && a->lop_kind[next] != OP_COMPUTE
			? a->lop_part[next] : TRACE_NONE;
	}
}

/* Dense partition ids from u, computation lops attached, lops grouped. */
static int
number_partitions(struct analysis *a, struct uf *u)
{
	/* the communication lops' sets */
	_Static_assert(OP_COMPUTE == 0, "lop_kind is 0 for computation lops");
	uint32_t n = a->n_lops, np;
	int rc = uf_number(u->parent, n, a->lop_kind, a->lop_part, &np, NULL);
	if (rc)
		return rc;
	a->n_parts = np;

	free(a->part_lop_first);
	free(a->part_lops);
	a->part_lop_first = malloc((np + 2) * sizeof *a->part_lop_first);
	a->part_lops = recycle_malloc((n + 1) * sizeof *a->part_lops);
	if (!a->part_lop_first || !a->part_lops)
		return ERR_NOMEM;
	return partition_lists(a, 1);
}

int
partition_order(struct analysis *a)
{
	uint32_t np = a->n_parts;
	uint32_t *indeg = malloc((np + 1) * sizeof *indeg);
	uint32_t *depth = malloc((np + 1) * sizeof *depth);
	free(a->part_order);
	a->part_order = malloc((np + 1) * sizeof *a->part_order);
	int rc = ERR_NOMEM;
	if (indeg && depth && a->part_order &&
	    !(rc = dag_depths(np, a->dag_first, a->dag_succ, depth, a->part_order, indeg)))
		for (uint32_t p = 0; p < np; p++)
			a->parts[p].leap = depth[p];
	free(indeg);
	free(depth);
	return rc;
}

void
part_clear(struct analysis_part *P)
{
	uint32_t leap = P->leap;
	memset(P, 0, sizeof *P);
	P->leap = leap;
	P->merged_from = 1;
	P->phase = P->phase_region = TRACE_NONE;
}

/* Each partition's counts, on every core (a share of the partitions). */
static int
describe_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct analysis *a = ctx;
	uint32_t p0, p1;
	par_share(a->n_parts, w, nw, &p0, &p1);
	for (uint32_t p = p0; p < p1; p++) {
		struct analysis_part *P = &a->parts[p];
		part_clear(P);
		uint32_t last_tl = TRACE_NONE;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k];
			P->lop_count++;
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			P->comm_count++;
			if (a->lop_tl[l] != last_tl) {
				P->ranks++;      /* lops are grouped by timeline */
				last_tl = a->lop_tl[l];
			}
			if (a->lop_phase && a->lop_phase[l] < P->phase) {
				P->phase = a->lop_phase[l];
				P->phase_region = a->lop_phase_region[l];
			}
		}
	}
	return 0;
}

int
partition_finalize(struct analysis *a, struct uf *u)
{
	for (;;) {
		int rc = number_partitions(a, u);
		if (rc)
			return rc;
		free(a->parts);
		a->parts = calloc(a->n_parts + 1, sizeof *a->parts);
		if (!a->parts || (rc = build_graph(a)))
			return ERR_NOMEM;
		uint32_t *comp = malloc((a->n_parts + 1) * sizeof *comp);
		if (!comp)
			return ERR_NOMEM;
		int64_t ncomp = tarjan(a->n_parts, a->dag_first, a->dag_succ, comp);
		if (ncomp < 0) {
			free(comp);
			return (int)ncomp;
		}
		if ((uint32_t)ncomp == a->n_parts) {
			free(comp);
			break;
		}
		/* merge each component through one representative lop */
		uint32_t *rep = malloc(((size_t)ncomp + 1) * sizeof *rep);
		if (!rep) {
			free(comp);
			return ERR_NOMEM;
		}
		for (int64_t c = 0; c < ncomp; c++)
			rep[c] = TRACE_NONE;
		for (uint32_t l = 0; l < a->n_lops; l++) {
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			uint32_t c = comp[a->lop_part[l]];
			if (rep[c] == TRACE_NONE)
				rep[c] = l;
			else
				uf_union(u, rep[c], l);
		}
		free(rep);
		free(comp);
	}
	int rc = partition_order(a);
	if (rc)
		return rc;
	par_run(par_workers(), describe_worker, a);
	return 0;
}

uint64_t
part_weight(const void *ctx, uint32_t p)
{
	const struct analysis *a = ctx;
	return (uint64_t)(a->part_lop_first[p + 1] - a->part_lop_first[p]) + 1;
}

uint32_t
part_first_comm(const struct analysis *a, uint32_t p)
{
	for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++)
		if (a->lop_kind[a->part_lops[k]] != OP_COMPUTE)
			return a->part_lops[k];
	return TRACE_NONE;
}

int
partition_to_uf(const struct analysis *a, struct uf *u)
{
	if (uf_init(u, a->n_lops))
		return ERR_NOMEM;
	for (uint32_t p = 0; p < a->n_parts; p++) {
		uint32_t first = TRACE_NONE;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k];
			if (a->lop_kind[l] == OP_COMPUTE)
				continue;
			if (first == TRACE_NONE)
				first = l;
			else
				uf_union(u, first, l);
		}
	}
	return 0;
}

/* Renumbers partitions by their first global step (ties by their first
 * lop), so partition k is the k-th a user meets walking the trace. */
int
parts_by_first_step(const struct analysis *a, uint32_t *order)
{
	/* stable counting sort: ids already follow first lops */
	uint32_t *cnt = calloc((size_t)a->n_steps + 2, sizeof *cnt);
	if (!cnt)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < a->n_parts; p++)
		cnt[a->parts[p].step_first + 1]++;
	for (uint32_t s = 0; s <= a->n_steps; s++)
		cnt[s + 1] += cnt[s];
	for (uint32_t p = 0; p < a->n_parts; p++)
		order[cnt[a->parts[p].step_first]++] = p;
	free(cnt);
	return 0;
}

/* Renumbering's work on every core: worker w renames lop_part for its
 * share of the lops and copies the lop lists of its share of the new
 * partition ids. */
struct renaming {
	struct analysis *a;
	const uint32_t *order, *newid;
	const uint32_t *plf;      /* new part_lop_first */
	uint32_t *part_lops;      /* new */
};

static int
rename_worker(void *ctx, uint32_t w, uint32_t nw)
{
	const struct renaming *g = ctx;
	struct analysis *a = g->a;
	uint32_t l0, l1, i0, i1;
	par_share(a->n_lops, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++)
		if (a->lop_part[l] != TRACE_NONE)
			a->lop_part[l] = g->newid[a->lop_part[l]];
	par_share(a->n_parts, w, nw, &i0, &i1);
	for (uint32_t i = i0; i < i1; i++) {
		uint32_t p = g->order[i];
		memcpy(g->part_lops + g->plf[i], a->part_lops + a->part_lop_first[p],
		       (size_t)(g->plf[i + 1] - g->plf[i]) * sizeof *g->part_lops);
	}
	return 0;
}

int
partition_renumber(struct analysis *a)
{
	uint32_t np = a->n_parts;
	uint32_t *order = malloc((np + 1) * sizeof *order);
	uint32_t *newid = malloc((np + 1) * sizeof *newid);
	struct analysis_part *parts = malloc((np + 1) * sizeof *parts);
	uint32_t *plf = malloc((np + 2) * sizeof *plf);
	uint32_t *df = malloc((np + 2) * sizeof *df);
	uint32_t *ds = malloc(((size_t)a->dag_first[np] + 1) * sizeof *ds);
	int rc = ERR_NOMEM;
	if (!order || !newid || !parts || !plf || !df || !ds ||
	    parts_by_first_step(a, order))
		goto out;
	for (uint32_t i = 0; i < np; i++)
		newid[order[i]] = i;
	plf[0] = df[0] = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = order[i];
		parts[i] = a->parts[p];
		plf[i + 1] = plf[i] + a->part_lop_first[p + 1] - a->part_lop_first[p];
		uint32_t m = 0;
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			ds[df[i] + m++] = newid[a->dag_succ[e]];
		df[i + 1] = df[i] + m;
	}
	for (uint32_t i = 0; i < np; i++)
		a->part_order[i] = newid[a->part_order[i]];
	if (a->part_isig) {
		uint64_t *isig = malloc(((size_t)np + 1) * sizeof *isig);
		if (!isig)
			goto out;
		for (uint32_t i = 0; i < np; i++)
			isig[i] = a->part_isig[order[i]];
		free(a->part_isig);
		a->part_isig = isig;
	}
	int same = 1;
	for (uint32_t i = 0; i < np && same; i++)
		same = order[i] == i;
	if (!same) {
		/* lop_part renamed, and each partition's list of lops (in lop
		 * order) moved to its new place, on every core */
		struct renaming g = { a, order, newid, plf,
				      recycle_malloc(((size_t)a->n_lops + 1) * sizeof *g.part_lops) };
		if (!g.part_lops)
			goto out;
		uint32_t nw = par_workers();
		par_run(nw, rename_worker, &g);
		recycle_free(a->part_lops, ((size_t)a->n_lops + 1) * sizeof *a->part_lops);
		a->part_lops = g.part_lops;
	}
	free(a->parts);
	free(a->part_lop_first);
	free(a->dag_first);
	free(a->dag_succ);
	a->parts = parts;
	a->part_lop_first = plf;
	a->dag_first = df;
	a->dag_succ = ds;
	parts = NULL;
	plf = df = ds = NULL;
	rc = 0;
out:
	free(order);
	free(newid);
	free(parts);
	free(plf);
	free(df);
	free(ds);
	return rc;
}
