/* report_util.h — what the report writers (analyze, diff, export) share:
 * how an operation is named and how a CSV field is quoted. Internal to
 * report/. */
#ifndef SKEIN_REPORT_UTIL_H
#define SKEIN_REPORT_UTIL_H

#include <stdio.h>

#include "analysis/core/analysis.h"

/* The region a lop shows as (analysis_lop_region), or "". */
const char *report_lop_region(const struct analysis *a, uint32_t l);
/* "(computation)" for a computation, else its region. */
const char *report_lop_name(const struct analysis *a, uint32_t l);
/* The innermost user region around a lop, or "". */
const char *report_lop_in(const struct analysis *a, uint32_t l);
/* s as a CSV field, quoted as RFC 4180 says (always, with quotes
 * doubled, so commas and line breaks stay inside it), control characters
 * shown as '?' like every other text output (base/text.h). */
void report_csv_str(FILE *out, const char *s);

/* Calls each(ctx, i) for i in 0 .. n on every core, each worker a run of
 * them: each must write only its own i's results and read only what no
 * one writes meanwhile. */
void report_each(uint32_t n, void (*each)(void *ctx, uint32_t i), void *ctx);

struct json;
/* Writes items 0 .. n of the array j is in, item(j, ctx, i) writing item
 * i (or nothing), on every core: in rounds, each worker's share written
 * into memory (json_piece_open) and added in order, so the bytes are
 * those of one loop on one core. item must read only what no one
 * writes meanwhile. */
void report_json_items(struct json *j, uint32_t n, void (*item)(struct json *j, void *ctx, uint32_t i),
		       void *ctx);

#endif
