/* view_help.c — the help overlay: view_keys.c's list (the action table,
 * the key bindings in force, the panes' keys, the commands) wrapped to
 * the overlay, so it always tells the truth about keys. */
#include "view_impl.h"

#include <string.h>

#include "view_keys.h"

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

struct help_ctx {
	struct view_lines *L;
	int skip;                 /* in the samples' section: their own help lists it */
};

static void
help_line(void *ud, enum view_keys_row kind, const char *keys, const char *text)
{
	struct help_ctx *ctx = ud;
	struct view_lines *L = ctx->L;
	char line[256];
	if (kind == KEYS_SECTION)
		ctx->skip = !strcmp(text, ACTION_GROUP_SAMPLES);
	if (ctx->skip)
		return;
	switch (kind) {
	case KEYS_SECTION:
		if (L->n)
			view_lines_text(L, ST_NORMAL, 0, 0, "");
		view_lines_text(L, ST_TITLE, 0, 0, text);
		break;
	case KEYS_ENTRY:
		/* keys in a column; long key lists take a line of their own */
		if (text_width(keys) > 16) {
			view_lines_text(L, ST_NORMAL, 2, 4, keys);
			view_lines_text(L, ST_NORMAL, 19, 19, text);
		} else {
			char pad[80];
			snprintf(line, sizeof line, "%s %s", text_safe_pad(keys, 16, pad, sizeof pad), text);
			view_lines_text(L, ST_NORMAL, 2, 19, line);
		}
		break;
	case KEYS_NOTE:
		view_lines_text(L, ST_NORMAL, 2, 4, text);
		break;
	}
}

static void
help_prepare(struct view *v, int w, int h)
{
	struct view_lines *L = &v->help;
	/* a margin column on the left, and the last one for the arrows */
	view_lines_begin(L, w - 2, h);
	if (v->smp) {             /* a sample set's keys and commands */
		view_samples_help(v);
		view_lines_end(L);
		return;
	}
	/* what the reader warned of first: the status line only counts it */
	static const char lead[] = "trace quality: ";
	if (!strncmp(v->start_note, lead, sizeof lead - 1)) {
		view_lines_text(L, ST_TITLE, 0, 0, "Trace quality");
		view_lines_text(L, ST_NORMAL, 2, 4, v->start_note + sizeof lead - 1);
	}
	struct help_ctx ctx = { L, 0 };
	view_keys_rows(v->km, view_is_charm(v), help_line, &ctx);
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
