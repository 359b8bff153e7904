/* test_diff.c — skein diff on corpus pairs made for it: each mini-app
 * without and with its injected delay (the diff must name the injected
 * operation first, and its propagation must be the operations the
 * expected file lists as late), the stencil with one extra message (a
 * structural difference, reported as such), runs of different length
 * and different rank counts. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/compare/diff.h"
#include "analysis/core/iterations.h"
#include "model/charm.h"
#include "projections/projections_read.h"

struct run {
	struct trace *t;
	struct analysis *a;
};

/* Options from the first section of the delayed trace's expected.txt
 * whose hotspot is the delay (the default's, unless the app needs
 * another merge to see it), and the delay's rank, iteration, late count. */
struct expect {
	struct analysis_opts o;
	long us, rank, iter, late_count;
};

static int
on(const char *line, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, " %s=on", key);
	return strstr(line, pat) != NULL;
}

static void
read_expect(const char *name, struct expect *x)
{
	char rel[256], path[1200], line[512], opts[512] = "";
	snprintf(rel, sizeof rel, "traces/corpus/%s/expected.txt", name);
	PROJECT_PATH(path, rel);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	memset(x, 0, sizeof *x);
	int found = 0;
	long late = 0;
	while (fgets(line, sizeof line, f) && !found) {
		if (sscanf(line, "delay %ld %ld %ld", &x->us, &x->rank, &x->iter) == 3)
			continue;
		if (strncmp(line, "options ", 8) == 0) {
			snprintf(opts, sizeof opts, "%s", line + 7);
			late = 0;
		}
		if (strncmp(line, "late_count ", 11) == 0)
			late = strtol(line + 11, NULL, 10);
		if (strncmp(line, "hotspot ", 8) == 0 && strncmp(line + 8, "none", 4) != 0) {
			found = 1;
			x->late_count = late;
		}
	}
	fclose(f);
	assert_true(found);
	analysis_opts_default(&x->o);
	x->o.coalesce_isends = on(opts, "coalesce");
	x->o.waitall_merge = on(opts, "waitall-merge");
	x->o.leap_merge = on(opts, "leap-merge");
	x->o.global_step_merge = on(opts, "global-merge");
}

static void
load(struct run *r, const char *name, const struct analysis_opts *o)
{
	r->t = tu_load_corpus(name);
	r->a = tu_analyse(r->t, o);
}

static void
unload(struct run *r)
{
	analysis_destroy(r->a);
	trace_destroy(r->t);
}

/* The computation lop on `rank` holding the Enter of the `delay` region. */
static uint32_t
delay_lop(const struct run *r, uint32_t rank)
{
	uint32_t nr, nf, first, count;
	const struct trace_region *regs = trace_regions(r->t, &nr);
	const struct trace_frame *fr = trace_frames(r->t, &nf);
	analysis_timeline_lops(r->a, rank, &first, &count);
	for (uint32_t f = 0; f < nf; f++) {
		if (fr[f].timeline != rank || strcmp(trace_str(r->t, regs[fr[f].region].name), "delay"))
			continue;
		for (uint32_t l = first; l < first + count; l++)
			if (analysis_lop_enter(r->a, l) <= fr[f].t_enter && fr[f].t_enter < analysis_lop_exit(r->a, l))
				return l;
	}
	return TRACE_NONE;
}

static void
delay_pair(void **state)
{
	const char *app = *state;
	char clean[128], delayed[128];
	snprintf(clean, sizeof clean, "%s-4", app);
	snprintf(delayed, sizeof delayed, "%s-4-delay", app);
	struct expect x;
	read_expect(delayed, &x);
	struct run b, a;
	load(&b, clean, &x.o);
	load(&a, delayed, &x.o);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b.a, a.a, &d, &e), 0);
	/* one program, one structure */
	assert_true(d->same_ranks);
	assert_int_equal(d->n_changed + d->n_only_before + d->n_only_after, 0);
	/* the injected operation first */
	uint32_t inj = delay_lop(&a, (uint32_t)x.rank);
	assert_int_not_equal(inj, TRACE_NONE);
	assert_true(d->n_worse > 0);
	const struct diff_op *top = &d->ops[d->worse[0]];
	assert_int_equal(top->after, inj);
	double D = (double)x.us / 1e6;
	assert_true(top->d_diff > 0.6 * D && top->d_diff < 1.4 * D);
	if (d->n_worse > 1)
		assert_true(d->ops[d->worse[1]].d_diff < 0.4 * D);
	/* its propagation: the other late operations of the expected file */
	uint32_t *prop, n;
	assert_int_equal(diff_propagation(d, inj, top->d_diff / 2, &prop, &n), 0);
	print_message("%s: %u operations reached, %ld late in expected.txt\n", app, n, x.late_count);
	assert_int_equal(n + 1, (uint32_t)x.late_count);
	for (uint32_t i = 0; i < n; i++)
		assert_true(analysis_lop_lateness(a.a, prop[i]) > 0);
	free(prop);
	diff_destroy(d);
	/* the other way round, the injected operation is the most improved */
	assert_int_equal(diff_run(a.a, b.a, &d, &e), 0);
	assert_true(d->n_better > 0);
	assert_int_equal(d->ops[d->better[0]].before, inj);
	diff_destroy(d);
	unload(&b);
	unload(&a);
}

/* stencil-4 against stencil-4-extra: one partition (iteration 3's
 * exchange) changed by exactly one message, rank 0 -> rank 1, tag 14;
 * everything else alike and paired, and in the changed partition the
 * calls both runs made alike at either end of a rank's stretch (a rank
 * stopped there, NWChem's and hpcc's, was never compared). */
static void
extra_message(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct run b, a;
	load(&b, "stencil-4", &o);
	load(&a, "stencil-4-extra", &o);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b.a, a.a, &d, &e), 0);
	uint32_t np;
	analysis_parts(a.a, &np);
	assert_int_equal(d->n_changed, 1);
	assert_int_equal(d->n_only_before + d->n_only_after, 0);
	assert_int_equal(d->n_alike, np - 1);
	assert_int_equal(d->n_changes, 1);
	const struct diff_change *c = &d->changes[0];
	assert_true(c->in_after && c->is_message);
	assert_int_equal(c->sender, 0);
	assert_int_equal(c->receiver, 1);
	assert_int_equal(c->tag, 14);
	assert_int_equal(c->count, 1);
	/* the changed partition holds the extra message's two ends */
	const struct diff_part *P = &d->parts[c->part];
	assert_int_equal(P->kind, DIFF_CHANGED);
	assert_int_equal(P->a.messages, P->b.messages + 1);
	const struct trace_msg *m;
	uint32_t nm;
	m = trace_msgs(a.t, &nm);
	uint32_t found = 0, extra = TRACE_NONE;
	for (uint32_t i = 0; i < nm; i++)
		if (m[i].tag == 14) {
			extra = analysis_op_lop(a.a, m[i].send_op);
			assert_int_equal(analysis_lop_part(a.a, extra), P->after);
			found++;
		}
	assert_int_equal(found, 1);
	/* ops of the changed partition are paired only where both runs made
	 * the same call, from either end of each rank's stretch (the extra
	 * message went out in one of rank 0's coalesced Isends: the calls
	 * are alike, the messages not) */
	uint32_t in_changed = 0;
	for (uint32_t i = 0; i < d->n_ops; i++) {
		if (analysis_lop_part(a.a, d->ops[i].after) != P->after)
			continue;
		in_changed++;
		assert_int_equal(analysis_lop_kind(b.a, d->ops[i].before), analysis_lop_kind(a.a, d->ops[i].after));
		assert_int_equal(analysis_lop_region(b.a, d->ops[i].before),
				 analysis_lop_region(a.a, d->ops[i].after));
	}
	assert_true(in_changed > 0);
	assert_int_equal(analysis_lop_timeline(a.a, extra), 0);
	diff_destroy(d);
	unload(&b);
	unload(&a);
}

/* A run against itself: everything alike, no change at all. */
static void
self(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct run b;
	load(&b, "sparse_exchange-4-delay", &o);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b.a, b.a, &d, &e), 0);
	uint32_t np;
	analysis_parts(b.a, &np);
	assert_int_equal(d->n_alike, np);
	assert_int_equal(d->n_ops, analysis_lop_count(b.a));
	assert_int_equal(d->n_worse + d->n_better, 0);
	diff_destroy(d);
	unload(&b);
}

/* One pattern on different rank counts (and iteration counts):
 * dissemination on 4 ranks, 4 iterations, and on 8 ranks, 3 iterations.
 * The rank counts differ, so partitions align by their calls alone and
 * only their totals are compared. */
static void
rank_counts(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct run b, a;
	load(&b, "dissemination-4", &o);
	load(&a, "dissemination-8-delay", &o);
	struct diff *d = NULL;
	struct err e = { 0 };
	assert_int_equal(diff_run(b.a, a.a, &d, &e), 0);
	assert_false(d->same_ranks);
	assert_int_equal(d->ranks_before, 4);
	assert_int_equal(d->ranks_after, 8);
	assert_int_equal(d->n_ops, 0);
	/* the setup barrier aligns with the setup barrier */
	assert_int_equal(d->parts[0].kind, DIFF_ALIKE);
	assert_int_equal(d->parts[0].before, 0);
	assert_int_equal(d->parts[0].after, 0);
	double tb = 0, ta = 0;
	for (uint32_t q = 0; q < d->n_parts; q++) {
		tb += d->parts[q].b.late;
		ta += d->parts[q].a.late;
	}
	assert_true(fabs(tb - d->late_before) < 1e-9 && fabs(ta - d->late_after) < 1e-9);
	diff_destroy(d);
	unload(&b);
	unload(&a);
}

/* Two Charm++ runs (../shared: Jacobi 2-D on 16 chares, without and with
 * a 20 ms busy-wait in Jacobi(1,2)'s 5th compute): ranked by seed 004's
 * differential duration, the busy-wait comes first; the runtime's and
 * the set-up's operations are not ranked. The other way round it is the
 * largest improvement. */
static void
charm_pair(void **state)
{
	(void)state;
	struct trace *tb = tu_load_charm("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	struct trace *ta = tu_load_charm("projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts");
	if (!tb || !ta) {
		trace_destroy(tb);
		trace_destroy(ta);
		skip();
	}
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *b = tu_analyse(tb, &o), *a = tu_analyse(ta, &o);
	for (int way = 0; way < 2; way++) {
		struct diff *d = NULL;
		struct err e = { 0 };
		const struct analysis *after = way ? b : a;
		assert_int_equal(diff_run(way ? a : b, after, &d, &e), 0);
		assert_true(d->charm);
		assert_true(d->same_ranks);
		assert_true(d->n_setup > 0);
		const uint32_t *list = way ? d->better : d->worse;
		assert_true((way ? d->n_better : d->n_worse) > 1);
		const struct diff_op *top = &d->ops[list[0]];
		uint32_t l = top->after;
		char label[64];
		trace_chare_label(analysis_trace(after), analysis_lop_timeline(after, l), label, sizeof label);
		assert_string_equal(label, "Jacobi(1,2)");
		uint32_t r = analysis_lop_region(after, l);
		assert_string_equal(trace_str(analysis_trace(after), trace_regions(analysis_trace(after), NULL)[r].name),
				    "Jacobi::Jacobi_compute");
		assert_int_equal(iterations_of_lop(after, l), 4);
		assert_true(fabs(top->d_ddur) > 0.019 && fabs(top->d_ddur) < 0.021);
		/* the next is two orders of magnitude smaller */
		assert_true(fabs(d->ops[list[1]].d_ddur) < 0.001);
		for (uint32_t i = 0; i < (way ? d->n_better : d->n_worse); i++)
			assert_false(analysis_lop_charm_setup(after, d->ops[list[i]].after));
		/* entry methods, not "computation in (top level)": the busy
		 * compute's entry changed most */
		assert_string_equal(d->regions[0].name, "Jacobi::Jacobi_compute");
		assert_false(d->regions[0].computation);
		assert_true(fabs(d->ddur_after - d->ddur_before) > 0.019);
		diff_destroy(d);
	}
	analysis_destroy(a);
	analysis_destroy(b);
	trace_destroy(ta);
	trace_destroy(tb);
}

int
main(void)
{
	static const char *apps[] = { "stencil", "coalesce", "dissemination", "kary_tree",
				      "ring_allreduce", "sparse_exchange", "tree_allreduce" };
	struct CMUnitTest tests[16];
	size_t n = 0;
	for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++)
		tests[n++] = (struct CMUnitTest){ .name = apps[i], .test_func = delay_pair,
						  .initial_state = (void *)apps[i] };
	tests[n++] = (struct CMUnitTest){ .name = "extra_message", .test_func = extra_message };
	tests[n++] = (struct CMUnitTest){ .name = "self", .test_func = self };
	tests[n++] = (struct CMUnitTest){ .name = "rank_counts", .test_func = rank_counts };
	tests[n++] = (struct CMUnitTest){ .name = "charm_pair", .test_func = charm_pair };
	return _cmocka_run_group_tests("diff", tests, n, NULL, NULL);
}
