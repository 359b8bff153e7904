/* report_util.c — names and CSV quoting shared by the report writers. */
#include "report_util.h"

#include <stdlib.h>

#include "report_impl.h"

#include "base/json.h"
#include "base/par.h"
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

struct each_job {
	void (*each)(void *ctx, uint32_t i);
	void *ctx;
	uint32_t n;
};

static int
each_worker(void *ctx, uint32_t w, uint32_t nw)
{
	const struct each_job *g = ctx;
	uint32_t from, to;
	par_share(g->n, w, nw, &from, &to);
	for (uint32_t i = from; i < to; i++)
		g->each(g->ctx, i);
	return 0;
}

void
report_each(uint32_t n, void (*each)(void *ctx, uint32_t i), void *ctx)
{
	struct each_job g = { each, ctx, n };
	par_run(par_workers(), each_worker, &g);
}

/* Items a round: each worker's share of a round is held in memory (a
 * few MB for the wait states' objects) before it is written out. */
enum { ITEMS_ROUND = 1u << 15 };

struct items_job {
	struct json *j;
	void (*item)(struct json *j, void *ctx, uint32_t i);
	void *ctx;
	uint32_t i0, i1;
	struct json piece[PAR_MAX];
	struct json_mem mem[PAR_MAX];       /* each worker's, round after round */
	int bad[PAR_MAX];
};

static int
items_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct items_job *g = ctx;
	uint32_t from, to;
	par_share(g->i1 - g->i0, w, nw, &from, &to);
	json_piece_open(g->j, &g->piece[w], &g->mem[w]);
	for (uint32_t i = g->i0 + from; i < g->i0 + to; i++)
		g->item(&g->piece[w], g->ctx, i);
	g->bad[w] = json_piece_close(&g->piece[w]);
	return 0;
}

void
report_json_items(struct json *j, uint32_t n, void (*item)(struct json *j, void *ctx, uint32_t i), void *ctx)
{
	uint32_t nw = par_workers();
	struct items_job *g = nw > 1 && n > 1 ? calloc(1, sizeof *g) : NULL;
	if (g) {
		g->j = j;
		g->item = item;
		g->ctx = ctx;
	}
	for (uint32_t i0 = 0, i1; i0 < n; i0 = i1) {
		i1 = n - i0 < ITEMS_ROUND ? n : i0 + ITEMS_ROUND;
		int bad = !g;
		if (g) {
			g->i0 = i0;
			g->i1 = i1;
			par_run(nw, items_worker, g);
			for (uint32_t w = 0; w < nw; w++)
				bad |= g->bad[w];
			for (uint32_t w = 0; w < nw && !bad; w++)
				json_piece_append(j, &g->piece[w]);
		}
		/* one core (or no memory for the pieces): in place */
		for (uint32_t i = i0; bad && i < i1; i++)
			item(j, ctx, i);
	}
	for (uint32_t w = 0; g && w < PAR_MAX; w++)
		free(g->mem[w].p);
	free(g);
}
