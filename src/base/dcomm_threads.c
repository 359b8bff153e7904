/* dcomm_threads.c — dcomm over threads in one process (dcomm.h).
 *
 * Each operation is two barriers: every rank posts where its data is,
 * waits for all, copies what it needs from the others' posts, and waits
 * again so that no post goes away while another rank reads it. Failures
 * ride along with the posts, so every rank sees the same ones.
 *
 * The barrier yields its core a while before it sleeps: the stages'
 * collectives come thick and fast, and a sleep and wake-up through the
 * kernel for each (pthread_barrier_wait) cost the tests most of their
 * time.
 */
#include "dcomm.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sat.h"

#define DCT_MAX 64

/* What a rank posts for an operation. */
struct post {
	const void *data;          /* its bytes or values */
	const uint64_t *counts;    /* alltoallv: bytes for each rank */
	uint64_t n;                /* allgatherv: its bytes; reduce/exscan: values */
	int rc;
};

/* Yields before a waiting rank sleeps. */
#define DCT_YIELDS 4

struct bar {
	atomic_uint arrived, gen;
	uint32_t sleepers;         /* under mu */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

struct dct {
	uint32_t n;
	struct bar bar;
	/* the start: every thread waits until all exist (go 1) or one could
	 * not be started (go -1): a barrier of n that fewer reach never opens */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int go;
	struct post post[DCT_MAX];
};

struct dct_rank {
	struct dct *g;
	struct dcomm c;
	int (*fn)(struct dcomm *c, void *ud);
	void *ud;
	int rc;
};

/* Every rank of n here before any goes on. */
static void
bar_wait(struct bar *b, uint32_t n)
{
	unsigned g = atomic_load(&b->gen);
	if (atomic_fetch_add(&b->arrived, 1) + 1 == n) {
		/* no rank leaves before gen moves, so none has arrived at
		 * the next barrier yet */
		atomic_store(&b->arrived, 0);
		pthread_mutex_lock(&b->mu);
		atomic_fetch_add(&b->gen, 1);
		if (b->sleepers)
			pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		return;
	}
	for (int i = 0; i < DCT_YIELDS; i++) {
		if (atomic_load(&b->gen) != g)
			return;
		sched_yield();
	}
	pthread_mutex_lock(&b->mu);
	b->sleepers++;
	while (atomic_load(&b->gen) == g)
		pthread_cond_wait(&b->cv, &b->mu);
	b->sleepers--;
	pthread_mutex_unlock(&b->mu);
}

/* Posts p, waits for every rank's; returns the lowest failing rank's rc. */
static int
post_all(struct dcomm *c, struct post p)
{
	struct dct *g = c->impl;
	g->post[c->rank] = p;
	bar_wait(&g->bar, g->n);
	for (uint32_t r = 0; r < g->n; r++)
		if (g->post[r].rc)
			return g->post[r].rc;
	return 0;
}

static void
done_reading(struct dcomm *c)
{
	struct dct *g = c->impl;
	bar_wait(&g->bar, g->n);
}

static int
dct_agree(struct dcomm *c, int rc)
{
	rc = post_all(c, (struct post){ .rc = rc });
	done_reading(c);
	return rc;
}

static int
dct_reduce(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op)
{
	struct dct *g = c->impl;
	uint64_t *acc = malloc((n ? n : 1) * sizeof *acc);
	int rc = post_all(c, (struct post){ .data = v, .n = n, .rc = acc ? 0 : ERR_NOMEM });
	if (!rc) {
		const uint64_t *x0 = g->post[0].data;
		memcpy(acc, x0, n * sizeof *acc);
		for (uint32_t r = 1; r < g->n; r++) {
			const uint64_t *x = g->post[r].data;
			for (size_t i = 0; i < n; i++)
				acc[i] = op == DCOMM_SUM ? sat_add(acc[i], x[i]) :
					 op == DCOMM_MIN ? (x[i] < acc[i] ? x[i] : acc[i]) :
							   (x[i] > acc[i] ? x[i] : acc[i]);
		}
	}
	done_reading(c);
	if (!rc)
		memcpy(v, acc, n * sizeof *v);
	free(acc);
	return rc;
}

static int
dct_exscan(struct dcomm *c, uint64_t *v, size_t n)
{
	struct dct *g = c->impl;
	uint64_t *acc = calloc(n ? n : 1, sizeof *acc);
	int rc = post_all(c, (struct post){ .data = v, .n = n, .rc = acc ? 0 : ERR_NOMEM });
	if (!rc)
		for (uint32_t r = 0; r < c->rank; r++) {
			const uint64_t *x = g->post[r].data;
			for (size_t i = 0; i < n; i++)
				acc[i] = sat_add(acc[i], x[i]);
		}
	done_reading(c);
	if (!rc)
		memcpy(v, acc, n * sizeof *v);
	free(acc);
	return rc;
}

/* Bytes rank r posted for rank `to` (alltoallv), and where they start. */
static const char *
part_for(const struct post *p, uint32_t to, uint64_t *len)
{
	uint64_t at = 0;
	for (uint32_t k = 0; k < to; k++)
		at += p->counts[k];
	*len = p->counts[to];
	return (const char *)p->data + at;
}

static int
dct_alltoallv(struct dcomm *c, const void *send, const uint64_t *scount, void **recv,
	      uint64_t *rcount)
{
	struct dct *g = c->impl;
	*recv = NULL;
	int rc = post_all(c, (struct post){ .data = send, .counts = scount });
	uint64_t total = 0;
	for (uint32_t r = 0; r < g->n && !rc; r++) {
		part_for(&g->post[r], c->rank, &rcount[r]);
		total += rcount[r];
	}
	char *buf = rc ? NULL : malloc(total ? total : 1);
	done_reading(c);
	/* the buffers are agreed on before anything is copied */
	rc = rc ? rc : post_all(c, (struct post){ .data = send, .counts = scount,
						 .rc = buf ? 0 : ERR_NOMEM });
	uint64_t at = 0;
	for (uint32_t r = 0; r < g->n && !rc; r++) {
		uint64_t len;
		const char *from = part_for(&g->post[r], c->rank, &len);
		if (len)
			memcpy(buf + at, from, len);
		at += len;
	}
	done_reading(c);
	if (rc)
		free(buf);
	else
		*recv = buf;
	return rc;
}

static int
dct_allgatherv(struct dcomm *c, const void *send, uint64_t n, void **recv, uint64_t *rcount)
{
	struct dct *g = c->impl;
	*recv = NULL;
	int rc = post_all(c, (struct post){ .data = send, .n = n });
	uint64_t total = 0;
	for (uint32_t r = 0; r < g->n && !rc; r++)
		total += rcount[r] = g->post[r].n;
	char *buf = rc ? NULL : malloc(total ? total : 1);
	done_reading(c);
	rc = rc ? rc : post_all(c, (struct post){ .data = send, .n = n, .rc = buf ? 0 : ERR_NOMEM });
	uint64_t at = 0;
	for (uint32_t r = 0; r < g->n && !rc; r++) {
		if (g->post[r].n)
			memcpy(buf + at, g->post[r].data, g->post[r].n);
		at += g->post[r].n;
	}
	done_reading(c);
	if (rc)
		free(buf);
	else
		*recv = buf;
	return rc;
}

static const struct dcomm_ops dct_ops = {
	dct_agree, dct_reduce, dct_exscan, dct_alltoallv, dct_allgatherv,
};

static void *
dct_main(void *arg)
{
	struct dct_rank *k = arg;
	struct dct *g = k->g;
	pthread_mutex_lock(&g->mu);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->mu);
	int go = g->go;
	pthread_mutex_unlock(&g->mu);
	if (go > 0)
		k->rc = k->fn(&k->c, k->ud);
	return NULL;
}

static void
start(struct dct *g, int go)
{
	pthread_mutex_lock(&g->mu);
	g->go = go;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

int
dcomm_threads_run(uint32_t n, int (*fn)(struct dcomm *c, void *ud), void *ud)
{
	if (n == 0 || n > DCT_MAX)
		return ERR_USAGE;
	struct dct *g = calloc(1, sizeof *g);
	struct dct_rank *k = calloc(n, sizeof *k);
	pthread_t *th = calloc(n, sizeof *th);
	int rc = ERR_NOMEM;
	if (!g || !k || !th)
		goto out;
	atomic_init(&g->bar.arrived, 0);
	atomic_init(&g->bar.gen, 0);
	if (pthread_mutex_init(&g->bar.mu, NULL))
		goto out;
	if (pthread_cond_init(&g->bar.cv, NULL)) {
		pthread_mutex_destroy(&g->bar.mu);
		goto out;
	}
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->n = n;
	uint32_t started = 0;
	for (uint32_t r = 0; r < n; r++) {
		k[r] = (struct dct_rank){ g, { r, n, &dct_ops, g }, fn, ud, 0 };
		if (r > 0 && pthread_create(&th[r], NULL, dct_main, &k[r]))
			break;
		started = r + 1;
	}
	start(g, started == n ? 1 : -1);
	rc = started == n ? 0 : ERR_NOMEM;
	if (started == n)
		dct_main(&k[0]);
	for (uint32_t r = 1; r < started; r++)
		pthread_join(th[r], NULL);
	for (uint32_t r = 0; r < n && !rc; r++)
		if (k[r].rc)
			rc = k[r].rc;
	pthread_mutex_destroy(&g->bar.mu);
	pthread_cond_destroy(&g->bar.cv);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
out:
	free(g);
	free(k);
	free(th);
	return rc;
}
