/* dcomm_exercise.h — every dcomm operation on any number of ranks (up
 * to 64), each result checked against the formula it must follow: 0 on
 * a rank that saw them all right, 1 otherwise. Included by
 * tests/test_dist.c (over threads) and tests/mpi_dcomm.c (over MPI). */
#ifndef SKEIN_DCOMM_EXERCISE_H
#define SKEIN_DCOMM_EXERCISE_H

#include <stdlib.h>
#include <string.h>

#include "base/dcomm.h"
#include "base/err.h"

/* Each rank r sends rank q (r + 1) * 10 + q bytes of value r ^ q; every
 * operation's result is checked against the formula. */
static int
dcomm_exercise(struct dcomm *c, void *ud)
{
	(void)ud;
	uint32_t r = c->rank, n = c->size;
	int bad = 0;
	uint64_t v[3] = { r + 1, 100 - r, r * 7 };
	if (dcomm_reduce(c, v, 3, DCOMM_SUM))
		return 1;
	bad |= v[0] != (uint64_t)n * (n + 1) / 2;
	uint64_t m[2] = { r, r };
	if (dcomm_reduce(c, m, 1, DCOMM_MIN) || dcomm_reduce(c, m + 1, 1, DCOMM_MAX))
		return 1;
	bad |= m[0] != 0 || m[1] != n - 1;
	/* values with the top bit set are still unsigned (UINT64_MAX is the
	 * stages' "none": it must lose a minimum, win a maximum) */
	uint64_t big[3] = { r ? 5 : UINT64_MAX, r ? UINT64_MAX : 5, UINT64_MAX - r };
	uint64_t bmax[2] = { r ? 5 : UINT64_MAX, UINT64_MAX - r };
	if (dcomm_reduce(c, big, 3, DCOMM_MIN) || dcomm_reduce(c, bmax, 2, DCOMM_MAX))
		return 1;
	bad |= big[0] != (n > 1 ? 5 : UINT64_MAX) || big[1] != 5 || big[2] != UINT64_MAX - (n - 1);
	bad |= bmax[0] != UINT64_MAX || bmax[1] != UINT64_MAX;
	uint64_t s2 = UINT64_MAX - 1;
	if (dcomm_reduce(c, &s2, 1, DCOMM_SUM))
		return 1;
	bad |= s2 != (n > 1 ? UINT64_MAX : UINT64_MAX - 1);     /* saturates */
	uint64_t x = r + 1;
	if (dcomm_exscan(c, &x, 1))
		return 1;
	bad |= x != (uint64_t)r * (r + 1) / 2;

	uint64_t scount[64], rcount[64], total = 0;
	for (uint32_t q = 0; q < n; q++)
		total += scount[q] = (r + 1) * 10 + q;
	unsigned char *send = malloc(total), *at = send;
	if (!send)
		return 1;
	for (uint32_t q = 0; q < n; q++) {
		memset(at, (int)(r ^ q), scount[q]);
		at += scount[q];
	}
	void *recv;
	if (dcomm_alltoallv(c, send, scount, &recv, rcount))
		return 1;
	at = recv;
	for (uint32_t q = 0; q < n; q++) {
		bad |= rcount[q] != (q + 1) * 10 + r;
		for (uint64_t k = 0; k < rcount[q]; k++)
			bad |= at[k] != (unsigned char)(r ^ q);
		at += rcount[q];
	}
	free(recv);
	free(send);

	uint32_t mine[3] = { r, r, r };
	if (dcomm_allgatherv(c, mine, (r % 3 + 1) * sizeof(uint32_t), &recv, rcount))
		return 1;
	const uint32_t *g = recv;
	for (uint32_t q = 0; q < n; q++) {
		bad |= rcount[q] != (q % 3 + 1) * sizeof(uint32_t);
		for (uint32_t k = 0; k <= q % 3; k++)
			bad |= *g++ != q;
	}
	free(recv);
	/* records to ranks in no order: every one where it was sent, once
	 * (rank q's record k of 3n + q, none on rank 1, goes to (7k + q)
	 * mod n) */
	uint32_t nk = r == 1 ? 0 : 3 * n + r, (*rec)[3] = malloc((nk + 1) * sizeof *rec);
	uint32_t *dest = malloc((nk + 1) * sizeof *dest);
	if (!rec || !dest)
		exit(1);                /* the others would wait for this rank */
	for (uint32_t k = 0; k < nk; k++) {
		dest[k] = (7 * k + r) % n;
		rec[k][0] = r;
		rec[k][1] = k;
		rec[k][2] = dest[k];
	}
	size_t n_got;
	if (dcomm_exchange_unordered(c, nk ? rec : NULL, nk, sizeof *rec, nk ? dest : NULL, &recv,
				     &n_got))
		return 1;
	for (uint32_t k = 0; k < nk; k++)
		bad |= dest[k] < (k ? dest[k - 1] : 0);      /* sorted by destination */
	uint64_t want = 0, sum = 0, got_sum = 0;
	for (uint32_t q = 0; q < n; q++)
		for (uint32_t k = 0; k < (q == 1 ? 0 : 3 * n + q); k++)
			if ((7 * k + q) % n == r) {
				want++;
				sum += (uint64_t)q * 1000003u + k;
			}
	const uint32_t (*y)[3] = recv;
	for (size_t i = 0; i < n_got; i++) {
		bad |= y[i][2] != r || (7 * y[i][1] + y[i][0]) % n != r;
		got_sum += (uint64_t)y[i][0] * 1000003u + y[i][1];
	}
	bad |= n_got != want || got_sum != sum;
	free(recv);
	free(rec);
	free(dest);
	/* the lowest failing rank's code reaches every rank */
	int rc = dcomm_agree(c, r >= 2 ? ERR_IO - (int)r : 0);
	bad |= rc != (n > 2 ? ERR_IO - 2 : 0);
	return bad ? 1 : 0;
}

#endif
