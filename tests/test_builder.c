/* test_builder.c — the event-stream-to-operations state machine and the
 * matching of messages and collectives, on synthetic streams whose answer
 * is known exactly. */
#include "testutil.h"

#include <string.h>

#include "model/build.h"
#include "model/trace_impl.h"
#include "otf2/otf2_impl.h"

#define BLOCKING UINT64_MAX

enum { R_MAIN, R_LOOP, R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAITALL, R_SENDRECV,
       R_ALLREDUCE, R_BARRIER, R_COUNT };
enum { C_WORLD, C_SELF, C_SUB };

struct fx {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_COUNT];
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	f->t = trace_new();
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "main", ROLE_USER }, { "loop", ROLE_USER }, { "MPI_Send", ROLE_SEND },
		{ "MPI_Recv", ROLE_RECV }, { "MPI_Isend", ROLE_SEND },
		{ "MPI_Irecv", ROLE_RECV }, { "MPI_Waitall", ROLE_WAIT },
		{ "MPI_Sendrecv", ROLE_SENDRECV }, { "MPI_Allreduce", ROLE_COLLECTIVE },
		{ "MPI_Barrier", ROLE_COLLECTIVE },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(f->t, regions[i].name, regions[i].role, 4, &f->reg[i]), 0);
	uint32_t world[4] = { 0, 1, 2, 3 }, sub[2] = { 1, 3 }, id;
	assert_int_equal(trace_add_comm(f->t, 0, world, 4, 0, &id), 0);
	assert_int_equal(id, C_WORLD);
	assert_int_equal(trace_add_comm(f->t, 0, NULL, 0, 1, &id), 0);
	assert_int_equal(trace_add_comm(f->t, 0, sub, 2, 0, &id), 0);
	assert_int_equal(trace_set_timelines(f->t, 4), 0);
	f->b = build_create(f->t);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;
	build_destroy(f->b);
	trace_destroy(f->t);
	free(f);
	return 0;
}

/* Small wrappers so a stream reads like a trace. */
#define TL(r) assert_int_equal(build_timeline_begin(f->b, (r)), 0)
#define END() assert_int_equal(build_timeline_end(f->b), 0)
#define ENTER(t, r) assert_int_equal(build_enter(f->b, (t), f->reg[r]), 0)
#define LEAVE(t, r) assert_int_equal(build_leave(f->b, (t), f->reg[r]), 0)
#define SEND(t, peer, comm, tag, bytes, req) \
	assert_int_equal(build_send(f->b, (t), (peer), (comm), (tag), (bytes), (req)), 0)
#define RECV(t, peer, comm, tag, bytes, req) \
	assert_int_equal(build_recv(f->b, (t), (peer), (comm), (tag), (bytes), (req)), 0)
#define COLL(t, type, comm, root) \
	do { \
		assert_int_equal(build_coll_begin(f->b, (t)), 0); \
		assert_int_equal(build_coll_end(f->b, (t), (type), (comm), (root), 8, 8), 0); \
	} while (0)
#define FINISH() assert_int_equal(build_finish(f->b, NULL, NULL), 0)

static struct trace_op
op(struct fx *f, uint32_t i)
{
	uint32_t n;
	trace_ops(f->t, &n);
	assert_true(i < n);
	return trace_op(f->t, i);
}

static void
blocking_pair(void **state)
{
	struct fx *f = *state;
	TL(0); ENTER(0, R_MAIN); ENTER(10, R_SEND); SEND(11, 1, C_WORLD, 7, 100, BLOCKING);
	LEAVE(20, R_SEND); LEAVE(30, R_MAIN); END();
	TL(1); ENTER(0, R_MAIN); ENTER(5, R_RECV); RECV(25, 0, C_WORLD, 7, 100, BLOCKING);
	LEAVE(26, R_RECV); LEAVE(30, R_MAIN); END();
	TL(2); END(); TL(3); END();
	FINISH();
	uint32_t n_ops, n_msgs;
	trace_ops(f->t, &n_ops);
	const struct trace_msg *m = trace_msgs(f->t, &n_msgs);
	assert_int_equal(n_ops, 4);
	assert_int_equal(n_msgs, 1);
	assert_int_equal(op(f, 0).kind, OP_COMPUTE);
	assert_int_equal(op(f, 0).t_enter, 0);
	assert_int_equal(op(f, 0).t_exit, 10);
	assert_int_equal(op(f, 1).kind, OP_SEND);
	assert_int_equal(op(f, 1).t_exit, 20);
	assert_int_equal(op(f, 3).kind, OP_RECV);
	assert_int_equal(m[0].send_op, 1);
	assert_int_equal(m[0].recv_op, 3);
	assert_int_equal(m[0].send_done_op, 1);
	assert_int_equal(m[0].t_send, 11);
	assert_int_equal(m[0].t_recv, 25);
	assert_int_equal(m[0].receiver, 1);
	/* both ops sit in frame "main" */
	uint32_t n_frames;
	const struct trace_frame *fr = trace_frames(f->t, &n_frames);
	assert_int_equal(n_frames, 2);
	assert_int_equal(op(f, 1).frame, 0);
	assert_int_equal(fr[0].t_leave, 30);
	assert_int_equal(op(f, 3).frame, 1);
	assert_int_equal(fr[1].timeline, 1);
}

/* MPI's non-overtaking rule per (sender, receiver, comm, tag); tags and
 * communicators do not cross. */
static void
fifo_per_channel(void **state)
{
	struct fx *f = *state;
	TL(0);
	ENTER(1, R_SEND); SEND(1, 1, C_WORLD, 5, 10, BLOCKING); LEAVE(2, R_SEND);
	ENTER(3, R_SEND); SEND(3, 1, C_WORLD, 6, 20, BLOCKING); LEAVE(4, R_SEND);
	ENTER(5, R_SEND); SEND(5, 1, C_WORLD, 5, 30, BLOCKING); LEAVE(6, R_SEND);
	END();
	TL(1);
	ENTER(10, R_RECV); RECV(10, 0, C_WORLD, 6, 20, BLOCKING); LEAVE(11, R_RECV);
	ENTER(12, R_RECV); RECV(12, 0, C_WORLD, 5, 10, BLOCKING); LEAVE(13, R_RECV);
	ENTER(14, R_RECV); RECV(14, 0, C_WORLD, 5, 30, BLOCKING); LEAVE(15, R_RECV);
	END();
	TL(2); END(); TL(3); END();
	FINISH();
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 3);
	/* send ops are 1, 3, 5; receive ops on rank 1 are 7, 9, 11 */
	assert_int_equal(m[0].recv_op, 9);    /* first tag-5 send -> second receive */
	assert_int_equal(m[1].recv_op, 7);    /* tag 6 */
	assert_int_equal(m[2].recv_op, 11);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(m[i].bytes, (i + 1) * 10);
}

static void
isend_irecv_waitall(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 2; r++) {
		uint32_t peer = 1 - r;
		TL(r);
		ENTER(0, R_IRECV); build_irecv_request(f->b, 1, 41); LEAVE(2, R_IRECV);
		ENTER(3, R_ISEND); SEND(4, peer, C_WORLD, 0, 8, 42); LEAVE(5, R_ISEND);
		ENTER(6, R_WAITALL);
		assert_int_equal(build_isend_complete(f->b, 7, 42), 0);
		RECV(8, peer, C_WORLD, 0, 8, 41);
		LEAVE(9, R_WAITALL);
		END();
	}
	TL(2); END(); TL(3); END();
	FINISH();
	/* per rank: compute, Isend, compute, Waitall (the Irecv is no op) */
	uint32_t n_ops, n_msgs;
	trace_ops(f->t, &n_ops);
	const struct trace_msg *m = trace_msgs(f->t, &n_msgs);
	assert_int_equal(n_ops, 8);
	assert_int_equal(n_msgs, 2);
	assert_int_equal(op(f, 1).kind, OP_SEND);
	assert_int_equal(op(f, 3).kind, OP_RECV);
	assert_int_equal(m[0].send_op, 1);
	assert_int_equal(m[0].send_done_op, 3);
	assert_int_equal(m[0].recv_op, 7);
	uint32_t ne;
	const struct trace_end *e = trace_op_ends(f->t, 3, &ne);
	assert_int_equal(ne, 2);
	assert_int_equal(e[0].role, END_ISEND_DONE);
	assert_int_equal(e[0].id, 0);
	assert_int_equal(e[1].role, END_RECV);
	assert_int_equal(e[1].id, 1);
	assert_int_equal(trace_info(f->t)->warnings[WARN_UNKNOWN_REQUEST], 0);
}

static void
sendrecv_keeps_both(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 2; r++) {
		TL(r);
		ENTER(0, R_SENDRECV);
		SEND(1, 1 - r, C_WORLD, 3, 16, BLOCKING);
		RECV(2, 1 - r, C_WORLD, 3, 16, BLOCKING);
		LEAVE(3, R_SENDRECV);
		END();
	}
	TL(2); END(); TL(3); END();
	FINISH();
	assert_int_equal(op(f, 1).kind, OP_SENDRECV);
	assert_int_equal(op(f, 3).kind, OP_SENDRECV);
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].send_op, 1);
	assert_int_equal(m[0].recv_op, 3);
	assert_int_equal(m[1].send_op, 3);
	assert_int_equal(m[1].recv_op, 1);
}

/* Local ranks on a sub-communicator and on a self communicator are
 * translated to world ranks. */
static void
rank_translation(void **state)
{
	struct fx *f = *state;
	TL(0); END();
	TL(1); ENTER(0, R_SEND); SEND(0, 1, C_SUB, 0, 1, BLOCKING); LEAVE(1, R_SEND); END();
	TL(2);
	ENTER(0, R_SEND); SEND(0, 0, C_SELF, 9, 1, BLOCKING); LEAVE(1, R_SEND);
	ENTER(2, R_RECV); RECV(2, 0, C_SELF, 9, 1, BLOCKING); LEAVE(3, R_RECV);
	END();
	TL(3); ENTER(0, R_RECV); RECV(4, 0, C_SUB, 0, 1, BLOCKING); LEAVE(5, R_RECV); END();
	FINISH();
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].sender, 1);
	assert_int_equal(m[0].receiver, 3);
	assert_int_not_equal(m[0].recv_op, TRACE_NONE);
	assert_int_equal(m[1].sender, 2);
	assert_int_equal(m[1].receiver, 2);
	assert_int_not_equal(m[1].recv_op, TRACE_NONE);
	assert_int_equal(trace_info(f->t)->warnings[WARN_UNMATCHED_SEND], 0);
}

static void
unmatched_and_bad_peers(void **state)
{
	struct fx *f = *state;
	TL(0);
	ENTER(0, R_SEND); SEND(0, 1, C_WORLD, 0, 1, BLOCKING); LEAVE(1, R_SEND);
	ENTER(2, R_SEND); SEND(2, 7, C_WORLD, 0, 1, BLOCKING); LEAVE(3, R_SEND);  /* no rank 7 */
	END();
	TL(1); ENTER(0, R_RECV); RECV(5, 2, C_WORLD, 0, 1, BLOCKING); LEAVE(6, R_RECV); END();
	TL(2); END(); TL(3); END();
	FINISH();
	const struct trace_info *info = trace_info(f->t);
	assert_int_equal(info->warnings[WARN_UNMATCHED_SEND], 1);
	assert_int_equal(info->warnings[WARN_UNMATCHED_RECV], 1);
	assert_int_equal(info->warnings[WARN_BAD_PEER], 1);
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].recv_op, TRACE_NONE);
	assert_int_equal(m[1].send_op, TRACE_NONE);
	assert_int_equal(m[1].sender, 2);
	assert_true(op(f, 1).flags & OPF_UNMATCHED);
	assert_true(op(f, m[1].recv_op).flags & OPF_UNMATCHED);
}

/* Receives without a send become messages after the matched ones,
 * channel by channel in the order the channels were first seen (on a
 * send, else on a receive), each channel's in receive order: the
 * numbering every output shows. */
static void
lone_receives_numbered_by_channel(void **state)
{
	struct fx *f = *state;
	TL(0); ENTER(0, R_SEND); SEND(0, 1, C_WORLD, 5, 1, BLOCKING); LEAVE(1, R_SEND); END();
	TL(1);
	static const uint32_t from[6] = { 2, 0, 3, 0, 2, 0 }, tag[6] = { 1, 5, 0, 5, 1, 5 };
	for (uint64_t i = 0; i < 6; i++) {
		ENTER(10 + 2 * i, R_RECV);
		RECV(10 + 2 * i, from[i], C_WORLD, tag[i], 1, BLOCKING);
		LEAVE(11 + 2 * i, R_RECV);
	}
	END();
	TL(2); END(); TL(3); END();
	FINISH();
	assert_int_equal(trace_info(f->t)->warnings[WARN_UNMATCHED_RECV], 5);
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 6);
	/* channels: (0->1, tag 5) seen on the send, then (2->1, tag 1),
	 * (3->1, tag 0) on receives */
	static const uint64_t t_recv[6] = { 12, 16, 20, 10, 18, 14 };
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(m[i].t_recv, t_recv[i]);
	assert_int_equal(m[3].sender, 2);
	assert_int_equal(m[5].sender, 3);
}

/* One rank's part of a ring exchange large enough to be matched on
 * several workers: each sends K messages to each neighbour and receives
 * theirs, tags cycling, every message's bytes its number on its channel
 * (so a receive paired with the wrong send is a size mismatch). Events
 * [from, to) of rank r's stream. */
enum { RING_K = 10000 };
static void
ring_part(struct fx *f, uint32_t r, uint32_t from, uint32_t to)
{
	static uint32_t seq[4][4][3];         /* [sender][receiver][tag]: next number */
	static uint32_t rseq[4][4][3];        /* [receiver][sender][tag] */
	if (from == 0 && r == 0)
		memset(seq, 0, sizeof seq), memset(rseq, 0, sizeof rseq);
	uint64_t t = 10 + (uint64_t)from * 8;
	for (uint32_t k = from; k < to; k++, t += 8) {
		uint32_t next = (r + 1) % 4, prev = (r + 3) % 4;
		ENTER(t, R_SEND); SEND(t, next, C_WORLD, k % 3, seq[r][next][k % 3]++, BLOCKING); LEAVE(t + 1, R_SEND);
		ENTER(t + 2, R_SEND); SEND(t + 2, prev, C_WORLD, k % 2, seq[r][prev][k % 2]++, BLOCKING);
		LEAVE(t + 3, R_SEND);
		ENTER(t + 4, R_RECV); RECV(t + 4, prev, C_WORLD, k % 3, rseq[r][prev][k % 3]++, BLOCKING);
		LEAVE(t + 5, R_RECV);
		ENTER(t + 6, R_RECV); RECV(t + 6, next, C_WORLD, k % 2, rseq[r][next][k % 2]++, BLOCKING);
		LEAVE(t + 7, R_RECV);
	}
}

/* The ring, plus two receives on rank 2 past what rank 1 sent it on tag
 * 0, three on a channel nothing was sent on, and two sends of rank 3 no
 * one receives; rank 0 read in two pieces (begun twice) when split, so
 * its records are out of op order and matching cannot share the work. */
static void
ring_matched(struct fx *f, int split)
{
	setenv("SKEIN_THREADS", "3", 1);
	TL(0); ring_part(f, 0, 0, split ? RING_K / 2 : RING_K); END();
	TL(1); ring_part(f, 1, 0, RING_K); END();
	TL(2); ring_part(f, 2, 0, RING_K);
	for (uint64_t i = 0; i < 2; i++) {
		ENTER(900000 + i, R_RECV); RECV(900000 + i, 1, C_WORLD, 0, 1, BLOCKING); LEAVE(900000 + i, R_RECV);
	}
	for (uint64_t i = 0; i < 3; i++) {
		ENTER(900010 + i, R_RECV); RECV(900010 + i, 0, C_WORLD, 7, 1, BLOCKING); LEAVE(900010 + i, R_RECV);
	}
	END();
	TL(3); ring_part(f, 3, 0, RING_K);
	for (uint64_t i = 0; i < 2; i++) {
		ENTER(900000 + i, R_SEND); SEND(900000 + i, 0, C_WORLD, 9, 1, BLOCKING); LEAVE(900000 + i, R_SEND);
	}
	END();
	if (split) {
		TL(0); ring_part(f, 0, RING_K / 2, RING_K); END();
	}
	FINISH();
	unsetenv("SKEIN_THREADS");
	/* rank 0 read in two pieces is a model out of rank order: the
	 * stages could not read it, and a saved file holding one is refused
	 * before it is analysed again */
	struct err e = { 0 };
	assert_int_equal(trace_check(f->t, &e), split ? ERR_FORMAT : 0);
	if (split)
		assert_string_equal(e.msg, "timeline 0's operations do not come first");
	const struct trace_info *info = trace_info(f->t);
	assert_int_equal(info->warnings[WARN_SIZE_MISMATCH], 0);
	assert_int_equal(info->warnings[WARN_UNMATCHED_SEND], 2);
	assert_int_equal(info->warnings[WARN_UNMATCHED_RECV], 5);
	uint32_t n;
	const struct trace_msg *m = trace_msgs(f->t, &n);
	assert_int_equal(n, 4 * 2 * RING_K + 2 + 5);
	for (uint32_t i = 0; i < n - 5; i++)
		assert_true((m[i].recv_op == TRACE_NONE) == (m[i].tag == 9));
	/* receives without a send: (1 -> 2, tag 0) was seen first, on a send */
	static const uint32_t sender[5] = { 1, 1, 0, 0, 0 }, tag[5] = { 0, 0, 7, 7, 7 };
	static const uint64_t t_recv[5] = { 900000, 900001, 900010, 900011, 900012 };
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(m[n - 5 + i].sender, sender[i]);
		assert_int_equal(m[n - 5 + i].tag, tag[i]);
		assert_int_equal(m[n - 5 + i].t_recv, t_recv[i]);
		assert_int_equal(m[n - 5 + i].send_op, TRACE_NONE);
	}
}

/* Matching shared among workers gives FIFO pairs per channel and the
 * leftovers in order; out of op order, one worker does it all. */
static void
matching_shared(void **state)
{
	ring_matched(*state, 0);
}

static void
matching_unordered(void **state)
{
	ring_matched(*state, 1);
}

static void
collectives_grouped(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 4; r++) {
		TL(r);
		ENTER(10 * r, R_ALLREDUCE); COLL(10 * r + 1, COLL_ALLREDUCE, C_WORLD, UINT32_MAX);
		LEAVE(10 * r + 2, R_ALLREDUCE);
		if (r == 1 || r == 3) {   /* the sub-communicator {1, 3}, root local 1 */
			ENTER(50, R_BARRIER); COLL(51, COLL_BCAST, C_SUB, 1); LEAVE(52, R_BARRIER);
		}
		ENTER(60, R_BARRIER); COLL(61, COLL_BARRIER, C_SELF, UINT32_MAX); LEAVE(62, R_BARRIER);
		if (r != 2) {             /* rank 2 never reaches the second allreduce */
			ENTER(70, R_ALLREDUCE); COLL(71, COLL_ALLREDUCE, C_WORLD, UINT32_MAX);
			LEAVE(72, R_ALLREDUCE);
		}
		END();
	}
	FINISH();
	uint32_t n;
	const struct trace_coll *c = trace_colls(f->t, &n);
	const uint32_t *members = trace_coll_members(f->t);
	/* world: 2 invocations; sub: 1; self: 4 one-member invocations */
	assert_int_equal(n, 7);
	assert_int_equal(c[0].type, COLL_ALLREDUCE);
	assert_int_equal(c[0].member_count, 4);
	assert_int_equal(c[0].bytes_sent, 32);
	for (uint32_t k = 0; k < 4; k++)
		assert_int_equal(op(f, members[c[0].member_first + k]).timeline, k);
	assert_int_equal(c[1].member_count, 3);
	assert_int_equal(c[1].expected, 4);
	assert_int_equal(c[2].type, COLL_BCAST);
	assert_int_equal(c[2].root, 3);
	assert_int_equal(c[2].member_count, 2);
	for (uint32_t i = 3; i < 7; i++) {
		assert_int_equal(c[i].type, COLL_BARRIER);
		assert_int_equal(c[i].member_count, 1);
		assert_int_equal(c[i].expected, 1);
	}
	assert_int_equal(trace_info(f->t)->warnings[WARN_INCOMPLETE_COLL], 1);
	/* every member op has one END_COLL end naming its invocation */
	uint32_t ne;
	const struct trace_end *e = trace_op_ends(f->t, members[c[2].member_first], &ne);
	assert_int_equal(ne, 1);
	assert_int_equal(e[0].role, END_COLL);
	assert_int_equal(e[0].id, 2);
}

static void
misnested_and_unclosed(void **state)
{
	struct fx *f = *state;
	TL(0);
	ENTER(0, R_MAIN); ENTER(1, R_LOOP);
	LEAVE(2, R_MAIN);           /* closes loop (mis-nested) and main */
	LEAVE(3, R_LOOP);           /* not open any more: stray */
	ENTER(4, R_MAIN);
	ENTER(5, R_SEND); SEND(6, 1, C_WORLD, 0, 1, BLOCKING);   /* never left */
	END();
	TL(1); END(); TL(2); END(); TL(3); END();
	FINISH();
	const struct trace_info *info = trace_info(f->t);
	assert_int_equal(info->warnings[WARN_MISNESTED_LEAVE], 1);
	assert_int_equal(info->warnings[WARN_STRAY_LEAVE], 1);
	assert_int_equal(info->warnings[WARN_UNCLOSED_REGION], 2);
	uint32_t n_frames;
	const struct trace_frame *fr = trace_frames(f->t, &n_frames);
	assert_int_equal(n_frames, 3);
	assert_int_equal(fr[1].parent, 0);
	assert_int_equal(fr[1].depth, 1);
	assert_int_equal(fr[1].t_leave, 2);
	assert_int_equal(fr[2].t_leave, 6);
	/* the send still open at the end is an op, flagged truncated */
	assert_int_equal(op(f, 1).kind, OP_SEND);
	assert_true(op(f, 1).flags & OPF_TRUNCATED);
	assert_int_equal(op(f, 1).t_exit, 6);
	assert_int_equal(op(f, 1).frame, 2);
}

static void
time_backwards_and_gaps(void **state)
{
	struct fx *f = *state;
	TL(0);
	ENTER(100, R_SEND); SEND(101, 1, C_WORLD, 0, 1, BLOCKING); LEAVE(102, R_SEND);
	assert_int_equal(build_measurement(f->b, 103, 0), 0);
	assert_int_equal(build_measurement(f->b, 200, 1), 0);
	ENTER(150, R_SEND);         /* earlier than its predecessor */
	SEND(210, 1, C_WORLD, 0, 1, BLOCKING); LEAVE(220, R_SEND);
	END();
	TL(1); END(); TL(2); END(); TL(3); END();
	FINISH();
	const struct trace_info *info = trace_info(f->t);
	assert_int_equal(info->warnings[WARN_TIME_BACKWARDS], 1);
	assert_int_equal(info->warnings[WARN_MEASUREMENT_OFF], 1);
	assert_int_equal(op(f, 3).t_enter, 200);      /* clamped */
	assert_true(op(f, 2).flags & OPF_MEASURE_GAP);
	assert_false(op(f, 0).flags & OPF_MEASURE_GAP);
}

/* Records outside any MPI call still become an operation, and two
 * collectives inside one call become two. */
static void
stray_records(void **state)
{
	struct fx *f = *state;
	TL(0);
	SEND(5, 1, C_WORLD, 0, 1, BLOCKING);
	ENTER(10, R_BARRIER);
	COLL(11, COLL_BARRIER, C_SELF, UINT32_MAX);
	COLL(12, COLL_BARRIER, C_SELF, UINT32_MAX);
	LEAVE(13, R_BARRIER);
	END();
	TL(1); ENTER(0, R_RECV); RECV(6, 0, C_WORLD, 0, 1, BLOCKING); LEAVE(7, R_RECV); END();
	TL(2); END(); TL(3); END();
	FINISH();
	uint32_t n;
	trace_ops(f->t, &n);
	assert_int_equal(n, 8);
	assert_int_equal(op(f, 1).kind, OP_SEND);
	assert_int_equal(op(f, 1).region, TRACE_NONE);
	assert_int_equal(op(f, 1).t_enter, 5);
	assert_int_equal(op(f, 3).kind, OP_COLLECTIVE);
	assert_int_equal(op(f, 5).kind, OP_COLLECTIVE);
	assert_true(op(f, 3).t_exit <= op(f, 5).t_enter);
	uint32_t nc;
	trace_colls(f->t, &nc);
	assert_int_equal(nc, 2);
	assert_int_equal(trace_msgs(f->t, NULL)[0].recv_op, 7);
}

/* The saved records' bits as doc/format.md gives them: an op's region,
 * kind and flags in bits 0-21, 22-24 and 25-31 of its last word; an end's
 * id and role in bits 0-29 and 30-31. */
static void
record_layout(void **state)
{
	(void)state;
	struct trace_oprec r = {
		.t_enter = 1, .t_exit = 2, .timeline = 3, .frame = 4, .end_first = 5,
		.region = 0x2b3c4d, .kind = OP_COLLECTIVE, .flags = OPF_TRUNCATED | OPF_GAP_BEFORE,
	};
	uint64_t q[2];
	uint32_t w[4];
	memcpy(q, &r, sizeof q);
	memcpy(w, (const char *)&r + 16, sizeof w);
	assert_true(q[0] == 1 && q[1] == 2 && w[0] == 3 && w[1] == 4 && w[2] == 5);
	assert_int_equal(w[3] & 0x3fffff, 0x2b3c4d);
	assert_int_equal(w[3] >> 22 & 7, OP_COLLECTIVE);
	assert_int_equal(w[3] >> 25, OPF_TRUNCATED | OPF_GAP_BEFORE);
	struct trace_end e = { .id = 0x2345678, .role = END_COLL };
	memcpy(w, &e, sizeof w[0]);
	assert_int_equal(w[0] & 0x3fffffff, 0x2345678);
	assert_int_equal(w[0] >> 30, END_COLL);
}

/* Ops keep region ids in 22 bits: one region more is ERR_LIMIT, and
 * trace_limits_text() says so. */
static void
region_limit(void **state)
{
	(void)state;
	struct trace *t = trace_new();
	assert_non_null(t);
	uint32_t id = 0;
	for (uint32_t i = 0; i <= TRACE_REGION_MAX; i++)
		if (trace_add_region(t, "f", ROLE_USER, 0, &id))
			fail_msg("region %u refused", i);
	assert_int_equal(id, TRACE_REGION_MAX);
	assert_int_equal(trace_add_region(t, "f", ROLE_USER, 0, &id), ERR_LIMIT);
	assert_non_null(strstr(trace_limits_text(), "4194302 regions"));
	trace_destroy(t);
}

/* A read on every core cuts the locations into blocks that cover them
 * in order, shrink towards the middle from both ends, and stay within
 * the bound. */
static void
check_guided(const struct trace_location *loc, uint32_t nl, uint32_t nw)
{
	uint32_t cut[OTF2R_MAX_BLOCKS + 1];
	uint32_t n = otf2r_guided_cut(loc, nl, nw, cut);
	assert_true(n >= 1 && n <= OTF2R_MAX_BLOCKS && n <= nl);
	assert_int_equal(cut[0], 0);
	assert_int_equal(cut[n], nl);
	uint64_t total = 0, most = 0;
	uint32_t peak = 0;
	for (uint32_t i = 0; i < nl; i++)
		total += loc[i].events_declared;
	for (uint32_t i = 0; i < n; i++) {
		assert_true(cut[i] < cut[i + 1]);       /* never empty */
		uint64_t ev = 0;
		for (uint32_t k = cut[i]; k < cut[i + 1]; k++)
			ev += loc[k].events_declared;
		if (ev > most) {
			most = ev;
			peak = i;
		}
		/* no block of several ranks is more than half (a small read
		 * is one block) */
		assert_true(cut[i + 1] - cut[i] == 1 || 2 * ev <= total + 2048 || total < (8u << 17));
	}
	/* the largest block is at an end */
	assert_true(peak == 0 || peak == n - 1 || cut[peak + 1] - cut[peak] == 1);
	if (nl >= 16) {
		/* the middle's blocks are small: one location, or at most
		 * an eighth of the events */
		uint32_t mid = n / 2;
		uint64_t ev = 0;
		for (uint32_t k = cut[mid]; k < cut[mid + 1]; k++)
			ev += loc[k].events_declared;
		assert_true(cut[mid + 1] - cut[mid] == 1 || ev <= total / 8);
	}
}

static void
guided_blocks(void **state)
{
	(void)state;
	static struct trace_location loc[4096];
	/* the 64-rank 10^7 stencil's shape, equal ranks */
	for (uint32_t i = 0; i < 64; i++)
		loc[i].events_declared = 156264;
	check_guided(loc, 64, 2);
	uint32_t cut[OTF2R_MAX_BLOCKS + 1];
	uint32_t n = otf2r_guided_cut(loc, 64, 2, cut);
	/* a quarter from each end first, then an eighth, ... one rank */
	assert_int_equal(cut[1], 16);
	assert_int_equal(cut[n - 1], 48);
	assert_int_equal(cut[n / 2 + 1] - cut[n / 2], 1);
	check_guided(loc, 64, 4);
	/* many small ranks: the bound holds */
	for (uint32_t i = 0; i < 4096; i++)
		loc[i].events_declared = 1u << 16;
	check_guided(loc, 4096, 2);
	check_guided(loc, 4096, 8);
	/* uneven ranks, and very few */
	for (uint32_t i = 0; i < 100; i++)
		loc[i].events_declared = (i * 7919u) % 1000003u;
	check_guided(loc, 100, 2);
	check_guided(loc, 2, 2);
	assert_int_equal(otf2r_guided_cut(loc, 2, 2, cut), 1);   /* 7,919 events */
	check_guided(loc, 1, 2);
	loc[0].events_declared = 0;
	check_guided(loc, 1, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_layout),
		cmocka_unit_test(region_limit),
		cmocka_unit_test_setup_teardown(blocking_pair, setup, teardown),
		cmocka_unit_test_setup_teardown(fifo_per_channel, setup, teardown),
		cmocka_unit_test_setup_teardown(isend_irecv_waitall, setup, teardown),
		cmocka_unit_test_setup_teardown(sendrecv_keeps_both, setup, teardown),
		cmocka_unit_test_setup_teardown(rank_translation, setup, teardown),
		cmocka_unit_test_setup_teardown(unmatched_and_bad_peers, setup, teardown),
		cmocka_unit_test_setup_teardown(lone_receives_numbered_by_channel, setup, teardown),
		cmocka_unit_test_setup_teardown(matching_shared, setup, teardown),
		cmocka_unit_test_setup_teardown(matching_unordered, setup, teardown),
		cmocka_unit_test_setup_teardown(collectives_grouped, setup, teardown),
		cmocka_unit_test_setup_teardown(misnested_and_unclosed, setup, teardown),
		cmocka_unit_test_setup_teardown(time_backwards_and_gaps, setup, teardown),
		cmocka_unit_test_setup_teardown(stray_records, setup, teardown),
		cmocka_unit_test(guided_blocks),
	};
	return cmocka_run_group_tests_name("builder and matching", tests, NULL, NULL);
}
