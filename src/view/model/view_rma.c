/* view_rma.c — one-sided records by time and by call (view_rma.h). */
#include "view_rma.h"

#include <stdlib.h>

#include "base/err.h"
#include "base/sort.h"

#define EPOCH_BLOCK 64

struct view_rma {
	const struct trace *t;
	uint32_t *by_done;       /* operations with a completing call, by it */
	uint32_t n_done;
	uint64_t *blk_end;       /* per EPOCH_BLOCK epochs, the latest end */
};

int
view_rma_create(const struct trace *t, struct view_rma **out)
{
	*out = NULL;
	struct view_rma *vr = calloc(1, sizeof *vr);
	if (!vr)
		return ERR_NOMEM;
	vr->t = t;
	uint32_t nr, ne;
	const struct trace_rma *r = trace_rmas(t, &nr);
	const struct trace_epoch *e = trace_epochs(t, &ne);
	struct sort_kv *kv = malloc(((size_t)nr + 1) * sizeof *kv);
	vr->by_done = malloc(((size_t)nr + 1) * sizeof *vr->by_done);
	vr->blk_end = calloc((size_t)ne / EPOCH_BLOCK + 1, sizeof *vr->blk_end);
	if (!kv || !vr->by_done || !vr->blk_end) {
		free(kv);
		view_rma_destroy(vr);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < nr; i++)
		if (r[i].done_op != TRACE_NONE)
			kv[vr->n_done++] = (struct sort_kv){ .key = r[i].done_op, .id = i };
	if (sort_keyed(kv, vr->n_done)) {
		free(kv);
		view_rma_destroy(vr);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < vr->n_done; i++)
		vr->by_done[i] = kv[i].id;
	free(kv);
	for (uint32_t i = 0; i < ne; i++) {
		uint64_t *b = &vr->blk_end[i / EPOCH_BLOCK];
		*b = e[i].t_end > *b ? e[i].t_end : *b;
	}
	*out = vr;
	return 0;
}

void
view_rma_destroy(struct view_rma *vr)
{
	if (!vr)
		return;
	free(vr->by_done);
	free(vr->blk_end);
	free(vr);
}

/* The first of r[lo, hi) issued after t (after: t_issue > t), else at t
 * or later. */
static uint32_t
issue_bound(const struct trace_rma *r, uint32_t lo, uint32_t hi, uint64_t t, int after)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (after ? r[mid].t_issue <= t : r[mid].t_issue < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
view_rma_issued(const struct view_rma *vr, uint32_t tl, uint64_t t0, uint64_t t1, uint32_t *first)
{
	uint32_t r0, nr = trace_tl_rmas(vr->t, tl, &r0);
	const struct trace_rma *r = trace_rmas(vr->t, NULL);
	uint32_t a = issue_bound(r, r0, r0 + nr, t0, 0), b = issue_bound(r, a, r0 + nr, t1, 1);
	*first = a;
	return b - a;
}

uint32_t
view_rma_completed(const struct view_rma *vr, uint32_t op0, uint32_t op1, const uint32_t **ids)
{
	const struct trace_rma *r = trace_rmas(vr->t, NULL);
	uint32_t lo = 0, hi = vr->n_done;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r[vr->by_done[mid]].done_op < op0)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint32_t end = lo;
	while (end < vr->n_done && r[vr->by_done[end]].done_op < op1)
		end++;
	*ids = vr->by_done + lo;
	return end - lo;
}

uint32_t
view_rma_next_epoch(const struct view_rma *vr, uint32_t tl, uint64_t t0, uint64_t t1, uint32_t after)
{
	uint32_t e0, ne = trace_tl_epochs(vr->t, tl, &e0);
	const struct trace_epoch *e = trace_epochs(vr->t, NULL);
	uint32_t i = after == TRACE_NONE || after < e0 ? e0 : after + 1;
	/* a timeline's epochs are by begin: none from the first begun after t1 */
	uint32_t lo = i, hi = e0 + ne;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (e[mid].t_begin <= t1)
			lo = mid + 1;
		else
			hi = mid;
	}
	uint32_t end = lo;
	while (i < end) {
		if (i % EPOCH_BLOCK == 0 && vr->blk_end[i / EPOCH_BLOCK] < t0) {
			i += EPOCH_BLOCK;          /* every one of them ended before */
			continue;
		}
		if (e[i].t_end >= t0)
			return i;
		i++;
	}
	return TRACE_NONE;
}
