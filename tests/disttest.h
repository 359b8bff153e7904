/* disttest.h — what the distributed stages' tests share: timelines cut
 * into shards, and every shared OTF2 trace (skipped when ../shared is
 * absent). */
#ifndef SKEIN_DISTTEST_H
#define SKEIN_DISTTEST_H

#include <glob.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/saved/saved.h"
#include "model/trace.h"

/* Under TSan every read and exchange is some ten times slower: the
 * distributed stages' tests then take the corpus on 3 ranks only (an
 * uneven cut) and leave the shared traces to the plain and ASan runs. */
#if defined(__SANITIZE_THREAD__)
#define DT_SLOW 1
#else
#define DT_SLOW 0
#endif
#define DT_FIRST_RANKS (DT_SLOW ? 3u : 1u)
/* Under ASan a whole distributed run costs some three times the plain
 * one: the tests that run it whole with every option take 2 and 3 ranks
 * there (1 to 4 in the plain run). */
#if defined(__SANITIZE_ADDRESS__)
#define DT_ASAN 1
#else
#define DT_ASAN 0
#endif

#define DT_LAST_RANKS(most) (DT_SLOW ? 3u : (most))
/* The next rank count a test that walks them takes after n: under ASan
 * every other (1, 3, 5: the whole, an uneven cut and the most), where a
 * distributed run costs some three times the plain one. */
#define DT_NEXT_RANKS(n) ((n) + (DT_ASAN ? 2u : 1u))

/* Each thread rank analyses on one worker (SKEIN_THREADS=1, unless the
 * caller set it), but under TSan. What these tests check is that the
 * ranks together give the serial result, which is the same on any number
 * of workers (test_core, test_report_par and the CLI suites check 1, 2
 * and 4); the ranks already run at once. A pool of workers for each rank
 * cost the plain and ASan runs a third of their time in sleeps and
 * wake-ups (7 ranks and their workers on 2 cores). TSan keeps them: the
 * ranks' pools beside one another are what it looks at. Called first in
 * main. */
static inline void
dt_workers(void)
{
	if (!DT_SLOW)
		setenv("SKEIN_THREADS", "1", 0);
}

/* The corpus traces g found, every one (under TSan every third): a new
 * array of g's paths, the caller's to free before globfree(g). */
static inline char **
dt_corpus(const glob_t *g, size_t *n)
{
	size_t step = DT_SLOW ? 3 : 1, k = 0;
	char **v = malloc((g->gl_pathc + 1) * sizeof *v);
	if (!v)
		exit(1);
	for (size_t i = 0; i < g->gl_pathc; i += step)
		v[k++] = g->gl_pathv[i];
	*n = k;
	return v;
}

/* Timelines cut into n runs of about the same calls: first[0 .. n]. */
static inline void
dt_cut(const struct trace *t, uint32_t n, uint32_t *first)
{
	uint32_t n_tl, n_ops, tl = 0, ops = 0;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	trace_ops(t, &n_ops);
	for (uint32_t r = 0; r < n; r++) {
		first[r] = tl;
		while (tl < n_tl && (r + 1 == n || (uint64_t)ops * n < (uint64_t)n_ops * (r + 1)))
			ops += tls[tl++].op_count;
	}
	first[n] = n_tl;
}

/* fn(paths, n) over the shared OTF2 traces, one and two folders deep. */
static inline void
dt_shared(void (*fn)(const char *const *paths, size_t n))
{
	char dir[1200], pat[1300];
	if (DT_SLOW) {
		print_message("shared traces left to the plain and ASan runs (TSan is too slow)\n");
		return;
	}
	if (!tu_shared(dir, sizeof dir, "otf2"))
		return;
	for (int depth = 1; depth <= 2; depth++) {
		snprintf(pat, sizeof pat, depth == 1 ? "%s/*/traces.otf2" : "%s/*/*/traces.otf2", dir);
		glob_t g;
		if (glob(pat, 0, NULL, &g) != 0)
			continue;
		fn((const char *const *)g.gl_pathv, g.gl_pathc);
		globfree(&g);
	}
}

/* What skein-mpi's rank 0 does to the file the ranks wrote at path: opens
 * it (which works the explanations out) and adds them (the file is then
 * saved_write's). Needs testutil.h's cmocka before. */
static inline void
dt_append_explain(const char *path)
{
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(saved_open(path, &t, &a, NULL, &e), 0);
	assert_int_equal(saved_append_explain(path, a, &e), 0);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Fails, saying where, unless got[0..ng) is want[0..nw) (what: the
 * trace or file, n: the ranks). Needs testutil.h's cmocka before. */
static inline void
dt_same_bytes(const char *what, unsigned n, const char *want, size_t nw, const char *got, size_t ng)
{
	if (ng == nw && !memcmp(want, got, nw))
		return;
	size_t k = 0;
	while (k < nw && k < ng && want[k] == got[k])
		k++;
	print_error("%s on %u ranks: %zu bytes against %zu, first difference at %zu\n", what, n, ng, nw, k);
	fail();
}

/* The file's bytes with the stage timings and every checksum zeroed
 * (the table's entries' sums, the header's two): what no two runs
 * write alike. For tests that read the file's layout: after testutil.h
 * and analysis/saved/saved_impl.h. */
#ifdef SKEIN_SAVED_IMPL_H
static inline char *
dt_saved_masked(const char *path, size_t *n)
{
	char *b = tu_slurp(path, n);
	assert_non_null(b);
	assert_true(*n >= sizeof(struct header) + S_END * sizeof(struct section));
	struct header h;
	memcpy(&h, b, sizeof h);
	memset(b + offsetof(struct header, table_sum), 0, 16);
	for (uint32_t i = 0; i < h.n_sections; i++) {
		struct section s;
		char *at = b + sizeof h + i * sizeof s;
		memcpy(&s, at, sizeof s);
		memset(at + offsetof(struct section, sum), 0, sizeof s.sum);
		if (s.id == S_META)
			memset(b + s.offset + offsetof(struct meta, stats) +
				       offsetof(struct analysis_stats, t_lops), 0, 5 * sizeof(double));
	}
	return b;
}

#endif

#endif
