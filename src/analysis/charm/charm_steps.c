/* charm_steps.c — step assignment (seed 004, §3.2).
 *
 * Within a phase, a chare's lops come in *pieces*: consecutive lops of one
 * serial block (a block can be split between an application and a runtime
 * phase). An SDAG serial that ran right after another serial starts a
 * piece of its own: each `serial` is an entry method of its own (§2.1),
 * only an entry right before a serial is absorbed into it. Lops within a
 * piece keep their order. The pieces of a chare are ordered either by
 * physical time, or (§3.2.1, the default) by an idealised forward replay:
 * every lop gets a clock value w — 0 for the phase's initial events, one
 * more than the lop before it in its piece, and one more than the send of
 * each message it receives — and a chare's pieces are sorted by the w of
 * their first event; ties go to the piece whose invoking message came from
 * the lower chare id, then (going back a step) by the same comparison of
 * the pieces that sent those messages, and last by physical time. The
 * paper leaves the depth of "going back" open; skein goes back up to four
 * sends. A piece without events (a serial that only computes) comes after
 * every event of its chare that ran before it: its key is one more than
 * their largest w (doc/charm.md);
 * a serial that ran right after another in its block keeps its place
 * after it.
 *
 * Steps: a lop with nothing before it in its phase is at local step 0;
 * every other lop at one more than the largest step of what happened
 * before it: the previous lop in its chare's order and, for a receive,
 * its sends. Phases are offset after all their DAG predecessors (global
 * steps). Last, each timeline's lops are renumbered into step order, so
 * that everything downstream (metrics, views, reports) walks a chare in
 * its logical order; op_of_lop keeps the way back to the ops.
 */
#include "charm_impl.h"

#include "base/par.h"
#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

#define BACK_STEPS 4

struct piece {
	uint32_t first, last;      /* indices into the phase's lop list */
	uint32_t tl;
	uint32_t key_w;            /* w of its first event */
	uint32_t invoker;          /* sender timeline of its first event + 1, 0 for none */
	uint32_t src;              /* the list index of its first event's sender, or
	                            * TRACE_NONE (none, or outside the phase) */
	uint64_t t;                /* physical time of its first lop */
};

struct stepper {
	struct charm *c;
	struct analysis *a;
	const struct trace_entry *en;   /* per region: is it an SDAG serial */
	uint32_t n_en;
	int reorder;
	uint32_t *local;           /* per lop: local step */
	uint32_t *pos;             /* per lop: index in the phase's list */
	/* per phase, reused, by list index: a phase's lops lie scattered over
	 * every chare (a few each), so what the replays read of them is kept
	 * by their place in the list, where a phase's fit in the cache */
	uint32_t *list;            /* the phase's lops */
	uint32_t *w;               /* clock value; then rank in chare order */
	uint32_t *step;            /* local step, copied to local[] at the end */
	uint32_t *piece_of;        /* its piece */
	uint8_t *ev;               /* is it an event (its class is not CLS_NONE) */
	struct piece *pc;
	uint32_t *ord;             /* pieces in chare order */
	uint32_t *indeg, *queue, *next_in_chare;
	uint32_t *by_time;         /* list indices by time, for stalls */
	/* each list index's links inside the phase, in the order of its
	 * ends: its receives' list indices (rcv[rcv_first[i] ..]) and its
	 * senders' (snd[snd_first[i] ..]) */
	uint32_t *rcv_first, *snd_first, *rcv, *snd;
	/* each list index's first usable receive's sender lop (wherever it
	 * is), or TRACE_NONE: what invoked a piece starting there */
	uint32_t *first_src;
	size_t n_rcv, cap_rcv, n_snd, cap_snd;
	uint32_t n_list, n_pc;
	uint64_t relaxed;
	uint64_t scanned;          /* lops the stalls' cursor passed (a->stall_scans) */
};

/* The list's lops lie scattered, and so do their messages and the
 * messages' other ends: phase_links asks for the records of the lop 12
 * ahead, the messages of the one 6 ahead and the other ends' lops of the
 * one 3 ahead, each in the cache by then from the step before. */
static inline void
links_ahead(const struct stepper *s, uint32_t i)
{
	const struct analysis *a = s->a;
	if (i + 12 < s->n_list) {
		analysis_lop_prefetch(a, s->list[i + 12], 0);
		analysis_lop_prefetch(a, s->list[i + 12], 1);
	}
	uint32_t n_e;
	if (i + 6 < s->n_list) {
		const struct trace_end *e = lop_ends(a, s->list[i + 6], &n_e);
		for (uint32_t k = 0; k < n_e; k++)
			if (e[k].role == END_SEND || e[k].role == END_RECV)
				__builtin_prefetch(&a->msgs[e[k].id]);
	}
	if (i + 3 < s->n_list) {
		const struct trace_end *e = lop_ends(a, s->list[i + 3], &n_e);
		for (uint32_t k = 0; k < n_e; k++) {
			if (e[k].role != END_SEND && e[k].role != END_RECV)
				continue;
			const struct trace_msg *m = &a->msgs[e[k].id];
			uint32_t op = e[k].role == END_SEND ? m->recv_op : m->send_op;
			if (op < a->n_ops)
				__builtin_prefetch(&a->op_lop[op]);
		}
	}
}

/* Each lop's usable links inside phase p, read once from its ends (the
 * two replays and their visits walk them four to six times): the
 * receives of its sends and the senders of its receives, each in its
 * ends' order, without itself and what lies outside the phase; and the
 * sender of its first usable receive, inside or not (piece_keys). */
static int
phase_links(struct stepper *s, uint32_t p)
{
	const struct analysis *a = s->a;
	s->n_rcv = s->n_snd = 0;
	for (uint32_t i = 0; i < s->n_list; i++) {
		links_ahead(s, i);
		uint32_t l = s->list[i], n_e;
		s->rcv_first[i] = (uint32_t)s->n_rcv;
		s->snd_first[i] = (uint32_t)s->n_snd;
		s->first_src[i] = TRACE_NONE;
		const struct trace_end *e = lop_ends(a, l, &n_e);
		for (uint32_t k = 0; k < n_e; k++) {
			if ((e[k].role != END_SEND && e[k].role != END_RECV) || !msg_ok(a, e[k].id))
				continue;
			const struct trace_msg *m = &a->msgs[e[k].id];
			uint32_t o = op_lop_of(a, e[k].role == END_SEND ? m->recv_op : m->send_op);
			if (e[k].role == END_RECV && s->first_src[i] == TRACE_NONE)
				s->first_src[i] = o;
			if (o == l || a->lop_part[o] != p)
				continue;
			if (e[k].role == END_SEND) {
				if (VEC_GROW(s->rcv, s->n_rcv, s->cap_rcv))
					return ERR_NOMEM;
				s->rcv[s->n_rcv++] = s->pos[o];
			} else {
				if (VEC_GROW(s->snd, s->n_snd, s->cap_snd))
					return ERR_NOMEM;
				s->snd[s->n_snd++] = s->pos[o];
			}
		}
	}
	s->rcv_first[s->n_list] = (uint32_t)s->n_rcv;
	s->snd_first[s->n_list] = (uint32_t)s->n_snd;
	return 0;
}

/* Pieces of phase p: runs of one block on one timeline in its list, cut
 * where a serial follows a serial (a lop in an SDAG serial's region,
 * after one in one, that does not go on with its execution). Each lop's
 * op record is read once, fetched 8 lops ahead. */
static void
make_pieces(struct stepper *s, uint32_t p)
{
	struct analysis *a = s->a;
	struct charm *c = s->c;
	s->n_list = a->part_lop_first[p + 1] - a->part_lop_first[p];
	memcpy(s->list, a->part_lops + a->part_lop_first[p], s->n_list * sizeof *s->list);
	s->n_pc = 0;
	int prev_serial = 0;
	for (uint32_t i = 0; i < s->n_list; i++) {
		if (i + 8 < s->n_list)
			analysis_lop_prefetch(a, s->list[i + 8], 1);
		uint32_t l = s->list[i];
		s->pos[l] = i;
		const struct trace_op o = trace_op_get(&a->ops, lop_first_op(a, l));
		int serial = o.region != TRACE_NONE && o.region < s->n_en && s->en[o.region].sdag;
		uint32_t prev = i ? s->list[i - 1] : TRACE_NONE;
		if (i == 0 || a->lop_tl[prev] != a->lop_tl[l] || c->block[prev] != c->block[l] ||
		    (serial && prev_serial && !(o.flags & OPF_EXEC_CONT)))
			s->pc[s->n_pc++] = (struct piece){ .first = i, .tl = a->lop_tl[l], .src = TRACE_NONE,
							 .t = o.t_enter };
		prev_serial = serial;
		s->pc[s->n_pc - 1].last = i;
		s->piece_of[i] = s->n_pc - 1;
		s->ev[i] = c->cls[l] != CLS_NONE;
	}
}

/* The timeline of list index i (its piece's). */
static inline uint32_t
tl_at(const struct stepper *s, uint32_t i)
{
	return s->pc[s->piece_of[i]].tl;
}

static uint64_t
enter_key(const void *ctx, uint32_t x)
{
	const struct stepper *s = ctx;
	return lop_enter(s->a, s->list[x]);
}

/* Kahn over the phase's lops (only its events, with events_only): an edge
 * from each lop to next[] of its list index, and from every send to its
 * receives in the phase. visit(i) is called in a topological order; a
 * stall (a cycle the records imply, possible in physical order across
 * skewed clocks) is broken at the earliest lop still waiting, and
 * counted. The lops are sorted by time at the first stall, and a cursor
 * moves over them: what is done stays done, so all stalls together cost
 * one pass. Returns 0 or ERR_NOMEM. */
static int
replay(struct stepper *s, const uint32_t *next, int events_only,
       void (*visit)(struct stepper *, uint32_t))
{
	uint32_t n = s->n_list, head = 0, tail = 0, done = 0, todo = 0;
	uint32_t cursor = UINT32_MAX;      /* into by_time; sorted at the first stall */
	for (uint32_t i = 0; i < n; i++)
		s->indeg[i] = events_only && !s->ev[i] ? UINT32_MAX : 0;
	for (uint32_t i = 0; i < n; i++) {
		if (s->indeg[i] == UINT32_MAX)
			continue;
		todo++;
		if (next[i] != TRACE_NONE)
			s->indeg[next[i]]++;
		for (uint32_t k = s->rcv_first[i]; k < s->rcv_first[i + 1]; k++)
			s->indeg[s->rcv[k]]++;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!s->indeg[i])
			s->queue[tail++] = i;
	while (done < todo) {
		if (head == tail) {
			/* the earliest waiting, the first in list order on a tie */
			if (cursor == UINT32_MAX) {
				for (uint32_t i = 0; i < n; i++)
					s->by_time[i] = i;
				int rc = sort_ids_keyed(s->by_time, n, enter_key, s);
				if (rc)
					return rc;
				cursor = 0;
			}
			while (s->indeg[s->by_time[cursor]] == UINT32_MAX) {
				cursor++;
				s->scanned++;
			}
			uint32_t pick = s->by_time[cursor];
			s->indeg[pick] = 0;
			s->queue[tail++] = pick;
			s->relaxed++;
		}
		uint32_t i = s->queue[head++];
		s->indeg[i] = UINT32_MAX;       /* done */
		done++;
		visit(s, i);
		uint32_t nx = next[i];
		if (nx != TRACE_NONE && s->indeg[nx] != UINT32_MAX && --s->indeg[nx] == 0)
			s->queue[tail++] = nx;
		for (uint32_t k = s->rcv_first[i]; k < s->rcv_first[i + 1]; k++) {
			uint32_t j = s->rcv[k];
			if (s->indeg[j] != UINT32_MAX && --s->indeg[j] == 0)
				s->queue[tail++] = j;
		}
	}
	return 0;
}

/* w: events count up along their piece (a lop without events passes the
 * count on) and from their senders. A lop a stall let go first counts
 * only what was replayed before it (done: indeg UINT32_MAX): the links
 * from the rest, which wait on it in the cycle, are left out. */
static void
visit_w(struct stepper *s, uint32_t i)
{
	uint32_t w = 0;
	if (i > s->pc[s->piece_of[i]].first && s->indeg[i - 1] == UINT32_MAX)
		w = s->w[i - 1] + s->ev[i - 1];
	for (uint32_t k = s->snd_first[i]; k < s->snd_first[i + 1]; k++) {
		uint32_t j = s->snd[k];
		if (s->indeg[j] == UINT32_MAX && s->w[j] + 1 > w)
			w = s->w[j] + 1;
	}
	s->w[i] = w;
}

/* An event's step: one more than the event before it on its chare and
 * than its senders (their steps are final when it is visited). */
static void
visit_step(struct stepper *s, uint32_t i)
{
	uint32_t step = s->step[i];
	uint32_t nx = s->next_in_chare[i];
	if (nx != TRACE_NONE && s->step[nx] < step + 1)
		s->step[nx] = step + 1;
	for (uint32_t k = s->rcv_first[i]; k < s->rcv_first[i + 1]; k++) {
		uint32_t dst = s->rcv[k];
		if (s->step[dst] < step + 1)
			s->step[dst] = step + 1;
	}
}

/* A piece's key: the w of its first event, who invoked it, from where. */
static void
piece_keys(struct stepper *s, uint32_t p)
{
	struct analysis *a = s->a;
	for (uint32_t k = 0; k < s->n_pc; k++) {
		struct piece *pc = &s->pc[k];
		pc->key_w = UINT32_MAX;
		for (uint32_t i = pc->first; i <= pc->last; i++) {
			if (!s->ev[i])
				continue;
			pc->key_w = s->w[i];
			uint32_t src = s->first_src[i];
			if (src != TRACE_NONE) {
				pc->invoker = a->lop_tl[src] + 1;
				pc->src = a->lop_part[src] == p ? s->pos[src] : TRACE_NONE;
			}
			break;
		}
	}
}

static int
cmp_pieces(const struct stepper *s, const struct piece *x, const struct piece *y)
{
	for (int depth = 0; depth <= BACK_STEPS; depth++) {
		if (x->key_w != y->key_w)
			return x->key_w < y->key_w ? -1 : 1;
		if (x->invoker != y->invoker)
			return x->invoker < y->invoker ? -1 : 1;
		if (x->src == TRACE_NONE || y->src == TRACE_NONE || depth == BACK_STEPS)
			break;
		/* go back a step: compare the pieces that sent them */
		x = &s->pc[s->piece_of[x->src]];
		y = &s->pc[s->piece_of[y->src]];
		if (x == y)
			break;
	}
	return 0;
}

/* Chare order of two pieces: by timeline, then by the replay's key (or
 * only time), then time, then position. */
static int
cmp_piece_ids(const void *ctx, uint32_t a, uint32_t b)
{
	const struct stepper *s = ctx;
	const struct piece *x = &s->pc[a], *y = &s->pc[b];
	int c = x->tl != y->tl ? (x->tl < y->tl ? -1 : 1) : s->reorder ? cmp_pieces(s, x, y) : 0;
	if (c == 0)
		c = x->t < y->t ? -1 : x->t > y->t ? 1 : (x->first > y->first) - (x->first < y->first);
	return c;
}

/* Chare order: pieces by timeline, then by the replay's key (or time).
 * A piece without events goes after every event of its chare that ran
 * before it (pieces are in time order per timeline here). Merge sort,
 * stable. */
static int
order_pieces(struct stepper *s)
{
	uint32_t n = s->n_pc;
	uint32_t seen = 0;          /* 1 + the largest w so far on this timeline */
	for (uint32_t k = 0; k < n; k++) {
		struct piece *pc = &s->pc[k];
		if (k == 0 || s->pc[k - 1].tl != pc->tl)
			seen = 0;
		if (pc->key_w == UINT32_MAX) {
			pc->key_w = seen;
			pc->invoker = 0;
			pc->src = TRACE_NONE;
			continue;
		}
		/* a serial that ran right after another in the same block stays
		 * after it (program order), whatever its own events say */
		if (k && s->pc[k - 1].tl == pc->tl &&
		    s->c->block[s->list[s->pc[k - 1].last]] == s->c->block[s->list[pc->first]] &&
		    pc->key_w <= s->pc[k - 1].key_w)
			pc->key_w = s->pc[k - 1].key_w + 1;
		for (uint32_t i = pc->first; i <= pc->last; i++)
			if (s->ev[i] && s->w[i] + 1 > seen)
				seen = s->w[i] + 1;
	}
	for (uint32_t k = 0; k < n; k++)
		s->ord[k] = k;
	return sort_ids(s->ord, n, cmp_piece_ids, s);
}

/* Steps of phase p. Events are stepped as the paper defines (§3.2): one
 * more than the event before them on their chare and than their sends.
 * Lops without events take the columns between: after an event at step
 * k come the lops without events that follow it on its chare, before a
 * chare's first event those that precede it; each event step gets as
 * many columns as its longest such run needs, so events that share a
 * step share a column and the events' structure is not changed by work
 * that has no dependencies. */
static int
step_phase(struct stepper *s, uint32_t p, uint32_t *width)
{
	make_pieces(s, p);
	if (phase_links(s, p))
		return ERR_NOMEM;
	uint32_t n = s->n_list;
	if (s->reorder) {
		/* within pieces only, for w */
		for (uint32_t k = 0; k < s->n_pc; k++) {
			for (uint32_t i = s->pc[k].first; i < s->pc[k].last; i++)
				s->next_in_chare[i] = i + 1;
			s->next_in_chare[s->pc[k].last] = TRACE_NONE;
		}
		int rc = replay(s, s->next_in_chare, 0, visit_w);
		if (rc)
			return rc;
		piece_keys(s, p);
	}
	int rc = order_pieces(s);
	if (rc)
		return rc;
	/* the chare sequence: pieces in chare order; seq[] lists positions */
	uint32_t *seq = s->queue;          /* borrowed until the replay below */
	uint32_t m = 0;
	for (uint32_t k = 0; k < s->n_pc; k++)
		for (uint32_t i = s->pc[s->ord[k]].first; i <= s->pc[s->ord[k]].last; i++)
			seq[m++] = i;
	/* next event on the chare, for the events' replay */
	for (uint32_t i = 0; i < n; i++)
		s->next_in_chare[i] = TRACE_NONE;
	uint32_t last_ev = TRACE_NONE, last_tl = TRACE_NONE;
	for (uint32_t j = 0; j < m; j++) {
		uint32_t i = seq[j], tl = tl_at(s, i);
		if (tl != last_tl) {
			last_tl = tl;
			last_ev = TRACE_NONE;
		}
		if (!s->ev[i])
			continue;
		if (last_ev != TRACE_NONE)
			s->next_in_chare[last_ev] = i;
		last_ev = i;
	}
	/* the order of the other lops, kept apart from the replay's queue */
	for (uint32_t j = 0; j < m; j++)
		s->w[seq[j]] = j;       /* w is done with: rank in chare order */
	memset(s->step, 0, n * sizeof *s->step);
	if ((rc = replay(s, s->next_in_chare, 1, visit_step)))
		return rc;
	/* rebuild the sequence from the ranks */
	for (uint32_t i = 0; i < n; i++)
		seq[s->w[i]] = i;
	uint32_t ksteps = 0;
	for (uint32_t i = 0; i < n; i++)
		if (s->ev[i] && s->step[i] + 1 > ksteps)
			ksteps = s->step[i] + 1;
	/* columns per event step: before[k] (runs ahead of a chare's first
	 * event at k), after[k] (runs after an event at k) */
	uint32_t *before = calloc((size_t)ksteps + 2, sizeof *before);
	uint32_t *after = calloc((size_t)ksteps + 2, sizeof *after);
	uint32_t *col = malloc(((size_t)ksteps + 2) * sizeof *col);
	if (!before || !after || !col) {
		free(before);
		free(after);
		free(col);
		return ERR_NOMEM;
	}
	uint32_t lone = 0;                 /* longest chare without events here */
	for (uint32_t j = 0; j < m;) {
		uint32_t tl = tl_at(s, seq[j]), e = j;
		while (e < m && tl_at(s, seq[e]) == tl)
			e++;
		uint32_t run = 0, ev = TRACE_NONE;
		for (uint32_t k = j; k < e; k++) {
			uint32_t i = seq[k];
			if (!s->ev[i]) {
				run++;
				continue;
			}
			uint32_t st = s->step[i];
			if (ev == TRACE_NONE) {
				if (run > before[st])
					before[st] = run;
			} else if (run > after[s->step[ev]]) {
				after[s->step[ev]] = run;
			}
			ev = i;
			run = 0;
		}
		if (ev == TRACE_NONE) {
			if (run > lone)
				lone = run;
		} else if (run > after[s->step[ev]]) {
			after[s->step[ev]] = run;
		}
		j = e;
	}
	uint32_t x = 0;
	for (uint32_t k = 0; k < ksteps; k++) {
		col[k] = x + before[k];
		x = col[k] + 1 + after[k];
	}
	*width = x > lone ? x : lone;
	/* place: events at their column, the runs around them */
	for (uint32_t j = 0; j < m;) {
		uint32_t tl = tl_at(s, seq[j]), e = j;
		while (e < m && tl_at(s, seq[e]) == tl)
			e++;
		uint32_t first_ev = TRACE_NONE;
		for (uint32_t k = j; k < e && first_ev == TRACE_NONE; k++)
			if (s->ev[seq[k]])
				first_ev = k;
		uint32_t at = first_ev == TRACE_NONE ? 0 : col[s->step[seq[first_ev]]] - (first_ev - j);
		for (uint32_t k = j; k < e; k++) {
			uint32_t i = seq[k];
			if (s->ev[i])
				at = col[s->step[i]];
			s->step[i] = at++;
		}
		j = e;
	}
	for (uint32_t i = 0; i < n; i++)
		s->local[s->list[i]] = s->step[i];
	free(before);
	free(after);
	free(col);
	return 0;
}

static uint64_t
step_key(const void *ctx, uint32_t l)
{
	return ((const struct analysis *)ctx)->lop_step[l];
}

/* Each timeline's lops stably sorted by step (a radix sort of the steps:
 * the order sort_ids gave), the timelines on every core. */
struct renumbering {
	struct analysis *a;
	uint32_t *old;
	struct par_pieces pieces;
};

static int
renumber_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct renumbering *g = ctx;
	uint32_t tl;
	int rc = 0;
	(void)nw;
	while (!rc && par_take(&g->pieces, w, &tl)) {
		uint32_t f = g->a->tl_lop[tl], e = g->a->tl_lop[tl + 1];
		for (uint32_t l = f; l < e; l++)
			g->old[l] = l;
		rc = sort_ids_keyed(g->old + f, e - f, step_key, g->a);
	}
	return rc;
}

/* Each timeline's lops renumbered by step; every per-lop array follows. */
static int
renumber(struct analysis *a)
{
	uint32_t n = a->n_lops, n_tl, nw = par_workers();
	trace_timelines(a->t, &n_tl);
	struct renumbering g = { .a = a, .old = malloc((n + 1) * sizeof *g.old) };
	if (!g.old)
		return ERR_NOMEM;
	par_pieces_init(&g.pieces, n_tl, nw);
	int rc = par_run(nw, renumber_worker, &g);
	if (!rc)
		rc = lops_permute(a, g.old);
	free(g.old);
	return rc;
}

uint32_t
charm_phase_workers(const struct analysis *a, uint32_t *most)
{
	*most = 1;
	for (uint32_t p = 0; p < a->n_parts; p++)
		if (a->part_lop_first[p + 1] - a->part_lop_first[p] > *most)
			*most = a->part_lop_first[p + 1] - a->part_lop_first[p];
	return a->n_parts < 2 || (uint64_t)*most * 4 > a->n_lops ? 1 : par_workers();
}

/* The phases on every core: no phase reads another's lops (the senders
 * and receivers walked are the phase's own), so each worker steps the
 * phases it takes with a stepper of its own — its scratch sized for the
 * largest phase — writing the per-lop arrays of those phases only
 * (charm_phase_workers: one when a phase holds most of the run). */
struct phasing {
	struct stepper *st;          /* per worker */
	uint32_t *width;
	struct par_pieces pieces;
};

static int
steps_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct phasing *g = ctx;
	uint32_t p;
	int rc = 0;
	(void)nw;
	while (!rc && par_take(&g->pieces, w, &p))
		rc = step_phase(&g->st[w], p, &g->width[p]);
	return rc;
}

static int
scratch_alloc(struct stepper *s, uint32_t most)
{
	s->list = malloc(((size_t)most + 1) * sizeof *s->list);
	s->pc = malloc(((size_t)most + 1) * sizeof *s->pc);
	s->ord = malloc(((size_t)most + 1) * sizeof *s->ord);
	s->indeg = malloc(((size_t)most + 1) * sizeof *s->indeg);
	s->queue = malloc(((size_t)most + 1) * sizeof *s->queue);
	s->next_in_chare = malloc(((size_t)most + 1) * sizeof *s->next_in_chare);
	s->by_time = malloc(((size_t)most + 1) * sizeof *s->by_time);
	s->rcv_first = malloc(((size_t)most + 1) * sizeof *s->rcv_first);
	s->snd_first = malloc(((size_t)most + 1) * sizeof *s->snd_first);
	s->first_src = malloc(((size_t)most + 1) * sizeof *s->first_src);
	s->w = malloc(((size_t)most + 1) * sizeof *s->w);
	s->step = malloc(((size_t)most + 1) * sizeof *s->step);
	s->piece_of = malloc(((size_t)most + 1) * sizeof *s->piece_of);
	s->ev = malloc((size_t)most + 1);
	s->rcv = s->snd = NULL;
	s->n_rcv = s->cap_rcv = s->n_snd = s->cap_snd = 0;
	return s->list && s->pc && s->ord && s->indeg && s->queue && s->next_in_chare && s->by_time &&
			s->rcv_first && s->snd_first && s->first_src && s->w && s->step && s->piece_of &&
			s->ev
		? 0
		: ERR_NOMEM;
}

static void
scratch_free(struct stepper *s)
{
	free(s->list);
	free(s->pc);
	free(s->ord);
	free(s->indeg);
	free(s->queue);
	free(s->next_in_chare);
	free(s->by_time);
	free(s->rcv_first);
	free(s->snd_first);
	free(s->first_src);
	free(s->w);
	free(s->step);
	free(s->piece_of);
	free(s->ev);
	free(s->rcv);
	free(s->snd);
}

int
charm_steps(struct charm *c)
{
	struct analysis *a = c->a;
	uint32_t n = a->n_lops, np = a->n_parts, most, nw = charm_phase_workers(a, &most);
	struct stepper s = { .c = c, .a = a, .reorder = a->opts.charm_reorder }, st[PAR_MAX];
	s.en = trace_entries(a->t, &s.n_en);
	s.local = malloc((n + 1) * sizeof *s.local);
	s.pos = malloc((n + 1) * sizeof *s.pos);
	uint32_t *width = calloc((size_t)np + 1, sizeof *width);
	uint32_t *offset = calloc((size_t)np + 1, sizeof *offset);
	free(a->lop_step);
	a->lop_step = malloc((n + 1) * sizeof *a->lop_step);
	int rc = s.local && s.pos && width && offset && a->lop_step ? 0 : ERR_NOMEM;
	for (uint32_t w = 0; w < nw; w++) {
		st[w] = s;
		if (scratch_alloc(&st[w], most))
			rc = ERR_NOMEM;
	}
	if (rc)
		goto out;
	struct phasing g = { .st = st, .width = width };
	par_pieces_init(&g.pieces, np, nw);
	if ((rc = par_run(nw, steps_worker, &g)))
		goto out;
	for (uint32_t w = 0; w < nw; w++) {
		a->verify.relaxed += st[w].relaxed;
		a->stall_scans += st[w].scanned;
	}
	/* global: each phase after all its predecessors */
	a->n_steps = 0;
	for (uint32_t i = 0; i < np; i++) {
		uint32_t p = a->part_order[i];
		uint32_t endp = offset[p] + width[p];
		for (uint32_t e = a->dag_first[p]; e < a->dag_first[p + 1]; e++)
			if (endp > offset[a->dag_succ[e]])
				offset[a->dag_succ[e]] = endp;
		a->parts[p].step_first = offset[p];
		a->parts[p].step_count = width[p];
		if (endp > a->n_steps)
			a->n_steps = endp;
	}
	for (uint32_t l = 0; l < n; l++)
		a->lop_step[l] = s.local[l] + offset[a->lop_part[l]];
	rc = renumber(a);
out:
	for (uint32_t w = 0; w < nw; w++)
		scratch_free(&st[w]);
	free(s.local);
	free(s.pos);
	free(width);
	free(offset);
	return rc;
}
