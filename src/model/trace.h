/* trace.h — skein's in-memory trace model.
 *
 * A trace is read once (by otf2_read or a future reader) into plain arrays
 * indexed by 32-bit ids and is read-only afterwards. Records hold no
 * pointers, so the arrays could be written to a file and mapped back.
 *
 *   timeline  one MPI rank (timeline id == world rank)
 *   op        one operation: a communication call (an MPI call whose
 *             enter/leave span carries message or collective records), or
 *             the aggregated computation on a timeline before each
 *             communication call. A timeline's ops are contiguous and in
 *             time order: ops [tl->op_first, tl->op_first + tl->op_count).
 *             An MPI trace stores its calls only: op 2k+1 is call k and
 *             op 2k the computation before it, implied by its neighbours
 *             (trace_op_get).
 *   msg       one point-to-point message, both ends (either may be missing)
 *   coll      one collective invocation with its member ops
 *   frame     one instance of a user (non-MPI) region on a timeline
 *   end       the link from an op to a message or collective it takes part in
 *
 * Times are in ticks since the trace's global offset; trace_info() gives
 * the tick rate. Lifetime: everything returned by a getter lives until
 * trace_destroy().
 */
#ifndef SKEIN_TRACE_H
#define SKEIN_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

#define TRACE_NONE UINT32_MAX

/* What a region is, decided from its name and paradigm. */
enum trace_role {
	ROLE_USER,         /* user code: functions, phases, loops */
	ROLE_SEND,         /* MPI_Send, Isend, Ssend, Bsend, Rsend, Issend ... */
	ROLE_RECV,         /* MPI_Recv, Irecv, Mrecv ... */
	ROLE_SENDRECV,     /* MPI_Sendrecv, Sendrecv_replace */
	ROLE_COLLECTIVE,   /* Barrier, Bcast, Allreduce, ... and I-variants */
	ROLE_WAIT,         /* Wait*, Test* */
	ROLE_MPI_OTHER,    /* other MPI calls: Init, Comm_rank, Comm_split ... */
	ROLE_OTHER,        /* other paradigms: OpenMP, CUDA, pthreads, I/O ... */
	ROLE_COUNT
};

/* What an operation does, decided from the records it carries. */
enum trace_op_kind {
	OP_COMPUTE,        /* aggregated non-communication time */
	OP_SEND,           /* carries sends only */
	OP_RECV,           /* carries receives only */
	OP_SENDRECV,       /* carries both (MPI_Sendrecv, or a wait completing both) */
	OP_COLLECTIVE,     /* a collective call */
	OP_WAIT,           /* a wait/test that only completes Isends */
	OP_RMA,            /* a one-sided call: carries RMA records (an operation,
	                    * its completion, a lock, a flush, a group
	                    * synchronisation) and no message or collective */
	OP_KIND_COUNT
};

/* op flags */
enum {
	OPF_TRUNCATED = 1,     /* the call was still open at the end of the trace */
	OPF_MEASURE_GAP = 2,   /* measurement was switched off inside this span */
	OPF_UNMATCHED = 4,     /* carries a message without a partner */
	OPF_BLOCK_CONT = 8,    /* Charm++: continues the serial block of the previous
	                        * op on its timeline (model/charm.h) */
	OPF_EXEC_CONT = 16,    /* Charm++: continues the entry-method execution of the
	                        * previous op (the execution was split at a send) */
	OPF_LOOSE = 32,        /* Charm++: a creation recorded outside any execution */
	OPF_GAP_BEFORE = 64,   /* stored on an MPI call: its implied computation op
	                        * has OPF_MEASURE_GAP (never seen through trace_op_get) */
};

/* What an end links. */
enum trace_end_role {
	END_SEND,          /* the op sent the message (MpiSend / MpiIsend) */
	END_RECV,          /* the op received it (MpiRecv / MpiIrecv) */
	END_ISEND_DONE,    /* the op completed the Isend request (MpiIsendComplete) */
	END_COLL,          /* the op is a member of collective `id` */
};

/* Collective operation types (as OTF2 numbers them). */
enum trace_coll_type {
	COLL_BARRIER, COLL_BCAST, COLL_GATHER, COLL_GATHERV, COLL_SCATTER,
	COLL_SCATTERV, COLL_ALLGATHER, COLL_ALLGATHERV, COLL_ALLTOALL,
	COLL_ALLTOALLV, COLL_ALLTOALLW, COLL_ALLREDUCE, COLL_REDUCE,
	COLL_REDUCE_SCATTER, COLL_SCAN, COLL_EXSCAN, COLL_REDUCE_SCATTER_BLOCK,
	COLL_CREATE_HANDLE, COLL_DESTROY_HANDLE, COLL_ALLOCATE, COLL_DEALLOCATE,
	COLL_CREATE_HANDLE_AND_ALLOCATE, COLL_DESTROY_HANDLE_AND_DEALLOCATE,
	COLL_OTHER,
	COLL_TYPE_COUNT
};

/* coll flags */
enum {
	COLLF_RMA = 1,             /* a window's collective (MPI_Win_fence, _create,
	                            * _free: RmaCollectiveEnd), on the window's
	                            * communicator, grouped per window */
	COLLF_NONBLOCKING = 2,     /* members are the calls that completed a
	                            * non-blocking or persistent collective
	                            * (NonBlockingCollectiveComplete), grouped in
	                            * the order the ranks started them */
};

/* An op, as trace_op_get gives it. */
struct trace_op {
	uint64_t t_enter, t_exit;
	uint32_t timeline;
	uint32_t region;       /* region id; TRACE_NONE for OP_COMPUTE */
	uint32_t frame;        /* innermost enclosing user frame, or TRACE_NONE */
	uint32_t end_first;    /* ends of op i: [end_first, ops[i+1].end_first) */
	uint8_t kind;          /* enum trace_op_kind */
	uint8_t flags;         /* OPF_* */
};

/* An op as stored: 32 bytes, its region in 22 bits (trace_oprec_region;
 * more regions than TRACE_REGION_MAX is ERR_LIMIT). */
#define TRACE_REGION_MAX ((1u << 22) - 2)
#define TRACE_OPREC_NO_REGION ((1u << 22) - 1)
struct trace_oprec {
	uint64_t t_enter, t_exit;
	uint32_t timeline;
	uint32_t frame;
	uint32_t end_first;
	uint32_t region : 22;  /* TRACE_OPREC_NO_REGION for none */
	uint32_t kind : 3;
	uint32_t flags : 7;
};

static inline uint32_t
trace_oprec_region(uint32_t region)
{
	return region > TRACE_REGION_MAX ? TRACE_OPREC_NO_REGION : region;
}

#define TRACE_END_ID_MAX ((1u << 30) - 1)   /* messages, collectives: ERR_LIMIT beyond */
struct trace_end {
	uint32_t id : 30;      /* message id, or collective id for END_COLL */
	uint32_t role : 2;     /* enum trace_end_role */
};

struct trace_msg {
	uint64_t t_send;       /* time of the send record */
	uint64_t t_recv;       /* time of the receive record */
	uint64_t bytes;
	uint32_t send_op;      /* TRACE_NONE when the send is missing */
	uint32_t recv_op;      /* TRACE_NONE when the receive is missing */
	uint32_t send_done_op; /* op that completed the send (== send_op if blocking) */
	uint32_t sender, receiver;   /* timelines (world ranks) */
	uint32_t comm;
	uint32_t tag;
	uint32_t flags;        /* MSGF_* */
};

/* msg flags */
enum {
	MSGF_SIZE_MISMATCH = 1,    /* the receive recorded another byte count */
	MSGF_BROADCAST = 2,        /* Charm++: one delivery of a creation delivered
	                            * to several executions */
	MSGF_REROUTED = 4,         /* Charm++: matched by entry and event id after the
	                            * PE the execution named did not hold it */
	MSGF_RUNTIME = 8,          /* Charm++: a runtime dependency (it involves a runtime
	                            * chare, or the runtime makes it: seed 004 §3.1) */
};

struct trace_coll {
	uint32_t comm;
	uint32_t root;         /* world rank, or TRACE_NONE */
	uint32_t member_first; /* into trace_coll_members() */
	uint32_t member_count;
	uint32_t expected;     /* communicator size: members expected */
	uint8_t type;          /* enum trace_coll_type */
	uint8_t flags;         /* COLLF_* */
	uint64_t bytes_sent, bytes_recv;   /* summed over members */
};

/* An RMA window (OTF2's RmaWin definition). */
struct trace_win {
	uint32_t name;
	uint32_t comm;         /* its communicator, or TRACE_NONE */
	uint32_t flags;        /* WINF_* */
};
enum {
	WINF_DEVICE = 1,       /* its communicator is not MPI's: the group of an
	                        * accelerator or a thread model (Score-P records
	                        * device copies so); its targets are no ranks */
};

/* One-sided operation kinds, and how one was completed. */
enum trace_rma_kind { RMA_PUT, RMA_GET, RMA_ATOMIC, RMA_KIND_COUNT };
enum trace_rma_done {
	RMA_DONE_NONE,         /* no completion record */
	RMA_DONE_BLOCKING,     /* RmaOpCompleteBlocking: inside the issuing call */
	RMA_DONE_LOCAL,        /* RmaOpCompleteNonBlocking: at the origin only */
	RMA_DONE_REMOTE,       /* RmaOpCompleteRemote: at the target too */
	RMA_DONE_COUNT
};

/* One RMA operation (RmaPut, RmaGet, RmaAtomic), 56 B. A timeline's are
 * contiguous, in the order issued (so in op order); origin and target
 * are world ranks. */
struct trace_rma {
	uint64_t t_issue;      /* its record */
	uint64_t t_done;       /* its completion record (t_issue without one) */
	uint64_t bytes_sent;   /* origin to target (put, an atomic's operand) */
	uint64_t bytes_recv;   /* target to origin (get, a fetching atomic's result) */
	uint32_t op;           /* the call that issued it; TRACE_NONE outside any */
	uint32_t done_op;      /* the call that completed it, or TRACE_NONE */
	uint32_t origin;       /* timeline */
	uint32_t target;       /* world rank, or TRACE_NONE (not a rank: a device) */
	uint32_t win;
	uint8_t kind;          /* enum trace_rma_kind */
	uint8_t atomic;        /* OTF2's atomic type, for RMA_ATOMIC */
	uint8_t done;          /* enum trace_rma_done */
	uint8_t flags;         /* 0 */
};

/* A passive-target epoch of one rank (RmaRequestLock, RmaAcquireLock or
 * RmaTryLock to RmaReleaseLock), 40 B. A timeline's are contiguous, by
 * begin. */
struct trace_epoch {
	uint64_t t_begin, t_end;     /* lock and release records (t_end: the
	                              * timeline's last event when never released) */
	uint32_t timeline;
	uint32_t win;
	uint32_t target;       /* world rank, or TRACE_NONE: every rank (lock_all) */
	uint32_t op_begin;     /* the call that locked, or TRACE_NONE */
	uint32_t op_end;       /* the call that released, or TRACE_NONE */
	uint8_t shared;        /* a shared lock (else exclusive) */
	uint8_t open;          /* never released */
	uint8_t pad[2];
};

struct trace_frame {
	uint64_t t_enter, t_leave;
	uint32_t region;
	uint32_t parent;       /* enclosing frame, or TRACE_NONE */
	uint32_t timeline;
	uint32_t depth;
};

struct trace_timeline {
	uint64_t location;     /* OTF2 location id */
	uint32_t name;         /* location group name, e.g. "MPI Rank 3" */
	uint32_t node;         /* system tree node, or TRACE_NONE */
	uint32_t op_first, op_count;
	uint32_t frame_first, frame_count;
	uint64_t events;
	uint64_t t_start;      /* its first event: where its first computation op begins */
	uint32_t call_first, call_count;   /* its quiet calls and gaps (struct trace_call) */
};

/* An MPI call that is no op, or a span with measurement switched off
 * (16 B). A call is quiet when it carried no message or collective
 * record (MPI_Comm_rank, MPI_Irecv, an MPI_Test that completed nothing,
 * MPI_Init) or when it was made inside another MPI call; the profile
 * needs them, the structure does not (doc/model.md). A timeline's calls
 * are contiguous and ordered by enter time, the outer first where two
 * enter together: [call_first, call_first + call_count). `word` holds
 * the duration in ticks in bits 0-39 (TRACE_CALL_TICKS_MAX: that or
 * more, WARN_LONG_CALL), the region in bits 40-61
 * (TRACE_OPREC_NO_REGION for a gap) and the kind in bits 62-63. */
struct trace_call {
	uint64_t t_enter;
	uint64_t word;
};
enum trace_call_kind {
	CALL_MPI,          /* a quiet call, not inside another MPI call */
	CALL_GAP,          /* measurement switched off (no region) */
	CALL_INNER,        /* an MPI call made inside another one (an op or a quiet call) */
};
#define TRACE_CALL_TICKS_MAX ((UINT64_C(1) << 40) - 1)

static inline uint64_t
trace_call_ticks(const struct trace_call *c)
{
	return c->word & TRACE_CALL_TICKS_MAX;
}

static inline uint32_t
trace_call_region(const struct trace_call *c)
{
	uint32_t r = (uint32_t)(c->word >> 40) & 0x3fffffu;
	return r == TRACE_OPREC_NO_REGION ? TRACE_NONE : r;
}

static inline unsigned
trace_call_kind(const struct trace_call *c)
{
	return (unsigned)(c->word >> 62);
}

static inline struct trace_call
trace_call_make(uint64_t enter, uint64_t ticks, uint32_t region, unsigned kind)
{
	uint64_t r = trace_oprec_region(region);
	if (ticks > TRACE_CALL_TICKS_MAX)
		ticks = TRACE_CALL_TICKS_MAX;
	return (struct trace_call){ enter, ticks | r << 40 | (uint64_t)kind << 62 };
}

/* Every location in the archive, MPI rank or not. */
enum trace_loc_type { LOC_CPU_THREAD, LOC_GPU, LOC_METRIC, LOC_OTHER };
struct trace_location {
	uint64_t id;
	uint32_t name;
	uint32_t group_name;
	uint32_t timeline;     /* TRACE_NONE for non-rank locations */
	uint8_t type;          /* enum trace_loc_type */
	uint64_t events;
	uint64_t events_declared;   /* what the definitions claim */
};

/* A lane: a CPU thread or a GPU stream of a process, read under the
 * rank of its location group (doc/model.md, "Lanes"). Its regions are
 * frames of its own (trace_lane_frames, whose `timeline` field is the
 * lane); a GPU stream's kernels are its regions and its copies frames of
 * the regions "[copy to device]" / "[copy to host]" (Score-P writes a
 * copy as an RMA get or put on the stream, completed by a blocking
 * completion). */
enum trace_lane_kind { LANE_THREAD, LANE_GPU };
#define TRACE_COPY_TO_DEVICE "[copy to device]"
#define TRACE_COPY_TO_HOST "[copy to host]"
struct trace_lane {
	uint32_t location;     /* index in trace_locations */
	uint32_t timeline;     /* its process's rank */
	uint32_t frame_first, frame_count;   /* in trace_lane_frames */
	uint8_t kind;          /* enum trace_lane_kind */
};

/* An Enter the trace names a team, task or stream for (doc/model.md): an
 * OpenMP thread's parallel region or implicit task tagged with its team
 * (OMPT's OMPT_PARALLEL_REGION_ID attribute; OPARI2's ThreadTeamBegin
 * before it), a task's creation or run with the task (ThreadTaskCreate,
 * ThreadTaskSwitch), a CUDA launch with its stream: the location, the
 * Enter's time (as its frame has it) and region, the id. */
struct trace_tag {
	uint64_t time, value;
	uint32_t location, region;
};

/* A thread's hold of a lock (OTF2's ThreadAcquireLock to its
 * ThreadReleaseLock, on a rank's location or a lane's): OpenMP's
 * critical sections and omp_set_lock, Pthread mutexes. The tracer
 * numbers the acquisitions of each lock of a process in order; the
 * holder before this one is the hold with the order before. */
struct trace_hold {
	uint64_t acquire, release;
	uint32_t location;     /* index in trace_locations */
	uint32_t lock;         /* the tracer's lock id */
	uint32_t order;        /* acquisition order */
	uint8_t model;         /* OTF2 paradigm (OpenMP, Pthread, ...) */
};

struct trace_region {
	uint32_t name;
	uint8_t role;          /* enum trace_role */
	uint8_t paradigm;      /* OTF2 paradigm number */
};

struct trace_comm {
	uint32_t name;
	uint32_t size;         /* members; 1 for self communicators */
	uint32_t member_first; /* world ranks in trace_comm_members() */
	uint32_t parent;
	uint8_t is_self;       /* rank 0 means the calling rank itself */
};

struct trace_node {
	uint32_t name, class_name;
	uint32_t parent;
};

/* Warning counters: each a thing that went wrong but left a usable result. */
enum trace_warning {
	WARN_UNMATCHED_SEND, WARN_UNMATCHED_RECV, WARN_INCOMPLETE_COLL,
	WARN_MISNESTED_LEAVE, WARN_STRAY_LEAVE, WARN_UNCLOSED_REGION,
	WARN_MEASUREMENT_OFF, WARN_TIME_BACKWARDS, WARN_BAD_PEER,
	WARN_UNKNOWN_REQUEST, WARN_EVENT_COUNT_MISMATCH, WARN_NO_MPI_RANKS,
	WARN_NONRANK_MPI, WARN_SIZE_MISMATCH, WARN_BAD_REF, WARN_NO_LOCAL_DEFS,
	WARN_UNKNOWN_RECORD, WARN_NESTED_BEGIN, WARN_BAD_PE, WARN_LONG_CALL, WARN_BEFORE_OFFSET,
	WARN_DUP_DEF, WARN_COUNT
};

/* Kinds of event records counted while reading. */
enum trace_rec {
	REC_ENTER, REC_LEAVE, REC_MPI_SEND, REC_MPI_ISEND, REC_MPI_ISEND_COMPLETE,
	REC_MPI_IRECV_REQUEST, REC_MPI_IRECV, REC_MPI_RECV,
	REC_MPI_COLLECTIVE_BEGIN, REC_MPI_COLLECTIVE_END, REC_MEASUREMENT_ON_OFF,
	/* one-sided and non-blocking collective records, as OTF2 names them */
	REC_RMA_WIN_CREATE, REC_RMA_WIN_DESTROY, REC_RMA_COLLECTIVE_BEGIN,
	REC_RMA_COLLECTIVE_END, REC_RMA_GROUP_SYNC, REC_RMA_REQUEST_LOCK,
	REC_RMA_ACQUIRE_LOCK, REC_RMA_TRY_LOCK, REC_RMA_RELEASE_LOCK, REC_RMA_SYNC,
	REC_RMA_WAIT_CHANGE, REC_RMA_PUT, REC_RMA_GET, REC_RMA_ATOMIC,
	REC_RMA_OP_COMPLETE_BLOCKING, REC_RMA_OP_COMPLETE_NON_BLOCKING, REC_RMA_OP_TEST,
	REC_RMA_OP_COMPLETE_REMOTE, REC_NBC_REQUEST, REC_NBC_COMPLETE,
	REC_THREAD_ACQUIRE_LOCK, REC_THREAD_RELEASE_LOCK,
	/* OpenMP's teams and tasks (OTF2 1.x's OmpTaskCreate and
	 * OmpTaskSwitch counted as the thread records) */
	REC_THREAD_TEAM_BEGIN, REC_THREAD_TASK_CREATE, REC_THREAD_TASK_SWITCH,
	REC_OTHER,
	REC_COUNT
};

/* What kind of program the trace records (DESIGN.md §4): one model, two
 * paradigms. MPI traces leave the Charm++ arrays of model/charm.h empty. */
enum trace_paradigm {
	PARADIGM_MPI,              /* timelines are ranks */
	PARADIGM_CHARM,            /* timelines are chares; ops run on PEs */
	PARADIGM_COUNT
};

struct trace_info {
	const char *path;          /* the anchor file that was opened */
	const char *creator;       /* e.g. "Score-P 7.1", "Charm++ v80000" */
	uint32_t version[3];       /* OTF2 format version; Projections: major, minor */
	uint8_t paradigm;          /* enum trace_paradigm */
	uint64_t ticks_per_second;
	uint64_t global_offset;    /* ticks; times in records are relative to it */
	uint64_t t_begin, t_end;   /* first and last event, relative ticks */
	uint64_t events;
	uint64_t records[REC_COUNT];
	uint64_t warnings[WARN_COUNT];
	/* communication calls that carried no record (non-blocking
	 * collectives, tests that completed nothing); not those whose
	 * records were dropped, which warnings count */
	uint64_t mpi_calls_without_records;
	uint32_t no_local_defs;    /* string id: the first file of WARN_NO_LOCAL_DEFS, 0 if none */
};

struct trace;

/* Reading progress, reported by readers and later stages. `done` and
 * `total` are in the stage's own unit (events, ops); total may be 0. A
 * callback that returns non-zero cancels the work (ERR_CANCELLED). */
typedef int (*trace_progress_fn)(void *ud, const char *stage, uint64_t done, uint64_t total);

void trace_destroy(struct trace *t);

const struct trace_info *trace_info(const struct trace *t);
const char *trace_str(const struct trace *t, uint32_t id);

const struct trace_timeline *trace_timelines(const struct trace *t, uint32_t *n);
const struct trace_location *trace_locations(const struct trace *t, uint32_t *n);
const struct trace_region *trace_regions(const struct trace *t, uint32_t *n);
const struct trace_comm *trace_comms(const struct trace *t, uint32_t *n);
const uint32_t *trace_comm_members(const struct trace *t);
const struct trace_node *trace_nodes(const struct trace *t, uint32_t *n);
/* The operations, op ids 0 .. *n - 1, read with trace_op_get(). */
struct trace_opv {
	const struct trace_oprec *rec;   /* the stored records */
	const struct trace_timeline *tls;
	uint32_t n;                   /* op ids */
	uint32_t implied;             /* 1: rec holds the calls only (MPI): op 2k+1 is
	                               * rec[k], op 2k the computation before it */
};
struct trace_opv trace_ops(const struct trace *t, uint32_t *n);
const struct trace_end *trace_ends(const struct trace *t, uint32_t *n);
const struct trace_msg *trace_msgs(const struct trace *t, uint32_t *n);
const struct trace_coll *trace_colls(const struct trace *t, uint32_t *n);
const uint32_t *trace_coll_members(const struct trace *t);
/* Per collective member (as trace_coll_members), the bytes it sent: a
 * member's share of its collective's bytes_sent. *n is 0 for a saved file
 * from before them. */
const uint64_t *trace_coll_sent(const struct trace *t, uint32_t *n);
const struct trace_frame *trace_frames(const struct trace *t, uint32_t *n);
/* The lanes (threads and GPU streams under their rank), in location
 * order, and their frames (each lane's in time order of entering). */
const struct trace_lane *trace_lanes(const struct trace *t, uint32_t *n);
const struct trace_frame *trace_lane_frames(const struct trace *t, uint32_t *n);
/* The lanes by rank: rank r's are (*ids)[(*first)[r] .. (*first)[r + 1]),
 * in lane order; both malloc'd, the caller's (first has n_timelines + 2
 * entries). 0 or ERR_NOMEM (both NULL). */
int trace_lanes_by_rank(const struct trace *t, uint32_t **first, uint32_t **ids);
/* Per lane frame, a copy's bytes (0 for other frames; empty in a saved
 * file from before them). */
const uint64_t *trace_lane_bytes(const struct trace *t, uint32_t *n);
/* The locks' holds, by location, each location's in time order (empty
 * without lock records). */
const struct trace_hold *trace_holds(const struct trace *t, uint32_t *n);
/* The parallel regions' team tags, by location, each location's in time
 * order (empty without them). */
const struct trace_tag *trace_tags(const struct trace *t, uint32_t *n);
/* Is region r a stream's copy (TRACE_COPY_TO_DEVICE or _HOST)? */
int trace_region_is_copy(const struct trace *t, uint32_t r);
/* The quiet MPI calls and measurement gaps (struct trace_call). */
const struct trace_call *trace_calls(const struct trace *t, uint32_t *n);
/* RMA windows, operations and passive-target epochs (empty without
 * one-sided records). */
const struct trace_win *trace_wins(const struct trace *t, uint32_t *n);
const struct trace_rma *trace_rmas(const struct trace *t, uint32_t *n);
const struct trace_epoch *trace_epochs(const struct trace *t, uint32_t *n);
/* The RMA operations timeline tl issued, [*first, *first + return). */
uint32_t trace_tl_rmas(const struct trace *t, uint32_t tl, uint32_t *first);
/* Its passive-target epochs likewise. */
uint32_t trace_tl_epochs(const struct trace *t, uint32_t tl, uint32_t *first);

/* Op `op` (< v->n). A computation op of an MPI trace runs from the exit
 * of the call before it on its timeline (the timeline's start for the
 * first) to the enter of its call, or is empty where that call entered
 * before the previous exit; it has the call's timeline, frame and
 * end_first, no region and no ends. */
static inline struct trace_op
trace_op_get(const struct trace_opv *v, uint32_t op)
{
	uint32_t k = v->implied ? op >> 1 : op;
	const struct trace_oprec *c = &v->rec[k];
	struct trace_op o = {
		.t_enter = c->t_enter, .t_exit = c->t_exit, .timeline = c->timeline,
		.region = c->region == TRACE_OPREC_NO_REGION ? TRACE_NONE : c->region,
		.frame = c->frame, .end_first = c->end_first, .kind = c->kind,
		.flags = (uint8_t)(c->flags & ~OPF_GAP_BEFORE),
	};
	if (!v->implied || (op & 1))
		return o;
	/* the computation before call k */
	uint64_t from = k > 0 && v->rec[k - 1].timeline == c->timeline ? v->rec[k - 1].t_exit
									: v->tls[c->timeline].t_start;
	o.t_enter = from < c->t_enter ? from : c->t_enter;
	o.t_exit = c->t_enter;
	o.region = TRACE_NONE;
	o.kind = OP_COMPUTE;
	o.flags = c->flags & OPF_GAP_BEFORE ? OPF_MEASURE_GAP : 0;
	return o;
}

/* trace_op_get of one op, for code that reads a few. */
struct trace_op trace_op(const struct trace *t, uint32_t op);

/* The ends of op `op`: *n of them starting at the returned pointer. */
const struct trace_end *trace_op_ends(const struct trace *t, uint32_t op, uint32_t *n);

/* Seconds from the trace's start for a relative tick count. */
double trace_seconds(const struct trace *t, uint64_t ticks);
/* A tick count as a duration for people (fmt_seconds: "10.06 ms");
 * returns buf. */
const char *trace_fmt_duration(const struct trace *t, uint64_t ticks, char *buf, size_t n);

/* What the model can index, for ERR_LIMIT messages: "at most … calls,
 * … messages, receives or collectives, … regions". */
const char *trace_limits_text(void);

/* A model no reader built (mapped from a saved analysis) checked against
 * what the readers guarantee and the analysis follows: the timelines'
 * ops in rank order, ends named back by their messages and collectives, each op's kind that of its ends,
 * calls in time order, frames nested. 0, or ERR_FORMAT with e saying the
 * first thing that is not so (trace_check.c). Linear in the model. */
int trace_check(const struct trace *t, struct err *e);

/* Names for enums, for reports. */
const char *trace_role_name(enum trace_role r);
const char *trace_op_kind_name(enum trace_op_kind k);
const char *trace_coll_type_name(enum trace_coll_type c);
const char *trace_rma_kind_name(enum trace_rma_kind k);     /* "put", "get", "atomic" */
const char *trace_warning_name(enum trace_warning w);
const char *trace_rec_name(enum trace_rec r);
const char *trace_loc_type_name(enum trace_loc_type l);
const char *trace_info_paradigm_name(enum trace_paradigm p);   /* "mpi", "charm++" */

/* The name of an OTF2 paradigm number ("OpenMP", "CUDA", "user" ...). */
const char *trace_paradigm_name(uint8_t paradigm);

/* Is there MPI communication to analyse: a message (either end) or a
 * collective? A single rank with collectives counts. Returns 0, or
 * ERR_FORMAT with e set to what the trace holds instead ("OpenCL,
 * compiler and user regions on 2 locations (cpu-thread 1, gpu 1), no MPI
 * messages or collectives"). */
int trace_require_communication(const struct trace *t, struct err *e);

/* Did the trace record one-sided communication (any RMA record)? */
int trace_has_rma(const struct trace *t);

/* Classifies an MPI function name ("MPI_Isend") into a role; names that are
 * not MPI give ROLE_USER. */
enum trace_role trace_classify_mpi(const char *name);

#endif
