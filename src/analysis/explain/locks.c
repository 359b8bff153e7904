/* locks.c — waiting for a lock another rank holds (doc/analysis.md,
 * "Wait states": lock competition).
 *
 * A passive-target epoch (MPI_Win_lock to MPI_Win_unlock, struct
 * trace_epoch) of one rank on a window's target conflicts with another
 * rank's on the same window and target unless both are shared; an epoch
 * of MPI_Win_lock_all holds a shared lock on every target of its window,
 * so it conflicts with every exclusive one there (traces/onesided/
 * lockall-4: ranks 1 and 3 wait for rank 2's lock_all). An epoch
 * whose lock call was still running when a conflicting epoch
 * that asked for the lock before it was released waited in that call
 * from its enter (or the holder's lock, if later) until the release, or
 * its own return if earlier; the holder's release call is the cause. MPI
 * may grant a lock lazily; MPICH and Open MPI wait in the lock call, the
 * one looked at (an unlock's wait cannot be told from the release
 * record's place: the holder's is written as its unlock returns, after
 * the lock was free, so a rank that held the lock already seemed to wait
 * for it there: helper-50). A lock_all call waits likewise, for every
 * exclusive epoch of its window, on any target, asked before it
 * (traces/onesided/lockwait-4: MPICH and Open MPI wait in the call
 * itself, not lazily at the first operation or in MPI_Win_unlock_all).
 * The epochs of one window and target are taken in the order they asked
 * for the lock, a window's lock_all epochs beside them in the same
 * order, and its exclusive ones beside each lock_all; the wait lasts
 * until the conflicting one released last, and is for the one that held
 * the lock longest in it (of the LOCK_LOOK_BACK asked last before, of
 * each kind): a constant per epoch, n log n in all, for the sorts and
 * searches.
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
	uint32_t l = h->op_begin == TRACE_NONE ? TRACE_NONE : op_lop_of(a, h->op_begin);
	uint64_t x = l == TRACE_NONE ? 0 : lop_exit(a, l);
	return x > h->t_begin ? x : h->t_begin;
}

/* The candidates for the holder a wait was for: the epochs of its
 * window and target asked before it, k[0..n) (the nearest last; for a
 * lock_all, its window's exclusive ones on any target), and its window's
 * lock_all epochs asked before it, all[0..n_all) (likewise; none for a
 * shared one, which they do not hold up). */
struct asked {
	const struct ekey *k, *all;
	uint32_t n, n_all;
};

/* Of the LOCK_LOOK_BACK nearest of keys k[0..n), the epoch of another
 * rank than e's (not a shared one when shared) that held the lock
 * longest in [en, ex), if longer than *most (which it then becomes). */
static const struct trace_epoch *
held_longest(const struct analysis *a, const struct trace_epoch *ep, const struct trace_epoch *e,
	     const struct ekey *k, uint32_t n, int shared, uint64_t en, uint64_t ex, uint64_t *most)
{
	const struct trace_epoch *by = NULL;
	for (uint32_t j = n, looked = 0; j-- > 0 && looked < LOCK_LOOK_BACK; looked++) {
		const struct trace_epoch *x = &ep[k[j].i];
		if (shared && x->shared)
			continue;
		uint64_t lo = held_from(a, x), hi = x->t_end;
		lo = lo > en ? lo : en;
		hi = hi < ex ? hi : ex;
		if (hi > lo && hi - lo > *most && x->timeline != e->timeline) {
			*most = hi - lo;
			by = x;
		}
	}
	return by;
}

/* The wait of epoch e's lock call for the epochs asked before it (c),
 * when the call was running at the release of the latest released, h:
 * from the call's enter (or h's lock) to that release or the call's
 * return; its cause is the release of the one that held the lock
 * longest in the call (so a holder that itself waited for the lock is
 * not blamed for the time it waited). None, when none of them held it
 * while the call ran (a shared lock granted while an exclusive one asked
 * before it still waited). Pushed onto w. */
static int
waited_in(const struct analysis *a, const struct trace_epoch *e, const struct trace_epoch *h,
	  const struct trace_epoch *ep, const struct asked *c, struct waits_out *w)
{
	uint32_t op = e->op_begin;
	if (op == TRACE_NONE || op_lop_of(a, op) == TRACE_NONE)
		return 0;
	uint32_t l = op_lop_of(a, op);
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
	uint64_t from = h->t_begin > en ? h->t_begin : en, until = h->t_end < ex ? h->t_end : ex;
	if (until <= from)
		return 0;
	uint64_t most = 0;
	const struct trace_epoch *by = held_longest(a, ep, e, c->k, c->n, e->shared, en, ex, &most);
	const struct trace_epoch *by_all = held_longest(a, ep, e, c->all, c->n_all, 0, en, ex, &most);
	if (!by && !by_all)
		return 0;        /* none held it meanwhile: the call waited for no one */
	by = by_all ? by_all : by;
	uint32_t cop = by->op_end != TRACE_NONE ? by->op_end : by->op_begin;
	uint32_t cause = cop == TRACE_NONE ? TRACE_NONE : op_lop_of(a, cop);
	if (cause == TRACE_NONE)
		return 0;
	if (VEC_GROW(w->v, w->n, w->cap))
		return ERR_NOMEM;
	w->v[w->n++] = (struct analysis_wait){ .lop = l, .cause_lop = cause, .root_lop = TRACE_NONE,
					       .kind = WAIT_LOCK, .time = until - from };
	return 0;
}

/* Epochs of one kind (lock_all, or exclusive on one target) of every
 * window, sorted by window and request, and for each the one released
 * last of those of its window up to it (latest[]): n is 0 when there are
 * none. */
struct by_win {
	struct ekey *k;
	uint32_t *latest;
	uint32_t n;
};

/* Is e a lock_all epoch: shared, on every target (an exclusive one
 * without a target had a remote its window's group lacks)? */
static int
lock_all(const struct trace_epoch *e)
{
	return e->target == TRACE_NONE && e->shared && e->timeline != TRACE_NONE;
}

/* Is e an exclusive epoch on one target, which a lock_all waits for? */
static int
exclusive(const struct trace_epoch *e)
{
	return e->target != TRACE_NONE && !e->shared && e->timeline != TRACE_NONE;
}

static int
by_win_init(const struct trace_epoch *ep, uint32_t n_ep, int (*kind)(const struct trace_epoch *),
	    struct by_win *bw)
{
	*bw = (struct by_win){ 0 };
	uint32_t n = 0;
	for (uint32_t i = 0; i < n_ep; i++)
		n += kind(&ep[i]);
	if (!n)
		return 0;
	bw->k = malloc((size_t)n * sizeof *bw->k);
	bw->latest = malloc((size_t)n * sizeof *bw->latest);
	if (!bw->k || !bw->latest)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n_ep; i++)
		if (kind(&ep[i]))
			bw->k[bw->n++] = (struct ekey){ ep[i].win, TRACE_NONE, ep[i].t_begin, i };
	qsort(bw->k, bw->n, sizeof *bw->k, by_key);
	for (uint32_t j = 0; j < bw->n; j++) {
		uint32_t prev = j > 0 && bw->k[j - 1].win == bw->k[j].win ? bw->latest[j - 1] : j;
		bw->latest[j] = ep[bw->k[prev].i].t_end >= ep[bw->k[j].i].t_end ? prev : j;
	}
	return 0;
}

static void
by_win_fini(struct by_win *bw)
{
	free(bw->k);
	free(bw->latest);
}

/* The epochs of window win asked strictly before time t:
 * bw->k[*first, *first + return). */
static uint32_t
by_win_before(const struct by_win *bw, uint32_t win, uint64_t t, uint32_t *first)
{
	uint32_t lo = 0, hi = bw->n;
	while (lo < hi) {             /* the window's first */
		uint32_t mid = lo + (hi - lo) / 2;
		if (bw->k[mid].win < win)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	hi = bw->n;
	uint32_t b = lo;
	while (b < hi) {              /* the first of the window at t or later */
		uint32_t mid = b + (hi - b) / 2;
		if (bw->k[mid].win == win && bw->k[mid].begin < t)
			b = mid + 1;
		else
			hi = mid;
	}
	return b - lo;
}

/* The waits of the lock_all calls (la): each for the exclusive epochs
 * (ex) of its window, on any target, asked before it. */
static int
lock_all_waits(const struct analysis *a, const struct trace_epoch *ep, const struct by_win *la,
	       const struct by_win *ex, struct waits_out *w)
{
	int rc = 0;
	for (uint32_t j = 0; j < la->n && ex->n && !rc; j++) {
		const struct trace_epoch *e = &ep[la->k[j].i];
		uint32_t first = 0, n = by_win_before(ex, e->win, e->t_begin, &first);
		if (!n)
			continue;
		const struct trace_epoch *h = &ep[ex->k[ex->latest[first + n - 1]].i];
		struct asked c = { .k = ex->k + first, .n = n };
		if (h->timeline != e->timeline)
			rc = waited_in(a, e, h, ep, &c, w);
	}
	return rc;
}

int
explain_lock_waits(const struct analysis *a, struct waits_out *w)
{
	uint32_t n;
	const struct trace_epoch *ep = trace_epochs(a->t, &n);
	if (!n)
		return 0;
	struct ekey *k = malloc((size_t)n * sizeof *k);
	struct by_win la, ex = { 0 };
	int rc = by_win_init(ep, n, lock_all, &la);
	if (!rc && la.n)
		rc = by_win_init(ep, n, exclusive, &ex);
	if (!k || rc) {
		free(k);
		by_win_fini(&la);
		by_win_fini(&ex);
		return ERR_NOMEM;
	}
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (ep[i].target != TRACE_NONE && ep[i].timeline != TRACE_NONE)
			k[m++] = (struct ekey){ ep[i].win, ep[i].target, ep[i].t_begin, i };
	qsort(k, m, sizeof *k, by_key);
	for (uint32_t g = 0; g < m && !rc;) {
		uint32_t end = g;
		while (end < m && k[end].win == k[g].win && k[end].target == k[g].target)
			end++;
		/* the epochs asked before: the one released last of all, and of
		 * the exclusive ones; and of the window's lock_all ones */
		const struct trace_epoch *any = NULL, *excl = NULL;
		for (uint32_t j = g; j < end && !rc; j++) {
			const struct trace_epoch *e = &ep[k[j].i];
			const struct trace_epoch *h = e->shared ? excl : any;
			struct asked c = { .k = k + g, .n = j - g };
			uint32_t first = 0;
			if (!e->shared && la.n && (c.n_all = by_win_before(&la, e->win, e->t_begin, &first))) {
				c.all = la.k + first;
				const struct trace_epoch *ha = &ep[la.k[la.latest[first + c.n_all - 1]].i];
				if (!h || ha->t_end > h->t_end)
					h = ha;
			}
			if (h && h->timeline != e->timeline && h->t_begin < e->t_begin)
				rc = waited_in(a, e, h, ep, &c, w);
			if (!any || e->t_end > any->t_end)
				any = e;
			if (!e->shared && (!excl || e->t_end > excl->t_end))
				excl = e;
		}
		g = end;
	}
	if (!rc)
		rc = lock_all_waits(a, ep, &la, &ex, w);
	free(k);
	by_win_fini(&la);
	by_win_fini(&ex);
	return rc;
}

/* A root the delays named that is a lock call which mostly waited for a
 * lock another rank held (a wait of at least half its time) is that
 * wait's root: the time the call took was the holder's, not its rank's
 * (lockall-4 before lock_all epochs held: rank 3's wait for rank 1 was
 * rooted in rank 1's MPI_Win_lock, which waited for rank 2's lock_all).
 * A lock call that did not mostly wait stays: its time was its own (a
 * grant MPI took long to give, as in lock-4's third round, where rank 3
 * asked for the lock after rank 2 let go and waited 20 ms for it). How
 * many lock calls a root is followed back through at most (a chain of
 * ranks each waiting for the one before): */
#define LOCK_CHAIN_HOPS 16

void
explain_lock_roots(struct analysis *a)
{
	uint32_t n_ep;
	trace_epochs(a->t, &n_ep);
	for (uint32_t i = 0; n_ep && i < a->n_waits; i++) {
		struct analysis_wait *w = &a->waits[i];
		for (int hop = 0; hop < LOCK_CHAIN_HOPS && w->root_lop != TRACE_NONE; hop++) {
			const struct analysis_wait *x = explain_wait_of(a, w->root_lop);
			if (!x || x->kind != WAIT_LOCK || x->root_lop == TRACE_NONE || x == w ||
			    2 * x->time < lop_duration(a, w->root_lop))
				break;
			w->root_lop = x->root_lop;
		}
	}
}
