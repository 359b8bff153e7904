/* config_dump.c — the effective configuration written back as YAML.
 *
 * Every key is written, in schema order, so a dump is a complete record
 * of a view: loaded onto the built-in defaults it gives the same
 * configuration and the same dump again. Strings are written plain when
 * that is unambiguous and double-quoted (with escapes) otherwise; numbers
 * in the shortest form that reads back exactly.
 */
#include "config_impl.h"

#include "base/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
plain_ok(const char *s)
{
	static const char *const nulls[] = { "null", "Null", "NULL", "~" };
	unsigned char c = (unsigned char)s[0];
	if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	      c == '_' || c == '/' || c == '.'))
		return 0;
	for (const char *p = s; *p; p++) {
		c = (unsigned char)*p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_./+=$<>-", c)))
			return 0;
	}
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
		if (strcmp(s, nulls[i]) == 0)
			return 0;
	return 1;
}

static void
put_str(FILE *f, const char *s)
{
	if (plain_ok(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		/* the strict decoder every output shares (base/text.h); the
		 * loader keeps only valid UTF-8, so TEXT_BAD is a byte of a
		 * string set otherwise, escaped as that byte */
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		if (c == TEXT_BAD)
			c = *p;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (char)c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xd7ff) ||
			  (c >= 0xe000 && c <= 0xfffd)) && !text_is_control(c))
			fwrite(p, 1, (size_t)(q - p), f);   /* not the bidirectional controls */
		else if (c <= 0xff)
			fprintf(f, "\\x%02X", (unsigned)c);
		else if (c <= 0xffff)
			fprintf(f, "\\u%04X", (unsigned)c);
		else
			fprintf(f, "\\U%08X", (unsigned)c);
		p = q;
	}
	fputc('"', f);
}

static const char *
yn(int b)
{
	return b ? "true" : "false";
}

/* The shortest form that reads back as the same double: fixed-point
 * when that is short ("10", "2.5"), else %g with enough digits. */
static void
put_double(FILE *f, double x)
{
	char buf[64];
	for (int prec = 0; prec <= 8; prec++) {
		snprintf(buf, sizeof buf, "%.*f", prec, x);
		if (strtod(buf, NULL) == x) {
			fputs(buf, f);
			return;
		}
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	fputs(buf, f);
}

static void
put_items(FILE *f, const struct config_item *it, uint32_t n)
{
	fputc('[', f);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		put_str(f, it[i].value);
	}
	fputc(']', f);
}

static void
put_window(FILE *f, const char *key, const struct config_window *w)
{
	if (w->all)
		fprintf(f, "  %s: all\n", key);
	else
		fprintf(f, "  %s: [%u, %u]\n", key, w->first, w->last);
}

static void
dump_phases(const struct config *cfg, FILE *f)
{
	const struct config_phases *p = &cfg->phases;
	fputs("phases:\n  split_at: ", f);
	put_items(f, p->split_at, p->n_split_at);
	fputs("\n  named:", f);
	if (!p->n_named)
		fputs(" []", f);
	for (uint32_t i = 0; i < p->n_named; i++) {
		fputs("\n    - name: ", f);
		put_str(f, p->named[i].name);
		fputs("\n      region: ", f);
		put_str(f, p->named[i].region);
		fprintf(f, "\n      split: %s", yn(p->named[i].split));
	}
	fputs("\n  restrict: ", f);
	put_items(f, p->restrict_to, p->n_restrict);
	fputc('\n', f);
}

static void
dump_view(const struct config *cfg, FILE *f)
{
	const struct config_view *v = &cfg->view;
	char a[32], b[32];
	fprintf(f, "view:\n  metric: %s\n", config_metric_name(v->metric));
	if (v->scale_auto)
		fputs("  scale: auto\n", f);
	else
		fprintf(f, "  scale: [%s, %s]\n", config_format_ns(a, sizeof a, v->scale_min_ns),
			config_format_ns(b, sizeof b, v->scale_max_ns));
	fputs("  layout:\n", f);
	for (uint32_t i = 0; i < v->n_columns; i++) {
		fputs("    - panes: [", f);
		for (uint32_t j = 0; j < v->layout[i].n_panes; j++)
			fprintf(f, "%s%s", j ? ", " : "", config_pane_name(v->layout[i].panes[j]));
		fprintf(f, "]\n      width: %u\n", v->layout[i].width);
	}
	fprintf(f, "  focus: %s\n", config_pane_name(v->focus));
	put_window(f, "ranks", &v->ranks);
	put_window(f, "steps", &v->steps);
	fprintf(f, "  zoom:\n    steps: %u\n    ranks: %u\n", v->zoom_steps, v->zoom_ranks);
	fprintf(f, "  clusters: %u\n", v->clusters);
	fprintf(f, "  glyphs: %s\n", config_glyphs_name(v->glyphs));
	fprintf(f, "  colours: %s\n", config_colours_name(v->colours));
	fprintf(f, "  mouse: %s\n", v->mouse ? "true" : "false");
	fprintf(f, "  selection:\n    rank: %u\n    step: %u\n    operation: %s\n", v->sel_rank, v->sel_step,
		config_sel_op_name(v->sel_op));
}

static void
dump_topology(const struct config *cfg, FILE *f)
{
	const struct config_topology *t = &cfg->topology;
	fprintf(f, "topology:\n  source: %s\n  hwloc: ", config_topo_source_name(t->source));
	put_str(f, t->hwloc ? t->hwloc : "");
	fputs("\n  synthetic: ", f);
	put_str(f, t->synthetic ? t->synthetic : "");
	fprintf(f, "\n  placement: %s\n  ranks_per_node: %u\n  explicit: [",
		config_placement_name(t->placement), t->ranks_per_node);
	for (uint32_t i = 0; i < t->n_explicit; i++)
		fprintf(f, "%s%u", i ? ", " : "", t->explicit_map[i]);
	fputs("]\n", f);
}

static void
dump_picks(FILE *f, const char *key, const struct config_pick *p, uint32_t n)
{
	fprintf(f, "  %s:%s\n", key, n ? "" : " []");
	for (uint32_t i = 0; i < n; i++) {
		fprintf(f, "    - {op: %s, ", config_op_names[p[i].op]);
		if (p[i].line) {
			fputs("line: ", f);
			put_str(f, p[i].line);
		} else if (p[i].resource >= 0) {
			fprintf(f, "resource: %lld", (long long)p[i].resource);
		} else {
			fputs("attribute: ", f);
			put_str(f, p[i].attribute);
			if (p[i].value) {
				fputs(", value: ", f);
				put_str(f, p[i].value);
			} else {
				fputs(", range: [", f);
				put_double(f, p[i].lo);
				fputs(", ", f);
				put_double(f, p[i].hi);
				fputc(']', f);
			}
		}
		fputs("}\n", f);
	}
}

static void
dump_samples(const struct config *cfg, FILE *f)
{
	const struct config_samples *s = &cfg->samples;
	fputs("samples:\n  attribute: ", f);
	put_str(f, s->attribute ? s->attribute : "");
	fprintf(f, "\n  metric: %s\n  latency_mean: %s\n  depth: %s\n  windows: %u\n  window: %u\n"
		"  step: %u\n  clusters: %u\n", s->metric == CONFIG_SCORE_LATENCY ? "latency" : "imbalance",
		s->latency_all ? "all" : "sampled", config_depth_names[s->depth], s->windows, s->window,
		s->step, s->clusters);
	dump_picks(f, "filter", s->filter, s->n_filter);
	dump_picks(f, "selection", s->selection, s->n_selection);
}

static void
dump_charm(const struct config *cfg, FILE *f)
{
	const struct config_charm *c = &cfg->charm;
	fprintf(f, "charm:\n  reorder: %s\n  sdag: %s\n  repair: %s\n  infer: %s\n  leap_merge: %s\n"
		"  runtime_chares: ", yn(c->reorder), yn(c->sdag), yn(c->repair), yn(c->infer),
		yn(c->leap_merge));
	put_items(f, c->runtime_chares, c->n_runtime_chares);
	fputs("\n  runtime_entries: ", f);
	put_items(f, c->runtime_entries, c->n_runtime_entries);
	fputc('\n', f);
}

int
config_dump(const struct config *cfg, FILE *f, struct err *e)
{
	const struct config_structure *s = &cfg->structure;
	fputs("# skein configuration (skein config --dump)\n", f);
	fprintf(f, "structure:\n  coalesce: %s\n  waitall_merge: %s\n  leap_merge: %s\n  leap_factor: ",
		yn(s->coalesce), yn(s->waitall_merge), yn(s->leap_merge));
	put_double(f, s->leap_factor);
	fprintf(f, "\n  force: %s\n  global_step_merge: %s\n  auto_merge: %s\n  sender_progress: %s\n"
		"  include_startup: %s\n  caller_merge: %s\n  match_size: %s\n  hotspots: %u\n  reorder: %s\n",
		yn(s->force), yn(s->global_step_merge), yn(s->auto_merge), yn(s->sender_progress),
		yn(s->include_startup), yn(s->caller_merge), yn(s->match_size), s->hotspots, yn(s->reorder));
	dump_phases(cfg, f);
	const struct config_iterations *it = &cfg->iterations;
	fprintf(f, "iterations:\n  find: %s\n  region: ", config_iter_find_name(it->find));
	put_str(f, it->region ? it->region : "");
	fputs("\n  name: ", f);
	put_str(f, it->name ? it->name : "iteration");
	fputc('\n', f);
	dump_view(cfg, f);
	dump_topology(cfg, f);
	dump_charm(cfg, f);
	dump_samples(cfg, f);
	fputs("keys:", f);
	if (!cfg->n_keys)
		fputs(" {}", f);
	for (uint32_t i = 0; i < cfg->n_keys; i++) {
		const struct config_binding *b = &cfg->keys[i];
		fputs("\n  ", f);
		put_str(f, b->action);
		fputs(": [", f);
		for (uint32_t j = 0; j < b->n_keys; j++) {
			if (j)
				fputs(", ", f);
			put_str(f, b->keys[j]);
		}
		fputc(']', f);
	}
	fputc('\n', f);
	if (fflush(f) || ferror(f))
		return err_set(e, ERR_IO, "cannot write the configuration");
	return 0;
}
