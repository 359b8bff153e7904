/* view_details.c — everything about the selected operation: where it
 * is, its times and metrics, the explanation of its lateness (seed 000,
 * Fig. 7) and its messages with the peers' lateness. Lines are built in
 * prepare (wrapped to the pane's width) and scrolled by the pane. */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/text.h"

/* The op's region, or "(computation)" for aggregated computation. */
static const char *
lop_name(const struct view *v, uint32_t lop)
{
	return view_region_name(v, analysis_lop_kind(v->a, lop) == OP_COMPUTE ? TRACE_NONE
				: analysis_lop_region(v->a, lop));
}

/* "exchange ← iteration": the user regions around the op, innermost first. */
static const char *
frames_text(struct view *v, uint32_t lop, char *buf, size_t n)
{
	uint32_t nf;
	const struct trace_frame *fr = trace_frames(v->t, &nf);
	uint32_t f = analysis_lop_frame(v->a, lop);
	size_t len = 0;
	buf[0] = 0;
	for (int depth = 0; f != TRACE_NONE && f < nf && depth < 4; depth++, f = fr[f].parent) {
		int k = snprintf(buf + len, n - len, "%s%s", depth ? " \u2190 " : "",
				 view_region_name(v, fr[f].region));
		if (k < 0 || (size_t)k >= n - len)
			break;
		len += (size_t)k;
	}
	return buf[0] ? buf : "(no user region)";
}

/* What the trace says went wrong around this op (trace.h's OPF_*): the
 * measurement quality a reader must know before trusting the numbers. */
static void
quality_lines(struct view *v, uint32_t lop)
{
	uint32_t first, count, nops;
	struct trace_opv ops = trace_ops(v->t, &nops);
	analysis_lop_ops(v->a, lop, &first, &count);
	unsigned flags = 0;
	for (uint32_t op = first; op < first + count && op < nops; op++)
		flags |= trace_op_get(&ops, op).flags;
	if (flags & OPF_MEASURE_GAP)
		view_lines_add(&v->details, ST_ERROR, "warning: measurement was switched off inside this "
			       "operation; its times are incomplete");
	if (flags & OPF_TRUNCATED)
		view_lines_add(&v->details, ST_ERROR, "warning: still open when the trace ends");
	if (flags & OPF_UNMATCHED)
		view_lines_add(&v->details, ST_ERROR, "warning: a message without a partner in the trace");
}

static void
messages(struct view *v, uint32_t lop)
{
	uint32_t first, count, nm, nc;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	const struct trace_coll *colls = trace_colls(v->t, &nc);
	analysis_lop_ops(v->a, lop, &first, &count);
	int in = 0, out = 0, done = 0;
	uint32_t calls = 0;       /* the ops alternate calls and the computation between them */
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			in += e[i].role == END_RECV;
			out += e[i].role == END_SEND;
			done += e[i].role == END_ISEND_DONE;
		}
		calls += trace_op(v->t, op).kind != OP_COMPUTE;
	}
	if (calls > 1)        /* as export's calls column counts them */
		view_lines_add(&v->details, ST_DIM, "%u calls (neighbouring Isends coalesced)", calls);
	if (in || out || done) {
		char head[128];
		int len = snprintf(head, sizeof head, "messages:");
		const char *sep = " ";
		if (in && len < (int)sizeof head)
			len += snprintf(head + len, sizeof head - (size_t)len, "%s%d received", sep, in), sep = " \u00b7 ";
		if (out && len < (int)sizeof head)
			len += snprintf(head + len, sizeof head - (size_t)len, "%s%d sent", sep, out), sep = " \u00b7 ";
		if (done && len < (int)sizeof head)
			snprintf(head + len, sizeof head - (size_t)len, "%scompletes %d Isend%s", sep, done,
				 done == 1 ? "" : "s");
		view_lines_add(&v->details, ST_TITLE, "%s", head);
	}
	char b[32], l[32];
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			if (e[i].role == END_COLL && e[i].id < nc) {
				const struct trace_coll *c = &colls[e[i].id];
				char root[24] = "-";
				if (c->root != TRACE_NONE)
					snprintf(root, sizeof root, "r%u", c->root);
				view_lines_add(&v->details, ST_TITLE, "%scollective %s%s",
					       c->flags & COLLF_RMA ? "window " : "",
					       trace_coll_type_name((enum trace_coll_type)c->type),
					       c->flags & COLLF_RMA && c->type == COLL_BARRIER ? " (fence)"
					       : c->flags & COLLF_NONBLOCKING ? " (non-blocking: completed here)" : "");
				view_lines_add(&v->details, ST_NORMAL, "  %u of %u members \u00b7 root %s", c->member_count, c->expected, root);
				continue;
			}
			if (e[i].id >= nm)
				continue;
			const struct trace_msg *m = &msgs[e[i].id];
			int recv = e[i].role == END_RECV, compl = e[i].role == END_ISEND_DONE;
			uint32_t peer = recv ? m->sender : m->receiver;
			uint32_t pop = recv ? m->send_op : m->recv_op;
			fmt_bytes((double)m->bytes, b, sizeof b);
			if (pop != TRACE_NONE)
				trace_fmt_duration(v->t, analysis_lop_lateness(v->a, analysis_op_lop(v->a, pop)), l, sizeof l);
			else
				snprintf(l, sizeof l, "unmatched");
			view_lines_add(&v->details, ST_NORMAL, "%s r%u tag %u %s%s", recv ? "\u2190" : "\u2192", peer, m->tag, b,
			    compl ? " (send completed here)" : "");
			char line[192], ts[32], tr[32], took[48] = "";
			if (m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE) {
				char d[32];
				snprintf(took, sizeof took, " \u00b7 took %s",
					 trace_fmt_duration(v->t, m->t_recv > m->t_send ? m->t_recv - m->t_send : 0,
							    d, sizeof d));
			}
			snprintf(line, sizeof line, "sent %s \u00b7 recv %s%s \u00b7 peer late %s",
				 fmt_time(trace_seconds(v->t, m->t_send), ts, sizeof ts),
				 fmt_time(trace_seconds(v->t, m->t_recv), tr, sizeof tr), took, l);
			view_lines_text(&v->details, ST_DIM, 4, 6, line);
		}
	}
}

/* "window 3", or the window's name */
static const char *
win_name(const struct view *v, uint32_t win, char *buf, size_t n)
{
	uint32_t nw;
	const struct trace_win *w = trace_wins(v->t, &nw);
	const char *name = win < nw ? trace_str(v->t, w[win].name) : NULL;
	if (name && name[0])
		snprintf(buf, n, "window %s", name);
	else
		snprintf(buf, n, "window %u", win);
	return buf;
}

/* One-sided communication of the op's calls: the operations they issued
 * (origin to target, bytes, how and where they completed), those they
 * completed, and the passive-target epochs the op lies in — for a call
 * with one-sided operations, those on their windows and targets
 * (doc/analysis.md "One-sided, non-blocking and persistent
 * operations"). The records are found by view_rma.h's searches. */
/* The windows and targets of a call's one-sided operations: its epochs
 * are looked for on them. */
#define RMA_PAIRS 16
struct rma_pairs {
	uint32_t win[RMA_PAIRS], target[RMA_PAIRS];
	int n, many;              /* more than RMA_PAIRS: any epoch will do */
};

static void
pairs_add(struct rma_pairs *p, const struct trace_rma *r)
{
	for (int k = 0; k < p->n; k++)
		if (p->win[k] == r->win && p->target[k] == r->target)
			return;
	if (p->n == RMA_PAIRS) {
		p->many = 1;
		return;
	}
	p->win[p->n] = r->win;
	p->target[p->n++] = r->target;
}

/* Epoch e is on one of p's windows and targets (a lock_all is on every
 * target); with none, every epoch is. */
static int
pairs_have(const struct rma_pairs *p, const struct trace_epoch *e)
{
	if (!p->n || p->many)
		return 1;
	for (int k = 0; k < p->n; k++)
		if (e->win == p->win[k] && (e->target == TRACE_NONE || e->target == p->target[k]))
			return 1;
	return 0;
}

static void
rma_lines(struct view *v, uint32_t lop)
{
	if (!trace_has_rma(v->t))
		return;
	if (!v->rma && view_rma_create(v->t, &v->rma)) {
		view_lines_add(&v->details, ST_ERROR, "one-sided records: out of memory");
		return;
	}
	uint32_t first, count, tl = analysis_lop_timeline(v->a, lop), r0;
	uint64_t en = analysis_lop_enter(v->a, lop), ex = analysis_lop_exit(v->a, lop);
	uint32_t nr = view_rma_issued(v->rma, tl, en, ex, &r0);
	const struct trace_rma *rmas = trace_rmas(v->t, NULL);
	analysis_lop_ops(v->a, lop, &first, &count);
	struct rma_pairs pairs = { .n = 0 };
#define IN_LOP(op) ((op) >= first && (op) < first + count)
	uint32_t issued = 0, done = 0;
	for (uint32_t i = r0; i < r0 + nr; i++)
		if (IN_LOP(rmas[i].op)) {
			issued++;
			pairs_add(&pairs, &rmas[i]);
		}
	const uint32_t *ids;
	uint32_t nd = view_rma_completed(v->rma, first, first + count, &ids);
	for (uint32_t k = 0; k < nd; k++)
		if (!IN_LOP(rmas[ids[k]].op)) {
			done++;
			if (!issued)
				pairs_add(&pairs, &rmas[ids[k]]);
		}
	char b[32], g[32], w[64], tgt[24], t0[32], t1[32];
	if (issued)
		view_lines_add(&v->details, ST_TITLE, "one-sided: %u operation%s", issued, issued == 1 ? "" : "s");
	uint32_t shown = 0;
	for (uint32_t i = r0; i < r0 + nr && shown < 8; i++) {
		const struct trace_rma *r = &rmas[i];
		if (!IN_LOP(r->op))
			continue;
		shown++;
		if (r->target != TRACE_NONE)
			snprintf(tgt, sizeof tgt, "r%u", r->target);
		else
			snprintf(tgt, sizeof tgt, "a device");
		fmt_bytes((double)r->bytes_sent, b, sizeof b);
		fmt_bytes((double)r->bytes_recv, g, sizeof g);
		view_lines_add(&v->details, ST_NORMAL, "%s %s %s · %s put · %s got · %s",
			       r->kind == RMA_GET ? "←" : "→", tgt,
			       trace_rma_kind_name((enum trace_rma_kind)r->kind), b, g,
			       win_name(v, r->win, w, sizeof w));
		const char *how = r->done == RMA_DONE_BLOCKING ? "inside this call"
			: r->done == RMA_DONE_LOCAL ? "at the origin" : r->done == RMA_DONE_REMOTE
			? "at the target too" : NULL;
		char line[192];
		if (how && r->done_op != TRACE_NONE && !IN_LOP(r->done_op))
			snprintf(line, sizeof line, "completed %s by %s at %s", how,
				 view_region_name(v, trace_op(v->t, r->done_op).region),
				 fmt_time(trace_seconds(v->t, r->t_done), t0, sizeof t0));
		else if (how)
			snprintf(line, sizeof line, "completed %s", how);
		else
			snprintf(line, sizeof line, "never completed in the trace");
		view_lines_text(&v->details, ST_DIM, 4, 6, line);
	}
	if (issued > shown)
		view_lines_add(&v->details, ST_DIM, "  and %u more", issued - shown);
	if (done)
		view_lines_add(&v->details, ST_TITLE, "completes %u one-sided operation%s issued before",
			       done, done == 1 ? "" : "s");
	const struct trace_epoch *ep = trace_epochs(v->t, NULL);
	uint32_t listed = 0, more = 0;
	for (uint32_t i = view_rma_next_epoch(v->rma, tl, en, ex, TRACE_NONE); i != TRACE_NONE;
	     i = view_rma_next_epoch(v->rma, tl, en, ex, i)) {
		const struct trace_epoch *e = &ep[i];
		if (!pairs_have(&pairs, e))
			continue;
		if (listed == 4) {
			more++;
			continue;
		}
		listed++;
		if (e->target != TRACE_NONE)
			snprintf(tgt, sizeof tgt, "rank %u", e->target);
		else
			snprintf(tgt, sizeof tgt, "every rank");
		char line[192];
		snprintf(line, sizeof line, "in a passive-target epoch: %s lock of %s on %s, %s to %s%s",
			 e->shared ? "shared" : "exclusive", tgt, win_name(v, e->win, w, sizeof w),
			 fmt_time(trace_seconds(v->t, e->t_begin), t0, sizeof t0),
			 fmt_time(trace_seconds(v->t, e->t_end), t1, sizeof t1),
			 e->open ? " (never released)" : "");
		view_lines_text(&v->details, ST_NORMAL, 0, 2, line);
	}
	if (more)
		view_lines_add(&v->details, ST_DIM, "  and %u more passive-target epoch%s", more, more == 1 ? "" : "s");
#undef IN_LOP
}

/* What the rank's threads and GPU streams did while the op ran: each
 * one's busy share and its main region (doc/explorer.md). */
static void
lane_lines(struct view *v, uint32_t lop)
{
	uint32_t ids[VIEW_MAX_LANE_ROWS], tl = analysis_lop_timeline(v->a, lop);
	uint32_t n = view_lanes_of(v->t, tl, ids, VIEW_MAX_LANE_ROWS);
	uint64_t en = analysis_lop_enter(v->a, lop), ex = analysis_lop_exit(v->a, lop);
	if (!n || ex <= en)
		return;
	view_lines_add(&v->details, ST_TITLE, "threads and streams meanwhile");
	const struct trace_lane *L = trace_lanes(v->t, NULL);
	const struct trace_location *locs = trace_locations(v->t, NULL);
	for (uint32_t i = 0; i < n && i < 8; i++) {
		uint32_t top;
		uint64_t busy = view_lane_busy(v->t, ids[i], en, ex, &top);
		char buf[64], line[256];
		const char *name = text_safe(trace_str(v->t, locs[L[ids[i]].location].name), buf, sizeof buf);
		if (!busy)
			snprintf(line, sizeof line, "%s: idle", name);
		else if (100 * busy < ex - en)
			snprintf(line, sizeof line, "%s: busy <1%%, mostly %s", name, view_region_name(v, top));
		else
			snprintf(line, sizeof line, "%s: busy %.0f%%, mostly %s", name,
				 100.0 * (double)busy / (double)(ex - en), view_region_name(v, top));
		view_lines_text(&v->details, ST_NORMAL, 2, 4, line);
	}
	if (n > 8)
		view_lines_add(&v->details, ST_DIM, "  and %u more", n - 8);
}

/* The automatic choices behind what the details show (doc/analysis.md). */
static void
choices(struct view *v, uint32_t lop)
{
	const struct analysis *a = v->a;
	const struct analysis_opts *o = analysis_options(a);
	uint32_t np, p = analysis_lop_part(a, lop);
	const struct analysis_part *parts = analysis_parts(a, &np);
	char line[192];
	if (analysis_lop_startup(a, lop)) {
		snprintf(line, sizeof line, "start-up: before this rank's first communication; %s",
			 view_index_startup(v->ix) ? "counted in scales, time axes and hotspots"
			 : "left out of scales, time axes and hotspots");
		view_lines_text(&v->details, ST_DIM, 0, 2, line);
	}
	if (p < np && parts[p].merged_from > 1) {
		snprintf(line, sizeof line, "partition merged from %u that shared global steps%s",
			 parts[p].merged_from, o->global_step_merge ? " (global-step merge)" :
			 " and made the same calls (automatic)");
		view_lines_text(&v->details, ST_DIM, 0, 2, line);
	}
}

/* The cause in words that say which: the computation or the call itself
 * (the seed's case a covers both), and for a late receive the send its
 * lateness came with. */
static const char *
cause_words(const struct view *v, uint32_t lop)
{
	const struct analysis *a = v->a;
	switch (analysis_lop_cause(a, lop)) {
	case CAUSE_COMPUTE:
		return analysis_lop_kind(a, lop) == OP_COMPUTE
			? "lateness created here, by this computation, not inherited"
			: "lateness created here, inside the call itself, not inherited: the computation "
			  "before it was not late";
	case CAUSE_TIMELINE:
		return "lateness inherited along the rank from the operation before it";
	case CAUSE_IN_FLIGHT:
		return "lateness created at this receive: its senders were not late, so the message was "
		       "late in flight or slow to receive";
	case CAUSE_MESSAGE:
		return "lateness inherited across ranks, with a message from a late sender";
	default:
		return analysis_cause_text(analysis_lop_cause(a, lop));
	}
}

/* The send of a message this receive took whose sender is on rank tl:
 * the latest such send (TRACE_NONE if none). */
static uint32_t
send_from(struct view *v, uint32_t lop, uint32_t tl)
{
	uint32_t first, count, nm, best = TRACE_NONE;
	const struct trace_msg *msgs = trace_msgs(v->t, &nm);
	analysis_lop_ops(v->a, lop, &first, &count);
	for (uint32_t op = first; op < first + count; op++) {
		uint32_t ne;
		const struct trace_end *e = trace_op_ends(v->t, op, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			if (e[i].role != END_RECV || e[i].id >= nm || msgs[e[i].id].send_op == TRACE_NONE)
				continue;
			uint32_t s = analysis_op_lop(v->a, msgs[e[i].id].send_op);
			if (s != TRACE_NONE && analysis_lop_timeline(v->a, s) == tl &&
			    (best == TRACE_NONE || analysis_lop_step(v->a, s) > analysis_lop_step(v->a, best)))
				best = s;
		}
	}
	return best;
}

/* Where its lateness came from, and `c`: for a receive, the send (the
 * seed's case d), and, when the message waited for its sender to reach
 * the call completing it, that wait's operation, where `c` goes. */
static void
cause_from(struct view *v, uint32_t lop)
{
	const struct analysis *a = v->a;
	struct view_lines *L = &v->details;
	uint32_t c = analysis_lop_cause_lop(a, lop);
	if (c == TRACE_NONE)
		return;
	char line[320], ck[16], d[32], d2[32];
	keymap_first_key(v->km, ACT_GOTO_CAUSE, ck, sizeof ck);
	char go[48] = "";
	if (ck[0])
		snprintf(go, sizeof go, " \u2014 %s goes there", ck);
	uint32_t s = analysis_lop_cause(a, lop) == CAUSE_MESSAGE ? send_from(v, lop, analysis_lop_timeline(a, c))
		: TRACE_NONE;
	if (s != TRACE_NONE && s != c) {
		snprintf(line, sizeof line, "from rank %u's %s (step %u), late %s; its message left when rank %u "
			 "reached the call completing it, after %s (step %u), late %s%s",
			 analysis_lop_timeline(a, s), lop_name(v, s), analysis_lop_step(a, s),
			 trace_fmt_duration(v->t, analysis_lop_lateness(a, s), d, sizeof d),
			 analysis_lop_timeline(a, c),
			 analysis_lop_kind(a, c) == OP_COMPUTE ? "its computation" : lop_name(v, c),
			 analysis_lop_step(a, c), trace_fmt_duration(v->t, analysis_lop_lateness(a, c), d2, sizeof d2),
			 go);
	} else {
		snprintf(line, sizeof line, "from rank %u's %s (step %u), late %s%s", analysis_lop_timeline(a, c),
			 analysis_lop_kind(a, c) == OP_COMPUTE ? "computation" : lop_name(v, c), analysis_lop_step(a, c),
			 trace_fmt_duration(v->t, analysis_lop_lateness(a, c), d, sizeof d), go);
	}
	view_lines_text(L, ST_NORMAL, 2, 4, line);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Lateness is against the other ranks at the same step of the partition:
 * who left first, and how long the others took against this one. */
static void
peers_line(struct view *v, uint32_t lop)
{
	const struct analysis *a = v->a;
	uint64_t late = analysis_lop_lateness(a, lop);
	if (!late)
		return;
	uint32_t step = analysis_lop_step(a, lop), part = analysis_lop_part(a, lop);
	uint32_t me = analysis_lop_timeline(a, lop), nr = view_index_ranks(v->ix);
	uint32_t first = TRACE_NONE, n = 0;
	uint64_t *dur = malloc((size_t)(nr ? nr : 1) * sizeof *dur);
	if (!dur)
		return;
	for (uint32_t r = 0; r < nr; r++) {
		uint32_t l = view_index_lop_at(v->ix, r, step);
		if (l == TRACE_NONE || analysis_lop_part(a, l) != part || r == me)
			continue;
		if (first == TRACE_NONE || analysis_lop_exit(a, l) < analysis_lop_exit(a, first))
			first = l;
		dur[n++] = analysis_lop_duration(a, l);
	}
	if (first != TRACE_NONE) {
		qsort(dur, n, sizeof *dur, cmp_u64);
		char d[32], m[32], line[256];
		snprintf(line, sizeof line, "at step %u rank %u left first, %s before this; the other %u rank%s "
			 "took %s (median)", step, analysis_lop_timeline(a, first),
			 trace_fmt_duration(v->t, late, d, sizeof d), n, n == 1 ? "" : "s",
			 trace_fmt_duration(v->t, dur[n / 2], m, sizeof m));
		view_lines_text(&v->details, ST_NORMAL, 0, 2, line);
	}
	free(dur);
}

/* The operation: what and where, then what a reader came for (lateness,
 * differential and global lateness, duration, the cause and where it
 * came from), then its place in the structure, its times and messages.
 * Wide (stacked under the grid, where few lines show), pairs share a
 * line, so that lateness and cause are in the first three lines. */
static void
lop_details(struct view *v, uint32_t lop, int wide)
{
	const struct analysis *a = v->a;
	struct view_lines *L = &v->details;
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	uint32_t p = analysis_lop_part(a, lop);
	enum trace_op_kind kind = analysis_lop_kind(a, lop);
	char d[32], g[32], f[32], u[32], fr[192];
	int startup = analysis_lop_startup(a, lop);
	uint64_t en = analysis_lop_enter(a, lop), ex = analysis_lop_exit(a, lop);
	uint64_t late = analysis_lop_lateness(a, lop), diff = analysis_lop_diff(a, lop);
	trace_fmt_duration(v->t, late, d, sizeof d);
	trace_fmt_duration(v->t, diff, f, sizeof f);
	trace_fmt_duration(v->t, analysis_lop_global_lateness(a, lop), g, sizeof g);
	trace_fmt_duration(v->t, analysis_lop_duration(a, lop), u, sizeof u);
	int lstyle = ST_HEAT0 + view_index_level(v->ix, METRIC_LATENESS, late);
	int dstyle = ST_HEAT0 + view_index_level(v->ix, METRIC_DIFF, diff);
	enum analysis_cause cause = analysis_lop_cause(a, lop);
	int cstyle = cause == CAUSE_NONE ? ST_NORMAL : ST_EMPH;
	if (wide) {
		view_lines_add(L, ST_TITLE, "rank %u \u00b7 step %u \u00b7 %s \u00b7 %s operation%s",
			       analysis_lop_timeline(a, lop), analysis_lop_step(a, lop), lop_name(v, lop),
			       trace_op_kind_name(kind), startup ? " \u00b7 start-up" : "");
		view_lines_add(L, late > diff ? lstyle : dstyle, "lateness %s \u00b7 diff. %s \u00b7 global %s \u00b7 duration %s",
			       d, f, g, u);
		view_lines_add(L, cstyle, "cause %s: %s", analysis_cause_name(cause),
			       cause_words(v, lop));
	} else {
		view_lines_add(L, ST_TITLE, "rank %u \u00b7 step %u \u00b7 %s", analysis_lop_timeline(a, lop),
			       analysis_lop_step(a, lop), lop_name(v, lop));
		view_lines_add(L, ST_DIM, "%s operation%s", trace_op_kind_name(kind),
			       startup ? " \u00b7 start-up" : "");
		view_lines_add(L, lstyle, "lateness  %s", d);
		view_lines_add(L, dstyle, "diff.     %s", f);
		view_lines_add(L, ST_NORMAL, "global    %s", g);
		view_lines_add(L, ST_NORMAL, "duration  %s", u);
		view_lines_add(L, cstyle, "cause     %s", analysis_cause_name(cause));
		view_lines_text(L, ST_NORMAL, 2, 4, cause_words(v, lop));
	}
	cause_from(v, lop);
	peers_line(v, lop);
	view_explain_details(v, lop);
	quality_lines(v, lop);
	const char *in = frames_text(v, lop, fr, sizeof fr);
	if (wide) {
		if (p < np)
			view_lines_add(L, ST_NORMAL, "in %s \u00b7 partition %u/%u \u00b7 steps %u\u2013%u \u00b7 %u rank%s \u00b7 local step %u",
				       in, p, np, parts[p].step_first,
				       parts[p].step_first + parts[p].step_count - 1, parts[p].ranks,
				       parts[p].ranks == 1 ? "" : "s", analysis_lop_local_step(a, lop));
		else
			view_lines_add(L, ST_NORMAL, "in %s", in);
	} else {
		view_lines_add(L, ST_NORMAL, "in %s", in);
		if (p < np)
			view_lines_add(L, ST_NORMAL, "partition %u/%u \u00b7 steps %u\u2013%u \u00b7 %u rank%s",
				       p, np, parts[p].step_first,
				       parts[p].step_first + parts[p].step_count - 1, parts[p].ranks,
				       parts[p].ranks == 1 ? "" : "s");
	}
	if (p < np && v->part_phase && v->part_phase[p])
		view_lines_add(L, ST_NORMAL, "phase     %s", v->part_phase[p]);
	view_iter_details(v, lop);
	char te[32], tx[32];
	fmt_time(trace_seconds(v->t, en), te, sizeof te);
	fmt_time(trace_seconds(v->t, ex), tx, sizeof tx);
	if (wide) {
		view_lines_add(L, ST_NORMAL, "enter %s \u00b7 exit %s", te, tx);
	} else {
		view_lines_add(L, ST_NORMAL, "local step %u \u00b7 global step %u", analysis_lop_local_step(a, lop),
			       analysis_lop_step(a, lop));
		view_lines_add(L, ST_NORMAL, "enter     %s", te);
		view_lines_add(L, ST_NORMAL, "exit      %s", tx);
	}
	choices(v, lop);
	view_diff_details(v, lop);
	messages(v, lop);
	rma_lines(v, lop);
	lane_lines(v, lop);
}

/* "r20" or "r20–23", "steps 76" or "steps 76–79". */
static const char *
span(char *buf, size_t n, const char *what, uint32_t first, uint32_t last)
{
	if (first == last)
		snprintf(buf, n, "%s%u", what, first);
	else
		snprintf(buf, n, "%s%u\u2013%u", what, first, last);
	return buf;
}

static void
det_title(struct view *v, char *buf, size_t n)
{
	(void)v;
	snprintf(buf, n, "details");
}

/* The details' lines, wrapped at w columns (wide: the layout for 60 and
 * more). */
static void
det_build(struct view *v, int w, int h, int wide)
{
	view_lines_begin(&v->details, w, h);
	uint32_t nrows;
	const struct view_row *rows = v->clustered ? view_cluster_rows(v->vc, &nrows) : NULL;
	if (rows && v->sel_row < nrows) {
		const struct view_row *r = &rows[v->sel_row];
		uint32_t cnt;
		view_cluster_members(v->vc, r->group, &cnt);
		char label[48], ranks[160];
		view_row_label(v, v->sel_row, label, sizeof label);
		const char *noun = view_row_noun(v), *many = cnt == 1 ? "" : "s";
		char medoid[VIEW_MAX_ROW_NAME + 16];
		view_row_name(v, view_cluster_medoid(v->vc, r->group), medoid, sizeof medoid);
		if (r->rank == TRACE_NONE) {
			uint32_t ns = view_index_steps(v->ix), s0 = v->sel_step / v->zs * v->zs;
			uint32_t s1 = s0 + v->zs > ns ? ns : s0 + v->zs;
			view_lines_add(&v->details, ST_TITLE, "cluster c%u \u00b7 %u %s%s \u00b7 medoid %s", r->group, cnt,
			    noun, many, medoid);
			view_cluster_ranges(v->vc, r->group, ranks, sizeof ranks);
			/* a Charm++ run's chares by their rows: names would not fit */
			view_lines_add(&v->details, ST_NORMAL, "%s%s %s", view_is_charm(v) ? "chare row" : "rank", many,
				       ranks);
			if (s1 > s0 + 1)
				view_lines_add(&v->details, ST_NORMAL, "steps %u\u2013%u", s0, s1 - 1);
			if (view_metric_numeric(v->metric) && v->sel_max != TRACE_NONE) {
				char d[32];
				trace_fmt_duration(v->t, view_index_value(v->ix, v->metric, v->sel_max), d, sizeof d);
				view_lines_add(&v->details, ST_NORMAL, "%u operation%s \u00b7 max %s %s", v->sel_count,
				    v->sel_count == 1 ? "" : "s", view_metric_title(v->metric), d);
			} else {
				view_lines_add(&v->details, ST_NORMAL, "%u operation%s", v->sel_count, v->sel_count == 1 ? "" : "s");
			}
			if (v->sel_lop != TRACE_NONE)
				view_lines_add(&v->details, ST_DIM, "%s:", v->pinned ? "the operation jumped to" : "the one with the maximum");
		} else {
			view_lines_add(&v->details, ST_DIM, "in cluster c%u (%u %s%s, medoid %s)", r->group, cnt, noun, many,
				       medoid);
		}
	}
	if ((v->zs > 1 || v->zr > 1) && !(rows && v->sel_row < nrows && rows[v->sel_row].rank == TRACE_NONE)) {
		uint32_t r0 = v->sel_rank / v->zr * v->zr, s0 = v->sel_step / v->zs * v->zs;
		uint32_t r1 = r0 + v->zr, s1 = s0 + v->zs;
		uint32_t nr = view_index_ranks(v->ix), ns = view_index_steps(v->ix);
		r1 = r1 > nr ? nr : r1;
		s1 = s1 > ns ? ns : s1;
		char rs[48], ss[48];
		view_lines_add(&v->details, ST_TITLE, "block %s \u00d7 %s", span(rs, sizeof rs, "r", r0, r1 - 1),
			       span(ss, sizeof ss, s1 - s0 > 1 ? "steps " : "step ", s0, s1 - 1));
		if (view_metric_numeric(v->metric) && v->sel_max != TRACE_NONE) {
			char d[32];
			trace_fmt_duration(v->t, view_index_value(v->ix, v->metric, v->sel_max), d, sizeof d);
			view_lines_add(&v->details, ST_NORMAL, "%u operations \u00b7 max %s %s", v->sel_count, view_metric_title(v->metric), d);
		} else {
			view_lines_add(&v->details, ST_NORMAL, "%u operations", v->sel_count);
		}
		view_lines_add(&v->details, ST_DIM, "%s:", v->pinned ? "the operation jumped to" : "the one with the maximum");
	}
	if (v->sel_lop == TRACE_NONE) {
		char who[VIEW_MAX_ROW_NAME + 32];
		view_row_name(v, v->sel_rank, who, sizeof who);
		view_lines_add(&v->details, ST_TITLE, "%s%s \u00b7 step %u", view_is_charm(v) ? "" : "rank ",
			       view_is_charm(v) ? who : who + 1, v->sel_step);
		view_lines_add(&v->details, ST_DIM, "no operation of this %s at this step",
			       view_is_charm(v) ? "chare" : "rank");
	} else if (view_is_charm(v)) {
		view_charm_details(v, v->sel_lop, wide);
	} else {
		lop_details(v, v->sel_lop, wide);
	}
}

static void
det_prepare(struct view *v, int w, int h)
{
	/* lines use the whole width while they all fit; when they scroll,
	 * the last column is the arrows' (↑ ↓), so they wrap one narrower */
	det_build(v, w, h, w >= 60);
	if (v->details.n > h && w > 12)
		det_build(v, w - 1, h, w >= 60);
	view_lines_end(&v->details);
}

static void
det_row(struct view *v, int y, struct grid *row)
{
	view_lines_row(&v->details, y, 0, row);
}

static int
det_request(struct view *v, enum action act)
{
	return view_lines_scroll(&v->details, act);
}

static const struct pane_key det_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "scroll a line up / down" },
	{ ACT_PAGE_UP, ACT_PAGE_DOWN, "scroll a page up / down" },
	{ ACT_FIRST_RANK, ACT_LAST_RANK, "the top / the end" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_details_ops = {
	.name = "details",
	.focusable = 1,
	.title = det_title,
	.prepare = det_prepare,
	.row = det_row,
	.request = det_request,
	.keys_title = "In the details",
	.keys = det_keys,
};
