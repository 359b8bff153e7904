/* report_util.h — what the report writers (analyze, diff, export) share:
 * how an operation is named and how a CSV field is quoted. Internal to
 * report/. */
#ifndef SKEIN_REPORT_UTIL_H
#define SKEIN_REPORT_UTIL_H

#include <stdio.h>

#include "analysis/core/analysis.h"
#include "base/text.h"

/* A text table's column of at least w columns, grown to the columns s
 * takes (text_width) up to max: called on every name a column shows,
 * it sizes the column to its rows; text_fit then cuts the longer. */
static inline int
report_col_grow(int w, const char *s, int max)
{
	int k = text_width(s);
	return k <= w ? w : k < max ? k : max;
}

/* A JSON value in place of a section that could not be made for want
 * of memory: {"not_shown": "out of memory"} (the text says
 * "not shown: out of memory" where the section would be). */
struct json;
void report_json_not_shown(struct json *j);

/* The region a lop shows as (analysis_lop_region), or "". */
const char *report_lop_region(const struct analysis *a, uint32_t l);
/* "(computation)" for a computation, else its region. */
const char *report_lop_name(const struct analysis *a, uint32_t l);
/* The innermost user region around a lop, or "". */
const char *report_lop_in(const struct analysis *a, uint32_t l);
/* s as a CSV field, quoted as RFC 4180 says (always, with quotes
 * doubled, so commas and line breaks stay inside it), control characters
 * shown as '?' like every other text output (base/text.h). */
void report_csv_str(FILE *out, const char *s);

/* Calls each(ctx, i) for i in 0 .. n on every core, each worker a run of
 * them: each must write only its own i's results and read only what no
 * one writes meanwhile. */
void report_each(uint32_t n, void (*each)(void *ctx, uint32_t i), void *ctx);

struct json;
/* Writes items 0 .. n of the array j is in, item(j, ctx, i) writing item
 * i (or nothing), on every core: in rounds, each worker's share written
 * into memory (json_piece_open) and added in order, so the bytes are
 * those of one loop on one core. item must read only what no one
 * writes meanwhile. */
void report_json_items(struct json *j, uint32_t n, void (*item)(struct json *j, void *ctx, uint32_t i),
		       void *ctx);

/* A CSV table's rows written in memory (report_csv_rows), with what
 * fprintf and report_csv_str would write: the same bytes, without
 * printf (its "%.9f" took half of `export --csv`). */
struct csv_buf {
	char *p;
	size_t n, cap;
	FILE *sink;            /* where a full buffer goes, or NULL: it grows */
	int fixed;             /* p is the caller's: it does not grow (bad) */
	int bad;               /* it could not grow: what it holds is short */
	/* a row writer's one remembered field: memo's n bytes are the
	 * field of key memo_key - 1 (0: none), as a Charm++ lop's chare,
	 * the same for a timeline's lops, which come together */
	uint32_t memo_key;
	uint32_t memo_n;
	char memo[256];
};
/* Room for k more bytes: where they go (the caller adds what it wrote
 * to n), or NULL when the buffer could not grow (bad). */
char *csv_room_slow(struct csv_buf *b, size_t k);
static inline char *
csv_room(struct csv_buf *b, size_t k)
{
	return b->cap - b->n >= k ? b->p + b->n : csv_room_slow(b, k);
}
void csv_put(struct csv_buf *b, const char *s, size_t n);
static inline void
csv_char(struct csv_buf *b, char c)
{
	char *d = csv_room(b, 1);
	if (d) {
		*d = c;
		b->n++;
	}
}
/* A field after the separator sep (none when 0): fputs; "%u"; "%u" or
 * nothing for TRACE_NONE; "%d"; "%.9f"; text quoted as report_csv_str
 * quotes it */
void csv_text(struct csv_buf *b, char sep, const char *s);
void csv_u32(struct csv_buf *b, char sep, uint32_t v);
void csv_opt(struct csv_buf *b, char sep, uint32_t v);
void csv_int(struct csv_buf *b, char sep, int v);
void csv_f9(struct csv_buf *b, char sep, double v);
void csv_str(struct csv_buf *b, char sep, const char *s);

/* Writes rows 0 .. n to out, row(b, ctx, i) writing row i (or nothing)
 * into b, on every core: in rounds, each worker's share in its own
 * memory, written out in order, so the bytes are those of one loop on
 * one core (and are, where memory for a share runs out). row must read
 * only what no one writes meanwhile. */
void report_csv_rows(FILE *out, uint32_t n, void (*row)(struct csv_buf *b, void *ctx, uint32_t i),
		     void *ctx);

#endif
