/* report_util.c — names and CSV quoting shared by the report writers. */
#include "report_util.h"

static const char *
region_name(const struct trace *t, uint32_t r)
{
	return r == TRACE_NONE ? "" : trace_str(t, trace_regions(t, NULL)[r].name);
}

const char *
report_lop_region(const struct analysis *a, uint32_t l)
{
	return region_name(analysis_trace(a), analysis_lop_region(a, l));
}

const char *
report_lop_name(const struct analysis *a, uint32_t l)
{
	return analysis_lop_kind(a, l) == OP_COMPUTE ? "(computation)" : report_lop_region(a, l);
}

const char *
report_lop_in(const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	uint32_t f = analysis_lop_frame(a, l);
	return f == TRACE_NONE ? "" : region_name(t, trace_frames(t, NULL)[f].region);
}

void
report_csv_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
