/* config_samples.c — the samples section: what `skein samples` scores
 * and clusters along, and the filter and selection a saved view records.
 *
 *   samples:
 *     attribute: zidx       # "" = time, else the first attribute
 *     metric: imbalance     # latency | imbalance
 *     latency_mean: sampled # L_d over the resources with samples | all
 *     depth: cpu            # cpu | core | l1 | l2 | l3 | numa | package | machine
 *     windows: 16           # N windows of the score strip
 *     window: 200           # w samples per sliding window of the clustering
 *     step: 50              # Δ samples between windows (Δ < w)
 *     clusters: 4           # clusters listed
 *     filter: []            # picks: the samples looked at
 *     selection: []         # picks: the selection among them
 *
 * A pick is a mapping: {op: new|or|and, attribute: A, range: [lo, hi]},
 * {attribute: A, value: NAME}, {line: "file.c:12"} or {resource: N}.
 */
#include "config_impl.h"

#include "analysis/mem/mem.h"
#include "samples/samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const config_depth_names[CONFIG_DEPTH_COUNT] = {
	"cpu", "core", "l1", "l2", "l3", "numa", "package", "machine",
};
const char *const config_op_names[CONFIG_OP_COUNT] = { "new", "or", "and" };

const char *
config_depth_name(enum config_depth d)
{
	return (unsigned)d < CONFIG_DEPTH_COUNT ? config_depth_names[d] : "?";
}

static int
get_double(struct ld *ld, const struct cnode *v, const char *path, double *out)
{
	char b[64];
	if (v->type != CN_SCALAR || !v->plain || !schema_is_decimal(v->s))
		return ld_error(ld, v, "%s: expected a number, got %s", path, schema_show(b, sizeof b, v));
	double x = strtod(v->s, NULL);
	if (!(x >= -1e300 && x <= 1e300))
		return ld_error(ld, v, "%s: %s is out of range", path, v->s);
	*out = x;
	return 0;
}

static int
get_pick(struct ld *ld, const struct cnode *m, const char *path, struct config_pick *p)
{
	static const char *const keys[] = { "op", "attribute", "range", "value", "line", "resource" };
	char b[64];
	const struct cnode *seen[N_OF(keys)] = { 0 };
	if (m->type != CN_MAP)
		return ld_error(ld, m, "%s: expected a mapping such as {attribute: zidx, range: [0, 7]}, got %s",
				path, schema_show(b, sizeof b, m));
	*p = (struct config_pick){ .op = CONFIG_OP_NEW, .resource = -1, .mark = schema_mark(ld, m) };
	int rc = 0, x;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, path, keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		char kp[96];
		if (k < 0)
			return k;
		seen[k] = v;
		snprintf(kp, sizeof kp, "%s.%s", path, keys[k]);
		switch (k) {
		case 0:
			if (!(rc = schema_enum(ld, v, kp, config_op_names, CONFIG_OP_COUNT, &x)))
				p->op = (enum config_op)x;
			break;
		case 1: rc = schema_string(ld, v, kp, 0, &p->attribute); break;
		case 2:
			if (v->type != CN_SEQ || v->n != 2)
				return ld_error(ld, v, "%s: expected [low, high], got %s", kp, schema_show(b, sizeof b, v));
			if (!(rc = get_double(ld, v->kid[0], kp, &p->lo)) && !(rc = get_double(ld, v->kid[1], kp, &p->hi)) &&
			    p->lo > p->hi)
				rc = ld_error(ld, v, "%s: the low end is above the high end", kp);
			break;
		case 3: rc = schema_string(ld, v, kp, 0, &p->value); break;
		case 4:
			if (!(rc = schema_string(ld, v, kp, 0, &p->line))) {
				const char *colon = strrchr(p->line, ':');
				size_t digits = colon ? strspn(colon + 1, "0123456789") : 0;
				if (!colon || colon == p->line || !digits || colon[1 + digits] || digits > 9)
					rc = ld_error(ld, v, "%s: expected FILE:LINE, got %s", kp, schema_show(b, sizeof b, v));
			}
			break;
		default: {
			uint32_t r;
			if (!(rc = schema_uint(ld, v, kp, 0, UINT32_MAX - 1, &r)))
				p->resource = r;
			break;
		}
		}
	}
	if (rc)
		return rc;
	int kinds = (seen[1] != NULL) + (seen[4] != NULL) + (seen[5] != NULL);
	if (kinds != 1)
		return ld_error(ld, m, "%s: a pick names one of attribute (with range or value), line or resource", path);
	if (seen[1] && (seen[2] != NULL) == (seen[3] != NULL))
		return ld_error(ld, m, "%s: attribute '%s' needs a range or a value (one of them)", path, p->attribute);
	if (!seen[1] && (seen[2] || seen[3]))
		return ld_error(ld, seen[2] ? seen[2] : seen[3], "%s: range and value go with attribute", path);
	return 0;
}

static int
get_picks(struct ld *ld, const struct cnode *v, const char *path, const struct config_pick **out,
	  uint32_t *n_out)
{
	const struct cnode *const *items;
	uint32_t n;
	int rc = schema_list(ld, v, path, &items, &n);
	if (rc)
		return rc;
	struct config_pick *a = store_alloc(ld->st, (n ? n : 1) * sizeof *a);
	if (!a)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++)
		if ((rc = get_pick(ld, items[i], path, &a[i])))
			return rc;
	*out = a;
	*n_out = n;
	return 0;
}

int
config_walk_samples(struct ld *ld, const struct cnode *m)
{
	static const char *const keys[] = {
		"attribute", "metric", "depth", "windows", "window", "step", "clusters", "filter", "selection",
		"latency_mean",
	};
	static const char *const scores[] = { "latency", "imbalance" };
	static const char *const means[] = { "sampled", "all" };
	struct config_samples *s = &ld->cfg->samples;
	int rc, x;
	if (schema_map(ld, m, "samples", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "samples", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case 0:
			if (!(rc = schema_string(ld, v, "samples.attribute", 1, &s->attribute)))
				s->attribute_mark = schema_mark(ld, v);
			break;
		case 1:
			if (!(rc = schema_enum(ld, v, "samples.metric", scores, N_OF(scores), &x)))
				s->metric = (enum config_score)x;
			break;
		case 2:
			if (!(rc = schema_enum(ld, v, "samples.depth", config_depth_names, CONFIG_DEPTH_COUNT, &x)))
				s->depth = (enum config_depth)x;
			break;
		case 3: rc = schema_uint(ld, v, "samples.windows", 1, 1000, &s->windows); break;
		case 4:
			if (!(rc = schema_uint(ld, v, "samples.window", 2, 100000000, &s->window)))
				s->window_mark = schema_mark(ld, v);
			break;
		case 5:
			if (!(rc = schema_uint(ld, v, "samples.step", 1, 100000000, &s->step)))
				s->step_mark = schema_mark(ld, v);
			break;
		case 6: rc = schema_uint(ld, v, "samples.clusters", 1, 100, &s->clusters); break;
		case 7: rc = get_picks(ld, v, "samples.filter", &s->filter, &s->n_filter); break;
		case 8: rc = get_picks(ld, v, "samples.selection", &s->selection, &s->n_selection); break;
		default:
			if (!(rc = schema_enum(ld, v, "samples.latency_mean", means, N_OF(means), &x)))
				s->latency_all = x == 1;
			break;
		}
	}
	return rc;
}

/* Δ < w, where either may come from an earlier layer: the error points
 * at the one this document wrote. */
int
config_check_samples(struct ld *ld)
{
	const struct config_samples *s = &ld->cfg->samples;
	const struct config_mark *at = s->step_mark.file == ld->file ? &s->step_mark : &s->window_mark;
	if (s->window && s->step >= s->window)
		return config_mark_error(ld->e, at,
					 "samples.step: the windows must overlap: step %u must be less than window %u",
					 s->step, s->window);
	return 0;
}

/* ---- against a sample set ---- */

static int
resolve(const struct samples *s, const struct config_pick *p, const char *path, struct mem_pick *out,
	struct err *e)
{
	char sug[96];
	*out = (struct mem_pick){ .op = p->op == CONFIG_OP_OR ? MEM_OR : p->op == CONFIG_OP_AND ? MEM_AND : MEM_NEW };
	if (p->resource >= 0) {
		uint32_t n;
		topo_objs(samples_topo(s), &n);
		if (p->resource >= n)
			return config_mark_error(e, &p->mark, "%s: resource %lld: the hardware has objects 0 to %u", path,
						 (long long)p->resource, n - 1);
		out->kind = MEM_PICK_OBJECT;
		out->id = (uint32_t)p->resource;
		return 0;
	}
	if (p->line) {
		const char *colon = strrchr(p->line, ':');
		size_t flen = (size_t)(colon - p->line);
		uint32_t line = (uint32_t)strtoul(colon + 1, NULL, 10), n;
		const struct samples_codeline *cl = samples_codelines(s, &n);
		int fa = samples_info(s)->a_file;
		for (uint32_t i = 0; fa >= 0 && i < n; i++) {
			const char *f = samples_category(s, (uint32_t)fa, cl[i].file);
			if (cl[i].line == line && strlen(f) == flen && !strncmp(f, p->line, flen)) {
				out->kind = MEM_PICK_LINE;
				out->id = i;
				return 0;
			}
		}
		return config_mark_error(e, &p->mark, "%s: no samples on line '%s'", path, p->line);
	}
	int a = samples_attr_find(s, p->attribute);
	if (a < 0) {
		uint32_t na = samples_attr_count(s);
		const char **names = malloc((na ? na : 1) * sizeof *names);
		if (!names)
			return err_set(e, ERR_NOMEM, "out of memory");
		for (uint32_t i = 0; i < na; i++)
			names[i] = samples_attr(s, i)->name;
		config_suggestion(sug, sizeof sug, p->attribute, names, na);
		free(names);
		return config_mark_error(e, &p->mark, "%s: no attribute '%s' in these samples%s", path, p->attribute, sug);
	}
	const struct samples_attr *at = samples_attr(s, (uint32_t)a);
	out->kind = MEM_PICK_RANGE;
	out->attr = (uint32_t)a;
	out->lo = p->lo;
	out->hi = p->hi;
	if (p->value) {
		if (at->kind != SAMPLES_CATEGORY)
			return config_mark_error(e, &p->mark, "%s: '%s' holds numbers: give a range, not a value", path,
						 p->attribute);
		uint32_t id = samples_category_find(s, (uint32_t)a, p->value);
		if (id == SAMPLES_NONE) {
			const char **names = malloc((at->n_cats ? at->n_cats : 1) * sizeof *names);
			if (!names)
				return err_set(e, ERR_NOMEM, "out of memory");
			for (uint32_t i = 0; i < at->n_cats; i++)
				names[i] = samples_category(s, (uint32_t)a, i);
			config_suggestion(sug, sizeof sug, p->value, names, at->n_cats);
			free(names);
			return config_mark_error(e, &p->mark, "%s: %s has no value '%s'%s", path, p->attribute, p->value, sug);
		}
		out->lo = out->hi = id;
	}
	return 0;
}

int
config_samples_picks(const struct config *cfg, const struct samples *s, int which, struct mem_pick **out,
		     uint32_t *n, struct err *e)
{
	const struct config_pick *p = which ? cfg->samples.selection : cfg->samples.filter;
	uint32_t np = which ? cfg->samples.n_selection : cfg->samples.n_filter;
	const char *path = which ? "samples.selection" : "samples.filter";
	*out = NULL;
	*n = 0;
	if (np == 0)
		return 0;
	struct mem_pick *m = malloc(np * sizeof *m);
	if (!m)
		return err_set(e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < np; i++) {
		int rc = resolve(s, &p[i], path, &m[i], e);
		if (rc) {
			free(m);
			return rc;
		}
	}
	*out = m;
	*n = np;
	return 0;
}
