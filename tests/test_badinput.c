/* test_badinput.c — every way an archive can be broken gives a one-line
 * error naming the file and what is wrong, and no crash. Broken archives
 * are made in a temporary directory from a small valid one. */
#include "testutil.h"

#include <glob.h>
#include <string.h>
#include <unistd.h>

static char src[1024];   /* a valid archive directory */
static char tmp[1024];

static int
setup(void **state)
{
	(void)state;
	char pat[1024];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	src[0] = '\0';
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
		snprintf(src, sizeof src, "%s", g.gl_pathv[0]);
		*strrchr(src, '/') = '\0';
	}
	globfree(&g);
	if (!src[0]) {
		tu_path(src, sizeof src, tu_env("SKEIN_SHARED", "../shared"),
			"traces/otf2/pipit-pingpong-otf2");
		if (!tu_exists(src))
			src[0] = '\0';
	}
	snprintf(tmp, sizeof tmp, "/tmp/skein-badinput-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

/* Copies the source archive to tmp/name and runs a shell fix-up in it. */
static const char *
broken(const char *name, const char *fixup, char *out, size_t n)
{
	if (!src[0]) {
		print_message("skipped: no valid archive to break (traces/corpus and ../shared absent)\n");
		skip();
	}
	char cmd[4096];
	snprintf(out, n, "%s/%s", tmp, name);
	snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && cd '%s' && %s", src, out, out, fixup);
	assert_int_equal(system(cmd), 0);
	return out;
}

static void
expect_error(const char *path, int code, const char *needle)
{
	struct trace *t = NULL;
	struct err e = { 0 };
	int rc = otf2_read(path, NULL, &t, &e);
	if (rc != code || !strstr(e.msg, needle))
		print_error("%s: got %d '%s', want %d '...%s...'\n", path, rc, e.msg, code, needle);
	assert_int_equal(rc, code);
	assert_null(t);
	assert_non_null(strstr(e.msg, needle));
	assert_null(strchr(e.msg, '\n'));      /* one line */
}

static void
missing_path(void **state)
{
	(void)state;
	expect_error("/nonexistent/skein/trace.otf2", ERR_IO, "/nonexistent/skein/trace.otf2: No such file");
}

static void
not_a_trace(void **state)
{
	(void)state;
	char path[1024];
	PROJECT_PATH(path, "Makefile");
	expect_error(path, ERR_IO, "not an OTF2 archive");
	expect_error("/dev/null", ERR_IO, "/dev/null: is a character device, not an OTF2 archive");
}

static void
empty_directory(void **state)
{
	(void)state;
	char path[1100];
	snprintf(path, sizeof path, "%s/empty", tmp);
	assert_int_equal(mkdir(path, 0700), 0);
	expect_error(path, ERR_IO, "no OTF2 anchor file");
}

static void
two_anchors(void **state)
{
	(void)state;
	char path[1100];
	broken("two", "mv traces.otf2 a.otf2 && cp a.otf2 b.otf2", path, sizeof path);
	expect_error(path, ERR_IO, "several OTF2 anchor files");
}

static void
truncated_events(void **state)
{
	(void)state;
	char path[1100];
	broken("trunc-evt", "for f in traces/*.evt; do truncate -s 100 $f; break; done", path, sizeof path);
	expect_error(path, ERR_FORMAT, "truncated or corrupt events of location");
}

static void
garbage_events(void **state)
{
	(void)state;
	char path[1100];
	/* overwrite the middle of the first event file with 0xff bytes */
	broken("garbage-evt", "for f in traces/*.evt; do "
	       "dd if=/dev/zero bs=1 count=64 2>/dev/null | tr '\\000' '\\377' | "
	       "dd of=$f bs=1 seek=8 conv=notrunc 2>/dev/null; break; done", path, sizeof path);
	expect_error(path, ERR_FORMAT, "events of location");
}

static void
definitions_without_events(void **state)
{
	(void)state;
	char path[1100];
	broken("no-evt", "rm traces/*.evt", path, sizeof path);
	expect_error(path, ERR_FORMAT, "/traces/0.evt: No such file or directory (the definitions declare");
}

static void
truncated_definitions(void **state)
{
	(void)state;
	char path[1100];
	broken("trunc-def", "truncate -s 100 traces.def", path, sizeof path);
	expect_error(path, ERR_FORMAT, "corrupt global definitions");
}

static void
missing_definitions(void **state)
{
	(void)state;
	char path[1100];
	broken("no-def", "rm traces.def", path, sizeof path);
	expect_error(path, ERR_FORMAT, "cannot open the global definitions");
}

static void
truncated_anchor(void **state)
{
	(void)state;
	char path[1100];
	broken("trunc-anchor", "truncate -s 20 traces.otf2", path, sizeof path);
	expect_error(path, ERR_FORMAT, "traces.otf2: corrupt anchor file (truncated header)");
}

/* Issue 18: a location's local definitions missing while the others map
 * ids (the corpus archives are the tracer's, which writes mapping tables)
 * is an error, not 0 matched messages. */
static void
local_definitions_missing(void **state)
{
	(void)state;
	char path[1100];
	broken("no-local-def", "rm traces/1.def", path, sizeof path);
	expect_error(path, ERR_FORMAT, "/traces/1.def: local definitions missing, while the other");
	broken("empty-local-def", ": >traces/1.def", path, sizeof path);
	expect_error(path, ERR_FORMAT, "/traces/1.def: local definitions empty");
}

/* A FIFO anywhere in the archive is refused before libotf2 opens it. */
static void
fifos(void **state)
{
	(void)state;
	char path[1100];
	broken("fifo-evt", "rm traces/0.evt && mkfifo traces/0.evt", path, sizeof path);
	expect_error(path, ERR_IO, "/traces/0.evt: is a FIFO, not a regular file");
	broken("fifo-def", "rm traces.def && mkfifo traces.def", path, sizeof path);
	expect_error(path, ERR_FORMAT, "traces.def: is a FIFO, not a regular file");
	broken("fifo-anchor", "rm traces.otf2 && mkfifo traces.otf2", path, sizeof path);
	expect_error(path, ERR_IO, "traces.otf2: is a FIFO, not a regular file");
}

/* An anchor string without its NUL (libotf2 searched 12-30 s for one). */
static void
anchor_unterminated(void **state)
{
	(void)state;
	char path[1100];
	broken("anchor-nul", "head -c 46 traces.otf2 >a && printf 'no end' >>a && mv a traces.otf2",
	       path, sizeof path);
	expect_error(path, ERR_FORMAT, "corrupt anchor file (machine name not terminated)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(missing_path),
		cmocka_unit_test(not_a_trace),
		cmocka_unit_test(empty_directory),
		cmocka_unit_test(two_anchors),
		cmocka_unit_test(truncated_events),
		cmocka_unit_test(garbage_events),
		cmocka_unit_test(definitions_without_events),
		cmocka_unit_test(truncated_definitions),
		cmocka_unit_test(missing_definitions),
		cmocka_unit_test(truncated_anchor),
		cmocka_unit_test(local_definitions_missing),
		cmocka_unit_test(fifos),
		cmocka_unit_test(anchor_unterminated),
	};
	return cmocka_run_group_tests_name("bad input", tests, setup, teardown);
}
