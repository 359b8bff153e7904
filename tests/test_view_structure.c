/* test_view_structure.c — golden screens of the explorer showing two runs
 * compared (skein diff on a terminal: the delta metric, both runs in the
 * details, the overview on the change) and the iterations (the overview's
 * marks, :iter N, "iteration k of n"), on corpus traces. Compared with
 * tests/golden/NAME.txt like test_view_golden.c's cases; UPDATE_GOLDEN=1
 * rewrites them (review git diff tests/golden). Each case also states
 * what a reviewer checked on it, so a wrongly regenerated golden fails. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/compare/diff.h"
#include "view/view.h"

struct scase {
	const char *name, *before, *after, *keys, *metric;
	int w, h;
	const char *expect[8];
};

static const struct scase cases[] = {
	{ "diff-delta", "stencil-4", "stencil-4-delay", ">", NULL, 120, 50,
	  { "\u0394 lateness  r1 step 6", "iteration 1 of 6", "lateness         0 \u2502 100.2 ms",
	    "the largest change between the", "overview \u00b7 max \u0394 lateness per step" } },
	{ "diff-propagated", "stencil-4", "stencil-4-delay", ":rank 0<Enter>:step 9<Enter>", NULL, 120, 60,
	  { "r0 step 9", "its lateness came from the", "change: lateness +" } },
	{ "diff-extra", "stencil-4", "stencil-4-extra", ":iter 3<Enter>", NULL, 120, 50,
	  /* the details wrap the message line before "r1" (grid_wrap never
	   * breaks after a digit) */
	  { "r0 step 16", "structure differs: partition", "1 message only after: r0 \u2192", "r1 tag 14",
	    "iteration 3 of 6", "! structure differs", "\u25b2!!!\u2534" } },
	/* the largest change the text report names: for the better (the
	 * delay was BEFORE's), where worse[0] was marked, a +160 us elsewhere */
	{ "diff-better", "stencil-4-delay", "stencil-4", ":rank 1<Enter>:step 6<Enter>", NULL, 120, 50,
	  { "r1 step 6", "diff.     100.0 ms \u2502", "the largest change between the" } },
	/* a BEFORE operation nothing paired (waitsome-4 against its Open MPI
	 * run: skein diff's 'rank 0 step 26 before ... -311.8 ms'), marked at
	 * the AFTER operation it was compared with; worse[0], rank 1's
	 * +294.2 ms, was marked instead */
	{ "diff-unpaired-before", "../waits/waitsome-4", "../waits/waitsome-4-openmpi", ":rank 0<Enter>:step 8<Enter>",
	  NULL, 120, 60, { "r0 step 8", "the largest change between the", "this is the most its call" } },
	{ "diff-not-largest", "../waits/waitsome-4", "../waits/waitsome-4-openmpi", ":rank 1<Enter>:step 14<Enter>",
	  NULL, 120, 50, { "r1 step 14", "diff. +294.2 ms" } },
	{ "iter-goto", NULL, "stencil-4-delay", ":iter 4<Enter>", NULL, 120, 40,
	  { "r0 step 20", "iteration 4 of 6 \u00b7 steps 20\u201323", "\u2514\u2500\u2534",
	    "iteration 4 of 6: steps 20\u201323" } },
	{ "iter-bad", NULL, "stencil-4-delay", ":iter 6<Enter>", NULL, 100, 30,
	  { "iteration 6 does not exist (0-5)" } },
	{ "delta-alone", NULL, "stencil-4-delay", ":metric delta<Enter>", NULL, 100, 30,
	  { "delta compares two runs: open them with skein diff BEFORE AFTER" } },
};

struct run {
	struct trace *t;
	struct analysis *a;
};

static void
load(struct run *r, const char *name)
{
	r->t = tu_load_corpus(name);
	r->a = tu_analyse(r->t, NULL);
}

static void
run_case(void **state)
{
	const struct scase *c = *state;
	struct run b = { 0 }, a;
	struct diff *d = NULL;
	struct err e = { 0 };
	load(&a, c->after);
	if (c->before) {
		load(&b, c->before);
		assert_int_equal(diff_run(b.a, a.a, &d, &e), 0);
	}
	char label[256];
	if (!strncmp(c->after, "../", 3))        /* beside the corpus: traces/NAME */
		snprintf(label, sizeof label, "%s", c->after + 3);
	else
		snprintf(label, sizeof label, "corpus/%s", c->after);
	/* at rank 0, step 0, as test_view_golden.c's cases open: the keys
	 * move from a known place */
	struct view_opts vo = { .label = label, .this_host = TU_HOST, .this_machine = TU_MACHINE, .diff = d, .metric = d ? METRIC_DELTA : METRIC_LATENESS,
				.start_origin = 1 };
	struct view_render_opts ro = { .w = c->w, .h = c->h, .keys = c->keys, .depth = DEPTH_NONE };
	char *got = NULL;
	size_t got_n = 0;
	FILE *mem = open_memstream(&got, &got_n);
	assert_non_null(mem);
	assert_int_equal(view_render(a.a, &vo, &ro, mem, NULL, &e), 0);
	fclose(mem);
	for (int i = 0; i < 8 && c->expect[i]; i++)
		if (!strstr(got, c->expect[i])) {
			print_error("%s: expected \"%s\" on the screen:\n%s", c->name, c->expect[i], got);
			fail();
		}
	char rel[256], path[1200];
	snprintf(rel, sizeof rel, "tests/golden/%s.txt", c->name);
	PROJECT_PATH(path, rel);
	const char *update = getenv("UPDATE_GOLDEN");
	if (update && !strcmp(update, "1")) {
		FILE *f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(got, 1, got_n, f);
		fclose(f);
	} else {
		size_t want_n = 0;
		char *want = tu_slurp(path, &want_n);
		if (!want)
			print_error("%s is missing (UPDATE_GOLDEN=1 writes it)\n", path);
		int same = want && want_n == got_n && memcmp(want, got, got_n) == 0;
		if (want && !same)
			print_error("%s: the screen differs from %s (UPDATE_GOLDEN=1 rewrites it):\n%s",
				    c->name, path, got);
		free(want);
		assert_true(same);
	}
	free(got);
	diff_destroy(d);
	analysis_destroy(a.a);
	trace_destroy(a.t);
	analysis_destroy(b.a);
	trace_destroy(b.t);
}

int
main(void)
{
	struct CMUnitTest tests[sizeof cases / sizeof cases[0]];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		tests[i] = (struct CMUnitTest){ .name = cases[i].name, .test_func = run_case,
						.initial_state = (void *)&cases[i] };
	return _cmocka_run_group_tests("structure screens", tests, sizeof cases / sizeof cases[0],
				       NULL, NULL);
}
