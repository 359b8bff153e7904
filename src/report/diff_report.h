/* diff_report.h — `skein diff BEFORE AFTER`: two runs compared (diff.h)
 * as text, JSON or CSV.
 *
 * Text: the two runs, the structure (alike, changed, only in one), the
 * totals, the largest change and the operations its lateness reached,
 * what got worse and what got better (by the change in differential
 * lateness: where lateness is created), partitions, structural
 * differences and regions. JSON holds all of it; CSV one table at a time.
 * Two Charm++ runs read in seed 004's terms (diff_charm.c): chares, PEs,
 * phases and entry methods, ranked by differential duration.
 */
#ifndef SKEIN_DIFF_REPORT_H
#define SKEIN_DIFF_REPORT_H

#include <stdio.h>

#include "analysis/compare/diff.h"
#include "report.h"

enum diff_table { DIFF_TABLE_OPS, DIFF_TABLE_PARTITIONS, DIFF_TABLE_REGIONS, DIFF_TABLE_CHANGES };

/* Parses "ops", "partitions", "regions", "changes"; 0 or ERR_USAGE. */
int diff_report_table_parse(const char *name, enum diff_table *t);

/* top: rows of the worse and better lists in text (0: 10). Returns 0, or
 * ERR_IO when out could not be written, ERR_NOMEM. */
int diff_report_write(const struct diff *d, FILE *out, enum report_format fmt,
		      enum diff_table table, uint32_t top);

#endif
