/* leap.c — leap merge (seed 000, section 3.1, Algorithm 1).
 *
 * A leap is the set of partitions at one depth of the partition DAG
 * (longest path from a source, so every predecessor of a leap-k partition
 * is in an earlier leap). Going leap by leap, an incomplete leap (one that
 * misses some rank that communicates at all) grows: each of its partitions
 * either merges backwards into its previous-leap neighbours, when its
 * incoming leap distance is `leap_factor` times smaller than its outgoing
 * one, or absorbs those children that bring ranks the leap lacks. When a
 * leap stops changing and is still incomplete, `leap_force` merges all its
 * partitions with their successors and tries again; otherwise the leap is
 * accepted as it is.
 *
 * The work is done on the partitions as they stand on entry ("base"
 * partitions), never on the operations: a union-find over them holds the
 * merges (leap_impl.h). Merges of one pass over a leap are applied
 * together; then only the window of leaps around it is levelled again
 * (leap_graph.c), so a pass costs the partitions near the leap at hand,
 * not all of them. Passes look at the leap at hand's partitions only, and
 * of their operations only what leap.h's records keep: each partition's
 * first and last lop on each timeline and the gaps to the communication
 * around them. The result is each partition's merged set; the caller
 * hands it to the lops and finalizes the partitions once
 * (partition_leap_merge in leap_input.c; dist_leap.c for a distributed
 * analysis).
 *
 * The result is the same as merging lops directly and rebuilding every
 * partition after every pass (the first implementation), and as
 * rebuilding the whole partition graph after every pass (the second):
 * tests/leap-merge.sha256 holds that implementation's output on every
 * corpus and shared trace.
 */
#include "leap_impl.h"
#include "stages.h"

#include <stdlib.h>
#include <string.h>

/* Marks the timelines of merged partition r as covered (its members from
 * root r as the member lists stand); returns how many were new (with dry,
 * stops at the first and marks nothing). */
static uint32_t
cover(struct leaper *L, uint32_t r, int dry)
{
	const struct leap_in *in = L->in;
	uint32_t added = 0;
	LEAP_MEMBERS(L, r, b)
		for (uint32_t k = in->rec_first[b]; k < in->rec_first[b + 1]; k++) {
			uint32_t tl = in->recs[k].tl;
			if (!(tl & LEAP_COMM) || L->in_leap[tl & ~LEAP_COMM] == L->tstamp)
				continue;
			added++;
			if (dry)
				return added;
			L->in_leap[tl & ~LEAP_COMM] = L->tstamp;
		}
	return added;
}

/* Incoming and outgoing leap distances of merged partition r, of leap
 * `leap` (UINT64_MAX when none): on each of its timelines, from the
 * communication lop before its first to its first, and from its last to
 * the one after, where those are in the leaps before and after. The
 * records holding its first and last lop on a timeline know both. */
static void
distances(struct leaper *L, uint32_t r, uint32_t leap, uint64_t *in, uint64_t *out)
{
	const struct leap_rec *rec = L->in->recs;
	const uint32_t *rec_first = L->in->rec_first;
	uint32_t nt = 0;
	*in = *out = UINT64_MAX;
	L->dstamp++;
	LEAP_MEMBERS(L, r, b)
		for (uint32_t k = rec_first[b]; k < rec_first[b + 1]; k++) {
			uint32_t tl = rec[k].tl & ~LEAP_COMM;
			if (L->tl_seen[tl] != L->dstamp) {
				L->tl_seen[tl] = L->dstamp;
				L->tl_first[tl] = L->tl_last[tl] = k;
				L->touched[nt++] = tl;
				continue;
			}
			if (rec[k].lo < rec[L->tl_first[tl]].lo)
				L->tl_first[tl] = k;
			if (rec[k].hi > rec[L->tl_last[tl]].hi)
				L->tl_last[tl] = k;
		}
	for (uint32_t i = 0; i < nt; i++) {
		const struct leap_rec *f = &rec[L->tl_first[L->touched[i]]];
		const struct leap_rec *l = &rec[L->tl_last[L->touched[i]]];
		uint32_t q = f->in_part;
		if (q != TRACE_NONE && L->bdep[q] != LEAP_UNRESOLVED && L->bdep[q] + 1 == leap &&
		    f->in_gap < *in)
			*in = f->in_gap;
		q = l->out_part;
		if (q != TRACE_NONE && L->bdep[q] == leap + 1 && l->out_gap < *out)
			*out = l->out_gap;
	}
}

/* Covers leap k's timelines; returns 1 when every active timeline is in. */
static int
leap_complete(struct leaper *L)
{
	L->tstamp++;
	uint32_t covered = 0;
	for (size_t i = 0; i < L->kp.n; i++)
		covered += cover(L, L->kp.v[i], 0);
	return covered >= L->in->n_active;
}

/* One pass of Algorithm 1's inner loop over leap k (the snapshot taken
 * when the window was levelled), after leap_complete marked its coverage.
 * Returns the number of merges made. */
static uint32_t
pass(struct leaper *L)
{
	uint32_t merges = 0, k = L->k;
	double factor = L->in->factor;
	for (size_t i = 0; i < L->kp.n; i++) {
		uint32_t p = L->kp.v[i];
		uint64_t in, out;
		distances(L, p, k, &in, &out);
		if (in != UINT64_MAX && (out == UINT64_MAX || (double)in * factor < (double)out)) {
			/* much closer to the previous leap: merge backwards */
			for (uint32_t e = L->kpred_first.v[i]; e < L->kpred_first.v[i + 1]; e++)
				if (L->kpred_dep.v[e] != LEAP_UNRESOLVED && L->kpred_dep.v[e] + 1 == k)
					merges += (uint32_t)leap_union(L, L->kpred.v[e], p);
			continue;
		}
		/* absorb from the next leap only ("un-processed partitions
		 * from the next leap"), and only what adds ranks */
		for (uint32_t e = L->ksucc_first.v[i]; e < L->ksucc_first.v[i + 1]; e++) {
			uint32_t c = L->ksucc.v[e];
			if (L->ksucc_dep.v[e] != k + 1)
				continue;
			if (cover(L, c, 1)) {   /* will_expand */
				cover(L, c, 0);
				merges += (uint32_t)leap_union(L, p, c);
			}
		}
	}
	return merges;
}

/* leap_force: every partition of leap k merges with all its successors. */
static uint32_t
force(struct leaper *L)
{
	uint32_t merges = 0;
	for (size_t i = 0; i < L->kp.n; i++)
		for (uint32_t e = L->ksucc_first.v[i]; e < L->ksucc_first.v[i + 1]; e++)
			merges += (uint32_t)leap_union(L, L->kp.v[i], L->ksucc.v[e]);
	return merges;
}

static int
setup(struct leaper *L)
{
	uint32_t nb = L->nb = L->in->n_parts;
	size_t n1 = (size_t)nb + 2;
	if (uf_init(&L->bu, nb))
		return ERR_NOMEM;
	uint32_t **arrays[] = { &L->bnext, &L->btail, &L->bdep, &L->pos, &L->key };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		if (!(*arrays[i] = malloc(n1 * sizeof **arrays[i])))
			return ERR_NOMEM;
	L->stamp = calloc(n1, sizeof *L->stamp);
	L->mark = calloc(n1, sizeof *L->mark);
	L->n_tl = L->in->n_timelines;
	size_t nt = (size_t)L->n_tl + 1;
	L->in_leap = calloc(nt, sizeof *L->in_leap);
	L->tl_seen = calloc(nt, sizeof *L->tl_seen);
	L->tl_first = malloc(nt * sizeof *L->tl_first);
	L->tl_last = malloc(nt * sizeof *L->tl_last);
	L->touched = malloc(nt * sizeof *L->touched);
	if (!L->stamp || !L->mark || !L->in_leap || !L->tl_seen || !L->tl_first || !L->tl_last ||
	    !L->touched)
		return ERR_NOMEM;
	for (uint32_t b = 0; b < nb; b++) {
		L->btail[b] = b;
		L->bnext[b] = TRACE_NONE;
	}
	return leap_graph_init(L);
}

static void
cleanup(struct leaper *L)
{
	uf_fini(&L->bu);
	uint32_t *arrays[] = { L->bnext, L->btail, L->bdep, L->pos, L->key, L->stamp,
			       L->mark, L->out_first, L->in_first, L->in_src, L->in_leap,
			       L->tl_seen, L->tl_first, L->tl_last, L->touched };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		free(arrays[i]);
	struct leap_list *lists[] = { &L->kp, &L->kpred_first, &L->kpred, &L->kpred_dep,
				      &L->ksucc_first, &L->ksucc, &L->ksucc_dep, &L->tmp, &L->cand,
				      &L->w };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		leap_list_free(lists[i]);
	for (size_t i = 0; i < LEAP_LEVELS; i++)
		leap_list_free(&L->level[i]);
	free(L->pairs);
}

static int
cancelled(const struct leap_in *in, uint32_t k, uint32_t total)
{
	return in->progress && in->progress(in->ud, "leap merging", k, total > k ? total : k + 1);
}

int
leap_run(const struct leap_in *in, struct leap_out *out)
{
	struct leaper L = { .in = in };
	uint32_t merged = 0;
	out->merged = out->leaps = out->incomplete = 0;
	int rc = setup(&L);
	if (!rc)
		rc = leap_level_all(&L, 0);
	uint32_t total = L.n_leaps;
	for (uint32_t k = 0; !rc && L.kp.n;) {
		if (cancelled(in, k, total)) {
			rc = ERR_CANCELLED;
			break;
		}
		/* grow leap k until it is complete or stops changing */
		int complete;
		while (!(complete = leap_complete(&L))) {
			uint32_t merges = pass(&L);
			if (!merges)
				break;
			merged += merges;
			if ((rc = leap_level_window(&L, k, 1)))
				break;
			/* a leap can take many passes: stay cancellable */
			if (cancelled(in, k, total)) {
				rc = ERR_CANCELLED;
				break;
			}
		}
		if (rc)
			break;
		if (!complete && in->force) {
			/* successors of any leap: the whole graph is levelled again */
			uint32_t merges = force(&L);
			if (merges) {
				merged += merges;
				rc = leap_level_all(&L, k);
				continue;        /* try leap k again */
			}
		}
		if (!complete)
			out->incomplete++;
		k++;
		rc = leap_level_window(&L, k, 0);
	}
	/* the leaps of the final graph */
	if (!rc && merged)
		rc = leap_level_all(&L, 0);
	for (uint32_t b = 0; !rc && b < L.nb; b++)
		out->root[b] = leap_find(&L, b);
	if (!rc) {
		out->merged = merged;
		out->leaps = L.n_leaps;
	}
	cleanup(&L);
	return rc;
}
