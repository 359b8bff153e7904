/* view_mclusters.c — clusters along the attribute (seed 002 §7.3, §7.4):
 * sliding windows of w samples every Δ merged bottom-up by score, cut at
 * K clusters ({ and } change K). Each row is a range of the attribute
 * with its samples, its score and a glyph of the hardware: a cell per
 * CPU, left to right as the topology lists them, shaded by the share of
 * the cluster's samples it issued. Enter, | and & select a cluster. */
#include "view_samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
release(struct vs_clusters *cl)
{
	mem_tree_destroy(cl->tree);
	cl->tree = NULL;
	for (uint32_t i = 0; cl->pu_counts && i < cl->n; i++)
		free(cl->pu_counts[i]);
	free(cl->pu_counts);
	cl->pu_counts = NULL;
	free(cl->cl);
	cl->cl = NULL;
	cl->n = 0;
	cl->valid = 0;
}

static int
build(struct view *v)
{
	struct view_samples *vs = v->smp;
	struct vs_clusters *cl = &vs->cl;
	struct err e = { 0 };
	const struct mem_depth *d = vs_depth(v);
	if (!d)
		return ERR_NOMEM;
	int rc = mem_tree_build(vs->m, vs->attr, vs_looked(vs), vs->window, vs->step, vs->metric, d, &cl->tree, &e);
	if (rc) {
		snprintf(cl->error, sizeof cl->error, "%s", e.msg);
		return rc;
	}
	uint32_t k = vs->clusters, leaves = mem_tree_leaves(cl->tree);
	if (!leaves) {
		snprintf(cl->error, sizeof cl->error, "no samples with a value of %s", samples_attr(vs->s, vs->attr)->name);
		return ERR_USAGE;
	}
	cl->cl = calloc(k, sizeof *cl->cl);
	if (!cl->cl)
		return ERR_NOMEM;
	cl->n = mem_tree_cut(cl->tree, k, cl->cl);
	cl->pu_counts = calloc(cl->n ? cl->n : 1, sizeof *cl->pu_counts);
	if (!cl->pu_counts)
		return ERR_NOMEM;
	const uint32_t *order = mem_tree_order(cl->tree, NULL), *pu = samples_pu(vs->s);
	for (uint32_t i = 0; i < cl->n; i++) {
		if (!(cl->pu_counts[i] = calloc(vs->n_pu ? vs->n_pu : 1, sizeof **cl->pu_counts)))
			return ERR_NOMEM;
		for (uint32_t p = cl->cl[i].first; p < cl->cl[i].end; p++)
			if (pu[order[p]] < vs->n_pu)
				cl->pu_counts[i][pu[order[p]]]++;
	}
	return 0;
}

/* The clusters for the current settings (the title needs them before
 * prepare runs). */
static void
ensure(struct view *v)
{
	struct view_samples *vs = v->smp;
	struct vs_clusters *cl = &vs->cl;
	uint64_t key[2] = { vs->opts_version, vs->filter_version };
	if (!cl->valid || memcmp(key, cl->key, sizeof key) || cl->k != vs->clusters) {
		release(cl);
		cl->error[0] = 0;
		memcpy(cl->key, key, sizeof key);
		cl->k = vs->clusters;
		if (build(v)) {
			if (!cl->error[0])
				snprintf(cl->error, sizeof cl->error, "out of memory");
			cl->valid = 1;        /* until the key changes: the error stays */
			return;
		}
		cl->valid = 1;
	}
}

static void
mc_prepare(struct view *v, int w, int h)
{
	struct vs_clusters *cl = &v->smp->cl;
	(void)w;
	cl->rows = h - 1;
	ensure(v);
	if (cl->cur >= cl->n)
		cl->cur = cl->n ? cl->n - 1 : 0;
	if (cl->cur < cl->top)
		cl->top = cl->cur;
	if (cl->rows > 0 && cl->cur >= cl->top + (uint32_t)cl->rows)
		cl->top = cl->cur - (uint32_t)cl->rows + 1;
}

static void
mc_title(struct view *v, char *buf, size_t n)
{
	struct view_samples *vs = v->smp;
	ensure(v);
	uint32_t leaves = vs->cl.tree ? mem_tree_leaves(vs->cl.tree) : 0;
	snprintf(buf, n, "clusters \u00b7 %u along %s \u00b7 w %u step %u \u00b7 %u windows \u00b7 %s at %s", vs->cl.n,
		 samples_attr(vs->s, vs->attr)->name, vs->window, vs->step, leaves, mem_metric_name(vs->metric),
		 mem_depth_name(vs->depth));
}

/* The glyph: gw cells over the PUs, each the share of the busiest. */
static void
glyph(const struct view_samples *vs, const uint32_t *counts, struct grid *row, int x, int gw)
{
	static const uint32_t shade[5] = { 0x00b7, 0x2591, 0x2592, 0x2593, 0x2588 };
	uint32_t n = vs->n_pu, max = 0;
	if (gw <= 0 || !n)
		return;
	if ((uint32_t)gw > n)
		gw = (int)n;
	uint32_t *cell = calloc((size_t)gw, sizeof *cell);
	if (!cell)
		return;
	for (uint32_t p = 0; p < n; p++)
		cell[(uint64_t)p * (uint32_t)gw / n] += counts[p];
	for (int c = 0; c < gw; c++)
		max = cell[c] > max ? cell[c] : max;
	for (int c = 0; c < gw; c++) {
		int l = max && cell[c] ? 1 + (int)((double)cell[c] / max * 3 + 0.5) : 0;
		l = l > 4 ? 4 : l;
		grid_put(row, x + c, 0, shade[l], l ? ST_HEAT0 + 2 * l - 1 : ST_DIM);
	}
	free(cell);
}

/* The table's columns at a pane width w: the ranges' width (the widest
 * "lo–hi", at least the heading's), whether the score fits, the text's
 * width and the glyph's (the PUs, or what is left; none when under 4
 * cells). What gives way first is the glyph, then the score, then the
 * ranges are cut. */
struct mc_layout {
	int rw, score, tw, gw;
};

/* A cluster's range of values, "lo–hi", into rng; its width in cells. */
static int
range_text(const struct view_samples *vs, const struct mem_cluster *k, char *rng, size_t n)
{
	vs_range(vs, vs->attr, k->lo, k->hi, rng, n);
	return text_width(rng);
}

static struct mc_layout
layout(const struct view_samples *vs, int w)
{
	const struct vs_clusters *cl = &vs->cl;
	struct mc_layout l = { .rw = 5, .score = 1 };
	char rng[112];
	for (uint32_t i = 0; i < cl->n; i++) {
		int rw = range_text(vs, &cl->cl[i], rng, sizeof rng);
		l.rw = rw > l.rw ? rw : l.rw;
	}
	int text = 4 + l.rw + 8 + 8;                /* " #  range samples score" */
	if (text + 1 + 4 <= w) {
		l.gw = w - text - 1 < (int)vs->n_pu ? w - text - 1 : (int)vs->n_pu;
		l.tw = w - l.gw - 1;
		return l;
	}
	l.gw = 0;
	l.tw = w;
	if (text > w) {
		l.score = 0;
		if (text - 8 > w)
			l.rw = w - (4 + 8) > 1 ? w - (4 + 8) : 1;
	}
	return l;
}

static void
mc_row(struct view *v, int y, struct grid *row)
{
	struct view_samples *vs = v->smp;
	struct vs_clusters *cl = &vs->cl;
	char c[32];
	if (cl->error[0]) {
		if (y == 0)
			grid_text(row, 0, 0, row->w, ST_ERROR, cl->error);
		return;
	}
	struct mc_layout l = layout(vs, row->w);
	int tw = l.tw, gw = l.gw;
	if (y == 0) {
		int x = grid_printf(row, 0, 0, tw, ST_LABEL, " #  %-*s %7s", l.rw, "range", "samples");
		if (l.score)
			grid_printf(row, x, 0, tw - x, ST_LABEL, " %7s", "score");
		if (gw > 0)
			grid_printf(row, tw + 1, 0, gw, ST_LABEL, "%s", gw >= 13 ? "CPUs (issued)" : "CPUs");
		return;
	}
	uint32_t i = cl->top + (uint32_t)(y - 1);
	if (i >= cl->n)
		return;
	const struct mem_cluster *k = &cl->cl[i];
	double lo = INFINITY, hi = -INFINITY;
	for (uint32_t j = 0; j < cl->n; j++)
		if (!isnan(cl->cl[j].score)) {
			lo = cl->cl[j].score < lo ? cl->cl[j].score : lo;
			hi = cl->cl[j].score > hi ? cl->cl[j].score : hi;
		}
	int lvl = isnan(k->score) ? 0 : hi > lo ? 1 + (int)((k->score - lo) / (hi - lo) * (GRID_HEAT_LEVELS - 2) + 0.5)
		: GRID_HEAT_LEVELS / 2;
	int cur = i == cl->cur;
	char rng[112];
	range_text(vs, k, rng, sizeof rng);
	int st = cur && v->focus == PANE_CLUSTERS ? ST_EMPH : ST_NORMAL;
	int x = grid_printf(row, 0, 0, tw, st, "%2u  ", i + 1);
	grid_text(row, x, 0, l.rw < tw - x ? l.rw : tw - x, st, rng);
	x += l.rw;
	if (x < tw)
		x += grid_printf(row, x, 0, tw - x, st, " %7s", fmt_count(k->samples, c, sizeof c));
	if (l.score && x < tw) {
		if (isnan(k->score))
			grid_text(row, x, 0, tw - x, ST_DIM, "       -");
		else
			grid_printf(row, x, 0, tw - x, ST_HEAT0 + lvl, " %7.3f", k->score);
	}
	if (cur && v->focus == PANE_CLUSTERS)
		grid_mark(row, 0, 0, tw, 1, MARK_SEL);
	if (gw > 0)
		glyph(vs, cl->pu_counts[i], row, tw + 1, gw);
}

static int
mc_request(struct view *v, enum action act)
{
	struct view_samples *vs = v->smp;
	struct vs_clusters *cl = &vs->cl;
	int op = vs_op_of(act);
	if (op >= 0) {
		if (cl->n) {
			const struct mem_cluster *k = &cl->cl[cl->cur];
			struct mem_pick p = { .kind = MEM_PICK_RANGE, .attr = vs->attr, .lo = k->lo, .hi = k->hi };
			vs_pick(v, &p, (enum mem_op)op);
		}
		return 1;
	}
	switch (act) {
	case ACT_MOVE_UP: cl->cur = cl->cur ? cl->cur - 1 : 0; return 1;
	case ACT_MOVE_DOWN: cl->cur = cl->cur + 1 < cl->n ? cl->cur + 1 : cl->cur; return 1;
	case ACT_FIRST_RANK: cl->cur = 0; return 1;
	case ACT_LAST_RANK: cl->cur = cl->n ? cl->n - 1 : 0; return 1;
	case ACT_PANE_METRIC:
		vs->metric = vs->metric == MEM_LATENCY ? MEM_IMBALANCE : MEM_LATENCY;
		vs->opts_version++;
		return 1;
	default: return 0;
	}
}

const struct view_ops view_mclusters_ops = {
	.name = "clusters",
	.focusable = 1,
	.title = mc_title,
	.prepare = mc_prepare,
	.row = mc_row,
	.request = mc_request,
};
