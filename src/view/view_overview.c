/* view_overview.c — the whole trace in one strip: the largest value of
 * the metric per global step over all ranks, the window in view marked
 * under it. Per-step maxima come from the index (computed once); the
 * strip's columns are kept until the width or metric changes. */
#include "view_impl.h"

#include <stdlib.h>

static enum view_metric
ov_metric(const struct view *v)
{
	return view_metric_numeric(v->metric) ? v->metric : METRIC_LATENESS;
}

static void
ov_title(struct view *v, char *buf, size_t n)
{
	snprintf(buf, n, "overview \u00b7 max %s per step%s", view_metric_title(ov_metric(v)),
		 view_diff_changed(v, 0, UINT32_MAX) ? " \u00b7 ! structure differs" : "");
}

/* Strip columns for a width: min(w, steps); column c covers steps
 * [c·N/cols, (c+1)·N/cols). */
static int
ov_cols(const struct view *v, int w)
{
	uint32_t ns = view_index_steps(v->ix);
	return ns < (uint32_t)w ? (int)ns : w;
}

static uint32_t
col_step(const struct view *v, int c, int cols)
{
	return (uint32_t)((uint64_t)c * view_index_steps(v->ix) / (uint64_t)cols);
}

static void
ov_prepare(struct view *v, int w, int h)
{
	(void)h;
	int cols = ov_cols(v, w);
	enum view_metric m = ov_metric(v);
	if (v->ov_valid && v->ov_w == cols && v->ov_metric == m)
		return;
	if (cols > v->ov_cap) {
		uint64_t *p = realloc(v->ov, (size_t)cols * sizeof *p);
		if (!p) {
			v->ov_valid = 0;
			return;
		}
		v->ov = p;
		v->ov_cap = cols;
	}
	const uint64_t *sm = view_index_step_max(v->ix, m);
	if (!sm) {
		v->ov_valid = 0;
		return;
	}
	for (int c = 0; c < cols; c++) {
		uint32_t s0 = col_step(v, c, cols), s1 = col_step(v, c + 1, cols);
		uint64_t mx = 0;
		for (uint32_t s = s0; s < s1; s++)
			if (sm[s] > mx)
				mx = sm[s];
		v->ov[c] = mx;
	}
	v->ov_w = cols;
	v->ov_metric = m;
	v->ov_valid = 1;
}

static uint32_t
level_glyph(int l)
{
	return l == 0 ? ' ' : l >= GRID_HEAT_LEVELS - 1 ? 0x2588 : 0x2580 + (uint32_t)l;
}

static void
ov_row(struct view *v, int y, struct grid *row)
{
	if (view_index_steps(v->ix) == 0) {
		/* no operations, so no steps: the strip says so, as it says a
		 * metric that is 0 at every step (it stayed blank) */
		if (y == 0) {
			char buf[96];
			snprintf(buf, sizeof buf, "%s is 0: no operations, no steps", view_metric_title(ov_metric(v)));
			grid_text(row, 1, 0, row->w - 1, ST_DIM, buf);
		}
		return;
	}
	if (!v->ov_valid || v->ov_w == 0)
		return;
	int cols = v->ov_w;
	uint32_t ws = v->win_step, we = view_steps_end(v);
	int first = -1, last = -1, sel = -1;
	for (int c = 0; c < cols; c++) {
		uint32_t s0 = col_step(v, c, cols), s1 = col_step(v, c + 1, cols);
		if (s0 < we && s1 > ws) {
			if (first < 0)
				first = c;
			last = c;
		}
		if (v->sel_step >= s0 && v->sel_step < s1)
			sel = c;
	}
	if (y == 0) {
		for (int c = 0; c < cols; c++) {
			int l = view_index_level(v->ix, v->ov_metric, v->ov[c]);
			grid_put(row, c, 0, level_glyph(l), ST_HEAT0 + l);
			if (c >= first && c <= last)
				row->cells[c].mark |= MARK_WINDOW;
		}
		/* an empty strip says why (one rank, nothing late) */
		if (view_index_max(v->ix, v->ov_metric) == 0) {
			char buf[96];
			snprintf(buf, sizeof buf, "%s is 0 at every step", view_metric_title(v->ov_metric));
			grid_text(row, 1, 0, cols - 1, ST_DIM, buf);
		}
	} else if (y == 1) {
		/* where iterations start: ╵ outside the window, ┴ on its edge */
		for (int c = 0; c < cols; c++)
			if (view_iter_starts(v, col_step(v, c, cols), col_step(v, c + 1, cols)))
				grid_put(row, c, 0, c >= first && c <= last ? 0x2534 : 0x2575, ST_LABEL);
		for (int c = first; c >= 0 && c <= last; c++)
			if (!view_iter_starts(v, col_step(v, c, cols), col_step(v, c + 1, cols)) ||
			    c == first || c == last)
				grid_put(row, c, 0, c == first ? 0x2514 : c == last ? 0x2518 : 0x2500, ST_LABEL);
		/* where the structure differs from the run compared with */
		for (int c = 0; c < cols; c++)
			if (view_diff_changed(v, col_step(v, c, cols), col_step(v, c + 1, cols)))
				grid_put(row, c, 0, '!', ST_EMPH);
		if (sel >= 0)
			grid_put(row, sel, 0, 0x25b2, ST_EMPH);
		if (cols + 2 < row->w) {
			char d[32], buf[64];
			trace_fmt_duration(v->t, view_index_max(v->ix, v->ov_metric), d, sizeof d);
			snprintf(buf, sizeof buf, "max %s", d);
			int n = text_width(buf);
			if (cols + 2 + n <= row->w)
				grid_text(row, row->w - n, 0, n, ST_LABEL, buf);
		}
	}
}

static int
ov_request(struct view *v, enum action act)
{
	if (!v->ov_valid || v->ov_w == 0)
		return 0;
	long span = (long)((view_index_steps(v->ix) + (uint32_t)v->ov_w - 1) / (uint32_t)v->ov_w);
	if (span < (long)v->zs)
		span = v->zs;
	switch (act) {
	case ACT_MOVE_LEFT: view_move(v, 0, -span); break;
	case ACT_MOVE_RIGHT: view_move(v, 0, span); break;
	case ACT_PAGE_LEFT: view_move(v, 0, -10 * span); break;
	case ACT_PAGE_RIGHT: view_move(v, 0, 10 * span); break;
	default: return 0;
	}
	view_scroll_to_selection(v, 1);
	return 1;
}

/* A click selects the step under it (the window centres on it); the
 * wheel moves along the strip. */
static int
ov_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	(void)y;
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
		return ov_request(v, kind == MOUSE_WHEEL_UP ? ACT_MOVE_LEFT : ACT_MOVE_RIGHT);
	if (kind != MOUSE_LEFT || !v->ov_valid || x >= v->ov_w)
		return 1;
	uint32_t s0 = col_step(v, x, v->ov_w), s1 = col_step(v, x + 1, v->ov_w);
	v->sel_step = s0 + (s1 > s0 ? (s1 - s0) / 2 : 0);
	v->pinned = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 1);
	return 1;
}

static const struct pane_key ov_keys[] = {
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "one strip column left / right (the window follows)" },
	{ ACT_PAGE_LEFT, ACT_PAGE_RIGHT, "ten strip columns left / right" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_overview_ops = {
	.name = "overview",
	.focusable = 1,
	.title = ov_title,
	.prepare = ov_prepare,
	.row = ov_row,
	.request = ov_request,
	.mouse = ov_mouse,
	.keys_title = "In the overview",
	.keys = ov_keys,
};
