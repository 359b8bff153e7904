/* dcomm.h — the collective operations a distributed stage is written
 * against (doc/distributed.md), whatever carries them: MPI in skein-mpi
 * (mpi/skein_mpi.c), threads in one process for the tests
 * (dcomm_threads_run).
 *
 * Every operation is collective: each of the `size` ranks calls it, in
 * the same order, and it returns the same value on every rank: 0, or the
 * error of the lowest rank that failed (a rank out of memory for what it
 * receives still takes part, so no rank waits for ever). Counts are in
 * bytes; what is received is malloc'd and the caller's to free, also on
 * failure (then NULL).
 */
#ifndef SKEIN_DCOMM_H
#define SKEIN_DCOMM_H

#include <stddef.h>
#include <stdint.h>

enum dcomm_op { DCOMM_SUM, DCOMM_MIN, DCOMM_MAX };

struct dcomm;

struct dcomm_ops {
	/* rc of the lowest rank whose rc is non-zero, or 0 */
	int (*agree)(struct dcomm *c, int rc);
	/* v[0 .. n) combined over the ranks, in place (SUM saturates) */
	int (*reduce)(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op);
	/* v[i] becomes the sum of v[i] over the ranks below this one (0 on
	 * rank 0), in place */
	int (*exscan)(struct dcomm *c, uint64_t *v, size_t n);
	/* scount[r] bytes from send (in rank order) go to rank r; *recv
	 * holds what came, rcount[r] bytes from rank r, in rank order */
	int (*alltoallv)(struct dcomm *c, const void *send, const uint64_t *scount, void **recv,
			 uint64_t *rcount);
	/* every rank's n bytes, in rank order, to every rank */
	int (*allgatherv)(struct dcomm *c, const void *send, uint64_t n, void **recv,
			  uint64_t *rcount);
};

struct dcomm {
	uint32_t rank, size;
	const struct dcomm_ops *ops;
	void *impl;
};

static inline int dcomm_agree(struct dcomm *c, int rc) { return c->ops->agree(c, rc); }

static inline int
dcomm_reduce(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op)
{
	return c->ops->reduce(c, v, n, op);
}

static inline int dcomm_exscan(struct dcomm *c, uint64_t *v, size_t n) { return c->ops->exscan(c, v, n); }

static inline int
dcomm_alltoallv(struct dcomm *c, const void *send, const uint64_t *scount, void **recv,
		uint64_t *rcount)
{
	return c->ops->alltoallv(c, send, scount, recv, rcount);
}

static inline int
dcomm_allgatherv(struct dcomm *c, const void *send, uint64_t n, void **recv, uint64_t *rcount)
{
	return c->ops->allgatherv(c, send, n, recv, rcount);
}

/* The rank holding item x of n cut into `size` equal runs (rank r holds
 * [n·r/size, n·(r+1)/size)): the last r whose run starts at or before x. */
static inline uint32_t
dcomm_even_owner(uint32_t x, uint32_t n, uint32_t size)
{
	uint64_t r = n ? ((uint64_t)(x + 1) * size - 1) / n : 0;
	return r < size ? (uint32_t)r : size - 1;
}

/* Collective: every rank's value of `mine` into out[0 .. size), and
 * `last` (the same on every rank) into out[size]: a table of where each
 * rank's run starts. */
int dcomm_firsts(struct dcomm *c, uint32_t mine, uint32_t last, uint32_t *out);

/* Collective: each rank's n_mine records of `size` bytes, in rank order,
 * into out (room for n_all, the sum over the ranks). */
int dcomm_gather_runs(struct dcomm *c, const void *mine, size_t n_mine, size_t size, void *out,
		      size_t n_all);

/* Collective: n records of `size` bytes, record i to rank dest[i]; *recv
 * (malloc'd, the caller's) holds the *n_recv records that came, in rank
 * order, each rank's in the order it gave them. */
int dcomm_exchange(struct dcomm *c, const void *recs, size_t n, size_t size, const uint32_t *dest,
		   void **recv, size_t *n_recv);

/* Collective: records of `size` bytes already packed by destination in
 * send (count[r] bytes for rank r), sent once every rank agrees on rc
 * (this rank's code); *recv (malloc'd, the caller's) holds the *n_recv
 * that came, in rank order, rcount[r] bytes from rank r. Returns the
 * agreed code, or the exchange's. */
int dcomm_send_packed(struct dcomm *c, int rc, const void *send, const uint64_t *count,
		      uint64_t *rcount, size_t size, void **recv, size_t *n_recv);

/* dcomm_exchange without a second copy of what is sent: recs and dest
 * are reordered in place, by destination, and what comes from a rank
 * is not in the order it gave it. recs and dest may be NULL when n is 0. */
int dcomm_exchange_unordered(struct dcomm *c, void *recs, size_t n, size_t size, uint32_t *dest,
			     void **recv, size_t *n_recv);

/* dcomm_agree, and the message of the lowest failing rank in e on every
 * rank (rc is this rank's, e its message when rc is non-zero; e may be
 * NULL). Returns the agreed code. */
struct err;
int dcomm_agree_err(struct dcomm *c, int rc, struct err *e);

/* Runs fn(c, ud) on n ranks, each on a thread of its own with a dcomm
 * over shared memory (the tests' stand-in for MPI). Returns the lowest
 * rank's non-zero return, or 0; ERR_NOMEM when the threads cannot be
 * started. */
int dcomm_threads_run(uint32_t n, int (*fn)(struct dcomm *c, void *ud), void *ud);

#endif
