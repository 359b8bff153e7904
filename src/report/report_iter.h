/* report_iter.h — the iterations in `skein analyze` (iterations.h says
 * how they are found): a summary line, one row per iteration with its
 * total, created and largest lateness (a Charm++ run: its duration,
 * differential duration and idle experienced), and each hotspot's
 * iteration.
 * Internal to report/. */
#ifndef SKEIN_REPORT_ITER_H
#define SKEIN_REPORT_ITER_H

#include <stdio.h>

#include "analysis/core/analysis.h"
#include "base/json.h"
#include "report.h"

struct iter_totals {
	uint64_t late, diff, max_late;
	uint64_t dur, ddur, idle, max_ddur;   /* Charm++: seed 004's metrics */
	uint32_t parts;            /* partitions that start in it */
};

/* Totals per iteration (count of them, NULL when none) over the lops
 * the phases keep; the caller frees. Returns 0 or ERR_NOMEM. */
int report_iter_totals(const struct analysis *a, const struct report_phases *ph,
		       struct iter_totals **out);

/* What the configuration calls an iteration, or "iteration". */
const char *report_iter_name(const struct report_phases *ph);

/* The iteration of lop l as "k" into buf, or "-". */
const char *report_iter_of(const struct analysis *a, uint32_t l, char *buf, size_t n);

int report_iter_text(const struct analysis *a, const struct report_phases *ph, FILE *out);
int report_iter_json(const struct analysis *a, const struct report_phases *ph, struct json *j);
int report_iter_csv(const struct analysis *a, const struct report_phases *ph, FILE *out);

#endif
