/* test_dist_match.c — the distributed read and match (otf2_share_local,
 * dmodel_finish), without MPI: on every corpus trace and every shared
 * OTF2 trace, n ranks (threads, dcomm_threads_run; more ranks than
 * locations included) each read their share, join it and match it with
 * the others, and each rank's shard is the one dmodel_slice cuts from
 * the model otf2_read gives (dmodel_compare: every record, id and the
 * trace's information). A location missing or corrupt in one rank's
 * share fails every rank with the same code and message, and no rank
 * waits for ever; out of memory on one rank fails all alike. */
#include "testutil.h"

#include "disttest.h"

#include <glob.h>
#include <pthread.h>
#include <string.h>

#include "base/dcomm.h"
#include "model/build.h"
#include "model/dmodel.h"
#include "model/trace.h"

#define MAX_RANKS 8

static pthread_mutex_t read_mu = PTHREAD_MUTEX_INITIALIZER;

struct job {
	const char *path;
	const struct trace *serial;   /* the reference; NULL for none */
	int fail_rank;                /* a rank made to fail (fail_how), or -1 */
	int fail_how;                 /* 0 a timeline run that is not its share's, or the
	                               * stage (1 matching, 2 collectives) it cancels at */
	int rc[MAX_RANKS], same[MAX_RANKS];
	char msg[MAX_RANKS][512], why[MAX_RANKS][256];
};

static int
cancel_at(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	(void)done;
	(void)total;
	return strcmp(stage, ud) == 0;
}

/* Rank c->rank: its share read, joined, matched, compared. */
static int
rank_main(struct dcomm *c, void *ud)
{
	struct job *j = ud;
	uint32_t r = c->rank;
	struct err e = { 0 };
	struct otf2_share *s = NULL;
	struct trace *t = NULL;
	struct build *b = NULL;
	uint32_t lo = 0, hi = 0;
	/* one reader at a time: libotf2's error callback is the process's
	 * (otf2_read.c), and a reader's error could reach another rank's
	 * callback (ranks are processes under MPI) */
	pthread_mutex_lock(&read_mu);
	int rc = otf2_share_read(j->path, NULL, r, c->size, &s, &e);
	if (!rc)
		rc = otf2_share_local(s, &t, &b, &lo, &hi, &e);
	otf2_share_destroy(s);
	pthread_mutex_unlock(&read_mu);
	rc = dcomm_agree_err(c, rc, &e);
	snprintf(j->msg[r], sizeof j->msg[r], "%s", e.msg);
	if (rc) {
		build_destroy(b);
		trace_destroy(t);
		j->rc[r] = rc;
		return 0;
	}
	int fails = (int)r == j->fail_rank;
	if (fails && j->fail_how == 0)
		hi++;
	struct dmodel d, want;
	j->rc[r] = rc = dmodel_finish(c, t, b, lo, hi, &d, fails ? cancel_at : NULL,
				      (void *)(fails ? (j->fail_how == 1 ? "matching" : "collectives") : ""));
	if (rc)
		return 0;
	j->same[r] = 0;
	if (j->serial && dmodel_slice(j->serial, r, c->size, lo, hi, &want) == 0) {
		j->same[r] = !dmodel_compare(&d, &want, j->why[r], sizeof j->why[r]);
		dmodel_free(&want);
	}
	dmodel_free(&d);
	return 0;
}

/* Runs path on n ranks; every rank's outcome in j. */
static void
run(struct job *j, const char *path, const struct trace *serial, uint32_t n)
{
	memset(j, 0, sizeof *j);
	j->path = path;
	j->serial = serial;
	j->fail_rank = -1;
	assert_int_equal(dcomm_threads_run(n, rank_main, j), 0);
}

/* Under TSan reading costs ten times more (its shadow memory for every
 * chunk buffer); the races it looks for need two ranks or more, so the
 * sweep there takes 3 ranks only, an uneven cut (test_dist_random runs
 * the match itself on every count), and the shared traces are left to
 * the plain and ASan runs (disttest.h: DT_SLOW). Under ASan the odd
 * counts (1, 3, 5: disttest.h DT_NEXT_RANKS). */
#define SWEEP(n, max) (DT_SLOW ? (n) == 3 : !DT_ASAN || (n) % 2 == 1)

/* Every rank's shard is the serial model's. */
static void
check_matches(const char *path, uint32_t max_ranks)
{
	struct trace *serial = tu_load(path);
	for (uint32_t n = 1; n <= max_ranks; n++) {
		if (!SWEEP(n, max_ranks))
			continue;
		struct job j;
		run(&j, path, serial, n);
		for (uint32_t r = 0; r < n; r++) {
			if (j.rc[r] || !j.same[r])
				print_error("%s on %u ranks, rank %u: %s%s\n", path, n, r,
					    j.rc[r] ? err_name(j.rc[r]) : "differs: ",
					    j.rc[r] ? j.msg[r] : j.why[r]);
			assert_int_equal(j.rc[r], 0);
			assert_true(j.same[r]);
		}
	}
	trace_destroy(serial);
}

static void
corpus_matches_the_serial_model(void **state)
{
	(void)state;
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc > 20);
	/* under TSan every third, as dt_corpus takes them */
	for (size_t i = 0; i < g.gl_pathc; i += DT_SLOW ? 3 : 1)
		check_matches(g.gl_pathv[i], 5);
	globfree(&g);
}

static void
shared_traces_match_the_serial_model(void **state)
{
	(void)state;
	char dir[1024], pat[1200];
	if (DT_SLOW) {
		print_message("shared traces left to the plain and ASan runs (TSan is too slow)\n");
		return;
	}
	SHARED_TRACE(dir, "otf2");
	glob_t g;
	snprintf(pat, sizeof pat, "%s/*/*.otf2", dir);
	if (glob(pat, 0, NULL, &g) != 0) {
		print_message("skipped: no OTF2 archive under %s\n", dir);
		skip();
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		check_matches(g.gl_pathv[i], 4);
	globfree(&g);
}

/* ---- failures ---- */

static char tmp[256];

static int
make_tmp(void **state)
{
	(void)state;
	snprintf(tmp, sizeof tmp, "/tmp/skein-dmatch-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int
remove_tmp(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

/* A copy of corpus trace `name` in tmp/dir with `fixup` run in its
 * location folder; its anchor's path in out. */
static void
broken_copy(const char *name, const char *dir, const char *fixup, char *out, size_t n)
{
	char src[1024], cmd[4096];
	PROJECT_PATH(src, "traces/corpus");
	snprintf(cmd, sizeof cmd, "cp -r '%s/%s' '%s/%s' && cd '%s/%s/traces' && %s", src, name, tmp,
		 dir, tmp, dir, fixup);
	assert_int_equal(system(cmd), 0);
	snprintf(out, n, "%s/%s/traces.otf2", tmp, dir);
}

/* The serial reader's code and message; every rank gives them. */
static void
every_rank_fails_alike(const char *path, uint32_t n, const char *needle)
{
	struct trace *t = NULL;
	struct err e = { 0 };
	int want = otf2_read(path, NULL, &t, &e);
	assert_int_not_equal(want, 0);
	assert_non_null(strstr(e.msg, needle));
	struct job j;
	run(&j, path, NULL, n);
	for (uint32_t r = 0; r < n; r++) {
		if (j.rc[r] != want || strcmp(j.msg[r], e.msg))
			print_error("%s on %u ranks, rank %u: %d '%s', want %d '%s'\n", path, n, r,
				    j.rc[r], j.msg[r], want, e.msg);
		assert_int_equal(j.rc[r], want);
		assert_string_equal(j.msg[r], e.msg);
	}
}

static void
missing_location_fails_every_rank(void **state)
{
	(void)state;
	char path[1200];
	broken_copy("stencil-4-delay", "missing", "rm 3.evt", path, sizeof path);
	for (uint32_t n = 1; n <= 4; n++)
		every_rank_fails_alike(path, n, "3.evt");
}

/* Corrupt rather than cut short: libotf2 parses a cut-short file's
 * last chunk on into its buffer's stale bytes, which in a process that
 * read the same archive before may be valid records (the file is then
 * read as whole, a reader problem of its own), so the outcome would
 * depend on what this process read before. */
static void
corrupt_location_fails_every_rank(void **state)
{
	(void)state;
	char path[1200];
	broken_copy("stencil-4-delay", "corrupt", "dd if=/dev/zero bs=1 count=64 2>/dev/null | "
		    "tr '\\000' '\\377' | dd of=2.evt bs=1 seek=1000 conv=notrunc 2>/dev/null",
		    path, sizeof path);
	for (uint32_t n = 1; n <= 4; n++)
		every_rank_fails_alike(path, n, "2.evt");
}

/* One rank failing at a stage of the match (a timeline run not its
 * share's; cancelled while matching messages or grouping collectives,
 * where running out of memory takes the same way) fails every rank with
 * the same code, no rank waiting. */
static void
one_rank_failing_fails_every_rank(void **state)
{
	(void)state;
	char path[1200];
	PROJECT_PATH(path, "traces/corpus/stencil-4-delay/traces.otf2");
	for (uint32_t n = 1; n <= 4; n += 1 + (n == 2))
		for (int how = 0; how < 3; how++)
			for (uint32_t bad = 0; bad < n; bad += n > 1 ? n - 1 : 1) {
				struct job j;
				memset(&j, 0, sizeof j);
				j.path = path;
				j.fail_rank = (int)bad;
				j.fail_how = how;
				assert_int_equal(dcomm_threads_run(n, rank_main, &j), 0);
				int want = how == 0 ? ERR_USAGE : ERR_CANCELLED;
				for (uint32_t r = 0; r < n; r++)
					assert_int_equal(j.rc[r], want);
			}
}

int
main(void)
{
	dt_workers();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_matches_the_serial_model),
		cmocka_unit_test(shared_traces_match_the_serial_model),
		cmocka_unit_test_setup_teardown(missing_location_fails_every_rank, make_tmp, remove_tmp),
		cmocka_unit_test_setup_teardown(corrupt_location_fails_every_rank, make_tmp, remove_tmp),
		cmocka_unit_test(one_rank_failing_fails_every_rank),
	};
	return cmocka_run_group_tests_name("distributed read and match", tests, NULL, NULL);
}
