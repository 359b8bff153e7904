/* report_hybrid.c — the threads' and streams' wait states in `skein
 * analyze` (report_hybrid.h). */
#include "report_hybrid.h"

#include <inttypes.h>
#include <stdlib.h>

#include "analysis/hybrid/hybrid.h"
#include "base/text.h"
#include "report_impl.h"

/* "rank 3" or "rank 3 OMP thread 1" (safe for a terminal). */
static const char *
place_name(const struct trace *t, const struct hybrid *h, uint32_t p, char *buf, size_t n)
{
	char name[128];
	if (p < h->n_timelines) {
		snprintf(buf, n, "rank %u", p);
		return buf;
	}
	const struct trace_lane *L = &trace_lanes(t, NULL)[p - h->n_timelines];
	snprintf(buf, n, "rank %u %s", L->timeline,
		 text_safe(trace_str(t, trace_locations(t, NULL)[L->location].name), name, sizeof name));
	return buf;
}

static const char *
region_name(const struct trace *t, uint32_t r)
{
	return trace_str(t, trace_regions(t, NULL)[r].name);
}

static const char *
frame_region(const struct trace *t, const struct hybrid *h, uint32_t p, uint32_t f)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, h, p, &first, &n);
	return trace_str(t, trace_regions(t, NULL)[fr[f].region].name);
}

/* The hybrid dependencies of a's trace: 1, or 0 when it has no lanes,
 * or -1 when memory ran out (each writer says so in the section's
 * place). */
static int
compute(const struct analysis *a, struct hybrid *h)
{
	uint32_t n_lanes;
	trace_lanes(analysis_trace(a), &n_lanes);
	if (!n_lanes || report_is_charm(a))
		return 0;
	return hybrid_compute(analysis_trace(a), h, NULL) == 0 ? 1 : -1;
}

static int
longer(const void *x, const void *y)
{
	const struct hybrid_wait *p = *(const struct hybrid_wait *const *)x,
				 *q = *(const struct hybrid_wait *const *)y;
	uint64_t a = p->to - p->from, b = q->to - q->from;
	if (a != b)
		return a > b ? -1 : 1;
	return p->from < q->from ? -1 : p->from > q->from;
}

void
report_hybrid_text(FILE *out, const struct analysis *a, uint32_t limit)
{
	const struct trace *t = analysis_trace(a);
	struct hybrid h;
	int got = compute(a, &h);
	if (got < 0)
		fputs("\nthreads and streams  not shown: out of memory\n", out);
	if (got <= 0)
		return;
	uint32_t n_lanes;
	const struct trace_lane *lanes = trace_lanes(t, &n_lanes);
	uint32_t kinds[LANE_GPU + 1] = { 0 };
	for (uint32_t i = 0; i < n_lanes; i++)
		kinds[lanes[i].kind]++;
	uint64_t time[HYW_KIND_COUNT] = { 0 }, count[HYW_KIND_COUNT] = { 0 };
	for (uint32_t i = 0; i < h.n_waits; i++) {
		time[h.waits[i].kind] += h.waits[i].to - h.waits[i].from;
		count[h.waits[i].kind]++;
	}
	char b1[32], b2[32], p1[200], p2[200], r1[128], r2[128];
	int mpi = !trace_info(t)->warnings[WARN_NO_MPI_RANKS];
	fprintf(out, "\nthreads and streams  %u thread%s and %u GPU stream%s under their %s: "
		"%" PRIu64 " OpenMP team%s, %" PRIu64 " barrier%s matched",
		kinds[LANE_THREAD], kinds[LANE_THREAD] == 1 ? "" : "s", kinds[LANE_GPU],
		kinds[LANE_GPU] == 1 ? "" : "s", mpi ? "ranks" : "processes", h.teams,
		h.teams == 1 ? "" : "s", h.barriers, h.barriers == 1 ? "" : "s");
	if (h.tasks)
		fprintf(out, ", %" PRIu64 " task%s run by another thread", h.tasks, h.tasks == 1 ? "" : "s");
	if (h.unpaired_work || h.unpaired_calls)
		fprintf(out, "; %" PRIu64 " kernels or copies without their call, %" PRIu64
			" calls without their device work", h.unpaired_work, h.unpaired_calls);
	if (h.lock_gaps)
		fprintf(out, "; %" PRIu64 " lock acquisition%s after a missing one (holder before unknown)",
			h.lock_gaps, h.lock_gaps == 1 ? "" : "s");
	if (h.parts_unsure)
		fprintf(out, "; %" PRIu64 " thread part%s in no team (begun while nested teams' forks "
			"were open: membership unknown)", h.parts_unsure, h.parts_unsure == 1 ? "" : "s");
	char b3[32];
	fprintf(out, "\n  waiting    device %s in %" PRIu64 " call%s, OpenMP barriers %s in %" PRIu64
		", critical sections %s in %" PRIu64,
		trace_fmt_duration(t, time[HYW_DEVICE], b1, sizeof b1), count[HYW_DEVICE],
		count[HYW_DEVICE] == 1 ? "" : "s", trace_fmt_duration(t, time[HYW_BARRIER], b2, sizeof b2),
		count[HYW_BARRIER], trace_fmt_duration(t, time[HYW_CRITICAL], b3, sizeof b3),
		count[HYW_CRITICAL]);
	if (count[HYW_LOCK])
		fprintf(out, ", locks %s in %" PRIu64, trace_fmt_duration(t, time[HYW_LOCK], b1, sizeof b1),
			count[HYW_LOCK]);
	if (count[HYW_TASKWAIT])
		fprintf(out, ", taskwaits %s in %" PRIu64, trace_fmt_duration(t, time[HYW_TASKWAIT], b1, sizeof b1),
			count[HYW_TASKWAIT]);
	fputc('\n', out);
	const struct hybrid_wait **w = malloc(((size_t)h.n_waits + 1) * sizeof *w);
	for (uint32_t i = 0; w && i < h.n_waits; i++)
		w[i] = &h.waits[i];
	if (w)
		qsort(w, h.n_waits, sizeof *w, longer);
	if (!w && h.n_waits)
		fputs("  the longest: not shown: out of memory\n", out);
	for (uint32_t i = 0; w && i < h.n_waits && i < limit; i++)
		fprintf(out, "  %s waited %s in %s for %s (%s), at %.6f s\n",
			place_name(t, &h, w[i]->place, p1, sizeof p1),
			trace_fmt_duration(t, w[i]->to - w[i]->from, b1, sizeof b1),
			text_safe(frame_region(t, &h, w[i]->place, w[i]->frame), r1, sizeof r1),
			place_name(t, &h, w[i]->cause, p2, sizeof p2),
			text_safe(region_name(t, hybrid_blamed_region(t, &h, w[i])), r2, sizeof r2),
			trace_seconds(t, w[i]->from));
	if (w && h.n_waits > limit)
		fprintf(out, "  … %u more (--all, or --format csv --table lane-waits)\n", h.n_waits - limit);
	free(w);
	hybrid_free(&h);
}

void
report_hybrid_json(struct json *j, const struct analysis *a)
{
	const struct trace *t = analysis_trace(a);
	struct hybrid h;
	int got = compute(a, &h);
	if (got < 0) {
		json_key(j, "lane_waits");
		report_json_not_shown(j);
	}
	if (got <= 0)
		return;
	char p1[200];
	json_key(j, "lane_waits");
	json_begin_object(j);
	json_key(j, "teams"); json_uint(j, h.teams);
	json_key(j, "barriers"); json_uint(j, h.barriers);
	json_key(j, "tasks"); json_uint(j, h.tasks);
	json_key(j, "lock_passes"); json_uint(j, h.lock_passes);
	json_key(j, "lock_gaps"); json_uint(j, h.lock_gaps);
	json_key(j, "unpaired_work"); json_uint(j, h.unpaired_work);
	json_key(j, "unpaired_calls"); json_uint(j, h.unpaired_calls);
	json_key(j, "parts_without_team"); json_uint(j, h.parts_unsure);
	json_key(j, "waits");
	json_begin_array(j);
	for (uint32_t i = 0; i < h.n_waits; i++) {
		const struct hybrid_wait *w = &h.waits[i];
		json_begin_object(j);
		json_key(j, "kind"); json_string(j, hybrid_wait_name(w->kind));
		json_key(j, "rank"); json_uint(j, hybrid_place_rank(t, &h, w->place));
		json_key(j, "where"); json_string(j, place_name(t, &h, w->place, p1, sizeof p1));
		json_key(j, "region"); json_string(j, frame_region(t, &h, w->place, w->frame));
		json_key(j, "at_s"); json_double(j, trace_seconds(t, w->from));
		json_key(j, "time_s"); json_double(j, trace_seconds(t, w->to - w->from));
		json_key(j, "cause"); json_string(j, place_name(t, &h, w->cause, p1, sizeof p1));
		json_key(j, "cause_region"); json_string(j, region_name(t, hybrid_blamed_region(t, &h, w)));
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	hybrid_free(&h);
}

int
report_hybrid_csv(FILE *out, const struct analysis *a)
{
	const struct trace *t = analysis_trace(a);
	struct hybrid h;
	int got = compute(a, &h);
	if (got < 0)
		return ERR_NOMEM;       /* nothing written */
	fputs("kind,rank,where,region,at_s,time_s,cause,cause_region\n", out);
	if (!got)
		return 0;
	char p1[200];
	for (uint32_t i = 0; i < h.n_waits; i++) {
		const struct hybrid_wait *w = &h.waits[i];
		fprintf(out, "%s,%u,", hybrid_wait_name(w->kind), hybrid_place_rank(t, &h, w->place));
		report_csv_str(out, place_name(t, &h, w->place, p1, sizeof p1));
		fputc(',', out);
		report_csv_str(out, frame_region(t, &h, w->place, w->frame));
		fprintf(out, ",%.9f,%.9f,", trace_seconds(t, w->from), trace_seconds(t, w->to - w->from));
		report_csv_str(out, place_name(t, &h, w->cause, p1, sizeof p1));
		fputc(',', out);
		report_csv_str(out, region_name(t, hybrid_blamed_region(t, &h, w)));
		fputc('\n', out);
	}
	hybrid_free(&h);
	return 0;
}
