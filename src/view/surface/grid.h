/* grid.h — the cell grid every screen is drawn into, and its text back end.
 *
 * A grid is W × H cells; a cell is one Unicode code point (one column
 * wide) with the combining marks drawn on it, a semantic style and a
 * set of marks. Views fill cells; a back end turns them into output:
 * tui/screen.c hands them to ncurses, and grid_write() prints them as
 * plain text or with ANSI colour (for `skein render` and the
 * golden-screen tests). Both back ends map styles through grid_attr(),
 * so the colours cannot drift apart.
 *
 * Lifetime: grid_create → grid_resize… → grid_destroy. Cells are owned
 * by the grid; pointers into them are valid until the next resize.
 */
#ifndef SKEIN_GRID_H
#define SKEIN_GRID_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/text.h"          /* the columns text takes: text_width, text_cols_bytes */

/* What a cell means; back ends decide what that looks like. */
enum grid_style {
	ST_NORMAL,
	ST_BAR,            /* status line and footer */
	ST_BAR_KEY,        /* a key name or value in a bar */
	ST_BORDER,
	ST_BORDER_FOCUS,   /* the border of the pane that has the focus */
	ST_TITLE,
	ST_LABEL,          /* axis and rank labels */
	ST_DIM,            /* secondary text, empty cells */
	ST_EMPH,           /* values worth a second look */
	ST_ERROR,
	ST_HEAT0, ST_HEAT1, ST_HEAT2, ST_HEAT3,   /* a metric's 8 shades, */
	ST_HEAT4, ST_HEAT5, ST_HEAT6, ST_HEAT7,   /* low to high */
	ST_CAT0, ST_CAT1, ST_CAT2, ST_CAT3,       /* 8 categorical colours */
	ST_CAT4, ST_CAT5, ST_CAT6, ST_CAT7,
	ST_COUNT
};

#define GRID_HEAT_LEVELS 8
#define GRID_CATS 8

/* Marks combine with any style. */
enum {
	MARK_ALT = 1,       /* alternate (odd) partition background */
	MARK_SEL = 2,       /* the selection */
	MARK_PARTNER = 4,   /* a message partner of the selection */
	MARK_WINDOW = 8,    /* the part of the overview in view */
	MARK_MIXED = 16,    /* a cell standing for several kinds of operation */
};

/* The second cell of a character two columns wide (CJK, most emoji):
 * the back ends draw nothing there, the character before covers it. */
#define GRID_WIDE_TAIL 0x110000u

/* Combining marks a cell keeps on its character ("e" and U+0301 are
 * one "é"; Vietnamese letters take two): a third is left out. */
#define GRID_COMB 2

struct cell {
	uint32_t ch;        /* Unicode code point one column wide, the first cell
	                       of one two columns wide, or GRID_WIDE_TAIL */
	uint8_t style;      /* enum grid_style */
	uint8_t mark;       /* MARK_* */
	uint16_t pad;
	uint32_t comb[GRID_COMB];   /* combining marks on ch, in order, 0 after
	                               the last: grid_text puts them, grid_put
	                               clears them (code that sets ch itself
	                               sets it on a cell it blanked) */
};

struct grid {
	int w, h;
	struct cell *cells;     /* h rows of w cells */
};

/* Colour depths a back end can have. */
enum grid_depth { DEPTH_NONE, DEPTH_MONO, DEPTH_8, DEPTH_256 };

/* How a style looks at a colour depth: colours are terminal colour
 * numbers (-1 = the terminal's default), attributes are flags. */
enum { ATTR_BOLD = 1, ATTR_DIM = 2, ATTR_UNDERLINE = 4, ATTR_REVERSE = 8 };
struct grid_attr {
	int16_t fg, bg;
	uint8_t attr;
};

/* Returns a new grid of w × h blank cells, or NULL (out of memory). */
struct grid *grid_create(int w, int h);
void grid_destroy(struct grid *g);
/* Resizes to w × h (≥ 0) and blanks every cell. Returns 0 or ERR_NOMEM
 * (the grid is then unchanged). */
int grid_resize(struct grid *g, int w, int h);
/* Blanks every cell. */
void grid_clear(struct grid *g);

/* The cell at (x, y), or NULL outside the grid. */
struct cell *grid_at(struct grid *g, int x, int y);
/* Sets one cell; silently clipped outside the grid. */
void grid_put(struct grid *g, int x, int y, uint32_t ch, int style);
/* Fills the rectangle with ch in style (clipped). */
void grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch, int style);
/* Writes UTF-8 text from (x, y), at most maxw columns (clipped to the
 * grid as well); control characters show as '?'. A character takes the
 * columns text_char_width gives it (base/text.h, the one rule for every
 * output): a wide one two cells, the second GRID_WIDE_TAIL (left out
 * whole where it would cross maxw), a combining mark none: it goes into
 * the cell of the character before it (comb; with none before it in s,
 * or past GRID_COMB, it is left out). The other characters of no column
 * (the joiners, variation selectors, tags) are left out: a terminal
 * may draw what they join or select wider than the one rule counts.
 * Returns the columns written. */
int grid_text(struct grid *g, int x, int y, int maxw, int style, const char *s);
/* Like grid_text when all of s fits in maxw columns; else writes nothing
 * (a field is shown whole or not at all). Returns the columns written. */
int grid_text_whole(struct grid *g, int x, int y, int maxw, int style, const char *s);
/* Like grid_text with a printf format. */
int grid_printf(struct grid *g, int x, int y, int maxw, int style, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Draws a box border around the rectangle, with a title in its top edge. */
void grid_box(struct grid *g, int x, int y, int w, int h, int style, const char *title, int title_style);
/* Adds mark bits to every cell of the rectangle. */
void grid_mark(struct grid *g, int x, int y, int w, int h, int mark);

/* Bytes of s that make its first line when it wraps at w columns: all of
 * it when it fits, else up to the last space that fits — never between
 * a number and the word after it ("4.364 us", "4 ranks"), and after
 * the last " · " of a list of fields when that is past half the line —
 * else w columns cut hard. Spaces at the break are the caller's to skip. */
size_t grid_wrap(const char *s, int w);

/* The ASCII stand-in for a code point (box drawing, blocks, arrows...). */
uint32_t grid_ascii(uint32_t ch);

/* How (style, mark) looks at a depth. */
struct grid_attr grid_attr(int style, int mark, enum grid_depth depth);

/* Writes the grid as text, one line per row: DEPTH_NONE gives plain text
 * with trailing blanks removed, the other depths ANSI SGR sequences;
 * ascii converts glyphs with grid_ascii(). Returns 0 or ERR_IO. */
int grid_write(const struct grid *g, FILE *out, enum grid_depth depth, int ascii);

/* Encodes ch as UTF-8 into buf (≥ 5 bytes, NUL-terminated); returns the
 * byte count. */
int grid_utf8(uint32_t ch, char *buf);

#endif
