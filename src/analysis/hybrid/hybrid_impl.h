/* hybrid_impl.h — the state of hybrid_compute (hybrid.h), shared by
 * hybrid.c (device work and its calls), hybrid_omp.c (OpenMP teams),
 * hybrid_tasks.c (tasks); hybrid_blame.c reads a finished result. */
#ifndef SKEIN_HYBRID_IMPL_H
#define SKEIN_HYBRID_IMPL_H

#include <stddef.h>

#include "hybrid.h"

/* OTF2's paradigm number of OpenMP (OTF2_PARADIGM_OPENMP; the model
 * keeps OTF2's numbers, and only otf2/ includes OTF2's headers). */
#define HY_PARADIGM_OPENMP 3

/* ---- the computation's state ---- */

/* A host call that issues or waits for device work. */
struct call {
	uint64_t enter, leave;
	uint32_t place, frame;
	uint32_t stream;          /* a launch's stream (its tag), or TRACE_NONE */
	uint32_t work;            /* a copy call's copy (index in work), or TRACE_NONE */
	uint8_t cls;
	uint8_t dir;              /* a copy call's direction (enum copy_dir) */
};

/* Which way a copy goes: by its call's name (cuMemcpyHtoD, clEnqueue
 * WriteBuffer) or the stream's region for it ("[copy to device]"). */
enum copy_dir { DIR_NONE, DIR_TO_DEVICE, DIR_TO_HOST };

/* A kernel or copy on a stream, and the call that issued it (issue: the
 * call's enter; without a call, the work's own). */
struct work {
	uint64_t enter, leave, issue;
	uint32_t place, frame;
	uint32_t call;            /* index in the rank's calls, or TRACE_NONE */
	uint8_t copy;             /* a kernel: DIR_NONE; a copy: its direction */
};

struct hy {
	const struct trace *t;
	struct hybrid *h;
	const uint8_t *cls;       /* per region */
	const uint8_t *dir;       /* per region: a copy call's or copy's direction */
	const uint32_t *task_key; /* per task region: the first task region of its source line */
	struct call *calls;
	size_t n_calls, cap_calls;
	struct work *work;
	size_t n_work, cap_work;
	uint32_t *order;          /* scratch */
	size_t cap_order;
	uint64_t *prefix_end;
	uint32_t *prefix_at;
	size_t n_waits_cap, n_edges_cap;
	uint32_t *loc_of_place;   /* with tags (trace_tags): each place's location index */
	/* the rank's streams: their OTF2 location ids and places */
	uint64_t *stream_id;
	uint32_t *stream_place, n_streams;
	size_t cap_stream_id, cap_stream_place;
};

static inline uint8_t
cls_of(const struct hy *y, const struct trace_frame *f)
{
	return y->cls[f->region];
}

/* The tag (trace_tags) of place's frame fr, + 1, or 0: an OpenMP team's
 * id, a launch's stream (OTF2 location id). */
uint64_t hy_tag(const struct hy *y, uint32_t place, const struct trace_frame *fr);

/* Adds a wait state (its index in *id) or an edge. 0 or ERR_NOMEM. */
int hy_add_wait(struct hy *y, uint64_t from, uint64_t to, uint32_t place, uint32_t frame,
		uint32_t cause, uint32_t cause_frame, uint8_t kind, uint32_t *id);
int hy_add_edge(struct hy *y, uint64_t at, uint32_t place, uint32_t frame, uint64_t by_at,
		uint32_t by, uint32_t by_frame, uint32_t wait);

/* The i-th of a process's places that run threads (i <= n_lanes): its
 * thread lanes, then its rank (i == n_lanes); TRACE_NONE for a stream. */
uint32_t hy_thread_place(const struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes,
			 uint32_t i);

/* Rank tl's OpenMP teams (its lanes: lanes[0 .. n_lanes)): each thread's
 * part of a parallel region after the fork, the barriers' waits. */
int omp_teams(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes);
/* Rank tl's critical sections: each wait to enter one that another
 * thread of the process held. */
int omp_criticals(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes);
/* The locks passed between threads (trace_holds): each wait for a lock
 * its holder before let go; locked[r] set for each rank r with holds. */
int thread_locks(struct hy *y, uint8_t *locked);
/* Rank tl's tasks: each run by another thread than created it waited for
 * its creation. */
int omp_tasks(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes);

#endif
