/* test_prj_share.c — a Charm++ Projections run read in shares
 * (projections_read.h, "Shares"), as skein-mpi's ranks read it, without
 * MPI: on every shared Projections run, each of n parts (1 to 5; more
 * parts than PEs included) reads its share of the PEs' logs, the parts
 * together read every PE once, parts 1.. are packed PE by PE and added to
 * part 0 (the last part first, each part's pieces backwards), and the
 * trace built from them is the one projections_read gives: the default
 * analysis of both saved, byte for byte but for the stage timings. The
 * pieces are checked on the way in: one added twice, one cut short or
 * longer than its head says, bytes of no piece, one naming creations,
 * PEs or entries that are not there, a PE that never arrived.
 * skein-mpi's end-to-end test is tests/mpi.sh. */
#include "testutil.h"

#include <glob.h>
#include <string.h>
#include <unistd.h>

#include "analysis/run/run.h"
#include "analysis/saved/saved_impl.h"
#include "model/charm.h"
#include "projections/prj_impl.h"
#include "projections/projections_read.h"
#include "disttest.h"

static glob_t runs;

static int
setup(void **state)
{
	(void)state;
	char pat[1200];
	snprintf(pat, sizeof pat, "%s/traces/projections/*/*.sts", tu_env("SKEIN_SHARED", "../shared"));
	if (glob(pat, 0, NULL, &runs) != 0)
		runs.gl_pathc = 0;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	if (runs.gl_pathc)
		globfree(&runs);
	return 0;
}

/* Part p of n of the run at sts: part 0 looks its logs up, the others
 * take them from part 0's look-up (projections_share_find), as skein-mpi
 * does. */
static struct projections_share *
share_of(const char *sts, uint32_t p, uint32_t n)
{
	struct projections_share *s = NULL;
	struct err e = { 0 };
	char *found = NULL;
	size_t len = 0;
	if (p && projections_share_find(sts, NULL, &found, &len, &e)) {
		print_error("%s, looking up the logs: %s\n", sts, e.msg);
		fail();
	}
	int rc = projections_share_read(sts, NULL, p, n, found, len, &s, &e);
	free(found);
	if (rc) {
		print_error("%s, part %u of %u: %s\n", sts, p, n, e.msg);
		fail();
	}
	return s;
}

/* Piece i of sp packed into a new buffer of *len bytes. */
static char *
packed(struct projections_share *sp, uint32_t i, size_t *len)
{
	*len = projections_share_piece_size(sp, i);
	char *buf = malloc(*len);
	assert_non_null(buf);
	projections_share_pack_piece(sp, i, buf);
	return buf;
}

/* The default analysis of t saved to path, masked (disttest.h). */
static char *
saved_bytes(const struct trace *t, const char *path, size_t *n)
{
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	if (saved_write(a, &o, path, &e)) {
		print_error("saving: %s\n", e.msg);
		fail();
	}
	analysis_destroy(a);
	char *b = dt_saved_masked(path, n);
	unlink(path);
	return b;
}

/* Under TSan (DT_SLOW) each run is cut into one count of parts, 2 to 5
 * by turns (5: more parts than the runs' 4 PEs), where into 1 to 5:
 * the shares' reading, the join of the pieces and the analysis and
 * save of what they built still run on the workers on every run; what
 * goes is the same paths on the other counts. */
static void
every_run_joins_to_the_serial_trace(void **state)
{
	(void)state;
	if (!runs.gl_pathc) {
		print_message("skipped: no ../shared/traces/projections runs\n");
		skip();
	}
	char tmp[64];
	snprintf(tmp, sizeof tmp, "/tmp/skein-prjshare-%d.skein", (int)getpid());
	for (size_t k = 0; k < runs.gl_pathc; k++) {
		const char *sts = runs.gl_pathv[k];
		struct trace *t0 = NULL;
		struct err e = { 0 };
		assert_int_equal(projections_read(sts, NULL, &t0, &e), 0);
		size_t nw;
		char *want = saved_bytes(t0, tmp, &nw);
		uint32_t pes = 0;
		trace_pes(t0, &pes);
		trace_destroy(t0);
		for (uint32_t n = 1; n <= 5; n++) {
			if (DT_SLOW && n != 2 + k % 4)
				continue;
			struct projections_share *s[5];
			uint32_t total = 0;
			for (uint32_t p = 0; p < n; p++) {
				s[p] = share_of(sts, p, n);
				total += projections_share_pieces(s[p]);
			}
			for (uint32_t p = n; p-- > 1;) {
				for (uint32_t i = projections_share_pieces(s[p]); i-- > 0;) {
					size_t len;
					char *buf = packed(s[p], i, &len);
					if (projections_share_add_piece(s[0], buf, len, &e)) {
						print_error("%s: piece %u of part %u: %s\n", sts, i, p, e.msg);
						fail();
					}
					free(buf);
				}
				projections_share_destroy(s[p]);
			}
			struct trace *t = NULL;
			if (projections_share_finish(s[0], &t, &e)) {
				print_error("%s on %u parts: %s\n", sts, n, e.msg);
				fail();
			}
			projections_share_destroy(s[0]);
			size_t ng;
			char *got = saved_bytes(t, tmp, &ng);
			trace_destroy(t);
			dt_same_bytes(sts, n, want, nw, got, ng);
			free(got);
			/* every PE in exactly one part: the parts' pieces add up
			 * to the PEs, and the join found each (else it fails) */
			assert_int_equal(total, pes);
		}
		free(want);
	}
}

static void
pieces_are_checked(void **state)
{
	(void)state;
	char sts[1200];
	SHARED_TRACE(sts, "projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	struct err e = { 0 };
	/* 4 PEs on 2 parts: part 1 holds PEs 2 and 3 */
	struct projections_share *s0 = share_of(sts, 0, 2), *s1 = share_of(sts, 1, 2);
	assert_int_equal(projections_share_pieces(s0) + projections_share_pieces(s1), 4);
	assert_true(projections_share_pieces(s1) >= 1);
	size_t len;
	char *buf = packed(s1, 0, &len);
	/* cut short, one byte too many, a head alone, bytes of no piece */
	assert_int_equal(projections_share_add_piece(s0, buf, len - 1, &e), ERR_FORMAT);
	char *longer = malloc(len + 1);
	assert_non_null(longer);
	memcpy(longer, buf, len);
	longer[len] = 0;
	assert_int_equal(projections_share_add_piece(s0, longer, len + 1, &e), ERR_FORMAT);
	free(longer);
	assert_int_equal(projections_share_add_piece(s0, buf, 8, &e), ERR_FORMAT);
	char junk[512];
	memset(junk, 0x5a, sizeof junk);
	assert_int_equal(projections_share_add_piece(s0, junk, sizeof junk, &e), ERR_FORMAT);
	/* pieces whose first execution names creations past its own, a PE
	 * past the run's, an entry the .sts does not define: refused, not
	 * read past at build time */
	size_t x0 = sizeof(struct prj_piece_head);
	uint32_t bad_values[3] = { 1000000, 99, 1u << 30 };
	size_t offsets[3] = { offsetof(struct prj_exec, cre_first), offsetof(struct prj_exec, srcpe),
			      offsetof(struct prj_exec, ep) };
	for (int k = 0; k < 3; k++) {
		char *bent = malloc(len);
		assert_non_null(bent);
		memcpy(bent, buf, len);
		assert_true(len >= x0 + sizeof(struct prj_exec));
		memcpy(bent + x0 + offsets[k], &bad_values[k], sizeof bad_values[k]);
		assert_int_equal(projections_share_add_piece(s0, bent, len, &e), ERR_FORMAT);
		free(bent);
	}
	/* the piece itself goes in once; twice is refused */
	assert_int_equal(projections_share_add_piece(s0, buf, len, &e), 0);
	assert_int_equal(projections_share_add_piece(s0, buf, len, &e), ERR_FORMAT);
	free(buf);
	/* a PE of part 1 never sent: the join says which */
	struct trace *t = NULL;
	if (projections_share_pieces(s1) > 1) {
		e = (struct err){ 0 };    /* the first message is kept: a new one */
		assert_int_equal(projections_share_finish(s0, &t, &e), ERR_FORMAT);
		assert_non_null(strstr(e.msg, "never arrived"));
		assert_null(t);
	}
	projections_share_destroy(s1);
	projections_share_destroy(s0);
}

/* Logs looked up for a run of another number of PEs (the .sts changed
 * between the look-up and the read): one line saying so, no share. */
static void
found_logs_are_checked(void **state)
{
	(void)state;
	if (runs.gl_pathc < 2) {
		print_message("no shared Projections runs (SKEIN_SHARED): skipped\n");
		skip();
	}
	struct err e = { 0 };
	char *found = NULL;
	size_t len = 0;
	assert_int_equal(projections_share_find(runs.gl_pathv[0], NULL, &found, &len, &e), 0);
	assert_true(len > 0);
	struct projections_share *s = NULL;
	assert_int_equal(projections_share_read(runs.gl_pathv[0], NULL, 0, 1, found, len - 1, &s, &e), ERR_FORMAT);
	assert_null(s);
	assert_non_null(strstr(e.msg, "another number of PEs"));
	free(found);
	/* a run whose log is missing: the look-up says which */
	assert_int_not_equal(projections_share_find("/nonexistent/run.sts", NULL, &found, &len, &e), 0);
	assert_null(found);
	assert_true(e.msg[0] != 0);
}

int
main(void)
{
	dt_workers();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_run_joins_to_the_serial_trace),
		cmocka_unit_test(pieces_are_checked),
		cmocka_unit_test(found_logs_are_checked),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
