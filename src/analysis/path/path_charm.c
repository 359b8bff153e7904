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

struct pe_sorts {
	const struct analysis *a;
	const uint32_t *at;         /* per PE the end of its ops in order */
	uint32_t *order, n_pes;
};

static int
pe_sort_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct pe_sorts *g = ctx;
	uint32_t p0, p1;
	par_share(g->n_pes, w, nw, &p0, &p1);
	int rc = 0;
	for (uint32_t p = p0; p < p1 && !rc; p++) {
		uint32_t from = p ? g->at[p - 1] : 0;
		rc = sort_ids_keyed(g->order + from, g->at[p] - from, enter_key, &g->a->ops);
	}
	return rc;
}

/* The ops by PE, then enter, then id: counted out by PE in id order,
 * then each PE's sorted by enter (stable), the PEs on every core. 0 or
 * ERR_NOMEM. */
static int
by_pe_time(const struct analysis *a, const uint32_t *pe, uint32_t *order)
{
	uint32_t n = a->n_ops, n_pes = 0;
	for (uint32_t i = 0; i < n; i++)
		n_pes = pe[i] + 1 > n_pes ? pe[i] + 1 : n_pes;
	uint32_t *at = calloc((size_t)n_pes + 1, sizeof *at);
	if (!at)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		at[pe[i] + 1]++;
	for (uint32_t p = 0; p < n_pes; p++)
		at[p + 1] += at[p];
	for (uint32_t i = 0; i < n; i++)
		order[at[pe[i]]++] = i;
	struct pe_sorts g = { a, at, order, n_pes };
	int rc = par_run(par_workers(), pe_sort_worker, &g);
	free(at);
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
	if (by_pe_time(a, pe, order))
		goto out;
	for (uint32_t i = 0; i < n; i++)
		pos[order[i]] = i;

	/* the execution that ends last */
	uint32_t x = 0;
	for (uint32_t i = 1; i < n; i++)
		if (trace_op_get(&a->ops, i).t_exit > trace_op_get(&a->ops, x).t_exit)
			x = i;
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
				w->segs[w->n - 1].wait_lop = a->op_lop[x];
				w->segs[w->n - 1].release_lop = a->op_lop[by];
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
