/* test_saved.c — what reopening a saved analysis checks beyond the sums.
 *
 * A file whose arrays were altered and whose sums were then recomputed
 * is trusted (doc/format.md), except where a getter would index out of
 * range or look for what is not there: lateness is read through each
 * partition's first entry of the step minima, a large differential
 * lateness from a list by lop, a lop's iteration through runs in lop
 * order. Each test alters one such entry of a file skein wrote, sums it
 * again and expects the file refused, naming the section; the same file
 * summed again unaltered opens. (test_saved_mutate.c alters every index
 * of every section.)
 */
#include "testutil.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/explain/explain.h"

#include "analysis/saved/saved.h"
#include "analysis/saved/saved_impl.h"

struct file {
	unsigned char *b;     /* 64-byte aligned, as a mapping is */
	size_t n;
	uint32_t n_lops;
};

/* The file `skein analyze --save` writes from corpus trace name. */
static struct file
save(const char *name)
{
	struct trace *t = tu_load_corpus(name);
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	char path[64];
	snprintf(path, sizeof path, "/tmp/skein-test-saved-%ld.skein", (long)getpid());
	struct err e = { 0 };
	assert_int_equal(saved_write(a, &o, path, &e), 0);
	struct file f = { .n_lops = analysis_lop_count(a) };
	char *raw = tu_slurp(path, &f.n);
	unlink(path);
	assert_non_null(raw);
	assert_int_equal(posix_memalign((void **)&f.b, 64, f.n), 0);
	memcpy(f.b, raw, f.n);
	free(raw);
	analysis_destroy(a);
	trace_destroy(t);
	return f;
}

static struct section *
section(struct file *f, uint32_t id)
{
	struct section *s = (struct section *)(f->b + sizeof(struct header));
	for (uint32_t i = 0; i < S_END; i++)
		if (s[i].id == id)
			return &s[i];
	fail_msg("section %u missing", id);
	return NULL;
}

static uint32_t *
u32s(struct file *f, uint32_t id, uint64_t *count)
{
	struct section *s = section(f, id);
	*count = s->bytes / sizeof(uint32_t);
	return (uint32_t *)(f->b + s->offset);
}

/* The sums of section id, of the table and of the header, again. */
static void
resum(struct file *f, uint32_t id)
{
	struct section *s = section(f, id);
	s->sum = saved_checksum(f->b + s->offset, s->bytes);
	struct header h;
	memcpy(&h, f->b, sizeof h);
	h.table_sum = saved_checksum(f->b + sizeof h, sizeof(struct section) * S_END);
	h.header_sum = 0;
	h.header_sum = saved_checksum(&h, sizeof h);
	memcpy(f->b, &h, sizeof h);
}

/* Opens f; NULL when it opens, else the reason. */
static const char *
open_says(const struct file *f, struct err *e)
{
	struct trace *t = NULL;
	struct analysis *a = NULL;
	if (saved_open_mem(f->b, f->n, "t.skein", &t, &a, NULL, e))
		return e->msg;
	analysis_destroy(a);
	trace_destroy(t);
	return NULL;
}

static void
refused(struct file *f, uint32_t id, const char *why)
{
	struct err e = { 0 };
	resum(f, id);
	const char *msg = open_says(f, &e);
	if (!msg || !strstr(msg, why))
		fail_msg("section %u altered: expected '%s', got '%s'", id, why, msg ? msg : "opened");
	free(f->b);
}

static void
unaltered_opens(void **state)
{
	(void)state;
	struct file f = save("wavefront-9-delay");
	struct err e = { 0 };
	resum(&f, S_DIFF);
	assert_null(open_says(&f, &e));
	free(f.b);
}

/* A lop says its differential lateness is in the list of large ones,
 * where it is not. */
static void
large_diff_missing(void **state)
{
	(void)state;
	struct file f = save("stencil-4-delay");
	uint64_t n;
	uint32_t *diff = u32s(&f, S_DIFF, &n);
	assert_int_equal(n, f.n_lops);
	diff[n - 1] = DIFF_BIG;
	refused(&f, S_DIFF, "section 80 (large differential lateness): not one entry for each");
}

static void
step_minima_misplaced(void **state)
{
	(void)state;
	struct file f = save("stencil-4-delay");
	uint64_t n;
	uint32_t *first = u32s(&f, S_PMIN_FIRST, &n);
	assert_true(n >= 3);
	first[1]++;                /* partition 0 one step wider than it is */
	refused(&f, S_PMIN_FIRST, "section 64 (partition -> first entry of 63): entry 1 is out of range");
}

static void
iteration_runs_out_of_order(void **state)
{
	(void)state;
	/* a pipeline: its lops' iterations are not their steps' everywhere */
	struct file f = save("wavefront-9-delay");
	uint64_t n;
	uint32_t *runs = u32s(&f, S_ITER_RUNS, &n);
	assert_true(n >= 4);
	uint32_t lop = runs[0];
	runs[0] = runs[2];
	runs[2] = lop;
	refused(&f, S_ITER_RUNS, "section 72 (iteration runs): entry 1 is out of range");
}

static void
iteration_run_names_none(void **state)
{
	(void)state;
	struct file f = save("wavefront-9-delay");
	uint64_t n;
	uint32_t *runs = u32s(&f, S_ITER_RUNS, &n);
	runs[1] = ITER_OF_STEP - 1;       /* no such iteration */
	refused(&f, S_ITER_RUNS, "section 72 (iteration runs): entry 0 is out of range");
}

/* Found by fuzz_saved: the strings section renamed to an id no section
 * has, so the table misses it (string ids were then checked against a
 * count read through a NULL section). */
static void
strings_section_missing(void **state)
{
	(void)state;
	struct file f = save("stencil-4");
	section(&f, S_STRINGS)->id = S_ITER_REGION + 1;     /* 7: unused */
	struct err e = { 0 };
	resum(&f, S_META);
	const char *msg = open_says(&f, &e);
	if (!msg || !strstr(msg, "section 2 missing or malformed"))
		fail_msg("expected section 2 missing, got '%s'", msg ? msg : "opened");
	free(f.b);
}

/* Found by fuzz_saved: a run without iterations whose meta section names
 * an iteration region that does not exist (the JSON report names the
 * region whether iterations were found or not; only a found one's was
 * checked). */
static void
iteration_region_without_iterations(void **state)
{
	(void)state;
	struct file f = save("lammps-melt-4");
	struct meta *m = (struct meta *)(f.b + section(&f, S_META)->offset);
	assert_int_equal(m->iter_count, 0);
	m->iter_region = (uint32_t)section(&f, S_REGIONS)->count + 7;
	refused(&f, S_META, "section 1 (meta): inconsistent iterations");
}

/* The explanations (sections 82-85): waits out of lop order (found by
 * binary search), a wait's cause that is no lop, a problem of a kind
 * that is none are refused by name. */
static void
explanations_checked(void **state)
{
	(void)state;
	struct file f = save("gen-gather-6-delay");
	struct section *w = section(&f, S_WAITS);
	assert_true(w->count >= 2);
	struct analysis_wait *v = (struct analysis_wait *)(f.b + w->offset);
	uint32_t l = v[0].lop;
	v[0].lop = v[1].lop;
	refused(&f, S_WAITS, "section 82 (wait states)");
	(void)l;
	f = save("gen-gather-6-delay");
	v = (struct analysis_wait *)(f.b + section(&f, S_WAITS)->offset);
	v[0].cause_lop = TRACE_NONE;
	refused(&f, S_WAITS, "section 82 (wait states)");
	f = save("gen-gather-6-delay");
	struct section *ps = section(&f, S_PROBLEMS);
	assert_true(ps->count >= 1);
	((struct analysis_problem *)(f.b + ps->offset))[0].kind = PROBLEM_KIND_COUNT;
	refused(&f, S_PROBLEMS, "section 85 (problems)");
}

/* A file without the explanations (as skein-mpi's ranks write it) gets
 * them from the analysis opened from it: then it is saved_write's file,
 * byte for byte. A write that fails (the file size limit) leaves the
 * file as it was, which still opens. */
static void
explanations_appended(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("gen-gather-6-delay");
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	char with[64], without[64];
	snprintf(with, sizeof with, "/tmp/skein-test-saved-w-%ld.skein", (long)getpid());
	snprintf(without, sizeof without, "/tmp/skein-test-saved-n-%ld.skein", (long)getpid());
	struct err e = { 0 };
	assert_int_equal(saved_write(a, &o, with, &e), 0);
	a->explained = 0;                     /* written as without them */
	assert_int_equal(saved_write(a, &o, without, &e), 0);
	a->explained = 1;
	size_t nw = 0, nn = 0;
	char *bw = tu_slurp(with, &nw), *bn = tu_slurp(without, &nn);
	assert_non_null(bw);
	assert_non_null(bn);
	assert_true(nn < nw);
	/* a limit on the file's size: the append fails, the file is kept */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		setenv("SKEIN_THREADS", "1", 1);   /* no thread in a forked child (TSan) */
		struct rlimit rl = { nn + 100, nn + 100 };
		struct trace *t2 = NULL;
		struct analysis *a2 = NULL;
		struct err e2 = { 0 };
		int ok = saved_open(without, &t2, &a2, NULL, &e2) == 0 && setrlimit(RLIMIT_FSIZE, &rl) == 0 &&
			 saved_append_explain(without, a2, &e2) == ERR_IO;
		_exit(ok ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	size_t nk = 0;
	char *bk = tu_slurp(without, &nk);
	assert_non_null(bk);
	assert_int_equal(nk, nn);
	assert_memory_equal(bk, bn, nn);
	free(bk);
	/* then without the limit */
	struct trace *t2 = NULL;
	struct analysis *a2 = NULL;
	assert_int_equal(saved_open(without, &t2, &a2, NULL, &e), 0);
	assert_int_equal(saved_append_explain(without, a2, &e), 0);
	analysis_destroy(a2);
	trace_destroy(t2);
	bk = tu_slurp(without, &nk);
	assert_non_null(bk);
	assert_int_equal(nk, nw);
	assert_memory_equal(bk, bw, nw);
	/* and once there, nothing more */
	assert_int_equal(saved_open(without, &t2, &a2, NULL, &e), 0);
	assert_int_equal(saved_append_explain(without, a2, &e), 0);
	analysis_destroy(a2);
	trace_destroy(t2);
	free(bk);
	bk = tu_slurp(without, &nk);
	assert_int_equal(nk, nw);
	free(bk);
	free(bw);
	free(bn);
	unlink(with);
	unlink(without);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unaltered_opens),
		cmocka_unit_test(large_diff_missing),
		cmocka_unit_test(step_minima_misplaced),
		cmocka_unit_test(iteration_runs_out_of_order),
		cmocka_unit_test(iteration_run_names_none),
		cmocka_unit_test(strings_section_missing),
		cmocka_unit_test(iteration_region_without_iterations),
		cmocka_unit_test(explanations_checked),
		cmocka_unit_test(explanations_appended),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
