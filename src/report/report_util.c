/* report_util.c — names and CSV quoting shared by the report writers. */
#include "report_util.h"

#include <stdlib.h>
#include <string.h>

#include "report_impl.h"

#include "base/fmt.h"
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

char *
csv_room_slow(struct csv_buf *b, size_t k)
{
	if (b->bad || b->fixed) {
		b->bad = 1;
		return NULL;
	}
	if (b->sink) {
		fwrite(b->p, 1, b->n, b->sink);
		b->n = 0;
		return k <= b->cap ? b->p : NULL;
	}
	size_t cap = b->cap ? b->cap : 1u << 16;
	while (cap - b->n < k)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->bad = 1;
		return NULL;
	}
	b->p = p;
	b->cap = cap;
	return p + b->n;
}

void
csv_put(struct csv_buf *b, const char *s, size_t n)
{
	char *d = csv_room(b, n);
	if (d) {
		memcpy(d, s, n);
		b->n += n;
	} else if (b->sink && !b->bad) {
		fwrite(s, 1, n, b->sink);       /* longer than the whole buffer */
	}
}

static inline void
sep_of(struct csv_buf *b, char sep)
{
	if (sep)
		csv_char(b, sep);
}

void
csv_text(struct csv_buf *b, char sep, const char *s)
{
	sep_of(b, sep);
	csv_put(b, s, strlen(s));
}

void
csv_u32(struct csv_buf *b, char sep, uint32_t v)
{
	sep_of(b, sep);
	char *d = csv_room(b, 20);
	if (d)
		b->n += (size_t)fmt_uint(v, d);
}

void
csv_opt(struct csv_buf *b, char sep, uint32_t v)
{
	sep_of(b, sep);
	if (v != TRACE_NONE)
		csv_u32(b, 0, v);
}

void
csv_int(struct csv_buf *b, char sep, int v)
{
	sep_of(b, sep);
	if (v < 0)
		csv_char(b, '-');
	csv_u32(b, 0, v < 0 ? 0u - (uint32_t)v : (uint32_t)v);
}

void
csv_f9(struct csv_buf *b, char sep, double v)
{
	sep_of(b, sep);
	char *d = csv_room(b, 32);
	int k = d ? fmt_f9(v, d) : 0;
	if (k) {
		b->n += (size_t)k;
		return;
	}
	char t[400];                /* printf's longest "%.9f": about 320 */
	k = snprintf(t, sizeof t, "%.9f", v);
	csv_put(b, t, k > 0 && (size_t)k < sizeof t ? (size_t)k : 0);
}

void
csv_str(struct csv_buf *b, char sep, const char *s)
{
	sep_of(b, sep);
	char buf[1024];
	const char *v = text_safe(s, buf, sizeof buf);
	csv_char(b, '"');
	for (const char *q; (q = strchr(v, '"')); v = q + 1) {
		csv_put(b, v, (size_t)(q - v) + 1);
		csv_char(b, '"');
	}
	csv_put(b, v, strlen(v));
	csv_char(b, '"');
}

void
report_csv_str(FILE *out, const char *s)
{
	char mem[256];
	struct csv_buf b = { .p = mem, .cap = sizeof mem, .sink = out };
	csv_str(&b, 0, s);
	fwrite(b.p, 1, b.n, out);
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

/* Rows a round, as report_json_items's items */
enum { ROWS_ROUND = 1u << 15 };

struct rows_job {
	void (*row)(struct csv_buf *b, void *ctx, uint32_t i);
	void *ctx;
	uint32_t i0, i1;
	struct csv_buf b[PAR_MAX];      /* each worker's, round after round */
};

static int
rows_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct rows_job *g = ctx;
	uint32_t from, to;
	par_share(g->i1 - g->i0, w, nw, &from, &to);
	g->b[w].n = 0;
	for (uint32_t i = g->i0 + from; i < g->i0 + to && !g->b[w].bad; i++)
		g->row(&g->b[w], g->ctx, i);
	return 0;
}

void
report_csv_rows(FILE *out, uint32_t n, void (*row)(struct csv_buf *b, void *ctx, uint32_t i), void *ctx)
{
	uint32_t nw = par_workers();
	struct rows_job *g = nw > 1 && n > 1 ? calloc(1, sizeof *g) : NULL;
	if (g) {
		g->row = row;
		g->ctx = ctx;
	}
	char mem[1u << 16];
	struct csv_buf one = { .p = mem, .cap = sizeof mem, .sink = out };
	for (uint32_t i0 = 0, i1; i0 < n; i0 = i1) {
		i1 = n - i0 < ROWS_ROUND ? n : i0 + ROWS_ROUND;
		int bad = !g;
		if (g) {
			g->i0 = i0;
			g->i1 = i1;
			par_run(nw, rows_worker, g);
			for (uint32_t w = 0; w < nw; w++)
				bad |= g->b[w].bad;
			if (!bad && one.n) {
				fwrite(one.p, 1, one.n, out);   /* an earlier round's, first */
				one.n = 0;
			}
			for (uint32_t w = 0; w < nw && !bad; w++)
				if (g->b[w].n)  /* an empty share may have no memory */
					fwrite(g->b[w].p, 1, g->b[w].n, out);
			for (uint32_t w = 0; w < nw; w++)
				g->b[w].bad = 0;
		}
		/* one core (or no memory for the shares): through a buffer
		 * that goes out when full */
		for (uint32_t i = i0; bad && i < i1; i++)
			row(&one, ctx, i);
	}
	if (one.n)
		fwrite(one.p, 1, one.n, out);
	for (uint32_t w = 0; g && w < PAR_MAX; w++)
		free(g->b[w].p);
	free(g);
}

void
report_json_not_shown(struct json *j)
{
	json_begin_object(j);
	json_key(j, "not_shown"); json_string(j, "out of memory");
	json_end_object(j);
}
