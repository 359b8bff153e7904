/* view.c — the explorer session: lifecycle, layout, drawing, dispatch.
 *
 * Panes live in view_*.c; moving and jumping in view_nav.c; the command
 * line and search in view_cmd.c.
 */
#include "view_impl.h"

#include <stdio.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"

/* Smallest screen with a usable layout; below it a message says so. */
#define MIN_W 40
#define MIN_H 12

static const struct view_ops *const panes[PANE_COUNT] = {
	[PANE_GRID] = &view_grid_ops,
	[PANE_OVERVIEW] = &view_overview_ops,
	[PANE_TIMELINE] = &view_timeline_ops,
	[PANE_DETAILS] = &view_details_ops,
	[PANE_TOPO] = &view_topo_ops,
	[PANE_HIST] = &view_hist_ops,
	[PANE_HELP] = &view_help_ops,
};

const struct view_ops *
view_pane_ops(int id)
{
	return id >= 0 && id < PANE_COUNT ? panes[id] : NULL;
}

const char *
view_pane_names(void)
{
	return "grid overview timeline details help topology histogram";
}

/* The pane called name, or -1. */
static int
pane_find(const char *name)
{
	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(name, panes[i]->name) == 0)
			return i;
	return -1;
}

int
view_pane_known(const char *name)
{
	return pane_find(name) >= 0;
}

int
view_create(const struct analysis *a, const struct view_opts *o, struct view **out, struct err *e)
{
	int solo = -1;
	int side = o && o->side ? pane_find(o->side) : PANE_DETAILS;
	if (side != PANE_DETAILS && side != PANE_TOPO && side != PANE_HIST)
		return err_set(e, ERR_USAGE, "the side pane is details, topology or histogram, not '%s'",
			       o->side);
	int focus = o && o->focus ? pane_find(o->focus) : -1;
	if (o && o->focus && focus < 0)
		return err_set(e, ERR_USAGE, "unknown pane '%s' (panes: %s)", o->focus, view_pane_names());
	if (o && o->pane) {
		solo = pane_find(o->pane);
		if (solo < 0)
			return err_set(e, ERR_USAGE, "unknown pane '%s' (panes: %s)", o->pane, view_pane_names());
	}
	struct view *v = calloc(1, sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, "out of memory");
	v->a = a;
	v->t = analysis_trace(a);
	int rc = view_index_create(a, &v->ix, e);
	if (rc) {
		free(v);
		return rc;
	}
	if (o && o->keys) {
		v->km = o->keys;
	} else {
		v->own_km = keymap_create();
		v->km = v->own_km;
	}
	uint32_t nreg;
	trace_regions(v->t, &nreg);
	v->search_match = calloc(nreg ? nreg : 1, 1);
	int lines_rc = view_lines_init(&v->details) | view_lines_init(&v->help);
	if (!v->km || !v->search_match || lines_rc || view_topo_create(v, o) || view_hist_create(v)) {
		view_destroy(v);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	snprintf(v->label, sizeof v->label, "%s", o && o->label ? o->label : "trace");
	v->metric = o && (unsigned)o->metric < METRIC_COUNT ? o->metric : METRIC_LATENESS;
	v->solo = solo;
	v->side = solo == PANE_TOPO || solo == PANE_HIST ? solo : PANE_DETAILS;
	v->zs = v->zr = 1;
	v->hot_idx = -1;
	v->focus = solo >= 0 && panes[solo]->focusable ? solo : PANE_GRID;
	v->help_open = solo == PANE_HELP;
	v->sel_lop = TRACE_NONE;
	v->cl_start = o && o->clusters ? o->clusters : analysis_options(a)->clusters;
	v->save = o ? o->save : NULL;
	v->save_ud = o ? o->save_ud : NULL;
	v->part_phase = o ? o->part_phase : NULL;
	v->diff = o ? o->diff : NULL;
	v->iter_name = o ? o->iteration_name : NULL;
	view_index_set_diff(v->ix, v->diff);
	if (v->metric == METRIC_DELTA && !v->diff)
		v->metric = METRIC_LATENESS;
	if (o && solo < 0) {
		v->no_overview = o->no_overview;
		v->no_timeline = o->no_timeline;
		v->no_side = o->no_side;
		v->side_width = o->side_width;
		if (o->side)
			v->side = side;
		if (focus >= 0 && panes[focus]->focusable)
			v->focus = focus;
	}
	if (v->cl_start > CLUSTER_MAX_K)
		v->cl_start = CLUSTER_MAX_K;
	view_select_update(v);
	if (v->cl_start && view_clusters_on(v, v->cl_start) == 0)
		v->message[0] = 0;
	if (o && o->scale_max)
		view_index_set_scale(v->ix, o->scale_min, o->scale_max);
	if (o && o->initial)
		view_set_state(v, o->initial);
	*out = v;
	return 0;
}

void
view_destroy(struct view *v)
{
	if (!v)
		return;
	view_index_destroy(v->ix);
	view_cluster_destroy(v->vc);
	keymap_destroy(v->own_km);
	free(v->search_match);
	view_lines_fini(&v->details);
	view_lines_fini(&v->help);
	free(v->gc);
	free(v->ov);
	free(v->tl);
	view_topo_destroy(v->topo);
	view_hist_destroy(v->hist);
	free(v);
}

int view_done(const struct view *v) { return v->quit; }

int
view_take_repaint(struct view *v)
{
	int r = v->repaint;
	v->repaint = 0;
	return r;
}

void
view_set_message(struct view *v, int error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_error = error;
}

/* ---- helpers shared by panes ------------------------------------------ */

uint32_t
view_kind_glyph(int kind)
{
	switch (kind) {
	case OP_COMPUTE: return 0x00b7;      /* · */
	case OP_SEND: return 's';
	case OP_RECV: return 'r';
	case OP_SENDRECV: return 'x';
	case OP_COLLECTIVE: return 'C';
	case OP_WAIT: return 'W';
	}
	return '?';
}

const char *
view_region_name(const struct view *v, uint32_t region)
{
	uint32_t n;
	const struct trace_region *r = trace_regions(v->t, &n);
	return region < n ? trace_str(v->t, r[region].name) : "(computation)";
}

int
view_cell_style(struct view *v, uint32_t lop, uint64_t value)
{
	if (view_metric_numeric(v->metric))
		return ST_HEAT0 + view_index_level(v->ix, v->metric, value);
	return ST_CAT0 + view_index_category(v->ix, v->metric, lop);
}

/* ---- layout ------------------------------------------------------------- */

static void
layout(struct view *v, int w, int h)
{
	v->scr_w = w;
	v->scr_h = h;
	memset(v->shown, 0, sizeof v->shown);
	memset(v->pane, 0, sizeof v->pane);
	v->tiny = w < MIN_W || h < MIN_H;
	if (v->solo >= 0) {
		v->tiny = w < 20 || h < 3;
		if (v->solo != PANE_GRID)    /* the grid's window still drives the others */
			v->pane[PANE_GRID] = (struct rect){ 0, 0, w, h };
		v->pane[v->solo] = (struct rect){ 0, 0, w, h };
		v->shown[v->solo] = 1;
		goto sizes;
	}
	if (v->tiny)
		return;
	/* the grid first: its box, step axis, partition ruler and a few ranks;
	 * then the overview, the details, and the timeline when there is room */
	uint32_t nr0 = view_index_ranks(v->ix);
	int grid_min = 4 + (nr0 < 4 ? (int)nr0 : 4);
	int body_y = 1, body_h = h - 2;
	int left_w = w, ov_h = v->no_overview ? 0 : 4;
	if (v->no_side) {
		/* the grid column takes the whole width */
	} else if (w >= 100) {
		int dw = w * 3 / 10;
		dw = dw < 36 ? 36 : dw > 48 ? 48 : dw;
		if (v->side_width > 0)       /* as configured, leaving the grid 60 columns */
			dw = v->side_width < 20 ? 20 : v->side_width > w - 60 ? w - 60 : v->side_width;
		left_w = w - dw;
		v->pane[v->side] = (struct rect){ left_w, body_y, dw, body_h };
		v->shown[v->side] = 1;
	} else {
		int dh = body_h >= 24 ? 10 : 7;
		if (body_h - dh - ov_h < grid_min)
			ov_h = 0;
		if (body_h - dh - ov_h < grid_min)
			dh = body_h - ov_h - grid_min;
		if (dh >= 3) {
			v->pane[v->side] = (struct rect){ 0, body_y + body_h - dh, w, dh };
			v->shown[v->side] = 1;
			body_h -= dh;
		}
	}
	if (body_h - ov_h < grid_min)
		ov_h = 0;
	int tl_h = body_h >= 24 && !v->no_timeline ? body_h / 3 : 0;
	int grid_h = body_h - ov_h - tl_h;
	v->pane[PANE_GRID] = (struct rect){ 0, body_y, left_w, grid_h };
	v->shown[PANE_GRID] = 1;
	if (ov_h) {
		v->pane[PANE_OVERVIEW] = (struct rect){ 0, body_y + grid_h, left_w, ov_h };
		v->shown[PANE_OVERVIEW] = 1;
	}
	if (tl_h) {
		v->pane[PANE_TIMELINE] = (struct rect){ 0, body_y + grid_h + ov_h, left_w, tl_h };
		v->shown[PANE_TIMELINE] = 1;
	}
sizes:;
	/* what navigation needs between draws: grid cells and label width */
	uint32_t nr = view_index_ranks(v->ix);
	char buf[32];
	int lw = snprintf(buf, sizeof buf, "r%u", nr ? nr - 1 : 0);
	/* room for "r12-15" when rows aggregate, "step" and "part", and a
	 * column that points at the selected row */
	v->label_w = (v->zr == 1 ? lw : 2 * lw) + 1;
	if (v->clustered) {       /* "c12 r1023+97" and "  r1023" */
		int cw = 2 + lw;
		for (uint32_t g = 0; g < view_cluster_groups(v->vc); g++) {
			uint32_t cnt;
			view_cluster_members(v->vc, g, &cnt);
			int n = snprintf(buf, sizeof buf, "c%u r%u+%u", g, view_cluster_medoid(v->vc, g), cnt - 1);
			cw = n > cw ? n : cw;
		}
		v->label_w = cw + 2;
	}
	if (v->label_w < 5)
		v->label_w = 5;
	struct rect g = v->pane[PANE_GRID];
	v->cols = g.w - 2 - v->label_w;
	v->rows = g.h - 2 - 2;           /* step axis and partition ruler */
	if (v->cols < 1)
		v->cols = 1;
	if (v->rows < 1)
		v->rows = 1;
	if (!v->shown[v->focus])
		v->focus = v->solo >= 0 ? v->solo : PANE_GRID;
}

/* ---- drawing ------------------------------------------------------------ */

static void
draw_pane(struct view *v, struct grid *g, int id)
{
	const struct view_ops *ops = panes[id];
	struct rect r = v->pane[id];
	if (r.w < 3 || r.h < 3)
		return;
	char title[160] = "";
	if (ops->title)
		ops->title(v, title, sizeof title);
	int focused = v->focus == id && v->solo < 0;
	grid_box(g, r.x, r.y, r.w, r.h, focused ? ST_BORDER_FOCUS : ST_BORDER, title,
		 focused ? ST_BORDER_FOCUS : ST_TITLE);
	int iw = r.w - 2, ih = r.h - 2;
	if (ops->prepare)
		ops->prepare(v, iw, ih);
	for (int y = 0; y < ih; y++) {
		struct grid row = { iw, 1, grid_at(g, r.x + 1, r.y + 1 + y) };
		ops->row(v, y, &row);
	}
}

static void
draw_status(struct view *v, struct grid *g)
{
	grid_fill(g, 0, 0, g->w, 1, ' ', ST_BAR);
	char buf[512];
	uint32_t np;
	analysis_parts(v->a, &np);
	uint32_t nr = view_index_ranks(v->ix), ns = view_index_steps(v->ix);
	uint32_t se = view_steps_end(v), re = view_ranks_end(v);
	char part[48] = "no op";
	if (v->sel_lop != TRACE_NONE)
		snprintf(part, sizeof part, "part %u/%u", analysis_lop_part(v->a, v->sel_lop), np);
	char zoom[64];
	if (v->zs == 1 && v->zr == 1)
		snprintf(zoom, sizeof zoom, "cell = 1 step");
	else
		snprintf(zoom, sizeof zoom, "cell = %u step%s \u00d7 %u rank%s", v->zs, v->zs == 1 ? "" : "s",
			 v->zr, v->zr == 1 ? "" : "s");
	char rows[96];
	if (v->clustered) {
		uint32_t n = view_row_count(v), k = view_cluster_level(v->vc);
		uint32_t last = v->win_row + (uint32_t)v->rows < n ? v->win_row + (uint32_t)v->rows : n;
		snprintf(rows, sizeof rows, "%u cluster%s \u00b7 rows %u\u2013%u/%u", k, k == 1 ? "" : "s",
			 v->win_row, last ? last - 1 : 0, n);
	} else {
		snprintf(rows, sizeof rows, "ranks %u\u2013%u/%u", v->win_rank, re ? re - 1 : 0, nr);
	}
	snprintf(buf, sizeof buf, " skein  %s  %s  r%u step %u  %s  steps %u\u2013%u/%u  %s  %s",
		 v->label, view_metric_title(v->metric), v->sel_rank, v->sel_step, part,
		 v->win_step, se ? se - 1 : 0, ns, rows, zoom);
	grid_text(g, 0, 0, g->w, ST_BAR, buf);
	/* the trace name stands out */
	grid_text(g, 1, 0, 5, ST_BAR_KEY, "skein");
}

/* The bottom line's reminder of the keys, from the bindings in force: an
 * entry whose action has no key is left out. */
static void
legend_keys(const struct keymap *km, char *out, size_t n)
{
	static const struct { enum action a, b; const char *what; int gap; } ent[] = {
		{ACT_HELP, ACT_NONE, "help", 3},
		{ACT_QUIT, ACT_NONE, "quit", 2},
		{ACT_PREV_PARTITION, ACT_NEXT_PARTITION, "partition", 3},
		{ACT_PREV_HOTSPOT, ACT_NEXT_HOTSPOT, "hotspot", 2},
		{ACT_SEARCH, ACT_NONE, "search", 2},
		{ACT_COMMAND, ACT_NONE, "command", 2},
	};
	size_t len = 0;
	out[0] = 0;
	for (size_t i = 0; i < sizeof ent / sizeof ent[0] && len < n; i++) {
		char ka[64], kb[64];
		const char *a = keymap_first_key(km, ent[i].a, ka, sizeof ka);
		const char *b = ent[i].b != ACT_NONE ? keymap_first_key(km, ent[i].b, kb, sizeof kb) : "";
		int w = 0;
		if (i == 2) /* the glyphs, between quitting and walking */
			w = snprintf(out + len, n - len, "   s send  r recv  x both  C coll  W wait  \u00b7 comp");
		if (w > 0)
			len += (size_t)w;
		if ((*a || *b) && len < n) {
			w = snprintf(out + len, n - len, "%*s%s%s%s %s", ent[i].gap, "",
				     a, *a && *b ? " " : "", b, ent[i].what);
			if (w > 0)
				len += (size_t)w;
		}
	}
}

static void
draw_footer(struct view *v, struct grid *g)
{
	int y = g->h - 1, x = 0, w = g->w;
	grid_fill(g, 0, y, w, 1, ' ', ST_NORMAL);
	if (v->input != INPUT_NONE) {
		x += grid_text(g, x, y, w, ST_EMPH, v->input == INPUT_COMMAND ? ":" : "/");
		x += grid_text(g, x, y, w - x, ST_NORMAL, v->line);
		struct cell *c = grid_at(g, x, y);
		if (c)
			c->mark |= MARK_SEL;
		return;
	}
	if (v->message[0]) {
		grid_text(g, 1, y, w - 1, v->message_error ? ST_ERROR : ST_EMPH, v->message);
		return;
	}
	x = 1;
	char buf[64];
	x += grid_text(g, x, y, w - x, ST_TITLE, view_metric_title(v->metric));
	if (view_metric_numeric(v->metric)) {
		uint64_t lo = view_index_min(v->ix);
		if (lo) {
			trace_fmt_duration(v->t, lo, buf, sizeof buf);
			x += grid_printf(g, x, y, w - x, ST_LABEL, " %s ", buf);
		} else {
			x += grid_text(g, x, y, w - x, ST_LABEL, " 0 ");
		}
		for (int l = 0; l < GRID_HEAT_LEVELS && x < w; l++)
			grid_put(g, x++, y, 0x2588, ST_HEAT0 + l);
		trace_fmt_duration(v->t, view_index_max(v->ix, v->metric), buf, sizeof buf);
		x += grid_printf(g, x, y, w - x, ST_LABEL, " %s", buf);
	} else {
		x += grid_text(g, x, y, w - x, ST_LABEL, " ");
		for (int l = 0; l < GRID_CATS && x < w; l++)
			grid_put(g, x++, y, 0x2588, ST_CAT0 + l);
		x += grid_text(g, x, y, w - x, ST_LABEL,
			       v->metric == METRIC_PARTITION ? " by partition" : " by region");
	}
	char legend[256];
	legend_keys(v->km, legend, sizeof legend);
	grid_text(g, x, y, w - x, ST_DIM, legend);
}

static void
draw_tiny(struct view *v, struct grid *g)
{
	char buf[128];
	snprintf(buf, sizeof buf, "terminal too small: %dx%d", g->w, g->h);
	int y = g->h / 2 - 1;
	if (y < 0)
		y = 0;
	int n = grid_text_width(buf);
	grid_text(g, n < g->w ? (g->w - n) / 2 : 0, y, g->w, ST_ERROR, buf);
	snprintf(buf, sizeof buf, "skein needs %dx%d (q quits)", v->solo >= 0 ? 20 : MIN_W, v->solo >= 0 ? 3 : MIN_H);
	n = grid_text_width(buf);
	grid_text(g, n < g->w ? (g->w - n) / 2 : 0, y + 1, g->w, ST_NORMAL, buf);
}

static void
draw_help(struct view *v, struct grid *g)
{
	int w = g->w - 4 < 84 ? g->w - 4 : 84;
	int h = g->h - 2;
	if (v->solo == PANE_HELP) {
		w = g->w;
		h = g->h;
	}
	if (w < 20 || h < 4)
		return;
	int x = (g->w - w) / 2, y = v->solo == PANE_HELP ? 0 : 1;
	grid_fill(g, x, y, w, h, ' ', ST_NORMAL);
	v->pane[PANE_HELP] = (struct rect){ x, y, w, h };
	draw_pane(v, g, PANE_HELP);
}

void
view_draw(struct view *v, struct grid *g)
{
	layout(v, g->w, g->h);
	view_scroll_to_selection(v, 0);
	grid_clear(g);
	if (v->tiny) {
		draw_tiny(v, g);
		return;
	}
	if (v->solo >= 0) {
		if (v->solo == PANE_HELP)
			draw_help(v, g);
		else
			draw_pane(v, g, v->solo);
		return;
	}
	draw_status(v, g);
	for (int id = 0; id < PANE_HELP; id++)
		if (v->shown[id])
			draw_pane(v, g, id);
	draw_footer(v, g);
	if (v->help_open)
		draw_help(v, g);
}

/* ---- dispatch ------------------------------------------------------------ */

static void
cycle_focus(struct view *v, int dir)
{
	for (int i = 1; i <= PANE_COUNT; i++) {
		int id = ((v->focus + dir * i) % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
		if (panes[id]->focusable && v->shown[id]) {
			v->focus = id;
			return;
		}
	}
}

static int
help_action(struct view *v, enum action act)
{
	if (view_lines_scroll(&v->help, act))
		return 1;
	switch (act) {
	case ACT_HELP: case ACT_CLOSE: case ACT_QUIT:
		if (v->solo == PANE_HELP && act == ACT_QUIT)
			v->quit = 1;
		v->help_open = v->solo == PANE_HELP;
		break;
	case ACT_REDRAW: v->repaint = 1; break;
	default: break;     /* the rest waits until the help is closed */
	}
	return 1;
}

void
view_action(struct view *v, enum action act)
{
	if (v->help_open) {
		help_action(v, act);
		return;
	}
	switch (act) {
	case ACT_NONE: return;
	case ACT_QUIT: v->quit = 1; return;
	case ACT_HELP: v->help_open = 1; v->help.scroll = 0; return;
	case ACT_CLOSE: v->message[0] = 0; return;
	case ACT_REDRAW: v->repaint = 1; return;
	case ACT_NEXT_PANE: cycle_focus(v, 1); return;
	case ACT_PREV_PANE: cycle_focus(v, -1); return;
	case ACT_METRIC_NEXT:
	case ACT_METRIC_PREV:
		v->metric = (enum view_metric)(((int)v->metric + (act == ACT_METRIC_NEXT ? 1 : METRIC_COUNT - 1)) % METRIC_COUNT);
		if (v->metric == METRIC_DELTA && !v->diff)   /* only with another run */
			v->metric = act == ACT_METRIC_NEXT ? METRIC_LATENESS : METRIC_DELTA - 1;
		view_select_update(v);
		return;
	case ACT_STARTUP: {
		int on = !view_index_startup(v->ix);
		view_index_set_startup(v->ix, on);
		v->gc_valid = v->ov_valid = v->tl_valid = 0;
		v->hot_idx = -1;
		view_set_message(v, 0, on ? "start-up counted: in scales, time axes and hotspots"
				 : "start-up left out of scales, time axes and hotspots");
		return;
	}
	case ACT_COMMAND:
	case ACT_SEARCH:
		v->input = act == ACT_COMMAND ? INPUT_COMMAND : INPUT_SEARCH;
		v->line[0] = 0;
		v->line_len = 0;
		return;
	case ACT_SEARCH_NEXT: view_search_step(v, 1); return;
	case ACT_SEARCH_PREV: view_search_step(v, -1); return;
	case ACT_TOPOLOGY:
	case ACT_HISTOGRAM: {
		int id = act == ACT_TOPOLOGY ? PANE_TOPO : PANE_HIST;
		if (v->solo >= 0)
			return;
		v->side = v->side == id ? PANE_DETAILS : id;
		v->focus = v->side == PANE_DETAILS ? PANE_GRID : id;
		return;
	}
	default: break;
	}
	if (act >= ACT_PANE_MODE && act <= ACT_PANE_ENDS) {
		/* the topology or histogram pane on screen, focused or not */
		int id = v->solo >= 0 ? v->solo : v->side;
		if (panes[id]->request)
			panes[id]->request(v, act);
		return;
	}
	/* the focused pane first: the topology tree takes Space and Enter */
	const struct view_ops *ops = panes[v->focus];
	if (ops->request && ops->request(v, act))
		return;
	if (view_cluster_action(v, act))
		return;
	view_nav_action(v, act);
}

void
view_key(struct view *v, uint32_t key)
{
	if (v->input != INPUT_NONE) {
		view_input_key(v, key);
		return;
	}
	v->message[0] = 0;
	enum action act = keymap_action(v->km, key);
	if (act == ACT_NONE) {
		char name[16];
		if (!v->help_open)
			view_set_message(v, 1, "%s is not bound to anything (? shows the keys)", keymap_key_name(key, name));
		return;
	}
	view_action(v, act);
}

static double
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
view_render(const struct analysis *a, const struct view_opts *vo,
	    const struct view_render_opts *ro, FILE *out, struct view_render_stats *st,
	    struct err *e)
{
	if (ro->w < 1 || ro->h < 1 || ro->w > 10000 || ro->h > 10000)
		return err_set(e, ERR_USAGE, "screen size %dx%d is out of range", ro->w, ro->h);
	uint32_t *keys = NULL;
	size_t nkeys = 0;
	if (ro->keys && *ro->keys) {
		size_t max = strlen(ro->keys) + 1;
		keys = malloc(max * sizeof *keys);
		if (!keys)
			return err_set(e, ERR_NOMEM, "out of memory");
		int rc = keymap_script(ro->keys, keys, max, &nkeys, e);
		if (rc) {
			free(keys);
			return rc;
		}
	}
	struct view *v = NULL;
	int rc = view_create(a, vo, &v, e);
	if (rc) {
		free(keys);
		return rc;
	}
	struct grid *g = grid_create(ro->w, ro->h);
	if (!g) {
		view_destroy(v);
		free(keys);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	struct view_render_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	double t0 = now_ms();
	view_draw(v, g);
	st->first_draw_ms = now_ms() - t0;
	for (size_t i = 0; i < nkeys && !view_done(v); i++) {
		t0 = now_ms();
		view_key(v, keys[i]);
		view_draw(v, g);
		double dt = now_ms() - t0;
		st->keys++;
		st->total_ms += dt;
		if (dt > st->max_ms)
			st->max_ms = dt;
	}
	rc = grid_write(g, out, ro->depth, ro->ascii);
	if (rc)
		err_set(e, rc, "cannot write the screen");
	grid_destroy(g);
	view_destroy(v);
	free(keys);
	return rc;
}

void
view_get_state(const struct view *v, struct view_state *st)
{
	st->metric = v->metric;
	st->sel_rank = v->sel_rank;
	st->sel_step = v->sel_step;
	st->zoom_steps = v->zs;
	st->zoom_ranks = v->zr;
	st->clusters = v->clustered && v->vc ? view_cluster_groups(v->vc) : 0;
	st->window = 1;
	st->win_step = v->win_step;
	st->win_rank = v->win_rank;
	st->win_steps = (uint32_t)(v->cols > 0 ? v->cols : 1) * (v->zs ? v->zs : 1);
	st->win_ranks = (uint32_t)(v->rows > 0 ? v->rows : 1) * (v->zr ? v->zr : 1);
	/* what is really in view: no further than the trace goes */
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	if (st->win_step + st->win_steps > ns)
		st->win_steps = ns > st->win_step ? ns - st->win_step : 1;
	if (st->win_rank + st->win_ranks > nr)
		st->win_ranks = nr > st->win_rank ? nr - st->win_rank : 1;
}

void
view_set_state(struct view *v, const struct view_state *st)
{
	char cmd[64];
	if (st->metric < METRIC_COUNT && (st->metric != METRIC_DELTA || v->diff))
		v->metric = st->metric;
	if (st->clusters) {
		snprintf(cmd, sizeof cmd, "clusters %u", st->clusters);
		view_command(v, cmd);
	} else {
		view_set_zoom(v, st->zoom_steps ? st->zoom_steps : 1, st->zoom_ranks ? st->zoom_ranks : 1);
	}
	snprintf(cmd, sizeof cmd, "rank %u", st->sel_rank);
	view_command(v, cmd);
	snprintf(cmd, sizeof cmd, "step %u", st->sel_step);
	view_command(v, cmd);
	if (st->window && !v->clustered) {
		/* the window starts where it was; drawing keeps the selection in it */
		uint32_t zs = v->zs ? v->zs : 1, zr = v->zr ? v->zr : 1;
		v->win_step = st->win_step / zs * zs;
		v->win_rank = st->win_rank / zr * zr;
	}
	v->message[0] = 0;     /* restoring is silent */
}
