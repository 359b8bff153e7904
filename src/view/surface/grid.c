/* grid.c — cell grid, style mapping and the text back end (see grid.h). */
#include "grid.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/text.h"

struct grid *
grid_create(int w, int h)
{
	struct grid *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	if (grid_resize(g, w, h)) {
		free(g);
		return NULL;
	}
	return g;
}

void
grid_destroy(struct grid *g)
{
	if (!g)
		return;
	free(g->cells);
	free(g);
}

int
grid_resize(struct grid *g, int w, int h)
{
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	size_t n = (size_t)w * (size_t)h;
	struct cell *c = malloc((n ? n : 1) * sizeof *c);
	if (!c)
		return ERR_NOMEM;
	free(g->cells);
	g->cells = c;
	g->w = w;
	g->h = h;
	grid_clear(g);
	return 0;
}

void
grid_clear(struct grid *g)
{
	size_t n = (size_t)g->w * (size_t)g->h;
	for (size_t i = 0; i < n; i++)
		g->cells[i] = (struct cell){ .ch = ' ', .style = ST_NORMAL };
}

struct cell *
grid_at(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

void
grid_put(struct grid *g, int x, int y, uint32_t ch, int style)
{
	struct cell *c = grid_at(g, x, y);
	if (!c)
		return;
	/* half of a wide character overwritten: its other half goes too,
	 * or the terminal would show half a character */
	struct cell *next = grid_at(g, x + 1, y), *prev = grid_at(g, x - 1, y);
	if (next && next->ch == GRID_WIDE_TAIL && c->ch != GRID_WIDE_TAIL)
		next->ch = ' ';
	if (prev && c->ch == GRID_WIDE_TAIL && ch != GRID_WIDE_TAIL) {
		prev->ch = ' ';
		memset(prev->comb, 0, sizeof prev->comb);
	}
	*c = (struct cell){ .ch = ch, .style = (uint8_t)style };
}

void
grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch, int style)
{
	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++)
			grid_put(g, i, j, ch, style);
}

void
grid_mark(struct grid *g, int x, int y, int w, int h, int mark)
{
	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++) {
			struct cell *c = grid_at(g, i, j);
			if (c)
				c->mark |= (uint8_t)mark;
		}
}

/* 1 for a character of no column that a terminal draws on the one
 * before it without changing its width: a combining mark, a Hangul
 * vowel or final of a syllable; 0 for the joiners and other format
 * characters (U+200B-200D, U+2060-206F, U+180E, U+FFF9-FFFB), the
 * variation selectors (U+FE00-FE0F, U+180B-180D and U+180F,
 * U+E0100-E01EF: an emoji's selects a presentation two columns wide)
 * and the tags (U+E0001-E007F). */
static int
joins_before(uint32_t c)
{
	return text_char_width(c) == 0 && !(c >= 0x200b && c <= 0x200d) && !(c >= 0x2060 && c <= 0x206f) &&
		!(c >= 0x180b && c <= 0x180f) && !(c >= 0xfe00 && c <= 0xfe0f) && !(c >= 0xfff9 && c <= 0xfffb) &&
		c < 0xe0000;
}

/* Decodes one UTF-8 sequence at *s; invalid bytes decode as '?'. */
int
grid_text(struct grid *g, int x, int y, int maxw, int style, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;
	struct cell *last = NULL;       /* the character written last, for its accents */
	while (*p) {
		uint32_t c = text_utf8_next(&p);
		if (text_is_control(c))
			c = '?';
		int cw = text_char_width(c);
		if (cw == 0) {
			int k = 0;
			while (last && k < GRID_COMB && last->comb[k])
				k++;
			if (last && k < GRID_COMB && joins_before(c))
				last->comb[k] = c;
			continue;
		}
		if (n + cw > maxw)
			break;
		grid_put(g, x + n, y, c, style);
		last = grid_at(g, x + n, y);
		if (cw == 2)
			grid_put(g, x + n + 1, y, GRID_WIDE_TAIL, style);
		n += cw;
	}
	return n;
}

int
grid_printf(struct grid *g, int x, int y, int maxw, int style, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return grid_text(g, x, y, maxw, style, buf);
}

int
grid_text_whole(struct grid *g, int x, int y, int maxw, int style, const char *s)
{
	return text_width(s) <= maxw ? grid_text(g, x, y, maxw, style, s) : 0;
}

size_t
grid_wrap(const char *s, int w)
{
	if (text_width(s) <= w)
		return strlen(s);
	size_t lim = text_cols_bytes(s, w), cut = lim;
	while (cut > 0 && (s[cut] != ' ' || (s[cut - 1] >= '0' && s[cut - 1] <= '9')))
		cut--;
	/* a list of " · " fields breaks after a separator, so that no field
	 * ("local step 0", "mostly exchange") is split, unless that leaves
	 * the line less than half full ("W wait, · computation": after a
	 * comma it is the glyph) */
	for (size_t k = lim; k >= 3 && k > lim / 2; k--)
		if (s[k] == ' ' && !memcmp(s + k - 3, " \u00b7", 3) && (k < 4 || s[k - 4] != ','))
			return k;
	return cut ? cut : lim;
}

void
grid_box(struct grid *g, int x, int y, int w, int h, int style, const char *title, int title_style)
{
	if (w < 2 || h < 2)
		return;
	grid_put(g, x, y, 0x250c, style);
	grid_put(g, x + w - 1, y, 0x2510, style);
	grid_put(g, x, y + h - 1, 0x2514, style);
	grid_put(g, x + w - 1, y + h - 1, 0x2518, style);
	grid_fill(g, x + 1, y, w - 2, 1, 0x2500, style);
	grid_fill(g, x + 1, y + h - 1, w - 2, 1, 0x2500, style);
	grid_fill(g, x, y + 1, 1, h - 2, 0x2502, style);
	grid_fill(g, x + w - 1, y + 1, 1, h - 2, 0x2502, style);
	if (title && *title && w > 4) {
		grid_put(g, x + 1, y, ' ', title_style);
		int n = grid_text(g, x + 2, y, w - 4, title_style, title);
		grid_put(g, x + 2 + n, y, ' ', title_style);
	}
}

uint32_t
grid_ascii(uint32_t ch)
{
	if (ch < 0x80)
		return ch;
	if (ch >= 0x2800 && ch <= 0x28ff) {      /* braille: by the dots set */
		int dots = 0;
		for (uint32_t b = ch - 0x2800; b; b &= b - 1)
			dots++;
		return dots == 0 ? ' ' : dots <= 2 ? '.' : dots <= 4 ? ':' : dots <= 6 ? '+' : '#';
	}
	switch (ch) {
	case 0x2500: case 0x2501: case 0x2574: case 0x2576: return '-';
	case 0x2502: case 0x2503: case 0x2577: case 0x2575: return '|';
	case 0x250c: case 0x2510: case 0x2514: case 0x2518:
	case 0x251c: case 0x2524: case 0x252c: case 0x2534: case 0x253c: return '+';
	case 0x00b7: case 0x2219: return '.';
	case 0x2581: return '_';
	case 0x2582: return '.';
	case 0x2583: return ':';
	case 0x2584: return '-';
	case 0x2585: return '=';
	case 0x2586: return '+';
	case 0x2587: return '*';
	case 0x2588: return '#';
	case 0x2591: return '.';
	case 0x2592: return ':';
	case 0x2593: return '%';
	case 0x25a0: case 0x25aa: return '#';
	case 0x2190: return '<';
	case 0x2192: return '>';
	case 0x2191: return '^';
	case 0x2193: return 'v';
	case 0x25b2: return '^';
	case 0x25b8: return '>';
	case 0x25c2: return '<';
	case 0x2022: case 0x25cf: return '*';
	case 0x25be: return 'v';
	case 0x2013: case 0x2014: return '-';
	case 0x2026: return '~';
	case 0x00d7: return 'x';
	case 0x00b5: return 'u';
	case 0x2550: return '=';
	case 0x256a: case 0x253f: return '+';
	case 0x2551: return '|';
	}
	return '?';
}

/* ---- styles ---------------------------------------------------------- */

struct style_map {
	int16_t fg256, bg256;
	uint8_t attr256;
	int8_t fg8, bg8;
	uint8_t attr8;
	uint8_t mono;
};

/* Colour numbers are the terminal's: 0-7 the ANSI colours (black, red,
 * green, yellow, blue, magenta, cyan, white), 16-255 the xterm cube and
 * grey ramp. The heat ramp runs grey → yellow → red so that "late" reads
 * as hot on light and dark backgrounds alike. */
static const struct style_map style_map[ST_COUNT] = {
	[ST_NORMAL]       = { -1, -1, 0, -1, -1, 0, 0 },
	[ST_BAR]          = { 255, 24, 0, 7, 4, 0, ATTR_REVERSE },
	[ST_BAR_KEY]      = { 229, 24, ATTR_BOLD, 3, 4, ATTR_BOLD, ATTR_REVERSE | ATTR_BOLD },
	[ST_BORDER]       = { 242, -1, 0, -1, -1, 0, 0 },
	[ST_BORDER_FOCUS] = { 75, -1, ATTR_BOLD, 6, -1, ATTR_BOLD, ATTR_BOLD },
	[ST_TITLE]        = { -1, -1, ATTR_BOLD, -1, -1, ATTR_BOLD, ATTR_BOLD },
	[ST_LABEL]        = { 245, -1, 0, -1, -1, 0, 0 },
	[ST_DIM]          = { 242, -1, 0, -1, -1, ATTR_DIM, ATTR_DIM },
	[ST_EMPH]         = { 229, -1, ATTR_BOLD, 3, -1, ATTR_BOLD, ATTR_BOLD },
	[ST_ERROR]        = { 196, -1, ATTR_BOLD, 1, -1, ATTR_BOLD, ATTR_BOLD | ATTR_UNDERLINE },
	[ST_HEAT0]        = { 240, -1, 0, -1, -1, ATTR_DIM, ATTR_DIM },
	[ST_HEAT1]        = { 250, -1, 0, -1, -1, 0, 0 },
	[ST_HEAT2]        = { 229, -1, 0, 6, -1, 0, 0 },
	[ST_HEAT3]        = { 227, -1, 0, 2, -1, 0, 0 },
	[ST_HEAT4]        = { 220, -1, ATTR_BOLD, 3, -1, 0, ATTR_BOLD },
	[ST_HEAT5]        = { 214, -1, ATTR_BOLD, 3, -1, ATTR_BOLD, ATTR_BOLD },
	[ST_HEAT6]        = { 202, -1, ATTR_BOLD, 1, -1, 0, ATTR_BOLD | ATTR_UNDERLINE },
	[ST_HEAT7]        = { 196, -1, ATTR_BOLD, 1, -1, ATTR_BOLD, ATTR_BOLD | ATTR_UNDERLINE },
	[ST_CAT0]         = { 39, -1, 0, 4, -1, ATTR_BOLD, 0 },
	[ST_CAT1]         = { 113, -1, 0, 2, -1, 0, ATTR_BOLD },
	[ST_CAT2]         = { 214, -1, 0, 3, -1, 0, 0 },
	[ST_CAT3]         = { 170, -1, 0, 5, -1, 0, ATTR_BOLD },
	[ST_CAT4]         = { 44, -1, 0, 6, -1, 0, 0 },
	[ST_CAT5]         = { 203, -1, 0, 1, -1, 0, ATTR_BOLD },
	[ST_CAT6]         = { 227, -1, 0, 3, -1, ATTR_BOLD, 0 },
	[ST_CAT7]         = { 249, -1, 0, 7, -1, 0, ATTR_BOLD },
};

struct grid_attr
grid_attr(int style, int mark, enum grid_depth depth)
{
	struct grid_attr a = { -1, -1, 0 };
	if (style < 0 || style >= ST_COUNT)
		style = ST_NORMAL;
	const struct style_map *m = &style_map[style];
	switch (depth) {
	case DEPTH_NONE:
		return a;
	case DEPTH_MONO:
		/* partners in reverse video without bold: never the hottest
		 * level's bold underline, never the selection's bold reverse */
		a.attr = m->mono;
		if (mark & MARK_PARTNER)
			a.attr = (uint8_t)((a.attr & ~(ATTR_BOLD | ATTR_DIM)) | ATTR_REVERSE);
		break;
	case DEPTH_8:
		a.fg = m->fg8;
		a.bg = m->bg8;
		a.attr = m->attr8;
		if (mark & MARK_PARTNER)
			a.bg = 2;
		if (mark & MARK_WINDOW)
			a.attr |= ATTR_BOLD;
		break;
	case DEPTH_256:
		a.fg = m->fg256;
		a.bg = m->bg256;
		a.attr = m->attr256;
		if ((mark & MARK_ALT) && a.bg < 0)
			a.bg = 236;
		if ((mark & MARK_WINDOW) && a.bg < 0)
			a.bg = 238;
		if (mark & MARK_PARTNER)
			a.bg = 22;
		break;
	}
	if (mark & MARK_MIXED)
		a.attr |= ATTR_UNDERLINE;
	if (mark & MARK_SEL) {
		a.attr |= ATTR_REVERSE | ATTR_BOLD;
		a.attr &= (uint8_t)~ATTR_DIM;
		a.bg = -1;
	}
	return a;
}

/* ---- text back end ---------------------------------------------------- */

int
grid_utf8(uint32_t ch, char *buf)
{
	int n;
	if (ch < 0x80) {
		buf[0] = (char)ch;
		n = 1;
	} else if (ch < 0x800) {
		buf[0] = (char)(0xc0 | (ch >> 6));
		buf[1] = (char)(0x80 | (ch & 0x3f));
		n = 2;
	} else if (ch < 0x10000) {
		buf[0] = (char)(0xe0 | (ch >> 12));
		buf[1] = (char)(0x80 | ((ch >> 6) & 0x3f));
		buf[2] = (char)(0x80 | (ch & 0x3f));
		n = 3;
	} else {
		buf[0] = (char)(0xf0 | (ch >> 18));
		buf[1] = (char)(0x80 | ((ch >> 12) & 0x3f));
		buf[2] = (char)(0x80 | ((ch >> 6) & 0x3f));
		buf[3] = (char)(0x80 | (ch & 0x3f));
		n = 4;
	}
	buf[n] = 0;
	return n;
}

static void
sgr_colour(FILE *out, int base, int c, enum grid_depth depth)
{
	if (c < 0)
		return;
	if (depth == DEPTH_256)
		fprintf(out, ";%d;5;%d", base + 8, c);
	else
		fprintf(out, ";%d", base + c);
}

static void
sgr(FILE *out, struct grid_attr a, enum grid_depth depth)
{
	fputs("\033[0", out);
	if (a.attr & ATTR_BOLD)
		fputs(";1", out);
	if (a.attr & ATTR_DIM)
		fputs(";2", out);
	if (a.attr & ATTR_UNDERLINE)
		fputs(";4", out);
	if (a.attr & ATTR_REVERSE)
		fputs(";7", out);
	sgr_colour(out, 30, a.fg, depth);
	sgr_colour(out, 40, a.bg, depth);
	fputc('m', out);
}

static int
attr_eq(struct grid_attr a, struct grid_attr b)
{
	return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

int
grid_write(const struct grid *g, FILE *out, enum grid_depth depth, int ascii)
{
	const struct grid_attr plain = { -1, -1, 0 };
	char buf[8];
	for (int y = 0; y < g->h; y++) {
		const struct cell *row = &g->cells[(size_t)y * (size_t)g->w];
		int end = g->w;
		if (depth == DEPTH_NONE)
			while (end > 0 && row[end - 1].ch == ' ')
				end--;
		struct grid_attr cur = plain;
		for (int x = 0; x < end; x++) {
			/* a wide character's second cell: the character covers it
			 * (in ASCII, where it is one '?', a space) */
			if (row[x].ch == GRID_WIDE_TAIL && !ascii)
				continue;
			if (depth != DEPTH_NONE) {
				struct grid_attr a = grid_attr(row[x].style, row[x].mark, depth);
				if (!attr_eq(a, cur)) {
					sgr(out, a, depth);
					cur = a;
				}
			}
			uint32_t ch = row[x].ch == GRID_WIDE_TAIL ? ' ' : ascii ? grid_ascii(row[x].ch) : row[x].ch;
			grid_utf8(ch, buf);
			fputs(buf, out);
			for (int k = 0; !ascii && k < GRID_COMB && row[x].comb[k]; k++) {
				grid_utf8(row[x].comb[k], buf);
				fputs(buf, out);
			}
		}
		if (!attr_eq(cur, plain))
			fputs("\033[0m", out);
		fputc('\n', out);
	}
	return ferror(out) ? ERR_IO : 0;
}
