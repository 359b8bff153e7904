/* diff_named.c — the diff report's largest change, what it names, and
 * the largest slowdown it does not account for (diff_named.h). */
#include "diff_named.h"

#include <math.h>
#include <stdlib.h>

static double
lop_secs(const struct analysis *a, uint64_t ticks)
{
	return trace_seconds(analysis_trace(a), ticks);
}

/* The operation of another rank that the AFTER run's problems say held
 * lop up, or TRACE_NONE: lateness it created lost there (a rank stopped
 * while the other polled for it, hpcc's rank 1 in an MPI_Waitany), or
 * its time as an outlier spent waiting for it (LAMMPS's rank 1 in an
 * MPI_Send to the stopped rank 2's). Lost on lop's own rank, the
 * culprit line says it. */
uint32_t
diff_named_held_up(const struct analysis *A, uint32_t l)
{
	uint32_t n;
	const struct analysis_problem *p = analysis_problems(A, &n);
	for (uint32_t i = 0; i < n; i++)
		if (p[i].surfaced == l && p[i].lop != TRACE_NONE &&
		    analysis_lop_timeline(A, p[i].lop) != analysis_lop_timeline(A, l))
			return p[i].lop;
	return TRACE_NONE;
}

/* The worst worse: the unpaired excess when it is larger. */
const struct diff_op *
diff_named_worst(const struct diff *d)
{
	const struct diff_op *w = d->n_worse ? &d->ops[d->worse[0]] : NULL;
	const struct diff_op *u = d->n_unpaired ? &d->unpaired[0] : NULL;
	return u && (!w || u->d_diff > w->d_diff) ? u : w;
}

/* The largest change's operations, where it was made and what it
 * reached (diff_named.h). */
int
diff_named_get(const struct diff *d, struct named *nm)
{
	*nm = (struct named){ .op = diff_largest(d), .culprit = TRACE_NONE, .held = TRACE_NONE };
	if (!nm->op || nm->op->d_diff <= 0)
		return 0;
	uint32_t l = nm->op->after;
	nm->held = diff_named_held_up(d->after, l);
	/* where it was made, as analyze's problems say it: a hotspot that
	 * lasted less than it created lost the rest before it */
	if (analysis_lop_lost(d->after, l, &nm->lost) && nm->lost.before > nm->lost.inside && nm->lost.culprit != l)
		nm->culprit = nm->lost.culprit;
	return diff_propagation(d, l, nm->op->d_diff / 2, &nm->reached, &nm->n_reached);
}

static int
named_lop(const struct named *nm, uint32_t lop)
{
	if (nm->op && (lop == nm->op->after || lop == nm->culprit || lop == nm->held))
		return 1;
	uint32_t lo = 0, hi = nm->n_reached;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (nm->reached[mid] < lop)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nm->n_reached && nm->reached[lo] == lop;
}

/* Is wait w for what the largest change names: its root is named, or its
 * cause (the operation it waited for) is, or that was made late by the
 * operation before it on its rank or by the lateness created at a named
 * one (on stencil-4-delay rank 2's MPI_Waitall, +104.7 ms, waited for
 * rank 1's message that the +100.0 ms computation delayed)? */
static int
wait_named(const struct named *nm, const struct diff *d, const struct analysis_wait *w)
{
	const struct analysis *A = d->after;
	uint32_t c = w->cause_lop;
	return (w->root_lop != TRACE_NONE && named_lop(nm, w->root_lop)) ||
	       (c != TRACE_NONE && (named_lop(nm, c) || (d->root[c] != TRACE_NONE && named_lop(nm, d->root[c])) ||
				    (c > 0 && analysis_lop_timeline(A, c - 1) == analysis_lop_timeline(A, c) &&
				     named_lop(nm, c - 1))));
}

/* Of lop's time in the AFTER run, the seconds it waited for what the
 * largest change names: its wait state's (wait_named), or, when the rank
 * it waited for spent most of that time waiting itself, that wait's, a
 * few ranks along at most (on kary_tree-4-delay rank 2's MPI_Waitall,
 * +100.2 ms, waited for rank 0's send, late because rank 0 sat in its
 * own MPI_Waitall for the delayed rank 1: the wait's root is rank 0's
 * send, the chain leads to the delay). */
static double
named_wait(const struct named *nm, const struct diff *d, uint32_t lop)
{
	const struct analysis *A = d->after;
	const struct analysis_wait *w = analysis_lop_wait(A, lop), *w0 = w;
	for (int hop = 0; w && hop < 8; hop++) {
		if (wait_named(nm, d, w))
			return lop_secs(A, w0->time);
		if (w->cause_lop == TRACE_NONE)
			return 0;
		uint64_t en = w->kind == WAIT_POLLING ? analysis_lop_exit(A, lop) - w->time : analysis_lop_enter(A, lop);
		uint32_t x = analysis_busy_during(A, analysis_lop_timeline(A, w->cause_lop), en, en + w->time, 0);
		if (x == TRACE_NONE)
			return 0;
		if (named_lop(nm, x))
			return lop_secs(A, w0->time);
		w = analysis_lop_wait(A, x);
		if (w && 2 * w->time < analysis_lop_duration(A, x))
			return 0;     /* it did not mostly wait: it held lop up itself */
		lop = x;
	}
	return 0;
}

/* The seconds lops l and m of the AFTER run overlap. */
static double
overlap(const struct analysis *A, uint32_t l, uint32_t m)
{
	uint64_t en = analysis_lop_enter(A, l) > analysis_lop_enter(A, m) ? analysis_lop_enter(A, l) : analysis_lop_enter(A, m);
	uint64_t ex = analysis_lop_exit(A, l) < analysis_lop_exit(A, m) ? analysis_lop_exit(A, l) : analysis_lop_exit(A, m);
	return ex > en ? lop_secs(A, ex - en) : 0;
}

/* Is lop among s[0..n)? */
static int
in3(const uint32_t *s, int n, uint32_t lop)
{
	for (int i = 0; i < n; i++)
		if (s[i] == lop)
			return 1;
	return 0;
}

/* Of lop's time, the seconds another rank spent in what the largest
 * change names, when one of the operations it names that stalled (its
 * own, the one its lateness was lost in, the one that held it up) held
 * lop up by the AFTER run's problems' rule: lop is a call that did not
 * mostly wait (a wait state names what it waited for; a computation
 * that computed held itself up), and the stall began first, covers at
 * least half of lop's time, did not mostly wait itself, and is no
 * member of lop's collective (which of those stalled, the trace does not
 * say). The problems keep one problem an operation, the holder's own
 * largest, so lop's held outlier is not among them (QE with rank 1
 * stopped in an MPI_Allreduce: rank 0's MPI_Bcast as root, +301.9 ms,
 * waited out the stop with no wait state; it was said as the largest
 * other slowdown). The time taken off is lop's overlap with what the
 * change names on that rank (its lops do not overlap each other). */
static double
held_by_named(const struct named *nm, const struct diff *d, uint32_t lop)
{
	const struct analysis *A = d->after;
	uint32_t tl = analysis_lop_timeline(A, lop), step = analysis_lop_step(A, lop);
	uint64_t en = analysis_lop_enter(A, lop), ex = analysis_lop_exit(A, lop);
	const struct analysis_wait *lw = analysis_lop_wait(A, lop);
	if (analysis_lop_kind(A, lop) == OP_COMPUTE || (lw && 2 * lw->time >= analysis_lop_duration(A, lop)))
		return 0;        /* it computed, or its wait says what it waited for */
	uint32_t stall[3] = { nm->op->after, nm->culprit, nm->held }, by = TRACE_NONE;
	for (int i = 0; i < 3 && by == TRACE_NONE; i++) {
		uint32_t m = stall[i];
		if (m == TRACE_NONE || analysis_lop_timeline(A, m) == tl || analysis_lop_step(A, m) == step ||
		    analysis_lop_enter(A, m) >= en || 2 * overlap(A, lop, m) < lop_secs(A, ex - en))
			continue;
		const struct analysis_wait *w = analysis_lop_wait(A, m);
		if (!w || 2 * w->time < analysis_lop_duration(A, m))
			by = m;
	}
	if (by == TRACE_NONE)
		return 0;
	uint32_t btl = analysis_lop_timeline(A, by);
	double t = 0;
	for (int i = 0; i < 3; i++)      /* the stalls on by's rank, once each */
		if (stall[i] != TRACE_NONE && analysis_lop_timeline(A, stall[i]) == btl &&
		    !in3(stall, i, stall[i]))
			t += overlap(A, lop, stall[i]);
	for (uint32_t i = 0; i < nm->n_reached; i++)
		if (analysis_lop_timeline(A, nm->reached[i]) == btl && !in3(stall, 3, nm->reached[i]))
			t += overlap(A, lop, nm->reached[i]);
	return t;
}

static int
counted(const struct diff *d, const struct diff_op *x)
{
	return analysis_options(d->after)->startup || !analysis_lop_startup(d->after, x->after);
}

/* The largest slowdown (struct slow says what it is). */
struct slow
diff_named_slowdown(const struct diff *d, const struct named *nm)
{
	struct slow s = { 0 };
	if (d->charm)
		return s;
	double most = nm->op ? fabs(nm->op->d_diff) : 0, best = most;
	const struct diff_op *top = NULL;
	for (uint32_t i = 0; i < d->n_ops; i++) {
		const struct diff_op *x = &d->ops[i];
		if (x->d_duration <= most || !counted(d, x))
			continue;
		if (!top || x->d_duration > top->d_duration)
			top = x;
		if (named_lop(nm, x->after))
			continue;
		double waited = named_wait(nm, d, x->after);
		uint32_t by = waited > 0 ? TRACE_NONE : diff_named_held_up(d->after, x->after);
		if (by != TRACE_NONE && named_lop(nm, by))
			waited = overlap(d->after, x->after, by);
		else if (waited == 0 && by == TRACE_NONE && nm->op && nm->op->d_diff > 0)
			waited = held_by_named(nm, d, x->after);
		if (x->d_duration - waited > best) {
			best = x->d_duration - waited;
			s.op = x;
			s.waited = waited;
		}
	}
	s.other = s.op && top != s.op && top->d_duration > s.op->d_duration;
	return s;
}

/* Did x, another operation at s's step, take about as much longer: a
 * member of a collective that sat it out together (which of them
 * stalled, the trace does not say)? */
int
diff_named_as_much(const struct diff *d, const struct diff_op *s, const struct diff_op *x)
{
	const struct analysis *A = d->after;
	return x != s && analysis_lop_step(A, x->after) == analysis_lop_step(A, s->after) &&
	       x->d_duration >= 0.9 * s->d_duration;
}

