/* test_dist_part.c — the distributed structure stages (analysis/dist.h)
 * against the serial ones: on every corpus trace and every shared OTF2
 * trace, cut into 1 to 5 shards (model/dmodel.h) run as ranks on threads
 * (base/dcomm.h), each rank's lops, op and timeline maps, kinds and
 * partition ids must be its slice of the serial result, and the
 * partitions, their graph, order and the stage counts the serial ones;
 * under five option sets (two with user phases). A failure on one rank at any agreement comes
 * back the same on every rank. Under ASan 1, 3 and 5 shards (disttest.h:
 * DT_NEXT_RANKS). */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/dist/dist.h"
#include "disttest.h"
#include "base/dcomm.h"
#include "model/dmodel.h"

#define MAX_RANKS 5

static char **paths;
static size_t n_paths;
static uint32_t checked_lops, checked_parts, runs, injected;

/* One run: the serial reference, the shards, and what each rank found. */
struct run {
	const struct analysis *ref;
	const uint32_t *part_lop;     /* each serial partition's first communication lop */
	const struct analysis_opts *opts;
	struct dmodel d[MAX_RANKS];
	int rc[MAX_RANKS];
	char bad[MAX_RANKS][600];
	/* failure injection: rank fail_rank fails at its fail_at-th agreement
	 * (0: none); hit says whether it got that far */
	uint32_t fail_rank, fail_at;
	int hit;
	uint32_t lops[MAX_RANKS], parts;
};

#define BAD(...) (snprintf(why, n, __VA_ARGS__), 1)

static int
parts_differ(const struct analysis *a, const struct analysis *b, char *why, size_t n)
{
	uint32_t np, nq;
	const struct analysis_part *p = analysis_parts(a, &np), *q = analysis_parts(b, &nq);
	if (np != nq)
		return BAD("%u partitions against %u", np, nq);
	const uint32_t *oa = dist_part_order(a), *ob = dist_part_order(b);
	for (uint32_t i = 0; i < np; i++) {
		if (p[i].lop_count != q[i].lop_count || p[i].comm_count != q[i].comm_count ||
		    p[i].ranks != q[i].ranks || p[i].leap != q[i].leap ||
		    p[i].merged_from != q[i].merged_from || p[i].phase != q[i].phase ||
		    p[i].phase_region != q[i].phase_region || p[i].step_first != q[i].step_first ||
		    p[i].step_count != q[i].step_count)
			return BAD("partition %u: %u lops %u comm %u ranks leap %u against %u %u %u %u", i,
				   p[i].lop_count, p[i].comm_count, p[i].ranks, p[i].leap, q[i].lop_count,
				   q[i].comm_count, q[i].ranks, q[i].leap);
		uint32_t ns, nt;
		const uint32_t *s = analysis_part_succ(a, i, &ns), *t = analysis_part_succ(b, i, &nt);
		if (ns != nt || (ns && memcmp(s, t, ns * sizeof *s)))
			return BAD("partition %u: %u successors against %u, or in another order", i, ns, nt);
		if (oa[i] != ob[i])
			return BAD("topological order [%u]: %u against %u", i, oa[i], ob[i]);
	}
	const struct analysis_stats *x = analysis_stats(a), *y = analysis_stats(b);
	if (x->partitions_initial != y->partitions_initial ||
	    x->partitions_waitall != y->partitions_waitall || x->partitions_scc != y->partitions_scc ||
	    x->size_mismatches != y->size_mismatches || x->coalesced_isends != y->coalesced_isends)
		return BAD("stats: %u %u %u %u %u against %u %u %u %u %u", x->partitions_initial,
			   x->partitions_waitall, x->partitions_scc, x->size_mismatches,
			   x->coalesced_isends, y->partitions_initial, y->partitions_waitall,
			   y->partitions_scc, y->size_mismatches, y->coalesced_isends);
	return 0;
}

/* Rank d's share a (lops ls) against the serial ref. */
static int
share_differs(const struct analysis *a, struct dslice ls, const struct dmodel *d,
	      const struct analysis *ref, char *why, size_t n)
{
	uint32_t first, count, all = analysis_lop_count(ref), op0 = 2 * d->oprec.off;
	if (d->tl_lo < d->tl_hi) {
		analysis_timeline_lops(ref, d->tl_lo, &first, &count);
	} else {
		first = 0;
		for (uint32_t tl = 0; tl < d->tl_lo; tl++) {
			uint32_t f, c;
			analysis_timeline_lops(ref, tl, &f, &c);
			first = f + c;
		}
	}
	if (ls.off != first || ls.all != all || analysis_lop_count(a) != ls.n)
		return BAD("lops [%u, +%u) of %u; the serial run's from %u of %u", ls.off, ls.n, ls.all,
			   first, all);
	for (uint32_t tl = d->tl_lo; tl < d->tl_hi; tl++) {
		uint32_t f, c, g, k;
		analysis_timeline_lops(a, tl, &f, &c);
		analysis_timeline_lops(ref, tl, &g, &k);
		if (f + ls.off != g || c != k)
			return BAD("timeline %u: lops %u +%u against %u +%u", tl, f + ls.off, c, g, k);
	}
	for (uint32_t l = 0; l < ls.n; l++) {
		uint32_t g = ls.off + l, f, c, rf, rc;
		analysis_lop_ops(a, l, &f, &c);
		analysis_lop_ops(ref, g, &rf, &rc);
		if (f + op0 != rf || c != rc || analysis_lop_kind(a, l) != analysis_lop_kind(ref, g) ||
		    analysis_lop_timeline(a, l) != analysis_lop_timeline(ref, g))
			return BAD("lop %u: ops %u +%u against %u +%u, or kind or timeline", g, f + op0, c,
				   rf, rc);
		if (analysis_lop_part(a, l) != analysis_lop_part(ref, g))
			return BAD("lop %u: partition %u against %u", g, analysis_lop_part(a, l),
				   analysis_lop_part(ref, g));
	}
	for (uint32_t op = 0; op < 2 * d->oprec.n; op++)
		if (analysis_op_lop(a, op) + ls.off != analysis_op_lop(ref, op + op0))
			return BAD("op %u: lop %u against %u", op + op0, analysis_op_lop(a, op) + ls.off,
				   analysis_op_lop(ref, op + op0));
	return parts_differ(a, ref, why, n);
}

/* A dcomm that fails on one rank at its k-th agreement, as a rank out of
 * memory there would. */
struct faulty {
	struct dcomm *inner;
	struct run *run;
	uint32_t agreed;
};

static int
f_agree(struct dcomm *c, int rc)
{
	struct faulty *f = c->impl;
	if (c->rank == f->run->fail_rank && ++f->agreed == f->run->fail_at) {
		f->run->hit = 1;
		rc = ERR_NOMEM;
	}
	return dcomm_agree(f->inner, rc);
}
static int
f_reduce(struct dcomm *c, uint64_t *v, size_t n, enum dcomm_op op)
{
	return dcomm_reduce(((struct faulty *)c->impl)->inner, v, n, op);
}
static int
f_exscan(struct dcomm *c, uint64_t *v, size_t n)
{
	return dcomm_exscan(((struct faulty *)c->impl)->inner, v, n);
}
static int
f_alltoallv(struct dcomm *c, const void *s, const uint64_t *sc, void **r, uint64_t *rc)
{
	return dcomm_alltoallv(((struct faulty *)c->impl)->inner, s, sc, r, rc);
}
static int
f_allgatherv(struct dcomm *c, const void *s, uint64_t n, void **r, uint64_t *rc)
{
	return dcomm_allgatherv(((struct faulty *)c->impl)->inner, s, n, r, rc);
}
static const struct dcomm_ops faulty_ops = { f_agree, f_reduce, f_exscan, f_alltoallv,
					     f_allgatherv };

static int
rank_main(struct dcomm *inner, void *ud)
{
	struct run *run = ud;
	uint32_t r = inner->rank;
	struct faulty f = { inner, run, 0 };
	struct dcomm c = { inner->rank, inner->size, &faulty_ops, &f };
	struct analysis *a = NULL;
	struct dslice ls;
	struct err e = { 0 };
	uint32_t part_first[MAX_RANKS + 1];
	run->rc[r] = dist_structure(&c, &run->d[r], run->opts, &a, &ls, part_first, &e);
	run->bad[r][0] = 0;
	if (run->rc[r] && !e.msg[0])
		snprintf(run->bad[r], sizeof run->bad[r], "error %d without a message", run->rc[r]);
	if (!run->rc[r] && share_differs(a, ls, &run->d[r], run->ref, run->bad[r], sizeof run->bad[r]))
		run->rc[r] = 1;
	/* the partitions whose first lop is before the rank's, and before
	 * the next rank's */
	uint32_t np, before = 0, upto = 0;
	analysis_parts(run->ref, &np);
	for (uint32_t p = 0; p < np; p++) {
		before += run->part_lop[p] < ls.off;
		upto += run->part_lop[p] < ls.off + ls.n;
	}
	if (!run->rc[r] && (part_first[r] != before || part_first[r + 1] != upto ||
			    part_first[inner->size] != np)) {
		snprintf(run->bad[r], sizeof run->bad[r], "partitions first here [%u, %u) against [%u, %u)",
			 part_first[r], part_first[r + 1], before, upto);
		run->rc[r] = 1;
	}
	if (a) {
		run->lops[r] = ls.n;
		if (r == 0)
			run->parts = analysis_stats(a)->partitions_scc;
	}
	analysis_destroy(a);
	return 0;
}

enum { INJECT = 1, MISMATCH = 2 };

/* Runs path's trace on 1..MAX_RANKS ranks with opts; with INJECT, also
 * with a failure at every agreement of rank n - 1 in turn; with
 * MISMATCH, every fifth message is marked as one whose ends disagree on
 * its size (no trace here has one). */
static void
check_trace(const char *path, const struct analysis_opts *opts, int how)
{
	struct trace *t = tu_load(path);
	uint32_t n_msgs;
	struct trace_msg *msgs = (struct trace_msg *)trace_msgs(t, &n_msgs);
	for (uint32_t m = 0; m < n_msgs && (how & MISMATCH); m += 5)
		msgs[m].flags |= MSGF_SIZE_MISMATCH;
	struct analysis *ref = NULL;
	struct err e = { 0 };
	if (trace_info(t)->paradigm != PARADIGM_MPI || trace_require_communication(t, NULL)) {
		trace_destroy(t);
		return;
	}
	assert_int_equal(dist_reference(t, opts, &ref, &e), 0);
	uint32_t np;
	analysis_parts(ref, &np);
	uint32_t *part_lop = malloc((np + 1) * sizeof *part_lop);
	for (uint32_t p = 0; p < np; p++)
		part_lop[p] = TRACE_NONE;
	for (uint32_t l = analysis_lop_count(ref); l-- > 0;)
		if (analysis_lop_kind(ref, l) != OP_COMPUTE)
			part_lop[analysis_lop_part(ref, l)] = l;
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(MAX_RANKS); n = DT_NEXT_RANKS(n)) {
		uint32_t first[MAX_RANKS + 1];
		dt_cut(t, n, first);
		struct run run = { .ref = ref, .part_lop = part_lop, .opts = opts };
		int rc = 0;
		for (uint32_t r = 0; r < n && !rc; r++)
			rc = dmodel_slice(t, r, n, first[r], first[r + 1], &run.d[r]);
		if (rc == ERR_USAGE) {
			print_message("note: %s is not in timeline order: not cut into shards\n", path);
			for (uint32_t r = 0; r < n; r++)
				dmodel_free(&run.d[r]);
			break;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(dcomm_threads_run(n, rank_main, &run), 0);
		uint32_t lops = 0;
		for (uint32_t r = 0; r < n; r++) {
			if (run.rc[r])
				fail_msg("%s on %u ranks, rank %u: %s", path, n, r, run.bad[r]);
			lops += run.lops[r];
		}
		assert_int_equal(lops, analysis_lop_count(ref));
		checked_lops += lops;
		checked_parts += run.parts;
		runs++;
		/* a failure at each agreement of the last rank in turn */
		for (run.fail_at = 1, run.fail_rank = n - 1; how & INJECT; run.fail_at++) {
			run.hit = 0;
			assert_int_equal(dcomm_threads_run(n, rank_main, &run), 0);
			for (uint32_t r = 0; r < n; r++)
				assert_int_equal(run.rc[r], run.hit ? ERR_NOMEM : 0);
			if (!run.hit)
				break;
			injected++;
		}
		for (uint32_t r = 0; r < n; r++)
			dmodel_free(&run.d[r]);
	}
	free(part_lop);
	analysis_destroy(ref);
	trace_destroy(t);
}

static void
corpus_default(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], &o, 0);
	print_message("%u runs, %u lops, %u partitions checked\n", runs, checked_lops,
		      checked_parts);
	assert_true(runs >= (DT_SLOW ? 1 : DT_ASAN ? 3 : 5) * n_paths);
}

static void
corpus_other_options(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.coalesce_isends = 0;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], &o, 0);
	/* the caller merge, on the sets without the Waitall merge, with
	 * messages whose ends disagree on their size left out */
	analysis_opts_default(&o);
	o.caller_merge = 1;
	o.waitall_merge = 0;
	o.match_size = 1;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], &o, MISMATCH);
}

/* User phases: every Enter of a matching region starts one. (The
 * "level" phases of kary_tree-4-delay are joined across ranks only by
 * the phase rule: without the phase links between ranks it fails on 3.) */
static void
corpus_phases(void **state)
{
	(void)state;
	const struct analysis_phase_rule one[] = { { "level" } };
	const struct analysis_phase_rule two[] = { { "iteration" }, { "comp*" } };
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.phases = one;
	o.n_phases = 1;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], &o, 0);
	o.phases = two;
	o.n_phases = 2;
	o.caller_merge = 1;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], &o, 0);
}

static void
shared_each(const char *const *path, size_t n)
{
	struct analysis_opts o[2];
	analysis_opts_default(&o[0]);
	analysis_opts_default(&o[1]);
	o[1].coalesce_isends = 0;
	o[1].caller_merge = 1;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			check_trace(path[i], &o[k], 0);
}

static void
shared_traces(void **state)
{
	(void)state;
	dt_shared(shared_each);
}

/* Every agreement of a rank failing in turn: every rank gets the error,
 * none waits (a hang would time the test out), nothing leaks. */
static void
failures_reach_every_rank(void **state)
{
	(void)state;
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.caller_merge = 1;
	char path[1200];
	PROJECT_PATH(path, "traces/corpus/stencil-4-delay/traces.otf2");
	check_trace(path, &o, INJECT);
	print_message("%u failures injected\n", injected);
	assert_true(injected >= (DT_SLOW ? 1 : 5) * 20);
}

/* A shard that is not the rank's is refused on every rank alike. */
static int
refused_main(struct dcomm *c, void *ud)
{
	struct run *run = ud;
	struct analysis *a = NULL;
	struct dslice ls;
	struct err e = { 0 };
	run->rc[c->rank] = dist_structure(c, &run->d[0], run->opts, &a, &ls, NULL, &e);
	snprintf(run->bad[c->rank], sizeof run->bad[c->rank], "%s", e.msg);
	analysis_destroy(a);
	return 0;
}

static void
refusals(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("stencil-4-delay");
	struct analysis_opts o;
	analysis_opts_default(&o);
	uint32_t first[4];
	dt_cut(t, 3, first);
	struct run run = { .opts = &o };
	assert_int_equal(dmodel_slice(t, 0, 3, first[0], first[1], &run.d[0]), 0);
	/* every rank given rank 0's shard: ranks 1 and 2 refuse it, and rank
	 * 0 gets their error */
	assert_int_equal(dcomm_threads_run(3, refused_main, &run), 0);
	for (uint32_t r = 0; r < 3; r++)
		assert_int_equal(run.rc[r], ERR_USAGE);
	assert_non_null(strstr(run.bad[1], "rank 1 of 3 given the shard of rank 0"));
	dmodel_free(&run.d[0]);
	trace_destroy(t);
}

int
main(void)
{
	dt_workers();
	glob_t g;
	if (tu_corpus_glob(&g, "test_dist_part"))
		return 1;
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_default),
		cmocka_unit_test(corpus_other_options),
		cmocka_unit_test(corpus_phases),
		cmocka_unit_test(shared_traces),
		cmocka_unit_test(failures_reach_every_rank),
		cmocka_unit_test(refusals),
	};
	int rc = cmocka_run_group_tests_name("distributed partitioning", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
