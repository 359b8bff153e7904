/* problems.c — where created lateness was lost, and one ranking of every
 * problem the explanations found (doc/analysis.md, "The operation where
 * time was lost", "Problems").
 *
 * An operation cannot create more lateness than it lasted: when its
 * differential lateness is larger, the rest was lost before it, in
 * operations whose own lateness did not show it — alone at their step
 * (a rank's extra Waitsome, a step no other rank reached), so late by
 * nothing. They are the ones on its timeline back to the last that was
 * late itself, a collective (every member synchronised there) or the
 * rank's start-up; the one that worked longest (its duration less its
 * own wait state) is the culprit. Where the culprit mostly waited, the
 * problem is its wait's root.
 */
#include "explain_impl.h"

#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>

int
analysis_lop_lost(const struct analysis *a, uint32_t l, struct analysis_lost *out)
{
	uint64_t created = lop_diff(a, l), dur = lop_duration(a, l);
	*out = (struct analysis_lost){ .created = created, .inside = created < dur ? created : dur,
				       .culprit = l, .from = l };
	if (created <= dur)
		return 0;
	uint64_t sum;
	uint32_t culprit = lop_lost_before(a, l, &sum, &out->from);
	out->capped = l - out->from >= LOST_MAX_LOPS;
	if (culprit != TRACE_NONE) {
		/* the one that worked longest: its own wait state left out (a
		 * polling computation counts what it did not spend polling) */
		uint64_t longest = 0;
		culprit = TRACE_NONE;
		for (uint32_t p = l; p > out->from;) {
			p--;
			uint64_t d = lop_duration(a, p);
			const struct analysis_wait *w = a->waits ? explain_wait_of(a, p) : NULL;
			uint64_t work = w ? (w->time < d ? d - w->time : 0) : d;
			if (culprit == TRACE_NONE || work > longest) {
				longest = work;
				culprit = p;
			}
		}
		out->culprit = culprit;
	}
	uint64_t rest = created - out->inside;
	out->before = sum < rest ? sum : rest;
	if (out->before == 0)
		out->culprit = l;
	return out->before > 0;
}

/* Did lop l mostly wait (a wait state of at least half its time)? */
static int
mostly_waited(const struct analysis *a, uint32_t l)
{
	const struct analysis_wait *w = explain_wait_of(a, l);
	return w && 2 * w->time >= lop_duration(a, l);
}

/* Was lop l a computation that polled (explain_polled)? */
static int
polled(const struct analysis *a, const uint8_t *rf, uint32_t l)
{
	return a->lop_kind[l] == OP_COMPUTE &&
	       explain_polled(a, rf, a->lop_tl[l], lop_enter(a, l), lop_exit(a, l)) != UINT64_MAX;
}

uint32_t
analysis_busy_during(const struct analysis *a, uint32_t tl, uint64_t en, uint64_t ex, int compute)
{
	uint32_t lo = a->tl_lop[tl], hi = a->tl_lop[tl + 1];
	while (lo < hi) {             /* the first lop that exits after en */
		uint32_t mid = lo + (hi - lo) / 2;
		if (lop_exit(a, mid) <= en)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t k = lo; k < a->tl_lop[tl + 1] && lop_enter(a, k) < ex; k++) {
		uint64_t ke = lop_enter(a, k), kx = lop_exit(a, k);
		uint64_t s = ke > en ? ke : en, t = kx < ex ? kx : ex;
		if ((!compute || a->lop_kind[k] == OP_COMPUTE) && t > s && 2 * (t - s) >= ex - en)
			return k;
	}
	return TRACE_NONE;
}

/* The lop of the stretch lost before hotspot hot ([lost->from, hot))
 * that waited longest, when it waited longer than the culprit worked
 * (its duration less its own wait); else the culprit. The time was lost
 * in that wait, whose root is the problem, not a short call beside it.
 * Any wait: one for a lock has no lateness edge, and one in a call alone
 * at its step is late by nothing, so neither showed before (until
 * 2026-12-01 only a lock's was taken: gen-gather-6-delay's 'created
 * 3.000 ms' was put on a 98-us computation beside rank 0's 3-ms wait
 * for rank 1's late send). */
static uint32_t
waited_most(const struct analysis *a, const struct analysis_lost *lost, uint32_t hot)
{
	uint32_t culprit = lost->culprit;
	const struct analysis_wait *cw = explain_wait_of(a, culprit);
	uint64_t d = lop_duration(a, culprit);
	uint64_t best = cw ? (cw->time < d ? d - cw->time : 0) : d;
	uint32_t l = culprit;
	for (uint32_t k = lost->from; k < hot; k++) {
		const struct analysis_wait *w = explain_wait_of(a, k);
		if (w && w->time > best) {
			best = w->time;
			l = k;
		}
	}
	return l;
}

/* The lops other ranks waited for: the roots of their waits, of every
 * kind, sorted, into *out (n in *n; NULL and 0 when there are none).
 * Returns 0 or ERR_NOMEM. */
static int
waited_for(const struct analysis *a, uint32_t **out, size_t *n)
{
	uint32_t *v = NULL;
	*n = 0;
	for (uint32_t i = 0; i < a->n_waits; i++) {
		const struct analysis_wait *w = &a->waits[i];
		if (w->root_lop == TRACE_NONE || a->lop_tl[w->root_lop] == a->lop_tl[w->lop])
			continue;
		if (!v && !(v = malloc(((size_t)a->n_waits - i) * sizeof *v)))
			return ERR_NOMEM;
		v[(*n)++] = w->root_lop;
	}
	if (*n)
		qsort(v, *n, sizeof *v, vec_cmp_u32);
	*out = v;
	return 0;
}

/* The lop before hotspot hot on its rank, back to the last collective
 * or the start-up (past operations late within a partition of their
 * own, where analysis_lop_lost stops), that waited longest for a lock
 * another rank held, or that other ranks waited for (one of
 * roots[0..n), its whole time: a lock it held, or a stall they met at a
 * barrier or a receive), when that was at least half of rest; else
 * TRACE_NONE. Ranks that waited together for a lock are late by nothing
 * within their own partition, as is the rank they waited for beside
 * them; where all ranks next meet, the time shows as lateness created
 * there (lock-4: rank 3's computation 'created 364.7 ms', a second name
 * for rank 2's hold; caf-prog-ompi: rank 2's 'created 300.7 ms' after
 * its 0.3-s computation inside a stretch of its own, which the others
 * waited for at the barrier after). A wait of another kind counts only
 * in the lop just before the hotspot, and only up to twice rest: ranks
 * that waited together for one late sender are late by nothing at that
 * step, and the time shows in the next lop (waitsome-4: rank 2's
 * computation 'created 311.7 ms' after its MPI_Waitsome waited 311.6 ms
 * for rank 1's stalled computation, beside rank 0's wait for it, a
 * second name for that stall). *held says the lop was waited for. */
static uint32_t
lost_in_lock(const struct analysis *a, uint32_t hot, uint64_t rest, const uint32_t *roots, size_t n,
	     int *held)
{
	uint32_t first = a->tl_lop[a->lop_tl[hot]], best = TRACE_NONE;
	uint64_t most = 0;
	for (uint32_t k = hot, m = 0; k > first && m < LOST_MAX_LOPS; m++) {
		uint32_t p = --k;
		if (analysis_lop_startup(a, p) || a->lop_kind[p] == OP_COLLECTIVE)
			break;
		const struct analysis_wait *w = explain_wait_of(a, p);
		int shared = w && w->kind != WAIT_LOCK && p + 1 == hot && w->time <= 2 * rest;
		if (w && (w->kind == WAIT_LOCK || shared) && w->time > most) {
			most = w->time;
			best = p;
			*held = 0;
		}
		if (vec_find_u32(roots, n, sizeof *roots, p) < n && lop_duration(a, p) > most) {
			most = lop_duration(a, p);
			best = p;
			*held = 1;
		}
	}
	return 2 * most >= rest ? best : TRACE_NONE;
}

/* Whom lop l's wait w is to blame on: its root, when the root ran at
 * least half as long as l waited; else what the rank l waited for was
 * doing for most of that time, unless that mostly waited too (a rank
 * stopped inside a call after its last synchronisation with l: the
 * root, the computation after the call, ran too little to explain the
 * wait); when that mostly waited, whom its wait is to blame on, a few
 * ranks along at most; else no one (TRACE_NONE: the wait and its root
 * are in the waits and delays already, and a root too short to explain
 * it would be a false blame). */
static uint32_t
blamed_for(const struct analysis *a, uint32_t l, const struct analysis_wait *w)
{
	for (int hop = 0; hop < 8; hop++) {
		if (w->root_lop != TRACE_NONE && 2 * lop_duration(a, w->root_lop) >= w->time)
			return w->root_lop;
		if (w->cause_lop == TRACE_NONE)
			return TRACE_NONE;
		uint64_t en = w->kind == WAIT_POLLING ? lop_exit(a, l) - w->time : lop_enter(a, l);
		uint32_t c = analysis_busy_during(a, a->lop_tl[w->cause_lop], en, en + w->time, 0);
		if (c == TRACE_NONE)
			return TRACE_NONE;
		const struct analysis_wait *cw = explain_wait_of(a, c);
		if (!cw || 2 * cw->time < lop_duration(a, c))
			return c;            /* it did not mostly wait: it held l up */
		l = c;
		w = cw;
	}
	return TRACE_NONE;
}

/* A computation that polled for most of its time (tests that completed
 * nothing, up to the call after it, which completed a request) was held
 * up by the rank at the other end of that request: what that rank was
 * doing for most of the polling, unless that mostly waited too; else
 * TRACE_NONE. (A polled receive whose send came late is a polling wait
 * with a root; this is the rest: the send posted, or a send of l's own
 * whose transfer the other rank did not progress.) */
static uint32_t
polled_for(const struct analysis *a, const uint8_t *rf, uint32_t l)
{
	uint32_t tl = a->lop_tl[l];
	if (a->lop_kind[l] != OP_COMPUTE || l + 1 >= a->n_lops || a->lop_tl[l + 1] != tl)
		return TRACE_NONE;
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
	uint64_t from = explain_polled(a, rf, tl, en, ex);
	if (from == UINT64_MAX)
		return TRACE_NONE;
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l + 1, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (e[i].role == END_COLL)
			continue;
		const struct trace_msg *m = &a->msgs[e[i].id];
		uint32_t peer = e[i].role == END_RECV ? m->sender : m->receiver;
		if (peer == tl || peer == TRACE_NONE || !msg_ok(a, e[i].id))
			continue;
		uint32_t c = analysis_busy_during(a, peer, from, ex, 0);
		return c != TRACE_NONE && !mostly_waited(a, c) && !polled(a, rf, c) ? c : TRACE_NONE;
	}
	return TRACE_NONE;
}

/* Is end e of lop l a message l sent to another rank and completed the
 * send of in itself (a send that can wait for its receiver)? */
static int
sent_blocking(const struct analysis *a, uint32_t l, const struct trace_end *e)
{
	const struct trace_msg *m = &a->msgs[e->id];
	return e->role == END_SEND && m->send_done_op == m->send_op && m->receiver != a->lop_tl[l];
}

/* The problems' lops' times and ranks, read once for every outlier's
 * look over them (each read of a lop's times misses the cache). */
struct spans {
	uint64_t *en, *ex;
	uint32_t *tl;
};

/* The collective lop l is a member of, or TRACE_NONE. */
static uint32_t
coll_of(const struct analysis *a, uint32_t l)
{
	uint32_t ne;
	const struct trace_end *e = a->lop_kind[l] == OP_COLLECTIVE ? lop_ends(a, l, &ne) : NULL;
	for (uint32_t i = 0; e && i < ne; i++)
		if (e[i].role == END_COLL)
			return e[i].id;
	return TRACE_NONE;
}

/* Has lop l a message whose other end is on timeline r? */
static int
exchanged_with(const struct analysis *a, uint32_t l, uint32_t r)
{
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (e[i].role == END_COLL || !msg_ok(a, e[i].id))
			continue;
		const struct trace_msg *m = &a->msgs[e[i].id];
		if ((e[i].role == END_RECV ? m->sender : m->receiver) == r)
			return 1;
	}
	return 0;
}

/* The problem of another rank among p[0..n) that began first, overlaps
 * most of lop l's time and did not mostly wait itself (it may have
 * waited for l), nor is a member of l's collective (all its members
 * overlap, and which of them stalled the trace does not say: the first
 * to enter is as likely the one that waited), nor, when l created
 * lateness (created), created lateness itself (two ranks' sends to each
 * other that both took long say nothing of which held the other); else
 * such a problem that began after l but lay inside it, when it is a
 * computation that did not poll (it held only itself up) on a rank l
 * exchanged a message with: that rank progressed nothing of l's
 * message until the computation was over, however late in l it began
 * (overlap-4-delay: rank 0's MPI_Waitall began 0.28 ms before rank 1's
 * 100-ms computation and ended 1.8 ms after it; which began first says
 * who held whom only between two problems that each could have been
 * held); else, when l is a blocking send, its
 * receiver's computation that covered most of l's time (the receive was
 * posted, but nothing progressed it: Scalasca's late receiver needs the
 * post to be late); else l. */
static uint32_t
held_by(const struct analysis *a, const uint8_t *rf, const struct analysis_problem *p,
	const struct spans *sp, size_t n, uint32_t l, int created)
{
	uint64_t en = lop_enter(a, l), ex = lop_exit(a, l), best = en, inside_en = UINT64_MAX;
	uint32_t by = l, inside = TRACE_NONE, tl = a->lop_tl[l], coll = coll_of(a, l);
	for (size_t j = 0; j < n; j++) {
		uint64_t me = sp->en[j], mx = sp->ex[j];
		int within = me >= en && mx <= ex;
		if (sp->tl[j] == tl || (me >= best && !(within && me < inside_en)))
			continue;
		uint64_t lo = me > en ? me : en, hi = mx < ex ? mx : ex;
		if (!(hi > lo && 2 * (hi - lo) >= ex - en && !mostly_waited(a, p[j].lop) &&
		      (coll == TRACE_NONE || coll_of(a, p[j].lop) != coll) &&
		      (!created || p[j].kind == PROBLEM_OUTLIER)))
			continue;
		if (me < best) {
			best = me;
			by = p[j].lop;
		} else if (a->lop_kind[p[j].lop] == OP_COMPUTE && exchanged_with(a, l, sp->tl[j]) &&
			   !polled(a, rf, p[j].lop)) {
			inside_en = me;
			inside = p[j].lop;
		}
	}
	if (by == l && inside != TRACE_NONE)
		by = inside;
	if (by != l)
		return by;
	/* a blocking send that its receiver did not take while computing */
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++) {
		if (!sent_blocking(a, l, &e[i]))
			continue;
		uint32_t c = analysis_busy_during(a, a->msgs[e[i].id].receiver, en, ex, 1);
		if (c != TRACE_NONE)
			return c;
	}
	return by;
}

/* Did lop l send a message to another rank and complete the send in
 * itself (MPI_Send, Ssend, Sendrecv: a send that can wait for its
 * receiver)? */
static int
blocking_send(const struct analysis *a, uint32_t l)
{
	uint32_t ne;
	const struct trace_end *e = lop_ends(a, l, &ne);
	for (uint32_t i = 0; i < ne; i++)
		if (sent_blocking(a, l, &e[i]) && msg_ok(a, e[i].id))
			return 1;
	return 0;
}

/* Can problem x have been held up by another rank's: an outlier not
 * put on another operation (not mostly waiting, then), that is a call
 * or a computation that polled (a computation that computed held itself
 * up); or lateness created in a blocking send, where it was created (a
 * rank stopped with the receive posted, or computing before it, holds
 * the send up, and nothing in the trace says so but the overlap)?
 * (Lateness created in any other call is left where it was made: a
 * collective's members leave it at different times for reasons of their
 * own, and another rank's problem overlapping it says nothing.) */
static int
holdable(const struct analysis *a, const uint8_t *rf, const struct analysis_problem *x)
{
	if (x->kind == PROBLEM_CREATED)
		return x->lop == x->surfaced && blocking_send(a, x->lop);
	return x->kind == PROBLEM_OUTLIER && x->surfaced == TRACE_NONE &&
	       (a->lop_kind[x->lop] != OP_COMPUTE || polled(a, rf, x->lop));
}

/* Each problem among p[0..n) held by an operation whose own problem was
 * held in turn (held[k]: the lop problem k was held from, else
 * TRACE_NONE) goes on to that one's holder, a few ranks along at most,
 * never back to its own lop: the time was the last holder's, whichever
 * of the holds was found first (lammps-melt-4-stop: rank 1's 115-ms
 * MPI_Send to rank 3 at step 5483 was held by rank 2's at step 5475,
 * which began first over it and which rank 3's 87-ms computation held,
 * and was said so beside that computation's own problem). Returns 0 or
 * ERR_NOMEM. */
static int
hold_through(struct analysis_problem *p, size_t n, const uint32_t *held)
{
	size_t n_held = 0;
	for (size_t i = 0; i < n; i++)
		n_held += held[i] != TRACE_NONE;
	if (n_held < 2)
		return 0;                /* a hold of a hold takes two */
	struct sort_kv *kv = malloc(n_held * sizeof *kv);
	if (!kv || n > UINT32_MAX) {
		free(kv);
		return ERR_NOMEM;
	}
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (held[i] != TRACE_NONE)
			kv[m++] = (struct sort_kv){ .key = held[i], .id = (uint32_t)i };
	if (sort_keyed(kv, m)) {
		free(kv);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < m; i++) {
		struct analysis_problem *x = &p[kv[i].id];
		for (int hop = 0; hop < 8; hop++) {
			uint32_t lo = 0, hi = m;      /* the first hold from x->lop */
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;
				if (kv[mid].key < x->lop)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo == m || kv[lo].key != x->lop || p[kv[lo].id].lop == held[kv[i].id])
				break;
			x->lop = p[kv[lo].id].lop;
		}
	}
	free(kv);
	return 0;
}

/* An outlier that was neither waiting nor the first of the others in
 * its time was held by that one (p[0..n): the problems so far), and by
 * whoever held that one. */
static int
hold_outliers(const struct analysis *a, const uint8_t *rf, struct analysis_problem *p, size_t n)
{
	size_t i = 0;
	while (i < n && !holdable(a, rf, &p[i]))
		i++;
	if (i == n)
		return 0;
	struct spans sp = { malloc((n + 1) * sizeof *sp.en), malloc((n + 1) * sizeof *sp.ex),
			    malloc((n + 1) * sizeof *sp.tl) };
	uint32_t *held = malloc((n + 1) * sizeof *held);
	int rc = sp.en && sp.ex && sp.tl && held ? 0 : ERR_NOMEM;
	for (size_t j = 0; j < n && !rc; j++) {
		sp.en[j] = lop_enter(a, p[j].lop);
		sp.ex[j] = lop_exit(a, p[j].lop);
		sp.tl[j] = a->lop_tl[p[j].lop];
		held[j] = TRACE_NONE;
	}
	/* an outlier held becomes its holder's problem, which the next
	 * look sees (its span follows) */
	for (; i < n && !rc; i++)
		if (holdable(a, rf, &p[i])) {
			uint32_t by = held_by(a, rf, p, &sp, n, p[i].lop, p[i].kind == PROBLEM_CREATED);
			if (by != p[i].lop) {
				held[i] = p[i].lop;
				p[i].surfaced = p[i].lop;
				p[i].lop = by;
				sp.en[i] = lop_enter(a, by);
				sp.ex[i] = lop_exit(a, by);
				sp.tl[i] = a->lop_tl[by];
			}
		}
	if (!rc)
		rc = hold_through(p, n, held);
	free(sp.en);
	free(sp.ex);
	free(sp.tl);
	free(held);
	return rc;
}

enum { KEY_KIND, KEY_AMOUNT, KEY_LOP };

/* Sorts the problems by the keys (the minor first; kind and lop
 * ascending, amount largest first), each a stable radix pass, then
 * moves the records (*p replaced). */
static int
sort_problems(struct analysis_problem **p, size_t n, const int *keys, int n_keys)
{
	struct sort_kv *kv = malloc((n + 1) * sizeof *kv);
	struct analysis_problem *s = malloc((n + 1) * sizeof *s);
	int rc = kv && s && n <= UINT32_MAX ? 0 : ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++)
		kv[i].id = (uint32_t)i;
	for (int k = 0; k < n_keys && !rc; k++) {
		for (size_t i = 0; i < n; i++) {
			const struct analysis_problem *x = &(*p)[kv[i].id];
			kv[i].key = keys[k] == KEY_KIND ? x->kind : keys[k] == KEY_LOP ? x->lop
				: UINT64_MAX - x->amount;
		}
		rc = sort_keyed(kv, (uint32_t)n);
	}
	for (size_t i = 0; i < n && !rc; i++)
		s[i] = (*p)[kv[i].id];
	free(kv);
	if (rc) {
		free(s);
		return rc;
	}
	free(*p);
	*p = s;
	return 0;
}

int
explain_problems(struct analysis *a)
{
	uint32_t k = a->opts.hotspots, n_hot;
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	size_t cap = (size_t)n_hot + a->n_delays + a->n_outliers + 1, n = 0;
	struct analysis_problem *p = malloc(cap * sizeof *p);
	uint8_t *rf = explain_region_flags(a);
	if (!p || !rf) {
		free(p);
		free(rf);
		return ERR_NOMEM;
	}
	/* created lateness, where most of it was lost (the hotspot itself
	 * unless the stretch before it lost more): where that
	 * was in waiting, the wait's root cause is the problem; most of it
	 * found nowhere before (at least half of it: else a short receive
	 * others waited for would take a long computation's amount), in a
	 * lock wait further back or an operation of its own there that
	 * others waited for, in runs with lock waits, or in a wait of any
	 * kind just before the hotspot */
	int locks = 0;
	for (uint32_t i = 0; i < a->n_waits && !locks; i++)
		locks = a->waits[i].kind == WAIT_LOCK;
	size_t n_roots = 0;
	uint32_t *roots = NULL;
	if (locks && waited_for(a, &roots, &n_roots)) {
		free(p);
		free(rf);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n_hot; i++) {
		struct analysis_lost lost;
		analysis_lop_lost(a, hot[i], &lost);
		if (!lost.created)
			continue;
		/* the culprit stands for the stretch only when the stretch
		 * lost more than the hotspot, and no less than was found
		 * nowhere or the culprit's time (at most what the stretch
		 * lost) is a tenth of the amount (caf-prog-ompi: a 22-us lock
		 * call once stood for 300.7 ms, of which the stretch lost
		 * 90 us) */
		uint64_t unfound = lost.created - lost.inside - lost.before;
		uint64_t cd = lop_duration(a, lost.culprit);
		cd = cd < lost.before ? cd : lost.before;
		uint32_t l = lost.before > lost.inside && (lost.before >= unfound || 10 * cd >= lost.created) ?
			lost.culprit : hot[i];
		uint32_t c = l != hot[i] ? waited_most(a, &lost, hot[i]) : l;
		int held = 0;
		uint32_t x = unfound > lost.before && 2 * unfound >= lost.created ?
			lost_in_lock(a, hot[i], unfound, roots, n_roots, &held) : TRACE_NONE;
		if (x != TRACE_NONE && held)
			l = c = x;       /* its own stall: no wait to follow */
		else if (x != TRACE_NONE)
			c = x;
		const struct analysis_wait *w = explain_wait_of(a, c);
		if (w && w->kind != WAIT_LOCK && !lost.before && (x == TRACE_NONE || held))
			w = NULL;        /* created inside a call that waited for a message:
					  * the lateness says so already */
		uint32_t by = TRACE_NONE;
		if (w && w->root_lop != TRACE_NONE && 2 * w->time >= lop_duration(a, c)) {
			by = blamed_for(a, c, w);
			l = by != TRACE_NONE ? by : l;     /* else the culprit itself */
		} else if ((by = polled_for(a, rf, l)) != TRACE_NONE)
			l = by;
		if (!a->opts.startup && analysis_lop_startup(a, l))
			continue;        /* a rank's start-up, as the delays take it */
		p[n++] = (struct analysis_problem){ .amount = lost.created, .lop = l, .surfaced = hot[i],
						    .kind = PROBLEM_CREATED };
	}
	free(roots);
	/* delays, by the waiting they caused (start-up ones as the hotspots
	 * take start-up) */
	for (uint32_t i = 0; i < a->n_delays; i++) {
		uint32_t l = a->delays[i].lop;
		if (a->opts.startup || !analysis_lop_startup(a, l))
			p[n++] = (struct analysis_problem){ .amount = a->delays[i].cost, .lop = l,
							    .surfaced = TRACE_NONE, .kind = PROBLEM_DELAY };
	}
	/* outliers; one that was mostly waiting is its wait's root's
	 * problem, and one that overlaps most of its time with a problem of
	 * another rank that began before it was held by that one (below: a
	 * partner stopped in its call or computation; nothing in the trace
	 * says the send waited for it, but it took the stall's time) */
	for (uint32_t i = 0; i < a->n_outliers; i++) {
		uint32_t l = a->outliers[i].lop;
		const struct analysis_wait *w = explain_wait_of(a, l);
		if (w && 2 * w->time >= a->outliers[i].duration)
			l = w->root_lop != TRACE_NONE ? blamed_for(a, l, w) : TRACE_NONE;
		if (l == TRACE_NONE || (!a->opts.startup && analysis_lop_startup(a, l)))
			continue;        /* a wait no one is to blame for here, or a start-up's */
		p[n++] = (struct analysis_problem){
			.amount = a->outliers[i].duration - a->outliers[i].median, .lop = l,
			.surfaced = l == a->outliers[i].lop ? TRACE_NONE : a->outliers[i].lop,
			.kind = PROBLEM_OUTLIER };
	}
	/* an outlier that was neither waiting nor the first of the others
	 * in its time was held by that one */
	int rc = hold_outliers(a, rf, p, n);
	free(rf);
	if (rc) {
		free(p);
		return ERR_NOMEM;
	}
	/* one per lop, its largest (by lop, then amount, largest first, then
	 * kind), then largest first (then by lop): stable radix passes, the
	 * minor key first, where qsort took most of this stage */
	static const int by_lop_amount_kind[] = { KEY_KIND, KEY_AMOUNT, KEY_LOP };
	if (n && sort_problems(&p, n, by_lop_amount_kind, 3)) {
		free(p);
		return ERR_NOMEM;
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || p[m - 1].lop != p[i].lop)
			p[m++] = p[i];
	static const int by_amount_lop[] = { KEY_LOP, KEY_AMOUNT };
	if (m && sort_problems(&p, m, by_amount_lop, 2)) {
		free(p);
		return ERR_NOMEM;
	}
	a->problems = p;
	a->n_problems = (uint32_t)(m < k ? m : k);
	return 0;
}

const struct analysis_problem *
analysis_problems(const struct analysis *a, uint32_t *n)
{
	*n = a->n_problems;
	return a->problems;
}

const char *
analysis_problem_name(enum analysis_problem_kind k)
{
	static const char *const names[PROBLEM_KIND_COUNT] = { "delay", "created", "outlier" };
	return k < PROBLEM_KIND_COUNT ? names[k] : "?";
}
