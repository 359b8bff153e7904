/* dist_metrics.c — metrics.c's stage, each rank for its own lops
 * (dist_metrics.h). */
#include "dist_metrics.h"
#include "dist_metrics_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/vec.h"
#include "model/trace_impl.h"

/* A partition step or global step, the least exit seen there, and the
 * rank that saw it. */
struct pkey {
	uint32_t p, s;
	uint64_t min;
	uint32_t src, pad;
};

uint32_t
dmet_rank_of_op(const struct dmet *g, uint32_t op)
{
	return dmodel_rank_of(g->op_first, g->c->size, op);
}

/* Every rank's first timeline and first op. */
static int
tables(struct dmet *g)
{
	uint32_t n = g->c->size;
	g->tl_first = calloc(n + 1, sizeof *g->tl_first);
	g->op_first = calloc(n + 1, sizeof *g->op_first);
	int rc = dcomm_agree(g->c, g->tl_first && g->op_first ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_firsts(g->c, g->d->tl_lo, (uint32_t)g->d->t->n_timelines, g->tl_first);
	if (!rc)
		rc = dcomm_firsts(g->c, 2 * g->d->oprec.off, 2 * g->d->oprec.all, g->op_first);
	return rc;
}

static int
cmp_pkey(const void *x, const void *y)
{
	const struct pkey *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

/* The least exit of each key (partition, step) among the rank's lops
 * (p TRACE_NONE: global steps), sorted. */
static int
minima(const struct dmet *g, int global, struct pkey **out, size_t *n_out)
{
	const struct analysis *a = g->a;
	struct hmap at = { 0 };
	struct pkey *k = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = global ? 0 : a->lop_part[l], s = a->lop_step[l];
		if (s == TRACE_NONE || p == TRACE_NONE)
			continue;
		uint64_t x = lop_exit(a, l);
		uint32_t *i = hmap_get(&at, p, s);
		if (i) {
			if (x < k[*i].min)
				k[*i].min = x;
			continue;
		}
		if ((rc = VEC_GROW(k, n, cap)) || (rc = hmap_put(&at, p, s, (uint32_t)n)))
			break;
		k[n++] = (struct pkey){ p, s, x, g->c->rank, 0 };
	}
	hmap_fini(&at);
	if (!rc && n > 1)
		qsort(k, n, sizeof *k, cmp_pkey);
	*out = k;
	*n_out = n;
	return rc;
}

/* Partition minima: to the holders and back; each lop's lateness. */
static int
partition_minima(struct dmet *g)
{
	struct dcomm *c = g->c;
	const struct dmet_in *in = g->in;
	struct dmet_out *o = g->out;
	uint32_t n = c->size, me = c->rank, np = in->n_parts;
	o->part_lo = (uint32_t)((uint64_t)np * me / n);
	o->part_hi = (uint32_t)((uint64_t)np * (me + 1) / n);
	uint32_t mine = o->part_hi - o->part_lo;
	/* the holders get their partitions' spans from rank 0 */
	uint32_t *span = NULL, *dest = NULL;
	void *got = NULL;
	size_t n_got = 0;
	if (me == 0) {
		span = malloc(((size_t)np + 1) * 2 * sizeof *span);
		dest = malloc(((size_t)np + 1) * sizeof *dest);
	}
	int rc = dcomm_agree(c, me == 0 && (!span || !dest) ? ERR_NOMEM : 0);
	for (uint32_t p = 0; me == 0 && p < np && !rc; p++) {
		span[2 * p] = in->step_first[p];
		span[2 * p + 1] = in->step_count[p];
		dest[p] = dcomm_even_owner(p, np, n);
	}
	if (!rc)
		rc = dcomm_exchange(c, span, me == 0 ? np : 0, 2 * sizeof *span, dest, &got, &n_got);
	free(span);
	free(dest);
	span = got;
	if (!rc && n_got != mine)
		rc = ERR_USAGE;
	rc = dcomm_agree(c, rc);
	/* its slots: counted, then numbered after the ranks' before */
	uint64_t slots = 0;
	for (uint32_t i = 0; i < mine && !rc; i++)
		slots += span[2 * i + 1];
	uint64_t before = slots, all = 0;
	if (!rc)
		rc = dcomm_exscan(c, &before, 1);
	all = before + slots;
	if (!rc)
		rc = dcomm_reduce(c, &all, 1, DCOMM_MAX);
	if (!rc && all >= TRACE_NONE)
		rc = ERR_LIMIT;
	if (!rc) {
		o->n_slots = (uint32_t)all;
		o->pmin_first = malloc(((size_t)mine + 1) * sizeof *o->pmin_first);
		o->pmin = malloc((slots + 1) * sizeof *o->pmin);
		rc = o->pmin_first && o->pmin ? 0 : ERR_NOMEM;
	}
	uint64_t at = before;
	for (uint32_t i = 0; i <= mine && !rc; i++) {
		o->pmin_first[i] = (uint32_t)at;
		if (i < mine)
			at += span[2 * i + 1];
	}
	if (!rc)
		memset(o->pmin, 0xff, (slots + 1) * sizeof *o->pmin);
	rc = dcomm_agree(c, rc);

	/* the rank's minima to their holders, which keep the least */
	struct pkey *k = NULL, *back = NULL;
	size_t nk = 0, n_back = 0, n_recv = 0;
	uint32_t *to = NULL;
	void *recv = NULL;
	if (!rc)
		rc = minima(g, 0, &k, &nk);
	if (!rc && !(to = malloc((nk + 1) * sizeof *to)))
		rc = ERR_NOMEM;
	for (size_t i = 0; i < nk && !rc; i++)
		to[i] = dcomm_even_owner(k[i].p, np, n);
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = dcomm_exchange_unordered(c, k, nk, sizeof *k, to, &recv, &n_recv);
	free(to);
	free(k);
	to = NULL;
	k = NULL;
	struct pkey *r = recv;
	for (size_t i = 0; i < n_recv && !rc; i++) {
		uint32_t q = r[i].p - o->part_lo;
		if (q >= mine || r[i].s < span[2 * q] || r[i].s - span[2 * q] >= span[2 * q + 1]) {
			rc = ERR_USAGE;
			break;
		}
		uint64_t slot = o->pmin_first[q] - before + r[i].s - span[2 * q];
		if (r[i].min < o->pmin[slot])
			o->pmin[slot] = r[i].min;
	}
	/* and back to where each came from (in any order: looked up by key) */
	for (size_t i = 0; i < n_recv && !rc; i++) {
		uint32_t q = r[i].p - o->part_lo;
		r[i].min = o->pmin[o->pmin_first[q] - before + r[i].s - span[2 * q]];
	}
	uint32_t *src = rc ? NULL : malloc((n_recv + 1) * sizeof *src);
	rc = dcomm_agree(c, rc ? rc : src ? 0 : ERR_NOMEM);
	for (size_t i = 0; i < n_recv && !rc; i++)
		src[i] = r[i].src;
	if (!rc)
		rc = dcomm_exchange_unordered(c, r, n_recv, sizeof *r, src, (void **)&back, &n_back);
	free(src);
	free(recv);
	free(span);
	free(to);
	if (!rc && n_back != nk)
		rc = ERR_USAGE;
	/* each lop's lateness against its partition step's minimum */
	struct hmap at_key = { 0 };
	for (size_t i = 0; i < n_back && !rc; i++)
		rc = hmap_put(&at_key, back[i].p, back[i].s, (uint32_t)i);
	const struct analysis *a = g->a;
	if (!rc && !(g->late = malloc(((size_t)a->n_lops + 1) * sizeof *g->late)))
		rc = ERR_NOMEM;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = a->lop_part[l], s = a->lop_step[l];
		const uint32_t *i = p == TRACE_NONE || s == TRACE_NONE ? NULL : hmap_get(&at_key, p, s);
		g->late[l] = i ? lop_exit(a, l) - back[*i].min : 0;
	}
	hmap_fini(&at_key);
	free(back);
	free(k);
	return dcomm_agree(c, rc);
}

/* Global step minima, to the ranks holding runs of steps. */
static int
global_minima(struct dmet *g)
{
	struct dcomm *c = g->c;
	struct dmet_out *o = g->out;
	uint32_t n = c->size, me = c->rank, ns = g->in->n_steps;
	o->step_lo = (uint32_t)((uint64_t)ns * me / n);
	o->step_hi = (uint32_t)((uint64_t)ns * (me + 1) / n);
	struct pkey *k = NULL;
	size_t nk = 0, n_recv = 0;
	uint32_t *to = NULL;
	void *recv = NULL;
	o->gmin = malloc(((size_t)(o->step_hi - o->step_lo) + 1) * sizeof *o->gmin);
	int rc = o->gmin ? minima(g, 1, &k, &nk) : ERR_NOMEM;
	if (!rc && !(to = malloc((nk + 1) * sizeof *to)))
		rc = ERR_NOMEM;
	for (size_t i = 0; i < nk && !rc; i++)
		to[i] = dcomm_even_owner(k[i].s, ns, n);
	rc = dcomm_agree(c, rc);
	if (!rc) {
		memset(o->gmin, 0xff, ((size_t)(o->step_hi - o->step_lo) + 1) * sizeof *o->gmin);
		rc = dcomm_exchange_unordered(c, k, nk, sizeof *k, to, &recv, &n_recv);
	}
	const struct pkey *r = recv;
	for (size_t i = 0; i < n_recv && !rc; i++) {
		if (r[i].s < o->step_lo || r[i].s >= o->step_hi) {
			rc = ERR_USAGE;
			break;
		}
		if (r[i].min < o->gmin[r[i].s - o->step_lo])
			o->gmin[r[i].s - o->step_lo] = r[i].min;
	}
	free(recv);
	free(k);
	free(to);
	return dcomm_agree(c, rc);
}

static int
lop_holds_global(const struct dmet *g, uint32_t l, uint32_t op)
{
	uint32_t lo = dmodel_op_global(g->d, lop_first_op(g->a, l));
	uint32_t hi = dmodel_op_global(g->d, lop_last_op(g->a, l));
	return op != TRACE_NONE && op >= lo && op <= hi;
}

/* What each message the rank sent needs to tell its receiver (metrics.c:
 * sent_side, in 64 bits), to the receiver's rank. */
static int
sent_side(struct dmet *g)
{
	const struct dmodel *d = g->d;
	const struct analysis *a = g->a;
	const struct trace_msg *msgs = d->t->msgs;
	struct dsent *s = malloc(((size_t)d->sends.n + 1) * sizeof *s);
	uint32_t *to = malloc(((size_t)d->sends.n + 1) * sizeof *to);
	size_t n = 0;
	int rc = s && to ? 0 : ERR_NOMEM;
	for (uint32_t i = 0; i < d->sends.n && !rc; i++) {
		const struct trace_msg *m = &msgs[i];
		if (m->send_op == TRACE_NONE || m->recv_op == TRACE_NONE ||
		    (a->opts.match_size && (m->flags & MSGF_SIZE_MISMATCH)))
			continue;        /* the analysis does not step by it */
		uint32_t so = dmodel_op_local(d, m->send_op);
		if (so == TRACE_NONE) {
			rc = ERR_USAGE;
			break;
		}
		uint32_t sl = op_lop_of(a, so);
		struct dsent x = { d->sends.off + i, g->in->lop_off + sl, TRACE_NONE, 0, 0, 0 };
		x.self = lop_holds_global(g, sl, m->recv_op);
		x.late = x.self ? 0 : g->late[sl];
		uint32_t done = m->send_done_op == TRACE_NONE ? TRACE_NONE :
				dmodel_op_local(d, m->send_done_op);
		/* the completing call is on the sender's timeline, so here (MPI) */
		if (a->opts.sender_progress && done != TRACE_NONE && m->send_done_op != m->send_op) {
			uint32_t w = op_lop_of(a, done);
			if (!lop_holds_global(g, w, m->recv_op) && w != a->tl_lop[a->lop_tl[w]] &&
			    m->t_recv >= lop_enter(a, w)) {
				x.prog_lop = g->in->lop_off + w - 1;
				x.prog = g->late[w - 1];
			}
		}
		to[n] = dmodel_rank_of(g->tl_first, g->c->size, m->receiver);
		s[n++] = x;
	}
	rc = dcomm_agree(g->c, rc);
	void *recv = NULL;
	if (!rc)
		rc = dcomm_exchange_unordered(g->c, s, n, sizeof *s, to, &recv, &g->n_sent);
	free(s);
	free(to);
	g->sent = recv;
	if (!rc && g->n_sent > 1)
		qsort(g->sent, g->n_sent, sizeof *g->sent, vec_cmp_u32);
	return rc;
}

static const struct dsent *
sent_of(const struct dmet *g, uint32_t msg)
{
	size_t i = vec_find_u32(g->sent, g->n_sent, sizeof *g->sent, msg);
	return i < g->n_sent ? &g->sent[i] : NULL;
}

/* The lop the cause byte's src names among receive lop l's ends
 * (metrics.c: src_lop), global. */
uint32_t
dmet_src_lop(const struct dmet *g, uint32_t l, uint32_t src)
{
	uint32_t ne, k = src / 2;
	const struct trace_end *e = lop_ends(g->a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (e[i].role != END_RECV || k--)
			continue;
		const struct dsent *x = sent_of(g, e[i].id);
		return !x ? TRACE_NONE : src % 2 ? x->prog_lop : x->sender;
	}
	return TRACE_NONE;
}

static void
hot_see(struct dmet *g, uint32_t l, uint64_t key)
{
	const struct analysis *a = g->a;
	if (key == 0)
		return;
	struct sort_kv x = { key, g->in->lop_off + l };
	uint32_t k = a->opts.hotspots;
	int su = analysis_lop_startup(a, l);
	if (a->opts.startup || !su)
		g->n_h = sort_top_offer(g->h, g->n_h, k, x);
	if (!a->opts.startup) {
		g->n_h_all = sort_top_offer(g->h_all, g->n_h_all, k, x);
		g->out->startup_hidden += su;
	}
}

static int
receiving(uint8_t kind)
{
	return kind == OP_RECV || kind == OP_SENDRECV;
}

/* metrics.c's differential(), over the rank's timelines. */
static int
differential(struct dmet *g)
{
	const struct analysis *a = g->a;
	struct dmet_out *o = g->out;
	size_t cap_big = 0, cap_far = 0, n_big = 0, n_far = 0;
	uint32_t n_tl = (uint32_t)g->d->t->n_timelines;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint64_t prev_late = 0;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t prev = l > a->tl_lop[tl] ? prev_late : 0, sent = 0, plain = 0;
			uint32_t src = 0;
			int have = 0;
			if (receiving(a->lop_kind[l])) {
				uint32_t ne, n_recv = 0;
				const struct trace_end *e = lop_ends(a, l, &ne);
				for (uint32_t i = 0; i < ne; i++) {
					if (e[i].role != END_RECV)
						continue;
					uint32_t k = n_recv++;
					const struct dsent *x = sent_of(g, e[i].id);
					if (!x)
						continue;
					int self = x->self || x->sender == g->in->lop_off + l;
					uint64_t ls = self ? 0 : x->late;
					if (!self && (!have || ls > sent)) {
						sent = ls;
						have = 1;
						src = 2 * k;
					}
					if (!self && ls > plain)
						plain = ls;
					int by_progress = x->prog_lop != TRACE_NONE;
					if (by_progress && (!have || x->prog > sent)) {
						sent = x->prog;
						have = 1;
						src = 2 * k + 1;
					}
				}
			}
			int from_sender = have && sent >= prev;
			uint64_t pred = from_sender ? sent : prev;
			uint64_t late = g->late[l];
			uint64_t diff = late > pred ? late - pred : 0;
			prev_late = late;
			o->progress_receives += sent > plain && sent > prev &&
						late > (plain > prev ? plain : prev);
			hot_see(g, l, diff);
			o->diff[l] = diff < DIFF_BIG ? (uint32_t)diff : DIFF_BIG;
			if (diff >= DIFF_BIG) {
				if (VEC_GROW(o->big, n_big, cap_big))
					return ERR_NOMEM;
				o->big[n_big++] = (struct lop_big){ g->in->lop_off + l, 0, diff };
			}
			int far;
			o->cause[l] = metrics_cause(late, diff, receiving(a->lop_kind[l]), from_sender, src,
						    &far);
			if (far) {
				if (VEC_GROW(o->far, n_far, cap_far))
					return ERR_NOMEM;
				o->far[n_far++] = (struct lop_far){ g->in->lop_off + l, dmet_src_lop(g, l, src) };
			}
		}
	}
	o->n_big = (uint32_t)n_big;
	o->n_far = (uint32_t)n_far;
	return 0;
}

void
dmet_out_free(struct dmet_out *o)
{
	free(o->big);
	free(o->far);
	free(o->pmin_first);
	free(o->pmin);
	free(o->gmin);
	free(o->hot);
	free(o->hot_all);
	o->big = NULL;
	o->far = NULL;
	o->pmin_first = NULL;
	o->pmin = NULL;
	o->gmin = NULL;
	o->hot = o->hot_all = NULL;
}

int
dist_metrics(struct dcomm *c, const struct dmet_in *in, struct dmet_out *out)
{
	struct dmet g = { .c = c, .in = in, .out = out, .d = in->d, .a = in->la };
	uint32_t k = in->la->opts.hotspots;
	g.h = malloc(((size_t)k + 1) * sizeof *g.h);
	g.h_all = malloc(((size_t)k + 1) * sizeof *g.h_all);
	int rc = dcomm_agree(c, g.h && g.h_all ? 0 : ERR_NOMEM);
	if (!rc)
		rc = tables(&g);
	if (!rc)
		rc = partition_minima(&g);
	if (!rc)
		rc = global_minima(&g);
	if (!rc)
		rc = sent_side(&g);
	if (!rc)
		rc = dcomm_agree(c, differential(&g));
	if (!rc)
		rc = dmet_hotspots(&g);
	if (!rc)
		rc = dmet_startups(&g);
	if (!rc)
		rc = dmet_trace_startup(&g);
	free(g.h);
	free(g.h_all);
	free(g.tl_first);
	free(g.op_first);
	free(g.late);
	free(g.sent);
	if (rc)
		dmet_out_free(out);
	return rc;
}
