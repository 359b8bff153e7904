/* reorder.c — seed 004 §3.2.1 "Reordering for message-passing models".
 *
 * Within a partition a process's receives are recorded in the order they
 * completed, which imbalance, the network and MPI_ANY_SOURCE make
 * arbitrary. The seed orders them by an idealised forward replay instead:
 * every operation gets a clock value w along its timeline,
 *
 *   - a receive: w = 1 + the w of the send that it receives (the largest,
 *     for a receive lop completing several messages);
 *   - a send, and likewise a collective, a Sendrecv or a wait, whose
 *     place the developer's code fixes: w = 1 + the largest w of the
 *     receives before it on its timeline in the partition, and above the
 *     previous such operation's w (sends keep their order; the first in
 *     a partition with nothing before it gets 0);
 *
 * and each timeline's operations in the partition are then sorted by w,
 * ties between receives going to the lower sender timeline (the seed's
 * chare id rule, Figure 7), other ties to time order. A receive can so
 * move before a send that happened before it (Figure 9), never after a
 * send that it happened before, and w grows along every message and
 * every timeline, so the new order keeps happened-before. Computation
 * travels with the operation it precedes. The steps of seed 000 are then
 * assigned over the new order (steps.c), unchanged.
 *
 * The replay processes a partition's timelines as far as their receives'
 * senders allow; should the records imply a cycle, the partition's
 * blocked receive that entered first goes ahead with the senders it has.
 * (Until 2026-11-24 one replay ran over every partition at once and the
 * first-entered blocked receive of the whole trace went ahead; a receive
 * could then be forced while a sender's timeline was still held up in an
 * earlier partition. Partition by partition, each is replayed from its
 * own lops alone, which lets the owner of a partition reorder it in a
 * distributed analysis. Every corpus and shared trace orders the same.)
 */
#include "analysis/core/analysis_impl.h"
#include "stages.h"

#include "base/sort.h"

#include <stdlib.h>
#include <string.h>

/* The replay goes partition by partition: a receive's w comes from
 * senders in its own partition only, and each timeline's run of a
 * partition starts afresh, so partitions replay alone (a distributed
 * analysis replays each at its owner, dist_steps.c). */
struct replay {
	const struct analysis *a;
	const uint32_t *gid;   /* NULL, or each lop's id in the whole analysis */
	uint32_t *w;           /* per lop; TRACE_NONE: not replayed yet */
	uint32_t *pending;     /* per receive lop: senders not replayed yet */
	uint32_t *cursor, *end;   /* per timeline: into part_lops, the partition's */
	uint32_t *fixed_w, *recv_w;   /* per timeline: the run it is in */
	uint8_t *blocked;
	uint32_t *queue;
	uint32_t head, tail, n_tl;
	uint32_t *tls, n_tls;  /* the partition's timelines, ascending */
};

static int
is_receive(const struct analysis *a, uint32_t l)
{
	return a->lop_kind[l] == OP_RECV;
}

/* The sender lop of receive end e, if it counts for the replay. */
static uint32_t
sender_of(const struct analysis *a, uint32_t l, const struct trace_end *e)
{
	if (e->role != END_RECV || !msg_ok(a, e->id))
		return TRACE_NONE;
	uint32_t s = op_lop_of(a, a->msgs[e->id].send_op);
	return s != l && a->lop_part[s] == a->lop_part[l] ? s : TRACE_NONE;
}

static void
push(struct replay *r, uint32_t tl)
{
	r->blocked[tl] = 0;
	r->queue[r->tail++ % (r->n_tl + 1)] = tl;
}

/* A fixed op got its w: its receivers lose a pending sender. */
static void
notify(struct replay *r, uint32_t l)
{
	const struct analysis *a = r->a;
	uint32_t n;
	const struct trace_end *e = lop_ends(a, l, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].role != END_SEND || !msg_ok(a, e[i].id))
			continue;
		uint32_t x = op_lop_of(a, a->msgs[e[i].id].recv_op);
		if (x == l || !is_receive(a, x) || a->lop_part[x] != a->lop_part[l] || !r->pending[x])
			continue;
		uint32_t tl = a->lop_tl[x];
		if (--r->pending[x] == 0 && r->blocked[tl] && r->cursor[tl] < r->end[tl] &&
		    a->part_lops[r->cursor[tl]] == x)
			push(r, tl);
	}
}

/* Whether lop l, at k in part_lops, begins a run of its partition on its
 * timeline: the first there, or the lop before it is another's. */
static int
run_starts(const struct replay *r, uint32_t k, uint32_t l)
{
	const struct analysis *a = r->a;
	uint32_t tl = a->lop_tl[l], p = a->lop_part[l];
	if (k == a->part_lop_first[p] || a->lop_tl[a->part_lops[k - 1]] != tl)
		return 1;
	if (r->gid)    /* the lop before it there is not the partition's */
		return r->gid[l] != r->gid[a->part_lops[k - 1]] + 1;
	return a->lop_part[l - 1] != p;
}

/* Replays timeline tl as far as it can; force lets a blocked receive go. */
static void
advance(struct replay *r, uint32_t tl, int force)
{
	const struct analysis *a = r->a;
	for (; r->cursor[tl] < r->end[tl]; r->cursor[tl]++) {
		uint32_t l = a->part_lops[r->cursor[tl]];
		if (run_starts(r, r->cursor[tl], l))
			r->fixed_w[tl] = r->recv_w[tl] = TRACE_NONE;
		uint8_t k = a->lop_kind[l];
		if (k == OP_COMPUTE)
			continue;
		if (k == OP_RECV) {
			if (r->pending[l] && !force) {
				r->blocked[tl] = 1;
				return;
			}
			force = 0;
			uint32_t n, w = TRACE_NONE;
			const struct trace_end *e = lop_ends(a, l, &n);
			for (uint32_t i = 0; i < n; i++) {
				uint32_t s = sender_of(a, l, &e[i]);
				if (s != TRACE_NONE && r->w[s] != TRACE_NONE && (w == TRACE_NONE || r->w[s] + 1 > w))
					w = r->w[s] + 1;
			}
			if (w == TRACE_NONE)         /* no sender known: stay where it is */
				w = r->fixed_w[tl] == TRACE_NONE ? 0 : r->fixed_w[tl];
			r->w[l] = w;
			if (r->recv_w[tl] == TRACE_NONE || w > r->recv_w[tl])
				r->recv_w[tl] = w;
			continue;
		}
		uint32_t w = r->fixed_w[tl] == TRACE_NONE ? 0 : r->fixed_w[tl] + 1;
		if (r->recv_w[tl] != TRACE_NONE && r->recv_w[tl] + 1 > w)
			w = r->recv_w[tl] + 1;
		r->w[l] = r->fixed_w[tl] = w;
		notify(r, l);
	}
	r->blocked[tl] = 0;
}

/* Replays partition p: its timelines as far as their receives' senders
 * allow, then, while some are blocked, the blocked receive that entered
 * first (the lowest timeline on a tie) goes ahead. */
static void
replay_part(struct replay *r, uint32_t p)
{
	const struct analysis *a = r->a;
	uint32_t k1 = a->part_lop_first[p + 1];
	r->n_tls = 0;
	for (uint32_t k = a->part_lop_first[p]; k < k1;) {
		uint32_t tl = a->lop_tl[a->part_lops[k]], j = k;
		while (j < k1 && a->lop_tl[a->part_lops[j]] == tl)
			j++;
		r->cursor[tl] = k;
		r->end[tl] = j;
		r->tls[r->n_tls++] = tl;
		push(r, tl);
		k = j;
	}
	for (;;) {
		while (r->head < r->tail) {
			uint32_t tl = r->queue[r->head++ % (r->n_tl + 1)];
			advance(r, tl, 0);
		}
		uint32_t pick = TRACE_NONE;
		uint64_t best = UINT64_MAX;
		for (uint32_t i = 0; i < r->n_tls; i++) {
			uint32_t tl = r->tls[i];
			if (r->blocked[tl] && lop_enter(a, a->part_lops[r->cursor[tl]]) < best) {
				best = lop_enter(a, a->part_lops[r->cursor[tl]]);
				pick = tl;
			}
		}
		if (pick == TRACE_NONE)
			break;
		advance(r, pick, 1);
	}
}

/* The unit of lop l (its comm lop and the computation before it) sorts
 * by key[unit's comm lop]; see the top for the ties. */
struct order_ctx {
	const struct analysis *a;
	const uint32_t *w, *from;
};

static int
cmp_unit(const void *ctx, uint32_t x, uint32_t y)
{
	const struct order_ctx *c = ctx;
	if (c->w[x] != c->w[y])
		return c->w[x] < c->w[y] ? -1 : 1;
	if (is_receive(c->a, x) && is_receive(c->a, y) && c->from[x] != c->from[y])
		return c->from[x] < c->from[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* The lowest sender timeline of receive lop l (TRACE_NONE: none). */
static uint32_t
lowest_sender(const struct analysis *a, uint32_t l)
{
	uint32_t n, best = TRACE_NONE;
	const struct trace_end *e = lop_ends(a, l, &n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = sender_of(a, l, &e[i]);
		if (s != TRACE_NONE && a->lop_tl[s] < best)
			best = a->lop_tl[s];
	}
	return best;
}

/* The new order of timeline tl's lops into old[tl_lop[tl]..]. */
static int
order_timeline(struct analysis *a, uint32_t tl, const struct order_ctx *c, uint32_t *units,
	       uint32_t *old)
{
	uint32_t f = a->tl_lop[tl], e = a->tl_lop[tl + 1], out = f;
	for (uint32_t run = f; run < e;) {
		uint32_t p = a->lop_part[run], end = run;
		while (end < e && a->lop_part[end] == p)
			end++;
		uint32_t n = 0;
		for (uint32_t l = run; l < end; l++)
			if (a->lop_kind[l] != OP_COMPUTE)
				units[n++] = l;
		int rc = sort_ids(units, n, cmp_unit, c);
		if (rc)
			return rc;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t x = units[i], s = x;
			while (s > run && a->lop_kind[s - 1] == OP_COMPUTE)
				s--;
			for (uint32_t l = s; l <= x; l++)
				old[out++] = l;
		}
		/* computation after the run's last comm op stays last */
		uint32_t tail = end;
		while (tail > run && a->lop_kind[tail - 1] == OP_COMPUTE)
			tail--;
		for (uint32_t l = tail; l < end; l++)
			old[out++] = l;
		run = end;
	}
	return 0;
}

int
reorder_keys(const struct analysis *a, const uint32_t *gid, uint32_t *w, uint32_t *from)
{
	uint32_t n = a->n_lops, n_tl;
	trace_timelines(a->t, &n_tl);
	struct replay r = { .a = a, .gid = gid, .w = w, .n_tl = n_tl };
	r.pending = calloc((size_t)n + 1, sizeof *r.pending);
	r.cursor = malloc(((size_t)n_tl + 1) * sizeof *r.cursor);
	r.end = malloc(((size_t)n_tl + 1) * sizeof *r.end);
	r.fixed_w = malloc(((size_t)n_tl + 1) * sizeof *r.fixed_w);
	r.recv_w = malloc(((size_t)n_tl + 1) * sizeof *r.recv_w);
	r.blocked = calloc((size_t)n_tl + 1, 1);
	r.queue = malloc(((size_t)n_tl + 2) * sizeof *r.queue);
	r.tls = malloc(((size_t)n_tl + 1) * sizeof *r.tls);
	int rc = 0;
	if (!r.pending || !r.cursor || !r.end || !r.fixed_w || !r.recv_w || !r.blocked ||
	    !r.queue || !r.tls) {
		rc = ERR_NOMEM;
		goto out;
	}
	for (uint32_t l = 0; l < n; l++) {
		w[l] = TRACE_NONE;
		from[l] = TRACE_NONE;
		if (!is_receive(a, l))
			continue;
		uint32_t ne;
		const struct trace_end *e = lop_ends(a, l, &ne);
		for (uint32_t i = 0; i < ne; i++)
			if (sender_of(a, l, &e[i]) != TRACE_NONE)
				r.pending[l]++;
		from[l] = lowest_sender(a, l);
	}
	for (uint32_t p = 0; p < a->n_parts; p++)
		replay_part(&r, p);
out:
	free(r.pending);
	free(r.cursor);
	free(r.end);
	free(r.fixed_w);
	free(r.recv_w);
	free(r.blocked);
	free(r.queue);
	free(r.tls);
	return rc;
}

int
reorder_apply(struct analysis *a, const uint32_t *w, const uint32_t *from)
{
	uint32_t n = a->n_lops, n_tl;
	trace_timelines(a->t, &n_tl);
	uint32_t *units = malloc(((size_t)n + 1) * sizeof *units);
	uint32_t *old = malloc(((size_t)n + 1) * sizeof *old);
	int rc = units && old ? 0 : ERR_NOMEM;
	/* units are keyed by their comm lop; computation has no w of its own */
	struct order_ctx c = { .a = a, .w = w, .from = from };
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++)
		rc = order_timeline(a, tl, &c, units, old);
	a->stats.reordered = 0;
	for (uint32_t l = 0; l < n && !rc; l++)
		a->stats.reordered += old[l] != l;
	if (!rc && a->stats.reordered)
		rc = lops_permute(a, old);
	free(units);
	free(old);
	return rc;
}

int
reorder_mpi(struct analysis *a)
{
	uint32_t n = a->n_lops;
	uint32_t *w = malloc(((size_t)n + 1) * sizeof *w);
	uint32_t *from = malloc(((size_t)n + 1) * sizeof *from);
	int rc = w && from ? reorder_keys(a, NULL, w, from) : ERR_NOMEM;
	if (!rc)
		rc = reorder_apply(a, w, from);
	free(w);
	free(from);
	return rc;
}
