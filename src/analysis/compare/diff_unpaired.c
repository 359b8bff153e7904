/* diff_unpaired.c — what the AFTER run's operations that nothing paired
 * did, against the stretch of the BEFORE run they stand in for.
 *
 * Partitions whose structure changed are the runs' timing showing through
 * their structure (a polling loop that made more tests, a message that
 * crossed another): between two alike partitions, a stretch of changed
 * and one-sided ones, aligned side by side by position only, so that a
 * changed partition of one run may cover what several of the other's do
 * (hpcc's HPL: 14 partitions after for 27 before). Operations there are
 * paired only at either end of a rank's calls (pair_ends in diff.c), and
 * a rank stopped between them was never compared. The stretch as a whole
 * is the same part of the program in both runs; an AFTER operation left
 * unpaired in it is compared with the most lateness any operation of its
 * rank making the same call (kind and region name) created anywhere in
 * the BEFORE run's stretch: what it created beyond that no pairing can
 * explain away. Noise moves the largest of a call's lateness as much as
 * it moves one operation's, so runs that differ by noise only get
 * changes no larger than the paired ones'. Linear in the lops, and
 * n log n to rank them. */
#include "analysis/core/analysis_impl.h"
#include "diff_impl.h"
#include "analysis/core/signature.h"

#include <stdlib.h>

#include "base/hmap.h"
#include "base/vec.h"

static double
secs(const struct analysis *a, uint64_t ticks)
{
	return trace_seconds(a->t, ticks);
}

/* The key of lop l's call in stretch s: its region's name hash, and its
 * stretch, rank and kind. */
static void
call_key(const struct analysis *a, const uint64_t *rh, uint32_t s, uint32_t l, uint64_t *k0, uint64_t *k1)
{
	uint32_t r = analysis_lop_region(a, l);
	*k0 = r == TRACE_NONE ? 0 : rh[r];
	*k1 = ((uint64_t)s << 40) ^ ((uint64_t)a->lop_tl[l] << 8) ^ a->lop_kind[l];
}

static int
cmp_worse(const void *x, const void *y)
{
	const struct diff_op *a = x, *b = y;
	if (a->d_diff != b->d_diff)
		return a->d_diff > b->d_diff ? -1 : 1;
	return a->after < b->after ? -1 : a->after > b->after;
}

/* BEFORE's lops of stretch s into the map: each call's lop that created
 * the most lateness (most[*]). */
static int
stretch_before(const struct diff *d, const uint64_t *rh, uint32_t s, uint32_t q0, uint32_t q1,
	       struct hmap *m, uint32_t **most, size_t *n, size_t *cap)
{
	const struct analysis *B = d->before;
	for (uint32_t q = q0; q < q1; q++) {
		uint32_t p = d->parts[q].before;
		if (p == TRACE_NONE)
			continue;
		for (uint32_t i = B->part_lop_first[p]; i < B->part_lop_first[p + 1]; i++) {
			uint32_t l = B->part_lops[i];
			uint64_t k0, k1;
			call_key(B, rh, s, l, &k0, &k1);
			uint32_t *v = hmap_get(m, k0, k1);
			if (v) {
				if (lop_diff(B, l) > lop_diff(B, (*most)[*v]))
					(*most)[*v] = l;
				continue;
			}
			if (VEC_GROW(*most, *n, *cap) || hmap_put(m, k0, k1, (uint32_t)*n))
				return ERR_NOMEM;
			(*most)[(*n)++] = l;
		}
	}
	return 0;
}

int
diff_unpaired(struct diff *d)
{
	if (d->charm || !d->same_ranks)
		return 0;
	const struct analysis *B = d->before, *A = d->after;
	uint32_t n_reg;
	uint64_t *rh[2] = { signature_regions(B->t, &n_reg), signature_regions(A->t, &n_reg) };
	struct hmap m = { 0 };
	uint32_t *most = NULL;
	size_t n_most = 0, cap_most = 0, cap = 0;
	int rc = rh[0] && rh[1] ? 0 : ERR_NOMEM;
	uint32_t s = 0;
	for (uint32_t q0 = 0; q0 < d->n_parts && !rc; s++) {
		if (d->parts[q0].kind == DIFF_ALIKE) {
			q0++;
			continue;
		}
		uint32_t q1 = q0;
		while (q1 < d->n_parts && d->parts[q1].kind != DIFF_ALIKE)
			q1++;
		rc = stretch_before(d, rh[0], s, q0, q1, &m, &most, &n_most, &cap_most);
		for (uint32_t q = q0; q < q1 && !rc; q++) {
			uint32_t p = d->parts[q].after;
			if (p == TRACE_NONE)
				continue;
			for (uint32_t i = A->part_lop_first[p]; i < A->part_lop_first[p + 1] && !rc; i++) {
				uint32_t la = A->part_lops[i];
				if (d->after_op[la] != TRACE_NONE)
					continue;
				uint64_t k0, k1;
				call_key(A, rh[1], s, la, &k0, &k1);
				const uint32_t *v = hmap_get(&m, k0, k1);
				if (!v)
					continue;       /* a call the stretch did not make before */
				uint32_t lb = most[*v];
				double excess = secs(A, lop_diff(A, la)) - secs(B, lop_diff(B, lb));
				if (excess <= 1e-9)
					continue;
				if (VEC_GROW(d->unpaired, d->n_unpaired, cap)) {
					rc = ERR_NOMEM;
					break;
				}
				d->unpaired[d->n_unpaired++] = (struct diff_op){
					lb, la, secs(A, lop_late(A, la)) - secs(B, lop_late(B, lb)), excess,
					secs(A, lop_exit(A, la) - lop_enter(A, la)) - secs(B, lop_exit(B, lb) - lop_enter(B, lb)),
					0, 0 };
			}
		}
		q0 = q1;
	}
	if (!rc && d->n_unpaired)
		qsort(d->unpaired, d->n_unpaired, sizeof *d->unpaired, cmp_worse);
	hmap_fini(&m);
	free(most);
	free(rh[0]);
	free(rh[1]);
	return rc;
}
