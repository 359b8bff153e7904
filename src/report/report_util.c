/* report_util.c — names and CSV quoting shared by the report writers. */
#include "report_util.h"

#include <stdlib.h>

#include "report_impl.h"

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

static int
heavier(const void *x, const void *y)
{
	const struct report_row *a = x, *b = y;
	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static int
by_index(const void *x, const void *y)
{
	const struct report_row *a = x, *b = y;
	return a->k < b->k ? -1 : a->k > b->k;
}

uint32_t
report_top_rows(struct report_row *rows, uint32_t n, const struct report_phases *ph)
{
	if (report_all(ph) || n <= REPORT_TEXT_ROWS)
		return n;
	qsort(rows, n, sizeof *rows, heavier);
	qsort(rows, REPORT_TOP, sizeof *rows, by_index);
	return REPORT_TOP;
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

void
report_unused_text(const struct analysis *a, FILE *out)
{
	char buf[1024];
	uint32_t m = analysis_unused_opts(a);
	if (m)
		fprintf(out, "note          %s\n",
			analysis_opts_unused_text(m, report_is_charm(a), buf, sizeof buf));
}
