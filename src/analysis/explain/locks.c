/* locks.c — waiting for a lock another rank holds (doc/analysis.md,
 * "Wait states": lock competition).
 *
 * A passive-target epoch (MPI_Win_lock to MPI_Win_unlock, struct
 * trace_epoch) of one rank on a window's target conflicts with another
 * rank's on the same window and target unless both are shared. An epoch
 * whose lock or unlock call was still running when a conflicting epoch
 * that asked for the lock before it was released waited in that call
 * from its enter (or the holder's lock, if later) until the release, or
 * its own return if earlier; the holder's release call is the cause. MPI
 * may grant a lock lazily; MPICH and Open MPI wait in the lock call, the
 * one looked at (an unlock's wait cannot be told from the release
 * record's place: the holder's is written as its unlock returns, after
 * the lock was free, so a rank that held the lock already seemed to wait
 * for it there: helper-50). The epochs of one
 * window and target are taken in the order they asked for the lock;
 * the wait lasts until the conflicting one released last, and is for
 * the one that held the lock longest in it (of the LOCK_LOOK_BACK asked
 * last before): a constant per epoch, n log n in all, for the sort. An epoch
 * of MPI_Win_lock_all (every target) is no holder here yet, though its
 * shared locks hold an exclusive lock of any target up (doc/analysis.md).
 */
#include "explain_impl.h"

#include "base/vec.h"

#include <stdlib.h>

/* How many of the epochs asked before one are looked at for the one
 * that held the lock while it waited (a constant per epoch). */
#define LOCK_LOOK_BACK 64

struct ekey {
	uint32_t win, target;
	uint64_t begin;
	uint32_t i;
};

static int
by_key(const void *pa, const void *pb)
{
	const struct ekey *x = pa, *y = pb;
	if (x->win != y->win)
		return x->win < y->win ? -1 : 1;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* When epoch h held its lock: from its lock call's return (MPI grants a
 * lock lazily: the call returns when it is granted, or at once) to its
 * release. */
static uint64_t
held_from(const struct analysis *a, const struct trace_epoch *h)
{
	uint32_t l = h->op_begin == TRACE_NONE ? TRACE_NONE : a->op_lop[h->op_begin];
	uint64_t x = l == TRACE_NONE ? 0 : lop_exit(a, l);
	return x > h->t_begin ? x : h->t_begin;
}

/* The wait of an epoch's call op (its lock or unlock) for the epochs
 * k[0..n) asked before it (the nearest last), when the call was running
 * at the release of the latest released, h: from the call's enter (or
 * h's lock) to that release or the call's return; its cause is the release
 * of the one that held the lock longest in the call (so a holder that
 * itself waited for the lock is not blamed for the time it waited).
 * Pushed onto w. */
static int
waited_in(const struct analysis *a, uint32_t op, const struct trace_epoch *h, const struct trace_epoch *ep,
	  const struct ekey *k, uint32_t n, int shared, struct waits_out *w)
{
	if (op == TRACE_NONE || a->op_lop[op] == TRACE_NONE)
		return 0;
	uint32_t l = a->op_lop[op];
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
	uint64_t from = h->t_begin > en ? h->t_begin : en, until = h->t_end < ex ? h->t_end : ex;
	if (until <= from)
		return 0;
	const struct trace_epoch *by = h;
	uint64_t most = 0;
	for (uint32_t j = n, looked = 0; j-- > 0 && looked < LOCK_LOOK_BACK; looked++) {
		const struct trace_epoch *x = &ep[k[j].i];
		if (shared && x->shared)
			continue;
		uint64_t lo = held_from(a, x), hi = x->t_end;
		lo = lo > en ? lo : en;
		hi = hi < ex ? hi : ex;
		if (hi > lo && hi - lo > most && x->timeline != ep[k[n].i].timeline) {
			most = hi - lo;
			by = x;
		}
	}
	uint32_t cop = by->op_end != TRACE_NONE ? by->op_end : by->op_begin;
	uint32_t cause = cop == TRACE_NONE ? TRACE_NONE : a->op_lop[cop];
	if (cause == TRACE_NONE)
		return 0;
	if (VEC_GROW(w->v, w->n, w->cap))
		return ERR_NOMEM;
	w->v[w->n++] = (struct analysis_wait){ .lop = l, .cause_lop = cause, .root_lop = TRACE_NONE,
					       .kind = WAIT_LOCK, .time = until - from };
	return 0;
}

int
explain_lock_waits(const struct analysis *a, struct waits_out *w)
{
	uint32_t n;
	const struct trace_epoch *ep = trace_epochs(a->t, &n);
	if (!n)
		return 0;
	struct ekey *k = malloc((size_t)n * sizeof *k);
	if (!k)
		return ERR_NOMEM;
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (ep[i].target != TRACE_NONE && ep[i].timeline != TRACE_NONE)
			k[m++] = (struct ekey){ ep[i].win, ep[i].target, ep[i].t_begin, i };
	qsort(k, m, sizeof *k, by_key);
	int rc = 0;
	for (uint32_t g = 0; g < m && !rc;) {
		uint32_t end = g;
		while (end < m && k[end].win == k[g].win && k[end].target == k[g].target)
			end++;
		/* the epochs asked before: the one released last of all, and of
		 * the exclusive ones */
		const struct trace_epoch *any = NULL, *excl = NULL;
		for (uint32_t j = g; j < end && !rc; j++) {
			const struct trace_epoch *e = &ep[k[j].i];
			const struct trace_epoch *h = e->shared ? excl : any;
			if (h && h->timeline != e->timeline && h->t_begin < e->t_begin)
				rc = waited_in(a, e->op_begin, h, ep, k + g, j - g, e->shared, w);
			if (!any || e->t_end > any->t_end)
				any = e;
			if (!e->shared && (!excl || e->t_end > excl->t_end))
				excl = e;
		}
		g = end;
	}
	free(k);
	return rc;
}
