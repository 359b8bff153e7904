/* report_explain.h — the explanations beyond lateness in `skein analyze`
 * (report_explain.c): problems, wait states, delays and outliers. */
#ifndef SKEIN_REPORT_EXPLAIN_H
#define SKEIN_REPORT_EXPLAIN_H

#include <stdio.h>

#include "base/json.h"
#include "report.h"

/* The keys "problems", "waits", "wait_totals", "delays" and "outliers"
 * of analyze's JSON object. */
void report_explain_json(struct json *j, const struct analysis *a, const struct report_phases *ph);
/* CSV tables: waits, delays, outliers, problems. */
void report_explain_csv(FILE *out, const struct analysis *a, const struct report_phases *ph,
			enum report_table table);
/* The text sections: the problems and the longest waits, at most limit
 * of each, and the waiting by kind. */
void report_explain_text(FILE *out, const struct analysis *a, const struct report_phases *ph,
			 uint32_t limit);

#endif
