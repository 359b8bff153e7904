/* report.h — `skein analyze`: the analysis as text, JSON or CSV.
 *
 * Text and JSON hold everything: options, partition counts per stage,
 * the verifier, every partition, the hotspots with their explanation, and
 * lateness per timeline. CSV is one table at a time (`table`), so scripts
 * get a plain rectangular file.
 */
#ifndef SKEIN_REPORT_H
#define SKEIN_REPORT_H

#include <stdio.h>

#include "analysis/core/analysis.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };
enum report_table { TABLE_HOTSPOTS, TABLE_PARTITIONS, TABLE_TIMELINES, TABLE_OPS, TABLE_ITERATIONS,
		   TABLE_WAITS, TABLE_DELAYS, TABLE_OUTLIERS, TABLE_PROBLEMS, TABLE_CRITICAL,
		   TABLE_LANE_WAITS };

/* Named phases from the configuration: a name for each partition (NULL
 * for none) and which partitions to report (NULL: all). Partitions left
 * out are dropped from every table, the hotspots and the per-rank totals. */
struct report_phases {
	const char *const *name;   /* one per partition, or NULL */
	const uint8_t *keep;       /* one per partition, or NULL */
	const char *iteration_name;   /* what to call an iteration; NULL: "iteration" */
	int all;                   /* text: every partition, iteration and rank, not
				    * the heaviest of long tables (analyze --all) */
};

/* Returns 0, ERR_IO when out could not be written, or ERR_NOMEM when a
 * CSV table could not be made for want of memory (nothing of it
 * written; the text and the JSON say "not shown" in place of a section
 * instead). ph may be NULL. */
int report_write(const struct analysis *a, FILE *out, enum report_format fmt,
		 enum report_table table, const struct report_phases *ph);

/* Parses a table name ("hotspots", "partitions", "timelines", "ops",
 * "iterations", "waits", "delays", "outliers", "problems", "critical");
 * returns 0 or ERR_USAGE. */
int report_table_parse(const char *name, enum report_table *table);

#endif
