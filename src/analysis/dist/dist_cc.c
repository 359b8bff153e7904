/* dist_cc.c — the connected components of a graph whose edges are
 * spread over the ranks, no rank holding more than its share of them
 * (dist_impl.h).
 *
 * The nodes are global lop ids, each belonging to the rank that holds
 * the lop; any rank may give any pair. Each rank keeps a parent for each
 * of its nodes, and the components are found in rounds of hooking and
 * pointer jumping, as in Shiloach and Vishkin's algorithm:
 *
 *  - an edge is held by the owner of its end of larger priority, and
 *    both its ends are roots (their own parents);
 *  - hooking: each root with edges takes for parent the end of least
 *    priority among its edges. A parent always has less priority than
 *    its child, so the parents form a forest;
 *  - jumping: each node asks its parent's owner for the parent's parent,
 *    until every parent is a root (a star): about log2 of the trees'
 *    depth jumps, each two exchanges (the question, the answer) and a
 *    reduction;
 *  - each edge is renamed to its ends' roots (by way of the owner of
 *    its other end), dropped when they are the same, and sent to the
 *    owner of its new end of larger priority: two exchanges;
 *  - until no rank has an edge left.
 *
 * A round hooks every root that has an edge (there is one while edges
 * are left), so the roots shrink every round and the loop ends. A
 * component's root at the end is its member of least priority.
 *
 * The priority is a bijective hash of the id, not the id. By id, a
 * component's root would be its first lop; a partition that spans the
 * ranks has it on rank 0 as often as not, and in the last jumps every
 * node of every such partition would ask rank 0: as many records as the
 * old hub received. A hash makes the root a member picked as if at
 * random, so a rank is asked, on average, as often as it has nodes.
 */
#include "dist_impl.h"

#include "base/vec.h"

#include <stdlib.h>

/* A bijection of 32-bit numbers (each xor-shift and each multiplication
 * by an odd number can be undone): distinct ids, distinct priorities.
 * The constants are the "lowbias32" mixer's, from Chris Wellons' hash
 * prospector. */
static uint32_t
prio(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

/* The pair (p, q) as an edge: (end of larger priority, the other). */
static struct dpair
edge_of(uint32_t p, uint32_t q)
{
	return prio(p) > prio(q) ? (struct dpair){ p, q } : (struct dpair){ q, p };
}

struct cc {
	struct dcomm *c;
	const uint32_t *first;
	struct dcc *out;        /* node, root (the parents), n; counts */
	struct dpair *edge;     /* (a, b): a this rank's, b its other end */
	size_t ne;
};

static uint32_t
owner(const struct cc *k, uint32_t v)
{
	return dx_owner(k->first, k->c->size, v);
}

/* The index of node v among this rank's, or TRACE_NONE. */
static uint32_t
index_of(const struct cc *k, uint32_t v)
{
	size_t i = vec_find_u32(k->out->node, k->out->n, sizeof *k->out->node, v);
	return i < k->out->n ? (uint32_t)i : TRACE_NONE;
}

/* dx_send, counted in the statistics. */
static int
send(struct cc *k, int rc, const void *rec, size_t n, size_t size, const uint32_t *dest,
     void **got, size_t *n_got, uint32_t *at)
{
	rc = dx_send(k->c, rc, rec, n, size, dest, got, n_got, at);
	k->out->exchanges++;
	if (!rc && *n_got > k->out->most_in)
		k->out->most_in = *n_got;
	return rc;
}

/* ans[i] = the parent of node q[i], from its owner (q[0 .. n)). */
static int
ask_parents(struct cc *k, int rc, const uint32_t *q, size_t n, uint32_t *ans)
{
	struct dpair *req = malloc((n + 1) * sizeof *req);
	uint32_t *dest = malloc((n + 1) * sizeof *dest);
	uint32_t *at = malloc((n + 1) * sizeof *at);
	if (!rc && (!req || !dest || !at))
		rc = ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		req[i] = (struct dpair){ q[i], k->c->rank };
		dest[i] = owner(k, q[i]);
	}
	struct dpair *got = NULL;
	size_t n_got = 0;
	rc = send(k, rc, req, rc ? 0 : n, sizeof *req, dest, (void **)&got, &n_got, at);
	uint32_t *rep = rc ? NULL : malloc((n_got + 1) * sizeof *rep);
	uint32_t *to = rc ? NULL : malloc((n_got + 1) * sizeof *to);
	if (!rc && (!rep || !to))
		rc = ERR_NOMEM;
	for (size_t j = 0; j < n_got && !rc; j++) {
		uint32_t i = index_of(k, got[j].a);
		if (i == TRACE_NONE || got[j].b >= k->c->size)
			rc = ERR_FORMAT;
		else {
			rep[j] = k->out->root[i];
			to[j] = got[j].b;
		}
	}
	uint32_t *back = NULL;
	size_t n_back = 0;
	rc = send(k, rc, rep, rc ? 0 : n_got, sizeof *rep, to, (void **)&back, &n_back, NULL);
	if (!rc && n_back != n)
		rc = ERR_FORMAT;
	for (size_t i = 0; i < n && !rc; i++)
		ans[i] = back[at[i]];
	free(req);
	free(dest);
	free(at);
	free(got);
	free(rep);
	free(to);
	free(back);
	return rc;
}

/* The pairs to their ends' owners: each end becomes a node there, each
 * pair an edge at its end of larger priority. */
static int
gather(struct cc *k, int rc, const struct dpair *p, size_t n)
{
	struct dpair *rec = malloc((2 * n + 1) * sizeof *rec);
	uint32_t *dest = malloc((2 * n + 1) * sizeof *dest);
	size_t m = 0;
	if (!rc && (!rec || !dest))
		rc = ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		if (p[i].a == p[i].b)
			continue;
		struct dpair e = edge_of(p[i].a, p[i].b);
		rec[m] = e;
		dest[m++] = owner(k, e.a);
		rec[m] = (struct dpair){ e.b, e.b };
		dest[m++] = owner(k, e.b);
	}
	struct dpair *got = NULL;
	size_t n_got = 0;
	rc = send(k, rc, rec, rc ? 0 : m, sizeof *rec, dest, (void **)&got, &n_got, NULL);
	free(rec);
	free(dest);
	struct dcc *o = k->out;
	o->node = rc ? NULL : malloc((n_got + 1) * sizeof *o->node);
	o->root = rc ? NULL : malloc((n_got + 1) * sizeof *o->root);
	if (!rc && (!o->node || !o->root))
		rc = ERR_NOMEM;
	if (!rc) {
		dx_pairs_unique(got, &n_got);
		size_t ne = 0;
		for (size_t j = 0; j < n_got; j++) {
			if (!o->n || o->node[o->n - 1] != got[j].a) {
				o->node[o->n] = o->root[o->n] = got[j].a;
				o->n++;
			}
			if (got[j].a != got[j].b)
				got[ne++] = got[j];
		}
		k->edge = got;
		k->ne = ne;
	} else
		free(got);
	return rc;
}

/* Each root with edges hooks onto their end of least priority. */
static int
hook(struct cc *k)
{
	uint32_t *par = k->out->root;
	for (size_t j = 0; j < k->ne; j++) {
		uint32_t i = index_of(k, k->edge[j].a);
		if (i == TRACE_NONE)
			return ERR_FORMAT;
		if (prio(k->edge[j].b) < prio(par[i]))
			par[i] = k->edge[j].b;
	}
	return 0;
}

/* Pointer jumping until every node's parent is a root. Called after a
 * hooking, when some node has hooked: the first jump has something to
 * ask. */
static int
jump(struct cc *k, int rc)
{
	struct dcc *o = k->out;
	unsigned char *done = calloc(o->n + 1, 1);
	uint32_t *q = malloc((o->n + 1) * sizeof *q);
	uint32_t *ans = malloc((o->n + 1) * sizeof *ans);
	uint32_t *who = malloc((o->n + 1) * sizeof *who);
	if (!rc && (!done || !q || !ans || !who))
		rc = ERR_NOMEM;
	for (size_t i = 0; i < o->n && !rc; i++)
		done[i] = o->root[i] == o->node[i];
	for (uint64_t left = 1; left;) {
		size_t n = 0;
		for (size_t i = 0; i < o->n && !rc; i++)
			if (!done[i]) {
				who[n] = (uint32_t)i;
				q[n++] = o->root[i];
			}
		rc = ask_parents(k, rc, q, rc ? 0 : n, ans);
		left = 0;
		for (size_t j = 0; j < n && !rc; j++) {
			uint32_t i = who[j];
			if (ans[j] == o->root[i])
				done[i] = 1;
			else {
				o->root[i] = ans[j];
				left++;
			}
		}
		if ((rc = dcomm_agree(k->c, rc)) || (rc = dcomm_reduce(k->c, &left, 1, DCOMM_SUM)))
			break;
	}
	free(done);
	free(q);
	free(ans);
	free(who);
	return rc;
}

/* Every edge (a, b) renamed to its ends' roots: (a's root, b) goes to
 * b's owner, which puts b's root for b and, when the two differ, sends
 * the edge on to the owner of its end of larger priority. */
static int
rename_edges(struct cc *k, int rc)
{
	uint32_t *dest = malloc((k->ne + 1) * sizeof *dest);
	if (!rc && !dest)
		rc = ERR_NOMEM;
	for (size_t j = 0; j < k->ne && !rc; j++) {
		uint32_t i = index_of(k, k->edge[j].a);
		if (i == TRACE_NONE)
			rc = ERR_FORMAT;
		else {
			k->edge[j].a = k->out->root[i];
			dest[j] = owner(k, k->edge[j].b);
		}
	}
	struct dpair *got = NULL;
	size_t n_got = 0, m = 0;
	rc = send(k, rc, k->edge, rc ? 0 : k->ne, sizeof *k->edge, dest, (void **)&got, &n_got, NULL);
	free(k->edge);
	free(dest);
	k->edge = NULL;
	k->ne = 0;
	dest = rc ? NULL : malloc((n_got + 1) * sizeof *dest);
	if (!rc && !dest)
		rc = ERR_NOMEM;
	for (size_t j = 0; j < n_got && !rc; j++) {
		uint32_t i = index_of(k, got[j].b);
		if (i == TRACE_NONE)
			rc = ERR_FORMAT;
		else if (got[j].a != k->out->root[i])
			got[m++] = edge_of(got[j].a, k->out->root[i]);
	}
	if (!rc)
		dx_pairs_unique(got, &m);
	for (size_t j = 0; j < m && !rc; j++)
		dest[j] = owner(k, got[j].a);
	rc = send(k, rc, got, rc ? 0 : m, sizeof *got, dest, (void **)&k->edge, &k->ne, NULL);
	if (!rc)
		dx_pairs_unique(k->edge, &k->ne);
	free(got);
	free(dest);
	return rc;
}

int
dist_components(struct dcomm *c, int rc, const uint32_t *first, const struct dpair *p, size_t n,
		struct dcc *out)
{
	*out = (struct dcc){ 0 };
	struct cc k = { .c = c, .first = first, .out = out };
	rc = gather(&k, rc, p, n);
	for (;;) {
		uint64_t left = k.ne;
		if ((rc = dcomm_agree(c, rc)) || (rc = dcomm_reduce(c, &left, 1, DCOMM_SUM)) || !left)
			break;
		out->rounds++;
		rc = hook(&k);
		rc = jump(&k, rc);
		rc = rename_edges(&k, rc);
	}
	free(k.edge);
	uint64_t v[2] = { out->n, 0 };
	for (size_t i = 0; i < out->n && !rc; i++)
		v[1] += out->root[i] == out->node[i];
	if (!rc && !(rc = dcomm_reduce(c, v, 2, DCOMM_SUM))) {
		out->nodes = v[0];
		out->comps = v[1];
	}
	if (rc)
		dcc_fini(out);
	return rc;
}

void
dcc_fini(struct dcc *cc)
{
	free(cc->node);
	free(cc->root);
	cc->node = cc->root = NULL;
	cc->n = 0;
}
