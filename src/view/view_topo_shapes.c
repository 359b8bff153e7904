/* view_topo_shapes.c — the topology pane's icicle (one row per depth,
 * widths proportional to the PUs below, link glyphs between the rows)
 * and radial view (the icicle bent into a sunburst on a braille canvas,
 * names on the disc, a legend beside it). view_topo.c holds the rest. */
#include "view_topo_impl.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view_samples.h"

static const uint32_t link_glyph[4] = { ' ', 0x2506, 0x2502, 0x2503 };   /* ┆ │ ┃ */

/* The next (dir 1) or previous object of i's depth, or i. */
uint32_t
vt_same_depth(const struct view_topo *vt, uint32_t i, int dir)
{
	for (uint32_t j = i + (uint32_t)dir; j < vt->n_obj; j += (uint32_t)dir)
		if (vt->obj[j].depth == vt->obj[i].depth)
			return j;
	return i;
}

static const uint32_t shade[GRID_HEAT_LEVELS] = {
	' ', 0x2591, 0x2591, 0x2592, 0x2592, 0x2593, 0x2593, 0x2588,
};

/* A row of link glyphs: under each object of depth d, the weight of
 * its link to the parent. */
static void
link_row(const struct view_topo *vt, uint32_t d, struct grid *row)
{
	uint32_t W = (uint32_t)row->w;
	for (uint32_t i = 0; i < vt->n_obj; i++) {
		const struct topo_obj *o = &vt->obj[i];
		if (o->depth != d || !o->pu_count)
			continue;
		uint32_t x0 = (uint32_t)((uint64_t)o->pu_first * W / vt->n_pu);
		uint32_t x1 = (uint32_t)((uint64_t)(o->pu_first + o->pu_count) * W / vt->n_pu);
		int l = vt_link_level(vt, i);
		if (x1 > x0 && l)
			grid_put(row, (int)(x0 + (x1 - x0) / 2), 0, link_glyph[l], ST_HEAT0 + 2 * l + 1);
	}
}

void
vt_icicle_row(struct view *v, int y, struct grid *row)
{
	struct view_topo *vt = v->topo;
	char buf[64], val[32];
	/* samples: rows of links between the depths when they fit */
	int links = vt->link && vt->rows >= 2 * (int)vt->max_depth + 3;
	int depth_rows = links ? 2 * (int)vt->max_depth + 1 : (int)vt->max_depth + 1;
	if (y >= depth_rows) {
		if (y == depth_rows + 1) {
			vt_obj_label(vt, vt->sel, 0, buf, sizeof buf);
			vt_value_text(vt, vt->per_obj[vt->sel], val, sizeof val);
			int x = grid_printf(row, 0, 0, row->w, ST_NORMAL, "selected %s: %s", buf, val);
			if (vt->link && vt->obj[vt->sel].parent != TRACE_NONE)
				grid_printf(row, x, 0, row->w - x, ST_NORMAL, ", \u2191 %s", fmt_count(vt->link[vt->sel], val, sizeof val));
		}
		return;
	}
	if (links && y % 2) {
		link_row(vt, (uint32_t)(y + 1) / 2, row);
		return;
	}
	uint32_t d = links ? (uint32_t)y / 2 : (uint32_t)y;
	uint32_t W = (uint32_t)row->w, sel_pu = v->sel_rank < vt->n_ranks ? vt->pu_of[v->sel_rank] : TRACE_NONE;
	for (uint32_t i = 0; i < vt->n_obj; i++) {
		const struct topo_obj *o = &vt->obj[i];
		if (o->depth != d)
			continue;
		uint32_t x0 = (uint32_t)((uint64_t)o->pu_first * W / vt->n_pu);
		uint32_t x1 = (uint32_t)((uint64_t)(o->pu_first + o->pu_count) * W / vt->n_pu);
		if (x1 <= x0)
			continue;
		int lvl = vt_heat(vt, i);
		grid_fill(row, (int)x0, 0, (int)(x1 - x0), 1, shade[lvl], ST_HEAT0 + lvl);
		int sep = x0 > 0 && x1 - x0 >= 3;    /* narrower spans are shade alone */
		if (sep)
			grid_put(row, (int)x0, 0, 0x2502, ST_DIM);
		/* a label needs its span, and a gap before the next one unless
		 * the next span starts with its separator */
		vt_obj_label(vt, i, 1, buf, sizeof buf);
		int lw = text_width(buf), sx = (int)x0 + sep;
		uint32_t nx = vt_same_depth(vt, i, 1);
		uint32_t nx1 = nx == i ? x1 : (uint32_t)((uint64_t)(vt->obj[nx].pu_first + vt->obj[nx].pu_count) * W / vt->n_pu);
		int gap = nx == i || x1 >= W || nx1 - x1 >= 3 ? 0 : 1;
		if (lw + gap <= (int)x1 - sx)
			grid_text(row, sx, 0, lw, i == vt->sel ? ST_EMPH : ST_HEAT0 + (lvl ? lvl : 1), buf);
		if (o->type == TOPO_PU && vt_holds_pu(vt, i, sel_pu) && (int)x1 - 1 >= sx + lw)
			grid_put(row, (int)x1 - 1, 0, 0x2022, ST_EMPH);
		if (i == vt->sel)
			grid_mark(row, (int)x0, 0, (int)(x1 - x0), 1, MARK_SEL);
	}
}

/* The object of depth d over the PU at angle fraction f. */
uint32_t
vt_obj_at(const struct view_topo *vt, double f, uint32_t d)
{
	uint32_t pu = (uint32_t)(f * vt->n_pu);
	if (pu >= vt->n_pu)
		pu = vt->n_pu - 1;
	uint32_t i = topo_pu_objs(vt->t, NULL)[pu];
	while (vt->obj[i].depth > d)
		i = vt->obj[i].parent;
	return i;
}

/* A legend taller than the pane (rows) loses its blank line, then puts
 * the rings side by side in columns of width w; what still does not fit
 * ends in "… N more rings". */
static void
fit_legend(struct view_topo *vt, int rows, int w)
{
	enum { HEAD = 4 };            /* selection, value, blank, "rings, inside out:" */
	if (vt->n_leg <= rows || vt->n_leg <= HEAD)
		return;
	memmove(vt->leg[2], vt->leg[3], (size_t)(vt->n_leg - 3) * sizeof vt->leg[0]);
	vt->n_leg--;
	int head = HEAD - 1, rings = vt->n_leg - head;
	if (vt->n_leg <= rows)
		return;
	/* then the selection's value goes on its line */
	char sel[128];
	snprintf(sel, sizeof sel, "%.*s:%.*s", (int)text_cols_bytes(vt->leg[0], 80), vt->leg[0],
		 (int)text_cols_bytes(vt->leg[1] + 1, 40), vt->leg[1] + 1);
	if (text_width(sel) <= w) {
		memcpy(vt->leg[0], sel, sizeof sel);
		memmove(vt->leg[1], vt->leg[2], (size_t)(vt->n_leg - 2) * sizeof vt->leg[0]);
		vt->n_leg--;
		head--;
		if (vt->n_leg <= rows)
			return;
	}
	int cw = 0;
	for (int i = head; i < vt->n_leg; i++) {
		int n = text_width(vt->leg[i]);
		cw = n > cw ? n : cw;
	}
	int per = (w + 2) / (cw + 2);         /* rings per line */
	per = per < 1 ? 1 : per;
	int lines = rows - head;
	if (lines <= 0)
		return;
	/* all the rings in lines of per, or the last line counts the rest */
	int shown = rings <= lines * per ? rings : (lines - 1) * per;
	char out[16][128];
	int n_out = 0;
	for (int i = 0; i < shown; i += per, n_out++) {
		size_t len = 0;
		out[n_out][0] = 0;
		for (int k = i; k < shown && k < i + per; k++) {
			char pad[sizeof out[0]];      /* a column of cw + 2 by columns, the last unpadded */
			const char *s = text_safe_pad(vt->leg[head + k], k + 1 < shown && k + 1 < i + per ? cw + 2 : 0,
						      pad, sizeof pad);
			/* rings of long names may pass the line's bytes: the
			 * last that does not fit is cut, not split */
			if (len + 1 < sizeof out[0]) {
				vt_fit_text(s, INT_MAX, out[n_out] + len, sizeof out[0] - len);
				len += strlen(out[n_out] + len);
			}
		}
	}
	if (shown < rings)
		snprintf(out[n_out++], sizeof out[0], "\u2026 %d more ring%s", rings - shown, rings - shown == 1 ? "" : "s");
	for (int i = 0; i < n_out; i++)
		memcpy(vt->leg[head + i], out[i], sizeof out[0]);
	vt->n_leg = head + n_out;
}

/* s in at most cols columns and n bytes: s itself when it fits both,
 * else s cut as text_cut cuts, at the most columns that fit both,
 * ending in '…' and never inside a character (a long node name was
 * split inside one, shown as '?'); "…" alone when no cut fits. Out has
 * n bytes; at most 256 of them are used. A cut that fits n bytes takes
 * at most n + 1 columns (a column is a byte at least, '…' one column of
 * three), so no wider one is tried; a name past 4 KiB is cut from its
 * first 4 KiB (a place after its last '@' further on is not kept), so
 * that each cut reads no more: a name of megabytes costs what one of
 * kilobytes does. */
void
vt_fit_text(const char *s, int cols, char *out, size_t n)
{
	char cut[257], head[4097];
	n = n < sizeof cut ? n : sizeof cut - 1;    /* a cut cut short by text_cut never fits */
	size_t len = strlen(s);
	if (len >= sizeof head) {
		/* at a character's start: back over up to 3 continuation bytes */
		size_t k = sizeof head - 1;
		for (int b = 0; b < 3 && k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80; b++)
			k--;
		memcpy(head, s, k);
		head[k] = '\0';
		s = head;
	}
	int w = text_width(s), c = (w <= cols ? w : cols + 1) - 1;
	const char *t = w <= cols && s != head ? s : NULL;
	for (c = c < (int)n + 1 ? c : (int)n + 1; (!t || strlen(t) >= n) && c >= 2; c--)
		t = text_cut(s, c, cut, sizeof cut);
	if (!t || strlen(t) >= n)
		t = cols >= 1 && n > strlen("\u2026") ? "\u2026" : "";
	memcpy(out, t, strlen(t) + 1);
}

/* The radial layout for a pane of w × rows cells: the disc on the left
 * (in braille dots: 2 per column, 4 per row), and when there is room a
 * legend on its right naming the selection, the rings and their hottest
 * objects; labels on the disc name the hottest sector of each ring and
 * the selected one. */
void
vt_radial_layout(struct view *v, int w)
{
	struct view_topo *vt = v->topo;
	int rows = vt->rows;
	vt->disc_w = w - (2 * rows + 1) >= 22 ? 2 * rows + 1 : w;
	vt->n_rl = 0;
	vt->n_leg = 0;
	double cx = vt->disc_w, cy = 2.0 * rows;
	double R = (cx < cy ? cx : cy) - 1, ring = R / (vt->max_depth + 1);
	char buf[64], val[32];
	/* the hottest object of each ring, then the selection (drawn last) */
	for (uint32_t d = 0; d <= vt->max_depth + 1 && ring >= 1; d++) {
		uint32_t best = TRACE_NONE;
		if (d <= vt->max_depth) {
			for (uint32_t i = 0; i < vt->n_obj; i++)
				if (vt->obj[i].depth == d && vt->per_obj[i] > 0 &&
				    (best == TRACE_NONE || vt->per_obj[i] > vt->per_obj[best]))
					best = i;
		} else {
			best = vt->sel;
		}
		if (best == TRACE_NONE || vt->n_rl == (int)(sizeof vt->rl / sizeof vt->rl[0]))
			continue;
		const struct topo_obj *o = &vt->obj[best];
		double f = (o->pu_first + o->pu_count / 2.0) / vt->n_pu;
		double r = o->depth == 0 ? 0 : (o->depth + 0.5) * ring;
		double arc = o->depth == 0 ? 2 * ring : TAU * r * o->pu_count / vt->n_pu;
		vt_obj_label(vt, best, 1, buf, sizeof buf);
		/* placed, and checked against its sector, by what is shown */
		char text[sizeof vt->rl[0].text];
		vt_fit_text(buf, INT_MAX, text, sizeof text);
		int lw = text_width(text);
		if (arc < 2.0 * lw + 2 && best != vt->sel)
			continue;             /* a sector too narrow for its name */
		if (lw > vt->disc_w)
			continue;             /* wider than the disc */
		struct rlabel *L = &vt->rl[vt->n_rl++];
		L->x = (int)((cx + r * sin(TAU * f)) / 2) - lw / 2;
		L->x = L->x < 0 ? 0 : L->x + lw > vt->disc_w ? vt->disc_w - lw : L->x;
		L->y = (int)((cy - r * cos(TAU * f)) / 4);
		L->style = best == vt->sel ? -1 : ST_EMPH;
		memcpy(L->text, text, sizeof L->text);
	}
	/* labels never overlap ("NM", "11"): the selection's (placed last)
	 * first, then the outer rings' before the inner ones they cover */
	int kept = 0;
	struct rlabel keep[sizeof vt->rl / sizeof vt->rl[0]];
	for (int k = vt->n_rl - 1; k >= 0; k--) {
		const struct rlabel *L = &vt->rl[k];
		int n = text_width(L->text), clash = 0;
		for (int j = 0; j < kept && !clash; j++)
			clash = keep[j].y == L->y && L->x <= keep[j].x + text_width(keep[j].text) &&
				keep[j].x <= L->x + n;
		if (!clash)
			keep[kept++] = *L;
	}
	for (int k = 0; k < kept; k++)
		vt->rl[k] = keep[kept - 1 - k];
	vt->n_rl = kept;
	if (vt->disc_w == w)
		return;
	/* the legend */
	vt_obj_label(vt, vt->sel, 0, buf, sizeof buf);
	vt_value_text(vt, vt->per_obj[vt->sel], val, sizeof val);
	snprintf(vt->leg[vt->n_leg++], sizeof vt->leg[0], "selected %s", buf);
	snprintf(vt->leg[vt->n_leg++], sizeof vt->leg[0], "  %s", val);
	vt->leg[vt->n_leg++][0] = 0;
	snprintf(vt->leg[vt->n_leg++], sizeof vt->leg[0], "rings, inside out:");
	for (uint32_t d = 0; d <= vt->max_depth && vt->n_leg < (int)(sizeof vt->leg / sizeof vt->leg[0]) - 1; d++) {
		uint32_t best = TRACE_NONE, first = TRACE_NONE;
		for (uint32_t i = 0; i < vt->n_obj; i++)
			if (vt->obj[i].depth == d) {
				first = first == TRACE_NONE ? i : first;
				if (best == TRACE_NONE || vt->per_obj[i] > vt->per_obj[best])
					best = i;
			}
		if (first == TRACE_NONE)
			continue;
		vt_obj_label(vt, best, 1, buf, sizeof buf);
		vt_value_text(vt, vt->per_obj[best], val, sizeof val);
		/* the object's name and value cut as every name is cut ('…'),
		 * the name to what the line's bytes leave it */
		char *line = vt->leg[vt->n_leg++], value[64];
		vt_fit_text(vt->per_obj[best] > 0 ? val : "", 30, value, sizeof value);
		int k = snprintf(line, sizeof vt->leg[0], "%u %-8s ", d, vt->system_tree && vt->obj[first].type == TOPO_PU
				 ? "rank" : topo_type_name(vt->obj[first].type));
		size_t room = sizeof vt->leg[0] - (size_t)k - strlen(value) - 1;
		vt_fit_text(vt->per_obj[best] > 0 ? buf : "-", 40, line + k, room);
		snprintf(line + strlen(line), sizeof vt->leg[0] - strlen(line), " %s", value);
	}
	fit_legend(vt, rows, w - vt->disc_w - 2);
}

void
vt_radial_row(struct view *v, int y, struct grid *row)
{
	struct view_topo *vt = v->topo;
	static const uint8_t bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 } };
	static const uint8_t bayer[4][4] = { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } };
	double cx = vt->disc_w, cy = 2.0 * vt->rows;     /* in dots */
	double R = (cx < cy ? cx : cy) - 1, ring = R / (vt->max_depth + 1);
	if (ring < 1) {           /* no disc fits: say so, rather than nothing */
		static const char *const say[] = { "no room for the disc (v: the tree)", "no room (v: tree)", "no room" };
		for (size_t k = 0; y == 0 && k < sizeof say / sizeof say[0]; k++)
			if (grid_text_whole(row, 0, 0, row->w, ST_DIM, say[k]))
				break;
		return;
	}
	for (int x = 0; x < vt->disc_w && x < row->w; x++) {
		uint32_t bits = 0, centre = TRACE_NONE;
		for (int dy = 0; dy < 4; dy++)
			for (int dx = 0; dx < 2; dx++) {
				double px = 2 * x + dx + 0.5 - cx, py = 4 * y + dy + 0.5 - cy;
				double r = hypot(px, py);
				uint32_t d = (uint32_t)(r / ring);
				if (d > vt->max_depth)
					continue;
				double f = atan2(px, -py) / TAU, fe = f - 0.8 / (TAU * (r > 1 ? r : 1));
				f = f < 0 ? f + 1 : f;
				fe = fe < 0 ? fe + 1 : fe;
				uint32_t i = vt_obj_at(vt, f, d);
				if (dy == 1 && dx == 0)
					centre = i;
				double m = vt->depth_max[d], ratio = m > 0 ? vt->per_obj[i] / m : 0;
				/* the ring's outer border; with samples, as thick as the
				 * traffic on the links out of it (the children's) */
				double border = 1;
				if (vt->link && d < vt->max_depth)
					border += vt_link_level(vt, vt_obj_at(vt, f, d + 1));
				int edge = r - d * ring > ring - border ||
					(r > 1 && vt_obj_at(vt, fe, d) != i);     /* sector and ring borders */
				int X = 2 * x + dx, Y = 4 * y + dy;
				if (edge || ratio * 16 > bayer[Y & 3][X & 3] + 0.5)
					bits |= bit[dy][dx];
			}
		if (bits)
			grid_put(row, x, 0, 0x2800 + bits, centre == TRACE_NONE ? ST_DIM
				 : centre == vt->sel ? ST_EMPH : ST_HEAT0 + vt_heat(vt, centre));
		if (centre != TRACE_NONE && centre == vt->sel && vt->sel != 0)
			row->cells[x].mark |= MARK_SEL;     /* the highlighted sector */
	}
	for (int k = 0; k < vt->n_rl; k++) {
		const struct rlabel *L = &vt->rl[k];
		if (L->y != y)
			continue;
		int lx = L->x < 0 ? 0 : L->x, n = text_width(L->text);
		if (lx + n > vt->disc_w)
			lx = vt->disc_w - n > 0 ? vt->disc_w - n : 0;
		grid_text(row, lx, 0, vt->disc_w - lx, L->style < 0 ? ST_EMPH : L->style, L->text);
		if (L->style < 0)
			grid_mark(row, lx, 0, n, 1, MARK_SEL);
	}
	if (y < vt->n_leg)
		grid_text(row, vt->disc_w + 2, 0, row->w - vt->disc_w - 2, y < 2 ? ST_EMPH : ST_LABEL, vt->leg[y]);
}

