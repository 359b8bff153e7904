/* signature.c — partition signatures and their sequence along the steps. */
#include "signature.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hash.h"
#include "base/hmap.h"

static uint64_t
region_hash(const struct trace *t, uint32_t region)
{
	const struct trace_region *r = &trace_regions(t, NULL)[region];
	const char *s = trace_str(t, r->name);
	return hash_bytes(s, strlen(s));
}

/* The hash of one communication lop: kind, region name, and the set of
 * its ends — for each the peer and tag, or the collective's type and
 * root. The ends combine as a multiset (a sum of their hashes): a Waitall
 * records its receives in completion order, which timing decides. */
static uint64_t
lop_hash(const struct analysis *a, uint32_t l, uint64_t region)
{
	const struct trace *t = analysis_trace(a);
	const struct trace_msg *msgs = trace_msgs(t, NULL);
	const struct trace_coll *colls = trace_colls(t, NULL);
	uint64_t h = hash_mix(hash_mix(HASH_SEED, analysis_lop_kind(a, l)), region), ends = 0;
	uint32_t op0, nops;
	analysis_lop_ops(a, l, &op0, &nops);
	for (uint32_t o = op0; o < op0 + nops; o++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(t, o, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			uint64_t v = (uint64_t)e[i].role << 60;
			if (e[i].role == END_SEND)
				v |= (uint64_t)msgs[e[i].id].receiver << 28 | (msgs[e[i].id].tag & 0xfffffff);
			else if (e[i].role == END_RECV)
				v |= (uint64_t)msgs[e[i].id].sender << 28 | (msgs[e[i].id].tag & 0xfffffff);
			else if (e[i].role == END_COLL)
				v |= (uint64_t)colls[e[i].id].type << 32 | colls[e[i].id].root;
			ends += hash_mix(HASH_SEED, v);
		}
	}
	return hash_mix(h, ends);
}

int
signature_parts(const struct analysis *a, int shape, uint64_t *sig)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_tl, np, n_reg;
	trace_timelines(t, &n_tl);
	analysis_parts(a, &np);
	trace_regions(t, &n_reg);
	uint64_t *rh = malloc(((size_t)n_reg + 1) * sizeof *rh);
	uint32_t *last_tl = malloc(((size_t)np + 1) * sizeof *last_tl);
	struct hmap seen = { 0 };
	int rc = rh && last_tl ? 0 : ERR_NOMEM;
	for (uint32_t r = 0; r < n_reg && !rc; r++)
		rh[r] = region_hash(t, r);
	for (uint32_t p = 0; p < np && !rc; p++) {
		sig[p] = shape ? 0 : hash_mix(HASH_SEED, 0x5167);
		last_tl[p] = TRACE_NONE;
	}
	/* Timelines in rank order, lops in time order: each partition's
	 * hash folds its ranks' sequences one after the other. */
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++) {
		uint32_t first, count;
		analysis_timeline_lops(a, tl, &first, &count);
		for (uint32_t l = first; l < first + count && !rc; l++) {
			uint32_t p = analysis_lop_part(a, l), reg = analysis_lop_region(a, l);
			if (p >= np || analysis_lop_kind(a, l) == OP_COMPUTE)
				continue;
			uint64_t region = reg < n_reg ? rh[reg] : 0;
			if (shape) {
				/* a set of (kind, region): each pair once per partition */
				uint64_t v = hash_mix(hash_mix(HASH_SEED, analysis_lop_kind(a, l)), region);
				if (hmap_get(&seen, v, p))
					continue;
				rc = hmap_put(&seen, v, p, 1);
				sig[p] ^= v;
				continue;
			}
			if (last_tl[p] != tl)
				sig[p] = hash_mix(sig[p], 0x100000000ull | tl);
			last_tl[p] = tl;
			sig[p] = hash_mix(sig[p], lop_hash(a, l, region));
		}
	}
	hmap_fini(&seen);
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
signature_sequence(const struct analysis *a, uint32_t *order)
{
	uint32_t np, n_lops = analysis_lop_count(a);
	const struct analysis_part *parts = analysis_parts(a, &np);
	struct seq_key *k = malloc(((size_t)np + 1) * sizeof *k);
	if (!k)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < np; p++)
		k[p] = (struct seq_key){ parts[p].step_first, UINT32_MAX, p };
	for (uint32_t l = 0; l < n_lops; l++) {
		uint32_t p = analysis_lop_part(a, l), tl = analysis_lop_timeline(a, l);
		if (p < np && tl < k[p].rank)
			k[p].rank = tl;
	}
	qsort(k, np, sizeof *k, cmp_seq);
	for (uint32_t i = 0; i < np; i++)
		order[i] = k[i].part;
	free(k);
	return 0;
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
