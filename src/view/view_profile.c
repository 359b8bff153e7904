/* view_profile.c — the profile pane (p): time per region over a scope,
 * as a table sortable by any column (analysis/profile/profile.h,
 * doc/profile.md).
 *
 * Two modes (v): the regions, and the ranks of the selected region.
 * Enter goes to the region's longest instance (on a rank's row, that
 * rank's), o sorts by the next column (a click on a header sorts by it,
 * again reverses), w cycles the scope (whole trace, partition, iteration,
 * steps in view, the timeline's window). On a trace with one-sided
 * records two more columns give each region's RMA operations and their
 * bytes (put and got, at the issuing call). The profile is computed when
 * the scope or a filter changes, never per key otherwise.
 */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/profile/profile.h"
#include "view/model/view_table.h"

/* The last two, a region's one-sided operations and their bytes, only
 * on a trace with RMA records. */
enum { PC_REGION, PC_CALLS, PC_INCL, PC_EXCL, PC_SHARE, PC_MIN, PC_MEAN, PC_MAX, PC_RANK, PC_IMBAL,
       PC_RMA_OPS, PC_RMA_BYTES, PC_COUNT };
enum { RC_RANK, RC_CALLS, RC_INCL, RC_EXCL, RC_SHARE, RC_COUNT };

static const struct vt_col region_cols[PC_COUNT] = {
	[PC_REGION] = { "region", 40, 0, 1 },
	[PC_CALLS] = { "calls", 8, 3, 0 },
	[PC_INCL] = { "inclusive", 9, 4, 0 },
	[PC_EXCL] = { "exclusive", 9, 0, 0 },
	[PC_SHARE] = { "share", 6, 0, 0 },
	[PC_MIN] = { "min", 9, 6, 0 },
	[PC_MEAN] = { "mean", 9, 5, 0 },
	[PC_MAX] = { "max", 9, 2, 0 },
	[PC_RANK] = { "at", 6, 1, 0, 1 },
	[PC_IMBAL] = { "imbal.", 6, 2, 0 },
	[PC_RMA_OPS] = { "rma ops", 8, 3, 0 },
	[PC_RMA_BYTES] = { "rma bytes", 10, 3, 0 },
};

static const struct vt_col rank_cols[RC_COUNT] = {
	[RC_RANK] = { "rank", 16, 0, 0, 1 },
	[RC_CALLS] = { "calls", 8, 0, 0 },
	[RC_INCL] = { "inclusive", 9, 0, 0 },
	[RC_EXCL] = { "exclusive", 9, 0, 0 },
	[RC_SHARE] = { "of region", 9, 1, 0 },
};

struct view_profile {
	struct vt_col rcols[RC_COUNT];   /* "rank", or "chare" */
	struct vt_col pcols[PC_COUNT];   /* "at": a rank, or a chare's label */
	struct profile p;
	int valid;
	uint64_t key[4];
	int scope;
	uint32_t tsel_seen;
	int by_rank;                 /* the ranks of one region */
	uint32_t region;             /* its region */
	struct vtable tab, rtab;
	uint32_t *rows;              /* by_rank: indexes into p.rows */
	uint32_t n_rows;
	struct view *v;
	struct vt_source src, rsrc;
};

static double
sec(const struct view *v, double ticks)
{
	return ticks / (double)trace_info(v->t)->ticks_per_second;
}

static void
region_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_profile *vp = ctx;
	const struct view *v = vp->v;
	const struct profile_region *x = &vp->p.regions[r];
	switch (c) {
	case PC_REGION: snprintf(buf, n, "%s", view_region_name(v, x->region)); break;
	case PC_CALLS: fmt_count((double)x->calls, buf, n); break;
	case PC_INCL: fmt_seconds(sec(v, (double)x->incl), buf, n); break;
	case PC_EXCL: fmt_seconds(sec(v, (double)x->excl), buf, n); break;
	case PC_SHARE:
		snprintf(buf, n, "%.1f%%", vp->p.total ? 100.0 * (double)x->excl / (double)vp->p.total : 0.0);
		break;
	case PC_MIN: fmt_seconds(sec(v, (double)x->excl_min), buf, n); break;
	case PC_MEAN: fmt_seconds(sec(v, x->excl_mean), buf, n); break;
	case PC_MAX: fmt_seconds(sec(v, (double)x->excl_max), buf, n); break;
	case PC_RANK:
		if (view_is_charm(v))
			view_row_name(v, x->max_rank, buf, n);
		else
			snprintf(buf, n, "r%u", x->max_rank);
		break;
	case PC_IMBAL: snprintf(buf, n, "%.2f", profile_imbalance(x)); break;
	case PC_RMA_OPS:                     /* blank where a region issued none */
		if (x->rma_ops)
			fmt_count((double)x->rma_ops, buf, n);
		break;
	case PC_RMA_BYTES:
		if (x->rma_ops)
			fmt_bytes((double)x->rma_bytes, buf, n);
		break;
	}
}

static double
region_key(void *ctx, uint32_t r, int c)
{
	struct view_profile *vp = ctx;
	const struct profile_region *x = &vp->p.regions[r];
	switch (c) {
	case PC_CALLS: return (double)x->calls;
	case PC_INCL: return (double)x->incl;
	case PC_EXCL: case PC_SHARE: return (double)x->excl;
	case PC_MIN: return (double)x->excl_min;
	case PC_MEAN: return x->excl_mean;
	case PC_MAX: return (double)x->excl_max;
	case PC_RANK: return -(double)x->max_rank;    /* the lowest rank first */
	case PC_IMBAL: return profile_imbalance(x);
	case PC_RMA_OPS: return (double)x->rma_ops;
	case PC_RMA_BYTES: return (double)x->rma_bytes;
	}
	return 0;
}

static int
region_style(void *ctx, uint32_t r, int c)
{
	struct view_profile *vp = ctx;
	const struct profile_region *x = &vp->p.regions[r];
	if (c == PC_REGION)
		return ST_LABEL;
	if (c == PC_IMBAL && profile_imbalance(x) >= 1.5)
		return ST_EMPH;
	if (c == PC_SHARE && vp->p.total && (double)x->excl >= 0.1 * (double)vp->p.total)
		return ST_EMPH;
	return ST_NORMAL;
}

static const struct profile_row *
rank_row(const struct view_profile *vp, uint32_t r)
{
	return &vp->p.rows[vp->rows[r]];
}

static void
rank_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_profile *vp = ctx;
	const struct view *v = vp->v;
	const struct profile_row *x = rank_row(vp, r);
	uint64_t total = 0;
	for (uint32_t i = 0; i < vp->p.n_regions; i++)
		if (vp->p.regions[i].region == vp->region)
			total = vp->p.regions[i].excl;
	switch (c) {
	case RC_RANK: view_row_name(v, x->rank, buf, n); break;
	case RC_CALLS: fmt_count((double)x->calls, buf, n); break;
	case RC_INCL: fmt_seconds(sec(v, (double)x->incl), buf, n); break;
	case RC_EXCL: fmt_seconds(sec(v, (double)x->excl), buf, n); break;
	case RC_SHARE: snprintf(buf, n, "%.1f%%", total ? 100.0 * (double)x->excl / (double)total : 0.0); break;
	}
}

static double
rank_key(void *ctx, uint32_t r, int c)
{
	struct view_profile *vp = ctx;
	const struct profile_row *x = rank_row(vp, r);
	switch (c) {
	case RC_RANK: return -(double)x->rank;
	case RC_CALLS: return (double)x->calls;
	case RC_INCL: return (double)x->incl;
	default: return (double)x->excl;
	}
}

int
view_profile_create(struct view *v)
{
	struct view_profile *vp = calloc(1, sizeof *vp);
	if (!vp)
		return ERR_NOMEM;
	vp->v = v;
	vt_init(&vp->tab, PC_EXCL);
	vt_init(&vp->rtab, RC_EXCL);
	memcpy(vp->pcols, region_cols, sizeof region_cols);
	if (view_is_charm(v)) {        /* "at Jacobi(1,2)", not "at 7", when there is room */
		vp->pcols[PC_RANK].width = 12;
		vp->pcols[PC_RANK].prio = 5;
	}
	vp->src = (struct vt_source){ vp->pcols, trace_has_rma(v->t) ? PC_COUNT : PC_RMA_OPS, vp, region_cell,
				      region_key, region_style };
	memcpy(vp->rcols, rank_cols, sizeof rank_cols);
	vp->rcols[RC_RANK].name = view_row_noun(v);
	vp->rsrc = (struct vt_source){ vp->rcols, RC_COUNT, vp, rank_cell, rank_key, NULL };
	v->prof = vp;
	return 0;
}

void
view_profile_destroy(struct view_profile *vp)
{
	if (!vp)
		return;
	profile_free(&vp->p);
	vt_fini(&vp->tab);
	vt_fini(&vp->rtab);
	free(vp->rows);
	free(vp);
}

/* The ranks of the selected region, as a table. */
static void
fill_ranks(struct view_profile *vp)
{
	vp->n_rows = 0;
	free(vp->rows);
	vp->rows = malloc(((size_t)vp->p.n_rows + 1) * sizeof *vp->rows);
	if (!vp->rows)
		return;
	for (uint32_t i = 0; i < vp->p.n_rows; i++)
		if (vp->p.rows[i].region == vp->region)
			vp->rows[vp->n_rows++] = i;
	vt_reset(&vp->rtab, vp->n_rows);
	vt_sort(&vp->rtab, &vp->rsrc);
}

static void
compute(struct view *v)
{
	struct view_profile *vp = v->prof;
	struct profile_scope s;
	uint64_t *buf, key[4];
	if (vp->tsel_seen != v->tsel_gen) {      /* a new window: look at it */
		vp->tsel_seen = v->tsel_gen;
		vp->scope = TSCOPE_TIME;
	}
	if (view_scope_fill(v, vp->scope, &s, &buf, key)) {
		view_set_message(v, 1, "profile: out of memory");
		return;
	}
	if (vp->valid && memcmp(key, vp->key, sizeof key) == 0) {
		free(buf);
		return;
	}
	uint32_t keep = vt_selected(&vp->tab);
	uint32_t keep_region = keep != UINT32_MAX && keep < vp->p.n_regions ? vp->p.regions[keep].region
									     : TRACE_NONE;
	profile_free(&vp->p);
	struct err e = { 0 };
	struct profile *ahead = view_prefetch_take(v, PF_PROFILE, key);
	if (ahead) {                         /* computed once the screen was drawn */
		vp->p = *ahead;
		free(ahead);
		vp->valid = 1;
	} else {
		vp->valid = profile_compute(v->t, &s, &vp->p, &e) == 0;
	}
	free(buf);
	if (!vp->valid) {
		view_set_message(v, 1, "%s", e.msg);
		return;
	}
	memcpy(vp->key, key, sizeof key);
	vt_reset(&vp->tab, vp->p.n_regions);
	vt_sort(&vp->tab, &vp->src);
	for (uint32_t i = 0; i < vp->p.n_regions && keep_region != TRACE_NONE; i++)
		if (vp->p.regions[i].region == keep_region)
			vt_select_row(&vp->tab, i);
	if (vp->by_rank)
		fill_ranks(vp);
}

/* The whole trace's profile, ahead (view_prefetch.c). */
static void *
job_run(const struct trace *t, void *in)
{
	(void)in;
	struct profile_scope s;
	profile_scope_all(&s);
	struct profile *p = calloc(1, sizeof *p);
	struct err e = { 0 };
	if (p && profile_compute(t, &s, p, &e)) {
		free(p);
		p = NULL;
	}
	return p;
}

static void
job_drop(void *out)
{
	profile_free(out);
	free(out);
}

int
view_profile_job(struct view *v, struct view_job *j)
{
	(void)v;
	*j = (struct view_job){ job_run, job_drop, NULL, 0 };
	return 1;
}

static void
pr_title(struct view *v, char *buf, size_t n)
{
	struct view_profile *vp = v->prof;
	char sc[160];
	view_scope_text(v, vp->scope, sc, sizeof sc);
	if (vp->by_rank)
		snprintf(buf, n, "profile \u00b7 %s by %s \u00b7 %s", view_region_name(v, vp->region),
			 view_row_noun(v), sc);
	else
		snprintf(buf, n, "profile \u00b7 time by region \u00b7 %s \u00b7 %u %s%s", sc, vp->p.n_ranks,
			 view_row_noun(v), vp->p.n_ranks == 1 ? "" : "s");
}

static void
pr_prepare(struct view *v, int w, int h)
{
	struct view_profile *vp = v->prof;
	compute(v);
	int rows = h - 2 > 1 ? h - 2 : 1;
	if (vp->by_rank)
		vt_layout(&vp->rtab, &vp->rsrc, w, rows);
	else
		vt_layout(&vp->tab, &vp->src, w, rows);
}

static void
pr_row(struct view *v, int y, struct grid *row)
{
	struct view_profile *vp = v->prof;
	if (!vp->valid)
		return;
	struct vtable *t = vp->by_rank ? &vp->rtab : &vp->tab;
	const struct vt_source *s = vp->by_rank ? &vp->rsrc : &vp->src;
	int last = t->rows + 1;
	if (y == 0) {
		vt_header(t, s, row, 0);
		return;
	}
	if (y < last) {
		vt_row(t, s, y - 1, row, 0);
		if (y == 1 && t->n == 0)
			grid_text(row, 0, 0, row->w, ST_DIM, "no region was entered in this scope");
		return;
	}
	if (y != last)
		return;
	/* what Enter does, for the selected row */
	char a[32], b[32], name[VIEW_MAX_ROW_NAME + 8];
	uint32_t r = vt_selected(t);
	if (r == UINT32_MAX)
		return;
	if (vp->by_rank) {
		const struct profile_row *x = rank_row(vp, r);
		view_row_name(v, x->rank, name, sizeof name);
		grid_printf(row, 0, 0, row->w, ST_DIM, "%s: longest call %s at %s \u00b7 Enter goes there \u00b7 v regions",
			    name, fmt_seconds(sec(v, (double)x->largest), a, sizeof a),
			    fmt_time(trace_seconds(v->t, x->largest_enter), b, sizeof b));
	} else {
		const struct profile_region *x = &vp->p.regions[r];
		view_row_name(v, x->largest_tl, name, sizeof name);
		grid_printf(row, 0, 0, row->w, ST_DIM, "longest: %s on %s at %s \u00b7 Enter goes there \u00b7 v by %s",
			    fmt_seconds(sec(v, (double)x->largest), a, sizeof a), name,
			    fmt_time(trace_seconds(v->t, x->largest_enter), b, sizeof b), view_row_noun(v));
	}
}

static void
jump(struct view *v)
{
	struct view_profile *vp = v->prof;
	char what[160];
	if (vp->by_rank) {
		uint32_t r = vt_selected(&vp->rtab);
		if (r == UINT32_MAX)
			return;
		const struct profile_row *x = rank_row(vp, r);
		snprintf(what, sizeof what, "the longest %s", view_region_name(v, vp->region));
		view_jump_time(v, x->rank, x->largest_enter, what);
		return;
	}
	uint32_t r = vt_selected(&vp->tab);
	if (r == UINT32_MAX)
		return;
	const struct profile_region *x = &vp->p.regions[r];
	snprintf(what, sizeof what, "the longest %s", view_region_name(v, x->region));
	view_jump_time(v, x->largest_tl, x->largest_enter, what);
}

static int
pr_request(struct view *v, enum action act)
{
	struct view_profile *vp = v->prof;
	struct vtable *t = vp->by_rank ? &vp->rtab : &vp->tab;
	const struct vt_source *s = vp->by_rank ? &vp->rsrc : &vp->src;
	int page = t->rows > 1 ? t->rows - 1 : 1;
	switch (act) {
	case ACT_MOVE_UP: vt_move(t, -1); return 1;
	case ACT_MOVE_DOWN: vt_move(t, 1); return 1;
	case ACT_PAGE_UP: vt_move(t, -page); return 1;
	case ACT_PAGE_DOWN: vt_move(t, page); return 1;
	case ACT_FIRST_RANK: case ACT_FIRST_STEP: vt_home(t, 0); return 1;
	case ACT_LAST_RANK: case ACT_LAST_STEP: vt_home(t, 1); return 1;
	case ACT_MOVE_LEFT: case ACT_MOVE_RIGHT: case ACT_PANE_METRIC:
		vt_sort_next(t, s, act == ACT_MOVE_LEFT ? -1 : 1);
		return 1;
	case ACT_PANE_SCOPE:
		vp->scope = view_scope_next(v, vp->scope);
		return 1;
	case ACT_PANE_MODE:
		if (!vp->by_rank) {
			uint32_t r = vt_selected(&vp->tab);
			if (r == UINT32_MAX)
				return 1;
			vp->region = vp->p.regions[r].region;
			vp->by_rank = 1;
			fill_ranks(vp);
		} else {
			vp->by_rank = 0;
		}
		return 1;
	case ACT_CLUSTER_TOGGLE:
		jump(v);
		return 1;
	case ACT_CLOSE:
		if (v->big == PANE_PROFILE)
			view_big_toggle(v, PANE_PROFILE);
		return 1;
	default:
		return 0;
	}
}

/* A click on a header sorts by its column, on a row selects it (again:
 * goes there); the wheel scrolls. */
static int
pr_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	struct view_profile *vp = v->prof;
	struct vtable *t = vp->by_rank ? &vp->rtab : &vp->tab;
	const struct vt_source *s = vp->by_rank ? &vp->rsrc : &vp->src;
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN) {
		vt_move(t, kind == MOUSE_WHEEL_UP ? -3 : 3);
		return 1;
	}
	if (kind != MOUSE_LEFT)
		return 1;
	if (y == 0) {
		int c = vt_column_at(t, x);
		if (c >= 0)
			vt_sort_by(t, s, c);
		return 1;
	}
	if (y >= 1 && y <= t->rows && t->top + (uint32_t)(y - 1) < t->n) {
		uint32_t at = t->top + (uint32_t)(y - 1);
		if (at == t->sel)
			jump(v);
		else
			vt_move(t, (long)at - (long)t->sel);
	}
	return 1;
}

static const struct pane_key pr_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the region (or rank) above / below" },
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "sort by the column to the left / right" },
	{ ACT_PANE_METRIC, ACT_NONE, "sort by the next column (a click on a header: by it; again: reversed)" },
	{ ACT_PANE_MODE, ACT_NONE, "the regions, or the ranks of the selected region" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, partition, iteration, steps in view, the timeline's window" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "go to the region's longest call (on a rank: that rank's)" },
	{ ACT_NONE, ACT_NONE, NULL },
};

static const struct pane_key pr_charm_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the entry method (or chare) above / below" },
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "sort by the column to the left / right" },
	{ ACT_PANE_METRIC, ACT_NONE, "sort by the next column (a click on a header: by it; again: reversed)" },
	{ ACT_PANE_MODE, ACT_NONE, "the entry methods, or the chares of the selected one" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, phase, iteration, steps in view, the timeline's window" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "go to the entry method's longest execution" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_profile_ops = {
	.name = "profile",
	.focusable = 1,
	.title = pr_title,
	.prepare = pr_prepare,
	.row = pr_row,
	.request = pr_request,
	.mouse = pr_mouse,
	.keys_title = "In the profile (p)",
	.keys = pr_keys,
	.charm_keys = pr_charm_keys,
};
