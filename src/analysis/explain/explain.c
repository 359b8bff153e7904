/* explain.c — the explanations run in order, and the getters of the wait
 * states and delays. */
#include "explain_impl.h"

#include "base/recycle.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

int
explain_run(struct analysis *a)
{
	if (a->charm || a->explained)
		return 0;
	/* the pages the stages before left pooled (op_lop's among them, 114
	 * MB at 10^8 events, of which the metrics took half): the waits'
	 * lists would take some and leave the rest resident under their
	 * peak, the run's (doc/performance.md) */
	recycle_drain();
	int rc = explain_waits(a);
	if (!rc)
		rc = explain_delays(a);
	if (!rc)
		explain_lock_roots(a);
	/* the pages the waits and delays pooled: the rest takes few (at
	 * 10^7 events the pool held 15 MB, a sixteenth of the peak) */
	recycle_drain();
	if (!rc)
		rc = explain_outliers(a);
	/* and the outliers': the problems' arrays are not taken from the
	 * pool, which held 57 MB beside them at 10^8 events, the run's peak
	 * once the waits and delays held less (doc/performance.md) */
	recycle_drain();
	if (!rc)
		rc = explain_problems(a);
	/* the problems kept, not every candidate they were chosen from (one
	 * a delay or outlier: 22 MiB for 20 at 10^8 events) */
	struct analysis_problem *kept = !rc && a->n_problems ? malloc(a->n_problems * sizeof *kept) : NULL;
	if (kept) {
		memcpy(kept, a->problems, a->n_problems * sizeof *kept);
		free(a->problems);
		a->problems = kept;
	}
	a->explained = !rc;
	return rc;
}

const struct analysis_wait *
analysis_waits(const struct analysis *a, uint32_t *n)
{
	*n = a->n_waits;
	return a->waits;
}

const struct analysis_wait *
analysis_lop_wait(const struct analysis *a, uint32_t lop)
{
	return explain_wait_of(a, lop);
}

const char *
analysis_wait_name(enum analysis_wait_kind k)
{
	static const char *const names[WAIT_KIND_COUNT] = {
		"late-sender", "late-receiver", "wait-nxn", "wait-barrier", "late-broadcast", "early-reduce",
		"polling", "lock-competition",
	};
	return k < WAIT_KIND_COUNT ? names[k] : "?";
}

void
analysis_wait_totals(const struct analysis *a, uint64_t *time)
{
	for (uint32_t i = 0; i < a->n_waits; i++)
		time[(size_t)a->lop_tl[a->waits[i].lop] * WAIT_KIND_COUNT + a->waits[i].kind] += a->waits[i].time;
}

const struct analysis_delay *
analysis_delays(const struct analysis *a, uint32_t *n)
{
	*n = a->n_delays;
	return a->delays;
}

const struct analysis_delay *
analysis_lop_delay(const struct analysis *a, uint32_t lop)
{
	size_t i = vec_find_u32(a->delays, a->n_delays, sizeof *a->delays, lop);
	return i < a->n_delays ? &a->delays[i] : NULL;
}
