/* view_hist.c — the histogram pane: distributions of lateness,
 * differential lateness, call durations and message sizes, the stacked
 * activity timeline and the duration-versus-time density plot (seed 003
 * §2), for the whole trace or the selection. The models are hist.h's;
 * this file only bins them to the pane's size and fills cells.
 *
 * In a samples session the pane shows one attribute (the one the scores
 * and clusters run along, m and M change it): the samples looked at in
 * every bin, the selection highlighted inside; a cursor and a range of
 * bins select samples (view_samples.h). The score strip under it
 * (view_scores.c) follows its label width. */
#include "view_impl.h"
#include "view_samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* HK_IDLE (seed 004's idle experienced) is offered for Charm++ traces only. */
enum hist_kind { HK_LATENESS, HK_DIFF, HK_DURATION, HK_MSGSIZE, HK_ACTIVITY, HK_DENSITY, HK_IDLE, HK_COUNT };

static const char *const kind_names[HK_COUNT] = {
	"lateness", "differential lateness", "duration", "message size", "activity", "density",
	"idle experienced",
};

#define MAX_FUNCS 6
#define O_MIN 0.2          /* the density plot's minimum opacity at first */

struct view_hist {
	enum hist_kind kind;
	int kind_set;              /* the first kind chosen (by paradigm) */
	int scope, lin_counts, log_map, use_end;
	int o_min;                 /* the density plot's minimum opacity, in tenths */
	uint64_t key[11];
	int valid, w, h;
	uint32_t region;           /* HK_DURATION: TRACE_NONE for every call */
	uint64_t t0, t1;           /* time range of the scope */
	struct hist hist;
	struct activity act;
	struct density den;
	int sel_bin;               /* the selection's bin (selected_bin), per frame */
	double sel_val;
	char error[120];
	/* samples: the attribute's bins, the selection's counts, the cursor */
	int samples;
	struct mem_bins mb;
	uint64_t *sel_count;
	struct vs_cursor cur;
	int cw;
};

const char *
view_scope_name(int scope)
{
	static const char *const names[SCOPE_COUNT] = { "whole trace", "partition", "steps in view" };
	return scope >= 0 && scope < SCOPE_COUNT ? names[scope] : "?";
}

void
view_scope_select(const struct view *v, int scope, struct hist_select *sel)
{
	*sel = (struct hist_select){ .part = TRACE_NONE, .no_startup = !view_index_startup(v->ix) };
	if (scope == SCOPE_PART && v->sel_lop != TRACE_NONE) {
		sel->part = analysis_lop_part(v->a, v->sel_lop);
	} else if (scope == SCOPE_WINDOW) {
		sel->step_first = v->win_step;
		sel->step_end = view_steps_end(v);
		if (sel->step_end <= sel->step_first)     /* step_end 0 would mean all */
			sel->step_end = sel->step_first + 1;
	}
}

int
view_scope_has(const struct view *v, const struct hist_select *sel, uint32_t lop)
{
	if (sel->part != TRACE_NONE && analysis_lop_part(v->a, lop) != sel->part)
		return 0;
	if (sel->no_startup && analysis_lop_startup(v->a, lop))
		return 0;
	if (sel->step_end) {
		uint32_t s = analysis_lop_step(v->a, lop);
		return s >= sel->step_first && s < sel->step_end;
	}
	return 1;
}

int
view_hist_create(struct view *v)
{
	v->hist = calloc(1, sizeof *v->hist);
	if (!v->hist)
		return ERR_NOMEM;
	v->hist->samples = v->smp != NULL;
	v->hist->cur.anchor = SAMPLES_NONE;
	v->hist->o_min = (int)(O_MIN * 10 + 0.5);
	return 0;
}

int vs_hist_label_w(void) { return 7; }

/* Samples: the current attribute binned to at most cw columns, counts of
 * what is looked at and of the selection. */
static int
compute_samples(struct view *v, int cw)
{
	struct view_hist *vh = v->hist;
	struct view_samples *vs = v->smp;
	mem_bins_for(vs->m, vs->attr, (uint32_t)cw, &vh->mb);
	struct hist *h = &vh->hist;
	memset(h, 0, sizeof *h);
	h->n_bins = vh->mb.n;
	h->lo = vh->mb.lo;
	h->hi = vh->mb.hi;
	h->count = calloc(h->n_bins, sizeof *h->count);
	vh->sel_count = calloc(h->n_bins, sizeof *vh->sel_count);
	if (!h->count || !vh->sel_count)
		return ERR_NOMEM;
	mem_bin_counts(vs->m, &vh->mb, vs_looked(vs), vs->n_sel ? &vs->sel : NULL, h->count,
		       vs->n_sel ? vh->sel_count : NULL);
	for (uint32_t b = 0; b < h->n_bins; b++) {
		h->total += h->count[b];
		h->peak = h->count[b] > h->peak ? h->count[b] : h->peak;
	}
	if (vh->cur.bin >= h->n_bins)
		vh->cur.bin = h->n_bins - 1;
	if (vh->cur.anchor != SAMPLES_NONE && vh->cur.anchor >= h->n_bins)
		vh->cur.anchor = SAMPLES_NONE;
	vh->cw = cw;
	return 0;
}

static void
release(struct view_hist *vh)
{
	free(vh->sel_count);
	vh->sel_count = NULL;
	hist_fini(&vh->hist);
	activity_fini(&vh->act);
	density_fini(&vh->den);
	vh->valid = 0;
}

void
view_hist_destroy(struct view_hist *vh)
{
	if (!vh)
		return;
	release(vh);
	free(vh);
}

/* ---- computing --------------------------------------------------------- */

static void
time_range(struct view *v, const struct hist_select *sel)
{
	struct view_hist *vh = v->hist;
	uint64_t t0 = UINT64_MAX, t1 = 0;
	uint32_t n = analysis_lop_count(v->a);
	for (uint32_t l = 0; l < n; l++) {
		if (!view_scope_has(v, sel, l))
			continue;
		uint64_t en = analysis_lop_enter(v->a, l), ex = analysis_lop_exit(v->a, l);
		t0 = en < t0 ? en : t0;
		t1 = ex > t1 ? ex : t1;
	}
	/* the time axis starts once every rank has left its start-up */
	uint64_t se = sel->no_startup ? analysis_startup_end(v->a) : 0;
	if (t0 < se && se < t1)
		t0 = se;
	vh->t0 = t0 <= t1 ? t0 : 0;
	vh->t1 = t0 <= t1 ? t1 : 0;
}

static int
compute(struct view *v, const struct hist_select *sel, int cw, int ch)
{
	struct view_hist *vh = v->hist;
	double *val = NULL;
	size_t n = 0;
	int rc = 0;
	switch (vh->kind) {
	case HK_LATENESS:
	case HK_DIFF:
	case HK_DURATION:
	case HK_IDLE: {
		enum hist_metric m = vh->kind == HK_LATENESS ? HM_LATENESS : vh->kind == HK_DIFF ? HM_DIFF
				   : vh->kind == HK_IDLE ? HM_IDLE : HM_DURATION;
		rc = hist_collect(v->a, m, vh->region, sel, &val, &n);
		if (!rc)
			rc = hist_build(val, n, (uint32_t)cw, 1, &vh->hist);
		break;
	}
	case HK_MSGSIZE:
		rc = hist_collect_msg_sizes(v->t, &val, &n);
		if (!rc)
			rc = hist_build(val, n, (uint32_t)cw, 1, &vh->hist);
		break;
	case HK_ACTIVITY:
		time_range(v, sel);
		if (vh->t1 > vh->t0)
			rc = activity_compute(v->t, vh->t0, vh->t1, (uint32_t)cw, MAX_FUNCS, &vh->act);
		break;
	case HK_DENSITY:
		time_range(v, sel);
		if (vh->t1 > vh->t0)
			rc = density_compute(v->t, vh->t0, vh->t1, (uint32_t)cw, (uint32_t)ch, vh->use_end,
					     vh->log_map ? DENSITY_LOG : DENSITY_LINEAR, vh->o_min / 10.0, &vh->den);
		break;
	case HK_COUNT:
		break;
	}
	free(val);
	return rc;
}

/* The chart: header, ch rows, x labels (and a legend for activity). */
static int
chart_rows(const struct view_hist *vh, int h)
{
	return h - (vh->kind == HK_ACTIVITY || vh->kind == HK_DENSITY ? 3 : 2);
}

static int
label_w(const struct view_hist *vh)
{
	return vh->kind == HK_DENSITY ? 9 : vh->kind == HK_ACTIVITY ? 5 : 7;
}

static int selected_bin(const struct view *v, double *val);

/* A Charm++ run opens on its entry methods' durations, seed 004's
 * measure, not on seed 000's lateness. */
static void
first_kind(struct view *v)
{
	struct view_hist *vh = v->hist;
	if (vh->kind_set)
		return;
	vh->kind_set = 1;
	if (!vh->samples && view_is_charm(v))
		vh->kind = HK_DURATION;
}

static void
hist_prepare(struct view *v, int w, int h)
{
	struct view_hist *vh = v->hist;
	first_kind(v);
	int cw = w - label_w(vh), ch = chart_rows(vh, h);
	if (cw < 4 || ch < 2) {
		release(vh);
		snprintf(vh->error, sizeof vh->error, "too small");
		return;
	}
	/* what the histogram depends on: the samples' attribute and sets, or
	 * the trace's kind, scope and region */
	struct hist_select sel = { .part = TRACE_NONE };
	uint32_t region = TRACE_NONE;
	uint64_t key[11];
	if (vh->samples) {
		struct view_samples *vs = v->smp;
		uint64_t k[11] = { vs->attr, vs->version, (uint64_t)cw, (uint64_t)ch };
		memcpy(key, k, sizeof key);
	} else {
		view_scope_select(v, vh->kind == HK_MSGSIZE ? SCOPE_ALL : vh->scope, &sel);
		if (vh->kind == HK_DURATION && v->sel_lop != TRACE_NONE &&
		    (analysis_lop_kind(v->a, v->sel_lop) != OP_COMPUTE || view_is_charm(v)))
			region = analysis_lop_region(v->a, v->sel_lop);
		uint64_t k[11] = { vh->kind, (uint64_t)vh->scope, (uint64_t)vh->log_map | (uint64_t)vh->o_min << 1,
				   (uint64_t)vh->use_end, (uint64_t)cw, (uint64_t)ch, sel.part, sel.step_first,
				   sel.step_end, region, (uint64_t)sel.no_startup };
		memcpy(key, k, sizeof key);
	}
	if (vh->valid && memcmp(key, vh->key, sizeof key) == 0) {
		vh->sel_bin = selected_bin(v, &vh->sel_val);
		return;
	}
	release(vh);
	vh->region = region;
	vh->error[0] = 0;
	if (vh->samples ? compute_samples(v, cw) : compute(v, &sel, cw, ch)) {
		snprintf(vh->error, sizeof vh->error, "out of memory");
		return;
	}
	memcpy(vh->key, key, sizeof key);
	vh->valid = 1;
	vh->w = w;
	vh->h = h;
	vh->sel_bin = selected_bin(v, &vh->sel_val);
}

static void
hist_title(struct view *v, char *buf, size_t n)
{
	struct view_hist *vh = v->hist;
	if (vh->samples) {
		struct view_samples *vs = v->smp;
		char a[32], b[32];
		if (vs->n_sel)
			snprintf(buf, n, "histogram \u00b7 %s \u00b7 %s selected of %s", samples_attr(vs->s, vs->attr)->name,
				 fmt_count(vs->n_sel, a, sizeof a), fmt_count(vs->n_fpicks ? vs->n_filter : vs->n, b, sizeof b));
		else
			snprintf(buf, n, "histogram \u00b7 %s \u00b7 %s samples", samples_attr(vs->s, vs->attr)->name,
				 fmt_count(vs->n_fpicks ? vs->n_filter : vs->n, b, sizeof b));
		return;
	}
	const char *scope = view_scope_name(vh->kind == HK_MSGSIZE ? SCOPE_ALL : vh->scope);
	/* "what · scope": the generic drawer drops the scope when narrow */
	const char *all = view_is_charm(v) ? "all entry methods" : "all calls";
	if (vh->kind == HK_DURATION)
		snprintf(buf, n, "duration of %s \u00b7 %s",
			 vh->region == TRACE_NONE ? all : view_region_name(v, vh->region), scope);
	else if (vh->kind == HK_ACTIVITY)
		snprintf(buf, n, "activity timeline \u00b7 %s", scope);
	else if (vh->kind == HK_DENSITY)
		snprintf(buf, n, "density plot \u00b7 %s", scope);
	else
		snprintf(buf, n, "%s histogram \u00b7 %s", kind_names[vh->kind], scope);
}

/* ---- drawing ------------------------------------------------------------ */

static const char *
bin_label(const struct view *v, const struct view_hist *vh, double x, char *buf, size_t n)
{
	if (vh->samples)
		return vs_value(v->smp, v->smp->attr, x, buf, n);
	return vh->kind == HK_MSGSIZE ? fmt_bytes(x, buf, n) : fmt_seconds(x, buf, n);
}

/* Height of a count in eighths of a cell, ch cells for the peak. */
static long
bar_eighths(const struct view_hist *vh, uint64_t c, int ch)
{
	const struct hist *h = &vh->hist;
	if (c == 0 || h->peak == 0)
		return 0;
	double f = vh->lin_counts ? (double)c / (double)h->peak : log1p((double)c) / log1p((double)h->peak);
	long e = lround(f * ch * 8);
	return e < 1 ? 1 : e;      /* a single value still shows */
}

static uint32_t
eighth_glyph(long e)
{
	return e <= 0 ? ' ' : e >= 8 ? 0x2588 : 0x2580 + (uint32_t)e;    /* ▁ … ▇ █ */
}

/* "You are here": the selected operation's value in the histogram's
 * metric (seconds) and its bin; -1 when the histogram does not hold it
 * (outside the scope, another region, message sizes), -2 for a value
 * of 0 (counted apart). */
static int
selected_bin(const struct view *v, double *val)
{
	const struct view_hist *vh = v->hist;
	const struct hist *h = &vh->hist;
	uint32_t l = v->sel_lop;
	if (vh->samples)
		return -1;
	struct hist_select sel;
	view_scope_select(v, vh->scope, &sel);
	if (l == TRACE_NONE || vh->kind > HK_DURATION || !view_scope_has(v, &sel, l))
		return -1;
	uint64_t ticks;
	if (vh->kind == HK_LATENESS) {
		ticks = analysis_lop_lateness(v->a, l);
	} else if (vh->kind == HK_DIFF) {
		ticks = analysis_lop_diff(v->a, l);
	} else {
		if (analysis_lop_kind(v->a, l) == OP_COMPUTE ||
		    (vh->region != TRACE_NONE && analysis_lop_region(v->a, l) != vh->region))
			return -1;
		ticks = analysis_lop_duration(v->a, l);
	}
	*val = trace_seconds(v->t, ticks);
	if (!(*val > 0))
		return -2;
	for (uint32_t b = 0; b < h->n_bins; b++)
		if (*val < hist_edge(h, b + 1) || b + 1 == h->n_bins)
			return *val >= hist_edge(h, b) || b == 0 ? (int)b : -1;
	return -1;
}

/* Samples: the bin under chart column c of cw (bins stretch to fill the
 * chart), and a bin's value for labels (its value when bins are one per
 * value, else its low edge). */
static uint32_t
col_bin(const struct view_hist *vh, int c, int cw)
{
	uint32_t n = vh->hist.n_bins;
	return vh->samples && cw > 0 ? (uint32_t)((uint64_t)c * n / (uint32_t)cw) : (uint32_t)c;
}

static double
bin_value(const struct view_hist *vh, uint32_t b)
{
	return vh->mb.per_value ? vh->mb.lo + b + 0.5 : mem_bin_edge(&vh->mb, b);
}

static void
samples_header(struct view *v, struct grid *row)
{
	const struct view_hist *vh = v->hist;
	struct view_samples *vs = v->smp;
	char a[48], b[48];
	uint32_t lo = vh->cur.bin, hi = vh->cur.bin;
	if (vh->cur.anchor != SAMPLES_NONE) {
		lo = vh->cur.anchor < lo ? vh->cur.anchor : lo;
		hi = vh->cur.anchor > hi ? vh->cur.anchor : hi;
	}
	uint64_t all = 0, sel = 0;
	for (uint32_t k = lo; k <= hi && k < vh->hist.n_bins; k++) {
		all += vh->hist.count[k];
		sel += vh->sel_count[k];
	}
	if (lo != hi)
		vs_range(vs, vs->attr, bin_value(vh, lo),
			 vh->mb.per_value ? bin_value(vh, hi) : mem_bin_edge(&vh->mb, hi + 1), a, sizeof a);
	else
		vs_value(vs, vs->attr, bin_value(vh, lo), a, sizeof a);
	(void)b;
	int x = grid_printf(row, 0, 0, row->w, ST_LABEL, "%s %s: %llu", vh->cur.anchor != SAMPLES_NONE ? "range" : "cursor",
			    a, (unsigned long long)all);
	if (vs->n_sel)
		x += grid_printf(row, x, 0, row->w - x, ST_EMPH, " (%llu selected)", (unsigned long long)sel);
	if (row->w - x > 16)
		grid_printf(row, row->w - 12, 0, 12, ST_DIM, "%12s", vh->lin_counts ? "linear" : "log counts");
}

static void
hist_row_bars(struct view *v, int y, struct grid *row, int ch)
{
	const struct view_hist *vh = v->hist;
	const struct hist *h = &vh->hist;
	int lw = label_w(vh), cw = row->w - lw;
	char a[48], b[48];
	double sv = vh->sel_val;
	int sb = vh->sel_bin;
	if (y == 0 && vh->samples) {
		samples_header(v, row);
		return;
	}
	if (y == 0) {
		/* the count, the zeros left out at column 16, the selection and
		 * the scale at the right, each two columns apart: what does not
		 * fit goes, the zeros first, then the selection (its bin is
		 * marked all the same), then the scale (they were drawn over
		 * each other: '41 a    log counts') */
		char vals[32], zero[48] = "", selc[96] = "";
		const char *scale = vh->lin_counts ? "linear counts" : "log counts";
		snprintf(vals, sizeof vals, "%llu values", (unsigned long long)h->total);
		if (h->zero)
			snprintf(zero, sizeof zero, "%llu at 0 (not shown)", (unsigned long long)h->zero);
		if (sb != -1) {
			fmt_seconds(sv, a, sizeof a);
			snprintf(selc, sizeof selc, "\u25b2 selected %s%s", sb == -2 ? "0" : a,
				 sb == -2 ? ", not shown" : "");
		}
		int nv = text_width(vals), nz = text_width(zero), ns = text_width(selc);
		int nk = 14, w = row->w;      /* the scale right-aligned in a field of 14 */
		int zx = nv + 2 > 16 ? nv + 2 : 16;
		int show_z = nz > 0, show_k = 1, show_s = ns > 0;
		for (;;) {
			int left = show_z ? zx + nz : nv;
			int right = (show_k ? nk : 0) + (show_s ? ns + (show_k ? 2 : 0) : 0);
			if (right == 0 || left + 2 + right <= w)
				break;
			if (show_z)
				show_z = 0;
			else if (show_s)
				show_s = 0;
			else
				show_k = 0;
		}
		if (show_z && zx + nz > w)
			show_z = 0;
		grid_text(row, 0, 0, w, ST_LABEL, vals);
		if (show_z)
			grid_text(row, zx, 0, nz, ST_DIM, zero);
		if (show_k)
			grid_printf(row, w - nk, 0, nk, ST_DIM, "%14s", scale);
		if (show_s)
			grid_text(row, w - (show_k ? nk + 2 : 0) - ns, 0, ns, ST_EMPH, selc);
		return;
	}
	if (y <= ch) {
		int r = y - 1, yb = ch - 1 - r;
		/* the count axis, from the peak down to 1: none without values
		 * (it read 0 at the top and 1 at the bottom) */
		if (r == 0 && h->peak)
			grid_printf(row, 0, 0, lw - 1, ST_LABEL, "%llu", (unsigned long long)h->peak);
		else if (r == ch - 1 && h->peak > 1)
			grid_text(row, 0, 0, lw - 1, ST_LABEL, "1");
		grid_put(row, lw - 1, 0, 0x2502, ST_DIM);
		int ncol = vh->samples ? cw : (int)h->n_bins;
		uint32_t rlo = vh->cur.bin, rhi = vh->cur.bin;
		if (vh->cur.anchor != SAMPLES_NONE) {
			rlo = vh->cur.anchor < rlo ? vh->cur.anchor : rlo;
			rhi = vh->cur.anchor > rhi ? vh->cur.anchor : rhi;
		}
		int has_sel = vh->samples && v->smp->n_sel;
		for (int c = 0; c < ncol && lw + c < row->w; c++) {
			uint32_t i = col_bin(vh, c, cw);
			if (i >= h->n_bins)
				break;
			if (vh->samples && i >= rlo && i <= rhi) {
				if (vh->cur.anchor != SAMPLES_NONE)
					grid_mark(row, lw + c, 0, 1, 1, MARK_ALT);
				if (yb == 0 && i == vh->cur.bin)
					grid_mark(row, lw + c, 0, 1, 1, MARK_SEL);
			}
			long e = bar_eighths(vh, h->count[i], ch) - (long)yb * 8;
			long es = has_sel ? bar_eighths(vh, vh->sel_count[i], ch) - (long)yb * 8 : 0;
			if (es > 0) {               /* the selection, inside the distribution */
				grid_put(row, lw + c, 0, eighth_glyph(es), ST_EMPH);
				continue;
			}
			if (e <= 0)
				continue;
			int style = has_sel ? ST_DIM : vh->samples ? ST_HEAT3 : vh->kind <= HK_DIFF
				? ST_HEAT0 + (int)(i * GRID_HEAT_LEVELS / h->n_bins) : ST_EMPH;
			grid_put(row, lw + c, 0, has_sel ? (e >= 8 ? 0x2591 : eighth_glyph(e)) : eighth_glyph(e), style);
			if ((int)i == sb)
				row->cells[lw + c].mark |= MARK_SEL;
		}
		return;
	}
	/* x labels: low edge, middle, high edge */
	if (h->total == h->zero) {
		grid_text(row, lw, 0, row->w - lw, ST_DIM, vh->samples ? "no values" : "no positive values");
		return;
	}
	double xlo = h->lo, xmid = hist_edge(h, h->n_bins / 2), xhi = h->hi;
	if (vh->samples) {
		xlo = bin_value(vh, 0);
		xmid = bin_value(vh, col_bin(vh, cw / 2, cw));
		xhi = vh->mb.per_value ? bin_value(vh, h->n_bins - 1) : vh->mb.hi;
	}
	bin_label(v, vh, xlo, a, sizeof a);
	char c[48];
	bin_label(v, vh, xhi, c, sizeof c);
	/* a sample attribute's unit ("cyc") is said once, on the high edge,
	 * which comes before the middle */
	const char *unit = vh->samples ? strrchr(c, ' ') : NULL;
	if (unit && (unit[1] < '0' || unit[1] > '9')) {
		size_t ul = strlen(unit), al = strlen(a);
		if (al > ul && !strcmp(a + al - ul, unit))
			a[al - ul] = 0;
	} else {
		unit = NULL;
	}
	grid_text(row, lw, 0, cw, ST_LABEL, a);
	int end = lw + text_width(a), cwid = text_width(c), right = row->w;
	if (row->w - cwid > end + 1) {
		grid_text(row, row->w - cwid, 0, cwid, ST_LABEL, c);
		right = row->w - cwid;
	}
	bin_label(v, vh, xmid, b, sizeof b);
	if (unit) {
		size_t ul = strlen(unit), bl = strlen(b);
		if (bl > ul && !strcmp(b + bl - ul, unit))
			b[bl - ul] = 0;
	}
	int bw = text_width(b), mid = lw + cw / 2 - bw / 2;
	if (mid > end + 1 && mid + bw < right - 1)
		grid_text(row, mid, 0, bw, ST_LABEL, b);
	/* you are here, where no label is */
	int x = lw + sb;
	if (sb >= 0 && x < row->w && row->cells[x].ch == ' ' && (x == lw || row->cells[x - 1].ch == ' ') &&
	    (x + 1 == row->w || row->cells[x + 1].ch == ' '))
		grid_put(row, x, 0, 0x25b2, ST_EMPH);
}

static const uint32_t layer_glyph[MAX_FUNCS + 1] = { 0x2588, 0x2593, 0x2592, 0x2591, 'x', 'o', '*' };

static void
time_labels(struct view *v, struct grid *row, int lw)
{
	const struct view_hist *vh = v->hist;
	char a[48], b[48];
	fmt_time(trace_seconds(v->t, vh->t0), a, sizeof a);
	grid_text(row, lw, 0, row->w - lw, ST_LABEL, a);
	fmt_time(trace_seconds(v->t, vh->t1), b, sizeof b);
	int n = text_width(b);
	if (lw + text_width(a) + 2 + n <= row->w)
		grid_text(row, row->w - n, 0, n, ST_LABEL, b);
}

static void
hist_row_activity(struct view *v, int y, struct grid *row, int ch)
{
	const struct activity *act = &v->hist->act;
	int lw = label_w(v->hist);
	uint32_t nf = act->n_funcs;
	if (y == 0) {
		/* a Charm++ run's timelines are chares, its calls entry methods;
		 * the total is what the layers add up to (every MPI call, the
		 * quiet ones too) */
		double all = 0;
		for (size_t i = 0; i < (size_t)act->n_bins * (nf + 1); i++)
			all += act->frac[i];
		all = act->n_bins ? 100.0 * all / act->n_bins : 0;
		char head[160], pct[16];
		snprintf(pct, sizeof pct, all >= 99.95 ? "100%%" : "%.1f%%", all);
		snprintf(head, sizeof head, view_is_charm(v)
			 ? "fraction of PEs inside each entry method, %s in all; blank: idle"
			 : "fraction of ranks inside each MPI function, %s in all; blank: computation", pct);
		if (text_width(head) > row->w)
			snprintf(head, sizeof head, view_is_charm(v) ? "PEs in each entry method, %s in all"
				 : "ranks in each MPI function, %s in all", pct);
		if (text_width(head) > row->w)
			snprintf(head, sizeof head, view_is_charm(v) ? "%s in entry methods" : "%s in MPI", pct);
		grid_text(row, 0, 0, row->w, ST_LABEL, head);
		return;
	}
	if (act->n_bins == 0) {
		if (y == 1)
			grid_text(row, lw, 0, row->w - lw, ST_DIM, "no operations in the selection");
		return;
	}
	if (y <= ch) {
		int r = y - 1, yb = ch - 1 - r;
		if (r == 0)
			grid_text(row, 0, 0, lw - 1, ST_LABEL, "100%");
		else if (r == ch - 1)
			grid_text(row, 0, 0, lw - 1, ST_LABEL, "0%");
		grid_put(row, lw - 1, 0, 0x2502, ST_DIM);
		double mid = (yb + 0.5) / ch;
		for (uint32_t b = 0; b < act->n_bins && lw + (int)b < row->w; b++) {
			const double *f = &act->frac[(size_t)b * (nf + 1)];
			double cum = 0;
			for (uint32_t i = 0; i <= nf; i++) {
				cum += f[i];
				if (mid < cum) {
					uint32_t gi = i == nf ? MAX_FUNCS : i;
					grid_put(row, lw + (int)b, 0, layer_glyph[gi], i == nf ? ST_DIM : ST_CAT0 + (int)i);
					break;
				}
			}
		}
		return;
	}
	if (y == ch + 1) {
		time_labels(v, row, lw);
		return;
	}
	/* legend: each function's glyph, name and share of rank-time, whole
	 * entries only; what does not fit is counted at the end */
	char text[MAX_FUNCS + 1][96];
	uint32_t shown = 0, n = 0;
	for (uint32_t i = 0; i <= nf; i++) {
		double sum = 0;
		for (uint32_t b = 0; b < act->n_bins; b++)
			sum += act->frac[(size_t)b * (nf + 1) + i];
		if (i == nf && sum == 0)
			break;
		snprintf(text[n++], sizeof text[0], "%s %.0f%%",
			 i == nf ? view_is_charm(v) ? "other entries" : "other MPI" : view_region_name(v, act->func_region[i]),
			 100.0 * sum / act->n_bins);
	}
	int x = 0;
	for (uint32_t i = 0; i < n; i++) {
		/* "█ name 73%" and two spaces; the last entry, or the count of
		 * those left out after it, must fit whole */
		int need = 2 + (int)text_width(text[i]);
		int more = i + 1 < n ? 2 + snprintf(NULL, 0, "+%u more", n - i - 1) : 0;
		if (x + need + more > row->w)
			break;
		uint32_t gi = i == nf ? MAX_FUNCS : i;
		grid_put(row, x, 0, layer_glyph[gi], i == nf ? ST_DIM : ST_CAT0 + (int)i);
		x += 2;
		x += grid_text(row, x, 0, row->w - x, ST_NORMAL, text[i]);
		x += 2;
		shown++;
	}
	if (shown < n)
		grid_printf(row, x, 0, row->w - x, ST_DIM, "+%u more", n - shown);
}

/* The density plot (seed 003 §2.2-2.3): each cell's glyph its opacity
 * (░ ▒ ▓ █, the minimum opacity at least ░), its colour the function most
 * of its calls are in (the paper's colour per MPI function; a Charm++
 * run's entry methods), a legend of those functions under the time axis. */
static void
hist_row_density(struct view *v, int y, struct grid *row, int ch)
{
	const struct view_hist *vh = v->hist;
	const struct density *d = &vh->den;
	int lw = label_w(vh), charm = view_is_charm(v);
	char buf[48];
	if (y == 0) {
		/* the longest header that fits: the legend says the colours */
		char h[4][200];
		const char *what = charm ? "executions" : "calls", *at = vh->use_end ? "end" : "start";
		const char *map = vh->log_map ? "log" : "linear";
		double om = vh->o_min / 10.0;
		snprintf(h[0], sizeof h[0], "%s at %s time \u00d7 log duration \u00b7 colour: %s \u00b7 %s opacity, "
			 "min %.1f (+ -) \u00b7 densest cell %u", what, at, charm ? "entry method" : "function",
			 map, om, d->d_max);
		snprintf(h[1], sizeof h[1], "%s at %s \u00d7 log duration \u00b7 %s opacity \u2265 %.1f (+ -) \u00b7 "
			 "densest %u", what, at, map, om, d->d_max);
		snprintf(h[2], sizeof h[2], "%s \u00d7 log duration \u00b7 %s \u2265 %.1f \u00b7 densest %u", at, map,
			 om, d->d_max);
		snprintf(h[3], sizeof h[3], "%s \u00b7 %s \u2265 %.1f \u00b7 densest %u", at, map, om, d->d_max);
		int k = 0;
		while (k < 3 && (int)text_width(h[k]) > row->w)
			k++;
		grid_text(row, 0, 0, row->w, ST_LABEL, h[k]);
		return;
	}
	if (d->w == 0) {
		if (y == 1)
			grid_text(row, lw, 0, row->w - lw, ST_DIM, charm ? "no executions in the selection"
				  : "no calls in the selection");
		return;
	}
	if (y <= ch) {
		int r = y - 1;
		if (r == 0 || r == ch - 1) {
			double e = r == 0 ? d->dur_hi : d->dur_lo;
			grid_text(row, 0, 0, lw - 1, ST_LABEL, fmt_seconds(pow(10, e), buf, sizeof buf));
		}
		grid_put(row, lw - 1, 0, 0x2502, ST_DIM);
		for (uint32_t x = 0; x < d->w && lw + (int)x < row->w; x++) {
			size_t c = (size_t)r * d->w + x;
			float o = d->opacity[c];
			if (o <= 0)
				continue;
			int lvl = (int)ceilf(o * 4);      /* ░ ▒ ▓ █ */
			lvl = lvl < 1 ? 1 : lvl > 4 ? 4 : lvl;
			static const uint32_t shade[5] = { ' ', 0x2591, 0x2592, 0x2593, 0x2588 };
			uint32_t f = d->func[c];
			grid_put(row, lw + (int)x, 0, shade[lvl], f >= d->n_funcs ? ST_DIM : ST_CAT0 + (int)f);
		}
		return;
	}
	if (y == ch + 1) {
		time_labels(v, row, lw);
		return;
	}
	/* legend: each colour's function and its share of the calls, whole
	 * entries only; what does not fit is counted at the end */
	int x = 0;
	uint32_t shown = 0, n = d->n_funcs + (d->func_calls[d->n_funcs] ? 1 : 0);
	for (uint32_t i = 0; i < n; i++) {
		char text[112];
		snprintf(text, sizeof text, "%s %.0f%%", i == d->n_funcs ? charm ? "other entries" : "other calls"
			 : view_region_name(v, d->func_region[i]),
			 d->points ? 100.0 * (double)d->func_calls[i] / (double)d->points : 0.0);
		int need = 2 + (int)text_width(text);
		int more = i + 1 < n ? 2 + snprintf(NULL, 0, "+%u more", n - i - 1) : 0;
		if (x + need + more > row->w)
			break;
		grid_put(row, x, 0, 0x2588, i == d->n_funcs ? ST_DIM : ST_CAT0 + (int)i);
		x += 2;
		x += grid_text(row, x, 0, row->w - x, ST_NORMAL, text);
		x += 2;
		shown++;
	}
	if (shown < n)
		grid_printf(row, x, 0, row->w - x, ST_DIM, "+%u more", n - shown);
}

static void
hist_row(struct view *v, int y, struct grid *row)
{
	struct view_hist *vh = v->hist;
	if (!vh->valid) {
		if (y == 0)
			grid_text(row, 0, 0, row->w, ST_ERROR, vh->error);
		return;
	}
	int ch = chart_rows(vh, vh->h);
	switch (vh->kind) {
	case HK_ACTIVITY: hist_row_activity(v, y, row, ch); break;
	case HK_DENSITY: hist_row_density(v, y, row, ch); break;
	default: hist_row_bars(v, y, row, ch); break;
	}
}

/* Samples: the cursor and range of bins, and selecting them. */
static int
samples_request(struct view *v, enum action act)
{
	struct view_hist *vh = v->hist;
	uint32_t n = vh->hist.n_bins ? vh->hist.n_bins : 1;
	if (vs_cursor_action(v, &vh->cur, vh->valid ? &vh->mb : NULL, act))
		return 1;
	switch (act) {
	case ACT_MOVE_LEFT: vh->cur.bin = vh->cur.bin ? vh->cur.bin - 1 : 0; return 1;
	case ACT_MOVE_RIGHT: vh->cur.bin = vh->cur.bin + 1 < n ? vh->cur.bin + 1 : n - 1; return 1;
	case ACT_PAGE_LEFT: vh->cur.bin = vh->cur.bin > 8 ? vh->cur.bin - 8 : 0; return 1;
	case ACT_PAGE_RIGHT: vh->cur.bin = vh->cur.bin + 8 < n ? vh->cur.bin + 8 : n - 1; return 1;
	case ACT_FIRST_STEP: vh->cur.bin = 0; return 1;
	case ACT_LAST_STEP: vh->cur.bin = n - 1; return 1;
	case ACT_PANE_METRIC: vh->lin_counts = !vh->lin_counts; return 1;
	default: return 0;
	}
}

static int
hist_request(struct view *v, enum action act)
{
	struct view_hist *vh = v->hist;
	if (vh->samples)
		return samples_request(v, act);
	switch (act) {
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		/* the density plot's minimum opacity (seed 003 §2.3: the user's) */
		if (vh->kind != HK_DENSITY || v->focus != PANE_HIST)
			return 0;
		vh->o_min += act == ACT_ZOOM_IN ? 1 : -1;
		vh->o_min = vh->o_min < 0 ? 0 : vh->o_min > 10 ? 10 : vh->o_min;
		view_set_message(v, 0, "density plot: minimum opacity %.1f", vh->o_min / 10.0);
		break;
	case ACT_PANE_MODE:
		first_kind(v);
		vh->kind = (enum hist_kind)((vh->kind + 1) % HK_COUNT);
		if (vh->kind == HK_IDLE && !view_is_charm(v))
			vh->kind = HK_LATENESS;
		break;
	case ACT_PANE_METRIC:
		if (vh->kind == HK_DENSITY)
			vh->log_map = !vh->log_map;
		else
			vh->lin_counts = !vh->lin_counts;
		break;
	case ACT_PANE_SCOPE:
		vh->scope = (vh->scope + 1) % SCOPE_COUNT;
		if (vh->kind == HK_MSGSIZE)
			view_set_message(v, 0, "message sizes are for the whole trace");
		break;
	case ACT_PANE_ENDS:
		if (vh->kind != HK_DENSITY) {
			char key[32];
			view_set_message(v, 1, "%s is for the density plot (v until it shows)",
					 view_key_name(v, act, key, sizeof key));
			return 1;
		}
		vh->use_end = !vh->use_end;
		break;
	default:
		return 0;         /* moving still moves the selection */
	}
	return 1;                 /* the next prepare sees the changed key */
}

static const struct pane_key hist_keys[] = {
	{ ACT_ZOOM_IN, ACT_ZOOM_OUT, "density plot: raise / lower the minimum opacity (tenths, 0 to 1)" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_hist_ops = {
	.name = "histogram",
	.focusable = 1,
	.title = hist_title,
	.prepare = hist_prepare,
	.row = hist_row,
	.request = hist_request,
	.keys_title = "In the histogram",
	.keys = hist_keys,
};
