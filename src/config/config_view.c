/* config_view.c — the schema's view and topology sections: what the
 * explorer shows at start (metric, selection, window, zoom, scale,
 * layout, clusters, glyphs, colours) and where the ranks run. The
 * rules every section follows are config_schema.c's. */
#include "config_impl.h"

#include <stdio.h>
#include <string.h>

static int
get_window(struct ld *ld, const struct cnode *v, const char *path, struct config_window *w)
{
	char b[64];
	if (v->type == CN_SCALAR && strcmp(v->s, "all") == 0) {
		w->all = 1;
		w->first = w->last = 0;
		return 0;
	}
	if (v->type != CN_SEQ || v->n != 2)
		return ld_error(ld, v, "%s: expected all or [first, last], got %s", path, schema_show(b, sizeof b, v));
	uint32_t first, last;
	int rc = schema_uint(ld, v->kid[0], path, 0, MAX_INDEX, &first);
	if (!rc)
		rc = schema_uint(ld, v->kid[1], path, 0, MAX_INDEX, &last);
	if (rc)
		return rc;
	if (first > last)
		return ld_error(ld, v, "%s: the first (%u) is after the last (%u)", path, first, last);
	w->all = 0;
	w->first = first;
	w->last = last;
	return 0;
}

static int
get_scale(struct ld *ld, const struct cnode *v, struct config_view *view)
{
	char b[64], lo[32], hi[32];
	if (v->type == CN_SCALAR && strcmp(v->s, "auto") == 0) {
		view->scale_auto = 1;
		view->scale_min_ns = view->scale_max_ns = 0;
		return 0;
	}
	if (v->type != CN_SEQ || v->n != 2)
		return ld_error(ld, v, "view.scale: expected auto or [min, max], got %s", schema_show(b, sizeof b, v));
	int64_t a, z;
	int rc = schema_time(ld, v->kid[0], "view.scale", &a);
	if (!rc)
		rc = schema_time(ld, v->kid[1], "view.scale", &z);
	if (rc)
		return rc;
	if (z <= a)
		return ld_error(ld, v, "view.scale: the maximum (%s) must be greater than the minimum (%s)",
				config_format_ns(hi, sizeof hi, z), config_format_ns(lo, sizeof lo, a));
	view->scale_auto = 0;
	view->scale_min_ns = a;
	view->scale_max_ns = z;
	return 0;
}

static int
get_layout(struct ld *ld, const struct cnode *v, struct config_view *view)
{
	enum { K_PANES, K_WIDTH, K_COUNT };
	static const char *const keys[K_COUNT] = { [K_PANES] = "panes", [K_WIDTH] = "width" };
	const struct cnode *const *cols;
	uint32_t n;
	const struct cnode *seen[CONFIG_PANE_COUNT] = { 0 };
	int rc = schema_list(ld, v, "view.layout", &cols, &n);
	if (rc)
		return rc;
	if (n == 0)
		return ld_error(ld, v, "view.layout: needs at least one column");
	struct config_column *c = store_alloc(ld->st, n * sizeof *c);
	if (!c)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		const struct cnode *m = cols[i], *panes = NULL;
		char b[64];
		if (m->type != CN_MAP)
			return ld_error(ld, m, "view.layout: expected a mapping with panes and width, got %s",
					schema_show(b, sizeof b, m));
		for (uint32_t j = 0; j < m->n / 2; j++) {
			int k = schema_key(ld, m, j, "view.layout", keys, N_OF(keys));
			const struct cnode *val = m->kid[2 * j + 1];
			if (k < 0)
				return k;
			if (k == K_WIDTH && (rc = schema_uint(ld, val, "view.layout.width", 0, 10000, &c[i].width)))
				return rc;
			if (k == K_PANES)
				panes = val;
		}
		if (!panes)
			return ld_error(ld, m, "view.layout: column has no 'panes'");
		const struct cnode *one;
		const struct cnode *const *items;
		uint32_t np;
		if ((rc = schema_items(ld, panes, "view.layout.panes", &one, &items, &np)))
			return rc;
		if (np == 0)
			return ld_error(ld, panes, "view.layout.panes: a column needs at least one pane");
		enum config_pane *p = store_alloc(ld->st, np * sizeof *p);
		if (!p)
			return err_set(ld->e, ERR_NOMEM, "out of memory");
		for (uint32_t j = 0; j < np; j++) {
			int x;
			if ((rc = schema_enum(ld, items[j], "view.layout.panes", config_pane_names,
					   CONFIG_PANE_COUNT, &x)))
				return rc;
			if (seen[x])
				return ld_error(ld, items[j],
						"view.layout: pane '%s' appears twice (first at line %u, column %u)",
						config_pane_names[x], seen[x]->line, seen[x]->col);
			seen[x] = items[j];
			p[j] = (enum config_pane)x;
		}
		c[i].panes = p;
		c[i].n_panes = np;
	}
	view->layout = c;
	view->n_columns = n;
	return 0;
}

static int
walk_pair(struct ld *ld, const struct cnode *m, const char *path, const char *const *keys,
	  uint32_t *a, uint32_t *b, uint32_t min, uint32_t max)
{
	int rc;
	if (schema_map(ld, m, path, &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, path, keys, 2);
		char p[64];
		if (k < 0)
			return k;
		snprintf(p, sizeof p, "%s.%s", path, keys[k]);
		rc = schema_uint(ld, m->kid[2 * i + 1], p, min, max, k == 0 ? a : b);
	}
	return rc;
}

/* view.selection: rank, step and which operation of the cell. The
 * operation belongs to the selection it came with: one that does not
 * name it (a file saved before the key) is read as auto, whatever an
 * earlier layer said. */
static int
walk_selection(struct ld *ld, const struct cnode *m, struct config_view *w)
{
	static const char *const keys[] = { "rank", "step", "operation" };
	int rc, x = 0;
	if (schema_map(ld, m, "view.selection", &rc))
		return rc;
	w->sel_op = CONFIG_SEL_AUTO;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "view.selection", keys, 3);
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		if (k == 0)
			rc = schema_uint(ld, v, "view.selection.rank", 0, MAX_INDEX, &w->sel_rank);
		else if (k == 1)
			rc = schema_uint(ld, v, "view.selection.step", 0, MAX_INDEX, &w->sel_step);
		else if (!(rc = schema_enum(ld, v, "view.selection.operation", config_sel_op_names, CONFIG_SEL_OP_COUNT,
					    &x)))
			w->sel_op = (enum config_sel_op)x;
	}
	return rc;
}

int
config_walk_view(struct ld *ld, const struct cnode *m)
{
	enum {
		K_METRIC, K_SCALE, K_LAYOUT, K_FOCUS, K_RANKS, K_STEPS, K_ZOOM, K_CLUSTERS,
		K_GLYPHS, K_COLOURS, K_MOUSE, K_SELECTION, K_COUNT
	};
	static const char *const keys[K_COUNT] = {
		[K_METRIC] = "metric", [K_SCALE] = "scale", [K_LAYOUT] = "layout", [K_FOCUS] = "focus",
		[K_RANKS] = "ranks", [K_STEPS] = "steps", [K_ZOOM] = "zoom", [K_CLUSTERS] = "clusters",
		[K_GLYPHS] = "glyphs", [K_COLOURS] = "colours", [K_MOUSE] = "mouse",
		[K_SELECTION] = "selection",
	};
	static const char *const pair_keys[] = { "steps", "ranks" };
	struct config_view *w = &ld->cfg->view;
	int rc, x = 0;
	if (schema_map(ld, m, "view", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "view", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_METRIC:
			/* "lanes": the threads metric's first name (files saved then) */
			if (v->type == CN_SCALAR && v->s && !strcmp(v->s, "lanes"))
				w->metric = CONFIG_METRIC_LANES;
			else if (!(rc = schema_enum(ld, v, "view.metric", config_metric_names, CONFIG_METRIC_COUNT, &x)))
				w->metric = (enum config_metric)x;
			break;
		case K_SCALE: rc = get_scale(ld, v, w); break;
		case K_LAYOUT: rc = get_layout(ld, v, w); break;
		case K_FOCUS:
			if (!(rc = schema_enum(ld, v, "view.focus", config_pane_names, CONFIG_PANE_COUNT, &x)))
				w->focus = (enum config_pane)x;
			break;
		case K_RANKS: rc = get_window(ld, v, "view.ranks", &w->ranks); break;
		case K_STEPS: rc = get_window(ld, v, "view.steps", &w->steps); break;
		case K_ZOOM: rc = walk_pair(ld, v, "view.zoom", pair_keys, &w->zoom_steps, &w->zoom_ranks, 1, 1000000); break;
		case K_CLUSTERS: rc = schema_uint(ld, v, "view.clusters", 0, CONFIG_MAX_CLUSTERS, &w->clusters); break;
		case K_GLYPHS:
			if (!(rc = schema_enum(ld, v, "view.glyphs", config_glyphs_names, CONFIG_GLYPHS_COUNT, &x)))
				w->glyphs = (enum config_glyphs)x;
			break;
		case K_COLOURS:
			if (!(rc = schema_enum(ld, v, "view.colours", config_colours_names, CONFIG_COLOURS_COUNT, &x)))
				w->colours = (enum config_colours)x;
			break;
		case K_MOUSE: rc = schema_bool(ld, v, "view.mouse", &w->mouse); break;
		case K_SELECTION:
			rc = walk_selection(ld, v, w);
			break;
		}
	}
	return rc;
}

/* ---- topology ---- */

int
config_walk_topology(struct ld *ld, const struct cnode *m)
{
	enum { K_SOURCE, K_HWLOC, K_SYNTHETIC, K_PLACEMENT, K_RANKS_PER_NODE, K_EXPLICIT, K_COUNT };
	static const char *const keys[K_COUNT] = {
		[K_SOURCE] = "source", [K_HWLOC] = "hwloc", [K_SYNTHETIC] = "synthetic",
		[K_PLACEMENT] = "placement", [K_RANKS_PER_NODE] = "ranks_per_node", [K_EXPLICIT] = "explicit",
	};
	struct config_topology *t = &ld->cfg->topology;
	int rc, x = 0;
	if (schema_map(ld, m, "topology", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "topology", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_SOURCE:
			if (!(rc = schema_enum(ld, v, "topology.source", config_topo_source_names,
					    CONFIG_TOPO_SOURCE_COUNT, &x)))
				t->source = (enum config_topo_source)x;
			t->mark = schema_mark(ld, v);
			break;
		case K_HWLOC:
			rc = schema_string(ld, v, "topology.hwloc", 1, &t->hwloc);
			t->mark = schema_mark(ld, v);
			break;
		case K_SYNTHETIC:
			rc = schema_string(ld, v, "topology.synthetic", 1, &t->synthetic);
			t->mark = schema_mark(ld, v);
			break;
		case K_PLACEMENT:
			if (!(rc = schema_enum(ld, v, "topology.placement", config_placement_names,
					    CONFIG_PLACE_COUNT, &x)))
				t->placement = (enum config_placement)x;
			break;
		case K_RANKS_PER_NODE:
			rc = schema_uint(ld, v, "topology.ranks_per_node", 0, 1000000, &t->ranks_per_node);
			break;
		case K_EXPLICIT: {
			const struct cnode *const *items;
			uint32_t n;
			if ((rc = schema_list(ld, v, "topology.explicit", &items, &n)))
				return rc;
			uint32_t *a = store_alloc(ld->st, (n ? n : 1) * sizeof *a);
			if (!a)
				return err_set(ld->e, ERR_NOMEM, "out of memory");
			for (uint32_t j = 0; j < n && !rc; j++)
				rc = schema_uint(ld, items[j], "topology.explicit", 0, MAX_INDEX, &a[j]);
			t->explicit_map = a;
			t->n_explicit = n;
			break;
		}
		}
	}
	return rc;
}

