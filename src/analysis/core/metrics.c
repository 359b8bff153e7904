/* metrics.c — lateness and differential lateness (seed 000, section 4),
 * the Fig. 7 explanation of each late operation, and the hotspots.
 *
 * lateness(op)  = the exit time of op minus the earliest exit among ops
 *                 of its partition and step
 * global        = the same over all ops sharing its global step
 * diff(op)      = max(0, lateness(op) - max lateness of its immediate
 *                 predecessors: the previous op on its timeline and, for a
 *                 receive, the sends it matched; with sender_progress,
 *                 also the computation before the call that completed a
 *                 non-blocking send, when the receive completed after
 *                 that call began)
 * Each is one pass over the lops (a partition's minima live in an array
 * as wide as the partition), not one pass per step. Lateness is not
 * kept per lop, only the minima (a->pmin, a->gmin: lop_late, lop_glate
 * in analysis_impl.h work it out again); each lop keeps its differential
 * lateness in 32 bits (larger ones aside) and a byte for its cause,
 * whether it came from start-up, and where among its receive ends the
 * sender it was propagated from is (lop_cause_lop finds that lop
 * again): 5 bytes a lop instead of 30. What a receive needs from its
 * senders is set out first by the senders' workers, in their own order,
 * as 8 bytes a message (struct sent).
 */
#include "analysis_impl.h"

#include "base/par.h"
#include "base/recycle.h"
#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* How many ends ahead differential() asks for the message */
#define PREFETCH 8

static int
receiving(uint8_t kind)
{
	return kind == OP_RECV || kind == OP_SENDRECV;
}

/* The hotspots among a share of the lops: the k best without start-up
 * lops (but with opts.startup), and with them; start-up lops left out
 * are counted. A candidate is its key (differential lateness, or for
 * Charm++ the differential duration) and lop, kept by sort_top_offer. */
struct hot_lists {
	struct sort_kv *h, *h_all;
	uint32_t n, n_all;
	uint32_t hidden;
};

static void
hot_see(const struct analysis *a, struct hot_lists *hl, uint32_t l, uint64_t key)
{
	if (key == 0)
		return;
	struct sort_kv x = { key, l };
	uint32_t k = a->opts.hotspots;
	int su = a->charm ? analysis_lop_charm_setup(a, l) : analysis_lop_startup(a, l);
	if (a->opts.startup || !su)
		hl->n = sort_top_offer(hl->h, hl->n, k, x);
	if (!a->opts.startup) {
		hl->n_all = sort_top_offer(hl->h_all, hl->n_all, k, x);
		hl->hidden += su;
	}
}

/* The ranks are cut into pieces (contiguous, their lops read in order)
 * that the workers take in turn (par_take): first the minima of the
 * lops' exits per partition step and per global step, each worker its
 * own (worker 0's become a->pmin and a->gmin), then differential
 * lateness, causes and hotspots. */
/* What a piece sets aside while differential lateness is worked out:
 * its lops' values too large for a->diff and cause lops their cause
 * byte cannot name (each in lop order), its hotspots, and the receives
 * sender progress decided. */
struct aside {
	struct lop_big *big;
	size_t n_big, cap_big;
	struct lop_far *far;
	size_t n_far, cap_far;
	struct hot_lists hot;
	uint32_t progress;
};

/* What the receiver of a message needs from the sender's side, worked
 * out by the sender's worker walking its own lops in order (sent_side),
 * so that a receive reads one small record at a random place instead of
 * the message, its sender lop and that lop's partition step, and the op
 * that completed the send: late is SENT_NOT_OK for a message msg_ok
 * refuses, SENT_SELF for one its own lop receives, else the sender lop's
 * lateness plus SENT_LATE; prog is SENT_NO_PROG without a progress_pred
 * lop, else its lateness plus SENT_PROG. SENT_FAR (0, so that a record
 * the sender's side did not set says it, or a value too large): the
 * receiver works it out itself. */
struct sent {
	uint32_t late, prog;
};
#define SENT_FAR 0u
#define SENT_NOT_OK 1u
#define SENT_SELF 2u
#define SENT_LATE 3u
#define SENT_NO_PROG 1u
#define SENT_PROG 2u

struct metering {
	struct analysis *a;
	struct par_pieces pieces;     /* of the ranks, tl_cut[] */
	uint32_t tl_cut[PAR_PIECES_MAX + 1];
	uint64_t *pmin[PAR_MAX];      /* per worker, pmin_first[n_parts] wide */
	uint64_t *gmin[PAR_MAX];      /* per worker, n_steps wide */
	struct aside aside[PAR_PIECES_MAX];
	struct sent *sent;            /* per message */
	int phase;                    /* 0 minima, 1 sent_side, 2 differential */
};

static int differential(struct analysis *a, const struct sent *sent, uint32_t tl0, uint32_t tl1,
			struct aside *as);
static void sent_side(const struct analysis *a, struct sent *sent, uint32_t tl0, uint32_t tl1);

static int
metric_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct metering *m = ctx;
	struct analysis *a = m->a;
	uint32_t c;
	if (m->phase == 1) {
		while (par_take(&m->pieces, w, &c))
			sent_side(a, m->sent, m->tl_cut[c], m->tl_cut[c + 1]);
		return 0;
	}
	if (m->phase == 2) {
		while (par_take(&m->pieces, w, &c)) {
			struct hot_lists *hl = &m->aside[c].hot;
			size_t k = (size_t)a->opts.hotspots + 1;
			hl->h = malloc(k * sizeof *hl->h);
			hl->h_all = malloc(k * sizeof *hl->h_all);
			if (!hl->h || !hl->h_all)
				return ERR_NOMEM;
			int rc = differential(a, m->sent, m->tl_cut[c], m->tl_cut[c + 1], &m->aside[c]);
			if (rc)
				return rc;
		}
		return 0;
	}
	size_t np = a->pmin_first[a->n_parts];
	uint64_t *pmin = malloc((np + 1) * sizeof *pmin);
	uint64_t *g = malloc(((size_t)a->n_steps + 1) * sizeof *g);
	m->pmin[w] = pmin;
	m->gmin[w] = g;
	if (!pmin || !g)
		return ERR_NOMEM;
	memset(pmin, 0xff, (np + 1) * sizeof *pmin);
	memset(g, 0xff, ((size_t)a->n_steps + 1) * sizeof *g);
	while (par_take(&m->pieces, w, &c)) {
		uint32_t l0 = a->tl_lop[m->tl_cut[c]], l1 = a->tl_lop[m->tl_cut[c + 1]];
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t p = a->lop_part[l], s = a->lop_step[l];
			if (s == TRACE_NONE)
				continue;
			uint64_t x = lop_exit(a, l);
			if (p != TRACE_NONE) {
				uint64_t *k = &pmin[a->pmin_first[p] + s - a->parts[p].step_first];
				if (x < *k)
					*k = x;
			}
			if (x < g[s])
				g[s] = x;
		}
	}
	return 0;
}

static uint64_t
tl_size(const void *ctx, uint32_t tl)
{
	const struct analysis *a = ctx;
	return (uint64_t)(a->tl_lop[tl + 1] - a->tl_lop[tl]) + 1;
}

/* The computation before the call that completed the non-blocking send
 * of message m, when receive lop r completed only after that call began:
 * without a progress thread the data may have moved only then, so what
 * delayed the call delayed the receive. TRACE_NONE otherwise. */
static uint32_t
progress_pred(const struct analysis *a, uint32_t r, uint32_t m)
{
	const struct trace_msg *msg = &a->msgs[m];
	if (msg->send_done_op == TRACE_NONE || msg->send_done_op == msg->send_op)
		return TRACE_NONE;
	uint32_t w = op_lop_of(a, msg->send_done_op);
	if (w == r || w == a->tl_lop[a->lop_tl[w]] || msg->t_recv < lop_enter(a, w))
		return TRACE_NONE;
	return w - 1;
}

/* Does lop l hold op x? A lop's ops are consecutive (lops.c,
 * lops_permute.c), so this is op_lop[x] == l without reading op_lop at
 * x, which for a message's other end is at a random place. */
static int
lop_holds(const struct analysis *a, uint32_t l, uint32_t x)
{
	return x >= lop_first_op(a, l) && x <= lop_last_op(a, l);
}

static uint32_t
sent_code(uint64_t v, uint32_t off)
{
	return v <= (uint64_t)UINT32_MAX - off ? (uint32_t)(v + off) : SENT_FAR;
}

/* The struct sent of every message sent from timelines tl0 .. tl1 - 1:
 * the same values progress_pred and lop_late give the receiver, read
 * here in the sender's order (its ends, messages, lops and partition
 * steps all lie ahead on its own timeline). */
static void
sent_side(const struct analysis *a, struct sent *sent, uint32_t tl0, uint32_t tl1)
{
	const struct trace_msg *msgs = a->msgs;
	for (uint32_t s = a->tl_lop[tl0]; s < a->tl_lop[tl1]; s++) {
		if (a->lop_kind[s] == OP_COMPUTE)
			continue;
		uint32_t ne;
		const struct trace_end *e = lop_ends(a, s, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			uint32_t m = e[i].id;
			if (e[i].role != END_SEND)
				continue;
			if (!msg_ok(a, m)) {
				sent[m].late = SENT_NOT_OK;
				continue;
			}
			const struct trace_msg *msg = &msgs[m];
			struct sent x = { SENT_FAR, SENT_FAR };
			if (lop_holds(a, s, msg->send_op))   /* else: the receiver looks */
				x.late = lop_holds(a, s, msg->recv_op) ? SENT_SELF
					: sent_code(lop_late(a, s), SENT_LATE);
			if (!a->opts.sender_progress || msg->send_done_op == TRACE_NONE ||
			    msg->send_done_op == msg->send_op) {
				x.prog = SENT_NO_PROG;
			} else {
				uint32_t w = op_lop_of(a, msg->send_done_op);
				if (a->lop_tl[w] != a->lop_tl[s])
					x.prog = SENT_FAR;   /* not on the sender's timeline */
				else if (lop_holds(a, w, msg->recv_op) || w == a->tl_lop[a->lop_tl[w]] ||
					 msg->t_recv < lop_enter(a, w))
					x.prog = SENT_NO_PROG;
				else
					x.prog = sent_code(lop_late(a, w - 1), SENT_PROG);
			}
			sent[m] = x;
		}
	}
}

/* The lop that src (as the cause byte says it, CAUSE_SRC_SHIFT) names
 * among receive lop l's ends. */
static uint32_t
src_lop(const struct analysis *a, uint32_t l, uint32_t src)
{
	uint32_t ne, k = src / 2;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (e[i].role != END_RECV || k--)
			continue;
		/* a saved file's cause byte may name a message without its
		 * sender (saved_check.c checks indices, not causes) */
		uint32_t s = a->msgs[e[i].id].send_op;
		return src % 2 ? progress_pred(a, l, e[i].id) : s == TRACE_NONE ? TRACE_NONE : op_lop_of(a, s);
	}
	return TRACE_NONE;
}

/* Differential lateness and the Fig. 7 case of each lop. A late op is
 * "created here" (a, or c for a receive) when at least half its lateness
 * is its own (diff >= inherited part); otherwise it was propagated from
 * whichever predecessor was latest: along the timeline (b) or from a
 * sender (d). doc/analysis.md explains the threshold. */
static int
differential(struct analysis *a, const struct sent *sent_of, uint32_t tl0, uint32_t tl1,
	     struct aside *as)
{
	const struct trace_msg *msgs = a->msgs;
	for (uint32_t tl = tl0; tl < tl1; tl++) {
		uint64_t prev_late = 0;      /* of the lop before on the timeline */
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t prev = 0, sent = 0, plain = 0;
			uint32_t src = 0;
			int have = 0;                /* sent is some sender's */
			if (l > a->tl_lop[tl])
				prev = prev_late;
			if (receiving(a->lop_kind[l])) {
				uint32_t ne, n_recv = 0;
				const struct trace_end *e = lop_ends(a, l, &ne);
				for (uint32_t i = 0; i < ne; i++) {
					/* messages are read in the order of their ends,
					 * at random places: ask for some ahead */
					size_t ahead = (size_t)(e - a->ends) + i + PREFETCH;
					if (ahead < a->n_ends && a->ends[ahead].role == END_RECV)
						__builtin_prefetch(&sent_of[a->ends[ahead].id]);
					if (e[i].role != END_RECV)
						continue;
					uint32_t k = n_recv++;      /* where the cause byte names it */
					struct sent x = sent_of[e[i].id];
					if (x.late == SENT_NOT_OK)
						continue;
					int self;
					uint64_t ls;
					if (x.late == SENT_FAR) {
						if (!msg_ok(a, e[i].id))
							continue;
						uint32_t s = op_lop_of(a, msgs[e[i].id].send_op);
						self = s == l;
						ls = self ? 0 : lop_late(a, s);
					} else {
						self = x.late == SENT_SELF;
						ls = self ? 0 : x.late - SENT_LATE;
					}
					if (!self && (!have || ls > sent)) {
						sent = ls;
						have = 1;
						src = 2 * k;
					}
					if (!self && ls > plain)
						plain = ls;
					int by_progress = x.prog != SENT_NO_PROG;
					uint64_t lc = (uint64_t)x.prog - SENT_PROG;
					if (x.prog == SENT_FAR) {
						uint32_t c = progress_pred(a, l, e[i].id);
						by_progress = c != TRACE_NONE;
						lc = by_progress ? lop_late(a, c) : 0;
					}
					if (by_progress && (!have || lc > sent)) {
						sent = lc;
						have = 1;
						src = 2 * k + 1;
					}
				}
			}
			/* the latest predecessor: what the lateness is measured from */
			int from_sender = have && sent >= prev;
			uint64_t pred = from_sender ? sent : prev;
			uint64_t late = lop_late(a, l);
			uint64_t diff = late > pred ? late - pred : 0;
			prev_late = late;
			/* counted where sender progress lowered what was created */
			as->progress += sent > plain && sent > prev && late > (plain > prev ? plain : prev);
			hot_see(a, &as->hot, l, a->dur_diff ? a->dur_diff[l] : diff);
			a->diff[l] = diff < DIFF_BIG ? (uint32_t)diff : DIFF_BIG;
			if (diff >= DIFF_BIG) {
				if (VEC_GROW(as->big, as->n_big, as->cap_big))
					return ERR_NOMEM;
				as->big[as->n_big++] = (struct lop_big){ l, 0, diff };
			}
			int far;
			a->cause[l] = metrics_cause(late, diff, receiving(a->lop_kind[l]), from_sender, src,
						    &far);
			if (far) {
				if (VEC_GROW(as->far, as->n_far, as->cap_far))
					return ERR_NOMEM;
				as->far[as->n_far++] = (struct lop_far){ l, src_lop(a, l, src) };
			}
		}
	}
	return 0;
}

uint64_t
lop_diff_big(const struct analysis *a, uint32_t l)
{
	uint32_t i = (uint32_t)vec_find_u32(a->diff_big, a->n_diff_big, sizeof *a->diff_big, l);
	return i < a->n_diff_big ? a->diff_big[i].diff : DIFF_BIG;
}

uint32_t
lop_cause_lop(const struct analysis *a, uint32_t l)
{
	enum analysis_cause c = lop_cause(a, l);
	if (c == CAUSE_TIMELINE)
		return l - 1;
	if (c != CAUSE_MESSAGE)
		return TRACE_NONE;
	uint32_t src = a->cause[l] >> CAUSE_SRC_SHIFT;
	if (src == CAUSE_SRC_FAR) {
		uint32_t i = (uint32_t)vec_find_u32(a->cause_far, a->n_cause_far, sizeof *a->cause_far, l);
		return i < a->n_cause_far ? a->cause_far[i].cause_lop : TRACE_NONE;
	}
	return src_lop(a, l, src);
}

/* Lop y names lop x as its cause lop: mark it as inheriting start-up
 * lateness too, and look at what names it in turn. */
static int
inherit(struct analysis *a, uint32_t x, uint32_t y, uint32_t **stack, size_t *n, size_t *cap)
{
	if ((a->cause[y] & CAUSE_FROM_STARTUP) || lop_cause_lop(a, y) != x)
		return 0;
	a->cause[y] |= CAUSE_FROM_STARTUP;
	if (VEC_GROW(*stack, *n, *cap))
		return ERR_NOMEM;
	(*stack)[(*n)++] = y;
	return 0;
}

/* CAUSE_FROM_STARTUP: l's lateness came from a rank's start-up: its
 * causes (b and d), followed back, lead to a start-up lop that was late.
 * Found forward from those (a chain that goes round a cycle, two
 * Sendrecvs blaming each other, never meets one): a lop inherits it
 * when its cause lop has, and the lops that can name lop x are the next
 * one on x's timeline, the receivers of x's messages, and the receivers
 * of the messages whose non-blocking send the lop after x completed
 * (sender progress). Few lops inherit start-up lateness, so this looks
 * at few. */
static int
trace_startup(struct analysis *a)
{
	uint32_t n_tl, *stack = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++) {
		uint32_t l = a->tl_lop[tl];
		if (l < a->tl_lop[tl + 1] && analysis_lop_startup(a, l) && lop_late(a, l)) {
			a->cause[l] |= CAUSE_FROM_STARTUP;
			rc = VEC_GROW(stack, n, cap);
			if (!rc)
				stack[n++] = l;
		}
	}
	while (n && !rc) {
		uint32_t x = stack[--n], end = a->tl_lop[a->lop_tl[x] + 1];
		if (x + 1 < end && lop_cause(a, x + 1) == CAUSE_TIMELINE)
			rc = inherit(a, x, x + 1, &stack, &n, &cap);
		for (uint32_t y = x; y <= x + 1 && y < end && !rc; y++) {
			uint32_t ne;
			const struct trace_end *e = lop_ends(a, y, &ne);
			for (uint32_t i = 0; i < ne && !rc; i++) {
				const struct trace_msg *msg = &a->msgs[e[i].id];
				if (e[i].role == (y == x ? END_SEND : END_ISEND_DONE) && msg->recv_op != TRACE_NONE &&
				    lop_cause(a, op_lop_of(a, msg->recv_op)) == CAUSE_MESSAGE)
					rc = inherit(a, x, op_lop_of(a, msg->recv_op), &stack, &n, &cap);
			}
		}
	}
	free(stack);
	return rc;
}

/* The hotspots of the whole trace from the pieces' (the same as one
 * pass over all lops would keep: the order is total), and the list
 * with start-up counted (the same when opts.startup), so a view can
 * switch between them. */
static int
hotspots(struct analysis *a, const struct aside *as, uint32_t n)
{
	uint32_t k = a->opts.hotspots;
	struct hot_lists all = { 0 };
	a->hot = malloc(((size_t)k + 1) * sizeof *a->hot);
	a->hot_all = malloc(((size_t)k + 1) * sizeof *a->hot_all);
	all.h = malloc(((size_t)k + 1) * sizeof *all.h);
	all.h_all = malloc(((size_t)k + 1) * sizeof *all.h_all);
	if (!a->hot || !a->hot_all || !all.h || !all.h_all) {
		free(all.h);
		free(all.h_all);
		return ERR_NOMEM;
	}
	for (uint32_t c = 0; c < n; c++) {
		const struct hot_lists *hl = &as[c].hot;
		for (uint32_t i = 0; i < hl->n; i++)
			all.n = sort_top_offer(all.h, all.n, k, hl->h[i]);
		for (uint32_t i = 0; i < hl->n_all; i++)
			all.n_all = sort_top_offer(all.h_all, all.n_all, k, hl->h_all[i]);
		a->stats.startup_hidden += hl->hidden;
	}
	sort_top_ids(all.h, all.n, k, a->hot);
	a->n_hot = all.n;
	if (a->opts.startup) {
		memcpy(a->hot_all, a->hot, (size_t)all.n * sizeof *a->hot);
		all.n_all = all.n;
	} else {
		sort_top_ids(all.h_all, all.n_all, k, a->hot_all);
	}
	a->n_hot_all = all.n_all;
	free(all.h);
	free(all.h_all);
	return 0;
}

/* What the pieces set aside, in their order (which is lop order). */
static int
gather(struct analysis *a, const struct aside *as, uint32_t n)
{
	size_t nb = 0, nf = 0;
	for (uint32_t c = 0; c < n; c++) {
		nb += as[c].n_big;
		nf += as[c].n_far;
		a->stats.progress_receives += as[c].progress;
	}
	a->diff_big = malloc((nb + 1) * sizeof *a->diff_big);
	a->cause_far = malloc((nf + 1) * sizeof *a->cause_far);
	if (!a->diff_big || !a->cause_far)
		return ERR_NOMEM;
	for (uint32_t c = 0; c < n; c++) {
		if (as[c].n_big)
			memcpy(a->diff_big + a->n_diff_big, as[c].big, as[c].n_big * sizeof *as[c].big);
		if (as[c].n_far)
			memcpy(a->cause_far + a->n_cause_far, as[c].far, as[c].n_far * sizeof *as[c].far);
		a->n_diff_big += (uint32_t)as[c].n_big;
		a->n_cause_far += (uint32_t)as[c].n_far;
	}
	return hotspots(a, as, n);
}

int
metrics_compute(struct analysis *a)
{
	uint32_t n = a->n_lops;
	a->diff = recycle_malloc((n + 1) * sizeof *a->diff);
	a->cause = recycle_malloc(n + 1);
	a->pmin_first = malloc(((size_t)a->n_parts + 1) * sizeof *a->pmin_first);
	if (!a->diff || !a->cause || !a->pmin_first)
		return ERR_NOMEM;
	uint64_t slots = 0;
	for (uint32_t p = 0; p < a->n_parts; p++) {
		a->pmin_first[p] = (uint32_t)slots;
		slots += a->parts[p].step_count;
	}
	a->pmin_first[a->n_parts] = (uint32_t)slots;
	uint32_t n_tl, nw = par_workers();
	trace_timelines(a->t, &n_tl);
	uint32_t np = PAR_PIECES(nw);
	struct metering m = { .a = a };
	par_split(n_tl, np, tl_size, a, m.tl_cut);
	par_pieces_init(&m.pieces, np, nw);
	int rc = slots < TRACE_NONE ? par_run(nw, metric_worker, &m) : ERR_LIMIT;
	if (rc == 0) {
		/* the workers' minima */
		for (uint32_t w = 1; w < nw; w++) {
			for (uint64_t k = 0; k < slots; k++)
				if (m.pmin[w][k] < m.pmin[0][k])
					m.pmin[0][k] = m.pmin[w][k];
			for (uint32_t s = 0; s < a->n_steps; s++)
				if (m.gmin[w][s] < m.gmin[0][s])
					m.gmin[0][s] = m.gmin[w][s];
		}
		a->pmin = m.pmin[0];
		a->gmin = m.gmin[0];
		m.pmin[0] = m.gmin[0] = NULL;
	}
	for (uint32_t w = 0; w < nw; w++) {
		free(m.pmin[w]);
		free(m.gmin[w]);
	}
	uint32_t n_msgs;
	trace_msgs(a->t, &n_msgs);
	if (rc == 0) {
		/* differential lateness reads every partition's lateness,
		 * and the receives what their senders' side set out */
		m.sent = recycle_calloc((size_t)n_msgs + 1, sizeof *m.sent);   /* SENT_FAR */
		rc = m.sent ? 0 : ERR_NOMEM;
	}
	if (rc == 0) {
		m.phase = 1;
		par_pieces_init(&m.pieces, np, nw);
		rc = par_run(nw, metric_worker, &m);
	}
	if (rc == 0) {
		m.phase = 2;
		par_pieces_init(&m.pieces, np, nw);
		rc = par_run(nw, metric_worker, &m);
	}
	recycle_free(m.sent, ((size_t)n_msgs + 1) * sizeof *m.sent);
	if (rc == 0)
		rc = gather(a, m.aside, np);
	for (uint32_t w = 0; w < np; w++) {
		free(m.aside[w].big);
		free(m.aside[w].far);
		free(m.aside[w].hot.h);
		free(m.aside[w].hot.h_all);
	}
	/* the start-up of every rank, and the latest of them */
	a->stats.startup_max_lop = TRACE_NONE;
	for (uint32_t tl = 0; rc == 0 && tl < n_tl; tl++) {
		uint32_t l = a->tl_lop[tl];
		if (l < a->tl_lop[tl + 1] && analysis_lop_startup(a, l)) {
			a->stats.startup_lops++;
			if (a->stats.startup_max_lop == TRACE_NONE ||
			    lop_late(a, l) > lop_late(a, a->stats.startup_max_lop))
				a->stats.startup_max_lop = l;
		}
	}
	return rc ? rc : trace_startup(a);
}
