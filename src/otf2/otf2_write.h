/* otf2_write.h — writing an OTF2 archive: the archive a trace was read
 * from, copied record for record, with values per operation added as
 * OTF2 attributes and iterations as a parameter.
 *
 * The writer knows nothing of the analysis: the caller (report/export.c)
 * gives, per trace op, the values to attach. A communication op's values
 * go onto the Enter of its MPI call; a computation op's go onto the Enter
 * of the communication call that ends it, under the "compute" names (the
 * computation's lateness is measured at that moment). Where a value of
 * iteration changes on a rank, a ParameterUnsignedInt record of the
 * parameter "skein iteration" is written just before that Enter.
 */
#ifndef SKEIN_OTF2_WRITE_H
#define SKEIN_OTF2_WRITE_H

#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

/* The values of one trace op (the logical operation holding it). */
struct otf2_write_op {
	uint32_t part, step, local_step;   /* part TRACE_NONE: a computation that is
					    * no operation of its own (inside a
					    * coalesced send): no compute values */
	uint32_t iteration;                /* TRACE_NONE: none */
	double lateness, diff, global;     /* seconds */
	uint32_t cause;                    /* index into cause_names */
};

struct otf2_write_opts {
	const struct trace *t;                /* read from the archive to copy */
	const struct otf2_write_op *ops;      /* one per trace op */
	const char *const *cause_names;
	uint32_t n_causes;
	const char *creator;                  /* written as the archive's creator */
	trace_progress_fn progress;           /* may be NULL; asked after each location
					       * and every 65,536 event records: non-zero stops
					       * the copy (ERR_CANCELLED, nothing left) */
	void *ud;
};

struct otf2_write_stats {
	uint64_t events;           /* Enter and Leave records copied */
	uint64_t annotated;        /* Enter records given attributes */
	uint64_t parameters;       /* iteration records added */
	uint64_t skipped;          /* records of kinds the copy does not know, left out */
	uint64_t unmatched;        /* communication ops whose Enter was not found */
	uint64_t moved;            /* records timed before their predecessor, written at
				    * its time (as skein read them) */
};

/* Writes the archive dir/traces.otf2 (dir is created; it must not hold
 * an archive, nor a part of one, already). The archive is written in a
 * folder of its own inside dir and moved into place when whole; a
 * failed or cancelled export leaves nothing behind (dir too, when it
 * made dir and dir is empty). Returns 0, ERR_IO (dir exists with an archive,
 * cannot be written), ERR_FORMAT (the source archive cannot be read
 * again), ERR_NOMEM, ERR_CANCELLED (o->progress asked to stop); e says which
 * file and why. st may be NULL. */
int otf2_write_annotated(const char *dir, const struct otf2_write_opts *o,
			 struct otf2_write_stats *st, struct err *e);

#endif
