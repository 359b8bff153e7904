/* trace_impl.h — the inside of struct trace, for src/ only.
 *
 * Readers fill a trace through build.h; the rest of src/ reads it through
 * trace.h. Each array is a vec (data, count, capacity).
 */
#ifndef SKEIN_TRACE_IMPL_H
#define SKEIN_TRACE_IMPL_H

#include <stddef.h>

#include "intern.h"
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
	TRACE_ARRAY(struct trace_node, nodes);
	TRACE_ARRAY(struct trace_op, ops);
	TRACE_ARRAY(struct trace_end, ends);
	TRACE_ARRAY(struct trace_msg, msgs);
	TRACE_ARRAY(struct trace_coll, colls);
	TRACE_ARRAY(uint32_t, coll_members);
	TRACE_ARRAY(struct trace_frame, frames);
};

/* Creates an empty trace (strings table ready). NULL when out of memory. */
struct trace *trace_new(void);

/* Interns s into t's strings; returns 0 or ERR_*. */
int trace_intern(struct trace *t, const char *s, uint32_t *id);

/* Sets the path and creator strings (copied). */
int trace_set_path(struct trace *t, const char *path);
int trace_set_creator(struct trace *t, const char *creator);

#endif
