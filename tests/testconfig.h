/* testconfig.h — helpers shared by the configuration tests
 * (test_config*.c): run from the project root, and load, dump and fail
 * with the loader's own message.
 */
#ifndef SKEIN_TESTCONFIG_H
#define SKEIN_TESTCONFIG_H

#include "testutil.h"

#include <string.h>
#include <unistd.h>

#include "config/config.h"

/* A group setup: the example files are named relative to the root. */
static inline int
tc_setup_root(void **state)
{
	(void)state;
	return chdir(tu_env("SKEIN_ROOT", "."));
}

/* config_init, failing the test with the loader's message. */
static inline void
tc_init(struct config *c)
{
	struct err e = { 0 };
	if (config_init(c, &e)) {
		print_error("config_init: %s\n", e.msg);
		fail();
	}
}

static inline void
tc_load_file(struct config *c, const char *path)
{
	struct err e = { 0 };
	if (config_load_file(c, path, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
}

static inline void
tc_load_text(struct config *c, const char *text)
{
	struct err e = { 0 };
	if (config_load_string(c, "test", text, strlen(text), &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
}

/* The dump as a malloc'd string. */
static inline char *
tc_dump(const struct config *c)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(config_dump(c, f, NULL), 0);
	fclose(f);
	return buf;
}

#endif
