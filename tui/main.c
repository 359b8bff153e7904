/* main.c — the skein command line: subcommands, options, exit codes.
 *
 * Exit codes (documented in skein(1)): 0 success, 1 the trace or a file
 * could not be read or processed, 2 wrong usage. Results go to stdout,
 * diagnostics and progress to stderr.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/info.h"
#include "../src/otf2_read.h"

#ifndef SKEIN_VERSION
#define SKEIN_VERSION "unknown"
#endif

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
	"usage: skein [OPTIONS] TRACE\n"
	"       skein info [--format text|json] [--ranks] TRACE\n"
	"       skein --help | --version\n"
	"\n"
	"skein explores the logical structure of parallel execution traces.\n"
	"TRACE is an OTF2 anchor file (traces.otf2) or the directory holding it.\n"
	"\n"
	"commands:\n"
	"  info        summarise what the trace holds: ranks, regions, events,\n"
	"              operations, messages, collectives, warnings\n"
	"  (none)      until the explorer lands, the same as info\n"
	"\n"
	"options:\n"
	"  -f, --format FMT   output format for info: text (default) or json\n"
	"  -r, --ranks        info: add one line per rank\n"
	"  -q, --quiet        no progress on stderr\n"
	"  -h, --help         this help\n"
	"  -V, --version      print the version\n"
	"\n"
	"exit status: 0 success, 1 the trace could not be read, 2 usage error.\n";

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

/* Shows "reading 42%" on stderr once loading has taken half a second. */
static int
on_progress(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	struct progress *p = ud;
	if (!p->enabled || elapsed(&p->start) < 0.5)
		return 0;
	if (total)
		fprintf(stderr, "\rskein: %s %3.0f%%", stage, 100.0 * (double)done / (double)total);
	else
		fprintf(stderr, "\rskein: %s...    ", stage);
	p->shown = 1;
	return 0;
}

static void
progress_clear(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
}

static int
load(const char *path, int quiet, struct trace **t)
{
	struct progress p = { .enabled = !quiet && isatty(STDERR_FILENO) };
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	struct otf2_read_opts o = { .progress = on_progress, .ud = &p };
	struct err e = { 0 };
	int rc = otf2_read(path, &o, t, &e);
	progress_clear(&p);
	if (rc) {
		fprintf(stderr, "skein: %s\n", e.msg[0] ? e.msg : err_name(rc));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int
usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "skein: %s%s%s%s\nTry 'skein --help'.\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "ranks", no_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	enum info_format fmt = INFO_TEXT;
	int per_rank = 0, quiet = 0, c;
	/* '+' would stop at the subcommand; permute so options may follow it. */
	while ((c = getopt_long(argc, argv, "f:rqhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				fmt = INFO_TEXT;
			else if (strcmp(optarg, "json") == 0)
				fmt = INFO_JSON;
			else
				return usage_error("unknown format (text or json):", optarg);
			break;
		case 'r': per_rank = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(usage_text, stdout); return EXIT_OK;
		case 'V': printf("skein %s\n", SKEIN_VERSION); return EXIT_OK;
		default: fputs("Try 'skein --help'.\n", stderr); return EXIT_USAGE;
		}
	}
	int nargs = argc - optind;
	char **args = argv + optind;
	if (nargs >= 1 && strcmp(args[0], "info") == 0) {
		args++;
		nargs--;
	}
	if (nargs == 0)
		return usage_error("no trace given", NULL);
	if (nargs > 1)
		return usage_error("unexpected argument", args[1]);

	struct trace *t = NULL;
	int rc = load(args[0], quiet, &t);
	if (rc)
		return rc;
	if (info_write(t, stdout, fmt, per_rank) || fflush(stdout)) {
		fprintf(stderr, "skein: cannot write the report\n");
		rc = EXIT_FAIL;
	}
	trace_destroy(t);
	return rc;
}
