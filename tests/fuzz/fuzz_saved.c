/* fuzz_saved.c — libFuzzer target for opening a saved analysis.
 *
 * Each input is opened as a saved file (saved_open_mem over an aligned
 * copy); whatever opens is reported in full (info and analyze, text and
 * JSON, the ops and iterations tables, the per-operation export) to
 * /dev/null, so every array the getters reach is read. Seeds
 * are files `skein analyze --save` wrote from corpus traces (make fuzz).
 * A file that opens must have every section's checksum right: the
 * checksums are what keep a damaged file from being read, and what the
 * fuzzer meets first.
 *
 *   make fuzz [FUZZ_SECONDS=600]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/saved/saved.h"
#include "report/export.h"
#include "report/info.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *buf = NULL;
	if (posix_memalign(&buf, 64, size ? size : 1))
		return 0;
	memcpy(buf, data, size);
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct saved_info info;
	struct err e = { 0 };
	if (saved_open_mem(buf, size, "fuzz.skein", &t, &a, &info, &e) == 0) {
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			info_write(t, null, INFO_TEXT, 1);
			info_write(t, null, INFO_JSON, 0);
			report_write(a, null, REPORT_TEXT, TABLE_HOTSPOTS, NULL);
			report_write(a, null, REPORT_JSON, TABLE_HOTSPOTS, NULL);
			report_write(a, null, REPORT_CSV, TABLE_OPS, NULL);
			report_write(a, null, REPORT_CSV, TABLE_ITERATIONS, NULL);
			export_json(a, null);
			fclose(null);
		}
		analysis_destroy(a);
		trace_destroy(t);
	} else if (!e.msg[0]) {
		abort();          /* every refusal says why */
	}
	free(buf);
	return 0;
}
