/* report_impl.h — what the analyze writers share: report.c (both
 * paradigms' JSON and CSV, the MPI text) and report_charm.c (the Charm++
 * text, and the Charm++ fields the others add). */
#ifndef SKEIN_REPORT_IMPL_H
#define SKEIN_REPORT_IMPL_H

#include <stdio.h>

#include "base/json.h"
#include "report.h"
#include "report_util.h"

static inline int
kept_part(const struct report_phases *ph, uint32_t p)
{
	return !ph || !ph->keep || ph->keep[p];
}

static inline int
kept_lop(const struct analysis *a, const struct report_phases *ph, uint32_t l)
{
	return kept_part(ph, analysis_lop_part(a, l));
}

/* Text tables longer than this show their REPORT_TOP heaviest rows, in
 * order, unless ph->all. */
#define REPORT_TEXT_ROWS 40
#define REPORT_TOP 20

static inline int
report_all(const struct report_phases *ph)
{
	return ph && ph->all;
}

/* A row to rank: its weight and its index. */
struct report_row {
	uint64_t w;
	uint32_t k;
};
/* The rows to show of n weighed rows (rows[k].w, rows[k].k = k): all of
 * them in order, or the REPORT_TOP heaviest in order; returns how many
 * (rows reordered). */
uint32_t report_top_rows(struct report_row *rows, uint32_t n, const struct report_phases *ph);

static inline const char *
part_name(const struct report_phases *ph, uint32_t p)
{
	return ph && ph->name ? ph->name[p] : NULL;
}

static inline void
on_off(FILE *out, const char *name, int v, int *first)
{
	fprintf(out, "%s%s %s", *first ? "" : ", ", name, v ? "on" : "off");
	*first = 0;
}

/* "note  ... do not apply ..." when options given did not apply. */
void report_unused_text(const struct analysis *a, FILE *out);

/* `skein diff` of two Charm++ runs as text (diff_charm.c). */
struct diff;
int diff_report_charm_text(const struct diff *d, FILE *out, uint32_t top);

/* Charm++ (report_charm.c): the text report, and the fields JSON and CSV
 * add to the MPI schema for a Charm++ trace (doc/charm.md). */
int report_is_charm(const struct analysis *a);
void report_charm_text(const struct analysis *a, const struct report_phases *ph, FILE *out);
void report_charm_json_options(struct json *j, const struct analysis *a);
void report_charm_json_counts(struct json *j, const struct analysis *a);
void report_charm_json_part(struct json *j, const struct analysis *a, uint32_t p);
void report_charm_json_lop(struct json *j, const struct analysis *a, uint32_t l);
void report_charm_json_timeline(struct json *j, const struct analysis *a,
				const struct report_phases *ph, uint32_t tl);
/* CSV: the columns appended to each table's header, and to its rows */
extern const char report_charm_csv_lop_header[], report_charm_csv_part_header[],
	report_charm_csv_timeline_header[];
struct csv_buf;
void report_charm_csv_lop(struct csv_buf *b, const struct analysis *a, uint32_t l);
void report_charm_csv_part(FILE *out, const struct analysis *a, uint32_t p);
void report_charm_csv_timeline(FILE *out, const struct analysis *a, const struct report_phases *ph,
			       uint32_t tl);

#endif
