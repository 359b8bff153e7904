/* test_text.c — names from input files made safe (base/text.h): the
 * strict UTF-8 decoder (RFC 3629) against every class of malformed
 * sequence and an encoder written here, the characters shown as '?',
 * the JSON writer's escapes of the same, and the key map's use of the
 * decoder (a key map holding an overlong '/' bound '/'); the columns
 * text takes (text_char_width, text_width, text_cols_bytes), names cut
 * to columns (text_cut) and padded by them (text_safe_pad). */
#include "testutil.h"

#include <string.h>

#include "base/json.h"
#include "base/text.h"
#include "view/surface/keymap.h"

/* c in UTF-8 as RFC 3629 writes it (any c up to U+10FFFF, surrogates
 * too, which the decoder must refuse): its length. */
static int
encode(uint32_t c, unsigned char *b)
{
	if (c < 0x80) {
		b[0] = (unsigned char)c;
		return 1;
	}
	int n = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
	static const unsigned char lead[5] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	for (int i = n - 1; i > 0; i--, c >>= 6)
		b[i] = (unsigned char)(0x80 | (c & 0x3f));
	b[0] = (unsigned char)(lead[n] | c);
	return n;
}

/* Decodes s (NUL-terminated) whole: the code points into out (room for
 * strlen(s)), their count. */
static size_t
decode_all(const char *s, uint32_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	while (*p)
		out[n++] = text_utf8_next(&p);
	return n;
}

/* Every code point encoded decodes to itself, in as many bytes; every
 * surrogate's encoding is refused, one byte at a time. */
static void
decoder_round_trip(void **state)
{
	(void)state;
	unsigned char b[8];
	uint32_t surrogates = 0;
	for (uint32_t c = 1; c <= 0x10ffff; c++) {
		int n = encode(c, b);
		b[n] = 0;
		const unsigned char *p = b;
		uint32_t got = text_utf8_next(&p);
		if (c >= 0xd800 && c <= 0xdfff) {
			surrogates++;
			if (got != TEXT_BAD || p != b + 1)
				fail_msg("surrogate U+%04X decoded to %x, %d bytes", c, got, (int)(p - b));
		} else if (got != c || p != b + n) {
			fail_msg("U+%04X decoded to %x, %d of %d bytes", c, got, (int)(p - b), n);
		}
	}
	assert_int_equal(surrogates, 2048);
}

/* Every sequence of two and three bytes: what decodes is the encoder's
 * bytes for what it decodes to (the shortest form, no surrogate), and
 * as many of them decode as there are such code points; four bytes over
 * every lead byte from F0 and second byte, with the last two at the
 * ends of the continuation range and beyond it. */
static void
decoder_accepts_shortest_only(void **state)
{
	(void)state;
	unsigned char b[8], e[8];
	uint32_t two = 0, three = 0, four = 0;
	for (uint32_t v = 0; v < 1u << 24; v++) {
		b[0] = (unsigned char)(v >> 16);
		b[1] = (unsigned char)(v >> 8);
		b[2] = (unsigned char)v;
		b[3] = 0;
		if (b[0] < 0x80 || !b[1])
			continue;
		int len = b[2] ? 3 : 2;
		const unsigned char *p = b;
		uint32_t c = text_utf8_next(&p);
		if (c == TEXT_BAD) {
			if (p != b + 1)
				fail_msg("%02x %02x %02x: refused in %d bytes", b[0], b[1], b[2], (int)(p - b));
			continue;
		}
		int n = encode(c, e);
		if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff) || p != b + n || memcmp(b, e, (size_t)n))
			fail_msg("%02x %02x %02x: decoded to U+%04X in %d bytes", b[0], b[1], b[2], c,
				 (int)(p - b));
		if (n == 2 && len == 2)         /* each two-byte form once */
			two++;
		if (n == 3)
			three++;
	}
	assert_int_equal(two, 0x800 - 0x80);
	assert_int_equal(three, 0x10000 - 0x800 - 2048);
	static const unsigned char tails[] = { 0x80, 0xbf, 0x7f, 0xc0, 0x41 };
	for (uint32_t l = 0xf0; l <= 0xff; l++)
		for (uint32_t s = 1; s < 256; s++)
			for (size_t i = 0; i < sizeof tails; i++)
				for (size_t k = 0; k < sizeof tails; k++) {
					b[0] = (unsigned char)l;
					b[1] = (unsigned char)s;
					b[2] = tails[i];
					b[3] = tails[k];
					b[4] = 0;
					const unsigned char *p = b;
					uint32_t c = text_utf8_next(&p);
					if (c == TEXT_BAD) {
						assert_ptr_equal(p, b + 1);
						continue;
					}
					int n = encode(c, e);
					if (c > 0x10ffff || n != 4 || p != b + 4 || memcmp(b, e, 4))
						fail_msg("%02x %02x %02x %02x: U+%04X", b[0], b[1], b[2], b[3], c);
					four++;
				}
	/* the second byte's range of each lead, the last two 80 or BF:
	 * F0 90-BF, F1-F3 80-BF, F4 80-8F */
	assert_int_equal(four, (48 + 3 * 64 + 16) * 4);
}

/* Each class of malformed UTF-8: every byte of it one TEXT_BAD, and the
 * characters around it intact. */
static void
decoder_refuses_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *what, *s;
		size_t bad;             /* bytes refused, between "a" and "z" */
	} cases[] = {
		{ "overlong 2-byte '/'", "a\xc0\xafz", 2 },
		{ "overlong 2-byte U+007F", "a\xc1\xbfz", 2 },
		{ "overlong 3-byte '/'", "a\xe0\x80\xafz", 3 },
		{ "overlong 3-byte U+07FF", "a\xe0\x9f\xbfz", 3 },
		{ "overlong 4-byte '/'", "a\xf0\x80\x80\xafz", 4 },
		{ "overlong 4-byte U+FFFF", "a\xf0\x8f\xbf\xbfz", 4 },
		{ "surrogate U+D800", "a\xed\xa0\x80z", 3 },
		{ "surrogate U+DBFF U+DC00 (a pair)", "a\xed\xaf\xbf\xed\xb0\x80z", 6 },
		{ "surrogate U+DFFF", "a\xed\xbf\xbfz", 3 },
		{ "U+110000", "a\xf4\x90\x80\x80z", 4 },
		{ "U+1FFFFF", "a\xf7\xbf\xbf\xbfz", 4 },
		{ "5-byte form", "a\xf8\x88\x80\x80\x80z", 5 },
		{ "6-byte form", "a\xfc\x84\x80\x80\x80\x80z", 6 },
		{ "FE and FF", "a\xfe\xffz", 2 },
		{ "truncated 2-byte", "a\xc3z", 1 },
		{ "truncated 3-byte", "a\xe2\x82z", 2 },
		{ "truncated 4-byte", "a\xf0\x9f\x98z", 3 },
		{ "stray continuation bytes", "a\x80\xbfz", 2 },
		{ "lead byte before a lead byte", "a\xe2\xc3\xa9z", 1 },   /* then é */
	};
	uint32_t out[32];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = decode_all(cases[i].s, out);
		size_t bad = 0;
		for (size_t k = 0; k < n; k++)
			bad += out[k] == TEXT_BAD;
		if (out[0] != 'a' || out[n - 1] != 'z' || bad != cases[i].bad)
			fail_msg("%s: %zu characters, %zu refused, want %zu", cases[i].what, n, bad,
				 cases[i].bad);
		if (!strcmp(cases[i].what, "lead byte before a lead byte"))
			assert_int_equal(out[2], 0xe9);
		/* nothing past the NUL: a truncated sequence at the end */
		char cut[16];
		size_t len = strlen(cases[i].s) - 1;
		memcpy(cut, cases[i].s, len);
		cut[len] = 0;
		cut[len + 1] = (char)0x80;      /* a continuation a reader past the NUL would take */
		uint32_t out2[32];
		assert_int_equal(decode_all(cut, out2), n - 1);
		assert_memory_equal(out2, out, (n - 1) * sizeof *out);
	}
	/* the edges that are valid */
	static const struct { const char *s; uint32_t c; } ok[] = {
		{ "\xc2\x80", 0x80 }, { "\xdf\xbf", 0x7ff }, { "\xe0\xa0\x80", 0x800 },
		{ "\xed\x9f\xbf", 0xd7ff }, { "\xee\x80\x80", 0xe000 }, { "\xef\xbf\xbf", 0xffff },
		{ "\xf0\x90\x80\x80", 0x10000 }, { "\xf4\x8f\xbf\xbf", 0x10ffff },
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		assert_int_equal(decode_all(ok[i].s, out), 1);
		assert_int_equal(out[0], ok[i].c);
	}
}

/* The characters shown as '?': C0, DEL, C1, the bidirectional controls,
 * U+2028-2029, U+FEFF, and what is no character; their neighbours not. */
static void
controls(void **state)
{
	(void)state;
	static const uint32_t shown_as_q[] = {
		0x00, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0x9f, 0x061c, 0x200e, 0x200f, 0x2028, 0x2029,
		0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
		0xd800, 0xdfff, 0x110000, TEXT_BAD,
	};
	static const uint32_t shown[] = {
		0x20, 0x7e, 0xa0, 0xe9, 0x061b, 0x061d, 0x200d, 0x2010, 0x2027, 0x202f, 0x2065, 0x206a,
		0xd7ff, 0xe000, 0xfefe, 0xff00, 0xfffd, 0x1f600, 0x10ffff,
	};
	for (size_t i = 0; i < sizeof shown_as_q / sizeof shown_as_q[0]; i++)
		if (!text_is_control(shown_as_q[i]))
			fail_msg("U+%04X shown", shown_as_q[i]);
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
		if (text_is_control(shown[i]))
			fail_msg("U+%04X shown as '?'", shown[i]);
}

/* A name with a right-to-left override, an isolate, a mark, a line
 * separator, a byte-order mark, bytes that are not UTF-8 and characters
 * that are (2, 3 and 4 bytes). */
static const char hostile[] =
	"ev\xe2\x80\xae" "il\xe2\x81\xa6" "\xe2\x80\x8f" "\xd8\x9c" "\xe2\x80\xa8" "\xef\xbb\xbf"
	"|\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\x80" "X" "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "\xe2\x82";

static void
safe_text(void **state)
{
	(void)state;
	char buf[64];
	static const char want[] = "ev?il?????|??????????X\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80??";
	assert_string_equal(text_safe(hostile, buf, sizeof buf), want);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	text_put(f, hostile);
	fclose(f);
	assert_string_equal(out, want);
	free(out);
	/* clean text is itself, valid characters included */
	const char *clean = "r\xc3\xa9gion \xe2\x82\xac \xf0\x9f\x98\x80";
	assert_ptr_equal(text_safe(clean, buf, sizeof buf), clean);
	/* cut short at a character's end: never half of one, in the part
	 * before the first control as after it */
	const struct { const char *s, *shown; } cuts[] = {
		{ hostile, want },
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x1b\xc3\xa9", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80?\xc3\xa9" },
	};
	for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++)
		for (size_t n = 1; n <= strlen(cuts[c].shown) + 1; n++) {
			memset(buf, 'x', sizeof buf);
			assert_ptr_equal(text_safe(cuts[c].s, buf, n), buf);
			const unsigned char *p = (const unsigned char *)buf;
			while (*p)
				if (text_utf8_next(&p) == TEXT_BAD)
					fail_msg("cut to %zu bytes: '%s' is not UTF-8", n, buf);
			size_t k = strlen(buf);
			assert_true(k < n);
			assert_memory_equal(buf, cuts[c].shown, k);
			/* as much as fits: the next character would not */
			const unsigned char *q = (const unsigned char *)cuts[c].shown + k;
			if (*q) {
				text_utf8_next(&q);
				assert_true((size_t)((const char *)q - cuts[c].shown) >= n);
			}
		}
}

/* JSON carries every valid character, escapes the controls (bidi ones
 * too) as \uXXXX, and writes \ufffd for each byte that is not UTF-8. */
static void
json_escapes(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, f, 0);
	json_string(&j, hostile);
	json_finish(&j);
	fclose(f);
	assert_string_equal(buf, "\"ev\\u202eil\\u2066\\u200f\\u061c\\u2028\\ufeff|"
			    "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
			    "X\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\ufffd\\ufffd\"\n");
	free(buf);
}

/* The key map reads its file with the same decoder: an overlong '/'
 * (C0 AF, which bound '/') or any byte that is not UTF-8 is refused at
 * its line and column, so is a NUL inside a line; a key that is a
 * character beyond ASCII still binds. */
static void
keymap_strict(void **state)
{
	(void)state;
	struct keymap *km = keymap_create_empty();
	struct err e = { 0 };
	static const char overlong[] = "j move-down\n\xc0\xaf quit\n";
	assert_int_equal(keymap_parse_bytes(km, overlong, sizeof overlong - 1, "k.map", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.map:2:1: byte 0xc0 is not UTF-8");
	assert_int_not_equal(keymap_action(km, '/'), action_find("quit"));
	assert_int_equal(keymap_action(km, 'j'), action_find("move-down"));
	static const char nul[] = "q quit\0zzz\n";
	e = (struct err){ 0 };
	assert_int_equal(keymap_parse_bytes(km, nul, sizeof nul - 1, "k.map", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.map:1:7: a NUL byte in the line");
	static const char comment[] = "# \xed\xa0\x80\nq quit\n";
	e = (struct err){ 0 };
	assert_int_equal(keymap_parse_bytes(km, comment, sizeof comment - 1, "k.map", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "k.map:1:3: byte 0xed is not UTF-8");
	static const char bidi[] = "\xe2\x80\xae quit\n";
	e = (struct err){ 0 };
	assert_int_equal(keymap_parse_bytes(km, bidi, sizeof bidi - 1, "k.map", &e), ERR_FORMAT);
	assert_non_null(strstr(e.msg, "k.map:1:1: unknown key"));
	static const char good[] = "\xc3\xa9 quit\n\xf0\x9f\x98\x80 move-up\n";
	assert_int_equal(keymap_parse_bytes(km, good, sizeof good - 1, "k.map", &e), 0);
	assert_int_equal(keymap_action(km, 0xe9), action_find("quit"));
	assert_int_equal(keymap_action(km, 0x1f600), action_find("move-up"));
	keymap_destroy(km);

	/* key names and scripts: the same decoder */
	assert_int_equal(keymap_key_parse("\xc0\xaf", 2), 0);
	assert_int_equal(keymap_key_parse("\xed\xa0\x80", 3), 0);
	assert_int_equal(keymap_key_parse("\xe2\x80\xae", 3), 0);
	assert_int_equal(keymap_key_parse("\xc2\x9b", 2), 0);
	assert_int_equal(keymap_key_parse("\xc3\xa9", 2), 0xe9);
	uint32_t keys[8];
	size_t n;
	assert_int_equal(keymap_script("a\xc0\xaf", keys, 8, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_script("a\xe2\x80\xae", keys, 8, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_script("a\xc3\xa9 \xe2", keys, 8, &n, &e), ERR_USAGE);
	assert_int_equal(keymap_script("a\xc3\xa9 b", keys, 8, &n, &e), 0);
	assert_int_equal(n, 4);
	assert_int_equal(keys[1], 0xe9);
	assert_int_equal(keys[2], ' ');
}

/* Columns by text_char_width, worked out from Unicode 14's tables: East
 * Asian Wide and Fullwidth take two, marks and zero-width format
 * characters none, what shows as '?' one. */
static void
char_widths(void **state)
{
	(void)state;
	static const struct {
		uint32_t c;
		int w;
	} cases[] = {
		{ 'a', 1 }, { ' ', 1 }, { 0x7f, 1 }, { 0x9b, 1 },    /* DEL, CSI: '?' */
		{ 0xe9, 1 }, { 0xad, 1 },                            /* é, the soft hyphen a terminal shows */
		{ 0x2502, 1 }, { 0x2026, 1 }, { 0x2800, 1 },         /* │ … braille */
		{ 0x8a08, 2 }, { 0x30eb, 2 }, { 0xac00, 2 },         /* 計 ル 가 */
		{ 0xff21, 2 }, { 0x3000, 2 }, { 0x1100, 2 },         /* fullwidth A, ideographic space, a choseong */
		{ 0x1f680, 2 }, { 0x20000, 2 }, { 0x3fffd, 2 },      /* rocket, CJK extension B, plane 3 */
		{ 0xff61, 1 }, { 0x303f, 1 }, { 0x2600, 1 },         /* halfwidth 。, a half space, ☀ (neutral) */
		{ 0x1f1e6, 1 },                                      /* a regional indicator (neutral) */
		{ 0x0301, 0 }, { 0x20dd, 0 }, { 0x0e31, 0 },         /* acute, enclosing circle, Thai mai han-akat */
		{ 0x200b, 0 }, { 0x200d, 0 }, { 0xfe0f, 0 },         /* zero-width space, joiner, emoji selector */
		{ 0x1160, 0 }, { 0xd7b0, 0 }, { 0xe0001, 0 },        /* a jungseong, a jongseong, a language tag */
		{ 0x0903, 1 },                                       /* Devanagari visarga: a spacing mark */
		{ 0x202e, 1 }, { 0x200f, 1 }, { 0x061c, 1 },         /* bidirectional controls: '?' */
		{ 0x2066, 1 }, { 0x2028, 1 }, { 0xfeff, 1 },
		{ TEXT_BAD, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		if (text_char_width(cases[i].c) != cases[i].w)
			fail_msg("U+%04X: %d columns, not %d", cases[i].c, text_char_width(cases[i].c), cases[i].w);
	/* a string's width is its characters' sum, every code point alike */
	unsigned char b[8];
	for (uint32_t c = 1; c <= 0x10ffff; c += c < 0x3000 ? 1 : 7) {
		if (c >= 0xd800 && c <= 0xdfff)
			continue;
		b[encode(c, b)] = 0;
		if (text_width((const char *)b) != text_char_width(c))
			fail_msg("U+%04X: text_width %d, text_char_width %d", c, text_width((const char *)b),
				 text_char_width(c));
	}
}

/* Strings: ASCII, wide, combining, bytes that are no UTF-8 (each one
 * column: it shows as '?'), the controls text_safe replaces; a string
 * takes as many columns as text_safe's text of it. */
static void
string_widths(void **state)
{
	(void)state;
	assert_int_equal(text_width(""), 0);
	assert_int_equal(text_width(NULL), 0);
	assert_int_equal(text_width("MPI_Send"), 8);
	assert_int_equal(text_width("\u8a08\u7b97\u30eb\u30fc\u30d7_"), 11);
	assert_int_equal(text_width("cafe\u0301"), 4);
	assert_int_equal(text_width("\U0001F468\u200d\U0001F469"), 4);   /* two emoji, the joiner none */
	assert_int_equal(text_width("a\xff" "b"), 3);
	assert_int_equal(text_width("\xe8\xa8"), 2);                /* 計 cut short: two bytes, two '?' */
	assert_int_equal(text_width("\xc0\xaf"), 2);                /* an overlong '/' */
	assert_int_equal(text_width("x\u202e\u2066y\x1b"), 5);
	static const char *const mixed[] = {
		"ma\"in,\x1b[2J", "a\xff\xfe\u8a08", "\xe8\xa8\u0301", "re\u0301sume\u0301\u202e\u2028",
		"\xf0\x9f\x9a", "\xed\xa0\x80z", "\u00ad\u0600x",
	};
	for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++) {
		char buf[64];
		assert_int_equal(text_width(text_safe(mixed[i], buf, sizeof buf)), text_width(mixed[i]));
	}
}

/* The bytes of a number of columns: never half a wide character, the
 * accents on the last letter kept. */
static void
cols_bytes(void **state)
{
	(void)state;
	const char *s = "\u8a08a\U0001F680";    /* 3 bytes 2 columns, 1 and 1, 4 and 2 */
	assert_int_equal(text_cols_bytes(s, 0), 0);
	assert_int_equal(text_cols_bytes(s, 1), 0);
	assert_int_equal(text_cols_bytes(s, 2), 3);
	assert_int_equal(text_cols_bytes(s, 3), 4);
	assert_int_equal(text_cols_bytes(s, 4), 4);
	assert_int_equal(text_cols_bytes(s, 5), 8);
	assert_int_equal(text_cols_bytes(s, 99), 8);
	assert_int_equal(text_cols_bytes("e\u0301x", 1), 3);
	assert_int_equal(text_cols_bytes("\xff\xfe" "ab", 3), 3);
}

/* Names cut to a number of columns as the profile cuts them: "…" at the
 * cut, a place after '@' kept whole when four columns of the rest fit;
 * never more columns than asked, whatever the characters. */
static void
cut_names(void **state)
{
	(void)state;
	char buf[128];
	const char *omp = "!$omp implicit barrier @jacobi_target.c:412";
	assert_ptr_equal(text_cut(omp, 43, buf, sizeof buf), omp);            /* it fits */
	assert_string_equal(text_cut(omp, 32, buf, sizeof buf), "!$omp impli\u2026@jacobi_target.c:412");
	assert_string_equal(text_cut(omp, 25, buf, sizeof buf), "!$om\u2026@jacobi_target.c:412");
	assert_string_equal(text_cut(omp, 24, buf, sizeof buf), "!$omp implicit barrier \u2026");
	assert_string_equal(text_cut("@place_only_and_long", 8, buf, sizeof buf), "@place_\u2026");
	assert_string_equal(text_cut("MPI_Win_flush_local_all", 10, buf, sizeof buf), "MPI_Win_f\u2026");
	/* 計算ループ: two columns each; cut to 8 it keeps 6 and the "…" */
	assert_string_equal(text_cut("\u8a08\u7b97\u30eb\u30fc\u30d7", 8, buf, sizeof buf),
			    "\u8a08\u7b97\u30eb\u2026");
	assert_string_equal(text_cut("cafe\u0301_cafe\u0301", 5, buf, sizeof buf), "cafe\u0301\u2026");
	assert_string_equal(text_cut("\u8a08\u7b97\u8a08\u7b97 @\u30eb\u30fc.c:1", 14, buf, sizeof buf),
			    "\u8a08\u7b97\u2026@\u30eb\u30fc.c:1");
	const char *const names[] = {
		"\u8a08\u7b97\u30eb\u30fc\u30d7_\u4e3b\u8981\u90e8\u5206_\U0001F680\U0001F680_cafe\u0301",
		"x\U0001F680\U0001F680\U0001F680@\u8a08.c:9", "a\xff\xfe\xfd\xfc\xfb\xfa\xf9", omp,
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		for (int w = 2; w < 40; w++) {
			int whole = text_width(names[i]), n = text_width(text_cut(names[i], w, buf, sizeof buf));
			if (whole <= w ? n != whole : n > w || n < w - 1)
				fail_msg("'%s' cut to %d columns takes %d", names[i], w, n);
		}
}

/* A column of a text table is padded by columns: a wide name takes
 * fewer blanks than its bytes or characters would give it; what shows
 * as '?' one column; a name as wide as the column or wider, none. */
static void
safe_pad(void **state)
{
	(void)state;
	char buf[32];
	assert_string_equal(text_safe_pad("\u8a08a", 6, buf, sizeof buf), "\u8a08a   ");
	assert_string_equal(text_safe_pad("e\u0301\x1b", 4, buf, sizeof buf), "e\u0301?  ");
	assert_string_equal(text_safe_pad("a\xff", 4, buf, sizeof buf), "a?  ");
	assert_string_equal(text_safe_pad("ab", 2, buf, sizeof buf), "ab");
	assert_string_equal(text_safe_pad("toolong", 3, buf, sizeof buf), "toolong");
	assert_string_equal(text_safe_pad(NULL, 3, buf, sizeof buf), "   ");
	/* as printf pads ASCII */
	char want[32];
	snprintf(want, sizeof want, "%-20s", "MPI Rank 3");
	assert_string_equal(text_safe_pad("MPI Rank 3", 20, buf, sizeof buf), want);
	/* no room for the blanks: the text alone */
	char small[8];
	assert_string_equal(text_safe_pad("abc", 10, small, sizeof small), "abc");
}

/* Fills the stack below a caller's frame: what a returned pointer into
 * a callee's dead locals would read. */
static void __attribute__((noinline))
scribble(void)
{
	volatile char x[4096];
	for (size_t i = 0; i < sizeof x; i++)
		x[i] = 'x';
}

/* A column of exactly w columns: padded when short, cut as text_cut
 * cuts (a place after '@' kept) when long, made safe; the result is
 * the caller's buffer even when the cut fills the column exactly (it
 * was text_fit's own dead buffer: the report's rows lost their names). */
static void
fit_column(void **state)
{
	(void)state;
	char buf[64];
	const char *r = text_fit("abcdefghij", 6, buf, sizeof buf);
	scribble();
	assert_string_equal(r, "abcde\u2026");
	r = text_fit("\u8a08\u7b97\u30eb\u30fc\u30d7", 7, buf, sizeof buf);
	scribble();
	assert_string_equal(r, "\u8a08\u7b97\u30eb\u2026");
	assert_string_equal(text_fit("ab", 5, buf, sizeof buf), "ab   ");
	assert_string_equal(text_fit("a\x1b" "b", 4, buf, sizeof buf), "a?b ");
	r = text_fit("!$omp parallel @jacobi.c:122", 20, buf, sizeof buf);
	scribble();
	assert_string_equal(r, "!$omp \u2026@jacobi.c:122");
	assert_int_equal(text_width(r), 20);
}

/* Every buffer size, from none to more than enough: a cut or fitted
 * name is whole characters (text_safe leaves it as it is), fits its
 * buffer and its columns, and a cut ends in "…" (or "…@place") when it
 * is not empty
 * (both used to end in half a character when the buffer was short). */
static void
small_buffers(void **state)
{
	(void)state;
	static const char *names[] = {
		"\u8a08\u7b97\u30eb\u30fc\u30d7\u8a08\u7b97",
		"!$omp parallel @jacobi_\u8a08\u7b97.c:122",
		"cafe\u0301_cafe\u0301_cafe\u0301",
		"MPI_Win_flush_local_all",
		"\xf0\x9f\x98\x80\xf0\x9f\x98\x80 wide \xf0\x9f\x98\x80",
	};
	char buf[80], check[256];
	unsigned cuts = 0, short_cuts = 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		for (int w = 2; w <= 30; w++)
			for (size_t n = 0; n <= sizeof buf; n++) {
				memset(buf, 'x', sizeof buf);
				const char *r = text_cut(names[i], w, buf, n);
				if (r != names[i]) {
					cuts++;
					assert_true(strlen(r) < (n ? n : 1));
					assert_ptr_equal(text_safe(r, check, sizeof check), r);
					assert_true(text_width(r) <= w);
					size_t k = strlen(r);
					if (k)           /* "…" at the end, or before the place */
						assert_true(!strcmp(r + k - 3, "\u2026") ||
							    (strstr(r, "\u2026@") && !strchr(strstr(r, "\u2026@") + 4, '@')));
					else
						short_cuts++;
				}
				memset(buf, 'x', sizeof buf);
				r = text_fit(names[i], w, buf, n);
				if (r != names[i]) {
					assert_true(strlen(r) < (n ? n : 1));
					assert_ptr_equal(text_safe(r, check, sizeof check), r);
					assert_true(text_width(r) <= w);
				}
			}
	assert_true(cuts > 1000);
	assert_true(short_cuts > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decoder_round_trip),
		cmocka_unit_test(decoder_accepts_shortest_only),
		cmocka_unit_test(decoder_refuses_malformed),
		cmocka_unit_test(controls),
		cmocka_unit_test(safe_text),
		cmocka_unit_test(json_escapes),
		cmocka_unit_test(keymap_strict),
		cmocka_unit_test(char_widths),
		cmocka_unit_test(string_widths),
		cmocka_unit_test(cols_bytes),
		cmocka_unit_test(cut_names),
		cmocka_unit_test(safe_pad),
		cmocka_unit_test(fit_column),
		cmocka_unit_test(small_buffers),
	};
	return cmocka_run_group_tests_name("text safe for a terminal", tests, NULL, NULL);
}
