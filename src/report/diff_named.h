/* diff_named.h — what the diff report's largest change names and the
 * largest slowdown beyond it: the text's and the JSON's lines from one
 * reckoning (report-internal; diff_report.c). */
#ifndef SKEIN_DIFF_NAMED_H
#define SKEIN_DIFF_NAMED_H

#include <stdint.h>

#include "analysis/compare/diff.h"
#include "analysis/explain/explain.h"

/* The operations the largest change's lines name (AFTER lops): its own,
 * the one its lateness was lost in, the one that held it up, those its
 * lateness reached. */
struct named {
	const struct diff_op *op;      /* NULL: no largest change */
	uint32_t culprit;              /* TRACE_NONE: none named */
	uint32_t held;                 /* another rank's operation that held it up
				        * (diff_named_held_up), or TRACE_NONE */
	struct analysis_lost lost;
	uint32_t *reached, n_reached;  /* in lop order; malloc'd */
};

/* The largest slowdown: the paired operation whose duration grew most
 * beyond what the largest change accounts for (nm names it, or it
 * waited for what nm names, or the AFTER run's problems say what nm
 * names held it up: that waiting, or their overlap, is taken off), when that is
 * more than the largest change of differential lateness (a rank stopped
 * inside a collective the others sat out with it: they left together,
 * no lateness was made, and only its duration shows it); op NULL when
 * none. An MPI run's only (Charm++ ranks by duration already). */
struct slow {
	const struct diff_op *op;
	double waited;                 /* of its duration, waiting for what nm names */
	int other;                     /* the duration that grew most is another's,
				        * which the largest change accounts for */
};

/* The largest worse, paired or not; NULL when none. */
const struct diff_op *diff_named_worst(const struct diff *d);
/* Fills *nm (its reached array malloc'd: free it, also on error).
 * Returns 0 or ERR_NOMEM. */
int diff_named_get(const struct diff *d, struct named *nm);
/* The largest slowdown beyond what nm names (op NULL: none). */
struct slow diff_named_slowdown(const struct diff *d, const struct named *nm);
/* The operation of another rank the AFTER run's problems say held lop
 * up (a problem surfaced at lop), or TRACE_NONE. */
uint32_t diff_named_held_up(const struct analysis *A, uint32_t lop);
/* Did x, another operation at s's step, take about as much longer? */
int diff_named_as_much(const struct diff *d, const struct diff_op *s, const struct diff_op *x);

#endif
