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
 * as wide as the partition), not one pass per step.
 */
#include "analysis_impl.h"

#include "base/par.h"

#include <stdlib.h>
#include <string.h>

static int
receiving(uint8_t kind)
{
	return kind == OP_RECV || kind == OP_SENDRECV;
}

/* Per-worker state: each worker takes the lops of a share of the ranks
 * (contiguous, read in order): first the minima of its lops per
 * partition step and per global step, then lateness and global lateness,
 * then differential lateness. */
struct metering {
	struct analysis *a;
	uint32_t tl_cut[PAR_MAX + 1];
	uint32_t *pbase;              /* n_parts + 1: a partition's first slot in pmin */
	uint64_t *pmin[PAR_MAX];      /* per worker, pbase[n_parts] wide */
	uint64_t *gmin[PAR_MAX];      /* per worker, n_steps wide */
	uint32_t progress[PAR_MAX];   /* per worker: receives decided by sender progress */
	int phase;
};

static uint32_t differential(struct analysis *a, uint32_t tl0, uint32_t tl1);

/* The slot of lop l's partition step in pmin, or TRACE_NONE. */
static uint32_t
slot(const struct metering *m, uint32_t l)
{
	const struct analysis *a = m->a;
	uint32_t p = a->lop_part[l], s = a->lop_step[l];
	if (p == TRACE_NONE || s == TRACE_NONE)
		return TRACE_NONE;
	return m->pbase[p] + s - a->parts[p].step_first;
}

static int
metric_worker(void *ctx, uint32_t w, uint32_t nw)
{
	(void)nw;
	struct metering *m = ctx;
	struct analysis *a = m->a;
	uint32_t l0 = a->tl_lop[m->tl_cut[w]], l1 = a->tl_lop[m->tl_cut[w + 1]];
	if (m->phase == 2) {
		m->progress[w] = differential(a, m->tl_cut[w], m->tl_cut[w + 1]);
		return 0;
	}
	if (m->phase == 1) {
		const uint64_t *pmin = m->pmin[0], *gmin = m->gmin[0];
		for (uint32_t l = l0; l < l1; l++) {
			uint32_t k = slot(m, l);
			uint64_t x = lop_exit(a, l);
			if (k != TRACE_NONE)
				a->late[l] = x - pmin[k];
			if (a->lop_step[l] != TRACE_NONE)
				a->glate[l] = x - gmin[a->lop_step[l]];
		}
		return 0;
	}
	size_t np = m->pbase[a->n_parts];
	uint64_t *pmin = malloc((np + 1) * sizeof *pmin);
	uint64_t *g = malloc(((size_t)a->n_steps + 1) * sizeof *g);
	m->pmin[w] = pmin;
	m->gmin[w] = g;
	if (!pmin || !g)
		return ERR_NOMEM;
	memset(pmin, 0xff, (np + 1) * sizeof *pmin);
	memset(g, 0xff, ((size_t)a->n_steps + 1) * sizeof *g);
	for (uint32_t l = l0; l < l1; l++) {
		uint32_t k = slot(m, l);
		uint64_t x = lop_exit(a, l);
		if (k != TRACE_NONE && x < pmin[k])
			pmin[k] = x;
		if (a->lop_step[l] != TRACE_NONE && x < g[a->lop_step[l]])
			g[a->lop_step[l]] = x;
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
	uint32_t w = a->op_lop[msg->send_done_op];
	if (w == r || w == a->tl_lop[a->lop_tl[w]] || msg->t_recv < lop_enter(a, w))
		return TRACE_NONE;
	return w - 1;
}

/* Differential lateness and the Fig. 7 case of each lop. A late op is
 * "created here" (a, or c for a receive) when at least half its lateness
 * is its own (diff >= inherited part); otherwise it was propagated from
 * whichever predecessor was latest: along the timeline (b) or from a
 * sender (d). doc/analysis.md explains the threshold. Returns the number
 * of receives whose latest predecessor came from sender progress. */
static uint32_t
differential(struct analysis *a, uint32_t tl0, uint32_t tl1)
{
	const struct trace_msg *msgs = a->msgs;
	uint32_t progress = 0;
	for (uint32_t tl = tl0; tl < tl1; tl++) {
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t prev = 0, sent = 0, plain = 0;
			uint32_t prev_lop = TRACE_NONE, send_lop = TRACE_NONE;
			if (l > a->tl_lop[tl]) {
				prev_lop = l - 1;
				prev = a->late[l - 1];
			}
			if (receiving(a->lop_kind[l])) {
				uint32_t ne;
				const struct trace_end *e = lop_ends(a, l, &ne);
				for (uint32_t i = 0; i < ne; i++) {
					if (e[i].role != END_RECV || !msg_ok(a, e[i].id))
						continue;
					uint32_t s = a->op_lop[msgs[e[i].id].send_op];
					if (s != l && (send_lop == TRACE_NONE || a->late[s] > sent)) {
						sent = a->late[s];
						send_lop = s;
					}
					if (s != l && a->late[s] > plain)
						plain = a->late[s];
					uint32_t c = a->opts.sender_progress ? progress_pred(a, l, e[i].id)
						: TRACE_NONE;
					if (c != TRACE_NONE && (send_lop == TRACE_NONE || a->late[c] > sent)) {
						sent = a->late[c];
						send_lop = c;
					}
				}
			}
			uint64_t pred = prev > sent ? prev : sent;
			uint64_t late = a->late[l];
			a->diff[l] = late > pred ? late - pred : 0;
			a->cause_lop[l] = TRACE_NONE;
			/* counted where sender progress lowered what was created */
			progress += sent > plain && sent > prev && late > (plain > prev ? plain : prev);
			if (late == 0) {
				a->cause[l] = CAUSE_NONE;
				continue;
			}
			uint64_t inherited = late - a->diff[l];
			if (a->diff[l] >= inherited) {
				a->cause[l] = receiving(a->lop_kind[l]) ? CAUSE_IN_FLIGHT : CAUSE_COMPUTE;
			} else if (send_lop != TRACE_NONE && sent >= prev) {
				a->cause[l] = CAUSE_MESSAGE;
				a->cause_lop[l] = send_lop;
			} else {
				a->cause[l] = CAUSE_TIMELINE;
				a->cause_lop[l] = prev_lop;
			}
		}
	}
	return progress;
}

/* hotspot order: larger key (differential lateness, or for Charm++ the
 * differential duration: a->hot_key) first, then smaller lop id */
static int
hot_before(const struct analysis *a, uint32_t x, uint32_t y)
{
	const uint64_t *k = a->hot_key;
	return k[x] > k[y] || (k[x] == k[y] && x < y);
}

static void
sift_down(const struct analysis *a, uint32_t *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t w = i, c = 2 * i + 1;
		/* a min-heap in hotspot order: the root is the weakest kept */
		if (c < n && hot_before(a, h[w], h[c]))
			w = c;
		if (c + 1 < n && hot_before(a, h[w], h[c + 1]))
			w = c + 1;
		if (w == i)
			return;
		uint32_t tmp = h[i];
		h[i] = h[w];
		h[w] = tmp;
		i = w;
	}
}

/* from_startup[l]: l's lateness came from a rank's start-up, following
 * the causes back (b and d) to a start-up lop. One walk per chain, each
 * lop settled once; a cycle (two Sendrecvs blaming each other) is not
 * start-up. */
static int
trace_startup(struct analysis *a)
{
	enum { UNKNOWN, NO, YES, VISITING };
	uint8_t *st = calloc((size_t)a->n_lops + 1, 1);
	uint32_t *path = malloc(((size_t)a->n_lops + 1) * sizeof *path);
	a->from_startup = st;
	if (!st || !path) {
		free(path);
		return ERR_NOMEM;
	}
	for (uint32_t l = 0; l < a->n_lops; l++) {
		uint32_t n = 0, x = l;
		uint8_t result = NO;
		while (st[x] == UNKNOWN) {
			st[x] = VISITING;
			path[n++] = x;
			uint8_t c = a->cause[x];
			if ((c == CAUSE_TIMELINE || c == CAUSE_MESSAGE) && a->cause_lop[x] != TRACE_NONE) {
				x = a->cause_lop[x];
				continue;
			}
			x = TRACE_NONE;
			result = analysis_lop_startup(a, path[n - 1]) && a->late[path[n - 1]] ? YES : NO;
			break;
		}
		if (x != TRACE_NONE)
			result = st[x] == YES ? YES : NO;   /* settled, or a cycle */
		while (n)
			st[path[--n]] = result;
	}
	for (uint32_t l = 0; l < a->n_lops; l++)
		st[l] = st[l] == YES;
	free(path);
	return 0;
}

/* The k lops with the largest differential lateness into hot[], best
 * first; start-up lops only with startup. Returns how many. */
static uint32_t
rank_hotspots(struct analysis *a, uint32_t *hot, uint32_t k, int startup)
{
	uint32_t n = 0;
	for (uint32_t l = 0; l < a->n_lops; l++) {
		if (a->hot_key[l] == 0)
			continue;
		if (!startup && analysis_lop_startup(a, l))
			continue;
		if (n < k) {
			hot[n++] = l;
			if (n == k)
				for (uint32_t i = k / 2 + 1; i-- > 0;)
					sift_down(a, hot, n, i);
		} else if (k && hot_before(a, l, hot[0])) {
			hot[0] = l;
			sift_down(a, hot, n, 0);
		}
	}
	/* heap sort into hotspot order, best first */
	if (n < k)
		for (uint32_t i = n / 2 + 1; i-- > 0;)
			sift_down(a, hot, n, i);
	for (uint32_t end = n; end > 1; end--) {
		uint32_t tmp = hot[0];
		hot[0] = hot[end - 1];
		hot[end - 1] = tmp;
		sift_down(a, hot, end - 1, 0);
	}
	return n;
}

/* The hotspots the options ask for, and the list with start-up counted
 * (the same when opts.startup), so a view can switch between them. */
static int
hotspots(struct analysis *a)
{
	uint32_t k = a->opts.hotspots;
	a->hot = malloc(((size_t)k + 1) * sizeof *a->hot);
	a->hot_all = malloc(((size_t)k + 1) * sizeof *a->hot_all);
	if (!a->hot || !a->hot_all)
		return ERR_NOMEM;
	a->n_hot = rank_hotspots(a, a->hot, k, a->opts.startup);
	a->n_hot_all = a->opts.startup ? a->n_hot : rank_hotspots(a, a->hot_all, k, 1);
	if (a->opts.startup)
		memcpy(a->hot_all, a->hot, (size_t)a->n_hot * sizeof *a->hot);
	for (uint32_t l = 0; l < a->n_lops && !a->opts.startup; l++)
		a->stats.startup_hidden += a->diff[l] && analysis_lop_startup(a, l);
	return 0;
}

int
metrics_compute(struct analysis *a)
{
	uint32_t n = a->n_lops;
	a->late = calloc(n + 1, sizeof *a->late);
	a->glate = calloc(n + 1, sizeof *a->glate);
	a->diff = calloc(n + 1, sizeof *a->diff);
	a->cause = calloc(n + 1, 1);
	a->cause_lop = malloc((n + 1) * sizeof *a->cause_lop);
	if (!a->late || !a->glate || !a->diff || !a->cause || !a->cause_lop)
		return ERR_NOMEM;
	uint32_t n_tl, nw = par_workers();
	trace_timelines(a->t, &n_tl);
	struct metering m = { .a = a };
	m.pbase = malloc(((size_t)a->n_parts + 1) * sizeof *m.pbase);
	if (!m.pbase)
		return ERR_NOMEM;
	uint64_t slots = 0;
	for (uint32_t p = 0; p < a->n_parts; p++) {
		m.pbase[p] = (uint32_t)slots;
		slots += a->parts[p].step_count;
	}
	m.pbase[a->n_parts] = (uint32_t)slots;
	par_split(n_tl, nw, tl_size, a, m.tl_cut);
	int rc = slots < TRACE_NONE ? par_run(nw, metric_worker, &m) : ERR_LIMIT;
	if (rc == 0) {
		/* the workers' minima, then lateness and global lateness */
		for (uint32_t w = 1; w < nw; w++) {
			for (uint64_t k = 0; k < slots; k++)
				if (m.pmin[w][k] < m.pmin[0][k])
					m.pmin[0][k] = m.pmin[w][k];
			for (uint32_t s = 0; s < a->n_steps; s++)
				if (m.gmin[w][s] < m.gmin[0][s])
					m.gmin[0][s] = m.gmin[w][s];
		}
		m.phase = 1;
		rc = par_run(nw, metric_worker, &m);
	}
	if (rc == 0) {
		/* differential lateness reads every partition's lateness */
		m.phase = 2;
		rc = par_run(nw, metric_worker, &m);
		for (uint32_t w = 0; w < nw; w++)
			a->stats.progress_receives += m.progress[w];
	}
	/* the start-up of every rank, and the latest of them */
	a->stats.startup_max_lop = TRACE_NONE;
	for (uint32_t tl = 0; rc == 0 && tl < n_tl; tl++) {
		uint32_t l = a->tl_lop[tl];
		if (l < a->tl_lop[tl + 1] && analysis_lop_startup(a, l)) {
			a->stats.startup_lops++;
			if (a->stats.startup_max_lop == TRACE_NONE || a->late[l] > a->late[a->stats.startup_max_lop])
				a->stats.startup_max_lop = l;
		}
	}
	for (uint32_t w = 0; w < nw; w++) {
		free(m.pmin[w]);
		free(m.gmin[w]);
	}
	free(m.pbase);
	if (!rc)
		rc = trace_startup(a);
	if (!a->hot_key)
		a->hot_key = a->diff;
	return rc ? rc : hotspots(a);
}
