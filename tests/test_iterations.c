/* test_iterations.c — iterations found in the structure (iterations.h),
 * against what the corpus apps did: expected.txt says how many
 * `iteration` regions each rank ran, the trace's own frames say which
 * operations each enclosed, and `delay D R I` says in which iteration
 * the injected hotspot sits. On the shared traces the counts come from
 * the trace's records (calls per rank), not from skein's structure. */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/core/iterations.h"
#include "analysis/run/run.h"

/* The value after `key ` in dir/expected.txt, or -1. */
static long
expected_value(const char *dir, const char *key, long *v2, long *v3)
{
	char path[1200], line[512];
	snprintf(path, sizeof path, "%s/expected.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = -1;
	size_t k = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, k) == 0 && line[k] == ' ') {
			char *end;
			v = strtol(line + k + 1, &end, 10);
			if (v2)
				*v2 = strtol(end, &end, 10);
			if (v3)
				*v3 = strtol(end, &end, 10);
			break;
		}
	fclose(f);
	return v;
}

static uint32_t
region_id(const struct trace *t, const char *name)
{
	uint32_t n;
	const struct trace_region *r = trace_regions(t, &n);
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(trace_str(t, r[i].name), name) == 0)
			return i;
	return TRACE_NONE;
}

/* The index of the `iteration` frame enclosing op's start on its rank
 * (counted among that rank's `iteration` frames), or -1. */
static int
enclosing_iteration(const struct trace *t, uint32_t tl, uint64_t time, uint32_t region)
{
	const struct trace_timeline *tls = trace_timelines(t, NULL);
	const struct trace_frame *fr = trace_frames(t, NULL);
	int k = 0;
	for (uint32_t f = tls[tl].frame_first; f < tls[tl].frame_first + tls[tl].frame_count; f++) {
		if (fr[f].region != region)
			continue;
		if (fr[f].t_enter <= time && time < fr[f].t_leave)
			return k;
		k++;
	}
	return -1;
}

static struct analysis *
analyse(const struct trace *t, int find)
{
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.iter_find = find;
	return tu_analyse(t, &o);
}

static void
corpus_iterations(void **state)
{
	const char *dir = *state;
	char path[1200];
	long want = expected_value(dir, "iterations", NULL, NULL);
	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, ITER_FIND_AUTO);
	const struct iterations *it = iterations_get(a);
	assert_true(want > 0);
	assert_int_equal(it->count, want);
	assert_int_equal(it->source, ITER_REGION);
	/* every communication op lies in the iteration whose region holds it */
	uint32_t reg = region_id(t, "iteration"), checked = 0;
	assert_int_not_equal(reg, TRACE_NONE);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		if (analysis_lop_kind(a, l) == OP_COMPUTE)
			continue;
		int k = enclosing_iteration(t, analysis_lop_timeline(a, l), analysis_lop_enter(a, l), reg);
		uint32_t got = iterations_of_lop(a, l);
		if ((k < 0 && got != TRACE_NONE) || (k >= 0 && got != (uint32_t)k))
			print_error("rank %u step %u %s: in iteration region %d, found in %d\n",
				    analysis_lop_timeline(a, l), analysis_lop_step(a, l),
				    trace_op_kind_name(analysis_lop_kind(a, l)), k, (int)got);
		if (k < 0)
			assert_int_equal(got, TRACE_NONE);
		else
			assert_int_equal(got, (uint32_t)k);
		checked++;
	}
	assert_true(checked > 0);
	/* the injected delay sits in the iteration it was injected in, and
	 * so does the top hotspot when it is the delay */
	long rank, iter, us = expected_value(dir, "delay", &rank, &iter);
	if (us > 0) {
		uint32_t dreg = region_id(t, "delay"), first, count, found = TRACE_NONE;
		const struct trace_frame *fr = trace_frames(t, NULL);
		uint32_t nf;
		trace_frames(t, &nf);
		analysis_timeline_lops(a, (uint32_t)rank, &first, &count);
		for (uint32_t f = 0; f < nf; f++)
			if (fr[f].region == dreg && fr[f].timeline == (uint32_t)rank)
				for (uint32_t l = first; l < first + count; l++)
					if (analysis_lop_enter(a, l) <= fr[f].t_enter &&
					    fr[f].t_enter < analysis_lop_exit(a, l))
						found = l;
		assert_int_not_equal(found, TRACE_NONE);
		assert_int_equal(iterations_of_lop(a, found), iter);
		uint32_t n;
		const uint32_t *hot = analysis_hotspots(a, &n);
		uint64_t half = (uint64_t)us * trace_info(t)->ticks_per_second / 2000000;
		if (n && analysis_lop_diff(a, hot[0]) >= half) {
			assert_int_equal(hot[0], found);
			assert_int_equal(iterations_of_lop(a, hot[0]), iter);
		}
	}
	/* iterations cover steps in order without overlap */
	for (uint32_t k = 0; k < it->count; k++)
		assert_true(it->starts[k] < it->starts[k + 1]);
	assert_true(it->starts[it->count] <= analysis_step_count(a));
	analysis_destroy(a);
	trace_destroy(t);
}

/* The structure alone, without regions: the period of the partitions'
 * signatures. Where an app's iterations differ (an Allreduce every 3rd,
 * extra exchanges every 3rd), it finds the longer true period, or none. */
static void
structure_only(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		uint32_t count, parts;
	} cases[] = {
		{ "coalesce-4", 4, 1 },
		{ "dissemination-4", 4, 2 },
		{ "dissemination-8-delay", 3, 3 },
		{ "kary_tree-4", 4, 2 },
		{ "ring_allreduce-4", 4, 3 },     /* the rounds' tags tell them apart */
		{ "tree_allreduce-4", 4, 4 },
		{ "stencil-4", 2, 4 },            /* 3 exchanges + the Allreduce repeat */
		{ "sparse_exchange-4", 0, 0 },    /* the extra pairs differ: no period */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct trace *t = tu_load_corpus(cases[i].name);
		struct analysis *a = analyse(t, ITER_FIND_STRUCTURE);
		const struct iterations *it = iterations_get(a);
		print_message("%s: %u iterations of %u partitions\n", cases[i].name, it->count,
			      it->period_parts);
		assert_int_equal(it->count, cases[i].count);
		if (it->count) {
			assert_int_equal(it->source, ITER_STRUCTURE);
			assert_int_equal(it->period_parts, cases[i].parts);
		}
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* Off means none; a named region marks exactly its Enters. */
static void
off_and_named(void **state)
{
	(void)state;
	char path[1200];
	PROJECT_PATH(path, "traces/corpus/stencil-4/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, ITER_FIND_OFF);
	assert_int_equal(iterations_get(a)->count, 0);
	assert_int_equal(iterations_of_step(a, 5), TRACE_NONE);
	analysis_destroy(a);
	struct analysis_opts o;
	struct err e = { 0 };
	analysis_opts_default(&o);
	o.iter_region = "red*";
	assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
	const struct iterations *it = iterations_get(a);
	/* two Allreduces (after iterations 2 and 5): two iterations, the
	 * first starting at the first Allreduce's step */
	assert_int_equal(it->count, 2);
	assert_int_equal(it->source, ITER_NAMED);
	assert_string_equal(trace_str(t, trace_regions(t, NULL)[it->region].name), "reduce");
	uint32_t np, seen = 0;
	const struct analysis_part *parts = analysis_parts(a, &np);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++)
		if (analysis_lop_kind(a, l) == OP_COLLECTIVE && analysis_lop_step(a, l) > 2) {
			assert_int_equal(it->starts[iterations_of_lop(a, l)],
					 parts[analysis_lop_part(a, l)].step_first);
			seen++;
		}
	assert_int_equal(seen, 2 * 4);
	assert_false(it->named_none);
	analysis_destroy(a);
	/* a region that marks no iterations (MPI_Init, entered once and no
	 * user region) gives none, and says it was named */
	o.iter_region = "MPI_Init";
	assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
	assert_int_equal(iterations_get(a)->count, 0);
	assert_true(iterations_get(a)->named_none);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Calls of one MPI function on rank 0, counted in the model. */
static uint32_t
calls(const struct trace *t, uint32_t tl, const char *name)
{
	const struct trace_timeline *tls = trace_timelines(t, NULL);
	struct trace_opv ops = trace_ops(t, NULL);
	uint32_t reg = region_id(t, name), n = 0;
	for (uint32_t o = tls[tl].op_first; o < tls[tl].op_first + tls[tl].op_count; o++)
		n += trace_op_get(&ops, o).region == reg;
	return n;
}

/* TraceR's 4-D stencil on 32 ranks runs 2 iterations of Irecv, Send,
 * Waitall and a Barrier (one more Barrier closes the run). */
static void
shared_stencil4d(void **state)
{
	(void)state;
	char path[1200];
	SHARED_TRACE(path, "otf2/tracer-stencil4d-32/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, ITER_FIND_AUTO);
	const struct iterations *it = iterations_get(a);
	assert_int_equal(calls(t, 5, "MPI_Waitall"), 2);
	assert_int_equal(it->count, 2);
	assert_int_equal(it->irregular, 0);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Every rank's k-th call of region `name` is in iteration k (of n). The
 * region marking casita's iterations, launch_jacobi_kernel_async, is a
 * short call before each exchange: an iteration holds what a rank does
 * from one of its Enters to the next, not only what lies inside it. */
static void
kth_call_in_kth_iteration(const struct trace *t, const struct analysis *a, const char *name,
			  uint32_t n)
{
	uint32_t n_tl, reg = region_id(t, name);
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	struct trace_opv ops = trace_ops(t, NULL);
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t k = 0;
		for (uint32_t o = tls[tl].op_first; o < tls[tl].op_first + tls[tl].op_count; o++) {
			if (trace_op_get(&ops, o).region != reg)
				continue;
			uint32_t got = iterations_of_lop(a, analysis_op_lop(a, o));
			if (got != k)
				print_error("rank %u's %s #%u is in iteration %d\n", tl, name, k, (int)got);
			assert_int_equal(got, k);
			k++;
		}
		assert_int_equal(k, n);
	}
}

/* casita's Jacobi: each rank runs one Sendrecv and one Allreduce per
 * iteration; the run's 2000 Sendrecv and 2000 Allreduce are 1000 per
 * rank on its 2 ranks, so 1000 iterations. */
static void
shared_casita_jacobi(void **state)
{
	(void)state;
	char path[1200];
	SHARED_TRACE(path, "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2");
	struct trace *t = tu_load(path);
	uint32_t per_rank = calls(t, 0, "MPI_Allreduce");
	assert_int_equal(per_rank, 1000);
	assert_int_equal(calls(t, 1, "MPI_Allreduce"), 1000);
	assert_int_equal(calls(t, 0, "MPI_Sendrecv"), 1000);
	for (int find = ITER_FIND_AUTO; find <= ITER_FIND_STRUCTURE; find++) {
		struct analysis *a = analyse(t, find);
		const struct iterations *it = iterations_get(a);
		assert_int_equal(it->count, per_rank);
		assert_int_equal(it->period_parts, 2);
		if (find == ITER_FIND_AUTO)
			kth_call_in_kth_iteration(t, a, "MPI_Allreduce", per_rank);
		analysis_destroy(a);
	}
	trace_destroy(t);
}

int
main(void)
{
	char pat[1024];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/expected.txt");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_iterations: no traces/corpus/*/expected.txt found\n");
		return 1;
	}
	size_t n = 0, extra = 5;
	struct CMUnitTest *tests = calloc(g.gl_pathc + extra, sizeof *tests);
	char **dirs = calloc(g.gl_pathc, sizeof *dirs);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		dirs[i] = strdup(g.gl_pathv[i]);
		*strrchr(dirs[i], '/') = '\0';
		if (expected_value(dirs[i], "iterations", NULL, NULL) <= 0)
			continue;
		tests[n++] = (struct CMUnitTest){ .name = strrchr(dirs[i], '/') + 1,
						  .test_func = corpus_iterations, .initial_state = dirs[i] };
	}
	tests[n++] = (struct CMUnitTest){ .name = "structure_only", .test_func = structure_only };
	tests[n++] = (struct CMUnitTest){ .name = "off_and_named", .test_func = off_and_named };
	tests[n++] = (struct CMUnitTest){ .name = "shared_stencil4d", .test_func = shared_stencil4d };
	tests[n++] = (struct CMUnitTest){ .name = "shared_casita_jacobi", .test_func = shared_casita_jacobi };
	int rc = _cmocka_run_group_tests("iterations", tests, n, NULL, NULL);
	for (size_t i = 0; i < g.gl_pathc; i++)
		free(dirs[i]);
	free(dirs);
	free(tests);
	globfree(&g);
	return rc;
}
