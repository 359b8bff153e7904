/* report.c — `skein analyze` writers. */
#include "report.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/cluster.h"
#include "analysis/core/iterations.h"
#include "analysis/explain/explain.h"
#include "base/json.h"
#include "base/text.h"
#include "report_explain.h"
#include "report_impl.h"
#include "report_iter.h"
#include "report_hybrid.h"
#include "report_path.h"
#include "summary.h"

int
report_table_parse(const char *name, enum report_table *table)
{
	static const char *const names[] = { "hotspots", "partitions", "timelines", "ops",
					     "iterations", "waits", "delays", "outliers", "problems", "critical",
					     "lane-waits" };
	for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
		if (strcmp(name, names[i]) == 0) {
			*table = (enum report_table)i;
			return 0;
		}
	return ERR_USAGE;
}

struct tl_totals {
	uint64_t late, diff, max_late;
	uint64_t waited;             /* in its wait states */
	uint64_t delay;              /* the waiting its delays caused (root causes) */
};

/* Start-up lops count only when the options include them, and so does
 * lateness inherited from them (the first operations of late starters). */
static int
counted(const struct analysis *a, uint32_t l)
{
	return analysis_options(a)->startup || !analysis_lop_startup(a, l);
}

static int
late_counted(const struct analysis *a, uint32_t l)
{
	return analysis_options(a)->startup || !analysis_lop_from_startup(a, l);
}

_Static_assert(offsetof(struct analysis_wait, lop) == 0, "first_at reads a wait's lop first");
_Static_assert(offsetof(struct analysis_delay, lop) == 0, "first_at reads a delay's lop first");

/* The first of n records of `size` bytes in order of their first u32
 * (a lop) whose lop is at least lop. */
static uint32_t
first_at(const void *v, size_t size, uint32_t n, uint32_t lop)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, at;
		memcpy(&at, (const char *)v + (size_t)mid * size, sizeof at);
		if (at < lop)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
timeline_totals(const struct analysis *a, const struct report_phases *ph, uint32_t tl,
		struct tl_totals *x)
{
	uint32_t first, count;
	analysis_timeline_lops(a, tl, &first, &count);
	memset(x, 0, sizeof *x);
	for (uint32_t l = first; l < first + count; l++) {
		if (!kept_lop(a, ph, l) || !counted(a, l))
			continue;
		uint64_t late = late_counted(a, l) ? analysis_lop_lateness(a, l) : 0;
		x->late += late;
		x->diff += analysis_lop_diff(a, l);
		if (late > x->max_late)
			x->max_late = late;
	}
	/* the wait states and delays of the timeline's lops: both in lop
	 * order, the timeline's a run found by binary search (every rank
	 * read them all: O(ranks x waits), 1024 ranks x 300,000 waits) */
	uint32_t n;
	const struct analysis_wait *w = analysis_waits(a, &n);
	for (uint32_t i = first_at(w, sizeof *w, n, first); i < n && w[i].lop < first + count; i++)
		if (kept_lop(a, ph, w[i].lop))
			x->waited += w[i].time;
	const struct analysis_delay *d = analysis_delays(a, &n);
	for (uint32_t i = first_at(d, sizeof *d, n, first); i < n && d[i].lop < first + count; i++)
		if (kept_lop(a, ph, d[i].lop) && counted(a, d[i].lop))
			x->delay += d[i].cost;
}

/* Every timeline's totals, on every core (report_each) */
struct tl_job {
	const struct analysis *a;
	const struct report_phases *ph;
	struct tl_totals *x;
};

static void
tl_totals_of(void *ctx, uint32_t tl)
{
	const struct tl_job *g = ctx;
	timeline_totals(g->a, g->ph, tl, &g->x[tl]);
}

/* The start-up lops with the largest differential lateness, up to max,
 * largest first (ties: lower rank); returns how many. */
static uint32_t
startup_top(const struct analysis *a, uint32_t *top, uint32_t max)
{
	uint32_t n_tl, n = 0;
	trace_timelines(analysis_trace(a), &n_tl);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t first, count;
		analysis_timeline_lops(a, tl, &first, &count);
		if (!count || !analysis_lop_startup(a, first) || !analysis_lop_diff(a, first))
			continue;
		uint32_t i = n < max ? n++ : max;
		while (i > 0 && analysis_lop_diff(a, top[i - 1]) < analysis_lop_diff(a, first)) {
			if (i < max)
				top[i] = top[i - 1];
			i--;
		}
		if (i < max)
			top[i] = first;
	}
	return n;
}

/* What skein decided from the trace, and how to undo it. */
static void
write_choices(const struct analysis *a, FILE *out)
{
	const struct trace *t = analysis_trace(a);
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_stats *st = analysis_stats(a);
	char b1[32], b2[32];
	if (o->global_step_merge)
		fprintf(out, "step merge    %u partitions that shared global steps merged into %u "
			"(--global-step-merge)\n", st->partitions_steps, st->partitions);
	else if (!o->auto_merge)
		fprintf(out, "auto merge    off: partitions that share global steps stay apart\n");
	else if (o->n_phases)
		fprintf(out, "auto merge    off: user phases define the partitions\n");
	else if (st->auto_merged)
		fprintf(out, "auto merge    %u partitions merged into %u: they shared global steps "
			"and made the same calls (one phase split over disjoint ranks, so lateness "
			"compares all its ranks; --no-auto-merge keeps them apart)\n",
			st->partitions_steps, st->partitions_steps - st->auto_merged);
	else
		fprintf(out, "auto merge    nothing to merge: no partitions making the same calls "
			"share global steps\n");
	if (!o->sender_progress)
		fprintf(out, "progress      off: receives follow their senders' calls only\n");
	else if (st->progress_receives)
		fprintf(out, "progress      %u receive%s completed only inside the call that completed "
			"the sender's Isend: what delayed that call counts as their predecessor "
			"(--no-sender-progress)\n", st->progress_receives,
			st->progress_receives == 1 ? "" : "s");
	else
		fprintf(out, "progress      no receive waited for its sender's progress\n");
	if (o->startup) {
		fprintf(out, "start-up      counted in the hotspots (--startup)\n");
	} else if (st->startup_lops) {
		uint32_t top[5];
		uint32_t n = startup_top(a, top, 5);
		fprintf(out, "start-up      %u operation%s before each rank's first communication "
			"left out of the hotspots and per-rank totals (--startup counts them)%s\n",
			st->startup_lops, st->startup_lops == 1 ? "" : "s", n ? ":" : "");
		for (uint32_t i = 0; i < n; i++)
			fprintf(out, "              rank %u start-up, lateness %s, diff %s\n",
				analysis_lop_timeline(a, top[i]),
				trace_fmt_duration(t, analysis_lop_lateness(a, top[i]), b1, sizeof b1),
				trace_fmt_duration(t, analysis_lop_diff(a, top[i]), b2, sizeof b2));
		if (st->startup_hidden > n)
			fprintf(out, "              and %u more with differential lateness\n",
				st->startup_hidden - n);
	}
}

/* The critical path into the JSON object j, the CSV table (csv) or the
 * text; computed here, for the one report that shows it. Without memory
 * for it the text and the JSON say so in its place, and it returns
 * ERR_NOMEM (the CSV table, the whole output, is not written); else 0. */
static int
with_path(const struct analysis *a, FILE *out, struct json *j, int csv, const struct report_phases *ph)
{
	struct path p;
	struct err e = { 0 };
	if (path_compute(a, &p, &e)) {
		if (j) {
			json_key(j, "critical_path");
			report_json_not_shown(j);
		} else if (out && !csv) {
			fprintf(out, "\ncritical path  not computed: %s\n", e.msg[0] ? e.msg : "out of memory");
		}
		return ERR_NOMEM;
	}
	if (j)
		report_path_json(j, a, &p);
	else if (csv)
		report_path_csv(out, a, &p);
	else
		report_path_text(out, a, &p, report_all(ph) ? UINT32_MAX : 10);
	path_free(&p);
	return 0;
}

static void
write_text(const struct analysis *a, const struct report_phases *ph, FILE *out)
{
	const struct trace *t = analysis_trace(a);
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_stats *st = analysis_stats(a);
	const struct analysis_verify *v = analysis_verify(a);
	char b1[32], b2[32];
	uint32_t n_parts, n_tl;
	const struct analysis_part *parts = analysis_parts(a, &n_parts);
	trace_timelines(t, &n_tl);
	if (report_is_charm(a)) {
		report_charm_text(a, ph, out);
		return;
	}

	/* names come from the trace and the configuration: shown safely */
	char n1[256], n2[256];
	fprintf(out, "trace         %s\n", text_safe(trace_info(t)->path, n1, sizeof n1));
	summary_warnings_text(out, t);     /* what reading it noticed */
	fprintf(out, "options       ");
	int first = 1;
	on_off(out, "coalesce", o->coalesce_isends, &first);
	on_off(out, "waitall-merge", o->waitall_merge, &first);
	on_off(out, "leap-merge", o->leap_merge, &first);
	if (o->leap_merge)
		fprintf(out, " (factor %g%s)", o->leap_factor, o->leap_force ? ", force" : "");
	on_off(out, "global-step-merge", o->global_step_merge, &first);
	on_off(out, "auto-merge", o->auto_merge, &first);
	on_off(out, "sender-progress", o->sender_progress, &first);
	on_off(out, "startup", o->startup, &first);
	on_off(out, "match-size", o->match_size, &first);
	on_off(out, "caller-merge", o->caller_merge, &first);
	on_off(out, "reorder", o->reorder, &first);
	if (o->clusters)
		fprintf(out, ", clusters %u", o->clusters);
	if (o->n_phases)
		fprintf(out, ", %u user phase rule%s", o->n_phases, o->n_phases == 1 ? "" : "s");
	fputc('\n', out);
	fprintf(out, "operations    %u logical (%u Isends coalesced)\n", analysis_lop_count(a),
		st->coalesced_isends);
	fprintf(out, "partitions    %u (messages and collectives %u, waitall %u, cycles %u, leaps %u)\n",
		st->partitions, st->partitions_initial, st->partitions_waitall,
		st->partitions_scc, st->partitions_leap);
	fprintf(out, "steps         %u global\n", analysis_step_count(a));
	if (analysis_verified(a))
		fprintf(out, "verifier      passed (%" PRIu64 " messages checked)\n", v->messages_checked);
	else
		fprintf(out, "verifier      FAILED: %" PRIu64 " message order, %" PRIu64
			" timeline order, %" PRIu64 " split collectives, %" PRIu64
			" partition overlaps, %" PRIu64 " cross-partition\n", v->message_order,
			v->timeline_order, v->collective_split, v->partition_overlap, v->cross_partition);
	if (v->relaxed)
		fprintf(out, "note          %" PRIu64 " orderings implied by the records formed cycles "
			"and were broken at the earliest operation\n", v->relaxed);
	write_choices(a, out);
	report_unused_text(a, out);

	if (report_iter_text(a, ph, out))      /* after the iterations' summary */
		fputs("              their table not shown: out of memory\n", out);
	/* the partitions: every one, or the heaviest of many (lateness
	 * created there and time waited) */
	struct report_row *rows = malloc(((size_t)n_parts + 1) * sizeof *rows);
	uint32_t n_rows = 0, shown_parts;
	if (rows) {
		for (uint32_t p = 0; p < n_parts; p++)
			rows[p] = (struct report_row){ 0, p };
		/* the lateness created, then the time waited (a wait a lop,
		 * in lop order: looked up a lop at a time they missed the
		 * cache at every step of the search) */
		uint32_t n_w;
		const struct analysis_wait *w = analysis_waits(a, &n_w);
		for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
			uint32_t p = analysis_lop_part(a, l);
			if (p < n_parts)
				rows[p].w += analysis_lop_diff(a, l);
		}
		for (uint32_t i = 0; i < n_w; i++) {
			uint32_t p = analysis_lop_part(a, w[i].lop);
			if (p < n_parts)
				rows[p].w += w[i].time;
		}
		for (uint32_t p = 0; p < n_parts; p++)
			if (kept_part(ph, p))
				rows[n_rows++] = rows[p];
	}
	shown_parts = rows ? report_top_rows(rows, n_rows, ph) : 0;
	fprintf(out, "\n%-9s %-15s %6s %8s %6s  %s\n", "partition", "steps", "ranks", "ops", "leap", "phase");
	for (uint32_t i = 0; i < shown_parts; i++) {
		uint32_t p = rows[i].k;
		char span[32];
		snprintf(span, sizeof span, "%u-%u", parts[p].step_first,
			 parts[p].step_first + parts[p].step_count - 1);
		fprintf(out, "%-9u %-15s %6u %8u %6u  ", p, span, parts[p].ranks, parts[p].comm_count,
			parts[p].leap);
		if (part_name(ph, p))
			fprintf(out, "%s\n", text_safe(part_name(ph, p), n1, sizeof n1));
		else if (parts[p].phase == TRACE_NONE)
			fputs("-\n", out);
		else
			fprintf(out, "%u (%s)\n", parts[p].phase,
				parts[p].phase_region == TRACE_NONE ? "before the first" :
				text_safe(trace_str(t, trace_regions(t, NULL)[parts[p].phase_region].name),
					  n1, sizeof n1));
	}
	if (!rows && n_parts)
		fputs("(not shown: out of memory)\n", out);
	else if (shown_parts < n_rows)
		fprintf(out, "(the %u of %u with the most lateness created and time waited; all: --all)\n",
			shown_parts, n_rows);
	free(rows);

	if (o->clusters) {
		fprintf(out, "\nclusters (ranks grouped by lateness, at most %u per partition)\n", o->clusters);
		for (uint32_t p = 0; p < n_parts; p++) {
			const struct clustering *c = analysis_clustering(a, p);
			if (!c || c->n_clusters < 2 || !kept_part(ph, p))
				continue;
			fprintf(out, "%-9u", p);
			for (uint32_t k = 0; k < c->n_clusters; k++)
				fprintf(out, " %u ranks like rank %u%s", c->size[k], c->medoid[k],
					k + 1 < c->n_clusters ? ";" : "\n");
		}
	}

	uint32_t n_hot;
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	fprintf(out, "\nhotspots (largest differential lateness first)\n");
	uint32_t shown = 0, limit = report_all(ph) ? n_hot : 10;
	/* the names' columns as wide as the rows shown need, 18 to 32 */
	int w_op = 18, w_in = 18;
	for (uint32_t i = 0; i < n_hot && shown < limit; i++) {
		uint32_t l = hot[i];
		if (!kept_lop(a, ph, l))
			continue;
		shown++;
		int k = analysis_lop_kind(a, l) == OP_COMPUTE ? 0 : text_width(report_lop_region(a, l));
		w_op = k > w_op ? (k < 32 ? k : 32) : w_op;
		k = text_width(report_lop_in(a, l));
		w_in = k > w_in ? (k < 32 ? k : 32) : w_in;
	}
	shown = 0;
	fprintf(out, "%3s %5s %6s %5s %5s %s %s %12s %12s  %s\n", "#", "rank", "step", "part", "iter",
		text_safe_pad("operation", w_op, n1, sizeof n1), text_safe_pad("in", w_in, n2, sizeof n2),
		"lateness", "diff", "cause");
	for (uint32_t i = 0; i < n_hot && shown < limit; i++) {
		uint32_t l = hot[i];
		if (!kept_lop(a, ph, l))
			continue;
		shown++;
		char it[16];
		fprintf(out, "%3u %5u %6u %5u %5s %s %s %12s %12s  %s\n", shown,
			analysis_lop_timeline(a, l), analysis_lop_step(a, l), analysis_lop_part(a, l),
			report_iter_of(a, l, it, sizeof it),
			text_fit(analysis_lop_kind(a, l) == OP_COMPUTE ? "(computation)" : report_lop_region(a, l), w_op,
				 n1, sizeof n1),
			text_fit(report_lop_in(a, l), w_in, n2, sizeof n2),
			trace_fmt_duration(t, analysis_lop_lateness(a, l), b1, sizeof b1),
			trace_fmt_duration(t, analysis_lop_diff(a, l), b2, sizeof b2),
			analysis_cause_name(analysis_lop_cause(a, l)));
	}
	if (!shown)
		fputs("  none: no operation created lateness\n", out);
	else if (shown < n_hot)
		fprintf(out, "(the first %u of %u; all: --all)\n", shown, n_hot);
	report_explain_text(out, a, ph, report_all(ph) ? o->hotspots : 10);
	report_hybrid_text(out, a, report_all(ph) ? UINT32_MAX : 10);

	/* the ranks: every one, or the heaviest of many */
	struct tl_totals *x = malloc(((size_t)n_tl + 1) * sizeof *x);
	struct report_row *rr = malloc(((size_t)n_tl + 1) * sizeof *rr);
	if (!x || !rr) {
		free(x);
		free(rr);
		fputs("\nranks not shown: out of memory\n", out);
		return;
	}
	struct tl_job g = { a, ph, x };
	report_each(n_tl, tl_totals_of, &g);
	for (uint32_t tl = 0; tl < n_tl; tl++)
		rr[tl] = (struct report_row){ x[tl].diff, tl };
	uint32_t shown_tl = report_top_rows(rr, n_tl, ph);
	fprintf(out, "\n%-6s %14s %14s %14s %14s %14s\n", "rank", "lateness", "created", "max lateness",
		"waited", "made wait");
	for (uint32_t i = 0; i < shown_tl; i++) {
		uint32_t tl = rr[i].k;
		char b3[32], b4[32], b5[32];
		fprintf(out, "%-6u %14s %14s %14s %14s %14s\n", tl, trace_fmt_duration(t, x[tl].late, b1, sizeof b1),
			trace_fmt_duration(t, x[tl].diff, b2, sizeof b2),
			trace_fmt_duration(t, x[tl].max_late, b3, sizeof b3),
			trace_fmt_duration(t, x[tl].waited, b4, sizeof b4),
			trace_fmt_duration(t, x[tl].delay, b5, sizeof b5));
	}
	if (shown_tl < n_tl)
		fprintf(out, "(the %u of %u ranks that created the most lateness; all: --all)\n", shown_tl, n_tl);
	free(x);
	free(rr);
}

static void
json_lop(struct json *j, const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	json_begin_object(j);
	json_key(j, "rank"); json_uint(j, analysis_lop_timeline(a, l));
	json_key(j, "step"); json_uint(j, analysis_lop_step(a, l));
	json_key(j, "local_step"); json_uint(j, analysis_lop_local_step(a, l));
	json_key(j, "partition"); json_uint(j, analysis_lop_part(a, l));
	json_key(j, "iteration");
	if (iterations_of_lop(a, l) == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, iterations_of_lop(a, l));
	json_key(j, "kind"); json_string(j, trace_op_kind_name(analysis_lop_kind(a, l)));
	json_key(j, "region"); json_string(j, report_lop_region(a, l));
	json_key(j, "in"); json_string(j, report_lop_in(a, l));
	json_key(j, "enter_s"); json_double(j, trace_seconds(t, analysis_lop_enter(a, l)));
	json_key(j, "exit_s"); json_double(j, trace_seconds(t, analysis_lop_exit(a, l)));
	json_key(j, "lateness_s"); json_double(j, trace_seconds(t, analysis_lop_lateness(a, l)));
	json_key(j, "diff_s"); json_double(j, trace_seconds(t, analysis_lop_diff(a, l)));
	json_key(j, "global_lateness_s"); json_double(j, trace_seconds(t, analysis_lop_global_lateness(a, l)));
	json_key(j, "cause"); json_string(j, analysis_cause_name(analysis_lop_cause(a, l)));
	json_key(j, "startup"); json_bool(j, analysis_lop_startup(a, l));
	uint32_t from = analysis_lop_cause_lop(a, l);
	json_key(j, "cause_rank");
	if (from == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, analysis_lop_timeline(a, from));
	if (report_is_charm(a))
		report_charm_json_lop(j, a, l);
	json_end_object(j);
}

/* The options given that did not apply to this trace (the text report
 * says why: analysis_opts_unused_text). */
static void
json_unused(struct json *j, const struct analysis *a)
{
	char buf[1024];
	uint32_t m = analysis_unused_opts(a);
	json_key(j, "not_applied");
	json_begin_array(j);
	for (uint32_t bit = 1; bit && bit <= m; bit <<= 1)
		if (m & bit)
			json_string(j, analysis_opt_name(bit, buf, sizeof buf));
	json_end_array(j);
}

/* The automatic choices: what each did on this trace. A Charm++ run's
 * structure is seed 004's: the MPI rules did not run, and its start-up
 * is the work that is not the application's own (analysis.h). */
static void
json_choices(struct json *j, const struct analysis *a)
{
	const struct trace *t = analysis_trace(a);
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_stats *st = analysis_stats(a);
	int charm = report_is_charm(a);
	int on = !charm && o->auto_merge && !o->global_step_merge && !o->n_phases;
	json_key(j, "choices");
	json_begin_object(j);
	json_key(j, "auto_merge");
	json_begin_object(j);
	json_key(j, "ran"); json_bool(j, on);
	json_key(j, "why");
	json_string(j, charm ? "a Charm++ run: its phases are not merged by global step (an MPI rule)" :
		    o->global_step_merge ? "--global-step-merge merges every overlap" :
		    !o->auto_merge ? "switched off" : o->n_phases ? "user phases define the partitions" :
		    "partitions that share global steps and make the same calls are one phase "
		    "split over disjoint ranks");
	json_key(j, "partitions_before"); json_uint(j, st->partitions_steps);
	json_key(j, "merged"); json_uint(j, on ? st->auto_merged : 0);
	json_end_object(j);
	json_key(j, "sender_progress");
	json_begin_object(j);
	json_key(j, "ran"); json_bool(j, !charm && o->sender_progress);
	if (charm) {
		json_key(j, "why");
		json_string(j, "a Charm++ run: invocations have no non-blocking sends to progress (an MPI rule)");
	}
	json_key(j, "receives"); json_uint(j, charm ? 0 : st->progress_receives);
	json_end_object(j);
	json_key(j, "startup");
	json_begin_object(j);
	json_key(j, "counted"); json_bool(j, o->startup);
	if (charm) {
		json_key(j, "what");
		json_string(j, "the work that is not the application's own: the runtime's entries, "
			    "creations outside executions, constructors and the leading phase");
	}
	json_key(j, "operations"); json_uint(j, charm ? analysis_charm_setup_count(a) : st->startup_lops);
	json_key(j, "left_out_with_diff"); json_uint(j, o->startup ? 0 : st->startup_hidden);
	json_key(j, "end_s"); json_double(j, trace_seconds(t, analysis_startup_end(a)));
	json_key(j, "left_out");
	json_begin_array(j);
	uint32_t top[20];
	uint32_t n = o->startup ? 0 : startup_top(a, top, 20);
	for (uint32_t i = 0; i < n; i++)
		json_lop(j, a, top[i]);
	json_end_array(j);
	json_end_object(j);
	json_unused(j, a);
	json_end_object(j);
}

/* A timeline's totals in the JSON report (report_json_items) */
struct tl_items {
	const struct analysis *a;
	const struct report_phases *ph;
};

static void
tl_item(struct json *j, void *ctx, uint32_t tl)
{
	const struct tl_items *g = ctx;
	const struct analysis *a = g->a;
	const struct trace *t = analysis_trace(a);
	struct tl_totals x;
	timeline_totals(a, g->ph, tl, &x);
	json_begin_object(j);
	json_key(j, "rank"); json_uint(j, tl);
	json_key(j, "lateness_s"); json_double(j, trace_seconds(t, x.late));
	json_key(j, "created_s"); json_double(j, trace_seconds(t, x.diff));
	json_key(j, "max_lateness_s"); json_double(j, trace_seconds(t, x.max_late));
	if (report_is_charm(a)) {
		report_charm_json_timeline(j, a, g->ph, tl);
	} else {
		json_key(j, "waited_s"); json_double(j, trace_seconds(t, x.waited));
		json_key(j, "made_wait_s"); json_double(j, trace_seconds(t, x.delay));
	}
	json_end_object(j);
}

/* A partition in the JSON report (report_json_items: each Charm++
 * partition's PE work reads its lops) */
struct part_items {
	const struct analysis *a;
	const struct report_phases *ph;
	const struct analysis_part *parts;
};

static void
part_item(struct json *j, void *ctx, uint32_t p)
{
	const struct part_items *g = ctx;
	const struct analysis *a = g->a;
	const struct report_phases *ph = g->ph;
	const struct analysis_part *parts = g->parts;
	if (!kept_part(ph, p))
		return;
	json_begin_object(j);
	json_key(j, "index"); json_uint(j, p);
	json_key(j, "name");
	if (part_name(ph, p))
		json_string(j, part_name(ph, p));
	else
		json_null(j);
	json_key(j, "step_first"); json_uint(j, parts[p].step_first);
	json_key(j, "step_count"); json_uint(j, parts[p].step_count);
	json_key(j, "ranks"); json_uint(j, parts[p].ranks);
	json_key(j, "operations"); json_uint(j, parts[p].comm_count);
	json_key(j, "leap"); json_uint(j, parts[p].leap);
	json_key(j, "phase");
	if (parts[p].phase == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, parts[p].phase);
	uint32_t ns;
	const uint32_t *succ = analysis_part_succ(a, p, &ns);
	json_key(j, "successors");
	json_begin_array(j);
	for (uint32_t i = 0; i < ns; i++)
		json_uint(j, succ[i]);
	json_end_array(j);
	const struct clustering *c = analysis_clustering(a, p);
	if (c) {
		json_key(j, "clusters");
		json_begin_array(j);
		for (uint32_t k = 0; k < c->n_clusters; k++) {
			json_begin_object(j);
			json_key(j, "medoid"); json_uint(j, c->medoid[k]);
			json_key(j, "ranks");
			json_begin_array(j);
			for (uint32_t i = 0; i < c->n_ranks; i++)
				if (c->cluster[i] == k)
					json_uint(j, c->ranks[i]);
			json_end_array(j);
			json_end_object(j);
		}
		json_end_array(j);
	}
	if (report_is_charm(a))
		report_charm_json_part(j, a, p);
	json_end_object(j);
}

static void
write_json(const struct analysis *a, const struct report_phases *ph, FILE *out)
{
	const struct trace *t = analysis_trace(a);
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_stats *st = analysis_stats(a);
	const struct analysis_verify *v = analysis_verify(a);
	uint32_t n_parts, n_tl, n_hot;
	const struct analysis_part *parts = analysis_parts(a, &n_parts);
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	trace_timelines(t, &n_tl);
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "trace"); json_string(&j, trace_info(t)->path);
	summary_json_warnings(&j, trace_info(t));
	json_key(&j, "options");
	json_begin_object(&j);
	json_key(&j, "coalesce_isends"); json_bool(&j, o->coalesce_isends);
	json_key(&j, "waitall_merge"); json_bool(&j, o->waitall_merge);
	json_key(&j, "leap_merge"); json_bool(&j, o->leap_merge);
	json_key(&j, "leap_factor"); json_double(&j, o->leap_factor);
	json_key(&j, "leap_force"); json_bool(&j, o->leap_force);
	json_key(&j, "global_step_merge"); json_bool(&j, o->global_step_merge);
	json_key(&j, "match_size"); json_bool(&j, o->match_size);
	json_key(&j, "auto_merge"); json_bool(&j, o->auto_merge);
	json_key(&j, "sender_progress"); json_bool(&j, o->sender_progress);
	json_key(&j, "include_startup"); json_bool(&j, o->startup);
	json_key(&j, "caller_merge"); json_bool(&j, o->caller_merge);
	json_key(&j, "reorder"); json_bool(&j, o->reorder);
	json_key(&j, "phase_rules"); json_uint(&j, o->n_phases);
	json_key(&j, "clusters"); json_uint(&j, o->clusters);
	if (report_is_charm(a))
		report_charm_json_options(&j, a);
	json_end_object(&j);
	json_choices(&j, a);
	json_key(&j, "operations"); json_uint(&j, analysis_lop_count(a));
	json_key(&j, "coalesced_isends"); json_uint(&j, st->coalesced_isends);
	json_key(&j, "steps"); json_uint(&j, analysis_step_count(a));
	json_key(&j, "partition_counts");
	json_begin_object(&j);
	json_key(&j, "messages_and_collectives"); json_uint(&j, st->partitions_initial);
	json_key(&j, "waitall"); json_uint(&j, st->partitions_waitall);
	json_key(&j, "cycles"); json_uint(&j, st->partitions_scc);
	json_key(&j, "leaps"); json_uint(&j, st->partitions_leap);
	json_key(&j, "final"); json_uint(&j, st->partitions);
	json_end_object(&j);
	if (report_is_charm(a))
		report_charm_json_counts(&j, a);
	json_key(&j, "verifier");
	json_begin_object(&j);
	json_key(&j, "passed"); json_bool(&j, analysis_verified(a));
	json_key(&j, "messages_checked"); json_uint(&j, v->messages_checked);
	json_key(&j, "message_order"); json_uint(&j, v->message_order);
	json_key(&j, "timeline_order"); json_uint(&j, v->timeline_order);
	json_key(&j, "collective_split"); json_uint(&j, v->collective_split);
	json_key(&j, "partition_overlap"); json_uint(&j, v->partition_overlap);
	json_key(&j, "cross_partition"); json_uint(&j, v->cross_partition);
	json_key(&j, "relaxed"); json_uint(&j, v->relaxed);
	json_key(&j, "block_order"); json_uint(&j, v->block_order);
	json_end_object(&j);
	json_key(&j, "partitions");
	json_begin_array(&j);
	struct part_items pi = { a, ph, parts };
	report_json_items(&j, n_parts, part_item, &pi);
	json_end_array(&j);
	json_key(&j, "iterations");
	if (report_iter_json(a, ph, &j))
		report_json_not_shown(&j);
	json_key(&j, "hotspot_metric"); json_string(&j, analysis_hotspot_metric(a));
	json_key(&j, "hotspots");
	json_begin_array(&j);
	for (uint32_t i = 0; i < n_hot; i++)
		if (kept_lop(a, ph, hot[i]))
			json_lop(&j, a, hot[i]);
	json_end_array(&j);
	if (!report_is_charm(a))
		report_explain_json(&j, a, ph);
	report_hybrid_json(&j, a);
	with_path(a, NULL, &j, 0, ph);
	json_key(&j, "timelines");
	json_begin_array(&j);
	struct tl_items ti = { a, ph };
	report_json_items(&j, n_tl, tl_item, &ti);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

static void
csv_lop(struct csv_buf *b, const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	const uint32_t u[4] = { analysis_lop_timeline(a, l), analysis_lop_step(a, l),
				analysis_lop_local_step(a, l), analysis_lop_part(a, l) };
	for (int k = 0; k < 4; k++)
		csv_u32(b, k ? ',' : 0, u[k]);
	csv_text(b, ',', trace_op_kind_name(analysis_lop_kind(a, l)));
	csv_str(b, ',', report_lop_region(a, l));
	csv_str(b, ',', report_lop_in(a, l));
	const uint64_t x[5] = { analysis_lop_enter(a, l), analysis_lop_exit(a, l), analysis_lop_lateness(a, l),
				analysis_lop_diff(a, l), analysis_lop_global_lateness(a, l) };
	for (int k = 0; k < 5; k++)
		csv_f9(b, ',', trace_seconds(t, x[k]));
	csv_text(b, ',', analysis_cause_name(analysis_lop_cause(a, l)));
	csv_int(b, ',', analysis_lop_startup(a, l));
	csv_opt(b, ',', iterations_of_lop(a, l));
	if (report_is_charm(a))
		report_charm_csv_lop(b, a, l);
	csv_char(b, '\n');
}

/* The ops or hotspots table's rows: lops[i], or lop i without a list */
struct lop_rows {
	const struct analysis *a;
	const struct report_phases *ph;
	const uint32_t *lops;
};

static void
lop_row(struct csv_buf *b, void *ctx, uint32_t i)
{
	const struct lop_rows *r = ctx;
	uint32_t l = r->lops ? r->lops[i] : i;
	if (kept_lop(r->a, r->ph, l))
		csv_lop(b, r->a, l);
}

/* A table's header, with the Charm++ columns appended for Charm++. */
static void
csv_header(FILE *out, const struct analysis *a, const char *mpi, const char *charm)
{
	fputs(mpi, out);
	if (report_is_charm(a))
		fputs(charm, out);
	fputc('\n', out);
}

static int
write_csv(const struct analysis *a, const struct report_phases *ph, FILE *out,
	  enum report_table table)
{
	const struct trace *t = analysis_trace(a);
	static const char lop_header[] =
		"rank,step,local_step,partition,kind,region,in,enter_s,exit_s,lateness_s,diff_s,global_lateness_s,cause,startup,"
		"iteration";
	switch (table) {
	case TABLE_HOTSPOTS: {
		uint32_t n;
		const uint32_t *hot = analysis_hotspots(a, &n);
		csv_header(out, a, lop_header, report_charm_csv_lop_header);
		struct lop_rows r = { a, ph, hot };
		report_csv_rows(out, n, lop_row, &r);
		break;
	}
	case TABLE_OPS: {
		csv_header(out, a, lop_header, report_charm_csv_lop_header);
		struct lop_rows r = { a, ph, NULL };
		report_csv_rows(out, analysis_lop_count(a), lop_row, &r);
		break;
	}
	case TABLE_PARTITIONS: {
		uint32_t n;
		const struct analysis_part *parts = analysis_parts(a, &n);
		csv_header(out, a, "partition,step_first,step_count,ranks,operations,leap,phase,name",
			   report_charm_csv_part_header);
		for (uint32_t p = 0; p < n; p++) {
			if (!kept_part(ph, p))
				continue;
			fprintf(out, "%u,%u,%u,%u,%u,%u,", p, parts[p].step_first, parts[p].step_count,
				parts[p].ranks, parts[p].comm_count, parts[p].leap);
			if (parts[p].phase != TRACE_NONE)
				fprintf(out, "%u", parts[p].phase);
			fputc(',', out);
			if (part_name(ph, p))
				report_csv_str(out, part_name(ph, p));
			if (report_is_charm(a))
				report_charm_csv_part(out, a, p);
			fputc('\n', out);
		}
		break;
	}
	case TABLE_ITERATIONS:
		return report_iter_csv(a, ph, out);
	case TABLE_WAITS: case TABLE_DELAYS: case TABLE_OUTLIERS: case TABLE_PROBLEMS:
		report_explain_csv(out, a, ph, table);
		break;
	case TABLE_CRITICAL:
		return with_path(a, out, NULL, 1, ph);
	case TABLE_LANE_WAITS:
		return report_hybrid_csv(out, a);
	case TABLE_TIMELINES: {
		uint32_t n;
		trace_timelines(t, &n);
		csv_header(out, a, report_is_charm(a) ? "rank,lateness_s,created_s,max_lateness_s"
			   : "rank,lateness_s,created_s,max_lateness_s,waited_s,made_wait_s",
			   report_charm_csv_timeline_header);
		for (uint32_t tl = 0; tl < n; tl++) {
			struct tl_totals x;
			timeline_totals(a, ph, tl, &x);
			fprintf(out, "%u,%.9f,%.9f,%.9f", tl, trace_seconds(t, x.late),
				trace_seconds(t, x.diff), trace_seconds(t, x.max_late));
			if (!report_is_charm(a))
				fprintf(out, ",%.9f,%.9f", trace_seconds(t, x.waited), trace_seconds(t, x.delay));
			if (report_is_charm(a))
				report_charm_csv_timeline(out, a, ph, tl);
			fputc('\n', out);
		}
		break;
	}
	}
	return 0;
}

int
report_write(const struct analysis *a, FILE *out, enum report_format fmt, enum report_table table,
	     const struct report_phases *ph)
{
	int rc = 0;
	if (fmt == REPORT_JSON)
		write_json(a, ph, out);
	else if (fmt == REPORT_CSV)
		rc = write_csv(a, ph, out, table);
	else {
		write_text(a, ph, out);
		with_path(a, out, NULL, 0, ph);    /* a note in its place */
	}
	return ferror(out) ? ERR_IO : rc;
}
