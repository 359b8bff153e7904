/* testwaits.h — the hand-written traces' waiting calls (tests of the
 * wait states and of the critical path): blocking calls held until a
 * given time, and a common start. Over testdsl.h. */
#ifndef SKEIN_TESTWAITS_H
#define SKEIN_TESTWAITS_H

#include "testdsl.h"

#include "analysis/explain/explain.h"

/* A blocking receive that waits inside until `until`. */
static inline void
recv_until(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t until)
{
	call(d, R_RECV);
	at(d, until);
	assert_int_equal(build_recv(d->b, d->now, peer, 0, tag, 8, UINT64_MAX), 0);
	ret(d, R_RECV);
}

/* A blocking MPI_Send that stays in its call until `until`. */
static inline void
send_until(struct dsl *d, uint32_t peer, uint32_t tag, uint64_t until)
{
	call(d, R_SEND);
	assert_int_equal(build_send(d->b, d->now, peer, 0, tag, 8, UINT64_MAX), 0);
	at(d, until);
	ret(d, R_SEND);
}

/* A collective of `type` entered now and left at `until`. */
static inline void
coll_until(struct dsl *d, int type, uint32_t root, uint64_t until)
{
	call(d, R_ALLREDUCE);
	assert_int_equal(build_coll_begin(d->b, d->now), 0);
	at(d, until);
	assert_int_equal(build_coll_end(d->b, d->now, (uint8_t)type, 0, root, 8, 8), 0);
	ret(d, R_ALLREDUCE);
}

static inline void
start(struct dsl *d, uint32_t r)
{
	rank(d, r);
	coll_until(d, COLL_ALLREDUCE, UINT32_MAX, 0);   /* 0 to 1, now 2 */
}

static inline const struct analysis_wait *
wait_of(const struct analysis *a, uint32_t lop)
{
	const struct analysis_wait *w = analysis_lop_wait(a, lop);
	if (!w)
		fail_msg("lop %u has no wait state", lop);
	return w;
}

/* Lop l's wait is of kind k, lasted ticks t, waited for cause c and has
 * root r as its root (a macro: a failure names the caller's line). */
#define assert_wait(a, l, k, t, c, r) do { \
	const struct analysis_wait *w_ = wait_of((a), (l)); \
	assert_int_equal(w_->kind, (k)); \
	assert_int_equal(w_->time, (t)); \
	assert_int_equal(w_->cause_lop, (c)); \
	assert_int_equal(w_->root_lop, (r)); \
} while (0)

#endif
