/* testutil.h — shared helpers for skein's cmocka tests.
 *
 * Tests find data through two environment variables set by run-unit.sh:
 * SKEIN_ROOT (the project checkout) and SKEIN_SHARED (../shared beside it).
 * Tests that need ../shared skip with a message when it is absent.
 */
#ifndef SKEIN_TESTUTIL_H
#define SKEIN_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "otf2/otf2_read.h"
#include "projections/projections_read.h"
#include "report/summary.h"
#include "model/trace.h"

/* The machine a view test pretends to run on (view_opts' this_host and
 * this_machine): the node the corpus traces name ("vm", where they were
 * traced), with the hardware the goldens were drawn on, whichever machine
 * runs the tests. */
#define TU_HOST "vm"
#define TU_MACHINE "pack:1 numa:1 l3:1 core:2 pu:1"

static inline const char *
tu_env(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

/* Joins base/rel into a static-free caller buffer. */
static inline const char *
tu_path(char *buf, size_t n, const char *base, const char *rel)
{
	snprintf(buf, n, "%s/%s", base, rel);
	return buf;
}

static inline int
tu_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Writes the path of rel (under ../shared/traces) into buf; returns 1 if
 * it exists, else prints why the test is skipped and returns 0. */
static inline int
tu_shared(char *buf, size_t n, const char *rel)
{
	snprintf(buf, n, "%s/traces/%s", tu_env("SKEIN_SHARED", "../shared"), rel);
	if (tu_exists(buf))
		return 1;
	print_message("skipped: %s is absent (no ../shared beside the checkout)\n", buf);
	return 0;
}

/* Path of a file under ../shared/traces, or skips the test when absent. */
#define SHARED_TRACE(buf, rel) \
	do { \
		if (!tu_shared(buf, sizeof buf, rel)) \
			skip(); \
	} while (0)

/* Path of a file in the project tree. */
#define PROJECT_PATH(buf, rel) \
	tu_path(buf, sizeof buf, tu_env("SKEIN_ROOT", "."), rel)

/* Loads a trace or fails the test with the reader's message. */
static inline struct trace *
tu_load(const char *path)
{
	struct trace *t = NULL;
	struct err e = { 0 };
	int rc = otf2_read(path, NULL, &t, &e);
	if (rc) {
		print_error("loading %s failed: %s\n", path, e.msg);
		fail();
	}
	return t;
}

/* Every traces/corpus/NAME/traces.otf2 into g (globfree it); 1 with a
 * line on stderr naming the test when there is none. */
static inline int
tu_corpus_glob(glob_t *g, const char *test)
{
	char pat[1200];
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, g) != 0 || g->gl_pathc == 0) {
		fprintf(stderr, "%s: no traces/corpus/*/traces.otf2\n", test);
		return 1;
	}
	return 0;
}

/* Reads a Charm++ Projections run under ../shared/traces (rel: its
 * .sts) or fails the test with the reader's message; NULL, with a line
 * saying why, when ../shared is absent (the caller skips). */
static inline struct trace *
tu_load_charm(const char *rel)
{
	char path[1200];
	if (!tu_shared(path, sizeof path, rel))
		return NULL;
	struct trace *t = NULL;
	struct err e = { 0 };
	if (projections_read(path, NULL, &t, &e))
		fail_msg("%s: %s", path, e.msg);
	return t;
}

/* Loads traces/corpus/NAME or fails the test. */
static inline struct trace *
tu_load_corpus(const char *name)
{
	char rel[256], path[1200];
	snprintf(rel, sizeof rel, "traces/corpus/%s/traces.otf2", name);
	PROJECT_PATH(path, rel);
	return tu_load(path);
}

/* Runs the analysis (o NULL: the defaults) or fails the test with its
 * message. */
static inline struct analysis *
tu_analyse(const struct trace *t, const struct analysis_opts *o)
{
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (analysis_run(t, o, NULL, NULL, &a, &e)) {
		print_error("analysis failed: %s\n", e.msg);
		fail();
	}
	return a;
}

/* The whole of a file, NUL-terminated, its length in *n (caller frees);
 * NULL when it cannot be read. */
static inline char *
tu_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[len] = 0;
		*n = (size_t)len;
	}
	return buf;
}

/* The n-th (0-based) communication lop of rank r, or TRACE_NONE. */
static inline uint32_t
tu_comm_lop(const struct analysis *a, uint32_t r, uint32_t n)
{
	uint32_t first, count;
	analysis_timeline_lops(a, r, &first, &count);
	for (uint32_t l = first; l < first + count; l++)
		if (analysis_lop_kind(a, l) != OP_COMPUTE && n-- == 0)
			return l;
	return TRACE_NONE;
}

#endif
