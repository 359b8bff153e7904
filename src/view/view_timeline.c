/* view_timeline.c — the physical timeline: ranks against wall-clock time
 * over the steps in the grid's window. Each cell shows the operation that
 * covers most of its time slice (kind as glyph, region as colour); the
 * selection and its message partners are marked as in the grid. */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

static void
tl_title(struct view *v, char *buf, size_t n)
{
	uint32_t se = view_steps_end(v);
	snprintf(buf, n, "timeline \u00b7 steps %u\u2013%u \u00b7 colour = region", v->win_step, se ? se - 1 : 0);
}

static int
tl_label_w(const struct view *v)
{
	char buf[16];
	uint32_t nr = view_index_ranks(v->ix);
	return snprintf(buf, sizeof buf, "r%u", nr ? nr - 1 : 0) + 1;
}

static void
place_rows(struct view *v, int rows)
{
	uint32_t nr = view_index_ranks(v->ix);
	/* clustered rows are no range of ranks: keep the last placement */
	long first = v->clustered ? (long)v->tl_first : (long)v->win_rank;
	if (v->sel_rank < first || v->sel_rank >= first + rows)
		first = (long)v->sel_rank - rows / 2;
	if (first + rows > (long)nr)
		first = (long)nr - rows;
	if (first < 0)
		first = 0;
	v->tl_first = (uint32_t)first;
	v->tl_rows = rows;
}

static uint32_t
bucket(const struct view *v, uint64_t t)
{
	uint64_t span = v->tl_t1 - v->tl_t0;
	if (t <= v->tl_t0 || span == 0)
		return 0;
	double b = (double)(t - v->tl_t0) * v->tl_w / (double)span;
	return b >= v->tl_w ? (uint32_t)v->tl_w - 1 : (uint32_t)b;
}

static void
tl_prepare(struct view *v, int w, int h)
{
	int lw = tl_label_w(v), cw = w - lw, rows = h - 1;
	if (cw < 1 || rows < 1) {
		v->tl_valid = 0;          /* nothing to draw: rows must not use the old width */
		return;
	}
	place_rows(v, rows);
	uint32_t s0 = v->win_step, s1 = view_steps_end(v), nr = view_index_ranks(v->ix);
	uint64_t key[7] = { v->tl_first, (uint64_t)rows, s0, s1, (uint64_t)cw, v->metric,
			    (uint64_t)view_index_startup(v->ix) };
	if (v->tl_valid && memcmp(key, v->tl_key, sizeof key) == 0)
		return;
	size_t need = (size_t)cw * (size_t)rows;
	if (need > v->tl_cap) {
		uint32_t *p = realloc(v->tl, need * sizeof *p);
		if (!p) {
			v->tl_valid = 0;
			return;
		}
		v->tl = p;
		v->tl_cap = need;
	}
	/* time range of the window on the rows shown */
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (int y = 0; y < rows && v->tl_first + (uint32_t)y < nr; y++) {
		uint32_t r = v->tl_first + (uint32_t)y;
		uint32_t i0 = view_index_lower(v->ix, r, s0), i1 = view_index_lower(v->ix, r, s1);
		if (i0 >= i1)
			continue;
		uint64_t en = analysis_lop_enter(v->a, i0), ex = analysis_lop_exit(v->a, i1 - 1);
		t0 = en < t0 ? en : t0;
		t1 = ex > t1 ? ex : t1;
	}
	if (t0 > t1)
		t0 = t1 = 0;
	/* the time axis starts where the first rank left its start-up,
	 * unless start-up is counted */
	uint64_t se = view_index_startup(v->ix) ? 0 : analysis_startup_end(v->a);
	if (t0 < se && se < t1)
		t0 = se;
	v->tl_t0 = t0;
	v->tl_t1 = t1;
	v->tl_w = cw;
	uint64_t *cover = malloc((size_t)cw * sizeof *cover);
	if (!cover) {
		v->tl_valid = 0;
		return;
	}
	for (int y = 0; y < rows; y++) {
		uint32_t *out = &v->tl[(size_t)y * (size_t)cw];
		for (int x = 0; x < cw; x++) {
			out[x] = TRACE_NONE;
			cover[x] = 0;
		}
		uint32_t r = v->tl_first + (uint32_t)y;
		if (r >= nr || t1 == t0)
			continue;
		double per = (double)(t1 - t0) / cw;
		uint32_t i1 = view_index_lower(v->ix, r, s1);
		for (uint32_t i = view_index_lower(v->ix, r, s0); i < i1; i++) {
			uint64_t en = analysis_lop_enter(v->a, i), ex = analysis_lop_exit(v->a, i);
			for (uint32_t b = bucket(v, en), be = bucket(v, ex); b <= be; b++) {
				double lo = (double)t0 + b * per, hi = lo + per;
				double a = (double)en > lo ? (double)en : lo, z = (double)ex < hi ? (double)ex : hi;
				/* +1 so an instant still claims an empty cell */
				uint64_t ov = (uint64_t)(z > a ? z - a : 0) + 1;
				if (ov > cover[b]) {
					cover[b] = ov;
					out[b] = i;
				}
			}
		}
	}
	free(cover);
	memcpy(v->tl_key, key, sizeof key);
	v->tl_valid = 1;
}

static void
tl_row(struct view *v, int y, struct grid *row)
{
	if (!v->tl_valid)
		return;
	int lw = tl_label_w(v), cw = v->tl_w;
	char a[48], b[48];
	if (y == 0) {
		fmt_time(trace_seconds(v->t, v->tl_t0), a, sizeof a);
		grid_text(row, lw, 0, cw, ST_LABEL, a);
		trace_fmt_duration(v->t, v->tl_t1 - v->tl_t0, b, sizeof b);
		char c[64];
		snprintf(c, sizeof c, "+%s", b);
		int n = grid_text_width(c);
		if (lw + grid_text_width(a) + 2 + n <= row->w)
			grid_text(row, row->w - n, 0, n, ST_LABEL, c);
		return;
	}
	y -= 1;
	uint32_t r = v->tl_first + (uint32_t)y;
	if (y >= v->tl_rows || r >= view_index_ranks(v->ix))
		return;
	grid_printf(row, 0, 0, lw, r == v->sel_rank ? ST_EMPH : ST_LABEL, "r%u", r);
	const uint32_t *lops = &v->tl[(size_t)y * (size_t)cw];
	for (int x = 0; x < cw; x++) {
		uint32_t l = lops[x];
		if (l == TRACE_NONE)
			continue;
		struct cell *c = &row->cells[lw + x];
		c->ch = view_kind_glyph(analysis_lop_kind(v->a, l));
		c->style = (uint8_t)(ST_CAT0 + view_index_category(v->ix, METRIC_FUNCTION, l));
		if (l == v->sel_lop)
			c->mark |= MARK_SEL;
		else if (v->n_partners && view_is_partner(v, l))
			c->mark |= MARK_PARTNER;
	}
	/* a short selected operation still shows where it starts */
	if (v->sel_lop != TRACE_NONE && analysis_lop_timeline(v->a, v->sel_lop) == r) {
		uint64_t en = analysis_lop_enter(v->a, v->sel_lop);
		if (en >= v->tl_t0 && en <= v->tl_t1) {
			struct cell *c = &row->cells[lw + (int)bucket(v, en)];
			c->ch = view_kind_glyph(analysis_lop_kind(v->a, v->sel_lop));
			c->style = (uint8_t)(ST_CAT0 + view_index_category(v->ix, METRIC_FUNCTION, v->sel_lop));
			c->mark |= MARK_SEL;
		}
	}
}

static int
tl_request(struct view *v, enum action act)
{
	uint32_t first, end;
	view_index_rank_lops(v->ix, v->sel_rank, &first, &end);
	uint32_t cur = v->sel_lop;
	if (cur == TRACE_NONE || analysis_lop_timeline(v->a, cur) != v->sel_rank)
		cur = view_index_lower(v->ix, v->sel_rank, v->sel_step);
	if (cur >= end)
		cur = end > first ? end - 1 : TRACE_NONE;
	if (cur == TRACE_NONE)
		return 0;
	uint32_t nr = view_index_ranks(v->ix);
	switch (act) {
	case ACT_MOVE_LEFT:
		if (cur > first)
			view_jump_lop(v, cur - 1);
		return 1;
	case ACT_MOVE_RIGHT:
		if (cur + 1 < end)
			view_jump_lop(v, cur + 1);
		return 1;
	case ACT_MOVE_UP:
	case ACT_MOVE_DOWN: {
		long r = (long)v->sel_rank + (act == ACT_MOVE_UP ? -1 : 1);
		if (r < 0 || r >= (long)nr)
			return 1;
		uint32_t l = view_index_lop_at_time(v->ix, (uint32_t)r, analysis_lop_enter(v->a, cur));
		if (l != TRACE_NONE)
			view_jump_lop(v, l);
		return 1;
	}
	default:
		return 0;
	}
}

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.focusable = 1,
	.title = tl_title,
	.prepare = tl_prepare,
	.row = tl_row,
	.request = tl_request,
};
