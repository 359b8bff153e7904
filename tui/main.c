/* main.c — the skein command line: subcommands, options, exit codes.
 *
 * Exit codes (documented in skein(1)): 0 success, 1 the trace or a file
 * could not be read or processed, 2 wrong usage. Results go to stdout,
 * diagnostics and progress to stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/analysis.h"
#include "../src/info.h"
#include "../src/otf2_read.h"
#include "../src/report.h"

#ifndef SKEIN_VERSION
#define SKEIN_VERSION "unknown"
#endif

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };
#define MAX_PHASES 64

static const char usage_text[] =
	"usage: skein [OPTIONS] TRACE\n"
	"       skein info [--format text|json] [--ranks] TRACE\n"
	"       skein analyze [--format text|json|csv] [--table T] [STRUCTURE OPTIONS] TRACE\n"
	"       skein --help | --version\n"
	"\n"
	"skein explores the logical structure of parallel execution traces.\n"
	"TRACE is an OTF2 anchor file (traces.otf2) or the directory holding it.\n"
	"\n"
	"commands:\n"
	"  info        what the trace holds: ranks, regions, events, operations,\n"
	"              messages, collectives, warnings\n"
	"  analyze     logical structure and lateness: partitions, steps, the\n"
	"              verifier, hotspots with their cause, lateness per rank\n"
	"  (none)      until the explorer lands, the same as info\n"
	"\n"
	"output options:\n"
	"  -f, --format FMT        text (default), json, or csv (analyze)\n"
	"  -t, --table T           analyze --format csv: hotspots (default),\n"
	"                          partitions, timelines or ops\n"
	"  -r, --ranks             info: one line per rank\n"
	"  -n, --hotspots N        analyze: how many hotspots to rank (default 20)\n"
	"  -q, --quiet             no progress on stderr\n"
	"\n"
	"structure options (analyze):\n"
	"      --no-coalesce       do not coalesce neighbouring MPI_Isend calls\n"
	"      --no-waitall-merge  do not merge the operations one Waitall completes\n"
	"      --leap-merge        merge partitions until every leap has all ranks\n"
	"      --leap-factor F     merge backwards when the incoming leap distance is\n"
	"                          F times smaller than the outgoing one (default 10)\n"
	"      --leap-force        force-merge leaps that stay incomplete\n"
	"      --global-step-merge merge partitions that share global steps\n"
	"      --match-size        ignore messages whose ends disagree on size\n"
	"  -p, --phase GLOB        every Enter of a region matching GLOB starts a new\n"
	"                          phase (replaces partition detection; repeatable)\n"
	"\n"
	"  -h, --help              this help\n"
	"  -V, --version           print the version\n"
	"\n"
	"exit status: 0 success, 1 the trace could not be read, 2 usage error.\n";

enum cmd { CMD_INFO, CMD_ANALYZE };

enum {
	OPT_NO_COALESCE = 256, OPT_NO_WAITALL, OPT_LEAP, OPT_LEAP_FACTOR, OPT_LEAP_FORCE,
	OPT_GSTEP, OPT_MATCH_SIZE,
};

struct cli {
	enum cmd cmd;
	const char *format;
	const char *table;
	int per_rank, quiet;
	struct analysis_opts aopts;
	struct analysis_phase_rule phases[MAX_PHASES];
	const char *trace;
	int structure_opts;        /* any analyze-only option given */
};

struct progress {
	int enabled;
	struct timespec start;
	int shown;
};

static double
elapsed(const struct timespec *since)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) + (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

/* Shows "skein: reading 42%" on stderr once work has taken half a second. */
static int
on_progress(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	struct progress *p = ud;
	if (!p->enabled || elapsed(&p->start) < 0.5)
		return 0;
	if (total && done)
		fprintf(stderr, "\rskein: %s %3.0f%%\033[K", stage, 100.0 * (double)done / (double)total);
	else
		fprintf(stderr, "\rskein: %s...\033[K", stage);
	p->shown = 1;
	return 0;
}

static void
progress_clear(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	p->shown = 0;
}

static int
usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "skein: %s%s%s%s\nTry 'skein --help'.\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
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

static int
parse_args(int argc, char **argv, struct cli *c)
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
		{ "match-size", no_argument, NULL, OPT_MATCH_SIZE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int o;
	char *end;
	analysis_opts_default(&c->aopts);
	while ((o = getopt_long(argc, argv, "f:t:rn:qp:hV", longopts, NULL)) != -1) {
		switch (o) {
		case 'f': c->format = optarg; break;
		case 't': c->table = optarg; break;
		case 'r': c->per_rank = 1; break;
		case 'q': c->quiet = 1; break;
		case 'n':
			if (parse_uint(optarg, &c->aopts.hotspots))
				return usage_error("--hotspots takes a whole number up to 1000000, not", optarg);
			c->structure_opts = 1;
			break;
		case 'p':
			if (c->aopts.n_phases == MAX_PHASES)
				return usage_error("too many --phase rules", NULL);
			c->phases[c->aopts.n_phases++].region_glob = optarg;
			c->aopts.phases = c->phases;
			c->structure_opts = 1;
			break;
		case OPT_NO_COALESCE: c->aopts.coalesce_isends = 0; c->structure_opts = 1; break;
		case OPT_NO_WAITALL: c->aopts.waitall_merge = 0; c->structure_opts = 1; break;
		case OPT_LEAP: c->aopts.leap_merge = 1; c->structure_opts = 1; break;
		case OPT_LEAP_FORCE: c->aopts.leap_force = 1; c->structure_opts = 1; break;
		case OPT_GSTEP: c->aopts.global_step_merge = 1; c->structure_opts = 1; break;
		case OPT_MATCH_SIZE: c->aopts.match_size = 1; c->structure_opts = 1; break;
		case OPT_LEAP_FACTOR:
			errno = 0;
			c->aopts.leap_factor = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->aopts.leap_factor > 0) ||
			    c->aopts.leap_factor > 1e9)
				return usage_error("--leap-factor takes a positive number, not", optarg);
			c->structure_opts = 1;
			break;
		case 'h': fputs(usage_text, stdout); exit(EXIT_OK);
		case 'V': printf("skein %s\n", SKEIN_VERSION); exit(EXIT_OK);
		default: fputs("Try 'skein --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	int nargs = argc - optind;
	char **args = argv + optind;
	c->cmd = CMD_INFO;
	if (nargs >= 1 && strcmp(args[0], "info") == 0) {
		args++;
		nargs--;
	} else if (nargs >= 1 && (strcmp(args[0], "analyze") == 0 || strcmp(args[0], "analyse") == 0)) {
		c->cmd = CMD_ANALYZE;
		args++;
		nargs--;
	}
	if (nargs == 0)
		return usage_error("no trace given", NULL);
	if (nargs > 1)
		return usage_error("unexpected argument", args[1]);
	c->trace = args[0];
	if (c->cmd != CMD_ANALYZE && (c->structure_opts || c->table))
		return usage_error("structure, --table and --hotspots options belong to 'skein analyze'", NULL);
	if (c->cmd != CMD_INFO && c->per_rank)
		return usage_error("--ranks belongs to 'skein info'", NULL);
	return EXIT_OK;
}

static int
load(const struct cli *c, struct progress *p, struct trace **t)
{
	struct otf2_read_opts o = { .progress = on_progress, .ud = p };
	struct err e = { 0 };
	int rc = otf2_read(c->trace, &o, t, &e);
	progress_clear(p);
	if (rc) {
		fprintf(stderr, "skein: %s\n", e.msg[0] ? e.msg : err_name(rc));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int
run_info(const struct cli *c, const struct trace *t)
{
	enum info_format fmt = INFO_TEXT;
	if (c->format && strcmp(c->format, "json") == 0)
		fmt = INFO_JSON;
	else if (c->format && strcmp(c->format, "text") != 0)
		return usage_error("info --format takes text or json, not", c->format);
	return info_write(t, stdout, fmt, c->per_rank) ? EXIT_FAIL : EXIT_OK;
}

static int
run_analyze(const struct cli *c, const struct trace *t, struct progress *p)
{
	enum report_format fmt = REPORT_TEXT;
	enum report_table table = TABLE_HOTSPOTS;
	if (c->format && strcmp(c->format, "json") == 0)
		fmt = REPORT_JSON;
	else if (c->format && strcmp(c->format, "csv") == 0)
		fmt = REPORT_CSV;
	else if (c->format && strcmp(c->format, "text") != 0)
		return usage_error("analyze --format takes text, json or csv, not", c->format);
	if (c->table && report_table_parse(c->table, &table))
		return usage_error("--table takes hotspots, partitions, timelines or ops, not", c->table);
	if (c->table && fmt != REPORT_CSV)
		return usage_error("--table goes with --format csv", NULL);
	struct analysis *a = NULL;
	struct err e = { 0 };
	int rc = analysis_run(t, &c->aopts, on_progress, p, &a, &e);
	progress_clear(p);
	if (rc) {
		fprintf(stderr, "skein: %s: %s\n", c->trace, e.msg);
		return rc == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	rc = report_write(a, stdout, fmt, table) ? EXIT_FAIL : EXIT_OK;
	analysis_destroy(a);
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli c = { 0 };
	int rc = parse_args(argc, argv, &c);
	if (rc)
		return rc;
	/* check the output format before the (possibly long) load */
	if (c.format && strcmp(c.format, "text") && strcmp(c.format, "json") &&
	    (c.cmd != CMD_ANALYZE || strcmp(c.format, "csv")))
		return usage_error(c.cmd == CMD_ANALYZE ? "--format takes text, json or csv, not"
				   : "--format takes text or json, not", c.format);
	struct progress p = { .enabled = !c.quiet && isatty(STDERR_FILENO) };
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	struct trace *t = NULL;
	if ((rc = load(&c, &p, &t)))
		return rc;
	rc = c.cmd == CMD_ANALYZE ? run_analyze(&c, t, &p) : run_info(&c, t);
	if (rc == EXIT_OK && fflush(stdout)) {
		fprintf(stderr, "skein: cannot write the report\n");
		rc = EXIT_FAIL;
	}
	trace_destroy(t);
	return rc;
}
