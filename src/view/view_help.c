/* view_help.c — the help overlay, generated from the action table and
 * the key bindings in force, so it always tells the truth about keys. */
#include "view_impl.h"

#include <stdarg.h>
#include <string.h>

static void
hadd(struct view *v, int style, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
hadd(struct view *v, int style, const char *fmt, ...)
{
	if (v->n_hl >= VIEW_MAX_DLINES)
		return;
	struct dline *d = &v->hl[v->n_hl++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof d->text, fmt, ap);
	va_end(ap);
	d->style = (uint8_t)style;
}

static void
help_title(struct view *v, char *buf, size_t n)
{
	(void)v;
	snprintf(buf, n, "help \u00b7 Esc or ? closes \u00b7 j/k scroll");
}

static void
help_prepare(struct view *v, int w, int h)
{
	(void)w;
	v->n_hl = 0;
	v->help_rows = h;
	const char *group = "";
	for (int a = 1; a < ACT_COUNT; a++) {
		const struct action_info *ai = action_info((enum action)a);
		char keys[64];
		if (keymap_keys(v->km, (enum action)a, keys, sizeof keys) == 0)
			continue;
		if (strcmp(group, ai->group) != 0) {
			if (*group)
				hadd(v, ST_NORMAL, "%s", "");
			hadd(v, ST_TITLE, "%s", ai->group);
			group = ai->group;
		}
		hadd(v, ST_NORMAL, "  %-16s %s", keys, ai->help);
	}
	hadd(v, ST_NORMAL, "%s", "");
	hadd(v, ST_TITLE, "%s", "Commands (after :)");
	hadd(v, ST_NORMAL, "%s", "  step N, rank N     go to a global step or a rank (a bare N is a step)");
	hadd(v, ST_NORMAL, "%s", "  partition N        go to the N-th partition (in step order)");
	hadd(v, ST_NORMAL, "%s", "  hotspot N          go to the N-th hotspot");
	hadd(v, ST_NORMAL, "%s", "  metric NAME        lateness, diff, global, duration, partition, function");
	hadd(v, ST_NORMAL, "%s", "  zoom N [R]         N steps per column, R ranks per row");
	hadd(v, ST_NORMAL, "%s", "  clusters K, off    rows: ranks in K clusters by lateness (1-20), or ranks");
	hadd(v, ST_NORMAL, "%s", "  search TEXT, quit");
	hadd(v, ST_NORMAL, "%s", "");
	hadd(v, ST_TITLE, "%s", "Glyphs");
	hadd(v, ST_NORMAL, "%s", "  s send  r receive  x send+receive  C collective  W wait  \u00b7 computation");
	hadd(v, ST_NORMAL, "%s", "  colour: the metric (footer scale); zoomed out, the block's maximum");
	hadd(v, ST_NORMAL, "%s", "  reverse: selection; green background: its message partners");
	hadd(v, ST_NORMAL, "%s", "  ruler: \u253c partition start, \u2550 the selected operation's partition");
	hadd(v, ST_NORMAL, "%s", "");
	hadd(v, ST_TITLE, "%s", "Lateness");
	hadd(v, ST_NORMAL, "%s", "  lateness: exit time minus the earliest exit among the operations of the");
	hadd(v, ST_NORMAL, "%s", "  same partition and step; differential: what an operation adds to the");
	hadd(v, ST_NORMAL, "%s", "  lateness it inherited (hotspots are where it is largest)");
	int max = v->n_hl - h;
	if (v->help_scroll > max)
		v->help_scroll = max > 0 ? max : 0;
}

static void
help_row(struct view *v, int y, struct grid *row)
{
	int i = y + v->help_scroll;
	if (i < v->n_hl)
		grid_text(row, 1, 0, row->w - 1, v->hl[i].style, v->hl[i].text);
	if (y == v->help_rows - 1 && v->n_hl > v->help_scroll + v->help_rows)
		grid_text(row, row->w - 1, 0, 1, ST_EMPH, "\u2193");
}

const struct view_ops view_help_ops = {
	.name = "help",
	.focusable = 0,
	.title = help_title,
	.prepare = help_prepare,
	.row = help_row,
};
