/* saved.h — a model and its analysis saved as one file, opened again
 * without the trace (doc/format.md).
 *
 * The file is a header, a table of sections and the sections: every array
 * of the model and of the analysis exactly as it is in memory (records
 * hold ids, never pointers), each with its own checksum, and the options
 * and the identity of the trace it came from. Opening maps the file and
 * points the model's and the analysis's arrays into the mapping: nothing
 * is decoded or copied, so a trace of 10^8 events reopens in the time it
 * takes to check the sums.
 *
 *   saved_write(a, path) → … → saved_open(path, &t, &a, &info) → getters …
 *   → analysis_destroy(a), trace_destroy(t)
 */
#ifndef SKEIN_SAVED_H
#define SKEIN_SAVED_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/core/analysis.h"
#include "base/err.h"
#include "model/trace.h"

#define SAVED_VERSION 10

/* Writes the model and analysis a and the options it ran with, ran (the
 * globs of its phase rules and of its iteration region are recorded), to
 * path, through a temporary file renamed at the end. Clusters are not
 * saved: they are computed again when asked for. Returns 0 or ERR_IO /
 * ERR_NOMEM. */
int saved_write(const struct analysis *a, const struct analysis_opts *ran, const char *path,
		struct err *e);

/* May a saved analysis be written at path: is it absent, empty, or a
 * file skein saved? Anything else (the trace's own anchor, a link, a
 * FIFO, a directory) is never replaced: returns ERR_IO, message in e;
 * else 0. saved_write and a distributed save ask it first. */
int saved_may_replace(const char *path, struct err *e);

/* Adds to the saved file at path, which a distributed analysis wrote
 * without them, the explanations of a, the analysis opened from it
 * (saved_open works them out): the file is then the one saved_write
 * writes for the same analysis, byte for byte but for the stage timings.
 * Nothing when the file holds them or a has none (a Charm++ run).
 * Returns 0, ERR_IO or ERR_NOMEM. */
int saved_append_explain(const char *path, const struct analysis *a, struct err *e);

/* 1 when the file at path starts as a saved analysis does, 0 when it
 * does not (or cannot be read: its reader says why), -1 when it could
 * not be looked at for want of memory. */
int saved_is(const char *path);

/* What a saved file says about where it came from. */
enum saved_trace_state {
	SAVED_TRACE_SAME,        /* the trace is where it was, same size and time */
	SAVED_TRACE_CHANGED,     /* it is there, but its size or time changed */
	SAVED_TRACE_MISSING,     /* it is not there (moved, deleted, another machine) */
};

struct saved_info {
	enum saved_trace_state trace_state;
	const char *trace;                /* the anchor it was read from */
	struct analysis_opts opts;        /* as saved (phases and iter_region NULL, clusters 0) */
	const char **phase_globs;         /* opts.n_phases of them */
	const char *iter_region;          /* the iterations' region glob, or NULL */
	enum trace_paradigm paradigm;     /* of the saved model */
};

/* Where the trace a model came from stands: SAVED_TRACE_SAME for a model
 * read from the trace itself, else what saved_open found. */
enum saved_trace_state saved_source(const struct trace *t);

/* Opens a saved analysis: *t and *a own the mapping between them (destroy
 * a before t). info, if not NULL, is filled and lives as long as *t.
 * Returns 0, ERR_IO (cannot read; not a saved analysis) or ERR_FORMAT
 * (another version or byte order, truncated, a section whose sum is
 * wrong, inconsistent counts); e says which. */
int saved_open(const char *path, struct trace **t, struct analysis **a,
	       struct saved_info *info, struct err *e);

/* The same over len bytes at buf (8-byte aligned; kept, not copied: buf
 * must outlive *t). name is used in messages. For the fuzzer. */
int saved_open_mem(const void *buf, size_t len, const char *name, struct trace **t,
		   struct analysis **a, struct saved_info *info, struct err *e);

/* 1 when o would give a different analysis than the saved one (clusters
 * aside: they are computed on demand). */
int saved_opts_differ(const struct saved_info *s, const struct analysis_opts *o);

/* Computes the clusters of every partition of a saved analysis (k: 1..20),
 * as analysis_run does with opts.clusters. Returns 0 or ERR_*. */
int saved_cluster(struct analysis *a, uint32_t k);

#endif
