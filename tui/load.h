/* load.h — reading and analysing a trace with a progress bar.
 *
 * The work runs on a worker thread; the progress callback (which readers
 * may call from their own threads) only records the stage and counts, and
 * the calling thread draws the bar on stderr, before any curses screen
 * exists. Ctrl-C (SIGINT) cancels: the callback then returns non-zero and
 * the work stops with ERR_CANCELLED.
 */
#ifndef SKEIN_TUI_LOAD_H
#define SKEIN_TUI_LOAD_H

#include "analysis/core/analysis.h"
#include "model/trace.h"

/* Which chare types count as the runtime's in a Charm++ run (globs;
 * NULL: the built-in list); see projections_read.h. */
struct load_charm {
	const char *const *runtime_chares;
	uint32_t n_runtime_chares;
	const char *const *runtime_entries;
	uint32_t n_runtime_entries;
};

/* Which reader path calls for: *charm 1 for a Projections run (a .sts
 * file, or a directory holding one), 0 for an OTF2 archive. Returns 0,
 * or ERR_IO for a directory that holds both (the user names the file). */
int load_is_charm(const char *path, int *charm, struct err *e);

/* Reads the trace at path with the reader its files call for: a
 * Projections run (a .sts file, or a directory holding one) or an OTF2
 * archive. charm may be NULL. Returns 0 or an ERR_* code with e set. */
int load_read(const char *path, const struct load_charm *charm, trace_progress_fn progress,
	      void *ud, struct trace **t, struct err *e);

/* Loads path and analyses it with ao. progress: draw the bar (only
 * worth it when stderr is a terminal). On success *t and *a are the
 * caller's (analysis_destroy, then trace_destroy). Returns 0 or an ERR_*
 * code with the message in e. */
int load_trace(const char *path, const struct load_charm *charm, const struct analysis_opts *ao,
	       int progress, struct trace **t, struct analysis **a, struct err *e);

/* Opens a saved analysis (analysis/saved.h) for the options ao: the saved
 * analysis when ao asks for the same one (its clusters computed when ao
 * asks for them), else the saved model analysed again with ao; a NULL:
 * the model alone. Says on stderr when the trace it was saved from has
 * changed since, and when the options differ. Same returns as load_trace. */
int load_saved(const char *path, const struct analysis_opts *ao, struct trace **t,
	       struct analysis **a, struct err *e);

#endif
