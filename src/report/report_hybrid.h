/* report_hybrid.h — the threads and GPU streams in `skein analyze`
 * (report_hybrid.c): their wait states (analysis/hybrid/hybrid.h), by
 * kind and the longest, as text, the JSON key "lane_waits" and the CSV
 * table "lane-waits". Nothing for a trace without lanes. */
#ifndef SKEIN_REPORT_HYBRID_H
#define SKEIN_REPORT_HYBRID_H

#include <stdio.h>

#include "analysis/core/analysis.h"
#include "base/json.h"

/* The text section, the longest `limit` waits named. */
void report_hybrid_text(FILE *out, const struct analysis *a, uint32_t limit);
void report_hybrid_json(struct json *j, const struct analysis *a);
/* The lane-waits table; 0, or ERR_NOMEM with nothing written. The text
 * and the JSON say "not shown" in the section's place. */
int report_hybrid_csv(FILE *out, const struct analysis *a);

#endif
