/* samples_impl.h — inside a sample set: shared by samples.c (the set, its
 * queries, opening a directory) and samples_csv.c (the reader). */
#ifndef SKEIN_SAMPLES_IMPL_H
#define SKEIN_SAMPLES_IMPL_H

#include "samples.h"

#include "base/hmap.h"
#include "base/intern.h"

#define SAMPLES_MAX_ATTRS 256
#define SAMPLES_MAX_WARN 16

/* What the reader does with a column. */
enum col_role {
	COL_NUMBER,           /* an attribute holding numbers */
	COL_STRING,           /* an attribute holding categories */
	COL_LATENCY, COL_CPU, COL_DSRC, COL_TIME, COL_LINE, COL_SYMBOL, COL_FILE,
};

struct sattr {
	uint32_t name;            /* string id */
	enum samples_kind kind;
	double *v;
	size_t cap;
	double lo, hi;
	uint32_t missing;
	uint32_t *cat;            /* category id -> string id */
	uint32_t n_cats;
	size_t cat_cap;
	struct hmap cat_of;       /* string id -> category id */
};

struct samples {
	struct samples_info info;
	struct topo *topo;
	struct intern *strings;
	struct hmap pu_of_os;     /* OS CPU number -> PU index */

	struct sattr attr[SAMPLES_MAX_ATTRS];
	struct samples_attr pub[SAMPLES_MAX_ATTRS];
	uint32_t n_attr;

	uint32_t n;
	size_t cap;
	uint32_t *pu;
	uint64_t *latency;
	uint8_t *level;
	uint32_t *symbol;
	uint32_t *codeline;

	struct samples_codeline *lines;
	uint32_t n_lines;
	size_t lines_cap;
	struct hmap line_of;      /* (file, line) -> codeline */

	char *warn[SAMPLES_MAX_WARN];
	uint32_t n_warn, n_warn_dropped;
	char *paths[4];           /* data, hardware, source dir: owned copies */
};

/* samples.c */
void samples_warn(struct samples *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds an attribute column; returns its index or a negative ERR_*. */
int samples_add_attr(struct samples *s, const char *name, enum samples_kind kind);
/* The category id of the len bytes at str in attribute a. */
int samples_add_category(struct samples *s, uint32_t a, const char *str, size_t len, uint32_t *id);
/* Makes room for one more sample in every column. */
int samples_grow(struct samples *s);
/* The code line id of (file, line). */
int samples_add_codeline(struct samples *s, uint32_t file, uint32_t line, uint32_t *id);
/* After reading: ranges, public views of the attributes. */
void samples_seal(struct samples *s);

#endif
