/* test_dist_steps.c — stepping each partition on its owner
 * (analysis/dist_steps.h), without MPI: on every corpus trace and every
 * shared OTF2 trace, the serial analysis's partitions (with the automatic
 * merge off, so that its steps are steps_assign's) are cut by timelines
 * into 1 to 5 shards run as threads (dcomm_threads_run); every rank's
 * global steps, the step count, the forced orderings and rank 0's
 * partition spans must be the serial ones. Partitions are numbered here
 * in the order of their first communication lop, as the distributed
 * partitioning numbers them (the serial analysis renumbers them by step
 * afterwards; steps do not depend on the names).
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/dist/dist_steps.h"
#include "base/dcomm.h"
#include "disttest.h"
#include "model/trace.h"

static char **paths;
static size_t n_paths;

/* The serial analysis, relabelled, as every rank sees it. */
struct world {
	const struct trace *t;
	const struct analysis *a;
	uint32_t n_parts, n_lops, n_tl;
	uint32_t *label;          /* serial partition -> id by first comm lop */
	uint32_t *first_label;    /* n_lops + 1: labels given before lop l */
	uint32_t *order, *dag_first, *dag_succ;   /* relabelled DAG */
	uint32_t *tl_first;       /* ranks' first timelines, size + 1 */
	uint64_t batch;           /* dstep_in.batch */
	uint64_t *weight;         /* n_parts (by label): lops and ends */
	uint64_t rank_max;        /* the largest rank's lops and ends */
	int bad;
};

static int
msg_ok(const struct trace_msg *m, int match_size)
{
	return m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE &&
	       !(match_size && (m->flags & MSGF_SIZE_MISMATCH));
}

/* Lop l as dist_steps takes it: *x, and its ends appended to *ends. */
static void
lop_input(const struct world *w, uint32_t l, struct dstep_lop *x, struct dstep_end **ends,
	  size_t *ne, size_t *cap)
{
	const struct analysis *a = w->a;
	const struct trace_msg *msgs = trace_msgs(w->t, NULL);
	uint32_t p = analysis_lop_part(a, l);
	*x = (struct dstep_lop){ analysis_lop_enter(a, l), analysis_lop_timeline(a, l),
				 p == TRACE_NONE ? TRACE_NONE : w->label[p],
				 (uint8_t)analysis_lop_kind(a, l) };
	uint32_t op0, nop;
	analysis_lop_ops(a, l, &op0, &nop);
	for (uint32_t op = op0; op < op0 + nop; op++) {
		uint32_t m;
		const struct trace_end *e = trace_op_ends(w->t, op, &m);
		for (uint32_t j = 0; j < m; j++) {
			uint32_t partner = TRACE_NONE;
			if (e[j].role != END_COLL) {
				const struct trace_msg *y = &msgs[e[j].id];
				if (!msg_ok(y, analysis_options(a)->match_size))
					continue;
				partner = analysis_op_lop(a, e[j].role == END_SEND ? y->recv_op : y->send_op);
			}
			if (*ne == *cap)
				*ends = realloc(*ends, (*cap *= 2) * sizeof **ends);
			(*ends)[(*ne)++] = (struct dstep_end){ e[j].id, partner, (uint8_t)e[j].role };
		}
	}
}

/* The rounds dist_steps.h promises: each owner's partitions packed in
 * order into runs of at most the budget (a sixteenth of the largest
 * rank's lops and ends, at least DSTEP_BATCH_MIN, when none is given). */
static uint32_t
expected_rounds(const struct world *w, const uint32_t *part_first, uint32_t size)
{
	uint64_t budget = w->batch ? w->batch : w->rank_max / 16;
	if (!w->batch && budget < DSTEP_BATCH_MIN)
		budget = DSTEP_BATCH_MIN;
	uint32_t most = 0;
	for (uint32_t r = 0; r < size; r++) {
		uint32_t rounds = 0;
		uint64_t acc = 0;
		for (uint32_t q = part_first[r]; q < part_first[r + 1]; q++) {
			if (!rounds || acc + w->weight[q] > budget) {
				rounds++;
				acc = 0;
			}
			acc += w->weight[q];
		}
		if (rounds > most)
			most = rounds;
	}
	return most;
}

static int
rank_main(struct dcomm *c, void *ud)
{
	struct world *w = ud;
	const struct analysis *a = w->a;
	uint32_t tl0 = w->tl_first[c->rank], tl1 = w->tl_first[c->rank + 1], f = w->n_lops, k;
	if (tl0 < w->n_tl)
		analysis_timeline_lops(a, tl0, &f, &k);
	uint32_t lop_off = f, lop_end = lop_off;
	for (uint32_t tl = tl0; tl < tl1; tl++) {
		analysis_timeline_lops(a, tl, &f, &k);
		lop_end = f + k;
	}
	uint32_t n = lop_end - lop_off;
	struct dstep_lop *lops = calloc(n + 1, sizeof *lops);
	uint32_t *end_first = calloc(n + 2, sizeof *end_first);
	size_t cap = 16, ne = 0;
	struct dstep_end *ends = malloc(cap * sizeof *ends);
	for (uint32_t i = 0; i < n; i++) {
		end_first[i] = (uint32_t)ne;
		lop_input(w, lop_off + i, &lops[i], &ends, &ne, &cap);
	}
	end_first[n] = (uint32_t)ne;
	uint32_t *part_first = calloc(c->size + 1, sizeof *part_first);
	for (uint32_t r = 0; r <= c->size; r++) {
		uint32_t tl = w->tl_first[r], lf = w->n_lops;
		if (tl < w->n_tl) {
			analysis_timeline_lops(a, tl, &f, &k);
			lf = f;
		}
		part_first[r] = w->first_label[lf];
	}
	struct dstep_in in = { lop_off, n, lops, end_first, ends, w->n_tl, w->n_parts, part_first,
			       c->rank == 0 ? w->order : NULL, c->rank == 0 ? w->dag_first : NULL,
			       c->rank == 0 ? w->dag_succ : NULL, 0, 0, w->batch };
	uint32_t *step_first = calloc(w->n_parts + 1, sizeof *step_first);
	uint32_t *step_count = calloc(w->n_parts + 1, sizeof *step_count);
	struct dstep_out out = { calloc(n + 1, sizeof(uint32_t)), 0, 0, step_first, step_count,
				 NULL, NULL, 0 };
	int rc = dist_steps(c, &in, &out), bad = rc != 0;
	for (uint32_t i = 0; i < n && !rc; i++)
		if (out.lop_step[i] != analysis_lop_step(a, lop_off + i)) {
			if (!bad)
				fprintf(stderr, "rank %u of %u: lop %u: step %u, serial %u\n", c->rank,
					c->size, lop_off + i, out.lop_step[i],
					analysis_lop_step(a, lop_off + i));
			bad = 1;
		}
	if (!rc && out.n_steps != analysis_step_count(a))
		bad = 1, fprintf(stderr, "steps %u, serial %u\n", out.n_steps, analysis_step_count(a));
	if (!rc && out.relaxed != analysis_verify(a)->relaxed)
		bad = 1;
	uint32_t rounds = expected_rounds(w, part_first, c->size);
	if (!rc && out.n_rounds != rounds)
		bad = 1, fprintf(stderr, "rounds %u, expected %u\n", out.n_rounds, rounds);
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(a, &np);
	for (uint32_t p = 0; p < np && c->rank == 0 && !rc; p++)
		if (step_first[w->label[p]] != parts[p].step_first ||
		    step_count[w->label[p]] != parts[p].step_count)
			bad = 1;
	free(out.lop_step);
	free(step_first);
	free(step_count);
	free(part_first);
	free(lops);
	free(end_first);
	free(ends);
	return bad;
}

/* Partitions relabelled by first communication lop, and the DAG with
 * them; a topological order by Kahn's method. */
static void
world_init(struct world *w, const struct trace *t, const struct analysis *a)
{
	memset(w, 0, sizeof *w);
	w->t = t;
	w->a = a;
	trace_timelines(t, &w->n_tl);
	w->n_lops = analysis_lop_count(a);
	analysis_parts(a, &w->n_parts);
	w->label = malloc((w->n_parts + 1) * sizeof *w->label);
	w->first_label = malloc((w->n_lops + 1) * sizeof *w->first_label);
	memset(w->label, 0xff, (w->n_parts + 1) * sizeof *w->label);
	uint32_t next = 0;
	for (uint32_t l = 0; l < w->n_lops; l++) {
		w->first_label[l] = next;
		uint32_t p = analysis_lop_part(a, l);
		if (analysis_lop_kind(a, l) != OP_COMPUTE && p != TRACE_NONE && w->label[p] == TRACE_NONE)
			w->label[p] = next++;
	}
	w->first_label[w->n_lops] = next;
	assert_int_equal(next, w->n_parts);
	uint32_t *back = malloc((w->n_parts + 1) * sizeof *back);
	for (uint32_t p = 0; p < w->n_parts; p++)
		back[w->label[p]] = p;
	w->dag_first = calloc(w->n_parts + 2, sizeof *w->dag_first);
	size_t n_edges = 0;
	for (uint32_t q = 0; q < w->n_parts; q++) {
		uint32_t ns;
		analysis_part_succ(a, back[q], &ns);
		n_edges += ns;
		w->dag_first[q + 1] = (uint32_t)n_edges;
	}
	w->dag_succ = malloc((n_edges + 1) * sizeof *w->dag_succ);
	uint32_t *indeg = calloc(w->n_parts + 1, sizeof *indeg);
	for (uint32_t q = 0; q < w->n_parts; q++) {
		uint32_t ns;
		const uint32_t *s = analysis_part_succ(a, back[q], &ns);
		for (uint32_t i = 0; i < ns; i++) {
			w->dag_succ[w->dag_first[q] + i] = w->label[s[i]];
			indeg[w->label[s[i]]]++;
		}
	}
	w->order = malloc((w->n_parts + 1) * sizeof *w->order);
	uint32_t head = 0, tail = 0;
	for (uint32_t q = 0; q < w->n_parts; q++)
		if (!indeg[q])
			w->order[tail++] = q;
	while (head < tail) {
		uint32_t q = w->order[head++];
		for (uint32_t e = w->dag_first[q]; e < w->dag_first[q + 1]; e++)
			if (--indeg[w->dag_succ[e]] == 0)
				w->order[tail++] = w->dag_succ[e];
	}
	assert_int_equal(tail, w->n_parts);
	free(indeg);
	free(back);
}

static void
world_fini(struct world *w)
{
	free(w->label);
	free(w->first_label);
	free(w->order);
	free(w->dag_first);
	free(w->dag_succ);
	free(w->tl_first);
}

static void
check_trace(const char *path, int one_round_each)
{
	struct trace *t = tu_load(path);
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.auto_merge = 0;
	o.global_step_merge = 0;
	struct analysis *a = tu_analyse(t, &o);
	struct world w;
	world_init(&w, t, a);
	w.tl_first = calloc(8, sizeof *w.tl_first);
	w.weight = calloc(w.n_parts + 1, sizeof *w.weight);
	size_t cap = 16;
	struct dstep_end *scratch = malloc(cap * sizeof *scratch);
	for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
		/* timelines cut into n runs of about the same lops */
		uint32_t tl = 0;
		for (uint32_t r = 0; r < n; r++) {
			w.tl_first[r] = tl;
			uint32_t f, k;
			while (tl < w.n_tl) {
				analysis_timeline_lops(a, tl, &f, &k);
				if ((uint64_t)f * n >= (uint64_t)w.n_lops * (r + 1) && r + 1 < n)
					break;
				tl++;
			}
		}
		w.tl_first[n] = w.n_tl;
		/* each partition's lops and ends, and each rank's */
		uint64_t total = 0;
		w.rank_max = 0;
		memset(w.weight, 0, (w.n_parts + 1) * sizeof *w.weight);
		for (uint32_t r = 0; r < n; r++) {
			uint64_t mine = 0;
			for (uint32_t x_tl = w.tl_first[r]; x_tl < w.tl_first[r + 1]; x_tl++) {
				uint32_t f, k;
				analysis_timeline_lops(a, x_tl, &f, &k);
				for (uint32_t l = f; l < f + k; l++) {
					struct dstep_lop x;
					size_t ne = 0;
					lop_input(&w, l, &x, &scratch, &ne, &cap);
					if (x.part != TRACE_NONE)
						w.weight[x.part] += 1 + ne;
					mine += 1 + ne;
				}
			}
			total += mine;
			if (mine > w.rank_max)
				w.rank_max = mine;
		}
		/* the default budget (one round on these traces); on the
		 * corpus at 2 and 3 ranks also a round per partition and
		 * rounds of a few partitions each (a round costs every rank
		 * a few exchanges) */
		uint64_t budgets[3] = { 0, 1, total / (3 * n) + 1 };
		for (int b = 0; b < (one_round_each && (n == 2 || n == 3) ? 3 : 1); b++) {
			w.batch = budgets[b];
			int rc = dcomm_threads_run(n, rank_main, &w);
			if (rc)
				print_error("%s on %u ranks, budget %llu: steps differ (see above)\n",
					    path, n, (unsigned long long)w.batch);
			assert_int_equal(rc, 0);
		}
	}
	free(scratch);
	free(w.weight);
	world_fini(&w);
	analysis_destroy(a);
	trace_destroy(t);
}

static void
steps_on_owners_are_the_serial_steps(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_paths; i++)
		check_trace(paths[i], 1);
}

static void
check_list(const char *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check_trace(p[i], 0);
}

static void
shared_traces_step_alike(void **state)
{
	(void)state;
	dt_shared(check_list);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_dist_steps: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_on_owners_are_the_serial_steps),
		cmocka_unit_test(shared_traces_step_alike),
	};
	int rc = cmocka_run_group_tests_name("distributed stepping", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
