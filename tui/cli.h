/* cli.h — what the command line's two halves share: the parsed options
 * (main.c parses them and runs the batch commands; cli_view.c runs the
 * explorer and the headless renderer). */
#ifndef SKEIN_CLI_H
#define SKEIN_CLI_H

#include <stdint.h>

#include "analysis/analysis.h"
#include "config/config.h"
#include "model/trace.h"

/* Exit codes, documented in skein(1). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };
#define MAX_PHASES 64

enum cmd { CMD_DEFAULT, CMD_INFO, CMD_ANALYZE, CMD_EXPLORE, CMD_RENDER, CMD_CONFIG, CMD_KEYS };


struct cli {
	enum cmd cmd;
	const char *format;
	const char *table;
	int per_rank, quiet;
	struct analysis_opts aopts;
	struct analysis_phase_rule phases[MAX_PHASES];
	const char *trace;
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
	const char *save;          /* analyze --save FILE */
	struct analysis *saved;    /* the analysis of a saved file opened as TRACE */
	struct config cfg;
};

/* Structure flags given on the command line override the configuration. */
enum {
	G_COALESCE = 1, G_WAITALL = 2, G_LEAP = 4, G_FACTOR = 8, G_FORCE = 16, G_GSTEP = 32,
	G_MATCH = 64, G_CALLER = 128, G_CLUSTERS = 256, G_HOTSPOTS = 512, G_PHASES = 1024,
	G_AUTO = 2048, G_PROGRESS = 4096, G_STARTUP = 8192,
};

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
int cli_render(struct cli *c);

#endif
