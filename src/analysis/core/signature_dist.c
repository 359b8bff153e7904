/* dist_sign.c — partition signatures and their sequence in a distributed
 * analysis (signature.h): each rank hashes its own communication lops as
 * signature.c does — a received message's sender and tag told by the
 * sender's rank — and sends each hash, with its lop and timeline, to the
 * rank holding its partition (rank r: partitions [n_parts·r/size,
 * n_parts·(r+1)/size)), which folds them in lop order, the order of the
 * serial walk; the signatures are then gathered on every rank (eight
 * bytes a partition). */
#include "signature.h"

#include <stdlib.h>
#include <string.h>

#include "analysis_impl.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "model/trace_impl.h"

/* A received message's sender and tag, from the sender's rank. */
struct peer {
	uint32_t msg, sender, tag, pad;
};

/* One lop's part of its partition's signature. */
struct part_hash {
	uint32_t part, lop, tl, pad;
	uint64_t h;
};

static int
cmp_part_hash(const void *x, const void *y)
{
	const struct part_hash *a = x, *b = y;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return (a->lop > b->lop) - (a->lop < b->lop);
}

/* The senders and tags of the messages this rank receives: its lone
 * receives' own, the others' from their senders' ranks; sorted. */
static int
peers(const struct analysis *a, struct peer **out, size_t *n_out)
{
	struct dcomm *c = a->dc;
	const struct dmodel *d = a->dm;
	const struct trace_msg *msgs = d->t->msgs;
	uint32_t *tl_first = calloc(c->size + 1, sizeof *tl_first);
	int rc = dcomm_agree(c, tl_first ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_firsts(c, d->tl_lo, (uint32_t)d->t->n_timelines, tl_first);
	struct peer *s = rc ? NULL : malloc(((size_t)d->sends.n + 1) * sizeof *s);
	uint32_t *to = rc ? NULL : malloc(((size_t)d->sends.n + 1) * sizeof *to);
	rc = rc ? rc : dcomm_agree(c, s && to ? 0 : ERR_NOMEM);
	size_t k = 0;
	for (uint32_t i = 0; i < d->sends.n && !rc; i++) {
		if (msgs[i].recv_op == TRACE_NONE)
			continue;
		s[k] = (struct peer){ d->sends.off + i, msgs[i].sender, msgs[i].tag, 0 };
		to[k++] = dmodel_rank_of(tl_first, c->size, msgs[i].receiver);
	}
	void *recv = NULL;
	size_t n = 0;
	if (!rc)
		rc = dcomm_exchange(c, s, k, sizeof *s, to, &recv, &n);
	free(s);
	free(to);
	free(tl_first);
	struct peer *p = rc ? NULL : realloc(recv, (n + d->n_lone + 1) * sizeof *p);
	rc = rc ? rc : dcomm_agree(c, p ? 0 : ERR_NOMEM);
	if (rc) {
		free(recv);
		return rc;
	}
	for (uint32_t i = 0; i < d->n_lone; i++) {
		const struct trace_msg *m = &msgs[d->sends.n + i];
		p[n++] = (struct peer){ d->lone_id[i], m->sender, m->tag, 0 };
	}
	qsort(p, n, sizeof *p, vec_cmp_u32);
	*out = p;
	*n_out = n;
	return 0;
}

static const struct peer *
peer_of(const struct peer *p, size_t n, uint32_t msg)
{
	size_t i = vec_find_u32(p, n, sizeof *p, msg);
	return i < n ? &p[i] : NULL;
}

/* The hash of local lop l, as signature.c's lop_hash. */
static uint64_t
lop_hash(const struct analysis *a, const struct peer *p, size_t np, uint32_t l, uint64_t region)
{
	const struct dmodel *d = a->dm;
	const struct trace_msg *msgs = d->t->msgs;
	const struct trace_coll *colls = d->t->colls;
	uint64_t ends = 0;
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		uint32_t x = 0, y = 0, id = e[i].id;
		if (e[i].role == END_SEND && id - d->sends.off < d->sends.n) {
			x = msgs[id - d->sends.off].receiver;
			y = msgs[id - d->sends.off].tag;
		} else if (e[i].role == END_RECV) {
			const struct peer *q = peer_of(p, np, id);
			x = q ? q->sender : 0;
			y = q ? q->tag : 0;
		} else if (e[i].role == END_COLL) {
			x = colls[id].type;
			y = colls[id].root;
		}
		ends += signature_end(e[i].role, x, y);
	}
	return hash_mix(signature_lop_head(a->lop_kind[l], region), ends);
}

static int
cmp_part_value(const void *x, const void *y)
{
	const struct part_hash *a = x, *b = y;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	return (a->h > b->h) - (a->h < b->h);
}

/* The shapes (signature.h): each rank sends the (kind, region) pair of
 * every lop to its partition's owner, which keeps each pair once and
 * folds them as signature_parts does, then every rank gets them all. */
static int
shape_parts(const struct analysis *a, uint64_t *sig)
{
	struct dcomm *c = a->dc;
	uint32_t np = a->n_parts, n_reg, n = c->size;
	trace_regions(a->t, &n_reg);
	uint64_t *rh = malloc(((size_t)n_reg + 1) * sizeof *rh);
	struct part_hash *h = malloc(((size_t)a->n_lops + 1) * sizeof *h);
	uint32_t *to = malloc(((size_t)a->n_lops + 1) * sizeof *to);
	int rc = dcomm_agree(c, rh && h && to ? 0 : ERR_NOMEM);
	for (uint32_t r = 0; r < n_reg && !rc; r++)
		rh[r] = signature_region_hash(a->t, r);
	size_t k = 0;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t part = a->lop_part[l], reg = analysis_lop_region(a, l);
		if (part == TRACE_NONE || a->lop_kind[l] == OP_COMPUTE)
			continue;
		uint64_t v = hash_mix(hash_mix(HASH_SEED, a->lop_kind[l]), reg < n_reg ? rh[reg] : 0);
		h[k] = (struct part_hash){ part, 0, 0, 0, v };
		to[k++] = dcomm_even_owner(part, np, n);
	}
	void *recv = NULL;
	size_t n_recv = 0;
	if (!rc)
		rc = dcomm_exchange(c, h, k, sizeof *h, to, &recv, &n_recv);
	free(rh);
	free(h);
	free(to);
	uint32_t p0 = (uint32_t)((uint64_t)np * c->rank / n), p1 = (uint32_t)((uint64_t)np * (c->rank + 1) / n);
	uint64_t *mine = rc ? NULL : calloc((size_t)(p1 - p0) + 1, sizeof *mine);
	rc = rc ? rc : dcomm_agree(c, mine ? 0 : ERR_NOMEM);
	struct part_hash *x = recv;
	if (!rc && n_recv > 1)
		qsort(x, n_recv, sizeof *x, cmp_part_value);
	for (size_t i = 0; i < n_recv && !rc; i++)
		if (i == 0 || x[i].part != x[i - 1].part || x[i].h != x[i - 1].h)
			mine[x[i].part - p0] ^= x[i].h;
	free(recv);
	if (!rc)
		rc = dcomm_gather_runs(c, mine, p1 - p0, sizeof *mine, sig, np);
	free(mine);
	return rc;
}

int
dist_signature_parts(const struct analysis *a, int shape, uint64_t *sig)
{
	struct dcomm *c = a->dc;
	const struct trace *t = a->t;
	uint32_t np = a->n_parts, n_reg, n = c->size;
	if (shape)
		return shape_parts(a, sig);
	trace_regions(t, &n_reg);
	struct peer *p = NULL;
	size_t n_peer = 0;
	int rc = peers(a, &p, &n_peer);
	uint64_t *rh = rc ? NULL : malloc(((size_t)n_reg + 1) * sizeof *rh);
	struct part_hash *h = rc ? NULL : malloc(((size_t)a->n_lops + 1) * sizeof *h);
	uint32_t *to = rc ? NULL : malloc(((size_t)a->n_lops + 1) * sizeof *to);
	rc = rc ? rc : dcomm_agree(c, rh && h && to ? 0 : ERR_NOMEM);
	for (uint32_t r = 0; r < n_reg && !rc; r++)
		rh[r] = signature_region_hash(t, r);
	size_t k = 0;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t part = a->lop_part[l];
		if (part == TRACE_NONE || a->lop_kind[l] == OP_COMPUTE)
			continue;
		uint32_t reg = analysis_lop_region(a, l);
		h[k] = (struct part_hash){ part, a->lop_off + l, a->lop_tl[l], 0,
					   lop_hash(a, p, n_peer, l, reg < n_reg ? rh[reg] : 0) };
		to[k++] = dcomm_even_owner(part, np, n);
	}
	void *recv = NULL;
	size_t n_recv = 0;
	if (!rc)
		rc = dcomm_exchange(c, h, k, sizeof *h, to, &recv, &n_recv);
	free(p);
	free(rh);
	free(h);
	free(to);
	/* the partitions held here, folded in lop order */
	uint32_t p0 = (uint32_t)((uint64_t)np * c->rank / n), p1 = (uint32_t)((uint64_t)np * (c->rank + 1) / n);
	uint64_t *mine = rc ? NULL : malloc(((size_t)(p1 - p0) + 1) * sizeof *mine);
	uint32_t *last = rc ? NULL : malloc(((size_t)(p1 - p0) + 1) * sizeof *last);
	rc = rc ? rc : dcomm_agree(c, mine && last ? 0 : ERR_NOMEM);
	struct part_hash *x = recv;
	if (!rc && n_recv > 1)
		qsort(x, n_recv, sizeof *x, cmp_part_hash);
	for (uint32_t q = 0; q < p1 - p0 && !rc; q++) {
		mine[q] = hash_mix(HASH_SEED, 0x5167);
		last[q] = TRACE_NONE;
	}
	for (size_t i = 0; i < n_recv && !rc; i++) {
		uint32_t q = x[i].part - p0;
		if (last[q] != x[i].tl)
			mine[q] = hash_mix(mine[q], 0x100000000ull | x[i].tl);
		last[q] = x[i].tl;
		mine[q] = hash_mix(mine[q], x[i].h);
	}
	free(recv);
	free(last);
	if (!rc)
		rc = dcomm_gather_runs(c, mine, p1 - p0, sizeof *mine, sig, np);
	free(mine);
	return rc;
}

int
dist_signature_sequence(const struct analysis *a, uint32_t *order)
{
	struct dcomm *c = a->dc;
	uint32_t np = a->n_parts;
	/* each partition's lowest rank: its first lop's, the least timeline
	 * of its lops */
	uint64_t *low = malloc(((size_t)np + 1) * sizeof *low);
	int rc = dcomm_agree(c, low ? 0 : ERR_NOMEM);
	for (uint32_t p = 0; p < np && !rc; p++)
		low[p] = UINT32_MAX;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = a->lop_part[l];
		if (p != TRACE_NONE && a->lop_tl[l] < low[p])
			low[p] = a->lop_tl[l];
	}
	if (!rc)
		rc = dcomm_reduce(c, low, np, DCOMM_MIN);
	if (!rc)
		rc = signature_order(a, low, order);
	free(low);
	return rc;
}
