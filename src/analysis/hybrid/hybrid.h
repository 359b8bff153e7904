/* hybrid.h — what a process's threads and GPU streams (its lanes,
 * model/trace.h) depend on and wait for (doc/analysis.md, "Threads and
 * streams").
 *
 * A location is a rank (its timeline, where MPI is) or a lane; here both
 * are numbered as places: timeline tl is place tl, lane i is place
 * n_timelines + i. Frames are the rank's (trace_frames) or the lane's
 * (trace_lane_frames).
 *
 * Dependencies, from the regions' names (hybrid_class):
 *  - a kernel or copy on a stream starts after the host call that issued
 *    it: a process's launch calls are paired with its streams' kernels,
 *    and its copy calls with their copies (each direction apart where the
 *    calls' names say it), both in time order;
 *  - a synchronisation call (cudaDeviceSynchronize, cuStreamSynchronize,
 *    cuCtxSynchronize, Score-P's cudaSynchronize, clFinish ...) and a
 *    blocking copy call return when the device work issued before them
 *    (and the copy itself) is done;
 *  - a thread's part of a parallel region starts when the master enters
 *    the region (the fork);
 *  - an OpenMP barrier (explicit or implicit: the join's) releases every
 *    thread of the team when the last one enters it;
 *  - an OpenMP task runs after it was created (its creation where the
 *    trace names the tasks, else the k-th run of a task region after the
 *    k-th creation of its source line, in the process);
 *  - a thread waiting for a lock (OpenMP's critical sections and
 *    omp_set_lock, Pthread mutexes) is released when the thread that held
 *    it before lets it go: where the trace has the locks' records
 *    (trace_holds), the hold with the acquisition order just before its
 *    own, of the same lock in the same process (none when that one is
 *    missing: lock_gaps); without them, for critical
 *    sections only, the body that ended last on another thread before
 *    its own began (Score-P's names do not tell the locks of named
 *    sections apart: they count as one lock).
 *
 * From them: the wait states of threads and hosts (a barrier entered
 * before the team's last thread; a synchronisation or copy call that
 * waited for earlier device work), and the edges the critical path
 * (analysis/path) follows back from a place to what released it.
 *
 *   trace → hybrid_compute → waits, edges … → hybrid_free
 */
#ifndef SKEIN_ANALYSIS_HYBRID_H
#define SKEIN_ANALYSIS_HYBRID_H

#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

/* What a region does for the dependencies. */
enum hybrid_class {
	HY_NONE,
	HY_LAUNCH,         /* issues a kernel */
	HY_COPY,           /* issues a copy; blocking unless asynchronous */
	HY_COPY_ASYNC,
	HY_SYNC,           /* waits for the device work issued before it */
	HY_PARALLEL,       /* an OpenMP parallel region */
	HY_IMPLICIT,       /* a thread's implicit task (OMPT's name for its part) */
	HY_BARRIER,        /* an OpenMP barrier, explicit or implicit */
	HY_CRITICAL,       /* an OpenMP critical section: waiting for its lock, */
	HY_CRITICAL_BODY,  /* then holding it (Score-P's "critical sblock") */
	HY_TASK_CREATE,    /* an OpenMP task created, */
	HY_TASK,           /* and run */
	HY_LOCK,           /* waits to acquire a lock (omp_set_lock, pthread_mutex_lock) */
	HY_UNLOCK,         /* lets a lock go (omp_unset_lock, pthread_mutex_unlock) */
	HY_TASKWAIT,       /* waits for the tasks its thread created (an OpenMP taskwait) */
	HY_CLASS_COUNT
};
enum hybrid_class hybrid_class(const char *name, uint8_t paradigm);

enum hybrid_wait_kind {
	HYW_DEVICE,        /* a host call waited for device work */
	HYW_BARRIER,       /* a thread waited in a barrier for the team's last */
	HYW_CRITICAL,      /* a thread waited to enter a critical section another held */
	HYW_LOCK,          /* a thread waited for a lock another held */
	HYW_TASKWAIT,      /* a thread waited in a taskwait for a task another thread ran */
	HYW_KIND_COUNT
};
/* "device-wait", "omp-barrier", "omp-critical", "lock-wait", "omp-taskwait" */
const char *hybrid_wait_name(enum hybrid_wait_kind k);

/* A wait state: place `place` waited in its frame `frame` over
 * [from, to) for place `cause`'s frame `cause_frame` (the device work,
 * the last thread's barrier). For a barrier, since and own_since: where
 * the last thread's stretch [since, to) and the waiting one's
 * [own_since, from) began, the team's last meeting (the previous
 * barrier's end, or the fork: a thread's latency before its part began
 * is in its stretch); for the other kinds, both from. */
struct hybrid_wait {
	uint64_t from, to, since, own_since;
	uint32_t place, frame;
	uint32_t cause, cause_frame;
	uint8_t kind;            /* enum hybrid_wait_kind */
};

/* An edge the critical path follows back: place `place` was released at
 * `at` by place `by` at `by_at` (<= at): a host call by the end of the
 * device work it waited for, a barrier by the last thread's entering, a
 * stream's kernel or copy by the host call that issued it (or, queued
 * behind the work before it, by that work's end: `by` is the stream
 * itself), a thread's part of a parallel region by the fork. `wait` is the wait state it
 * ends (an index into waits) or TRACE_NONE. */
struct hybrid_edge {
	uint64_t at, by_at;
	uint32_t place, by;
	uint32_t frame, by_frame;
	uint32_t wait;
};

struct hybrid {
	uint32_t n_timelines, n_places;
	struct hybrid_wait *waits;     /* by place, in time order */
	uint32_t n_waits;
	struct hybrid_edge *edges;     /* by place, by `at` */
	uint32_t n_edges;
	uint32_t *edge_first;          /* place p's: [edge_first[p], edge_first[p + 1]) */
	/* what could not be paired: kernels and copies without an issuing
	 * call, and calls without their device work */
	uint64_t unpaired_work, unpaired_calls;
	uint64_t teams, barriers;      /* parallel regions and barrier instances matched */
	uint64_t tasks;                /* tasks run by another thread than created them */
	uint64_t lock_passes;          /* locks passed from one thread to another (trace_holds) */
	uint64_t lock_gaps;            /* acquisitions after a missing one: holder unknown */
	uint64_t parts_unsure;         /* threads' parts left out of any team: begun while
	                                * several teams' forks were open (nested teams) */
};

/* The lanes' dependencies of t into *h (the caller's: hybrid_free); an
 * empty result for a trace without lanes. O(frames log frames).
 * Returns 0 or ERR_NOMEM (e set). */
int hybrid_compute(const struct trace *t, struct hybrid *h, struct err *e);
void hybrid_free(struct hybrid *h);

/* The last of place p's edges released before t, or NULL. */
const struct hybrid_edge *hybrid_edge_before(const struct hybrid *h, uint32_t p, uint64_t t);
/* Place p's frames (the rank's or the lane's) and their number. */
const struct trace_frame *hybrid_place_frames(const struct trace *t, const struct hybrid *h,
					      uint32_t p, uint32_t *first, uint32_t *n);
/* Does a wait of this kind give its time to where the place it waited
 * for spent it (hybrid_stretch: a barrier's last thread, a busy stream),
 * rather than to one region (hybrid_blamed_region: a lock's holder, a
 * task)? */
int hybrid_wait_spreads(uint8_t kind);
/* Place `place`'s exclusive time in each region over [from, to), handed
 * to add(ctx, region, ticks) as each frame's time there less its
 * children's (a region's sum is its exclusive time); returns the time in
 * no frame (a thread before its part of a parallel region began: the
 * fork's latency; a stream between its kernels). O(log frames + the
 * frames it meets). cur: NULL, or the caller's cursor on the place (a
 * frame index; TRACE_NONE at first), from which the first frame is
 * sought and which is left where it was found: a place's stretches
 * asked for in time order then cost O(log of the frames between them)
 * to find, the same frames either way. */
typedef void (*hybrid_add_fn)(void *ctx, uint32_t region, int64_t ticks);
uint64_t hybrid_stretch(const struct trace *t, const struct hybrid *h, uint32_t place, uint64_t from,
			uint64_t to, hybrid_add_fn add, void *ctx, uint32_t *cur);
/* Place `place`'s time over [from, to) cut where its innermost frame
 * changes: each run [lo, hi) handed to run(ctx, lo, hi, region) in time
 * order, region TRACE_NONE where no frame is open; cur as for
 * hybrid_stretch. */
typedef void (*hybrid_run_fn)(void *ctx, uint64_t lo, uint64_t hi, uint32_t region);
void hybrid_stretch_runs(const struct trace *t, const struct hybrid *h, uint32_t place, uint64_t from,
			 uint64_t to, hybrid_run_fn run, void *ctx, uint32_t *cur);
/* The region a wait is named by: for a barrier and a device wait, the
 * region the place it waited for spent most of it in (hybrid_stretch:
 * the last thread's loop, the kernel the stream ran); for a lock, the
 * region the holder held it in (a critical section); for a taskwait,
 * the task. */
uint32_t hybrid_blamed_region(const struct trace *t, const struct hybrid *h,
			      const struct hybrid_wait *w);
/* The rank a place belongs to. */
uint32_t hybrid_place_rank(const struct trace *t, const struct hybrid *h, uint32_t p);

/* The first of frames [first, end) entered at or after t (a place's
 * frames are in enter order), into *at as well; searched from *at when
 * it lies in [first, end] (a cursor: doubling steps, then halves), by
 * halves over them all when at is NULL. hybrid_blame.c. */
uint32_t hybrid_first_entered(const struct trace_frame *fr, uint32_t first, uint32_t end, uint64_t t,
			      uint32_t *at);

#endif
