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
 *  3. the pairs, each rank's without repeats, go to rank 0 (the hub),
 *     which unites them: the fragments of the sets that cross ranks, at
 *     most one per set and rank, never a lop that links nothing;
 *  4. the sets are counted as the ranks' local sets less the hub's unions;
 *     for numbering, the hub tells each rank which of its roots are not
 *     their set's first lop (and which lop is), each rank numbers the sets
 *     whose first lop it holds (after an exscan of their counts: sets in
 *     order of their first lop, as number_partitions numbers them), and
 *     asks the holder of the first lop for the others' numbers.
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

static int
u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static uint32_t
index_of(const uint32_t *v, size_t n, uint32_t id)
{
	const uint32_t *p = bsearch(&id, v, n, sizeof *v, u32_cmp);
	return p ? (uint32_t)(p - v) : TRACE_NONE;
}

/* The endpoints of p[0 .. *n), sorted without repeats, into *node (*nn
 * of them) and u over their indices with every pair united; p keeps only
 * the pairs that joined two sets (a spanning forest: the same sets), *n
 * of them. An index's root is the smallest of its set: its first lop. */
static int
unite_pairs(struct dpair *p, size_t *n, uint32_t **node, size_t *nn, struct uf *u)
{
	uint32_t *v = malloc((2 * *n + 1) * sizeof *v);
	size_t k = 0, m = 0;
	*node = v;
	*nn = 0;
	if (!v || uf_init(u, (uint32_t)(2 * *n)))
		return ERR_NOMEM;
	for (size_t i = 0; i < *n; i++) {
		v[m++] = p[i].a;
		v[m++] = p[i].b;
	}
	if (m) {
		qsort(v, m, sizeof *v, u32_cmp);
		for (size_t i = 1; i < m; i++)
			if (v[i] != v[k])
				v[++k] = v[i];
		m = k + 1;
	}
	k = 0;
	for (size_t i = 0; i < *n; i++)
		if (uf_union(u, index_of(v, m, p[i].a), index_of(v, m, p[i].b)))
			p[k++] = p[i];
	*n = k;
	*nn = m;
	return 0;
}

/* 3: the hub unites the pairs (rank 0 holds them; the others n = 0).
 * *merged: its unions; with heads, *out gets the pairs (root, its set's
 * first lop) for every root of this rank that is not that lop. */
static int
hub(struct dctx *x, int rc, struct dpair *p, size_t n, uint32_t *merged, int heads,
    struct dpair **out, size_t *n_out)
{
	uint32_t *node = NULL;
	size_t nn = 0, nr = 0;
	struct uf u = { 0 };
	if (!rc)
		rc = unite_pairs(p, &n, &node, &nn, &u);
	*merged = (uint32_t)n;
	struct dpair *rep = NULL;
	uint32_t *dest = NULL;
	if (!rc && heads) {
		rep = malloc((nn + 1) * sizeof *rep);
		dest = malloc((nn + 1) * sizeof *dest);
		rc = rep && dest ? 0 : ERR_NOMEM;
		for (size_t i = 0; i < nn && !rc; i++) {
			uint32_t r = uf_find(&u, (uint32_t)i);
			if (r == i)
				continue;
			rep[nr] = (struct dpair){ node[i], node[r] };
			dest[nr++] = dx_owner(x->lop_first, x->c->size, node[i]);
		}
	}
	uf_fini(&u);
	free(node);
	if (heads)
		rc = dx_send(x->c, rc, rep, nr, sizeof *rep, dest, (void **)out, n_out, NULL);
	free(rep);
	free(dest);
	return rc;
}

/* 4: lop_part of each communication lop: its set's number. */
static int
number_sets(struct dctx *x, struct uf *u, struct dpair *far, size_t n_far)
{
	struct analysis *a = x->a;
	/* far: (a root here, its set's first lop elsewhere or here) */
	dx_pairs_unique(far, &n_far);
	uint32_t n = a->n_lops, heads = 0, n_req = (uint32_t)n_far;
	for (uint32_t l = 0; l < n; l++)
		a->lop_part[l] = TRACE_NONE;
	for (size_t j = 0; j < n_far; j++)
		a->lop_part[far[j].a - x->lop_off] = TRACE_NONE - 1;
	for (uint32_t l = 0; l < n; l++)
		heads += a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l &&
			 a->lop_part[l] == TRACE_NONE;
	uint64_t base = heads;
	int rc = dcomm_exscan(x->c, &base, 1);
	/* requests: (a set's first lop, the asking rank) */
	struct dpair *req = malloc(((size_t)n_req + 1) * sizeof *req);
	uint32_t *dest = malloc(((size_t)n_req + 1) * sizeof *dest);
	uint32_t *at = malloc(((size_t)n_req + 1) * sizeof *at);
	if (!rc && (!req || !dest || !at))
		rc = ERR_NOMEM;
	uint32_t id = (uint32_t)base;
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l && a->lop_part[l] == TRACE_NONE)
			a->lop_part[l] = id++;
	/* far[] holds the other roots, one each, in lop order */
	for (uint32_t j = 0; j < n_req && !rc; j++) {
		req[j] = (struct dpair){ far[j].b, x->c->rank };
		dest[j] = dx_owner(x->lop_first, x->c->size, far[j].b);
	}
	/* the holders of first lops say their sets' numbers, in the order
	 * asked */
	struct dpair *got = NULL;
	size_t n_got = 0;
	rc = dx_send(x->c, rc, req, rc ? 0 : n_req, sizeof *req, dest, (void **)&got, &n_got, at);
	uint32_t *to = rc ? NULL : malloc((n_got + 1) * sizeof *to);
	if (!rc && !to)
		rc = ERR_NOMEM;
	for (size_t j = 0; j < n_got && !rc; j++) {
		uint32_t l = got[j].a - x->lop_off;
		to[j] = got[j].b;
		got[j].a = l < n ? a->lop_part[l] : TRACE_NONE;
	}
	struct dpair *ans = NULL;
	size_t n_ans = 0;
	rc = dx_send(x->c, rc, got, rc ? 0 : n_got, sizeof *got, to, (void **)&ans, &n_ans, NULL);
	for (uint32_t l = 0, j = 0; l < n && !rc; l++)
		if (a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l &&
		    a->lop_part[l] == TRACE_NONE - 1)
			a->lop_part[l] = ans[at[j++]].a;
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_kind[l] != OP_COMPUTE)
			a->lop_part[l] = a->lop_part[uf_find(u, l)];
	free(req);
	free(dest);
	free(at);
	free(to);
	free(got);
	free(ans);
	return rc;
}

int
dist_sets(struct dctx *x, struct uf *u, int waitall, int roots, uint32_t *sets)
{
	struct dpair *pairs = NULL, *far = NULL;
	size_t np = 0, cap = 0, n_far = 0;
	int rc = far_links(x, u, waitall, &pairs, &np, &cap);
	rc = group_links(x, u, rc, &pairs, &np, &cap);
	/* only a spanning forest of the rank's pairs goes to the hub */
	uint32_t *node = NULL;
	size_t nn;
	struct uf f = { 0 };
	if (!rc)
		rc = unite_pairs(pairs, &np, &node, &nn, &f);
	uf_fini(&f);
	free(node);
	uint32_t *to_hub = calloc(np + 1, sizeof *to_hub);
	struct dpair *at_hub = NULL;
	size_t n_hub = 0;
	if (!rc && !to_hub)
		rc = ERR_NOMEM;
	rc = dx_send(x->c, rc, pairs, np, sizeof *pairs, to_hub, (void **)&at_hub, &n_hub, NULL);
	free(pairs);
	free(to_hub);
	uint32_t merged = 0;
	rc = hub(x, rc, at_hub, n_hub, &merged, roots, &far, &n_far);
	free(at_hub);
	uint64_t v[2] = { 0, merged };
	for (uint32_t l = 0; l < x->a->n_lops && !rc; l++)
		v[0] += x->a->lop_kind[l] != OP_COMPUTE && uf_find(u, l) == l;
	if ((rc = dcomm_agree(x->c, rc)) || (rc = dcomm_reduce(x->c, v, 2, DCOMM_SUM))) {
		free(far);
		return rc;
	}
	*sets = (uint32_t)(v[0] - v[1]);
	if (roots)
		rc = number_sets(x, u, far, n_far);
	free(far);
	return rc;
}
