/* view_help.c — the help overlay, generated from the action table and
 * the key bindings in force, so it always tells the truth about keys. */
#include "view_impl.h"

#include <string.h>

/* "help · Esc or ? closes · j/k scroll", from the bindings in force. */
static void
help_title(struct view *v, char *buf, size_t n)
{
	char close[16], help[16], down[16], up[16];
	keymap_first_key(v->km, ACT_CLOSE, close, sizeof close);
	keymap_first_key(v->km, ACT_HELP, help, sizeof help);
	keymap_first_key(v->km, ACT_MOVE_DOWN, down, sizeof down);
	keymap_first_key(v->km, ACT_MOVE_UP, up, sizeof up);
	int len = snprintf(buf, n, "help");
	if ((*close || *help) && len >= 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, " \u00b7 %s%s%s closes", close,
				*close && *help ? " or " : "", help);
	if ((*down || *up) && len >= 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " \u00b7 %s%s%s scroll", down, *down && *up ? "/" : "", up);
}

static void
help_prepare(struct view *v, int w, int h)
{
	struct view_lines *L = &v->help;
	view_lines_begin(L, w - 1, h);
	if (v->smp) {             /* a sample set's keys and commands */
		view_samples_help(v);
		view_lines_end(L);
		return;
	}
	const char *group = "";
	for (int a = 1; a < ACT_COUNT; a++) {
		const struct action_info *ai = action_info((enum action)a);
		char keys[64];
		if (keymap_keys(v->km, (enum action)a, keys, sizeof keys) == 0 || !strcmp(ai->group, "Samples"))
			continue;         /* samples' actions: in their own help (view_samples.c) */
		if (strcmp(group, ai->group) != 0) {
			if (*group)
				view_lines_text(L, ST_NORMAL, 0, 0, "");
			view_lines_text(L, ST_TITLE, 0, 0, ai->group);
			group = ai->group;
		}
		char line[192];
		snprintf(line, sizeof line, "%-16s %s", keys, ai->help);
		view_lines_text(L, ST_NORMAL, 2, 19, line);
	}
	view_lines_text(L, ST_NORMAL, 0, 0, "");
	view_lines_text(L, ST_TITLE, 0, 0, "Commands (after :)");
	view_lines_text(L, ST_NORMAL, 2, 21, "step N, rank N     go to a global step or a rank (a bare N is a step)");
	view_lines_text(L, ST_NORMAL, 2, 21, "partition N        go to the N-th partition (in step order)");
	view_lines_text(L, ST_NORMAL, 2, 21, "hotspot N          go to the N-th hotspot");
	view_lines_text(L, ST_NORMAL, 2, 21, "metric NAME        lateness, diff, global, duration, partition, function");
	view_lines_text(L, ST_NORMAL, 2, 21, "zoom N [R]         N steps per column, R ranks per row");
	view_lines_text(L, ST_NORMAL, 2, 21, "clusters K, off    rows: ranks in K clusters by lateness (1-20), or ranks");
	view_lines_text(L, ST_NORMAL, 2, 21, "search TEXT, quit");
	view_lines_text(L, ST_NORMAL, 0, 0, "");
	view_lines_text(L, ST_TITLE, 0, 0, "Glyphs");
	view_lines_text(L, ST_NORMAL, 2, 4, "s send  r receive  x send+receive  C collective  W wait  \u00b7 computation");
	view_lines_text(L, ST_NORMAL, 2, 4, "colour: the metric (footer scale); zoomed out, the block's maximum");
	view_lines_text(L, ST_NORMAL, 2, 4, "reverse: selection; green background: its message partners");
	view_lines_text(L, ST_NORMAL, 2, 4, "ruler: \u253c partition start, \u2550 the selected operation's partition");
	view_lines_text(L, ST_NORMAL, 0, 0, "");
	view_lines_text(L, ST_TITLE, 0, 0, "Lateness");
	view_lines_text(L, ST_NORMAL, 2, 2, "lateness: exit time minus the earliest exit among the operations of the "
			"same partition and step; differential: what an operation adds to the "
			"lateness it inherited (hotspots are where it is largest)");
	view_lines_end(L);
}

static void
help_row(struct view *v, int y, struct grid *row)
{
	view_lines_row(&v->help, y, 1, row);
}

const struct view_ops view_help_ops = {
	.name = "help",
	.focusable = 0,
	.title = help_title,
	.prepare = help_prepare,
	.row = help_row,
};
