/* metrics.c — lateness and differential lateness (seed 000, section 4),
 * the Fig. 7 explanation of each late operation, and the hotspots.
 *
 * lateness(op)  = exit(op) - min exit over ops of its partition and step
 * global        = the same over all ops sharing its global step
 * diff(op)      = max(0, lateness(op) - max lateness of its immediate
 *                 predecessors: the previous op on its timeline and, for a
 *                 receive, the sends it matched)
 * Each is one pass over the lops (a partition's minima live in an array
 * as wide as the partition), not one pass per step.
 */
#include "analysis_impl.h"

#include <stdlib.h>
#include <string.h>

static int
receiving(uint8_t kind)
{
	return kind == OP_RECV || kind == OP_SENDRECV;
}

static int
lateness(struct analysis *a)
{
	uint32_t n = a->n_lops, width = 0;
	for (uint32_t p = 0; p < a->n_parts; p++)
		if (a->parts[p].step_count > width)
			width = a->parts[p].step_count;
	uint64_t *min = malloc(((size_t)(width > a->n_steps ? width : a->n_steps) + 1) * sizeof *min);
	if (!min)
		return ERR_NOMEM;
	for (uint32_t p = 0; p < a->n_parts; p++) {
		const struct analysis_part *P = &a->parts[p];
		for (uint32_t s = 0; s < P->step_count; s++)
			min[s] = UINT64_MAX;
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k];
			uint32_t s = a->lop_step[l] - P->step_first;
			uint64_t x = lop_exit(a, l);
			if (x < min[s])
				min[s] = x;
		}
		for (uint32_t k = a->part_lop_first[p]; k < a->part_lop_first[p + 1]; k++) {
			uint32_t l = a->part_lops[k];
			a->late[l] = lop_exit(a, l) - min[a->lop_step[l] - P->step_first];
		}
	}
	for (uint32_t s = 0; s < a->n_steps; s++)
		min[s] = UINT64_MAX;
	for (uint32_t l = 0; l < n; l++) {
		if (a->lop_step[l] == TRACE_NONE)
			continue;
		uint64_t x = lop_exit(a, l);
		if (x < min[a->lop_step[l]])
			min[a->lop_step[l]] = x;
	}
	for (uint32_t l = 0; l < n; l++)
		a->glate[l] = a->lop_step[l] == TRACE_NONE ? 0
			: lop_exit(a, l) - min[a->lop_step[l]];
	free(min);
	return 0;
}

/* Differential lateness and the Fig. 7 case of each lop. A late op is
 * "created here" (a, or c for a receive) when at least half its lateness
 * is its own (diff >= inherited part); otherwise it was propagated from
 * whichever predecessor was latest: along the timeline (b) or from a
 * sender (d). doc/analysis.md explains the threshold. */
static void
differential(struct analysis *a)
{
	const struct trace_msg *msgs = a->msgs;
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint64_t prev = 0, sent = 0;
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
				}
			}
			uint64_t pred = prev > sent ? prev : sent;
			uint64_t late = a->late[l];
			a->diff[l] = late > pred ? late - pred : 0;
			a->cause_lop[l] = TRACE_NONE;
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
}

/* hotspot order: larger diff first, then smaller lop id */
static int
hot_before(const struct analysis *a, uint32_t x, uint32_t y)
{
	return a->diff[x] > a->diff[y] || (a->diff[x] == a->diff[y] && x < y);
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

static int
hotspots(struct analysis *a)
{
	uint32_t k = a->opts.hotspots;
	a->hot = malloc(((size_t)k + 1) * sizeof *a->hot);
	if (!a->hot)
		return ERR_NOMEM;
	uint32_t n = 0;
	for (uint32_t l = 0; l < a->n_lops; l++) {
		if (a->diff[l] == 0)
			continue;
		if (n < k) {
			a->hot[n++] = l;
			if (n == k)
				for (uint32_t i = k / 2 + 1; i-- > 0;)
					sift_down(a, a->hot, n, i);
		} else if (k && hot_before(a, l, a->hot[0])) {
			a->hot[0] = l;
			sift_down(a, a->hot, n, 0);
		}
	}
	/* heap sort into hotspot order, best first */
	if (n < k)
		for (uint32_t i = n / 2 + 1; i-- > 0;)
			sift_down(a, a->hot, n, i);
	for (uint32_t end = n; end > 1; end--) {
		uint32_t tmp = a->hot[0];
		a->hot[0] = a->hot[end - 1];
		a->hot[end - 1] = tmp;
		sift_down(a, a->hot, end - 1, 0);
	}
	a->n_hot = n;
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
	int rc = lateness(a);
	if (rc)
		return rc;
	differential(a);
	return hotspots(a);
}
