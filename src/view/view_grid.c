/* view_grid.c — the logical grid: ranks × global steps.
 *
 * A cell is a block of zr ranks × zs steps. Its glyph is the kind of the
 * block's representative operation, its colour the block's maximum of a
 * numeric metric (or the representative's category), so zooming out
 * never hides a late operation. The cells of the window are computed
 * once per window/zoom/metric and kept: moving the selection inside the
 * window costs one pass over the visible cells.
 */
#include "view_impl.h"

#include "base/par.h"

#include <stdlib.h>
#include <string.h>

static void
grid_title(struct view *v, char *buf, size_t n)
{
	if (v->clustered)
		snprintf(buf, n, "logical \u00b7 %s \u00b7 %ss in %u clusters by lateness", view_metric_title(v->metric),
			 view_row_noun(v),
			 view_cluster_level(v->vc));
	else
		snprintf(buf, n, "logical \u00b7 %s", view_metric_title(v->metric));
}

/* The grid's cells of rows [y0, y1). */
struct cells_job {
	struct view *v;
	int cols, rows;
};

static void
cells_rows(const struct cells_job *j, uint32_t y0, uint32_t y1)
{
	struct view *v = j->v;
	for (uint32_t y = y0; y < y1; y++) {
		uint32_t r0 = v->win_rank + y * v->zr;
		for (int x = 0; x < j->cols; x++) {
			uint32_t s0 = v->win_step + (uint32_t)x * v->zs;
			struct gcell *c = &v->gc[(size_t)y * (size_t)j->cols + (size_t)x];
			unsigned kinds = 0;
			if (v->clustered)
				c->value = view_cluster_block(v->vc, v->ix, v->metric, v->win_row + y, s0,
							      s0 + v->zs, &c->rep, &c->count, &kinds);
			else
				c->value = view_index_block(v->ix, v->metric, r0, r0 + v->zr, s0, s0 + v->zs,
							    &c->rep, &c->count, &kinds);
			c->kinds = (uint8_t)kinds;
		}
	}
}

static int
cells_work(void *ctx, uint32_t w, uint32_t nw)
{
	const struct cells_job *j = ctx;
	uint32_t y0, y1;
	par_share((uint32_t)j->rows, w, nw, &y0, &y1);
	cells_rows(j, y0, y1);
	return 0;
}

static void
grid_prepare(struct view *v, int w, int h)
{
	int cols = w - v->label_w, rows = h - 2;
	if (cols < 1 || rows < 1)
		return;
	uint64_t key[9] = { v->win_rank, v->win_step, v->zs, v->zr, (uint64_t)cols, (uint64_t)rows, v->metric,
			    v->clustered ? 1 + (uint64_t)view_cluster_generation(v->vc) : 0, v->win_row };
	if (v->gc_valid && memcmp(key, v->gc_key, sizeof key) == 0)
		return;
	size_t need = (size_t)cols * (size_t)rows;
	if (need > v->gc_cap) {
		struct gcell *g = realloc(v->gc, need * sizeof *g);
		if (!g) {
			v->gc_valid = 0;
			return;
		}
		v->gc = g;
		v->gc_cap = need;
	}
	struct cells_job j = { v, cols, rows };
	/* zoomed out, the rows on every core with the index's blocks (a
	 * cell spans a block's lops only when a column holds more steps):
	 * the whole trace fitted reads every lop (10^7 events: 31 ms lop by
	 * lop on one core, 6-8 ms so) */
	if (v->clustered || !view_grid_blocks(v))
		cells_rows(&j, 0, (uint32_t)rows);
	else
		par_run(par_workers(), cells_work, &j);
	memcpy(v->gc_key, key, sizeof key);
	v->gc_valid = 1;
}

/* Every k-th column gets a step label; k keeps labels apart and on round
 * numbers of blocks. */
static uint32_t
label_every(const struct view *v)
{
	char buf[16];
	int lw = snprintf(buf, sizeof buf, "%u", view_index_steps(v->ix)) + 1;
	static const uint32_t ks[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
		if (ks[i] >= (uint32_t)lw && ks[i] >= 5)
			return ks[i];
	return 10000;
}

static void
axis_row(struct view *v, struct grid *row, int cols)
{
	grid_text(row, 0, 0, v->label_w, ST_LABEL, "step");
	uint32_t k = label_every(v), ns = view_index_steps(v->ix);
	for (int x = 0; x < cols; x++) {
		uint32_t col = v->win_step / v->zs + (uint32_t)x;
		uint32_t s0 = col * v->zs;
		if (s0 >= ns)
			break;
		if (col % k == 0) {
			char buf[16];
			int n = snprintf(buf, sizeof buf, "%u", s0);
			if (x + n <= cols)           /* whole numbers only: "7" is not 70 */
				grid_text(row, v->label_w + x, 0, cols - x, ST_LABEL, buf);
		}
	}
}

static void
ruler_row(struct view *v, struct grid *row, int cols)
{
	uint32_t ns = view_index_steps(v->ix), np;
	const struct analysis_part *parts = analysis_parts(v->a, &np);
	uint32_t sp0 = 1, sp1 = 0;
	if (v->sel_lop != TRACE_NONE) {
		const struct analysis_part *p = &parts[analysis_lop_part(v->a, v->sel_lop)];
		sp0 = p->step_first;
		sp1 = p->step_first + p->step_count;
	}
	grid_text(row, 0, 0, v->label_w, ST_LABEL, view_is_charm(v) ? "phase" : "part");
	for (int x = 0; x < cols; x++) {
		uint32_t s0 = v->win_step + (uint32_t)x * v->zs, s1 = s0 + v->zs;
		if (s0 >= ns)
			break;
		int start = view_index_part_starts(v->ix, s0, s1);
		int sel = s0 < sp1 && s1 > sp0;
		uint32_t ch = sel ? (start ? 0x256a : 0x2550) : (start ? 0x253c : 0x2500);
		grid_put(row, v->label_w + x, 0, ch, sel ? ST_EMPH : ST_DIM);
	}
	if (v->sel_step >= v->win_step && v->sel_step < ns) {     /* the selected column */
		uint32_t x = (v->sel_step - v->win_step) / v->zs;
		if (x < (uint32_t)cols)
			grid_put(row, v->label_w + (int)x, 0, 0x25be, ST_EMPH);
	}
}

static void
grid_row(struct view *v, int y, struct grid *row)
{
	int cols = row->w - v->label_w, rows = v->pane[PANE_GRID].h - 4;
	if (cols < 1)
		return;
	if (y == 0) {
		axis_row(v, row, cols);
		return;
	}
	if (y == 1) {
		ruler_row(v, row, cols);
		return;
	}
	y -= 2;
	uint32_t nr = view_index_ranks(v->ix);
	if (y == 0 && (nr == 0 || view_index_steps(v->ix) == 0)) {
		grid_text(row, 0, 0, row->w, ST_DIM, nr ? "no operations on any rank"
			  : "no MPI ranks in this trace ('skein info' shows what it holds)");
		return;
	}
	uint32_t r0 = v->win_rank + (uint32_t)y * v->zr, r1 = r0 + v->zr;
	uint32_t vrow = v->win_row + (uint32_t)y;
	if (v->clustered ? vrow >= view_row_count(v) : r0 >= nr)
		return;
	if (!v->gc_valid || y >= rows)
		return;
	if (r1 > nr)
		r1 = nr;
	int selrow = v->clustered ? vrow == v->sel_row : v->sel_rank >= r0 && v->sel_rank < r1;
	if (v->clustered) {
		char label[48];
		view_row_label(v, vrow, label, sizeof label);
		grid_text(row, 0, 0, v->label_w - 1, selrow ? ST_EMPH : ST_LABEL, label);
	} else if (v->zr == 1 || view_is_charm(v)) {
		char name[VIEW_MAX_ROW_NAME + 16];
		view_row_name(v, r0, name, sizeof name);
		if (r1 > r0 + 1)
			grid_printf(row, 0, 0, v->label_w - 1, selrow ? ST_EMPH : ST_LABEL, "%s+%u", name, r1 - r0 - 1);
		else
			grid_text(row, 0, 0, v->label_w - 1, selrow ? ST_EMPH : ST_LABEL, name);
	} else {
		grid_printf(row, 0, 0, v->label_w - 1, selrow ? ST_EMPH : ST_LABEL, "r%u-%u", r0, r1 - 1);
	}
	for (uint32_t r = r0; !v->clustered && r < r1; r++)
		if (view_topo_highlight(v, r)) {     /* runs on the object selected in the topology */
			grid_mark(row, 0, 0, v->label_w - 1, 1, MARK_PARTNER);
			break;
		}
	if (selrow)         /* visible without colour too */
		grid_put(row, v->label_w - 1, 0, 0x25b8, ST_EMPH);
	const struct gcell *gc = &v->gc[(size_t)y * (size_t)cols];
	/* the filters: ranks :ranks leaves out, time outside :window, dimmed */
	int kept = !v->f_ranks;
	for (uint32_t r = r0; !kept && r < r1 && !v->clustered; r++)
		kept = view_rank_kept(v, r);
	if (v->clustered && v->f_ranks)
		kept = view_rank_kept(v, v->sel_rank) || !selrow;
	for (int x = 0; x < cols; x++) {
		struct cell *c = &row->cells[v->label_w + x];
		if (gc[x].rep == TRACE_NONE)
			continue;
		c->ch = view_kinds_glyph(gc[x].kinds);
		c->style = (uint8_t)view_cell_style(v, gc[x].rep, gc[x].value);
		if (!kept || (v->f_to && (analysis_lop_exit(v->a, gc[x].rep) < v->f_from ||
					  analysis_lop_enter(v->a, gc[x].rep) >= v->f_to)))
			c->style = ST_DIM;
		if (view_index_part_alt(v->ix, analysis_lop_part(v->a, gc[x].rep)))
			c->mark |= MARK_ALT;
	}
	for (int i = 0; i < v->n_partners; i++) {
		uint32_t p = v->partners[i];
		uint32_t pr = analysis_lop_timeline(v->a, p), ps = analysis_lop_step(v->a, p);
		int here = v->clustered ? view_cluster_row_of(v->vc, pr) == vrow : pr >= r0 && pr < r1;
		if (here && ps >= v->win_step) {
			uint32_t x = (ps - v->win_step) / v->zs;
			if (x < (uint32_t)cols)
				row->cells[v->label_w + (int)x].mark |= MARK_PARTNER;
		}
	}
	if (selrow && v->sel_step >= v->win_step) {
		uint32_t x = (v->sel_step - v->win_step) / v->zs;
		if (x < (uint32_t)cols) {
			struct cell *c = &row->cells[v->label_w + (int)x];
			c->mark |= MARK_SEL;
			if (gc[x].rep == TRACE_NONE)
				c->ch = ' ';
		}
	}
}

/* A click on a cell selects it; on the step axis or the ruler, the step
 * (same row); on a row label, the row (same step). */
static int
grid_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	if (kind != MOUSE_LEFT)
		return 0;
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	int col = x - v->label_w, row = y - 2;
	if (col >= 0) {
		uint64_t s = (uint64_t)v->win_step + (uint64_t)col * v->zs;
		if (s >= ns)
			return 1;
		v->sel_step = (uint32_t)s;
	}
	if (row >= 0 && row < v->rows) {
		if (v->clustered) {
			if (v->win_row + (uint32_t)row >= view_row_count(v))
				return 1;
			v->sel_row = v->win_row + (uint32_t)row;
		} else {
			uint64_t r = (uint64_t)v->win_rank + (uint64_t)row * v->zr;
			if (r >= nr)
				return 1;
			v->sel_rank = (uint32_t)r;
		}
	}
	v->pinned = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 0);
	return 1;
}

static int
grid_request(struct view *v, enum action act)
{
	(void)v;
	(void)act;
	return 0;           /* the navigation defaults are the grid's */
}

const struct view_ops view_grid_ops = {
	.name = "grid",
	.focusable = 1,
	.title = grid_title,
	.prepare = grid_prepare,
	.row = grid_row,
	.request = grid_request,
	.mouse = grid_mouse,
};
