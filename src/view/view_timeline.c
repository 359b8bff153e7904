/* view_timeline.c — the physical timeline: the grid's rows against
 * wall-clock time over the steps in the grid's window, or zoomed in time
 * on its own (+ - around the cursor, H L to pan, f the whole trace, 1
 * back to the steps; T gives it the whole screen).
 *
 * A cell is a slice of time on a row (one rank, a block of ranks, or a
 * cluster). Operations are often far shorter than a slice, so a cell
 * shows what matters in it rather than what covers most of it, as trace
 * viewers do below a pixel: the glyph of the most important kind present
 * (collective > wait > send and receive > computation, view_kinds_glyph),
 * the colour of the region that covers most of the slice, and an
 * underline when several kinds share it. The bottom line names the
 * colours' functions. The selection and its message partners are marked
 * as in the grid. Zoomed in far enough that they can be told apart, the
 * messages between the rows shown are drawn as lines (an elbow from the
 * send to the receive, over cells where no call runs), and a window of
 * time can be marked (s, or a drag) for the profile, communication and
 * lists panes; the cursor follows the grid's selection and moving it
 * selects in the grid, so the two stay linked both ways. On a row of one
 * rank, its computation inside a passive-target epoch (a lock of an RMA
 * window held) reads ═ instead of ·. Space shows the selected rank's
 * threads and GPU streams under the rows (view_rows.c). */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "model/charm.h"

static void
tl_title(struct view *v, char *buf, size_t n)
{
	uint32_t se = view_steps_end(v), locks;
	trace_epochs(v->t, &locks);
	if (v->tz) {
		char a[32], b[32];
		fmt_time(trace_seconds(v->t, v->tz_t0), a, sizeof a);
		trace_fmt_duration(v->t, v->tz_t1 - v->tz_t0, b, sizeof b);
		snprintf(buf, n, "%s · %s + %s · %s = %s%s%s", view_is_charm(v) ? "PEs" : "timeline", a, b,
			 !view_is_charm(v) && v->colourless ? "glyph" : "colour",
			 !view_is_charm(v) ? (v->colourless ? "kind" : "region") : view_pes_by_metric(v) ? view_metric_title(v->metric)
			 : "entry method", v->tl_nmsg ? " · lines = messages" : "", locks ? " \u00b7 \u2550 lock held" : "");
		return;
	}
	char steps[48] = "no steps";      /* a trace without operations */
	if (se)
		snprintf(steps, sizeof steps, "steps %u\u2013%u", v->win_step, se - 1);
	if (view_is_charm(v))
		snprintf(buf, n, "PEs \u00b7 %s \u00b7 colour = %s \u00b7 \u2581 idle", steps,
			 view_pes_by_metric(v) ? view_metric_title(v->metric) : "entry method");
	else
		snprintf(buf, n, "timeline \u00b7 %s \u00b7 %s%s", steps, v->colourless ? "glyph = kind" : "colour = region",
			 locks ? " \u00b7 \u2550 lock held" : "");
}

static uint32_t
bucket(const struct view *v, uint64_t t)
{
	uint64_t span = v->tl_t1 - v->tl_t0;
	if (t <= v->tl_t0 || span == 0)
		return 0;
	double b = (double)(t - v->tl_t0) * v->tl_w / (double)span;
	return b >= v->tl_w ? (uint32_t)v->tl_w - 1 : (uint32_t)b;
}

/* Calls fn(v, rank, ud) for every rank of timeline row y. */
static void
each_rank(struct view *v, int y, void (*fn)(struct view *, uint32_t, void *), void *ud)
{
	const uint32_t *list;
	uint32_t n, r0, r1;
	if (!view_row_ranks(v, v->tl_first + (uint32_t)y, &list, &n, &r0, &r1))
		return;
	if (list)
		for (uint32_t i = 0; i < n; i++)
			fn(v, list[i], ud);
	else
		for (uint32_t r = r0; r < r1; r++)
			fn(v, r, ud);
}

struct span_acc {
	uint32_t s0, s1;
	uint64_t t0, t1;
};

static void
rank_span(struct view *v, uint32_t r, void *ud)
{
	struct span_acc *s = ud;
	uint32_t i0 = view_index_lower(v->ix, r, s->s0), i1 = view_index_lower(v->ix, r, s->s1);
	if (i0 >= i1)
		return;
	uint64_t en = analysis_lop_enter(v->a, i0), ex = analysis_lop_exit(v->a, i1 - 1);
	s->t0 = en < s->t0 ? en : s->t0;
	s->t1 = ex > s->t1 ? ex : s->t1;
}

/* The lops of the ranks of a row within the time axis. */
struct lops_acc {
	uint64_t n;
	uint32_t ranks;
};

static void
count_lops(struct view *v, uint32_t r, void *ud)
{
	struct lops_acc *la = ud;
	uint32_t i0 = view_index_lop_at_time(v->ix, r, v->tl_t0), i1 = view_index_lop_at_time(v->ix, r, v->tl_t1);
	if (i0 != TRACE_NONE && i1 != TRACE_NONE && i1 > i0)
		la->n += i1 - i0;
	la->ranks++;
}

/* One row's cells, filled rank by rank. */
struct row_acc {
	uint32_t s0, s1;
	struct tlcell *out;
	struct tl_cov cov;
	int blocks;                    /* claim by blocks where they fit (tl_claim_block) */
	uint64_t blocks_used;          /* how many were (tests: v->tl_blk_used) */
};

/* Cell b's span of the time axis, [*lo, *hi). */
static void
cell_span(const struct view *v, uint32_t b, double *lo, double *hi)
{
	double per = (double)(v->tl_t1 - v->tl_t0) / v->tl_w;
	*lo = (double)v->tl_t0 + b * per;
	*hi = *lo + per;
}

/* A claim on cell b of out (what the claims so far left in cov): kinds;
 * dom, covering dom_ov; top, with the key of its kind rank and coverage
 * (view_tl_top_key). The dom covers most, the first of those; the top is
 * of the highest kind, then covers most, the first of those. A lop's
 * claim is all its own; a block's (tl_claim_block) its lops' together. */
static void
cell_take(struct tlcell *out, struct tl_cov *cov, uint32_t b, uint8_t kinds, uint32_t dom, uint64_t dom_ov,
	  uint32_t top, uint64_t top_key)
{
	struct tlcell *c = &out[b];
	c->kinds |= kinds;
	if (dom_ov > cov->dom[b]) {
		cov->dom[b] = dom_ov;
		c->dom = dom;
	}
	if (top_key > cov->top[b]) {
		cov->top[b] = top_key;
		c->top = top;
	}
}

int
view_tl_cov_alloc(struct tl_cov *c, int cw)
{
	size_t n = cw > 0 ? (size_t)cw : 1;
	c->top = calloc(n, sizeof *c->top);
	c->dom = calloc(n, sizeof *c->dom);
	c->hot = calloc(n, sizeof *c->hot);
	if (c->top && c->dom && c->hot)
		return 1;
	view_tl_cov_free(c);
	return 0;
}

void
view_tl_cov_free(struct tl_cov *c)
{
	free(c->top);
	free(c->dom);
	free(c->hot);
	c->top = c->dom = c->hot = NULL;
}

void
view_tl_claim(struct view *v, struct tlcell *out, struct tl_cov *cov, uint32_t i)
{
	uint64_t en = analysis_lop_enter(v->a, i), ex = analysis_lop_exit(v->a, i);
	if (ex < v->tl_t0 || en > v->tl_t1)
		return;           /* start-up before the time axis, or after it */
	int kind = analysis_lop_kind(v->a, i), rank = view_kind_rank(kind), hot = view_pes_by_metric(v);
	uint64_t val = hot ? view_index_value(v->ix, v->metric, i) : 0;
	for (uint32_t b = bucket(v, en), be = bucket(v, ex); b <= be; b++) {
		double lo, hi;
		cell_span(v, b, &lo, &hi);
		double a = (double)en > lo ? (double)en : lo, z = (double)ex < hi ? (double)ex : hi;
		/* +1 so an instant still claims an empty cell */
		uint64_t ov = (uint64_t)(z > a ? z - a : 0) + 1;
		cell_take(out, cov, b, (uint8_t)(1u << kind), i, ov, i, view_tl_top_key(rank, ov));
		if (hot && (out[b].hot == TRACE_NONE || val > cov->hot[b])) {
			out[b].hot = i;
			cov->hot[b] = val;
		}
	}
}

/* Claims the cells of lops [i, i + the block size) of a rank whose first lop
 * is first at once, when they are one of its blocks and fall in one
 * cell, whose claims are then the block's (tl_block); 0 otherwise. */
static int
tl_claim_block(struct view *v, struct tlcell *out, struct tl_cov *cov, uint32_t first, uint32_t blk0, uint32_t i)
{
	uint32_t B = v->tlb.size;
	if ((i - first) % B)
		return 0;
	return view_tl_claim_block(v, out, cov, &v->tlb.blk[blk0 + (i - first) / B],
				   analysis_lop_enter(v->a, i), analysis_lop_enter(v->a, i + B - 1)) >= 0;
}

int
view_tl_claim_block(struct view *v, struct tlcell *out, struct tl_cov *cov, const struct tl_block *k,
		    uint64_t en, uint64_t en_last)
{
	if (!k->ordered)
		return -1;
	if (en < v->tl_t0 || en_last > v->tl_t1)
		return -1;
	uint32_t b = bucket(v, en);
	double lo, hi;
	cell_span(v, b, &lo, &hi);
	if (bucket(v, k->ex_max) != b || (double)en < lo || (double)k->ex_max > hi)
		return -1;
	cell_take(out, cov, b, k->kinds, k->dom, k->dom_ov, k->top, view_tl_top_key(k->top_rank, k->top_ov));
	return (int)b;
}

int
view_pes_by_metric(const struct view *v)
{
	return view_is_charm(v) && view_metric_numeric(v->metric);
}

/* Claims the cells of rank r's lops from i while they are before end
 * (and, in_time, entered before the time axis ends): by blocks where
 * they fit, else lop by lop. */
static void
claim_run(struct view *v, struct row_acc *acc, uint32_t r, uint32_t i, uint32_t end, int in_time)
{
	uint32_t first, rank_end;
	view_index_rank_lops(v->ix, r, &first, &rank_end);
	uint32_t blk0 = acc->blocks ? v->tlb.first[r] : 0;
	while (i < end && (!in_time || analysis_lop_enter(v->a, i) <= v->tl_t1)) {
		if (acc->blocks && end - i >= v->tlb.size &&
		    tl_claim_block(v, acc->out, &acc->cov, first, blk0, i)) {
			acc->blocks_used++;
			i += v->tlb.size;
			continue;
		}
		view_tl_claim(v, acc->out, &acc->cov, i);
		i++;
	}
}

static void
rank_cells(struct view *v, uint32_t r, void *ud)
{
	struct row_acc *acc = ud;
	claim_run(v, acc, r, view_index_lower(v->ix, r, acc->s0), view_index_lower(v->ix, r, acc->s1), 0);
}

/* A rank's operations that overlap the zoomed span. */
static void
rank_cells_time(struct view *v, uint32_t r, void *ud)
{
	struct row_acc *acc = ud;
	uint32_t first, end;
	view_index_rank_lops(v->ix, r, &first, &end);
	uint32_t i = view_index_lop_at_time(v->ix, r, v->tl_t0);
	if (i == TRACE_NONE)
		return;
	claim_run(v, acc, r, i > first ? i - 1 : first, end, 1);
}

/* ---- message lines ---- */

/* The column of time t, -1 before the span and tl_w after it. */
static int
column(const struct view *v, uint64_t t)
{
	return t < v->tl_t0 ? -1 : t > v->tl_t1 ? (int)v->tl_w : (int)bucket(v, t);
}

/* An elbow from (x0, y0) to (x1, y1) turning at column xm (the middle
 * of the message's times): along the sender's row, down or up, along
 * the receiver's row; the columns outside the span (-1, cw) are not
 * drawn, so a message in flight across an edge turns where it turned,
 * not half way from the edge. The turn and the rows crossed are drawn
 * over anything; the runs along a row only where no call runs, so that
 * the calls stay readable. */
static void
line(struct view *v, int cw, int x0, int y0, int xm, int x1, int y1)
{
	int dn = y1 > y0;
	uint32_t *g = v->tl_msg;
#define PUT(x, y, ch, over) do { \
		if ((x) >= 0 && (x) < cw) { \
			const struct tlcell *c_ = &v->tl[(size_t)(y) * (size_t)cw + (size_t)(x)]; \
			if (over || c_->top == TRACE_NONE || !(c_->kinds & ~1u)) \
				g[(size_t)(y) * (size_t)cw + (size_t)(x)] = (ch); \
		} \
	} while (0)
	for (int x = x0 + 1; x < xm; x++)
		PUT(x, y0, 0x2500, 0);
	if (xm > x0 && xm < x1) {
		PUT(xm, y0, dn ? 0x256e : 0x256f, 1);      /* ╮ ╯ */
		PUT(xm, y1, dn ? 0x2570 : 0x256d, 1);      /* ╰ ╭ */
	}
	for (int y = (dn ? y0 : y1) + 1; y < (dn ? y1 : y0); y++)
		PUT(xm, y, 0x2502, 1);
	for (int x = xm + 1; x < x1; x++)
		PUT(x, y1, 0x2500, 0);
#undef PUT
}

struct msg_acc {
	int *row_of;                 /* rank -> row shown, or -1 */
	int cw, rows;
	uint32_t n, max;
	int over;                    /* more than max: too many to draw */
	uint32_t *list;              /* the messages found (at most max) */
};

static void
rank_msgs(struct view *v, uint32_t r, void *ud)
{
	struct msg_acc *m = ud;
	uint32_t first, end, nm;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	view_index_rank_lops(v->ix, r, &first, &end);
	/* sends up to the view's end whose receive is in view or after it:
	 * from a little before the view (a message in flight across it) */
	uint32_t i = view_index_lop_at_time(v->ix, r, v->tl_t0);
	if (i == TRACE_NONE || m->over)
		return;
	for (uint32_t back = 0; back < 8 && i > first; back++)
		i--;
	for (; i < end && analysis_lop_enter(v->a, i) <= v->tl_t1 && !m->over; i++) {
		uint32_t op0, nops;
		analysis_lop_ops(v->a, i, &op0, &nops);
		for (uint32_t op = op0; op < op0 + nops; op++) {
			uint32_t ne;
			const struct trace_end *e = trace_op_ends(v->t, op, &ne);
			for (uint32_t k = 0; k < ne; k++) {
				if (e[k].role != END_SEND || e[k].id >= nm)
					continue;
				const struct trace_msg *x = &msgs[e[k].id];
				if (x->recv_op == TRACE_NONE || x->t_send > v->tl_t1 || x->t_recv < v->tl_t0 ||
				    m->row_of[x->receiver] < 0 || m->row_of[x->receiver] == m->row_of[x->sender])
					continue;
				if (m->n == m->max) {
					m->over = 1;
					return;
				}
				m->list[m->n++] = e[k].id;
			}
		}
	}
}

/* rank r is on the row being marked (m->rows) */
static void
mark_row(struct view *v, uint32_t r, void *ud)
{
	struct msg_acc *m = ud;
	(void)v;
	m->row_of[r] = m->rows;
}

/* The lines of the messages between the rows shown, when few enough to
 * be read (at most one for every 12 cells). */
static void
collect_msgs(struct view *v, int rows, int cw)
{
	v->tl_nmsg = 0;
	size_t need = (size_t)cw * (size_t)rows;
	if (need > v->tl_msg_cap) {
		uint32_t *p = realloc(v->tl_msg, need * sizeof *p);
		if (!p)
			return;
		v->tl_msg = p;
		v->tl_msg_cap = need;
	}
	memset(v->tl_msg, 0, need * sizeof *v->tl_msg);
	if (view_is_charm(v) || !v->tz)
		return;
	uint32_t nr = view_index_ranks(v->ix);
	struct msg_acc m = { malloc(((size_t)nr + 1) * sizeof(int)), cw, 0, 0, (uint32_t)(need / 12), 0, NULL };
	m.list = malloc(((size_t)m.max + 1) * sizeof *m.list);
	if (!m.row_of || !m.list) {
		free(m.row_of);
		free(m.list);
		return;
	}
	for (uint32_t r = 0; r < nr; r++)
		m.row_of[r] = -1;
	for (int y = 0; y < rows; y++) {
		m.rows = y;
		each_rank(v, y, mark_row, &m);
	}
	for (int y = 0; y < rows && !m.over; y++)
		each_rank(v, y, rank_msgs, &m);
	if (!m.over) {
		uint32_t nm;
		const struct trace_msg *msgs = trace_msgs(v->t, &nm);
		for (uint32_t i = 0; i < m.n; i++) {
			const struct trace_msg *x = &msgs[m.list[i]];
			uint64_t mid = x->t_send / 2 + x->t_recv / 2 + (x->t_send & x->t_recv & 1);
			line(v, cw, column(v, x->t_send), m.row_of[x->sender], column(v, mid), column(v, x->t_recv),
			     m.row_of[x->receiver]);
		}
		v->tl_nmsg = m.n;
	}
	free(m.row_of);
	free(m.list);
}

/* The cursor follows the grid's selection; zoomed in, the span pans to
 * keep it in view. */
static void
follow_selection(struct view *v)
{
	if (v->sel_lop == v->tz_sel || v->sel_lop == TRACE_NONE)
		return;
	v->tz_sel = v->sel_lop;
	v->tz_cur = analysis_lop_enter(v->a, v->sel_lop);
	if (v->tz && (v->tz_cur < v->tz_t0 || v->tz_cur >= v->tz_t1)) {
		uint64_t span = v->tz_t1 - v->tz_t0;
		v->tz_t0 = v->tz_cur > span / 2 ? v->tz_cur - span / 2 : 0;
		v->tz_t1 = v->tz_t0 + span;
	}
}

/* The grid's label column: the rows line up with the grid's. */
static int
tl_label_w(const struct view *v)
{
	return v->label_w;
}

struct rows_job {
	struct view *v;
	uint32_t s0, s1;
	int rows, cw, any;
	int blocks;
};

/* Worker wi's share of the timeline's rows. */
static int
rows_work(void *ctx, uint32_t wi, uint32_t nw)
{
	struct rows_job *j = ctx;
	uint32_t y0, y1;
	par_share((uint32_t)j->rows, wi, nw, &y0, &y1);
	if (y0 >= y1)
		return 0;
	struct row_acc acc = { .s0 = j->s0, .s1 = j->s1, .blocks = j->blocks };
	if (!view_tl_cov_alloc(&acc.cov, j->cw))
		return ERR_NOMEM;
	for (uint32_t y = y0; y < y1; y++) {
		acc.out = &j->v->tl[(size_t)y * (size_t)j->cw];
		for (int x = 0; x < j->cw; x++) {
			acc.out[x] = (struct tlcell){ TRACE_NONE, TRACE_NONE, TRACE_NONE, 0 };
			acc.cov.top[x] = acc.cov.dom[x] = 0;
		}
		if (j->any)
			each_rank(j->v, (int)y, j->v->tz ? rank_cells_time : rank_cells, &acc);
	}
	if (acc.blocks_used)
		__atomic_fetch_add(&j->v->tl_blk_used, acc.blocks_used, __ATOMIC_RELAXED);
	view_tl_cov_free(&acc.cov);
	return 0;
}

static void
tl_prepare(struct view *v, int w, int h)
{
	/* the time axis, the rows, the legend when there is room for it */
	int lw = tl_label_w(v), cw = w - lw, rows = h - 2 >= 1 ? h - 2 : h - 1;
	if (cw < 1 || rows < 1) {
		v->tl_valid = 0;          /* nothing to draw: rows must not use the old width */
		return;
	}
	/* a row more before the legend: one row short of the grid's, the
	 * timeline gives up its legend (the title says colour = region)
	 * rather than a rank */
	view_tl_place_rows(v, 1 << 20);           /* every row it would show */
	if (v->tl_rows == h - 1 && h - 1 >= 1)
		rows = h - 1;
	view_tl_layout(v, rows);
	rows = v->tl_rows;
	follow_selection(v);
	uint32_t s0 = v->win_step, s1 = view_steps_end(v);
	uint64_t gen = v->clustered ? 1 + (uint64_t)view_cluster_generation(v->vc) : 0;
	uint64_t key[12] = { v->tl_first, (uint64_t)rows, s0, s1, (uint64_t)cw, v->zr, gen, (uint64_t)lw,
			     (uint64_t)view_index_startup(v->ix) | (uint64_t)v->tz << 1 | (uint64_t)v->f_gen << 2,
			     v->tz ? v->tz_t0 : 0, v->tz ? v->tz_t1 : 0,
			     (view_pes_by_metric(v) || v->tl_nlane ? 1 + (uint64_t)v->metric : 0) ^
			     v->tl_map_hash << 8 };
	if (v->tl_valid && memcmp(key, v->tl_key, sizeof key) == 0)
		return;
	size_t need = (size_t)cw * (size_t)(rows > 0 ? rows : 1);
	if (need > v->tl_cap) {
		struct tlcell *p = realloc(v->tl, need * sizeof *p);
		if (!p) {
			v->tl_valid = 0;
			return;
		}
		v->tl = p;
		v->tl_cap = need;
	}
	if (view_is_charm(v)) {
		v->tl_valid = view_pes_fill(v, rows, cw, v->tl_first) == 0;
		v->tl_nmsg = 0;
		memcpy(v->tl_key, key, sizeof key);
		return;
	}
	/* time range of the window on the rows shown, or the zoomed span */
	struct span_acc sp = { s0, s1, UINT64_MAX, 0 };
	if (v->tz) {
		sp.t0 = v->tz_t0;
		sp.t1 = v->tz_t1;
	} else {
		for (int y = 0; y < rows; y++)
			each_rank(v, y, rank_span, &sp);
		if (sp.t0 > sp.t1 && v->tl_nlane)     /* no operation: a program without MPI */
			sp.t0 = trace_info(v->t)->t_begin, sp.t1 = trace_info(v->t)->t_end;
		if (sp.t0 > sp.t1)
			sp.t0 = sp.t1 = 0;
		/* the time axis starts where the first rank left its start-up,
		 * unless start-up is counted */
		uint64_t se = view_index_startup(v->ix) ? 0 : analysis_startup_end(v->a);
		if (sp.t0 < se && se < sp.t1)
			sp.t0 = se;
	}
	v->tl_t0 = sp.t0;
	v->tl_t1 = sp.t1;
	v->tl_w = cw;
	/* the rows on every core: each its own cells (the whole trace at
	 * 10^7 events, every operation claiming its cells: 20 ms on one) */
	struct rows_job rj = { v, s0, s1, rows, cw, sp.t1 > sp.t0, 0 };
	/* by blocks when the cells hold many lops (the first row's ranks
	 * have two blocks' worth a cell) or the blocks are there already */
	if (!view_pes_by_metric(v) && sp.t1 > sp.t0) {
		struct lops_acc la = { 0 };
		if (!v->tlb.blk)
			each_rank(v, 0, count_lops, &la);
		if (v->tlb.blk || la.n >= (uint64_t)2 * v->tlb.size * (uint64_t)cw * (la.ranks ? la.ranks : 1))
			rj.blocks = view_tl_blocks(v);
	}
	if (par_run(par_workers(), rows_work, &rj)) {
		v->tl_valid = 0;
		return;
	}
	collect_msgs(v, rows, cw);
	memcpy(v->tl_key, key, sizeof key);
	v->tl_valid = view_tl_lane_cells(v, cw) == 0;
}

/* Does row r hold a rank :ranks keeps? */
static int
row_kept(const struct view *v, uint32_t row)
{
	const uint32_t *list;
	uint32_t n, r0, r1;
	if (!view_row_ranks(v, row, &list, &n, &r0, &r1))
		return 1;
	for (uint32_t i = 0; list && i < n; i++)
		if (view_rank_kept(v, list[i]))
			return 1;
	for (uint32_t r = r0; !list && r < r1; r++)
		if (view_rank_kept(v, r))
			return 1;
	return 0;
}

/* Is the selected operation on timeline row y? */
static int
sel_on_row(const struct view *v, int y)
{
	if (v->sel_lop == TRACE_NONE)
		return 0;
	return v->tl_first + (uint32_t)y == (view_is_charm(v) ? analysis_lop_pe(v->a, v->sel_lop)
							     : view_row_selected(v));
}

static void
tl_row(struct view *v, int y, struct grid *row)
{
	if (!v->tl_valid)
		return;
	int lw = tl_label_w(v), cw = v->tl_w;
	char a[48], b[48];
	if (y == 0) {
		fmt_time(trace_seconds(v->t, v->tl_t0), a, sizeof a);
		grid_text(row, lw, 0, cw, ST_LABEL, a);
		trace_fmt_duration(v->t, v->tl_t1 - v->tl_t0, b, sizeof b);
		char c[64];
		snprintf(c, sizeof c, "+%s", b);
		int n = text_width(c);
		if (lw + text_width(a) + 2 + n <= row->w)
			grid_text(row, row->w - n, 0, n, ST_LABEL, c);
		/* the cursor, where it leaves the labels readable */
		int cx = lw + (int)bucket(v, v->tz_cur);
		if (v->tz && v->tz_cur >= v->tl_t0 && v->tz_cur <= v->tl_t1 &&
		    cx > lw + text_width(a) && cx < row->w - n - 1)
			grid_put(row, cx, 0, 0x25be, ST_EMPH);     /* ▾ */
		if (v->tsel_anchor && v->tsel0 >= v->tl_t0 && v->tsel0 <= v->tl_t1)
			grid_put(row, lw + (int)bucket(v, v->tsel0), 0, '[', ST_EMPH);
		return;
	}
	y -= 1;
	if (y < (int)v->tl_nmap && v->tl_map[y] < 0)
		view_tl_lane_row(v, (uint32_t)(-1 - v->tl_map[y]), row, lw);
	else if (y == (int)v->tl_nmap) {  /* the legend: which colour is which function */
		if (view_pes_by_metric(v))
			view_draw_scale(v, row, lw, 0, row->w - lw);
		else if (v->colourless && !view_is_charm(v))
			view_kinds_legend(row, lw, 0, row->w - lw);
		else
			view_region_legend(v, row, lw, 0, row->w - lw, GRID_CATS);
		return;
	}
	if (y >= (int)v->tl_nmap || v->tl_map[y] < 0)
		return;
	y = v->tl_map[y];
	uint32_t r = v->tl_first + (uint32_t)y;
	if (view_is_charm(v)) {
		grid_printf(row, 0, 0, lw - 1, r == view_tl_pe_selected(v) ? ST_EMPH : ST_LABEL, "PE%u", r);
	} else {
		view_row_label(v, r, a, sizeof a);
		grid_text(row, 0, 0, lw - 1, r == view_row_selected(v) ? ST_EMPH : ST_LABEL, a);
	}
	const struct tlcell *cells = &v->tl[(size_t)y * (size_t)cw];
	const uint32_t *msg = v->tl_nmsg ? &v->tl_msg[(size_t)y * (size_t)cw] : NULL;
	uint64_t w0, w1;
	int win = view_time_selection(v, &w0, &w1);
	int dim = !view_is_charm(v) && v->f_ranks && !row_kept(v, r);
	/* a one-rank row's passive-target epochs (by begin) */
	const struct trace_epoch *ep = NULL;
	uint32_t e0 = 0, ne = 0;
	const uint32_t *list;
	uint32_t nl, q0, q1;
	if (!view_is_charm(v) && trace_epochs(v->t, NULL) &&
	    view_row_ranks(v, r, &list, &nl, &q0, &q1) && (list ? nl == 1 : q1 == q0 + 1)) {
		ne = trace_tl_epochs(v->t, list ? list[0] : q0, &e0);
		ep = trace_epochs(v->t, NULL) + e0;
	}
	for (int x = 0; x < cw; x++) {
		const struct tlcell *t = &cells[x];
		struct cell *c = &row->cells[lw + x];
		int locked = 0;
		if (ne && t->top != TRACE_NONE && t->top != VIEW_TL_IDLE && t->kinds == 1u << OP_COMPUTE) {
			uint64_t lo = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * x / cw);
			uint64_t hi = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * (x + 1) / cw);
			for (uint32_t i = 0; i < ne && ep[i].t_begin < hi && !locked; i++)
				locked = ep[i].t_end > lo;
		}
		if (win) {
			uint64_t lo = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * x / cw);
			uint64_t hi = v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * (x + 1) / cw);
			if (hi > w0 && lo < w1)
				c->mark |= MARK_WINDOW;
		}
		if (msg && msg[x]) {
			c->ch = msg[x];
			c->style = ST_EMPH;
		}
		if (t->top == TRACE_NONE)
			continue;
		if (msg && msg[x])
			continue;
		if (t->top == VIEW_TL_IDLE) {       /* a PE's idle time (Charm++) */
			c->ch = 0x2581;
			c->style = ST_DIM;
			continue;
		}
		c->ch = locked ? 0x2550 : view_kinds_glyph(t->kinds);
		/* a PE's cell coloured by a metric shows its hot lop's level,
		 * else its dom's function */
		if (dim)
			c->style = ST_DIM;
		else if (t->hot != TRACE_NONE && view_pes_by_metric(v))
			c->style = (uint8_t)(ST_HEAT0 + view_index_level(v->ix, v->metric,
									 view_index_value(v->ix, v->metric, t->hot)));
		else
			c->style = (uint8_t)(ST_CAT0 + view_index_category(v->ix, METRIC_FUNCTION, t->dom));
		if (t->kinds & (t->kinds - 1))
			c->mark |= MARK_MIXED;
		if (t->top == v->sel_lop || t->dom == v->sel_lop)
			c->mark |= MARK_SEL;
		else if (v->n_partners && (view_is_partner(v, t->top) || view_is_partner(v, t->dom)))
			c->mark |= MARK_PARTNER;
	}
	/* a short selected operation still shows where it starts */
	if (sel_on_row(v, y)) {
		uint64_t en = analysis_lop_enter(v->a, v->sel_lop);
		if (en >= v->tl_t0 && en <= v->tl_t1) {
			struct cell *c = &row->cells[lw + (int)bucket(v, en)];
			c->ch = view_kind_glyph(analysis_lop_kind(v->a, v->sel_lop));
			c->style = view_pes_by_metric(v)
				? (uint8_t)(ST_HEAT0 + view_index_level(v->ix, v->metric,
									view_index_value(v->ix, v->metric, v->sel_lop)))
				: (uint8_t)(ST_CAT0 + view_index_category(v->ix, METRIC_FUNCTION, v->sel_lop));
			c->mark |= MARK_SEL;
		}
	}
}

/* Charm++: left and right go along the selected operation's PE in time,
 * up and down to the operation running on the PE above or below. */
static int
pe_request(struct view *v, enum action act)
{
	uint32_t cur = v->sel_lop, nx;
	if (cur == TRACE_NONE)
		return 0;
	uint32_t pe = analysis_lop_pe(v->a, cur), n = view_pe_rows(v);
	switch (act) {
	case ACT_MOVE_LEFT:
	case ACT_MOVE_RIGHT:
		if ((nx = view_pe_step(v, cur, act == ACT_MOVE_LEFT ? -1 : 1)) != TRACE_NONE)
			view_jump_lop(v, nx);
		return 1;
	case ACT_MOVE_UP:
	case ACT_MOVE_DOWN: {
		long p = (long)pe + (act == ACT_MOVE_UP ? -1 : 1);
		if (p < 0 || p >= (long)n)
			return 1;
		if ((nx = view_pe_lop_at(v, (uint32_t)p, analysis_lop_enter(v->a, cur))) != TRACE_NONE)
			view_jump_lop(v, nx);
		return 1;
	}
	default:
		return 0;
	}
}

/* ---- zoom in time ---- */

static void
tz_start(struct view *v)
{
	if (v->tz)
		return;
	v->tz = 1;
	v->tz_t0 = v->tl_t0;
	v->tz_t1 = v->tl_t1 > v->tl_t0 ? v->tl_t1 : v->tl_t0 + 1;
	if (v->tz_cur < v->tz_t0 || v->tz_cur > v->tz_t1)
		v->tz_cur = v->sel_lop != TRACE_NONE ? analysis_lop_enter(v->a, v->sel_lop) : v->tz_t0;
}

/* The span scaled by f around time c, kept within the trace, at least a
 * tick a column. */
static void
tz_scale(struct view *v, uint64_t c, double f)
{
	const struct trace_info *ti = trace_info(v->t);
	tz_start(v);
	double span = (double)(v->tz_t1 - v->tz_t0), ns = span * f;
	double min = v->tl_w > 0 ? v->tl_w : 1, max = (double)(ti->t_end - ti->t_begin) + 1;
	ns = ns < min ? min : ns > max ? max : ns;
	if (ns == span) {
		view_set_message(v, 0, f < 1 ? "the timeline shows single ticks already"
				 : "the timeline shows the whole trace already");
		return;
	}
	/* c keeps its place on the axis */
	double rel = span > 0 ? ((double)c - (double)v->tz_t0) / span : 0.5;
	rel = rel < 0 ? 0 : rel > 1 ? 1 : rel;
	double t0 = (double)c - rel * ns;
	if (t0 < (double)ti->t_begin)
		t0 = (double)ti->t_begin;
	if (t0 + ns > (double)ti->t_end + 1)
		t0 = (double)ti->t_end + 1 - ns;
	v->tz_t0 = t0 > 0 ? (uint64_t)t0 : 0;
	v->tz_t1 = v->tz_t0 + (uint64_t)ns;
	char d[32];
	view_set_message(v, 0, "the timeline shows %s (%s a column)",
			 trace_fmt_duration(v->t, v->tz_t1 - v->tz_t0, d, sizeof d),
			 fmt_seconds(ns / (double)ti->ticks_per_second / (v->tl_w > 0 ? v->tl_w : 1),
				     (char[32]){ 0 }, 32));
}

static void
tz_pan(struct view *v, int dir)
{
	const struct trace_info *ti = trace_info(v->t);
	tz_start(v);
	uint64_t span = v->tz_t1 - v->tz_t0, step = span / 2 ? span / 2 : 1;
	if (dir < 0)
		v->tz_t0 = v->tz_t0 > ti->t_begin + step ? v->tz_t0 - step : ti->t_begin;
	else
		v->tz_t0 = v->tz_t0 + step + span <= ti->t_end + 1 ? v->tz_t0 + step
			: (ti->t_end + 1 > span ? ti->t_end + 1 - span : 0);
	v->tz_t1 = v->tz_t0 + span;
	/* the cursor stays in view: the operation there is selected */
	uint64_t c = v->tz_t0 + span / 2;
	uint32_t l = view_index_lop_at_time(v->ix, v->sel_rank, c);
	v->tz_cur = c;
	if (l != TRACE_NONE) {
		view_jump_lop(v, l);
		v->tz_sel = v->sel_lop;
	}
}

/* s: the window's first end at the cursor, then its second. */
static void
tz_mark(struct view *v)
{
	uint64_t c = v->tz_cur;
	if (!v->tsel_anchor) {
		v->tsel_anchor = 1;
		v->tsel0 = c;
		v->tsel1 = 0;
		view_set_message(v, 0, "window from %s: move, then s again for its end (x drops it)",
				 fmt_time(trace_seconds(v->t, c), (char[32]){ 0 }, 32));
		return;
	}
	v->tsel_anchor = 0;
	uint64_t a = v->tsel0 < c ? v->tsel0 : c, b = v->tsel0 < c ? c : v->tsel0;
	if (b == a)
		b = a + 1;
	v->tsel0 = a;
	v->tsel1 = b;
	v->tsel_gen++;
	char x[32], y[32], d[32];
	fmt_times(trace_seconds(v->t, a), trace_seconds(v->t, b), x, y, sizeof x);
	view_set_message(v, 0, "window %s to %s (%s): w in p, a and i takes it; :window %s %s filters every pane",
			 x, y, trace_fmt_duration(v->t, b - a, d, sizeof d), x, y);
}

static int
tz_request(struct view *v, enum action act)
{
	const struct trace_info *ti = trace_info(v->t);
	switch (act) {
	case ACT_ZOOM_IN: case ACT_ZOOM_OUT:
		tz_scale(v, v->tz_cur, act == ACT_ZOOM_IN ? 0.5 : 2.0);
		return 1;
	case ACT_PAGE_LEFT: case ACT_PAGE_RIGHT:
		tz_pan(v, act == ACT_PAGE_LEFT ? -1 : 1);
		return 1;
	case ACT_ZOOM_FIT:
		v->tz = 1;
		v->tz_t0 = ti->t_begin;
		v->tz_t1 = ti->t_end + 1;
		view_set_message(v, 0, "the timeline shows the whole trace (1: the steps in view)");
		return 1;
	case ACT_ZOOM_RESET:
		v->tz = 0;
		view_set_message(v, 0, "the timeline follows the steps in view");
		return 1;
	case ACT_SELECT_MARK:
		tz_mark(v);
		return 1;
	case ACT_SELECT_CLEAR:
		v->tsel0 = v->tsel1 = 0;
		v->tsel_anchor = 0;
		view_set_message(v, 0, "no window of time marked");
		return 1;
	default:
		return 0;
	}
}

static int
tl_request(struct view *v, enum action act)
{
	if (tz_request(v, act))
		return 1;
	if (view_is_charm(v))
		return pe_request(v, act);
	if (act == ACT_CLUSTER_TOGGLE && trace_lanes(v->t, NULL))
		return view_tl_lanes_toggle(v);
	if (act == ACT_CLUSTER_TOGGLE && !v->clustered) {
		/* Space opens a process's threads and streams: this trace has
		 * none (rows of clusters: Space is theirs) */
		view_set_message(v, 0, "rank %u's process has no threads or GPU streams", v->sel_rank);
		return 1;
	}
	uint32_t first, end;
	view_index_rank_lops(v->ix, v->sel_rank, &first, &end);
	uint32_t cur = v->sel_lop;
	if (cur == TRACE_NONE || analysis_lop_timeline(v->a, cur) != v->sel_rank)
		cur = view_index_lower(v->ix, v->sel_rank, v->sel_step);
	if (cur >= end)
		cur = end > first ? end - 1 : TRACE_NONE;
	if (cur == TRACE_NONE)
		return 0;
	uint32_t nr = view_index_ranks(v->ix);
	switch (act) {
	case ACT_MOVE_LEFT:
		if (cur > first)
			view_jump_lop(v, cur - 1);
		else
			view_set_message(v, 0, "the first operation of rank %u", v->sel_rank);
		return 1;
	case ACT_MOVE_RIGHT:
		if (cur + 1 < end)
			view_jump_lop(v, cur + 1);
		else
			view_set_message(v, 0, "the last operation of rank %u", v->sel_rank);
		return 1;
	case ACT_MOVE_UP:
	case ACT_MOVE_DOWN: {
		long r = (long)v->sel_rank + (act == ACT_MOVE_UP ? -1 : 1);
		if (r < 0 || r >= (long)nr)
			return 1;
		uint32_t l = view_index_lop_at_time(v->ix, (uint32_t)r, analysis_lop_enter(v->a, cur));
		if (l != TRACE_NONE)
			view_jump_lop(v, l);
		return 1;
	}
	default:
		return 0;
	}
}

/* The time at column x of the axis. */
static uint64_t
time_at(const struct view *v, int x)
{
	return v->tl_t0 + (uint64_t)((double)(v->tl_t1 - v->tl_t0) * (x + 0.5) / (v->tl_w > 0 ? v->tl_w : 1));
}

/* A click selects what the cell shows; a drag marks a window of time;
 * the wheel zooms around the pointer. */
static int
tl_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	int lw = tl_label_w(v);
	if (!v->tl_valid)
		return 0;
	if (kind == MOUSE_RELEASE) {
		int x0 = (int)bucket(v, v->tsel0);
		v->tz_drag = 0;
		x = x < lw ? lw : x - lw >= v->tl_w ? lw + v->tl_w - 1 : x;
		if (x - lw == x0)
			return 1;        /* a click, not a drag */
		v->tsel_anchor = 1;
		v->tz_cur = time_at(v, x - lw);
		tz_mark(v);
		return 1;
	}
	if ((kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN) && x >= lw && x - lw < v->tl_w) {
		tz_scale(v, time_at(v, x - lw), kind == MOUSE_WHEEL_UP ? 0.5 : 2.0);
		return 1;
	}
	if (kind != MOUSE_LEFT)
		return 0;
	if (y < 1 || y > (int)v->tl_nmap || v->tl_map[y - 1] < 0 || x < lw || x - lw >= v->tl_w)
		return 1;
	const struct tlcell *t = &v->tl[(size_t)v->tl_map[y - 1] * (size_t)v->tl_w + (size_t)(x - lw)];
	v->tz_cur = time_at(v, x - lw);
	v->tz_drag = 1;
	v->tsel0 = v->tz_cur;
	if (t->top != TRACE_NONE && t->top != VIEW_TL_IDLE) {
		view_jump_lop(v, t->top);
		v->tz_sel = v->sel_lop;       /* the cursor stays where the click was */
	}
	return 1;
}

static const struct pane_key tl_keys[] = {
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "the previous / next operation of the rank in time" },
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the operation running at the same time on the rank above / below" },
	{ ACT_ZOOM_IN, ACT_ZOOM_OUT, "zoom in / out in time around the cursor (the wheel: around the pointer)" },
	{ ACT_PAGE_LEFT, ACT_PAGE_RIGHT, "pan half a screen earlier / later" },
	{ ACT_ZOOM_FIT, ACT_ZOOM_RESET, "the whole trace / back to the steps in view" },
	{ ACT_SELECT_MARK, ACT_SELECT_CLEAR, "mark a window of time at the cursor (again: its end; a drag too) / drop it" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "open / close the selected rank's process: its threads and GPU streams under its row" },
	{ ACT_NONE, ACT_NONE, NULL },
};

/* a Charm++ run's physical timeline has a row per PE */
static const struct pane_key tl_charm_keys[] = {
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "the previous / next execution of the PE in time" },
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the execution running at the same time on the PE above / below" },
	{ ACT_ZOOM_IN, ACT_ZOOM_OUT, "zoom in / out in time around the cursor (the wheel: around the pointer)" },
	{ ACT_PAGE_LEFT, ACT_PAGE_RIGHT, "pan half a screen earlier / later" },
	{ ACT_ZOOM_FIT, ACT_ZOOM_RESET, "the whole trace / back to the steps in view" },
	{ ACT_SELECT_MARK, ACT_SELECT_CLEAR, "mark a window of time at the cursor (again: its end; a drag too) / drop it" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_timeline_ops = {
	.name = "timeline",
	.focusable = 1,
	.title = tl_title,
	.prepare = tl_prepare,
	.row = tl_row,
	.request = tl_request,
	.mouse = tl_mouse,
	.keys_title = "In the timeline",
	.keys = tl_keys,
	.charm_keys = tl_charm_keys,
};
