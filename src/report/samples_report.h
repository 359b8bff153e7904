/* samples_report.h — `skein samples --format text|json|csv DIR`: what the
 * samples explorer shows, as text, JSON or one CSV table.
 *
 * Text and JSON hold the set (samples, hardware, levels), the hardware
 * with samples issued, served and link transactions per object (§6.2),
 * the top code lines and data symbols (§6.1), the scores over windows
 * along an attribute (§7.2) and the clusters (§7.3). CSV is one table:
 * resources (default), lines, symbols, levels, windows or clusters.
 */
#ifndef SKEIN_SAMPLES_REPORT_H
#define SKEIN_SAMPLES_REPORT_H

#include <stdio.h>

#include "analysis/mem/mem.h"
#include "report.h"

enum samples_table {
	STAB_RESOURCES, STAB_LINES, STAB_SYMBOLS, STAB_LEVELS, STAB_WINDOWS, STAB_CLUSTERS, STAB_COUNT
};

struct samples_report {
	enum report_format fmt;
	enum samples_table table;   /* CSV */
	int attr;                   /* scores and clusters along it; -1: none */
	enum mem_metric metric;
	enum topo_type depth;
	uint32_t windows, window, step, clusters;
	uint32_t top;               /* offenders listed in text (all in JSON and CSV) */
	const struct bitset *filter;     /* the samples looked at; NULL: all */
	const struct bitset *selection;  /* NULL: none; the hardware and offenders are then of it */
};

/* Returns 0, ERR_IO (out could not be written), ERR_USAGE (bad windows:
 * e says why) or ERR_NOMEM. */
int samples_report_write(const struct mem *m, const struct samples_report *r, FILE *out, struct err *e);

/* Parses a table name; returns 0 or ERR_USAGE. */
int samples_table_parse(const char *name, enum samples_table *t);
const char *samples_table_names(void);

#endif
