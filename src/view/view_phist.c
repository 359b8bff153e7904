/* view_phist.c — parallel histograms (seed 002 §6.3): every attribute a
 * vertical histogram, side by side, values growing upwards; ░ the samples
 * looked at in a bin, █ the selected ones among them. The cursor column
 * is the attribute the histogram pane, the scores and the clusters run
 * along; a cursor bin, or a range of bins from the mark (s), selects
 * samples with Enter (new), | (or) and & (and). */
#include "view_samples.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_COLW 9

static int
alloc_state(struct view_samples *vs)
{
	struct vs_phist *ph = &vs->ph;
	if (ph->all)
		return 0;
	uint32_t n = samples_attr_count(vs->s);
	ph->all = calloc(n, sizeof *ph->all);
	ph->sel = calloc(n, sizeof *ph->sel);
	ph->bins = calloc(n, sizeof *ph->bins);
	ph->key = calloc(2 * (size_t)n, sizeof *ph->key);
	return ph->all && ph->sel && ph->bins && ph->key ? 0 : ERR_NOMEM;
}

/* The counts of attribute a for the current rows and sets. */
static int
count(struct view_samples *vs, uint32_t a)
{
	struct vs_phist *ph = &vs->ph;
	if (ph->all[a] && ph->key[2 * a] == vs->version && ph->key[2 * a + 1] == (uint64_t)ph->rows)
		return 0;
	free(ph->all[a]);
	free(ph->sel[a]);
	mem_bins_for(vs->m, a, (uint32_t)ph->rows, &ph->bins[a]);
	ph->all[a] = calloc(ph->bins[a].n, sizeof **ph->all);
	ph->sel[a] = calloc(ph->bins[a].n, sizeof **ph->sel);
	if (!ph->all[a] || !ph->sel[a])
		return ERR_NOMEM;
	mem_bin_counts(vs->m, &ph->bins[a], vs_looked(vs), vs->n_sel ? &vs->sel : NULL, ph->all[a], ph->sel[a]);
	ph->key[2 * a] = vs->version;
	ph->key[2 * a + 1] = (uint64_t)ph->rows;
	return 0;
}

static void
ph_prepare(struct view *v, int w, int h)
{
	struct view_samples *vs = v->smp;
	struct vs_phist *ph = &vs->ph;
	uint32_t na = samples_attr_count(vs->s);
	if (alloc_state(vs))
		return;
	ph->rows = h - 2;                 /* names, bins, the cursor's line */
	if (ph->rows < 1)
		ph->rows = 1;
	int colw = na ? w / (int)na : w;
	ph->colw = colw < MIN_COLW ? MIN_COLW : colw > 24 ? 24 : colw;
	ph->cols = (uint32_t)(w / ph->colw);
	if (ph->cols < 1)
		ph->cols = 1;
	if (vs->attr < ph->first)
		ph->first = vs->attr;
	if (vs->attr >= ph->first + ph->cols)
		ph->first = vs->attr - ph->cols + 1;
	for (uint32_t a = ph->first; a < na && a < ph->first + ph->cols; a++)
		if (count(vs, a))
			return;
	uint32_t nb = ph->bins[vs->attr].n;
	if (ph->cur.bin >= nb)
		ph->cur.bin = nb ? nb - 1 : 0;
	if (ph->cur.anchor != SAMPLES_NONE && ph->cur.anchor >= nb)
		ph->cur.anchor = SAMPLES_NONE;
}

static void
ph_title(struct view *v, char *buf, size_t n)
{
	struct view_samples *vs = v->smp;
	uint32_t na = samples_attr_count(vs->s);
	snprintf(buf, n, "parallel histograms \u00b7 %u attributes%s \u00b7 %s counts", na,
		 vs->ph.cols < na ? " (\u2190 \u2192 scroll)" : "", vs->ph.lin ? "linear" : "log");
}

/* The bin of attribute a drawn on chart row r (0 at the top). */
static uint32_t
row_bin(const struct vs_phist *ph, uint32_t a, int r)
{
	uint32_t n = ph->bins[a].n;
	return (uint32_t)((uint64_t)(ph->rows - 1 - r) * n / (uint32_t)ph->rows);
}

static int
bar_cells(const struct vs_phist *ph, uint64_t c, uint64_t peak, int w)
{
	if (!c || !peak)
		return 0;
	double f = ph->lin ? (double)c / (double)peak : log1p((double)c) / log1p((double)peak);
	int k = (int)(f * w + 0.5);
	return k < 1 ? 1 : k;
}

static void
cursor_line(struct view *v, struct grid *row)
{
	struct view_samples *vs = v->smp;
	const struct vs_phist *ph = &vs->ph;
	const struct mem_bins *b = &ph->bins[vs->attr];
	char lo[48], hi[48];
	uint32_t z = ph->cur.anchor != SAMPLES_NONE ? ph->cur.anchor : ph->cur.bin;
	uint32_t a = ph->cur.bin < z ? ph->cur.bin : z, e = ph->cur.bin < z ? z : ph->cur.bin;
	uint64_t all = 0, sel = 0;
	for (uint32_t k = a; k <= e && k < b->n; k++) {
		all += ph->all[vs->attr][k];
		sel += ph->sel[vs->attr][k];
	}
	int one = b->per_value;
	double vlo = one ? b->lo + a + 0.5 : mem_bin_edge(b, a), vhi = one ? b->lo + e + 0.5 : mem_bin_edge(b, e + 1);
	(void)hi;
	if (one && a == e)
		vs_value(vs, vs->attr, vlo, lo, sizeof lo);
	else
		vs_range(vs, vs->attr, vlo, vhi, lo, sizeof lo);
	/* the bin first; its counts whole, shorter when the pane is narrow
	 * (never "651 samples, 5") */
	int x = grid_printf(row, 0, 0, row->w, ST_LABEL, "%s %s %s", samples_attr(vs->s, vs->attr)->name,
			    ph->cur.anchor != SAMPLES_NONE ? "range" : "bin", lo);
	unsigned long long na = (unsigned long long)all, ns = (unsigned long long)sel;
	char tail[4][64];
	int k = 0;
	if (vs->n_sel) {
		snprintf(tail[k++], sizeof tail[0], ": %llu samples, %llu selected", na, ns);
		snprintf(tail[k++], sizeof tail[0], ": %llu of %llu selected", ns, na);
		snprintf(tail[k++], sizeof tail[0], ": %llu/%llu sel.", ns, na);
	} else {
		snprintf(tail[k++], sizeof tail[0], ": %llu samples", na);
		snprintf(tail[k++], sizeof tail[0], ": %llu", na);
	}
	for (int i = 0; i < k; i++)
		if (grid_text_whole(row, x, 0, row->w - x, vs->n_sel ? ST_EMPH : ST_LABEL, tail[i]))
			break;
}

static void
ph_row(struct view *v, int y, struct grid *row)
{
	struct view_samples *vs = v->smp;
	struct vs_phist *ph = &vs->ph;
	uint32_t na = samples_attr_count(vs->s);
	if (!ph->all)
		return;
	if (y == ph->rows + 1) {
		cursor_line(v, row);
		return;
	}
	for (uint32_t c = 0; c < ph->cols && ph->first + c < na; c++) {
		uint32_t a = ph->first + c;
		int x = (int)c * ph->colw, w = ph->colw - 1;
		int cur = a == vs->attr;
		if (y == 0) {
			/* a name cut says so ("dataSou…"); the cursor's line
			 * under the histograms names its attribute whole */
			char name[128];
			snprintf(name, sizeof name, "%s", samples_attr(vs->s, a)->name);
			view_fit_title(name, w);
			int n = grid_text(row, x, 0, w, cur ? ST_EMPH : ST_LABEL, name);
			if (cur)
				grid_mark(row, x, 0, n ? n : 1, 1, MARK_SEL);
			continue;
		}
		if (!ph->all[a])
			continue;
		int r = y - 1;
		uint32_t b = row_bin(ph, a, r);
		uint64_t peak = 0;
		for (uint32_t k = 0; k < ph->bins[a].n; k++)
			peak = ph->all[a][k] > peak ? ph->all[a][k] : peak;
		grid_put(row, x, 0, 0x2502, ST_DIM);           /* the axis */
		int na_c = bar_cells(ph, ph->all[a][b], peak, w - 1);
		int ns_c = vs->n_sel ? bar_cells(ph, ph->sel[a][b], peak, w - 1) : 0;
		for (int k = 0; k < na_c; k++)
			grid_put(row, x + 1 + k, 0, k < ns_c ? 0x2588 : vs->n_sel ? 0x2591 : 0x2592,
				 k < ns_c ? ST_EMPH : vs->n_sel ? ST_DIM : ST_HEAT3);
		if (cur) {
			uint32_t z = ph->cur.anchor != SAMPLES_NONE ? ph->cur.anchor : ph->cur.bin;
			uint32_t lo = ph->cur.bin < z ? ph->cur.bin : z, hi = ph->cur.bin < z ? z : ph->cur.bin;
			if (b >= lo && b <= hi)
				grid_mark(row, x, 0, 1, 1, MARK_SEL);    /* the cursor bin or range, on the axis */
		}
	}
}

static int
ph_request(struct view *v, enum action act)
{
	struct view_samples *vs = v->smp;
	struct vs_phist *ph = &vs->ph;
	uint32_t na = samples_attr_count(vs->s);
	uint32_t nb = ph->bins && ph->all && ph->all[vs->attr] ? ph->bins[vs->attr].n : 1;
	int have = ph->bins && ph->all && ph->all[vs->attr];
	if (vs_cursor_action(v, &ph->cur, have ? &ph->bins[vs->attr] : NULL, act))
		return 1;
	switch (act) {
	case ACT_MOVE_LEFT: case ACT_MOVE_RIGHT:
		vs_set_attr(v, (vs->attr + (act == ACT_MOVE_RIGHT ? 1 : na - 1)) % na);
		ph->cur.anchor = SAMPLES_NONE;
		return 1;
	case ACT_MOVE_UP: ph->cur.bin = ph->cur.bin + 1 < nb ? ph->cur.bin + 1 : nb - 1; return 1;
	case ACT_MOVE_DOWN: ph->cur.bin = ph->cur.bin ? ph->cur.bin - 1 : 0; return 1;
	case ACT_PAGE_UP: ph->cur.bin = nb - 1; return 1;
	case ACT_PAGE_DOWN: ph->cur.bin = 0; return 1;
	case ACT_PANE_METRIC: ph->lin = !ph->lin; return 1;
	default: return 0;
	}
}

const struct view_ops view_phist_ops = {
	.name = "parallel",
	.focusable = 1,
	.title = ph_title,
	.prepare = ph_prepare,
	.row = ph_row,
	.request = ph_request,
};
