/* test_view_golden.c — golden screens: the explorer drawn through the text
 * back end (view_render, the code behind `skein render`) and compared
 * with tests/golden/NAME.txt.
 *
 * Cases are listed in tests/golden/cases.txt, one per line:
 *
 *   NAME TRACE WxH [pane=P] [color=none|mono|8|256] [ascii] [metric=M] [opts=leap] [clusters=K]
 *        [topo=SYNTHETIC] [topoxml=FILE] [start] [keys=KEYS...]
 *     expect TEXT          (optional, repeatable: TEXT must be on the screen)
 *
 * Cases open at rank 0, step 0 so that their keys move from a known
 * place; `start` opens them as the explorer does (at the top hotspot).
 *
 * Sample sets (skein samples) are cases too, listed in
 * tests/golden/samples-cases.txt: TRACE is samples:NAME for
 * traces/samples/NAME or samples-shared:NAME for
 * ../shared/traces/memaxes/NAME, with attribute=A, metric=latency|imbalance,
 * depth=D and window=W,STEP for the scores and clusters.
 *
 * keys= takes the rest of the line. TRACE names a trace generated here
 * with skein-gen or skein-gen-charm (deterministic, byte-identical
 * output; gen_traces below), corpus:NAME for traces/corpus/NAME,
 * onesided:NAME for traces/onesided/NAME, shared:NAME for
 * ../shared/traces/otf2/NAME (shared:NAME/ANCHOR.otf2 for an anchor not
 * named traces.otf2) or
 * charm:DIR/RUN.sts for the Charm++ run ../shared/traces/projections/DIR
 * (both skipped when absent). topo= is an hwloc synthetic description with
 * commas for spaces ("pack:2,core:2,pu:1"); topoxml= names an XML file in
 * ../shared/traces/hwloc (the case is skipped when it is absent).
 * The expect lines state what a reviewer checked the golden for (the
 * delayed rank is the hotspot, the cursor moved to ...), so a golden
 * regenerated wrongly still fails.
 *
 * UPDATE_GOLDEN=1 rewrites the golden files instead of comparing; review
 * the diff (git diff tests/golden) before committing it. GOLDEN_ONLY=GLOB
 * limits a run to the cases whose names match.
 */
#include "testutil.h"

#include <fnmatch.h>
#include <string.h>
#include <unistd.h>

#include "analysis/core/analysis.h"
#include "analysis/mem/mem.h"
#include "analysis/run/run.h"
#include "projections/projections_read.h"
#include "samples/samples.h"
#include "view/view.h"

/* Traces generated for the goldens: name (also the directory, so the
 * status line reads "NAME/traces.otf2") and skein-gen arguments; with
 * charm set, a Charm++ run by skein-gen-charm (NAME/jacobi.sts). */
static const struct {
	const char *name, *args;
	int charm;
} gen_traces[] = {
	{ "stencil8d", "-p 8 -n 4 -t stencil -d 2000:3:1", 0 },
	{ "ring6d", "-p 6 -n 3 -t ring -d 1000:2:1", 0 },
	{ "stencil64d", "-p 64 -n 40 -t stencil -d 3000:17:12 -d 3000:40:30", 0 },
	{ "dissem8x", "-p 8 -n 2 -t dissemination --sendrecv -d 800:5:1", 0 },
	{ "tree8d", "-p 8 -n 2 -t tree -d 600:6:1", 0 },
	/* 16 chares on 4 PEs, 5 ms more computation on Jacobi(1,2) in
	 * iteration 3: a Charm++ run the project makes itself */
	{ "charm16d", "-p 4 -x 4 -y 4 -n 10 -d 5000:1,2:3", 1 },
};
#define N_GEN (sizeof gen_traces / sizeof gen_traces[0])

struct loaded {
	char name[176];
	struct trace *t;
	struct analysis *a;
	int absent;
};

struct gcase {
	char name[64], trace[128], pane[32], metric[32], keys[512], topo[128], topoxml[128];
	char attribute[64], sdepth[16];
	unsigned window, step;
	int w, h, ascii, leap, start;
	unsigned clusters;
	enum grid_depth depth;
	char expect[8][160];
	int n_expect;
};

static char tmpdir[256];
static int have_gen;
static struct loaded loaded[32];
static int n_loaded;
static struct gcase cases[1024];
static int n_cases;
static char golden_dir[512];

/* Under TSan a screen costs some ten times the plain build's: the TSan
 * run draws the 46 cases below, which between them run every line the
 * 366 run in the source files that use the worker pool (the view's
 * grid, timeline, lists, Charm++ rows, index and prefetch; the reader
 * and the analysis of every kind of trace the cases load: MPI, leap
 * merged, Charm++, lanes, one-sided), as gcov counted them case by case
 * (a greedy cover, 2026-12-02); the plain and ASan runs draw them all.
 * A case named here and not in the lists fails the run. */
#if defined(__SANITIZE_THREAD__)
static const char *const tsan_cases[] = {
	"focus-timeline-down", "metric-partition", "metric-path", "metric-path-80", "metric-path-charm",
	"metric-cycle", "zoom-fit", "tree-leap", "shared-sstmacro-startup", "shared-lists-number",
	"shared-apex-empty", "shared-status-44", "shared-status-46", "shared-profile-cut", "click-cell",
	"timeline-mono", "topo-tree-narrow", "zero-overview", "charm-gen-metric", "charm-hotspot",
	"charm-idle", "charm-pes-entry", "charm-lists-80", "charm-profile-80", "charm-hello",
	"charm-invoker", "charm-no-invoker", "charm-80x24-invoked", "profile-window", "profile-ranks",
	"comm-messages", "lists-ranks", "lists-warnings", "lists-jump", "tzoom-pan",
	"tzoom-window-profile", "tzoom-drag", "filter-cluster", "rma-comm", "lanes-cuda-fit", "lanes-none",
	"lanes-none-clustered", "lanes-waits", "lanes-comm", "lanes-nompi", "lanes-metric",
};
#endif

static int
load_cases(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || line[0] == 0)
			continue;
		if (line[0] == ' ' || line[0] == '\t') {
			char *p = line + strspn(line, " \t");
			if (n_cases && strncmp(p, "expect ", 7) == 0) {
				struct gcase *c = &cases[n_cases - 1];
				if (c->n_expect < 8)
					snprintf(c->expect[c->n_expect++], sizeof c->expect[0], "%s", p + 7);
			}
			continue;
		}
		if (n_cases == (int)(sizeof cases / sizeof cases[0])) {
			fprintf(stderr, "%s: more cases than the %d this test holds\n", path, n_cases);
			fclose(f);
			return -1;
		}
		struct gcase *c = &cases[n_cases++];
		memset(c, 0, sizeof *c);
		c->depth = DEPTH_NONE;
		char *keys = strstr(line, " keys=");
		if (keys) {
			snprintf(c->keys, sizeof c->keys, "%s", keys + 6);
			*keys = 0;
		}
		char *save = NULL;
		char *tok = strtok_r(line, " \t", &save);
		for (int i = 0; tok; i++, tok = strtok_r(NULL, " \t", &save)) {
			if (i == 0)
				snprintf(c->name, sizeof c->name, "%s", tok);
			else if (i == 1)
				snprintf(c->trace, sizeof c->trace, "%s", tok);
			else if (i == 2)
				sscanf(tok, "%dx%d", &c->w, &c->h);
			else if (!strncmp(tok, "pane=", 5))
				snprintf(c->pane, sizeof c->pane, "%s", tok + 5);
			else if (!strncmp(tok, "metric=", 7))
				snprintf(c->metric, sizeof c->metric, "%s", tok + 7);
			else if (!strcmp(tok, "ascii"))
				c->ascii = 1;
			else if (!strncmp(tok, "clusters=", 9))
				c->clusters = (unsigned)atoi(tok + 9);
			else if (!strncmp(tok, "topo=", 5)) {
				snprintf(c->topo, sizeof c->topo, "%s", tok + 5);
				for (char *q = c->topo; *q; q++)
					*q = *q == ',' ? ' ' : *q;
			} else if (!strncmp(tok, "topoxml=", 8))
				snprintf(c->topoxml, sizeof c->topoxml, "%s", tok + 8);
			else if (!strncmp(tok, "attribute=", 10))
				snprintf(c->attribute, sizeof c->attribute, "%s", tok + 10);
			else if (!strncmp(tok, "depth=", 6))
				snprintf(c->sdepth, sizeof c->sdepth, "%s", tok + 6);
			else if (!strncmp(tok, "window=", 7))
				sscanf(tok + 7, "%u,%u", &c->window, &c->step);
			else if (!strcmp(tok, "opts=leap"))
				c->leap = 1;
			else if (!strcmp(tok, "start"))
				c->start = 1;
			else if (!strcmp(tok, "color=mono"))
				c->depth = DEPTH_MONO;
			else if (!strcmp(tok, "color=8"))
				c->depth = DEPTH_8;
			else if (!strcmp(tok, "color=256"))
				c->depth = DEPTH_256;
		}
	}
	fclose(f);
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	const char *root = tu_env("SKEIN_ROOT", ".");
	char path[1024];
	char gen[1024];
	snprintf(gen, sizeof gen, "%s/traces/gen/skein-gen", root);
	if (access(gen, X_OK) != 0) {
		snprintf(path, sizeof path, "make -s -C '%s/traces/gen' >/dev/null 2>&1", root);
		if (system(path) != 0) { /* reported per case below */ }
	}
	char gen_charm[1040];
	snprintf(gen_charm, sizeof gen_charm, "%s-charm", gen);
	have_gen = access(gen, X_OK) == 0 && access(gen_charm, X_OK) == 0;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/skein-golden-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	for (size_t i = 0; have_gen && i < N_GEN; i++) {
		char cmd[2048];
		snprintf(cmd, sizeof cmd, "'%s' -q -f -o '%s/%s' %s", gen_traces[i].charm ? gen_charm : gen, tmpdir,
			 gen_traces[i].name, gen_traces[i].args);
		if (system(cmd) != 0) {
			print_error("%s failed\n", cmd);
			return -1;
		}
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	for (int i = 0; i < n_loaded; i++) {
		analysis_destroy(loaded[i].a);
		trace_destroy(loaded[i].t);
	}
	if (tmpdir[0]) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0) { /* a leftover temp dir is harmless */ }
	}
	return 0;
}

/* Whether name is a Charm++ run made by skein-gen-charm. */
static int
gen_is_charm(const char *name)
{
	for (size_t i = 0; i < N_GEN; i++)
		if (!strcmp(name, gen_traces[i].name))
			return gen_traces[i].charm;
	return 0;
}

/* The analysis of a case's trace, loaded once; NULL with a reason to skip. */
static struct loaded *
trace_for(const char *name, int leap)
{
	char key[160];
	snprintf(key, sizeof key, "%s%s", name, leap ? "+leap" : "");
	for (int i = 0; i < n_loaded; i++)
		if (!strcmp(loaded[i].name, key))
			return &loaded[i];
	struct loaded *l = &loaded[n_loaded++];
	snprintf(l->name, sizeof l->name, "%s", key);
	char path[1024];
	if (!strncmp(name, "corpus:", 7)) {
		snprintf(path, sizeof path, "%s/traces/corpus/%s/traces.otf2", tu_env("SKEIN_ROOT", "."), name + 7);
	} else if (!strncmp(name, "onesided:", 9)) {
		snprintf(path, sizeof path, "%s/traces/onesided/%s/traces.otf2", tu_env("SKEIN_ROOT", "."), name + 9);
	} else if (!strncmp(name, "waits:", 6)) {
		snprintf(path, sizeof path, "%s/traces/waits/%s/traces.otf2", tu_env("SKEIN_ROOT", "."), name + 6);
	} else if (!strncmp(name, "charm:", 6)) {
		snprintf(path, sizeof path, "%s/traces/projections/%s", tu_env("SKEIN_SHARED", "../shared"), name + 6);
	} else if (!strncmp(name, "shared:", 7) && strstr(name, ".otf2")) {
		snprintf(path, sizeof path, "%s/traces/otf2/%s", tu_env("SKEIN_SHARED", "../shared"), name + 7);
	} else if (!strncmp(name, "shared:", 7)) {
		snprintf(path, sizeof path, "%s/traces/otf2/%s/traces.otf2", tu_env("SKEIN_SHARED", "../shared"),
			 name + 7);
	} else {
		if (!have_gen) {
			l->absent = 1;
			return l;
		}
		snprintf(path, sizeof path, "%s/%s/%s", tmpdir, name, gen_is_charm(name) ? "jacobi.sts" : "traces.otf2");
	}
	if (!tu_exists(path)) {
		l->absent = 1;
		return l;
	}
	if (!strncmp(name, "charm:", 6) || gen_is_charm(name)) {
		struct err pe = { 0 };
		if (projections_read(path, NULL, &l->t, &pe))
			fail_msg("%s: %s", path, pe.msg);
	} else {
		l->t = tu_load(path);
	}
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.leap_merge = leap;
	struct err e = { 0 };
	assert_int_equal(analysis_run(l->t, &o, NULL, NULL, &l->a, &e), 0);
	return l;
}

/* Prints the first line where got and want differ. */
static void
show_diff(const char *got, const char *want)
{
	int line = 1;
	const char *g = got, *w = want;
	while (*g && *w) {
		const char *ge = strchr(g, '\n'), *we = strchr(w, '\n');
		size_t gl = ge ? (size_t)(ge - g) : strlen(g), wl = we ? (size_t)(we - w) : strlen(w);
		if (gl != wl || memcmp(g, w, gl)) {
			print_error("line %d differs:\n  want: %.*s\n  got:  %.*s\n", line, (int)wl, w, (int)gl, g);
			return;
		}
		if (!ge || !we)
			break;
		g = ge + 1;
		w = we + 1;
		line++;
	}
	print_error("the screens differ in length at line %d\n", line);
}

static void
compare(const struct gcase *c, char *got, size_t got_n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.txt", golden_dir, c->name);
	const char *update = getenv("UPDATE_GOLDEN");
	int updating = update && !strcmp(update, "1");
	if (updating) {     /* written before the expectations are checked: the diff shows what failed */
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(got, 1, got_n, f);
		fclose(f);
	}
	for (int i = 0; i < c->n_expect; i++)
		if (!strstr(got, c->expect[i])) {
			print_error("%s: expected \"%s\" on the screen (%s)\n", c->name, c->expect[i], path);
			fail();
		}
	if (updating) {
		free(got);
		return;
	}
	size_t want_n = 0;
	char *want = tu_slurp(path, &want_n);
	if (!want) {
		print_error("%s is missing (UPDATE_GOLDEN=1 writes it)\n", path);
		free(got);
		fail();
	}
	int same = want_n == got_n && memcmp(want, got, got_n) == 0;
	if (!same) {
		print_error("%s: the screen differs from %s (UPDATE_GOLDEN=1 rewrites it)\n", c->name, path);
		show_diff(got, want);
	}
	free(want);
	free(got);
	assert_true(same);
}

/* A sample set's screen into out; 1 when the set is absent (skip). */
static int
render_samples(const struct gcase *c, FILE *out, struct err *e, int *rc)
{
	char path[1024];
	const char *name = strchr(c->trace, ':') + 1;
	if (!strncmp(c->trace, "samples-shared:", 15))
		snprintf(path, sizeof path, "%s/traces/memaxes/%s", tu_env("SKEIN_SHARED", "../shared"), name);
	else
		snprintf(path, sizeof path, "%s/traces/samples/%s", tu_env("SKEIN_ROOT", "."), name);
	if (!tu_exists(path))
		return 1;
	struct samples *s = NULL;
	struct mem *m = NULL;
	if ((*rc = samples_open(path, NULL, &s, e)) || (*rc = mem_create(s, &m, e))) {
		samples_destroy(s);
		return 0;
	}
	struct view_samples_opts so = { .initial = {
		.attr = c->attribute[0] ? (uint32_t)samples_attr_find(s, c->attribute) : (uint32_t)mem_default_attr(s),
		.metric = !strcmp(c->metric, "latency") ? MEM_LATENCY : MEM_IMBALANCE,
		.depth = c->sdepth[0] ? mem_depth_find(c->sdepth) : TOPO_PU,
		.windows = 16, .window = c->window ? c->window : 200, .step = c->step ? c->step : 50, .clusters = 4,
	} };
	assert_true(so.initial.attr < samples_attr_count(s));
	struct view_opts vo = { .label = name, .pane = c->pane[0] ? c->pane : NULL,
				.this_host = TU_HOST, .this_machine = TU_MACHINE };
	struct view_render_opts ro = { .w = c->w, .h = c->h, .keys = c->keys, .depth = c->depth, .ascii = c->ascii };
	*rc = view_render_samples(m, &vo, &so, &ro, out, NULL, e);
	mem_destroy(m);
	samples_destroy(s);
	return 0;
}

static void
run_case(void **state)
{
	const struct gcase *c = *state;
	if (!strncmp(c->trace, "samples", 7)) {
		char *got = NULL;
		size_t got_n = 0;
		FILE *mem = open_memstream(&got, &got_n);
		assert_non_null(mem);
		struct err e = { 0 };
		int rc = 0, absent = render_samples(c, mem, &e, &rc);
		fclose(mem);
		if (absent) {
			free(got);
			print_message("skipped: sample set %s is absent\n", c->trace);
			skip();
		}
		if (rc)
			print_error("%s: %s\n", c->name, e.msg);
		assert_int_equal(rc, 0);
		compare(c, got, got_n);
		return;
	}
	struct loaded *l = trace_for(c->trace, c->leap);
	if (l->absent) {
		print_message("skipped: trace %s is absent (no skein-gen or no ../shared)\n", c->trace);
		skip();
	}
	char label[256], xml[1024];
	if (!strncmp(c->trace, "charm:", 6))
		snprintf(label, sizeof label, "%s", c->trace + 6);
	else if (gen_is_charm(c->trace))
		snprintf(label, sizeof label, "%s/jacobi.sts", c->trace);
	else if (strstr(c->trace, ".otf2"))
		snprintf(label, sizeof label, "%s", strchr(c->trace, ':') ? strchr(c->trace, ':') + 1 : c->trace);
	else
		snprintf(label, sizeof label, "%s/traces.otf2", strchr(c->trace, ':') ? strchr(c->trace, ':') + 1 : c->trace);
	struct view_opts vo = { .label = label, .pane = c->pane[0] ? c->pane : NULL, .clusters = c->clusters,
				.start_origin = !c->start, .this_host = TU_HOST, .this_machine = TU_MACHINE };
	if (c->topoxml[0]) {
		snprintf(xml, sizeof xml, "%s/traces/hwloc/%s", tu_env("SKEIN_SHARED", "../shared"), c->topoxml);
		if (!tu_exists(xml)) {
			print_message("skipped: %s is absent\n", xml);
			skip();
		}
		vo.topology = xml;
	}
	if (c->topo[0])
		vo.topology_synthetic = c->topo;
	/* metric auto, as the CLI settles it */
	vo.metric = trace_info(analysis_trace(l->a))->paradigm == PARADIGM_CHARM ? METRIC_DIFF_DURATION
										   : METRIC_LATENESS;
	if (c->metric[0]) {
		vo.metric = view_metric_find(c->metric);
		assert_int_not_equal(vo.metric, METRIC_COUNT);
	}
	struct view_render_opts ro = { .w = c->w, .h = c->h, .keys = c->keys, .depth = c->depth, .ascii = c->ascii };
	char *got = NULL;
	size_t got_n = 0;
	FILE *mem = open_memstream(&got, &got_n);
	assert_non_null(mem);
	struct err e = { 0 };
	int rc = view_render(l->a, &vo, &ro, mem, NULL, &e);
	fclose(mem);
	if (rc)
		print_error("%s: %s\n", c->name, e.msg);
	assert_int_equal(rc, 0);
	compare(c, got, got_n);
}

int
main(void)
{
	/* the case list is read before the group runs: cmocka needs the tests */
	const char *root = tu_env("SKEIN_ROOT", ".");
	char path[1024];
	snprintf(golden_dir, sizeof golden_dir, "%s/tests/golden", root);
	snprintf(path, sizeof path, "%s/cases.txt", golden_dir);
	if (load_cases(path) || n_cases == 0) {
		fprintf(stderr, "test_view_golden: cannot read cases from %s\n", path);
		return 1;
	}
	snprintf(path, sizeof path, "%s/samples-cases.txt", golden_dir);
	if (load_cases(path)) {
		fprintf(stderr, "test_view_golden: cannot read cases from %s\n", path);
		return 1;
	}
	/* GOLDEN_ONLY=GLOB runs (or, with UPDATE_GOLDEN=1, rewrites) only
	 * the cases whose names match */
	const char *only = getenv("GOLDEN_ONLY");
	struct CMUnitTest *tests = calloc((size_t)n_cases, sizeof *tests);
	if (!tests)
		return 1;
	int n = 0;
#if defined(__SANITIZE_THREAD__)
	for (size_t k = 0; k < sizeof tsan_cases / sizeof *tsan_cases; k++) {
		int found = 0;
		for (int i = 0; i < n_cases && !found; i++)
			found = !strcmp(cases[i].name, tsan_cases[k]);
		if (!found) {
			fprintf(stderr, "test_view_golden: no case %s (tsan_cases)\n", tsan_cases[k]);
			return 1;
		}
	}
#endif
	for (int i = 0; i < n_cases; i++) {
		if (only && *only && fnmatch(only, cases[i].name, 0) != 0)
			continue;
#if defined(__SANITIZE_THREAD__)
		int kept = 0;
		for (size_t k = 0; k < sizeof tsan_cases / sizeof *tsan_cases && !kept; k++)
			kept = !strcmp(cases[i].name, tsan_cases[k]);
		if (!kept)
			continue;
#endif
		tests[n].name = cases[i].name;
		tests[n].test_func = run_case;
		tests[n].initial_state = &cases[i];
		n++;
	}
	int rc = _cmocka_run_group_tests("golden screens", tests, (size_t)n, setup, teardown);
	free(tests);
	return rc;
}
