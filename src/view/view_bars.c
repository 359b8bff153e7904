/* view_bars.c — the lines around the panes: the status line at the top
 * (fields that shorten, then go, least useful first), the footer (the
 * colour scale or the colours' meaning, the main keys as far as they
 * fit), messages wrapped onto the lines above it, the prompt with its
 * cursor; and the legend of the function colours, which the timeline
 * shares. */
#include "view_impl.h"

#include "analysis/explain/explain.h"

#include <string.h>

int
view_region_legend(struct view *v, struct grid *g, int x, int y, int w, int max)
{
	int x0 = x;
	uint32_t reg;
	for (int k = 0; k < max && view_index_category_region(v->ix, k, &reg); k++) {
		const char *name = view_region_name(v, reg);
		int need = 2 + text_width(name) + (k ? 1 : 0);
		/* an entry with more after it leaves room for the " …" saying so */
		uint32_t next;
		int more = k + 1 < max && view_index_category_region(v->ix, k + 1, &next) ? 2 : 0;
		if (x - x0 + need + more > w) {
			if (x - x0 + 2 <= w)
				x += grid_text(g, x, y, 2, ST_DIM, " \u2026");
			break;
		}
		if (k)
			x++;
		grid_put(g, x++, y, 0x2588, ST_CAT0 + k);
		x += grid_text(g, x + 1, y, w, ST_LABEL, name) + 1;
	}
	return x - x0;
}

/* Without colours: what the glyphs of the calls are, as many as fit. */
void
view_kinds_legend(struct grid *g, int x, int y, int w)
{
	static const int kinds[] = { OP_COMPUTE, OP_SEND, OP_RECV, OP_SENDRECV, OP_WAIT, OP_COLLECTIVE, OP_RMA };
	int x0 = x;
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		const char *name = trace_op_kind_name((enum trace_op_kind)kinds[k]);
		if (x - x0 + 2 + text_width(name) + (k ? 1 : 0) > w)
			break;
		if (k)
			x++;
		grid_put(g, x++, y, view_kind_glyph(kinds[k]), ST_LABEL);
		x += grid_text(g, x + 1, y, w, ST_LABEL, name) + 1;
	}
}

void
view_set_colourless(struct view *v, int colourless)
{
	v->colourless = colourless;
}

static int
status_width(const struct sfield *f, int n)
{
	int w = 1;
	for (int i = 0; i < n; i++)
		if (f[i].state < 2)
			w += text_width(f[i].state ? f[i].brief : f[i].full) + 2;
	return w;
}

/* Whether a file's name is one every trace of its kind has (an OTF2
 * anchor, a Projections .sts), so that its directory names the trace. */
static int
anchor_name(const char *base)
{
	size_t n = strlen(base);
	return (n > 5 && !strcmp(base + n - 5, ".otf2")) || (n > 4 && !strcmp(base + n - 4, ".sts"));
}

/* "stencil/traces.otf2" -> "stencil": the part that tells traces apart;
 * a file of any other kind (a saved analysis) by its own name. */
static void
short_label(const char *label, char *buf, size_t n)
{
	const char *base = strrchr(label, '/');
	if (base && base[1] && anchor_name(base + 1) && base > label) {
		const char *dir = base;
		while (dir > label && dir[-1] != '/')
			dir--;
		snprintf(buf, n, "%.*s", (int)(base - dir), dir);
	} else {
		snprintf(buf, n, "%s", base && base[1] ? base + 1 : label);
	}
}

void
view_draw_status(struct view *v, struct grid *g)
{
	grid_fill(g, 0, 0, g->w, 1, ' ', ST_BAR);
	uint32_t np;
	analysis_parts(v->a, &np);
	uint32_t nr = view_index_ranks(v->ix), ns = view_index_steps(v->ix);
	uint32_t se = view_steps_end(v), re = view_ranks_end(v);
	enum { F_SKEIN, F_LABEL, F_METRIC, F_SEL, F_PART, F_STEPS, F_ROWS, F_ZOOM, F_QUALITY, F_COUNT };
	struct sfield f[F_COUNT];
	memset(f, 0, sizeof f);
	static const int prio[F_COUNT] = {
		[F_SKEIN] = 1, [F_LABEL] = 2, [F_METRIC] = 7, [F_SEL] = 9, [F_PART] = 8,
		[F_STEPS] = 6, [F_ROWS] = 4, [F_ZOOM] = 3, [F_QUALITY] = 6,
	};
	for (int i = 0; i < F_COUNT; i++)
		f[i].prio = prio[i];
	/* the trace's name shortens early ("stencil/traces.otf2" to
	 * "stencil"), but it is the one field no pane repeats: it goes after
	 * the windows and the metric (a pane's title names that) */
	f[F_LABEL].drop_prio = 8;
	f[F_METRIC].drop_prio = 5;
	f[F_QUALITY].prio = 7;     /* the warnings, said nowhere else after the start */
	snprintf(f[F_SKEIN].full, sizeof f[0].full, "skein");
	snprintf(f[F_LABEL].full, sizeof f[0].full, "%s", v->label);
	short_label(v->label, f[F_LABEL].brief, sizeof f[0].brief);
	snprintf(f[F_METRIC].full, sizeof f[0].full, "%s", view_metric_title(v->metric));
	snprintf(f[F_METRIC].brief, sizeof f[0].brief, "%s", view_metric_name(v->metric));
	const struct view_row *row = NULL;
	if (v->clustered) {
		uint32_t n;
		const struct view_row *rows = view_cluster_rows(v->vc, &n);
		row = v->sel_row < n ? &rows[v->sel_row] : NULL;
	}
	if (row && row->rank == TRACE_NONE) {
		/* a cluster's row: the cluster, not whichever rank holds the maximum */
		char label[48];
		view_row_label(v, v->sel_row, label, sizeof label);
		snprintf(f[F_SEL].full, sizeof f[0].full, "%s step %u", label, v->sel_step);
	} else {
		char who[VIEW_MAX_ROW_NAME + 32];
		view_row_name(v, v->sel_rank, who, sizeof who);
		snprintf(f[F_SEL].full, sizeof f[0].full, "%s step %u", who, v->sel_step);
	}
	if (v->sel_lop != TRACE_NONE)
		snprintf(f[F_PART].full, sizeof f[0].full, "%s %u/%u", view_is_charm(v) ? "phase" : "part",
			 analysis_lop_part(v->a, v->sel_lop), np);
	else
		snprintf(f[F_PART].full, sizeof f[0].full, "no op");
	if (ns) {
		snprintf(f[F_STEPS].full, sizeof f[0].full, "steps %u\u2013%u/%u", v->win_step, se ? se - 1 : 0, ns);
		snprintf(f[F_STEPS].brief, sizeof f[0].brief, "s%u\u2013%u/%u", v->win_step, se ? se - 1 : 0, ns);
	} else {
		snprintf(f[F_STEPS].full, sizeof f[0].full, "no steps");     /* not "steps 0–0/0" */
	}
	if (v->clustered) {
		uint32_t n = view_row_count(v), k = view_cluster_level(v->vc);
		uint32_t last = v->win_row + (uint32_t)v->rows < n ? v->win_row + (uint32_t)v->rows : n;
		snprintf(f[F_ROWS].full, sizeof f[0].full, "%u cluster%s \u00b7 rows %u\u2013%u/%u", k,
			 k == 1 ? "" : "s", v->win_row, last ? last - 1 : 0, n);
		snprintf(f[F_ROWS].brief, sizeof f[0].brief, "%u cl", k);
	} else {
		uint32_t last = re ? re - 1 : 0;
		if (last == v->win_rank) {      /* one row in view: "rank 0/1", not "ranks 0–0/1" */
			snprintf(f[F_ROWS].full, sizeof f[0].full, "%s %u/%u", view_row_noun(v), last, nr);
			if (!view_is_charm(v))     /* "c3/21" would not say chares: whole or gone */
				snprintf(f[F_ROWS].brief, sizeof f[0].brief, "r%u/%u", last, nr);
		} else {
			snprintf(f[F_ROWS].full, sizeof f[0].full, "%s %u\u2013%u/%u", view_is_charm(v) ? "chares" : "ranks",
				 v->win_rank, last, nr);
			if (!view_is_charm(v))
				snprintf(f[F_ROWS].brief, sizeof f[0].brief, "r%u\u2013%u/%u", v->win_rank, last, nr);
		}
	}
	if (v->zs == 1 && v->zr == 1) {
		snprintf(f[F_ZOOM].full, sizeof f[0].full, "cell = 1 step");
		f[F_ZOOM].prio = 0;       /* the default zoom: the first to go */
	}
	else
		snprintf(f[F_ZOOM].full, sizeof f[0].full, "cell = %u step%s \u00d7 %u %s%s", v->zs,
			 v->zs == 1 ? "" : "s", v->zr, view_is_charm(v) ? "chare" : "rank", v->zr == 1 ? "" : "s");
	snprintf(f[F_ZOOM].brief, sizeof f[0].brief, "cell %u\u00d7%u", v->zs, v->zr);
	/* the reader's warnings, for as long as the trace is open (the help
	 * says what they are); no shorter form, so it goes with the steps */
	if (v->quality_count) {
		snprintf(f[F_QUALITY].full, sizeof f[0].full, "%llu warning%s",
			 (unsigned long long)v->quality_count, v->quality_count == 1 ? "" : "s");
	} else {
		f[F_QUALITY].state = 2;
	}
	f[F_SKEIN].key = f[F_QUALITY].key = 1;
	view_status_fields(g, f, F_COUNT);
}

void
view_status_fields(struct grid *g, struct sfield *f, int n)
{
	/* shorten the fields that matter least, then drop them, one at a
	 * time until it fits (fields of one priority go in their order: the
	 * trace's name before the partition, which all went at once) */
	for (int pass = 1; pass <= 2 && status_width(f, n) > g->w; pass++)
		for (int p = 0; p <= 9 && status_width(f, n) > g->w; p++)
			for (int i = 0; i < n && status_width(f, n) > g->w; i++)
				if ((pass == 2 && f[i].drop_prio ? f[i].drop_prio : f[i].prio) == p && f[i].state < pass &&
				    (pass == 2 || f[i].brief[0]))
					f[i].state = pass;
	int x = 1;
	for (int i = 0; i < n; i++) {
		if (f[i].state == 2)
			continue;
		const char *t = f[i].state ? f[i].brief : f[i].full;
		x += grid_text(g, x, 0, g->w - x, f[i].key ? ST_BAR_KEY : ST_BAR, t) + 2;
	}
}

/* The bottom line's reminder of the keys, from the bindings in force
 * (an entry whose action has no key is left out), as much as fits in w
 * columns: every entry and the glyphs; then without the glyphs; then in
 * brief words; then fewer entries. */
static void
legend_keys(const struct keymap *km, int charm, int problems, int w, char *out, size_t n)
{
	static const struct { enum action a, b; const char *what, *brief; } ent[] = {
		{ ACT_HELP, ACT_NONE, "help", "help" },
		{ ACT_QUIT, ACT_NONE, "quit", "quit" },
		{ ACT_PREV_HOTSPOT, ACT_NEXT_HOTSPOT, "hotspot", "hot" },
		{ ACT_GOTO_CAUSE, ACT_NONE, "cause", "cause" },
		{ ACT_PREV_PARTITION, ACT_NEXT_PARTITION, "partition", "part" },
		{ ACT_SEARCH, ACT_NONE, "search", "find" },
		{ ACT_COMMAND, ACT_NONE, "command", "cmd" },
	};
	/* a Charm++ run has neither collectives nor waits, and phases */
	const char *glyphs = charm ? "   r invoked  s creates  x both  \u00b7 other"
				   : "   s send  r recv  x both  C coll  W wait  \u00b7 comp";
	int n_ent = (int)(sizeof ent / sizeof ent[0]);
	for (int level = 0;; level++) {
		int brief = level >= 2, upto = level <= 2 ? n_ent : n_ent - (level - 2);
		size_t len = 0;
		out[0] = 0;
		for (int i = 0; i < upto && len < n; i++) {
			char ka[64], kb[64];
			const char *a = keymap_first_key(km, ent[i].a, ka, sizeof ka);
			const char *b = ent[i].b != ACT_NONE ? keymap_first_key(km, ent[i].b, kb, sizeof kb) : "";
			if (!*a && !*b)
				continue;
			const char *what = brief ? ent[i].brief : ent[i].what;
			if (charm && ent[i].a == ACT_PREV_PARTITION)
				what = "phase";
			if (charm && ent[i].a == ACT_GOTO_CAUSE)
				what = "invoker";
			/* < and > walk the problems where there are (view_explain_walk) */
			if (problems && ent[i].a == ACT_PREV_HOTSPOT)
				what = brief ? "prob" : "problem";
			int k = snprintf(out + len, n - len, "%s%s%s%s %s", i ? "  " : "", a, *a && *b ? " " : "", b,
					 what);
			len += k > 0 ? (size_t)k : 0;
		}
		if (level == 0 && len < n)
			snprintf(out + len, n - len, "%s", glyphs);
		if (text_width(out) <= w || upto <= 1)
			return;
	}
}

/* The colour scale of a numeric metric, or what the colours of a
 * categorical one mean: the functions that own them, or the partitions'
 * cycle. Returns the columns drawn. */
int
view_draw_scale(struct view *v, struct grid *g, int x, int y, int w)
{
	char buf[64];
	int x0 = x;
	int brief = w < 56;
	x += grid_text(g, x, y, w - (x - x0), ST_TITLE,
		       brief ? view_metric_name(v->metric) : view_metric_title(v->metric));
	if (view_metric_numeric(v->metric)) {
		uint64_t lo = view_index_min(v->ix);
		if (lo) {
			trace_fmt_duration(v->t, lo, buf, sizeof buf);
			x += grid_printf(g, x, y, w - (x - x0), ST_LABEL, " %s ", buf);
		} else {
			x += grid_text(g, x, y, w - (x - x0), ST_LABEL, " 0 ");
		}
		for (int l = 0; l < GRID_HEAT_LEVELS && x - x0 < w; l++)
			grid_put(g, x++, y, 0x2588, ST_HEAT0 + l);
		trace_fmt_duration(v->t, view_index_max(v->ix, v->metric), buf, sizeof buf);
		x += grid_printf(g, x, y, w - (x - x0), ST_LABEL, " %s", buf);
	} else if (v->metric == METRIC_PARTITION) {
		x += grid_text(g, x, y, w - (x - x0), ST_LABEL, " ");
		for (int l = 0; l < GRID_CATS && x - x0 < w; l++)
			grid_put(g, x++, y, 0x2588, ST_CAT0 + l);
		x += grid_text(g, x, y, w - (x - x0), ST_LABEL, brief ? " in step order" : " partitions 0\u20137, 8\u201315\u2026 in step order");
	} else {
		x++;
		x += view_region_legend(v, g, x, y, w - (x - x0), brief ? 4 : GRID_CATS);
	}
	return x - x0;
}

void
view_draw_border_key(struct view *v, struct grid *g)
{
	if (v->smp || v->solo >= 0 || v->big >= 0 || !v->shown[PANE_GRID] ||
	    (!v->message[0] && v->input == INPUT_NONE))
		return;
	struct rect r = v->pane[PANE_GRID];
	int room = r.w - 6;          /* a corner, a dash and a space each side */
	if (room < 20)
		return;
	struct cell tmp[512];
	struct grid t = { room < 512 ? room : 512, 1, tmp };
	grid_clear(&t);
	int n = view_draw_scale(v, &t, 0, 0, t.w);
	while (n > 0 && tmp[n - 1].ch == ' ')
		n--;
	if (n <= 0)
		return;
	int x = r.x + r.w - 3 - n, y = r.y + r.h - 1;
	struct cell *c = grid_at(g, x - 1, y);
	if (!c)
		return;
	grid_put(g, x - 1, y, ' ', ST_BORDER);
	for (int i = 0; i < n; i++)
		*grid_at(g, x + i, y) = tmp[i];
	grid_put(g, x + n, y, ' ', ST_BORDER);
}

/* Splits text at spaces into lines of w columns; returns how many (at
 * most max) and whether text goes on beyond them. */
static int
wrap_lines(const char *p, int w, int max, const char **start, size_t *len, int *more)
{
	int n = 0;
	while (*p && n < max) {
		size_t take = grid_wrap(p, w);
		start[n] = p;
		len[n++] = take;
		p += take;
		while (*p == ' ')
			p++;
	}
	*more = *p != 0;
	return n;
}

/* The message on the bottom line; a long one wraps at spaces onto lines
 * above it, never cut at the edge: at most a third of the screen, two
 * lines below 30 rows, where every row of the panes counts. When the
 * reader's warnings (v->start_note) lead a message that does not fit,
 * the status line and the help carry them and the message goes without
 * them; a message cut short ends at a space, in "…". The layout leaves
 * it its lines (view_footer_lines), so it never covers a pane. */
struct msg_lines {
	const char *start[16];
	size_t len[16];
	int n, more;
	char brief[96];
};

static void
message_lines(const struct view *v, int gw, int gh, int above, struct msg_lines *m)
{
	const char *p = v->message;
	int w = gw - 2, max = gh < 30 ? 2 : gh / 3;
	if (above && max < gh / 3)          /* completions: the list matters */
		max = gh / 3;
	if (max > 16)
		max = 16;
	if (max < 1)
		max = 1;
	m->n = wrap_lines(p, w, max, m->start, m->len, &m->more);
	size_t nl = strlen(v->start_note);
	if (m->more && v->message_note && nl && !strncmp(p, v->start_note, nl)) {
		p += nl;
		while (*p == ' ' || !strncmp(p, "\u00b7", 2))
			p += *p == ' ' ? 1 : 2;
		if (!*p) {
			snprintf(m->brief, sizeof m->brief, "trace quality: %llu warning%s (the help lists them)",
				 (unsigned long long)v->quality_count, v->quality_count == 1 ? "" : "s");
			p = m->brief;
		}
		m->n = wrap_lines(p, w, max, m->start, m->len, &m->more);
	}
	if (m->more)                  /* keep the start; the end says it goes on */
		m->len[m->n - 1] = grid_wrap(m->start[m->n - 1], w - 1);
}

int
view_footer_lines(const struct view *v, int w, int h)
{
	if (!v->message[0])
		return 1;
	struct msg_lines m;
	int above = v->input != INPUT_NONE;
	message_lines(v, w, h, above, &m);
	return (m.n > 0 ? m.n : 1) + above;
}

static void
draw_message(struct view *v, struct grid *g, int above)
{
	struct msg_lines m;
	message_lines(v, g->w, g->h, above, &m);
	int w = g->w - 2;
	int style = v->message_error ? ST_ERROR : ST_EMPH;
	for (int i = 0; i < m.n; i++) {
		int y = g->h - m.n + i - above;
		char line[512];
		snprintf(line, sizeof line, "%.*s%s", (int)m.len[i], m.start[i],
			 i == m.n - 1 && m.more ? "\u2026" : "");
		grid_fill(g, 0, y, g->w, 1, ' ', ST_NORMAL);
		grid_text(g, 1, y, w + 1, style, line);
	}
}

/* The prompt line, scrolled sideways to keep the cursor in view; the
 * cursor is the cell in reverse video (both cells of a wide character).
 * Its column is the text's before it, by text_width, as grid_text lays
 * the text out. */
static void
draw_prompt(struct view *v, struct grid *g, int y)
{
	const struct prompt *p = v->input == INPUT_COMMAND ? &v->cmd_prompt : &v->search_prompt;
	char before[sizeof p->buf];
	snprintf(before, sizeof before, "%.*s", (int)p->cur, p->buf);
	const unsigned char *at = (const unsigned char *)p->buf + p->cur;
	int cw = *at ? text_char_width(text_utf8_next(&at)) : 1;
	int w = g->w - 1, cur = text_width(before), first = 0;
	cw = cw < 1 ? 1 : cw;
	if (cur + cw > w)
		first = cur + cw - w;
	grid_text(g, 0, y, 1, ST_EMPH, v->input == INPUT_COMMAND ? ":" : "/");
	/* whole characters scrolled out: one astride the edge goes too */
	const unsigned char *s = (const unsigned char *)p->buf;
	int skipped = 0;
	while (*s && skipped < first)
		skipped += text_char_width(text_utf8_next(&s));
	grid_text(g, 1, y, w, ST_NORMAL, (const char *)s);
	grid_mark(g, 1 + cur - skipped, y, cw, 1, MARK_SEL);
}

void
view_draw_footer(struct view *v, struct grid *g)
{
	int y = g->h - 1, x = 0, w = g->w;
	grid_fill(g, 0, y, w, 1, ' ', ST_NORMAL);
	if (v->input != INPUT_NONE) {
		draw_prompt(v, g, y);
		if (v->message[0])            /* completions, above the prompt */
			draw_message(v, g, 1);
		return;
	}
	if (v->message[0]) {
		draw_message(v, g, 0);
		return;
	}
	if (v->smp) {
		view_samples_legend(v, g);
		return;
	}
	x = 1;
	/* the keys take what the scale leaves, and the scale at most half */
	x += view_draw_scale(v, g, x, y, w / 2 > 36 ? w / 2 : 36);
	char legend[256];
	uint32_t n_problems = 0;
	if (!view_is_charm(v) && !v->diff)
		analysis_problems(v->a, &n_problems);
	legend_keys(v->km, view_is_charm(v), n_problems > 0, w - x - 3, legend, sizeof legend);
	grid_text(g, x + 3, y, w - x - 3, ST_DIM, legend);
}

/* The size warning, each sentence wrapped at spaces to the screen and
 * the lines centred, in the first of three wordings that fits whole (at
 * 20x6 it was cut: "skein needs 40x12 (q"). */
static int
tiny_lines(const char *const text[3], int w, const char **start, size_t *len, int *style, int max)
{
	int n = 0;
	for (int k = 0; k < 3; k++)
		for (const char *p = text[k]; *p; n++) {
			size_t take = grid_wrap(p, w);
			if (n < max) {
				start[n] = p;
				len[n] = take;
				style[n] = k ? ST_NORMAL : ST_ERROR;
			}
			p += take;
			while (*p == ' ')
				p++;
		}
	return n;
}

void
view_draw_tiny(struct view *v, struct grid *g)
{
	int mw, mh;
	view_min_size(v->solo >= 0 ? "pane" : NULL, &mw, &mh);
	/* three wordings, each of three sentences (a sentence wraps alone:
	 * "40x12 (q" stays together, a number and what follows it) */
	char t[3][3][64];
	snprintf(t[0][0], sizeof t[0][0], "terminal too small: %dx%d", g->w, g->h);
	snprintf(t[0][1], sizeof t[0][1], "skein needs %dx%d", mw, mh);
	snprintf(t[0][2], sizeof t[0][2], "(q quits)");
	snprintf(t[1][0], sizeof t[1][0], "too small: %dx%d", g->w, g->h);
	snprintf(t[1][1], sizeof t[1][1], "needs %dx%d", mw, mh);
	snprintf(t[1][2], sizeof t[1][2], "(q quits)");
	snprintf(t[2][0], sizeof t[2][0], "%s", "");
	snprintf(t[2][1], sizeof t[2][1], "needs %dx%d", mw, mh);
	snprintf(t[2][2], sizeof t[2][2], "(q quits)");
	const char *start[16];
	size_t len[16];
	int style[16], n = 0;
	for (int k = 0; k < 3; k++) {
		const char *text[3] = { t[k][0], t[k][1], t[k][2] };
		n = tiny_lines(text, g->w, start, len, style, 16);
		if (n <= g->h)
			break;
	}
	n = n > 16 ? 16 : n;
	int y = (g->h - n) / 2;
	if (y < 0)
		y = 0;
	for (int i = 0; i < n && y + i < g->h; i++) {
		char line[128];
		snprintf(line, sizeof line, "%.*s", (int)len[i], start[i]);
		int w = text_width(line);
		grid_text(g, w < g->w ? (g->w - w) / 2 : 0, y + i, g->w, style[i], line);
	}
}
