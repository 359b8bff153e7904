/* dcomm_mpi.c — dcomm (base/dcomm.h) over MPI.
 *
 * Every operation is MPI's non-blocking collective or point-to-point
 * messages on a communicator of its own (a duplicate, so skein-mpi's own
 * messages never meet these), waited for with yields, then sleeps,
 * between polls.
 * Byte counts are 64-bit: data moves in messages of at most CHUNK bytes
 * (MPI counts are ints). Where a rank must allocate what it receives,
 * the allocations are agreed on before any data moves, so a rank out of
 * memory makes every rank return ERR_NOMEM instead of leaving one
 * waiting.
 */
#include "dcomm_mpi.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "base/sat.h"

#define CHUNK ((uint64_t)1 << 30)
#define VALUES ((size_t)1 << 26)     /* values per reduction call */
#define TAG 5

/* The reductions are operations of our own: MPICH 4.0's MPI_MIN and
 * MPI_MAX over MPI_UINT64_T compare values with the top bit set as if
 * signed (UINT64_MAX, which the stages use for "none", loses to
 * anything), and a saturating sum is none of MPI's. */
struct dcm {
	MPI_Comm comm;
	MPI_Op sum, min, max;
};

/* Waits for n requests: polls SPIN times, then YIELD times giving the
 * core away between polls, then sleeps 0.1 ms between them. On a node
 * with more ranks than cores (a login node, the tests) the rank a wait
 * needs is often ready to run on the waiter's own core: sched_yield
 * hands the core over at once, where a 0.1 ms sleep took 0.25 ms on a
 * 2-core VM (timer slack, the hypervisor), and a small trace's 900
 * operations on 4 ranks were 0.7 s of sleeping. With a core a rank,
 * sched_yield returns at once and the yields are a few milliseconds of
 * polling before the sleeps begin. */
#define SPIN 100
#define YIELD 1000
static void
wait_asleep(int n, MPI_Request *rq)
{
	int done = 0;
	for (unsigned polls = 0; !done; polls++) {
		/* gcc takes MPICH's MPI_STATUSES_IGNORE for an array of size 0 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
		int rc = MPI_Testall(n, rq, &done, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
		if (rc != MPI_SUCCESS)
			return;
		if (done || polls < SPIN)
			continue;
		if (polls < SPIN + YIELD)
			sched_yield();
		else
			nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
}

static void
sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++)
		b[i] = sat_add(a[i], b[i]);
}

static void
min_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++)
		b[i] = a[i] < b[i] ? a[i] : b[i];
}

static void
max_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	const uint64_t *a = in;
	uint64_t *b = inout;
	for (int i = 0; i < *len; i++)
		b[i] = a[i] > b[i] ? a[i] : b[i];
}

static int
dcm_agree(struct dcomm *c, int rc)
{
	struct dcm *m = c->impl;
	int mine = rc ? (int)c->rank : (int)c->size, first;
	MPI_Request rq;
	MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, m->comm, &rq);
	wait_asleep(1, &rq);
	if (first == (int)c->size)
		return 0;
	int code = rc;
	MPI_Ibcast(&code, 1, MPI_INT, first, m->comm, &rq);
	wait_asleep(1, &rq);
	return code;
}

static MPI_Op
op_of(const struct dcm *m, enum dcomm_op op)
{
	return op == DCOMM_SUM ? m->sum : op == DCOMM_MIN ? m->min : m->max;
}

static int
dcm_reduce(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op)
{
	struct dcm *m = c->impl;
	for (size_t at = 0; at < n; at += VALUES) {
		int k = (int)(n - at < VALUES ? n - at : VALUES);
		MPI_Request rq;
		MPI_Iallreduce(MPI_IN_PLACE, v + at, k, MPI_UINT64_T, op_of(m, op), m->comm, &rq);
		wait_asleep(1, &rq);
	}
	return 0;
}

static int
dcm_exscan(struct dcomm *c, uint64_t *v, size_t n)
{
	struct dcm *m = c->impl;
	for (size_t at = 0; at < n; at += VALUES) {
		int k = (int)(n - at < VALUES ? n - at : VALUES);
		MPI_Request rq;
		MPI_Iexscan(MPI_IN_PLACE, v + at, k, MPI_UINT64_T, m->sum, m->comm, &rq);
		wait_asleep(1, &rq);
	}
	if (c->rank == 0)
		memset(v, 0, n * sizeof *v);   /* MPI leaves rank 0's undefined */
	return 0;
}

static size_t
chunks(uint64_t n)
{
	return (size_t)((n + CHUNK - 1) / CHUNK);
}

/* Posts the messages of n bytes to or from rank r, in CHUNK pieces. */
static void
post(struct dcm *m, int recv, char *buf, uint64_t n, int r, MPI_Request *rq, size_t *k)
{
	for (uint64_t at = 0; at < n; at += CHUNK) {
		int len = (int)(n - at < CHUNK ? n - at : CHUNK);
		if (recv)
			MPI_Irecv(buf + at, len, MPI_BYTE, r, TAG, m->comm, &rq[(*k)++]);
		else
			MPI_Isend(buf + at, len, MPI_BYTE, r, TAG, m->comm, &rq[(*k)++]);
	}
}

/* Waits for k requests, in batches MPI's int count takes. */
static void
wait_requests(MPI_Request *rq, size_t k)
{
	for (size_t at = 0; at < k; at += (size_t)1 << 30)
		wait_asleep((int)(k - at < ((size_t)1 << 30) ? k - at : (size_t)1 << 30), rq + at);
}

static int
dcm_alltoallv(struct dcomm *c, const void *send, const uint64_t *scount, void **recv,
	      uint64_t *rcount)
{
	struct dcm *m = c->impl;
	uint32_t n = c->size, me = c->rank;
	*recv = NULL;
	MPI_Request one;
	MPI_Ialltoall(scount, 1, MPI_UINT64_T, rcount, 1, MPI_UINT64_T, m->comm, &one);
	wait_asleep(1, &one);
	uint64_t total = 0;
	size_t n_rq = 0;
	for (uint32_t r = 0; r < n; r++) {
		total += rcount[r];
		if (r != me)
			n_rq += chunks(rcount[r]) + chunks(scount[r]);
	}
	char *buf = malloc(total ? total : 1);
	MPI_Request *rq = malloc((n_rq + 1) * sizeof *rq);
	int rc = dcm_agree(c, buf && rq ? 0 : ERR_NOMEM);
	if (rc) {
		free(buf);
		free(rq);
		return rc;
	}
	size_t k = 0;
	uint64_t rat = 0, sat = 0;
	for (uint32_t r = 0; r < n; r++) {
		if (r == me && rcount[r])        /* send may be NULL when empty */
			memcpy(buf + rat, (const char *)send + sat, rcount[r]);
		else
			post(m, 1, buf + rat, rcount[r], (int)r, rq, &k);
		rat += rcount[r];
		sat += scount[r];
	}
	sat = 0;
	for (uint32_t r = 0; r < n; r++) {
		if (r != me)
			post(m, 0, (char *)send + sat, scount[r], (int)r, rq, &k);
		sat += scount[r];
	}
	wait_requests(rq, k);
	free(rq);
	*recv = buf;
	return 0;
}

static int
dcm_allgatherv(struct dcomm *c, const void *send, uint64_t len, void **recv, uint64_t *rcount)
{
	struct dcm *m = c->impl;
	uint32_t n = c->size, me = c->rank;
	*recv = NULL;
	MPI_Request one;
	MPI_Iallgather(&len, 1, MPI_UINT64_T, rcount, 1, MPI_UINT64_T, m->comm, &one);
	wait_asleep(1, &one);
	uint64_t total = 0;
	size_t n_rq = 0;
	for (uint32_t r = 0; r < n; r++) {
		total += rcount[r];
		if (r != me)
			n_rq += chunks(rcount[r]) + chunks(len);
	}
	char *buf = malloc(total ? total : 1);
	MPI_Request *rq = malloc((n_rq + 1) * sizeof *rq);
	int rc = dcm_agree(c, buf && rq ? 0 : ERR_NOMEM);
	if (rc) {
		free(buf);
		free(rq);
		return rc;
	}
	size_t k = 0;
	uint64_t at = 0;
	for (uint32_t r = 0; r < n; r++) {
		if (r == me)
			memcpy(buf + at, send, len);
		else
			post(m, 1, buf + at, rcount[r], (int)r, rq, &k);
		at += rcount[r];
	}
	for (uint32_t r = 0; r < n; r++)
		if (r != me)
			post(m, 0, (char *)send, len, (int)r, rq, &k);
	wait_requests(rq, k);
	free(rq);
	*recv = buf;
	return 0;
}

static const struct dcomm_ops dcm_ops = {
	dcm_agree, dcm_reduce, dcm_exscan, dcm_alltoallv, dcm_allgatherv,
};

int
dcomm_mpi_init(struct dcomm *c, MPI_Comm comm)
{
	MPI_Comm dup;
	MPI_Comm_dup(comm, &dup);
	struct dcm *m = calloc(1, sizeof *m);
	int ok = m != NULL, all;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, dup);
	if (!all) {
		free(m);
		MPI_Comm_free(&dup);
		return ERR_NOMEM;
	}
	int rank, size;
	m->comm = dup;
	MPI_Comm_rank(dup, &rank);
	MPI_Comm_size(dup, &size);
	MPI_Op_create(sum_fn, 1, &m->sum);
	MPI_Op_create(min_fn, 1, &m->min);
	MPI_Op_create(max_fn, 1, &m->max);
	*c = (struct dcomm){ (uint32_t)rank, (uint32_t)size, &dcm_ops, m };
	return 0;
}

void
dcomm_mpi_fini(struct dcomm *c)
{
	struct dcm *m = c->impl;
	if (!m)
		return;
	MPI_Op_free(&m->sum);
	MPI_Op_free(&m->min);
	MPI_Op_free(&m->max);
	MPI_Comm_free(&m->comm);
	free(m);
	c->impl = NULL;
}
