/* run.h — the analysis of a loaded trace, in one call: the structure
 * stages of its paradigm (seed 000's for MPI, analysis/mpi/; seed 004's for
 * Charm++, analysis/charm/), then the verifier, metrics, iterations and
 * clusters every paradigm shares (analysis/core/). The result is read
 * through analysis/core/analysis.h.
 */
#ifndef SKEIN_ANALYSIS_RUN_H
#define SKEIN_ANALYSIS_RUN_H

#include "analysis/core/analysis.h"
#include "base/err.h"
#include "model/trace.h"

/* Runs the whole analysis. On success *out owns the result (free with
 * analysis_destroy); t must outlive it. Returns 0, ERR_NOMEM, ERR_USAGE
 * (bad options) or ERR_CANCELLED; e says why. progress may be NULL. */
int analysis_run(const struct trace *t, const struct analysis_opts *opts,
		 trace_progress_fn progress, void *ud, struct analysis **out, struct err *e);

#endif
