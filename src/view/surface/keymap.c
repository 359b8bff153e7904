/* keymap.c — key names, key scripts and bindings (see keymap.h). */
#include "keymap.h"

#include "base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct binding {
	uint32_t key;
	enum action act;
};

struct keymap {
	struct binding b[KEYMAP_MAX];
	int n;
};

/* The defaults. Conventions users know from less, vi and tig: arrows and
 * hjkl, PgUp/PgDn, g/G, / with n/N, : commands, ? help, q quit; Space or
 * Enter opens and closes a cluster, as in tree views. config/defaults.yaml
 * repeats this list (tests/test_config_keys.c keeps the two equal). */
static const char default_text[] =
	"# key     action\n"
	"Left      move-left\n"
	"h         move-left\n"
	"Right     move-right\n"
	"l         move-right\n"
	"Up        move-up\n"
	"k         move-up\n"
	"Down      move-down\n"
	"j         move-down\n"
	"S-Left    page-left\n"
	"H         page-left\n"
	"S-Right   page-right\n"
	"L         page-right\n"
	"PgUp      page-up\n"
	"C-b       page-up\n"
	"PgDn      page-down\n"
	"C-f       page-down\n"
	"Home      first-step\n"
	"0         first-step\n"
	"End       last-step\n"
	"$         last-step\n"
	"g         first-rank\n"
	"G         last-rank\n"
	"]         next-partition\n"
	"[         prev-partition\n"
	">         next-hotspot\n"
	"<         prev-hotspot\n"
	"c         goto-cause\n"
	"/         search\n"
	"n         search-next\n"
	"N         search-prev\n"
	":         command\n"
	"Tab       next-pane\n"
	"BTab      prev-pane\n"
	"+         zoom-in\n"
	"=         zoom-in\n"
	"-         zoom-out\n"
	"z         zoom-ranks-in\n"
	"Z         zoom-ranks-out\n"
	"f         zoom-fit\n"
	"1         zoom-reset\n"
	"m         metric-next\n"
	"M         metric-prev\n"
	"S         startup\n"
	"?         help\n"
	"F1        help\n"
	"Esc       close\n"
	"C-l       redraw\n"
	"q         quit\n"
	"C         clusters\n"
	"Space     cluster-toggle\n"
	"Enter     cluster-toggle\n"
	"}         cluster-split\n"
	"{         cluster-join\n"
	"E         cluster-expand-all\n"
	"X         cluster-collapse-all\n"
	"t         topology\n"
	"d         histogram\n"
	"v         pane-mode\n"
	"o         pane-metric\n"
	"w         pane-scope\n"
	"e         pane-ends\n"
	"p         profile\n"
	"a         communication\n"
	"i         lists\n"
	"T         timeline\n"
	"|         select-or\n"
	"&         select-and\n"
	"x         select-clear\n"
	"s         select-mark\n";

static const struct {
	const char *name;
	uint32_t key;
} key_names[] = {
	{ "Left", KM_LEFT }, { "Right", KM_RIGHT }, { "Up", KM_UP }, { "Down", KM_DOWN },
	{ "PgUp", KM_PGUP }, { "PgDn", KM_PGDN }, { "Home", KM_HOME }, { "End", KM_END },
	{ "S-Left", KM_SLEFT }, { "S-Right", KM_SRIGHT },
	{ "Tab", KM_TAB }, { "BTab", KM_BTAB }, { "Enter", KM_ENTER }, { "Esc", KM_ESC },
	{ "Backspace", KM_BACKSPACE }, { "Delete", KM_DELETE }, { "Insert", KM_INSERT },
	{ "F1", KM_F1 }, { "F2", KM_F2 }, { "F3", KM_F3 }, { "F4", KM_F4 }, { "F5", KM_F5 },
	{ "F6", KM_F6 }, { "F7", KM_F7 }, { "F8", KM_F8 }, { "F9", KM_F9 }, { "F10", KM_F10 },
	{ "F11", KM_F11 }, { "F12", KM_F12 },
	{ "Space", ' ' }, { "lt", '<' },
};

static const char *const mouse_names[MOUSE_KINDS] = {
	"Click", "MiddleClick", "RightClick", "WheelUp", "WheelDown", "Release",
};

uint32_t
keymap_mouse(enum km_mouse_kind kind, int x, int y)
{
	x = x < 0 ? 0 : x > 16383 ? 16383 : x;
	y = y < 0 ? 0 : y > 16383 ? 16383 : y;
	return KM_MOUSE | (uint32_t)kind << 28 | (uint32_t)x << 14 | (uint32_t)y;
}

int
keymap_mouse_decode(uint32_t key, enum km_mouse_kind *kind, int *x, int *y)
{
	uint32_t k = (key >> 28) & 7;
	if (!(key & KM_MOUSE) || k >= MOUSE_KINDS)
		return 0;
	*kind = (enum km_mouse_kind)k;
	*x = (int)((key >> 14) & 0x3fff);
	*y = (int)(key & 0x3fff);
	return 1;
}

#define RESIZE_KIND 7u

uint32_t
keymap_resize(int w, int h)
{
	return KM_MOUSE | RESIZE_KIND << 28 | (uint32_t)w << 14 | (uint32_t)h;
}

int
keymap_resize_decode(uint32_t key, int *w, int *h)
{
	if (!(key & KM_MOUSE) || ((key >> 28) & 7) != RESIZE_KIND)
		return 0;
	*w = (int)((key >> 14) & 0x3fff);
	*h = (int)(key & 0x3fff);
	return 1;
}

/* "Resize:80x24" (key scripts only), or 0. */
static uint32_t
resize_parse(const char *name, size_t len)
{
	static const char pre[] = "Resize:";
	size_t nl = sizeof pre - 1;
	if (len <= nl || memcmp(name, pre, nl) != 0)
		return 0;
	char buf[32];
	snprintf(buf, sizeof buf, "%.*s", (int)(len - nl < 31 ? len - nl : 31), name + nl);
	int w, h, end = 0;
	if (sscanf(buf, "%dx%d%n", &w, &h, &end) != 2 || buf[end] || w < 1 || h < 1 || w > 10000 || h > 10000)
		return 0;
	return keymap_resize(w, h);
}

/* "Click:12,5" and the other mouse names, or 0. */
static uint32_t
mouse_parse(const char *name, size_t len)
{
	for (int k = 0; k < MOUSE_KINDS; k++) {
		size_t nl = strlen(mouse_names[k]);
		if (len <= nl + 1 || memcmp(name, mouse_names[k], nl) != 0 || name[nl] != ':')
			continue;
		char buf[32];
		snprintf(buf, sizeof buf, "%.*s", (int)(len - nl - 1 < 31 ? len - nl - 1 : 31), name + nl + 1);
		int x, y, end = 0;
		if (sscanf(buf, "%d,%d%n", &x, &y, &end) != 2 || buf[end] || x < 0 || y < 0 || x > 16383 || y > 16383)
			return 0;
		return keymap_mouse((enum km_mouse_kind)k, x, y);
	}
	return 0;
}
#define N_KEY_NAMES (sizeof key_names / sizeof key_names[0])

const char *
keymap_default_text(void)
{
	return default_text;
}

struct keymap *
keymap_create(void)
{
	struct keymap *km = calloc(1, sizeof *km);
	if (!km)
		return NULL;
	if (keymap_parse(km, default_text, "built-in keys", NULL)) {
		free(km);
		return NULL;
	}
	return km;
}

struct keymap *
keymap_create_empty(void)
{
	return calloc(1, sizeof(struct keymap));
}

void
keymap_destroy(struct keymap *km)
{
	free(km);
}

/* The character s[0..len) as a key: printable ASCII, or one character
 * of strict UTF-8 (base/text.h) that is no control; else 0. Bytes after
 * s[len] may be read up to the string's NUL. */
static uint32_t
one_char(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *q = p;
	if (len == 1)
		return p[0] > 0x20 && p[0] < 0x7f ? p[0] : 0;
	if (len == 0 || p[0] < 0x80)
		return 0;
	uint32_t c = text_utf8_next(&q);
	return (size_t)(q - p) == len && !text_is_control(c) ? c : 0;
}

uint32_t
keymap_key_parse(const char *name, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < N_KEY_NAMES; i++)
		if (strlen(key_names[i].name) == len && memcmp(key_names[i].name, name, len) == 0)
			return key_names[i].key;
	if (len == 3 && name[0] == 'C' && name[1] == '-' && name[2] >= 'a' && name[2] <= 'z')
		return KM_CTRL(name[2]);
	uint32_t m = mouse_parse(name, len);
	return m ? m : one_char(name, len);
}

const char *
keymap_key_name(uint32_t key, char *buf)
{
	for (size_t i = 0; i < N_KEY_NAMES; i++)
		if (key_names[i].key == key && key != '<') {
			snprintf(buf, 16, "%s", key_names[i].name);
			return buf;
		}
	if (key >= 1 && key <= 26) {
		snprintf(buf, 16, "C-%c", (char)('a' + key - 1));
		return buf;
	}
	enum km_mouse_kind mk;
	int mx, my;
	if (keymap_mouse_decode(key, &mk, &mx, &my)) {
		snprintf(buf, 16, "%s", mouse_names[mk]);
		return buf;
	}
	if (key <= 0x20 || key >= KM_BASE) {
		snprintf(buf, 16, "?");
		return buf;
	}
	/* UTF-8 by hand: src/ stays free of locale-dependent calls */
	char *p = buf;
	if (key < 0x80) {
		*p++ = (char)key;
	} else if (key < 0x800) {
		*p++ = (char)(0xc0 | (key >> 6));
		*p++ = (char)(0x80 | (key & 0x3f));
	} else if (key < 0x10000) {
		*p++ = (char)(0xe0 | (key >> 12));
		*p++ = (char)(0x80 | ((key >> 6) & 0x3f));
		*p++ = (char)(0x80 | (key & 0x3f));
	} else {
		*p++ = (char)(0xf0 | (key >> 18));
		*p++ = (char)(0x80 | ((key >> 12) & 0x3f));
		*p++ = (char)(0x80 | ((key >> 6) & 0x3f));
		*p++ = (char)(0x80 | (key & 0x3f));
	}
	*p = 0;
	return buf;
}

int
keymap_bind(struct keymap *km, uint32_t key, enum action act)
{
	for (int i = 0; i < km->n; i++)
		if (km->b[i].key == key) {
			km->b[i].act = act;
			return 0;
		}
	if (km->n == KEYMAP_MAX)
		return ERR_LIMIT;
	km->b[km->n++] = (struct binding){ key, act };
	return 0;
}

/* The first byte of [p, eol) that is a NUL or begins no UTF-8 character
 * (text_utf8_next), or NULL; *eol is '\n' or the text's NUL. */
static const char *
bad_byte(const char *p, const char *eol)
{
	const unsigned char *q = (const unsigned char *)p;
	while (q < (const unsigned char *)eol) {
		const unsigned char *c = q;
		if (!*q || text_utf8_next(&q) == TEXT_BAD)
			return (const char *)c;
	}
	return NULL;
}

int
keymap_parse(struct keymap *km, const char *text, const char *origin, struct err *e)
{
	return keymap_parse_bytes(km, text, strlen(text), origin, e);
}

int
keymap_parse_bytes(struct keymap *km, const char *text, size_t len, const char *origin,
		   struct err *e)
{
	int line = 1;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		/* a key map is UTF-8 text: a NUL (which ended the line here
		 * before, the rest unread) or a byte that is not UTF-8 (C0 AF,
		 * the overlong '/', bound '/') is no key, wherever it is */
		const char *bad = bad_byte(p, eol);
		if (bad && !*bad)
			return err_set(e, ERR_FORMAT, "%s:%d:%d: a NUL byte in the line", origin, line,
				       (int)(bad - p) + 1);
		if (bad)
			return err_set(e, ERR_FORMAT, "%s:%d:%d: byte 0x%02x is not UTF-8", origin, line,
				       (int)(bad - p) + 1, (unsigned char)*bad);
		const char *s = p;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s < eol && *s != '#') {
			const char *k = s;
			while (s < eol && *s != ' ' && *s != '\t')
				s++;
			size_t klen = (size_t)(s - k);
			while (s < eol && (*s == ' ' || *s == '\t'))
				s++;
			const char *a = s;
			while (s < eol && *s != ' ' && *s != '\t' && *s != '\r')
				s++;
			size_t alen = (size_t)(s - a);
			while (s < eol && (*s == ' ' || *s == '\t' || *s == '\r'))
				s++;
			uint32_t key = keymap_key_parse(k, klen);
			if (!key)
				return err_set(e, ERR_FORMAT, "%s:%d:%d: unknown key '%.*s'", origin, line,
					       (int)(k - p) + 1, (int)klen, k);
			if (alen == 0)
				return err_set(e, ERR_FORMAT, "%s:%d:%d: key '%.*s' has no action", origin,
					       line, (int)(a - p) + 1, (int)klen, k);
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(alen < 63 ? alen : 63), a);
			enum action act = action_find(name);
			if (act == ACT_NONE && strcmp(name, "none") != 0)
				return err_set(e, ERR_FORMAT, "%s:%d:%d: unknown action '%s'", origin, line,
					       (int)(a - p) + 1, name);
			if (s < eol)
				return err_set(e, ERR_FORMAT, "%s:%d:%d: unexpected text after the action",
					       origin, line, (int)(s - p) + 1);
			if (keymap_bind(km, key, act))
				return err_set(e, ERR_LIMIT, "%s:%d:1: more than %d key bindings, the most "
					       "skein keeps", origin, line, KEYMAP_MAX);
		}
		p = eol < end ? eol + 1 : eol;
		line++;
	}
	return 0;
}

enum action
keymap_action(const struct keymap *km, uint32_t key)
{
	for (int i = 0; i < km->n; i++)
		if (km->b[i].key == key)
			return km->b[i].act;
	return ACT_NONE;
}

int
keymap_keys(const struct keymap *km, enum action a, char *buf, size_t n)
{
	int count = 0;
	size_t len = 0;
	if (n)
		buf[0] = 0;
	for (int i = 0; i < km->n; i++) {
		if (km->b[i].act != a)
			continue;
		char name[16];
		keymap_key_name(km->b[i].key, name);
		int w = snprintf(buf + len, len < n ? n - len : 0, "%s%s", count ? ", " : "", name);
		if (w > 0)
			len += (size_t)w;
		if (len >= n)
			len = n ? n - 1 : 0;
		count++;
	}
	return count;
}

const char *
keymap_first_key(const struct keymap *km, enum action a, char *buf, size_t n)
{
	if (keymap_keys(km, a, buf, n) == 0)
		return buf;
	char *comma = strstr(buf, ", ");
	if (comma)
		*comma = 0;
	return buf;
}

int
keymap_script(const char *s, uint32_t *keys, size_t max, size_t *n, struct err *e)
{
	size_t k = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (k == max)
			return err_set(e, ERR_USAGE, "key script longer than %zu keys", max);
		if (*p == '<') {
			const char *close = strchr((const char *)p, '>');
			size_t nl = close ? (size_t)(close - (const char *)p - 1) : 0;
			uint32_t key = close ? keymap_key_parse((const char *)p + 1, nl) : 0;
			if (close && !key)
				key = resize_parse((const char *)p + 1, nl);
			if (!close)
				return err_set(e, ERR_USAGE, "'<' without its '>' at offset %zu of the key script"
					       " (write <lt> for '<')", (size_t)(p - (const unsigned char *)s));
			if (!key)
				return err_set(e, ERR_USAGE, "unknown key name '%.*s' at offset %zu of the key script"
					       " (write <lt> for '<')", (int)(close - (const char *)p + 1) > 40 ? 40
					       : (int)(close - (const char *)p + 1), (const char *)p,
					       (size_t)(p - (const unsigned char *)s));
			keys[k++] = key;
			p = (const unsigned char *)close + 1;
			continue;
		}
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		uint32_t key = *p == '\n' ? KM_ENTER : *p == '\t' ? KM_TAB : *p == 0x1b ? KM_ESC
			: *p <= 0x20 ? *p : text_is_control(c) ? 0 : c;
		if (!key)
			return err_set(e, ERR_USAGE, "bad character at offset %zu of the key script",
				       (size_t)(p - (const unsigned char *)s));
		keys[k++] = key;
		p = q;
	}
	*n = k;
	return 0;
}
