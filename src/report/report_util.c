/* report_util.c — names and CSV quoting shared by the report writers. */
#include "report_util.h"

#include "base/text.h"

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
	char buf[1024];
	const char *v = text_safe(s, buf, sizeof buf);
	fputc('"', out);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', out);
		fputc(*v, out);
	}
	fputc('"', out);
}
