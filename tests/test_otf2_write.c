/* test_otf2_write.c — what otf2_write_annotated (export --otf2) does
 * when asked to stop: how often it asks, and what it leaves behind. The
 * archive, written by libotf2, is one location of N_TESTS + 2 records:
 * an Enter of f, N_TESTS MpiRequestTest records, the Leave of f. */
#include "testutil.h"
#include "testotf2.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "otf2/otf2_write.h"

/* three whole batches of 65,536 records, and a part of one */
#define N_TESTS 200000
#define N_RECORDS (N_TESTS + 2)

static char tmpdir[] = "/tmp/skein-otf2-write-XXXXXX";
static char anchor[80];

/* What the progress callback saw: how often it was asked while the
 * location was being copied (done 0) and after (done 1); it asks to
 * stop at its stop_at-th call (0: never). */
struct asked {
	unsigned during, after, calls, stop_at;
	const char *put;    /* a file made at the first call, or NULL */
};

static int
progress(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	struct asked *a = ud;
	assert_string_equal(stage, "writing");
	assert_int_equal(total, 1);
	if (a->put && a->calls == 0) {
		FILE *f = fopen(a->put, "w");
		assert_non_null(f);
		fclose(f);
	}
	if (done == 0)
		a->during++;
	else
		a->after++;
	return ++a->calls == a->stop_at;
}

static int
export(const struct trace *t, const char *dir, struct asked *a, struct otf2_write_stats *st)
{
	struct otf2_write_opts o = { .t = t, .creator = "test", .progress = progress, .ud = a };
	struct err e = { 0 };
	return otf2_write_annotated(dir, &o, st, &e);
}

/* Asked after every 65,536 records of any kind, not only after as many
 * Enters and Leaves (this location has two: it was asked only once it
 * was copied whole). */
static void
asked_every_65536_records(void **state)
{
	(void)state;
	struct trace *t = tu_load(anchor);
	char dir[128];
	struct asked a = { 0 };
	struct otf2_write_stats st;
	snprintf(dir, sizeof dir, "%s/whole", tmpdir);
	assert_int_equal(export(t, dir, &a, &st), 0);
	assert_int_equal(a.during, N_RECORDS / 65536);
	assert_int_equal(st.events, 2);
	/* stopped at the first question: within the location, and the
	 * stage removed */
	a = (struct asked){ .stop_at = 1 };
	snprintf(dir, sizeof dir, "%s/stopped", tmpdir);
	assert_int_equal(mkdir(dir, 0777), 0);
	assert_int_equal(export(t, dir, &a, NULL), ERR_CANCELLED);
	assert_int_equal(a.during, 1);
	assert_int_equal(a.after, 0);
	assert_int_equal(rmdir(dir), 0);    /* it is empty */
	trace_destroy(t);
}

/* A stopped export removes the directory it made (it left it, empty),
 * but not one that was there, nor one that something else came into. */
static void
stopped_removes_its_dir(void **state)
{
	(void)state;
	struct trace *t = tu_load(anchor);
	char dir[128], other[160];
	struct stat sb;
	struct asked a = { .stop_at = 2 };
	snprintf(dir, sizeof dir, "%s/made", tmpdir);
	assert_int_equal(export(t, dir, &a, NULL), ERR_CANCELLED);
	assert_int_equal(a.calls, 2);
	assert_int_equal(stat(dir, &sb), -1);
	assert_int_equal(errno, ENOENT);
	/* a file put beside the stage while it copied: dir stays, with it */
	a = (struct asked){ .stop_at = 2, .put = other };
	snprintf(other, sizeof other, "%s/notes.txt", dir);
	assert_int_equal(export(t, dir, &a, NULL), ERR_CANCELLED);
	assert_int_equal(stat(other, &sb), 0);
	assert_int_equal(unlink(other), 0);
	assert_int_equal(rmdir(dir), 0);
	trace_destroy(t);
}

static int
setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	char dir[64];
	snprintf(dir, sizeof dir, "%s/src", tmpdir);
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	OTF2_Archive *ar = tu_new_archive(dir);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, 0);
	if (!w)
		return -1;
	OTF2_EvtWriter_Enter(w, NULL, 1, 0);
	for (uint64_t i = 0; i < N_TESTS; i++)
		OTF2_EvtWriter_MpiRequestTest(w, NULL, 2 + i, i);
	OTF2_EvtWriter_Leave(w, NULL, 2 + N_TESTS, 0);
	OTF2_Archive_CloseEvtWriter(ar, w);
	OTF2_Archive_CloseEvtFiles(ar);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
	if (!g)
		return -1;
	tu_plain_defs(g, 3 + N_TESTS, 1, 1, N_RECORDS);
	OTF2_Archive_CloseGlobalDefWriter(ar, g);
	OTF2_Archive_Close(ar);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return getenv("KEEP") ? 0 : system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(asked_every_65536_records),
		cmocka_unit_test(stopped_removes_its_dir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
