/* projections_read.h — reading Charm++ Projections logs into a trace.
 *
 * A Projections run is a `.sts` file (the run's definitions: PEs, chares,
 * entry methods, messages, user events) and one log per PE beside it,
 * `<base>.<pe>.log` or `<base>.<pe>.log.gz` where `<base>.sts` is the
 * .sts file. Logs are text, one record per line (doc/charm.md lists the
 * record layouts of format versions 3 to 11 and where they come from);
 * gzip-compressed logs are read through zlib.
 *
 * The logs are parsed per PE (on both cores), then executions are grouped
 * into chares, split into ops, and every creation is matched to the
 * executions it caused (model/charm.h says how these map onto the model).
 */
#ifndef SKEIN_PROJECTIONS_READ_H
#define SKEIN_PROJECTIONS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

struct projections_read_opts {
	trace_progress_fn progress;   /* may be NULL */
	void *ud;
	/* Chare types that count as the runtime's (fnmatch(3) globs on the
	 * .sts chare name); their executions go to one runtime timeline per
	 * PE. NULL: the built-in list (projections_default_runtime). */
	const char *const *runtime_chares;
	uint32_t n_runtime_chares;
	/* Entry methods the runtime invokes on application chares (globs on
	 * the .sts signature), such as reduction targets: their invocations
	 * are runtime dependencies wherever they are recorded. NULL: the
	 * built-in list (projections_default_runtime_entries). */
	const char *const *runtime_entries;
	uint32_t n_runtime_entries;
};

/* The built-in globs, NULL-terminated (doc/charm.md). */
extern const char *const projections_default_runtime[];
extern const char *const projections_default_runtime_entries[];

/* 1 if path names a Projections run: a file ending in .sts, or a
 * directory holding exactly one .sts file. */
int projections_is_run(const char *path);

/* Reads the run at path (its .sts file, or the directory holding it). On
 * success *out owns a new trace (trace_destroy). Returns 0 or ERR_IO
 * (missing or unreadable file), ERR_FORMAT (a malformed, truncated or
 * inconsistent .sts or log: e names the file, line and record),
 * ERR_NOMEM, ERR_LIMIT, ERR_CANCELLED, ERR_USAGE (a bad runtime glob). */
int projections_read(const char *path, const struct projections_read_opts *opts,
		     struct trace **out, struct err *e);

/* ---- Shares: a run read by the ranks of a job (skein-mpi) ----
 *
 * Every rank calls projections_share_read with its rank and the job's
 * size: it reads the .sts and parses the logs of its share of the PEs
 * (the PEs split by their logs' sizes, alike on every rank). Each rank
 * but the joining one packs its share piece by piece (one PE's parsed
 * log each, freed as it is packed) and sends the pieces; the joining
 * rank adds them (in any order) and builds the trace with
 * projections_share_finish: the same trace projections_read gives. */
struct projections_share;

/* One rank looks the logs up for all (each rank's look-up of every
 * log is ranks × PEs questions to a parallel file system): the .sts read
 * and every PE's log found, as bytes for projections_share_read (*found,
 * *len; the caller frees), or projections_read's error. */
int projections_share_find(const char *path, const struct projections_read_opts *opts, char **found,
			   size_t *len, struct err *e);
/* 0 or projections_read's codes (a log of this rank's share); found,
 * len: projections_share_find's bytes (NULL: this rank looks the logs
 * up; ERR_FORMAT when they are of another number of PEs than the .sts
 * now read). */
int projections_share_read(const char *path, const struct projections_read_opts *opts,
			   uint32_t rank, uint32_t nranks, const char *found, size_t len,
			   struct projections_share **out, struct err *e);
uint32_t projections_share_pieces(const struct projections_share *s);
size_t projections_share_piece_size(const struct projections_share *s, uint32_t i);
/* Writes piece i (projections_share_piece_size bytes) into buf. */
void projections_share_pack_piece(struct projections_share *s, uint32_t i, char *buf);
/* Adds another rank's piece. 0, ERR_NOMEM, or ERR_FORMAT for bytes that
 * are no piece of this run. */
int projections_share_add_piece(struct projections_share *s, const char *buf, size_t n,
				struct err *e);
/* Builds the trace once every PE's log is in (ERR_FORMAT naming the
 * first missing one otherwise), else projections_read's codes. */
int projections_share_finish(struct projections_share *s, struct trace **out, struct err *e);
void projections_share_destroy(struct projections_share *s);

#endif
