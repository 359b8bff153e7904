/* test_dist_run.c — the whole analysis as a distributed job
 * (analysis/dist_run.h), without MPI: on every corpus trace and every
 * shared OTF2 trace, with the default options and the paper's (no
 * automatic merge, no sender progress, start-up counted), each also with
 * the leap merge (forced, factor 2, with the paper's; on 3 ranks) and
 * with --reorder --leap-merge (on 2 and 3 ranks), 1 to 4 thread
 * ranks each read their share, and the saved file they write together is
 * the one saved_write writes after analysis_run, byte for byte but the
 * stage timings (and the checksums over them): without the explanations
 * on every rank count, and with them once they are added, as skein-mpi
 * adds them (saved_append_explain), on the first. A trace without
 * communication is refused with the serial message and nothing saved.
 * This test reads the file's layout (analysis/saved_impl.h). */
#include "testutil.h"

#include <string.h>
#include <unistd.h>

#include "analysis/dist/dist_run.h"
#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "analysis/saved/saved_impl.h"
#include "base/dcomm.h"
#include "disttest.h"

static char **paths;
static size_t n_paths;
static uint64_t step_batch;     /* dist_hooks.step_batch of the runs */

/* Under TSan (disttest.h: DT_SLOW) the corpus with the default options
 * on 3 ranks only; under ASan (DT_ASAN) on 2 or 3 by turns (check_two). */

struct job {
	const char *trace;
	const struct analysis_opts *o;
	char path[256];
	int no_comm;
	char msg[512];
};

static int
rank_main(struct dcomm *c, void *ud)
{
	struct job *j = ud;
	struct err e = { 0 };
	struct dist_hooks h = { .step_batch = step_batch };
	int rc = dist_run(c, j->trace, j->o, j->path, &h, &e);
	if (c->rank == 0) {
		j->no_comm = h.no_comm;
		snprintf(j->msg, sizeof j->msg, "%s", e.msg);
	}
	return rc;
}

/* on lo .. hi thread ranks */
static void
check_on(const char *trace, const struct analysis_opts *o, uint32_t lo, uint32_t hi)
{
	struct trace *t = tu_load(trace);
	struct analysis *a = NULL;
	struct err e = { 0 };
	char serial[256], bare[256];
	snprintf(serial, sizeof serial, "/tmp/skein-test-drun-%d.skein", (int)getpid());
	snprintf(bare, sizeof bare, "/tmp/skein-test-drun-%d-bare.skein", (int)getpid());
	int comm = trace_require_communication(t, &e) == 0;
	if (comm) {
		assert_int_equal(analysis_run(t, o, NULL, NULL, &a, &e), 0);
		assert_int_equal(saved_write(a, o, serial, &e), 0);
		/* the file without the explanations, as the ranks write it */
		int explained = a->explained;
		a->explained = 0;
		assert_int_equal(saved_write(a, o, bare, &e), 0);
		a->explained = explained;
	}
	size_t ns = 0, nb = 0;
	char *s = comm ? dt_saved_masked(serial, &ns) : NULL, *sb = comm ? dt_saved_masked(bare, &nb) : NULL;
	for (uint32_t n = lo; n <= hi; n++) {
		struct job j = { .trace = trace, .o = o };
		snprintf(j.path, sizeof j.path, "/tmp/skein-test-drun-%d-%u.skein", (int)getpid(), n);
		int rc = dcomm_threads_run(n, rank_main, &j);
		if (!comm) {
			assert_int_equal(rc, ERR_FORMAT);
			assert_true(j.no_comm);
			assert_string_equal(j.msg, e.msg);
			assert_false(tu_exists(j.path));
			continue;
		}
		if (rc) {
			print_error("%s on %u ranks: %s\n", trace, n, j.msg);
			fail();
		}
		size_t nm = 0;
		char *m = dt_saved_masked(j.path, &nm);
		dt_same_bytes(trace, n, sb, nb, m, nm);
		free(m);
		if (n > lo) {
			unlink(j.path);
			continue;
		}
		/* once: the explanations added from the file opened, as
		 * skein-mpi's rank 0 does, give the serial file */
		dt_append_explain(j.path);
		m = dt_saved_masked(j.path, &nm);
		dt_same_bytes(trace, n, s, ns, m, nm);
		free(m);
		unlink(j.path);
	}
	free(s);
	free(sb);
	unlink(serial);
	unlink(bare);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Under ASan the runs that take 2 and 3 ranks take one of them, by
 * turns from one trace to the next and from one set of options to the
 * next (each trace meets both counts): a distributed run under ASan
 * costs some three times the plain one. */
static void
check_two(const char *trace, const struct analysis_opts *o, size_t turn)
{
	uint32_t n = 2 + (uint32_t)(turn % 2);
	check_on(trace, o, DT_ASAN ? n : 2, DT_ASAN ? n : 3);
}

static void
check_all(const char *const *p, size_t n)
{
	struct analysis_opts o;
	for (size_t i = 0; i < n; i++) {
		analysis_opts_default(&o);
		if (DT_ASAN)
			check_two(p[i], &o, i);
		else
			check_on(p[i], &o, DT_FIRST_RANKS, DT_LAST_RANKS(4));
		if (DT_SLOW)
			continue;
		/* the paper's options: 1 and 4 ranks are the default's */
		analysis_opts_paper(&o);
		check_two(p[i], &o, i + 1);
		/* the leap merge (rank 0 merges every rank's records), on 3
		 * ranks: the stages after it are the ones checked above */
		analysis_opts_default(&o);
		o.leap_merge = 1;
		check_on(p[i], &o, 3, 3);
		analysis_opts_paper(&o);
		o.leap_merge = 1;
		o.leap_force = 1;
		o.leap_factor = 2;
		check_on(p[i], &o, 3, 3);
		/* the reordering (each partition replayed by its owner), a
		 * partition a round */
		analysis_opts_default(&o);
		o.leap_merge = 1;
		o.reorder = 1;
		step_batch = 1;
		check_two(p[i], &o, i);
		step_batch = 0;
	}
}

static void
corpus_files_are_the_serial_ones(void **state)
{
	(void)state;
	check_all((const char *const *)paths, n_paths);
}

static void
shared_traces_alike(void **state)
{
	(void)state;
	dt_shared(check_all);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_dist_run: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_files_are_the_serial_ones),
		cmocka_unit_test(shared_traces_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed analysis, whole", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
