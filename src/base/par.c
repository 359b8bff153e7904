#include "par.h"

#include "err.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each thread that runs stages keeps its workers between par_run calls
 * (a pool of its own, made at its first par_run of more than one worker
 * and ended when it ends): an analysis makes some forty par_run calls,
 * and a thread started and joined for each cost more than the work of a
 * small trace (tests analyse thousands). A pool serves the thread that
 * made it only, so threads that run stages at once (the distributed
 * tests' ranks) never wait for one another's workers. A forked child has
 * none of its parent's workers: it makes a pool of its own. */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	pid_t pid;
	uint32_t size;             /* workers started: 1 .. size - 1 */
	uint64_t gen;              /* one more for each par_run */
	uint32_t left;             /* workers still in this run */
	int quit;
	par_fn fn;
	void *ctx;
	uint32_t n;                /* this run's workers, caller included */
	int rc[PAR_MAX];
	pthread_t th[PAR_MAX];
};

struct worker {
	struct pool *p;
	uint32_t i;
};

static pthread_key_t pool_key;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static int pool_key_ok;

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	uint32_t i = w->i;
	free(w);
	uint64_t seen = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		if (i >= p->n)
			continue;
		par_fn fn = p->fn;
		void *ctx = p->ctx;
		uint32_t n = p->n;
		pthread_mutex_unlock(&p->mu);
		int rc = fn(ctx, i, n);
		pthread_mutex_lock(&p->mu);
		p->rc[i] = rc;
		if (--p->left == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void
pool_end(void *arg)
{
	struct pool *p = arg;
	if (!p || p->pid != getpid())
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (uint32_t i = 1; i < p->size; i++)
		pthread_join(p->th[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p);
}

static void
pool_key_make(void)
{
	pool_key_ok = pthread_key_create(&pool_key, pool_end) == 0;
}

/* The calling thread's pool with at least n - 1 workers started (fewer
 * when a thread could not be started), or NULL. */
static struct pool *
pool_get(uint32_t n)
{
	pthread_once(&pool_once, pool_key_make);
	if (!pool_key_ok)
		return NULL;
	struct pool *p = pthread_getspecific(pool_key);
	if (p && p->pid != getpid())
		p = NULL;              /* a forked child: the workers stayed behind */
	if (!p) {
		p = calloc(1, sizeof *p);
		if (!p)
			return NULL;
		if (pthread_mutex_init(&p->mu, NULL) || pthread_cond_init(&p->go, NULL) ||
		    pthread_cond_init(&p->done, NULL) || pthread_setspecific(pool_key, p)) {
			free(p);
			return NULL;
		}
		p->pid = getpid();
		p->size = 1;
	}
	while (p->size < n) {
		struct worker *w = malloc(sizeof *w);
		if (!w)
			break;
		*w = (struct worker){ p, p->size };
		if (pthread_create(&p->th[p->size], NULL, worker_main, w)) {
			free(w);
			break;
		}
		p->size++;
	}
	return p;
}

int
par_run(uint32_t n, par_fn fn, void *ctx)
{
	if (n > PAR_MAX)
		n = PAR_MAX;
	if (n <= 1)
		return fn(ctx, 0, n);
	struct pool *p = pool_get(n);
	uint32_t m = p ? (p->size < n ? p->size : n) : 1;    /* workers on threads, caller included */
	if (p && m > 1) {
		pthread_mutex_lock(&p->mu);
		p->fn = fn;
		p->ctx = ctx;
		p->n = n;
		p->left = m - 1;
		for (uint32_t i = 1; i < m; i++)
			p->rc[i] = 0;
		p->gen++;
		pthread_cond_broadcast(&p->go);
		pthread_mutex_unlock(&p->mu);
	}
	int rc[PAR_MAX];
	rc[0] = fn(ctx, 0, n);
	/* shares no thread took: the caller's */
	for (uint32_t i = m; i < n; i++)
		rc[i] = fn(ctx, i, n);
	if (p && m > 1) {
		pthread_mutex_lock(&p->mu);
		while (p->left)
			pthread_cond_wait(&p->done, &p->mu);
		for (uint32_t i = 1; i < m; i++)
			rc[i] = p->rc[i];
		pthread_mutex_unlock(&p->mu);
	}
	/* the first worker's failure, in worker order */
	for (uint32_t i = 0; i < n; i++)
		if (rc[i])
			return rc[i];
	return 0;
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

uint32_t
par_starts(uint32_t *const *cnt, uint32_t nw, uint32_t n, uint32_t *first)
{
	uint32_t at = 0;
	for (uint32_t k = 0; k < n; k++) {
		first[k] = at;
		for (uint32_t w = 0; w < nw; w++) {
			uint32_t c = cnt[w][k];
			cnt[w][k] = at;
			at += c;
		}
	}
	first[n] = at;
	return at;
}

struct bucketing {
	uint32_t n, n_keys;
	uint32_t (*key)(const void *ctx, uint32_t id);
	const void *ctx;
	uint32_t *out;
	uint32_t *cnt[PAR_MAX];
	int fill;
};

static int
bucket_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct bucketing *g = ctx;
	uint32_t i0, i1, *cnt = g->cnt[w];
	par_share(g->n, w, nw, &i0, &i1);
	for (uint32_t i = i0; i < i1; i++) {
		uint32_t k = g->key(g->ctx, i);
		if (k >= g->n_keys)
			continue;
		if (g->fill)
			g->out[cnt[k]++] = i;
		else
			cnt[k]++;
	}
	return 0;
}

int
par_bucket(uint32_t n, uint32_t n_keys, uint32_t (*key)(const void *ctx, uint32_t id),
	   const void *ctx, uint32_t *first, uint32_t *out)
{
	struct bucketing g = { .n = n, .n_keys = n_keys, .key = key, .ctx = ctx, .out = out };
	uint32_t nw = par_workers();
	while (nw > 1 && (uint64_t)nw * n_keys > n)
		nw--;
	int rc = 0;
	for (uint32_t w = 0; w < nw && !rc; w++)
		if (!(g.cnt[w] = calloc((size_t)n_keys + 1, sizeof *g.cnt[w])))
			rc = ERR_NOMEM;
	if (!rc) {
		par_run(nw, bucket_worker, &g);
		par_starts(g.cnt, nw, n_keys, first);
		g.fill = 1;
		par_run(nw, bucket_worker, &g);
	}
	for (uint32_t w = 0; w < nw; w++)
		free(g.cnt[w]);
	return rc;
}
