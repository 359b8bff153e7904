/* signature.c — partition signatures and their sequence along the steps. */
#include "signature.h"

#include <stdlib.h>
#include <string.h>

#include "analysis_impl.h"
#include "base/err.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "base/par.h"

/* How many ends ahead lop_hash asks for a received message */
#define SIG_PREFETCH 16

uint64_t
signature_region_hash(const struct trace *t, uint32_t region)
{
	const struct trace_region *r = &trace_regions(t, NULL)[region];
	const char *s = trace_str(t, r->name);
	return hash_bytes(s, strlen(s));
}

/* What the ends of communication lop l add to its hash (signature.h):
 * for each the peer and tag, or the collective's type and root. The ends
 * combine as a multiset (a sum of their hashes): a Waitall records its
 * receives in completion order, which timing decides. A lop's ops' ends
 * are contiguous (lop_ends). */
static uint64_t
lop_ends_hash(const struct analysis *a, const struct trace_coll *colls, uint32_t l)
{
	uint64_t ends = 0;
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		/* a receive's message is at a random place: ask for those of
		 * the ends a few ahead (the lops that follow on the timeline) */
		size_t ahead = (size_t)(e - a->ends) + i + SIG_PREFETCH;
		if (ahead < a->n_ends && a->ends[ahead].role == END_RECV)
			__builtin_prefetch(&a->msgs[a->ends[ahead].id]);
		ends += signature_end_of(&e[i], a->msgs, colls);
	}
	return ends;
}

uint64_t *
signature_regions(const struct trace *t, uint32_t *n_reg)
{
	trace_regions(t, n_reg);
	uint64_t *rh = malloc(((size_t)*n_reg + 1) * sizeof *rh);
	for (uint32_t r = 0; rh && r < *n_reg; r++)
		rh[r] = signature_region_hash(t, r);
	return rh;
}

/* Signatures are worked out on every core, each worker for a contiguous
 * share of the partitions. Each walks all the lops in timeline order
 * (each timeline's ops and ends are read in order, not one partition's
 * 64 places at a time) and folds those of its partitions. */
struct signing {
	const struct analysis *a;
	int shape;
	uint64_t *sig;
	uint32_t *last_tl;         /* per partition: the timeline folded last */
	const uint64_t *rh;        /* each region's name hash */
	uint32_t n_reg;
	uint32_t cut[PAR_MAX + 1];
};

static int
sign_worker(void *ctx, uint32_t w, uint32_t nw)
{
	const struct signing *g = ctx;
	const struct analysis *a = g->a;
	const struct trace_coll *colls = trace_colls(a->t, NULL);
	uint32_t p0 = g->cut[w], p1 = g->cut[w + 1], n_tl;
	trace_timelines(a->t, &n_tl);
	struct hmap seen = { 0 };
	int rc = 0;
	(void)nw;
	for (uint32_t p = p0; p < p1; p++) {
		g->sig[p] = g->shape ? 0 : signature_start();
		g->last_tl[p] = TRACE_NONE;
	}
	for (uint32_t tl = 0; tl < n_tl && !rc && p0 < p1; tl++) {
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1] && !rc; l++) {
			uint32_t p = a->lop_part[l];
			if (p < p0 || p >= p1 || a->lop_kind[l] == OP_COMPUTE)
				continue;
			uint32_t reg = analysis_lop_region(a, l);
			uint64_t region = reg < g->n_reg ? g->rh[reg] : 0;
			if (g->shape) {
				/* a set of (kind, region): each pair once per partition */
				uint64_t v = hash_mix(hash_mix(HASH_SEED, a->lop_kind[l]), region);
				if (hmap_get(&seen, v, p))
					continue;
				rc = hmap_put(&seen, v, p, 1);
				g->sig[p] ^= v;
				continue;
			}
			g->sig[p] = signature_fold(g->sig[p], &g->last_tl[p], tl, a->lop_kind[l], region,
						   lop_ends_hash(a, colls, l));
		}
	}
	hmap_fini(&seen);
	return rc;
}

int
signature_parts(const struct analysis *a, int shape, uint64_t *sig)
{
	if (a->dc)
		return dist_signature_parts(a, shape, sig);
	uint32_t n_reg, nw = par_workers();
	uint64_t *rh = signature_regions(analysis_trace(a), &n_reg);
	uint32_t *last_tl = malloc(((size_t)a->n_parts + 1) * sizeof *last_tl);
	int rc = rh && last_tl ? 0 : ERR_NOMEM;
	struct signing g = { .a = a, .shape = shape, .sig = sig, .last_tl = last_tl, .rh = rh,
			     .n_reg = n_reg };
	par_split(a->n_parts, nw, part_weight, a, g.cut);
	if (!rc)
		rc = par_run(nw, sign_worker, &g);
	free(rh);
	free(last_tl);
	return rc;
}

struct seq_key {
	uint32_t step, rank, part;
};

static int
cmp_seq(const void *x, const void *y)
{
	const struct seq_key *a = x, *b = y;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->part < b->part ? -1 : a->part > b->part;
}

int
signature_order(const struct analysis *a, const uint64_t *low, uint32_t *order)
{
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	struct seq_key *k = malloc(((size_t)np + 1) * sizeof *k);
	if (!k)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < np; p++)
		k[p] = (struct seq_key){ parts[p].step_first, (uint32_t)low[p], p };
	qsort(k, np, sizeof *k, cmp_seq);
	for (uint32_t i = 0; i < np; i++)
		order[i] = k[i].part;
	free(k);
	return 0;
}

int
signature_sequence(const struct analysis *a, uint32_t *order)
{
	if (a->dc)
		return dist_signature_sequence(a, order);
	uint32_t np = a->n_parts;
	uint64_t *low = malloc(((size_t)np + 1) * sizeof *low);
	if (!low)
		return ERR_NOMEM;
	/* a partition's lowest rank is its first lop's: part_lops lists
	 * them in lop order, and lops are numbered timeline by timeline */
	for (uint32_t p = 0; p < np; p++) {
		uint32_t f = a->part_lop_first[p];
		low[p] = f < a->part_lop_first[p + 1] ? a->lop_tl[a->part_lops[f]] : UINT32_MAX;
	}
	int rc = signature_order(a, low, order);
	free(low);
	return rc;
}

int
signature_tokens(const uint64_t *sig, const uint32_t *order, uint32_t n, uint32_t *tok,
		 uint32_t *distinct)
{
	struct hmap m = { 0 };
	uint32_t next = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = sig[order[i]];
		uint32_t *v = hmap_get(&m, s, 0);
		if (v) {
			tok[i] = *v;
			continue;
		}
		if (hmap_put(&m, s, 0, next)) {
			hmap_fini(&m);
			return ERR_NOMEM;
		}
		tok[i] = next++;
	}
	hmap_fini(&m);
	*distinct = next;
	return 0;
}
