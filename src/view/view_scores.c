/* view_scores.c — the score strip (seed 002 §7.2): the attribute's range
 * cut into N windows, each coloured by its score (I_d or L_d at the
 * scoring depth) over the samples looked at, drawn under the histogram
 * pane with the same columns so a window sits under its bins. The cursor
 * window selects its samples with Enter, | and &. */
#include "view_samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
sc_prepare(struct view *v, int w, int h)
{
	struct view_samples *vs = v->smp;
	struct vs_scores *sc = &vs->sc;
	(void)w;
	(void)h;
	uint64_t key[2] = { vs->opts_version, vs->filter_version };
	if (sc->valid && !memcmp(key, sc->key, sizeof key) && sc->n == vs->windows)
		return;
	free(sc->win);
	sc->valid = 0;
	sc->n = vs->windows;
	sc->win = calloc(sc->n, sizeof *sc->win);
	const struct mem_depth *d = vs_depth(v);
	if (!sc->win || !d || mem_windows(vs->m, vs->attr, sc->n, vs->metric, d, vs_looked(vs), sc->win))
		return;
	if (sc->cur >= sc->n)
		sc->cur = sc->n - 1;
	memcpy(sc->key, key, sizeof key);
	sc->valid = 1;
}

static void
sc_title(struct view *v, char *buf, size_t n)
{
	struct view_samples *vs = v->smp;
	/* which L_d: only when it is not the default (samples.latency_mean) */
	snprintf(buf, n, "scores \u00b7 %s at %s \u00b7 %u windows along %s",
		 vs->metric != MEM_LATENCY ? "I_d" : mem_get_ld(vs->m) == MEM_LD_ALL ? "L_d over all" : "L_d",
		 mem_depth_name(vs->depth), vs->windows, samples_attr(vs->s, vs->attr)->name);
}

static void
range(const struct vs_scores *sc, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (uint32_t w = 0; w < sc->n; w++) {
		double x = sc->win[w].score;
		if (isnan(x))
			continue;
		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
}

static int
level(double x, double lo, double hi)
{
	if (isnan(x))
		return -1;
	if (hi <= lo)
		return GRID_HEAT_LEVELS / 2;
	int l = 1 + (int)((x - lo) / (hi - lo) * (GRID_HEAT_LEVELS - 2) + 0.5);
	return l > GRID_HEAT_LEVELS - 1 ? GRID_HEAT_LEVELS - 1 : l;
}

/* The window under chart column c of cw: the value at the column's
 * middle, in the histogram pane's bins. */
static uint32_t
col_window(const struct view_samples *vs, const struct mem_bins *b, int c, int cw)
{
	const struct samples_attr *at = samples_attr(vs->s, vs->attr);
	double x = b->lo + (c + 0.5) * (b->hi - b->lo) / cw;
	if (x < at->lo)
		x = at->lo;
	if (x > at->hi)
		x = at->hi;
	return mem_window_of(at, vs->sc.n, x);
}

static void
sc_row(struct view *v, int y, struct grid *row)
{
	struct view_samples *vs = v->smp;
	struct vs_scores *sc = &vs->sc;
	int lw = vs_hist_label_w(), cw = row->w - lw;
	char a[48], b[48];
	if (!sc->valid) {
		if (y == 0)
			grid_text(row, 0, 0, row->w, ST_DIM, "no scores (no samples at this depth?)");
		return;
	}
	double lo, hi;
	range(sc, &lo, &hi);
	struct mem_bins bins;
	mem_bins_for(vs->m, vs->attr, (uint32_t)(cw > 0 ? cw : 1), &bins);
	if (y == 0 && cw > 0) {
		grid_text(row, 0, 0, lw - 1, ST_LABEL, vs->metric == MEM_LATENCY ? "L_d" : "I_d");
		grid_put(row, lw - 1, 0, 0x2502, ST_DIM);
		for (int c = 0; c < cw; c++) {
			uint32_t w = col_window(vs, &bins, c, cw);
			if (w == SAMPLES_NONE)
				continue;
			/* shades as well as colours, so the strip reads without colour */
			static const uint32_t shade[GRID_HEAT_LEVELS] = {
				0x2591, 0x2591, 0x2591, 0x2592, 0x2592, 0x2593, 0x2593, 0x2588,
			};
			int l = level(sc->win[w].score, lo, hi);
			grid_put(row, lw + c, 0, l < 0 ? 0x00b7 : shade[l], l < 0 ? ST_DIM : ST_HEAT0 + l);
			if (w == sc->cur && v->focus == PANE_SCORES)
				grid_mark(row, lw + c, 0, 1, 1, MARK_SEL);
		}
		return;
	}
	if (y == 1) {
		/* the score first; then the sample count and the range, each
		 * whole or not at all (never "1000027–10055") */
		const struct mem_window *w = &sc->win[sc->cur];
		char field[128], score[48];
		if (isnan(w->score))
			snprintf(score, sizeof score, "no score");
		else
			snprintf(score, sizeof score, "%s %.3f", vs->metric == MEM_LATENCY ? "L" : "I", w->score);
		/* "window" goes first when the score would not fit after it */
		snprintf(field, sizeof field, "window %u/%u: %s", sc->cur + 1, sc->n, score);
		int x = grid_printf(row, 0, 0, row->w, ST_LABEL, text_width(field) <= row->w ? "window %u/%u: " : "%u/%u: ",
				    sc->cur + 1, sc->n);
		x += grid_text(row, x, 0, row->w - x, isnan(w->score) ? ST_DIM : ST_EMPH, score);
		snprintf(field, sizeof field, ", %u samples", w->samples);
		int n = grid_text_whole(row, x, 0, row->w - x, ST_LABEL, field);
		x += n;
		(void)b;
		snprintf(field, sizeof field, ", %s", vs_range(vs, vs->attr, w->lo, w->hi, a, sizeof a));
		if (n)
			grid_text_whole(row, x, 0, row->w - x, ST_LABEL, field);
		return;
	}
	if (y == 2) {
		if (lo > hi) {
			grid_text(row, 0, 0, row->w, ST_DIM, "no window has samples at this depth");
			return;
		}
		int x = grid_printf(row, 0, 0, row->w, ST_LABEL, "%u %s: %.3f ", vs_depth(v) ? vs_depth(v)->n : 0,
				    mem_depth_name(vs->depth), lo);
		static const uint32_t legend[4] = { 0x2591, 0x2592, 0x2593, 0x2588 };
		for (int l = 0; l < 4 && x < row->w; l++)
			grid_put(row, x++, 0, legend[l], ST_HEAT0 + 1 + 2 * l);
		x += grid_printf(row, x, 0, row->w - x, ST_LABEL, " %.3f", hi);
		/* what the dot means, when the words fit */
		if (row->w - x >= 13)
			grid_text(row, x, 0, row->w - x, ST_LABEL, "  \u00b7 no sample");
		else if (row->w - x >= 8)
			grid_text(row, x, 0, row->w - x, ST_LABEL, "  \u00b7 none");
	}
}

static int
sc_request(struct view *v, enum action act)
{
	struct view_samples *vs = v->smp;
	struct vs_scores *sc = &vs->sc;
	int op = vs_op_of(act);
	if (op >= 0) {
		if (!sc->valid)
			return 1;
		/* the values present in the window, as mem_windows counts them */
		const struct samples_attr *at = samples_attr(vs->s, vs->attr);
		const struct bitset *looked = vs_looked(vs);
		double lo = INFINITY, hi = -INFINITY;
		for (uint32_t i = 0; i < vs->n; i++) {
			if ((looked && !bitset_test(looked, i)) || mem_window_of(at, sc->n, at->v[i]) != sc->cur)
				continue;
			lo = at->v[i] < lo ? at->v[i] : lo;
			hi = at->v[i] > hi ? at->v[i] : hi;
		}
		if (lo > hi) {
			view_set_message(v, 1, "no samples in this window");
			return 1;
		}
		struct mem_pick p = { .kind = MEM_PICK_RANGE, .attr = vs->attr, .lo = lo, .hi = hi };
		vs_pick(v, &p, (enum mem_op)op);
		return 1;
	}
	switch (act) {
	case ACT_MOVE_LEFT: sc->cur = sc->cur ? sc->cur - 1 : 0; return 1;
	case ACT_MOVE_RIGHT: sc->cur = sc->cur + 1 < sc->n ? sc->cur + 1 : sc->cur; return 1;
	case ACT_FIRST_STEP: sc->cur = 0; return 1;
	case ACT_LAST_STEP: sc->cur = sc->n ? sc->n - 1 : 0; return 1;
	case ACT_PANE_METRIC:
		vs->metric = vs->metric == MEM_LATENCY ? MEM_IMBALANCE : MEM_LATENCY;
		vs->opts_version++;
		return 1;
	default: return 0;
	}
}

const struct view_ops view_scores_ops = {
	.name = "scores",
	.focusable = 1,
	.title = sc_title,
	.prepare = sc_prepare,
	.row = sc_row,
	.request = sc_request,
};
