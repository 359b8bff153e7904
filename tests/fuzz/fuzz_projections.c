/* fuzz_projections.c — libFuzzer target for the Projections reader and
 * the Charm++ structure built on what it reads.
 *
 * An input is a whole run: the .sts text, then each PE's log, separated
 * by lines "===" (PE 0's log after the first separator, and so on). The
 * target writes them as run.sts, run.0.log, run.1.log.gz (PE 1's log
 * gzip-compressed, so both ways in are fuzzed), run.2.log ... in a
 * private directory and reads the run as skein would. Beyond the
 * sanitizers it checks the reader's promises: a failure is one line that
 * names a file; a success gives a trace whose structure the analysis
 * builds and the verifier passes — unless the records imply a causality
 * cycle, which must break an order somewhere (the report says so), and
 * even then phases neither overlap nor split a message.
 *
 *   make fuzz-projections [FUZZ_SECONDS=600]
 *
 * Seeds: the small shared runs, each in this layout (the Makefile
 * writes them to build/fuzz/prj-seeds).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/core/analysis.h"
#include "analysis/core/analysis_impl.h"
#include "analysis/path/path.h"
#include "analysis/run/run.h"
#include "projections/projections_read.h"
#include "report/report.h"

#include "../path_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PES 64

static char dir[64];
static int last_logs;          /* logs the previous input wrote */

static void
path_of(char *buf, size_t n, int pe)
{
	if (pe < 0)
		snprintf(buf, n, "%s/run.sts", dir);
	else
		snprintf(buf, n, "%s/run.%d.log%s", dir, pe, pe == 1 ? ".gz" : "");
}

static void
put(int pe, const uint8_t *p, size_t n)
{
	char path[128];
	path_of(path, sizeof path, pe);
	if (pe == 1) {
		gzFile g = gzopen(path, "wb1");
		if (!g || (n && gzwrite(g, p, (unsigned)n) != (int)n) || gzclose(g) != Z_OK)
			abort();
		return;
	}
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

/* The next part of data from *at: up to a "\n===\n" (consumed), or the end. */
static size_t
part(const uint8_t *data, size_t size, size_t *at)
{
	static const char sep[] = "\n===\n";
	size_t from = *at;
	for (size_t i = from; i + 5 <= size; i++)
		if (!memcmp(data + i, sep, 5)) {
			*at = i + 5;
			return i + 1 - from;      /* keep the part's last newline */
		}
	*at = size + 1;
	return size - from;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/skein-fuzz-prj-%ld", (long)getpid());
		char cmd[96];
		snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
		if (system(cmd) != 0)
			abort();
	}
	for (int pe = 0; pe < last_logs; pe++) {
		char path[128];
		path_of(path, sizeof path, pe);
		unlink(path);
	}
	size_t at = 0;
	size_t n = part(data, size, &at);
	put(-1, data, n);
	int logs = 0;
	while (at <= size && logs < MAX_PES) {
		size_t from = at;
		n = part(data, size, &at);
		put(logs++, data + from, n);
	}
	last_logs = logs;

	char sts[128];
	path_of(sts, sizeof sts, -1);
	struct trace *t = NULL;
	struct err e = { 0 };
	int rc = projections_read(sts, NULL, &t, &e);
	if (rc) {
		if (!e.msg[0] || strchr(e.msg, '\n') || !strstr(e.msg, dir)) {
			fprintf(stderr, "bad error message (rc %d): \"%s\"\n", rc, e.msg);
			abort();
		}
		return 0;
	}
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *a = NULL;
	if (analysis_run(t, &o, NULL, NULL, &a, &e)) {
		fprintf(stderr, "analysis failed: %s\n", e.msg);
		abort();
	}
	/* Records that imply a causality cycle (a message received before it
	 * was sent, across PEs' clocks) force one order to give: then, and
	 * only then, may the verifier find a message or chare order broken;
	 * phases never overlap and never split a message. */
	const struct analysis_verify *v = analysis_verify(a);
	if (!analysis_verified(a) &&
	    (!v->relaxed || v->partition_overlap || v->cross_partition || v->collective_split)) {
		fprintf(stderr, "the verifier fails on the structure (relaxed %llu)\n",
			(unsigned long long)v->relaxed);
		abort();
	}
	/* The critical path with each PE's lops in the order the analysis
	 * kept (analysis_pe_lops) and with the path's own sort: the same. */
	struct path p, q;
	if (path_compute(a, &p, &e)) {
		fprintf(stderr, "the critical path failed: %s\n", e.msg);
		abort();
	}
	uint32_t *first = a->pe_first, *lops = a->pe_lops;
	a->pe_first = a->pe_lops = NULL;
	if (path_compute(a, &q, &e)) {
		fprintf(stderr, "the critical path failed: %s\n", e.msg);
		abort();
	}
	a->pe_first = first;
	a->pe_lops = lops;
	uint32_t seg;
	const char *d = path_difference(&p, &q, &seg);
	if (d) {
		fprintf(stderr, "the critical path differs with the kept PE order: %s %u\n", d, seg);
		abort();
	}
	path_free(&p);
	path_free(&q);
	/* the JSON report (its lists written in pieces on the workers) */
	FILE *null = fopen("/dev/null", "w");
	if (!null || report_write(a, null, REPORT_JSON, TABLE_HOTSPOTS, NULL) || fclose(null))
		abort();
	analysis_destroy(a);
	trace_destroy(t);
	return 0;
}
