/* main.c — the skein command line: subcommands, options, exit codes.
 *
 * Exit codes (documented in skein(1)): 0 success, 1 the trace or a file
 * could not be read or processed, 2 wrong usage. Results go to stdout,
 * diagnostics and progress to stderr.
 *
 * Without a command, skein opens the explorer when stdin and stdout are
 * terminals and prints `info` otherwise, so scripts that pipe `skein
 * TRACE` keep working.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "base/text.h"
#include "config/config.h"
#include "report/info.h"
#include "load.h"
#include "report/report.h"
#include "view/surface/keymap.h"
#include "samples/samples.h"
#include "cli.h"
#include "load.h"

#ifndef SKEIN_VERSION
#define SKEIN_VERSION "unknown"
#endif


static const char usage_text[] =
	"usage: skein [OPTIONS] TRACE\n"
	"       skein explore [EXPLORER OPTIONS] [STRUCTURE OPTIONS] TRACE\n"
	"       skein render [--size WxH] [--keys KEYS] [--pane NAME] [--color C] [--ascii]\n"
	"                    [EXPLORER OPTIONS] [STRUCTURE OPTIONS] TRACE\n"
	"       skein info [--format text|json] [--ranks] TRACE\n"
	"       skein config [--dump] [--config FILE]...\n"
	"       skein keys [--format text|man|markdown] [--config FILE]... [--keymap FILE]\n"
	"       skein analyze [--format text|json|csv] [--table T] [--all] [--save FILE]\n"
	"                     [STRUCTURE OPTIONS] TRACE\n"
	"       skein samples [--format text|json|csv] [--table T] [SAMPLES OPTIONS] DIR\n"
	"       skein diff [--format text|json|csv] [--table T] [STRUCTURE OPTIONS] BEFORE AFTER\n"
	"       skein export (--otf2 DIR | --csv | --json) [STRUCTURE OPTIONS] TRACE\n"
	"       skein profile [--format text|json|csv] [--ranks] [--pes] [SCOPE] TRACE\n"
	"       skein comm [--format text|json|csv] [SCOPE] TRACE\n"
	"       skein --help | --version\n"
	"\n"
	"skein explores the logical structure of parallel execution traces.\n"
	"TRACE is an OTF2 anchor file (traces.otf2), a Charm++ Projections run's .sts\n"
	"file, or the directory holding either; or a file written by\n"
	"'skein analyze --save' (opened without the trace).\n"
	"\n"
	"commands:\n"
	"  explore     the full-screen explorer: ranks x logical steps coloured by\n"
	"              lateness, overview, physical timeline, details (? for keys)\n"
	"  render      print the screen the explorer would show after KEYS, headless\n"
	"  info        what the trace holds: ranks, regions, events, operations,\n"
	"              messages, collectives, warnings\n"
	"  analyze     logical structure and lateness: partitions, steps, the\n"
	"              verifier, hotspots with their cause, lateness per rank\n"
	"  config      print the effective configuration as YAML (loadable back),\n"
	"              after checking it (key bindings included)\n"
	"  keys        every key, command and mouse gesture of the explorer, with\n"
	"              the bindings of the configuration and --keymap\n"
	"  samples     memory-access samples on the hardware (MemAxes): where the\n"
	"              memory time goes, the code and data causing it, scores and\n"
	"              clusters along an attribute; the explorer on a terminal, else\n"
	"              a report. DIR holds hardware.xml and data/samples.out|csv\n"
	"              (or name a CSV in DIR/data/); explore and render take DIR too\n"
	"  diff        two runs of one program compared step by step: partitions\n"
	"              aligned by structure, what created more or less lateness,\n"
	"              where it spread, where the structure itself differs\n"
	"  export      the structure for other tools: an OTF2 copy of the trace with\n"
	"              partition, step, iteration, lateness and cause as attributes\n"
	"              (--otf2 DIR), or one row per operation (--csv, --json)\n"
	"  profile     time per region: calls, inclusive and exclusive time, its\n"
	"              spread over the ranks (min, mean, max, the rank of the max,\n"
	"              imbalance), share of the run; --ranks: per rank\n"
	"  comm        who sends how much to whom: the matrix of senders and\n"
	"              receivers (world ranks), pairs, message sizes, collectives\n"
	"  (none)      explore when stdin and stdout are terminals; otherwise info,\n"
	"              so scripts that pipe 'skein TRACE' keep getting text\n"
	"\n"
	"output options:\n"
	"  -f, --format FMT        text (default), json, or csv (analyze)\n"
	"  -t, --table T           analyze --format csv: hotspots (default),\n"
	"                          partitions, timelines, ops, iterations, waits\n"
	"                          (the wait states), delays (their root causes),\n"
	"                          outliers or problems (all three ranked),\n"
	"                          critical (the critical path's regions) or\n"
	"                          lane-waits (threads' and hosts' waits for\n"
	"                          threads and GPU streams);\n"
	"                          samples --format csv: resources (default), lines,\n"
	"                          symbols, levels, windows or clusters\n"
	"  -r, --ranks             info, profile: one line per rank\n"
	"      --pes               profile of a Charm++ run: one line per PE, not chare\n"
	"      --all               analyze: every partition, iteration and rank (text\n"
	"                          lists the heaviest 20 of longer tables)\n"
	"  -n, --hotspots N        analyze, explore: how many hotspots to rank (default 20)\n"
	"  -q, --quiet             no progress on stderr\n"
	"      --save FILE         analyze: also save the model and the analysis to\n"
	"                          FILE, which opens in place of TRACE (format.md);\n"
	"                          'mpiexec -n N skein-mpi analyze --save FILE TRACE'\n"
	"                          writes it from an MPI job (distributed.md)\n"
	"      --otf2 DIR          export: write DIR/traces.otf2\n"
	"      --csv, --json       export: one row per operation on stdout\n"
	"\n"
	"scope (profile, comm; explore and render: every pane keeps to it):\n"
	"      --from T, --to T    only the time from T to T (seconds from the trace's\n"
	"                          start: 1.5, 1.5s, 120ms, 300us)\n"
	"      --rank-set RANKS    only these ranks: 0-15,32, node:NAME or comm:NAME\n"
	"\n"
	"explorer options (explore, render):\n"
	"  -m, --metric M          colour by lateness, diff, global, duration, wait (MPI),\n"
	"                          diff-duration, idle, imbalance (Charm++), path (time\n"
	"                          on the critical path), threads (its threads' and\n"
	"                          streams' waiting), partition, function, or auto\n"
	"                          (the default: diff-duration for Charm++, else lateness)\n"
	"      --color C           explore: auto (default; honours NO_COLOR and TERM=dumb),\n"
	"                          none, 8 or 256; render: none (default), mono, 8, 256,\n"
	"                          or ansi (= 256) for ANSI escape sequences\n"
	"      --ascii             ASCII glyphs (automatic outside UTF-8 locales)\n"
	"      --keymap FILE       extra key bindings: lines of 'KEY ACTION'\n"
	"      --no-mouse          explore: leave the mouse to the terminal (no clicks\n"
	"                          or wheel; also view.mouse: false in the configuration)\n"
	"      --before TRACE      compare with another run of the program: the delta\n"
	"                          metric, both runs in the details (skein diff on a\n"
	"                          terminal does this)\n"
	"\n"
	"render options:\n"
	"  -s, --size WxH          screen size (default 120x40)\n"
	"  -k, --keys KEYS         keys to press first: characters, and <Name> for Left,\n"
	"                          Right, Up, Down, PgUp, PgDn, Home, End, Tab, BTab,\n"
	"                          Enter, Esc, Backspace, F1, Space, C-a..C-z; <lt> is '<'\n"
	"      --pane NAME         one pane alone at full size: grid, overview,\n"
	"                          timeline, details, help, topology, histogram,\n"
	"                          profile, comm or lists;\n"
	"                          for a sample set topology, offenders, parallel,\n"
	"                          histogram, scores, clusters or help\n"
	"      --time              report the time per key (view work) on stderr;\n"
	"                          the keys wait for the panes' tables computed\n"
	"                          in the background, timed apart, as are the\n"
	"                          script's <Resize:WxH> (each with its redraw)\n"
	"\n"
	"structure options (analyze, explore, render):\n"
	"      --no-coalesce       do not coalesce neighbouring MPI_Isend calls\n"
	"      --no-waitall-merge  do not merge the operations one Waitall completes\n"
	"      --leap-merge        merge partitions until every leap has all ranks\n"
	"      --leap-factor F     merge backwards when the incoming leap distance is\n"
	"                          F times smaller than the outgoing one (default 10)\n"
	"      --leap-force        force-merge leaps that stay incomplete\n"
	"      --global-step-merge merge all partitions that share global steps\n"
	"      --no-auto-merge     do not merge the partitions that share global steps\n"
	"                          and make the same calls (automatic by default)\n"
	"      --no-sender-progress  a receive completed inside its sender's Wait does\n"
	"                          not follow what delayed that Wait (on by default)\n"
	"      --startup           count each rank's start-up (before its first\n"
	"                          communication) in hotspots, scales and time axes\n"
	"      --paper             the paper's pipeline exactly: no automatic merge,\n"
	"                          no sender progress, start-up counted\n"
	"      --match-size        ignore messages whose ends disagree on size\n"
	"      --caller-merge      merge consecutive operations under one call of the\n"
	"                          nearest caller that issued several communications\n"
	"                          (Ravel's caller merge)\n"
	"      --reorder           order each rank's receives in a partition by\n"
	"                          idealised forward replay, not as they completed\n"
	"                          (Charm++: the serial blocks; the default there)\n"
	"      --physical-order    keep operations in time order (MPI's default)\n"
	"      --clusters K        group each partition's ranks into at most K\n"
	"                          clusters by lateness (analyze reports them)\n"
	"      --iterations HOW    find the iterations: auto (a repeating user region,\n"
	"                          else the structure's period), structure or off\n"
	"      --iteration-region GLOB  each Enter of a matching region starts an\n"
	"                          iteration\n"
	"  -p, --phase GLOB        every Enter of a region matching GLOB starts a new\n"
	"                          phase (replaces partition detection; repeatable)\n"
	"\n"
	"samples options (samples, and explore and render on a sample set):\n"
	"      --attribute A       score and cluster along attribute A (a CSV column,\n"
	"                          or level; default: time)\n"
	"  -m, --metric M          the score: imbalance (I_d, default) or latency (L_d)\n"
	"      --depth D           resources scored: cpu (default), core, l1, l2, l3,\n"
	"                          numa, package or machine\n"
	"      --windows N         windows of the score strip (default 16)\n"
	"      --window W          samples per sliding window of the clustering (200)\n"
	"      --step S            samples between windows, less than W (50)\n"
	"      --clusters K        clusters listed (default 4)\n"
	"\n"
	"      --topology T        hardware for the topology pane: an hwloc XML file\n"
	"                          (lstopo foo.xml) or a synthetic description such as\n"
	"                          \"pack:2 core:18 pu:1\" (default: this machine)\n"
	"      --config FILE       load a YAML configuration (repeatable; config.md);\n"
	"                          command-line flags override it\n"
	"  -h, --help              this help\n"
	"  -V, --version           print the version\n"
	"\n"
	"exit status: 0 success, 1 the trace could not be read, 2 usage error,\n"
	"128+N ended by signal N (130 Ctrl-C, 143 SIGTERM).\n";

enum {
	OPT_NO_COALESCE = 256, OPT_NO_WAITALL, OPT_LEAP, OPT_LEAP_FACTOR, OPT_LEAP_FORCE,
	OPT_GSTEP, OPT_NO_AUTO, OPT_NO_PROGRESS, OPT_STARTUP, OPT_PAPER, OPT_MATCH_SIZE, OPT_CALLER, OPT_REORDER, OPT_PHYSICAL, OPT_CLUSTERS, OPT_CONFIG, OPT_DUMP, OPT_TOPOLOGY, OPT_COLOR, OPT_ASCII, OPT_PANE, OPT_TIME, OPT_KEYMAP,
	OPT_NO_MOUSE,
	OPT_ATTRIBUTE, OPT_DEPTH, OPT_WINDOWS, OPT_WINDOW, OPT_STEP,
	OPT_ITERATIONS, OPT_ITER_REGION, OPT_OTF2, OPT_CSV, OPT_JSON, OPT_BEFORE, OPT_SAVE, OPT_ALL,
	OPT_FROM, OPT_TO, OPT_RANK_SET, OPT_PES,
};

const char *cli_prog = "skein";

double
cli_seconds_since(const struct timespec *since)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* Shows "skein: reading 42%" on stderr once work has taken half a
 * second; with lines, "skein-mpi: reading (0.1 s)" once per stage. */
int
cli_progress(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	struct cli_progress *p = ud;
	if (p->enabled && p->lines) {
		if (strncmp(p->stage, stage, sizeof p->stage - 1) != 0) {
			snprintf(p->stage, sizeof p->stage, "%s", stage);
			fprintf(stderr, "%s: %s (%.1f s)\n", cli_prog, stage, cli_seconds_since(&p->start));
		}
		return 0;
	}
	if (!p->enabled || cli_seconds_since(&p->start) < 0.5)
		return 0;
	if (total && done)
		fprintf(stderr, "\r%s: %s %3.0f%%\033[K", cli_prog, stage, 100.0 * (double)done / (double)total);
	else
		fprintf(stderr, "\r%s: %s...\033[K", cli_prog, stage);
	p->shown = 1;
	return 0;
}

void
cli_progress_clear(struct cli_progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}

void
cli_error(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", cli_prog);
	text_put(stderr, buf);
	fputc('\n', stderr);
}

void
cli_error_at(const struct config_mark *m, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cli_error("%s:%u:%u: %s", m->file ? m->file : "configuration", m->line, m->column, buf);
}

int
cli_usage_error(const char *what, const char *arg)
{
	cli_error("%s%s%s%s", what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	fprintf(stderr, "Try '%s --help'.\n", cli_prog);
	return EXIT_USAGE;
}

static int
parse_uint(const char *s, uint32_t *v)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || x > 1000000)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int
cli_parse_args(int argc, char **argv, struct cli *c)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "table", required_argument, NULL, 't' },
		{ "ranks", no_argument, NULL, 'r' },
		{ "hotspots", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "phase", required_argument, NULL, 'p' },
		{ "no-coalesce", no_argument, NULL, OPT_NO_COALESCE },
		{ "no-waitall-merge", no_argument, NULL, OPT_NO_WAITALL },
		{ "leap-merge", no_argument, NULL, OPT_LEAP },
		{ "leap-factor", required_argument, NULL, OPT_LEAP_FACTOR },
		{ "leap-force", no_argument, NULL, OPT_LEAP_FORCE },
		{ "global-step-merge", no_argument, NULL, OPT_GSTEP },
		{ "no-auto-merge", no_argument, NULL, OPT_NO_AUTO },
		{ "no-sender-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "startup", no_argument, NULL, OPT_STARTUP },
		{ "paper", no_argument, NULL, OPT_PAPER },
		{ "match-size", no_argument, NULL, OPT_MATCH_SIZE },
		{ "caller-merge", no_argument, NULL, OPT_CALLER },
		{ "iterations", required_argument, NULL, OPT_ITERATIONS },
		{ "iteration-region", required_argument, NULL, OPT_ITER_REGION },
		{ "otf2", required_argument, NULL, OPT_OTF2 },
		{ "before", required_argument, NULL, OPT_BEFORE },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "reorder", no_argument, NULL, OPT_REORDER },
		{ "physical-order", no_argument, NULL, OPT_PHYSICAL },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "dump", no_argument, NULL, OPT_DUMP },
		{ "topology", required_argument, NULL, OPT_TOPOLOGY },
		{ "clusters", required_argument, NULL, OPT_CLUSTERS },
		{ "metric", required_argument, NULL, 'm' },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "keymap", required_argument, NULL, OPT_KEYMAP },
		{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "rank-set", required_argument, NULL, OPT_RANK_SET },
		{ "pes", no_argument, NULL, OPT_PES },
		{ "size", required_argument, NULL, 's' },
		{ "keys", required_argument, NULL, 'k' },
		{ "pane", required_argument, NULL, OPT_PANE },
		{ "time", no_argument, NULL, OPT_TIME },
		{ "attribute", required_argument, NULL, OPT_ATTRIBUTE },
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "windows", required_argument, NULL, OPT_WINDOWS },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "step", required_argument, NULL, OPT_STEP },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int o;
	char *end;
	analysis_opts_default(&c->aopts);
	/* getopt's own messages would start with argv[0] (the binary's full
	 * path); every other error starts with "skein:" */
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":f:t:rn:qp:m:s:k:hV", longopts, NULL)) != -1) {
		switch (o) {
		case 'f': c->format = optarg; break;
		case 't': c->table = optarg; break;
		case 'r': c->per_rank = 1; break;
		case OPT_ALL: c->all = 1; break;
		case 'q': c->quiet = 1; break;
		case 'n':
			if (parse_uint(optarg, &c->aopts.hotspots))
				return cli_usage_error("--hotspots takes a whole number up to 1000000, not", optarg);
			c->given |= G_HOTSPOTS;
			c->structure_opts = 1;
			break;
		case 'p':
			if (c->aopts.n_phases == MAX_PHASES)
				return cli_usage_error("too many --phase rules", NULL);
			if (analysis_glob_problem(optarg)) {
				char what[96];
				snprintf(what, sizeof what, "--phase: %s in", analysis_glob_problem(optarg));
				return cli_usage_error(what, optarg);
			}
			c->phases[c->aopts.n_phases++].region_glob = optarg;
			c->aopts.phases = c->phases;
			c->given |= G_PHASES;
			c->structure_opts = 1;
			break;
		case OPT_NO_COALESCE: c->aopts.coalesce_isends = 0; c->given |= G_COALESCE; c->structure_opts = 1; break;
		case OPT_NO_WAITALL: c->aopts.waitall_merge = 0; c->given |= G_WAITALL; c->structure_opts = 1; break;
		case OPT_LEAP: c->aopts.leap_merge = 1; c->given |= G_LEAP; c->structure_opts = 1; break;
		case OPT_LEAP_FORCE: c->aopts.leap_force = 1; c->given |= G_FORCE; c->structure_opts = 1; break;
		case OPT_GSTEP: c->aopts.global_step_merge = 1; c->given |= G_GSTEP; c->structure_opts = 1; break;
		case OPT_NO_AUTO: c->aopts.auto_merge = 0; c->given |= G_AUTO; c->structure_opts = 1; break;
		case OPT_NO_PROGRESS: c->aopts.sender_progress = 0; c->given |= G_PROGRESS; c->structure_opts = 1; break;
		case OPT_STARTUP: c->aopts.startup = 1; c->given |= G_STARTUP; c->structure_opts = 1; break;
		case OPT_PAPER:
			c->aopts.auto_merge = c->aopts.sender_progress = 0;
			c->aopts.startup = 1;
			c->given |= G_AUTO | G_PROGRESS | G_STARTUP;
			c->structure_opts = 1;
			break;
		case OPT_MATCH_SIZE: c->aopts.match_size = 1; c->given |= G_MATCH; c->structure_opts = 1; break;
		case OPT_CALLER: c->aopts.caller_merge = 1; c->given |= G_CALLER; c->structure_opts = 1; break;
		case OPT_REORDER:
		case OPT_PHYSICAL:
			c->aopts.reorder = c->aopts.charm_reorder = o == OPT_REORDER;
			c->given |= G_REORDER;
			c->structure_opts = 1;
			break;
		case OPT_CLUSTERS:
			if (parse_uint(optarg, &c->aopts.clusters) || c->aopts.clusters > 20)
				return cli_usage_error("--clusters takes a number of clusters from 0 to 20, not", optarg);
			c->given |= G_CLUSTERS;
			c->structure_opts = 1;
			break;
		case OPT_LEAP_FACTOR:
			errno = 0;
			c->aopts.leap_factor = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->aopts.leap_factor > 0) ||
			    c->aopts.leap_factor > 1e9)
				return cli_usage_error("--leap-factor takes a positive number, not", optarg);
			c->given |= G_FACTOR;
			c->structure_opts = 1;
			break;
		case OPT_ITERATIONS:
			if (strcmp(optarg, "auto") == 0)
				c->aopts.iter_find = ITER_FIND_AUTO;
			else if (strcmp(optarg, "structure") == 0)
				c->aopts.iter_find = ITER_FIND_STRUCTURE;
			else if (strcmp(optarg, "off") == 0)
				c->aopts.iter_find = ITER_FIND_OFF;
			else
				return cli_usage_error("--iterations takes auto, structure or off, not", optarg);
			c->given |= G_ITERATIONS;
			c->structure_opts = 1;
			break;
		case OPT_ITER_REGION:
			c->iter_region = optarg;
			c->structure_opts = 1;
			break;
		case OPT_OTF2: c->export_otf2 = optarg; break;
		case OPT_BEFORE: c->before = optarg; c->explorer_opts = 1; break;
		case OPT_CSV: c->export_csv = 1; break;
		case OPT_JSON: c->export_json = 1; break;
		case 'm': c->metric = optarg; c->explorer_opts = 1; break;
		case OPT_CONFIG:
			if (c->n_configs == (int)(sizeof c->configs / sizeof c->configs[0]))
				return cli_usage_error("too many --config files", NULL);
			c->configs[c->n_configs++] = optarg;
			break;
		case OPT_DUMP: c->dump = 1; break;
		case OPT_TOPOLOGY: c->topology = optarg; c->explorer_opts = 1; break;
		case OPT_COLOR: c->color = optarg; c->explorer_opts = 1; break;
		case OPT_ASCII: c->ascii = 1; c->explorer_opts = 1; break;
		case OPT_KEYMAP: c->keymap = optarg; c->explorer_opts = 1; break;
		case OPT_NO_MOUSE: c->no_mouse = 1; c->explorer_opts = 1; break;
		case OPT_SAVE: c->save = optarg; break;
		case OPT_FROM: c->from = optarg; break;
		case OPT_TO: c->to = optarg; break;
		case OPT_RANK_SET: c->rank_set = optarg; break;
		case OPT_PES: c->by_pe = 1; break;
		case 's': c->size = optarg; c->render_opts = 1; break;
		case 'k': c->keys = optarg; c->render_opts = 1; break;
		case OPT_PANE: c->pane = optarg; c->render_opts = 1; break;
		case OPT_TIME: c->time = 1; c->render_opts = 1; break;
		case OPT_ATTRIBUTE: c->attribute = optarg; c->samples_opts = 1; break;
		case OPT_DEPTH: c->depth = optarg; c->samples_opts = 1; break;
		case OPT_WINDOWS:
			if (parse_uint(optarg, &c->windows) || c->windows < 1 || c->windows > 1000)
				return cli_usage_error("--windows takes a number from 1 to 1000, not", optarg);
			c->samples_opts = 1;
			break;
		case OPT_WINDOW:
			if (parse_uint(optarg, &c->window) || c->window < 2)
				return cli_usage_error("--window takes a number of samples from 2 to 1000000, not", optarg);
			c->samples_opts = 1;
			break;
		case OPT_STEP:
			if (parse_uint(optarg, &c->step) || c->step < 1)
				return cli_usage_error("--step takes a number of samples from 1 to 1000000, not", optarg);
			c->samples_opts = 1;
			break;
		case 'h': c->cmd = CMD_HELP; return EXIT_OK;
		case 'V': c->cmd = CMD_VERSION; return EXIT_OK;
		case ':': {
			/* the option as written: "--keys" or "-k" */
			const char *opt = argv[optind - 1];
			char buf[3] = { '-', (char)optopt, 0 };
			return cli_usage_error("an argument is missing after",
					       optopt && (!opt || strncmp(opt, "--", 2)) ? buf : opt);
		}
		default: {
			const char *opt = argv[optind - 1];
			char buf[3] = { '-', (char)optopt, 0 };
			int like = 0;      /* long options it abbreviates: more than one is ambiguous */
			if (!optopt && opt && strncmp(opt, "--", 2) == 0)
				for (int i = 0; longopts[i].name; i++)
					like += strncmp(longopts[i].name, opt + 2, strcspn(opt + 2, "=")) == 0;
			return cli_usage_error(like > 1 ? "ambiguous option" : "unknown option",
					       optopt ? buf : opt && strncmp(opt, "--", 2) == 0 ? opt : "?");
		}
		}
	}
	int nargs = argc - optind;
	char **args = argv + optind;
	c->cmd = CMD_DEFAULT;
	if (nargs >= 1 && strcmp(args[0], "info") == 0) {
		c->cmd = CMD_INFO;
		args++;
		nargs--;
	} else if (nargs >= 1 && strcmp(args[0], "explore") == 0) {
		c->cmd = CMD_EXPLORE;
		args++;
		nargs--;
	} else if (nargs >= 1 && strcmp(args[0], "render") == 0) {
		c->cmd = CMD_RENDER;
		args++;
		nargs--;
	} else if (nargs >= 1 && strcmp(args[0], "config") == 0) {
		/* skein config [--dump] [--config FILE]...: no trace */
		c->cmd = CMD_CONFIG;
		if (nargs > 1)
			return cli_usage_error("unexpected argument", args[1]);
		if (c->structure_opts || c->explorer_opts || c->render_opts || c->samples_opts || c->format ||
		    c->table || c->per_rank)
			return cli_usage_error("'skein config' takes only --config and --dump", NULL);
		return EXIT_OK;
	} else if (nargs >= 1 && strcmp(args[0], "keys") == 0) {
		/* skein keys [--format text|man|markdown] [--config FILE]... [--keymap FILE] */
		c->cmd = CMD_KEYS;
		if (nargs > 1)
			return cli_usage_error("unexpected argument", args[1]);
		if (c->structure_opts || c->render_opts || c->samples_opts || c->table || c->per_rank || c->dump ||
		    c->metric || c->color || c->ascii || c->topology || c->no_mouse)
			return cli_usage_error("'skein keys' takes only --format, --config and --keymap", NULL);
		return EXIT_OK;
	} else if (nargs >= 1 && strcmp(args[0], "diff") == 0) {
		/* skein diff BEFORE AFTER */
		c->cmd = CMD_DIFF;
		if (nargs != 3)
			return cli_usage_error(nargs < 3 ? "diff takes two traces, BEFORE and AFTER" :
					       "unexpected argument", nargs > 3 ? args[3] : NULL);
		if (c->render_opts || c->samples_opts || c->per_rank || c->before)
			return cli_usage_error("'skein diff' takes --format, --table, --hotspots, "
					       "explorer and structure options", NULL);
		c->trace = args[1];
		c->trace2 = args[2];
		/* on a terminal and asked for no format: the explorer on AFTER,
		 * compared with BEFORE */
		if (!c->format && !c->table && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
			c->cmd = CMD_EXPLORE;
			c->before = args[1];
			c->trace = args[2];
		} else if (c->explorer_opts) {
			return cli_usage_error("explorer options go with 'skein diff' on a terminal", NULL);
		}
		return EXIT_OK;
	} else if (nargs >= 1 && strcmp(args[0], "export") == 0) {
		/* skein export --otf2 DIR | --csv | --json TRACE */
		c->cmd = CMD_EXPORT;
		if (nargs != 2)
			return cli_usage_error(nargs < 2 ? "no trace given" : "unexpected argument",
					       nargs > 2 ? args[2] : NULL);
		if (c->explorer_opts || c->render_opts || c->samples_opts || c->per_rank || c->format || c->table)
			return cli_usage_error("'skein export' takes --otf2 DIR, --csv or --json and "
					       "structure options", NULL);
		c->trace = args[1];
		return EXIT_OK;
	} else if (nargs >= 1 && (strcmp(args[0], "profile") == 0 || strcmp(args[0], "comm") == 0)) {
		/* skein profile|comm [--format F] [--ranks] [--pes] [SCOPE] TRACE */
		c->cmd = strcmp(args[0], "profile") == 0 ? CMD_PROFILE : CMD_COMM;
		if (nargs != 2)
			return cli_usage_error(nargs < 2 ? "no trace given" : "unexpected argument",
					       nargs > 2 ? args[2] : NULL);
		if (c->structure_opts || c->explorer_opts || c->render_opts || c->samples_opts ||
		    c->table || c->save || c->dump || c->export_otf2 || c->export_csv || c->export_json)
			return cli_usage_error(c->cmd == CMD_PROFILE
					       ? "'skein profile' takes --format, --ranks, --pes, --from, --to and --rank-set"
					       : "'skein comm' takes --format, --from, --to and --rank-set", NULL);
		if (c->cmd == CMD_COMM && (c->per_rank || c->by_pe))
			return cli_usage_error("--ranks and --pes belong to 'skein profile'", NULL);
		if (c->format && strcmp(c->format, "text") && strcmp(c->format, "json") &&
		    strcmp(c->format, "csv"))
			return cli_usage_error("--format takes text, json or csv, not", c->format);
		c->trace = args[1];
		return EXIT_OK;
	} else if (nargs >= 1 && (strcmp(args[0], "analyze") == 0 || strcmp(args[0], "analyse") == 0)) {
		c->cmd = CMD_ANALYZE;
		args++;
		nargs--;
	} else if (nargs >= 1 && strcmp(args[0], "samples") == 0) {
		c->cmd = CMD_SAMPLES;
		args++;
		nargs--;
	}
	/* "skein render samples DIR" (and explore) as "skein samples DIR"
	 * reads: the word names what DIR is */
	int said_samples = 0;
	if ((c->cmd == CMD_EXPLORE || c->cmd == CMD_RENDER) && nargs == 2 && strcmp(args[0], "samples") == 0) {
		said_samples = 1;
		args++;
		nargs--;
	}
	if (nargs == 0)
		return cli_usage_error(c->cmd == CMD_SAMPLES ? "no sample set given" : "no trace given", NULL);
	if (nargs > 1) {
		/* "skein bogus-cmd TRACE": a word that is no trace in front of the trace */
		struct stat sb;
		if (c->cmd == CMD_DEFAULT && stat(args[0], &sb) != 0 && !strchr(args[0], '/'))
			return cli_usage_error("unknown command", args[0]);
		return cli_usage_error("unexpected argument", args[1]);
	}
	c->trace = args[0];
	/* a sample set: `skein DIR` is `skein samples DIR`; explore and render
	 * show it; info and analyze are for traces */
	c->samples = c->cmd == CMD_SAMPLES || said_samples || samples_probe(c->trace);
	if (c->samples && c->cmd == CMD_DEFAULT)
		c->cmd = CMD_SAMPLES;
	if (c->samples && (c->cmd == CMD_INFO || c->cmd == CMD_ANALYZE))
		return cli_usage_error("this is a sample set, not a trace: use 'skein samples'", c->trace);
	if (c->samples) {
		if (c->given & ~(uint32_t)G_CLUSTERS)
			return cli_usage_error("structure options and --hotspots are for traces, not sample sets", NULL);
		if (c->topology)
			return cli_usage_error("a sample set brings its hardware (DIR/hardware.xml): no --topology", NULL);
		if (c->before)
			return cli_usage_error("--before compares two traces, not sample sets", NULL);
		if (c->cmd == CMD_SAMPLES && c->render_opts)
			return cli_usage_error("--size, --keys, --pane and --time belong to 'skein render DIR'", NULL);
		if ((c->cmd == CMD_EXPLORE || c->cmd == CMD_RENDER) && (c->format || c->table))
			return cli_usage_error("--format and --table belong to 'skein samples'", NULL);
		if (c->per_rank)
			return cli_usage_error("--ranks belongs to 'skein info'", NULL);
		if (c->dump)
			return cli_usage_error("--dump belongs to 'skein config'", NULL);
		return EXIT_OK;
	}
	if (c->samples_opts)
		return cli_usage_error("--attribute, --depth, --windows, --window and --step belong to 'skein samples'", NULL);
	/* without a command: the explorer on a terminal, else info for scripts
	 * (explorer and structure options are then moot and ignored) */
	if (c->cmd == CMD_DEFAULT) {
		int tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
		c->cmd = tty && !c->format && !c->per_rank && !c->table ? CMD_EXPLORE : CMD_INFO;
		if (c->cmd == CMD_INFO && !c->table && !c->render_opts)
			c->structure_opts = c->explorer_opts = 0;
	}
	if (c->cmd == CMD_INFO && (c->structure_opts || c->table))
		return cli_usage_error("structure, --table and --hotspots options belong to 'skein analyze'", NULL);
	if (c->cmd != CMD_ANALYZE && c->table)
		return cli_usage_error("--table belongs to 'skein analyze'", NULL);
	if (c->cmd != CMD_ANALYZE && c->save)
		return cli_usage_error("--save belongs to 'skein analyze'", NULL);
	if (c->cmd != CMD_ANALYZE && c->all)
		return cli_usage_error("--all belongs to 'skein analyze'", NULL);
	if (c->cmd != CMD_INFO && c->per_rank)
		return cli_usage_error("--ranks belongs to 'skein info' and 'skein profile'", NULL);
	if (c->by_pe)
		return cli_usage_error("--pes belongs to 'skein profile'", NULL);
	if ((c->from || c->to || c->rank_set) && c->cmd != CMD_EXPLORE && c->cmd != CMD_RENDER)
		return cli_usage_error("--from, --to and --rank-set belong to 'skein profile', 'skein comm', "
				       "'skein explore' and 'skein render'", NULL);
	if (c->dump)
		return cli_usage_error("--dump belongs to 'skein config'", NULL);
	if (c->export_otf2 || c->export_csv || c->export_json)
		return cli_usage_error("--otf2, --csv and --json belong to 'skein export'", NULL);
	if (c->cmd != CMD_RENDER && c->render_opts)
		return cli_usage_error("--size, --keys, --pane and --time belong to 'skein render'", NULL);
	if ((c->cmd == CMD_INFO || c->cmd == CMD_ANALYZE) && c->explorer_opts)
		return cli_usage_error("--metric, --color, --ascii, --keymap, --no-mouse and --topology belong to 'skein explore' and 'skein render'", NULL);
	if ((c->cmd == CMD_EXPLORE || c->cmd == CMD_RENDER) && c->format)
		return cli_usage_error("--format belongs to 'skein info' and 'skein analyze'", NULL);
	return EXIT_OK;
}

/* --iteration-region GLOB goes through the configuration, so the glob
 * is checked against the trace's regions like one from a file. */
static int
cli_load_iter_region(struct cli *c, struct err *e)
{
	char yaml[600];
	size_t k = (size_t)snprintf(yaml, sizeof yaml, "iterations: {region: \"");
	for (const char *s = c->iter_region; *s && k + 4 < sizeof yaml; s++) {
		if (*s == '"' || *s == '\\')
			yaml[k++] = '\\';
		yaml[k++] = *s;
	}
	if (k + 4 >= sizeof yaml)
		return err_set(e, ERR_USAGE, "--iteration-region: pattern too long");
	memcpy(yaml + k, "\"}", 3);
	return config_load_string(&c->cfg, "--iteration-region", yaml, k + 2, e);
}

/* The configuration: built-in defaults, the user's file, the --config
 * files in order, then the command-line flags on top. */
int
cli_setup_config(struct cli *c)
{
	struct err e = { 0 };
	if (config_init(&c->cfg, &e) ||
	    config_load_layers(&c->cfg, c->configs, (size_t)c->n_configs, &e) ||
	    (c->iter_region && cli_load_iter_region(c, &e))) {
		cli_error("%s", e.msg[0] ? e.msg : "cannot load the configuration");
		/* out of memory is no mistake of the user's */
		return e.code == ERR_NOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	const struct analysis_opts f = c->aopts;
	struct analysis_opts *o = &c->aopts;
	config_analysis_opts(&c->cfg, o);
	if (c->given & G_COALESCE) o->coalesce_isends = f.coalesce_isends;
	if (c->given & G_WAITALL) o->waitall_merge = f.waitall_merge;
	if (c->given & G_LEAP) o->leap_merge = f.leap_merge;
	if (c->given & G_FACTOR) o->leap_factor = f.leap_factor;
	if (c->given & G_FORCE) o->leap_force = f.leap_force;
	if (c->given & G_GSTEP) o->global_step_merge = f.global_step_merge;
	if (c->given & G_AUTO) o->auto_merge = f.auto_merge;
	if (c->given & G_PROGRESS) o->sender_progress = f.sender_progress;
	if (c->given & G_STARTUP) o->startup = f.startup;
	if (c->given & G_MATCH) o->match_size = f.match_size;
	if (c->given & G_CALLER) o->caller_merge = f.caller_merge;
	if (c->given & G_REORDER) {
		o->reorder = f.reorder;
		o->charm_reorder = f.charm_reorder;
	}
	if (c->given & G_HOTSPOTS) o->hotspots = f.hotspots;
	if (c->given & G_ITERATIONS) o->iter_find = f.iter_find;
	if (c->given & G_PHASES) {
		o->phases = f.phases;
		o->n_phases = f.n_phases;
	}
	/* analyze reports clusters when asked; the explorer shows the view's */
	o->clusters = c->given & G_CLUSTERS ? f.clusters : 0;
	c->charm = (struct load_charm){
		.runtime_chares = c->cfg.charm.runtime_chare_globs,
		.n_runtime_chares = c->cfg.charm.n_runtime_chares,
		.runtime_entries = c->cfg.charm.runtime_entry_globs,
		.n_runtime_entries = c->cfg.charm.n_runtime_entries,
	};
	return EXIT_OK;
}

static int
load(const struct cli *c, struct cli_progress *p, const char *path, struct trace **t,
     struct analysis **a)
{
	struct err e = { 0 };
	int rc;
	if (a)
		*a = NULL;
	int saved = saved_is(path);
	if (saved < 0)
		rc = err_set(&e, ERR_NOMEM, "%s: out of memory", path);
	else if (saved)           /* info needs the model only (a NULL) */
		rc = load_saved(path, &c->aopts, t, a, &e);
	else
		rc = load_read(path, &c->charm, cli_progress, p, t, &e);
	cli_progress_clear(p);
	if (rc) {
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
		return EXIT_FAIL;
	}
	return cli_loaded(c, path, t, a);
}

int
cli_loaded(const struct cli *c, const char *path, struct trace **t, struct analysis **a)
{
	struct err e = { 0 };
	if (c->cmd != CMD_INFO)          /* info shows it in its report */
		cli_load_warnings(*t);
	/* a trace without MPI communication has no logical structure to show:
	 * say what it holds instead of an empty report */
	if (trace_require_communication(*t, &e)) {
		cli_error("%s: %s", path, e.msg);
		if (a) {
			analysis_destroy(*a);
			*a = NULL;
		}
		trace_destroy(*t);
		*t = NULL;
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int
cli_load_trace(const struct cli *c, const char *path, struct trace **t, struct analysis **a)
{
	struct cli_progress p = { .enabled = !c->quiet && isatty(STDERR_FILENO) };
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	return load(c, &p, path, t, a);
}

void
cli_load_warnings(const struct trace *t)
{
	const struct trace_info *info = trace_info(t);
	if (info->warnings[WARN_NO_LOCAL_DEFS])
		cli_error("warning: %s: no local definitions; %llu location%s read with global ids",
			  trace_str(t, info->no_local_defs),
			  (unsigned long long)info->warnings[WARN_NO_LOCAL_DEFS],
			  info->warnings[WARN_NO_LOCAL_DEFS] == 1 ? "" : "s");
}

static int
run_info(const struct cli *c, const struct trace *t)
{
	enum info_format fmt = INFO_TEXT;
	if (c->format && strcmp(c->format, "json") == 0)
		fmt = INFO_JSON;
	else if (c->format && strcmp(c->format, "text") != 0)
		return cli_usage_error("info --format takes text or json, not", c->format);
	return info_write(t, stdout, fmt, c->per_rank) ? EXIT_FAIL : EXIT_OK;
}

/* analyze: *a is the saved analysis when TRACE was a saved file, else
 * NULL and the analysis is run here; the caller destroys *a. */
int
cli_analyze(struct cli *c, const struct trace *t, struct analysis **ap, struct cli_progress *p)
{
	enum report_format fmt = REPORT_TEXT;
	enum report_table table = TABLE_HOTSPOTS;
	if (c->format && strcmp(c->format, "json") == 0)
		fmt = REPORT_JSON;
	else if (c->format && strcmp(c->format, "csv") == 0)
		fmt = REPORT_CSV;
	else if (c->format && strcmp(c->format, "text") != 0)
		return cli_usage_error("analyze --format takes text, json or csv, not", c->format);
	if (c->table && report_table_parse(c->table, &table))
		return cli_usage_error("--table takes hotspots, partitions, timelines, ops, iterations, waits, "
				       "delays, outliers, problems, critical or lane-waits, not",
				       c->table);
	if (c->table && fmt != REPORT_CSV)
		return cli_usage_error("--table goes with --format csv", NULL);
	struct err e = { 0 };
	if (c->save && saved_may_replace(c->save, &e)) {     /* before the work, not after */
		cli_error("%s", e.msg);
		return EXIT_FAIL;
	}
	int rc = *ap ? 0 : analysis_run(t, &c->aopts, cli_progress, p, ap, &e);
	cli_progress_clear(p);
	if (rc) {
		cli_error("%s: %s", c->trace, e.msg);
		return rc == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	struct analysis *a = *ap;
	if (c->save && saved_write(a, &c->aopts, c->save, &e)) {
		cli_error("%s", e.msg);
		return EXIT_FAIL;
	}
	/* named phases and restrict from the configuration */
	uint32_t np;
	analysis_parts(a, &np);
	uint8_t *keep = malloc((size_t)np + 1);
	const char **names = keep ? cli_phase_names(c, a, keep, &e) : NULL;
	if (!names) {
		cli_error("%s", e.msg[0] ? e.msg : err_name(ERR_NOMEM));
		rc = EXIT_FAIL;
	} else {
		struct report_phases ph = { .name = c->cfg.phases.n_named ? names : NULL, .keep = keep,
					    .iteration_name = c->cfg.iterations.name, .all = c->all };
		int wr = report_write(a, stdout, fmt, table, &ph);
		if (wr == ERR_NOMEM)
			cli_error("out of memory");
		rc = wr ? EXIT_FAIL : EXIT_OK;
	}
	free(keep);
	free(names);
	return rc;
}

/* "runs/stencil/traces.otf2" -> "stencil/traces.otf2": enough to tell
 * traces apart in the status line, and stable across checkouts. */
/* The command, once the options and the configuration are in. */
static int
run(struct cli *c)
{
	int rc;
	if (c->cmd == CMD_KEYS)
		return cli_keys(c);
	if (c->cmd == CMD_CONFIG) {
		struct err e = { 0 };
		/* the key bindings are checked here as the explorer checks them */
		struct keymap *km;
		if ((rc = cli_keymap(c, &km)))
			return rc;
		keymap_destroy(km);
		if (config_dump(&c->cfg, stdout, &e)) {
			if (!ferror(stdout))       /* a write error is reported once, in main */
				cli_error("%s", e.msg[0] ? e.msg : "cannot write the configuration");
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	if (c->cmd == CMD_SAMPLES)
		return cli_samples(c);
	if (c->cmd == CMD_EXPLORE)
		return cli_explore(c);
	if (c->cmd == CMD_EXPORT)
		return cli_export(c);
	if (c->cmd == CMD_DIFF)
		return cli_diff(c);
	if (c->cmd == CMD_PROFILE || c->cmd == CMD_COMM)
		return cli_profile(c);
	if (c->cmd == CMD_RENDER)
		return cli_render(c);
	/* check the output format before the (possibly long) load */
	if (c->format && strcmp(c->format, "text") && strcmp(c->format, "json") &&
	    (c->cmd != CMD_ANALYZE || strcmp(c->format, "csv")))
		return cli_usage_error(c->cmd == CMD_ANALYZE ? "--format takes text, json or csv, not"
				   : "--format takes text or json, not", c->format);
	struct cli_progress p = { .enabled = !c->quiet && isatty(STDERR_FILENO) };
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	struct trace *t = NULL;
	struct analysis *a = NULL;
	if ((rc = load(c, &p, c->trace, &t, c->cmd == CMD_ANALYZE ? &a : NULL)))
		return rc;
	if (c->cmd == CMD_ANALYZE && !(rc = cli_check_regions(c, t)))
		rc = cli_analyze(c, t, &a, &p);
	else if (c->cmd != CMD_ANALYZE)
		rc = run_info(c, t);
	analysis_destroy(a);
	trace_destroy(t);
	return rc;
}

/* Everything written to stdout must have reached it: a full disk is an
 * error for every command, --help and --version included. */
int
cli_finish_stdout(int rc)
{
	int before = errno;       /* the failed write's reason, if the buffer is empty now */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	int why = errno ? errno : before;
	cli_error("cannot write to standard output: %s", why ? strerror(why) : "write error");
	return EXIT_FAIL;
}

/* Where the documents the help names are: share/doc/skein beside the
 * binary's bin/ once installed (make install), else the source tree's
 * doc/ when the binary is in its build/ (the help never points at files
 * that are not there). */
static void
help_docs(void)
{
	char exe[4096], dir[4200];
	const char *where = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *slash;
	if (n > 0) {
		exe[n] = 0;
		for (int up = 0; up < 2 && (slash = strrchr(exe, '/')); up++)
			*slash = 0;              /* the prefix, or the source tree */
		static const char *const under[] = { "/share/doc/skein", "/doc" };
		for (int k = 0; k < 2 && !where; k++) {
			struct stat sb;
			snprintf(dir, sizeof dir, "%s%s/explorer.md", exe, under[k]);
			if (stat(dir, &sb) == 0) {
				*strrchr(dir, '/') = 0;
				where = dir;
			}
		}
	}
	printf("\nthe documents named above (format.md, config.md, ...) are in %s;\n"
	       "'man skein' has every option and key\n",
	       where ? where : "share/doc/skein under the prefix skein was installed in (make install)");
}

int
cli_main(int argc, char **argv)
{
	static struct cli c;
	int rc = cli_parse_args(argc, argv, &c);
	if (rc)
		return cli_finish_stdout(rc);
	if (c.cmd == CMD_HELP || c.cmd == CMD_VERSION) {
		errno = 0;
		if (c.cmd == CMD_HELP) {
			fputs(usage_text, stdout);
			help_docs();
		}
		else
			printf("skein %s\n", SKEIN_VERSION);
		return cli_finish_stdout(EXIT_OK);
	}
	if ((rc = cli_setup_config(&c)) == EXIT_OK)
		rc = run(&c);
	config_fini(&c.cfg);
	return cli_finish_stdout(rc);
}
