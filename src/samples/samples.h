/* samples.h — sampled memory accesses on a hardware topology: the data
 * MemAxes reads (seed 002 §4.1), as a table of columns.
 *
 * A sample set is a directory in MemAxes' layout:
 *
 *   DIR/hardware.xml        the node: MemAxes' own <Hardware><NUMA><Cache>
 *                           <CPU> XML, or an hwloc 1.x / 2.x XML export
 *   DIR/data/samples.out    one CSV line per sample (or samples.csv)
 *   DIR/src/                the program's source files (optional)
 *
 * The CSV comes in three header variants, told apart by the name of the
 * data-source column: `dataSource` (MemAxes 0.5: hexadecimal Intel PEBS
 * data-source encoding, and a hexadecimal `time`), `data_source` (the same
 * encoding in decimal) and `data_src` (Mitos: Linux perf's
 * perf_mem_data_src, decimal). `cpu` and `latency` are required; `variable`
 * (the data symbol), `source` and `line` (the code), `time` and any other
 * column (`xidx`, `iter`, ...) are kept as attributes. doc/samples.md
 * describes the formats and the decoding, with their sources.
 *
 * Every column is an attribute: numbers as doubles (NAN where the value is
 * missing: empty, "??" or "(null)"), strings as categories numbered in
 * order of first appearance. The data source is also decoded into the
 * memory level that served the access (an extra attribute, `level`).
 * Arrays are owned by the sample set and live until samples_destroy.
 *
 *   samples_open (or samples_create → samples_read_csv) → queries → samples_destroy
 *
 * Functions return 0 or a negative ERR_* code with a one-line message in
 * e: "file:line: message" for the CSV and the XML.
 */
#ifndef SKEIN_SAMPLES_H
#define SKEIN_SAMPLES_H

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "topo/topo.h"

#define SAMPLES_NONE UINT32_MAX
/* The largest latency a sample may have, in cycles (about a second at
 * 4 GHz; real loads take hundreds): the reader refuses any larger one,
 * so that the latencies of every sample a set may hold (SAMPLES_NONE - 1)
 * add up within 64 bits wherever they are summed. */
#define SAMPLES_MAX_LATENCY UINT32_MAX

enum samples_encoding {
	SAMPLES_PEBS_HEX,     /* dataSource: Intel PEBS load-latency encoding, hexadecimal */
	SAMPLES_PEBS,         /* data_source: the same, decimal */
	SAMPLES_PERF,         /* data_src: Linux perf_mem_data_src, decimal */
	SAMPLES_ENCODING_COUNT
};

/* The memory level an access was served from (samples_dsrc.c). */
enum samples_level {
	SL_UNKNOWN,           /* not recorded, reserved encodings */
	SL_L1, SL_LFB,        /* L1 hit; a miss already pending in the line fill buffer */
	SL_L2, SL_L3,
	SL_L3_SNOOP,          /* L3 hit served by another core's cache (snoop) */
	SL_L3_MISS,           /* missed L3, source unknown */
	SL_REMOTE_CACHE,      /* another package's cache */
	SL_LOCAL_RAM, SL_REMOTE_RAM,
	SL_IO, SL_UNCACHED,
	SL_COUNT
};

enum samples_level samples_decode(enum samples_encoding enc, uint64_t raw);
/* "L1", "LFB", "L3 snoop", "local RAM", ... */
const char *samples_level_name(enum samples_level l);
/* The type of topology object that serves an access of level l (TOPO_L1,
 * TOPO_L2, TOPO_L3, TOPO_NUMA, or TOPO_MACHINE for the other package), or
 * TOPO_TYPE_COUNT when the level does not say (the access then counts at
 * its CPU only, as in MemAxes). */
enum topo_type samples_level_server(enum samples_level l);
const char *samples_encoding_name(enum samples_encoding enc);

enum samples_kind { SAMPLES_NUMBER, SAMPLES_CATEGORY };

struct samples_attr {
	const char *name;
	enum samples_kind kind;
	const double *v;          /* one per sample; NAN where missing */
	double lo, hi;            /* range of the values present (lo > hi: none) */
	uint32_t n_cats;          /* SAMPLES_CATEGORY: ids 0..n_cats-1 */
	uint32_t missing;
	int whole;                /* every value present is a whole number */
};

/* Where a sample's code is: a file (a category of the source column) and
 * a line. */
struct samples_codeline {
	uint32_t file, line;
};

struct samples_info {
	uint32_t n;               /* samples */
	enum samples_encoding encoding;
	const char *data_path;    /* the CSV */
	const char *hardware_path;
	const char *hardware_format;   /* "MemAxes XML" or "hwloc XML" */
	const char *source_dir;   /* DIR/src, or NULL */
	uint32_t unmapped;        /* samples whose CPU is not in the topology */
	/* attribute index of each known column, or -1 */
	int a_latency, a_cpu, a_dsrc, a_level, a_time, a_symbol, a_file, a_line;
};

struct samples;

struct samples_opts {
	const char *data;         /* the CSV; NULL: DIR/data/samples.out or samples.csv */
};

/* Opens a sample set: path is its directory, or a CSV inside DIR/data/
 * (the hardware is then DIR/hardware.xml). o may be NULL. */
int samples_open(const char *path, const struct samples_opts *o, struct samples **out,
		 struct err *e);
/* 1 when path looks like a sample set (a directory holding hardware.xml
 * and data/, or a file in such a data/ directory). */
int samples_probe(const char *path);

/* The pieces, for tests and the fuzzer: an empty set on topology t (taken
 * over, destroyed with the set), then one CSV from f (name is used in
 * messages). */
int samples_create(struct topo *t, struct samples **out, struct err *e);
int samples_read_csv(struct samples *s, const char *name, FILE *f, struct err *e);
void samples_destroy(struct samples *s);

/* The hardware: MemAxes' XML (read with libxml2) or hwloc's (through
 * topo/). *format is "MemAxes XML" or "hwloc XML". */
int samples_read_hardware(const char *path, struct topo **out, const char **format,
			  struct err *e);
/* MemAxes' XML from memory (name in messages). */
int samples_parse_hardware(const char *name, const char *text, size_t len, struct topo **out,
			   struct err *e);

const struct samples_info *samples_info(const struct samples *s);
const struct topo *samples_topo(const struct samples *s);
uint32_t samples_attr_count(const struct samples *s);
const struct samples_attr *samples_attr(const struct samples *s, uint32_t i);
/* The attribute called name, or -1. */
int samples_attr_find(const struct samples *s, const char *name);
/* The name of category id of attribute a ("" when out of range). */
const char *samples_category(const struct samples *s, uint32_t a, uint32_t id);
/* The category called name in attribute a, or SAMPLES_NONE. */
uint32_t samples_category_find(const struct samples *s, uint32_t a, const char *name);

/* Per sample: the PU (index in topo_pu_objs order, SAMPLES_NONE when its
 * CPU is not in the topology), the latency in cycles, the level, the data
 * symbol (category of the variable column, SAMPLES_NONE without one) and
 * the code line (index into samples_codelines, SAMPLES_NONE without a
 * source column). */
const uint32_t *samples_pu(const struct samples *s);
const uint64_t *samples_latency(const struct samples *s);
const uint8_t *samples_levels(const struct samples *s);
const uint32_t *samples_symbol(const struct samples *s);
const uint32_t *samples_codeline(const struct samples *s);
const struct samples_codeline *samples_codelines(const struct samples *s, uint32_t *n);

/* Warnings met while reading (best-effort results), one line each. */
const char *const *samples_warnings(const struct samples *s, uint32_t *n);

/* A source file of the set: the category `file` of the source column,
 * looked up in DIR/src by its path, then by its base name. *text is
 * malloc'd and NUL-terminated. ERR_IO when there is no such file. */
int samples_source_read(const struct samples *s, uint32_t file, char **text, size_t *len,
			struct err *e);

#endif
