/* testdsl.h — a tiny trace-writing language over the builder, for tests
 * whose traces are written by hand: ranks, calls, sends and receives,
 * Isends, Irecvs and Waitall, Sendrecv, collectives; then the lop of a
 * rank's n-th communication (comm) and its step and partition. */
#ifndef SKEIN_TESTDSL_H
#define SKEIN_TESTDSL_H

#include "testutil.h"

#include "analysis/core/analysis.h"
#include "model/build.h"
#include "model/trace_impl.h"

enum { R_MAIN, R_ITER, R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAITALL, R_SENDRECV,
       R_ALLREDUCE, R_BCAST, R_STEP, R_PUT, R_GET, R_TEST, R_COUNT };

/* ---- a tiny trace-writing DSL over the builder ---- */

struct dsl {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_COUNT];
	uint64_t now;
	uint64_t req;
	uint64_t done;      /* when the next Waitall's last completion arrives */
};

static inline struct dsl *
dsl_new(uint32_t ranks)
{
	struct dsl *d = calloc(1, sizeof *d);
	d->t = trace_new();
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "main", ROLE_USER }, { "iteration", ROLE_USER }, { "MPI_Send", ROLE_SEND },
		{ "MPI_Recv", ROLE_RECV }, { "MPI_Isend", ROLE_SEND }, { "MPI_Irecv", ROLE_RECV },
		{ "MPI_Waitall", ROLE_WAIT }, { "MPI_Sendrecv", ROLE_SENDRECV },
		{ "MPI_Allreduce", ROLE_COLLECTIVE }, { "MPI_Bcast", ROLE_COLLECTIVE },
		{ "step", ROLE_USER }, { "put", ROLE_USER }, { "get", ROLE_USER },
		{ "MPI_Test", ROLE_WAIT },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(d->t, regions[i].name, regions[i].role, 4, &d->reg[i]), 0);
	uint32_t *world = malloc(((size_t)ranks + 1) * sizeof *world), id;
	assert_non_null(world);
	for (uint32_t i = 0; i < ranks; i++)
		world[i] = i;
	assert_int_equal(trace_add_comm(d->t, 0, world, ranks, 0, &id), 0);
	free(world);
	assert_int_equal(trace_set_timelines(d->t, ranks), 0);
	d->b = build_create(d->t);
	return d;
}

static inline void
rank(struct dsl *d, uint32_t r)
{
	if (r)
		assert_int_equal(build_timeline_end(d->b), 0);
	assert_int_equal(build_timeline_begin(d->b, r), 0);
	d->now = 0;
	d->req = 0;
}

static inline struct trace *
dsl_done(struct dsl *d)
{
	assert_int_equal(build_timeline_end(d->b), 0);
	assert_int_equal(build_finish(d->b, NULL, NULL), 0);
	build_destroy(d->b);
	struct trace *t = d->t;
	free(d);
	return t;
}

static inline void at(struct dsl *d, uint64_t t) { if (t > d->now) d->now = t; }
static inline void completes_at(struct dsl *d, uint64_t t) { d->done = t; }
static inline void work(struct dsl *d, uint64_t dt) { d->now += dt; }

static inline void
call(struct dsl *d, int region)
{
	assert_int_equal(build_enter(d->b, d->now, d->reg[region]), 0);
}

static inline void
ret(struct dsl *d, int region)
{
	d->now += 1;
	assert_int_equal(build_leave(d->b, d->now, d->reg[region]), 0);
	d->now += 1;
}

static inline void
send_bytes(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t bytes)
{
	call(d, R_SEND);
	assert_int_equal(build_send(d->b, d->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	ret(d, R_SEND);
}

static inline void
recv_bytes(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t bytes)
{
	call(d, R_RECV);
	assert_int_equal(build_recv(d->b, d->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	ret(d, R_RECV);
}

static inline void send(struct dsl *d, uint32_t peer, uint32_t tag) { send_bytes(d, peer, tag, 8); }
static inline void recv(struct dsl *d, uint32_t peer, uint32_t tag) { recv_bytes(d, peer, tag, 8); }

/* Isend with request id = ++req; returns the request */
static inline uint64_t
isend(struct dsl *d, uint32_t peer, uint32_t tag)
{
	call(d, R_ISEND);
	assert_int_equal(build_send(d->b, d->now, peer, 0, tag, 8, ++d->req), 0);
	ret(d, R_ISEND);
	return d->req;
}

static inline uint64_t
irecv(struct dsl *d)
{
	call(d, R_IRECV);
	assert_int_equal(build_irecv_request(d->b, d->now, ++d->req), 0);
	ret(d, R_IRECV);
	return d->req;
}

/* Waitall completing n requests: sends[i] (isend requests) and the
 * receives (req, peer, tag) */
struct rq { uint64_t req; uint32_t peer, tag; int is_recv; };
static inline void
waitall(struct dsl *d, const struct rq *rq, int n)
{
	call(d, R_WAITALL);
	d->now = d->done > d->now ? d->done : d->now;    /* blocked inside */
	d->done = 0;
	for (int i = 0; i < n; i++) {
		if (rq[i].is_recv)
			assert_int_equal(build_recv(d->b, d->now, rq[i].peer, 0, rq[i].tag, 8, rq[i].req), 0);
		else
			assert_int_equal(build_isend_complete(d->b, d->now, rq[i].req), 0);
	}
	ret(d, R_WAITALL);
}

static inline void
sendrecv(struct dsl *d, uint32_t to, uint32_t from, uint32_t tag)
{
	call(d, R_SENDRECV);
	assert_int_equal(build_send(d->b, d->now, to, 0, tag, 8, UINT64_MAX), 0);
	assert_int_equal(build_recv(d->b, d->now, from, 0, tag, 8, UINT64_MAX), 0);
	ret(d, R_SENDRECV);
}

static inline void
allreduce(struct dsl *d)
{
	call(d, R_ALLREDUCE);
	assert_int_equal(build_coll_begin(d->b, d->now), 0);
	assert_int_equal(build_coll_end(d->b, d->now, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
	ret(d, R_ALLREDUCE);
}

static inline void
bcast(struct dsl *d, uint32_t root)
{
	call(d, R_BCAST);
	assert_int_equal(build_coll_begin(d->b, d->now), 0);
	assert_int_equal(build_coll_end(d->b, d->now, COLL_BCAST, 0, root, 8, 8), 0);
	ret(d, R_BCAST);
}

#define analyse tu_analyse

/* The lop of the n-th communication operation (0-based) of rank r. */
static inline uint32_t
comm(const struct analysis *a, uint32_t r, uint32_t n)
{
	uint32_t l = tu_comm_lop(a, r, n);
	if (l == TRACE_NONE)
		fail_msg("rank %u has no communication op %u", r, n);
	return l;
}

#define STEP(a, r, n) analysis_lop_step(a, comm(a, r, n))
#define PART(a, r, n) analysis_lop_part(a, comm(a, r, n))

#endif
