/* export.h — `skein export`: the structure for other tools.
 *
 *  * OTF2: the trace's own archive copied with, on every communication
 *    call, its partition, logical step, iteration, lateness, differential
 *    lateness and cause as attributes, the computation before it under
 *    the skein:compute_ names, and the iterations as the parameter
 *    "skein iteration" (otf2/otf2_write.h).
 *  * CSV and JSON: one row per logical operation, the columns documented
 *    in doc/skein.1 and README.md (export_columns names them in order).
 */
#ifndef SKEIN_EXPORT_H
#define SKEIN_EXPORT_H

#include <stdio.h>

#include "analysis/core/analysis.h"
#include "otf2/otf2_write.h"

/* The columns of the CSV (and the keys of each JSON row), in order. */
extern const char *const export_columns[];
extern const unsigned export_n_columns;

int export_csv(const struct analysis *a, FILE *out);
int export_json(const struct analysis *a, FILE *out);

/* Writes dir/traces.otf2 (see otf2_write_annotated for the errors;
 * progress, which may be NULL, can stop it: ERR_CANCELLED). */
int export_otf2(const struct analysis *a, const char *dir, const char *creator, trace_progress_fn progress,
		void *ud, struct otf2_write_stats *st, struct err *e);

#endif
