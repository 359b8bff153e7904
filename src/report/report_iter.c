/* report_iter.c — the iterations section of `skein analyze`. */
#include "report_iter.h"
#include "report_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "base/err.h"
#include "base/par.h"
#include "base/text.h"

/* Text shows every iteration up to this many, else the heaviest. */
#define TEXT_ROWS 40

const char *
report_iter_name(const struct report_phases *ph)
{
	return ph && ph->iteration_name && ph->iteration_name[0] ? ph->iteration_name : "iteration";
}

const char *
report_iter_of(const struct analysis *a, uint32_t l, char *buf, size_t n)
{
	uint32_t k = iterations_of_lop(a, l);
	if (k == TRACE_NONE)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%u", k);
	return buf;
}

/* Totals over lops, each worker its own for a share of the lops, added
 * up in worker order (sums and maxima: the same for any number). */
struct iter_sums {
	const struct analysis *a;
	const struct report_phases *ph;
	uint32_t count;
	struct iter_totals *x[PAR_MAX];
};

static int
iter_sums_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct iter_sums *g = ctx;
	const struct analysis *a = g->a;
	const struct report_phases *ph = g->ph;
	struct iter_totals *x = g->x[w] = calloc(g->count, sizeof *x);
	if (!x)
		return ERR_NOMEM;
	uint32_t iter[1024], l0, l1;
	par_share(analysis_lop_count(a), w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++) {
		if ((l - l0) % 1024 == 0)      /* a walk a batch, not a search a lop */
			iterations_of_lops(a, l, l1 - l < 1024 ? l1 : l + 1024, iter);
		uint32_t p = analysis_lop_part(a, l);
		if (ph && ph->keep && !ph->keep[p])
			continue;
		uint32_t k = iter[(l - l0) % 1024];
		if (k == TRACE_NONE)
			continue;
		uint64_t late = analysis_lop_lateness(a, l), dd = analysis_lop_diff_duration(a, l);
		x[k].late += late;
		x[k].diff += analysis_lop_diff(a, l);
		if (late > x[k].max_late)
			x[k].max_late = late;
		x[k].dur += analysis_lop_duration(a, l);
		x[k].ddur += dd;
		x[k].idle += analysis_lop_idle_experienced(a, l);
		if (dd > x[k].max_ddur)
			x[k].max_ddur = dd;
	}
	return 0;
}

int
report_iter_totals(const struct analysis *a, const struct report_phases *ph,
		   struct iter_totals **out)
{
	const struct iterations *it = iterations_get(a);
	*out = NULL;
	if (!it->count)
		return 0;
	struct iter_sums g = { .a = a, .ph = ph, .count = it->count };
	uint32_t nw = par_workers();
	int rc = par_run(nw, iter_sums_worker, &g);
	struct iter_totals *x = g.x[0];
	for (uint32_t w = 1; w < nw; w++) {
		for (uint32_t k = 0; !rc && k < it->count; k++) {
			const struct iter_totals *y = &g.x[w][k];
			x[k].late += y->late;
			x[k].diff += y->diff;
			x[k].max_late = y->max_late > x[k].max_late ? y->max_late : x[k].max_late;
			x[k].dur += y->dur;
			x[k].ddur += y->ddur;
			x[k].idle += y->idle;
			x[k].max_ddur = y->max_ddur > x[k].max_ddur ? y->max_ddur : x[k].max_ddur;
		}
		free(g.x[w]);
	}
	if (rc) {
		free(x);
		return rc;
	}
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	for (uint32_t p = 0; p < np; p++) {
		uint32_t k = iterations_of_step(a, parts[p].step_first);
		if (k != TRACE_NONE)
			x[k].parts++;
	}
	*out = x;
	return 0;
}

/* "found from region 'iteration'" and the like; a Charm++ run's regions
 * are entry methods, executed rather than entered. */
static void
how_found(const struct analysis *a, FILE *out)
{
	const struct iterations *it = iterations_get(a);
	const struct trace *t = analysis_trace(a);
	int charm = report_is_charm(a);
	char buf[256];
	const char *region = it->region == TRACE_NONE ? "" :
		text_safe(trace_str(t, trace_regions(t, NULL)[it->region].name), buf, sizeof buf);
	switch (it->source) {
	case ITER_STRUCTURE:
		fputs(charm ? "found as the period of the application phases" :
		      "found as the period of the partitions' structure", out);
		break;
	case ITER_REGION:
		fprintf(out, "found at the Enters of region '%s' (alike partitions between them)", region);
		break;
	case ITER_NAMED:
		fprintf(out, charm ? "at the executions of entry method '%s' (named in the configuration)"
			: "at the Enters of region '%s' (named in the configuration)", region);
		break;
	default:
		break;
	}
}

/* Why there are none, in a line of the text report. */
static void
why_none(const struct analysis *a, FILE *out)
{
	const struct iterations *it = iterations_get(a);
	if (it->named_none)
		fprintf(out, "iterations    none: the %s named (--iteration-region, iterations.region) "
			"do not mark two iterations one after the other\n",
			report_is_charm(a) ? "executions of the entry method" : "Enters of the region");
	else if (report_is_charm(a))
		fprintf(out, "iterations    none found (no repeating application phases)\n");
	else
		fprintf(out, "iterations    none found (no repeating structure)\n");
}

struct row {
	uint64_t late;
	uint32_t k;
};

/* heaviest first, then in order */
static int
cmp_heavier(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	if (a->late != b->late)
		return a->late > b->late ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static int
cmp_index(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	return a->k < b->k ? -1 : a->k > b->k;
}

int
report_iter_text(const struct analysis *a, const struct report_phases *ph, FILE *out)
{
	const struct iterations *it = iterations_get(a);
	const struct trace *t = analysis_trace(a);
	char nb[128], head[160];
	const char *name = text_safe(report_iter_name(ph), nb, sizeof nb);
	int charm = report_is_charm(a);
	const char *parts_word = charm ? "phase" : "partition";
	if (!it->count) {
		why_none(a, out);
		return 0;
	}
	fprintf(out, "iterations    %u %s%s, ", it->count, name, it->count == 1 ? "" : "s");
	how_found(a, out);
	fprintf(out, "\n              %u step%s and %u %s%s each", it->period_steps,
		it->period_steps == 1 ? "" : "s", it->period_parts, parts_word,
		it->period_parts == 1 ? "" : "s");
	if (it->irregular)
		fprintf(out, " (%u differ)", it->irregular);
	fprintf(out, "; steps %u-%u\n", it->starts[0], it->starts[it->count] - 1);

	struct iter_totals *tot;
	if (report_iter_totals(a, ph, &tot))
		return ERR_NOMEM;
	struct row *rows = malloc(it->count * sizeof *rows);
	if (!rows) {
		free(tot);
		return ERR_NOMEM;
	}
	uint32_t n = it->count;
	for (uint32_t k = 0; k < n; k++)
		rows[k] = (struct row){ charm ? tot[k].ddur : tot[k].late, k };
	int cut = n > TEXT_ROWS && !report_all(ph);
	if (cut) {
		/* the heaviest, shown in order */
		qsort(rows, n, sizeof *rows, cmp_heavier);
		n = TEXT_ROWS / 2;
		qsort(rows, n, sizeof *rows, cmp_index);
	}
	/* the first column, headed by the iterations' name (iterations.name),
	 * as wide as the name, 9 to 24 columns: a longer one is cut */
	int iw = report_col_grow(9, name, 24);
	if (charm)
		fprintf(out, "\n%s %-15s %6s %14s %14s %14s %14s\n", text_fit(name, iw, head, sizeof head),
			"steps", "phases", "duration", "diff.duration", "max diff.dur", "idle exp.");
	else
		fprintf(out, "\n%s %-15s %6s %14s %14s %14s\n", text_fit(name, iw, head, sizeof head),
			"steps", "parts", "lateness", "created", "max lateness");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = rows[i].k;
		char span[32], b1[32], b2[32], b3[32], b4[32];
		snprintf(span, sizeof span, "%u-%u", it->starts[k], it->starts[k + 1] - 1);
		if (charm)
			fprintf(out, "%-*u %-15s %6u %14s %14s %14s %14s\n", iw, k, span, tot[k].parts,
				trace_fmt_duration(t, tot[k].dur, b1, sizeof b1),
				trace_fmt_duration(t, tot[k].ddur, b2, sizeof b2),
				trace_fmt_duration(t, tot[k].max_ddur, b3, sizeof b3),
				trace_fmt_duration(t, tot[k].idle, b4, sizeof b4));
		else
			fprintf(out, "%-*u %-15s %6u %14s %14s %14s\n", iw, k, span, tot[k].parts,
				trace_fmt_duration(t, tot[k].late, b1, sizeof b1),
				trace_fmt_duration(t, tot[k].diff, b2, sizeof b2),
				trace_fmt_duration(t, tot[k].max_late, b3, sizeof b3));
	}
	if (cut)
		fprintf(out, "(the %u with the most %s of %u; all: --format csv --table iterations)\n",
			n, charm ? "differential duration" : "lateness", it->count);
	free(rows);
	free(tot);
	return 0;
}

int
report_iter_json(const struct analysis *a, const struct report_phases *ph, struct json *j)
{
	const struct iterations *it = iterations_get(a);
	const struct trace *t = analysis_trace(a);
	struct iter_totals *tot;
	if (report_iter_totals(a, ph, &tot))
		return ERR_NOMEM;
	json_begin_object(j);
	json_key(j, "count"); json_uint(j, it->count);
	json_key(j, "name"); json_string(j, report_iter_name(ph));
	json_key(j, "found_by"); json_string(j, iterations_source_name(it->source));
	json_key(j, "region");
	if (it->region == TRACE_NONE)
		json_null(j);
	else
		json_string(j, trace_str(t, trace_regions(t, NULL)[it->region].name));
	json_key(j, "period_steps"); json_uint(j, it->period_steps);
	json_key(j, "period_partitions"); json_uint(j, it->period_parts);
	json_key(j, "irregular"); json_uint(j, it->irregular);
	json_key(j, "named_marked_none"); json_bool(j, it->named_none);
	json_key(j, "list");
	json_begin_array(j);
	for (uint32_t k = 0; k < it->count; k++) {
		json_begin_object(j);
		json_key(j, "index"); json_uint(j, k);
		json_key(j, "step_first"); json_uint(j, it->starts[k]);
		json_key(j, "step_count"); json_uint(j, it->starts[k + 1] - it->starts[k]);
		json_key(j, "partitions"); json_uint(j, tot[k].parts);
		json_key(j, "lateness_s"); json_double(j, trace_seconds(t, tot[k].late));
		json_key(j, "created_s"); json_double(j, trace_seconds(t, tot[k].diff));
		json_key(j, "max_lateness_s"); json_double(j, trace_seconds(t, tot[k].max_late));
		if (report_is_charm(a)) {
			json_key(j, "duration_s"); json_double(j, trace_seconds(t, tot[k].dur));
			json_key(j, "diff_duration_s"); json_double(j, trace_seconds(t, tot[k].ddur));
			json_key(j, "max_diff_duration_s"); json_double(j, trace_seconds(t, tot[k].max_ddur));
			json_key(j, "idle_experienced_s"); json_double(j, trace_seconds(t, tot[k].idle));
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	free(tot);
	return 0;
}

int
report_iter_csv(const struct analysis *a, const struct report_phases *ph, FILE *out)
{
	const struct iterations *it = iterations_get(a);
	const struct trace *t = analysis_trace(a);
	struct iter_totals *tot;
	if (report_iter_totals(a, ph, &tot))
		return ERR_NOMEM;
	int charm = report_is_charm(a);
	fprintf(out, "iteration,step_first,step_count,partitions,lateness_s,created_s,max_lateness_s%s\n",
		charm ? ",duration_s,diff_duration_s,max_diff_duration_s,idle_experienced_s" : "");
	for (uint32_t k = 0; k < it->count; k++) {
		fprintf(out, "%u,%u,%u,%u,%.9f,%.9f,%.9f", k, it->starts[k],
			it->starts[k + 1] - it->starts[k], tot[k].parts, trace_seconds(t, tot[k].late),
			trace_seconds(t, tot[k].diff), trace_seconds(t, tot[k].max_late));
		if (charm)
			fprintf(out, ",%.9f,%.9f,%.9f,%.9f", trace_seconds(t, tot[k].dur),
				trace_seconds(t, tot[k].ddur), trace_seconds(t, tot[k].max_ddur),
				trace_seconds(t, tot[k].idle));
		fputc('\n', out);
	}
	free(tot);
	return 0;
}
