/* dist_union.c — global sets of communication lops from each rank's local
 * ones (dist_impl.h).
 *
 * Each rank has united what it sees alone: messages with both ends on
 * its timelines, its members of each collective, its Waitall merges and
 * caller merges. What is left is the links between sets of different
 * ranks, and only those travel, as pairs of set roots (global lop ids):
 *
 *  1. a message (or a Waitall link) whose other end is elsewhere: the
 *     sender sends (that op, its set's root) to the op's rank, which
 *     answers with a pair of roots;
 *  2. a collective with members on several ranks: each sends (the
 *     collective, its members' root) to the collective's owner (id mod
 *     ranks), which chains the roots it gets into pairs; a user phase
 *     likewise (all lops of phase k start in one set);
 *  3. each rank's pairs, a spanning forest of them, are the edges of a
 *     graph whose components are the sets that cross ranks; they are
 *     found with no rank holding more than its share (dist_cc.c);
 *  4. the sets are counted as the ranks' local sets less the nodes of
 *     that graph plus its components; each rank numbers the sets whose
 *     first lop it holds (after an exscan of their counts: sets in order
 *     of their first lop, as number_partitions numbers them), and a
 *     set's number goes to its other roots by way of its component's
 *     root.
 */
#include "dist_impl.h"

#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* The global root of local lop l's set. */
static uint32_t
root_of(struct dctx *x, struct uf *u, uint32_t l)
{
	return x->lop_off + uf_find(u, l);
}

/* The local lop of a global op of this rank, or TRACE_NONE. */
static uint32_t
lop_of_op(const struct dctx *x, uint32_t op)
{
	uint32_t lo = dmodel_op_local(x->d, op);
	return lo == TRACE_NONE ? TRACE_NONE : x->a->op_lop[lo];
}

static int
add_pair(struct dpair **v, size_t *n, size_t *cap, uint32_t p, uint32_t q)
{
	if (p == q)
		return 0;
	if (VEC_GROW(*v, *n, *cap))
		return ERR_NOMEM;
	(*v)[(*n)++] = p < q ? (struct dpair){ p, q } : (struct dpair){ q, p };
	return 0;
}

/* 1: pairs of roots from links whose far end is this rank's. */
static int
far_links(struct dctx *x, struct uf *u, int waitall, struct dpair **pairs, size_t *np, size_t *cap)
{
	const struct dmodel *d = x->d;
	struct analysis *a = x->a;
	const struct trace_msg *msgs = a->msgs;
	size_t n = 0;
	int rc = 0;
	struct dpair *link = malloc((2 * (size_t)d->sends.n + 1) * sizeof *link);
	uint32_t *dest = malloc((2 * (size_t)d->sends.n + 1) * sizeof *dest);
	if (!link || !dest)
		rc = ERR_NOMEM;
	for (uint32_t i = 0; i < d->sends.n && !rc; i++) {
		const struct trace_msg *m = &msgs[i];
		uint32_t far[2] = { TRACE_NONE, TRACE_NONE };
		if (msg_ok(a, i) && dmodel_op_local(d, m->recv_op) == TRACE_NONE)
			far[0] = m->recv_op;
		if (waitall && m->send_done_op != TRACE_NONE && m->send_done_op != m->send_op &&
		    dmodel_op_local(d, m->send_done_op) == TRACE_NONE)
			far[1] = m->send_done_op;
		for (int k = 0; k < 2; k++) {
			if (far[k] == TRACE_NONE)
				continue;
			link[n] = (struct dpair){ far[k], root_of(x, u, lop_of_op(x, m->send_op)) };
			dest[n++] = dx_owner(x->op_first, x->c->size, far[k]);
		}
	}
	struct dpair *got;
	size_t n_got;
	rc = dx_send(x->c, rc, link, n, sizeof *link, dest, (void **)&got, &n_got, NULL);
	free(link);
	free(dest);
	for (size_t j = 0; j < n_got && !rc; j++) {
		uint32_t l = lop_of_op(x, got[j].a);
		rc = l == TRACE_NONE ? ERR_FORMAT : add_pair(pairs, np, cap, root_of(x, u, l), got[j].b);
	}
	free(got);
	return rc;
}

/* 2: pairs of roots of the ranks' members of each collective, and of
 * each user phase's lops: groups keyed by collective id, then n_colls +
 * phase. */
static int
group_links(struct dctx *x, struct uf *u, int rc, struct dpair **pairs, size_t *np, size_t *cap)
{
	const struct dmodel *d = x->d;
	const struct analysis *a = x->a;
	uint32_t nc;
	const struct trace_coll *colls = trace_colls(d->t, &nc);
	const uint32_t *members = trace_coll_members(d->t);
	size_t n = 0, room = (size_t)nc + (a->lop_phase ? a->n_lops : 0);
	struct dpair *link = malloc((room + 1) * sizeof *link);
	uint32_t *dest = malloc((room + 1) * sizeof *dest);
	if (!rc && (!link || !dest))
		rc = ERR_NOMEM;
	for (uint32_t k = 0; k < nc && !rc; k++) {
		uint32_t mine = d->coll_first[k + 1] - d->coll_first[k];
		if (!mine || mine == colls[k].member_count)
			continue;
		link[n++] = (struct dpair){ k, root_of(x, u, lop_of_op(x, members[d->coll_first[k]])) };
	}
	/* a phase's lops here are united: one link per phase */
	for (uint32_t l = 0; l < a->n_lops && a->lop_phase && !rc; l++) {
		if (a->lop_kind[l] == OP_COMPUTE)
			continue;
		if ((uint64_t)nc + a->lop_phase[l] >= TRACE_NONE)
			rc = ERR_LIMIT;
		else
			link[n++] = (struct dpair){ nc + a->lop_phase[l], root_of(x, u, l) };
	}
	if (!rc)
		dx_pairs_unique(link, &n);
	for (size_t i = 0; i < n && !rc; i++)
		dest[i] = link[i].a % x->c->size;
	struct dpair *got;
	size_t n_got;
	rc = dx_send(x->c, rc, link, rc ? 0 : n, sizeof *link, dest, (void **)&got, &n_got, NULL);
	free(link);
	free(dest);
	if (!rc) {
		dx_pairs_unique(got, &n_got);
		for (size_t j = 1; j < n_got && !rc; j++)
			if (got[j].a == got[j - 1].a)
				rc = add_pair(pairs, np, cap, got[j - 1].b, got[j].b);
	}
	free(got);
	return rc;
}

/* p[0 .. *n) cut to a spanning forest of the pairs: only those that
 * join two sets (over their endpoints) are kept, *n of them. */
static int
spanning_forest(struct dpair *p, size_t *n)
{
	uint32_t *v = malloc((2 * *n + 1) * sizeof *v);
	struct uf u = { 0 };
	size_t k = 0, m = 0;
	if (!v || uf_init(&u, (uint32_t)(2 * *n))) {
		free(v);
		return ERR_NOMEM;
	}
	for (size_t i = 0; i < *n; i++) {
		v[m++] = p[i].a;
		v[m++] = p[i].b;
	}
	if (m) {
		qsort(v, m, sizeof *v, vec_cmp_u32);
		for (size_t i = 1; i < m; i++)
			if (v[i] != v[k])
				v[++k] = v[i];
		m = k + 1;
	}
	k = 0;
	for (size_t i = 0; i < *n; i++)
		if (uf_union(&u, (uint32_t)vec_find_u32(v, m, sizeof *v, p[i].a),
			     (uint32_t)vec_find_u32(v, m, sizeof *v, p[i].b)))
			p[k++] = p[i];
	*n = k;
	uf_fini(&u);
	free(v);
	return 0;
}

/* The rank that holds global lop l. */
static uint32_t
holder(const struct dctx *x, uint32_t l)
{
	return dx_owner(x->lop_first, x->c->size, l);
}

/* Whether the lop a of each of p[0 .. n) is this rank's. */
static int
all_here(const struct dctx *x, const struct dpair *p, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (p[j].a - x->lop_off >= x->a->n_lops)
			return 0;
	return 1;
}

/* 4: lop_part of each communication lop: its set's number. cc: the
 * components of the sets that cross ranks, this rank's roots among them.
 * Numbers are given where a set's first lop is, and reach the set's
 * other roots by way of the component's root, whose rank gets on
 * average as many records as it has nodes (dist_cc.c). The first lop's
 * rank, rank 0 for as many sets as not, gets and sends one record per
 * set it heads, not one per node. */
static int
number_sets(struct dctx *x, struct uf *u, const struct dcc *cc)
{
	struct analysis *a = x->a;
	uint32_t n = a->n_lops;
	size_t m = cc->n;
	int rc = 0;
	struct dpair *rec = malloc((m + 1) * sizeof *rec);
	uint32_t *dest = malloc((m + 1) * sizeof *dest);
	if (!rec || !dest)
		rc = ERR_NOMEM;
	/* each node to its component's root: (root, node) */
	for (size_t i = 0; i < m && !rc; i++) {
		rec[i] = (struct dpair){ cc->root[i], cc->node[i] };
		dest[i] = holder(x, cc->root[i]);
	}
	struct dpair *mem = NULL, *first = NULL, *num = NULL, *got = NULL;
	size_t n_mem = 0, n_first = 0, n_num = 0, n_got = 0, k = 0;
	rc = dx_send(x->c, rc, rec, rc ? 0 : m, sizeof *rec, dest, (void **)&mem, &n_mem, NULL);
	free(rec);
	free(dest);
	/* a root's members sorted: the first is its set's first lop, told so
	 * (first lop, root) */
	rec = rc ? NULL : malloc((n_mem + 1) * sizeof *rec);
	dest = rc ? NULL : malloc((n_mem + 1) * sizeof *dest);
	if (!rc && (!rec || !dest))
		rc = ERR_NOMEM;
	if (!rc)
		dx_pairs_unique(mem, &n_mem);
	for (size_t j = 0; j < n_mem && !rc; j++)
		if (!j || mem[j].a != mem[j - 1].a) {
			rec[k] = (struct dpair){ mem[j].b, mem[j].a };
			dest[k++] = holder(x, mem[j].b);
		}
	rc = dx_send(x->c, rc, rec, rc ? 0 : k, sizeof *rec, dest, (void **)&first, &n_first, NULL);
	if (!rc && !all_here(x, first, n_first))
		rc = ERR_FORMAT;
	/* heads: the sets whose first lop is here, those that cross ranks
	 * and those that do not; the other roots wait for their number */
	for (uint32_t l = 0; l < n && !rc; l++)
		a->lop_part[l] = TRACE_NONE;
	for (size_t i = 0; i < m && !rc; i++) {
		uint32_t l = cc->node[i] - x->lop_off;
		if (l >= n)
			rc = ERR_FORMAT;
		else
			a->lop_part[l] = TRACE_NONE - 1;
	}
	for (size_t j = 0; j < n_first && !rc; j++)
		a->lop_part[first[j].a - x->lop_off] = TRACE_NONE;
	uint64_t base = 0;
	for (uint32_t l = 0; l < n && !rc; l++)
		base += a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l &&
			a->lop_part[l] == TRACE_NONE;
	if (!(rc = dcomm_agree(x->c, rc)))
		rc = dcomm_exscan(x->c, &base, 1);
	uint32_t id = (uint32_t)base;
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l && a->lop_part[l] == TRACE_NONE)
			a->lop_part[l] = id++;
	/* the numbers of the sets that cross ranks to their roots:
	 * (root, number); then from each root to its members */
	if (!rc && n_first > n_mem) {
		free(rec);
		free(dest);
		rec = malloc((n_first + 1) * sizeof *rec);
		dest = malloc((n_first + 1) * sizeof *dest);
		if (!rec || !dest)
			rc = ERR_NOMEM;
	}
	for (size_t j = 0; j < n_first && !rc; j++) {
		rec[j] = (struct dpair){ first[j].b, a->lop_part[first[j].a - x->lop_off] };
		dest[j] = holder(x, first[j].b);
	}
	rc = dx_send(x->c, rc, rec, rc ? 0 : n_first, sizeof *rec, dest, (void **)&num, &n_num, NULL);
	if (!rc)
		dx_pairs_unique(num, &n_num);
	for (size_t j = 0, r = 0; j < n_mem && !rc; j++) {
		while (r < n_num && num[r].a < mem[j].a)
			r++;
		if (r == n_num || num[r].a != mem[j].a)
			rc = ERR_FORMAT;
		else {
			rec[j] = (struct dpair){ mem[j].b, num[r].b };
			dest[j] = holder(x, mem[j].b);
		}
	}
	rc = dx_send(x->c, rc, rec, rc ? 0 : n_mem, sizeof *rec, dest, (void **)&got, &n_got, NULL);
	if (!rc && !all_here(x, got, n_got))
		rc = ERR_FORMAT;
	for (size_t j = 0; j < n_got && !rc; j++)
		a->lop_part[got[j].a - x->lop_off] = got[j].b;
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_kind[l] != OP_COMPUTE)
			a->lop_part[l] = a->lop_part[uf_find(u, l)];
	free(rec);
	free(dest);
	free(mem);
	free(first);
	free(num);
	free(got);
	return rc;
}

int
dist_sets(struct dctx *x, struct uf *u, int waitall, int roots, uint32_t *sets)
{
	struct dpair *pairs = NULL;
	size_t np = 0, cap = 0;
	int rc = far_links(x, u, waitall, &pairs, &np, &cap);
	rc = group_links(x, u, rc, &pairs, &np, &cap);
	/* only a spanning forest of the rank's pairs goes on */
	if (!rc)
		rc = spanning_forest(pairs, &np);
	struct dcc cc;
	rc = dist_components(x->c, rc, x->lop_first, pairs, rc ? 0 : np, &cc);
	free(pairs);
	uint64_t v = 0;
	for (uint32_t l = 0; l < x->a->n_lops && !rc; l++)
		v += x->a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l;
	if (!(rc = dcomm_agree(x->c, rc)) && !(rc = dcomm_reduce(x->c, &v, 1, DCOMM_SUM))) {
		/* every component of n nodes joins n local sets into one */
		*sets = (uint32_t)(v - (cc.nodes - cc.comps));
		if (roots)
			rc = number_sets(x, u, &cc);
	}
	dcc_fini(&cc);
	return rc;
}
