/* report_explain.c — what lateness cannot see, in `skein analyze`: the
 * problems, the wait states (every waiting operation, and totals by kind,
 * rank and region), their root causes (delays) and the outliers, as text,
 * JSON and CSV tables (analysis/explain/explain.h, doc/analysis.md). */
#include "report_explain.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "analysis/explain/explain.h"
#include "base/sort.h"
#include "base/text.h"
#include "report_impl.h"
#include "report_iter.h"

/* rank and step of a lop, or "-" for none */
static void
json_at(struct json *j, const struct analysis *a, const char *rank, const char *step, uint32_t l)
{
	json_key(j, rank);
	if (l == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, analysis_lop_timeline(a, l));
	json_key(j, step);
	if (l == TRACE_NONE || analysis_lop_step(a, l) == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, analysis_lop_step(a, l));
}

/* A wait's cause and root are anywhere in the trace: writing the waits
 * in order (w[0 .. n), at i), their lops are asked for ahead (a third
 * of the JSON list's time was spent waiting for them). */
static void
prefetch_wait(const struct analysis *a, const struct analysis_wait *w, uint32_t n, uint32_t i)
{
	if (i + 32 < n) {
		analysis_lop_prefetch(a, w[i + 32].cause_lop, 0);
		analysis_lop_prefetch(a, w[i + 32].root_lop, 0);
	}
	if (i + 8 < n) {
		analysis_lop_prefetch(a, w[i + 8].cause_lop, 1);
		analysis_lop_prefetch(a, w[i + 8].root_lop, 1);
	}
}

static void
json_wait(struct json *j, const struct analysis *a, const struct analysis_wait *w)
{
	const struct trace *t = analysis_trace(a);
	json_begin_object(j);
	json_at(j, a, "rank", "step", w->lop);
	json_key(j, "region"); json_string(j, report_lop_region(a, w->lop));
	json_key(j, "kind"); json_string(j, analysis_wait_name((enum analysis_wait_kind)w->kind));
	json_key(j, "wait_s"); json_double(j, trace_seconds(t, w->time));
	json_at(j, a, "cause_rank", "cause_step", w->cause_lop);
	json_key(j, "cause_region"); json_string(j, report_lop_region(a, w->cause_lop));
	json_at(j, a, "root_rank", "root_step", w->root_lop);
	json_key(j, "root_region");
	if (w->root_lop == TRACE_NONE)
		json_null(j);
	else
		json_string(j, report_lop_name(a, w->root_lop));
	json_end_object(j);
}

/* The wait states' list, item by item (report_json_items) */
struct wait_items {
	const struct analysis *a;
	const struct report_phases *ph;
	const struct analysis_wait *w;
	uint32_t n;
};

static void
wait_item(struct json *j, void *ctx, uint32_t i)
{
	const struct wait_items *g = ctx;
	prefetch_wait(g->a, g->w, g->n, i);
	if (kept_lop(g->a, g->ph, g->w[i].lop))
		json_wait(j, g->a, &g->w[i]);
}

/* The delays' list, the same way */
struct delay_items {
	const struct analysis *a;
	const struct report_phases *ph;
	const struct analysis_delay *d;
};

static void
delay_item(struct json *j, void *ctx, uint32_t i)
{
	const struct delay_items *g = ctx;
	const struct analysis *a = g->a;
	const struct analysis_delay *d = &g->d[i];
	if (!kept_lop(a, g->ph, d->lop))
		return;
	json_begin_object(j);
	json_at(j, a, "rank", "step", d->lop);
	json_key(j, "operation"); json_string(j, report_lop_name(a, d->lop));
	json_key(j, "cost_s"); json_double(j, trace_seconds(analysis_trace(a), d->cost));
	json_key(j, "direct_s"); json_double(j, trace_seconds(analysis_trace(a), d->direct));
	json_key(j, "waits"); json_uint(j, d->waits);
	json_end_object(j);
}

/* Waiting summed by kind for each rank, and for each region (regions in
 * id order), into *rank_t (n_tl x kinds) and *region_t (n_regions x
 * kinds); NULL on no memory. */
static int
totals(const struct analysis *a, const struct report_phases *ph, uint64_t **rank_t, uint64_t **region_t,
       uint32_t *n_tl, uint32_t *n_reg)
{
	const struct trace *t = analysis_trace(a);
	trace_timelines(t, n_tl);
	trace_regions(t, n_reg);
	*rank_t = calloc((size_t)(*n_tl + 1) * WAIT_KIND_COUNT, sizeof **rank_t);
	*region_t = calloc((size_t)(*n_reg + 1) * WAIT_KIND_COUNT, sizeof **region_t);
	if (!*rank_t || !*region_t) {
		free(*rank_t);
		free(*region_t);
		*rank_t = *region_t = NULL;    /* the JSON writer frees them again */
		return ERR_NOMEM;
	}
	uint32_t n;
	const struct analysis_wait *w = analysis_waits(a, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (!kept_lop(a, ph, w[i].lop))
			continue;
		uint32_t r = analysis_lop_region(a, w[i].lop);
		(*rank_t)[(size_t)analysis_lop_timeline(a, w[i].lop) * WAIT_KIND_COUNT + w[i].kind] += w[i].time;
		if (r != TRACE_NONE)
			(*region_t)[(size_t)r * WAIT_KIND_COUNT + w[i].kind] += w[i].time;
	}
	return 0;
}

static void
json_kinds(struct json *j, const struct trace *t, const uint64_t *v)
{
	for (int k = 0; k < WAIT_KIND_COUNT; k++) {
		char key[40];
		snprintf(key, sizeof key, "%s_s", analysis_wait_name((enum analysis_wait_kind)k));
		json_key(j, key);
		json_double(j, trace_seconds(t, v[k]));
	}
}

static int
any(const uint64_t *v)
{
	for (int k = 0; k < WAIT_KIND_COUNT; k++)
		if (v[k])
			return 1;
	return 0;
}

void
report_explain_json(struct json *j, const struct analysis *a, const struct report_phases *ph)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n;
	const struct analysis_problem *pr = analysis_problems(a, &n);
	json_key(j, "problems");
	json_begin_array(j);
	for (uint32_t i = 0; i < n; i++) {
		if (!kept_lop(a, ph, pr[i].lop))
			continue;
		json_begin_object(j);
		json_key(j, "kind"); json_string(j, analysis_problem_name((enum analysis_problem_kind)pr[i].kind));
		json_at(j, a, "rank", "step", pr[i].lop);
		json_key(j, "operation"); json_string(j, report_lop_name(a, pr[i].lop));
		json_key(j, "iteration");
		if (iterations_of_lop(a, pr[i].lop) == TRACE_NONE)
			json_null(j);
		else
			json_uint(j, iterations_of_lop(a, pr[i].lop));
		json_key(j, "amount_s"); json_double(j, trace_seconds(t, pr[i].amount));
		json_at(j, a, "surfaced_rank", "surfaced_step", pr[i].surfaced);
		json_end_object(j);
	}
	json_end_array(j);

	const struct analysis_wait *waits = analysis_waits(a, &n);
	struct wait_items wi = { a, ph, waits, n };
	json_key(j, "waits");
	json_begin_array(j);
	report_json_items(j, n, wait_item, &wi);
	json_end_array(j);

	uint64_t *rank_t = NULL, *region_t = NULL, all[WAIT_KIND_COUNT] = { 0 };
	uint32_t n_tl, n_reg;
	json_key(j, "wait_totals");
	json_begin_object(j);
	if (totals(a, ph, &rank_t, &region_t, &n_tl, &n_reg) == 0) {
		for (uint32_t tl = 0; tl < n_tl; tl++)
			for (int k = 0; k < WAIT_KIND_COUNT; k++)
				all[k] += rank_t[(size_t)tl * WAIT_KIND_COUNT + k];
		json_kinds(j, t, all);
		json_key(j, "ranks");
		json_begin_array(j);
		for (uint32_t tl = 0; tl < n_tl; tl++) {
			json_begin_object(j);
			json_key(j, "rank"); json_uint(j, tl);
			json_kinds(j, t, rank_t + (size_t)tl * WAIT_KIND_COUNT);
			json_end_object(j);
		}
		json_end_array(j);
		json_key(j, "regions");
		json_begin_array(j);
		const struct trace_region *reg = trace_regions(t, NULL);
		for (uint32_t r = 0; r < n_reg; r++) {
			if (!any(region_t + (size_t)r * WAIT_KIND_COUNT))
				continue;
			json_begin_object(j);
			json_key(j, "region"); json_string(j, trace_str(t, reg[r].name));
			json_kinds(j, t, region_t + (size_t)r * WAIT_KIND_COUNT);
			json_end_object(j);
		}
		json_end_array(j);
	} else {
		json_key(j, "not_shown"); json_string(j, "out of memory");
	}
	json_end_object(j);
	free(rank_t);
	free(region_t);

	struct delay_items di = { a, ph, analysis_delays(a, &n) };
	json_key(j, "delays");
	json_begin_array(j);
	report_json_items(j, n, delay_item, &di);
	json_end_array(j);

	const struct analysis_outlier *o = analysis_outliers(a, &n);
	json_key(j, "outliers");
	json_begin_array(j);
	for (uint32_t i = 0; i < n; i++) {
		if (!kept_lop(a, ph, o[i].lop))
			continue;
		json_begin_object(j);
		json_at(j, a, "rank", "step", o[i].lop);
		json_key(j, "operation"); json_string(j, report_lop_name(a, o[i].lop));
		json_key(j, "iteration");
		if (iterations_of_lop(a, o[i].lop) == TRACE_NONE)
			json_null(j);
		else
			json_uint(j, iterations_of_lop(a, o[i].lop));
		json_key(j, "duration_s"); json_double(j, trace_seconds(t, o[i].duration));
		json_key(j, "median_s"); json_double(j, trace_seconds(t, o[i].median));
		json_key(j, "instances"); json_uint(j, o[i].instances);
		/* what the median is over: the other iterations, the rank's
		 * calls of the same kind and region (a run without
		 * iterations), or those of them outside the iterations */
		json_key(j, "against");
		json_string(j, analysis_outliers_by_region(a) ? "calls"
			    : analysis_outlier_by_region(a, o[i].lop) ? "calls outside the iterations" : "iterations");
		json_end_object(j);
	}
	json_end_array(j);
}

/* A lop's rank and step after sep (none when 0): two fields, empty for
 * none */
static void
csv_at(struct csv_buf *b, char sep, const struct analysis *a, uint32_t l)
{
	if (sep)
		csv_char(b, sep);
	if (l == TRACE_NONE) {
		csv_char(b, ',');
		return;
	}
	csv_u32(b, 0, analysis_lop_timeline(a, l));
	csv_opt(b, ',', analysis_lop_step(a, l));
}

/* The four tables' rows (report_csv_rows) */
struct csv_rows {
	const struct analysis *a;
	const struct report_phases *ph;
	const void *v;
	uint32_t n;
};

static void
csv_wait(struct csv_buf *b, void *ctx, uint32_t i)
{
	const struct csv_rows *g = ctx;
	const struct analysis *a = g->a;
	const struct analysis_wait *w = (const struct analysis_wait *)g->v + i;
	prefetch_wait(a, g->v, g->n, i);
	if (!kept_lop(a, g->ph, w->lop))
		return;
	csv_at(b, 0, a, w->lop);
	csv_str(b, ',', report_lop_region(a, w->lop));
	csv_text(b, ',', analysis_wait_name((enum analysis_wait_kind)w->kind));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), w->time));
	csv_at(b, ',', a, w->cause_lop);
	csv_str(b, ',', report_lop_region(a, w->cause_lop));
	csv_at(b, ',', a, w->root_lop);
	csv_char(b, ',');
	if (w->root_lop != TRACE_NONE)
		csv_str(b, 0, report_lop_name(a, w->root_lop));
	csv_u32(b, ',', analysis_lop_part(a, w->lop));
	csv_opt(b, ',', iterations_of_lop(a, w->lop));
	csv_char(b, '\n');
}

static void
csv_delay(struct csv_buf *b, void *ctx, uint32_t i)
{
	const struct csv_rows *g = ctx;
	const struct analysis *a = g->a;
	const struct analysis_delay *d = (const struct analysis_delay *)g->v + i;
	if (!kept_lop(a, g->ph, d->lop))
		return;
	csv_at(b, 0, a, d->lop);
	csv_str(b, ',', report_lop_name(a, d->lop));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), d->cost));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), d->direct));
	csv_u32(b, ',', d->waits);
	csv_char(b, '\n');
}

static void
csv_outlier(struct csv_buf *b, void *ctx, uint32_t i)
{
	const struct csv_rows *g = ctx;
	const struct analysis *a = g->a;
	const struct analysis_outlier *o = (const struct analysis_outlier *)g->v + i;
	if (!kept_lop(a, g->ph, o->lop))
		return;
	csv_at(b, 0, a, o->lop);
	csv_str(b, ',', report_lop_name(a, o->lop));
	csv_opt(b, ',', iterations_of_lop(a, o->lop));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), o->duration));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), o->median));
	csv_u32(b, ',', o->instances);
	csv_char(b, '\n');
}

static void
csv_problem(struct csv_buf *b, void *ctx, uint32_t i)
{
	const struct csv_rows *g = ctx;
	const struct analysis *a = g->a;
	const struct analysis_problem *p = (const struct analysis_problem *)g->v + i;
	if (!kept_lop(a, g->ph, p->lop))
		return;
	csv_text(b, 0, analysis_problem_name((enum analysis_problem_kind)p->kind));
	csv_at(b, ',', a, p->lop);
	csv_str(b, ',', report_lop_name(a, p->lop));
	csv_opt(b, ',', iterations_of_lop(a, p->lop));
	csv_f9(b, ',', trace_seconds(analysis_trace(a), p->amount));
	csv_at(b, ',', a, p->surfaced);
	csv_char(b, '\n');
}

void
report_explain_csv(FILE *out, const struct analysis *a, const struct report_phases *ph,
		   enum report_table table)
{
	struct csv_rows g = { a, ph, NULL, 0 };
	switch (table) {
	case TABLE_WAITS:
		g.v = analysis_waits(a, &g.n);
		fputs("rank,step,region,kind,wait_s,cause_rank,cause_step,cause_region,root_rank,root_step,"
		      "root_region,partition,iteration\n", out);
		report_csv_rows(out, g.n, csv_wait, &g);
		break;
	case TABLE_DELAYS:
		g.v = analysis_delays(a, &g.n);
		fputs("rank,step,operation,cost_s,direct_s,waits\n", out);
		report_csv_rows(out, g.n, csv_delay, &g);
		break;
	case TABLE_OUTLIERS:
		g.v = analysis_outliers(a, &g.n);
		fputs("rank,step,operation,iteration,duration_s,median_s,instances\n", out);
		report_csv_rows(out, g.n, csv_outlier, &g);
		break;
	default:
		g.v = analysis_problems(a, &g.n);
		fputs("kind,rank,step,operation,iteration,amount_s,surfaced_rank,surfaced_step\n", out);
		report_csv_rows(out, g.n, csv_problem, &g);
		break;
	}
}

/* "rank 7's MPI_Send (step 12)" */
static const char *
lop_words(const struct analysis *a, uint32_t l, char *buf, size_t n)
{
	char nb[128];
	const char *name = text_safe(report_lop_name(a, l), nb, sizeof nb);
	if (analysis_lop_step(a, l) == TRACE_NONE)
		snprintf(buf, n, "rank %u's %s", analysis_lop_timeline(a, l), name);
	else
		snprintf(buf, n, "rank %u's %s (step %u)", analysis_lop_timeline(a, l), name,
			 analysis_lop_step(a, l));
	return buf;
}

/* What an outlier's median is over: "in the other iterations"; with no
 * iterations "in the rank's 8463 calls" (of its kind and region); in a
 * run with iterations, of a call in none of them, "in the rank's 438
 * calls outside the iterations" (the calls in them are not counted). */
static const char *
outlier_against(const struct analysis *a, const struct analysis_outlier *o, char *buf, size_t n)
{
	if (analysis_outliers_by_region(a))
		snprintf(buf, n, "in the rank's %u calls", o->instances);
	else if (analysis_outlier_by_region(a, o->lop))
		snprintf(buf, n, "in the rank's %u calls outside the iterations", o->instances);
	else
		snprintf(buf, n, "in the other iterations");
	return buf;
}

/* "3.3%" of whole, "under 0.1%" */
static const char *
share_words(uint64_t part, uint64_t whole, char *buf, size_t n)
{
	double s = whole ? 100.0 * (double)part / (double)whole : 0;
	if (s < 0.1)
		snprintf(buf, n, "under 0.1%%");
	else
		snprintf(buf, n, "%.1f%%", s);
	return buf;
}

/* A created problem put on a lop before the hotspot on its rank: the
 * hotspot's amount first, then what of it was lost before it and where:
 * among several lops the longest, with the share of the amount it can
 * explain (its time, at most what the stretch lost), which says little
 * by itself (on NWChem a 195-us computation among 4,096
 * operations stood for the 166.7 ms of the hotspot, of which 2 ms were
 * lost there). */
static void
lost_line(FILE *out, const struct analysis *a, const struct analysis_problem *p, uint32_t shown, const char *w1,
	  const char *amount)
{
	const struct trace *t = analysis_trace(a);
	char w2[256], b2[32], b3[32], sh[32];
	struct analysis_lost lost;
	analysis_lop_lost(a, p->surfaced, &lost);
	uint32_t n = p->surfaced > lost.from ? p->surfaced - lost.from : 0;
	lop_words(a, p->surfaced, w2, sizeof w2);
	trace_fmt_duration(t, lost.before, b3, sizeof b3);
	trace_fmt_duration(t, analysis_lop_duration(a, p->lop), b2, sizeof b2);
	uint64_t d = analysis_lop_duration(a, p->lop);
	share_words(d < lost.before ? d : lost.before, p->amount, sh, sizeof sh);
	if (p->lop != lost.culprit || n == 0)
		fprintf(out, "%3u  %s: %s of lateness lost here, created at %s\n", shown, w1, amount, w2);
	else if (n == 1)
		fprintf(out, "%3u  %s created %s of lateness; %s of it was lost before it, in %s (took %s, %s of it)\n",
			shown, w2, amount, b3, w1, b2, sh);
	else
		fprintf(out, "%3u  %s created %s of lateness; %s of it was lost in the %u operations before it%s, "
			"the longest %s (took %s, %s of it)\n", shown, w2, amount, b3, n,
			lost.capped ? " (no further looked at)" : "", w1, b2, sh);
}

/* A created problem left on its hotspot: where neither the hotspot nor
 * the stretch before it accounts for half of the amount, say so, so
 * that a short operation is not read as the stall (lockall-4-openmpi:
 * a 2-us computation 'created 73.00 ms'). */
static void
created_line(FILE *out, const struct analysis *a, const struct analysis_problem *p, uint32_t shown, const char *w1,
	     const char *amount)
{
	const struct trace *t = analysis_trace(a);
	char b2[32], b3[32];
	struct analysis_lost lost;
	analysis_lop_lost(a, p->lop, &lost);
	uint32_t n = p->lop > lost.from ? p->lop - lost.from : 0;
	if (2 * (lost.inside + lost.before) >= lost.created) {
		fprintf(out, "%3u  %s created %s of lateness\n", shown, w1, amount);
		return;
	}
	trace_fmt_duration(t, analysis_lop_duration(a, p->lop), b2, sizeof b2);
	trace_fmt_duration(t, lost.before, b3, sizeof b3);
	if (n == 0)
		fprintf(out, "%3u  %s created %s of lateness, most of it further back (it took %s)\n", shown, w1,
			amount, b2);
	else
		fprintf(out, "%3u  %s created %s of lateness, most of it further back than the %u operations before "
			"it%s (which lost %s; it took %s)\n", shown, w1, amount, n,
			lost.capped ? " (no further looked at)" : "", b3, b2);
}

void
report_explain_text(FILE *out, const struct analysis *a, const struct report_phases *ph, uint32_t limit)
{
	const struct trace *t = analysis_trace(a);
	char b1[32], b2[32], w1[256], w2[256];
	uint32_t n;
	const struct analysis_problem *p = analysis_problems(a, &n);
	fputs("\nproblems (largest first: delays by the waiting they caused, lateness created where it was "
	      "lost, outliers by their excess)\n", out);
	uint32_t shown = 0;
	for (uint32_t i = 0; i < n && shown < limit; i++) {
		if (!kept_lop(a, ph, p[i].lop))
			continue;
		shown++;
		trace_fmt_duration(t, p[i].amount, b1, sizeof b1);
		lop_words(a, p[i].lop, w1, sizeof w1);
		switch (p[i].kind) {
		case PROBLEM_DELAY:
			fprintf(out, "%3u  %s made others wait %s\n", shown, w1, b1);
			break;
		case PROBLEM_CREATED:
			/* another rank's operation held the hotspot up (the root
			 * of its wait, or the other end of what it polled for) */
			if (p[i].surfaced != p[i].lop && p[i].surfaced != TRACE_NONE &&
			    analysis_lop_timeline(a, p[i].surfaced) != analysis_lop_timeline(a, p[i].lop))
				fprintf(out, "%3u  %s held up %s, which created %s of lateness\n", shown, w1,
					lop_words(a, p[i].surfaced, w2, sizeof w2), b1);
			else if (p[i].surfaced != p[i].lop && p[i].surfaced != TRACE_NONE)
				lost_line(out, a, &p[i], shown, w1, b1);
			else
				created_line(out, a, &p[i], shown, w1, b1);
			break;
		default: {
			/* an outlier, or the operation that held one up (its
			 * wait's root, or a problem of another rank overlapping
			 * it): the outlier's own times, then */
			uint32_t at = p[i].surfaced != TRACE_NONE ? p[i].surfaced : p[i].lop;
			char w3[96];
			const struct analysis_outlier *o = analysis_lop_outlier(a, at);
			if (!o)
				fprintf(out, "%3u  %s: an outlier by %s\n", shown, w1, b1);
			else if (at == p[i].lop)
				fprintf(out, "%3u  %s took %s, its median %s %s\n", shown, w1,
					trace_fmt_duration(t, o->duration, b1, sizeof b1), outlier_against(a, o, w3, sizeof w3),
					trace_fmt_duration(t, o->median, b2, sizeof b2));
			else
				fprintf(out, "%3u  %s held up %s, which took %s (its median %s %s)\n",
					shown, w1, lop_words(a, at, w2, sizeof w2),
					trace_fmt_duration(t, o->duration, b1, sizeof b1), outlier_against(a, o, w3, sizeof w3),
					trace_fmt_duration(t, o->median, b2, sizeof b2));
			break;
		}
		}
	}
	if (!shown)
		fputs("  none found\n", out);

	uint32_t n_tl, n_reg;
	uint64_t *rank_t = NULL, *region_t = NULL, all[WAIT_KIND_COUNT] = { 0 };
	if (totals(a, ph, &rank_t, &region_t, &n_tl, &n_reg)) {
		fputs("\nwait states (Scalasca's): not shown: out of memory\n", out);
		return;
	}
	for (uint32_t tl = 0; tl < n_tl; tl++)
		for (int k = 0; k < WAIT_KIND_COUNT; k++)
			all[k] += rank_t[(size_t)tl * WAIT_KIND_COUNT + k];
	fputs("\nwait states (Scalasca's)", out);
	if (!any(all)) {
		fputs(": none\n", out);
	} else {
		fputc('\n', out);
		for (int k = 0; k < WAIT_KIND_COUNT; k++)
			if (all[k])
				fprintf(out, "  %-16s %12s\n", analysis_wait_name((enum analysis_wait_kind)k),
					trace_fmt_duration(t, all[k], b1, sizeof b1));
		/* the longest waits, the earlier of equal ones first: kept in a
		 * heap of limit (sorting them all was most of the report's time) */
		const struct analysis_wait *w = analysis_waits(a, &n);
		uint32_t k = limit < n ? limit : n, m = 0, kept = 0;
		struct sort_kv *top = malloc(((size_t)k + 1) * sizeof *top);
		uint32_t *order = malloc(((size_t)k + 1) * sizeof *order);
		for (uint32_t i = 0; top && order && i < n; i++)
			if (kept_lop(a, ph, w[i].lop)) {
				m = sort_top_offer(top, m, k, (struct sort_kv){ w[i].time, i });
				kept++;
			}
		if (top && order)
			sort_top_ids(top, m, k, order);
		else
			m = 0;
		if (!(top && order))
			fputs("  longest: not shown: out of memory\n", out);
		else if (kept)
			fputs("  longest:\n", out);
		for (uint32_t i = 0; i < m; i++) {
			const struct analysis_wait *x = &w[order[i]];
			fprintf(out, "  %s waited %s (%s) for %s", lop_words(a, x->lop, w1, sizeof w1),
				trace_fmt_duration(t, x->time, b1, sizeof b1),
				analysis_wait_name((enum analysis_wait_kind)x->kind),
				lop_words(a, x->cause_lop, w2, sizeof w2));
			if (x->root_lop != TRACE_NONE && x->root_lop != x->cause_lop)
				fprintf(out, "; root cause %s", lop_words(a, x->root_lop, w2, sizeof w2));
			fputc('\n', out);
		}
		free(top);
		free(order);
	}
	free(rank_t);
	free(region_t);
}
