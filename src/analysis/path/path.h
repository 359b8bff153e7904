/* path.h — the critical path of a run (doc/analysis.md, "The critical
 * path"): the chain of work and waiting that ends last, followed back to
 * the start, with the time each region spends on it and the waiting each
 * region's delays caused (blame): what to optimise first.
 *
 * MPI: the path is walked back from the end of the rank or lane (a
 * thread or GPU stream, analysis/hybrid/hybrid.h) that ends last.
 * On a rank it stays there, through computation and calls, until it meets
 * an operation in a wait state (explain.h) whose release came while the
 * path was on it: there it leaves for the operation that released the
 * wait (the late send, the late receive, the last member of a collective
 * to enter, the root) at the time it began, and goes on back on that
 * rank. Likewise through a process's threads and streams: a host call
 * that waited for device work leaves for the stream at the work's end,
 * a barrier for the team's last thread, a kernel that waited for its
 * launch (or a thread for the fork) for the host at the launch, the time
 * in between on the path as the lane's wait (PATH_IDLE). Where the path
 * reaches a rank's first event after the run's
 * start, the time before it is on the path as that rank's start-up. So
 * the path covers the run, and its length is the run's.
 *
 * Charm++: the longest chain of entry-method executions: an execution
 * waited for the message that created it when that message came after
 * its PE was free; else for the execution before it on its PE.
 *
 * Computed on demand from a finished analysis (its wait states), in
 * linear time over the operations the path passes plus a binary search
 * per jump; the result is the caller's.
 *
 *   analysis → path_compute → read → path_free
 */
#ifndef SKEIN_ANALYSIS_PATH_H
#define SKEIN_ANALYSIS_PATH_H

#include <stdint.h>

#include "base/err.h"
#include "analysis/core/analysis.h"

/* One stretch of the path on one timeline, [from, to) in ticks. */
enum path_seg_kind {
	PATH_RUN,            /* the timeline's own time: work and calls */
	PATH_STARTUP,        /* before the timeline's first event */
	PATH_IDLE,           /* Charm++: a PE idle before the execution the
	                      * segment's timeline ran next (a message in flight
	                      * or in the queue, or the scheduler between two) */
	PATH_SEG_KIND_COUNT
};

struct path_seg {
	uint64_t from, to;
	uint32_t tl;
	/* The operation in a wait state the path left the timeline by at
	 * `from`, for the operation that released it (release_lop, on the
	 * segment before this one); TRACE_NONE when it did not. */
	uint32_t wait_lop, release_lop;
	uint8_t kind;        /* enum path_seg_kind */
};

/* One region's share of the path. */
struct path_region {
	uint32_t region;     /* TRACE_NONE: outside any region; PATH_REGION_STARTUP, _IDLE */
	uint64_t time;       /* exclusive time on the path, ticks */
	uint64_t blame;      /* the waiting its calls and computation caused (delays' costs) */
	uint64_t calls;      /* its instances the path passes */
};
#define PATH_REGION_STARTUP (TRACE_NONE - 1)
#define PATH_REGION_IDLE (TRACE_NONE - 2)

struct path {
	struct path_seg *segs;       /* in time order */
	uint32_t n_segs;
	uint64_t from, to;           /* the run: the trace's first and last event */
	uint64_t length;             /* to - from: the segments' total */
	uint32_t jumps;              /* times the path changed timeline */
	/* the segments by place: tl_segs[tl_first[tl] .. tl_first[tl + 1])
	 * are the indices of place tl's, in time order. A place is a
	 * timeline (tl < n_timelines) or a lane, a thread or GPU stream
	 * under its rank (lane tl - n_timelines: hybrid.h's places) */
	uint32_t *tl_first, *tl_segs;
	uint32_t n_timelines, n_places;
	struct path_region *regions; /* by time on the path, largest first */
	uint32_t n_regions;
	uint64_t blame_total;        /* the delays' costs over every region */
};

/* The critical path of a's run into *out (the caller's: path_free).
 * Returns 0 or ERR_NOMEM (e set). */
int path_compute(const struct analysis *a, struct path *out, struct err *e);
void path_free(struct path *p);

/* The segment holding time t on timeline tl, or NULL: O(log segments). */
const struct path_seg *path_at(const struct path *p, uint32_t tl, uint64_t t);
/* The path's time on timeline tl's own work and calls within [from, to)
 * (its start-up and idle stretches left out): O(log segments + those
 * it meets). */
uint64_t path_time_in(const struct path *p, uint32_t tl, uint64_t from, uint64_t to);
/* Does the path pass timeline tl anywhere in [from, to)? */
int path_overlaps(const struct path *p, uint32_t tl, uint64_t from, uint64_t to);

#endif
