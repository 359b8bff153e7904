/* test_view.c — the explorer's building blocks without a trace: the
 * cell grid and its text back end, key names and scripts, the bindings
 * parser and its errors, and the action table the help is made from;
 * and, on a corpus trace, where the prompt line puts its cursor. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis.h"
#include "view/surface/action.h"
#include "view/surface/grid.h"
#include "view/surface/keymap.h"
#include "view/surface/keyseq.h"
#include "view/surface/prompt.h"

#include "testview.h"


static void
grid_text_and_box(void **state)
{
	(void)state;
	struct grid *g = grid_create(8, 3);
	assert_non_null(g);
	grid_box(g, 0, 0, 8, 3, ST_BORDER, "ab", ST_TITLE);
	assert_int_equal(grid_text(g, 1, 1, 6, ST_NORMAL, "h\u00e9llo w\u00f6rld"), 6);
	char *s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, "\u250c ab \u2500\u2500\u2510\n\u2502h\u00e9llo \u2502\n\u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2518\n");
	free(s);
	s = tv_text(g, DEPTH_NONE, 1);
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

/* Characters two columns wide (CJK, emoji) take two cells, combining
 * ones none (they go into the cell of the one before them), as wcwidth() has
 * them in a UTF-8 locale (Python's unicodedata.east_asian_width agrees);
 * overwriting half of a wide character blanks its other half. Skipped
 * where the C library has no UTF-8 locale's tables. */
static void
grid_wide_characters(void **state)
{
	(void)state;
	assert_int_equal(text_char_width('a'), 1);
	assert_int_equal(text_char_width(0x2502), 1);       /* │ */
	assert_int_equal(text_char_width(0x8a08), 2);       /* 計 */
	assert_int_equal(text_char_width(0x1f680), 2);      /* rocket */
	assert_int_equal(text_char_width(0x0301), 0);       /* combining acute */
	assert_int_equal(text_width("\u8a08a\U0001F680e\u0301"), 6);
	/* the bytes of 3 columns: 計 and a, not half the rocket */
	assert_int_equal(text_cols_bytes("\u8a08a\U0001F680", 4), 4);
	assert_int_equal(text_cols_bytes("\u8a08a\U0001F680", 5), 8);
	struct grid *g = grid_create(8, 2);
	assert_non_null(g);
	assert_int_equal(grid_text(g, 0, 0, 8, ST_NORMAL, "\u8a08a\U0001F680e\u0301!"), 7);
	char *s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, "\u8a08a\U0001F680e\u0301!\n\n");
	free(s);
	s = tv_text(g, DEPTH_NONE, 1);             /* ASCII: '?' and a space, no accent */
	assert_string_equal(s, "? a? e!\n\n");
	free(s);
	/* a wide character that would cross the edge is left out whole */
	assert_int_equal(grid_text(g, 0, 1, 3, ST_NORMAL, "ab\u8a08"), 2);
	/* half of 計 overwritten: the other half blank, never half a character */
	grid_put(g, 1, 0, 'x', ST_NORMAL);
	s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, " xa\U0001F680e\u0301!\nab\n");
	free(s);
	grid_put(g, 3, 0, 'y', ST_NORMAL);
	s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, " xay e\u0301!\nab\n");
	free(s);
	grid_destroy(g);
}

/* A letter keeps its combining marks in its cell (they were left out:
 * "résumé" showed as "resume"): two of them, in order, a third left out;
 * on a wide character too; at the last column maxw allows; one with no
 * letter before it in the text is left out, and a joiner or a variation
 * selector is never kept (a terminal may draw what it joins or selects
 * two columns wide). A character written over the cell, or over the
 * second half of its wide character, takes the marks away. */
static void
grid_combining_marks(void **state)
{
	(void)state;
	struct grid *g = grid_create(10, 4);
	assert_non_null(g);
	assert_int_equal(grid_text(g, 0, 0, 10, ST_NORMAL, "re\u0301sume\u0301"), 6);
	assert_int_equal(grid_at(g, 1, 0)->ch, 'e');
	assert_int_equal(grid_at(g, 1, 0)->comb[0], 0x0301);
	assert_int_equal(grid_at(g, 1, 0)->comb[1], 0);
	/* ệ as e, dot below, circumflex; a third mark (grave) left out */
	assert_int_equal(grid_text(g, 0, 1, 10, ST_NORMAL, "e\u0323\u0302\u0300x"), 2);
	assert_int_equal(grid_at(g, 0, 1)->comb[0], 0x0323);
	assert_int_equal(grid_at(g, 0, 1)->comb[1], 0x0302);
	/* at maxw: the last letter keeps its accent; a wide one too */
	assert_int_equal(grid_text(g, 0, 2, 2, ST_NORMAL, "\u0301ae\u0301b"), 2);
	assert_int_equal(grid_at(g, 0, 2)->comb[0], 0);          /* no letter before it */
	assert_int_equal(grid_at(g, 1, 2)->comb[0], 0x0301);
	assert_int_equal(grid_text(g, 2, 2, 8, ST_NORMAL, "\u8a08\u0301z\u200d\ufe0fw"), 4);
	assert_int_equal(grid_at(g, 2, 2)->comb[0], 0x0301);
	assert_int_equal(grid_at(g, 4, 2)->comb[0], 0);          /* no joiner, no selector */
	char *s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, "re\u0301sume\u0301\ne\u0323\u0302x\nae\u0301\u8a08\u0301zw\n\n");
	free(s);
	s = tv_text(g, DEPTH_256, 0);                        /* with colours: the same marks */
	assert_non_null(strstr(s, "e\u0323\u0302x"));
	free(s);
	/* written over: the letter, then the second half of 計 */
	grid_put(g, 1, 0, 'E', ST_NORMAL);
	assert_int_equal(grid_at(g, 1, 0)->comb[0], 0);
	grid_put(g, 3, 2, 'q', ST_NORMAL);
	assert_int_equal(grid_at(g, 2, 2)->ch, ' ');
	assert_int_equal(grid_at(g, 2, 2)->comb[0], 0);
	s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, "rEsume\u0301\ne\u0323\u0302x\nae\u0301 qzw\n\n");
	free(s);
	grid_destroy(g);
}

static void
grid_plain_trims_and_ansi_resets(void **state)
{
	(void)state;
	struct grid *g = grid_create(6, 2);
	grid_put(g, 0, 0, 'a', ST_HEAT7);
	grid_put(g, 1, 0, 'b', ST_HEAT7);
	grid_mark(g, 1, 0, 1, 1, MARK_SEL);
	char *s = tv_text(g, DEPTH_NONE, 0);
	assert_string_equal(s, "ab\n\n");
	free(s);
	s = tv_text(g, DEPTH_256, 0);
	/* one SGR per change, a reset before each line end */
	assert_string_equal(s, "\033[0;1;38;5;196ma\033[0;1;7;38;5;196mb\033[0m    \n      \n");
	free(s);
	s = tv_text(g, DEPTH_MONO, 0);
	assert_non_null(strstr(s, "\033[0;1;4ma"));
	free(s);
	assert_int_equal(grid_resize(g, 0, 0), 0);
	s = tv_text(g, DEPTH_NONE, 0);
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
	/* the bad name is named, and a '<' that never closes is said apart */
	assert_non_null(strstr(e.msg, "unknown key name '<Nope>'"));
	err_clear(&e);
	assert_int_equal(keymap_script("ab<Nope", k, 32, &n, &e), ERR_USAGE);
	assert_non_null(strstr(e.msg, "'<' without its '>' at offset 2"));
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

/* Without colour (NO_COLOR), what the grid marks must still differ from
 * one another: a message partner of any shade is neither the hottest
 * level nor the selection, and a cell of several kinds is marked. */
static void
mono_marks_distinct(void **state)
{
	(void)state;
	struct grid_attr hot = grid_attr(ST_HEAT7, 0, DEPTH_MONO);
	struct grid_attr sel = grid_attr(ST_NORMAL, MARK_SEL, DEPTH_MONO);
	for (int st = ST_NORMAL; st < ST_COUNT; st++) {
		if (st != ST_NORMAL && st != ST_LABEL && st != ST_EMPH && st < ST_HEAT0)
			continue;          /* bars, borders, titles: never partners */
		struct grid_attr p = grid_attr(st, MARK_PARTNER, DEPTH_MONO);
		if (p.attr == hot.attr || p.attr == sel.attr)
			fail_msg("style %d as a partner looks like the hottest level or the selection", st);
		if (p.attr == grid_attr(st, 0, DEPTH_MONO).attr)
			fail_msg("style %d does not show it is a partner", st);
	}
	for (int st = ST_CAT0; st <= ST_CAT7; st++)
		assert_int_not_equal(grid_attr(st, MARK_MIXED, DEPTH_MONO).attr, grid_attr(st, 0, DEPTH_MONO).attr);
}

/* What terminals send, whatever terminfo says (issue 12): each sequence
 * is one key, a mouse event, or dropped whole; bytes after it are left. */
static void
escape_sequences(void **state)
{
	(void)state;
	static const struct { const char *in; int res; uint32_t key; size_t used; } c[] = {
		{ "\033[1~", KEYSEQ_KEY, KM_HOME, 4 },      /* tmux/screen, VT220 */
		{ "\033[4~", KEYSEQ_KEY, KM_END, 4 },
		{ "\033[7~", KEYSEQ_KEY, KM_HOME, 4 },      /* rxvt */
		{ "\033[8~", KEYSEQ_KEY, KM_END, 4 },
		{ "\033[H", KEYSEQ_KEY, KM_HOME, 3 },       /* xterm */
		{ "\033[F", KEYSEQ_KEY, KM_END, 3 },
		{ "\033OH", KEYSEQ_KEY, KM_HOME, 3 },       /* xterm application mode */
		{ "\033OF", KEYSEQ_KEY, KM_END, 3 },
		{ "\033[5~", KEYSEQ_KEY, KM_PGUP, 4 },
		{ "\033[6~", KEYSEQ_KEY, KM_PGDN, 4 },
		{ "\033[3~", KEYSEQ_KEY, KM_DELETE, 4 },
		{ "\033[A", KEYSEQ_KEY, KM_UP, 3 },
		{ "\033OB", KEYSEQ_KEY, KM_DOWN, 3 },
		{ "\033[1;2C", KEYSEQ_KEY, KM_SRIGHT, 6 },  /* Shift+Right */
		{ "\033[1;2D", KEYSEQ_KEY, KM_SLEFT, 6 },
		{ "\033[1;5C", KEYSEQ_KEY, KM_RIGHT, 6 },   /* Ctrl+Right: still right */
		{ "\033[Z", KEYSEQ_KEY, KM_BTAB, 3 },
		{ "\033OP", KEYSEQ_KEY, KM_F1, 3 },         /* F1-F4 */
		{ "\033OS", KEYSEQ_KEY, KM_F4, 3 },
		{ "\033[11~", KEYSEQ_KEY, KM_F1, 5 },       /* rxvt F1 */
		{ "\033[15~", KEYSEQ_KEY, KM_F5, 5 },
		{ "\033[17~", KEYSEQ_KEY, KM_F6, 5 },
		{ "\033[21~", KEYSEQ_KEY, KM_F10, 5 },
		{ "\033[24~", KEYSEQ_KEY, KM_F12, 5 },
		{ "\033[[A", KEYSEQ_KEY, KM_F1, 4 },        /* Linux console */
		{ "\033[[E", KEYSEQ_KEY, KM_F5, 4 },
		{ "\033[4~[", KEYSEQ_KEY, KM_END, 4 },      /* the '[' after it is the next key */
		{ "\033[99~", KEYSEQ_DROP, 0, 5 },          /* unknown: dropped whole */
		{ "\033[200~", KEYSEQ_DROP, 0, 6 },         /* bracketed paste marker */
		{ "\033[?1;2c", KEYSEQ_DROP, 0, 7 },        /* a device attributes answer */
		{ "\033[I", KEYSEQ_DROP, 0, 3 },            /* focus in */
		{ "\033Ox", KEYSEQ_DROP, 0, 3 },
		{ "\033[", KEYSEQ_PARTIAL, 0, 0 },
		{ "\033[1", KEYSEQ_PARTIAL, 0, 0 },
		{ "\033[1;2", KEYSEQ_PARTIAL, 0, 0 },
		{ "\033O", KEYSEQ_PARTIAL, 0, 0 },
		{ "\033", KEYSEQ_PARTIAL, 0, 0 },
		{ "\033q", KEYSEQ_KEY, KM_ESC, 1 },         /* Esc, then q */
		{ "\033\033[A", KEYSEQ_KEY, KM_ESC, 1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint32_t key = 0;
		size_t used = 0;
		int res = keyseq_decode((const unsigned char *)c[i].in, strlen(c[i].in), &key, &used);
		if (res != c[i].res || (res == KEYSEQ_KEY && key != c[i].key) || (res != KEYSEQ_PARTIAL && used != c[i].used))
			fail_msg("case %zu (ESC%s): result %d key %#x used %zu", i, c[i].in + 1, res, key, used);
	}
	/* mouse: SGR 1006 and X10, presses, the wheel and the left button's
	 * release (a drag's end); other releases and motion dropped */
	uint32_t key;
	size_t used;
	enum km_mouse_kind kind;
	int x, y;
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<0;13;6M", strlen("\033[<0;13;6M"), &key, &used), KEYSEQ_KEY);
	assert_int_equal(used, 10);
	assert_true(keymap_mouse_decode(key, &kind, &x, &y));
	assert_int_equal(kind, MOUSE_LEFT);
	assert_int_equal(x, 12);
	assert_int_equal(y, 5);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<65;1;1M", strlen("\033[<65;1;1M"), &key, &used), KEYSEQ_KEY);
	assert_true(keymap_mouse_decode(key, &kind, &x, &y));
	assert_int_equal(kind, MOUSE_WHEEL_DOWN);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<0;13;6m", strlen("\033[<0;13;6m"), &key, &used), KEYSEQ_KEY);
	assert_true(keymap_mouse_decode(key, &kind, &x, &y));
	assert_int_equal(kind, MOUSE_RELEASE);
	assert_int_equal(x, 12);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<2;13;6m", strlen("\033[<2;13;6m"), &key, &used), KEYSEQ_DROP);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<32;13;6M", strlen("\033[<32;13;6M"), &key, &used), KEYSEQ_DROP);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[<0;13", strlen("\033[<0;13"), &key, &used), KEYSEQ_PARTIAL);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[M !&", strlen("\033[M !&"), &key, &used), KEYSEQ_KEY);
	assert_true(keymap_mouse_decode(key, &kind, &x, &y));
	assert_int_equal(kind, MOUSE_LEFT);
	assert_int_equal(x, 0);
	assert_int_equal(y, 5);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[M#!!", strlen("\033[M#!!"), &key, &used), KEYSEQ_KEY);
	assert_true(keymap_mouse_decode(key, &kind, &x, &y));
	assert_int_equal(kind, MOUSE_RELEASE);
	assert_int_equal(keyseq_decode((const unsigned char *)"\033[M ", strlen("\033[M "), &key, &used), KEYSEQ_PARTIAL);
	/* a runaway sequence ends */
	char junk[64] = "\033[";
	memset(junk + 2, '1', 40);
	assert_int_equal(keyseq_decode((const unsigned char *)junk, 42, &key, &used), KEYSEQ_DROP);
	assert_int_equal(used, 42);
	/* mouse codes in key scripts, and their names */
	uint32_t k[4];
	size_t n;
	struct err e = { 0 };
	assert_int_equal(keymap_script("<Click:12,5><WheelUp:0,0>", k, 4, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(k[0], keymap_mouse(MOUSE_LEFT, 12, 5));
	char name[16];
	assert_string_equal(keymap_key_name(k[1], name), "WheelUp");
	assert_int_equal(keymap_script("<Click:12>", k, 4, &n, &e), ERR_USAGE);
	/* a resize, in scripts only: not a mouse event, not a key name */
	int w, h;
	enum km_mouse_kind mk;
	assert_int_equal(keymap_script("j<Resize:80x24>", k, 4, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_true(keymap_resize_decode(k[1], &w, &h));
	assert_int_equal(w, 80);
	assert_int_equal(h, 24);
	assert_false(keymap_mouse_decode(k[1], &mk, &w, &h));
	assert_false(keymap_resize_decode(k[0], &w, &h));
	assert_false(keymap_resize_decode(keymap_mouse(MOUSE_RELEASE, 3, 4), &w, &h));
	assert_int_equal(keymap_key_parse("Resize:80x24", 12), 0);
	assert_int_equal(keymap_script("<Resize:0x24>", k, 4, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_script("<Resize:80x24x>", k, 4, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_script("<Resize:10001x24>", k, 4, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_key_parse("F12", 3), KM_F12);
}

static void
type(struct prompt *p, const char *script)
{
	uint32_t k[128];
	size_t n;
	struct err e = { 0 };
	assert_int_equal(keymap_script(script, k, 128, &n, &e), 0);
	for (size_t i = 0; i < n; i++)
		prompt_key(p, k[i]);
}

/* The prompt's line editing, history and completion (issue 12). */
static void
prompt_editing(void **state)
{
	(void)state;
	struct prompt p;
	assert_int_equal(prompt_init(&p), 0);
	prompt_start(&p);
	type(&p, "step 12<Left><Left><Backspace>");
	assert_string_equal(p.buf, "step12");
	type(&p, "<C-a><Delete><C-e> x\u00e9<Backspace>");
	assert_string_equal(p.buf, "tep12 x");    /* é is one character */
	type(&p, "<C-w>");
	assert_string_equal(p.buf, "tep12 ");
	type(&p, "<C-w>");
	assert_string_equal(p.buf, "");
	/* a letter and its combining accent move and go as one: the cursor
	 * never stands between them (it stood after the 'e', before its
	 * accent, and typing there put the text between) */
	type(&p, "ce\u0301z<Left><Left>");
	assert_int_equal(p.cur, 1);
	type(&p, "<Right>");
	assert_int_equal(p.cur, 4);
	type(&p, "<Left>x");
	assert_string_equal(p.buf, "cxe\u0301z");
	type(&p, "<Delete>");
	assert_string_equal(p.buf, "cxz");
	type(&p, "<C-e>a\u0301\u0301<Backspace>");
	assert_string_equal(p.buf, "cxz");
	type(&p, "<C-a><C-k>");
	assert_int_equal(prompt_key(&p, KM_BACKSPACE), PROMPT_CANCEL);
	assert_int_equal(prompt_key(&p, KM_CTRL('c')), PROMPT_CANCEL);
	assert_int_equal(prompt_key(&p, KM_ENTER), PROMPT_SUBMIT);
	/* history: oldest first, no repeats, browsing keeps the draft */
	prompt_history_add(&p, "one");
	prompt_history_add(&p, "two");
	prompt_history_add(&p, "two");
	prompt_history_add(&p, "");
	assert_int_equal(p.n_hist, 2);
	prompt_start(&p);
	type(&p, "dr<Up>");
	assert_string_equal(p.buf, "two");
	type(&p, "<Up><Up>");
	assert_string_equal(p.buf, "one");
	type(&p, "<Down><Down>");
	assert_string_equal(p.buf, "dr");
	for (int i = 0; i < PROMPT_HISTORY + 10; i++) {
		char b[16];
		snprintf(b, sizeof b, "l%d", i);
		prompt_history_add(&p, b);
	}
	assert_int_equal(p.n_hist, PROMPT_HISTORY);
	assert_string_equal(p.hist[0], "l10");
	/* completion: one match whole, several to what they share, then cycling */
	const char *c[] = { "step", "search", "save", "zoom" };
	prompt_start(&p);
	type(&p, "st");
	assert_int_equal(prompt_complete(&p, c, 4, 1), 1);
	assert_string_equal(p.buf, "step ");
	prompt_start(&p);
	type(&p, "s");
	assert_int_equal(prompt_complete(&p, c, 4, 1), 3);
	assert_string_equal(p.buf, "step");       /* nothing shared past "s": cycling */
	prompt_complete(&p, c, 4, 1);
	assert_string_equal(p.buf, "search");
	prompt_start(&p);
	type(&p, "zoom 3 sa");
	assert_int_equal(prompt_complete(&p, c, 4, 0), 1);
	assert_string_equal(p.buf, "zoom 3 save");
	prompt_start(&p);
	type(&p, "q");
	assert_int_equal(prompt_complete(&p, c, 4, 1), 0);
	assert_string_equal(p.buf, "q");
	prompt_fini(&p);
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

/* The cells of the prompt's cursor (MARK_SEL) on the last row: the
 * first in *x, their count returned. */
static int
cursor_cells(struct grid *g, int *x)
{
	int n = 0;
	*x = -1;
	for (int i = 0; i < g->w; i++)
		if (grid_at(g, i, g->h - 1)->mark & MARK_SEL) {
			*x = *x < 0 ? i : *x;
			n++;
		}
	return n;
}

/* The prompt's cursor stands where grid_text put the text before it:
 * after "計算ab" in column 7 (1 for the '/', 4 for 計算, 2), where it
 * stood in column 5 as if each character took one; on a wide character,
 * both its cells; a line wider than the screen scrolls by whole
 * characters, the cursor in the last column. */
static void
prompt_cursor_columns(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("stencil-4");
	struct analysis *a = tu_analyse(t, NULL);
	struct view *v = NULL;
	struct err e = { 0 };
	struct view_opts vo = { 0 };
	assert_int_equal(view_create(a, &vo, &v, &e), 0);
	struct grid *g = grid_create(40, 12);
	assert_non_null(g);
	view_draw(v, g);
	int x;
	tv_press(v, g, "/\u8a08\u7b97ab");
	assert_int_equal(cursor_cells(g, &x), 1);
	assert_int_equal(x, 7);
	tv_press(v, g, "<Left><Left><Left>");            /* on 算 */
	assert_int_equal(cursor_cells(g, &x), 2);
	assert_int_equal(x, 3);
	assert_int_equal(grid_at(g, 3, g->h - 1)->ch, 0x7b97);
	tv_press(v, g, "<Esc>/");
	char line[25 * 3 + 1] = "";
	for (int i = 0; i < 25; i++)
		strcat(line, "\u8a08");
	tv_press(v, g, line);                              /* 50 columns on 39 */
	assert_int_equal(cursor_cells(g, &x), 1);
	assert_int_equal(x, 39);
	/* 計 whole in 1-38: six of them scrolled out (12 columns) */
	for (int i = 1; i < 39; i += 2) {
		assert_int_equal(grid_at(g, i, g->h - 1)->ch, 0x8a08);
		assert_int_equal(grid_at(g, i + 1, g->h - 1)->ch, GRID_WIDE_TAIL);
	}
	tv_press(v, g, "<Left>");                          /* the last 計: both cells */
	assert_int_equal(cursor_cells(g, &x), 2);
	assert_int_equal(x, 37);
	grid_destroy(g);
	view_destroy(v);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grid_text_and_box),
		cmocka_unit_test(grid_wide_characters),
		cmocka_unit_test(grid_combining_marks),
		cmocka_unit_test(grid_plain_trims_and_ansi_resets),
		cmocka_unit_test(styles_degrade),
		cmocka_unit_test(key_names_round_trip),
		cmocka_unit_test(key_scripts),
		cmocka_unit_test(bindings_parse),
		cmocka_unit_test(escape_sequences),
		cmocka_unit_test(mono_marks_distinct),
		cmocka_unit_test(prompt_editing),
		cmocka_unit_test(action_table_complete),
		cmocka_unit_test(prompt_cursor_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
