/* view_rows.c — clustered rows in the explorer session: turning them on
 * and off, expanding and collapsing, joining and splitting levels, and
 * the row labels. The clustering itself is view_cluster.c.
 *
 * While rows are clustered, sel_row and win_row are indices into the
 * rows of v->vc and zr is 1; sel_rank stays a real rank (the selected
 * member, or on a cluster row the rank of the selected operation), so
 * everything that works on ranks (partitions, the timeline, details)
 * keeps working.
 */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/path/path.h"
#include "model/charm.h"

uint32_t
view_row_count(const struct view *v)
{
	if (v->clustered) {
		uint32_t n;
		view_cluster_rows(v->vc, &n);
		return n;
	}
	uint32_t nr = view_index_ranks(v->ix);
	return (nr + v->zr - 1) / v->zr;
}

uint32_t
view_row_first(const struct view *v)
{
	return v->clustered ? v->win_row : v->win_rank / v->zr;
}

uint32_t
view_row_selected(const struct view *v)
{
	return v->clustered ? v->sel_row : v->sel_rank / v->zr;
}

int
view_row_ranks(const struct view *v, uint32_t row, const uint32_t **list, uint32_t *n,
	       uint32_t *r0, uint32_t *r1)
{
	*list = NULL;
	*n = 0;
	*r0 = *r1 = 0;
	if (row >= view_row_count(v))
		return 0;
	if (v->clustered) {
		uint32_t nrows;
		const struct view_row *rows = view_cluster_rows(v->vc, &nrows);
		if (rows[row].rank != TRACE_NONE) {
			*r0 = rows[row].rank;
			*r1 = *r0 + 1;
		} else {
			*list = view_cluster_members(v->vc, rows[row].group, n);
		}
		return 1;
	}
	uint32_t nr = view_index_ranks(v->ix);
	*r0 = row * v->zr;
	*r1 = *r0 + v->zr < nr ? *r0 + v->zr : nr;
	return 1;
}

void
view_row_label(const struct view *v, uint32_t row, char *buf, size_t n)
{
	if (!v->clustered) {
		uint32_t nr = view_index_ranks(v->ix), r0 = row * v->zr, r1 = r0 + v->zr;
		r1 = r1 < nr ? r1 : nr;
		if (r1 <= r0 + 1)
			snprintf(buf, n, "r%u", r0);
		else
			snprintf(buf, n, "r%u-%u", r0, r1 - 1);
		return;
	}
	uint32_t nrows;
	const struct view_row *rows = view_cluster_rows(v->vc, &nrows);
	if (row >= nrows) {
		snprintf(buf, n, "?");
		return;
	}
	char name[VIEW_MAX_ROW_NAME + 16];
	if (rows[row].rank != TRACE_NONE) {
		view_row_name(v, rows[row].rank, name, sizeof name);
		snprintf(buf, n, "  %s", name);
		return;
	}
	view_cluster_label(v, rows[row].group, buf, n);
}

void
view_cluster_label(const struct view *v, uint32_t g, char *buf, size_t n)
{
	/* the medoid by its name: "c2 r17", "c1 r9+3", "c0 Jacobi(1,2)+5" */
	char name[VIEW_MAX_ROW_NAME + 16];
	uint32_t cnt;
	view_cluster_members(v->vc, g, &cnt);
	view_row_name(v, view_cluster_medoid(v->vc, g), name, sizeof name);
	if (cnt > 1)
		snprintf(buf, n, "c%u %s+%u", g, name, cnt - 1);
	else
		snprintf(buf, n, "c%u %s", g, name);
}

/* Where the selection sits after the rows changed: the row showing the
 * selected rank. */
static void
rows_changed(struct view *v, int center)
{
	v->sel_row = view_cluster_row_of(v->vc, v->sel_rank);
	v->gc_valid = 0;
	view_select_update(v);
	view_scroll_to_selection(v, center);
	if (center)
		v->recenter = 1;      /* again once the grid has the new rows' height */
}

/* Selects the row of group g itself. */
static void
select_header(struct view *v, uint32_t g)
{
	uint32_t n;
	const struct view_row *rows = view_cluster_rows(v->vc, &n);
	for (uint32_t r = 0; r < n; r++)
		if (rows[r].group == g && rows[r].rank == TRACE_NONE) {
			v->sel_row = r;
			break;
		}
	v->gc_valid = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 0);
}

void
view_rows_reveal(struct view *v, uint32_t rank)
{
	if (!v->clustered)
		return;
	view_cluster_expand(v->vc, view_cluster_group_of(v->vc, rank), 1);
	v->sel_row = view_cluster_row_of(v->vc, rank);
}

int
view_clusters_on(struct view *v, uint32_t level)
{
	if (!v->vc) {
		struct err e = { 0 };
		if (view_cluster_create(v->a, &v->vc, &e)) {
			view_set_message(v, 1, "cannot cluster the %ss: %s", view_row_noun(v), e.msg);
			return -1;
		}
	}
	uint32_t max = view_cluster_levels(v->vc);
	if (max == 0) {
		view_set_message(v, 1, "no %ss to cluster", view_row_noun(v));
		return -1;
	}
	if (level == 0) {
		/* room for the clusters and one of them expanded */
		level = v->rows > 4 ? (uint32_t)v->rows / 2 : 2;
		level = level > CLUSTER_MAX_K ? CLUSTER_MAX_K : level;
	}
	view_cluster_set_level(v->vc, level);
	v->clustered = 1;
	v->zr = 1;
	rows_changed(v, 1);
	uint32_t got = view_cluster_level(v->vc);
	const char *noun = view_row_noun(v);
	uint32_t nr = view_index_ranks(v->ix);
	view_set_message(v, 0, "%u cluster%s of %u %s%s by lateness%s%s%s", got, got == 1 ? "" : "s",
			 nr, noun, nr == 1 ? "" : "s", got < level ? " (the " : "", got < level ? noun : "",
			 got < level ? "s differ no more than that)" : "");
	return 0;
}

void
view_clusters_off(struct view *v)
{
	if (!v->clustered)
		return;
	v->clustered = 0;
	v->gc_valid = 0;
	view_select_update(v);
	/* the grid takes the ranks' height at the next layout: centre then too */
	view_scroll_to_selection(v, 1);
	v->recenter = 1;
	view_set_message(v, 0, "rows are %ss", view_row_noun(v));
}

static void
set_level(struct view *v, uint32_t level)
{
	uint32_t max = view_cluster_levels(v->vc), cur = view_cluster_level(v->vc);
	if (level < 1 || level > max) {
		if (level < 1)
			view_set_message(v, 0, "one cluster holds every %s", view_row_noun(v));
		else
			view_set_message(v, 0, "%u clusters is the finest grouping (the %ss differ no more)", max,
					 view_row_noun(v));
		return;
	}
	if (level == cur)
		return;
	view_cluster_set_level(v->vc, level);
	rows_changed(v, 0);
	view_set_message(v, 0, "%u cluster%s", level, level == 1 ? "" : "s");
}

int
view_cluster_action(struct view *v, enum action act)
{
	if (act == ACT_CLUSTERS) {
		if (v->clustered)
			view_clusters_off(v);
		else
			view_clusters_on(v, v->cl_start);
		return 1;
	}
	if (act < ACT_CLUSTER_TOGGLE || act > ACT_CLUSTER_COLLAPSE_ALL)
		return 0;
	if (!v->clustered) {
		char keys[64];
		keymap_keys(v->km, ACT_CLUSTERS, keys, sizeof keys);
		view_set_message(v, 1, "rows are %ss, not clusters (%s clusters them)", view_row_noun(v),
				 keys[0] ? keys : ":clusters");
		return 1;
	}
	uint32_t nrows;
	const struct view_row *rows = view_cluster_rows(v->vc, &nrows);
	uint32_t g = v->sel_row < nrows ? rows[v->sel_row].group : 0;
	int on_header = v->sel_row < nrows && rows[v->sel_row].rank == TRACE_NONE;
	switch (act) {
	case ACT_CLUSTER_TOGGLE: {
		uint32_t cnt;
		view_cluster_members(v->vc, g, &cnt);
		if (cnt < 2) {
			view_set_message(v, 0, "c%u holds one %s", g, view_row_noun(v));
			break;
		}
		/* either way the selection stays on (or goes back to) the
		 * cluster's row, its ranks below it when expanded */
		view_cluster_expand(v->vc, g, !view_cluster_expanded(v->vc, g));
		select_header(v, g);
		break;
	}
	case ACT_CLUSTER_SPLIT: set_level(v, view_cluster_level(v->vc) + 1); break;
	case ACT_CLUSTER_JOIN: set_level(v, view_cluster_level(v->vc) - 1); break;
	case ACT_CLUSTER_EXPAND_ALL:
	case ACT_CLUSTER_COLLAPSE_ALL:
		if (!view_cluster_expand_all(v->vc, act == ACT_CLUSTER_EXPAND_ALL))
			break;
		if (act == ACT_CLUSTER_COLLAPSE_ALL || on_header)
			select_header(v, g);
		else
			rows_changed(v, 0);
		break;
	default: break;
	}
	return 1;
}

/* The timeline's rows (view_timeline.c draws them): the grid's rows in
 * view, when the pane is lower than the grid the part of them that holds
 * the selection, each followed by its process's threads and streams where
 * it is open; a Charm++ run's are PEs, the selection's PE in view. */
uint32_t
view_tl_pe_selected(const struct view *v)
{
	if (v->sel_lop != TRACE_NONE)
		return analysis_lop_pe(v->a, v->sel_lop);
	const struct trace_chare *c = trace_chares(v->t, NULL);
	return c && v->sel_rank < view_index_ranks(v->ix) ? c[v->sel_rank].pe : 0;
}

static void
place_pe_rows(struct view *v, int rows)
{
	uint32_t nr = view_pe_rows(v), sel = view_tl_pe_selected(v);
	if ((uint32_t)rows > nr)
		rows = (int)nr;
	long first = (long)v->tl_first;
	if (sel < first || sel >= first + rows)
		first = (long)sel - rows / 2;
	if (first + rows > (long)nr)
		first = (long)nr - rows;
	if (first < 0)
		first = 0;
	v->tl_first = (uint32_t)first;
	v->tl_rows = rows;
}

void
view_tl_place_rows(struct view *v, int rows)
{
	if (view_is_charm(v)) {
		place_pe_rows(v, rows);
		return;
	}
	uint32_t first = view_row_first(v), total = view_row_count(v);
	uint32_t in_view = total > first ? total - first : 0;
	if (in_view > (uint32_t)v->rows)
		in_view = (uint32_t)v->rows;
	if ((uint32_t)rows > in_view)
		rows = (int)in_view;
	uint32_t sel = view_row_selected(v), start = v->tl_first;
	if (start < first || start + (uint32_t)rows > first + in_view)
		start = first;
	if (sel < start || sel >= start + (uint32_t)rows) {
		long s = (long)sel - rows / 2, lo = first, hi = (long)(first + in_view) - rows;
		start = (uint32_t)(s < lo ? lo : s > hi ? hi : s);
	}
	v->tl_first = start;
	v->tl_rows = rows;
}

/* The rank of grid row y of the timeline when the row is one rank's, else
 * TRACE_NONE. */
static uint32_t
one_rank(const struct view *v, uint32_t y)
{
	const uint32_t *list;
	uint32_t n, r0, r1;
	if (!view_row_ranks(v, v->tl_first + y, &list, &n, &r0, &r1))
		return TRACE_NONE;
	if (list)
		return n == 1 ? list[0] : TRACE_NONE;
	return r1 == r0 + 1 ? r0 : TRACE_NONE;
}

/* The pane's rows for the grid rows placed: each, then its open lanes,
 * at most `rows` of them (fill: into tl_map and the lane slots); their
 * number. */
static uint32_t
lay(struct view *v, uint32_t rows, int fill)
{
	uint32_t n = 0, slots = 0, ids[VIEW_MAX_LANE_ROWS];
	for (uint32_t y = 0; y < (uint32_t)v->tl_rows && n < rows; y++) {
		if (fill)
			v->tl_map[n] = (int32_t)y;
		n++;
		uint32_t r = v->tl_open ? one_rank(v, y) : TRACE_NONE;
		if (r == TRACE_NONE || !v->tl_open[r])
			continue;
		uint32_t k = view_lanes_of(v->t, r, ids, VIEW_MAX_LANE_ROWS);
		k = k < VIEW_MAX_LANE_ROWS ? k : VIEW_MAX_LANE_ROWS;
		for (uint32_t i = 0; i < k && n < rows && slots < VIEW_MAX_LANE_ROWS; i++, n++, slots++)
			if (fill) {
				v->tl_lane_ids[slots] = ids[i];
				v->tl_map[n] = -1 - (int32_t)slots;
			}
	}
	if (fill)
		v->tl_nlane = slots;
	return n;
}

void
view_tl_layout(struct view *v, int rows)
{
	v->tl_nmap = v->tl_nlane = 0;
	v->tl_map_hash = 0;
	rows = rows > 0 ? rows : 0;
	if ((size_t)rows + 1 > v->tl_map_cap) {
		int32_t *m = realloc(v->tl_map, ((size_t)rows + 1) * sizeof *m);
		if (!m) {
			v->tl_rows = 0;
			return;
		}
		v->tl_map = m;
		v->tl_map_cap = (size_t)rows + 1;
	}
	/* the most grid rows whose lanes fit with them (the selection's row
	 * kept in view by view_tl_place_rows, which moves the first row as
	 * the count changes: the need is not monotonic, so every count is
	 * tried from the most down; rows × (rows + lanes) steps) */
	int g = rows;
	while (v->tl_open && !view_is_charm(v) && g > 1) {
		view_tl_place_rows(v, g);
		if (lay(v, UINT32_MAX, 0) <= (uint32_t)rows)
			break;
		g--;
	}
	view_tl_place_rows(v, g);
	v->tl_nmap = lay(v, (uint32_t)rows, 1);
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < v->tl_nmap; i++) {
		int32_t e = v->tl_map[i];
		h = (h ^ (uint64_t)(uint32_t)(e >= 0 ? e : (int32_t)v->tl_lane_ids[-1 - e] | (1 << 30))) *
		    1099511628211ull;
	}
	v->tl_map_hash = v->tl_nlane ? h : 0;
}

int
view_tl_lane_cells(struct view *v, int cw)
{
	size_t need = (size_t)v->tl_nlane * (size_t)cw;
	if (need > v->tl_lc_cap) {
		struct lane_cell *p = realloc(v->tl_lc, need * sizeof *p);
		if (!p) {
			v->tl_nlane = 0;
			return -1;
		}
		v->tl_lc = p;
		v->tl_lc_cap = need;
	}
	for (uint32_t i = 0; i < v->tl_nlane; i++)
		view_lane_cells(v->t, v->tl_lane_ids[i], v->tl_t0, v->tl_t1, (uint32_t)cw,
				&v->tl_lc[(size_t)i * (size_t)cw]);
	return 0;
}

/* Lane row i: its name under its rank's, its cells coloured by region
 * (with the path metric, the path's cells hot and the others dim). */
void
view_tl_lane_row(struct view *v, uint32_t i, struct grid *row, int lw)
{
	uint32_t id = v->tl_lane_ids[i], n_tl;
	trace_timelines(v->t, &n_tl);
	const struct trace_lane *L = &trace_lanes(v->t, NULL)[id];
	/* T1, T2 … for its threads, G1 … for its streams, under its rank */
	uint32_t k = 1;
	for (uint32_t j = 0; j < i; j++) {
		const struct trace_lane *o = &trace_lanes(v->t, NULL)[v->tl_lane_ids[j]];
		k += o->kind == L->kind && o->timeline == L->timeline;
	}
	grid_put(row, 0, 0, 0x2514, ST_DIM);      /* └ */
	grid_printf(row, 1, 0, lw - 2, ST_DIM, "%c%u", L->kind == LANE_GPU ? 'G' : 'T', k);
	const struct path *p = v->metric == METRIC_PATH ? view_index_path(v->ix) : NULL;
	for (int x = 0; x < v->tl_w; x++) {
		const struct lane_cell *lc = &v->tl_lc[(size_t)i * (size_t)v->tl_w + (size_t)x];
		if (lc->region == TRACE_NONE)
			continue;
		struct cell *c = &row->cells[lw + x];
		c->ch = view_lane_glyph(lc->kind);
		c->style = (uint8_t)(ST_CAT0 + view_index_region_category(v->ix, lc->region));
		if (p) {
			uint64_t lo = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * x / v->tl_w);
			uint64_t hi = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * (x + 1) / v->tl_w);
			c->style = path_overlaps(p, n_tl + id, lo, hi) ? ST_HEAT0 + 7 : ST_DIM;
		}
	}
}

int
view_tl_lanes_toggle(struct view *v)
{
	uint32_t n_tl;
	trace_timelines(v->t, &n_tl);
	if (!v->tl_open && !(v->tl_open = calloc(n_tl + 1, 1)))
		return 1;
	if (v->sel_rank >= n_tl)
		return 1;
	uint32_t n_lanes, has = 0;
	const struct trace_lane *L = trace_lanes(v->t, &n_lanes);
	for (uint32_t i = 0; i < n_lanes && !has; i++)
		has = L[i].timeline == v->sel_rank;
	if (!has) {
		view_set_message(v, 0, "rank %u's process has no threads or GPU streams", v->sel_rank);
		return 1;
	}
	v->tl_open[v->sel_rank] = !v->tl_open[v->sel_rank];
	/* a row of several ranks (a block, a cluster) shows no lanes: say
	 * so, rather than seem to do nothing */
	const uint32_t *list;
	uint32_t n, r0, r1;
	if (v->tl_open[v->sel_rank] && view_row_ranks(v, view_row_selected(v), &list, &n, &r0, &r1) &&
	    (list ? n : r1 - r0) > 1)
		view_set_message(v, 0, "rank %u's process opened: its threads and streams show where its row is one "
				 "rank (zoom in)", v->sel_rank);
	return 1;
}
