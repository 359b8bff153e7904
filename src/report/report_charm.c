/* report_charm.c — `skein analyze` on a Charm++ run: the text report, and
 * the fields the JSON and CSV writers (report.c) add to the MPI schema.
 *
 * Chares take the place of ranks (the "rank" fields keep the timeline
 * id, so a script reads both paradigms alike); phases are application or
 * runtime phases (seed 004 §3.1); hotspots are ranked by differential
 * duration, and every operation also carries its idle experienced and its
 * PE's imbalance (§4). */
#include "report_impl.h"
#include "summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/charm.h"
#include "report_iter.h"

int
report_is_charm(const struct analysis *a)
{
	return trace_info(analysis_trace(a))->paradigm == PARADIGM_CHARM;
}

static const char *
part_kind(const struct analysis *a, uint32_t p)
{
	uint32_t n;
	const struct analysis_part *parts = analysis_parts(a, &n);
	if (!parts[p].comm_count)
		return "none";
	return parts[p].runtime ? "runtime" : "application";
}

/* The entry method a phase is named by, or "-". */
static const char *
phase_entry(const struct analysis *a, uint32_t p)
{
	const struct trace *t = analysis_trace(a);
	uint32_t r = analysis_part_region(a, p);
	return r == TRACE_NONE ? "-" : trace_str(t, trace_regions(t, NULL)[r].name);
}

struct chare_totals {
	uint64_t dur, diff, idle, max_diff;
};

static void
chare_totals(const struct analysis *a, const struct report_phases *ph, uint32_t tl,
	     struct chare_totals *x)
{
	uint32_t first, count;
	analysis_timeline_lops(a, tl, &first, &count);
	memset(x, 0, sizeof *x);
	for (uint32_t l = first; l < first + count; l++) {
		if (!kept_lop(a, ph, l))
			continue;
		uint64_t d = analysis_lop_diff_duration(a, l);
		x->dur += analysis_lop_duration(a, l);
		x->diff += d;
		x->idle += analysis_lop_idle_experienced(a, l);
		if (d > x->max_diff)
			x->max_diff = d;
	}
}

/* Every chare's totals, on every core (report_each) */
struct chare_job {
	const struct analysis *a;
	const struct report_phases *ph;
	struct chare_totals *x;
};

static void
chare_totals_of(void *ctx, uint32_t tl)
{
	const struct chare_job *g = ctx;
	chare_totals(g->a, g->ph, tl, &g->x[tl]);
}

static const char *
chare_label(const struct analysis *a, uint32_t tl, char *buf, size_t n)
{
	return trace_chare_label(analysis_trace(a), tl, buf, n);
}

/* The entry method a lop is a piece of, or "(creation)" for a creation
 * recorded outside any execution. */
static const char *
entry_of(const struct analysis *a, uint32_t l)
{
	const char *r = report_lop_region(a, l);
	return *r ? r : "(creation)";
}

void
report_charm_text(const struct analysis *a, const struct report_phases *ph, FILE *out)
{
	const struct trace *t = analysis_trace(a);
	const struct trace_info *info = trace_info(t);
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_stats *st = analysis_stats(a);
	const struct analysis_verify *v = analysis_verify(a);
	char b1[32], b2[32], b3[32], b4[32], label[96], safe[256], safe2[256];
	uint32_t n_parts, n_tl;
	const struct analysis_part *parts = analysis_parts(a, &n_parts);
	trace_timelines(t, &n_tl);

	fprintf(out, "trace         %s\n", text_safe(info->path, safe, sizeof safe));
	fprintf(out, "paradigm      %s (Projections format %u.%u), %u PEs, %u chares\n",
		text_safe(info->creator ? info->creator : "Charm++", safe, sizeof safe), info->version[0],
		info->version[1],
		trace_pe_count(t), n_tl);
	summary_warnings_text(out, t);     /* what reading it noticed */
	fprintf(out, "options       ");
	int first = 1;
	on_off(out, "reorder", o->charm_reorder, &first);
	on_off(out, "sdag", o->charm_sdag, &first);
	on_off(out, "repair", o->charm_repair, &first);
	on_off(out, "infer", o->charm_infer, &first);
	on_off(out, "leap-merge", o->charm_leap_merge, &first);
	if (o->clusters)
		fprintf(out, ", clusters %u", o->clusters);
	fputc('\n', out);
	fprintf(out, "operations    %u (entry-method executions, split after each send)\n",
		analysis_lop_count(a));
	fprintf(out, "phases        %u (serial blocks %u, dependencies %u, repair %u, inferred %u, "
		"leaps %u; %u phase dependencies added)\n", st->partitions, st->charm_initial,
		st->charm_dependency, st->charm_repair, st->charm_infer, st->charm_leap,
		st->charm_edges);
	fprintf(out, "steps         %u global\n", analysis_step_count(a));
	if (analysis_verified(a))
		fprintf(out, "verifier      passed (%" PRIu64 " messages checked)\n", v->messages_checked);
	else
		fprintf(out, "verifier      FAILED: %" PRIu64 " message order, %" PRIu64
			" chare order, %" PRIu64 " block order, %" PRIu64 " phase overlaps, %" PRIu64
			" cross-phase\n", v->message_order, v->timeline_order, v->block_order,
			v->partition_overlap, v->cross_partition);
	if (v->relaxed)
		fprintf(out, "note          %" PRIu64 " orderings implied by the records formed cycles "
			"and were broken at the earliest operation\n", v->relaxed);
	report_unused_text(a, out);
	if (report_iter_text(a, ph, out))      /* after the iterations' summary */
		fputs("              their table not shown: out of memory\n", out);

	fprintf(out, "\n%-6s %-12s %-11s %7s %7s %5s %12s  %s\n", "phase", "kind", "steps", "chares",
		"events", "leap", "imbalance", "entry method most of its events ran");
	for (uint32_t p = 0; p < n_parts; p++) {
		if (!kept_part(ph, p))
			continue;
		char span[32];
		snprintf(span, sizeof span, "%u-%u", parts[p].step_first,
			 parts[p].step_first + parts[p].step_count - 1);
		fprintf(out, "%-6u %-12s %-11s %7u %7u %5u %12s  %s\n", p, part_kind(a, p), span,
			parts[p].ranks, parts[p].comm_count, parts[p].leap,
			trace_fmt_duration(t, analysis_part_imbalance(a, p), b1, sizeof b1),
			text_safe(phase_entry(a, p), safe, sizeof safe));
	}

	uint32_t n_hot;
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	fprintf(out, "\nhotspots (largest differential duration first)\n");
	fprintf(out, "  duration beyond the shortest run of the same entry method at the same step of\n"
		"  the phase; idle: the idle time on its PE it waited through; imbalance: its PE's\n"
		"  work in the phase beyond the least loaded PE's\n");
	if (o->startup)
		fprintf(out, "  every operation ranked, the runtime's and the set-up's too (--startup)\n");
	else if (st->startup_hidden)
		fprintf(out, "  the application's own work: %u operation%s of the runtime's entries,\n"
			"  constructors and the leading phase that took longer than their peers left\n"
			"  out (--startup ranks them)\n",
			st->startup_hidden, st->startup_hidden == 1 ? "" : "s");
	/* the chares' column as wide as the rows shown need, 16 to 32 */
	int cw = 16;
	for (uint32_t i = 0; i < n_hot; i++)
		if (kept_lop(a, ph, hot[i]))
			cw = report_col_grow(cw, chare_label(a, analysis_lop_timeline(a, hot[i]), label,
							     sizeof label), 32);
	fprintf(out, "%3s %s %3s %6s %5s %10s %10s %10s %10s  %s\n", "#", text_safe_pad("chare", cw, safe, sizeof safe),
		"PE", "step", "phase", "duration", "diff.dur", "idle", "imbalance", "entry method");
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n_hot; i++) {
		uint32_t l = hot[i];
		if (!kept_lop(a, ph, l))
			continue;
		shown++;
		fprintf(out, "%3u %s %3u %6u %5u %10s %10s %10s %10s  %s\n", shown,
			text_fit(chare_label(a, analysis_lop_timeline(a, l), label, sizeof label), cw, safe,
				 sizeof safe),
			analysis_lop_pe(a, l), analysis_lop_step(a, l), analysis_lop_part(a, l),
			trace_fmt_duration(t, analysis_lop_duration(a, l), b1, sizeof b1),
			trace_fmt_duration(t, analysis_lop_diff_duration(a, l), b2, sizeof b2),
			trace_fmt_duration(t, analysis_lop_idle_experienced(a, l), b3, sizeof b3),
			trace_fmt_duration(t, analysis_lop_imbalance(a, l), b4, sizeof b4),
			text_safe(entry_of(a, l), safe2, sizeof safe2));
	}
	if (!shown)
		fputs("  none: every operation took as long as the shortest at its step\n", out);

	const struct trace_chare *ch = trace_chares(t, NULL);
	/* the names' column as wide as the longest needs, 20 to 40 */
	cw = 20;
	for (uint32_t tl = 0; tl < n_tl; tl++)
		cw = report_col_grow(cw, chare_label(a, tl, label, sizeof label), 40);
	fprintf(out, "\n%-6s %s %4s %12s %14s %14s\n", "chare", text_safe_pad("name", cw, safe, sizeof safe), "PE",
		"duration", "diff.duration", "idle exp.");
	struct chare_job g = { a, ph, malloc(((size_t)n_tl + 1) * sizeof *g.x) };
	if (g.x)
		report_each(n_tl, chare_totals_of, &g);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		struct chare_totals x;
		if (g.x)
			x = g.x[tl];
		else
			chare_totals(a, ph, tl, &x);
		fprintf(out, "%-6u %s %4u %12s %14s %14s\n", tl,
			text_fit(chare_label(a, tl, label, sizeof label), cw, safe, sizeof safe), ch[tl].pe,
			trace_fmt_duration(t, x.dur, b1, sizeof b1),
			trace_fmt_duration(t, x.diff, b2, sizeof b2),
			trace_fmt_duration(t, x.idle, b3, sizeof b3));
	}
	free(g.x);
}

void
report_charm_json_options(struct json *j, const struct analysis *a)
{
	const struct analysis_opts *o = analysis_options(a);
	json_key(j, "charm_reorder"); json_bool(j, o->charm_reorder);
	json_key(j, "charm_sdag"); json_bool(j, o->charm_sdag);
	json_key(j, "charm_repair"); json_bool(j, o->charm_repair);
	json_key(j, "charm_infer"); json_bool(j, o->charm_infer);
	json_key(j, "charm_leap_merge"); json_bool(j, o->charm_leap_merge);
}

void
report_charm_json_counts(struct json *j, const struct analysis *a)
{
	const struct analysis_stats *st = analysis_stats(a);
	json_key(j, "charm_partition_counts");
	json_begin_object(j);
	json_key(j, "serial_blocks"); json_uint(j, st->charm_initial);
	json_key(j, "dependencies"); json_uint(j, st->charm_dependency);
	json_key(j, "repair"); json_uint(j, st->charm_repair);
	json_key(j, "inferred"); json_uint(j, st->charm_infer);
	json_key(j, "leaps"); json_uint(j, st->charm_leap);
	json_key(j, "final"); json_uint(j, st->partitions);
	json_key(j, "dependencies_added"); json_uint(j, st->charm_edges);
	json_end_object(j);
}

void
report_charm_json_part(struct json *j, const struct analysis *a, uint32_t p)
{
	const struct trace *t = analysis_trace(a);
	json_key(j, "kind"); json_string(j, part_kind(a, p));
	json_key(j, "entry");
	if (analysis_part_region(a, p) == TRACE_NONE)
		json_null(j);
	else
		json_string(j, phase_entry(a, p));
	json_key(j, "imbalance_s"); json_double(j, trace_seconds(t, analysis_part_imbalance(a, p)));
	/* each PE's work in the phase: the imbalance per PE */
	uint32_t n_pes = trace_pe_count(t);
	uint64_t *work = malloc(((size_t)n_pes + 1) * sizeof *work);
	json_key(j, "pe_work_s");
	json_begin_array(j);
	if (work) {
		analysis_part_pe_work(a, p, work, n_pes);
		for (uint32_t pe = 0; pe < n_pes; pe++)
			json_double(j, trace_seconds(t, work[pe]));
	}
	json_end_array(j);
	free(work);
}

void
report_charm_json_lop(struct json *j, const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	char label[96];
	json_key(j, "chare"); json_string(j, chare_label(a, analysis_lop_timeline(a, l), label, sizeof label));
	json_key(j, "entry"); json_string(j, entry_of(a, l));
	json_key(j, "pe"); json_uint(j, analysis_lop_pe(a, l));
	json_key(j, "duration_s"); json_double(j, trace_seconds(t, analysis_lop_duration(a, l)));
	json_key(j, "diff_duration_s"); json_double(j, trace_seconds(t, analysis_lop_diff_duration(a, l)));
	json_key(j, "idle_experienced_s");
	json_double(j, trace_seconds(t, analysis_lop_idle_experienced(a, l)));
	json_key(j, "imbalance_s"); json_double(j, trace_seconds(t, analysis_lop_imbalance(a, l)));
}

void
report_charm_json_timeline(struct json *j, const struct analysis *a, const struct report_phases *ph,
			   uint32_t tl)
{
	const struct trace *t = analysis_trace(a);
	const struct trace_chare *ch = &trace_chares(t, NULL)[tl];
	char label[96];
	struct chare_totals x;
	chare_totals(a, ph, tl, &x);
	json_key(j, "chare"); json_string(j, chare_label(a, tl, label, sizeof label));
	json_key(j, "kind"); json_string(j, trace_chare_kind_name((enum trace_chare_kind)ch->kind));
	json_key(j, "pe"); json_uint(j, ch->pe);
	json_key(j, "duration_s"); json_double(j, trace_seconds(t, x.dur));
	json_key(j, "diff_duration_s"); json_double(j, trace_seconds(t, x.diff));
	json_key(j, "max_diff_duration_s"); json_double(j, trace_seconds(t, x.max_diff));
	json_key(j, "idle_experienced_s"); json_double(j, trace_seconds(t, x.idle));
}

const char report_charm_csv_lop_header[] =
	",chare,entry,pe,duration_s,diff_duration_s,idle_experienced_s,imbalance_s";
const char report_charm_csv_part_header[] = ",kind,entry,imbalance_s";
const char report_charm_csv_timeline_header[] =
	",chare,pe,duration_s,diff_duration_s,idle_experienced_s";

void
report_charm_csv_lop(struct csv_buf *b, const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	uint32_t tl = analysis_lop_timeline(a, l);
	csv_char(b, ',');
	if (b->memo_key != tl + 1) {
		/* the chare's field, once for its run of lops (its label is
		 * under 96 bytes, so quoted under 256) */
		char label[96];
		struct csv_buf m = { .p = b->memo, .cap = sizeof b->memo, .fixed = 1 };
		csv_str(&m, 0, chare_label(a, tl, label, sizeof label));
		b->memo_n = (uint32_t)m.n;
		b->memo_key = m.bad ? 0 : tl + 1;
		if (m.bad)
			csv_str(b, 0, label);
	}
	if (b->memo_key)
		csv_put(b, b->memo, b->memo_n);
	csv_str(b, ',', entry_of(a, l));
	csv_u32(b, ',', analysis_lop_pe(a, l));
	const uint64_t x[4] = { analysis_lop_duration(a, l), analysis_lop_diff_duration(a, l),
				analysis_lop_idle_experienced(a, l), analysis_lop_imbalance(a, l) };
	for (int k = 0; k < 4; k++)
		csv_f9(b, ',', trace_seconds(t, x[k]));
}

void
report_charm_csv_part(FILE *out, const struct analysis *a, uint32_t p)
{
	fprintf(out, ",%s,", part_kind(a, p));
	if (analysis_part_region(a, p) != TRACE_NONE)
		report_csv_str(out, phase_entry(a, p));
	fprintf(out, ",%.9f", trace_seconds(analysis_trace(a), analysis_part_imbalance(a, p)));
}

void
report_charm_csv_timeline(FILE *out, const struct analysis *a, const struct report_phases *ph,
			  uint32_t tl)
{
	const struct trace *t = analysis_trace(a);
	char label[96];
	struct chare_totals x;
	chare_totals(a, ph, tl, &x);
	fputc(',', out);
	report_csv_str(out, chare_label(a, tl, label, sizeof label));
	fprintf(out, ",%u,%.9f,%.9f,%.9f", trace_chares(t, NULL)[tl].pe, trace_seconds(t, x.dur),
		trace_seconds(t, x.diff), trace_seconds(t, x.idle));
}
