/* report_path.c — the critical path in `skein analyze` (report_path.h). */
#include "report_path.h"

#include <stdlib.h>

#include "base/text.h"
#include "report_impl.h"

const char *
report_path_region_name(const struct analysis *a, uint32_t region)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n;
	const struct trace_region *r = trace_regions(t, &n);
	if (region < n)
		return trace_str(t, r[region].name);
	return region == PATH_REGION_STARTUP ? "(start-up)" : region == PATH_REGION_IDLE ? "(idle)" : "(no region)";
}

/* Each place's time on the path (n_places values, the caller's). */
static uint64_t *
per_timeline(const struct path *p)
{
	uint64_t *v = calloc((size_t)p->n_places + 1, sizeof *v);
	for (uint32_t i = 0; v && i < p->n_segs; i++)
		v[p->segs[i].tl] += p->segs[i].to - p->segs[i].from;
	return v;
}

static double
share(uint64_t x, uint64_t of)
{
	return of ? 100.0 * (double)x / (double)of : 0;
}

void
report_path_json(struct json *j, const struct analysis *a, const struct path *p)
{
	const struct trace *t = analysis_trace(a);
	json_key(j, "critical_path");
	json_begin_object(j);
	json_key(j, "length_s"); json_double(j, trace_seconds(t, p->length));
	json_key(j, "from_s"); json_double(j, trace_seconds(t, p->from));
	json_key(j, "to_s"); json_double(j, trace_seconds(t, p->to));
	json_key(j, "segments"); json_uint(j, p->n_segs);
	json_key(j, "rank_changes"); json_uint(j, p->jumps);
	json_key(j, "blame_s"); json_double(j, trace_seconds(t, p->blame_total));
	json_key(j, "regions");
	json_begin_array(j);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct path_region *r = &p->regions[i];
		json_begin_object(j);
		json_key(j, "region"); json_string(j, report_path_region_name(a, r->region));
		json_key(j, "time_s"); json_double(j, trace_seconds(t, r->time));
		json_key(j, "share"); json_double(j, p->length ? (double)r->time / (double)p->length : 0);
		json_key(j, "calls"); json_uint(j, r->calls);
		json_key(j, "blame_s"); json_double(j, trace_seconds(t, r->blame));
		json_end_object(j);
	}
	json_end_array(j);
	uint64_t *v = per_timeline(p);
	json_key(j, "ranks");
	if (!v) {                 /* the ranks and the lanes */
		report_json_not_shown(j);
		json_key(j, "lanes");
		report_json_not_shown(j);
		json_end_object(j);
		return;
	}
	json_begin_array(j);
	for (uint32_t tl = 0; tl < p->n_timelines; tl++) {
		if (!v[tl])
			continue;
		json_begin_object(j);
		json_key(j, "rank"); json_uint(j, tl);
		json_key(j, "time_s"); json_double(j, trace_seconds(t, v[tl]));
		json_end_object(j);
	}
	json_end_array(j);
	/* the threads and streams the path passes: an empty list for a
	 * trace without any (a reader need not ask whether it is there) */
	uint32_t n_lanes;
	const struct trace_lane *lanes = trace_lanes(t, &n_lanes);
	const struct trace_location *locs = trace_locations(t, NULL);
	json_key(j, "lanes");
	json_begin_array(j);
	for (uint32_t i = 0; i < n_lanes && p->n_timelines + i < p->n_places; i++) {
		if (!v[p->n_timelines + i])
			continue;
		json_begin_object(j);
		json_key(j, "rank"); json_uint(j, lanes[i].timeline);
		json_key(j, "lane"); json_string(j, trace_str(t, locs[lanes[i].location].name));
		json_key(j, "kind"); json_string(j, lanes[i].kind == LANE_GPU ? "gpu" : "thread");
		json_key(j, "time_s"); json_double(j, trace_seconds(t, v[p->n_timelines + i]));
		json_end_object(j);
	}
	json_end_array(j);
	free(v);
	json_end_object(j);
}

void
report_path_csv(FILE *out, const struct analysis *a, const struct path *p)
{
	const struct trace *t = analysis_trace(a);
	fputs("region,time_s,share,calls,blame_s\n", out);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct path_region *r = &p->regions[i];
		report_csv_str(out, report_path_region_name(a, r->region));
		fprintf(out, ",%.9f,%.6f,%llu,%.9f\n", trace_seconds(t, r->time),
			p->length ? (double)r->time / (double)p->length : 0, (unsigned long long)r->calls,
			trace_seconds(t, r->blame));
	}
}

static int
more_blame(const void *x, const void *y)
{
	const struct path_region *p = *(const struct path_region *const *)x, *q = *(const struct path_region *const *)y;
	if (p->blame != q->blame)
		return p->blame > q->blame ? -1 : 1;
	return p->time > q->time ? -1 : p->time < q->time;
}

void
report_path_text(FILE *out, const struct analysis *a, const struct path *p, uint32_t limit)
{
	const struct trace *t = analysis_trace(a);
	char b1[32], b2[32], nb[256];
	fprintf(out, "\ncritical path  %s, the run from %.6f s to %.6f s, over %u change%s of rank\n",
		trace_fmt_duration(t, p->length, b1, sizeof b1), trace_seconds(t, p->from),
		trace_seconds(t, p->to), p->jumps, p->jumps == 1 ? "" : "s");
	if (!p->n_regions)
		return;
	/* the names' column as wide as the rows shown need, 32 to 48 */
	int w = 32;
	for (uint32_t i = 0; i < p->n_regions && i < limit; i++) {
		int k = text_width(report_path_region_name(a, p->regions[i].region));
		w = k > w ? (k < 48 ? k : 48) : w;
	}
	fprintf(out, "  %s %12s %7s %9s %12s\n", text_safe_pad("region (by time on the path)", w, nb, sizeof nb),
		"on path", "share", "calls", "blame");
	for (uint32_t i = 0; i < p->n_regions && i < limit; i++) {
		const struct path_region *r = &p->regions[i];
		fprintf(out, "  %s %12s %6.2f%% %9llu %12s\n",
			text_fit(report_path_region_name(a, r->region), w, nb, sizeof nb),
			trace_fmt_duration(t, r->time, b1, sizeof b1), share(r->time, p->length),
			(unsigned long long)r->calls, trace_fmt_duration(t, r->blame, b2, sizeof b2));
	}
	if (p->n_regions > limit)
		fprintf(out, "  … %u more (--all, or --format csv --table critical)\n", p->n_regions - limit);
	/* what to optimise first: the most blame, when it is not the same
	 * order as the time on the path */
	const struct path_region **b = malloc(((size_t)p->n_regions + 1) * sizeof *b);
	if (!b && p->blame_total)
		fputs("  most blame: not shown: out of memory\n", out);
	if (!b || !p->blame_total) {
		free(b);
		return;
	}
	for (uint32_t i = 0; i < p->n_regions; i++)
		b[i] = &p->regions[i];
	qsort(b, p->n_regions, sizeof *b, more_blame);
	/* whom the waiting was on: other ranks (delays), the threads and
	 * host of a process (lane waits), or both */
	uint32_t n_lanes;
	trace_lanes(t, &n_lanes);
	int mpi = !trace_info(t)->warnings[WARN_NO_MPI_RANKS];
	fprintf(out, "  most blame (the waiting its time caused %s):",
		!n_lanes ? "on other ranks" : mpi ? "on other ranks and in its process" : "elsewhere in its process");
	for (uint32_t i = 0; i < p->n_regions && i < 3 && b[i]->blame; i++)
		fprintf(out, "%s %s %s (%.1f%%)", i ? "," : "",
			text_safe(report_path_region_name(a, b[i]->region), nb, sizeof nb),
			trace_fmt_duration(t, b[i]->blame, b1, sizeof b1), share(b[i]->blame, p->blame_total));
	fputc('\n', out);
	free(b);
}
