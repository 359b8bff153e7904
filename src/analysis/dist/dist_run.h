/* dist_run.h — `skein analyze --save` as a distributed job, every stage
 * where the data is (doc/distributed.md): each rank reads its share of
 * the locations, matches, finds the logical structure, steps, checks,
 * measures and finds iterations for its own lops, and writes its part of
 * the one saved file. No rank holds more than its share of the model
 * and the analysis (and the partition-level arrays, one entry per
 * partition, on every rank).
 */
#ifndef SKEIN_DIST_RUN_H
#define SKEIN_DIST_RUN_H

#include "analysis/core/analysis.h"
#include "base/dcomm.h"
#include "base/err.h"

/* What the caller hears of a distributed run, on rank 0: the stages
 * (progress, may be NULL), the trace once loaded and matched (loaded:
 * its information is the whole trace's), and once it is known to hold
 * communication (checked); either returning non-zero stops the run
 * (ERR_CANCELLED on every rank). no_comm is set when the trace holds
 * no MPI communication: e then says what it holds instead; serial_only
 * when its locations cannot be cut into runs of timelines (ERR_USAGE):
 * analyse it on one process. */
struct dist_hooks {
	trace_progress_fn progress;
	void *progress_ud;
	int (*loaded)(void *ud, const struct trace *t);
	int (*checked)(void *ud, const struct trace *t);
	void *ud;
	int no_comm;
	int serial_only;         /* set: a trace that only a single process can analyse */
	/* stepping's round budget in lops and ends (dist_steps.h); 0: its
	 * own, a sixteenth of the largest rank's */
	uint64_t step_batch;
};

/* Collective: analyses the OTF2 archive at trace with options o and
 * saves the result at save, as analysis_run and saved_write would
 * (byte for byte but the stage timings). Returns the same on every rank:
 * 0, ERR_USAGE (a trace whose timelines are not in location order),
 * ERR_FORMAT with
 * h->no_comm for a trace without MPI communication (nothing saved),
 * ERR_CANCELLED, or what a stage met (e says it on every rank). */
int dist_run(struct dcomm *c, const char *trace, const struct analysis_opts *o, const char *save,
	     struct dist_hooks *h, struct err *e);
/* Every option runs distributed. Clusters are not part of the saved
 * analysis (saved.h: saved_cluster makes them when the file is opened),
 * so dist_run leaves o->clusters to whoever opens the file. */

#endif
