/* test_config_analysis.c — each structure option and each phase form,
 * set through the configuration, changes the analysis as doc/config.md
 * says, on the corpus traces (figures from their expected.txt where it
 * has them) and on two small built traces for the options the corpus
 * does not exercise.
 */
#include "testconfig.h"

#include <string.h>
#include <unistd.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "model/build.h"
#include "config/config.h"
#include "model/trace_impl.h"

/* ---- helpers ---- */

static struct trace *
corpus(const char *name)
{
	char path[512], rel[128];
	snprintf(rel, sizeof rel, "traces/corpus/%s/traces.otf2", name);
	return tu_load(PROJECT_PATH(path, rel));
}

/* The value of `key` in expected.txt of a corpus trace: in `section`, or
 * before the first section when section is NULL. */
static uint32_t
expected(const char *trace, const char *section, const char *key)
{
	char path[512], rel[128], line[512], cur[64] = "";
	snprintf(rel, sizeof rel, "traces/corpus/%s/expected.txt", trace);
	FILE *f = fopen(PROJECT_PATH(path, rel), "r");
	assert_non_null(f);
	size_t kl = strlen(key);
	long v = -1;
	while (v < 0 && fgets(line, sizeof line, f)) {
		if (sscanf(line, "section %63s", cur) == 1)
			continue;
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ' &&
		    (section ? strcmp(cur, section) == 0 : cur[0] == '\0'))
			v = strtol(line + kl + 1, NULL, 10);
	}
	fclose(f);
	if (v < 0) {
		print_error("%s: no '%s' in section %s\n", rel, key, section ? section : "(top)");
		fail();
	}
	return (uint32_t)v;
}

/* Defaults, then each YAML text in turn. */
static void
configure(struct config *c, const char *const *texts, size_t n)
{
	struct err e = { 0 };
	assert_int_equal(config_init(c, &e), 0);
	for (size_t i = 0; i < n; i++) {
		const char *t = texts[i];
		int rc = strncmp(t, "config/", 7) == 0 ? config_load_file(c, t, &e)
						       : config_load_string(c, "test", t, strlen(t), &e);
		if (rc) {
			print_error("%s\n", e.msg);
			fail();
		}
	}
}

/* Runs the analysis the config describes; checks happened-before. */
static struct analysis *
run(const struct trace *t, const struct config *c)
{
	struct analysis_opts o;
	struct analysis *a = NULL;
	struct err e = { 0 };
	config_analysis_opts(c, &o);
	if (analysis_run(t, &o, NULL, NULL, &a, &e)) {
		print_error("analysis: %s\n", e.msg);
		fail();
	}
	assert_true(analysis_verified(a));
	return a;
}

static uint32_t
parts(const struct analysis *a)
{
	uint32_t n;
	analysis_parts(a, &n);
	return n;
}

/* Partitions of trace `name` with the config made of texts[0..n). */
static uint32_t
parts_with(const char *name, const char *const *texts, size_t n)
{
	struct trace *t = corpus(name);
	struct config c;
	configure(&c, texts, n);
	struct analysis *a = run(t, &c);
	uint32_t np = parts(a);
	analysis_destroy(a);
	config_fini(&c);
	trace_destroy(t);
	return np;
}

#define PARTS(name, ...) \
	parts_with(name, (const char *const[]){ __VA_ARGS__ }, \
		   sizeof (const char *const[]){ __VA_ARGS__ } / sizeof (const char *))

/* ---- structure options ---- */

static void
coalesce(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4");
	struct config on, off;
	configure(&on, NULL, 0);
	configure(&off, (const char *const[]){ "structure: {coalesce: false}" }, 1);
	struct analysis *a = run(t, &on), *b = run(t, &off);
	assert_int_equal(analysis_step_count(a), expected("stencil-4", "default", "global_steps_total"));
	assert_int_equal(analysis_step_count(b), expected("stencil-4", "no-coalesce", "global_steps_total"));
	assert_true(analysis_stats(a)->coalesced_isends > 0);
	assert_int_equal(analysis_stats(b)->coalesced_isends, 0);
	analysis_destroy(a);
	analysis_destroy(b);
	config_fini(&on);
	config_fini(&off);
	trace_destroy(t);
}

static void
waitall_merge(void **state)
{
	(void)state;
	assert_int_equal(PARTS("kary_tree-4", "structure: {waitall_merge: true}"),
			 expected("kary_tree-4", "default", "partitions"));
	assert_int_equal(PARTS("kary_tree-4", "structure: {waitall_merge: false}"),
			 expected("kary_tree-4", "no-waitall-merge", "partitions"));
}

/* bulk-synchronous.yaml turns leap merge on. */
static void
leap_merge(void **state)
{
	(void)state;
	assert_int_equal(PARTS("sparse_exchange-4", "config/defaults.yaml"),
			 expected("sparse_exchange-4", "default", "partitions"));
	assert_int_equal(PARTS("sparse_exchange-4", "config/bulk-synchronous.yaml"),
			 expected("sparse_exchange-4", "leap-merge", "partitions"));
	assert_int_equal(PARTS("sparse_exchange-4", "structure: {leap_merge: true}"), 7);
}

/* On the 4-rank tree Allreduce (the paper's pipeline: no automatic
 * merge), leap merge with the default factor 10 leaves 17 partitions; a
 * smaller factor merges backwards more readily (11), a huge one never (17
 * too: every merge left is forward). */
static void
leap_factor(void **state)
{
	(void)state;
	assert_int_equal(PARTS("tree_allreduce-4", "structure: {leap_merge: false, auto_merge: false}"), 25);
	assert_int_equal(PARTS("tree_allreduce-4", "structure: {leap_merge: true, auto_merge: false}"), 17);
	assert_int_equal(PARTS("tree_allreduce-4",
			       "structure: {leap_merge: true, leap_factor: 1.5, auto_merge: false}"), 11);
	assert_int_equal(PARTS("tree_allreduce-4",
			       "structure: {leap_merge: true, leap_factor: 1000, auto_merge: false}"), 17);
}

/* force merges the leaps that stay incomplete: 17 → 13. */
static void
force(void **state)
{
	(void)state;
	assert_int_equal(PARTS("tree_allreduce-4",
			       "structure: {leap_merge: true, force: true, auto_merge: false}"), 13);
	/* force alone does nothing: it only acts inside leap merge */
	assert_int_equal(PARTS("tree_allreduce-4", "structure: {force: true, auto_merge: false}"), 25);
}

/* Round 1 of the dissemination is two partitions side by side making the
 * same calls: the automatic merge (default) and the paper's global-step
 * merge join them; with both off they stay apart (the paper section). */
static void
global_step_merge(void **state)
{
	(void)state;
	assert_int_equal(PARTS("dissemination-4", "structure: {global_step_merge: false}"),
			 expected("dissemination-4", "default", "partitions"));
	assert_int_equal(PARTS("dissemination-4", "structure: {global_step_merge: true}"),
			 expected("dissemination-4", "default", "partitions"));
	assert_int_equal(PARTS("dissemination-4", "structure: {auto_merge: false}"),
			 expected("dissemination-4", "paper", "partitions"));
	assert_int_equal(PARTS("dissemination-4", "structure: {global_step_merge: true, auto_merge: false}"),
			 expected("dissemination-4", "default", "partitions"));
	assert_true(expected("dissemination-4", "paper", "partitions") >
		    expected("dissemination-4", "default", "partitions"));
}

/* Two ranks; the corpus codes never issue two communication calls
 * straight from one user-function call, nor disagree on sizes. */
enum { R_MAIN, R_SEND, R_RECV, R_N };
struct mini {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_N];
	uint64_t now;
};

static void
mini_new(struct mini *m)
{
	static const struct { const char *name; uint8_t role; } regions[R_N] = {
		{ "main", ROLE_USER }, { "MPI_Send", ROLE_SEND }, { "MPI_Recv", ROLE_RECV },
	};
	uint32_t world[2] = { 0, 1 }, id;
	m->t = trace_new();
	for (int i = 0; i < R_N; i++)
		assert_int_equal(trace_add_region(m->t, regions[i].name, regions[i].role, 4, &m->reg[i]), 0);
	assert_int_equal(trace_add_comm(m->t, 0, world, 2, 0, &id), 0);
	assert_int_equal(trace_set_timelines(m->t, 2), 0);
	m->b = build_create(m->t);
	assert_non_null(m->b);
	m->now = 0;
}

static void
mini_rank(struct mini *m, uint32_t r)
{
	if (r)
		assert_int_equal(build_timeline_end(m->b), 0);
	assert_int_equal(build_timeline_begin(m->b, r), 0);
	m->now = 0;
}

static void
mini_p2p(struct mini *m, int send, uint32_t peer, uint32_t tag, uint64_t bytes)
{
	m->now += 5;
	assert_int_equal(build_enter(m->b, m->now, m->reg[send ? R_SEND : R_RECV]), 0);
	if (send)
		assert_int_equal(build_send(m->b, m->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	else
		assert_int_equal(build_recv(m->b, m->now, peer, 0, tag, bytes, UINT64_MAX), 0);
	m->now += 1;
	assert_int_equal(build_leave(m->b, m->now, m->reg[send ? R_SEND : R_RECV]), 0);
}

static struct trace *
mini_done(struct mini *m)
{
	assert_int_equal(build_timeline_end(m->b), 0);
	assert_int_equal(build_finish(m->b, NULL, NULL), 0);
	build_destroy(m->b);
	return m->t;
}

static uint32_t
mini_parts(const struct trace *t, const char *text)
{
	struct config c;
	configure(&c, &text, 1);
	struct analysis *a = run(t, &c);
	uint32_t n = parts(a);
	analysis_destroy(a);
	config_fini(&c);
	return n;
}

/* Rank 0's two sends are issued by one call of main: two partitions,
 * one with caller merge. */
static void
caller_merge(void **state)
{
	(void)state;
	struct mini m;
	mini_new(&m);
	mini_rank(&m, 0);
	assert_int_equal(build_enter(m.b, 0, m.reg[R_MAIN]), 0);
	mini_p2p(&m, 1, 1, 0, 8);
	mini_p2p(&m, 1, 1, 1, 8);
	assert_int_equal(build_leave(m.b, m.now + 1, m.reg[R_MAIN]), 0);
	mini_rank(&m, 1);
	mini_p2p(&m, 0, 0, 0, 8);
	mini_p2p(&m, 0, 0, 1, 8);
	struct trace *t = mini_done(&m);
	assert_int_equal(mini_parts(t, "structure: {caller_merge: false}"), 2);
	assert_int_equal(mini_parts(t, "structure: {caller_merge: true}"), 1);
	trace_destroy(t);
}

/* The second message arrives as 16 bytes of the 8 sent: with match_size
 * it is not a message, and its two ends fall apart. */
static void
match_size(void **state)
{
	(void)state;
	struct mini m;
	mini_new(&m);
	mini_rank(&m, 0);
	mini_p2p(&m, 1, 1, 0, 8);
	mini_p2p(&m, 1, 1, 1, 8);
	mini_rank(&m, 1);
	mini_p2p(&m, 0, 0, 0, 8);
	mini_p2p(&m, 0, 0, 1, 16);
	struct trace *t = mini_done(&m);
	assert_int_equal(mini_parts(t, "structure: {match_size: false}"), 2);
	assert_int_equal(mini_parts(t, "structure: {match_size: true}"), 3);
	trace_destroy(t);
}

/* hotspots.yaml ranks 50 operations instead of 20. */
static void
hotspots(void **state)
{
	(void)state;
	struct trace *t = corpus("lammps-melt-4");
	const char *files[] = { "config/hotspots.yaml", "structure: {hotspots: 3}" };
	struct config c, d, three;
	configure(&c, files, 1);
	configure(&d, NULL, 0);
	configure(&three, files, 2);
	struct analysis *a = run(t, &c), *b = run(t, &d), *x = run(t, &three);
	uint32_t na, nb, nx;
	analysis_hotspots(a, &na);
	analysis_hotspots(b, &nb);
	const uint32_t *hx = analysis_hotspots(x, &nx);
	assert_int_equal(na, 50);
	assert_int_equal(nb, 20);
	assert_int_equal(nx, 3);
	/* the same operations lead either way */
	assert_int_equal(hx[0], analysis_hotspots(a, &na)[0]);
	analysis_destroy(a);
	analysis_destroy(b);
	analysis_destroy(x);
	config_fini(&c);
	config_fini(&d);
	config_fini(&three);
	trace_destroy(t);
}

/* ---- phases ---- */

/* Form 1 on the stencil: every Enter of `iteration` starts a phase. The
 * MPI_Barrier before the first iteration is phase 0; each iteration is
 * one partition, its Allreduce included (detection makes the Allreduces
 * of iterations 2 and 5 partitions of their own): iterations + 1. */
static void
phases_split_at(void **state)
{
	(void)state;
	uint32_t iterations = expected("stencil-4", NULL, "iterations");
	assert_int_equal(iterations, 6);
	assert_int_equal(PARTS("stencil-4", "phases: {split_at: []}"),
			 expected("stencil-4", "default", "partitions"));
	assert_int_equal(PARTS("stencil-4", "phases: {split_at: [iteration]}"), iterations + 1);
	assert_int_equal(PARTS("stencil-4", "phases: {split_at: 'iter*'}"), iterations + 1);

	struct trace *t = corpus("stencil-4");
	struct config c;
	configure(&c, (const char *const[]){ "phases: {split_at: [iteration]}" }, 1);
	struct analysis *a = run(t, &c);
	uint32_t np;
	const struct analysis_part *p = analysis_parts(a, &np);
	uint32_t n_regions;
	const struct trace_region *regions = trace_regions(t, &n_regions);
	for (uint32_t i = 0; i < np; i++) {
		assert_int_equal(p[i].phase, i);   /* in order, one each */
		assert_int_equal(p[i].ranks, 4);
		if (i == 0)
			assert_int_equal(p[i].phase_region, TRACE_NONE);
		else
			assert_string_equal(trace_str(t, regions[p[i].phase_region].name), "iteration");
	}
	/* iterations 2 and 5 hold an Allreduce: 2 exchange steps + 1 */
	assert_int_equal(p[0].comm_count, 4);
	for (uint32_t i = 1; i < np; i++)
		assert_int_equal(p[i].comm_count, i == 3 || i == 6 ? 12 : 8);
	analysis_destroy(a);
	config_fini(&c);
	trace_destroy(t);
}

static void
count_labels(const struct config *c, const struct analysis *a, uint32_t *counts, uint32_t *none,
	     uint8_t *keep)
{
	uint32_t np = parts(a);
	uint32_t *label = malloc(np * sizeof *label);
	struct err e = { 0 };
	assert_int_equal(config_part_phases(c, a, label, keep, &e), 0);
	*none = 0;
	for (uint32_t i = 0; i < np; i++) {
		if (label[i] == CONFIG_NO_PHASE)
			(*none)++;
		else
			counts[label[i]]++;
	}
	free(label);
}

/* Form 2 (phases-by-function.yaml): calls of exchange and reduce start
 * phases named halo and reduction. */
static void
phases_named(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4");
	struct config c;
	configure(&c, (const char *const[]){ "config/phases-by-function.yaml" }, 1);
	struct analysis *a = run(t, &c);
	assert_int_equal(parts(a), 9);
	uint32_t np;
	const struct analysis_part *p = analysis_parts(a, &np);
	for (uint32_t i = 0; i < np; i++)
		assert_int_not_equal(p[i].phase, TRACE_NONE);   /* user phases, not detected */
	uint32_t counts[2] = { 0, 0 }, none;
	count_labels(&c, a, counts, &none, NULL);
	assert_int_equal(counts[0], 6);   /* halo: one per iteration */
	assert_int_equal(counts[1], 2);   /* reduction: iterations 2 and 5 */
	assert_int_equal(none, 1);        /* the setup barrier */
	analysis_destroy(a);
	config_fini(&c);

	/* without split, names label the detected partitions and cut nothing */
	configure(&c, (const char *const[]){ "config/phases-by-function.yaml",
		"phases: {named: [{name: halo, region: exchange}, {name: reduction, region: reduce}]}" }, 2);
	struct analysis_opts o;
	config_analysis_opts(&c, &o);
	assert_int_equal(o.n_phases, 0);
	a = run(t, &c);
	assert_int_equal(parts(a), expected("stencil-4", "default", "partitions"));
	p = analysis_parts(a, &np);
	assert_int_equal(p[0].phase, TRACE_NONE);
	counts[0] = counts[1] = 0;
	count_labels(&c, a, counts, &none, NULL);
	assert_int_equal(counts[0], 6);
	assert_int_equal(counts[1], 2);
	assert_int_equal(none, 1);
	analysis_destroy(a);
	config_fini(&c);
	trace_destroy(t);
}

/* Form 3 (batch-report.yaml): iterations only; the setup is left out. */
static void
phases_restrict(void **state)
{
	(void)state;
	struct trace *t = corpus("stencil-4");
	struct config c;
	configure(&c, (const char *const[]){ "config/batch-report.yaml" }, 1);
	struct analysis *a = run(t, &c);
	uint32_t np = parts(a);
	assert_int_equal(np, expected("stencil-4", NULL, "iterations") + 1);
	uint8_t *keep = malloc(np);
	uint32_t counts[1] = { 0 }, none;
	count_labels(&c, a, counts, &none, keep);
	assert_int_equal(counts[0], 6);
	assert_int_equal(none, 1);
	assert_int_equal(keep[0], 0);
	for (uint32_t i = 1; i < np; i++)
		assert_int_equal(keep[i], 1);
	analysis_destroy(a);
	config_fini(&c);

	/* no restrict: everything is kept */
	configure(&c, NULL, 0);
	a = run(t, &c);
	np = parts(a);
	keep = realloc(keep, np);
	assert_int_equal(config_part_phases(&c, a, NULL, keep, NULL), 0);
	for (uint32_t i = 0; i < np; i++)
		assert_int_equal(keep[i], 1);
	free(keep);
	analysis_destroy(a);
	config_fini(&c);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coalesce),
		cmocka_unit_test(waitall_merge),
		cmocka_unit_test(leap_merge),
		cmocka_unit_test(leap_factor),
		cmocka_unit_test(force),
		cmocka_unit_test(global_step_merge),
		cmocka_unit_test(caller_merge),
		cmocka_unit_test(match_size),
		cmocka_unit_test(hotspots),
		cmocka_unit_test(phases_split_at),
		cmocka_unit_test(phases_named),
		cmocka_unit_test(phases_restrict),
	};
	return cmocka_run_group_tests(tests, tc_setup_root, NULL);
}
