/* dist_startup.c — the last of the distributed metrics (dist_metrics.h):
 * hotspots merged on rank 0, the start-up counts, and start-up lateness
 * followed forward across ranks. */
#include "dist_metrics_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/trace_impl.h"

/* Every rank's best hotspots, merged on rank 0 (the order is total, so
 * the lists are what one pass over all lops keeps). */
int
dmet_hotspots(struct dmet *g)
{
	struct dcomm *c = g->c;
	struct dmet_out *o = g->out;
	uint32_t k = g->a->opts.hotspots;
	size_t n = (size_t)g->n_h + g->n_h_all;
	struct sort_kv *mine = malloc((n + 1) * sizeof *mine);
	int rc = dcomm_agree(c, mine ? 0 : ERR_NOMEM);
	void *all = NULL;
	uint64_t *cnt = calloc(2 * (size_t)c->size, sizeof *cnt);
	rc = rc ? rc : dcomm_agree(c, cnt ? 0 : ERR_NOMEM);
	if (!rc) {
		memcpy(mine, g->h, g->n_h * sizeof *mine);
		memcpy(mine + g->n_h, g->h_all, g->n_h_all * sizeof *mine);
		cnt[2 * c->rank] = g->n_h;
		cnt[2 * c->rank + 1] = g->n_h_all;
		rc = dcomm_reduce(c, cnt, 2 * (size_t)c->size, DCOMM_SUM);
	}
	uint64_t *bytes = malloc(c->size * sizeof *bytes);
	rc = rc ? rc : dcomm_agree(c, bytes ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_allgatherv(c, mine, n * sizeof *mine, &all, bytes);
	free(mine);
	free(bytes);
	if (!rc && c->rank == 0) {
		struct sort_kv *h = malloc(((size_t)k + 1) * sizeof *h);
		struct sort_kv *ha = malloc(((size_t)k + 1) * sizeof *ha);
		o->hot = malloc(((size_t)k + 1) * sizeof *o->hot);
		o->hot_all = malloc(((size_t)k + 1) * sizeof *o->hot_all);
		rc = h && ha && o->hot && o->hot_all ? 0 : ERR_NOMEM;
		const struct sort_kv *x = all;
		uint32_t nh = 0, nha = 0;
		for (uint32_t r = 0; r < c->size && !rc; r++) {
			for (uint64_t i = 0; i < cnt[2 * r]; i++)
				nh = sort_top_offer(h, nh, k, *x++);
			for (uint64_t i = 0; i < cnt[2 * r + 1]; i++)
				nha = sort_top_offer(ha, nha, k, *x++);
		}
		if (!rc) {
			sort_top_ids(h, nh, k, o->hot);
			o->n_hot = nh;
			if (g->a->opts.startup) {
				memcpy(o->hot_all, o->hot, (size_t)nh * sizeof *o->hot);
				nha = nh;
			} else {
				sort_top_ids(ha, nha, k, o->hot_all);
			}
			o->n_hot_all = nha;
		}
		free(h);
		free(ha);
	}
	free(all);
	free(cnt);
	rc = dcomm_agree(c, rc);
	uint64_t hidden = o->startup_hidden, prog = o->progress_receives;
	if (!rc)
		rc = dcomm_reduce(c, &hidden, 1, DCOMM_SUM);
	if (!rc)
		rc = dcomm_reduce(c, &prog, 1, DCOMM_SUM);
	o->startup_hidden = (uint32_t)hidden;
	o->progress_receives = (uint32_t)prog;
	return rc;
}

/* The ranks' start-up lops: how many, and the latest (the first of the
 * latest, in lop order). */
int
dmet_startups(struct dmet *g)
{
	const struct analysis *a = g->a;
	uint32_t n_tl = (uint32_t)g->d->t->n_timelines;
	uint64_t count = 0, best = 0, best_lop = TRACE_NONE;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t l = a->tl_lop[tl];
		if (l < a->tl_lop[tl + 1] && analysis_lop_startup(a, l)) {
			count++;
			if (best_lop == TRACE_NONE || g->late[l] > best) {
				best = g->late[l];
				best_lop = g->in->lop_off + l;
			}
		}
	}
	/* the latest lateness (plus one: 0 is none), then the least lop with it */
	uint64_t top = best_lop == TRACE_NONE ? 0 : best + 1;
	int rc = dcomm_reduce(g->c, &count, 1, DCOMM_SUM);
	if (!rc)
		rc = dcomm_reduce(g->c, &top, 1, DCOMM_MAX);
	uint64_t lop = best_lop != TRACE_NONE && best + 1 == top ? best_lop : TRACE_NONE;
	if (!rc)
		rc = dcomm_reduce(g->c, &lop, 1, DCOMM_MIN);
	g->out->startup_lops = (uint32_t)count;
	g->out->startup_max_lop = (uint32_t)lop;
	return rc;
}

/* Start-up lateness followed forward (metrics.c: trace_startup), a cause
 * crossing ranks by message: a receive's rank is told which lop its
 * receive op would inherit from, in rounds until none is told. */
struct startup {
	struct dmet *g;
	uint32_t *stack;
	size_t n, cap;
	struct tell {
		uint32_t op, from;     /* a receive op (global), the lop it may inherit from */
	} *out;
	uint32_t *to;
	size_t n_out, cap_out, cap_to;
};

static uint32_t
cause_lop(const struct dmet *g, uint32_t y)
{
	const struct dmet_out *o = g->out;
	uint8_t c = o->cause[y] & CAUSE_MASK;
	if (c == CAUSE_TIMELINE)
		return g->in->lop_off + y - 1;
	if (c != CAUSE_MESSAGE)
		return TRACE_NONE;
	uint32_t src = o->cause[y] >> CAUSE_SRC_SHIFT, l = g->in->lop_off + y;
	if (src != CAUSE_SRC_FAR)
		return dmet_src_lop(g, y, src);
	size_t lo = 0, hi = o->n_far;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->far[mid].lop < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->n_far && o->far[lo].lop == l ? o->far[lo].cause_lop : TRACE_NONE;
}

/* Local lop y inherits start-up lateness when its cause lop is x (global). */
static int
inherit(struct startup *s, uint32_t x, uint32_t y)
{
	struct dmet_out *o = s->g->out;
	if ((o->cause[y] & CAUSE_FROM_STARTUP) || cause_lop(s->g, y) != x)
		return 0;
	o->cause[y] |= CAUSE_FROM_STARTUP;
	if (VEC_GROW(s->stack, s->n, s->cap))
		return ERR_NOMEM;
	s->stack[s->n++] = y;
	return 0;
}

/* The receive at global op `op` may inherit from x: here, or told. */
static int
reach(struct startup *s, uint32_t op, uint32_t x)
{
	struct dmet *g = s->g;
	uint32_t local = dmodel_op_local(g->d, op);
	if (local != TRACE_NONE) {
		uint32_t y = g->a->op_lop[local];
		return (g->out->cause[y] & CAUSE_MASK) == CAUSE_MESSAGE ? inherit(s, x, y) : 0;
	}
	if (VEC_GROW(s->out, s->n_out, s->cap_out) ||
	    vec_reserve((void **)&s->to, &s->cap_to, s->n_out + 1, sizeof *s->to))
		return ERR_NOMEM;
	s->to[s->n_out] = dmet_rank_of_op(g, op);
	s->out[s->n_out++] = (struct tell){ op, x };
	return 0;
}

static int
follow(struct startup *s)
{
	struct dmet *g = s->g;
	const struct analysis *a = g->a;
	const struct dmodel *d = g->d;
	int rc = 0;
	while (s->n && !rc) {
		uint32_t x = s->stack[--s->n], end = a->tl_lop[a->lop_tl[x] + 1];
		uint32_t xg = g->in->lop_off + x;
		if (x + 1 < end && (g->out->cause[x + 1] & CAUSE_MASK) == CAUSE_TIMELINE)
			rc = inherit(s, xg, x + 1);
		for (uint32_t y = x; y <= x + 1 && y < end && !rc; y++) {
			uint32_t ne;
			const struct trace_end *e = lop_ends(a, y, &ne);
			for (uint32_t i = 0; i < ne && !rc; i++) {
				uint32_t m = e[i].id - d->sends.off;
				if (e[i].role != (y == x ? END_SEND : END_ISEND_DONE) ||
				    e[i].id < d->sends.off || m >= d->sends.n)
					continue;
				if (d->t->msgs[m].recv_op != TRACE_NONE)
					rc = reach(s, d->t->msgs[m].recv_op, xg);
			}
		}
	}
	return rc;
}

int
dmet_trace_startup(struct dmet *g)
{
	const struct analysis *a = g->a;
	struct startup s = { .g = g };
	uint32_t n_tl = (uint32_t)g->d->t->n_timelines;
	int rc = 0;
	for (uint32_t tl = 0; tl < n_tl && !rc; tl++) {
		uint32_t l = a->tl_lop[tl];
		if (l < a->tl_lop[tl + 1] && analysis_lop_startup(a, l) && g->late[l]) {
			g->out->cause[l] |= CAUSE_FROM_STARTUP;
			rc = VEC_GROW(s.stack, s.n, s.cap);
			if (!rc)
				s.stack[s.n++] = l;
		}
	}
	for (;;) {
		if (!rc)
			rc = follow(&s);
		uint64_t told = s.n_out;
		rc = dcomm_agree(g->c, rc);
		if (!rc)
			rc = dcomm_reduce(g->c, &told, 1, DCOMM_SUM);
		if (rc || !told)
			break;
		void *recv = NULL;
		size_t n_recv = 0;
		rc = dcomm_exchange(g->c, s.out, s.n_out, sizeof *s.out, s.to, &recv, &n_recv);
		s.n_out = 0;
		const struct tell *t = recv;
		for (size_t i = 0; i < n_recv && !rc; i++)
			rc = reach(&s, t[i].op, t[i].from);
		free(recv);
	}
	free(s.stack);
	free(s.out);
	free(s.to);
	return rc;
}

