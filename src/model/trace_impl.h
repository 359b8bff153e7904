/* trace_impl.h — the inside of struct trace, for src/ only.
 *
 * Readers fill a trace through build.h; the rest of src/ reads it through
 * trace.h. Each array is a vec (data, count, capacity).
 */
#ifndef SKEIN_TRACE_IMPL_H
#define SKEIN_TRACE_IMPL_H

#include <stddef.h>

#include "base/intern.h"
#include "charm.h"
#include "trace.h"

#define TRACE_ARRAY(type, name) type *name; size_t n_##name, cap_##name

struct trace {
	struct intern *strings;
	struct trace_info info;
	char *path;
	char *creator;

	TRACE_ARRAY(struct trace_timeline, timelines);
	TRACE_ARRAY(struct trace_location, locations);
	TRACE_ARRAY(struct trace_region, regions);
	TRACE_ARRAY(struct trace_comm, comms);
	TRACE_ARRAY(uint32_t, comm_members);
	/* Intercommunicators (OTF2's InterComm): inter_split[c], for a
	 * comm id c below n_inter_split, is one more than the size of c's
	 * first group when c is one (its members are that group's world
	 * ranks, then the other group's), else 0. Only the builder reads
	 * it: a rank on an intercommunicator is one of the group its
	 * caller is not in (build.c). The model's messages name world
	 * ranks, so a saved model does not keep it. */
	TRACE_ARRAY(uint32_t, inter_split);
	TRACE_ARRAY(struct trace_node, nodes);
	/* The stored op records: every op, or with ops_implied (the MPI
	 * builder, build.c) the calls only, op 2k+1 being oprec[k] and op 2k
	 * the computation before it (trace_op_get). */
	TRACE_ARRAY(struct trace_oprec, oprec);
	int ops_implied;
	TRACE_ARRAY(struct trace_end, ends);
	TRACE_ARRAY(struct trace_msg, msgs);
	TRACE_ARRAY(struct trace_coll, colls);
	TRACE_ARRAY(uint32_t, coll_members);
	TRACE_ARRAY(uint64_t, coll_sent);       /* per member: the bytes it sent */
	TRACE_ARRAY(struct trace_frame, frames);
	TRACE_ARRAY(struct trace_call, calls);       /* MPI only */
	/* one-sided communication (MPI only; empty without RMA records) */
	TRACE_ARRAY(struct trace_win, wins);
	TRACE_ARRAY(struct trace_rma, rmas);
	TRACE_ARRAY(struct trace_epoch, epochs);
	/* threads and GPU streams under their ranks (empty without them) */
	TRACE_ARRAY(struct trace_lane, lanes);
	TRACE_ARRAY(struct trace_frame, lane_frames);
	TRACE_ARRAY(uint64_t, lane_bytes);      /* per lane frame: a copy's bytes, else 0 */
	TRACE_ARRAY(struct trace_hold, holds);  /* the threads' locks */
	TRACE_ARRAY(struct trace_tag, tags);    /* the threads' team tags */

	/* Charm++ only (model/charm.h); empty for MPI */
	TRACE_ARRAY(struct trace_pe, pes);
	TRACE_ARRAY(struct trace_idle, idles);
	TRACE_ARRAY(struct trace_chare, chares);      /* n_timelines of them */
	TRACE_ARRAY(struct trace_entry, entries);     /* n_regions of them */
	TRACE_ARRAY(uint32_t, op_pe);                 /* n_ops of them */

	/* opened from a saved analysis (analysis/saved.c): the arrays point
	 * into a file mapped at map (NULL when the caller owns the bytes)
	 * and are not freed one by one */
	int mapped;
	void *map;
	size_t map_len;
	void *saved_globs;      /* the saved phase globs (an array of pointers) */
	int saved_state;        /* enum saved_trace_state: where the trace it came from stands */
};

/* The number of op ids. */
static inline uint32_t
trace_op_count(const struct trace *t)
{
	return (uint32_t)(t->ops_implied ? 2 * t->n_oprec : t->n_oprec);
}

/* The index of op `op`'s stored record: the call itself, or for an
 * implied computation op the call it precedes. */
static inline uint32_t
trace_oprec_index(const struct trace *t, uint32_t op)
{
	return t->ops_implied ? op >> 1 : op;
}

static inline struct trace_oprec *
trace_oprec_of(struct trace *t, uint32_t op)
{
	return &t->oprec[trace_oprec_index(t, op)];
}

/* Creates an empty trace (strings table ready). NULL when out of memory. */
struct trace *trace_new(void);

/* Interns s into t's strings; returns 0 or ERR_*. */
int trace_intern(struct trace *t, const char *s, uint32_t *id);

/* Defining the skeleton a reader fills (ids are returned in *id):
 * a region, a communicator (members are world ranks; is_self for a
 * self communicator, whose members are ignored), and the timelines
 * (n MPI ranks, empty). Each returns 0 or ERR_NOMEM / ERR_LIMIT. */
int trace_add_region(struct trace *t, const char *name, uint8_t role, uint8_t paradigm,
		     uint32_t *id);
int trace_add_comm(struct trace *t, uint32_t name, const uint32_t *members, uint32_t n,
		   int is_self, uint32_t *id);
int trace_set_timelines(struct trace *t, uint32_t n);
/* Marks communicator comm an intercommunicator whose first `first` of
 * its members (0 .. all) are one group, the rest the other (inter_split). */
int trace_set_inter(struct trace *t, uint32_t comm, uint32_t first);
/* An RMA window over communicator comm (TRACE_NONE: unknown); flags WINF_*. */
int trace_add_win(struct trace *t, uint32_t name, uint32_t comm, uint32_t flags, uint32_t *id);

/* Sets the path and creator strings (copied). */
int trace_set_path(struct trace *t, const char *path);
int trace_set_creator(struct trace *t, const char *creator);

#endif
