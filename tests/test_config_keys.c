/* test_config_keys.c — the key bindings of the configuration against the
 * explorer's action table and key names (src/action.h, src/keymap.h):
 * the built-in bindings in config/defaults.yaml are the keymap's, every
 * binding names a real action and key, and the bindings feed keymap_parse.
 */
#include "testconfig.h"

#include <string.h>
#include <unistd.h>

#include "view/surface/action.h"
#include "config/config.h"
#include "view/surface/keymap.h"

static int
key_ok(const char *name)
{
	return keymap_key_parse(name, strlen(name)) != 0;
}

static void
action_names(const char **names)
{
	for (int i = 0; i < ACT_COUNT; i++)
		names[i] = action_info((enum action)i)->name;
}

/* "KEY ACTION" pairs of a bindings text, one per line, comments dropped,
 * columns normalised to one space. */
static char *
normalise(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		char key[64], act[64];
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(eol - p), p);
		if (line[0] != '#' && sscanf(line, "%63s %63s", key, act) == 2)
			o += sprintf(o, "%s %s\n", key, act);
		p = *eol ? eol + 1 : eol;
	}
	*o = '\0';
	return out;
}

/* config/defaults.yaml binds exactly what the keymap's built-in text
 * binds, in the same order: the two cannot drift apart. */
static void
defaults_match_keymap(void **state)
{
	(void)state;
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	char *text = NULL;
	assert_int_equal(config_keys_text(&c, &text), 0);
	char *want = normalise(keymap_default_text()), *got = normalise(text);
	assert_string_equal(got, want);
	free(want);
	free(got);
	free(text);
	config_fini(&c);
}

static void
defaults_are_valid(void **state)
{
	(void)state;
	const char *names[ACT_COUNT];
	action_names(names);
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	assert_int_equal(config_check_keys(&c, names, ACT_COUNT, key_ok, &e), 0);
	/* every action but "none" has a key by default */
	for (int i = 1; i < ACT_COUNT; i++) {
		uint32_t k = 0;
		while (k < c.n_keys && strcmp(c.keys[k].action, names[i]) != 0)
			k++;
		assert_true(k < c.n_keys);
		assert_true(c.keys[k].n_keys > 0);
	}
	config_fini(&c);
}

static void
unknown_key_name(void **state)
{
	(void)state;
	const char *names[ACT_COUNT];
	action_names(names);
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	assert_int_equal(config_load_file(&c, "tests/config/key-unknown.yaml", &e), 0);
	assert_int_equal(config_check_keys(&c, names, ACT_COUNT, key_ok, &e), ERR_FORMAT);
	assert_string_equal(e.msg, "tests/config/key-unknown.yaml:2:13: keys.zoom-in: unknown key name 'Hyper-x'");
	config_fini(&c);
}

/* A user's bindings, layered on the defaults, drive the keymap. */
static void
bindings_drive_keymap(void **state)
{
	(void)state;
	struct config c;
	struct err e = { 0 };
	const char *user = "keys: {zoom-in: [h, '+'], quit: [Q]}";
	assert_int_equal(config_init(&c, &e), 0);
	assert_int_equal(config_load_string(&c, "user", user, strlen(user), &e), 0);
	char *text = NULL;
	assert_int_equal(config_keys_text(&c, &text), 0);
	struct keymap *km = keymap_create();
	assert_non_null(km);
	assert_int_equal(keymap_parse(km, text, "config", &e), 0);
	assert_int_equal(keymap_action(km, 'h'), ACT_ZOOM_IN);
	assert_int_equal(keymap_action(km, 'Q'), ACT_QUIT);
	assert_int_equal(keymap_action(km, KM_LEFT), ACT_MOVE_LEFT);
	/* the text binds q to nothing; the keymap keeps its own default for it
	 * (it starts from its built-ins), which the explorer must clear */
	assert_null(strstr(text, "\nq quit\n"));
	free(text);
	keymap_destroy(km);
	config_fini(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_match_keymap),
		cmocka_unit_test(defaults_are_valid),
		cmocka_unit_test(unknown_key_name),
		cmocka_unit_test(bindings_drive_keymap),
	};
	return cmocka_run_group_tests(tests, tc_setup_root, NULL);
}
