/* build_impl.h — the builder's state, shared by build.c and match.c. */
#ifndef SKEIN_BUILD_IMPL_H
#define SKEIN_BUILD_IMPL_H

#include "build.h"
#include "base/hmap.h"
#include "trace_impl.h"

struct frame_entry {
	uint64_t enter;
	uint32_t region;
	uint32_t frame;     /* user frame id, or TRACE_NONE for MPI calls */
};

/* A receive waiting for its send (32 bytes: its receiver is its op's
 * timeline). */
struct recv_half {
	uint64_t time, bytes;
	uint32_t op, sender, comm, tag;
};

/* A collective member waiting for build_finish() (48 bytes). key is
 * what it is grouped on: its communicator, or n_comms + its window for
 * a window's collective; issue is its place among the collectives its
 * timeline started (a non-blocking one at its request); pos, its place
 * among its timeline's on its key in that order, is TRACE_NONE where
 * that is the order the halves come in (no non-blocking collective
 * completed out of order on the timeline): match.c counts them. */
struct coll_half {
	uint64_t sent, received;
	uint32_t op, comm, timeline, root;
	uint32_t key, pos, issue;
	uint8_t type, flags;
};

/* Keys of the request table beside Isend and Irecv requests (0). */
enum { REQ_P2P, REQ_NBC, REQ_RMA };

struct build {
	struct trace *t;
	/* a block (build_block_create): t is a shell owned by this build,
	 * sharing the definitions of the trace it will be joined into */
	int is_block;
	uint32_t *tls;          /* timelines begun, in order (those of the
	                         * blocks joined into it too) */
	size_t n_tls, cap_tls;

	/* the timeline being read */
	uint32_t tl;
	struct frame_entry *stack;
	size_t cap_stack;
	int depth;
	int mpi_depth;          /* stack index of the open MPI call, or -1 */
	int started;
	int gap;                /* measurement was off since the last call */
	uint64_t last_time;
	uint64_t prev_exit;     /* end of the last communication call */
	uint32_t frame;         /* the innermost open user frame, or TRACE_NONE */
	uint32_t call_ends;     /* ends recorded inside the open call */
	uint32_t call_sends, call_recvs;   /* of which sends, receives */
	int call_has_coll;
	int call_has_request;    /* the open call posted a request (Irecv) */
	int call_dropped;       /* a record of the open call was dropped (a warning) */
	int call_rma;           /* the open call carries RMA records */
	int stray_rma;          /* RMA records outside any MPI call since stray_from */
	uint64_t stray_from;
	uint32_t coll_issued;   /* collectives the timeline started */
	uint32_t coll_issue_top;   /* one past the largest issue among its halves */
	size_t colls_first;     /* the timeline's first collective half */
	int colls_unordered;    /* a half came after one started later */
	uint32_t *open_epochs;  /* the timeline's epochs not released yet */
	size_t n_open_epochs, cap_open_epochs;
	int measuring_off;      /* measurement is switched off since off_at */
	uint64_t off_at;
	int calls_unsorted;     /* a quiet call was added before one that entered later */
	/* the intercommunicator ranks were last translated on for timeline
	 * inter_tl: its members [inter_from, inter_from + inter_n) are the
	 * group that timeline is not in (build.c, inter_remote) */
	uint32_t inter_comm, inter_tl, inter_from, inter_n;
	struct hmap requests;   /* (request id, REQ_P2P) -> message id (Isend) or NONE;
	                         * (request, REQ_NBC) -> its issue;
	                         * (matching id, REQ_RMA + window) -> RMA operation */

	/* halves waiting for build_finish() */
	struct recv_half *recvs;
	size_t n_recvs, cap_recvs;
	struct coll_half *colls;
	size_t n_colls, cap_colls;
};

/* A message channel (match.c, dmatch.c): one (sender, receiver,
 * communicator, tag), its sends and receives threaded in order through
 * next arrays (channel_thread). */
struct channel {
	uint32_t send_head, send_tail, recv_head, recv_tail;
	uint64_t first;          /* where it was first seen: its first send's
	                          * index, or the sends' count plus its first
	                          * receive's */
};

/* Appends i to the list head .. tail threaded through next. */
static inline void
channel_thread(uint32_t *head, uint32_t *tail, uint32_t *next, uint32_t i)
{
	next[i] = TRACE_NONE;
	if (*tail == TRACE_NONE)
		*head = i;
	else
		next[*tail] = i;
	*tail = i;
}

/* A receive left without a send (its index), and where its channel was
 * first seen: such receives are numbered in lone_recv_cmp's order
 * (match.c). */
struct lone_recv {
	uint64_t first, recv;
};
int lone_recv_cmp(const void *a, const void *b);

/* Frees a block's shell trace and whatever it still holds (build_join.c). */
void build_block_free_shell(struct build *b);

/* Puts the next block of a join in place from its arrays (in header
 * order; read with memcpy, as packed bytes need not be aligned), the ids
 * and records of the timelines it began and its warning counts (build_join.c, for
 * build_pack.c); ERR_FORMAT when the sizes are not the ones the join was
 * begun with, a timeline is not t's, or no block is due. */
int build_join_place(struct build_join *j, const struct build_block_size *sz,
		     const void *const *arrays, const void *tl_ids, size_t n_tls,
		     const void *tl_records, const uint64_t *warnings, uint64_t calls_without_records);

/* Request table helpers (a request id is per location). */
static inline void reqmap_fini(struct hmap *m) { hmap_fini(m); }
static inline void reqmap_clear(struct hmap *m) { hmap_clear(m); }
static inline int reqmap_put(struct hmap *m, uint64_t req, uint32_t v) { return hmap_put(m, req, 0, v); }
static inline int reqmap_take(struct hmap *m, uint64_t req, uint32_t *v) { return hmap_take(m, req, 0, v); }

#endif
