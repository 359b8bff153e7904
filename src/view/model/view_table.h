/* view_table.h — a table of rows sortable by any column, with a
 * selected row, scrolled to keep it in view: what the profile, the
 * communication pane's lists and the lists pane draw (doc/explorer.md).
 *
 * The pane owns its rows and says what each cell holds through struct
 * vt_source; the table keeps their order (sorted by a column, either
 * way), the selection and the scroll, lays out the columns that fit a
 * width (dropping the least important first) and draws the header and
 * each row. No session: the panes in view/ drive it.
 *
 *   vt_reset(n) → vt_sort → (vt_layout → vt_header / vt_row…) and vt_move…
 */
#ifndef SKEIN_VIEW_TABLE_H
#define SKEIN_VIEW_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "view/surface/grid.h"

#define VT_MAX_COLS 16

struct vt_col {
	const char *name;        /* the header */
	int width;               /* columns it takes (the first, a name, takes what is left) */
	int prio;                /* kept while the width allows: higher first; 0: always */
	int text;                /* sorted as text, A first; else as numbers, largest first */
	int asc;                 /* numbers whose order is the smallest first (the pane's
	                            key negates them: ids, ranks, steps, times): the
	                            header's mark says so */
};

/* What the pane's rows hold. */
struct vt_source {
	const struct vt_col *cols;
	int ncols;
	void *ctx;
	/* cell text of row r (the pane's own index), column c */
	void (*cell)(void *ctx, uint32_t r, int c, char *buf, size_t n);
	/* its sort key: a number (text columns: NULL, cell text is compared) */
	double (*key)(void *ctx, uint32_t r, int c);
	/* its style, or NULL: ST_NORMAL (the first column ST_LABEL) */
	int (*style)(void *ctx, uint32_t r, int c);
};

struct vtable {
	uint32_t n;              /* rows */
	uint32_t *order;         /* n: the pane's row at each place */
	size_t cap;
	int sort;                /* column sorted by */
	int desc;                /* reversed from the column's own order */
	uint32_t sel;            /* the selected place (into order) */
	uint32_t top;            /* the first place shown */
	int rows;                /* rows shown (the last layout) */
	/* the layout of the last vt_layout: columns shown, their x and width,
	 * and whether a column's cut texts keep their ends (its rows in view
	 * read alike cut at the end) */
	int nshown;
	int col[VT_MAX_COLS], x[VT_MAX_COLS], w[VT_MAX_COLS], mid[VT_MAX_COLS];
	/* the widest text of each column seen so far: at the ends of each
	 * order sorted and in each window of rows laid out (vt_reset and
	 * vt_adopt start again) */
	int fit[VT_MAX_COLS];
	int fit_scanned;         /* the ends of the present order were measured */
};

void vt_init(struct vtable *t, int sort);
void vt_fini(struct vtable *t);
/* n rows in the pane's order (the selection kept where it was, clamped).
 * 0 or ERR_NOMEM. */
int vt_reset(struct vtable *t, uint32_t n);
/* Sorts by t->sort (stable: ties keep the pane's order). 0 or ERR_NOMEM. */
int vt_sort(struct vtable *t, const struct vt_source *s);
/* vt_reset(n) then vt_sort, where another table already sorted the same
 * n rows by the same column and direction (on another thread): takes
 * its order (allocated, cap entries) and keeps the selection as vt_sort
 * would have. */
void vt_adopt(struct vtable *t, uint32_t *order, size_t cap, uint32_t n);
/* Sorts by column c; again by the same column reverses the order. */
int vt_sort_by(struct vtable *t, const struct vt_source *s, int c);
/* The pane's row at the selection, or UINT32_MAX when empty. */
uint32_t vt_selected(const struct vtable *t);
/* Selects the pane's row r (its place, wherever the sort put it). */
void vt_select_row(struct vtable *t, uint32_t r);
/* Lays the columns out in w columns, rows rows of data; when the rows
 * scroll, in w - 1: the last column is for vt_row's arrows. A number is
 * never cut: its column is as wide as the widest seen (columns are
 * dropped by priority, text columns narrowed, rather); the first column
 * and the other text columns take what is left up to their widest text;
 * a text still too wide is cut so that the rows in view stay told apart
 * (view_table.c's shorten). */
void vt_layout(struct vtable *t, const struct vt_source *s, int w, int rows);
/* The header (the sorted column marked ▼ when its rows go down from the
 * largest or Z, ▲ when they go up) and data row y (0-based, below the
 * header), into a one-row grid from column x0. */
void vt_header(const struct vtable *t, const struct vt_source *s, struct grid *row, int x0);
void vt_row(const struct vtable *t, const struct vt_source *s, int y, struct grid *row, int x0);
/* Sorts by the next shown column (dir 1) or the previous (-1), from
 * the one sorted by, each in its own order. */
int vt_sort_next(struct vtable *t, const struct vt_source *s, int dir);
/* Moves the selection by d (clamped), or to the first / last row. */
void vt_move(struct vtable *t, long d);
void vt_home(struct vtable *t, int end);
/* The column shown at x (relative to the table), or -1. */
int vt_column_at(const struct vtable *t, int x);

#endif
