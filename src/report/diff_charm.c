/* diff_charm.c — `skein diff` of two Charm++ runs as text: chares, PEs,
 * phases and entry methods, ranked by seed 004's differential duration
 * (diff.h), with what the largest change did to its phase's imbalance
 * and to the idle the PEs experienced. The JSON and CSV writers
 * (diff_report.c) add the same fields to their MPI schema. */
#include "diff_report.h"
#include "report_impl.h"
#include "report_iter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "base/fmt.h"
#include "base/hash.h"
#include "base/text.h"
#include "model/charm.h"

#define TEXT_PARTS 20

static const char *
secs_text(double s, char *buf, size_t n)
{
	return fmt_seconds(s, buf, n);
}

static const char *
chare(const struct analysis *a, uint32_t tl, char *buf, size_t n)
{
	char raw[128];
	const char *s = text_safe(trace_chare_label(analysis_trace(a), tl, raw, sizeof raw), buf, n);
	if (s != buf)
		snprintf(buf, n, "%s", s);
	return buf;
}

/* The entry method of lop l, "(creation)" for a creation outside any
 * execution. */
static const char *
entry(const struct analysis *a, uint32_t l, char *buf, size_t n)
{
	const char *r = report_lop_region(a, l);
	return text_safe(*r ? r : "(creation)", buf, n);
}

static const char *
phase_kind(const struct analysis *a, uint32_t p)
{
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	return p >= np ? "-" : !parts[p].comm_count ? "none" : parts[p].runtime ? "runtime" : "application";
}

static void
run_line(FILE *out, const char *label, const struct analysis *a)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_tl, np, it = iterations_get(a)->count;
	trace_timelines(t, &n_tl);
	analysis_parts(a, &np);
	char n1[256];
	fprintf(out, "%-13s %s (%u chares, %u PEs, %u phases, %u steps, ", label,
		text_safe(trace_info(t)->path, n1, sizeof n1), n_tl, trace_pe_count(t), np,
		analysis_step_count(a));
	if (it)
		fprintf(out, "%u iteration%s)\n", it, it == 1 ? "" : "s");
	else
		fputs("no iterations found)\n", out);
}

static void
op_row(FILE *out, const struct diff *d, uint32_t rank, const struct diff_op *op)
{
	const struct analysis *A = d->after;
	char b1[32], b2[32], b3[32], it[16], c[96], e[256], f1[128], f2[256];
	uint32_t l = op->after;
	fprintf(out, "%3u %s %3u %6u %5u %5s %s %11s %11s %11s\n", rank,
		text_fit(chare(A, analysis_lop_timeline(A, l), c, sizeof c), 14, f1, sizeof f1), analysis_lop_pe(A, l),
		analysis_lop_step(A, l), analysis_lop_part(A, l), report_iter_of(A, l, it, sizeof it),
		text_fit(entry(A, l, e, sizeof e), 30, f2, sizeof f2), fmt_change(op->d_ddur, b1, sizeof b1),
		fmt_change(op->d_duration, b2, sizeof b2), fmt_change(op->d_idle, b3, sizeof b3));
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
	fprintf(out, "%3s %-14s %3s %6s %5s %5s %-30s %11s %11s %11s\n", "#", "chare", "PE", "step",
		"phase", "iter", "entry method", "diff.dur", "duration", "idle exp.");
	for (uint32_t i = 0; i < n && i < top; i++)
		op_row(out, d, i + 1, &d->ops[list[i]]);
	if (n > top)
		fprintf(out, "(%u more; all: --format csv)\n", n - top);
}

/* Each PE's longest idle experienced by one operation in the phases in[]
 * marks (in[p] for partition p of a) into idle[0 .. n_pes). The longest,
 * not the sum: an idle interval is experienced by every serial block that
 * waited through it (doc/charm.md), so sums count it again for each. */
static void
pe_idle(const struct analysis *a, const uint8_t *in, double *idle, uint32_t n_pes)
{
	const struct trace *t = analysis_trace(a);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		uint32_t p = analysis_lop_part(a, l), pe = analysis_lop_pe(a, l);
		double x = trace_seconds(t, analysis_lop_idle_experienced(a, l));
		if (p != TRACE_NONE && in[p] && pe < n_pes && x > idle[pe])
			idle[pe] = x;
	}
}

/* The largest change, its phase's imbalance, and the idle experienced it
 * made: on each PE, the idle experienced in its iteration (without
 * iterations: its phase and the next) against the same phases of the run
 * before, aligned as the diff aligned them. Runtime phases are seldom
 * alike from one run to the other, so they pair no operations: the
 * phases' totals are compared, not the operations'. */
static void
largest(FILE *out, const struct diff *d)
{
	if (!d->n_worse && !d->n_better)
		return;
	const struct diff_op *w = d->n_worse ? &d->ops[d->worse[0]] : NULL;
	const struct diff_op *b = d->n_better ? &d->ops[d->better[0]] : NULL;
	const struct diff_op *op = !b || (w && w->d_ddur >= -b->d_ddur) ? w : b;
	const struct analysis *A = d->after, *B = d->before;
	const struct trace *t = analysis_trace(A);
	uint32_t l = op->after, p = analysis_lop_part(A, l), k = iterations_of_lop(A, l);
	char b1[32], b2[32], b3[32], b4[32], c[96], e[256], it[16];
	fprintf(out, "\nlargest change: chare %s on PE %u, %s phase %u, step %u, iteration %s: %s "
		"took %s, differential duration %s\n", chare(A, analysis_lop_timeline(A, l), c, sizeof c),
		analysis_lop_pe(A, l), phase_kind(A, p), p, analysis_lop_step(A, l),
		report_iter_of(A, l, it, sizeof it), entry(A, l, e, sizeof e),
		fmt_change(op->d_duration, b1, sizeof b1), fmt_change(op->d_ddur, b2, sizeof b2));
	uint32_t q = d->after_part[p];
	if (q != TRACE_NONE && d->parts[q].before != TRACE_NONE) {
		double ib = trace_seconds(analysis_trace(B), analysis_part_imbalance(B, d->parts[q].before));
		double ia = trace_seconds(t, analysis_part_imbalance(A, p));
		fprintf(out, "  its phase's imbalance %s -> %s (%s)\n", secs_text(ib, b1, sizeof b1),
			secs_text(ia, b2, sizeof b2), fmt_change(ia - ib, b3, sizeof b3));
	}
	uint32_t na, nb, n_pes = trace_pe_count(t);
	const struct analysis_part *pa = analysis_parts(A, &na);
	analysis_parts(B, &nb);
	uint8_t *ina = calloc((size_t)na + 1, 1), *inb = calloc((size_t)nb + 1, 1);
	double *ia = calloc((size_t)n_pes + 1, sizeof *ia), *ib = calloc((size_t)n_pes + 1, sizeof *ib);
	if (ina && inb && ia && ib) {
		for (uint32_t x = 0; x < na; x++) {
			ina[x] = k != TRACE_NONE ? iterations_of_step(A, pa[x].step_first) == k
				: x == p || x == p + 1;
			uint32_t y = d->after_part[x];
			if (ina[x] && y != TRACE_NONE && d->parts[y].before != TRACE_NONE)
				inb[d->parts[y].before] = 1;
		}
		pe_idle(A, ina, ia, n_pes);
		pe_idle(B, inb, ib, n_pes);
		if (k != TRACE_NONE)
			snprintf(b4, sizeof b4, "its iteration");
		else
			snprintf(b4, sizeof b4, "phases %u and %u", p, p + 1);
		fprintf(out, "  the longest idle experienced in %s, by PE:", b4);
		for (uint32_t pe = 0; pe < n_pes; pe++)
			fprintf(out, "%s PE %u %s -> %s", pe ? "," : "", pe, secs_text(ib[pe], b1, sizeof b1),
				secs_text(ia[pe], b2, sizeof b2));
		fputc('\n', out);
	}
	free(ina);
	free(inb);
	free(ia);
	free(ib);
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
	const struct analysis *a = P->after != TRACE_NONE ? d->after : d->before;
	const struct analysis_part *x = &analysis_parts(a, &np)[P->after != TRACE_NONE ? P->after : P->before];
	snprintf(buf, n, "%u-%u%s", x->step_first, x->step_first + x->step_count - 1,
		 P->after != TRACE_NONE ? "" : " (before)");
}

/* The entry method a call names by its hash (diff.c), or "?". */
static const char *
entry_by_hash(const struct analysis *a, uint32_t h)
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
	const struct analysis *a = c->in_after ? d->after : d->before;
	const struct trace *t = analysis_trace(a);
	const char *where = c->in_after ? "only in after" : "only in before";
	char c1[96], c2[96], e[256];
	if (c->is_message) {
		uint32_t n_reg;
		const struct trace_region *r = trace_regions(t, &n_reg);
		fprintf(out, "    %u invocation%s %s: %s -> %s, %s\n", c->count, c->count == 1 ? "" : "s",
			where, chare(a, c->sender, c1, sizeof c1), chare(a, c->receiver, c2, sizeof c2),
			text_safe(c->tag < n_reg ? trace_str(t, r[c->tag].name) : "?", e, sizeof e));
	} else {
		fprintf(out, "    %u execution%s %s: %s %s (%s)\n", c->count, c->count == 1 ? "" : "s", where,
			chare(a, c->sender, c1, sizeof c1), text_safe(entry_by_hash(a, c->tag), e, sizeof e),
			trace_op_kind_name((enum trace_op_kind)c->receiver));
	}
}

static int
cmp_change(const struct diff *d, uint32_t i, uint32_t j)
{
	double a = fabs(d->parts[i].a.ddur - d->parts[i].b.ddur);
	double b = fabs(d->parts[j].a.ddur - d->parts[j].b.ddur);
	if (a != b)
		return a > b ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void
phases(FILE *out, const struct diff *d)
{
	uint32_t *rows = malloc(((size_t)d->n_parts + 1) * sizeof *rows);
	if (!rows)
		return;
	uint32_t n = d->n_parts;
	for (uint32_t q = 0; q < n; q++)
		rows[q] = q;
	int cut = n > TEXT_PARTS;
	if (cut) {
		/* the largest changes, back in step order (insertion sorts: few) */
		for (uint32_t i = 1; i < n; i++)
			for (uint32_t j = i; j > 0 && cmp_change(d, rows[j], rows[j - 1]) < 0; j--) {
				uint32_t x = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = x;
			}
		n = TEXT_PARTS;
		for (uint32_t i = 1; i < n; i++)
			for (uint32_t j = i; j > 0 && rows[j] < rows[j - 1]; j--) {
				uint32_t x = rows[j]; rows[j] = rows[j - 1]; rows[j - 1] = x;
			}
	}
	fprintf(out, "\nphases (total differential duration%s)\n", cut ? "; the largest changes" : "");
	fprintf(out, "%6s %6s %-11s %-12s %-15s %11s %11s %11s\n", "before", "after", "kind", "phase",
		"steps", "before", "after", "change");
	char b1[32], b2[32], b3[32], x1[16], x2[16], steps[48];
	for (uint32_t i = 0; i < n; i++) {
		const struct diff_part *P = &d->parts[rows[i]];
		part_steps(d, P, steps, sizeof steps);
		fprintf(out, "%6s %6s %-11s %-12s %-15s %11s %11s %11s\n", part_id(P->before, x1, sizeof x1),
			part_id(P->after, x2, sizeof x2), diff_part_kind_name(P->kind),
			P->after != TRACE_NONE ? phase_kind(d->after, P->after) : phase_kind(d->before, P->before),
			steps, P->before != TRACE_NONE ? secs_text(P->b.ddur, b1, sizeof b1) : "-",
			P->after != TRACE_NONE ? secs_text(P->a.ddur, b2, sizeof b2) : "-",
			fmt_change(P->a.ddur - P->b.ddur, b3, sizeof b3));
	}
	free(rows);
}

int
diff_report_charm_text(const struct diff *d, FILE *out, uint32_t top)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
	run_line(out, "before", d->before);
	run_line(out, "after", d->after);
	if (!d->same_ranks)
		fprintf(out, "chares        %u -> %u: the chare counts differ; phases are aligned by "
			"their entry methods alone and compared by their totals only\n", d->ranks_before,
			d->ranks_after);
	fprintf(out, "structure     %u phases alike, %u changed, %u only before, %u only after\n",
		d->n_alike, d->n_changed, d->n_only_before, d->n_only_after);
	fprintf(out, "metrics       differential duration %s -> %s (%s); idle experienced %s -> %s (%s)\n",
		secs_text(d->ddur_before, b1, sizeof b1), secs_text(d->ddur_after, b2, sizeof b2),
		fmt_change(d->ddur_after - d->ddur_before, b3, sizeof b3),
		secs_text(d->idle_before, b4, sizeof b4), secs_text(d->idle_after, b5, sizeof b5),
		fmt_change(d->idle_after - d->idle_before, b6, sizeof b6));
	if (d->same_ranks) {
		fprintf(out, "executions    %u operations paired: %u took longer beyond their peers, %u less",
			d->n_ops, d->n_worse, d->n_better);
		if (d->n_setup)
			fprintf(out, "; %u of the runtime's entries, constructors and the leading phase "
				"left out of worse and better (--startup counts them)", d->n_setup);
		fputc('\n', out);
	}
	largest(out, d);
	if (d->same_ranks) {
		op_table(out, d, "worse (differential duration grew; largest first)", d->worse, d->n_worse, top);
		op_table(out, d, "better (differential duration shrank; largest first)", d->better,
			 d->n_better, top);
	}
	if (d->n_changed || d->n_only_before || d->n_only_after) {
		fputs("\nstructure differences\n", out);
		for (uint32_t q = 0; q < d->n_parts; q++) {
			const struct diff_part *P = &d->parts[q];
			if (P->kind == DIFF_ALIKE)
				continue;
			char steps[48], x1[16], x2[16];
			part_steps(d, P, steps, sizeof steps);
			fprintf(out, "  %-11s phase %s before, %s after, steps %s: %u event%s before, %u after\n",
				diff_part_kind_name(P->kind), part_id(P->before, x1, sizeof x1),
				part_id(P->after, x2, sizeof x2), steps, P->b.ops, P->b.ops == 1 ? "" : "s", P->a.ops);
			/* a runtime phase's reduction and broadcast trees are the
			 * runtime's choice, different in most runs: counted */
			int runtime = !strcmp(P->after != TRACE_NONE ? phase_kind(d->after, P->after)
					      : phase_kind(d->before, P->before), "runtime");
			uint32_t inv = 0, exe = 0, shown = 0;
			for (uint32_t c = 0; c < d->n_changes; c++) {
				const struct diff_change *x = &d->changes[c];
				if (x->part != q)
					continue;
				if (!runtime && shown < top) {
					change_text(out, d, x);
					shown++;
					continue;
				}
				if (x->is_message)
					inv += x->count;
				else
					exe += x->count;
			}
			if (runtime && (inv || exe))
				fprintf(out, "    a runtime phase: %u invocation%s and %u execution%s differ, the "
					"runtime's reduction and broadcast routes (--format csv --table changes)\n",
					inv, inv == 1 ? "" : "s", exe, exe == 1 ? "" : "s");
			else if (inv || exe)
				fprintf(out, "    (%u more; all: --format csv --table changes)\n", inv + exe);
		}
	}
	phases(out, d);
	fputs("\nentry methods (total duration and differential duration; largest change first)\n", out);
	fprintf(out, "%-40s %13s %11s %11s %11s %11s %11s\n", "entry method", "executions", "duration",
		"after", "change", "diff.dur", "after");
	for (uint32_t i = 0; i < d->n_regions && i < top; i++) {
		const struct diff_region *g = &d->regions[i];
		char calls[32], n1[256];
		snprintf(calls, sizeof calls, "%u -> %u", g->n_before, g->n_after);
		fprintf(out, "%s %13s %11s %11s %11s %11s %11s\n", text_fit(g->name, 40, n1, sizeof n1),
			calls, secs_text(g->dur_before, b1, sizeof b1), secs_text(g->dur_after, b2, sizeof b2),
			fmt_change(g->dur_after - g->dur_before, b3, sizeof b3),
			secs_text(g->ddur_before, b4, sizeof b4), secs_text(g->ddur_after, b5, sizeof b5));
	}
	if (d->n_regions > top)
		fprintf(out, "(%u more; all: --format csv --table regions)\n", d->n_regions - top);
	return 0;
}
