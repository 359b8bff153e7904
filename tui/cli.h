/* cli.h — what the command line's two halves share: the parsed options
 * (main.c parses them and runs the batch commands; cli_view.c runs the
 * explorer and the headless renderer). */
#ifndef SKEIN_CLI_H
#define SKEIN_CLI_H

#include <stdint.h>
#include <time.h>

#include "analysis/core/analysis.h"
#include "config/config.h"
#include "load.h"
#include "model/trace.h"

/* Exit codes, documented in skein(1). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };
#define MAX_PHASES 64

enum cmd {
	CMD_DEFAULT, CMD_INFO, CMD_ANALYZE, CMD_EXPLORE, CMD_RENDER, CMD_CONFIG, CMD_KEYS, CMD_SAMPLES,
	CMD_DIFF, CMD_EXPORT, CMD_PROFILE, CMD_COMM, CMD_HELP, CMD_VERSION
};


struct cli {
	enum cmd cmd;
	const char *format;
	const char *table;
	int per_rank, quiet;
	int all;                   /* analyze: every partition, iteration and rank */
	struct analysis_opts aopts;
	struct analysis_phase_rule phases[MAX_PHASES];
	const char *trace;
	const char *trace2;        /* diff: AFTER (trace is BEFORE) */
	const char *export_otf2;   /* export --otf2 OUT */
	const char *before;        /* explore, render: --before TRACE, the run to compare with */
	int export_csv, export_json;
	int structure_opts;        /* any analyze-only option given */
	/* explorer and render */
	const char *metric, *color, *keymap, *size, *keys, *pane;
	int ascii, time, no_mouse;
	int explorer_opts, render_opts;
	/* configuration: files in order, then the flags above on top */
	const char *configs[16];
	int n_configs;
	uint32_t given;            /* G_*: structure flags given on the command line */
	int dump;                  /* skein config --dump */
	const char *topology;      /* --topology: hwloc XML file or synthetic description */
	/* skein samples: the flags over the configuration's samples section */
	const char *attribute, *depth;
	uint32_t windows, window, step;
	int samples_opts;          /* any samples-only option given */
	int samples;               /* the argument is a sample set (explore, render) */
	const char *iter_region;   /* --iteration-region GLOB */
	const char *save;          /* analyze --save FILE */
	/* the scope of profile, comm and the explorer's panes */
	const char *from, *to;     /* --from T, --to T */
	const char *rank_set;      /* --rank-set RANKS */
	int by_pe;                 /* profile --pes (Charm++) */
	struct config cfg;
	struct load_charm charm;   /* the reader's Charm++ options, from cfg */
};

/* Structure flags given on the command line override the configuration. */
enum {
	G_COALESCE = 1, G_WAITALL = 2, G_LEAP = 4, G_FACTOR = 8, G_FORCE = 16, G_GSTEP = 32,
	G_MATCH = 64, G_CALLER = 128, G_CLUSTERS = 256, G_HOTSPOTS = 512, G_PHASES = 1024,
	G_AUTO = 2048, G_PROGRESS = 4096, G_STARTUP = 8192,
	G_ITERATIONS = 16384, G_REORDER = 32768,
};

/* The program's name in messages: "skein", or "skein-mpi". */
extern const char *cli_prog;

/* Progress on stderr: on a terminal, one line rewritten in place once
 * work has taken half a second; with lines (skein-mpi's rank 0), a line
 * for each stage as it starts, with the seconds since start. */
struct cli_progress {
	int enabled, lines;
	struct timespec start;
	int shown;
	char stage[32];
};
int cli_progress(void *ud, const char *stage, uint64_t done, uint64_t total);
/* Seconds of the monotonic clock since *t0. */
double cli_seconds_since(const struct timespec *t0);
void cli_progress_clear(struct cli_progress *p);

/* skein's command line (tui/skein.c's main): an exit code. */
int cli_main(int argc, char **argv);
/* The options (an exit code, the usage error printed; c->cmd is
 * CMD_HELP or CMD_VERSION for those), then the configuration with the
 * flags over it (an exit code). */
int cli_parse_args(int argc, char **argv, struct cli *c);
int cli_setup_config(struct cli *c);
/* rc, or EXIT_FAIL when stdout could not be written (the error printed). */
int cli_finish_stdout(int rc);
/* After reading *t from path: the reader's warnings, and a trace
 * without MPI communication refused (*t and *a destroyed); an exit code. */
int cli_loaded(const struct cli *c, const char *path, struct trace **t, struct analysis **a);
/* analyze: runs the analysis unless *ap holds one (a saved file's),
 * saves it with --save, prints the report; an exit code. */
int cli_analyze(struct cli *c, const struct trace *t, struct analysis **ap, struct cli_progress *p);

/* Prints "skein: MESSAGE" on stderr, one line, its control characters
 * shown as '?' (messages quote names from input files). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error for a value of the configuration: "FILE:LINE:COLUMN: MESSAGE"
 * ("configuration" when m names no file). */
void cli_error_at(const struct config_mark *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Warnings the reader gave that change what the user sees (a location
 * read without its local definitions), on stderr. */
void cli_load_warnings(const struct trace *t);
/* Reads the trace at path (with progress on a terminal), says what the
 * reader warned of, and refuses a trace without MPI communication; an
 * exit code, the error printed. path may be a saved analysis
 * (analysis/saved.h): then, when a is not NULL, *a is its analysis for
 * c's options (tui/load.h: load_saved); else *a is NULL and the caller
 * analyses *t. */
int cli_load_trace(const struct cli *c, const char *path, struct trace **t, struct analysis **a);
/* Prints "skein: WHAT 'ARG'" and a hint on stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *what, const char *arg);
/* Phase patterns from the configuration files must name regions of t;
 * returns EXIT_OK or EXIT_USAGE (the file:line:column message printed). */
int cli_check_regions(const struct cli *c, const struct trace *t);
/* The named phase of each partition of a (a name from the configuration,
 * NULL where none) and, in keep when not NULL, which partitions
 * phases.restrict keeps. Returns a malloc'd array of one name per
 * partition, or NULL with e set (out of memory). */
const char **cli_phase_names(const struct cli *c, const struct analysis *a, uint8_t *keep,
			     struct err *e);
/* The key bindings of the configuration and --keymap, checked; an exit
 * code (the error printed). */
struct keymap;
int cli_keymap(struct cli *c, struct keymap **km);
/* `skein keys`; an exit code. */
int cli_keys(struct cli *c);
/* The explorer and `skein render`; each returns an exit code. */
int cli_explore(struct cli *c);
/* `skein diff BEFORE AFTER` and `skein export`; each returns an exit code. */
int cli_diff(struct cli *c);
int cli_export(struct cli *c);
/* `skein profile` and `skein comm` (cli_profile.c); an exit code. */
int cli_profile(struct cli *c);
/* The scope of --from, --to and --rank-set on t into *s, its rank set
 * (malloc'd, or NULL for all) in *kept: an exit code (the usage error
 * printed). */
struct profile_scope;
int cli_scope(const struct cli *c, const struct trace *t, struct profile_scope *s, uint8_t **kept);
int cli_render(struct cli *c);
/* `skein samples DIR` (a report, or the explorer on a terminal), and the
 * explorer and renderer on a sample set (cli_samples.c). */
int cli_samples(struct cli *c);
struct view_render_opts;
struct explore_opts;
int cli_samples_explore(struct cli *c, const struct explore_opts *eo);
int cli_samples_render(struct cli *c, const struct view_render_opts *ro);
/* :save FILE for either explorer: cfg dumped to FILE (~/ is the home
 * directory; a FIFO without a reader is an error, not a hang). Returns
 * 0, or an error with "cannot save FILE: REASON" in e. */
int cli_save_config(const struct config *cfg, const char *arg, struct err *e);
/* "runs/stencil/traces.otf2" -> "stencil/traces.otf2": the status line's name. */
void cli_trace_label(const char *path, char *buf, size_t n);
/* The explorer's terminal settings (colour, glyphs, mouse) from the
 * command line and the configuration: 0, or -1 after a usage message
 * (also when stdin or stdout is no terminal). */
int cli_explore_opts(const struct cli *c, struct explore_opts *eo);

#endif
