/* test_charm.c — the Charm++ structure and metrics (seed 004) on the real
 * runs in ../shared/traces/projections.
 *
 * Each stage of §3.1 is checked on its own against what it promises (the
 * partition graph after it), then the whole analysis against the runs'
 * ground truth (README): Jacobi 2-D iterations as application phases
 * alternating with runtime reduction phases, the same each iteration;
 * the injected 20 ms busy-wait as the top differential-duration hotspot,
 * with idle experienced on the PEs waiting for it; hello1d's chain, the
 * group ring, allreduce's contributions; and the verifier everywhere. */
#include "testcharm.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/run/run.h"
#include "model/charm.h"
#include "projections/projections_read.h"

static const char *const all_runs[] = {
	"projections/charm-allreduce_16c_4pe/AllReduce.prj.sts",
	"projections/charm-hello1d_8c_4pe/hello1d.prj.sts",
	"projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts",
	"projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts",
	"projections/charm-jacobi2d_16c_4pe_10it_plain/jacobi2d.prj.sts",
	"projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts",
	"projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts",
	"projections/charm-ring_group_4pe/ring.prj.sts",
	"projections/charm-simple_reduction_16c_4pe/simple_reduction.prj.sts",
	"projections/charm-synth-projections-4pe/main.sts",
	"projections/pipit-charm-pingpong-projections/pingpong.prj.sts",
};
#define N_RUNS (sizeof all_runs / sizeof all_runs[0])

/* Under TSan an analysis is some ten times slower: the numbering is
 * checked on one count of threads above one a run (2, 3 and 4 by turns)
 * where on 1 to 4, and the verifier runs two of the four variants a
 * run (reordered or not, the stages on or off, by turns: each variant
 * on five or six runs; the pingpong, whose unreordered variants break a
 * cycle, takes those) where all four. Every stage still runs on more
 * than one worker on every run (a gcov count of the files that use the
 * worker pool: the lines the whole test runs, but for timing). */
#if defined(__SANITIZE_THREAD__)
#define CH_LIGHT 1
#else
#define CH_LIGHT 0
#endif

static struct analysis *
analyse(const struct trace *t, const struct analysis_opts *o)
{
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (analysis_run(t, o, NULL, NULL, &a, &e)) {
		print_error("analysis: %s\n", e.msg);
		fail();
	}
	return a;
}

/* ---- the stages, one by one ---- */

/* Every message's two ends in one partition. */
static void
assert_messages_inside(const struct charm *c)
{
	uint32_t n_msgs;
	const struct trace_msg *m = trace_msgs(c->t, &n_msgs);
	for (uint32_t i = 0; i < n_msgs; i++) {
		if (!msg_ok(c->a, i))
			continue;
		uint32_t s = c->a->op_lop[m[i].send_op], r = c->a->op_lop[m[i].recv_op];
		if (c->cls[s] != CLS_NONE && c->cls[r] != CLS_NONE)
			assert_int_equal(c->pid[s], c->pid[r]);
	}
}

/* No partition mixes the two classes unless a cycle merge made it. */
static uint32_t
mixed(const struct charm *c)
{
	uint8_t *seen = calloc(c->np + 1, 1);
	uint32_t n = 0;
	for (uint32_t l = 0; l < c->n; l++)
		if (c->pid[l] != TRACE_NONE)
			seen[c->pid[l]] |= c->cls[l] == CLS_RT ? 2 : 1;
	for (uint32_t p = 0; p < c->np; p++)
		n += seen[p] == 3;
	free(seen);
	return n;
}

/* Property (1): the partitions of one leap share no chare. */
static uint32_t
leap_overlaps(struct charm *c)
{
	assert_int_equal(charm_graph_chares(c), 0);
	uint32_t *owner_leap = malloc((c->n_tl + 1) * sizeof *owner_leap);
	uint32_t *owner = malloc((c->n_tl + 1) * sizeof *owner);
	uint32_t bad = 0;
	for (uint32_t k = 0; k < c->n_leaps; k++) {
		memset(owner_leap, 0xff, (c->n_tl + 1) * sizeof *owner_leap);
		for (uint32_t p = 0; p < c->np; p++) {
			if (c->leap[p] != k)
				continue;
			for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1]; j++) {
				uint32_t x = c->chares[j];
				if (owner_leap[x] == k && owner[x] != p)
					bad++;
				owner_leap[x] = k;
				owner[x] = p;
			}
		}
	}
	free(owner_leap);
	free(owner);
	return bad;
}

/* Property (2): every chare of a partition is in one of its successors,
 * unless no later leap has it. */
static uint32_t
missing_paths(struct charm *c)
{
	assert_int_equal(charm_graph_chares(c), 0);
	uint32_t bad = 0;
	uint32_t *last_leap = calloc(c->n_tl + 1, sizeof *last_leap);
	for (uint32_t p = 0; p < c->np; p++)
		for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1]; j++)
			if (c->leap[p] + 1 > last_leap[c->chares[j]])
				last_leap[c->chares[j]] = c->leap[p] + 1;
	for (uint32_t p = 0; p < c->np; p++)
		for (uint32_t j = c->ch_first[p]; j < c->ch_first[p + 1]; j++) {
			uint32_t x = c->chares[j];
			if (last_leap[x] <= c->leap[p] + 1)
				continue;          /* no later leap has x */
			int found = 0;
			for (uint32_t e = c->first[p]; e < c->first[p + 1] && !found; e++)
				found = charm_first_on(c, c->succ[e], x) != TRACE_NONE;
			bad += !found;
		}
	free(last_leap);
	return bad;
}

static void
test_stages(void **state)
{
	(void)state;
	for (size_t r = 0; r < N_RUNS; r++) {
		struct trace *t = tu_load_charm(all_runs[r]);
		if (!t)
			skip();
		struct analysis *a = tc_lops_only(t);
		struct charm c;
		assert_int_equal(charm_init(&c, a), 0);
		/* §3.1.1: one chare per initial partition, one class each */
		assert_int_equal(charm_initial(&c), 0);
		assert_int_equal(mixed(&c), 0);
		assert_int_equal(charm_graph_chares(&c), 0);
		for (uint32_t p = 0; p < c.np; p++)
			assert_int_equal(c.ch_first[p + 1] - c.ch_first[p], 1);
		uint32_t initial = c.np;
		/* Alg. 1: messages inside partitions; a DAG */
		assert_int_equal(charm_dependency_merge(&c), 0);
		assert_messages_inside(&c);
		assert_true(c.np < initial);
		uint32_t dependency = c.np;
		/* Alg. 2 */
		assert_int_equal(charm_repair_merge(&c), 0);
		assert_messages_inside(&c);
		assert_true(c.np <= dependency);
		/* Alg. 3 */
		assert_int_equal(charm_infer(&c), 0);
		assert_messages_inside(&c);
		/* Alg. 4: no leap holds two partitions of one class on a chare */
		assert_int_equal(charm_leap_merge(&c), 0);
		/* property (1) and (2) after the last stage */
		assert_int_equal(charm_enforce(&c), 0);
		assert_int_equal(leap_overlaps(&c), 0);
		assert_int_equal(missing_paths(&c), 0);
		assert_messages_inside(&c);
		charm_fini(&c);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

/* The partitions as numbered on one core, from the union-find itself:
 * ids in order of each set's first classified lop, each id's root, its
 * runtime flag. */
static void
assert_numbered(const struct charm *c)
{
	uint32_t *of_root = malloc((c->n + 1) * sizeof *of_root), np = 0;
	assert_non_null(of_root);
	memset(of_root, 0xff, (c->n + 1) * sizeof *of_root);
	for (uint32_t l = 0; l < c->n; l++) {
		if (c->cls[l] == CLS_NONE) {
			assert_int_equal(c->pid[l], TRACE_NONE);
			continue;
		}
		uint32_t r = l;
		while (c->u.parent[r] != r)
			r = c->u.parent[r];
		if (of_root[r] == TRACE_NONE) {
			assert_int_equal(c->root[np], r);
			of_root[r] = np++;
		}
		assert_int_equal(c->pid[l], of_root[r]);
		if (c->cls[l] == CLS_RT)
			assert_int_equal(c->prt[of_root[r]], 1);
	}
	assert_int_equal(c->np, np);
	for (uint32_t p = 0; p < np; p++) {
		int rt = 0;
		for (uint32_t l = 0; l < c->n && !rt; l++)
			rt = c->pid[l] == p && c->cls[l] == CLS_RT;
		assert_int_equal(c->prt[p], rt);
	}
	free(of_root);
}

struct ptl {
	uint32_t p, tl, l;
};

static int
cmp_ptl(const void *x, const void *y)
{
	const struct ptl *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (a->tl != b->tl)
		return a->tl < b->tl ? -1 : 1;
	return a->l < b->l ? -1 : a->l > b->l;
}

/* charm_graph_chares against each partition's chares as found on one
 * core by a sort of (partition, timeline, lop): in timeline order, each
 * with its first lop. */
static void
assert_chares(struct charm *c)
{
	assert_int_equal(charm_graph_chares(c), 0);
	struct ptl *v = malloc((c->n + 1) * sizeof *v);
	assert_non_null(v);
	uint32_t n = 0, k = 0;
	for (uint32_t l = 0; l < c->n; l++)
		if (c->pid[l] != TRACE_NONE)
			v[n++] = (struct ptl){ c->pid[l], c->a->lop_tl[l], l };
	qsort(v, n, sizeof *v, cmp_ptl);
	for (uint32_t p = 0, i = 0; p < c->np; p++) {
		assert_int_equal(c->ch_first[p], k);
		for (; i < n && v[i].p == p; i++) {
			if (i && v[i - 1].p == p && v[i - 1].tl == v[i].tl)
				continue;
			assert_int_equal(c->chares[k], v[i].tl);
			assert_int_equal(c->ch_lop[k], v[i].l);
			k++;
		}
	}
	assert_int_equal(c->ch_first[c->np], k);
	free(v);
}

/* The numbering and the partitions' chares after every stage, on 1 to
 * 4 threads, against one core's; then with a set whose root is unclassified (no stage makes
 * one: every union joins classified lops), which uf_number numbers on
 * one core. */
static void
test_numbering(void **state)
{
	(void)state;
	uint32_t loose = 0;
	for (size_t r = 0; r < N_RUNS; r++) {
		struct trace *t = tu_load_charm(all_runs[r]);
		if (!t)
			skip();
		struct analysis *a = tc_lops_only(t);
		for (int th = 1; th <= 4; th++) {
			if (CH_LIGHT && th != 2 + (int)(r % 3))
				continue;
			char v[16];
			snprintf(v, sizeof v, "%d", th);
			setenv("SKEIN_THREADS", v, 1);
			struct charm c;
			assert_int_equal(charm_init(&c, a), 0);
			assert_int_equal(charm_initial(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			assert_int_equal(charm_dependency_merge(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			assert_int_equal(charm_repair_merge(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			assert_int_equal(charm_infer(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			assert_int_equal(charm_leap_merge(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			assert_int_equal(charm_enforce(&c), 0);
			assert_numbered(&c);
			assert_chares(&c);
			/* an unclassified lop united with a set of classified
			 * lops that all come after it: the set's root */
			uint32_t u = 0, k;
			while (u < c.n && c.cls[u] != CLS_NONE)
				u++;
			for (k = u + 1; k < c.n && (c.cls[k] == CLS_NONE || uf_find(&c.u, k) < u); k++)
				;
			if (k < c.n) {
				uf_union(&c.u, u, k);
				assert_int_equal(charm_graph_build(&c, 0), 0);
				assert_numbered(&c);
				assert_int_equal(c.root[c.pid[k]], u);
				loose++;
			}
			charm_fini(&c);
		}
		unsetenv("SKEIN_THREADS");
		analysis_destroy(a);
		trace_destroy(t);
	}
	/* the shared runs were there (else skipped above): some made the case */
	assert_true(loose > 0);
}

/* The stages change what they should on the 16-chare Jacobi. */
static void
test_stage_effects(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct analysis *a = tc_lops_only(t);
	struct charm c;
	assert_int_equal(charm_init(&c, a), 0);
	assert_int_equal(charm_initial(&c), 0);
	/* blocks split at app/runtime boundaries: the contributions, the
	 * reductions' broadcasts before the next iteration's sends */
	assert_true(tc_edges_of(&c, EDGE_SPLIT) >= 9 * 16);
	assert_true(tc_edges_of(&c, EDGE_SDAG) > 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	uint32_t dep = c.np;
	assert_int_equal(charm_repair_merge(&c), 0);
	/* repair joins each iteration's pieces: about two phases each */
	assert_true(c.np < dep);
	assert_true(c.np <= 2 * 10 + 4);
	assert_int_equal(charm_infer(&c), 0);
	assert_true(tc_edges_of(&c, EDGE_INFERRED) > 0);
	charm_fini(&c);
	analysis_destroy(a);
	trace_destroy(t);
}

/* ---- the whole analysis ---- */

static void
test_verifier_everywhere(void **state)
{
	(void)state;
	for (size_t r = 0; r < N_RUNS; r++) {
		struct trace *t = tu_load_charm(all_runs[r]);
		if (!t)
			skip();
		for (int variant = 0; variant < 4; variant++) {
			if (CH_LIGHT && (variant + r) % 2 == 0)
				continue;
			struct analysis_opts o;
			analysis_opts_default(&o);
			o.charm_reorder = !(variant & 1);
			if (variant & 2)
				o.charm_sdag = o.charm_repair = o.charm_infer = o.charm_leap_merge = 0;
			struct analysis *a = analyse(t, &o);
			const struct analysis_verify *v = analysis_verify(a);
			if (!analysis_verified(a)) {
				print_error("%s variant %d: message %lu chare %lu block %lu overlap %lu cross %lu\n",
					    all_runs[r], variant, (unsigned long)v->message_order,
					    (unsigned long)v->timeline_order, (unsigned long)v->block_order,
					    (unsigned long)v->partition_overlap, (unsigned long)v->cross_partition);
				fail();
			}
			assert_true(v->messages_checked > 0);
			analysis_destroy(a);
		}
		trace_destroy(t);
	}
}

static const char *
lop_entry(const struct analysis *a, uint32_t l)
{
	const struct trace *t = analysis_trace(a);
	uint32_t r = analysis_lop_region(a, l);
	return r == TRACE_NONE ? "" : trace_str(t, trace_regions(t, NULL)[r].name);
}

/* Lops of phase p carrying events (not computation) of entry name. */
static uint32_t
count_in(const struct analysis *a, uint32_t p, const char *name)
{
	uint32_t n = 0;
	for (uint32_t l = 0; l < analysis_lop_count(a); l++)
		n += analysis_lop_part(a, l) == p && analysis_lop_kind(a, l) != OP_COMPUTE &&
		     strcmp(lop_entry(a, l), name) == 0;
	return n;
}

/* The event structure of phase p: for each chare in order, its events'
 * steps ranked among the phase's event steps, with a letter per entry. */
static void
signature(const struct analysis *a, uint32_t p, char *buf, size_t n)
{
	const struct analysis_part *P = &analysis_parts(a, NULL)[p];
	uint8_t *used = calloc(P->step_count + 1, 1);
	uint32_t *rank = calloc(P->step_count + 1, sizeof *rank);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++)
		if (analysis_lop_part(a, l) == p && analysis_lop_kind(a, l) != OP_COMPUTE)
			used[analysis_lop_local_step(a, l)] = 1;
	for (uint32_t s = 0, k = 0; s < P->step_count; s++)
		rank[s] = used[s] ? k++ : 0;
	size_t len = 0;
	buf[0] = 0;
	uint32_t last_tl = TRACE_NONE;
	for (uint32_t l = 0; l < analysis_lop_count(a) && len + 16 < n; l++) {
		if (analysis_lop_part(a, l) != p || analysis_lop_kind(a, l) == OP_COMPUTE)
			continue;
		if (analysis_lop_timeline(a, l) != last_tl) {
			last_tl = analysis_lop_timeline(a, l);
			len += (size_t)snprintf(buf + len, n - len, "|%u:", last_tl);
		}
		const char *e = strstr(lop_entry(a, l), "::");
		len += (size_t)snprintf(buf + len, n - len, "%c%u", e ? e[2] : '?',
					rank[analysis_lop_local_step(a, l)]);
	}
	free(used);
	free(rank);
}

/* Jacobi 2-D and 1-D: after the start, iterations alternate an
 * application phase (every receiveGhosts and every send of the
 * iteration's starter: Jacobi_begin_iteration in 2-D,
 * Jacobi_send_to_neighbors in 1-D) and a runtime
 * phase (the reduction and its broadcast: every redn_wrapper); with
 * reordering every application phase has the same structure. */
static void
check_jacobi(const char *rel, const char *starter, uint32_t chares, uint32_t iters, uint32_t ghosts_per_iter)
{
	struct trace *t = tu_load_charm(rel);
	if (!t)
		skip();
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct analysis *a = analyse(t, &o);
	assert_true(analysis_verified(a));
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	/* phases in step order are partitions in id order (renumbered) */
	uint32_t app = 0, rt = 0, expect_app = 1;
	char first_sig[8192] = "", sig[8192];
	for (uint32_t p = 0; p < np; p++) {
		uint32_t ghosts = count_in(a, p, "Jacobi::receiveGhosts");
		uint32_t redn = count_in(a, p, "Jacobi::redn_wrapper_recvConvergeResult");
		if (!ghosts && !redn)
			continue;
		if (ghosts) {
			assert_true(expect_app);
			assert_false(parts[p].runtime);
			assert_int_equal(ghosts, ghosts_per_iter);
			assert_int_equal(count_in(a, p, starter), ghosts_per_iter);
			assert_int_equal(parts[p].ranks, chares);
			assert_int_equal(redn, 0);
			signature(a, p, sig, sizeof sig);
			if (!app)
				strcpy(first_sig, sig);
			else if (strcmp(sig, first_sig)) {
				print_error("iteration %u differs:\n%s\n%s\n", app + 1, first_sig, sig);
				fail();
			}
			app++;
		} else {
			assert_false(expect_app);
			assert_true(parts[p].runtime);
			/* the last iteration's checks can be cut short by the exit */
			if (rt + 1 < iters)
				assert_int_equal(redn, chares);
			rt++;
		}
		expect_app = !expect_app;
	}
	assert_int_equal(app, iters);
	assert_int_equal(rt, iters);
	/* chare (p, 0..k) ran on PE p: every op */
	const struct trace_chare *ch = trace_chares(t, NULL);
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		const struct trace_chare *c = &ch[analysis_lop_timeline(a, l)];
		if (c->kind == CHARE_ARRAY)
			assert_int_equal(analysis_lop_pe(a, l), c->pe);
	}
	analysis_destroy(a);
	trace_destroy(t);
}

static void
test_jacobi2d(void **state)
{
	(void)state;
	check_jacobi("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts",
		     "Jacobi::Jacobi_begin_iteration", 16, 10, 48);
	check_jacobi("projections/charm-jacobi2d_16c_4pe_10it_plain/jacobi2d.prj.sts",
		     "Jacobi::Jacobi_begin_iteration", 16, 10, 48);
	check_jacobi("projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts",
		     "Jacobi::Jacobi_begin_iteration", 16, 10, 48);
	check_jacobi("projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts",
		     "Jacobi::Jacobi_begin_iteration", 64, 8, 224);
	/* and the 1-D decomposition: 14 receiveGhosts per iteration */
	check_jacobi("projections/charm-jacobi1d_8c_4pe_10it/jacobi1d.prj.sts",
		     "Jacobi::Jacobi_send_to_neighbors", 8, 10, 14);
}

/* In physical-time order the same iterations look different: the
 * reordering is what makes them alike. */
static void
test_jacobi2d_physical(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.charm_reorder = 0;
	struct analysis *a = analyse(t, &o);
	assert_true(analysis_verified(a));
	uint32_t np, distinct = 0;
	analysis_parts(a, &np);
	char sigs[12][8192];
	for (uint32_t p = 0; p < np; p++) {
		if (!count_in(a, p, "Jacobi::receiveGhosts"))
			continue;
		char s[8192];
		signature(a, p, s, sizeof s);
		int seen = 0;
		for (uint32_t i = 0; i < distinct && !seen; i++)
			seen = strcmp(sigs[i], s) == 0;
		if (!seen && distinct < 12)
			strcpy(sigs[distinct++], s);
	}
	assert_true(distinct > 1);
	analysis_destroy(a);
	trace_destroy(t);
}

static uint64_t
dur(const struct analysis *a, uint32_t l)
{
	return analysis_lop_exit(a, l) - analysis_lop_enter(a, l);
}

/* The injected busy-wait: Jacobi(1,2) on PE 1, its 5th Jacobi_compute,
 * 20.1 ms, begins at 52506 us (README). */
static void
test_imbalance_hotspot(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts");
	if (!t)
		skip();
	struct analysis *a = analyse(t, NULL);
	uint32_t n_hot;
	const uint32_t *hot = analysis_hotspots(a, &n_hot);
	assert_true(n_hot > 0);
	assert_string_equal(analysis_hotspot_metric(a), "differential duration");
	uint32_t top = hot[0];
	char label[64];
	trace_chare_label(t, analysis_lop_timeline(a, top), label, sizeof label);
	assert_string_equal(label, "Jacobi(1,2)");
	assert_int_equal(analysis_lop_pe(a, top), 1);
	assert_string_equal(lop_entry(a, top), "Jacobi::Jacobi_compute");
	assert_int_equal(analysis_lop_enter(a, top), 52506);
	assert_int_equal(dur(a, top), 20103);
	/* its 5th Jacobi_compute, in logical order on its chare */
	uint32_t first, count, nth = 0;
	analysis_timeline_lops(a, analysis_lop_timeline(a, top), &first, &count);
	for (uint32_t l = first; l <= top; l++)
		nth += strcmp(lop_entry(a, l), "Jacobi::Jacobi_compute") == 0;
	assert_int_equal(nth, 5);
	/* the median compute is 54 us: almost all of it is excess */
	assert_true(analysis_lop_diff_duration(a, top) >= 20000);
	assert_true(analysis_lop_diff_duration(a, hot[1]) < 2500);
	/* its phase's imbalance is the busy-wait */
	assert_true(analysis_part_imbalance(a, analysis_lop_part(a, top)) >= 19000);
	/* the other PEs wait for it at the reduction that follows: idle
	 * experienced of 15 ms and more there, but not on PE 1 */
	uint32_t redn = analysis_lop_part(a, top) + 1;
	assert_true(analysis_parts(a, NULL)[redn].runtime);
	uint64_t most[4] = { 0 };
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		if (analysis_lop_part(a, l) != redn)
			continue;
		uint64_t x = analysis_lop_idle_experienced(a, l);
		if (x > most[analysis_lop_pe(a, l)])
			most[analysis_lop_pe(a, l)] = x;
	}
	assert_true(most[0] >= 15000);
	assert_true(most[2] >= 15000);
	assert_true(most[3] >= 15000);
	assert_true(most[1] < 5000);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The first op of each execution of entry `name` (for executions split
 * into pieces, the one with the incoming message) into v; returns how
 * many. */
static uint32_t
executions(const struct analysis *a, const char *name, uint32_t *v, uint32_t cap, int last_piece)
{
	const struct trace *t = analysis_trace(a);
	struct trace_opv ops = trace_ops(t, NULL);
	uint32_t n = 0, n_ops;
	trace_ops(t, &n_ops);
	for (uint32_t o = 0; o < n_ops && n < cap; o++) {
		int next_cont = o + 1 < n_ops && (trace_op_get(&ops, o + 1).flags & OPF_EXEC_CONT) &&
				trace_op_get(&ops, o + 1).timeline == trace_op_get(&ops, o).timeline;
		if (last_piece ? next_cont : (trace_op_get(&ops, o).flags & OPF_EXEC_CONT))
			continue;
		uint32_t l = analysis_op_lop(a, o);
		if (strcmp(lop_entry(a, l), name) == 0)
			v[n++] = l;
	}
	return n;
}

/* v's steps are k consecutive global steps in one phase. */
static void
assert_chain(const struct analysis *a, const uint32_t *v, uint32_t k)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t s = analysis_lop_step(a, v[i]);
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		assert_int_equal(analysis_lop_part(a, v[i]), analysis_lop_part(a, v[0]));
		for (uint32_t j = 0; j < i; j++)
			assert_int_not_equal(analysis_lop_step(a, v[j]), s);
	}
	assert_int_equal(hi - lo + 1, k);
}

static void
test_small_runs(void **state)
{
	(void)state;
	uint32_t v[64], n;
	struct trace *t = tu_load_charm("projections/charm-hello1d_8c_4pe/hello1d.prj.sts");
	if (!t)
		skip();
	struct analysis *a = analyse(t, NULL);
	/* SayHi passed along the array: 8 consecutive steps */
	n = executions(a, "Hello::SayHi", v, 64, 0);
	assert_int_equal(n, 8);
	assert_chain(a, v, 8);
	assert_false(analysis_parts(a, NULL)[analysis_lop_part(a, v[0])].runtime);
	analysis_destroy(a);
	trace_destroy(t);

	t = tu_load_charm("projections/charm-ring_group_4pe/ring.prj.sts");
	a = analyse(t, NULL);
	/* the group ring: 4 hops, 4 consecutive steps */
	n = executions(a, "Btest::recv_msg", v, 64, 1);
	assert_int_equal(n, 4);
	assert_chain(a, v, 4);
	analysis_destroy(a);
	trace_destroy(t);

	t = tu_load_charm("projections/charm-allreduce_16c_4pe/AllReduce.prj.sts");
	a = analyse(t, NULL);
	/* the 16 contributions (dowork) in one runtime phase, with the
	 * reduction and its 16 reports */
	n = executions(a, "AllReduce::dowork", v, 64, 0);
	assert_int_equal(n, 16);
	uint32_t p = analysis_lop_part(a, v[0]);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(analysis_lop_part(a, v[i]), p);
	assert_true(analysis_parts(a, NULL)[p].runtime);
	n = executions(a, "AllReduce::report", v, 64, 0);
	assert_int_equal(n, 16);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(analysis_lop_part(a, v[i]), p);
	analysis_destroy(a);
	trace_destroy(t);

	t = tu_load_charm("projections/charm-simple_reduction_16c_4pe/simple_reduction.prj.sts");
	a = analyse(t, NULL);
	n = executions(a, "main::reportIn", v, 64, 0);
	assert_int_equal(n, 1);
	assert_true(analysis_parts(a, NULL)[analysis_lop_part(a, v[0])].runtime);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The start-up count of the report (each region's name read once) is the
 * lops analysis_lop_charm_setup says are start-up, on every shared run;
 * the constructors among them. */
static void
test_setup_count(void **state)
{
	(void)state;
	uint32_t ctors = 0;
	for (size_t i = 0; i < N_RUNS; i++) {
		struct trace *t = tu_load_charm(all_runs[i]);
		if (!t)
			skip();
		struct analysis *a = analyse(t, NULL);
		const struct trace_region *reg = trace_regions(t, NULL);
		uint32_t n = 0;
		for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
			int su = analysis_lop_charm_setup(a, l);
			n += (uint32_t)su;
			uint32_t r = analysis_lop_region(a, l);
			if (r != TRACE_NONE && !strcmp(trace_str(t, reg[r].name), "Jacobi::Jacobi")) {
				assert_true(su);
				ctors++;
			}
		}
		assert_int_equal(analysis_charm_setup_count(a), n);
		assert_true(n > 0);
		analysis_destroy(a);
		trace_destroy(t);
	}
	assert_true(ctors > 0);
}

/* ---- fuzz regressions ---- */

/* Every input in tests/fuzz/prj (the fuzz target's layout: .sts, then
 * each PE's log after a line "===") read and analysed as the target does:
 * either a one-line error, or a structure the verifier passes. */
static void
write_part(const char *path, const char *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void
test_fuzz_regressions(void **state)
{
	(void)state;
	char pat[512], dir[] = "/tmp/skein-charm-fuzz-XXXXXX";
	PROJECT_PATH(pat, "tests/fuzz/prj/*");
	glob_t g;
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		assert_non_null(f);
		static char buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		char path[600];
		int pe = -1;
		for (char *p = buf;; pe++) {
			char *sep = strstr(p, "\n===\n");
			size_t len = sep ? (size_t)(sep - p) + 1 : strlen(p);
			if (pe < 0)
				snprintf(path, sizeof path, "%s/run.sts", dir);
			else
				snprintf(path, sizeof path, "%s/run.%d.log", dir, pe);
			write_part(path, p, len);
			if (!sep)
				break;
			p = sep + 5;
		}
		snprintf(path, sizeof path, "%s/run.sts", dir);
		struct trace *t = NULL;
		struct err e = { 0 };
		if (projections_read(path, NULL, &t, &e)) {
			assert_null(strchr(e.msg, '\n'));
		} else {
			struct analysis *a = analyse(t, NULL);
			const struct analysis_verify *v = analysis_verify(a);
			/* as the fuzz target: a cycle in the records may break one
			 * order, never the phases */
			if (!analysis_verified(a) && (!v->relaxed || v->partition_overlap || v->cross_partition))
				fail_msg("%s: the verifier fails", g.gl_pathv[i]);
			analysis_destroy(a);
			trace_destroy(t);
		}
		char cmd[700];
		snprintf(cmd, sizeof cmd, "rm -f %s/*", dir);
		assert_int_equal(system(cmd), 0);
	}
	rmdir(dir);
	globfree(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stages),
		cmocka_unit_test(test_numbering),
		cmocka_unit_test(test_stage_effects),
		cmocka_unit_test(test_verifier_everywhere),
		cmocka_unit_test(test_jacobi2d),
		cmocka_unit_test(test_jacobi2d_physical),
		cmocka_unit_test(test_imbalance_hotspot),
		cmocka_unit_test(test_small_runs),
		cmocka_unit_test(test_setup_count),
		cmocka_unit_test(test_fuzz_regressions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
