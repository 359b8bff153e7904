/* cli_diff.c — `skein diff BEFORE AFTER`: both traces loaded and analysed
 * with the same options, compared (analysis/diff.h), written as text,
 * JSON or CSV (report/diff_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare/diff.h"
#include "analysis/run/run.h"
#include "report/diff_report.h"
#include "cli.h"

/* Loads and analyses one run (a trace, or a saved analysis); prints why
 * not and returns an exit code. */
static int
load_run(struct cli *c, const char *path, struct trace **t, struct analysis **a)
{
	struct err e = { 0 };
	int rc = cli_load_trace(c, path, t, a);
	if (!rc)
		rc = cli_check_regions(c, *t);
	if (rc || *a)
		return rc;
	if ((rc = analysis_run(*t, &c->aopts, NULL, NULL, a, &e))) {
		cli_error("%s: %s", path, e.msg);
		return rc == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	return EXIT_OK;
}

int
cli_diff(struct cli *c)
{
	enum report_format fmt = REPORT_TEXT;
	enum diff_table table = DIFF_TABLE_OPS;
	if (c->format && strcmp(c->format, "json") == 0)
		fmt = REPORT_JSON;
	else if (c->format && strcmp(c->format, "csv") == 0)
		fmt = REPORT_CSV;
	else if (c->format && strcmp(c->format, "text") != 0)
		return cli_usage_error("diff --format takes text, json or csv, not", c->format);
	if (c->table && diff_report_table_parse(c->table, &table))
		return cli_usage_error("diff --table takes ops, partitions, regions or changes, not",
				       c->table);
	if (c->table && fmt != REPORT_CSV)
		return cli_usage_error("--table goes with --format csv", NULL);
	struct trace *tb = NULL, *ta = NULL;
	struct analysis *ab = NULL, *aa = NULL;
	struct diff *d = NULL;
	int rc = load_run(c, c->trace, &tb, &ab);
	if (rc == EXIT_OK)
		rc = load_run(c, c->trace2, &ta, &aa);
	if (rc == EXIT_OK) {
		struct err e = { 0 };
		int dr = diff_run(ab, aa, &d, &e);
		if (dr) {
			cli_error("%s", e.msg);
			rc = dr == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
		}
	}
	if (rc == EXIT_OK && diff_report_write(d, stdout, fmt, table, c->given & G_HOTSPOTS ?
						c->aopts.hotspots : 0))
		rc = EXIT_FAIL;
	diff_destroy(d);
	analysis_destroy(aa);
	analysis_destroy(ab);
	trace_destroy(ta);
	trace_destroy(tb);
	return rc;
}
