#include "par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct job {
	par_fn fn;
	void *ctx;
	uint32_t i, n;
	int rc;
};

static void *
run_job(void *arg)
{
	struct job *j = arg;
	j->rc = j->fn(j->ctx, j->i, j->n);
	return NULL;
}

int
par_run(uint32_t n, par_fn fn, void *ctx)
{
	if (n > PAR_MAX)
		n = PAR_MAX;
	struct job jobs[PAR_MAX];
	pthread_t th[PAR_MAX];
	int started[PAR_MAX] = { 0 };
	for (uint32_t i = 1; i < n; i++) {
		jobs[i] = (struct job){ .fn = fn, .ctx = ctx, .i = i, .n = n };
		started[i] = pthread_create(&th[i], NULL, run_job, &jobs[i]) == 0;
	}
	int rc = fn(ctx, 0, n);
	for (uint32_t i = 1; i < n; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			jobs[i].rc = fn(ctx, i, n);
		if (!rc)
			rc = jobs[i].rc;
	}
	return rc;
}

uint32_t
par_workers(void)
{
	const char *v = getenv("SKEIN_THREADS");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*end && n >= 1 && n <= PAR_MAX)
			return (uint32_t)n;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > PAR_MAX ? PAR_MAX : (uint32_t)n;
}

void
par_split(uint32_t total, uint32_t n, uint64_t (*weight)(const void *ctx, uint32_t k),
	  const void *ctx, uint32_t *cut)
{
	uint64_t sum = 0;
	for (uint32_t k = 0; k < total; k++)
		sum += weight(ctx, k);
	cut[0] = 0;
	uint64_t acc = 0;
	uint32_t share = 1;
	for (uint32_t k = 0; k < total && share < n; k++) {
		acc += weight(ctx, k);
		while (share < n && acc * n >= sum * share)
			cut[share++] = k + 1;
	}
	while (share <= n)
		cut[share++] = total;
}

void
par_pieces_init(struct par_pieces *q, uint32_t n, uint32_t nw)
{
	nw = nw < 1 ? 1 : nw > PAR_MAX ? PAR_MAX : nw;
	q->n = n;
	q->nw = nw;
	for (uint32_t w = 0; w < PAR_MAX; w++) {
		uint64_t lo = w < nw ? (uint64_t)n * w / nw : n;
		uint64_t hi = w < nw ? (uint64_t)n * (w + 1) / nw : n;
		atomic_init(&q->left[w], lo | hi << 32);
	}
}

/* A piece of *left, its first or (back) its last. */
static int
take_from(_Atomic uint64_t *left, int back, uint32_t *i)
{
	uint64_t v = atomic_load_explicit(left, memory_order_relaxed);
	for (;;) {
		uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
		if (lo >= hi)
			return 0;
		uint64_t nv = back ? lo | (uint64_t)(hi - 1) << 32 : (lo + 1) | (uint64_t)hi << 32;
		if (atomic_compare_exchange_weak_explicit(left, &v, nv, memory_order_relaxed,
							  memory_order_relaxed)) {
			*i = back ? hi - 1 : lo;
			return 1;
		}
	}
}

int
par_take(struct par_pieces *q, uint32_t w, uint32_t *i)
{
	if (take_from(&q->left[w], 0, i))
		return 1;
	for (uint32_t k = 1; k < q->nw; k++)
		if (take_from(&q->left[(w + k) % q->nw], 1, i))
			return 1;
	return 0;
}

void
par_share(uint32_t total, uint32_t w, uint32_t n, uint32_t *from, uint32_t *to)
{
	*from = (uint32_t)((uint64_t)total * w / n);
	*to = (uint32_t)((uint64_t)total * (w + 1) / n);
}
