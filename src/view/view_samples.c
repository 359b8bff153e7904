/* view_samples.c — a samples session (skein samples): its state, layout,
 * status and footer lines, selections, actions, commands and help. The
 * panes are view_topo.c and view_hist.c (with samples as their data) and
 * view_offenders.c, view_phist.c, view_scores.c, view_mclusters.c. */
#include "view_samples.h"
#include "view_topo_impl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- formatting ---- */

/* The unit of attribute a: latency is in cycles, and so is the time of
 * MemAxes' PEBS samples (the time stamp counter); Linux perf's (Mitos)
 * is in nanoseconds. NULL: a number without a unit. */
static const char *
unit_of(const struct view_samples *vs, uint32_t a)
{
	const struct samples_info *in = samples_info(vs->s);
	if ((int)a == in->a_latency)
		return "cycles";
	if ((int)a == in->a_time)
		return in->encoding == SAMPLES_PERF ? "ns" : "cycles";
	return NULL;
}

const char *
vs_value(const struct view_samples *vs, uint32_t a, double x, char *buf, size_t n)
{
	const struct samples_attr *at = samples_attr(vs->s, a);
	const char *unit = isnan(x) ? NULL : unit_of(vs, a);
	char c[32];
	if (unit && (int)a == samples_info(vs->s)->a_time && at && at->hi >= at->lo) {
		/* a time: from the first sample, in its unit */
		double d = x - at->lo;
		if (!strcmp(unit, "ns"))
			fmt_change(d * 1e-9, buf, n);
		else
			snprintf(buf, n, "+%s cyc", fmt_count(d, c, sizeof c));
		if (d == 0)
			snprintf(buf, n, "+0");
	} else if (unit) {
		if (x == floor(x))
			fmt_count(x, c, sizeof c);
		else
			snprintf(c, sizeof c, "%.4g", x);
		snprintf(buf, n, "%s %s", c, strcmp(unit, "ns") ? "cyc" : "ns");
	} else if (isnan(x))
		snprintf(buf, n, "-");
	else if (at && at->kind == SAMPLES_CATEGORY && x >= 0 && x == floor(x))
		snprintf(buf, n, "%s", samples_category(vs->s, a, (uint32_t)x));
	else if (at && at->hi > at->lo && at->hi - at->lo < fabs(at->lo) * 1e-3)
		snprintf(buf, n, "+%.4g", x - at->lo);     /* timestamps: from the first */
	else if (fabs(x) >= 1e7 || (x != floor(x) && fabs(x) < 1e-3))
		snprintf(buf, n, "%.4g", x);
	else if (x == floor(x))
		snprintf(buf, n, "%.0f", x);
	else
		snprintf(buf, n, "%.4g", x);
	return buf;
}

const char *
vs_range(const struct view_samples *vs, uint32_t a, double lo, double hi, char *buf, size_t n)
{
	char x[64], y[64];
	vs_value(vs, a, lo, x, sizeof x);
	vs_value(vs, a, hi, y, sizeof y);
	if (!strcmp(x, y)) {
		snprintf(buf, n, "%s", x);
		return buf;
	}
	/* one unit for both ends, and one sign: "+45.73G–59.34G cyc" */
	const char *ux = strrchr(x, ' '), *uy = strrchr(y, ' ');
	if (ux && uy && !strcmp(ux, uy) && !isdigit((unsigned char)ux[1]))
		x[ux - x] = 0;
	const char *ys = y[0] == '+' && x[0] == '+' ? y + 1 : y;
	snprintf(buf, n, "%s\u2013%s", x, ys);
	return buf;
}

/* ---- sets ---- */

const struct bitset *
vs_looked(const struct view_samples *vs)
{
	return vs->n_fpicks ? &vs->filter : NULL;
}

const struct bitset *
vs_shown(const struct view_samples *vs)
{
	return vs->n_sel ? &vs->sel : vs_looked(vs);
}

const struct mem_agg *
vs_agg(struct view *v)
{
	struct view_samples *vs = v->smp;
	if (!vs->agg_valid || vs->agg_key != vs->version) {
		mem_aggregate(vs->m, vs_shown(vs), &vs->agg);
		vs->agg_key = vs->version;
		vs->agg_valid = 1;
	}
	return &vs->agg;
}

const struct mem_depth *
vs_depth(struct view *v)
{
	struct view_samples *vs = v->smp;
	if (!vs->dres_valid || vs->dres.type != vs->depth) {
		mem_depth_fini(&vs->dres);
		if (mem_depth_init(vs->m, vs->depth, &vs->dres)) {
			vs->dres.n = 0;
			vs->dres_valid = 0;
			return NULL;
		}
		vs->dres_valid = 1;
	}
	return &vs->dres;
}

void
vs_topo_values(struct view *v, int metric, double *per_obj, double *link, double *below)
{
	const struct mem_agg *a = vs_agg(v);
	uint32_t n;
	const struct topo_obj *o = topo_objs(v->smp->t, &n);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s, c;
		mem_resource(a, &o[i], i, &s, &c);
		per_obj[i] = metric == VS_TOPO_CYCLES ? (double)c : metric == VS_TOPO_SAMPLES ? (double)s
			: metric == VS_TOPO_MEAN ? (s ? (double)c / (double)s : 0) : (double)a->below_samples[i];
		if (link)
			link[i] = (double)a->link[i];
		if (below)
			below[i] = (double)a->below_cycles[i];
	}
}

int
vs_op_of(enum action act)
{
	switch (act) {
	case ACT_CLUSTER_TOGGLE: return MEM_NEW;
	case ACT_SELECT_OR: return MEM_OR;
	case ACT_SELECT_AND: return MEM_AND;
	default: return -1;
	}
}

/* What a pick takes, in words: "LULESH_OMP.cc:961", "variable m_x",
 * "time +0–+4.5G cycles", "L3 L#0". */
static const char *
pick_text(struct view *v, const struct mem_pick *p, char *buf, size_t n)
{
	const struct view_samples *vs = v->smp;
	char a[128], b[8];
	if (p->kind == MEM_PICK_LINE) {
		const struct samples_codeline *cl = samples_codelines(vs->s, NULL);
		const char *f = samples_category(vs->s, (uint32_t)samples_info(vs->s)->a_file, cl[p->id].file);
		const char *base = f ? strrchr(f, '/') : NULL;
		snprintf(buf, n, "%s:%u", base ? base + 1 : f ? f : "?", cl[p->id].line);
	} else if (p->kind == MEM_PICK_OBJECT) {
		if (v->topo && v->topo->obj && p->id < v->topo->n_obj)
			vt_obj_label(v->topo, p->id, 0, buf, n);
		else
			snprintf(buf, n, "object %u", p->id);
	} else {
		const struct samples_attr *at = samples_attr(vs->s, p->attr);
		(void)b;
		snprintf(buf, n, "%s %s", at ? at->name : "?", vs_range(vs, p->attr, p->lo, p->hi, a, sizeof a));
	}
	return buf;
}

static void
say_selection(struct view *v, const char *what, const struct mem_pick *p)
{
	struct view_samples *vs = v->smp;
	uint32_t base = vs->n_fpicks ? vs->n_filter : vs->n;
	char pt[160] = "";
	if (p)
		pick_text(v, p, pt, sizeof pt);
	if (vs->n_sel)
		view_set_message(v, 0, "selection (%s): %s%s%u of %u samples (%.1f%%)", what, pt, p ? " \u00b7 " : "",
				 vs->n_sel, base, base ? 100.0 * vs->n_sel / base : 0.0);
	else
		view_set_message(v, 0, "selection (%s): %s%sempty", what, pt, p ? " \u00b7 " : "");
}

void
vs_pick(struct view *v, const struct mem_pick *p, enum mem_op op)
{
	struct view_samples *vs = v->smp;
	struct mem_pick one = *p;
	one.op = op;
	mem_picks(vs->m, &one, 1, &vs->tmp);
	if (vs->n_fpicks)
		bitset_and(&vs->tmp, &vs->filter);
	if (!vs->n_sel && op != MEM_NEW)
		op = op == MEM_AND ? MEM_AND : MEM_NEW;    /* OR onto nothing is new */
	mem_combine(&vs->sel, &vs->tmp, op);
	if (op == MEM_NEW || !vs->n_picks) {
		vs->n_picks = 0;
		vs->picks_lost = 0;
		one.op = MEM_NEW;
	}
	if (vs->n_picks < VS_MAX_PICKS)
		vs->picks[vs->n_picks++] = one;
	else
		vs->picks_lost = 1;
	vs->n_sel = bitset_count(&vs->sel);
	if (!vs->n_sel)
		vs->n_picks = 0;
	vs->version++;
	say_selection(v, op == MEM_OR ? "or" : op == MEM_AND ? "and" : "new", p);
}

int
vs_bins_pick(struct view *v, const struct mem_bins *b, uint32_t a, uint32_t z, struct mem_pick *p)
{
	struct view_samples *vs = v->smp;
	if (a > z) {
		uint32_t t = a;
		a = z;
		z = t;
	}
	const struct samples_attr *at = samples_attr(vs->s, b->attr);
	const struct bitset *looked = vs_looked(vs);
	double lo = INFINITY, hi = -INFINITY;
	for (uint32_t i = 0; i < vs->n; i++) {
		if (looked && !bitset_test(looked, i))
			continue;
		uint32_t k = mem_bin_of(b, at->v[i]);
		if (k == SAMPLES_NONE || k < a || k > z)
			continue;
		lo = at->v[i] < lo ? at->v[i] : lo;
		hi = at->v[i] > hi ? at->v[i] : hi;
	}
	if (lo > hi)
		return -1;
	*p = (struct mem_pick){ .kind = MEM_PICK_RANGE, .attr = b->attr, .lo = lo, .hi = hi };
	return 0;
}

int
vs_cursor_action(struct view *v, struct vs_cursor *c, const struct mem_bins *b, enum action act)
{
	int op = vs_op_of(act);
	if (op >= 0) {
		struct mem_pick p;
		uint32_t z = c->anchor != SAMPLES_NONE ? c->anchor : c->bin;
		if (!b || vs_bins_pick(v, b, c->bin, z, &p))
			view_set_message(v, 1, "no samples there");
		else
			vs_pick(v, &p, (enum mem_op)op);
		c->anchor = SAMPLES_NONE;
		return 1;
	}
	if (act == ACT_SELECT_MARK) {
		c->anchor = c->anchor == SAMPLES_NONE ? c->bin : SAMPLES_NONE;
		return 1;
	}
	if (act == ACT_CLOSE && c->anchor != SAMPLES_NONE) {
		c->anchor = SAMPLES_NONE;
		return 1;
	}
	return 0;
}

static void
clear_selection(struct view *v)
{
	struct view_samples *vs = v->smp;
	bitset_clear(&vs->sel);
	vs->n_sel = 0;
	vs->n_picks = 0;
	vs->picks_lost = 0;
	vs->version++;
	view_set_message(v, 0, "selection cleared");
}

/* ---- the session ---- */

static void
set_defaults(struct view_samples *vs, const struct view_samples_state *st)
{
	int a = mem_default_attr(vs->s);
	vs->attr = st && st->attr < samples_attr_count(vs->s) ? st->attr : a >= 0 ? (uint32_t)a : 0;
	vs->metric = st && st->metric < MEM_METRIC_COUNT ? st->metric : MEM_IMBALANCE;
	vs->depth = st && st->depth < TOPO_TYPE_COUNT ? st->depth : TOPO_PU;
	vs->windows = st && st->windows ? st->windows : 16;
	vs->window = st && st->window >= 2 ? st->window : 200;
	vs->step = st && st->step && st->step < vs->window ? st->step : vs->window / 4 ? vs->window / 4 : 1;
	vs->clusters = st && st->clusters ? st->clusters : 4;
}

int
view_create_samples(const struct mem *m, const struct view_opts *o, const struct view_samples_opts *so,
		    struct view **out, struct err *e)
{
	*out = NULL;
	const struct samples *s = mem_samples(m);
	if (samples_attr_count(s) == 0)
		return err_set(e, ERR_USAGE, "the samples have no attributes");
	int solo = -1;
	if (o && o->pane) {
		solo = view_pane_find(o->pane);
		if (solo < 0)
			return err_set(e, ERR_USAGE, "unknown pane '%s' (panes: %s)", o->pane, view_pane_names());
		if (solo != PANE_TOPO && solo != PANE_HIST && solo != PANE_HELP && solo < PANE_OFFENDERS)
			return err_set(e, ERR_USAGE, "the %s pane shows traces; a sample set has topology, offenders, "
				       "parallel, histogram, scores, clusters and help", o->pane);
	}
	const struct view_samples_state *st = so ? &so->initial : NULL;
	if (st && st->window && (st->step == 0 || st->step >= st->window))
		return err_set(e, ERR_USAGE, "windows of %u samples moved by %u: the step must be at least 1 and "
			       "less than the window", st->window, st->step);
	struct view *v = calloc(1, sizeof *v);
	struct view_samples *vs = calloc(1, sizeof *vs);
	if (!v || !vs) {
		free(v);
		free(vs);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	v->smp = vs;
	vs->m = m;
	vs->s = s;
	vs->t = samples_topo(s);
	vs->n = samples_info(s)->n;
	topo_pu_objs(vs->t, &vs->n_pu);
	vs->off.src_file = SAMPLES_NONE;
	vs->ph.cur.anchor = SAMPLES_NONE;
	set_defaults(vs, st);
	if (o && o->keys) {
		v->km = o->keys;
	} else {
		v->own_km = keymap_create();
		v->km = v->own_km;
	}
	int lines_rc = view_lines_init(&v->details) | view_lines_init(&v->help);
	int rc = !v->km || lines_rc || bitset_init(&vs->filter, vs->n) || bitset_init(&vs->sel, vs->n) ||
		bitset_init(&vs->tmp, vs->n) || mem_agg_init(m, &vs->agg) || view_topo_create(v, NULL) ||
		view_hist_create(v) ? ERR_NOMEM : 0;
	if (!rc && st && st->n_filter) {
		uint32_t n = st->n_filter < VS_MAX_PICKS ? st->n_filter : VS_MAX_PICKS;
		memcpy(vs->fpicks, st->filter, n * sizeof *vs->fpicks);
		vs->n_fpicks = n;
		rc = mem_picks(m, vs->fpicks, n, &vs->filter);
		vs->n_filter = bitset_count(&vs->filter);
	}
	if (!rc && st && st->n_selection) {
		uint32_t n = st->n_selection < VS_MAX_PICKS ? st->n_selection : VS_MAX_PICKS;
		memcpy(vs->picks, st->selection, n * sizeof *vs->picks);
		vs->n_picks = n;
		rc = mem_picks(m, vs->picks, n, &vs->sel);
		if (!rc && vs->n_fpicks)
			bitset_and(&vs->sel, &vs->filter);
		vs->n_sel = bitset_count(&vs->sel);
	}
	if (rc) {
		view_destroy(v);
		return err_set(e, rc, "out of memory");
	}
	snprintf(v->label, sizeof v->label, "%s", o && o->label ? o->label : "samples");
	v->solo = solo;
	v->side = PANE_TOPO;
	v->focus = solo >= 0 && solo != PANE_HELP ? solo : PANE_TOPO;
	v->help_open = solo == PANE_HELP;
	if (o && solo < 0 && o->focus) {
		int f = view_pane_find(o->focus);
		if (f == PANE_TOPO || f == PANE_HIST || (f >= PANE_OFFENDERS && f < PANE_HELP))
			v->focus = f;
	}
	v->sel_lop = v->sel_max = TRACE_NONE;
	vs->save = so ? so->save : NULL;
	vs->save_ud = so ? so->save_ud : NULL;
	*out = v;
	return 0;
}

void
view_samples_destroy(struct view_samples *vs)
{
	if (!vs)
		return;
	bitset_fini(&vs->filter);
	bitset_fini(&vs->sel);
	bitset_fini(&vs->tmp);
	mem_depth_fini(&vs->dres);
	mem_agg_fini(&vs->agg);
	for (int k = 0; k < 2; k++)
		free(vs->off.o[k]);
	free(vs->off.src);
	uint32_t na = samples_attr_count(vs->s);
	for (uint32_t a = 0; vs->ph.all && a < na; a++) {
		free(vs->ph.all[a]);
		free(vs->ph.sel[a]);
	}
	free(vs->ph.all);
	free(vs->ph.sel);
	free(vs->ph.bins);
	free(vs->ph.key);
	free(vs->sc.win);
	mem_tree_destroy(vs->cl.tree);
	for (uint32_t i = 0; vs->cl.pu_counts && i < vs->cl.n; i++)
		free(vs->cl.pu_counts[i]);
	free(vs->cl.pu_counts);
	free(vs->cl.cl);
	free(vs);
}

int
view_render_samples(const struct mem *m, const struct view_opts *vo, const struct view_samples_opts *so,
		    const struct view_render_opts *ro, FILE *out, struct view_render_stats *st, struct err *e)
{
	struct view *v = NULL;
	int rc = view_create_samples(m, vo, so, &v, e);
	if (rc)
		return rc;
	rc = view_render_run(v, ro, out, st, e);
	view_destroy(v);
	return rc;
}

/* ---- layout and drawing ---- */

static void
place(struct view *v, int id, int x, int y, int w, int h)
{
	if (w < 3 || h < 3)
		return;
	v->pane[id] = (struct rect){ x, y, w, h };
	v->shown[id] = 1;
}

void
view_samples_layout(struct view *v, int w, int h)
{
	v->scr_w = w;
	v->scr_h = h;
	memset(v->shown, 0, sizeof v->shown);
	memset(v->pane, 0, sizeof v->pane);
	if (v->solo >= 0) {
		v->tiny = w < 20 || h < 3;
		if (!v->tiny && v->solo != PANE_HELP)
			place(v, v->solo, 0, 0, w, h);
		return;
	}
	v->tiny = w < 40 || h < 12;      /* as for traces: view.c's message says so */
	if (v->tiny)
		return;
	/* a message of several lines takes them from the panes, which keep
	 * their arrangement */
	int y = 1, bh = h - 1 - view_footer_lines(v, w, h), strip = 5;
	if (bh < 10)
		bh = 10;
	if (w >= 120 && h - 2 >= 30) {
		int top = bh * 2 / 5, mid = (bh - top) / 2, bot = bh - top - mid;
		int lw = w * 9 / 20, hw = w / 2;
		place(v, PANE_TOPO, 0, y, lw, top);
		place(v, PANE_OFFENDERS, lw, y, w - lw, top);
		place(v, PANE_PHIST, 0, y + top, w, mid);
		place(v, PANE_HIST, 0, y + top + mid, hw, bot - strip);
		place(v, PANE_SCORES, 0, y + top + mid + bot - strip, hw, strip);
		place(v, PANE_CLUSTERS, hw, y + top + mid, w - hw, bot);
	} else {
		int top = bh * 2 / 5, lw = w / 2, rest = bh - top, cl = rest / 2;
		place(v, PANE_TOPO, 0, y, lw, top);
		place(v, PANE_HIST, 0, y + top, lw, rest - strip);
		place(v, PANE_SCORES, 0, y + bh - strip, lw, strip);
		place(v, PANE_OFFENDERS, lw, y, w - lw, top);
		place(v, PANE_PHIST, lw, y + top, w - lw, rest - cl);
		place(v, PANE_CLUSTERS, lw, y + bh - cl, w - lw, cl);
	}
	if (!v->shown[v->focus])
		v->focus = PANE_TOPO;
}

void
view_samples_status(struct view *v, struct grid *g)
{
	struct view_samples *vs = v->smp;
	enum { F_SKEIN, F_LABEL, F_COUNT_, F_FILTER, F_SEL, F_ATTR, F_METRIC, F_WINDOW, F_N };
	static const int prio[F_N] = {
		[F_SKEIN] = 1, [F_LABEL] = 5, [F_COUNT_] = 4, [F_FILTER] = 8, [F_SEL] = 9,
		[F_ATTR] = 7, [F_METRIC] = 6, [F_WINDOW] = 3,
	};
	struct sfield f[F_N];
	memset(f, 0, sizeof f);
	for (int i = 0; i < F_N; i++)
		f[i].prio = prio[i];
	grid_fill(g, 0, 0, g->w, 1, ' ', ST_BAR);
	snprintf(f[F_SKEIN].full, sizeof f[0].full, "skein");
	f[F_SKEIN].key = 1;
	snprintf(f[F_LABEL].full, sizeof f[0].full, "%s", v->label);
	const char *base = strrchr(v->label, '/');
	if (base && base[1])
		snprintf(f[F_LABEL].brief, sizeof f[0].brief, "%s", base + 1);
	snprintf(f[F_COUNT_].full, sizeof f[0].full, "%u samples", vs->n);
	if (vs->n_fpicks) {
		snprintf(f[F_FILTER].full, sizeof f[0].full, "filter %u/%u", vs->n_filter, vs->n);
	} else {
		f[F_FILTER].state = 2;
	}
	uint32_t base_n = vs->n_fpicks ? vs->n_filter : vs->n;
	if (vs->n_sel) {
		snprintf(f[F_SEL].full, sizeof f[0].full, "selected %u (%.1f%%)", vs->n_sel,
			 base_n ? 100.0 * vs->n_sel / base_n : 0.0);
		snprintf(f[F_SEL].brief, sizeof f[0].brief, "sel %u (%.0f%%)", vs->n_sel,
			 base_n ? 100.0 * vs->n_sel / base_n : 0.0);
	} else {
		snprintf(f[F_SEL].full, sizeof f[0].full, "no selection");
	}
	snprintf(f[F_ATTR].full, sizeof f[0].full, "along %s", samples_attr(vs->s, vs->attr)->name);
	snprintf(f[F_METRIC].full, sizeof f[0].full, "%s at %s", mem_metric_name(vs->metric),
		 mem_depth_name(vs->depth));
	snprintf(f[F_METRIC].brief, sizeof f[0].brief, "%s", mem_metric_name(vs->metric));
	snprintf(f[F_WINDOW].full, sizeof f[0].full, "w %u step %u", vs->window, vs->step);
	view_status_fields(g, f, F_N);
}

void
view_samples_legend(struct view *v, struct grid *g)
{
	int y = g->h - 1, w = g->w;
	int x = 1;
	x += grid_text(g, x, y, w - x, ST_LABEL, "low ");
	for (int l = 0; l < GRID_HEAT_LEVELS && x < w; l++)
		grid_put(g, x++, y, 0x2588, ST_HEAT0 + l);
	x += grid_text(g, x, y, w - x, ST_LABEL, " high");
	static const struct { enum action a; const char *what; } ent[] = {
		{ ACT_HELP, "help" }, { ACT_QUIT, "quit" }, { ACT_NEXT_PANE, "pane" },
		{ ACT_CLUSTER_TOGGLE, "select" }, { ACT_SELECT_OR, "or" }, { ACT_SELECT_AND, "and" },
		{ ACT_SELECT_CLEAR, "clear" }, { ACT_SELECT_MARK, "range" }, { ACT_METRIC_NEXT, "attribute" },
	};
	for (size_t i = 0; i < sizeof ent / sizeof ent[0] && x < w; i++) {
		char k[64];
		const char *key = keymap_first_key(v->km, ent[i].a, k, sizeof k);
		char item[96];
		snprintf(item, sizeof item, "  %s %s", key, ent[i].what);
		if (!*key || x + text_width(item) > w)
			break;        /* whole entries only, never "m attribu" */
		x += grid_text(g, x, y, w - x, ST_DIM, item);
	}
}

/* ---- actions ---- */

/* A sample set's keys for its help: a title (act ACT_NONE) or a key and
 * what it does here. */
static const struct {
	enum action act;
	const char *text;
} sample_keys[] = {
	{ ACT_NONE, "Moving" },
	{ ACT_MOVE_UP, "up: the parent object, a higher bin, the row above" },
	{ ACT_MOVE_DOWN, "down: the first child, a lower bin, the row below" },
	{ ACT_MOVE_LEFT, "left: collapse, the bin or attribute before" },
	{ ACT_MOVE_RIGHT, "right: expand, the bin or attribute after" },
	{ ACT_PAGE_UP, "a page up" },
	{ ACT_PAGE_DOWN, "a page down" },
	{ ACT_NEXT_PANE, "focus the next pane" },
	{ ACT_PREV_PANE, "focus the previous pane" },
	{ ACT_TOPOLOGY, "focus the topology" },
	{ ACT_HISTOGRAM, "focus the histogram" },
	{ ACT_NONE, "Selecting (every pane shows the selection)" },
	{ ACT_CLUSTER_TOGGLE, "select what the cursor is on (a new selection)" },
	{ ACT_SELECT_OR, "add it to the selection (OR)" },
	{ ACT_SELECT_AND, "keep only the selected samples it holds (AND)" },
	{ ACT_SELECT_MARK, "histograms: mark one end of a range of bins" },
	{ ACT_SELECT_CLEAR, "clear the selection" },
	{ ACT_NONE, "Viewing" },
	{ ACT_METRIC_NEXT, "scores and clusters along the next attribute" },
	{ ACT_METRIC_PREV, "along the previous attribute" },
	{ ACT_PANE_MODE, "topology: tree, icicle, radial" },
	{ ACT_PANE_METRIC, "the measure: cycles or samples, counts, L_d or I_d" },
	{ ACT_PANE_SCOPE, "offenders: code lines or data symbols" },
	{ ACT_CLUSTER_SPLIT, "one cluster more" },
	{ ACT_CLUSTER_JOIN, "one cluster fewer" },
	{ ACT_COMMAND, "command line" },
	{ ACT_HELP, "this help" },
	{ ACT_CLOSE, "close the overlay; drop a range's mark" },
	{ ACT_REDRAW, "redraw the whole screen" },
	{ ACT_QUIT, "quit" },
};

#define set_attr vs_set_attr

void
vs_set_attr(struct view *v, uint32_t a)
{
	struct view_samples *vs = v->smp;
	uint32_t n = samples_attr_count(vs->s);
	vs->attr = a % n;
	vs->opts_version++;
	vs->sc.cur = 0;
	vs->cl.cur = vs->cl.top = 0;
	view_set_message(v, 0, "scores and clusters along %s", samples_attr(vs->s, vs->attr)->name);
}

static void
set_clusters(struct view *v, uint32_t k)
{
	struct view_samples *vs = v->smp;
	uint32_t leaves = vs->cl.tree ? mem_tree_leaves(vs->cl.tree) : 100;
	if (k < 1)
		k = 1;
	if (k > 100)
		k = 100;
	if (leaves && k > leaves)
		k = leaves;
	vs->clusters = k;
	vs->opts_version++;
	view_set_message(v, 0, "%u cluster%s", k, k == 1 ? "" : "s");
}

int
view_samples_action(struct view *v, enum action act)
{
	struct view_samples *vs = v->smp;
	switch (act) {
	case ACT_NONE: case ACT_QUIT: case ACT_HELP: case ACT_REDRAW: case ACT_COMMAND:
		return 0;
	case ACT_NEXT_PANE: case ACT_PREV_PANE: {
		/* as they read: left to right, top to bottom */
		static const int order[] = { PANE_TOPO, PANE_OFFENDERS, PANE_PHIST, PANE_HIST, PANE_SCORES, PANE_CLUSTERS };
		int n = (int)(sizeof order / sizeof order[0]), at = 0;
		for (int i = 0; i < n; i++)
			if (order[i] == v->focus)
				at = i;
		for (int k = 1; k <= n; k++) {
			int id = order[((at + (act == ACT_NEXT_PANE ? k : -k)) % n + n) % n];
			if (v->shown[id]) {
				v->focus = id;
				break;
			}
		}
		return 1;
	}
	case ACT_CLOSE: {
		const struct view_ops *ops = view_pane_ops(v->focus);
		return ops->request && ops->request(v, act);
	}
	case ACT_SEARCH: case ACT_SEARCH_NEXT: case ACT_SEARCH_PREV:
		view_set_message(v, 1, "search is for traces: pick a symbol or line in the offenders pane");
		return 1;
	case ACT_SELECT_CLEAR:
		clear_selection(v);
		return 1;
	case ACT_METRIC_NEXT: case ACT_METRIC_PREV:
		set_attr(v, vs->attr + (act == ACT_METRIC_NEXT ? 1 : samples_attr_count(vs->s) - 1));
		return 1;
	case ACT_CLUSTER_SPLIT: case ACT_CLUSTER_JOIN:
		set_clusters(v, act == ACT_CLUSTER_SPLIT ? vs->clusters + 1 : vs->clusters - 1);
		return 1;
	case ACT_TOPOLOGY: case ACT_HISTOGRAM:
		if (v->solo < 0)
			v->focus = act == ACT_TOPOLOGY ? PANE_TOPO : PANE_HIST;
		return 1;
	default:
		break;
	}
	const struct view_ops *ops = view_pane_ops(v->focus);
	if (ops->request && ops->request(v, act))
		return 1;
	/* pane keys the focused pane has no use for go where the help says
	 * they work: w to the offenders, v and o to the topology */
	if (act == ACT_PANE_SCOPE && v->focus != PANE_OFFENDERS && v->shown[PANE_OFFENDERS] &&
	    view_offenders_ops.request(v, act))
		return 1;
	if (act >= ACT_PANE_MODE && act <= ACT_PANE_ENDS && act != ACT_PANE_SCOPE && v->focus != PANE_TOPO &&
	    v->shown[PANE_TOPO] && view_topo_ops.request(v, act))
		return 1;
	/* a key that does nothing here says why */
	char key[32];
	view_key_name(v, act, key, sizeof key);
	const char *what = NULL;
	for (size_t i = 0; i < sizeof sample_keys / sizeof sample_keys[0] && !what; i++)
		if (sample_keys[i].act == act)
			what = sample_keys[i].text;
	if (what)
		view_set_message(v, 1, "%s (%s) does nothing in the %s", key, what, ops->name);
	else
		view_set_message(v, 1, "%s is for traces, not sample sets (? lists the keys)", key);
	return 1;
}

/* ---- commands ---- */

static int
parse_u32(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long x = s ? strtoul(s, &end, 10) : 0;
	if (!s || errno || end == s || *end || *s == '-' || x > 100000000)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

/* :filter — what is looked at becomes the selection. */
static void
filter_command(struct view *v, const char *arg)
{
	struct view_samples *vs = v->smp;
	if (arg && !strcmp(arg, "off")) {
		vs->n_fpicks = 0;
		vs->version++;
		vs->filter_version++;
		view_set_message(v, 0, "filter off: every sample is looked at");
		return;
	}
	if (arg) {
		view_set_message(v, 1, "filter (the selection becomes what is looked at), filter off");
		return;
	}
	if (!vs->n_sel) {
		view_set_message(v, 1, "filter: select samples first");
		return;
	}
	/* the new filter is the old one and the selection: as one list of
	 * picks when every step of the selection narrows */
	int chain = 1;
	for (uint32_t i = 1; i < vs->n_picks; i++)
		chain = chain && vs->picks[i].op == MEM_AND;
	if (vs->n_fpicks && (!chain || vs->picks_lost || vs->n_fpicks + vs->n_picks > VS_MAX_PICKS)) {
		view_set_message(v, 1, "filter: a selection made with OR cannot narrow a filter; :filter off first");
		return;
	}
	for (uint32_t i = 0; i < vs->n_picks; i++) {
		vs->fpicks[vs->n_fpicks] = vs->picks[i];
		if (vs->n_fpicks)
			vs->fpicks[vs->n_fpicks].op = MEM_AND;
		vs->n_fpicks++;
	}
	bitset_copy(&vs->filter, &vs->sel);
	vs->n_filter = vs->n_sel;
	bitset_clear(&vs->sel);
	vs->n_sel = 0;
	vs->n_picks = 0;
	vs->version++;
	vs->filter_version++;
	view_set_message(v, 0, "filter: %u samples looked at", vs->n_filter);
}

static void
save_command(struct view *v, const char *path)
{
	struct view_samples *vs = v->smp;
	struct err e = { 0 };
	if (!vs->save) {
		view_set_message(v, 1, "saving views is not available here");
		return;
	}
	if (vs->picks_lost) {
		view_set_message(v, 1, "the selection has more than %d steps: not saved", VS_MAX_PICKS);
		return;
	}
	struct view_samples_state st = {
		.attr = vs->attr, .metric = vs->metric, .depth = vs->depth, .windows = vs->windows,
		.window = vs->window, .step = vs->step, .clusters = vs->clusters,
		.filter = vs->fpicks, .n_filter = vs->n_fpicks,
		.selection = vs->picks, .n_selection = vs->n_sel ? vs->n_picks : 0,
	};
	if (vs->save(vs->save_ud, &st, path, &e))
		view_set_message(v, 1, "%s", e.msg[0] ? e.msg : "cannot save the view");
	else
		view_set_message(v, 0, "view saved to %s", path);
}

/* A known command with a wrong argument: what it takes, and what it got. */
static void
bad_arg(struct view *v, const char *cmd, const char *takes, const char *got)
{
	if (got)
		view_set_message(v, 1, "%s takes %s, not '%s'", cmd, takes, got);
	else
		view_set_message(v, 1, "%s takes %s", cmd, takes);
}

void
view_samples_command(struct view *v, const char *cmd)
{
	struct view_samples *vs = v->smp;
	char buf[200];
	char *w[4];
	int n = view_words(cmd, buf, sizeof buf, w, 4);
	if (n == 0)
		return;
	const char *c = w[0], *a1 = w[1], *a2 = w[2];
	const char *extra = n > 3 ? w[3] : NULL;     /* an argument too many */
	uint32_t x, y;
	if (!strcmp(c, "attribute") || !strcmp(c, "attr") || !strcmp(c, "a")) {
		int a = a1 && !a2 ? samples_attr_find(vs->s, a1) : -1;
		if (!a1 || a2)
			bad_arg(v, "attribute", "one attribute's name (Tab lists them)", a2);
		else if (a < 0)
			view_set_message(v, 1, "no attribute '%s' (m and M go through them)", a1);
		else
			set_attr(v, (uint32_t)a);
	} else if (!strcmp(c, "metric") || !strcmp(c, "m")) {
		if (a1 && !a2 && (!strcmp(a1, "latency") || !strcmp(a1, "imbalance"))) {
			vs->metric = !strcmp(a1, "latency") ? MEM_LATENCY : MEM_IMBALANCE;
			vs->opts_version++;
		} else {
			bad_arg(v, "metric", "latency (L_d) or imbalance (I_d)", a2 ? a2 : a1);
		}
	} else if (!strcmp(c, "depth")) {
		enum topo_type t = a1 && !a2 ? mem_depth_find(a1) : TOPO_TYPE_COUNT;
		if (t == TOPO_TYPE_COUNT || topo_count(vs->t, t) == 0) {
			char list[128] = "one of";
			size_t len = strlen(list);
			for (int k = 0; k < TOPO_TYPE_COUNT && len < sizeof list; k++)
				if (strcmp(mem_depth_name((enum topo_type)k), "?") && topo_count(vs->t, (enum topo_type)k))
					len += (size_t)snprintf(list + len, sizeof list - len, " %s",
								mem_depth_name((enum topo_type)k));
			bad_arg(v, "depth", list, a2 ? a2 : a1);
		} else {
			vs->depth = t;
			vs->opts_version++;
		}
	} else if (!strcmp(c, "windows")) {
		if (!parse_u32(a1, &x) && x >= 1 && x <= 1000 && !a2) {
			vs->windows = x;
			vs->opts_version++;
		} else {
			bad_arg(v, "windows", "a number from 1 to 1000", a2 ? a2 : a1);
		}
	} else if (!strcmp(c, "window")) {
		if (!parse_u32(a1, &x) && x >= 2 && (!a2 || (!parse_u32(a2, &y) && y >= 1 && y < x)) && n <= 3) {
			vs->window = x;
			vs->step = a2 ? y : vs->step < x ? vs->step : x / 4 ? x / 4 : 1;
			vs->opts_version++;
		} else {
			const char *bad = parse_u32(a1, &x) || x < 2 ? a1 : a2 && (parse_u32(a2, &y) || y < 1 || y >= x) ? a2
					  : extra;
			bad_arg(v, "window", "W [STEP]: 2 or more samples, moved by fewer", bad);
		}
	} else if (!strcmp(c, "clusters") || !strcmp(c, "cl")) {
		if (!parse_u32(a1, &x) && !a2)
			set_clusters(v, x);
		else
			bad_arg(v, "clusters", "a number of clusters", a2 ? a2 : a1);
	} else if ((!strcmp(c, "clear") && !a1) || (!strcmp(c, "select") && a1 && !strcmp(a1, "clear") && !a2)) {
		clear_selection(v);
	} else if (!strcmp(c, "filter") && !a2) {
		filter_command(v, a1);
	} else if (!strcmp(c, "save")) {
		if (a1 && !a2)
			save_command(v, a1);
		else
			bad_arg(v, "save", "one file name", a2);
	} else if ((!strcmp(c, "q") || !strcmp(c, "quit")) && !a1) {
		v->quit = 1;
	} else if (!strcmp(c, "help") && !a1) {
		view_action(v, ACT_HELP);
	} else {
		view_set_message(v, 1, "unknown command '%s' (attribute A, metric M, depth D, windows N, window W [STEP], "
				 "clusters K, clear, filter [off], save FILE, quit)", cmd);
	}
}

/* Tab in a sample set's command line: its commands, then what the
 * command takes. */
size_t
view_samples_complete(const struct view *v, const char *first, const char **cand, size_t max, int *space)
{
	static const char *const cmds[] = {
		"attribute", "metric", "depth", "windows", "window", "clusters", "clear", "filter", "save",
		"help", "quit",
	};
	static const char *const metrics[] = { "latency", "imbalance" };
	const struct view_samples *vs = v->smp;
	size_t n = 0;
	*space = 0;
	if (!first) {
		for (size_t i = 0; i < sizeof cmds / sizeof cmds[0] && n < max; i++)
			cand[n++] = cmds[i];
		*space = 1;
	} else if (!strcmp(first, "attribute") || !strcmp(first, "attr") || !strcmp(first, "a")) {
		for (uint32_t a = 0; a < samples_attr_count(vs->s) && n < max; a++)
			cand[n++] = samples_attr(vs->s, a)->name;
	} else if (!strcmp(first, "metric") || !strcmp(first, "m")) {
		for (size_t i = 0; i < sizeof metrics / sizeof metrics[0] && n < max; i++)
			cand[n++] = metrics[i];
	} else if (!strcmp(first, "depth")) {
		for (int t = 0; t < TOPO_TYPE_COUNT && n < max; t++)
			if (strcmp(mem_depth_name((enum topo_type)t), "?") && topo_count(vs->t, (enum topo_type)t))
				cand[n++] = mem_depth_name((enum topo_type)t);
	} else if (!strcmp(first, "filter")) {
		cand[n++] = "off";
	}
	return n;
}

/* ---- help ---- */

static void
key_line(struct view *v, enum action a, const char *text)
{
	char keys[64], pad[80], line[192];
	if (keymap_keys(v->km, a, keys, sizeof keys) == 0)
		return;
	snprintf(line, sizeof line, "%s %s", text_safe_pad(keys, 16, pad, sizeof pad), text);
	view_lines_text(&v->help, ST_NORMAL, 2, 19, line);
}

static void
title(struct view *v, const char *text, int gap)
{
	if (gap)
		view_lines_text(&v->help, ST_NORMAL, 0, 0, "");
	view_lines_text(&v->help, ST_TITLE, 0, 0, text);
}

static void
command_line(struct view *v, const char *text)
{
	view_lines_text(&v->help, ST_NORMAL, 2, 21, text);
}

void
view_samples_help(struct view *v)
{
	for (size_t i = 0; i < sizeof sample_keys / sizeof sample_keys[0]; i++) {
		if (sample_keys[i].act == ACT_NONE)
			title(v, sample_keys[i].text, i > 0);
		else
			key_line(v, sample_keys[i].act, sample_keys[i].text);
	}
	title(v, "Commands (after :)", 1);
	command_line(v, "attribute A        scores and clusters along attribute A");
	command_line(v, "metric M           latency (L_d, cycles per access) or imbalance (I_d)");
	command_line(v, "depth D            resources scored: cpu, core, l1, l2, l3, numa, package");
	command_line(v, "windows N          the score strip's windows");
	command_line(v, "window W [STEP]    the clustering's windows: W samples, every STEP");
	command_line(v, "clusters K         clusters listed");
	command_line(v, "clear, filter, filter off, save FILE, quit");
	title(v, "Reading the panes", 1);
	view_lines_text(&v->help, ST_NORMAL, 2, 2, "topology: a CPU counts the accesses it issued, a cache or memory "
			"those it served; \u2191 the transactions on the link to its parent");
	view_lines_text(&v->help, ST_NORMAL, 2, 2, "histograms: \u2591 every sample looked at, \u2588 the selection");
	view_lines_text(&v->help, ST_NORMAL, 2, 2, "I_d: a resource's largest deviation from the mean sample count, in "
			"standard deviations; L_d: mean cycles per access over the resources with samples "
			"(over all of them, the paper's equation 1, with samples.latency_mean: all)");
	view_lines_text(&v->help, ST_NORMAL, 2, 2, "clusters and score windows select the samples in their range of values");
}
