/* savedread.h — everything the commands read of an opened saved
 * analysis, for the tests that alter saved files (test_saved_mutate.c)
 * and their fuzz target (fuzz/fuzz_saved.c): info (with the ranks), analyze
 * in every format and table, with the clusters, export, diff both ways
 * against another analysis, render with keys that visit every pane, and
 * the saved model analysed again with other options.
 */
#ifndef SKEIN_SAVEDREAD_H
#define SKEIN_SAVEDREAD_H

#include <stdio.h>

#include "analysis/compare/diff.h"
#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "report/diff_report.h"
#include "report/export.h"
#include "report/info.h"
#include "report/report.h"
#include "view/view.h"

/* Key scripts that move through the grid, jump along hotspots, causes,
 * partitions and searches, zoom, and focus every pane; the first alone
 * opens the details and the histogram once (the topology pane runs
 * hwloc in a child process: the others only). */
static const char *const savedread_keys[] = {
	">cdC",
	">>]]jjllc<Tab>ddss<End><Home>GgLH", "<Tab><Tab>zz+-f1<PgDn>[[kk<lt>n/MPI<Enter>nN",
	"mMt<Tab>vvoo<Tab>jjd<Tab>vvvowe<Tab>jk", "CEX}}{{<Space>:step 3<Enter>:iter 1<Enter>:clusters 2<Enter>",
	"S?<Esc>w:zoom 2<Enter>:metric diff<Enter>",
};

enum {
	SAVEDREAD_REANALYSE = 1,      /* the model analysed again too */
	SAVEDREAD_ALL_KEYS = 2,       /* every key script, not the first alone */
	SAVEDREAD_ALL = 4,            /* diff both ways, export as JSON too, the view before
				       * the clusters too */
};

/* all: the topology pane drawn too, from the trace's system tree (a
 * trace that ran on nodes other than this one: the node ids) or else
 * from a synthetic machine (hwloc runs in a child process for it); not
 * all: given a file that is not there, which the pane says. */
static void
savedread_view(const struct analysis *a, int all, FILE *out)
{
	struct view_opts vo = { .label = "m.skein", .this_host = "elsewhere",
				.this_machine = "pack:1 numa:1 l3:1 core:2 pu:1",
				.topology = all ? NULL : "/nonexistent/skein-test.xml" };
	for (size_t i = 0; i < (all ? sizeof savedread_keys / sizeof *savedread_keys : 1); i++) {
		struct view_render_opts ro = { .w = 100, .h = 30, .keys = savedread_keys[i] };
		struct err e = { 0 };
		view_render(a, &vo, &ro, out, NULL, &e);
	}
}

/* Reads a (opened from a saved file) as every command does, writing to
 * out; other, when not NULL, is diffed against it both ways. flags:
 * SAVEDREAD_*. */
static void
savedread_all(struct analysis *a, const struct analysis *other, int flags, FILE *out)
{
	int all = (flags & SAVEDREAD_ALL_KEYS) != 0;
	const struct trace *t = analysis_trace(a);
	info_write(t, out, INFO_TEXT, 0);
	info_write(t, out, INFO_TEXT, 1);
	info_write(t, out, INFO_JSON, 1);
	struct report_phases ph = { .iteration_name = "round" };
	report_write(a, out, REPORT_TEXT, TABLE_HOTSPOTS, NULL);
	report_write(a, out, REPORT_JSON, TABLE_HOTSPOTS, &ph);
	for (int k = TABLE_HOTSPOTS; k <= TABLE_ITERATIONS; k++)
		report_write(a, out, REPORT_CSV, (enum report_table)k, NULL);
	export_csv(a, out);
	if (flags & SAVEDREAD_ALL)
		export_json(a, out);
	struct err e = { 0 };
	for (int way = 0; other && way < (flags & SAVEDREAD_ALL ? 2 : 1); way++) {
		struct diff *d = NULL;
		if (diff_run(way ? a : other, way ? other : a, &d, &e) == 0) {
			diff_report_write(d, out, REPORT_TEXT, DIFF_TABLE_OPS, 0);
			diff_report_write(d, out, REPORT_JSON, DIFF_TABLE_OPS, 0);
			for (int k = DIFF_TABLE_OPS; k <= DIFF_TABLE_CHANGES; k++)
				diff_report_write(d, out, REPORT_CSV, (enum diff_table)k, 0);
		}
		diff_destroy(d);
	}
	if (flags & SAVEDREAD_ALL)
		savedread_view(a, all, out);
	if (saved_cluster(a, 3) == 0) {
		report_write(a, out, REPORT_TEXT, TABLE_HOTSPOTS, NULL);
		report_write(a, out, REPORT_JSON, TABLE_HOTSPOTS, NULL);
		savedread_view(a, all, out);
	}
	if (!(flags & SAVEDREAD_REANALYSE))
		return;
	/* the saved model analysed again, as other options make it */
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.leap_merge = 1;
	o.reorder = 1;
	o.clusters = 2;
	struct analysis *b = NULL;
	if (analysis_run(t, &o, NULL, NULL, &b, &e) == 0) {
		report_write(b, out, REPORT_TEXT, TABLE_HOTSPOTS, NULL);
		report_write(b, out, REPORT_CSV, TABLE_OPS, NULL);
		export_json(b, out);
		savedread_view(b, 0, out);
	}
	analysis_destroy(b);
}

#endif
