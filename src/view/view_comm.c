/* view_comm.c — the communication pane (a): who sends how much to whom
 * over a scope (analysis/profile/profile.h, doc/profile.md).
 *
 * Views (v): the matrix of senders (rows) and receivers (columns) by
 * bytes, the same by messages, the message sizes, the volume over time,
 * the collectives by type, and with one-sided communication in the trace
 * the matrix of RMA origins and targets by the bytes their operations
 * moved, and the windows' collectives among the collectives. The matrix is a grid of shaded cells,
 * blocks of ranks when they do not fit, coloured on a scale to the
 * largest cell; the cursor moves with the arrows, Enter lists the cell's
 * messages (sortable; Enter on one goes to its send, Esc back), whose
 * transfer time is in the list and in the details.
 */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/profile/profile.h"
#include "view/model/view_table.h"

enum { CM_BYTES, CM_MSGS, CM_SIZES, CM_TIME, CM_COLLS, CM_RMA, CM_COUNT };
enum { MC_ID, MC_FROM, MC_TO, MC_TAG, MC_BYTES, MC_SENT, MC_TOOK, MC_COUNT };
enum { CC_TYPE, CC_COUNT_, CC_BYTES, CC_TIME, CC_N };

static const struct vt_col msg_cols[MC_COUNT] = {
	[MC_ID] = { "message", 8, 4, 0, 1 },
	[MC_FROM] = { "from", 8, 0, 0, 1 },
	[MC_TO] = { "to", 8, 0, 0, 1 },
	[MC_TAG] = { "tag", 6, 3, 0, 1 },
	[MC_BYTES] = { "bytes", 10, 0, 0 },
	[MC_SENT] = { "sent", 10, 2, 0, 1 },
	[MC_TOOK] = { "took", 9, 0, 0 },
};

static const struct vt_col coll_cols[CC_N] = {
	[CC_TYPE] = { "collective", 24, 0, 1 },
	[CC_COUNT_] = { "count", 9, 0, 0 },
	[CC_BYTES] = { "bytes", 10, 0, 0 },
	[CC_TIME] = { "time", 10, 0, 0 },
};

struct view_comm {
	struct comm c;
	int valid;
	uint64_t key[4];
	int scope, mode;
	uint32_t tsel_seen;
	int h;                       /* the interior's height at the last prepare */
	uint32_t cs, cr;             /* the cursor: block row (senders) and column (receivers) */
	uint32_t per, cells;         /* ranks per block, blocks a side */
	int cwid;                    /* columns a cell takes (few ranks: wider cells) */
	int placed;                  /* the cursor was put on the largest cell */
	uint64_t *val;               /* cells x cells */
	size_t cap;
	uint64_t max;
	int lw;                      /* label column */
	int dev;                     /* the RMA matrix has a column for the ranks' device
	                              * copies, after the targets (index cells) */
	/* a cell's messages */
	int listing;
	uint32_t *ids, n_ids;
	struct vtable mtab, ctab;
	struct vt_source msrc, csrc;
	uint8_t coll_of[2 * COLL_TYPE_COUNT];   /* rows of the collectives table (a
						 * window's: COLL_TYPE_COUNT + type) */
	uint32_t n_coll;
	struct view *v;
};

static const char *const mode_name[CM_COUNT] = {
	"bytes sent", "messages", "message sizes", "over time", "collectives",
	"one-sided (RMA bytes, origin to target)",
};

/* The collectives table's row r: MPI's, or a window's. */
static const struct comm_coll *
coll_row(const struct view_comm *vc, uint32_t r)
{
	uint8_t k = vc->coll_of[r];
	return k < COLL_TYPE_COUNT ? &vc->c.colls[k] : &vc->c.win_colls[k - COLL_TYPE_COUNT];
}

static void
msg_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_comm *vc = ctx;
	uint32_t nm;
	const struct trace_msg *m = &trace_msgs(vc->v->t, &nm)[vc->ids[r]];
	switch (c) {
	case MC_ID: snprintf(buf, n, "%u", vc->ids[r]); break;
	case MC_FROM: view_row_name(vc->v, m->sender, buf, n); break;
	case MC_TO: view_row_name(vc->v, m->receiver, buf, n); break;
	case MC_TAG: snprintf(buf, n, "%u", m->tag); break;
	case MC_BYTES: fmt_bytes((double)m->bytes, buf, n); break;
	case MC_SENT: fmt_time(trace_seconds(vc->v->t, m->send_op != TRACE_NONE ? m->t_send : m->t_recv), buf, n); break;
	case MC_TOOK:
		if (m->send_op == TRACE_NONE || m->recv_op == TRACE_NONE)
			snprintf(buf, n, "-");
		else
			trace_fmt_duration(vc->v->t, m->t_recv > m->t_send ? m->t_recv - m->t_send : 0, buf, n);
		break;
	}
}

static double
msg_key(void *ctx, uint32_t r, int c)
{
	struct view_comm *vc = ctx;
	uint32_t nm;
	const struct trace_msg *m = &trace_msgs(vc->v->t, &nm)[vc->ids[r]];
	switch (c) {
	case MC_ID: return -(double)vc->ids[r];
	case MC_FROM: return -(double)m->sender;
	case MC_TO: return -(double)m->receiver;
	case MC_TAG: return -(double)m->tag;
	case MC_BYTES: return (double)m->bytes;
	case MC_SENT: return -(double)m->t_send;
	case MC_TOOK: return m->t_recv > m->t_send && m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE
		? (double)(m->t_recv - m->t_send) : -1;
	}
	return 0;
}

static void
coll_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct view_comm *vc = ctx;
	const struct comm_coll *x = coll_row(vc, r);
	switch (c) {
	case CC_TYPE:
		snprintf(buf, n, "%s%s", vc->coll_of[r] >= COLL_TYPE_COUNT ? "window " : "",
			 trace_coll_type_name((enum trace_coll_type)x->type));
		break;
	case CC_COUNT_: fmt_count((double)x->count, buf, n); break;
	case CC_BYTES: fmt_bytes((double)x->bytes, buf, n); break;
	case CC_TIME: trace_fmt_duration(vc->v->t, x->time, buf, n); break;
	}
}

static double
coll_key(void *ctx, uint32_t r, int c)
{
	struct view_comm *vc = ctx;
	const struct comm_coll *x = coll_row(vc, r);
	return c == CC_COUNT_ ? (double)x->count : c == CC_BYTES ? (double)x->bytes : (double)x->time;
}

int
view_comm_create(struct view *v)
{
	struct view_comm *vc = calloc(1, sizeof *vc);
	if (!vc)
		return ERR_NOMEM;
	vc->v = v;
	vt_init(&vc->mtab, MC_SENT);
	vc->mtab.desc = 0;           /* in send order */
	vt_init(&vc->ctab, CC_TIME);
	vc->msrc = (struct vt_source){ msg_cols, MC_COUNT, vc, msg_cell, msg_key, NULL };
	vc->csrc = (struct vt_source){ coll_cols, CC_N, vc, coll_cell, coll_key, NULL };
	v->comm = vc;
	return 0;
}

void
view_comm_destroy(struct view_comm *vc)
{
	if (!vc)
		return;
	comm_free(&vc->c);
	free(vc->val);
	free(vc->ids);
	vt_fini(&vc->mtab);
	vt_fini(&vc->ctab);
	free(vc);
}

/* The whole trace's matrix, ahead (view_prefetch.c). */
static void *
job_run(const struct trace *t, void *in)
{
	(void)in;
	struct profile_scope s;
	profile_scope_all(&s);
	struct comm *c = calloc(1, sizeof *c);
	struct err e = { 0 };
	if (c && comm_compute(t, &s, c, &e)) {
		free(c);
		c = NULL;
	}
	return c;
}

static void
job_drop(void *out)
{
	comm_free(out);
	free(out);
}

int
view_comm_job(struct view *v, struct view_job *j)
{
	(void)v;
	*j = (struct view_job){ job_run, job_drop, NULL, 0 };
	return 1;
}

static void
compute(struct view *v)
{
	struct view_comm *vc = v->comm;
	struct profile_scope s;
	uint64_t *buf, key[4];
	if (vc->tsel_seen != v->tsel_gen) {      /* a new window: look at it */
		vc->tsel_seen = v->tsel_gen;
		vc->scope = TSCOPE_TIME;
	}
	if (view_scope_fill(v, vc->scope, &s, &buf, key)) {
		view_set_message(v, 1, "communication: out of memory");
		return;
	}
	if (vc->valid && memcmp(key, vc->key, sizeof key) == 0) {
		free(buf);
		return;
	}
	comm_free(&vc->c);
	struct err e = { 0 };
	struct comm *ahead = view_prefetch_take(v, PF_COMM, key);
	if (ahead) {                         /* computed once the screen was drawn */
		vc->c = *ahead;
		free(ahead);
		vc->valid = 1;
	} else {
		vc->valid = comm_compute(v->t, &s, &vc->c, &e) == 0;
	}
	free(buf);
	if (!vc->valid) {
		view_set_message(v, 1, "%s", e.msg);
		return;
	}
	memcpy(vc->key, key, sizeof key);
	vc->n_coll = 0;
	for (int k = 0; k < COLL_TYPE_COUNT; k++)
		if (vc->c.colls[k].count)
			vc->coll_of[vc->n_coll++] = (uint8_t)k;
	for (int k = 0; k < COLL_TYPE_COUNT; k++)
		if (vc->c.win_colls[k].count)
			vc->coll_of[vc->n_coll++] = (uint8_t)(COLL_TYPE_COUNT + k);
	vt_reset(&vc->ctab, vc->n_coll);
	vt_sort(&vc->ctab, &vc->csrc);
	vc->listing = 0;
}

/* The matrix's blocks for a pane of w x h. */
static void
layout_matrix(struct view *v, int w, int h)
{
	struct view_comm *vc = v->comm;
	uint32_t n = view_index_ranks(v->ix);
	char b[32];
	snprintf(b, sizeof b, "%u", n ? n - 1 : 0);
	int digits = (int)strlen(b), cols = 1, rows = h - 4;
	rows = rows < 1 ? 1 : rows;
	vc->dev = vc->mode == CM_RMA && vc->c.device;
	int dev_w = vc->dev ? 5 : 0;      /* " dev" and a cell */
	/* the label column holds a rank ("r12"), or a block's "12-15" whole
	 * (it was cut to "12-") */
	for (int pass = 0; pass < 2; pass++) {
		vc->lw = (pass ? 2 * digits + 1 : digits + 1) + 1;
		cols = w - vc->lw - 1 - dev_w;
		cols = cols < 1 ? 1 : cols;
		uint32_t fit = (uint32_t)(cols < rows ? cols : rows);
		vc->per = n ? (n + fit - 1) / fit : 1;
		if (vc->per <= 1)
			break;
	}
	vc->cells = n ? (n + vc->per - 1) / vc->per : 0;
	size_t need = (size_t)vc->cells * vc->cells;
	if (need > vc->cap) {
		uint64_t *p = realloc(vc->val, need * sizeof *p);
		if (!p)
			return;
		vc->val = p;
		vc->cap = need;
	}
	if (vc->mode == CM_RMA)
		comm_rma_blocks(&vc->c, 0, vc->per, 0, vc->per, vc->cells, vc->cells, 1, vc->val);
	else
		comm_blocks(&vc->c, 0, vc->per, 0, vc->per, vc->cells, vc->cells, vc->mode == CM_BYTES,
			    vc->val);
	vc->max = 0;
	for (size_t i = 0; i < need; i++)
		vc->max = vc->val[i] > vc->max ? vc->val[i] : vc->max;
	for (uint32_t r = 0; vc->dev && r < vc->cells; r++) {
		struct comm_device d = comm_device_block(&vc->c, r * vc->per, vc->per);
		vc->max = d.to_device + d.to_host > vc->max ? d.to_device + d.to_host : vc->max;
	}
	vc->cwid = vc->cells ? cols / (int)vc->cells : 1;
	vc->cwid = vc->cwid < 1 ? 1 : vc->cwid > 6 ? 6 : vc->cwid;
	if (!vc->placed && vc->max) {      /* start on the largest cell */
		vc->placed = 1;
		for (size_t i = 0; i < need; i++)
			if (vc->val[i] == vc->max) {
				vc->cs = (uint32_t)(i / vc->cells);
				vc->cr = (uint32_t)(i % vc->cells);
				break;
			}
	}
	if (vc->cs >= vc->cells)
		vc->cs = vc->cells ? vc->cells - 1 : 0;
	if (vc->cr >= vc->cells + (uint32_t)vc->dev)
		vc->cr = vc->cells ? vc->cells - 1 : 0;
}

/* Where the device column is drawn (after the targets and a gap). */
static int
dev_x(const struct view_comm *vc)
{
	return vc->lw + (int)vc->cells * vc->cwid + 1;
}

static void
cm_title(struct view *v, char *buf, size_t n)
{
	struct view_comm *vc = v->comm;
	char sc[160];
	view_scope_text(v, vc->scope, sc, sizeof sc);
	if (vc->listing)
		snprintf(buf, n, "communication \u00b7 %u messages of the cell \u00b7 %s", vc->n_ids, sc);
	else
		snprintf(buf, n, "communication \u00b7 %s \u00b7 %s", mode_name[vc->mode], sc);
}

static void
cm_prepare(struct view *v, int w, int h)
{
	struct view_comm *vc = v->comm;
	vc->h = h;
	compute(v);
	if (!vc->valid)
		return;
	if (vc->listing)
		vt_layout(&vc->mtab, &vc->msrc, w, h - 2 > 1 ? h - 2 : 1);
	else if (vc->mode == CM_COLLS)
		vt_layout(&vc->ctab, &vc->csrc, w, h - 2 > 1 ? h - 2 : 1);
	else if (vc->mode <= CM_MSGS || vc->mode == CM_RMA)
		layout_matrix(v, w, h);
}

/* A block's ranks: "r4" or "r4-7". */
static void
block_name(const struct view *v, uint32_t b, char *buf, size_t n)
{
	const struct view_comm *vc = v->comm;
	uint32_t nr = view_index_ranks(v->ix), r0 = b * vc->per, r1 = r0 + vc->per;
	r1 = r1 < nr ? r1 : nr;
	if (r1 <= r0 + 1 && view_is_charm(v))    /* a chare by its number: the cell's line names it */
		snprintf(buf, n, "%u", r0);
	else if (r1 <= r0 + 1)
		view_row_name(v, r0, buf, n);
	else
		snprintf(buf, n, "%u-%u", r0, r1 - 1);
}

static uint32_t
shade(uint64_t x, uint64_t max, int *style)
{
	static const uint32_t glyph[4] = { 0x2591, 0x2592, 0x2593, 0x2588 };
	if (!x || !max) {
		*style = ST_DIM;
		return 0x00b7;
	}
	int lvl = 1 + (int)((double)x / (double)max * (GRID_HEAT_LEVELS - 1) - 1e-9);
	lvl = lvl < 1 ? 1 : lvl > GRID_HEAT_LEVELS - 1 ? GRID_HEAT_LEVELS - 1 : lvl;
	*style = ST_HEAT0 + lvl;
	return glyph[(lvl - 1) * 4 / (GRID_HEAT_LEVELS - 1)];
}

static void
matrix_row(struct view *v, int y, struct grid *row)
{
	struct view_comm *vc = v->comm;
	int lw = vc->lw;
	char a[48], b[48];
	if (y == 0) {
		/* receivers along the top: a tick label every few blocks */
		grid_text(row, 0, 0, lw, ST_DIM, "to\u2192");
		int cw = vc->cwid, step = cw >= 4 ? 1 : cw >= 2 ? 5 / cw + 1 : vc->cells > 10 ? 10 : 5;
		for (uint32_t k = 0; k < vc->cells; k += (uint32_t)step) {
			snprintf(a, sizeof a, "%u", k * vc->per);
			grid_text(row, lw + (int)k * cw, 0, row->w - lw - (int)k * cw,
				  k == vc->cr ? ST_EMPH : ST_LABEL, a);
		}
		if (vc->dev && dev_x(vc) < row->w)
			grid_text(row, dev_x(vc), 0, row->w - dev_x(vc), vc->cr == vc->cells ? ST_EMPH : ST_LABEL,
				  "dev");
		return;
	}
	uint32_t r = (uint32_t)(y - 1);
	if (r < vc->cells) {
		block_name(v, r, a, sizeof a);
		grid_text(row, 0, 0, lw - 1, r == vc->cs ? ST_EMPH : ST_LABEL, a);
		int cw = vc->cwid;
		for (uint32_t k = 0; k < vc->cells && lw + (int)k * cw < row->w; k++) {
			int st, x = lw + (int)k * cw;
			uint32_t ch = shade(vc->val[(size_t)r * vc->cells + k], vc->max, &st);
			uint32_t r0 = r * vc->per, k0 = k * vc->per;
			if (!view_rank_kept(v, r0) || !view_rank_kept(v, k0))
				ch = ' ', st = ST_DIM;
			/* a wide cell leaves a gap, so neighbours stay apart */
			for (int i = 0; i < (cw > 2 ? cw - 1 : cw); i++)
				grid_put(row, x + i, 0, ch, st);
			if (r == vc->cs && k == vc->cr)
				grid_mark(row, x, 0, cw > 2 ? cw - 1 : cw, 1, MARK_SEL);
		}
		if (vc->dev && dev_x(vc) + 2 < row->w) {
			/* the block's copies between host and device */
			struct comm_device d = comm_device_block(&vc->c, r * vc->per, vc->per);
			int st, x = dev_x(vc);
			uint32_t ch = shade(d.to_device + d.to_host, vc->max, &st);
			if (!view_rank_kept(v, r * vc->per))
				ch = ' ', st = ST_DIM;
			for (int i = 0; i < 3; i++)
				grid_put(row, x + i, 0, ch, st);
			if (r == vc->cs && vc->cr == vc->cells)
				grid_mark(row, x, 0, 3, 1, MARK_SEL);
		}
		return;
	}
	if (r == vc->cells + 1) {
		/* the scale */
		const char *what = vc->mode == CM_BYTES ? "bytes" : vc->mode == CM_RMA ? "RMA bytes"
			: "messages";
		if (vc->mode != CM_MSGS)
			fmt_bytes((double)vc->max, b, sizeof b);
		else
			fmt_count((double)vc->max, b, sizeof b);
		int x = grid_printf(row, 0, 0, row->w, ST_DIM, "%s 0 ", what);
		for (int l = 1; l < GRID_HEAT_LEVELS; l++) {
			int st;
			uint32_t ch = shade((uint64_t)l, GRID_HEAT_LEVELS - 1, &st);
			grid_put(row, x++, 0, ch, st);
		}
		/* whole parts only: the rows' and columns' roles go first (the
		 * "to→" heading says the columns), "blocks of ra" was cut */
		char tail[160];
		const char *blocks = view_is_charm(v) ? " \u00b7 blocks of chares" : " \u00b7 blocks of ranks";
		const char *rows = vc->mode == CM_RMA ? "are origins" : "send";
		const char *cols = vc->mode == CM_RMA ? "targets" : "receive";
		snprintf(tail, sizeof tail, " %s%s \u00b7 rows %s, columns %s%s", b, vc->per > 1 ? " per block" : "",
			 rows, cols, vc->per > 1 ? blocks : "");
		if (x + text_width(tail) > row->w)
			snprintf(tail, sizeof tail, " %s%s%s", b, vc->per > 1 ? " per block" : "",
				 vc->per > 1 ? blocks : "");
		/* copies between host and device (GPU streams, offloads): no
		 * rank is their target; each rank's are in the column dev */
		size_t tl = strlen(tail);
		if (vc->mode == CM_RMA && vc->c.device_ops && tl < sizeof tail - 64) {
			char db[32];
			snprintf(tail + tl, sizeof tail - tl, " \u00b7 dev: device copies %llu, %s",
				 (unsigned long long)vc->c.device_ops, fmt_bytes((double)vc->c.device_bytes, db, sizeof db));
		}
		grid_text(row, x, 0, row->w - x, ST_DIM, tail);
		return;
	}
	if (r == vc->cells + 2 && vc->mode == CM_RMA && vc->dev && vc->cr == vc->cells) {
		block_name(v, vc->cs, a, sizeof a);
		struct comm_device d = comm_device_block(&vc->c, vc->cs * vc->per, vc->per);
		char tb[32], hb[32];
		if (!d.ops)
			grid_printf(row, 0, 0, row->w, ST_NORMAL, "%s \u2194 its devices: no copies", a);
		else
			grid_printf(row, 0, 0, row->w, ST_NORMAL,
				    "%s \u2194 its devices: %llu copies, %s to the device, %s to the host", a,
				    (unsigned long long)d.ops, fmt_bytes((double)d.to_device, tb, sizeof tb),
				    fmt_bytes((double)d.to_host, hb, sizeof hb));
		return;
	}
	if (r == vc->cells + 2 && vc->mode == CM_RMA) {
		block_name(v, vc->cs, a, sizeof a);
		block_name(v, vc->cr, b, sizeof b);
		uint64_t ops = 0, put = 0, got = 0;
		for (uint32_t i = 0; i < vc->c.n_rma_pairs; i++) {
			const struct comm_rma_pair *p = &vc->c.rma_pairs[i];
			if (p->origin / vc->per == vc->cs && p->target / vc->per == vc->cr) {
				ops += p->ops[RMA_PUT] + p->ops[RMA_GET] + p->ops[RMA_ATOMIC];
				put += p->bytes_put;
				got += p->bytes_got;
			}
		}
		char pb[32], gb[32];
		if (!ops)
			grid_printf(row, 0, 0, row->w, ST_NORMAL, "%s \u2192 %s: nothing", a, b);
		else
			grid_printf(row, 0, 0, row->w, ST_NORMAL,
				    "%s \u2192 %s: %llu one-sided operations, %s put, %s got", a, b,
				    (unsigned long long)ops, fmt_bytes((double)put, pb, sizeof pb),
				    fmt_bytes((double)got, gb, sizeof gb));
		return;
	}
	if (r == vc->cells + 2) {
		/* the cursor's cell */
		block_name(v, vc->cs, a, sizeof a);
		block_name(v, vc->cr, b, sizeof b);
		uint64_t msgs = 0, bytes = 0, took = 0;
		for (uint32_t i = 0; i < vc->c.n_pairs; i++) {
			const struct comm_pair *p = &vc->c.pairs[i];
			if (p->sender / vc->per == vc->cs && p->receiver / vc->per == vc->cr) {
				msgs += p->messages;
				bytes += p->bytes;
				took += p->transfer;
			}
		}
		char by[32], tk[32];
		if (!msgs) {
			grid_printf(row, 0, 0, row->w, ST_NORMAL, "%s \u2192 %s: nothing", a, b);
			return;
		}
		grid_printf(row, 0, 0, row->w, ST_NORMAL, "%s \u2192 %s: %llu messages, %s, mean transfer %s \u00b7 Enter lists them",
			    a, b, (unsigned long long)msgs, fmt_bytes((double)bytes, by, sizeof by),
			    fmt_seconds(trace_seconds(v->t, took) / (double)msgs, tk, sizeof tk));
	}
}

/* Horizontal bars: the message sizes, one line per power of two. */
static void
sizes_row(struct view *v, int y, struct grid *row)
{
	struct view_comm *vc = v->comm;
	uint64_t max = 0;
	int first = -1, k;
	for (int i = 0; i < COMM_SIZE_BINS; i++) {
		if (vc->c.size_bins[i] && first < 0)
			first = i;
		max = vc->c.size_bins[i] > max ? vc->c.size_bins[i] : max;
	}
	if (first < 0) {
		if (y == 0)
			grid_text(row, 0, 0, row->w, ST_DIM, "no messages in this scope");
		return;
	}
	int last = first;
	for (int i = first; i < COMM_SIZE_BINS; i++)
		if (vc->c.size_bins[i])
			last = i;
	if (y == 0) {
		grid_text(row, 0, 0, row->w, ST_LABEL, "bytes              messages");
		return;
	}
	k = first + y - 1;
	if (k > last)
		return;
	char a[32], b[32], c[32];
	if (k == 0)
		snprintf(a, sizeof a, "0");
	else
		snprintf(a, sizeof a, "%s-%s", fmt_bytes((double)((uint64_t)1 << (k - 1)), b, sizeof b),
			 fmt_bytes((double)((uint64_t)1 << k), c, sizeof c));
	grid_text(row, 0, 0, 18, ST_LABEL, a);
	fmt_count((double)vc->c.size_bins[k], b, sizeof b);
	grid_text(row, 19, 0, 8, ST_NORMAL, b);
	int room = row->w - 28;
	int n = max ? (int)((double)vc->c.size_bins[k] / (double)max * room + 0.5) : 0;
	if (vc->c.size_bins[k] && n < 1)
		n = 1;
	for (int i = 0; i < n; i++)
		grid_put(row, 28 + i, 0, 0x2588, ST_HEAT4);
}

/* The volume over the scope's time: a column of bars per slice. */
static void
time_row(struct view *v, int y, struct grid *row, int h)
{
	struct view_comm *vc = v->comm;
	int bars = h - 2;
	uint64_t max = 0;
	for (int i = 0; i < COMM_TIME_BINS; i++)
		max = vc->c.time_bytes[i] > max ? vc->c.time_bytes[i] : max;
	char a[32], b[32];
	if (y == bars) {
		fmt_times(trace_seconds(v->t, vc->c.from), trace_seconds(v->t, vc->c.to), a, b, sizeof a);
		grid_text(row, 0, 0, row->w, ST_LABEL, a);
		grid_text(row, row->w - text_width(b), 0, text_width(b), ST_LABEL, b);
		return;
	}
	if (y == bars + 1) {
		fmt_bytes((double)max, a, sizeof a);
		grid_printf(row, 0, 0, row->w, ST_DIM, "bytes sent per %s slice, the highest %s",
			    fmt_seconds(trace_seconds(v->t, vc->c.to - vc->c.from) / COMM_TIME_BINS, b, sizeof b), a);
		return;
	}
	if (!max || y > bars)
		return;
	for (int x = 0; x < row->w; x++) {
		int bin = (int)((long)x * COMM_TIME_BINS / row->w);
		double hgt = (double)vc->c.time_bytes[bin] / (double)max * bars;
		int from_bottom = bars - 1 - y;
		if (hgt > from_bottom)
			grid_put(row, x, 0, hgt >= from_bottom + 1 ? 0x2588 : 0x2584, ST_HEAT5);
	}
}


static void
cm_row(struct view *v, int y, struct grid *row)
{
	struct view_comm *vc = v->comm;
	if (!vc->valid)
		return;
	if (vc->listing || vc->mode == CM_COLLS) {
		struct vtable *t = vc->listing ? &vc->mtab : &vc->ctab;
		const struct vt_source *s = vc->listing ? &vc->msrc : &vc->csrc;
		if (y == 0)
			vt_header(t, s, row, 0);
		else if (y <= t->rows)
			vt_row(t, s, y - 1, row, 0);
		else if (y == t->rows + 1 && vc->listing)
			grid_text(row, 0, 0, row->w, ST_DIM, "Enter: go to the send \u00b7 Esc: back to the matrix");
		if (y == 1 && t->n == 0)
			grid_text(row, 0, 0, row->w, ST_DIM, vc->listing ? "no messages" : "no collectives in this scope");
		return;
	}
	if (vc->mode == CM_SIZES)
		sizes_row(v, y, row);
	else if (vc->mode == CM_TIME)
		time_row(v, y, row, vc->h);
	else if (vc->cells)
		matrix_row(v, y, row);
}

static void
list_cell(struct view *v)
{
	struct view_comm *vc = v->comm;
	struct profile_scope s;
	uint64_t *buf, key[4];
	if (view_scope_fill(v, vc->scope, &s, &buf, key))
		return;
	free(vc->ids);
	vc->ids = NULL;
	uint32_t s0 = vc->cs * vc->per, r0 = vc->cr * vc->per;
	if (comm_block_msgs(v->t, &s, s0, s0 + vc->per, r0, r0 + vc->per, &vc->ids, &vc->n_ids) == 0 &&
	    vc->n_ids) {
		vc->listing = 1;
		vt_reset(&vc->mtab, vc->n_ids);
		vc->mtab.sel = 0;
		vt_sort(&vc->mtab, &vc->msrc);
	} else {
		view_set_message(v, 0, "no messages in that cell");
	}
	free(buf);
}

static void
goto_msg(struct view *v)
{
	struct view_comm *vc = v->comm;
	uint32_t r = vt_selected(&vc->mtab), nm;
	if (r == UINT32_MAX)
		return;
	const struct trace_msg *m = &trace_msgs(v->t, &nm)[vc->ids[r]];
	uint32_t op = m->send_op != TRACE_NONE ? m->send_op : m->recv_op;
	if (op == TRACE_NONE)
		return;
	if (v->big == PANE_COMM) {
		v->big = -1;
		v->focus = PANE_GRID;
	}
	view_jump_lop(v, analysis_op_lop(v->a, op));
	char b[32], t[32], fr[24], to[24];
	view_row_name(v, m->sender, fr, sizeof fr);
	view_row_name(v, m->receiver, to, sizeof to);
	if (m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE)
		view_set_message(v, 0, "message %s \u2192 %s, %s, took %s from send to receive", fr, to,
				 fmt_bytes((double)m->bytes, b, sizeof b),
				 trace_fmt_duration(v->t, m->t_recv > m->t_send ? m->t_recv - m->t_send : 0, t, sizeof t));
	else
		view_set_message(v, 0, "message %s \u2192 %s, %s, one end missing", fr, to,
				 fmt_bytes((double)m->bytes, b, sizeof b));
}

static int
table_keys(struct vtable *t, const struct vt_source *s, enum action act)
{
	int page = t->rows > 1 ? t->rows - 1 : 1;
	switch (act) {
	case ACT_MOVE_UP: vt_move(t, -1); return 1;
	case ACT_MOVE_DOWN: vt_move(t, 1); return 1;
	case ACT_PAGE_UP: vt_move(t, -page); return 1;
	case ACT_PAGE_DOWN: vt_move(t, page); return 1;
	case ACT_FIRST_RANK: case ACT_FIRST_STEP: vt_home(t, 0); return 1;
	case ACT_LAST_RANK: case ACT_LAST_STEP: vt_home(t, 1); return 1;
	case ACT_PANE_METRIC: case ACT_MOVE_RIGHT: case ACT_MOVE_LEFT:
		vt_sort_next(t, s, act == ACT_MOVE_LEFT ? -1 : 1);
		return 1;
	default: return 0;
	}
}

static int
cm_request(struct view *v, enum action act)
{
	struct view_comm *vc = v->comm;
	if (act == ACT_PANE_SCOPE) {
		vc->scope = view_scope_next(v, vc->scope);
		return 1;
	}
	if (act == ACT_PANE_MODE) {
		vc->listing = 0;
		vc->mode = (vc->mode + 1) % CM_COUNT;
		if (vc->mode == CM_RMA && !trace_has_rma(v->t))
			vc->mode = 0;
		return 1;
	}
	if (vc->listing) {
		if (act == ACT_CLOSE) {
			vc->listing = 0;
			return 1;
		}
		if (act == ACT_CLUSTER_TOGGLE) {
			goto_msg(v);
			return 1;
		}
		return table_keys(&vc->mtab, &vc->msrc, act);
	}
	if (act == ACT_CLOSE) {
		if (v->big == PANE_COMM)
			view_big_toggle(v, PANE_COMM);
		return 1;
	}
	if (vc->mode == CM_COLLS)
		return table_keys(&vc->ctab, &vc->csrc, act);
	if (vc->mode > CM_MSGS && vc->mode != CM_RMA)
		return 0;
	if (vc->mode == CM_RMA && act == ACT_CLUSTER_TOGGLE && vc->dev && vc->cr == vc->cells) {
		view_set_message(v, 0, "device copies are the [copy to device] and [copy to host] of the rank's "
				 "GPU streams: the timeline shows them under its row (Space there)");
		return 1;
	}
	if (vc->mode == CM_RMA && act == ACT_CLUSTER_TOGGLE) {
		view_set_message(v, 0, "one-sided operations are listed in the details of the calls that "
				 "issued them");
		return 1;
	}
	long page = 8;
	switch (act) {
	case ACT_MOVE_LEFT: vc->cr = vc->cr ? vc->cr - 1 : 0; return 1;
	case ACT_MOVE_RIGHT: vc->cr = vc->cr + 1 < vc->cells + (uint32_t)vc->dev ? vc->cr + 1 : vc->cr; return 1;
	case ACT_MOVE_UP: vc->cs = vc->cs ? vc->cs - 1 : 0; return 1;
	case ACT_MOVE_DOWN: vc->cs = vc->cs + 1 < vc->cells ? vc->cs + 1 : vc->cs; return 1;
	case ACT_PAGE_UP: vc->cs = vc->cs > page ? vc->cs - (uint32_t)page : 0; return 1;
	case ACT_PAGE_DOWN: vc->cs = vc->cs + page < vc->cells ? vc->cs + (uint32_t)page : vc->cells - 1; return 1;
	case ACT_FIRST_RANK: vc->cs = 0; return 1;
	case ACT_LAST_RANK: vc->cs = vc->cells ? vc->cells - 1 : 0; return 1;
	case ACT_FIRST_STEP: vc->cr = 0; return 1;
	case ACT_LAST_STEP: vc->cr = vc->cells ? vc->cells - 1 + (uint32_t)vc->dev : 0; return 1;
	case ACT_CLUSTER_TOGGLE: list_cell(v); return 1;
	default: return 0;
	}
}

static int
cm_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	struct view_comm *vc = v->comm;
	if (vc->listing || vc->mode == CM_COLLS) {
		struct vtable *t = vc->listing ? &vc->mtab : &vc->ctab;
		const struct vt_source *s = vc->listing ? &vc->msrc : &vc->csrc;
		if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
			vt_move(t, kind == MOUSE_WHEEL_UP ? -3 : 3);
		else if (kind == MOUSE_LEFT && y == 0 && vt_column_at(t, x) >= 0)
			vt_sort_by(t, s, vt_column_at(t, x));
		else if (kind == MOUSE_LEFT && y >= 1 && t->top + (uint32_t)(y - 1) < t->n) {
			uint32_t at = t->top + (uint32_t)(y - 1);
			if (at == t->sel && vc->listing)
				goto_msg(v);
			else
				vt_move(t, (long)at - (long)t->sel);
		}
		return 1;
	}
	if (kind != MOUSE_LEFT || (vc->mode > CM_MSGS && vc->mode != CM_RMA))
		return 1;
	uint32_t r = (uint32_t)(y - 1), k = (uint32_t)((x - vc->lw) / (vc->cwid > 0 ? vc->cwid : 1));
	if (vc->dev && x >= dev_x(vc) && x < dev_x(vc) + 3)
		k = vc->cells;                /* the device column */
	if (y >= 1 && x >= vc->lw && r < vc->cells && k < vc->cells + (uint32_t)vc->dev) {
		if (r == vc->cs && k == vc->cr) {
			list_cell(v);
		} else {
			vc->cs = r;
			vc->cr = k;
		}
	}
	return 1;
}


static const struct pane_key cm_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the sender above / below (in a list: the row)" },
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "the receiver left / right (in a list: sort by the next column)" },
	{ ACT_PANE_MODE, ACT_NONE, "matrix by bytes, by messages, message sizes, over time, collectives; "
	  "with one-sided records, the RMA matrix (its column dev: each rank's copies to and from its devices)" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, partition, iteration, steps in view, the timeline's window" },
	{ ACT_PANE_METRIC, ACT_NONE, "in a list: sort by the next column (a click on a header: by it)" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "list the cell's messages; on a message, go to its send" },
	{ ACT_CLOSE, ACT_NONE, "back from the list to the matrix" },
	{ ACT_NONE, ACT_NONE, NULL },
};

static const struct pane_key cm_charm_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "the sending chare above / below (in a list: the row)" },
	{ ACT_MOVE_LEFT, ACT_MOVE_RIGHT, "the receiving chare left / right (in a list: sort by the next column)" },
	{ ACT_PANE_MODE, ACT_NONE, "matrix by bytes, by messages, message sizes, over time, collectives" },
	{ ACT_PANE_SCOPE, ACT_NONE, "whole trace, phase, iteration, steps in view, the timeline's window" },
	{ ACT_PANE_METRIC, ACT_NONE, "in a list: sort by the next column (a click on a header: by it)" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "list the cell's invocations; on one, go to its creation" },
	{ ACT_CLOSE, ACT_NONE, "back from the list to the matrix" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_comm_ops = {
	.name = "comm",
	.focusable = 1,
	.title = cm_title,
	.prepare = cm_prepare,
	.row = cm_row,
	.request = cm_request,
	.mouse = cm_mouse,
	.keys_title = "In the communication pane (a)",
	.keys = cm_keys,
	.charm_keys = cm_charm_keys,
};
