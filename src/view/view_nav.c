/* view_nav.c — the selection, the window around it, and jumps. */
#include "view_impl.h"

uint32_t
view_steps_end(const struct view *v)
{
	uint64_t e = (uint64_t)v->win_step + (uint64_t)v->cols * v->zs;
	uint32_t n = view_index_steps(v->ix);
	return e < n ? (uint32_t)e : n;
}

uint32_t
view_ranks_end(const struct view *v)
{
	uint64_t e = (uint64_t)v->win_rank + (uint64_t)v->rows * v->zr;
	uint32_t n = view_index_ranks(v->ix);
	return e < n ? (uint32_t)e : n;
}

static void
add_partner(struct view *v, uint32_t op)
{
	if (op == TRACE_NONE || v->n_partners == VIEW_MAX_PARTNERS)
		return;
	uint32_t lop = analysis_op_lop(v->a, op);
	for (int i = 0; i < v->n_partners; i++)
		if (v->partners[i] == lop)
			return;
	v->partners[v->n_partners++] = lop;
}

static void
find_partners(struct view *v)
{
	v->n_partners = 0;
	if (v->sel_lop == TRACE_NONE)
		return;
	uint32_t first, count, nm;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	analysis_lop_ops(v->a, v->sel_lop, &first, &count);
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			if (e[i].role == END_COLL || e[i].id >= nm)
				continue;
			const struct trace_msg *m = &msgs[e[i].id];
			add_partner(v, e[i].role == END_RECV ? m->send_op : m->recv_op);
		}
	}
}

int
view_is_partner(const struct view *v, uint32_t lop)
{
	for (int i = 0; i < v->n_partners; i++)
		if (v->partners[i] == lop)
			return 1;
	return 0;
}

/* Recomputes the selected operation after the selection, zoom or metric
 * changed: the pinned lop if it is still in the selected block, else the
 * block's representative (its maximum). */
void
view_select_update(struct view *v)
{
	uint32_t r0 = v->sel_rank / v->zr * v->zr, s0 = v->sel_step / v->zs * v->zs;
	uint32_t rep, count;
	const struct view_row *row = NULL;
	if (v->clustered) {
		uint32_t n;
		const struct view_row *rows = view_cluster_rows(v->vc, &n);
		if (v->sel_row >= n)
			v->sel_row = n ? n - 1 : 0;
		row = &rows[v->sel_row];
		view_cluster_block(v->vc, v->ix, v->metric, v->sel_row, s0, s0 + v->zs, &rep, &count, NULL);
	} else {
		view_grid_blocks(v);      /* the thread's, before a block computes them */
		view_index_block(v->ix, v->metric, r0, r0 + v->zr, s0, s0 + v->zs, &rep, &count, NULL);
	}
	uint32_t old = v->sel_lop, rep_max = rep;
	if (v->pinned && v->sel_lop != TRACE_NONE) {
		uint32_t r = analysis_lop_timeline(v->a, v->sel_lop), s = analysis_lop_step(v->a, v->sel_lop);
		int in_row = row ? (row->rank == TRACE_NONE ? view_cluster_group_of(v->vc, r) == row->group
				    : r == row->rank)
			: r >= r0 && r < r0 + v->zr;
		if (in_row && s >= s0 && s < s0 + v->zs)
			rep = v->sel_lop;
		else
			v->pinned = 0;
	}
	v->sel_max = rep_max;
	v->sel_lop = rep;
	v->sel_count = count;
	/* on a cluster's row the selected rank is the selected operation's */
	if (row)
		v->sel_rank = row->rank != TRACE_NONE ? row->rank
			: rep != TRACE_NONE ? analysis_lop_timeline(v->a, rep) : view_cluster_medoid(v->vc, row->group);
	if (rep != old)
		v->details.scroll = 0;
	find_partners(v);
}

static uint32_t
clamp_start(long want, uint32_t unit, uint32_t total, int cells)
{
	long cells_total = (long)((total + unit - 1) / unit);
	long max = cells_total - cells;
	if (want > max)
		want = max;
	if (want < 0)
		want = 0;
	return (uint32_t)want * unit;
}

void
view_scroll_to_selection(struct view *v, int center)
{
	long col = v->sel_step / v->zs, wc = v->win_step / v->zs;
	long row = v->sel_rank / v->zr, wr = v->win_rank / v->zr;
	if (center) {
		wc = col - v->cols / 2;
		wr = row - v->rows / 2;
	} else {
		if (col < wc)
			wc = col;
		if (col >= wc + v->cols)
			wc = col - v->cols + 1;
		if (row < wr)
			wr = row;
		if (row >= wr + v->rows)
			wr = row - v->rows + 1;
	}
	v->win_step = clamp_start(wc, v->zs, view_index_steps(v->ix), v->cols);
	if (v->clustered) {
		long r = v->sel_row, w = v->win_row;
		if (center)
			w = r - v->rows / 2;
		else if (r < w)
			w = r;
		else if (r >= w + v->rows)
			w = r - v->rows + 1;
		v->win_row = clamp_start(w, 1, view_row_count(v), v->rows);
		return;
	}
	v->win_rank = clamp_start(wr, v->zr, view_index_ranks(v->ix), v->rows);
}

/* The selection's row is in the window. */
static int
row_visible(const struct view *v)
{
	if (v->clustered)
		return v->sel_row >= v->win_row && v->sel_row < v->win_row + (uint32_t)v->rows;
	return v->sel_rank >= v->win_rank && v->sel_rank < view_ranks_end(v);
}

/* Selects rank (keeping the step), expanding the cluster that holds it. */
void
view_select_rank(struct view *v, uint32_t rank)
{
	v->sel_rank = rank;
	view_rows_reveal(v, rank);
}

void
view_jump_lop(struct view *v, uint32_t lop)
{
	if (lop == TRACE_NONE)
		return;
	uint32_t nrows = view_row_count(v);
	view_select_rank(v, analysis_lop_timeline(v->a, lop));
	v->sel_step = analysis_lop_step(v->a, lop);
	v->sel_lop = lop;
	v->pinned = 1;
	if (v->clustered && view_row_count(v) != nrows)
		v->gc_valid = 0;          /* a cluster opened */
	view_select_update(v);
	uint32_t se = view_steps_end(v);
	int visible = v->sel_step >= v->win_step && v->sel_step < se && row_visible(v);
	view_scroll_to_selection(v, !visible);
}

static uint32_t
clamp_add(uint32_t x, long d, uint32_t n)
{
	long r = (long)x + d;
	if (r >= (long)n)
		r = (long)n - 1;
	if (r < 0)
		r = 0;
	return (uint32_t)r;
}

void
view_move(struct view *v, long drank, long dstep)
{
	if (v->clustered) {
		/* view_select_update takes the rank from the row */
		v->sel_row = clamp_add(v->sel_row, drank, view_row_count(v));
	} else {
		v->sel_rank = clamp_add(v->sel_rank, drank, view_index_ranks(v->ix));
	}
	v->sel_step = clamp_add(v->sel_step, dstep, view_index_steps(v->ix));
	v->pinned = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 0);
}

/* Rows of clusters are no runs of ranks to zoom: say what to do. */
static void
rows_are_clusters(struct view *v)
{
	char keys[64];
	keymap_keys(v->km, ACT_CLUSTERS, keys, sizeof keys);
	view_set_message(v, 1, "rows are clusters: { } join and split them (%s shows %ss)",
			 keys[0] ? keys : ":clusters off", view_row_noun(v));
}

void
view_set_zoom(struct view *v, uint32_t zs, uint32_t zr)
{
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	zs = zs < 1 ? 1 : zs > ns && ns ? ns : zs;
	zr = zr < 1 ? 1 : zr > nr && nr ? nr : zr;
	if (v->clustered && zr > 1) {
		rows_are_clusters(v);
		zr = 1;
	}
	v->zs = zs;
	v->zr = zr;
	view_select_update(v);
	view_scroll_to_selection(v, 1);
}

/* The selected lop, or the first lop at or after the selected step on
 * the selected rank. */
static uint32_t
anchor_lop(struct view *v, int *exact)
{
	*exact = v->sel_lop != TRACE_NONE && analysis_lop_timeline(v->a, v->sel_lop) == v->sel_rank;
	if (*exact)
		return v->sel_lop;
	return view_index_lower(v->ix, v->sel_rank, v->sel_step);
}

/* "no later partition on rank 3", "no earlier phase on Jacobi(1,2)" */
static void
no_partition(struct view *v, const char *which)
{
	char who[VIEW_MAX_ROW_NAME + 16];
	view_row_name(v, v->sel_rank, who, sizeof who);
	if (view_is_charm(v))
		view_set_message(v, 0, "no %s phase on %s", which, who);
	else
		view_set_message(v, 0, "no %s partition on rank %u", which, v->sel_rank);
}

static void
next_partition(struct view *v)
{
	uint32_t first, end;
	view_index_rank_lops(v->ix, v->sel_rank, &first, &end);
	int exact;
	uint32_t i = anchor_lop(v, &exact);
	if (!exact && i < end) {
		view_jump_lop(v, i);
		return;
	}
	uint32_t p = i < end ? analysis_lop_part(v->a, i) : TRACE_NONE;
	while (i < end && analysis_lop_part(v->a, i) == p)
		i++;
	if (i >= end) {
		no_partition(v, "later");
		return;
	}
	view_jump_lop(v, i);
}

static void
prev_partition(struct view *v)
{
	uint32_t first, end;
	view_index_rank_lops(v->ix, v->sel_rank, &first, &end);
	int exact;
	uint32_t i = anchor_lop(v, &exact);
	if (first == end) {
		no_partition(v, "earlier");
		return;
	}
	if (!exact) {             /* start from the last lop before the selection */
		if (i == first) {
			no_partition(v, "earlier");
			return;
		}
		i--;
	}
	uint32_t p = analysis_lop_part(v->a, i);
	while (i > first && analysis_lop_part(v->a, i - 1) == p)
		i--;
	if (exact) {              /* the start of the previous partition */
		if (i == first) {
			no_partition(v, "earlier");
			return;
		}
		i--;
		p = analysis_lop_part(v->a, i);
		while (i > first && analysis_lop_part(v->a, i - 1) == p)
			i--;
	}
	view_jump_lop(v, i);
}

/* Hotspot `next` (0-based) of n, and what it is in the status line. */
static void
show_hotspot(struct view *v, const uint32_t *hot, int next, uint32_t n)
{
	view_jump_lop(v, hot[next]);
	char d[32];
	if (view_is_charm(v)) {
		char who[VIEW_MAX_ROW_NAME + 32];
		view_row_name(v, analysis_lop_timeline(v->a, hot[next]), who, sizeof who);
		trace_fmt_duration(v->t, analysis_lop_diff_duration(v->a, hot[next]), d, sizeof d);
		view_set_message(v, 0, "hotspot %d/%u: differential duration %s, %s on PE %u", next + 1, n, d,
				 view_region_name(v, analysis_lop_region(v->a, hot[next])),
				 analysis_lop_pe(v->a, hot[next]));
		return;
	}
	trace_fmt_duration(v->t, analysis_lop_diff(v->a, hot[next]), d, sizeof d);
	view_set_message(v, 0, "hotspot %d/%u: differential lateness %s, %s", next + 1, n, d,
			 analysis_cause_name(analysis_lop_cause(v->a, hot[next])));
}

void
view_goto_hotspot(struct view *v, uint32_t k)
{
	uint32_t n;
	const uint32_t *hot = analysis_hotspots_startup(v->a, view_index_startup(v->ix), &n);
	if (k < n)
		show_hotspot(v, hot, (int)k, n);
}

/* `<` and `>`: the problems where the explanations found some
 * (view_explain_walk), else the hotspots. */
static void
hotspot(struct view *v, int dir)
{
	if (view_explain_walk(v, dir))
		return;
	uint32_t n;
	const uint32_t *hot = analysis_hotspots_startup(v->a, view_index_startup(v->ix), &n);
	int next = v->hot_idx + dir;
	if (n == 0 || next < 0 || next >= (int)n) {
		view_set_message(v, 0, n ? "no %s hotspot" : "no hotspots", dir > 0 ? "further" : "earlier");
		return;
	}
	v->hot_idx = next;
	show_hotspot(v, hot, next, n);
}

/* The fewest steps (ranks) per cell that fit total in cells: the whole
 * pane is used, not the next power of two. */
static uint32_t
zoom_fit(uint32_t total, int cells)
{
	uint64_t c = cells > 0 ? (uint64_t)cells : 1;
	uint64_t z = (total + c - 1) / c;
	return z < 1 ? 1 : (uint32_t)z;
}

int
view_nav_action(struct view *v, enum action act)
{
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	uint32_t nrow = view_row_count(v);
	long page_r = (long)v->rows * v->zr, page_s = (long)v->cols * v->zs;
	switch (act) {
	case ACT_MOVE_LEFT: view_move(v, 0, -(long)v->zs); break;
	case ACT_MOVE_RIGHT: view_move(v, 0, v->zs); break;
	case ACT_MOVE_UP: view_move(v, -(long)v->zr, 0); break;
	case ACT_MOVE_DOWN: view_move(v, v->zr, 0); break;
	case ACT_PAGE_UP:
	case ACT_PAGE_DOWN: {
		long d = act == ACT_PAGE_UP ? -page_r : page_r;
		if (v->clustered)
			v->win_row = clamp_start((long)v->win_row + d, 1, nrow, v->rows);
		else
			v->win_rank = clamp_start(((long)v->win_rank + d) / v->zr, v->zr, nr, v->rows);
		view_move(v, d, 0);
		break;
	}
	case ACT_PAGE_LEFT:
	case ACT_PAGE_RIGHT: {
		long d = act == ACT_PAGE_LEFT ? -page_s : page_s;
		v->win_step = clamp_start(((long)v->win_step + d) / v->zs, v->zs, ns, v->cols);
		view_move(v, 0, d);
		break;
	}
	case ACT_FIRST_STEP: view_move(v, 0, -(long)ns); break;
	case ACT_LAST_STEP: view_move(v, 0, ns); break;
	case ACT_FIRST_RANK: view_move(v, -(long)(nr > nrow ? nr : nrow), 0); break;
	case ACT_LAST_RANK: view_move(v, nr > nrow ? nr : nrow, 0); break;
	case ACT_NEXT_PARTITION: next_partition(v); break;
	case ACT_PREV_PARTITION: prev_partition(v); break;
	case ACT_NEXT_HOTSPOT: hotspot(v, 1); break;
	case ACT_PREV_HOTSPOT: hotspot(v, -1); break;
	case ACT_GOTO_CAUSE: {
		if (view_is_charm(v)) {
			/* seed 004 has no lateness cause: an execution depends on
			 * the one that invoked it */
			char why[192];
			uint32_t c = v->sel_lop == TRACE_NONE ? TRACE_NONE : view_charm_invoker(v, v->sel_lop, why, sizeof why);
			if (v->sel_lop == TRACE_NONE)
				view_set_message(v, 0, "no execution selected");
			else if (c == TRACE_NONE)
				view_set_message(v, 0, "%s", why);
			else {
				view_jump_lop(v, c);
				view_set_message(v, 0, "%s", why);
			}
			break;
		}
		uint32_t c = v->sel_lop == TRACE_NONE ? TRACE_NONE : analysis_lop_cause_lop(v->a, v->sel_lop);
		const char *what = NULL;
		if (c == TRACE_NONE && v->sel_lop != TRACE_NONE)
			c = view_explain_cause(v, v->sel_lop, &what);
		if (c == TRACE_NONE) {
			view_set_message(v, 0, "the selection's lateness did not come from another operation");
			break;
		}
		view_jump_lop(v, c);
		if (what)
			view_set_message(v, 0, "%s", what);
		break;
	}
	/* at a limit, say so instead of doing nothing */
	case ACT_ZOOM_IN:
		if (v->zs <= 1)
			view_set_message(v, 0, "already at 1 step per column");
		else
			view_set_zoom(v, v->zs / 2, v->zr);
		break;
	case ACT_ZOOM_OUT:
		if ((uint64_t)v->zs * (uint64_t)v->cols < ns)
			view_set_zoom(v, v->zs * 2, v->zr);
		else
			view_set_message(v, 0, "all %u steps already fit (%u per column)", ns, v->zs);
		break;
	case ACT_ZOOM_RANKS_IN:
		if (v->clustered)
			rows_are_clusters(v);
		else if (v->zr <= 1)
			view_set_message(v, 0, "already at 1 %s per row", view_row_noun(v));
		else
			view_set_zoom(v, v->zs, v->zr / 2);
		break;
	case ACT_ZOOM_RANKS_OUT:
		if (v->clustered)
			rows_are_clusters(v);
		else if ((uint64_t)v->zr * (uint64_t)v->rows < nr)
			view_set_zoom(v, v->zs, v->zr * 2);
		else if (nr == 1)
			view_set_message(v, 0, "the one %s already fits", view_row_noun(v));
		else
			view_set_message(v, 0, "all %u %ss already fit (%u per row)", nr, view_row_noun(v), v->zr);
		break;
	case ACT_ZOOM_FIT: {
		uint32_t zs = zoom_fit(ns, v->cols), zr = v->clustered ? 1 : zoom_fit(nr, v->rows);
		if (zs == v->zs && zr == v->zr)
			view_set_message(v, 0, "the whole trace already fits (%u step%s per column, %u %s%s per row)", zs,
					 zs == 1 ? "" : "s", zr, view_row_noun(v), zr == 1 ? "" : "s");
		else
			view_set_zoom(v, zs, zr);
		break;
	}
	case ACT_ZOOM_RESET:
		if (v->zs == 1 && v->zr == 1)
			view_set_message(v, 0, "already at 1 step per column, 1 %s per row", view_row_noun(v));
		else
			view_set_zoom(v, 1, 1);
		break;
	default: return 0;
	}
	return 1;
}

/* ---- a saved view ------------------------------------------------------- */

void
view_get_state(const struct view *v, struct view_state *st)
{
	st->metric = v->metric;
	st->sel_rank = v->sel_rank;
	st->sel_step = v->sel_step;
	/* the operation under the cursor: the one jumped to, which is at the
	 * selection's rank and step, or the cell's maximum (a move made it:
	 * the step in the status line need not be its step) */
	st->jumped = v->pinned && v->sel_lop != TRACE_NONE;
	if (st->jumped) {
		st->sel_rank = analysis_lop_timeline(v->a, v->sel_lop);
		st->sel_step = analysis_lop_step(v->a, v->sel_lop);
	}
	st->zoom_steps = v->zs;
	st->zoom_ranks = v->zr;
	st->clusters = v->clustered && v->vc ? view_cluster_groups(v->vc) : 0;
	st->rank_row = 0;
	st->window = 1;
	st->win_step = v->win_step;
	st->win_rank = v->win_rank;
	st->side = v->no_side ? NULL : v->side == PANE_TOPO ? "topology" : v->side == PANE_HIST ? "histogram"
		: "details";
	st->focus = view_pane_ops(v->focus)->name;
	st->win_steps = (uint32_t)(v->cols > 0 ? v->cols : 1) * (v->zs ? v->zs : 1);
	st->win_ranks = (uint32_t)(v->rows > 0 ? v->rows : 1) * (v->zr ? v->zr : 1);
	/* what is really in view: no further than the trace goes */
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	if (st->win_step + st->win_steps > ns)
		st->win_steps = ns > st->win_step ? ns - st->win_step : 1;
	if (st->win_rank + st->win_ranks > nr)
		st->win_ranks = nr > st->win_rank ? nr - st->win_rank : 1;
	if (st->clusters) {
		/* rows are clusters: the ranks are the selected row's, which
		 * says whether it was a rank's own row or its cluster's */
		uint32_t n, cnt;
		const struct view_row *rows = view_cluster_rows(v->vc, &n);
		if (v->sel_row < n && rows[v->sel_row].rank != TRACE_NONE) {
			st->rank_row = 1;
			st->win_rank = rows[v->sel_row].rank;
			st->win_ranks = 1;
		} else if (v->sel_row < n) {
			const uint32_t *m = view_cluster_members(v->vc, rows[v->sel_row].group, &cnt);
			uint32_t lo = UINT32_MAX, hi = 0;
			for (uint32_t i = 0; i < cnt; i++) {
				lo = m[i] < lo ? m[i] : lo;
				hi = m[i] > hi ? m[i] : hi;
			}
			st->win_rank = cnt ? lo : 0;
			st->win_ranks = cnt ? hi - lo + 1 : 1;
		}
	}
}

void
view_set_state(struct view *v, const struct view_state *st)
{
	char cmd[64];
	if (st->metric < METRIC_COUNT && view_metric_usable(v, st->metric))
		v->metric = st->metric;
	if (st->clusters) {
		snprintf(cmd, sizeof cmd, "clusters %u", st->clusters);
		view_command(v, cmd);
	}
	/* rows of clusters keep the steps' zoom; ranks per row are 1 */
	view_set_zoom(v, st->zoom_steps ? st->zoom_steps : 1,
		      v->clustered ? 1 : st->zoom_ranks ? st->zoom_ranks : 1);
	uint32_t cnt = 0;
	if (v->clustered && st->sel_rank < view_index_ranks(v->ix))
		view_cluster_members(v->vc, view_cluster_group_of(v->vc, st->sel_rank), &cnt);
	if (v->clustered && cnt && !(st->rank_row && cnt > 1)) {
		/* its cluster's row, left closed (the rank command would open it) */
		uint32_t ns = view_index_steps(v->ix);
		v->sel_rank = st->sel_rank;
		v->sel_step = st->sel_step < ns ? st->sel_step : ns ? ns - 1 : 0;
		v->sel_row = view_cluster_row_of(v->vc, v->sel_rank);
		v->pinned = 0;
		v->gc_valid = 0;
		view_select_update(v);
	} else {
		snprintf(cmd, sizeof cmd, "rank %u", st->sel_rank);
		view_command(v, cmd);
		snprintf(cmd, sizeof cmd, "step %u", st->sel_step);
		view_command(v, cmd);
	}
	/* a jump leaves the selection on the operation jumped to, which
	 * the details show rather than the cell's maximum; a move leaves it
	 * on the maximum, wherever the selected step is in the cell (taking
	 * the operation at that step then reopened a zoomed-out view one
	 * operation over: wavefront-9-delay after '>--l'). A file without
	 * the record takes the operation at the selection, when it is not
	 * the maximum, for one jumped to. On a cluster's row the selected
	 * rank is by now the maximum's: the file's is the one jumped to. */
	uint32_t r = st->sel_rank < view_index_ranks(v->ix) ? st->sel_rank : v->sel_rank;
	uint32_t lop = view_index_lower(v->ix, r, v->sel_step);
	int at = lop != TRACE_NONE && analysis_lop_timeline(v->a, lop) == r && analysis_lop_step(v->a, lop) == v->sel_step;
	if (st->jumped > 0 ? at
	    : st->jumped < 0 && at && lop != v->sel_lop && (v->zs > 1 || v->zr > 1 || v->clustered)) {
		v->sel_lop = lop;
		v->pinned = 1;
		view_select_update(v);
	}
	if (st->window) {
		/* the window starts where it was; drawing keeps the selection
		 * in it (rows of clusters: from the first row down to it) */
		uint32_t zs = v->zs ? v->zs : 1, zr = v->zr ? v->zr : 1;
		v->win_step = st->win_step / zs * zs;
		if (v->clustered)
			v->win_row = 0;
		else
			v->win_rank = st->win_rank / zr * zr;
		v->recenter = 0;
	}
	v->message[0] = 0;     /* restoring is silent */
}
