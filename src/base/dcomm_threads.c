/* dcomm_threads.c — dcomm over threads in one process (dcomm.h).
 *
 * Each rank copies what it sends into a buffer of its own and posts it;
 * one barrier later every rank reads the others' posts. The posts live
 * in two rows used by turns, one operation to the next: a rank writes a
 * row again two operations on, past the barrier of the operation in
 * between, which no rank reaches before it has done reading. So the
 * simple operations take one barrier where a post of the caller's own
 * memory would take two (the second only to keep that memory until every
 * rank had read it), and the v-operations two: the posts, then the
 * receivers' agreement on whether their buffers could be had. Failures
 * ride along with the posts, so every rank sees the same ones.
 *
 * The barrier yields its core a while before it sleeps. The stages'
 * collectives come thick and fast, and each barrier's sleeps and wake-ups
 * through the kernel were most of the distributed tests' time (a
 * hypervisor's page tables make every context switch dear: on a 2-core
 * VM 57% of test_dist_run's CPU, 2026-12-02), hence the fewer barriers.
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

/* What a rank posts for an operation: its counts (alltoallv) and bytes
 * or values, copies in buf. */
struct post {
	void *buf;                 /* the rank's own, kept from one use to the next */
	size_t cap;
	const uint64_t *counts;    /* alltoallv: bytes for each rank */
	const void *data;
	uint64_t n;                /* allgatherv: its bytes; reduce/exscan: values */
	int rc;                    /* from posting */
	int rc2;                   /* the v-operations: its receive buffer */
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
	struct post post[2][DCT_MAX];
};

struct dct_rank {
	struct dct *g;
	struct dcomm c;
	uint64_t ops;              /* operations begun: the row is ops % 2 */
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

/* Posts copies of counts[0 .. ncounts) and bytes[0 .. nbytes), with n
 * and rc (ERR_NOMEM if the copies cannot be had), and waits for every
 * rank's: the row of posts, *rc the lowest failing rank's rc or 0. */
static struct post *
post_all(struct dcomm *c, const uint64_t *counts, uint32_t ncounts, const void *bytes,
	 uint64_t nbytes, uint64_t n, int rc, int *rcp)
{
	struct dct_rank *k = c->impl;
	struct dct *g = k->g;
	struct post *row = g->post[k->ops++ % 2];
	struct post *p = &row[c->rank];
	size_t need = (size_t)ncounts * sizeof *counts + nbytes;
	if (need > p->cap) {
		void *b = realloc(p->buf, need);
		if (b) {
			p->buf = b;
			p->cap = need;
		}
	}
	p->counts = NULL;
	p->data = NULL;
	p->n = n;
	p->rc = rc;
	if (need > p->cap)
		p->rc = rc ? rc : ERR_NOMEM;
	else if (need) {
		char *at = p->buf;
		if (ncounts) {
			memcpy(at, counts, (size_t)ncounts * sizeof *counts);
			p->counts = (const uint64_t *)(const void *)at;
			at += (size_t)ncounts * sizeof *counts;
		}
		if (nbytes)
			memcpy(at, bytes, nbytes);
		p->data = at;
	}
	bar_wait(&g->bar, g->n);
	*rcp = 0;
	for (uint32_t r = 0; r < g->n && !*rcp; r++)
		*rcp = row[r].rc;
	return row;
}

/* The v-operations: every rank's receive buffer (rc2 of row) agreed on
 * before anything is copied; the lowest failing rank's rc or 0. */
static int
agree_buffers(struct dcomm *c, struct post *row, const void *buf)
{
	struct dct_rank *k = c->impl;
	row[c->rank].rc2 = buf ? 0 : ERR_NOMEM;
	bar_wait(&k->g->bar, k->g->n);
	for (uint32_t r = 0; r < k->g->n; r++)
		if (row[r].rc2)
			return row[r].rc2;
	return 0;
}

static int
dct_agree(struct dcomm *c, int rc)
{
	post_all(c, NULL, 0, NULL, 0, 0, rc, &rc);
	return rc;
}

static int
dct_reduce(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op)
{
	struct dct_rank *k = c->impl;
	int rc;
	struct post *row = post_all(c, NULL, 0, v, n * sizeof *v, n, 0, &rc);
	if (rc || !n)
		return rc;
	memcpy(v, row[0].data, n * sizeof *v);
	for (uint32_t r = 1; r < k->g->n; r++) {
		const uint64_t *x = row[r].data;
		for (size_t i = 0; i < n; i++)
			v[i] = op == DCOMM_SUM ? sat_add(v[i], x[i]) :
			       op == DCOMM_MIN ? (x[i] < v[i] ? x[i] : v[i]) :
						 (x[i] > v[i] ? x[i] : v[i]);
	}
	return 0;
}

static int
dct_exscan(struct dcomm *c, uint64_t *v, size_t n)
{
	int rc;
	struct post *row = post_all(c, NULL, 0, v, n * sizeof *v, n, 0, &rc);
	if (rc || !n)
		return rc;
	memset(v, 0, n * sizeof *v);
	for (uint32_t r = 0; r < c->rank; r++) {
		const uint64_t *x = row[r].data;
		for (size_t i = 0; i < n; i++)
			v[i] = sat_add(v[i], x[i]);
	}
	return 0;
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
	struct dct_rank *k = c->impl;
	uint32_t size = k->g->n;
	*recv = NULL;
	uint64_t sent = 0;
	for (uint32_t r = 0; r < size; r++)
		sent += scount[r];
	int rc;
	struct post *row = post_all(c, scount, size, send, sent, 0, 0, &rc);
	if (rc)
		return rc;
	uint64_t total = 0;
	for (uint32_t r = 0; r < size; r++) {
		part_for(&row[r], c->rank, &rcount[r]);
		total += rcount[r];
	}
	char *buf = malloc(total ? total : 1);
	rc = agree_buffers(c, row, buf);
	uint64_t at = 0;
	for (uint32_t r = 0; r < size && !rc; r++) {
		uint64_t len;
		const char *from = part_for(&row[r], c->rank, &len);
		if (len)
			memcpy(buf + at, from, len);
		at += len;
	}
	if (rc)
		free(buf);
	else
		*recv = buf;
	return rc;
}

static int
dct_allgatherv(struct dcomm *c, const void *send, uint64_t n, void **recv, uint64_t *rcount)
{
	struct dct_rank *k = c->impl;
	*recv = NULL;
	int rc;
	struct post *row = post_all(c, NULL, 0, send, n, n, 0, &rc);
	if (rc)
		return rc;
	uint64_t total = 0;
	for (uint32_t r = 0; r < k->g->n; r++)
		total += rcount[r] = row[r].n;
	char *buf = malloc(total ? total : 1);
	rc = agree_buffers(c, row, buf);
	uint64_t at = 0;
	for (uint32_t r = 0; r < k->g->n && !rc; r++) {
		if (row[r].n)
			memcpy(buf + at, row[r].data, row[r].n);
		at += row[r].n;
	}
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
		k[r] = (struct dct_rank){ g, { r, n, &dct_ops, &k[r] }, 0, fn, ud, 0 };
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
	for (uint32_t r = 0; g && r < DCT_MAX; r++) {
		free(g->post[0][r].buf);
		free(g->post[1][r].buf);
	}
	free(g);
	free(k);
	free(th);
	return rc;
}
