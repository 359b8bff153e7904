/* view.c — the explorer session: lifecycle, the first screen, layout,
 * drawing, dispatch.
 *
 * Panes live in view_*.c; the status line and footer in view_bars.c;
 * moving and jumping in view_nav.c; the command line in view_cmd.c,
 * search in view_search.c, the mouse in view_mouse.c.
 */
#include "view_impl.h"

#include "analysis/explain/explain.h"

#include "model/charm.h"

#include <stdio.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"

/* Smallest screen with a usable layout; below it a message says so. */
#define MIN_W 40
#define MIN_H 12
#define SOLO_MIN_W 20
#define SOLO_MIN_H 3

static const struct view_ops *const panes[PANE_COUNT] = {
	[PANE_GRID] = &view_grid_ops,
	[PANE_OVERVIEW] = &view_overview_ops,
	[PANE_TIMELINE] = &view_timeline_ops,
	[PANE_DETAILS] = &view_details_ops,
	[PANE_TOPO] = &view_topo_ops,
	[PANE_HIST] = &view_hist_ops,
	[PANE_PROFILE] = &view_profile_ops,
	[PANE_COMM] = &view_comm_ops,
	[PANE_LISTS] = &view_lists_ops,
	[PANE_OFFENDERS] = &view_offenders_ops,
	[PANE_PHIST] = &view_phist_ops,
	[PANE_SCORES] = &view_scores_ops,
	[PANE_CLUSTERS] = &view_mclusters_ops,
	[PANE_HELP] = &view_help_ops,
};

const struct view_ops *
view_pane_ops(int id)
{
	return id >= 0 && id < PANE_COUNT ? panes[id] : NULL;
}

void
view_min_size(const char *pane, int *w, int *h)
{
	*w = pane ? SOLO_MIN_W : MIN_W;
	*h = pane ? SOLO_MIN_H : MIN_H;
}

const char *
view_pane_names(void)
{
	return "grid overview timeline details help topology histogram profile comm lists "
	       "offenders parallel scores clusters";
}

int
view_pane_find(const char *name)
{
	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(name, panes[i]->name) == 0)
			return i;
	return -1;
}

#define pane_find view_pane_find

int
view_pane_known(const char *name)
{
	return pane_find(name) >= 0;
}

/* What the reader warned of (skein info lists the same), said once at
 * start: a user must know the trace's quality before trusting it. */
static void
quality_note(struct view *v)
{
	static const enum trace_warning shown[] = {
		WARN_MISNESTED_LEAVE, WARN_STRAY_LEAVE, WARN_UNCLOSED_REGION, WARN_MEASUREMENT_OFF,
		WARN_UNMATCHED_SEND, WARN_UNMATCHED_RECV, WARN_INCOMPLETE_COLL, WARN_TIME_BACKWARDS,
		WARN_BAD_PEER, WARN_UNKNOWN_REQUEST, WARN_SIZE_MISMATCH, WARN_BAD_REF,
		WARN_EVENT_COUNT_MISMATCH,
	};
	const struct trace_info *ti = trace_info(v->t);
	size_t len = 0;
	v->start_note[0] = 0;
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
		uint64_t n = ti->warnings[shown[i]];
		if (!n || len >= sizeof v->start_note)
			continue;
		int k = snprintf(v->start_note + len, sizeof v->start_note - len, "%s%llu %s",
				 len ? ", " : "trace quality: ", (unsigned long long)n,
				 trace_warning_count_text(v->t, shown[i], n));
		len += k > 0 ? (size_t)k : 0;
		v->quality_count += n;
	}
	if (len && len < sizeof v->start_note)
		snprintf(v->start_note + len, sizeof v->start_note - len, " ('skein info' lists them)");
}

/* The first screen, once the layout is known: the top hotspot, or when
 * nothing is late, the whole trace fitted if it is wider than the grid.
 * The reader's warnings stay in the message, before the hotspot's. */
static void
first_screen(struct view *v)
{
	uint32_t nh, np;
	v->start_pending = 0;
	analysis_hotspots_startup(v->a, view_index_startup(v->ix), &nh);
	analysis_problems(v->a, &np);
	if (nh || np) {
		v->hot_idx = -1;
		view_nav_action(v, ACT_NEXT_HOTSPOT);
	} else {
		if (view_index_steps(v->ix) > (uint32_t)v->cols * v->zs)
			view_nav_action(v, ACT_ZOOM_FIT);
		view_set_message(v, 0, "no problem found: no operation created lateness, %s",
				 view_is_charm(v) ? "none ran longer than its peers"
				 : "waited for another or stood out from its iterations");
	}
	if (v->start_note[0]) {
		char m[sizeof v->message];
		snprintf(m, sizeof m, "%s", v->message);
		view_set_message(v, 0, "%s%s%s", v->start_note, m[0] ? " \u00b7 " : "", m);
		v->message_note = 1;
	}
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
		if (solo >= PANE_OFFENDERS && solo < PANE_HELP)
			return err_set(e, ERR_USAGE, "the %s pane shows sample sets (skein samples), not traces", o->pane);
	}
	struct view *v = calloc(1, sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, "out of memory");
	v->tlb.size = TL_BLOCK;
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
	v->search_chare = calloc(view_index_ranks(v->ix) + 1, 1);
	int lines_rc = view_lines_init(&v->details) | view_lines_init(&v->help) |
		prompt_init(&v->cmd_prompt) | prompt_init(&v->search_prompt);
	if (!v->km || !v->search_match || !v->search_chare || lines_rc || view_topo_create(v, o) ||
	    view_hist_create(v) || view_profile_create(v) || view_comm_create(v) || view_lists_create(v)) {
		view_destroy(v);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	snprintf(v->label, sizeof v->label, "%s", o && o->label ? o->label : "trace");
	v->metric = o && (unsigned)o->metric < METRIC_COUNT ? o->metric : METRIC_LATENESS;
	if (v->metric != METRIC_DELTA && !view_metric_usable(v, v->metric))
		v->metric = METRIC_LATENESS;        /* seed 004's: Charm++ only; waits: MPI (delta: below) */
	v->solo = solo;
	v->side = solo == PANE_TOPO || solo == PANE_HIST ? solo : PANE_DETAILS;
	v->zs = v->zr = 1;
	v->hot_idx = -1;
	v->focus = solo >= 0 && panes[solo]->focusable ? solo : PANE_GRID;
	v->help_open = solo == PANE_HELP;
	v->sel_lop = v->sel_max = TRACE_NONE;
	v->big = -1;
	v->tz_sel = TRACE_NONE;
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
	if (o && (o->ranks || o->from || o->to) && (rc = view_filter_set(v, o->ranks, o->from, o->to, e))) {
		view_destroy(v);
		return rc;
	}
	v->start_pending = !(o && (o->initial || o->start_origin));
	quality_note(v);
	snprintf(v->message, sizeof v->message, "%s", v->start_note);
	v->message_note = v->start_note[0] != 0;
	*out = v;
	return 0;
}

void
view_destroy(struct view *v)
{
	if (!v)
		return;
	view_prefetch_stop(v);               /* its jobs read the index */
	view_index_destroy(v->ix);
	view_rma_destroy(v->rma);
	view_cluster_destroy(v->vc);
	keymap_destroy(v->own_km);
	free(v->search_match);
	free(v->search_chare);
	view_pes_destroy(v->pes);
	view_search_reset(v);
	view_lines_fini(&v->details);
	view_lines_fini(&v->help);
	prompt_fini(&v->cmd_prompt);
	prompt_fini(&v->search_prompt);
	free(v->gc);
	free(v->ov);
	free(v->tl);
	free(v->tl_lc);
	free(v->tl_open);
	free(v->tl_map);
	tl_blocks_free(&v->tlb);
	free(v->tl_msg);
	view_topo_destroy(v->topo);
	view_hist_destroy(v->hist);
	view_profile_destroy(v->prof);
	view_comm_destroy(v->comm);
	view_lists_destroy(v->lists);
	free(v->f_ranks);
	view_samples_destroy(v->smp);
	free(v);
}

int view_done(const struct view *v) { return v->quit; }
int view_prompt_open(const struct view *v) { return v->input != INPUT_NONE; }

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
	v->message_note = 0;
}

const char *
view_key_name(const struct view *v, enum action act, char *buf, size_t n)
{
	char name[16];
	if (v->key && keymap_action(v->km, v->key) == act) {
		snprintf(buf, n, "%s", keymap_key_name(v->key, name));
		return buf;
	}
	keymap_first_key(v->km, act, buf, n);
	if (!*buf)
		snprintf(buf, n, "%s", action_info(act)->name);
	return buf;
}

const char *
view_row_noun(const struct view *v)
{
	return view_is_charm(v) ? "chare" : "rank";
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
	case OP_RMA: return 'R';
	}
	return '?';
}

int
view_kind_rank(int kind)
{
	switch (kind) {
	case OP_COLLECTIVE: return 6;
	case OP_WAIT: return 5;
	case OP_RMA: return 4;
	case OP_SENDRECV: return 3;
	case OP_RECV: return 2;
	case OP_SEND: return 1;
	}
	return 0;
}

uint32_t
view_kinds_glyph(unsigned kinds)
{
	if (kinds & 1u << OP_COLLECTIVE)
		return view_kind_glyph(OP_COLLECTIVE);
	if (kinds & 1u << OP_WAIT)
		return view_kind_glyph(OP_WAIT);
	if (kinds & 1u << OP_RMA)
		return view_kind_glyph(OP_RMA);
	if ((kinds & 1u << OP_SENDRECV) || ((kinds & 1u << OP_SEND) && (kinds & 1u << OP_RECV)))
		return view_kind_glyph(OP_SENDRECV);
	if (kinds & 1u << OP_RECV)
		return view_kind_glyph(OP_RECV);
	if (kinds & 1u << OP_SEND)
		return view_kind_glyph(OP_SEND);
	return view_kind_glyph(OP_COMPUTE);
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

/* Grid rows the trace wants at the current zoom: rows of ranks or of
 * clusters. */
static int
rows_wanted(const struct view *v)
{
	uint32_t n = v->clustered ? view_row_count(v) : (view_index_ranks(v->ix) + v->zr - 1) / v->zr;
	return n < 1 ? 1 : n > 10000 ? 10000 : (int)n;
}

/* Places the panes. Each pane gets what it can use and the rest goes
 * where it helps: the grid is as tall as its rows (box, step axis,
 * partition ruler, one line per row), the timeline as its ranks; with
 * the side pane on the right, rows left over in the left column hold a
 * second pane (the histogram, or the topology when the side holds the
 * histogram); stacked (under 100 columns), the details take what the
 * grid does not need, at least the seven lines whose compact form
 * shows lateness, differential lateness and cause. */
static void
layout(struct view *v, int w, int h)
{
	v->scr_w = w;
	v->scr_h = h;
	memset(v->shown, 0, sizeof v->shown);
	memset(v->pane, 0, sizeof v->pane);
	v->extra = -1;
	v->tiny = w < MIN_W || h < MIN_H;
	if (v->solo >= 0) {
		v->tiny = w < SOLO_MIN_W || h < SOLO_MIN_H;
		if (v->solo != PANE_GRID)    /* the grid's window still drives the others */
			v->pane[PANE_GRID] = (struct rect){ 0, 0, w, h };
		v->pane[v->solo] = (struct rect){ 0, 0, w, h };
		v->shown[v->solo] = 1;
		goto sizes;
	}
	if (v->tiny)
		return;
	int want = rows_wanted(v);
	int grid_need = 4 + want, grid_min = 4 + (want < 4 ? want : 4);
	/* box, time axis, rows, legend; a Charm++ run's timeline has a row
	 * per PE, not per chare */
	int tl_need = 4 + (view_is_charm(v) && view_pe_rows(v) ? (int)(view_pe_rows(v) < 10000 ? view_pe_rows(v) : 10000)
			   : want);
	int body_y = 1, body_h = h - 1 - view_footer_lines(v, w, h);
	if (body_h < grid_min)       /* the grid's least, whatever the message */
		body_h = grid_min;
	int left_w = w, ov_h = v->no_overview ? 0 : 4;
	int grid_h, tl_h = 0, det_h = 0, extra_h = 0;
	int tl_ok = !v->no_timeline && body_h >= 24;
	if (!v->no_side && w >= 100) {
		int dw = w * 3 / 10;
		dw = dw < 36 ? 36 : dw > 48 ? 48 : dw;
		if (v->side_width > 0)       /* as configured, leaving the grid 60 columns */
			dw = v->side_width < 20 ? 20 : v->side_width > w - 60 ? w - 60 : v->side_width;
		left_w = w - dw;
		v->pane[v->side] = (struct rect){ left_w, body_y, dw, body_h };
		v->shown[v->side] = 1;
		if (body_h - ov_h < grid_min)
			ov_h = 0;
		int avail = body_h - ov_h;
		/* the grid first, up to two thirds when the timeline needs the rest */
		int tl_want = tl_ok ? (tl_need < avail / 3 ? tl_need : avail / 3) : 0;
		grid_h = avail - tl_want < grid_min ? grid_min : avail - tl_want;
		grid_h = grid_h > grid_need ? grid_need : grid_h;
		grid_h = grid_h > avail ? avail : grid_h;
		tl_h = tl_ok ? avail - grid_h : 0;
		tl_h = tl_h > tl_need ? tl_need : tl_h;
		int spare = avail - grid_h - tl_h;
		if (spare >= 8) {
			v->extra = v->side == PANE_HIST ? PANE_TOPO : PANE_HIST;
			extra_h = spare;
		} else {
			grid_h += spare;
		}
	} else {
		int det_min = v->no_side ? 0 : 7;
		if (body_h - ov_h - grid_min < det_min)
			ov_h = 0;
		int avail = body_h - ov_h - det_min;
		grid_h = grid_need < avail ? grid_need : avail;
		if (grid_h < grid_min)       /* too low for the details: the grid first */
			grid_h = grid_min < body_h - ov_h ? grid_min : body_h - ov_h;
		int rest = body_h - ov_h - grid_h;
		if (tl_ok && v->no_side && rest >= 5) {
			tl_h = rest < tl_need ? rest : tl_need;
			rest -= tl_h;
		} else if (tl_ok && rest >= 21) {
			tl_h = rest - 14 < tl_need ? rest - 14 : tl_need;
			rest -= tl_h;
		} else if (!v->no_timeline && ov_h && !v->no_side && body_h < 24) {
			/* too low for both (80x24): when the grid shows every step,
			 * the overview repeats it, and the timeline shows time
			 * instead, as long as the details keep their seven lines */
			int lw = view_row_name_width(v) + 1;
			uint32_t ns = view_index_steps(v->ix);
			long cols = (long)w - 2 - (lw < 5 ? 5 : lw);
			int tl = rest + ov_h - det_min;
			tl = tl > tl_need ? tl_need : tl;
			if (cols > 0 && (uint64_t)ns <= (uint64_t)cols && v->zs <= 1 && tl >= 5 &&
			    !v->clustered && v->zr <= 1) {
				rest += ov_h - tl;
				ov_h = 0;
				tl_h = tl;
			}
		}
		if (v->no_side)
			grid_h += rest;
		else if (rest >= 3)
			det_h = rest;
		else
			grid_h += rest;
	}
	int y = body_y;
	v->pane[PANE_GRID] = (struct rect){ 0, y, left_w, grid_h };
	v->shown[PANE_GRID] = 1;
	y += grid_h;
	if (ov_h) {
		v->pane[PANE_OVERVIEW] = (struct rect){ 0, y, left_w, ov_h };
		v->shown[PANE_OVERVIEW] = 1;
		y += ov_h;
	}
	if (tl_h) {
		v->pane[PANE_TIMELINE] = (struct rect){ 0, y, left_w, tl_h };
		v->shown[PANE_TIMELINE] = 1;
		y += tl_h;
	}
	if (extra_h) {
		v->pane[v->extra] = (struct rect){ 0, y, left_w, extra_h };
		v->shown[v->extra] = 1;
	}
	if (det_h) {
		v->pane[v->side] = (struct rect){ 0, y, w, det_h };
		v->shown[v->side] = 1;
	}
	if (v->big >= 0) {
		/* one pane in the whole body: the grid keeps its place for
		 * navigation, unseen */
		memset(v->shown, 0, sizeof v->shown);
		v->pane[v->big] = (struct rect){ 0, body_y, w, body_h };
		v->shown[v->big] = 1;
		v->focus = v->big;
	}
sizes:;
	/* what navigation needs between draws: grid cells and label width */
	char buf[VIEW_MAX_ROW_NAME + 48];
	int lw = view_row_name_width(v);
	/* room for "r12-15" when rows aggregate, "step" and "part", and a
	 * column that points at the selected row */
	v->label_w = (v->zr == 1 ? lw : 2 * lw) + 1;
	if (v->clustered) {       /* "c12 r1023+97" and "  r1023" */
		int cw = 2 + lw;
		for (uint32_t g = 0; g < view_cluster_groups(v->vc); g++) {
			view_cluster_label(v, g, buf, sizeof buf);
			int n = text_width(buf);
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

/* Shortens a title of " · "-separated parts, most important first, to
 * max columns: trailing parts go first, and what still does not fit ends
 * in "…". */
void
view_fit_title(char *t, int max)
{
	static const char sep[] = " \u00b7 ";
	if (max < 1) {
		t[0] = 0;
		return;
	}
	char *p;
	while (text_width(t) > max && (p = strstr(t, sep))) {
		char *last = p;
		while ((p = strstr(last + 1, sep)))
			last = p;
		*last = 0;
	}
	if (text_width(t) > max) {
		size_t cut = text_cols_bytes(t, max - 1);
		memcpy(t + cut, "\u2026", sizeof "\u2026");
	}
}

static void
draw_pane(struct view *v, struct grid *g, int id)
{
	const struct view_ops *ops = panes[id];
	struct rect r = v->pane[id];
	if (r.w < 3 || r.h < 3)
		return;
	/* prepare first: a title names what prepare computed (the histogram's
	 * region), never what the previous frame showed */
	int iw = r.w - 2, ih = r.h - 2;
	if (ops->prepare)
		ops->prepare(v, iw, ih);
	char title[160] = "";
	if (ops->title)
		ops->title(v, title, sizeof title - 4);
	view_fit_title(title, r.w - 4);
	int focused = v->focus == id && v->solo < 0;
	grid_box(g, r.x, r.y, r.w, r.h, focused ? ST_BORDER_FOCUS : ST_BORDER, title,
		 focused ? ST_BORDER_FOCUS : ST_TITLE);
	for (int y = 0; y < ih; y++) {
		struct grid row = { iw, 1, grid_at(g, r.x + 1, r.y + 1 + y) };
		ops->row(v, y, &row);
	}
}

static void
draw_help(struct view *v, struct grid *g)
{
	/* an overlay 84 wide; below 100 columns the whole width, since
	 * margins of a few columns only show slivers of the panes ("│s│") */
	int w = g->w < 100 ? g->w : 84;
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
	if (v->smp) {                 /* a sample set: its own layout, status and footer */
		view_samples_layout(v, g->w, g->h);
	} else {
		layout(v, g->w, g->h);
		if (v->start_pending && !v->tiny) {
			first_screen(v);
			layout(v, g->w, g->h);     /* its message takes its lines */
		}
		view_scroll_to_selection(v, v->recenter && !v->tiny);
		if (!v->tiny)
			v->recenter = 0;
	}
	grid_clear(g);
	if (v->tiny) {
		view_draw_tiny(v, g);
		return;
	}
	if (v->solo >= 0) {
		if (v->solo == PANE_HELP)
			draw_help(v, g);
		else
			draw_pane(v, g, v->solo);
		return;
	}
	if (v->smp)
		view_samples_status(v, g);
	else
		view_draw_status(v, g);
	for (int id = 0; id < PANE_HELP; id++)
		if (v->shown[id])
			draw_pane(v, g, id);
	view_draw_footer(v, g);
	view_draw_border_key(v, g);
	if (v->help_open)
		draw_help(v, g);
}

/* ---- dispatch ------------------------------------------------------------ */

static void
cycle_focus(struct view *v, int dir)
{
	for (int i = 1; i < PANE_COUNT; i++) {
		int id = ((v->focus + dir * i) % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
		if (panes[id]->focusable && v->shown[id]) {
			v->focus = id;
			return;
		}
	}
	view_set_message(v, 0, "no other pane on the screen at %dx%d", v->scr_w, v->scr_h);
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
	char key[32];
	if (v->help_open) {
		help_action(v, act);
		return;
	}
	if (v->smp && view_samples_action(v, act))
		return;
	switch (act) {
	case ACT_NONE: return;
	case ACT_QUIT: v->quit = 1; return;
	case ACT_HELP: v->help_open = 1; v->help.scroll = 0; return;
	case ACT_CLOSE:
		/* a pane in the whole body closes (its own list first) */
		if (v->big >= 0 && panes[v->focus]->request && panes[v->focus]->request(v, act))
			return;
		if (v->big >= 0)
			view_big_toggle(v, v->big);
		v->message[0] = 0;
		return;
	case ACT_REDRAW: v->repaint = 1; return;
	case ACT_NEXT_PANE: cycle_focus(v, 1); return;
	case ACT_PREV_PANE: cycle_focus(v, -1); return;
	case ACT_METRIC_NEXT:
	case ACT_METRIC_PREV:
		do {    /* delta only with another run; seed 004's metrics only for Charm++ */
			v->metric = (enum view_metric)(((int)v->metric + (act == ACT_METRIC_NEXT ? 1 : METRIC_COUNT - 1)) % METRIC_COUNT);
		} while (!view_metric_usable(v, v->metric));
		view_select_update(v);
		return;
	case ACT_STARTUP: {
		int on = !view_index_startup(v->ix);
		view_index_set_startup(v->ix, on);
		v->gc_valid = v->ov_valid = v->tl_valid = 0;
		v->hot_idx = -1;
		if (view_is_charm(v))
			view_set_message(v, 0, on ? "hotspots: every operation, the runtime's and the set-up's too"
					 : "hotspots: the application's own work (no runtime entries, constructors or leading phase)");
		else
			view_set_message(v, 0, on ? "start-up counted: in scales, time axes and hotspots"
					 : "start-up left out of scales, time axes and hotspots");
		return;
	}
	case ACT_COMMAND:
	case ACT_SEARCH:
		v->input = act == ACT_COMMAND ? INPUT_COMMAND : INPUT_SEARCH;
		prompt_start(act == ACT_COMMAND ? &v->cmd_prompt : &v->search_prompt);
		return;
	case ACT_SEARCH_NEXT: view_search_step(v, 1); return;
	case ACT_SEARCH_PREV: view_search_step(v, -1); return;
	case ACT_TOPOLOGY:
	case ACT_HISTOGRAM: {
		int id = act == ACT_TOPOLOGY ? PANE_TOPO : PANE_HIST;
		if (v->solo >= 0) {
			view_set_message(v, 1, "%s: one pane alone (--pane %s)", view_key_name(v, act, key, sizeof key),
					 panes[v->solo]->name);
			return;
		}
		v->side = v->side == id ? PANE_DETAILS : id;
		v->focus = v->side == PANE_DETAILS ? PANE_GRID : id;
		if (v->side == id && v->scr_w) {
			/* a screen too small for it says so, rather than nothing */
			layout(v, v->scr_w, v->scr_h);
			if (!v->shown[id] && !v->tiny) {
				v->focus = PANE_GRID;
				view_set_message(v, 1, "no room for the %s at %dx%d (%s closes it)", panes[id]->name,
						 v->scr_w, v->scr_h, view_key_name(v, act, key, sizeof key));
			}
		}
		return;
	}
	case ACT_PROFILE: view_big_toggle(v, PANE_PROFILE); return;
	case ACT_COMM: view_big_toggle(v, PANE_COMM); return;
	case ACT_LISTS: view_big_toggle(v, PANE_LISTS); return;
	case ACT_TIMELINE: view_big_toggle(v, PANE_TIMELINE); return;
	case ACT_SELECT_OR: case ACT_SELECT_AND: case ACT_SELECT_CLEAR: case ACT_SELECT_MARK:
		if ((act == ACT_SELECT_MARK || act == ACT_SELECT_CLEAR) && v->focus == PANE_TIMELINE &&
		    (v->shown[PANE_TIMELINE] || v->big == PANE_TIMELINE) && panes[PANE_TIMELINE]->request(v, act))
			return;
		if (act == ACT_SELECT_MARK || act == ACT_SELECT_CLEAR)
			view_set_message(v, 1, "%s is for memory samples (skein samples DIR), and in the timeline "
					 "%s", view_key_name(v, act, key, sizeof key),
					 act == ACT_SELECT_MARK ? "marks a window of time" : "drops the window of time marked");
		else
			view_set_message(v, 1, "%s is for memory samples (skein samples DIR)",
					 view_key_name(v, act, key, sizeof key));
		return;
	default: break;
	}
	if (act >= ACT_PANE_MODE && act <= ACT_PANE_ENDS && (v->focus == PANE_PROFILE ||
	    v->focus == PANE_COMM || v->focus == PANE_LISTS) && (v->shown[v->focus] || v->big == v->focus) &&
	    panes[v->focus]->request(v, act))
		return;
	if (act >= ACT_PANE_MODE && act <= ACT_PANE_ENDS) {
		/* the topology or histogram pane on screen, focused or not:
		 * the focused one, else the side's, else the one below */
		int id = v->solo >= 0 ? v->solo : v->focus == PANE_TOPO || v->focus == PANE_HIST ? v->focus
			: v->side != PANE_DETAILS || v->extra < 0 ? v->side : v->extra;
		if ((id == PANE_TOPO || id == PANE_HIST) && v->shown[id] && panes[id]->request &&
		    panes[id]->request(v, act))
			return;
		char t[16], d[16];
		view_key_name(v, act, key, sizeof key);
		keymap_first_key(v->km, ACT_TOPOLOGY, t, sizeof t);
		keymap_first_key(v->km, ACT_HISTOGRAM, d, sizeof d);
		if (act == ACT_PANE_ENDS)
			view_set_message(v, 1, "%s is for the histogram's density plot (%s, then v)", key, d);
		else if ((id == PANE_TOPO || id == PANE_HIST) && v->shown[id])
			view_set_message(v, 1, "%s does nothing in the %s", key, panes[id]->name);
		else if (id == PANE_TOPO || id == PANE_HIST)
			view_set_message(v, 1, "no room for the %s at %dx%d", panes[id]->name, v->scr_w, v->scr_h);
		else
			view_set_message(v, 1, "%s is for the topology (%s) or the histogram (%s)", key, t, d);
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
	if (key & KM_MOUSE) {
		enum km_mouse_kind mk;
		int mx, my;
		/* a release ends a drag and says nothing else: the message of
		 * the click before it stays */
		int release = keymap_mouse_decode(key, &mk, &mx, &my) && mk == MOUSE_RELEASE;
		if (v->input == INPUT_NONE) {
			if (!release)
				v->message[0] = 0;
			view_mouse(v, key);
		}
		return;
	}
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
	v->key = key;
	view_action(v, act);
	v->key = 0;
}

static double
now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The key script of ro, parsed: *keys malloc'd (NULL without one). */
static int
render_keys(const struct view_render_opts *ro, uint32_t **keys, size_t *nkeys, struct err *e)
{
	*keys = NULL;
	*nkeys = 0;
	if (ro->w < 1 || ro->h < 1 || ro->w > 10000 || ro->h > 10000)
		return err_set(e, ERR_USAGE, "screen size %dx%d is out of range", ro->w, ro->h);
	if (!ro->keys || !*ro->keys)
		return 0;
	size_t max = strlen(ro->keys) + 1;
	*keys = malloc(max * sizeof **keys);
	if (!*keys)
		return err_set(e, ERR_NOMEM, "out of memory");
	int rc = keymap_script(ro->keys, *keys, max, nkeys, e);
	if (rc) {
		free(*keys);
		*keys = NULL;
	}
	return rc;
}

int
view_render_run(struct view *v, const struct view_render_opts *ro, FILE *out, struct view_render_stats *st,
		struct err *e)
{
	uint32_t *keys;
	size_t nkeys;
	int rc = render_keys(ro, &keys, &nkeys, e);
	if (rc)
		return rc;
	struct grid *g = grid_create(ro->w, ro->h);
	if (!g) {
		free(keys);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	struct view_render_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	view_set_colourless(v, ro->depth == DEPTH_MONO);
	double t0 = now_ms();
	view_draw(v, g);
	st->first_draw_ms = now_ms() - t0;
	if (nkeys) {
		t0 = now_ms();
		view_prefetch_start(v);
		if (ro->wait_background) {
			view_prefetch_wait(v);
			st->background_ms = now_ms() - t0;
		}
	}
	for (size_t i = 0; i < nkeys && !view_done(v); i++) {
		t0 = now_ms();
		if ((rc = view_press(v, g, keys[i])))
			break;
		double dt = now_ms() - t0;
		int w, h, resize = keymap_resize_decode(keys[i], &w, &h);
		double *max = resize ? &st->max_resize_ms : &st->max_ms;
		*(resize ? &st->resizes : &st->keys) += 1;
		st->total_ms += resize ? 0 : dt;
		*max = dt > *max ? dt : *max;
	}
	if (rc)
		err_set(e, rc, "out of memory");
	else if ((rc = grid_write(g, out, ro->depth, ro->ascii)))
		err_set(e, rc, "cannot write the screen");
	grid_destroy(g);
	free(keys);
	return rc;
}

int
view_render(const struct analysis *a, const struct view_opts *vo,
	    const struct view_render_opts *ro, FILE *out, struct view_render_stats *st,
	    struct err *e)
{
	uint32_t *keys;
	size_t nkeys;
	int rc = render_keys(ro, &keys, &nkeys, e);   /* a bad script before the work */
	free(keys);
	if (rc)
		return rc;
	struct view *v = NULL;
	if ((rc = view_create(a, vo, &v, e)))
		return rc;
	rc = view_render_run(v, ro, out, st, e);
	view_destroy(v);
	return rc;
}
