/* path_charm.c — the critical path of a Charm++ run (path.h): the
 * longest chain of entry-method executions, walked back over the PEs.
 *
 * An execution began when its PE was free and its message had come. Of
 * the two, the later is what it waited for: the message (the path goes
 * to the execution that created it, at the creation) when it was created
 * after the PE's previous execution ended, else that previous execution.
 * A piece of an execution after the first (split at a send, OPF_EXEC_CONT)
 * follows its previous piece. The time between is the PE's idle time on
 * the path (PATH_IDLE): the message in flight or queued, or the
 * scheduler.
 */
#include "path_impl.h"

#include "base/par.h"
#include "base/sort.h"
#include "model/charm.h"

#include <stdlib.h>

static uint64_t
enter_key(const void *ctx, uint32_t x)
{
	return trace_op_get(ctx, x).t_enter;
}

static uint64_t
id_key(const void *ctx, uint32_t x)
{
	(void)ctx;
	return x;
}

/* The ops by PE, then enter, then id, with each op's position in that
 * order and the op that ends last (the first of equals), on every core:
 * round 0 finds the PEs' count and each share's last end; then either
 * par_bucket groups the ops by PE (id order within a PE) and round 1
 * sorts each PE's by enter (stable), or, when every op is one lop and
 * the analysis holds its lops in that order by lop id (the idle
 * experienced sorted them: analysis_pe_lops), round 3 takes each lop's
 * op and puts runs of equal enters in op id order (reordering numbers a
 * chare's lops in logical order, which may differ); round 2 gives the
 * positions. */
struct pe_sorts {
	const struct analysis *a;
	const uint32_t *pe;
	uint32_t n, n_pes;
	uint32_t *order, *pos;
	const uint32_t *first;      /* per PE where its ops start; [n_pes] = n */
	const uint32_t *lops;       /* round 3: analysis_pe_lops */
	uint32_t most[PAR_MAX];     /* round 0: each share's largest PE */
	uint32_t last[PAR_MAX];     /* round 0: each share's op that ends last */
	int rc[PAR_MAX];
	int round;
};

/* Does op x end after op y (y TRACE_NONE: none yet)? The first of ops
 * that end together stays. */
static int
ends_later(const struct analysis *a, uint32_t x, uint32_t y)
{
	return y == TRACE_NONE || trace_op_get(&a->ops, x).t_exit > trace_op_get(&a->ops, y).t_exit;
}

static uint32_t
pe_of(const void *ctx, uint32_t i)
{
	return ((const uint32_t *)ctx)[i];
}

/* v[0..m), ops in enter order, with each run of equal enters in id
 * order. 0 or ERR_NOMEM. */
static int
ties_by_id(const struct analysis *a, uint32_t *v, uint32_t m)
{
	for (uint32_t i = 0, j; i < m; i = j) {
		uint64_t t = trace_op_get(&a->ops, v[i]).t_enter;
		for (j = i + 1; j < m && trace_op_get(&a->ops, v[j]).t_enter == t; j++)
			;
		if (j - i > 32) {
			int rc = sort_ids_keyed(v + i, j - i, id_key, NULL);
			if (rc)
				return rc;
			continue;
		}
		for (uint32_t k = i + 1; k < j; k++) {
			uint32_t x = v[k], at = k;
			for (; at > i && v[at - 1] > x; at--)
				v[at] = v[at - 1];
			v[at] = x;
		}
	}
	return 0;
}

static int
pe_sort_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pe_sorts *g = ctx;
	uint32_t i0, i1;
	par_share(g->n, w, nw, &i0, &i1);
	if (g->round == 0) {
		uint32_t most = 0, x = TRACE_NONE;
		for (uint32_t i = i0; i < i1; i++) {
			most = g->pe[i] > most ? g->pe[i] : most;
			if (ends_later(g->a, i, x))
				x = i;
		}
		g->most[w] = most;
		g->last[w] = x;
	} else if (g->round == 1) {
		uint32_t p0, p1;
		par_share(g->n_pes, w, nw, &p0, &p1);
		for (uint32_t p = p0; p < p1 && !g->rc[w]; p++)
			g->rc[w] = sort_ids_keyed(g->order + g->first[p], g->first[p + 1] - g->first[p],
						  enter_key, &g->a->ops);
	} else if (g->round == 3) {
		uint32_t p0, p1;
		par_share(g->n_pes, w, nw, &p0, &p1);
		for (uint32_t p = p0; p < p1 && !g->rc[w]; p++) {
			uint32_t k0 = g->first[p], k1 = g->first[p + 1];
			for (uint32_t k = k0; k < k1; k++)
				g->order[k] = lop_first_op(g->a, g->lops[k]);
			g->rc[w] = ties_by_id(g->a, g->order + k0, k1 - k0);
		}
	} else {
		for (uint32_t i = i0; i < i1; i++)
			g->pos[g->order[i]] = i;
	}
	return 0;
}

int
path_pe_order(const struct analysis *a, const uint32_t *pe, uint32_t *order, uint32_t *pos, uint32_t *last)
{
	uint32_t nw = par_workers();
	struct pe_sorts *g = calloc(1, sizeof *g);
	if (!g)
		return ERR_NOMEM;
	*g = (struct pe_sorts){ .a = a, .pe = pe, .n = a->n_ops, .order = order, .pos = pos };
	par_run(nw, pe_sort_worker, g);
	uint32_t x = TRACE_NONE;
	for (uint32_t w = 0; w < nw; w++) {
		g->n_pes = g->most[w] + 1 > g->n_pes ? g->most[w] + 1 : g->n_pes;
		if (g->last[w] != TRACE_NONE && ends_later(a, g->last[w], x))
			x = g->last[w];
	}
	*last = x;
	const uint32_t *first;
	uint32_t n_pes = trace_pe_count(a->t), *mine = NULL;
	int rc = 0, rounds[2] = { 1, 2 };
	g->lops = analysis_pe_lops(a, &first);
	if (g->lops && a->n_lops == g->n && g->n_pes <= n_pes && first[n_pes] == g->n) {
		g->n_pes = n_pes;
		g->first = first;
		rounds[0] = 3;
	} else {
		g->first = mine = malloc(((size_t)g->n_pes + 1) * sizeof *mine);
		rc = mine ? par_bucket(g->n, g->n_pes, pe_of, pe, mine, order) : ERR_NOMEM;
	}
	for (int r = 0; r < 2 && !rc; r++) {
		g->round = rounds[r];
		par_run(nw, pe_sort_worker, g);
		for (uint32_t w = 0; w < nw && !rc; w++)
			rc = g->rc[w];
	}
	free(mine);
	free(g);
	return rc;
}

/* The creation that started op x: its send op and time, or 0. */
static int
creation_of(const struct analysis *a, uint32_t x, uint32_t *send_op, uint64_t *t)
{
	uint32_t n;
	const struct trace_end *e = trace_op_ends(a->t, x, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].role != END_RECV)
			continue;
		const struct trace_msg *m = &a->msgs[e[i].id];
		if (m->send_op == TRACE_NONE)
			continue;
		*send_op = m->send_op;
		*t = m->t_send;
		return 1;
	}
	return 0;
}

int
path_walk_charm(const struct analysis *a, struct path_walk *w)
{
	uint32_t n = a->n_ops;
	if (n == 0)
		return 0;
	const uint32_t *pe = trace_op_pes(a->t);
	uint32_t *order = malloc((size_t)n * sizeof *order), *pos = malloc((size_t)n * sizeof *pos);
	int rc = ERR_NOMEM;
	if (!order || !pos)
		goto out;
	uint32_t x;
	if (path_pe_order(a, pe, order, pos, &x))
		goto out;
	uint64_t t = w->to;
	rc = 0;
	/* each step goes to an op earlier on its PE or to a creation: at most
	 * n steps on a consistent trace, and a bound on any other */
	for (uint32_t steps = 0; steps <= n; steps++) {
		struct trace_op o = trace_op_get(&a->ops, x);
		uint64_t end = o.t_exit < t ? o.t_exit : t, s = o.t_enter < end ? o.t_enter : end;
		if ((rc = path_push(w, o.timeline, end, t, PATH_IDLE, TRACE_NONE, TRACE_NONE)) ||
		    (rc = path_push(w, o.timeline, s, end, PATH_RUN, TRACE_NONE, TRACE_NONE)))
			goto out;
		t = s;
		uint32_t p = pos[x], prev = p > 0 && pe[order[p - 1]] == pe[x] ? order[p - 1] : TRACE_NONE;
		uint64_t free_at = prev == TRACE_NONE ? 0 : trace_op_get(&a->ops, prev).t_exit;
		uint32_t by;
		uint64_t c;
		if (!(o.flags & OPF_EXEC_CONT) && creation_of(a, x, &by, &c) && pe[by] != pe[x] &&
		    (prev == TRACE_NONE || c >= free_at)) {
			if (c < t) {
				if ((rc = path_push(w, o.timeline, c, t, PATH_IDLE, TRACE_NONE, TRACE_NONE)))
					goto out;
				t = c;
			}
			/* the segment the path leaves by records the jump */
			if (w->n && w->segs[w->n - 1].from == t) {
				w->segs[w->n - 1].wait_lop = op_lop_of(a, x);
				w->segs[w->n - 1].release_lop = op_lop_of(a, by);
			}
			w->jumps++;
			x = by;
			continue;
		}
		if (prev == TRACE_NONE)
			break;
		if (free_at < t) {
			if ((rc = path_push(w, o.timeline, free_at, t, PATH_IDLE, TRACE_NONE, TRACE_NONE)))
				goto out;
			t = free_at;
		}
		x = prev;
	}
	{
		struct trace_op o = trace_op_get(&a->ops, x);
		uint64_t s = o.t_enter < t ? o.t_enter : t;
		rc = path_push(w, o.timeline, w->from < s ? w->from : s, s, PATH_STARTUP, TRACE_NONE, TRACE_NONE);
	}
out:
	free(order);
	free(pos);
	return rc;
}
