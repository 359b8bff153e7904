/* build.c — the per-timeline state machine (see build.h).
 *
 * Messages are created when their send is read (msg id = order of sends);
 * receives and collective members are kept as halves until build_finish()
 * pairs them (match.c). Ends written while reading point at those halves
 * and are rewritten to message and collective ids when pairing is done.
 */
#include "build_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

/* The event arrays grow by doubling, but one that outgrows GROW_SMALL
 * bytes goes straight to GROW_BIG: large arrays are then mapped from
 * their first megabyte on (the reader keeps glibc's mmap threshold
 * just above 1 MiB, otf2_events.c), so that growing one moves its pages
 * instead of copying them, and no heap is left holding the copies it
 * outgrew. Small traces keep small arrays. */
#define GROW_SMALL ((size_t)64 << 10)
#define GROW_BIG ((size_t)2 << 20)

static inline int
push_id(void **data, size_t *n, size_t *cap, size_t size, uint32_t *id)
{
	if (*n >= *cap && (*n + 1) * size > GROW_SMALL && *cap * size < GROW_BIG &&
	    vec_reserve(data, cap, GROW_BIG / size, size))
		return ERR_NOMEM;
	return vec_push_id_fast(data, n, cap, size, id);
}
#define NEW_ID(v, n, cap, id) push_id((void **)&(v), &(n), &(cap), sizeof *(v), (id))

struct build *
build_create(struct trace *t)
{
	struct build *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->t = t;
	b->tl = TRACE_NONE;
	b->frame = TRACE_NONE;
	b->inter_comm = TRACE_NONE;
	t->ops_implied = 1;
	return b;
}

void
build_destroy(struct build *b)
{
	if (!b)
		return;
	if (b->is_block)
		build_block_free_shell(b);
	free(b->tls);
	free(b->stack);
	free(b->recvs);
	free(b->colls);
	free(b->open_epochs);
	reqmap_fini(&b->requests);
	free(b);
}

static inline uint64_t
clamp_time(struct build *b, uint64_t time)
{
	if (time < b->last_time) {
		b->t->info.warnings[WARN_TIME_BACKWARDS]++;
		return b->last_time;
	}
	b->last_time = time;
	return time;
}

uint64_t
build_time(const struct build *b, uint64_t time)
{
	return time < b->last_time ? b->last_time : time;
}

int
build_timeline_begin(struct build *b, uint32_t timeline)
{
	struct trace *t = b->t;
	if (timeline >= t->n_timelines || b->tl != TRACE_NONE)
		return ERR_USAGE;
	if (VEC_GROW(b->tls, b->n_tls, b->cap_tls))
		return ERR_NOMEM;
	b->tls[b->n_tls++] = timeline;
	struct trace_timeline *tl = &t->timelines[timeline];
	b->tl = timeline;
	b->depth = 0;
	b->mpi_depth = -1;
	b->last_time = 0;
	b->started = 0;
	b->gap = 0;
	b->frame = TRACE_NONE;
	b->call_ends = b->call_sends = b->call_recvs = 0;
	b->call_has_coll = 0;
	b->call_has_request = 0;
	b->call_dropped = 0;
	b->call_rma = 0;
	b->stray_rma = 0;
	b->coll_issued = b->coll_issue_top = 0;
	b->colls_first = b->n_colls;
	b->colls_unordered = 0;
	b->n_open_epochs = 0;
	b->measuring_off = 0;
	b->calls_unsorted = 0;
	reqmap_clear(&b->requests);
	tl->op_first = trace_op_count(t);
	tl->frame_first = (uint32_t)t->n_frames;
	tl->call_first = (uint32_t)t->n_calls;
	return 0;
}

/* Records a quiet call or a gap [enter, leave). Calls are added as they
 * close, so an outer call comes after the ones made inside it: the
 * timeline's calls are sorted when it ends (sort_calls). */
static int
add_call(struct build *b, uint64_t enter, uint64_t leave, uint32_t region, unsigned kind)
{
	struct trace *t = b->t;
	uint32_t id;
	if (t->n_calls >= VEC_MAX_ID)
		return ERR_LIMIT;
	int rc = NEW_ID(t->calls, t->n_calls, t->cap_calls, &id);
	if (rc)
		return rc;
	if (leave - enter > TRACE_CALL_TICKS_MAX)
		t->info.warnings[WARN_LONG_CALL]++;
	t->calls[id] = trace_call_make(enter, leave - enter, region, kind);
	if (id > t->timelines[b->tl].call_first && t->calls[id - 1].t_enter > enter)
		b->calls_unsorted = 1;
	return 0;
}

/* Enter time, the longer (outer) first where two enter together. */
static inline int
call_before(const struct trace_call *x, const struct trace_call *y)
{
	return x->t_enter < y->t_enter ||
	       (x->t_enter == y->t_enter && trace_call_ticks(x) > trace_call_ticks(y));
}

/* Insertion sort: only calls made inside other calls are out of place,
 * each by the few calls made inside it. */
static void
sort_calls(struct trace_call *c, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct trace_call x = c[i];
		size_t j = i;
		while (j > 0 && call_before(&x, &c[j - 1])) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = x;
	}
}

/* The innermost user frame currently open, or TRACE_NONE: kept as
 * frames open and close (a frame's parent is the one open below it). */
static inline uint32_t
current_frame(const struct build *b)
{
	return b->frame;
}

/* Emits a communication call; the computation before it is implied
 * (trace_op_get): it runs from the previous call's exit, or the
 * timeline's start, to this call's enter. The call's ends are the last
 * b->call_ends ends. */
static int
emit_call(struct build *b, uint64_t enter, uint64_t exit, uint32_t region,
	  uint32_t frame, uint8_t flags)
{
	struct trace *t = b->t;
	uint32_t sends = b->call_sends, recvs = b->call_recvs;
	uint8_t kind = b->call_has_coll ? OP_COLLECTIVE
		: sends && recvs ? OP_SENDRECV
		: sends ? OP_SEND : recvs ? OP_RECV : b->call_ends ? OP_WAIT
		: b->call_rma ? OP_RMA : OP_WAIT;
	struct trace_timeline *tl = &t->timelines[b->tl];
	if (trace_op_count(t) == tl->op_first)
		tl->t_start = b->prev_exit;
	uint32_t id;
	if (t->n_oprec >= VEC_MAX_ID / 2)
		return ERR_LIMIT;     /* two op ids per call */
	int rc = NEW_ID(t->oprec, t->n_oprec, t->cap_oprec, &id);
	if (rc)
		return rc;
	t->oprec[id] = (struct trace_oprec){
		.t_enter = enter, .t_exit = exit, .timeline = b->tl,
		.region = trace_oprec_region(region), .frame = frame,
		.end_first = (uint32_t)t->n_ends - b->call_ends,
		.kind = kind, .flags = (uint8_t)(flags | (b->gap ? OPF_GAP_BEFORE : 0)),
	};
	b->prev_exit = exit;
	b->gap = 0;
	b->call_ends = b->call_sends = b->call_recvs = 0;
	b->call_has_coll = 0;
	b->call_rma = 0;
	b->stray_rma = 0;
	return 0;
}

static inline int
add_end(struct build *b, uint32_t id, uint32_t role)
{
	struct trace *t = b->t;
	uint32_t e;
	if (id > TRACE_END_ID_MAX)
		return ERR_LIMIT;
	int rc = NEW_ID(t->ends, t->n_ends, t->cap_ends, &e);
	if (rc)
		return rc;
	t->ends[e] = (struct trace_end){ .id = id, .role = role & 3 };
	b->call_ends++;
	b->call_sends += role == END_SEND;
	b->call_recvs += role == END_RECV;
	return 0;
}

/* The op id the current call will get when it closes: its implied
 * computation op comes first, then the call. Records outside any MPI call become a
 * zero-length call of their own (see close_stray). */
static inline uint32_t
call_op_id(const struct build *b)
{
	return trace_op_count(b->t) + 1;
}

/* Records seen outside an MPI call: close them as an op of their own,
 * at `time`; RMA records make it begin at the first of them. */
static inline int
close_stray(struct build *b, uint64_t time)
{
	if (b->mpi_depth >= 0 || (b->call_ends == 0 && !b->call_has_coll && !b->call_rma))
		return 0;
	return emit_call(b, b->stray_rma ? b->stray_from : time, time, TRACE_NONE,
			 current_frame(b), 0);
}

/* Adds an end to the open call; a record outside any MPI call is an op of
 * its own, closed at once. */
static inline int
record_end(struct build *b, uint32_t id, uint32_t role, uint64_t time)
{
	int rc = add_end(b, id, role);
	if (rc == 0 && b->mpi_depth < 0)
		rc = close_stray(b, time);
	return rc;
}

static inline void
mark_start(struct build *b, uint64_t time)
{
	if (!b->started) {
		b->started = 1;
		b->prev_exit = time;
		b->last_time = time;
	}
}

int
build_enter(struct build *b, uint64_t time, uint32_t region)
{
	struct trace *t = b->t;
	if (region >= t->n_regions) {
		t->info.warnings[WARN_BAD_REF]++;
		return 0;
	}
	mark_start(b, time);
	time = clamp_time(b, time);
	int rc = close_stray(b, time);
	if (rc)
		return rc;
	if (VEC_GROW(b->stack, (size_t)b->depth, b->cap_stack))
		return ERR_NOMEM;
	struct frame_entry *e = &b->stack[b->depth];
	e->region = region;
	e->enter = time;
	e->frame = TRACE_NONE;
	uint8_t role = t->regions[region].role;
	if (role == ROLE_USER || role == ROLE_OTHER) {
		uint32_t parent = current_frame(b), f;
		if ((rc = NEW_ID(t->frames, t->n_frames, t->cap_frames, &f)))
			return rc;
		e->frame = f;
		b->frame = f;
		t->frames[f] = (struct trace_frame){
			.t_enter = time, .t_leave = time, .region = region,
			.parent = parent, .timeline = b->tl,
			.depth = parent == TRACE_NONE ? 0 : t->frames[parent].depth + 1,
		};
	} else if (b->mpi_depth < 0) {
		/* Records attach to the outermost open MPI call, so calls made
		 * inside another MPI call never give overlapping ops. */
		b->mpi_depth = b->depth;
	}
	b->depth++;
	return 0;
}

/* Closes stack entry i (the top) at `time`. */
static int
pop_entry(struct build *b, uint64_t time, uint8_t flags)
{
	struct frame_entry *e = &b->stack[--b->depth];
	if (e->frame != TRACE_NONE) {
		struct trace_frame *f = &b->t->frames[e->frame];
		f->t_leave = time;
		b->frame = f->parent;
		return 0;
	}
	if (b->depth != b->mpi_depth)       /* inside another MPI call */
		return add_call(b, e->enter, time, e->region, CALL_INNER);
	b->mpi_depth = -1;
	if (b->call_ends == 0 && !b->call_has_coll && !b->call_rma) {
		/* A communication call with no records at all: a non-blocking
		 * collective (Score-P 2.x) or a wait on one. Not an operation,
		 * but a call the profile counts. One whose records were all
		 * dropped did carry some: the warnings count those. */
		b->t->info.mpi_calls_without_records +=
			b->t->regions[e->region].role != ROLE_MPI_OTHER && !b->call_has_request &&
			!b->call_dropped;
		b->call_has_request = 0;
		b->call_dropped = 0;
		return add_call(b, e->enter, time, e->region, CALL_MPI);
	}
	b->call_has_request = 0;
	b->call_dropped = 0;
	return emit_call(b, e->enter, time, e->region, current_frame(b), flags);
}

int
build_leave(struct build *b, uint64_t time, uint32_t region)
{
	if (region >= b->t->n_regions) {
		b->t->info.warnings[WARN_BAD_REF]++;
		return 0;
	}
	mark_start(b, time);
	time = clamp_time(b, time);
	int rc = close_stray(b, time);
	if (rc)
		return rc;
	int at = b->depth - 1;
	while (at >= 0 && b->stack[at].region != region)
		at--;
	if (at < 0) {
		b->t->info.warnings[WARN_STRAY_LEAVE]++;
		return 0;
	}
	while (b->depth - 1 > at) {
		b->t->info.warnings[WARN_MISNESTED_LEAVE]++;
		if ((rc = pop_entry(b, time, 0)))
			return rc;
	}
	return pop_entry(b, time, 0);
}

/* Is comm an intercommunicator (trace_impl.h, inter_split)? */
static inline int
is_inter(const struct trace *t, uint32_t comm)
{
	return comm < t->n_inter_split && t->inter_split[comm];
}

/* Finds the group of intercommunicator comm (c) that b's timeline is not
 * in: ranks on it are that group's (OTF2's InterComm). The timeline is in
 * the group that lists it; listed in neither, in the one with a member
 * the definition could not list (a COMM_SELF group); else in none, and
 * the remote group is empty. Kept for the next message: a timeline's
 * messages on one communicator come together. */
static void
inter_remote(struct build *b, uint32_t comm, const struct trace_comm *c)
{
	if (b->inter_comm == comm && b->inter_tl == b->tl)
		return;
	const uint32_t *m = b->t->comm_members + c->member_first;
	uint32_t a = b->t->inter_split[comm] - 1, side = 2;
	for (uint32_t i = 0; i < c->size && side == 2; i++)
		if (m[i] == b->tl)
			side = i >= a;
	for (uint32_t i = 0; i < c->size && side == 2; i++)
		if (m[i] == TRACE_NONE)
			side = i >= a;
	b->inter_comm = comm;
	b->inter_tl = b->tl;
	b->inter_from = side == 0 ? a : 0;
	b->inter_n = side == 0 ? c->size - a : side == 1 ? a : 0;
}

/* Translates a communicator-local rank to a world rank; TRACE_NONE if the
 * communicator does not have it. On an intercommunicator the rank is one
 * of the remote group's. */
static inline uint32_t
world_rank(struct build *b, uint32_t comm, uint32_t local)
{
	const struct trace *t = b->t;
	if (comm >= t->n_comms || local == TRACE_NONE)
		return TRACE_NONE;
	const struct trace_comm *c = &t->comms[comm];
	if (c->is_self)
		return local == 0 ? b->tl : TRACE_NONE;
	if (is_inter(t, comm)) {
		inter_remote(b, comm, c);
		return local < b->inter_n ? t->comm_members[c->member_first + b->inter_from + local]
			: TRACE_NONE;
	}
	if (local >= c->size)
		return TRACE_NONE;
	return t->comm_members[c->member_first + local];
}

/* Counts a record dropped with warning w; the open MPI call, if any,
 * then carried a record, so that it is not among the calls without any
 * (trace_info's mpi_calls_without_records). */
static inline void
drop_record(struct build *b, enum trace_warning w)
{
	b->t->info.warnings[w]++;
	if (b->mpi_depth >= 0)
		b->call_dropped = 1;
}

/* The world rank of a message's peer; a peer the communicator does not
 * have is counted as a warning (the record is then dropped). */
static inline uint32_t
peer_rank(struct build *b, uint32_t comm, uint32_t local)
{
	uint32_t w = world_rank(b, comm, local);
	if (w == TRACE_NONE)
		drop_record(b, WARN_BAD_PEER);
	return w;
}

static inline void
open_stray(struct build *b, uint64_t *time)
{
	mark_start(b, *time);
	*time = clamp_time(b, *time);
}

int
build_send(struct build *b, uint64_t time, uint32_t peer, uint32_t comm,
	   uint32_t tag, uint64_t bytes, uint64_t request)
{
	struct trace *t = b->t;
	open_stray(b, &time);
	uint32_t receiver = peer_rank(b, comm, peer);
	if (receiver == TRACE_NONE)
		return 0;
	uint32_t id;
	int rc = NEW_ID(t->msgs, t->n_msgs, t->cap_msgs, &id);
	if (rc)
		return rc;
	uint32_t op = call_op_id(b);
	t->msgs[id] = (struct trace_msg){
		.t_send = time, .t_recv = 0, .bytes = bytes,
		.send_op = op, .recv_op = TRACE_NONE,
		.send_done_op = request == UINT64_MAX ? op : TRACE_NONE,
		.sender = b->tl, .receiver = receiver, .comm = comm, .tag = tag,
	};
	if (request != UINT64_MAX && reqmap_put(&b->requests, request, id))
		return ERR_NOMEM;
	return record_end(b, id, END_SEND, time);
}

int
build_isend_complete(struct build *b, uint64_t time, uint64_t request)
{
	struct trace *t = b->t;
	open_stray(b, &time);
	uint32_t id;
	if (!reqmap_take(&b->requests, request, &id) || id >= t->n_msgs) {
		drop_record(b, WARN_UNKNOWN_REQUEST);
		return 0;
	}
	t->msgs[id].send_done_op = call_op_id(b);
	return record_end(b, id, END_ISEND_DONE, time);
}

int
build_irecv_request(struct build *b, uint64_t time, uint64_t request)
{
	/* Posting a receive carries no message; the completion (MpiIrecv)
	 * names the request again with sender and tag. Remember it only so a
	 * completion of an unknown request can be told apart. */
	open_stray(b, &time);
	b->call_has_request = 1;
	return reqmap_put(&b->requests, request, TRACE_NONE);
}

int
build_recv(struct build *b, uint64_t time, uint32_t peer, uint32_t comm,
	   uint32_t tag, uint64_t bytes, uint64_t request)
{
	struct trace *t = b->t;
	open_stray(b, &time);
	if (request != UINT64_MAX) {
		uint32_t dummy;
		if (!reqmap_take(&b->requests, request, &dummy))
			t->info.warnings[WARN_UNKNOWN_REQUEST]++;
	}
	uint32_t sender = peer_rank(b, comm, peer);
	if (sender == TRACE_NONE)
		return 0;
	uint32_t id;
	int rc = NEW_ID(b->recvs, b->n_recvs, b->cap_recvs, &id);
	if (rc)
		return rc;
	b->recvs[id] = (struct recv_half){
		.time = time, .bytes = bytes, .op = call_op_id(b),
		.sender = sender, .comm = comm, .tag = tag,
	};
	return record_end(b, id, END_RECV, time);
}

int
build_coll_begin(struct build *b, uint64_t time)
{
	open_stray(b, &time);
	return 0;
}

/* A collective member on communicator comm, grouped on key, the
 * timeline's issue-th start of a collective. */
static int
add_coll_half(struct build *b, uint64_t time, uint8_t type, uint32_t comm, uint32_t key,
	      uint32_t root, uint64_t sent, uint64_t received, uint32_t issue, uint8_t flags)
{
	if (b->call_has_coll) {
		/* Two collectives inside one call: close the first as its own op. */
		uint64_t enter = b->mpi_depth >= 0 ? b->stack[b->mpi_depth].enter : time;
		uint32_t region = b->mpi_depth >= 0 ? b->stack[b->mpi_depth].region : TRACE_NONE;
		int rc = emit_call(b, enter, time, region, current_frame(b), 0);
		if (rc)
			return rc;
		if (b->mpi_depth >= 0)
			b->stack[b->mpi_depth].enter = time;
	}
	uint32_t id;
	int rc = NEW_ID(b->colls, b->n_colls, b->cap_colls, &id);
	if (rc)
		return rc;
	b->colls[id] = (struct coll_half){
		.op = call_op_id(b), .comm = comm, .timeline = b->tl,
		.root = root == UINT32_MAX ? TRACE_NONE : world_rank(b, comm, root),
		.type = type < COLL_TYPE_COUNT ? type : COLL_OTHER,
		.sent = sent, .received = received,
		.key = key, .pos = TRACE_NONE, .issue = issue, .flags = flags,
	};
	/* a half started before one that came earlier: the timeline's
	 * halves are put in the order started when it ends */
	if (issue < b->coll_issue_top)
		b->colls_unordered = 1;
	else
		b->coll_issue_top = issue + 1;
	b->call_has_coll = 1;
	return record_end(b, id, END_COLL, time);
}

int
build_coll_end(struct build *b, uint64_t time, uint8_t type, uint32_t comm,
	       uint32_t root, uint64_t sent, uint64_t received)
{
	struct trace *t = b->t;
	open_stray(b, &time);
	/* a collective on an intercommunicator is not analysed: its
	 * groups take part differently (doc/model.md, "Grouping
	 * collectives") */
	if (comm >= t->n_comms || is_inter(t, comm)) {
		drop_record(b, WARN_BAD_PEER);
		return 0;
	}
	return add_coll_half(b, time, type, comm, comm, root, sent, received, b->coll_issued++, 0);
}

int
build_nbc_request(struct build *b, uint64_t time, uint64_t request)
{
	/* the collective's place is taken now: its completion names the
	 * communicator */
	open_stray(b, &time);
	b->call_has_request = 1;
	return hmap_put(&b->requests, request, REQ_NBC, b->coll_issued++);
}

int
build_nbc_complete(struct build *b, uint64_t time, uint8_t type, uint32_t comm,
		   uint32_t root, uint64_t sent, uint64_t received, uint64_t request)
{
	struct trace *t = b->t;
	open_stray(b, &time);
	uint32_t issue;
	if (!hmap_take(&b->requests, request, REQ_NBC, &issue)) {
		t->info.warnings[WARN_UNKNOWN_REQUEST]++;
		issue = b->coll_issued++;
	}
	if (comm >= t->n_comms || is_inter(t, comm)) {
		drop_record(b, WARN_BAD_PEER);
		return 0;
	}
	return add_coll_half(b, time, type, comm, comm, root, sent, received, issue,
			     COLLF_NONBLOCKING);
}

/* ---- one-sided communication ---- */

/* An RMA record: the open call, or outside any a call of its own from
 * the first such record on (close_stray). */
static inline void
rma_record(struct build *b, uint64_t *time)
{
	open_stray(b, time);
	if (b->mpi_depth < 0 && !b->stray_rma && !b->call_ends && !b->call_has_coll) {
		b->stray_rma = 1;
		b->stray_from = *time;
	}
	b->call_rma = 1;
}

/* The world rank of a window's remote rank: TRACE_NONE for none, for a
 * device's window, or a rank the communicator does not have. */
static uint32_t
win_rank(struct build *b, uint32_t win, uint32_t remote)
{
	const struct trace *t = b->t;
	if (win >= t->n_wins || remote == UINT32_MAX || (t->wins[win].flags & WINF_DEVICE))
		return TRACE_NONE;
	return world_rank(b, t->wins[win].comm, remote);
}

int
build_rma_coll_end(struct build *b, uint64_t time, uint8_t type, uint32_t win,
		   uint32_t root, uint64_t sent, uint64_t received)
{
	struct trace *t = b->t;
	rma_record(b, &time);
	uint32_t comm = win < t->n_wins ? t->wins[win].comm : TRACE_NONE;
	if (comm >= t->n_comms || (t->wins[win].flags & WINF_DEVICE)) {
		t->info.warnings[WARN_BAD_PEER] += comm >= t->n_comms;
		return 0;
	}
	return add_coll_half(b, time, type, comm, (uint32_t)t->n_comms + win, root, sent, received,
			     b->coll_issued++, COLLF_RMA);
}

int
build_rma_op(struct build *b, uint64_t time, uint8_t kind, uint8_t atomic, uint32_t win,
	     uint32_t remote, uint64_t sent, uint64_t received, uint64_t matching)
{
	struct trace *t = b->t;
	rma_record(b, &time);
	if (win >= t->n_wins) {
		t->info.warnings[WARN_BAD_REF]++;
		return 0;
	}
	uint32_t id;
	if (t->n_rmas >= VEC_MAX_ID)
		return ERR_LIMIT;
	int rc = NEW_ID(t->rmas, t->n_rmas, t->cap_rmas, &id);
	if (rc)
		return rc;
	t->rmas[id] = (struct trace_rma){
		.t_issue = time, .t_done = time, .bytes_sent = sent, .bytes_recv = received,
		.op = call_op_id(b), .done_op = TRACE_NONE, .origin = b->tl,
		.target = win_rank(b, win, remote), .win = win,
		.kind = kind < RMA_KIND_COUNT ? kind : RMA_ATOMIC, .atomic = atomic,
		.done = RMA_DONE_NONE,
	};
	/* a matching id used again replaces the operation it named */
	return hmap_put(&b->requests, matching, REQ_RMA + (uint64_t)win, id);
}

int
build_rma_complete(struct build *b, uint64_t time, uint8_t how, uint32_t win, uint64_t matching)
{
	struct trace *t = b->t;
	rma_record(b, &time);
	uint32_t id;
	if (!hmap_take(&b->requests, matching, REQ_RMA + (uint64_t)win, &id) || id >= t->n_rmas) {
		t->info.warnings[WARN_UNKNOWN_REQUEST]++;
		return 0;
	}
	struct trace_rma *x = &t->rmas[id];
	x->done_op = call_op_id(b);
	x->t_done = time;
	x->done = how < RMA_DONE_COUNT ? how : RMA_DONE_LOCAL;
	return 0;
}

int
build_rma_lock(struct build *b, uint64_t time, uint32_t win, uint32_t remote, int shared)
{
	struct trace *t = b->t;
	rma_record(b, &time);
	if (win >= t->n_wins) {
		t->info.warnings[WARN_BAD_REF]++;
		return 0;
	}
	uint32_t target = win_rank(b, win, remote);
	for (size_t i = 0; i < b->n_open_epochs; i++) {
		const struct trace_epoch *e = &t->epochs[b->open_epochs[i]];
		if (e->win == win && e->target == target)
			return 0;     /* requested, now acquired: one epoch */
	}
	uint32_t id;
	if (t->n_epochs >= VEC_MAX_ID)
		return ERR_LIMIT;
	int rc = NEW_ID(t->epochs, t->n_epochs, t->cap_epochs, &id);
	if (rc || VEC_GROW(b->open_epochs, b->n_open_epochs, b->cap_open_epochs))
		return rc ? rc : ERR_NOMEM;
	b->open_epochs[b->n_open_epochs++] = id;
	t->epochs[id] = (struct trace_epoch){
		.t_begin = time, .t_end = time, .timeline = b->tl, .win = win, .target = target,
		.op_begin = call_op_id(b), .op_end = TRACE_NONE, .shared = shared != 0, .open = 1,
	};
	return 0;
}

int
build_rma_release(struct build *b, uint64_t time, uint32_t win, uint32_t remote)
{
	struct trace *t = b->t;
	rma_record(b, &time);
	uint32_t target = win_rank(b, win, remote);
	for (size_t i = b->n_open_epochs; i-- > 0;) {
		struct trace_epoch *e = &t->epochs[b->open_epochs[i]];
		if (e->win != win || e->target != target)
			continue;
		e->t_end = time;
		e->op_end = call_op_id(b);
		e->open = 0;
		b->open_epochs[i] = b->open_epochs[--b->n_open_epochs];
		return 0;
	}
	t->info.warnings[WARN_UNKNOWN_REQUEST]++;
	return 0;
}

int
build_rma_sync(struct build *b, uint64_t time)
{
	rma_record(b, &time);
	return 0;
}

int
build_measurement(struct build *b, uint64_t time, int on)
{
	open_stray(b, &time);
	if (!on) {
		b->t->info.warnings[WARN_MEASUREMENT_OFF]++;
		b->gap = 1;
		if (!b->measuring_off)
			b->off_at = time;
		b->measuring_off = 1;
	} else if (b->measuring_off) {
		b->measuring_off = 0;
		return add_call(b, b->off_at, time, TRACE_NONE, CALL_GAP);
	}
	return 0;
}

/* The timeline's collective halves numbered on each key in the order
 * the timeline started them (coll_half.pos), where a non-blocking one
 * completed after one started later. */
struct coll_order {
	uint32_t key, issue, half;
};

static int
coll_order_cmp(const void *pa, const void *pb)
{
	const struct coll_order *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->issue > b->issue) - (a->issue < b->issue);
}

static int
order_colls(struct build *b)
{
	size_t first = b->colls_first, n = b->n_colls - first;
	struct coll_order *x = malloc((n + 1) * sizeof *x);
	if (!x)
		return ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct coll_half *h = &b->colls[first + i];
		x[i] = (struct coll_order){ h->key, h->issue, (uint32_t)(first + i) };
	}
	qsort(x, n, sizeof *x, coll_order_cmp);
	uint32_t pos = 0;
	for (size_t i = 0; i < n; i++) {
		pos = i > 0 && x[i - 1].key == x[i].key ? pos + 1 : 0;
		b->colls[x[i].half].pos = pos;
	}
	free(x);
	return 0;
}

int
build_timeline_end(struct build *b)
{
	struct trace *t = b->t;
	if (b->tl == TRACE_NONE)
		return ERR_USAGE;
	int rc = close_stray(b, b->last_time);
	if (rc)
		return rc;
	while (b->depth > 0) {
		t->info.warnings[WARN_UNCLOSED_REGION]++;
		if ((rc = pop_entry(b, b->last_time, OPF_TRUNCATED)))
			return rc;
	}
	if (b->measuring_off && (rc = add_call(b, b->off_at, b->last_time, TRACE_NONE, CALL_GAP)))
		return rc;
	b->measuring_off = 0;
	struct trace_timeline *tl = &t->timelines[b->tl];
	tl->op_count = trace_op_count(t) - tl->op_first;
	tl->frame_count = (uint32_t)t->n_frames - tl->frame_first;
	tl->call_count = (uint32_t)t->n_calls - tl->call_first;
	if (b->calls_unsorted)
		sort_calls(t->calls + tl->call_first, tl->call_count);
	if (b->colls_unordered && (rc = order_colls(b)))
		return rc;
	/* epochs never released end with the timeline */
	for (size_t i = 0; i < b->n_open_epochs; i++)
		t->epochs[b->open_epochs[i]].t_end = b->last_time;
	b->n_open_epochs = 0;
	b->tl = TRACE_NONE;
	return 0;
}
