/* otf2_read.h — reading an OTF2 archive into a trace.
 *
 * The archive is read per location (OTF2-NOTES.md: 3-7x faster than the
 * merged global reader and needs no global time order): global
 * definitions, then each location's local definitions (mapping tables,
 * clock offsets), then its events. MPI ranks become timelines; other
 * locations are counted in trace_locations().
 */
#ifndef SKEIN_OTF2_READ_H
#define SKEIN_OTF2_READ_H

#include "base/err.h"
#include "model/trace.h"

struct otf2_read_opts {
	trace_progress_fn progress;   /* may be NULL */
	void *ud;
};

/* Reads the archive at path: an anchor file (any name ending in .otf2) or
 * a directory holding exactly one. On success *out owns a new trace (free
 * it with trace_destroy). Returns 0 or ERR_IO (missing, unreadable, not an
 * OTF2 archive), ERR_FORMAT (truncated or corrupt), ERR_NOMEM, ERR_LIMIT,
 * ERR_CANCELLED; e then says which file and what is wrong. */
int otf2_read(const char *path, const struct otf2_read_opts *opts,
	      struct trace **out, struct err *e);

#endif
