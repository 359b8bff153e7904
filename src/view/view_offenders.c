/* view_offenders.c — top offenders (seed 002 §6.1): the code lines and
 * the data symbols with the most access cycles, as ranked bars, for the
 * selection (every sample looked at when nothing is selected); below
 * them, when the set has its sources, the line under the cursor in its
 * file. Enter, | and & select an offender's samples. */
#include "view_samples.h"

#include <stdlib.h>
#include <string.h>

static int
side_by_side(int w)
{
	return w >= 60;
}

/* Rows for the source excerpt: a third of the pane when there is one. */
static int
src_rows(const struct view *v, int h)
{
	const struct view_samples *vs = v->smp;
	if (!samples_info(vs->s)->source_dir || vs->off.n[0] == 0 || h < 12)
		return 0;
	return h / 3 < 5 ? 5 : h / 3;
}

static void
load_source(struct view *v)
{
	struct vs_offenders *o = &v->smp->off;
	const struct samples *s = v->smp->s;
	if (!o->n[0])
		return;
	const struct samples_codeline *cl = samples_codelines(s, NULL);
	uint32_t file = cl[o->o[0][o->cur[0]].id].file;
	if (file == o->src_file)
		return;
	free(o->src);
	o->src = NULL;
	o->src_file = file;
	size_t len;
	struct err e = { 0 };
	o->src_failed = samples_source_read(s, file, &o->src, &len, &e) != 0;
}

static void
off_prepare(struct view *v, int w, int h)
{
	struct vs_offenders *o = &v->smp->off;
	struct view_samples *vs = v->smp;
	(void)w;
	if (!o->valid || o->key != vs->version) {
		for (int k = 0; k < 2; k++) {
			free(o->o[k]);
			o->o[k] = NULL;
			o->n[k] = 0;
			if (mem_offenders(vs->m, k ? MEM_SYMBOLS : MEM_LINES, vs_shown(vs), &o->o[k], &o->n[k]))
				o->n[k] = 0;
			if (o->cur[k] >= o->n[k])
				o->cur[k] = o->n[k] ? o->n[k] - 1 : 0;
		}
		o->key = vs->version;
		o->valid = 1;
	}
	o->src_h = src_rows(v, h);
	o->rows = h - 1 - o->src_h;
	if (o->rows < 1)
		o->rows = 1;
	for (int k = 0; k < 2; k++) {
		if (o->cur[k] < o->top[k])
			o->top[k] = o->cur[k];
		if (o->cur[k] >= o->top[k] + (uint32_t)o->rows)
			o->top[k] = o->cur[k] - (uint32_t)o->rows + 1;
	}
	if (o->src_h)
		load_source(v);
}

static void
off_title(struct view *v, char *buf, size_t n)
{
	snprintf(buf, n, "top offenders \u00b7 cycles \u00b7 %s", v->smp->n_sel ? "selection" : "all samples");
}

static const char *
name_of(const struct view_samples *vs, int list, uint32_t id, char *buf, size_t n)
{
	const struct samples_info *in = samples_info(vs->s);
	if (list == 1)
		return samples_category(vs->s, (uint32_t)in->a_symbol, id);
	const struct samples_codeline *cl = samples_codelines(vs->s, NULL);
	const char *f = samples_category(vs->s, (uint32_t)in->a_file, cl[id].file);
	const char *base = strrchr(f, '/');
	snprintf(buf, n, "%s:%u", base ? base + 1 : f, cl[id].line);
	return buf;
}

/* A name cut to w columns: a code line keeps its line number whole
 * ("LULESH_OMP…:2035"), anything else ends in "…". */
static const char *
fit_name(const char *name, int list, int w, char *buf, size_t n)
{
	int len = text_width(name);
	if (len <= w || w < 2)
		return name;
	const char *colon = list == 0 ? strrchr(name, ':') : NULL;
	int tail = colon ? text_width(colon) : 0;
	if (colon && w - tail >= 2) {
		size_t head = text_cols_bytes(name, w - tail - 1);
		snprintf(buf, n, "%.*s\u2026%s", (int)head, name, colon);
	} else {
		size_t head = text_cols_bytes(name, w - 1);
		snprintf(buf, n, "%.*s\u2026", (int)head, name);
	}
	return buf;
}

/* The bar's width in a list w columns wide: it gives up cells (down to
 * none) before the names shown are cut. */
static int
bar_width(const struct view *v, int list, int w)
{
	const struct vs_offenders *o = &v->smp->off;
	int bw = w >= 40 ? 10 : w >= 28 ? 5 : 0, nw = w - bw - 12, need = 0;
	char buf[160];
	for (uint32_t i = o->top[list]; i < o->n[list] && i < o->top[list] + (uint32_t)o->rows; i++) {
		int len = text_width(name_of(v->smp, list, o->o[list][i].id, buf, sizeof buf));
		need = len > need ? len : need;
	}
	if (need > nw)
		bw -= need - nw < bw ? need - nw : bw;
	return bw < 3 ? 0 : bw;      /* a bar of one or two cells ranks nothing */
}

/* Row y of one list, in columns [x, x + w). */
static void
list_row(struct view *v, int list, int y, struct grid *row, int x, int w)
{
	const struct view_samples *vs = v->smp;
	const struct vs_offenders *o = &vs->off;
	char buf[160], cut[160], val[32];
	if (y == 0) {
		grid_printf(row, x, 0, w, ST_TITLE, "%s", list ? "data symbols" : "code lines");
		if (o->n[list])
			grid_printf(row, x + w - 8, 0, 8, ST_DIM, "%8s", "cycles");
		return;
	}
	uint32_t i = o->top[list] + (uint32_t)(y - 1);
	if (i >= o->n[list]) {
		if (y == 1 && !o->n[list])
			grid_text(row, x, 0, w, ST_DIM, list ? "no variable column" : "no source column");
		return;
	}
	const struct mem_offender *of = &o->o[list][i];
	int bw = bar_width(v, list, w), vw = 7;
	int nw = w - bw - vw - 5;
	grid_printf(row, x, 0, 3, ST_LABEL, "%2u", i + 1);
	int cur = v->focus == PANE_OFFENDERS && o->list == list && i == o->cur[list];
	int tx = x + 3;
	const char *name = fit_name(name_of(vs, list, of->id, buf, sizeof buf), list, nw, cut, sizeof cut);
	int nwr = grid_text(row, tx, 0, nw, cur ? ST_EMPH : ST_NORMAL, name);
	if (cur)
		grid_mark(row, tx, 0, nwr ? nwr : 1, 1, MARK_SEL);
	double top = o->n[list] ? (double)o->o[list][0].cycles : 0;
	int cells = top > 0 ? (int)((double)of->cycles / top * bw + 0.5) : 0;
	if (cells < 1 && of->cycles)
		cells = 1;
	int lvl = top > 0 ? 1 + (int)((double)of->cycles / top * (GRID_HEAT_LEVELS - 2) + 0.5) : 0;
	for (int k = 0; k < bw; k++)
		grid_put(row, x + 4 + nw + k, 0, k < cells ? 0x2588 : ' ', ST_HEAT0 + lvl);
	grid_printf(row, x + w - vw, 0, vw, ST_HEAT0 + lvl, "%*s", vw, fmt_count((double)of->cycles, val, sizeof val));
}

/* The source excerpt: the cursor's line of the code-line list, centred. */
static void
src_row(struct view *v, int y, int rows, struct grid *row)
{
	const struct vs_offenders *o = &v->smp->off;
	char buf[96];
	uint32_t line = samples_codelines(v->smp->s, NULL)[o->o[0][o->cur[0]].id].line;
	if (y == 0) {
		grid_fill(row, 0, 0, row->w, 1, 0x2500, ST_DIM);
		grid_printf(row, 1, 0, row->w - 2, ST_TITLE, " %s ", name_of(v->smp, 0, o->o[0][o->cur[0]].id, buf, sizeof buf));
		return;
	}
	if (!o->src) {
		if (y == 1)
			grid_text(row, 1, 0, row->w - 1, ST_DIM, o->src_failed ? "source file not found in the set's src/" : "");
		return;
	}
	long want = (long)line - (rows - 1) / 2 + (y - 1);
	if (want < 1)
		return;
	const char *p = o->src;
	for (long k = 1; k < want && p; k++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p)
		return;
	size_t len = strcspn(p, "\n");
	char text[512];
	size_t t = 0;
	for (size_t i = 0; i < len && t + 4 < sizeof text; i++) {
		if (p[i] == '\t') {
			do
				text[t++] = ' ';
			while (t % 4 && t + 4 < sizeof text);
		} else if ((unsigned char)p[i] >= 0x20 || (unsigned char)p[i] >= 0x80) {
			text[t++] = p[i];
		}
	}
	text[t] = 0;
	int hot = want == (long)line;
	int x = grid_printf(row, 0, 0, row->w, hot ? ST_EMPH : ST_LABEL, "%5ld ", want);
	grid_text(row, x, 0, row->w - x, hot ? ST_EMPH : ST_NORMAL, text);
	if (x + text_width(text) > row->w && row->w > x)     /* the line goes on */
		grid_put(row, row->w - 1, 0, 0x2026, ST_DIM);
	if (hot)
		grid_mark(row, 0, 0, row->w, 1, MARK_SEL);
}

static void
off_row(struct view *v, int y, struct grid *row)
{
	const struct vs_offenders *o = &v->smp->off;
	int lrows = o->rows + 1;
	if (y >= lrows) {
		src_row(v, y - lrows, o->src_h, row);
		return;
	}
	if (side_by_side(row->w)) {
		int half = (row->w - 1) / 2;
		list_row(v, 0, y, row, 0, half);
		grid_put(row, half, 0, 0x2502, ST_DIM);
		list_row(v, 1, y, row, half + 1, row->w - half - 1);
	} else {
		list_row(v, o->list, y, row, 0, row->w);
	}
}

static int
off_request(struct view *v, enum action act)
{
	struct view_samples *vs = v->smp;
	struct vs_offenders *o = &vs->off;
	int k = o->list, op = vs_op_of(act);
	uint32_t n = o->n[k];
	if (op >= 0) {
		if (!n)
			return 1;
		struct mem_pick p = { .kind = MEM_PICK_LINE, .id = o->o[k][o->cur[k]].id };
		if (k == 1)
			p = (struct mem_pick){ .kind = MEM_PICK_RANGE, .attr = (uint32_t)samples_info(vs->s)->a_symbol,
					       .lo = p.id, .hi = p.id };
		vs_pick(v, &p, (enum mem_op)op);
		return 1;
	}
	uint32_t page = o->rows > 1 ? (uint32_t)o->rows - 1 : 1;
	switch (act) {
	case ACT_MOVE_UP: o->cur[k] = o->cur[k] ? o->cur[k] - 1 : 0; break;
	case ACT_MOVE_DOWN: o->cur[k] = o->cur[k] + 1 < n ? o->cur[k] + 1 : o->cur[k]; break;
	case ACT_PAGE_UP: o->cur[k] = o->cur[k] > page ? o->cur[k] - page : 0; break;
	case ACT_PAGE_DOWN: o->cur[k] = n ? (o->cur[k] + page < n ? o->cur[k] + page : n - 1) : 0; break;
	case ACT_FIRST_RANK: case ACT_FIRST_STEP: o->cur[k] = 0; break;
	case ACT_LAST_RANK: case ACT_LAST_STEP: o->cur[k] = n ? n - 1 : 0; break;
	case ACT_MOVE_LEFT: o->list = 0; break;
	case ACT_MOVE_RIGHT: o->list = 1; break;
	case ACT_PANE_SCOPE: o->list = !o->list; break;
	default: return 0;
	}
	return 1;
}

const struct view_ops view_offenders_ops = {
	.name = "offenders",
	.focusable = 1,
	.title = off_title,
	.prepare = off_prepare,
	.row = off_row,
	.request = off_request,
};
