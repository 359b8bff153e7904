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

/* Matches messages FIFO per (sender, receiver, communicator, tag), groups
 * collectives per communicator in call order, and fills in the ends. */
int build_finish(struct build *b, trace_progress_fn progress, void *ud);

#endif
