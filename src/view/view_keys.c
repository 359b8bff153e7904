/* view_keys.c — the explorer's keys in one list (see view_keys.h). */
#include "view_keys.h"

#include <string.h>

#include "view_impl.h"

typedef void (*row_fn)(void *ud, enum view_keys_row kind, const char *keys, const char *text);

/* "Left / Right": the first key of a and of b (the actions' own rows
 * list all their keys). Returns 0 when neither has a key. */
static int
keys_of(const struct keymap *km, enum action a, enum action b, char *buf, size_t n)
{
	char ka[32], kb[32];
	keymap_first_key(km, a, ka, sizeof ka);
	if (b != ACT_NONE)
		keymap_first_key(km, b, kb, sizeof kb);
	else
		kb[0] = 0;
	snprintf(buf, n, "%s%s%s", ka, ka[0] && kb[0] ? " / " : "", kb);
	return buf[0] != 0;
}

static void
pane_rows(const struct keymap *km, int charm, row_fn fn, void *ud)
{
	for (int id = 0; id < PANE_COUNT; id++) {
		const struct view_ops *ops = view_pane_ops(id);
		if (!ops->keys)
			continue;
		fn(ud, KEYS_SECTION, NULL, ops->keys_title);
		const struct pane_key *k = charm && ops->charm_keys ? ops->charm_keys : ops->keys;
		for (; k->act != ACT_NONE; k++) {
			char keys[160];
			if (keys_of(km, k->act, k->act2, keys, sizeof keys))
				fn(ud, KEYS_ENTRY, keys, k->what);
		}
	}
}

void
view_keys_rows(const struct keymap *km, int charm, row_fn fn, void *ud)
{
	const char *group = "";
	for (int a = 1; a < ACT_COUNT; a++) {
		const struct action_info *ai = action_info((enum action)a);
		char keys[160];
		if (keymap_keys(km, (enum action)a, keys, sizeof keys) == 0)
			continue;
		if (strcmp(group, ai->group) != 0)
			fn(ud, KEYS_SECTION, NULL, group = ai->group);
		fn(ud, KEYS_ENTRY, keys, action_help((enum action)a, charm));
	}
	pane_rows(km, charm, fn, ud);
	fn(ud, KEYS_SECTION, NULL, "In the : and / prompts");
	fn(ud, KEYS_ENTRY, "Left, Right, C-b, C-f", "move the cursor");
	fn(ud, KEYS_ENTRY, "Home, End, C-a, C-e", "the start / end of the line");
	fn(ud, KEYS_ENTRY, "Backspace, Delete, C-d", "delete before / under the cursor");
	fn(ud, KEYS_ENTRY, "C-w, C-u, C-k", "delete the word before the cursor, to the start, to the end");
	fn(ud, KEYS_ENTRY, "Up, Down, C-p, C-n", "the history (kept in ~/.local/state/skein/history)");
	fn(ud, KEYS_ENTRY, "Tab", "complete a command, metric or region name (again: the next match)");
	fn(ud, KEYS_ENTRY, "Enter", "run the command or search");
	fn(ud, KEYS_ENTRY, "Esc, C-c, C-g", "cancel");
	fn(ud, KEYS_SECTION, NULL, "Mouse (off: --no-mouse or view.mouse: false)");
	fn(ud, KEYS_ENTRY, "click", "focus the pane; select the cell, step, operation or object under the pointer; open or close a tree object");
	fn(ud, KEYS_ENTRY, "wheel", "scroll the pane under the pointer");
	fn(ud, KEYS_SECTION, NULL, "Commands (after :)");
	for (size_t i = 0; i < view_n_cmds; i++) {
		char syn[64];
		snprintf(syn, sizeof syn, "%s%s", view_cmds[i].name, view_cmds[i].args);
		fn(ud, KEYS_ENTRY, syn, view_cmd_help(&view_cmds[i], charm));
	}
	fn(ud, KEYS_SECTION, NULL, "Glyphs");
	if (charm)
		fn(ud, KEYS_NOTE, NULL, "r the piece of an execution that received its invocation, s a piece that "
		   "ends in a creation (an invocation sent), x both, \u00b7 other; zoomed out, a cell shows its "
		   "most important piece: x, then r, s");
	else
		fn(ud, KEYS_NOTE, NULL, "s send, r receive, x send and receive, C collective, W wait, \u00b7 computation; "
		   "zoomed out, a cell shows its most important operation: C, then W, then x, r, s");
	fn(ud, KEYS_NOTE, NULL, "colour: the metric (the footer's scale); zoomed out, the block's maximum");
	fn(ud, KEYS_NOTE, NULL, "reverse: the selection (\u25b8 and \u25be mark its row and step); "
	   "green (monochrome: reverse, not bold): its message partners");
	fn(ud, KEYS_NOTE, NULL, charm ? "ruler: \u253c a phase starts, \u2550 the selected execution's phase"
				     : "ruler: \u253c a partition starts, \u2550 the selected operation's partition");
	fn(ud, KEYS_NOTE, NULL, "timeline: a slice shows its most important operation, coloured by the region "
	   "taking most of it, underlined when kinds share it");
	if (charm) {
		fn(ud, KEYS_SECTION, NULL, "Charm++ metrics (Isaacs et al., SC'15, section 4)");
		fn(ud, KEYS_NOTE, NULL, "rows are chares (runtime chares grouped per PE at the bottom), an "
		   "operation is a piece of an entry-method execution (split after each send), a phase "
		   "a run of steps of the application or of the runtime (reductions, broadcasts)");
		fn(ud, KEYS_NOTE, NULL, "differential duration: the time beyond the shortest run of the same "
		   "entry method at the same step of the phase (hotspots are where it is largest); idle "
		   "experienced: the idle time on its PE an execution waited through; imbalance: its PE's "
		   "work in the phase beyond the least loaded PE's");
		return;
	}
	fn(ud, KEYS_SECTION, NULL, "Lateness");
	fn(ud, KEYS_NOTE, NULL, "lateness: the exit time minus the earliest exit among the operations of the same "
	   "partition and step; differential lateness: what an operation adds to the lateness it "
	   "inherited (hotspots are where it is largest); cause: which of the four ways of Isaacs et al., \"Ordering Traces "
	   "Logically to Identify Lateness in Message-Passing Programs\" (Fig. 7), it came about: created by "
	   "computation, inherited along the rank, created in flight, or inherited across ranks");
}

/* ---- writers -------------------------------------------------------------- */

struct writer {
	FILE *out;
	enum view_keys_format fmt;
	int in_table;
};

/* man(7): backslashes and leading dots would be read as requests. */
static void
man_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else if (!strncmp(s, "\u00b7", 2))
			fputs("\\(pc", out), s += 1;
		else if (!strncmp(s, "\u25b8", 3))
			fputs(">", out), s += 2;
		else if (!strncmp(s, "\u25be", 3))
			fputs("v", out), s += 2;
		else if (!strncmp(s, "\u253c", 3))
			fputs("+", out), s += 2;
		else if (!strncmp(s, "\u2550", 3))
			fputs("=", out), s += 2;
		else
			fputc(*s, out);
	}
}

/* Markdown table cells: a | would end the cell, a backtick the code. */
static void
md_code(FILE *out, const char *keys)
{
	/* each key name in backticks: `Left`, `h` */
	const char *p = keys;
	while (*p) {
		size_t n = strcspn(p, ",");
		const char *q = p + n;
		while (n && p[n - 1] == ' ')
			n--;
		if (n) {
			/* a | ends the cell even inside backticks: \| keeps it */
			int tick = memchr(p, '`', n) != NULL;
			fputs(tick ? "`` " : "`", out);
			for (size_t i = 0; i < n; i++)
				if (p[i] == '|')
					fputs("\\|", out);
				else
					fputc(p[i], out);
			fputs(tick ? " ``" : "`", out);
		}
		if (*q == ',') {
			fputs(", ", out);
			q++;
		}
		while (*q == ' ')
			q++;
		p = q;
	}
}

static void
md_text(FILE *out, const char *s)
{
	for (; *s; s++)
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
}

static void
write_row(void *ud, enum view_keys_row kind, const char *keys, const char *text)
{
	struct writer *w = ud;
	FILE *out = w->out;
	char pad[256];
	switch (w->fmt) {
	case KEYS_FMT_TEXT:
		if (kind == KEYS_SECTION)
			fprintf(out, "\n%s\n", text);
		else if (kind == KEYS_ENTRY)
			fprintf(out, "  %s %s\n", text_safe_pad(keys, 22, pad, sizeof pad), text);
		else
			fprintf(out, "  %s\n", text);
		break;
	case KEYS_FMT_MAN:
		if (kind == KEYS_SECTION) {
			fputs(".SS ", out);
			man_text(out, text);
			fputc('\n', out);
		} else if (kind == KEYS_ENTRY) {
			fputs(".TP\n.B \"", out);
			man_text(out, keys);
			fputs("\"\n", out);
			man_text(out, text);
			fputc('\n', out);
		} else {
			fputs(".PP\n", out);
			man_text(out, text);
			fputc('\n', out);
		}
		break;
	case KEYS_FMT_MARKDOWN:
		if (kind == KEYS_SECTION) {
			fprintf(out, "%s**%s**\n\n", w->in_table ? "\n" : "", text);
			w->in_table = 0;
		} else if (kind == KEYS_ENTRY) {
			if (!w->in_table)
				fputs("| keys | action |\n|---|---|\n", out);
			w->in_table = 1;
			fputs("| ", out);
			md_code(out, keys);
			fputs(" | ", out);
			md_text(out, text);
			fputs(" |\n", out);
		} else {
			fprintf(out, "%s", w->in_table ? "\n" : "");
			w->in_table = 0;
			md_text(out, text);
			fputs("\n\n", out);
		}
		break;
	}
}

int
view_keys_write(const struct keymap *km, enum view_keys_format fmt, FILE *out)
{
	struct writer w = { out, fmt, 0 };
	view_keys_rows(km, 0, write_row, &w);
	if (fmt == KEYS_FMT_MARKDOWN && w.in_table)
		fputc('\n', out);
	return ferror(out) ? ERR_IO : 0;
}

/* A script's key (view.h): <Resize:WxH> resizes g, as a terminal's
 * SIGWINCH does the explorer's screen. */
int
view_press(struct view *v, struct grid *g, uint32_t key)
{
	int w, h, rc;
	if (!keymap_resize_decode(key, &w, &h))
		view_key(v, key);
	else if ((rc = grid_resize(g, w, h)))
		return rc;
	view_draw(v, g);
	return 0;
}
