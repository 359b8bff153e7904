/* diff_report.c — `skein diff` writers. */
#include "diff_report.h"
#include "diff_named.h"
#include "report_impl.h"
#include "report_iter.h"
#include "report_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "analysis/explain/explain.h"
#include "base/fmt.h"
#include "base/hash.h"
#include "base/json.h"
#include "base/text.h"
#include "model/charm.h"

#define TEXT_PARTS 20

int
diff_report_table_parse(const char *name, enum diff_table *t)
{
	static const char *const names[] = { "ops", "partitions", "regions", "changes" };
	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0) {
			*t = (enum diff_table)i;
			return 0;
		}
	return ERR_USAGE;
}

static const char *
plain_s(double s, char *buf, size_t n)
{
	return fmt_seconds(s, buf, n);
}

static double
lop_secs(const struct analysis *a, uint64_t ticks)
{
	return trace_seconds(analysis_trace(a), ticks);
}

/* ---- text ---- */

static void
run_line(FILE *out, const char *label, const struct analysis *a)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_tl, np;
	trace_timelines(t, &n_tl);
	analysis_parts(a, &np);
	char n1[256];
	fprintf(out, "%-13s %s (%u ranks, %u partitions, %u steps, ", label, text_safe(trace_info(t)->path, n1, sizeof n1),
		n_tl, np, analysis_step_count(a));
	uint32_t it = iterations_get(a)->count;
	if (it)
		fprintf(out, "%u iteration%s)\n", it, it == 1 ? "" : "s");
	else
		fputs("no iterations found)\n", out);
}

/* A row of the operations' tables: the AFTER lop's place and cause, or
 * the BEFORE lop's (before 1: one that nothing paired, the way back). */
static void
op_row_in(FILE *out, const struct diff *d, uint32_t rank, const struct diff_op *op, int before)
{
	const struct analysis *A = before ? d->before : d->after;
	char b1[32], b2[32], b3[32], it[16], n1[256], n2[256];
	uint32_t l = before ? op->before : op->after;
	fprintf(out, "%3u %5u %6u %5u %5s %s %s %11s %11s %11s  %s\n", rank,
		analysis_lop_timeline(A, l), analysis_lop_step(A, l), analysis_lop_part(A, l),
		report_iter_of(A, l, it, sizeof it), text_fit(report_lop_name(A, l), 16, n1, sizeof n1),
		text_fit(report_lop_in(A, l), 14, n2, sizeof n2),
		fmt_change(op->d_diff, b1, sizeof b1), fmt_change(op->d_late, b2, sizeof b2),
		fmt_change(op->d_duration, b3, sizeof b3),
		analysis_cause_name(analysis_lop_cause(A, l)));
}

static void
op_row(FILE *out, const struct diff *d, uint32_t rank, const struct diff_op *op)
{
	op_row_in(out, d, rank, op, 0);
}

static void
op_table(FILE *out, const struct diff *d, const char *title, const uint32_t *list, uint32_t n,
	 uint32_t top)
{
	fprintf(out, "\n%s\n", title);
	if (!n) {
		fputs("  none\n", out);
		return;
	}
	fprintf(out, "%3s %5s %6s %5s %5s %-16s %-14s %11s %11s %11s  %s\n", "#", "rank", "step",
		"part", "iter", "operation", "in", "diff", "lateness", "duration", "cause (after)");
	for (uint32_t i = 0; i < n && i < top; i++)
		op_row(out, d, i + 1, &d->ops[list[i]]);
	if (n > top)
		fprintf(out, "(%u more; all: --format csv)\n", n - top);
}

/* The unpaired operations that created more than their call did at most
 * in the stretch of the other run (diff.h): AFTER's, worse; BEFORE's,
 * better (the way back, its rows the BEFORE run's); nothing when none. */
static void
unpaired_table(FILE *out, const struct diff *d, int better, uint32_t top)
{
	uint32_t n = better ? d->n_unpaired_better : d->n_unpaired;
	const struct diff_op *v = better ? d->unpaired_better : d->unpaired;
	if (!n)
		return;
	if (better)
		fprintf(out, "\nbetter where nothing paired (partitions of changed structure: the operations before that "
			"created more than the most the rank's same call created in that stretch after; largest first)\n");
	else
		fprintf(out, "\nworse where nothing paired (partitions of changed structure: lateness created beyond the "
			"most the rank's same call created in that stretch before; largest first)\n");
	fprintf(out, "%3s %5s %6s %5s %5s %-16s %-14s %11s %11s %11s  %s\n", "#", "rank", "step",
		"part", "iter", "operation", "in", "diff", "lateness", "duration", better ? "cause (before)" : "cause (after)");
	for (uint32_t i = 0; i < n && i < top; i++)
		op_row_in(out, d, i + 1, &v[i], better);
	if (n > top)
		fprintf(out, "(%u more; all: --format json)\n", n - top);
}

/* "; rank 2's MPI_Send (step 3633, took 369.8 ms) held it up" when the
 * AFTER run's problems say another rank held lop up. */
static void
held_up_text(FILE *out, const struct analysis *A, uint32_t l, const char *lead)
{
	uint32_t by = diff_named_held_up(A, l);
	char b1[32], n1[256];
	if (by != TRACE_NONE)
		fprintf(out, "%srank %u's %s (step %u, took %s) held it up", lead, analysis_lop_timeline(A, by),
			text_safe(report_lop_name(A, by), n1, sizeof n1), analysis_lop_step(A, by),
			trace_fmt_duration(analysis_trace(A), analysis_lop_duration(A, by), b1, sizeof b1));
}

#define AS_MUCH_SHOWN 4

static void
slowdown_text(FILE *out, const struct diff *d, const struct named *nm)
{
	struct slow sl = diff_named_slowdown(d, nm);
	const struct diff_op *s = sl.op;
	if (!s)
		return;
	const struct analysis *A = d->after;
	uint32_t l = s->after;
	char b1[32], b2[32], b3[32], it[16], n1[256], n2[256];
	fprintf(out, "largest %sslowdown: rank %u step %u iteration %s %s%s%s: duration %s (%s, before %s), "
		"lateness %s", sl.other ? "other " : "", analysis_lop_timeline(A, l), analysis_lop_step(A, l),
		report_iter_of(A, l, it, sizeof it), text_safe(report_lop_name(A, l), n1, sizeof n1),
		report_lop_in(A, l)[0] ? " in " : "", text_safe(report_lop_in(A, l), n2, sizeof n2),
		fmt_change(s->d_duration, b1, sizeof b1),
		trace_fmt_duration(analysis_trace(A), analysis_lop_duration(A, l), b2, sizeof b2),
		trace_fmt_duration(analysis_trace(d->before), analysis_lop_duration(d->before, s->before), b3,
				   sizeof b3),
		fmt_change(s->d_late, n1, sizeof n1));
	if (sl.waited > 0)
		fprintf(out, "; it waited %s for the largest change", plain_s(sl.waited, b1, sizeof b1));
	uint32_t shown = 0, all = 0;
	for (uint32_t i = 0; i < d->n_ops; i++) {
		if (!diff_named_as_much(d, s, &d->ops[i]))
			continue;
		if (shown < AS_MUCH_SHOWN)
			fprintf(out, "%s%u", shown ? ", " : "; as much for rank ", analysis_lop_timeline(A, d->ops[i].after));
		shown += shown < AS_MUCH_SHOWN;
		all++;
	}
	if (all > shown)
		fprintf(out, " and %u more", all - shown);
	held_up_text(out, A, l, "; ");
	fputc('\n', out);
}

static void
largest(FILE *out, const struct diff *d, const struct named *nm, uint32_t top)
{
	const struct diff_op *op = nm->op;
	if (!op)
		return;
	/* the way back: the BEFORE operation nothing paired, its place */
	int way = diff_op_unpaired(d, op);
	const struct analysis *A = way == 2 ? d->before : d->after, *B = way == 2 ? d->after : d->before;
	uint32_t l = way == 2 ? op->before : op->after, o = way == 2 ? op->after : op->before;
	char b1[32], b2[32], it[16], n1[256], n2[256];
	fprintf(out, "\nlargest change: rank %u step %u%s iteration %s %s%s%s: differential lateness %s "
		"(%s), lateness %s\n", analysis_lop_timeline(A, l), analysis_lop_step(A, l), way == 2 ? " before" : "",
		report_iter_of(A, l, it, sizeof it), text_safe(report_lop_name(A, l), n1, sizeof n1),
		report_lop_in(A, l)[0] ? " in " : "", text_safe(report_lop_in(A, l), n2, sizeof n2),
		fmt_change(op->d_diff, b1, sizeof b1),
		analysis_cause_name(analysis_lop_cause(A, l)), fmt_change(op->d_late, b2, sizeof b2));
	if (way)
		fprintf(out, "  nothing paired it, the partitions around it having changed structure: the most rank %u's "
			"%s created in that stretch %s was %s, step %u\n", analysis_lop_timeline(A, l),
			text_safe(report_lop_name(A, l), n1, sizeof n1), way == 2 ? "after" : "before",
			plain_s(lop_secs(B, analysis_lop_diff(B, o)), b1, sizeof b1), analysis_lop_step(B, o));
	if (op->d_diff <= 0) {
		/* what held it up before, which the change took away */
		if (diff_named_held_up(d->before, op->before) != TRACE_NONE) {
			held_up_text(out, d->before, op->before, "  before, ");
			fputs(", as analyze's problems say\n", out);
		}
		return;
	}
	if (nm->held != TRACE_NONE) {
		held_up_text(out, A, l, "  ");
		fputs(", as analyze's problems say\n", out);
	}
	if (nm->culprit != TRACE_NONE) {
		const struct analysis_lost *lost = &nm->lost;
		char b3[32], b4[32], wn[256];
		fprintf(out, "  after, it created %s, of which %s was lost in the %u operations before it%s, the longest "
			"step %u %s (took %s)\n", trace_fmt_duration(analysis_trace(A), lost->created, b4, sizeof b4),
			trace_fmt_duration(analysis_trace(A), lost->before, b3, sizeof b3), l - lost->from,
			lost->capped ? " (no further looked at)" : "", analysis_lop_step(A, lost->culprit),
			text_safe(report_lop_name(A, lost->culprit), wn, sizeof wn),
			trace_fmt_duration(analysis_trace(A), analysis_lop_duration(A, lost->culprit), b1, sizeof b1));
	}
	const uint32_t *prop = nm->reached;
	uint32_t n = nm->n_reached;
	if (!n) {
		fputs("  its lateness reached no other operation\n", out);
		return;
	}
	uint32_t s0 = UINT32_MAX, s1 = 0, ranks = 0;
	uint32_t n_tl;
	trace_timelines(analysis_trace(A), &n_tl);
	uint8_t *seen = calloc(n_tl + 1, 1);
	double added = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = prop[i], s = analysis_lop_step(A, x), tl = analysis_lop_timeline(A, x);
		s0 = s < s0 ? s : s0;
		s1 = s > s1 ? s : s1;
		if (seen && !seen[tl]++)
			ranks++;
		added += d->after_op[x] != TRACE_NONE ? d->ops[d->after_op[x]].d_late : 0;
	}
	free(seen);
	fprintf(out, "  its lateness reached %u operation%s on %u rank%s, steps %u-%u (lateness grew by "
		"at least half of it; %s in all)\n", n, n == 1 ? "" : "s", ranks, ranks == 1 ? "" : "s", s0, s1,
		fmt_change(added, b1, sizeof b1));
	fprintf(out, "%5s %6s %5s %5s %-16s %-14s %11s %11s  %s\n", "rank", "step", "part", "iter",
		"operation", "in", "lateness", "change", "cause (after)");
	for (uint32_t i = 0; i < n && i < top; i++) {
		uint32_t x = prop[i];
		const struct diff_op *px = d->after_op[x] != TRACE_NONE ? &d->ops[d->after_op[x]] : NULL;
		fprintf(out, "%5u %6u %5u %5s %s %s %11s %11s  %s\n",
			analysis_lop_timeline(A, x), analysis_lop_step(A, x), analysis_lop_part(A, x),
			report_iter_of(A, x, it, sizeof it), text_fit(report_lop_name(A, x), 16, n1, sizeof n1),
			text_fit(report_lop_in(A, x), 14, n2, sizeof n2),
			plain_s(lop_secs(A, analysis_lop_lateness(A, x)), b1, sizeof b1),
			px ? fmt_change(px->d_late, b2, sizeof b2) : "(new)",
			analysis_cause_name(analysis_lop_cause(A, x)));
	}
	if (n > top)
		fprintf(out, "(%u more)\n", n - top);
}

static const char *
part_id(uint32_t p, char *buf, size_t n)
{
	if (p == TRACE_NONE)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%u", p);
	return buf;
}

static void
part_steps(const struct diff *d, const struct diff_part *P, char *buf, size_t n)
{
	uint32_t np;
	const struct analysis_part *pa = analysis_parts(d->after, &np);
	const struct analysis_part *pb = analysis_parts(d->before, &np);
	const struct analysis_part *x = P->after != TRACE_NONE ? &pa[P->after] : &pb[P->before];
	snprintf(buf, n, "%u-%u%s", x->step_first, x->step_first + x->step_count - 1,
		 P->after != TRACE_NONE ? "" : " (before)");
}

static const char *
region_by_hash(const struct analysis *a, uint32_t h)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n;
	const struct trace_region *r = trace_regions(t, &n);
	for (uint32_t i = 0; i < n; i++) {
		const char *s = trace_str(t, r[i].name);
		if ((uint32_t)hash_bytes(s, strlen(s)) == h)
			return s;
	}
	return "?";
}

static void
change_text(FILE *out, const struct diff *d, const struct diff_change *c)
{
	const char *where = c->in_after ? "only in after" : "only in before";
	char n1[256];
	if (c->is_message)
		fprintf(out, "    %u message%s %s: rank %u -> rank %u, tag %u\n", c->count,
			c->count == 1 ? "" : "s", where, c->sender, c->receiver, c->tag);
	else
		fprintf(out, "    %u call%s %s: rank %u %s (%s)\n", c->count, c->count == 1 ? "" : "s",
			where, c->sender, text_safe(region_by_hash(c->in_after ? d->after : d->before, c->tag), n1, sizeof n1),
			trace_op_kind_name((enum trace_op_kind)c->receiver));
}

static int
cmp_abs_late(const void *x, const void *y, const struct diff *d)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	double a = fabs(d->parts[i].a.late - d->parts[i].b.late);
	double b = fabs(d->parts[j].a.late - d->parts[j].b.late);
	if (a != b)
		return a > b ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void
sort_parts(uint32_t *v, uint32_t n, const struct diff *d)
{
	/* insertion sort: n is small (the text shows few) or nearly sorted */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && cmp_abs_late(&v[j], &v[j - 1], d) < 0; j--) {
			uint32_t x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

static int
write_text(const struct diff *d, FILE *out, uint32_t top)
{
	if (d->charm)
		return diff_report_charm_text(d, out, top);
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
	run_line(out, "before", d->before);
	run_line(out, "after", d->after);
	if (!d->same_ranks)
		fprintf(out, "ranks         %u -> %u: the rank counts differ; partitions are aligned by "
			"their calls alone and compared by their totals only\n", d->ranks_before,
			d->ranks_after);
	fprintf(out, "structure     %u partitions alike, %u changed, %u only before, %u only after\n",
		d->n_alike, d->n_changed, d->n_only_before, d->n_only_after);
	fprintf(out, "lateness      total %s -> %s (%s); created %s -> %s (%s)\n",
		plain_s(d->late_before, b1, sizeof b1), plain_s(d->late_after, b2, sizeof b2),
		fmt_change(d->late_after - d->late_before, b3, sizeof b3),
		plain_s(d->diff_before, b4, sizeof b4), plain_s(d->diff_after, b5, sizeof b5),
		fmt_change(d->diff_after - d->diff_before, b6, sizeof b6));
	if (d->same_ranks)
		fprintf(out, "operations    %u paired: %u created more lateness, %u less\n", d->n_ops,
			d->n_worse, d->n_better);

	struct named nm;
	int rc = diff_named_get(d, &nm);
	if (rc) {
		free(nm.reached);
		return rc;
	}
	largest(out, d, &nm, top);
	slowdown_text(out, d, &nm);
	free(nm.reached);
	if (d->same_ranks) {
		op_table(out, d, "worse (differential lateness grew; largest first)", d->worse,
			 d->n_worse, top);
		op_table(out, d, "better (differential lateness shrank; largest first)", d->better,
			 d->n_better, top);
		unpaired_table(out, d, 0, top);
		unpaired_table(out, d, 1, top);
	}

	if (d->n_changed || d->n_only_before || d->n_only_after) {
		fputs("\nstructure differences\n", out);
		for (uint32_t q = 0; q < d->n_parts; q++) {
			const struct diff_part *P = &d->parts[q];
			if (P->kind == DIFF_ALIKE)
				continue;
			char steps[48];
			part_steps(d, P, steps, sizeof steps);
			fprintf(out, "  %-11s partition %s before, %s after, steps %s: %u call%s before, "
				"%u after\n", diff_part_kind_name(P->kind), part_id(P->before, b1, sizeof b1),
				part_id(P->after, b2, sizeof b2), steps, P->b.ops, P->b.ops == 1 ? "" : "s",
				P->a.ops);
			for (uint32_t c = 0; c < d->n_changes; c++)
				if (d->changes[c].part == q)
					change_text(out, d, &d->changes[c]);
		}
	}

	/* partitions: the structural ones and the largest changes */
	uint32_t *rows = malloc(((size_t)d->n_parts + 1) * sizeof *rows);
	if (!rows)
		return ERR_NOMEM;
	uint32_t n = 0;
	for (uint32_t q = 0; q < d->n_parts; q++)
		rows[n++] = q;
	int cut = n > TEXT_PARTS;
	if (cut) {
		sort_parts(rows, n, d);
		n = TEXT_PARTS;
		for (uint32_t i = 1; i < n; i++)   /* back into step order */
			for (uint32_t j = i; j > 0 && rows[j] < rows[j - 1]; j--) {
				uint32_t x = rows[j];
				rows[j] = rows[j - 1];
				rows[j - 1] = x;
			}
	}
	fprintf(out, "\npartitions (total lateness%s)\n", cut ? "; the largest changes" : "");
	fprintf(out, "%6s %6s %-11s %-15s %11s %11s %11s\n", "before", "after", "kind", "steps",
		"before", "after", "change");
	for (uint32_t i = 0; i < n; i++) {
		const struct diff_part *P = &d->parts[rows[i]];
		char steps[48], x1[16], x2[16];
		part_steps(d, P, steps, sizeof steps);
		fprintf(out, "%6s %6s %-11s %-15s %11s %11s %11s\n", part_id(P->before, x1, sizeof x1),
			part_id(P->after, x2, sizeof x2), diff_part_kind_name(P->kind), steps,
			P->before != TRACE_NONE ? plain_s(P->b.late, b1, sizeof b1) : "-",
			P->after != TRACE_NONE ? plain_s(P->a.late, b2, sizeof b2) : "-",
			fmt_change(P->a.late - P->b.late, b3, sizeof b3));
	}
	free(rows);

	fputs("\nregions (total duration and lateness; largest change first)\n", out);
	fprintf(out, "%-26s %13s %11s %11s %11s %11s %11s\n", "region", "calls", "duration",
		"after", "change", "lateness", "after");
	for (uint32_t i = 0; i < d->n_regions && i < top; i++) {
		const struct diff_region *g = &d->regions[i];
		char calls[32], name[288], n1[256];
		snprintf(calls, sizeof calls, "%u -> %u", g->n_before, g->n_after);
		snprintf(name, sizeof name, "%s%s", g->computation ? "computation in " : "", text_safe(g->name, n1, sizeof n1));
		fprintf(out, "%s %13s %11s %11s %11s %11s %11s\n", text_fit(name, 26, n1, sizeof n1), calls,
			plain_s(g->dur_before, b1, sizeof b1), plain_s(g->dur_after, b2, sizeof b2),
			fmt_change(g->dur_after - g->dur_before, b3, sizeof b3),
			plain_s(g->late_before, b4, sizeof b4), plain_s(g->late_after, b5, sizeof b5));
	}
	if (d->n_regions > top)
		fprintf(out, "(%u more; all: --format csv --table regions)\n", d->n_regions - top);
	return 0;
}

/* ---- JSON ---- */

/* An operation's fields, inside an object the caller opens and closes. */
static void
json_op_fields(struct json *j, const struct diff *d, const struct diff_op *op)
{
	const struct analysis *A = d->after, *B = d->before;
	uint32_t la = op->after, lb = op->before, k = iterations_of_lop(A, la);
	json_key(j, "rank"); json_uint(j, analysis_lop_timeline(A, la));
	json_key(j, "kind"); json_string(j, trace_op_kind_name(analysis_lop_kind(A, la)));
	json_key(j, "region"); json_string(j, report_lop_name(A, la));
	json_key(j, "in"); json_string(j, report_lop_in(A, la));
	json_key(j, "step_before"); json_uint(j, analysis_lop_step(B, lb));
	json_key(j, "step_after"); json_uint(j, analysis_lop_step(A, la));
	json_key(j, "partition_before"); json_uint(j, analysis_lop_part(B, lb));
	json_key(j, "partition_after"); json_uint(j, analysis_lop_part(A, la));
	json_key(j, "iteration");
	if (k == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, k);
	json_key(j, "d_diff_s"); json_double(j, op->d_diff);
	json_key(j, "d_lateness_s"); json_double(j, op->d_late);
	json_key(j, "d_duration_s"); json_double(j, op->d_duration);
	json_key(j, "diff_after_s"); json_double(j, lop_secs(A, analysis_lop_diff(A, la)));
	json_key(j, "lateness_after_s"); json_double(j, lop_secs(A, analysis_lop_lateness(A, la)));
	json_key(j, "cause_before"); json_string(j, analysis_cause_name(analysis_lop_cause(B, lb)));
	json_key(j, "cause_after"); json_string(j, analysis_cause_name(analysis_lop_cause(A, la)));
	if (d->charm) {
		char label[96];
		json_key(j, "chare");
		json_string(j, trace_chare_label(analysis_trace(A), analysis_lop_timeline(A, la), label, sizeof label));
		json_key(j, "entry"); json_string(j, *report_lop_region(A, la) ? report_lop_region(A, la) : "(creation)");
		json_key(j, "pe"); json_uint(j, analysis_lop_pe(A, la));
		json_key(j, "d_diff_duration_s"); json_double(j, op->d_ddur);
		json_key(j, "d_idle_experienced_s"); json_double(j, op->d_idle);
		json_key(j, "diff_duration_after_s");
		json_double(j, lop_secs(A, analysis_lop_diff_duration(A, la)));
	}
}

static void
json_op(struct json *j, const struct diff *d, const struct diff_op *op)
{
	json_begin_object(j);
	json_op_fields(j, d, op);
	json_end_object(j);
}

/* Operations nothing paired (diff_unpaired.c), each with the most its
 * rank's same call created in the other run's stretch: the BEFORE run's
 * for the AFTER run's operations (worse), the AFTER run's for the
 * BEFORE run's (better: other_after). */
static void
json_unpaired(struct json *j, const struct diff *d, const char *key, const struct diff_op *v, uint32_t n,
	      int other_after)
{
	const struct analysis *other = other_after ? d->after : d->before;
	json_key(j, key);
	json_begin_array(j);
	for (uint32_t i = 0; i < n; i++) {
		json_begin_object(j);
		json_op_fields(j, d, &v[i]);
		json_key(j, other_after ? "after_most_diff_s" : "before_most_diff_s");
		json_double(j, lop_secs(other, analysis_lop_diff(other, other_after ? v[i].after : v[i].before)));
		json_end_object(j);
	}
	json_end_array(j);
}

static void
json_side(struct json *j, const char *key, const struct diff_side *s, int charm)
{
	json_key(j, key);
	json_begin_object(j);
	json_key(j, "lateness_s"); json_double(j, s->late);
	json_key(j, "created_s"); json_double(j, s->diff);
	json_key(j, "duration_s"); json_double(j, s->duration);
	json_key(j, "operations"); json_uint(j, s->ops);
	json_key(j, "messages"); json_uint(j, s->messages);
	if (charm) {
		json_key(j, "diff_duration_s"); json_double(j, s->ddur);
		json_key(j, "idle_experienced_s"); json_double(j, s->idle);
	}
	json_end_object(j);
}

static void
json_run(struct json *j, const char *key, const struct analysis *a)
{
	uint32_t n_tl, np;
	trace_timelines(analysis_trace(a), &n_tl);
	analysis_parts(a, &np);
	json_key(j, key);
	json_begin_object(j);
	json_key(j, "trace"); json_string(j, trace_info(analysis_trace(a))->path);
	json_key(j, "ranks"); json_uint(j, n_tl);
	json_key(j, "partitions"); json_uint(j, np);
	json_key(j, "steps"); json_uint(j, analysis_step_count(a));
	json_key(j, "iterations"); json_uint(j, iterations_get(a)->count);
	json_end_object(j);
}

/* "held_up_by": the operation held_up_by names (rank, step, region,
 * its duration), or null. */
static void
json_held_up(struct json *j, const struct analysis *A, uint32_t l)
{
	uint32_t by = diff_named_held_up(A, l);
	json_key(j, "held_up_by");
	if (by == TRACE_NONE) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_key(j, "rank"); json_uint(j, analysis_lop_timeline(A, by));
	json_key(j, "step"); json_uint(j, analysis_lop_step(A, by));
	json_key(j, "region"); json_string(j, report_lop_name(A, by));
	json_key(j, "duration_s"); json_double(j, lop_secs(A, analysis_lop_duration(A, by)));
	json_end_object(j);
}

/* The text's slowdown line, every fact of it: json_op's, the durations
 * after and before, how long it waited for the largest change, the
 * ranks whose operation at its step took as much longer (all of them;
 * the text names four), and whether a larger one was passed over as the
 * largest change's. */
static void
json_slowdown(struct json *j, const struct diff *d, const struct slow *sl)
{
	const struct diff_op *s = sl->op;
	json_begin_object(j);
	json_op_fields(j, d, s);
	json_key(j, "duration_after_s");
	json_double(j, lop_secs(d->after, analysis_lop_duration(d->after, s->after)));
	json_key(j, "duration_before_s");
	json_double(j, lop_secs(d->before, analysis_lop_duration(d->before, s->before)));
	json_key(j, "as_much_for_ranks");
	json_begin_array(j);
	for (uint32_t i = 0; i < d->n_ops; i++)
		if (diff_named_as_much(d, s, &d->ops[i]))
			json_uint(j, analysis_lop_timeline(d->after, d->ops[i].after));
	json_end_array(j);
	json_key(j, "waited_for_largest_change_s"); json_double(j, sl->waited);
	json_key(j, "other_than_largest_change"); json_bool(j, sl->other);
	json_held_up(j, d->after, s->after);
	json_end_object(j);
}

/* The text's largest change and its lines: json_op's fields, whether
 * nothing paired it, on which side (and what its call created at most
 * in the other run), and who held it up. */
static void
json_largest(struct json *j, const struct diff *d, const struct diff_op *op)
{
	json_begin_object(j);
	json_op_fields(j, d, op);
	int way = diff_op_unpaired(d, op);
	json_key(j, "unpaired"); json_string(j, way == 1 ? "after" : way == 2 ? "before" : "none");
	if (way == 1) {
		json_key(j, "before_most_diff_s");
		json_double(j, lop_secs(d->before, analysis_lop_diff(d->before, op->before)));
	} else if (way == 2) {
		json_key(j, "after_most_diff_s");
		json_double(j, lop_secs(d->after, analysis_lop_diff(d->after, op->after)));
	}
	/* in the run where it took long: AFTER's when it got worse */
	if (op->d_diff > 0)
		json_held_up(j, d->after, op->after);
	else
		json_held_up(j, d->before, op->before);
	json_end_object(j);
}

static int
write_json(const struct diff *d, FILE *out)
{
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_run(&j, "before", d->before);
	json_run(&j, "after", d->after);
	json_key(&j, "same_ranks"); json_bool(&j, d->same_ranks);
	json_key(&j, "structure");
	json_begin_object(&j);
	json_key(&j, "alike"); json_uint(&j, d->n_alike);
	json_key(&j, "changed"); json_uint(&j, d->n_changed);
	json_key(&j, "only_before"); json_uint(&j, d->n_only_before);
	json_key(&j, "only_after"); json_uint(&j, d->n_only_after);
	json_end_object(&j);
	json_key(&j, "lateness_before_s"); json_double(&j, d->late_before);
	json_key(&j, "lateness_after_s"); json_double(&j, d->late_after);
	json_key(&j, "created_before_s"); json_double(&j, d->diff_before);
	json_key(&j, "created_after_s"); json_double(&j, d->diff_after);
	json_key(&j, "paradigm"); json_string(&j, d->charm ? "charm" : "mpi");
	json_key(&j, "ranked_by");
	json_string(&j, d->charm ? "differential duration" : "differential lateness");
	if (d->charm) {
		json_key(&j, "diff_duration_before_s"); json_double(&j, d->ddur_before);
		json_key(&j, "diff_duration_after_s"); json_double(&j, d->ddur_after);
		json_key(&j, "idle_experienced_before_s"); json_double(&j, d->idle_before);
		json_key(&j, "idle_experienced_after_s"); json_double(&j, d->idle_after);
		json_key(&j, "not_ranked"); json_uint(&j, d->n_setup);
	}
	struct named nm;
	if (diff_named_get(d, &nm)) {
		free(nm.reached);
		json_flush(&j);
		return ERR_NOMEM;
	}
	struct slow sl = diff_named_slowdown(d, &nm);
	free(nm.reached);
	json_key(&j, "largest_change");
	if (nm.op)
		json_largest(&j, d, nm.op);
	else
		json_null(&j);
	json_key(&j, "largest_slowdown");
	if (sl.op)
		json_slowdown(&j, d, &sl);
	else
		json_null(&j);
	json_key(&j, "worse");
	json_begin_array(&j);
	for (uint32_t i = 0; i < d->n_worse; i++)
		json_op(&j, d, &d->ops[d->worse[i]]);
	json_end_array(&j);
	json_key(&j, "better");
	json_begin_array(&j);
	for (uint32_t i = 0; i < d->n_better; i++)
		json_op(&j, d, &d->ops[d->better[i]]);
	json_end_array(&j);
	json_unpaired(&j, d, "worse_unpaired", d->unpaired, d->n_unpaired, 0);
	json_unpaired(&j, d, "better_unpaired", d->unpaired_better, d->n_unpaired_better, 1);
	json_key(&j, "propagation");
	json_begin_array(&j);
	if (diff_named_worst(d)) {
		uint32_t *prop, n;
		const struct diff_op *w = diff_named_worst(d);
		if (diff_propagation(d, w->after, w->d_diff / 2, &prop, &n)) {
			json_flush(&j);
			return ERR_NOMEM;
		}
		for (uint32_t i = 0; i < n; i++) {
			json_begin_object(&j);
			json_key(&j, "rank"); json_uint(&j, analysis_lop_timeline(d->after, prop[i]));
			json_key(&j, "step"); json_uint(&j, analysis_lop_step(d->after, prop[i]));
			json_key(&j, "lateness_s");
			json_double(&j, lop_secs(d->after, analysis_lop_lateness(d->after, prop[i])));
			json_end_object(&j);
		}
		free(prop);
	}
	json_end_array(&j);
	json_key(&j, "partitions");
	json_begin_array(&j);
	for (uint32_t q = 0; q < d->n_parts; q++) {
		const struct diff_part *P = &d->parts[q];
		json_begin_object(&j);
		json_key(&j, "kind"); json_string(&j, diff_part_kind_name(P->kind));
		json_key(&j, "before");
		if (P->before == TRACE_NONE) json_null(&j); else json_uint(&j, P->before);
		json_key(&j, "after");
		if (P->after == TRACE_NONE) json_null(&j); else json_uint(&j, P->after);
		if (P->before != TRACE_NONE)
			json_side(&j, "totals_before", &P->b, d->charm);
		if (P->after != TRACE_NONE)
			json_side(&j, "totals_after", &P->a, d->charm);
		json_key(&j, "changes");
		json_begin_array(&j);
		for (uint32_t c = 0; c < d->n_changes; c++) {
			const struct diff_change *x = &d->changes[c];
			if (x->part != q)
				continue;
			json_begin_object(&j);
			json_key(&j, "only_in"); json_string(&j, x->in_after ? "after" : "before");
			json_key(&j, "count"); json_uint(&j, x->count);
			if (x->is_message) {
				json_key(&j, "message_from"); json_uint(&j, x->sender);
				json_key(&j, "message_to"); json_uint(&j, x->receiver);
				json_key(&j, "tag"); json_uint(&j, x->tag);
			} else {
				json_key(&j, "call_rank"); json_uint(&j, x->sender);
				json_key(&j, "call"); json_string(&j, region_by_hash(x->in_after ? d->after : d->before, x->tag));
			}
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "regions");
	json_begin_array(&j);
	for (uint32_t i = 0; i < d->n_regions; i++) {
		const struct diff_region *g = &d->regions[i];
		json_begin_object(&j);
		json_key(&j, "region"); json_string(&j, g->name);
		json_key(&j, "what"); json_string(&j, d->charm ? "entry" : g->computation ? "computation" : "call");
		json_key(&j, "calls_before"); json_uint(&j, g->n_before);
		json_key(&j, "calls_after"); json_uint(&j, g->n_after);
		json_key(&j, "duration_before_s"); json_double(&j, g->dur_before);
		json_key(&j, "duration_after_s"); json_double(&j, g->dur_after);
		json_key(&j, "lateness_before_s"); json_double(&j, g->late_before);
		json_key(&j, "lateness_after_s"); json_double(&j, g->late_after);
		if (d->charm) {
			json_key(&j, "diff_duration_before_s"); json_double(&j, g->ddur_before);
			json_key(&j, "diff_duration_after_s"); json_double(&j, g->ddur_after);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	return 0;
}

/* ---- CSV ---- */

static void
write_csv(const struct diff *d, FILE *out, enum diff_table table)
{
	const struct analysis *A = d->after, *B = d->before;
	switch (table) {
	case DIFF_TABLE_OPS:
		fprintf(out, "rank,kind,region,in,step_before,step_after,partition_before,partition_after,"
			"iteration,d_diff_s,d_lateness_s,d_duration_s,diff_before_s,diff_after_s,"
			"lateness_before_s,lateness_after_s,cause_before,cause_after%s\n",
			d->charm ? ",chare,entry,pe,d_diff_duration_s,d_idle_experienced_s" : "");
		for (uint32_t i = 0; i < d->n_ops; i++) {
			const struct diff_op *op = &d->ops[i];
			uint32_t la = op->after, lb = op->before;
			char it[16];
			fprintf(out, "%u,%s,", analysis_lop_timeline(A, la),
				trace_op_kind_name(analysis_lop_kind(A, la)));
			report_csv_str(out, report_lop_name(A, la));
			fputc(',', out);
			report_csv_str(out, report_lop_in(A, la));
			fprintf(out, ",%u,%u,%u,%u,%s,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%s,%s",
				analysis_lop_step(B, lb), analysis_lop_step(A, la),
				analysis_lop_part(B, lb), analysis_lop_part(A, la),
				iterations_of_lop(A, la) == TRACE_NONE ? "" : report_iter_of(A, la, it, sizeof it),
				op->d_diff, op->d_late, op->d_duration,
				lop_secs(B, analysis_lop_diff(B, lb)), lop_secs(A, analysis_lop_diff(A, la)),
				lop_secs(B, analysis_lop_lateness(B, lb)),
				lop_secs(A, analysis_lop_lateness(A, la)),
				analysis_cause_name(analysis_lop_cause(B, lb)),
				analysis_cause_name(analysis_lop_cause(A, la)));
			if (d->charm) {
				char label[96];
				fputc(',', out);
				report_csv_str(out, trace_chare_label(analysis_trace(A), analysis_lop_timeline(A, la),
								      label, sizeof label));
				fputc(',', out);
				report_csv_str(out, *report_lop_region(A, la) ? report_lop_region(A, la) : "(creation)");
				fprintf(out, ",%u,%.9f,%.9f", analysis_lop_pe(A, la), op->d_ddur, op->d_idle);
			}
			fputc('\n', out);
		}
		break;
	case DIFF_TABLE_PARTITIONS:
		fprintf(out, "kind,partition_before,partition_after,lateness_before_s,lateness_after_s,"
			"created_before_s,created_after_s,duration_before_s,duration_after_s,"
			"operations_before,operations_after,messages_before,messages_after%s\n",
			d->charm ? ",diff_duration_before_s,diff_duration_after_s,idle_experienced_before_s,"
			"idle_experienced_after_s" : "");
		for (uint32_t q = 0; q < d->n_parts; q++) {
			const struct diff_part *P = &d->parts[q];
			fprintf(out, "%s,", diff_part_kind_name(P->kind));
			if (P->before != TRACE_NONE)
				fprintf(out, "%u", P->before);
			fputc(',', out);
			if (P->after != TRACE_NONE)
				fprintf(out, "%u", P->after);
			fprintf(out, ",%.9f,%.9f,%.9f,%.9f,%.9f,%.9f,%u,%u,%u,%u", P->b.late, P->a.late,
				P->b.diff, P->a.diff, P->b.duration, P->a.duration, P->b.ops, P->a.ops,
				P->b.messages, P->a.messages);
			if (d->charm)
				fprintf(out, ",%.9f,%.9f,%.9f,%.9f", P->b.ddur, P->a.ddur, P->b.idle, P->a.idle);
			fputc('\n', out);
		}
		break;
	case DIFF_TABLE_REGIONS:
		fprintf(out, "region,what,calls_before,calls_after,duration_before_s,duration_after_s,"
			"lateness_before_s,lateness_after_s%s\n",
			d->charm ? ",diff_duration_before_s,diff_duration_after_s" : "");
		for (uint32_t i = 0; i < d->n_regions; i++) {
			const struct diff_region *g = &d->regions[i];
			report_csv_str(out, g->name);
			fprintf(out, ",%s,%u,%u,%.9f,%.9f,%.9f,%.9f",
				d->charm ? "entry" : g->computation ? "computation" : "call",
				g->n_before, g->n_after, g->dur_before, g->dur_after, g->late_before,
				g->late_after);
			if (d->charm)
				fprintf(out, ",%.9f,%.9f", g->ddur_before, g->ddur_after);
			fputc('\n', out);
		}
		break;
	case DIFF_TABLE_CHANGES:
		fputs("partition_before,partition_after,only_in,what,count,rank_or_sender,receiver,"
		      "tag,call\n", out);
		for (uint32_t c = 0; c < d->n_changes; c++) {
			const struct diff_change *x = &d->changes[c];
			const struct diff_part *P = &d->parts[x->part];
			fprintf(out, "%u,%u,%s,%s,%u,%u,", P->before, P->after,
				x->in_after ? "after" : "before", x->is_message ? "message" : "call",
				x->count, x->sender);
			if (x->is_message)
				fprintf(out, "%u,%u,\n", x->receiver, x->tag);
			else {
				fputs(",,", out);
				report_csv_str(out, region_by_hash(x->in_after ? A : B, x->tag));
				fputc('\n', out);
			}
		}
		break;
	}
}

int
diff_report_write(const struct diff *d, FILE *out, enum report_format fmt,
		  enum diff_table table, uint32_t top)
{
	int rc = 0;
	if (!top)
		top = 10;
	if (fmt == REPORT_JSON)
		rc = write_json(d, out);
	else if (fmt == REPORT_CSV)
		write_csv(d, out, table);
	else
		rc = write_text(d, out, top);
	if (rc)
		return rc;
	return ferror(out) ? ERR_IO : 0;
}
