/* view_charm.c — what the explorer shows differently for a Charm++ run
 * (seed 004): rows named by chare, the details of an entry-method
 * execution (chare, index, entry, PE, phase, the §4 metrics, who invoked
 * it and from which PE), and the physical timeline as PEs against time
 * with their idle intervals. The panes call these when view_is_charm();
 * everything else (grid, navigation, hotspots, search, histograms) is the
 * MPI code on the same arrays. */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/par.h"
#include "base/sort.h"
#include "model/charm.h"

int
view_is_charm(const struct view *v)
{
	return v->t && trace_info(v->t)->paradigm == PARADIGM_CHARM;   /* a sample set has no trace */
}

void
view_row_name(const struct view *v, uint32_t rank, char *buf, size_t n)
{
	if (view_is_charm(v))
		trace_chare_label(v->t, rank, buf, n);
	else
		snprintf(buf, n, "r%u", rank);
}

int
view_row_name_width(const struct view *v)
{
	uint32_t nr = view_index_ranks(v->ix);
	char buf[96];
	if (!view_is_charm(v))
		return snprintf(buf, sizeof buf, "r%u", nr ? nr - 1 : 0);
	int w = 2;
	for (uint32_t r = 0; r < nr; r++) {
		trace_chare_label(v->t, r, buf, sizeof buf);
		int n = text_width(buf);
		w = n > w ? n : w;
	}
	return w > VIEW_MAX_ROW_NAME ? VIEW_MAX_ROW_NAME : w;
}

/* ---- details ---- */

static const char *
phase_kind(const struct analysis_part *P)
{
	return !P->comm_count ? "phase without dependencies" : P->runtime ? "runtime phase"
								 : "application phase";
}

/* Who invoked lop's execution (INV_BY), and what it invokes (INV_SENDS).
 * Wide, the invoker and its send take one line. */
enum { INV_BY = 1, INV_SENDS = 2 };

static void
invocations(struct view *v, uint32_t lop, int which, int wide)
{
	uint32_t first, count, nm;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	analysis_lop_ops(v->a, lop, &first, &count);
	char who[96], b[32], ts[32];
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		uint32_t sends = 0, shown = 0;
		for (uint32_t i = 0; i < ne; i++)
			sends += e[i].role == END_SEND;
		for (uint32_t i = 0; i < ne; i++) {
			if (e[i].id >= nm)
				continue;
			const struct trace_msg *m = &msgs[e[i].id];
			fmt_bytes((double)m->bytes, b, sizeof b);
			if (e[i].role == END_RECV && (which & INV_BY)) {
				if (m->send_op == TRACE_NONE) {
					view_lines_add(&v->details, ST_DIM, "invoked by a creation the trace does not hold");
					continue;
				}
				trace_chare_label(v->t, m->sender, who, sizeof who);
				char line[256];
				int k = snprintf(line, sizeof line, "%s%s on PE %u", wide ? "invoked by " : "\u2190 ", who,
						 trace_op_pe(v->t, m->send_op));
				if (!wide) {
					view_lines_add(&v->details, ST_TITLE, "invoked by");
					view_lines_add(&v->details, ST_NORMAL, "%s", line);
					k = 0;
				} else {
					k += snprintf(line + k, sizeof line - (size_t)k, " \u00b7 ");
				}
				snprintf(line + k, sizeof line - (size_t)k, "sent %s \u00b7 %s%s%s",
					 fmt_time(trace_seconds(v->t, m->t_send), ts, sizeof ts), b,
					 m->flags & MSGF_BROADCAST ? " \u00b7 broadcast" : "",
					 m->flags & MSGF_RUNTIME ? " \u00b7 through the runtime" : "");
				view_lines_text(&v->details, wide ? ST_NORMAL : ST_DIM, wide ? 0 : 4, wide ? 2 : 6, line);
				continue;
			}
			if (e[i].role != END_SEND || !(which & INV_SENDS))
				continue;
			if (shown == 0)
				view_lines_add(&v->details, ST_TITLE, "invokes %s (%u)",
					       view_region_name(v, m->tag), sends);
			if (shown++ >= 8) {
				if (shown == 10)
					view_lines_add(&v->details, ST_DIM, "  and %u more", sends - 9);
				continue;
			}
			if (m->recv_op == TRACE_NONE) {
				view_lines_add(&v->details, ST_DIM, "\u2192 (not run in the trace)");
				continue;
			}
			trace_chare_label(v->t, m->receiver, who, sizeof who);
			view_lines_add(&v->details, ST_NORMAL, "\u2192 %s on PE %u", who, trace_op_pe(v->t, m->recv_op));
		}
	}
}

uint32_t
view_charm_invoker(struct view *v, uint32_t lop, char *why, size_t n)
{
	uint32_t first, count, nm;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	analysis_lop_ops(v->a, lop, &first, &count);
	char who[96];
	int unheld = 0;
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			if (e[i].role != END_RECV || e[i].id >= nm)
				continue;
			const struct trace_msg *m = &msgs[e[i].id];
			uint32_t s = m->send_op == TRACE_NONE ? TRACE_NONE : analysis_op_lop(v->a, m->send_op);
			if (s == TRACE_NONE) {
				unheld = 1;
				continue;
			}
			trace_chare_label(v->t, m->sender, who, sizeof who);
			snprintf(why, n, "the execution that invoked it: %s on PE %u", who, trace_op_pe(v->t, m->send_op));
			return s;
		}
	}
	snprintf(why, n, unheld ? "its invocation's creation is not in the trace"
		 : "no invocation here: this piece follows the one before it on its chare");
	return TRACE_NONE;
}

/* An execution: where it ran and what (chare, entry, PE), seed 004's
 * metrics, who invoked it, its phase and times, what it invokes. Wide
 * (stacked under the grid, where few lines show), the PE joins the first
 * line, the metrics share the second and the invoker the third. */
void
view_charm_details(struct view *v, uint32_t lop, int wide)
{
	const struct analysis *a = v->a;
	struct view_lines *L = &v->details;
	uint32_t np, n_en;
	const struct analysis_part *parts = analysis_parts(a, &np);
	const struct trace_entry *en = trace_entries(v->t, &n_en);
	const struct trace_chare *ch = &trace_chares(v->t, NULL)[analysis_lop_timeline(a, lop)];
	uint32_t p = analysis_lop_part(a, lop), reg = analysis_lop_region(a, lop);
	enum trace_op_kind kind = analysis_lop_kind(a, lop);
	const char *name = reg == TRACE_NONE ? "(a creation outside any execution)" : view_region_name(v, reg);
	char label[96], d[32], i[32], m[32], u[32], idx[64], sig[192], what[160];
	trace_chare_label(v->t, analysis_lop_timeline(a, lop), label, sizeof label);
	uint64_t en0 = analysis_lop_enter(a, lop);
	uint64_t dd = analysis_lop_diff_duration(a, lop), idle = analysis_lop_idle_experienced(a, lop);
	uint64_t imb = analysis_lop_imbalance(a, lop);
	trace_fmt_duration(v->t, dd, d, sizeof d);
	trace_fmt_duration(v->t, idle, i, sizeof i);
	trace_fmt_duration(v->t, imb, m, sizeof m);
	trace_fmt_duration(v->t, analysis_lop_duration(a, lop), u, sizeof u);
	int dstyle = ST_HEAT0 + view_index_level(v->ix, METRIC_DIFF_DURATION, dd);
	int istyle = ST_HEAT0 + view_index_level(v->ix, METRIC_IDLE, idle);
	int mstyle = ST_HEAT0 + view_index_level(v->ix, METRIC_IMBALANCE, imb);
	sig[0] = 0;
	if (reg != TRACE_NONE && reg < n_en)
		snprintf(sig, sizeof sig, "%s%s", trace_str(v->t, en[reg].signature),
			 en[reg].sdag ? " (SDAG serial)" : "");
	if (ch->kind == CHARE_ARRAY) {
		size_t len = 0;
		idx[0] = 0;
		for (uint32_t k = 0; k < ch->ndims && len + 12 < sizeof idx; k++)
			len += (size_t)snprintf(idx + len, sizeof idx - len, "%s%d", k ? "," : "", ch->index[k]);
		snprintf(what, sizeof what, "array %s index (%s)", trace_str(v->t, ch->type), idx);
	} else {
		snprintf(what, sizeof what, "%s chare %s", trace_chare_kind_name((enum trace_chare_kind)ch->kind),
			 trace_str(v->t, ch->type));
	}
	const char *migrated = ch->pes > 1 ? " (the chare migrated)" : "";
	const char *kind_text = kind == OP_COMPUTE ? "computation: a piece of its execution that neither received nor sent" : trace_op_kind_name(kind);
	if (wide) {
		int style = v->metric == METRIC_IDLE ? istyle : v->metric == METRIC_IMBALANCE ? mstyle : dstyle;
		view_lines_add(L, ST_TITLE, "%s \u00b7 step %u \u00b7 PE %u%s \u00b7 %s", label, analysis_lop_step(a, lop),
			       analysis_lop_pe(a, lop), migrated, name);
		char mline[256];
		snprintf(mline, sizeof mline, "differential duration %s \u00b7 idle experienced %s \u00b7 imbalance %s "
			 "\u00b7 duration %s", d, i, m, u);
		view_lines_text(L, style, 0, 2, mline);
		if (kind == OP_COMPUTE)
			view_lines_add(L, ST_DIM, "%s", kind_text);
		invocations(v, lop, INV_BY, 1);
		char line[400];
		snprintf(line, sizeof line, "%s%s%s", what, sig[0] ? " \u00b7 " : "", sig);
		view_lines_text(L, ST_NORMAL, 0, 2, line);
	} else {
		view_lines_add(L, ST_TITLE, "%s \u00b7 step %u", label, analysis_lop_step(a, lop));
		view_lines_add(L, ST_NORMAL, "%s", name);
		if (sig[0])
			view_lines_text(L, ST_DIM, 2, 4, sig);
		view_lines_add(L, ST_NORMAL, "%s", what);
		view_lines_add(L, ST_NORMAL, "PE %u%s", analysis_lop_pe(a, lop), migrated);
		view_lines_add(L, ST_DIM, "%s", kind_text);
	}
	if (p < np) {
		uint32_t pr = analysis_part_region(a, p);
		if (wide) {
			char line[288];
			int k = snprintf(line, sizeof line, "%s %u/%u \u00b7 steps %u\u2013%u \u00b7 %u chare%s",
					 phase_kind(&parts[p]), p, np, parts[p].step_first,
					 parts[p].step_first + parts[p].step_count - 1, parts[p].ranks,
					 parts[p].ranks == 1 ? "" : "s");
			if (pr != TRACE_NONE)
				snprintf(line + k, sizeof line - (size_t)k, " \u00b7 mostly %s", view_region_name(v, pr));
			view_lines_text(L, ST_NORMAL, 0, 2, line);
		} else {
			view_lines_add(L, ST_NORMAL, "%s %u/%u", phase_kind(&parts[p]), p, np);
			view_lines_add(L, ST_NORMAL, "  steps %u\u2013%u \u00b7 %u chare%s", parts[p].step_first,
				       parts[p].step_first + parts[p].step_count - 1, parts[p].ranks,
				       parts[p].ranks == 1 ? "" : "s");
			if (pr != TRACE_NONE)
				view_lines_add(L, ST_DIM, "  mostly %s", view_region_name(v, pr));
		}
	}
	if (p < np && v->part_phase && v->part_phase[p])
		view_lines_add(L, ST_NORMAL, "phase     %s", v->part_phase[p]);
	if (wide) {
		view_lines_add(L, ST_NORMAL, "local step %u \u00b7 global step %u \u00b7 enter %s",
			       analysis_lop_local_step(a, lop), analysis_lop_step(a, lop),
			       fmt_time(trace_seconds(v->t, en0), u, sizeof u));
		view_lines_text(L, ST_DIM, 0, 2, "differential duration: beyond the shortest run of this entry at "
				"this step \u00b7 idle experienced: idle on its PE it waited through \u00b7 imbalance: "
				"its PE's work in the phase beyond the least loaded PE's");
		invocations(v, lop, INV_SENDS, 1);
		return;
	}
	view_lines_add(L, ST_NORMAL, "local step %u \u00b7 global step %u", analysis_lop_local_step(a, lop),
		       analysis_lop_step(a, lop));
	view_lines_add(L, ST_NORMAL, "enter     %s", fmt_time(trace_seconds(v->t, en0), d, sizeof d));
	view_lines_add(L, ST_NORMAL, "duration  %s", u);
	view_lines_add(L, dstyle, "differential duration %s", trace_fmt_duration(v->t, dd, d, sizeof d));
	view_lines_text(L, ST_DIM, 2, 4, "beyond the shortest run of this entry at this step");
	view_lines_add(L, istyle, "idle experienced %s", i);
	view_lines_text(L, ST_DIM, 2, 4, "idle on its PE it waited through");
	view_lines_add(L, mstyle, "imbalance %s", m);
	view_lines_text(L, ST_DIM, 2, 4, "its PE's work in the phase beyond the least loaded PE's");
	view_explain_path(v, lop);
	invocations(v, lop, INV_BY | INV_SENDS, 0);
}

/* ---- the PE timeline ---- */

/* Lops of every PE in time order (lops of one PE do not overlap), and
 * each PE's list in blocks of 4 B lops, of B and of a quarter of B
 * (view_tlblocks.h), which the PE timeline claims at once where one
 * falls in one cell: a whole run fitted is millions of lops a frame, and
 * where a large block straddles two cells its smaller ones mostly fit. */
#define PE_LEVELS 3
struct pe_blocks {
	uint32_t B;                 /* 0: none */
	uint32_t *bfirst;           /* per PE its first block (n_pes + 1) */
	struct tl_block *blk;       /* NULL: none (out of memory) */
	uint64_t *ben;              /* per block the enters of its first and last lops */
	uint32_t *bhot;             /* per block, the first of its lops largest in hot_metric */
	uint64_t *bhotv;            /* ... and its value */
};

struct view_pes {
	uint32_t n_pes;
	uint32_t *first;            /* n_pes + 1 */
	uint32_t *lops;
	uint32_t B;                 /* the timeline's block size */
	/* 4 B lops a block (joined from the next level's), B, then B / 4
	 * (none below 4) */
	struct pe_blocks lv[PE_LEVELS];
	int hot_metric;             /* -1: bhot not worked out */
	/* the time span of the grid's steps [span_s0, span_s1), when span_ok,
	 * and of all of them (the whole run fitted: every lop) */
	int span_ok;
	uint32_t span_s0, span_s1;
	uint64_t span_t0, span_t1;
	uint32_t all_s1;
	uint64_t all_t0, all_t1;
};

/* PE i's blocks of level 1 that one block of level 0 joins, the first
 * s (where the block before it ended): [s, the return). */
static uint32_t
joined_end(const struct view_pes *p, uint32_t i, uint32_t s)
{
	uint32_t end = p->lv[1].bfirst[i + 1];
	return end - s < 4 ? end : s + 4;
}

void
view_pes_destroy(struct view_pes *p)
{
	if (!p)
		return;
	free(p->first);
	free(p->lops);
	for (int k = 0; k < PE_LEVELS; k++) {
		free(p->lv[k].bfirst);
		free(p->lv[k].blk);
		free(p->lv[k].ben);
		free(p->lv[k].bhot);
		free(p->lv[k].bhotv);
	}
	free(p);
}

/* The earliest enter and the last exit of the lops of steps [s0, s1)
 * of rows [r0, r1); 0 and 0 for none. Returns whether there were any. */
static int
span_of(const struct analysis *a, const struct view_index *ix, uint32_t s0, uint32_t s1, uint32_t r0,
	uint32_t r1, uint64_t *t0, uint64_t *t1)
{
	*t0 = UINT64_MAX;
	*t1 = 0;
	for (uint32_t r = r0; r < r1; r++)
		analysis_lops_span(a, view_index_lower(ix, r, s0), view_index_lower(ix, r, s1), t0, t1);
	if (*t0 > *t1) {
		*t0 = *t1 = 0;
		return 0;
	}
	return 1;
}

static uint64_t
enter_key(const void *ctx, uint32_t lop)
{
	return analysis_lop_enter(ctx, lop);
}

/* Each PE's lops by enter (equal enters by id: they were added in id
 * order and the sort is stable), the PEs shared by the workers. */
struct pes_sort {
	struct view_pes *p;
	const struct analysis *a;
	const struct view_index *ix;
	int sorted;                           /* lops copied from analysis_pe_lops: in order */
	int rc[PAR_MAX];
	uint64_t t0[PAR_MAX], t1[PAR_MAX];    /* each worker's share of the whole span */
	int any[PAR_MAX];                     /* ... when its rows have lops */
};

static int
pes_sort_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pes_sort *g = ctx;
	struct view_pes *p = g->p;
	uint32_t from, to;
	uint32_t r0, r1;
	par_share(view_index_ranks(g->ix), w, nw, &r0, &r1);
	g->any[w] = span_of(g->a, g->ix, 0, p->all_s1, r0, r1, &g->t0[w], &g->t1[w]);
	par_share(p->n_pes, w, nw, &from, &to);
	for (uint32_t i = from; i < to && !g->rc[w] && !g->sorted; i++)
		g->rc[w] = sort_ids_keyed(p->lops + p->first[i], p->first[i + 1] - p->first[i], enter_key,
					  g->a);
	if (g->rc[w])
		return g->rc[w];
	int8_t rank_of_kind[8];
	for (int k = 0; k < 8; k++)
		rank_of_kind[k] = (int8_t)view_kind_rank(k);
	for (int k = 1; k < PE_LEVELS; k++) {
		struct pe_blocks *L = &p->lv[k];
		for (uint32_t i = from; L->blk && i < to; i++)
			for (uint32_t b = L->bfirst[i], at = p->first[i]; b < L->bfirst[i + 1]; b++, at += L->B) {
				uint32_t n = p->first[i + 1] - at < L->B ? p->first[i + 1] - at : L->B;
				tl_block_make(g->a, p->lops + at, 0, n, rank_of_kind, &L->blk[b]);
				L->ben[2 * (size_t)b] = analysis_lop_enter(g->a, p->lops[at]);
				L->ben[2 * (size_t)b + 1] = analysis_lop_enter(g->a, p->lops[at + n - 1]);
			}
	}
	/* the largest blocks from the next level's four */
	struct pe_blocks *L = &p->lv[0], *S = &p->lv[1];
	for (uint32_t i = from; L->blk && i < to; i++)
		for (uint32_t b = L->bfirst[i], s = S->bfirst[i]; b < L->bfirst[i + 1]; b++) {
			uint32_t s1 = joined_end(p, i, s);
			L->blk[b] = S->blk[s];
			L->ben[2 * (size_t)b] = S->ben[2 * (size_t)s];
			for (s++; s < s1; s++)
				tl_block_join(&L->blk[b], &S->blk[s], S->ben[2 * (size_t)s - 1], S->ben[2 * (size_t)s]);
			L->ben[2 * (size_t)b + 1] = S->ben[2 * (size_t)s1 - 1];
		}
	return 0;
}

struct view_pes *
view_pes_build(const struct analysis *a, const struct view_index *ix, uint32_t B, uint32_t nw)
{
	struct view_pes *p = calloc(1, sizeof *p);
	uint32_t n = analysis_lop_count(a);
	if (!p)
		return NULL;
	p->n_pes = trace_pe_count(analysis_trace(a));
	p->first = calloc((size_t)p->n_pes + 2, sizeof *p->first);
	p->lops = malloc(((size_t)n + 1) * sizeof *p->lops);
	if (nw > PAR_MAX)
		nw = PAR_MAX;
	if (!p->first || !p->lops || B < 1) {
		view_pes_destroy(p);
		return NULL;
	}
	const uint32_t *held_first, *held = analysis_pe_lops(a, &held_first);
	int sorted = held && held_first[p->n_pes] == n;
	uint32_t *fill = sorted ? NULL : malloc(((size_t)p->n_pes + 1) * sizeof *fill);
	if (sorted) {               /* the analysis's (the same order) */
		memcpy(p->first, held_first, ((size_t)p->n_pes + 1) * sizeof *p->first);
		memcpy(p->lops, held, (size_t)n * sizeof *p->lops);
	} else if (fill) {
		for (uint32_t l = 0; l < n; l++)
			p->first[analysis_lop_pe(a, l) + 1]++;
		for (uint32_t i = 0; i < p->n_pes; i++)
			p->first[i + 1] += p->first[i];
		memcpy(fill, p->first, (size_t)p->n_pes * sizeof *fill);
		for (uint32_t l = 0; l < n; l++)
			p->lops[fill[analysis_lop_pe(a, l)]++] = l;
		free(fill);
	} else {
		view_pes_destroy(p);
		return NULL;
	}
	p->B = B;
	p->hot_metric = -1;
	p->lv[0].B = B <= UINT32_MAX / 4 ? 4 * B : 0;
	p->lv[1].B = B;
	p->lv[2].B = B >= 4 && B % 4 == 0 ? B / 4 : 0;
	for (int k = 0; k < PE_LEVELS; k++) {
		struct pe_blocks *L = &p->lv[k];
		if (!L->B || !(L->bfirst = malloc(((size_t)p->n_pes + 2) * sizeof *L->bfirst)))
			continue;
		L->bfirst[0] = 0;
		for (uint32_t i = 0; i < p->n_pes; i++)
			L->bfirst[i + 1] = L->bfirst[i] + (p->first[i + 1] - p->first[i] + L->B - 1) / L->B;
		L->blk = malloc(((size_t)L->bfirst[p->n_pes] + 1) * sizeof *L->blk);
		L->ben = malloc(((size_t)L->bfirst[p->n_pes] + 1) * 2 * sizeof *L->ben);
		if (!L->ben) {
			free(L->blk);
			L->blk = NULL;
		}
	}
	if (!p->lv[1].blk) {        /* the largest are made from these */
		free(p->lv[0].blk);
		p->lv[0].blk = NULL;
	}
	/* sorted by comparisons on one core, 5 million lops took 190 ms */
	p->all_s1 = view_index_steps(ix);
	struct pes_sort g = { .p = p, .a = a, .ix = ix, .sorted = sorted };
	if (nw > 1 ? par_run(nw, pes_sort_worker, &g) : pes_sort_worker(&g, 0, 1)) {
		view_pes_destroy(p);
		return NULL;
	}
	p->all_t0 = UINT64_MAX;
	p->all_t1 = 0;
	for (uint32_t w = 0; w < (nw > 1 ? nw : 1); w++)
		if (g.any[w]) {
			p->all_t0 = g.t0[w] < p->all_t0 ? g.t0[w] : p->all_t0;
			p->all_t1 = g.t1[w] > p->all_t1 ? g.t1[w] : p->all_t1;
		}
	if (p->all_t0 > p->all_t1)
		p->all_t0 = p->all_t1 = 0;
	return p;
}

/* Taken from the thread (view_prefetch.c), else built now; NULL when out
 * of memory. */
static struct view_pes *
pes_index(struct view *v)
{
	if (v->pes)
		return v->pes;
	struct view_pes *p = view_prefetch_take_any(v, PF_PES);
	if (p && p->B != v->tlb.size) {
		view_pes_destroy(p);
		p = NULL;
	}
	v->pes = p ? p : view_pes_build(v->a, v->ix, v->tlb.size, par_workers());
	return v->pes;
}

uint32_t
view_pe_rows(struct view *v)
{
	return trace_pe_count(v->t);
}

/* The first lop of PE pe ending after t. */
static uint32_t
pe_lower(const struct view *v, const struct view_pes *p, uint32_t pe, uint64_t t)
{
	uint32_t lo = p->first[pe], hi = p->first[pe + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (analysis_lop_exit(v->a, p->lops[mid]) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The time span of the grid's window: its lops' earliest enter and last
 * exit over all chares. */
static void
window_span(struct view *v, uint64_t *t0, uint64_t *t1)
{
	uint32_t s0 = v->win_step, s1 = view_steps_end(v), nr = view_index_ranks(v->ix);
	if (v->tz) {               /* zoomed in time (view_timeline.c) */
		*t0 = v->tz_t0;
		*t1 = v->tz_t1;
		return;
	}
	/* the same steps as the frame before: the same span (a whole run's
	 * lops are millions) */
	struct view_pes *p = v->pes;
	if (p && p->span_ok && p->span_s0 == s0 && p->span_s1 == s1) {
		*t0 = p->span_t0;
		*t1 = p->span_t1;
		return;
	}
	if (p && s0 == 0 && s1 == p->all_s1) {
		*t0 = p->all_t0;
		*t1 = p->all_t1;
		return;
	}
	span_of(v->a, v->ix, s0, s1, 0, nr, t0, t1);
	if (p) {
		p->span_ok = 1;
		p->span_s0 = s0;
		p->span_s1 = s1;
		p->span_t0 = *t0;
		p->span_t1 = *t1;
	}
}

struct pes_hot_job {
	struct view *v;
	struct view_pes *p;
};

static int
pes_hot_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pes_hot_job *g = ctx;
	struct view_pes *p = g->p;
	struct view_index *ix = g->v->ix;
	enum view_metric m = g->v->metric;
	uint32_t from, to;
	par_share(p->n_pes, w, nw, &from, &to);
	for (int lv = 1; lv < PE_LEVELS; lv++) {
		struct pe_blocks *L = &p->lv[lv];
		for (uint32_t i = from; L->bhot && i < to; i++)
			for (uint32_t b = L->bfirst[i], at = p->first[i]; b < L->bfirst[i + 1]; b++, at += L->B) {
				uint32_t end = p->first[i + 1] - at < L->B ? p->first[i + 1] : at + L->B;
				uint32_t h = p->lops[at];
				uint64_t hv = view_index_value(ix, m, h);
				for (uint32_t k = at + 1; k < end; k++) {
					uint64_t val = view_index_value(ix, m, p->lops[k]);
					if (val > hv) {
						h = p->lops[k];
						hv = val;
					}
				}
				L->bhot[b] = h;
				L->bhotv[b] = hv;
			}
	}
	/* the largest blocks' from the next level's four: the first largest */
	struct pe_blocks *L = &p->lv[0], *S = &p->lv[1];
	for (uint32_t i = from; L->bhot && i < to; i++)
		for (uint32_t b = L->bfirst[i], s = S->bfirst[i]; b < L->bfirst[i + 1]; b++) {
			uint32_t s1 = joined_end(p, i, s);
			L->bhot[b] = S->bhot[s];
			L->bhotv[b] = S->bhotv[s];
			for (s++; s < s1; s++)
				if (S->bhotv[s] > L->bhotv[b]) {
					L->bhot[b] = S->bhot[s];
					L->bhotv[b] = S->bhotv[s];
				}
		}
	return 0;
}

/* Each block's first lop largest in the view's metric, once per metric;
 * 0 when there are none (out of memory: lop by lop then). */
static int
pes_hot(struct view *v, struct view_pes *p)
{
	if (!p->lv[1].blk)
		return 0;
	if (p->hot_metric == (int)v->metric)
		return 1;
	for (int k = 0; k < PE_LEVELS; k++) {
		struct pe_blocks *L = &p->lv[k];
		if (!L->blk)
			continue;
		size_t nb = (size_t)L->bfirst[p->n_pes] + 1;
		if (!L->bhot && !(L->bhot = malloc(nb * sizeof *L->bhot)))
			return 0;
		if (!L->bhotv && !(L->bhotv = malloc(nb * sizeof *L->bhotv)))
			return 0;
	}
	struct pes_hot_job g = { v, p };
	par_run(par_workers(), pes_hot_worker, &g);
	p->hot_metric = (int)v->metric;
	return 1;
}

/* Asks for what claiming the smaller blocks and the lops of PE pe's
 * largest block at index i reads (at a cell's edge: each read there
 * would otherwise wait for the one before). */
static void
ask_within(const struct view_pes *p, uint32_t pe, uint32_t i, int hot)
{
	uint32_t base = p->first[pe], end = p->first[pe + 1];
	for (int lv = 1; lv < PE_LEVELS; lv++) {
		const struct pe_blocks *L = &p->lv[lv];
		if (!L->blk)
			continue;
		uint32_t k0 = L->bfirst[pe] + (i - base) / L->B, n = p->lv[0].B / L->B;
		k0 = k0 < L->bfirst[pe + 1] ? k0 : L->bfirst[pe + 1];
		uint32_t k1 = L->bfirst[pe + 1] - k0 < n ? L->bfirst[pe + 1] : k0 + n;
		for (uint32_t k = k0; k < k1; k++) {
			__builtin_prefetch(&L->blk[k]);
			__builtin_prefetch(&L->ben[2 * (size_t)k]);
			if (hot)
				__builtin_prefetch(&L->bhotv[k]);
		}
	}
	uint32_t n = end - i < p->lv[0].B ? end - i : p->lv[0].B;
	for (uint32_t j = 0; j < n; j += 16)
		__builtin_prefetch(&p->lops[i + j]);
}

/* Claims PE pe's lops from index i (into p->lops) that enter before t1:
 * by blocks where one falls in one cell, else lop by lop; the blocks
 * claimed whole. */
static uint64_t
pe_claims(struct view *v, struct view_pes *p, uint32_t pe, uint32_t i, uint64_t t1, struct tlcell *out,
	  struct tl_cov *cov, int blocks, int hot)
{
	uint32_t base = p->first[pe], end = p->first[pe + 1];
	uint64_t used = 0;
	while (i < end) {
		/* a block's enters are its own (its lops lie scattered); the
		 * large block first, else the small one starting here */
		int took = 0;
		for (int lv = 0; blocks && lv < PE_LEVELS && !took; lv++) {
			const struct pe_blocks *L = &p->lv[lv];
			if (!L->blk || (i - base) % L->B || end - i < L->B)
				continue;
			uint32_t k = L->bfirst[pe] + (i - base) / L->B;
			uint64_t en = L->ben[2 * (size_t)k], en_last = L->ben[2 * (size_t)k + 1];
			if (en >= t1)
				return used;
			int b = en_last < t1 ? view_tl_claim_block(v, out, cov, &L->blk[k], en, en_last) : -1;
			if (b < 0) {
				if (lv == 0)
					ask_within(p, pe, i, hot);
				continue;
			}
			if (hot && (out[b].hot == TRACE_NONE || L->bhotv[k] > cov->hot[b])) {
				out[b].hot = L->bhot[k];
				cov->hot[b] = L->bhotv[k];
			}
			used++;
			i += L->B;
			took = 1;
		}
		if (took)
			continue;
		uint32_t l = p->lops[i];
		if (analysis_lop_enter(v->a, l) >= t1)
			break;
		view_tl_claim(v, out, cov, l);
		i++;
	}
	return used;
}

/* The PE timeline's rows, shared by the workers: each fills rows of its
 * own with cell buffers of its own. */
struct pes_rows {
	struct view *v;
	struct view_pes *p;
	int rows, cw, blocks, hot;
	uint32_t first_pe;
	uint64_t t0, t1;
	uint64_t used[PAR_MAX];     /* blocks claimed whole, per worker */
	int rc[PAR_MAX];
};

static int
pes_rows_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pes_rows *g = ctx;
	struct view *v = g->v;
	struct view_pes *p = g->p;
	int cw = g->cw;
	uint64_t t0 = g->t0, t1 = g->t1;
	struct tl_cov cov;
	uint64_t *idle = malloc((size_t)cw * sizeof *idle);
	if (!idle || !view_tl_cov_alloc(&cov, cw)) {
		free(idle);
		return g->rc[w] = ERR_NOMEM;
	}
	const struct trace_pe *pes = trace_pes(v->t, NULL);
	const struct trace_idle *idles = trace_idles(v->t, NULL);
	double per = (double)(t1 - t0) / cw;
	uint32_t y0, y1;
	par_share((uint32_t)g->rows, w, nw, &y0, &y1);
	for (uint32_t y = y0; y < y1; y++) {
		struct tlcell *out = &v->tl[(size_t)y * (size_t)cw];
		for (int x = 0; x < cw; x++) {
			out[x] = (struct tlcell){ TRACE_NONE, TRACE_NONE, TRACE_NONE, 0 };
			cov.top[x] = cov.dom[x] = idle[x] = 0;
		}
		uint32_t pe = g->first_pe + y;
		if (pe >= p->n_pes || t1 == t0)
			continue;
		g->used[w] += pe_claims(v, p, pe, pe_lower(v, p, pe, t0), t1, out, &cov, g->blocks, g->hot);
		/* idle time shows where it covers more of a cell than any lop */
		for (uint32_t k = pes[pe].idle_first; k < pes[pe].idle_first + pes[pe].idle_count; k++) {
			uint64_t en = idles[k].t_begin, ex = idles[k].t_end;
			if (ex <= t0 || en >= t1)
				continue;
			int b0 = en <= t0 ? 0 : (int)((double)(en - t0) / per);
			int b1 = ex >= t1 ? cw - 1 : (int)((double)(ex - t0) / per);
			for (int b = b0 < cw ? b0 : cw - 1; b <= b1 && b < cw; b++) {
				double lo = (double)t0 + b * per, hi = lo + per;
				double s = (double)en > lo ? (double)en : lo, z = (double)ex < hi ? (double)ex : hi;
				if (z > s)
					idle[b] += (uint64_t)(z - s) + 1;
			}
		}
		for (int x = 0; x < cw; x++)
			if (idle[x] > cov.dom[x])
				out[x] = (struct tlcell){ VIEW_TL_IDLE, VIEW_TL_IDLE, TRACE_NONE, 0 };
	}
	view_tl_cov_free(&cov);
	free(idle);
	return 0;
}

/* Fills the timeline cache: per row (PE) and cell the lop that covers
 * most of the cell, or VIEW_TL_IDLE where idle time covers more; the
 * rows on every core (a whole run fitted claims millions of lops). */
int
view_pes_fill(struct view *v, int rows, int cw, uint32_t first_pe)
{
	struct view_pes *p = pes_index(v);
	if (!p)
		return ERR_NOMEM;
	uint64_t t0, t1;
	window_span(v, &t0, &t1);
	v->tl_t0 = t0;
	v->tl_t1 = t1;
	v->tl_w = cw;
	int hot = view_pes_by_metric(v);
	/* a metric worked out on first use (the critical path, the lanes'
	 * waits) is worked out here, before the workers (pes_hot's, the
	 * rows') read it */
	if (hot && p->first[p->n_pes])
		view_index_value(v->ix, v->metric, p->lops[0]);
	struct pes_rows g = { .v = v, .p = p, .rows = rows, .cw = cw, .hot = hot, .first_pe = first_pe,
			      .t0 = t0, .t1 = t1, .blocks = p->lv[1].blk && (!hot || pes_hot(v, p)) };
	uint32_t nw = par_workers();
	if (nw > (uint32_t)(rows > 0 ? rows : 1))
		nw = (uint32_t)(rows > 0 ? rows : 1);
	par_run(nw, pes_rows_worker, &g);
	for (uint32_t w = 0; w < nw; w++) {
		v->tl_blk_used += g.used[w];
		if (g.rc[w])
			return g.rc[w];
	}
	return 0;
}

/* The lop on PE pe running at t (or the nearest after it, else before). */
uint32_t
view_pe_lop_at(struct view *v, uint32_t pe, uint64_t t)
{
	struct view_pes *p = pes_index(v);
	if (!p || pe >= p->n_pes || p->first[pe] == p->first[pe + 1])
		return TRACE_NONE;
	uint32_t i = pe_lower(v, p, pe, t);
	if (i >= p->first[pe + 1])
		i = p->first[pe + 1] - 1;
	return p->lops[i];
}

/* The lop before (dir -1) or after (dir 1) lop on its PE in time. */
uint32_t
view_pe_step(struct view *v, uint32_t lop, int dir)
{
	struct view_pes *p = pes_index(v);
	if (!p || lop == TRACE_NONE)
		return TRACE_NONE;
	uint32_t pe = analysis_lop_pe(v->a, lop);
	for (uint32_t i = p->first[pe]; i < p->first[pe + 1]; i++)
		if (p->lops[i] == lop) {
			if (dir < 0)
				return i > p->first[pe] ? p->lops[i - 1] : TRACE_NONE;
			return i + 1 < p->first[pe + 1] ? p->lops[i + 1] : TRACE_NONE;
		}
	return TRACE_NONE;
}
