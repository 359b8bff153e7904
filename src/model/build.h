/* build.h — turning a timeline's event stream into operations.
 *
 * A reader defines regions, communicators and timelines on the trace, then
 * feeds each timeline's events in time order between build_timeline_begin()
 * and build_timeline_end(), and finally calls build_finish(), which matches
 * messages and groups collectives. Call order:
 *
 *   build_create → (timeline_begin → events… → timeline_end)* → finish → destroy
 *
 * Peers and roots are passed as ranks within the communicator, as OTF2
 * records them; the builder translates them to world ranks. Undefined
 * regions, communicators and peers are counted as warnings and skipped.
 * Every function returns 0 or a negative ERR_* code (ERR_USAGE for calls
 * out of order or an unknown timeline).
 */
#ifndef SKEIN_BUILD_H
#define SKEIN_BUILD_H

#include <stdint.h>

#include "trace.h"

struct build;

struct build *build_create(struct trace *t);
void build_destroy(struct build *b);

int build_timeline_begin(struct build *b, uint32_t timeline);
int build_timeline_end(struct build *b);

int build_enter(struct build *b, uint64_t time, uint32_t region);
/* Time as the timeline being built has it: never before its last
 * record's (the builder clamps a time that goes back). */
uint64_t build_time(const struct build *b, uint64_t time);
int build_leave(struct build *b, uint64_t time, uint32_t region);
/* request is the Isend request id, or UINT64_MAX for a blocking send. */
int build_send(struct build *b, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t request);
int build_isend_complete(struct build *b, uint64_t time, uint64_t request);
int build_irecv_request(struct build *b, uint64_t time, uint64_t request);
/* request is the Irecv request id, or UINT64_MAX for a blocking receive. */
int build_recv(struct build *b, uint64_t time, uint32_t peer, uint32_t comm,
	       uint32_t tag, uint64_t bytes, uint64_t request);
int build_coll_begin(struct build *b, uint64_t time);
int build_coll_end(struct build *b, uint64_t time, uint8_t type, uint32_t comm,
		   uint32_t root, uint64_t sent, uint64_t received);
int build_measurement(struct build *b, uint64_t time, int on);

/* Non-blocking and persistent collectives: the request is started
 * (NonBlockingCollectiveRequest) and completed (..Complete, with the
 * fields of MpiCollectiveEnd). The completing call becomes the member;
 * the k-th collective a rank *started* on a communicator is its k-th
 * invocation there, blocking or not. */
int build_nbc_request(struct build *b, uint64_t time, uint64_t request);
int build_nbc_complete(struct build *b, uint64_t time, uint8_t type, uint32_t comm,
		       uint32_t root, uint64_t sent, uint64_t received, uint64_t request);

/* One-sided communication (doc/model.md). Windows are definitions
 * (trace_add_win); remote is a rank in the window's communicator
 * (UINT32_MAX: none, every rank). Each of these makes the call holding
 * it a communication call (OP_RMA unless it carries messages or a
 * collective); outside any MPI call, the records from the first to the
 * next Enter or Leave are one call without a region (Score-P's device
 * copies). */
/* RmaCollectiveEnd: a collective of the window's communicator, grouped
 * per window. */
int build_rma_coll_end(struct build *b, uint64_t time, uint8_t type, uint32_t win,
		       uint32_t root, uint64_t sent, uint64_t received);
/* RmaPut, RmaGet, RmaAtomic (kind: enum trace_rma_kind). */
int build_rma_op(struct build *b, uint64_t time, uint8_t kind, uint8_t atomic, uint32_t win,
		 uint32_t remote, uint64_t sent, uint64_t received, uint64_t matching);
/* RmaOpComplete* (how: enum trace_rma_done). */
int build_rma_complete(struct build *b, uint64_t time, uint8_t how, uint32_t win,
		       uint64_t matching);
/* RmaRequestLock, RmaAcquireLock, RmaTryLock: opens the passive-target
 * epoch on (win, remote) unless one is open; RmaReleaseLock closes it. */
int build_rma_lock(struct build *b, uint64_t time, uint32_t win, uint32_t remote, int shared);
int build_rma_release(struct build *b, uint64_t time, uint32_t win, uint32_t remote);
/* RmaSync, RmaGroupSync, RmaWaitChange, RmaOpTest: a synchronisation. */
int build_rma_sync(struct build *b, uint64_t time);

/* Building in blocks, on several threads. A block is a builder of its
 * own over a shell of t (sharing t's definitions, read-only) that fills
 * arrays of its own: each thread feeds the timelines of its blocks, and
 * build_join() then appends the blocks, in the order given, to b's trace
 * and halves, renumbering their ids, and destroys them. Appending blocks
 * of consecutive timelines in reading order gives exactly the model one
 * builder fed the same timelines in the same order would. Blocks touch
 * only the timelines they begin; t must not change while they exist. */
struct build *build_block_create(struct trace *t);
/* Returns 0, ERR_USAGE (a block with a timeline still open) or ERR_LIMIT
 * (more records than 32-bit ids name); the blocks are destroyed in every
 * case. */
int build_join(struct build *b, struct build **blocks, uint32_t n);

/* A block's records of each kind (calls, ends, messages, frames,
 * receive and collective halves, quiet calls, RMA operations, epochs). */
struct build_block_size {
	uint64_t ops, ends, msgs, frames, recvs, colls, calls, rmas, epochs;
};
void build_block_size(const struct build *blk, struct build_block_size *sz);

/* A join whose later blocks are not in memory yet (skein-mpi: they come
 * from other processes, doc/distributed.md). build_join_begin() takes the
 * first n_mem blocks in memory (as build_join) and the sizes of the n_rest
 * that follow, sizes the model's arrays for all of them at once and puts
 * the blocks in memory in place (destroying them, in every case);
 * build_join_unpack() then puts each following block in place, in order,
 * from its bytes (build_block_pack), so the model's arrays are written
 * once and no block is held whole beside them. build_join_end() frees the
 * join: ERR_FORMAT when blocks are missing. Begin returns as build_join;
 * unpack returns 0, ERR_FORMAT (bytes that are not a whole packed block,
 * not of the size announced, or naming timelines t does not have) or
 * ERR_NOMEM, with *used the bytes it took. */
struct build_join;
int build_join_begin(struct build *b, struct build **blocks, uint32_t n_mem,
		     const struct build_block_size *rest, uint32_t n_rest,
		     struct build_join **out);
int build_join_unpack(struct build_join *j, const void *buf, size_t len, size_t *used);
int build_join_end(struct build_join *j);

/* A block as bytes, to move it to another process: its records, halves,
 * timelines begun (with their records in t) and warning counts.
 * build_block_pack_size() is the size build_block_pack() writes; the pack
 * frees the block's arrays as it goes and destroys it. */
size_t build_block_pack_size(const struct build *b);
void build_block_pack(struct build *b, void *buf);

/* Matches messages FIFO per (sender, receiver, communicator, tag), groups
 * collectives per communicator in call order, and fills in the ends. */
int build_finish(struct build *b, trace_progress_fn progress, void *ud);

#endif
