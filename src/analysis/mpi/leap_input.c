/* leap_input.c — what the leap merge reads of an analysis's partitions
 * (leap.h), and the serial leap merge: records and edges from the whole
 * analysis, leap_run, and the merged sets handed to the lops.
 */
#include "leap.h"
#include "stages.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "base/vec.h"

/* The gaps around record x, on a timeline whose lops are [first, end)
 * (local ids). */
static void
rec_gaps(const struct analysis *a, struct leap_rec *x, uint32_t first, uint32_t end)
{
	uint32_t f = x->lo;
	if (a->lop_kind[f] == OP_COMPUTE)
		f++;
	x->in_part = x->out_part = TRACE_NONE;
	x->in_gap = x->out_gap = 0;
	if (f < end && f >= first + 2) {
		uint64_t en = lop_enter(a, f), ex = lop_exit(a, f - 2);
		x->in_part = a->lop_part[f - 2];
		x->in_gap = en > ex ? en - ex : 0;
	}
	if (x->hi + 2 < end) {
		uint64_t en = lop_enter(a, x->hi + 2), ex = lop_exit(a, x->hi);
		x->out_part = a->lop_part[x->hi + 2];
		x->out_gap = en > ex ? en - ex : 0;
	}
}

int
leap_records(const struct analysis *a, uint32_t lop_off, uint32_t *stamp, uint32_t *slot,
	     struct leap_rec **out, size_t *n_out)
{
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	struct leap_rec *v = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t p = 0; p < a->n_parts; p++)
		stamp[p] = TRACE_NONE;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t first = a->tl_lop[tl], end = a->tl_lop[tl + 1];
		size_t n0 = n;
		for (uint32_t l = first; l < end; l++) {
			uint32_t p = a->lop_part[l];
			if (p == TRACE_NONE)
				continue;
			if (stamp[p] != tl) {
				if (VEC_GROW(v, n, cap)) {
					free(v);
					return ERR_NOMEM;
				}
				stamp[p] = tl;
				slot[p] = (uint32_t)(n - n0);
				v[n++] = (struct leap_rec){ .part = p, .tl = tl, .lo = l };
			}
			struct leap_rec *x = &v[n0 + slot[p]];
			x->hi = l;
			if (a->lop_kind[l] != OP_COMPUTE)
				x->tl |= LEAP_COMM;
		}
		for (size_t i = n0; i < n; i++) {
			rec_gaps(a, &v[i], first, end);
			v[i].lo += lop_off;
			v[i].hi += lop_off;
		}
	}
	*out = v;
	*n_out = n;
	return 0;
}

uint32_t
leap_active(const struct analysis *a)
{
	uint32_t n_tl, n = 0;
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++)
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++)
			if (a->lop_kind[l] != OP_COMPUTE) {
				n++;
				break;
			}
	return n;
}

int
leap_group(struct leap_rec *recs, size_t n, uint32_t n_parts, struct leap_rec **out,
	   uint32_t **first)
{
	uint32_t *f = calloc((size_t)n_parts + 2, sizeof *f);
	struct leap_rec *g = malloc((n + 1) * sizeof *g);
	*out = g;
	*first = f;
	if (!f || !g) {
		free(recs);
		return ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		f[recs[i].part + 2]++;
	for (uint32_t p = 0; p < n_parts; p++)
		f[p + 2] += f[p + 1];
	/* f[p + 1]: where partition p's next record goes */
	for (size_t i = 0; i < n; i++)
		g[f[recs[i].part + 1]++] = recs[i];
	free(recs);
	return 0;
}

struct edge_fill {
	struct leap_edge *e;
	uint32_t n, cap;
};

static void
add_edge(void *ctx, uint32_t p, uint32_t q, uint32_t l)
{
	struct edge_fill *f = ctx;
	if (f->n < f->cap)    /* the DAG's edge count: always room */
		f->e[f->n++] = (struct leap_edge){ p, q, l };
}

/* The merged sets into the lops: the partitions finalized again. */
static int
apply(struct analysis *a, const uint32_t *root)
{
	struct uf u = { 0 };
	int rc = partition_to_uf(a, &u);
	for (uint32_t b = 0; !rc && b < a->n_parts; b++)
		if (root[b] != b)
			uf_union(&u, part_first_comm(a, root[b]), part_first_comm(a, b));
	if (!rc)
		rc = partition_finalize(a, &u);
	uf_fini(&u);
	return rc;
}

int
partition_leap_merge(struct analysis *a)
{
	uint32_t np = a->n_parts, ne = a->dag_first[np];
	uint32_t *stamp = malloc(((size_t)np + 1) * sizeof *stamp);
	uint32_t *slot = malloc(((size_t)np + 1) * sizeof *slot);
	uint32_t *root = malloc(((size_t)np + 1) * sizeof *root);
	struct edge_fill f = { malloc(((size_t)ne + 1) * sizeof *f.e), 0, ne };
	struct leap_rec *recs = NULL, *grouped = NULL;
	uint32_t *first = NULL;
	size_t n = 0;
	int rc = stamp && slot && root && f.e ? 0 : ERR_NOMEM;
	if (!rc)
		rc = leap_records(a, 0, stamp, slot, &recs, &n);
	if (!rc)
		rc = leap_group(recs, n, np, &grouped, &first);
	if (!rc)
		part_edges(a, stamp, add_edge, &f);
	struct leap_in in = {
		.n_parts = np, .rec_first = first, .recs = grouped, .edges = f.e, .n_edges = f.n,
		.factor = a->opts.leap_factor, .force = a->opts.leap_force,
		.progress = a->progress, .ud = a->ud,
	};
	trace_timelines(a->t, &in.n_timelines);
	in.n_active = leap_active(a);
	struct leap_out out = { .root = root };
	if (!rc)
		rc = leap_run(&in, &out);
	free(stamp);
	free(slot);
	free(f.e);
	free(grouped);
	free(first);
	if (!rc && out.merged)
		rc = apply(a, root);
	free(root);
	if (!rc) {
		a->stats.leaps = out.leaps;
		a->stats.incomplete_leaps += out.incomplete;
	}
	return rc;
}
