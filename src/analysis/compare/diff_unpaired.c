/* diff_unpaired.c — what the operations that nothing paired did, against
 * the stretch of the other run they stand in for.
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
 * explain away. The way back likewise: a BEFORE operation left unpaired
 * against the AFTER run's stretch, what got better. Noise moves the
 * largest of a call's lateness as much as it moves one operation's, so
 * runs that differ by noise only get changes no larger than the paired
 * ones'. Linear in the lops, and n log n to rank them. */
#include "analysis/core/analysis_impl.h"
#include "diff_impl.h"
#include "analysis/core/signature.h"

#include <math.h>
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

/* One run's lops of stretch s (parts q0..q1, that run's side: after 0
 * or 1) into the map: each call's lop that created the most
 * lateness (most[*]). */
static int
stretch_most(const struct diff *d, int after, const uint64_t *rh, uint32_t s, uint32_t q0, uint32_t q1,
	     struct hmap *m, uint32_t **most, size_t *n, size_t *cap)
{
	const struct analysis *X = after ? d->after : d->before;
	for (uint32_t q = q0; q < q1; q++) {
		uint32_t p = after ? d->parts[q].after : d->parts[q].before;
		if (p == TRACE_NONE)
			continue;
		for (uint32_t i = X->part_lop_first[p]; i < X->part_lop_first[p + 1]; i++) {
			uint32_t l = X->part_lops[i];
			uint64_t k0, k1;
			call_key(X, rh, s, l, &k0, &k1);
			uint32_t *v = hmap_get(m, k0, k1);
			if (v) {
				if (lop_diff(X, l) > lop_diff(X, (*most)[*v]))
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

/* The other run's side of the two in a pass: what is compared (its
 * unpaired lops) against the map of the first. */
struct way {
	int after;                 /* 1: AFTER's unpaired against BEFORE (worse) */
	struct hmap m;
	uint32_t *most;
	size_t n_most, cap_most, cap;
	const uint8_t *paired;     /* BEFORE's paired lops (the way back) */
};

/* Stretch s's unpaired lops of one run against the other's map: those
 * that created more than its call did at most (worse: d->unpaired), or
 * less (better, the way back: d->unpaired_better). */
static int
stretch_compare(struct diff *d, struct way *w, const uint64_t *rh, uint32_t s, uint32_t q0, uint32_t q1)
{
	const struct analysis *B = d->before, *A = d->after, *X = w->after ? A : B;
	for (uint32_t q = q0; q < q1; q++) {
		uint32_t p = w->after ? d->parts[q].after : d->parts[q].before;
		if (p == TRACE_NONE)
			continue;
		for (uint32_t i = X->part_lop_first[p]; i < X->part_lop_first[p + 1]; i++) {
			uint32_t l = X->part_lops[i];
			if (w->after ? d->after_op[l] != TRACE_NONE : w->paired[l] != 0)
				continue;
			uint64_t k0, k1;
			call_key(X, rh, s, l, &k0, &k1);
			const uint32_t *v = hmap_get(&w->m, k0, k1);
			if (!v)
				continue;       /* a call the stretch did not make in the other run */
			uint32_t lb = w->after ? w->most[*v] : l, la = w->after ? l : w->most[*v];
			double dd = secs(A, lop_diff(A, la)) - secs(B, lop_diff(B, lb));
			if (w->after ? dd <= 1e-9 : dd >= -1e-9)
				continue;
			struct diff_op **v_ops = w->after ? &d->unpaired : &d->unpaired_better;
			uint32_t *n_ops = w->after ? &d->n_unpaired : &d->n_unpaired_better;
			if (VEC_GROW(*v_ops, *n_ops, w->cap))
				return ERR_NOMEM;
			(*v_ops)[(*n_ops)++] = (struct diff_op){
				lb, la, secs(A, lop_late(A, la)) - secs(B, lop_late(B, lb)), dd,
				secs(A, lop_exit(A, la) - lop_enter(A, la)) - secs(B, lop_exit(B, lb) - lop_enter(B, lb)),
				0, 0 };
		}
	}
	return 0;
}

static int
cmp_better(const void *x, const void *y)
{
	const struct diff_op *a = x, *b = y;
	if (a->d_diff != b->d_diff)
		return a->d_diff < b->d_diff ? -1 : 1;
	return a->before < b->before ? -1 : a->before > b->before;
}

int
diff_unpaired(struct diff *d)
{
	if (d->charm || !d->same_ranks)
		return 0;
	const struct analysis *B = d->before, *A = d->after;
	uint32_t n_reg;
	uint64_t *rh[2] = { signature_regions(B->t, &n_reg), signature_regions(A->t, &n_reg) };
	uint8_t *paired = calloc((size_t)B->n_lops + 1, 1);
	struct way w[2] = { { .after = 1 }, { .after = 0, .paired = paired } };
	int rc = rh[0] && rh[1] && paired ? 0 : ERR_NOMEM;
	for (uint32_t i = 0; i < d->n_ops && !rc; i++)
		paired[d->ops[i].before] = 1;
	uint32_t s = 0;
	for (uint32_t q0 = 0; q0 < d->n_parts && !rc; s++) {
		if (d->parts[q0].kind == DIFF_ALIKE) {
			q0++;
			continue;
		}
		uint32_t q1 = q0;
		while (q1 < d->n_parts && d->parts[q1].kind != DIFF_ALIKE)
			q1++;
		for (int k = 0; k < 2 && !rc; k++) {
			/* worse: BEFORE's most against AFTER's unpaired; better
			 * the other way */
			rc = stretch_most(d, !w[k].after, rh[w[k].after ? 0 : 1], s, q0, q1, &w[k].m, &w[k].most,
					  &w[k].n_most, &w[k].cap_most);
			if (!rc)
				rc = stretch_compare(d, &w[k], rh[w[k].after ? 1 : 0], s, q0, q1);
		}
		q0 = q1;
	}
	if (!rc && d->n_unpaired)
		qsort(d->unpaired, d->n_unpaired, sizeof *d->unpaired, cmp_worse);
	if (!rc && d->n_unpaired_better)
		qsort(d->unpaired_better, d->n_unpaired_better, sizeof *d->unpaired_better, cmp_better);
	for (int k = 0; k < 2; k++) {
		hmap_fini(&w[k].m);
		free(w[k].most);
	}
	free(paired);
	free(rh[0]);
	free(rh[1]);
	return rc;
}

/* The largest change either way (diff.h). */
const struct diff_op *
diff_largest(const struct diff *d)
{
	const struct diff_op *c[4] = { d->n_worse ? &d->ops[d->worse[0]] : NULL,
				       d->n_better ? &d->ops[d->better[0]] : NULL,
				       d->n_unpaired ? &d->unpaired[0] : NULL,
				       d->n_unpaired_better ? &d->unpaired_better[0] : NULL };
	const struct diff_op *x = NULL;
	for (int i = 0; i < 4; i++)
		if (c[i] && (!x || fabs(c[i]->d_diff) > fabs(x->d_diff)))
			x = c[i];
	return x;
}

int
diff_op_unpaired(const struct diff *d, const struct diff_op *op)
{
	if (d->n_unpaired && op >= d->unpaired && op < d->unpaired + d->n_unpaired)
		return 1;
	return d->n_unpaired_better && op >= d->unpaired_better && op < d->unpaired_better + d->n_unpaired_better ?
	       2 : 0;
}
