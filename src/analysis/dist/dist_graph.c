/* dist_graph.c — the partition graph of a distributed run, its cycles
 * merged, its order and the partitions' counts (dist_impl.h).
 *
 * An edge p -> q is a communication lop of p followed two lops later on
 * its timeline by one of q (part_edges): both lops are on one rank, so
 * each rank finds its edges alone, each (p, q) once with the first lop
 * that makes it. They go to the owner of p (the partitions cut into equal
 * runs, one per rank), which keeps each (p, q) once with its first lop and
 * puts p's successors in the order of those lops, as build_graph does;
 * the runs gathered in rank order are the serial graph, on every rank:
 * O(partitions + edges) each. Tarjan runs there (every rank the same);
 * while there are cycles, their partitions are renumbered as one (as
 * number_partitions renumbers the united sets: in order of the first lop,
 * which is the order of the smallest partition id), each rank relabels
 * its lops, and the graph is built again. The counts go the same way:
 * each rank's per partition to its owner, summed, gathered.
 */
#include "dist_impl.h"

#include "base/par.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

struct dedge {
	uint32_t p, q, l;
};

static int
edge_by_pql(const void *x, const void *y)
{
	const struct dedge *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (a->q != b->q)
		return a->q < b->q ? -1 : 1;
	return (a->l > b->l) - (a->l < b->l);
}

static int
edge_by_pl(const void *x, const void *y)
{
	const struct dedge *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->l > b->l) - (a->l < b->l);
}

static int
same_pq(const void *x, const void *y)
{
	const struct dedge *a = x, *b = y;
	return a->p == b->p && a->q == b->q;
}

/* Each (p, q) once, with its first lop. */
static void
edges_unique(struct dedge *e, size_t *n)
{
	*n = dx_sort_unique(e, *n, sizeof *e, edge_by_pql, same_pq);
}

/* first[0 .. size]: rank r owns partitions [first[r], first[r + 1]). */
static void
owner_runs(uint32_t np, uint32_t size, uint32_t *first)
{
	for (uint32_t r = 0; r < size; r++) {
		uint32_t hi;
		par_share(np, r, size, &first[r], &hi);
	}
	first[size] = np;
}

/* The partition graph on every rank: a->dag_first, a->dag_succ. */
static int
gather_graph(struct dctx *x, const uint32_t *own)
{
	struct analysis *a = x->a;
	uint32_t np = a->n_parts, size = x->c->size;
	size_t n = 0, cap = 0;
	struct dedge *e = NULL;
	uint32_t *dest = NULL;
	int rc = 0;
	/* a partition's edges: where a timeline leaves it (few per timeline
	 * and partition) */
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		if (a->lop_kind[l] == OP_COMPUTE || l + 2 >= a->tl_lop[a->lop_tl[l] + 1])
			continue;
		uint32_t p = a->lop_part[l], q = a->lop_part[l + 2];
		if (q == p || q == TRACE_NONE)
			continue;
		if (!(rc = VEC_GROW(e, n, cap)))
			e[n++] = (struct dedge){ p, q, x->lop_off + l };
	}
	if (!rc) {
		edges_unique(e, &n);
		dest = malloc((n + 1) * sizeof *dest);
		rc = dest ? 0 : ERR_NOMEM;
	}
	for (size_t i = 0; i < n && !rc; i++)
		dest[i] = dx_owner(own, size, e[i].p);
	struct dedge *got = NULL;
	size_t n_got = 0;
	rc = dx_send(x->c, rc, e, n, sizeof *e, dest, (void **)&got, &n_got, NULL);
	free(e);
	free(dest);
	/* the owner's run: successors in the order of their first lops */
	struct dpair *pq = malloc((n_got + 1) * sizeof *pq);
	if (!rc && !pq)
		rc = ERR_NOMEM;
	if (!rc) {
		edges_unique(got, &n_got);
		qsort(got, n_got, sizeof *got, edge_by_pl);
		for (size_t i = 0; i < n_got; i++)
			pq[i] = (struct dpair){ got[i].p, got[i].q };
	}
	free(got);
	uint64_t *count = malloc(size * sizeof *count);
	if ((rc = dcomm_agree(x->c, rc ? rc : count ? 0 : ERR_NOMEM))) {
		free(pq);
		free(count);
		return rc;
	}
	void *all = NULL;
	rc = dcomm_allgatherv(x->c, pq, n_got * sizeof *pq, &all, count);
	free(pq);
	free(a->dag_first);
	free(a->dag_succ);
	a->dag_succ = NULL;
	a->dag_first = calloc((size_t)np + 2, sizeof *a->dag_first);
	size_t ne = 0;
	for (uint32_t r = 0; r < size && !rc; r++)
		ne += count[r] / sizeof *pq;
	a->dag_succ = malloc((ne + 1) * sizeof *a->dag_succ);
	if (!rc && (!a->dag_first || !a->dag_succ))
		rc = ERR_NOMEM;
	const struct dpair *g = all;
	for (size_t i = 0; i < ne && !rc; i++) {
		a->dag_first[g[i].a + 1]++;
		a->dag_succ[i] = g[i].b;
	}
	for (uint32_t p = 0; p < np && !rc; p++)
		a->dag_first[p + 1] += a->dag_first[p];
	free(all);
	free(count);
	return dcomm_agree(x->c, rc);
}

/* Partition p's counts from one rank: its lops, communication lops and
 * timelines with communication lops; the smallest user phase of its
 * communication lops, and the region that opened it at the first lop
 * with it (lop: the first lop the record covers). */
struct dcount {
	uint32_t p, lops, comm, ranks, phase, region, lop;
};

static int
count_by_p(const void *x, const void *y)
{
	const struct dcount *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->lop > b->lop) - (a->lop < b->lop);
}

/* Adds y to x; y's lops come after x's. */
static void
count_add(struct dcount *x, const struct dcount *y)
{
	x->lops += y->lops;
	x->comm += y->comm;
	x->ranks += y->ranks;
	if (y->phase < x->phase) {
		x->phase = y->phase;
		x->region = y->region;
	}
}

/* This rank's counts, one record per partition it has lops of. */
static int
local_counts(const struct analysis *a, struct dcount **out, size_t *n_out)
{
	size_t n = 0, cap = 0;
	struct dcount *v = NULL;
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		/* a timeline's runs of lops of one partition, then summed per
		 * partition */
		size_t from = n;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			if (a->lop_part[l] == TRACE_NONE)
				continue;
			int comm = a->lop_kind[l] != OP_COMPUTE;
			struct dcount c = {
				a->lop_part[l], 1, (uint32_t)comm, 0,
				comm && a->lop_phase ? a->lop_phase[l] : TRACE_NONE,
				comm && a->lop_phase ? a->lop_phase_region[l] : TRACE_NONE, l,
			};
			if (n > from && v[n - 1].p == c.p) {
				count_add(&v[n - 1], &c);
				continue;
			}
			if (VEC_GROW(v, n, cap)) {
				free(v);
				return ERR_NOMEM;
			}
			v[n++] = c;
		}
		if (n - from > 1)
			qsort(v + from, n - from, sizeof *v, count_by_p);
		size_t k = from;
		for (size_t i = from; i < n; i++) {
			if (i > from && v[i].p == v[k - 1].p)
				count_add(&v[k - 1], &v[i]);
			else
				v[k++] = v[i];
		}
		for (size_t i = from; i < k; i++)
			v[i].ranks = v[i].comm > 0;
		n = k;
	}
	*out = v;
	*n_out = n;
	return 0;
}

/* Every partition's counts on every rank (a->parts, leaps set). */
static int
gather_counts(struct dctx *x, const uint32_t *own)
{
	struct analysis *a = x->a;
	uint32_t size = x->c->size, me = x->c->rank;
	struct dcount *v = NULL;
	size_t n = 0;
	int rc = local_counts(a, &v, &n);
	uint32_t *dest = malloc((n + 1) * sizeof *dest);
	if (!rc && !dest)
		rc = ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++)
		dest[i] = dx_owner(own, size, v[i].p);
	struct dcount *got = NULL;
	size_t n_got = 0;
	rc = dx_send(x->c, rc, v, rc ? 0 : n, sizeof *v, dest, (void **)&got, &n_got, NULL);
	free(v);
	free(dest);
	/* the owner sums its run */
	uint32_t lo = own[me], len = own[me + 1] - own[me];
	struct dcount *sum = calloc((size_t)len + 1, sizeof *sum);
	if (!rc && !sum)
		rc = ERR_NOMEM;
	for (uint32_t i = 0; i < len && !rc; i++)
		sum[i].phase = sum[i].region = TRACE_NONE;
	/* in rank order, each rank's in lop order: in lop order */
	for (size_t i = 0; i < n_got && !rc; i++)
		count_add(&sum[got[i].p - lo], &got[i]);
	free(got);
	uint64_t *count = malloc(size * sizeof *count);
	if ((rc = dcomm_agree(x->c, rc ? rc : count ? 0 : ERR_NOMEM))) {
		free(sum);
		free(count);
		return rc;
	}
	void *all = NULL;
	rc = dcomm_allgatherv(x->c, sum, (uint64_t)len * sizeof *sum, &all, count);
	free(sum);
	const struct dcount *s = all;
	for (uint32_t p = 0; p < a->n_parts && !rc; p++) {
		struct analysis_part *P = &a->parts[p];
		part_clear(P);
		P->lop_count = s[p].lops;
		P->comm_count = s[p].comm;
		P->ranks = s[p].ranks;
		P->phase = s[p].phase;
		P->phase_region = s[p].region;
	}
	free(all);
	free(count);
	return dcomm_agree(x->c, rc);
}

/* The partitions of a cycle as one: ids in order of each component's
 * smallest, comp[] renamed in place; the rank's lops relabelled. */
static uint32_t
merge_cycles(struct analysis *a, uint32_t *comp, uint32_t *first, uint32_t ncomp)
{
	uint32_t n = 0;
	for (uint32_t c = 0; c < ncomp; c++)
		first[c] = TRACE_NONE;
	for (uint32_t p = 0; p < a->n_parts; p++) {
		if (first[comp[p]] == TRACE_NONE)
			first[comp[p]] = n++;
		comp[p] = first[comp[p]];
	}
	for (uint32_t l = 0; l < a->n_lops; l++)
		if (a->lop_kind[l] != OP_COMPUTE)
			a->lop_part[l] = comp[a->lop_part[l]];
	return n;
}

int
dist_finalize(struct dctx *x, uint32_t np)
{
	struct analysis *a = x->a;
	uint32_t size = x->c->size;
	uint32_t *own = malloc(((size_t)size + 1) * sizeof *own);
	int rc = dcomm_agree(x->c, own ? 0 : ERR_NOMEM);
	while (!rc) {
		lops_attach_computation(a, 0, a->n_lops);
		a->n_parts = np;
		owner_runs(np, size, own);
		if ((rc = gather_graph(x, own)))
			break;
		uint32_t *comp = malloc(((size_t)np + 1) * sizeof *comp);
		uint32_t *first = malloc(((size_t)np + 1) * sizeof *first);
		int64_t ncomp = comp && first ? tarjan(np, a->dag_first, a->dag_succ, comp) : ERR_NOMEM;
		rc = dcomm_agree(x->c, ncomp < 0 ? (int)ncomp : 0);
		if (!rc && (uint32_t)ncomp < np)
			np = merge_cycles(a, comp, first, (uint32_t)ncomp);
		free(comp);
		free(first);
		if (!rc && np == a->n_parts)
			break;
	}
	free(own);
	if (rc)
		return rc;
	own = malloc(((size_t)size + 1) * sizeof *own);
	free(a->parts);
	a->parts = calloc((size_t)np + 1, sizeof *a->parts);
	rc = own && a->parts ? partition_order(a) : ERR_NOMEM;
	if ((rc = dcomm_agree(x->c, rc))) {
		free(own);
		return rc;
	}
	owner_runs(np, size, own);
	rc = gather_counts(x, own);
	free(own);
	return rc;
}
