/* view_scope.c — what the profile, communication and lists panes cover,
 * the filters every pane honours (:ranks, :window), the panes that take
 * the whole body (p, a, i, T) and jumps to a time.
 *
 * A scope is a window of time, or one per rank: the whole trace; the
 * selected operation's partition, its iteration, or the steps in view
 * (each rank from its first operation there to its last); or the window
 * the timeline selected. The filters narrow every scope: only the kept
 * ranks, and only within [f_from, f_to).
 */
#include "view_impl.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "analysis/profile/profile.h"

int
view_time_selection(const struct view *v, uint64_t *t0, uint64_t *t1)
{
	if (!v->tsel1 || v->tsel1 <= v->tsel0)
		return 0;
	*t0 = v->tsel0;
	*t1 = v->tsel1;
	return 1;
}

/* The global steps [s0, s1) of scope, or 0 when it is not a step range. */
static int
scope_steps(const struct view *v, int scope, uint32_t *s0, uint32_t *s1)
{
	if (scope == TSCOPE_STEPS) {
		*s0 = v->win_step;
		*s1 = view_steps_end(v);
		return *s1 > *s0;
	}
	if (v->sel_lop == TRACE_NONE)
		return 0;
	if (scope == TSCOPE_PART) {
		uint32_t np, p = analysis_lop_part(v->a, v->sel_lop);
		const struct analysis_part *parts = analysis_parts(v->a, &np);
		if (p >= np)
			return 0;
		*s0 = parts[p].step_first;
		*s1 = parts[p].step_first + parts[p].step_count;
		return 1;
	}
	if (scope == TSCOPE_ITER) {
		const struct iterations *it = iterations_get(v->a);
		uint32_t k = iterations_of_lop(v->a, v->sel_lop);
		if (k == TRACE_NONE || k >= it->count)
			return 0;
		*s0 = it->starts[k];
		*s1 = it->starts[k + 1];
		return *s1 > *s0;
	}
	return 0;
}

int
view_scope_next(const struct view *v, int scope)
{
	uint64_t a, b;
	uint32_t s0, s1;
	for (int i = 1; i <= TSCOPE_COUNT; i++) {
		int s = (scope + i) % TSCOPE_COUNT;
		if (s == TSCOPE_ALL || (s == TSCOPE_TIME && view_time_selection(v, &a, &b)) ||
		    (s != TSCOPE_TIME && scope_steps(v, s, &s0, &s1)))
			return s;
	}
	return TSCOPE_ALL;
}

void
view_scope_text(const struct view *v, int scope, char *buf, size_t n)
{
	uint32_t s0 = 0, s1 = 0;
	uint64_t a, b;
	char x[32], y[32];
	if (scope == TSCOPE_TIME && view_time_selection(v, &a, &b)) {
		fmt_times(trace_seconds(v->t, a), trace_seconds(v->t, b), x, y, sizeof x);
		snprintf(buf, n, "%s to %s", x, y);
	} else if (scope == TSCOPE_PART && scope_steps(v, scope, &s0, &s1))
		snprintf(buf, n, "partition %u", analysis_lop_part(v->a, v->sel_lop));
	else if (scope == TSCOPE_ITER && scope_steps(v, scope, &s0, &s1))
		snprintf(buf, n, "%s %u", view_iter_name(v), iterations_of_lop(v->a, v->sel_lop));
	else if (scope == TSCOPE_STEPS && scope_steps(v, scope, &s0, &s1))
		snprintf(buf, n, "steps %u\u2013%u", s0, s1 - 1);
	else
		snprintf(buf, n, "whole trace");
	size_t k = strlen(buf);
	if (v->f_to && k < n) {
		fmt_times(trace_seconds(v->t, v->f_from), trace_seconds(v->t, v->f_to), x, y, sizeof x);
		k += (size_t)snprintf(buf + k, n - k, " \u00b7 window %s\u2013%s", x, y);
	}
	if (v->f_ranks && k < n)
		snprintf(buf + k, n - k, " \u00b7 %ss %s", view_row_noun(v), v->f_ranks_text);
}

int
view_scope_fill(struct view *v, int scope, struct profile_scope *s, uint64_t **buf, uint64_t key[4])
{
	profile_scope_all(s);
	*buf = NULL;
	s->ranks = v->f_ranks;
	uint32_t s0, s1, nr = view_index_ranks(v->ix);
	uint64_t a, b;
	key[0] = (uint64_t)scope << 32 | v->f_gen;
	key[1] = key[2] = key[3] = 0;
	if (scope == TSCOPE_TIME && view_time_selection(v, &a, &b)) {
		s->from = a;
		s->to = b;
		key[1] = a, key[2] = b;
	} else if (scope != TSCOPE_ALL && scope != TSCOPE_TIME && scope_steps(v, scope, &s0, &s1)) {
		uint64_t *w = malloc(2 * ((size_t)nr + 1) * sizeof *w);
		if (!w)
			return ERR_NOMEM;
		for (uint32_t r = 0; r < nr; r++) {
			uint32_t i0 = view_index_lower(v->ix, r, s0), i1 = view_index_lower(v->ix, r, s1);
			w[r] = i0 < i1 ? analysis_lop_enter(v->a, i0) : 0;
			w[nr + r] = i0 < i1 ? analysis_lop_exit(v->a, i1 - 1) : 0;
		}
		s->tl_from = w;
		s->tl_to = w + nr;
		*buf = w;
		key[1] = s0, key[2] = s1;
	}
	if (v->f_to) {
		/* the window filter narrows every scope */
		if (s->tl_from) {
			for (uint32_t r = 0; r < nr; r++) {
				(*buf)[r] = (*buf)[r] > v->f_from ? (*buf)[r] : v->f_from;
				(*buf)[nr + r] = (*buf)[nr + r] < v->f_to ? (*buf)[nr + r] : v->f_to;
			}
		} else {
			s->from = s->from > v->f_from ? s->from : v->f_from;
			s->to = s->to < v->f_to ? s->to : v->f_to;
		}
		key[3] = v->f_from ^ v->f_to << 1;
	}
	return 0;
}

void
view_filter_ranks(struct view *v, const char *spec)
{
	uint32_t nr = view_index_ranks(v->ix);
	if (!spec || !*spec || strcmp(spec, "all") == 0) {
		free(v->f_ranks);
		v->f_ranks = NULL;
		v->f_gen++;
		v->gc_valid = v->tl_valid = 0;
		view_set_message(v, 0, "every %s shown", view_row_noun(v));
		return;
	}
	uint8_t *kept = malloc((size_t)nr + 1);
	if (!kept) {
		view_set_message(v, 1, "out of memory");
		return;
	}
	struct err e = { 0 };
	if (strncmp(spec, "cluster:", 8) == 0) {
		/* a cluster of the rows (C): its members */
		char *end;
		unsigned long g = strtoul(spec + 8, &end, 10);
		if (!v->clustered || !v->vc || end == spec + 8 || *end || g >= view_cluster_groups(v->vc)) {
			free(kept);
			if (!v->clustered)
				view_set_message(v, 1, "cluster:N needs the rows clustered (C)");
			else
				view_set_message(v, 1, "the clusters are c0 to c%u, not '%s'",
						 view_cluster_groups(v->vc) - 1, spec + 8);
			return;
		}
		uint32_t n;
		const uint32_t *m = view_cluster_members(v->vc, (uint32_t)g, &n);
		memset(kept, 0, nr);
		for (uint32_t i = 0; i < n; i++)
			if (m[i] < nr)
				kept[m[i]] = 1;
	} else if (profile_parse_ranks(v->t, spec, kept, &e)) {
		free(kept);
		view_set_message(v, 1, "%s", e.msg);
		return;
	}
	uint32_t n = 0;
	for (uint32_t r = 0; r < nr; r++)
		n += kept[r] != 0;
	free(v->f_ranks);
	v->f_ranks = kept;
	snprintf(v->f_ranks_text, sizeof v->f_ranks_text, "%s", spec);
	v->f_gen++;
	v->gc_valid = v->tl_valid = 0;
	view_set_message(v, 0, "%u of %u %s%s kept (%s): the others are dimmed, and left out of the "
			 "profile, communication and lists (:ranks all shows them again)", n, nr,
			 view_row_noun(v), nr == 1 ? "" : "s", spec);
}

void
view_filter_window(struct view *v, const char *t1, const char *t2)
{
	if (!t1 || !*t1 || strcmp(t1, "off") == 0 || strcmp(t1, "all") == 0) {
		v->f_from = v->f_to = 0;
		v->f_gen++;
		v->gc_valid = v->tl_valid = 0;
		view_set_message(v, 0, "no time window: the whole trace");
		return;
	}
	struct err e = { 0 };
	uint64_t a, b;
	if (profile_parse_time(v->t, t1, &a, &e) || (t2 && profile_parse_time(v->t, t2, &b, &e))) {
		view_set_message(v, 1, "%s", e.msg);
		return;
	}
	if (!t2) {
		view_set_message(v, 1, "window takes two times, its start and its end (:window 0.1 0.2)");
		return;
	}
	if (b <= a) {
		view_set_message(v, 1, "a window ends after it starts, not at %s", t2);
		return;
	}
	v->f_from = a;
	v->f_to = b;
	v->f_gen++;
	v->gc_valid = v->tl_valid = 0;
	/* the timeline shows the window */
	v->tz = 1;
	v->tz_t0 = a;
	v->tz_t1 = b;
	v->tz_cur = a;
	char x[32], y[32];
	fmt_times(trace_seconds(v->t, a), trace_seconds(v->t, b), x, y, sizeof x);
	view_set_message(v, 0, "window %s to %s: every pane keeps to it (:window off ends it)", x, y);
}

int
view_filter_set(struct view *v, const char *ranks, const char *from, const char *to, struct err *e)
{
	const struct trace_info *ti = trace_info(v->t);
	if (ranks) {
		uint32_t nr = view_index_ranks(v->ix);
		uint8_t *kept = malloc((size_t)nr + 1);
		if (!kept)
			return err_set(e, ERR_NOMEM, "out of memory");
		if (profile_parse_ranks(v->t, ranks, kept, e)) {
			free(kept);
			return ERR_USAGE;
		}
		free(v->f_ranks);
		v->f_ranks = kept;
		snprintf(v->f_ranks_text, sizeof v->f_ranks_text, "%s", ranks);
	}
	if (from || to) {
		uint64_t a = ti->t_begin, b = ti->t_end + 1;
		if (profile_parse_window(v->t, from, to, &a, &b, e))
			return ERR_USAGE;
		v->f_from = a;
		v->f_to = b;
		v->tz = 1;
		v->tz_t0 = a;
		v->tz_t1 = b;
		v->tz_cur = a;
	}
	v->f_gen++;
	return 0;
}

void
view_big_toggle(struct view *v, int id)
{
	if (v->solo >= 0) {
		char key[16];
		view_set_message(v, 1, "one pane alone (--pane %s): %s opens nothing else",
				 view_pane_ops(v->solo)->name, view_key_name(v, ACT_NONE, key, sizeof key));
		return;
	}
	if (v->big == id) {
		v->big = -1;
		v->focus = id == PANE_TIMELINE ? PANE_TIMELINE : PANE_GRID;
		return;
	}
	v->big = id;
	v->focus = id;
}

void
view_jump_time(struct view *v, uint32_t r, uint64_t t, const char *what)
{
	uint32_t l = view_index_lop_at_time(v->ix, r, t);
	if (l == TRACE_NONE) {
		view_set_message(v, 1, "%s: no operation there", what);
		return;
	}
	if (v->big >= 0 && v->big != PANE_TIMELINE) {
		v->big = -1;
		v->focus = PANE_GRID;
	}
	view_jump_lop(v, l);
	if (v->tz && (t < v->tz_t0 || t >= v->tz_t1)) {
		uint64_t span = v->tz_t1 - v->tz_t0;
		v->tz_t0 = t > span / 2 ? t - span / 2 : 0;
		v->tz_t1 = v->tz_t0 + span;
	}
	v->tz_cur = t;
	char at[32];
	view_set_message(v, 0, "%s: %s %u at %s", what, view_row_noun(v), r,
			 fmt_time(trace_seconds(v->t, t), at, sizeof at));
}
