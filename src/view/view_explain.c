/* view_explain.c — what lateness cannot see, in the explorer: the lines
 * the details pane adds for an operation (its wait state and its root
 * cause, the lateness it created before it, the waiting its delay made,
 * how it compares with its other iterations), the walk over the problems
 * (`<` `>`, and the first screen), and where `c` goes when lateness names
 * no cause (analysis/explain/explain.h, doc/explorer.md). */
#include "view_impl.h"

#include "analysis/explain/explain.h"

#include <stdio.h>

#include "analysis/path/path.h"

int
view_metric_usable(const struct view *v, enum view_metric m)
{
	if (m == METRIC_DELTA)
		return v->diff != NULL;
	if (m == METRIC_WAIT)
		return !view_is_charm(v);
	if (m == METRIC_LANES) {
		uint32_t n;
		trace_lanes(v->t, &n);
		return n > 0 && !view_is_charm(v);
	}
	if (m >= METRIC_DIFF_DURATION && m <= METRIC_IMBALANCE)
		return view_is_charm(v);
	return (unsigned)m < METRIC_COUNT;
}

/* "rank 7's MPI_Send (step 12)" */
static const char *
who(const struct view *v, uint32_t l, char *buf, size_t n)
{
	const struct analysis *a = v->a;
	const char *name = analysis_lop_kind(a, l) == OP_COMPUTE ? "computation"
		: view_region_name(v, analysis_lop_region(a, l));
	snprintf(buf, n, "rank %u's %s (step %u)", analysis_lop_timeline(a, l), name, analysis_lop_step(a, l));
	return buf;
}

/* "r7 MPI_Send s12", for the status line */
static const char *
brief(const struct view *v, uint32_t l, char *buf, size_t n)
{
	const struct analysis *a = v->a;
	const char *name = analysis_lop_kind(a, l) == OP_COMPUTE ? "computation"
		: view_region_name(v, analysis_lop_region(a, l));
	snprintf(buf, n, "r%u %s s%u", analysis_lop_timeline(a, l), name, analysis_lop_step(a, l));
	return buf;
}

static const char *
wait_words(enum analysis_wait_kind k)
{
	switch (k) {
	case WAIT_LATE_SENDER: return "late sender: its message's send began after it";
	case WAIT_LATE_RECEIVER: return "late receiver: the receive began after the send";
	case WAIT_NXN: return "wait at N x N: for the last to enter";
	case WAIT_BARRIER: return "wait at barrier: for the last to enter";
	case WAIT_LATE_BROADCAST: return "late broadcast: the root entered after it";
	case WAIT_EARLY_REDUCE: return "early reduce: the root waits for the last";
	case WAIT_POLLING: return "polling: MPI_Test* completed nothing until its message's send began";
	case WAIT_LOCK: return "lock competition: another rank held the lock it asked for";
	default: return "";
	}
}

void
view_explain_details(struct view *v, uint32_t lop)
{
	const struct analysis *a = v->a;
	struct view_lines *L = &v->details;
	char d1[32], d2[32], w1[192], w2[192], line[512];
	const struct analysis_wait *w = analysis_lop_wait(a, lop);
	if (w) {
		snprintf(line, sizeof line, "waited %s for %s \u2014 %s",
			 trace_fmt_duration(v->t, w->time, d1, sizeof d1), who(v, w->cause_lop, w1, sizeof w1),
			 wait_words((enum analysis_wait_kind)w->kind));
		view_lines_text(L, ST_EMPH, 0, 2, line);
		if (w->root_lop != TRACE_NONE) {
			snprintf(line, sizeof line, "root cause: %s, which ran %s",
				 who(v, w->root_lop, w2, sizeof w2),
				 trace_fmt_duration(v->t, analysis_lop_duration(a, w->root_lop), d2, sizeof d2));
			view_lines_text(L, ST_NORMAL, 2, 4, line);
		}
	}
	struct analysis_lost lost;
	if (analysis_lop_lost(a, lop, &lost)) {
		snprintf(line, sizeof line, "created %s but lasted %s: %s of it was lost before, most in %s, "
			 "which no other rank's operation at its step measured",
			 trace_fmt_duration(v->t, lost.created, d1, sizeof d1),
			 trace_fmt_duration(v->t, analysis_lop_duration(a, lop), d2, sizeof d2),
			 trace_fmt_duration(v->t, lost.before, w2, sizeof w2), who(v, lost.culprit, w1, sizeof w1));
		view_lines_text(L, ST_EMPH, 0, 2, line);
	} else if (lost.created && analysis_lop_kind(a, lop) != OP_COMPUTE &&
		   (analysis_lop_cause(a, lop) == CAUSE_COMPUTE || analysis_lop_cause(a, lop) == CAUSE_RMA)) {
		snprintf(line, sizeof line, "created inside the call: %s",
			 trace_fmt_duration(v->t, lost.inside, d1, sizeof d1));
		view_lines_text(L, ST_NORMAL, 0, 2, line);
	}
	const struct analysis_delay *d = analysis_lop_delay(a, lop);
	if (d) {
		snprintf(line, sizeof line, "its delay made others wait %s (%s directly, in %u wait%s)",
			 trace_fmt_duration(v->t, d->cost, d1, sizeof d1),
			 trace_fmt_duration(v->t, d->direct, d2, sizeof d2), d->waits, d->waits == 1 ? "" : "s");
		view_lines_text(L, ST_EMPH, 0, 2, line);
	}
	const struct analysis_outlier *o = analysis_lop_outlier(a, lop);
	if (o) {
		snprintf(line, sizeof line, "took %s; in its %u %s the median is %s",
			 trace_fmt_duration(v->t, o->duration, d1, sizeof d1), o->instances,
			 analysis_outliers_by_region(a) ? "calls on this rank"
			 : analysis_outlier_by_region(a, lop) ? "calls on this rank outside the iterations"
			 : "instances over the iterations",
			 trace_fmt_duration(v->t, o->median, d2, sizeof d2));
		view_lines_text(L, ST_EMPH, 0, 2, line);
	}
	view_explain_path(v, lop);
}

/* With the lanes metric: what the process's threads and streams waited
 * while the operation ran. */
static void
explain_lanes(struct view *v, uint32_t lop)
{
	char d1[32], d2[32], line[256];
	uint64_t w = view_index_value(v->ix, METRIC_LANES, lop);
	if (w)
		snprintf(line, sizeof line, "its process's threads, streams and host waited %s in all while it ran (%s)",
			 trace_fmt_duration(v->t, w, d1, sizeof d1),
			 trace_fmt_duration(v->t, analysis_lop_duration(v->a, lop), d2, sizeof d2));
	else
		snprintf(line, sizeof line, "no thread or stream of its process waited while it ran");
	view_lines_text(&v->details, w ? ST_EMPH : ST_NORMAL, 0, 2, line);
}

void
view_explain_path(struct view *v, uint32_t lop)
{
	if (v->metric == METRIC_LANES && view_index_lane_waits(v->ix)) {
		explain_lanes(v, lop);
		return;
	}
	const struct path *cp = v->metric == METRIC_PATH ? view_index_path(v->ix) : NULL;
	if (!cp)
		return;
	char d1[32], d2[32], w1[32], line[256];
	uint64_t on = view_index_value(v->ix, METRIC_PATH, lop);
	if (on)
		snprintf(line, sizeof line, "on the critical path %s of its %s (%.1f%% of the path's %s)",
			 trace_fmt_duration(v->t, on, d1, sizeof d1),
			 trace_fmt_duration(v->t, analysis_lop_duration(v->a, lop), d2, sizeof d2),
			 cp->length ? 100.0 * (double)on / (double)cp->length : 0.0,
			 trace_fmt_duration(v->t, cp->length, w1, sizeof w1));
	else
		snprintf(line, sizeof line, "not on the critical path");
	view_lines_text(&v->details, on ? ST_EMPH : ST_NORMAL, 0, 2, line);
}

int
view_explain_walk(struct view *v, int dir)
{
	uint32_t n;
	const struct analysis_problem *p = analysis_problems(v->a, &n);
	/* the problems count start-up as the analysis did: with `S` the
	 * other way, the hotspots (which follow it) are walked */
	if (n == 0 || v->diff || view_index_startup(v->ix) != analysis_options(v->a)->startup)
		return 0;
	int next = v->hot_idx + dir;
	if (next < 0 || next >= (int)n) {
		view_set_message(v, 0, "no %s problem", dir > 0 ? "further" : "earlier");
		return 1;
	}
	v->hot_idx = next;
	view_jump_lop(v, p[next].lop);
	char d[32], w1[192], w2[192];
	uint32_t out = p[next].surfaced != TRACE_NONE ? p[next].surfaced : p[next].lop;
	const char *against = analysis_outliers_by_region(v->a) ? "other calls"
		: analysis_outlier_by_region(v->a, out) ? "other calls outside the iterations" : "iterations";
	trace_fmt_duration(v->t, p[next].amount, d, sizeof d);
	brief(v, p[next].lop, w1, sizeof w1);
	switch (p[next].kind) {
	case PROBLEM_DELAY:
		view_set_message(v, 0, "problem %d/%u: %s made others wait %s", next + 1, n, w1, d);
		break;
	case PROBLEM_CREATED:
		/* as analyze says it: another rank's operation held the
		 * hotspot up; one before it on its rank lost the lateness */
		if (p[next].surfaced != TRACE_NONE && p[next].surfaced != p[next].lop &&
		    analysis_lop_timeline(v->a, p[next].surfaced) != analysis_lop_timeline(v->a, p[next].lop))
			view_set_message(v, 0, "problem %d/%u: %s held up %s, which created %s", next + 1, n, w1,
					 brief(v, p[next].surfaced, w2, sizeof w2), d);
		else if (p[next].surfaced != TRACE_NONE && p[next].surfaced != p[next].lop) {
			/* as analyze says it: what of the hotspot's amount was
			 * lost before it, this the longest of those lops, with
			 * the share of the amount it explains */
			struct analysis_lost lost;
			char b[32];
			analysis_lop_lost(v->a, p[next].surfaced, &lost);
			uint64_t ld = analysis_lop_duration(v->a, p[next].lop);
			ld = ld < lost.before ? ld : lost.before;
			double sh = p[next].amount ? 100.0 * (double)ld / (double)p[next].amount : 0;
			view_set_message(v, 0, "problem %d/%u: %s created %s, %s of it lost before it, longest %s (%.1f%%)",
					 next + 1, n, brief(v, p[next].surfaced, w2, sizeof w2), d,
					 trace_fmt_duration(v->t, lost.before, b, sizeof b), w1, sh);
		}
		else
			view_set_message(v, 0, "problem %d/%u: %s created %s of lateness", next + 1, n, w1, d);
		break;
	default:
		/* an outlier, or what held one up */
		if (p[next].surfaced != TRACE_NONE && p[next].surfaced != p[next].lop)
			view_set_message(v, 0, "problem %d/%u: %s held up %s, %s slower than its %s", next + 1,
					 n, w1, brief(v, p[next].surfaced, w2, sizeof w2), d, against);
		else
			view_set_message(v, 0, "problem %d/%u: %s %s slower than its %s", next + 1, n, w1, d, against);
		break;
	}
	return 1;
}

uint32_t
view_explain_cause(const struct view *v, uint32_t lop, const char **what)
{
	const struct analysis_wait *w = analysis_lop_wait(v->a, lop);
	if (w && w->root_lop != TRACE_NONE) {
		*what = "its wait's root cause";
		return w->root_lop;
	}
	struct analysis_lost lost;
	if (analysis_lop_lost(v->a, lop, &lost) && lost.before > lost.inside) {
		*what = "where its lateness was lost";
		return lost.culprit;
	}
	return TRACE_NONE;
}
