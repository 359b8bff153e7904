/* view_structure.c — iterations and a second run in the explorer:
 * the details' "iteration k of n" and, when the session shows a diff
 * (skein diff BEFORE AFTER on a terminal), the selected operation's
 * values in both runs side by side; the overview's iteration marks; the
 * `:iter N` command; the `delta` metric's values (|after − before|
 * lateness of each paired operation, in the AFTER trace's ticks). */
#include "view_impl.h"

#include <math.h>
#include <string.h>

#include "analysis/compare/diff.h"
#include "analysis/core/iterations.h"

const char *
view_iter_name(const struct view *v)
{
	return v->iter_name && v->iter_name[0] ? v->iter_name : "iteration";
}

/* 1 when an iteration starts at a global step in [s0, s1). */
int
view_iter_starts(const struct view *v, uint32_t s0, uint32_t s1)
{
	const struct iterations *it = iterations_get(v->a);
	uint32_t lo = 0, hi = it->count;   /* the first start >= s0 */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (it->starts[mid] < s0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < it->count && it->starts[lo] < s1;
}

void
view_iter_goto(struct view *v, uint32_t k)
{
	const struct iterations *it = iterations_get(v->a);
	if (!it->count) {
		view_set_message(v, 1, "no %ss were found in this trace", view_iter_name(v));
		return;
	}
	if (k >= it->count) {
		view_set_message(v, 1, "%s %u does not exist (0-%u)", view_iter_name(v), k, it->count - 1);
		return;
	}
	/* the first operation of the selected rank in it, else its first step */
	uint32_t l = view_index_lower(v->ix, v->sel_rank, it->starts[k]);
	uint32_t first, end;
	view_index_rank_lops(v->ix, v->sel_rank, &first, &end);
	if (l < end && analysis_lop_step(v->a, l) < it->starts[k + 1]) {
		view_jump_lop(v, l);
	} else {
		/* as :step does: an operation jumped to before, in the
		 * same cell when zoomed out, is no longer the one selected */
		v->sel_step = it->starts[k];
		v->pinned = 0;
		view_select_update(v);
		view_scroll_to_selection(v, 0);
	}
	view_set_message(v, 0, "%s %u of %u: steps %u\u2013%u", view_iter_name(v), k, it->count,
			 it->starts[k], it->starts[k + 1] - 1);
}

void
view_iter_details(struct view *v, uint32_t lop)
{
	const struct iterations *it = iterations_get(v->a);
	if (!it->count)
		return;
	uint32_t k = iterations_of_lop(v->a, lop);
	if (k != TRACE_NONE)
		view_lines_add(&v->details, ST_NORMAL, "%s %u of %u \u00b7 steps %u\u2013%u", view_iter_name(v),
		    k, it->count, it->starts[k], it->starts[k + 1] - 1);
	else if (analysis_lop_step(v->a, lop) < it->starts[0] || analysis_lop_step(v->a, lop) >= it->starts[it->count])
		view_lines_add(&v->details, ST_DIM, "%s the %u %s%s", analysis_lop_step(v->a, lop) < it->starts[0] ?
		    "before" : "after", it->count, view_iter_name(v), it->count == 1 ? "" : "s");
	else        /* within their steps, yet its partition is in none */
		view_lines_add(&v->details, ST_DIM, "in none of the %u %s%s (steps %u\u2013%u)", it->count,
			       view_iter_name(v), it->count == 1 ? "" : "s", it->starts[0], it->starts[it->count] - 1);
}

/* "lateness        0 │ 10.01 ms": two columns, the runs side by side;
 * returns the change in seconds. */
static double
pair_line(struct view *v, const char *what, uint64_t b, const struct trace *tb, uint64_t a, int style)
{
	char x[24], y[24];
	double sb = trace_seconds(tb, b), sa = trace_seconds(v->t, a);
	fmt_seconds(sb, x, sizeof x);
	fmt_seconds(sa, y, sizeof y);
	view_lines_add(&v->details, style, "%-8s %9s \u2502 %s", what, x, y);
	return sa - sb;
}

/* Marks lop when it is the largest change skein diff names first
 * (diff_largest), or its lateness came from it. One nothing paired is
 * said as skein diff says it: an AFTER operation by what it created
 * beyond the most its rank's same call created in the stretch before;
 * a BEFORE one (the way back) at the AFTER operation it was compared
 * with, having no place in this run. */
static void
largest_mark(struct view *v, uint32_t lop)
{
	const struct diff *d = v->diff;
	const struct diff_op *top = diff_largest(d);
	if (!top)
		return;
	const struct analysis *B = d->before;
	const struct trace *tb = analysis_trace(B);
	int way = diff_op_unpaired(d, top);
	char x[24], y[24], line[192];
	if (top->after == lop && way == 0) {
		view_lines_add(&v->details, ST_EMPH, "the largest change between the runs");
	} else if (top->after == lop && way == 1) {
		snprintf(line, sizeof line, "the largest change between the runs: diff. %s beyond the most its call "
			 "created in that stretch before (step %u, %s)", fmt_change(top->d_diff, x, sizeof x),
			 analysis_lop_step(B, top->before),
			 fmt_seconds(trace_seconds(tb, analysis_lop_diff(B, top->before)), y, sizeof y));
		view_lines_text(&v->details, ST_EMPH, 0, 2, line);
	} else if (top->after == lop && way == 2) {
		snprintf(line, sizeof line, "the largest change between the runs: diff. %s at step %u before, which "
			 "nothing paired; this is the most its call created in that stretch (%s)",
			 fmt_change(top->d_diff, x, sizeof x), analysis_lop_step(B, top->before),
			 fmt_seconds(trace_seconds(analysis_trace(v->a), analysis_lop_diff(v->a, lop)), y, sizeof y));
		view_lines_text(&v->details, ST_EMPH, 0, 2, line);
	} else if (top->d_diff > 0 && d->root && d->root[lop] != TRACE_NONE && d->root[lop] == top->after) {
		view_lines_add(&v->details, ST_NORMAL, "its lateness came from the largest change");
	}
}

/* The selected operation in both runs. */
void
view_diff_details(struct view *v, uint32_t lop)
{
	const struct diff *d = v->diff;
	if (!d)
		return;
	const struct analysis *B = d->before;
	const struct trace *tb = analysis_trace(B);
	uint32_t p = analysis_lop_part(v->a, lop);
	uint32_t q = p != TRACE_NONE && d->after_part ? d->after_part[p] : TRACE_NONE;
	uint32_t k = d->after_op ? d->after_op[lop] : TRACE_NONE;
	view_lines_add(&v->details, ST_TITLE, "%-8s %9s \u2502 %s", "", "before", "after");
	if (q != TRACE_NONE && d->parts[q].kind != DIFF_ALIKE) {
		view_lines_add(&v->details, ST_EMPH, "structure differs: partition %s", diff_part_kind_name(d->parts[q].kind));
		for (uint32_t c = 0; c < d->n_changes; c++) {
			const struct diff_change *x = &d->changes[c];
			if (x->part != q || !x->is_message)
				continue;
			view_lines_add(&v->details, ST_NORMAL, "  %u message%s only %s: r%u \u2192 r%u tag %u", x->count,
			    x->count == 1 ? "" : "s", x->in_after ? "after" : "before", x->sender, x->receiver, x->tag);
		}
	}
	if (k == TRACE_NONE) {
		view_lines_add(&v->details, ST_DIM, "%s", d->same_ranks ? "no operation of the other run pairs with this one"
		    : "rank counts differ: only partition totals compare");
		largest_mark(v, lop);
		if (q != TRACE_NONE && d->parts[q].before != TRACE_NONE) {
			char x[24], y[24], z[24];
			const struct diff_part *P = &d->parts[q];
			view_lines_add(&v->details, ST_DIM, "the partitions' totals:");
			view_lines_add(&v->details, ST_NORMAL, "%-8s %9u \u2502 %u", "part.", P->before, P->after);
			view_lines_add(&v->details, ST_NORMAL, "%-8s %9s \u2502 %s", "lateness", fmt_seconds(P->b.late, x, sizeof x),
			    fmt_seconds(P->a.late, y, sizeof y));
			view_lines_add(&v->details, ST_EMPH, "change: lateness %s", fmt_change(P->a.late - P->b.late, z, sizeof z));
		}
		return;
	}
	uint32_t lb = d->ops[k].before;
	view_lines_add(&v->details, ST_NORMAL, "%-8s %9u \u2502 %u", "step", analysis_lop_step(B, lb),
	    analysis_lop_step(v->a, lop));
	uint64_t eb = analysis_lop_enter(B, lb), xb = analysis_lop_exit(B, lb);
	uint64_t ea = analysis_lop_enter(v->a, lop), xa = analysis_lop_exit(v->a, lop);
	double dd = pair_line(v, "duration", xb > eb ? xb - eb : 0, tb, xa > ea ? xa - ea : 0, ST_NORMAL);
	double dl = pair_line(v, "lateness", analysis_lop_lateness(B, lb), tb, analysis_lop_lateness(v->a, lop),
		  ST_HEAT0 + view_index_level(v->ix, METRIC_DELTA, view_index_value(v->ix, METRIC_DELTA, lop)));
	double df = pair_line(v, "diff.", analysis_lop_diff(B, lb), tb, analysis_lop_diff(v->a, lop), ST_NORMAL);
	view_lines_add(&v->details, ST_NORMAL, "%-8s %9s \u2502 %s", "cause", analysis_cause_name(analysis_lop_cause(B, lb)),
	    analysis_cause_name(analysis_lop_cause(v->a, lop)));
	char x[24], y[24], z[24], line[128];
	snprintf(line, sizeof line, "change: lateness %s \u00b7 diff. %s \u00b7 duration %s",
		 fmt_change(dl, x, sizeof x), fmt_change(df, y, sizeof y), fmt_change(dd, z, sizeof z));
	view_lines_text(&v->details, ST_EMPH, 0, 2, line);
	largest_mark(v, lop);
}

/* 1 when a partition of AFTER whose structure differs from BEFORE (or
 * that BEFORE lacks) spans a global step in [s0, s1). */
int
view_diff_changed(const struct view *v, uint32_t s0, uint32_t s1)
{
	const struct diff *d = v->diff;
	if (!d || !(d->n_changed + d->n_only_after))
		return 0;
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(v->a, &np);
	for (uint32_t q = 0; q < d->n_parts; q++) {
		const struct diff_part *P = &d->parts[q];
		if (P->kind == DIFF_ALIKE || P->after == TRACE_NONE || P->after >= np)
			continue;
		const struct analysis_part *x = &parts[P->after];
		if (x->step_first < s1 && x->step_first + x->step_count > s0)
			return 1;
	}
	return 0;
}

uint64_t
view_delta_value(const struct diff *d, const struct trace *t, uint32_t lop)
{
	if (!d || !d->after_op || d->after_op[lop] == TRACE_NONE)
		return 0;
	double s = fabs(d->ops[d->after_op[lop]].d_late);
	return (uint64_t)(s * (double)trace_info(t)->ticks_per_second + 0.5);
}
