/* cli_samples.c — `skein samples DIR`: a sample set's report (text, JSON,
 * CSV), or the explorer on it; `skein render DIR` on a sample set. The
 * samples section of the configuration, then the command line's flags,
 * say what is scored along what, what is looked at and what is selected. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/samples_report.h"
#include "view/surface/keymap.h"
#include "view/view.h"
#include "cli.h"
#include "explore.h"

/* An opened set and what to do with it. */
struct sset {
	struct samples *s;
	struct mem *m;
	struct mem_pick *filter, *selection;
	uint32_t n_filter, n_selection;
	struct view_samples_state st;
};

static void
sset_close(struct sset *x)
{
	free(x->filter);
	free(x->selection);
	mem_destroy(x->m);
	samples_destroy(x->s);
}

/* "names: a, b, c" of the attributes, for messages. */
static void
attr_names(const struct samples *s, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < samples_attr_count(s) && k + 1 < n; i++) {
		int w = snprintf(buf + k, n - k, "%s%s", i ? ", " : "", samples_attr(s, i)->name);
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

static int
resolve_options(struct cli *c, struct sset *x)
{
	const struct config_samples *cs = &c->cfg.samples;
	struct view_samples_state *st = &x->st;
	char names[1024];
	const char *attr = c->attribute ? c->attribute : cs->attribute && cs->attribute[0] ? cs->attribute : NULL;
	if (attr) {
		int a = samples_attr_find(x->s, attr);
		if (a < 0) {
			attr_names(x->s, names, sizeof names);
			if (c->attribute)
				cli_error("--attribute: no attribute '%s' in these samples (they have %s)", attr, names);
			else
				cli_error_at(&cs->attribute_mark, "samples.attribute: no attribute '%s' in these "
					     "samples (they have %s)", attr, names);
			return EXIT_USAGE;
		}
		st->attr = (uint32_t)a;
	} else {
		int a = mem_default_attr(x->s);
		st->attr = a >= 0 ? (uint32_t)a : 0;
	}
	st->metric = cs->metric == CONFIG_SCORE_LATENCY ? MEM_LATENCY : MEM_IMBALANCE;
	if (c->metric) {
		if (strcmp(c->metric, "latency") && strcmp(c->metric, "imbalance"))
			return cli_usage_error("skein samples --metric takes latency or imbalance, not", c->metric);
		st->metric = !strcmp(c->metric, "latency") ? MEM_LATENCY : MEM_IMBALANCE;
	}
	const char *depth = c->depth ? c->depth : config_depth_name(cs->depth);
	st->depth = mem_depth_find(depth);
	if (st->depth == TOPO_TYPE_COUNT)
		return cli_usage_error("--depth takes cpu, core, l1, l2, l3, numa, package or machine, not", depth);
	if (topo_count(samples_topo(x->s), st->depth) == 0) {
		cli_error("depth %s: the hardware has no such objects", depth);
		return EXIT_USAGE;
	}
	st->windows = c->windows ? c->windows : cs->windows;
	st->window = c->window ? c->window : cs->window;
	st->step = c->step ? c->step : cs->step;
	st->clusters = c->given & G_CLUSTERS ? c->aopts.clusters : cs->clusters;
	if (st->clusters == 0)
		return cli_usage_error("skein samples --clusters takes a number from 1 to 20, not", "0");
	if (st->step >= st->window) {
		cli_error("the windows must overlap: step %u must be less than window %u", st->step, st->window);
		return EXIT_USAGE;
	}
	struct err e = { 0 };
	if (config_samples_picks(&c->cfg, x->s, 0, &x->filter, &x->n_filter, &e) ||
	    config_samples_picks(&c->cfg, x->s, 1, &x->selection, &x->n_selection, &e)) {
		cli_error("%s", e.msg);
		return e.code == ERR_NOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	st->filter = x->filter;
	st->n_filter = x->n_filter;
	st->selection = x->selection;
	st->n_selection = x->n_selection;
	return EXIT_OK;
}

static int
sset_open(struct cli *c, struct sset *x)
{
	memset(x, 0, sizeof *x);
	struct err e = { 0 };
	if (samples_open(c->trace, NULL, &x->s, &e)) {
		cli_error("%s", e.msg[0] ? e.msg : err_name(e.code));
		return EXIT_FAIL;
	}
	uint32_t nw;
	const char *const *w = samples_warnings(x->s, &nw);
	for (uint32_t i = 0; i < nw && !c->quiet; i++)
		cli_error("warning: %s", w[i]);
	int rc = mem_create(x->s, &x->m, &e) ? EXIT_FAIL : resolve_options(c, x);
	if (x->m)
		mem_set_ld(x->m, c->cfg.samples.latency_all ? MEM_LD_ALL : MEM_LD_SAMPLED);
	if (rc) {
		if (!x->m)
			cli_error("%s", e.msg);
		sset_close(x);
	}
	return rc;
}

/* ---- the report ---- */

int
cli_samples(struct cli *c)
{
	if (!c->format && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !c->table) {
		struct explore_opts eo;
		return cli_explore_opts(c, &eo) ? EXIT_USAGE : cli_samples_explore(c, &eo);
	}
	struct samples_report r = { .fmt = REPORT_TEXT, .top = 10 };
	if (c->format && !strcmp(c->format, "json"))
		r.fmt = REPORT_JSON;
	else if (c->format && !strcmp(c->format, "csv"))
		r.fmt = REPORT_CSV;
	else if (c->format && strcmp(c->format, "text"))
		return cli_usage_error("samples --format takes text, json or csv, not", c->format);
	if (c->table && samples_table_parse(c->table, &r.table)) {
		char what[160];
		snprintf(what, sizeof what, "samples --table takes %s, not", samples_table_names());
		return cli_usage_error(what, c->table);
	}
	if (c->table && r.fmt != REPORT_CSV)
		return cli_usage_error("--table goes with --format csv", NULL);
	struct sset x;
	int rc = sset_open(c, &x);
	if (rc)
		return rc;
	uint32_t n = samples_info(x.s)->n;
	struct bitset f = { 0 }, sel = { 0 };
	struct err e = { 0 };
	if (bitset_init(&f, n) || bitset_init(&sel, n) || mem_picks(x.m, x.filter, x.n_filter, &f) ||
	    mem_picks(x.m, x.selection, x.n_selection, &sel)) {
		cli_error("out of memory");
		rc = EXIT_FAIL;
	} else {
		if (x.n_filter && x.n_selection)
			bitset_and(&sel, &f);
		r.attr = (int)x.st.attr;
		r.metric = x.st.metric;
		r.depth = x.st.depth;
		r.windows = x.st.windows;
		r.window = x.st.window;
		r.step = x.st.step;
		r.clusters = x.st.clusters;
		r.filter = x.n_filter ? &f : NULL;
		r.selection = x.n_selection ? &sel : NULL;
		if (samples_report_write(x.m, &r, stdout, &e)) {
			if (!ferror(stdout))       /* a write error is reported once, in main */
				cli_error("%s", e.msg[0] ? e.msg : "cannot write the report");
			rc = e.code == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
		}
	}
	bitset_fini(&f);
	bitset_fini(&sel);
	sset_close(&x);
	return rc;
}

/* ---- saving a view ---- */

/* A YAML double-quoted string. */
static void
put_q(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02X", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void
put_picks(FILE *f, const struct samples *s, const char *key, const struct mem_pick *p, uint32_t n)
{
	static const char *const ops[] = { "new", "or", "and" };
	fprintf(f, "  %s: [", key);
	for (uint32_t i = 0; i < n; i++) {
		fprintf(f, "%s{op: %s, ", i ? ", " : "", ops[p[i].op]);
		if (p[i].kind == MEM_PICK_OBJECT) {
			fprintf(f, "resource: %u}", p[i].id);
		} else if (p[i].kind == MEM_PICK_LINE) {
			const struct samples_codeline *cl = samples_codelines(s, NULL);
			char line[4200];
			snprintf(line, sizeof line, "%s:%u", samples_category(s, (uint32_t)samples_info(s)->a_file,
									   cl[p[i].id].file), cl[p[i].id].line);
			fputs("line: ", f);
			put_q(f, line);
			fputc('}', f);
		} else {
			const struct samples_attr *a = samples_attr(s, p[i].attr);
			fputs("attribute: ", f);
			put_q(f, a->name);
			if (a->kind == SAMPLES_CATEGORY && p[i].lo == p[i].hi && p[i].lo >= 0) {
				fputs(", value: ", f);
				put_q(f, samples_category(s, p[i].attr, (uint32_t)p[i].lo));
			} else {
				fprintf(f, ", range: [%.17g, %.17g]", p[i].lo, p[i].hi);
			}
			fputc('}', f);
		}
	}
	fputs("]\n", f);
}

struct save_ctx {
	struct cli *c;
	const struct samples *s;
};

/* `:save FILE`: the scores' settings as scalars, the attribute and the
 * picks through a YAML snippet (so they pass the loader's checks), then
 * the whole configuration dumped. */
static int
save_samples(void *ud, const struct view_samples_state *st, const char *path, struct err *e)
{
	struct save_ctx *sc = ud;
	struct config *cfg = &sc->c->cfg;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return err_set(e, ERR_NOMEM, "out of memory");
	fputs("samples:\n  attribute: ", m);
	put_q(m, samples_attr(sc->s, st->attr)->name);
	fputc('\n', m);
	put_picks(m, sc->s, "filter", st->filter, st->n_filter);
	put_picks(m, sc->s, "selection", st->selection, st->n_selection);
	fclose(m);
	cfg->samples.metric = st->metric == MEM_LATENCY ? CONFIG_SCORE_LATENCY : CONFIG_SCORE_IMBALANCE;
	for (int d = 0; d < CONFIG_DEPTH_COUNT; d++)
		if (mem_depth_find(config_depth_name((enum config_depth)d)) == st->depth)
			cfg->samples.depth = (enum config_depth)d;
	cfg->samples.windows = st->windows;
	cfg->samples.window = st->window;
	cfg->samples.step = st->step;
	cfg->samples.clusters = st->clusters;
	int rc = config_load_string(cfg, "the view", text, len, e);
	free(text);
	return rc ? rc : cli_save_config(cfg, path, e);
}

/* ---- the explorer and the renderer ---- */

struct sview {
	struct sset x;
	struct keymap *km;
	struct view_opts vo;
	struct view_samples_opts so;
	struct save_ctx save;
	char label[256];
};

static int
sview_open(struct cli *c, struct sview *sv)
{
	memset(sv, 0, sizeof *sv);
	int rc = cli_keymap(c, &sv->km);
	if (rc)
		return rc;
	if ((rc = sset_open(c, &sv->x))) {
		keymap_destroy(sv->km);
		return rc;
	}
	cli_trace_label(c->trace, sv->label, sizeof sv->label);
	sv->vo.label = sv->label;
	sv->vo.keys = sv->km;
	sv->vo.pane = c->pane;
	sv->save = (struct save_ctx){ c, sv->x.s };
	sv->so = (struct view_samples_opts){ .initial = sv->x.st, .save = save_samples, .save_ud = &sv->save };
	return EXIT_OK;
}

static void
sview_close(struct sview *sv)
{
	sset_close(&sv->x);
	keymap_destroy(sv->km);
}

int
cli_samples_explore(struct cli *c, const struct explore_opts *eo)
{
	/* the terminal is given back whatever signal ends the explorer */
	screen_signals();
	struct sview sv;
	int rc = sview_open(c, &sv);
	if (rc)
		return screen_exit_status(rc);
	struct view *v = NULL;
	struct err e = { 0 };
	char msg[256];
	if (view_create_samples(sv.x.m, &sv.vo, &sv.so, &v, &e)) {
		cli_error("%s", e.msg);
		rc = e.code == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	} else if (explore_view(v, eo, msg, sizeof msg)) {
		cli_error("%s", msg);
		rc = EXIT_FAIL;
	}
	sview_close(&sv);
	return screen_exit_status(rc);
}

int
cli_samples_render(struct cli *c, const struct view_render_opts *ro)
{
	struct sview sv;
	int rc = sview_open(c, &sv);
	if (rc)
		return rc;
	struct err e = { 0 };
	struct view_render_stats st;
	rc = view_render_samples(sv.x.m, &sv.vo, &sv.so, ro, stdout, &st, &e);
	if (rc && !ferror(stdout))     /* a write error is reported once, in main */
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
	else if (c->time)
		fprintf(stderr, "skein: render %dx%d: first draw %.3f ms; %zu keys, %.3f ms mean, %.3f ms max per key\n",
			ro->w, ro->h, st.first_draw_ms, st.keys, st.keys ? st.total_ms / (double)st.keys : 0.0, st.max_ms);
	sview_close(&sv);
	return rc == ERR_USAGE ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}
