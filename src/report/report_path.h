/* report_path.h — the critical path in `skein analyze` (report_path.c):
 * its length and the guidance table, regions by their time on the path
 * and by the waiting they caused. */
#ifndef SKEIN_REPORT_PATH_H
#define SKEIN_REPORT_PATH_H

#include <stdio.h>

#include "analysis/path/path.h"
#include "base/json.h"

/* A path region's name: the region's, or "(start-up)", "(idle)",
 * "(no region)". */
const char *report_path_region_name(const struct analysis *a, uint32_t region);
/* The key "critical_path" of analyze's JSON object. */
void report_path_json(struct json *j, const struct analysis *a, const struct path *p);
/* The CSV table "critical": one row per region. */
void report_path_csv(FILE *out, const struct analysis *a, const struct path *p);
/* The text section: the length and the top `limit` regions. */
void report_path_text(FILE *out, const struct analysis *a, const struct path *p, uint32_t limit);

#endif
