/* test_view.c — the explorer's building blocks without a trace: the
 * cell grid and its text back end, key names and scripts, the bindings
 * parser and its errors, and the action table the help is made from. */
#include "testutil.h"

#include <string.h>

#include "view/action.h"
#include "view/grid.h"
#include "view/keymap.h"

static char *
render(const struct grid *g, enum grid_depth d, int ascii)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	assert_int_equal(grid_write(g, f, d, ascii), 0);
	fclose(f);
	return buf;
}

static void
grid_text_and_box(void **state)
{
	(void)state;
	struct grid *g = grid_create(8, 3);
	assert_non_null(g);
	grid_box(g, 0, 0, 8, 3, ST_BORDER, "ab", ST_TITLE);
	assert_int_equal(grid_text(g, 1, 1, 6, ST_NORMAL, "h\u00e9llo w\u00f6rld"), 6);
	char *s = render(g, DEPTH_NONE, 0);
	assert_string_equal(s, "\u250c ab \u2500\u2500\u2510\n\u2502h\u00e9llo \u2502\n\u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2518\n");
	free(s);
	s = render(g, DEPTH_NONE, 1);
	assert_string_equal(s, "+ ab --+\n|h?llo |\n+------+\n");
	free(s);
	/* clipping never writes outside */
	grid_put(g, -1, 0, 'x', 0);
	grid_put(g, 8, 2, 'x', 0);
	assert_null(grid_at(g, 8, 0));
	assert_int_equal(grid_text(g, 6, 1, 10, ST_NORMAL, "xyz"), 10 > 2 ? 3 : 0);
	grid_destroy(g);
	grid_destroy(NULL);
}

static void
grid_plain_trims_and_ansi_resets(void **state)
{
	(void)state;
	struct grid *g = grid_create(6, 2);
	grid_put(g, 0, 0, 'a', ST_HEAT7);
	grid_put(g, 1, 0, 'b', ST_HEAT7);
	grid_mark(g, 1, 0, 1, 1, MARK_SEL);
	char *s = render(g, DEPTH_NONE, 0);
	assert_string_equal(s, "ab\n\n");
	free(s);
	s = render(g, DEPTH_256, 0);
	/* one SGR per change, a reset before each line end */
	assert_string_equal(s, "\033[0;1;38;5;196ma\033[0;1;7;38;5;196mb\033[0m    \n      \n");
	free(s);
	s = render(g, DEPTH_MONO, 0);
	assert_non_null(strstr(s, "\033[0;1;4ma"));
	free(s);
	assert_int_equal(grid_resize(g, 0, 0), 0);
	s = render(g, DEPTH_NONE, 0);
	assert_string_equal(s, "");
	free(s);
	grid_destroy(g);
}

static void
styles_degrade(void **state)
{
	(void)state;
	for (int st = 0; st < ST_COUNT; st++) {
		struct grid_attr a = grid_attr(st, 0, DEPTH_8);
		assert_true(a.fg < 8 && a.bg < 8);
		a = grid_attr(st, 0, DEPTH_MONO);
		assert_int_equal(a.fg, -1);
		assert_int_equal(a.bg, -1);
		a = grid_attr(st, MARK_SEL, DEPTH_NONE);
		assert_int_equal(a.attr, 0);
	}
	/* the heat levels stay distinguishable in 256 colours */
	for (int l = 1; l < GRID_HEAT_LEVELS; l++)
		assert_int_not_equal(grid_attr(ST_HEAT0 + l, 0, DEPTH_256).fg,
				     grid_attr(ST_HEAT0 + l - 1, 0, DEPTH_256).fg);
	assert_true(grid_attr(ST_NORMAL, MARK_SEL, DEPTH_MONO).attr & ATTR_REVERSE);
	assert_int_equal(grid_ascii(0x2588), '#');
	assert_int_equal(grid_ascii(0x00b7), '.');
	assert_int_equal(grid_ascii('q'), 'q');
	assert_int_equal(grid_ascii(0x2800), ' ');      /* braille: by the dots set */
	assert_int_equal(grid_ascii(0x2801), '.');
	assert_int_equal(grid_ascii(0x28ff), '#');
	assert_int_equal(grid_ascii(0x2022), '*');
}

static void
key_names_round_trip(void **state)
{
	(void)state;
	const char *names[] = { "Left", "PgDn", "C-l", "j", "?", "Esc", "BTab", "F1", "S-Right", "\u00e9" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		uint32_t k = keymap_key_parse(names[i], strlen(names[i]));
		assert_int_not_equal(k, 0);
		char buf[16];
		assert_string_equal(keymap_key_name(k, buf), names[i]);
	}
	assert_int_equal(keymap_key_parse("Bogus", 5), 0);
	assert_int_equal(keymap_key_parse("ab", 2), 0);
	assert_int_equal(keymap_key_parse("Space", 5), ' ');
}

static void
key_scripts(void **state)
{
	(void)state;
	uint32_t k[32];
	size_t n;
	struct err e = { 0 };
	assert_int_equal(keymap_script("j<Down>:s 1<Enter><lt>", k, 32, &n, &e), 0);
	assert_int_equal(n, 8);
	assert_int_equal(k[0], 'j');
	assert_int_equal(k[1], KM_DOWN);
	assert_int_equal(k[3], 's');
	assert_int_equal(k[4], ' ');
	assert_int_equal(k[6], KM_ENTER);
	assert_int_equal(k[7], '<');
	assert_int_equal(keymap_script("ab<Nope>", k, 32, &n, &e), ERR_USAGE);
	assert_non_null(strstr(e.msg, "offset 2"));
	err_clear(&e);
	assert_int_equal(keymap_script("abc", k, 2, &n, &e), ERR_USAGE);
}

static void
bindings_parse(void **state)
{
	(void)state;
	struct keymap *km = keymap_create();
	assert_non_null(km);
	assert_int_equal(keymap_action(km, 'j'), ACT_MOVE_DOWN);
	assert_int_equal(keymap_action(km, KM_TAB), ACT_NEXT_PANE);
	assert_int_equal(keymap_action(km, 'Q'), ACT_NONE);
	struct err e = { 0 };
	assert_int_equal(keymap_parse(km, "# mine\n  Q   quit\nj move-up\n", "k.conf", &e), 0);
	assert_int_equal(keymap_action(km, 'Q'), ACT_QUIT);
	assert_int_equal(keymap_action(km, 'j'), ACT_MOVE_UP);
	assert_int_equal(keymap_parse(km, "\nx  fly\n", "k.conf", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.conf:2:4: unknown action 'fly'");
	err_clear(&e);
	assert_int_equal(keymap_parse(km, "Hyper quit\n", "k.conf", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.conf:1:1: unknown key 'Hyper'");
	err_clear(&e);
	assert_int_equal(keymap_parse(km, "x quit now\n", "k.conf", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.conf:1:8: unexpected text after the action");
	err_clear(&e);
	assert_int_equal(keymap_parse(km, "x\n", "k.conf", &e), ERR_FORMAT);
	char keys[64];
	assert_int_equal(keymap_keys(km, ACT_MOVE_LEFT, keys, sizeof keys), 2);
	assert_string_equal(keys, "Left, h");
	keymap_destroy(km);
	keymap_destroy(NULL);
}

/* Every action is named, described, findable by name, and (but for
 * none) bound by default: the help overlay lists them all. */
static void
action_table_complete(void **state)
{
	(void)state;
	struct keymap *km = keymap_create();
	for (int a = 1; a < ACT_COUNT; a++) {
		const struct action_info *ai = action_info((enum action)a);
		assert_non_null(ai->name);
		assert_true(strlen(ai->help) > 3);
		assert_true(strlen(ai->group) > 0);
		assert_int_equal(action_find(ai->name), a);
		char keys[64];
		if (keymap_keys(km, (enum action)a, keys, sizeof keys) == 0)
			fail_msg("action %s has no default key", ai->name);
	}
	assert_int_equal(action_find("no-such-action"), ACT_NONE);
	assert_string_equal(action_info((enum action)999)->name, "none");
	keymap_destroy(km);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grid_text_and_box),
		cmocka_unit_test(grid_plain_trims_and_ansi_resets),
		cmocka_unit_test(styles_degrade),
		cmocka_unit_test(key_names_round_trip),
		cmocka_unit_test(key_scripts),
		cmocka_unit_test(bindings_parse),
		cmocka_unit_test(action_table_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
