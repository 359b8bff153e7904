/* test_charm_algo.c — each structure stage of seed 004 §3 on a small run
 * written here, built so that the stage has exactly one thing to do (the
 * cases of the paper's figures): a serial block split at an application /
 * runtime boundary (Fig. 2), a cycle to merge after the dependency merge
 * (Fig. 3), a split block to restore (Fig. 4), a dependency to infer
 * (Fig. 5), partitions of one leap to merge (Alg. 4), an application and
 * a runtime phase overlapping in a leap and a chare's missing path
 * (Alg. 5, Fig. 6), and a reordering that differs from physical order
 * (Fig. 7). Each test states the partitions or steps the paper gives and
 * fails if the stage does nothing or something else; test_charm.c runs
 * the stages on the real runs. */
#include "testcharm.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/run/run.h"
#include "base/par.h"
#include "model/charm.h"
#include "projections/projections_read.h"

/* Chare 1 is a 1-D array A (application), chare 2 the reduction manager
 * (the runtime's). Entries 3 and 4 are SDAG serials (no parameter list)
 * numbered in parse order; 6 is a runtime entry (a reduction target). */
static const char sts[] =
	"PROJECTIONS_ID\n"
	"VERSION 11.0\n"
	"PROCESSORS 2\n"
	"CHARMVERSION v80000\n"
	"TOTAL_CHARES 3\n"
	"TOTAL_EPS 8\n"
	"CHARE 0 \"SDAG\" -1\n"
	"CHARE 1 \"A\" 1\n"
	"CHARE 2 \"CkReductionMgr\" -1\n"
	"ENTRY CHARE 0 \"SDAG_RTS\" 0 0\n"
	"ENTRY CHARE 1 \"go()\" 1 0\n"
	"ENTRY CHARE 2 \"res(int v)\" 1 0\n"
	"ENTRY CHARE 3 \"A_serial_0\" 1 0\n"
	"ENTRY CHARE 4 \"A_serial_1\" 1 0\n"
	"ENTRY CHARE 5 \"RecvMsg(CkReductionMsg* m)\" 2 0\n"
	"ENTRY CHARE 6 \"redn_wrapper_done(CkReductionMsg *m)\" 1 0\n"
	"ENTRY CHARE 7 \"work(int n)\" 1 0\n"
	"END\n";

enum { GO = 1, RES = 2, SER0 = 3, SER1 = 4, MGR = 5, REDN = 6, WORK = 7 };

/* One PE's log, record by record; written in time order (a test adds
 * them chare by chare). */
struct rec {
	long t;
	int seq;
	char text[64];
};

struct log {
	struct rec r[64];
	int n;
};

static struct log logs[2];

static void
rec(int pe, long t, const char *fmt, ...)
{
	struct log *L = &logs[pe];
	assert_true(L->n < 64);
	struct rec *r = &L->r[L->n];
	r->t = t;
	r->seq = L->n++;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof r->text, fmt, ap);
	va_end(ap);
}

static int
cmp_rec(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->seq - b->seq;
}

/* Creation of entry ep at time t on pe, its event number ev. */
static void
cr(int pe, int ep, long t, int ev)
{
	rec(pe, t, "1 4 %d %ld %d %d 64 0", ep, t, ev, pe);
}

/* An execution of ep on pe from t0 to t1, started by event ev of PE src
 * (ev -1: no message; for go, one without a sender), on element idx of A (idx < 0: the reduction
 * manager, whose object id has four numbers); body() adds its creations. */
static void
beg(int pe, int ep, long t, int ev, int src, int idx)
{
	/* an execution without a message would continue the serial block
	 * before it (an SDAG continuation): go names a creation that does
	 * not exist instead, a message without a sender */
	if (ep == GO && ev < 0)
		ev = 1000 + (int)t;
	if (idx >= 0)
		rec(pe, t, "2 4 %d %ld %d %d 64 0 %d 0", ep, t, ev, src, idx);
	else
		rec(pe, t, "2 4 %d %ld %d %d 64 0 0 0 0 0 0", ep, t, ev, src);
}

static void
end(int pe, int ep, long t, int ev, int src)
{
	rec(pe, t, "3 0 %d %ld %d %d 0 0", ep, t, ev, src);
}

/* A(idx) on pe runs go at t and sends res at t + 1 (its event ev). */
static void
send_block(int pe, int idx, long t, int ev)
{
	beg(pe, GO, t, -1, pe, idx);
	cr(pe, RES, t + 1, ev);
	end(pe, GO, t + 2, -1, pe);
}

/* A(idx) on pe receives res at t, event ev of PE src. */
static void
recv_block(int pe, int idx, long t, int ev, int src)
{
	beg(pe, RES, t, ev, src, idx);
	end(pe, RES, t + 1, ev, src);
}

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	memset(logs, 0, sizeof logs);
	snprintf(dir, sizeof dir, "/tmp/skein-charm-algo-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static FILE *
put(const char *name)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	return f;
}

/* The run as written so far, read. */
static struct trace *
run(void)
{
	FILE *f = put("run.sts");
	fputs(sts, f);
	fclose(f);
	for (int pe = 0; pe < 2; pe++) {
		char name[32];
		snprintf(name, sizeof name, "run.%d.log", pe);
		f = put(name);
		struct log *L = &logs[pe];
		qsort(L->r, (size_t)L->n, sizeof *L->r, cmp_rec);
		fprintf(f, "PROJECTIONS-RECORD %d\n", L->n);
		for (int i = 0; i < L->n; i++)
			fprintf(f, "%s\n", L->r[i].text);
		fclose(f);
	}
	char path[128];
	snprintf(path, sizeof path, "%s/run.sts", dir);
	struct trace *t = NULL;
	struct err e = { 0 };
	if (projections_read(path, NULL, &t, &e))
		fail_msg("%s", e.msg);
	memset(logs, 0, sizeof logs);    /* the next run starts empty */
	return t;
}

/* The k-th event lop (0 first) of timeline tl that begins at time t. */
static uint32_t
ev_at(const struct charm *c, uint32_t tl, long t, int k)
{
	const struct analysis *a = c->a;
	for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++)
		if (lop_enter(a, l) == (uint64_t)t && c->cls[l] != CLS_NONE && k-- == 0)
			return l;
	fail_msg("no event on timeline %u at %ld", tl, t);
	return TRACE_NONE;
}

/* Partition of the event at (tl, t). */
#define P(tl, t) c.pid[ev_at(&c, (tl), (t), 0)]

/* Is there an edge p -> q in the partition graph? */
static int
has_edge(const struct charm *c, uint32_t p, uint32_t q)
{
	for (uint32_t e = c->first[p]; e < c->first[p + 1]; e++)
		if (c->succ[e] == q)
			return 1;
	return 0;
}

/* Timelines: A(0) .. A(3) as far as they are used, then the runtime's on
 * PE 0 and PE 1. */
enum { A0 = 0, A1 = 1, A2 = 2, A3 = 3 };

struct fixture {
	struct trace *t;
	struct analysis *a;
};

static struct charm
stages_start(struct fixture *f)
{
	f->t = run();
	f->a = tc_lops_only(f->t);
	struct charm c;
	assert_int_equal(charm_init(&c, f->a), 0);
	return c;
}

static void
stages_end(struct fixture *f, struct charm *c)
{
	charm_fini(c);
	analysis_destroy(f->a);
	trace_destroy(f->t);
}

/* §3.1.1, Fig. 2: A(0)'s block receives nothing, sends res twice
 * (application), then contributes to the reduction (runtime): the two
 * sends are one initial partition, the contribution another, linked by a
 * happened-before edge; every initial partition holds one chare. */
static void
test_initial_split(void **state)
{
	(void)state;
	beg(0, GO, 10, -1, 0, 0);
	cr(0, RES, 12, 0);
	cr(0, RES, 13, 1);
	cr(0, MGR, 14, 2);
	end(0, GO, 16, -1, 0);
	recv_block(1, 1, 20, 0, 0);
	recv_block(1, 1, 22, 1, 0);
	beg(0, MGR, 24, 2, 0, -1);
	end(0, MGR, 25, 2, 0);
	struct fixture f;
	struct charm c = stages_start(&f);
	assert_int_equal(charm_initial(&c), 0);
	uint32_t app = P(A0, 10), rt = P(A0, 13);
	assert_int_equal(P(A0, 12), app);
	assert_int_not_equal(app, rt);
	assert_int_equal(c.prt[app], 0);
	assert_int_equal(c.prt[rt], 1);
	assert_true(has_edge(&c, app, rt));
	assert_int_equal(tc_edges_of(&c, EDGE_SPLIT), 1);
	/* A(0)'s two partitions, A(1)'s two receives, the manager's */
	assert_int_equal(c.np, 5);
	assert_int_equal(charm_graph_chares(&c), 0);
	for (uint32_t p = 0; p < c.np; p++)
		assert_int_equal(c.ch_first[p + 1] - c.ch_first[p], 1);
	stages_end(&f, &c);
}

/* Alg. 1 and its cycle merge, Fig. 3: each of A(0), A(1) sends res to the
 * other in serial 0 and receives it in serial 1 (an SDAG edge from the
 * send to the receive on each chare). The dependency merge makes two
 * partitions, {A(0)'s send, A(1)'s receive} and {A(1)'s send, A(0)'s
 * receive}, and the SDAG edges make a cycle of them: one phase. */
static void
fig3(void)
{
	for (int pe = 0; pe < 2; pe++) {
		beg(pe, GO, 10, -1, pe, pe);
		end(pe, GO, 11, -1, pe);
		beg(pe, SER0, 11, -1, pe, pe);
		cr(pe, RES, 12, 0);
		end(pe, SER0, 13, -1, pe);
		recv_block(pe, pe, 20, 0, 1 - pe);
		beg(pe, SER1, 21, -1, pe, pe);
		end(pe, SER1, 22, -1, pe);
	}
}

static void
test_dependency_merge_cycle(void **state)
{
	(void)state;
	fig3();
	struct fixture f;
	struct charm c = stages_start(&f);
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(c.np, 4);
	assert_int_equal(tc_edges_of(&c, EDGE_SDAG), 2);
	assert_true(has_edge(&c, P(A0, 11), P(A0, 20)));
	assert_true(has_edge(&c, P(A1, 11), P(A1, 20)));
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(c.np, 1);
	stages_end(&f, &c);

	/* without the SDAG edges there is no cycle: the two partitions stay */
	fig3();
	c = stages_start(&f);
	f.a->opts.charm_sdag = 0;
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(c.np, 2);
	assert_int_equal(P(A0, 11), P(A1, 20));
	assert_int_equal(P(A1, 11), P(A0, 20));
	assert_int_not_equal(P(A0, 11), P(A0, 20));
	stages_end(&f, &c);
}

/* Alg. 2, Fig. 4: the reduction manager broadcasts redn_wrapper_done
 * (runtime) to A(0) and A(1); each then sends res (application) to the
 * other in the same block. Their blocks are split, and the two
 * application pieces, which one unsplit partition would have held, are
 * separate after the dependency merge: the repair joins them. */
static void
fig4(void)
{
	beg(0, MGR, 10, -1, 0, -1);
	cr(0, REDN, 11, 0);
	end(0, MGR, 12, -1, 0);
	for (int pe = 0; pe < 2; pe++) {
		beg(pe, REDN, 20, 0, 0, pe);
		cr(pe, RES, 21, 1);
		end(pe, REDN, 22, 0, 0);
		recv_block(pe, pe, 40, 1, 1 - pe);
	}
}

/* The application piece of A(i)'s redn_wrapper_done: its second event. */
#define APP(tl) c.pid[ev_at(&c, (tl), 20, 1)]

static void
test_repair_merge(void **state)
{
	(void)state;
	fig4();
	struct fixture f;
	struct charm c = stages_start(&f);
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(c.np, 3);          /* the runtime's, two application pieces */
	assert_int_not_equal(APP(A0), APP(A1));
	assert_int_equal(charm_repair_merge(&c), 0);
	assert_int_equal(c.np, 2);
	assert_int_equal(APP(A0), APP(A1));
	assert_int_equal(APP(A0), P(A0, 40));
	assert_int_equal(P(A0, 20), P(A1, 20));
	assert_int_not_equal(P(A0, 20), APP(A0));    /* classes stay apart */
	stages_end(&f, &c);

	fig4();
	c = stages_start(&f);
	f.a->opts.charm_repair = 0;
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(charm_repair_merge(&c), 0);
	assert_int_equal(c.np, 3);
	stages_end(&f, &c);
}

/* Alg. 3, Fig. 5: A(0) sends res to A(1) in two blocks, no message
 * between the two exchanges. Their partitions are unordered until the
 * sources on A(0) order them by physical time. */
static void
fig5(void)
{
	send_block(0, 0, 10, 0);
	send_block(0, 0, 30, 1);
	recv_block(1, 1, 20, 0, 0);
	recv_block(1, 1, 40, 1, 0);
}

static void
test_infer(void **state)
{
	(void)state;
	fig5();
	struct fixture f;
	struct charm c = stages_start(&f);
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(charm_repair_merge(&c), 0);
	uint32_t p = P(A0, 10), q = P(A0, 30);
	assert_int_equal(c.np, 2);
	assert_false(has_edge(&c, p, q));
	assert_int_equal(c.leap[p], c.leap[q]);
	assert_int_equal(charm_infer(&c), 0);
	p = P(A0, 10);
	q = P(A0, 30);
	assert_int_equal(c.np, 2);
	assert_true(has_edge(&c, p, q));
	assert_false(has_edge(&c, q, p));
	assert_int_equal(tc_edges_of(&c, EDGE_INFERRED), 1);
	assert_int_equal(c.leap[q], c.leap[p] + 1);
	/* ordered, they need no leap merge */
	assert_int_equal(charm_leap_merge(&c), 0);
	assert_int_equal(c.np, 2);
	stages_end(&f, &c);
}

/* Alg. 4: with nothing inferred, the two exchanges of fig5() are in one
 * leap and share both chares: merged. */
static void
test_leap_merge(void **state)
{
	(void)state;
	fig5();
	struct fixture f;
	struct charm c = stages_start(&f);
	f.a->opts.charm_infer = 0;
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(charm_repair_merge(&c), 0);
	assert_int_equal(charm_infer(&c), 0);
	assert_int_equal(c.np, 2);
	assert_int_equal(c.n_leaps, 1);
	assert_int_equal(charm_leap_merge(&c), 0);
	assert_int_equal(c.np, 1);
	assert_int_equal(P(A0, 10), P(A0, 30));
	stages_end(&f, &c);
}

/* §3.1.4, property (1): A(1) sends res to A(0) (application) and the
 * manager sends redn_wrapper_done to A(0) (runtime); A(0) only receives,
 * so nothing is inferred and both partitions are in leap 0 sharing A(0).
 * They are not merged (different classes) but ordered by physical time
 * on A(0): the application receive came first. */
static void
overlap(long t_app, long t_rt)
{
	send_block(1, 1, 5, 0);
	beg(0, MGR, 1, -1, 0, -1);
	cr(0, REDN, 2, 0);
	end(0, MGR, 3, -1, 0);
	if (t_app < t_rt) {
		recv_block(0, 0, t_app, 0, 1);
	}
	beg(0, REDN, t_rt, 0, 0, 0);
	end(0, REDN, t_rt + 1, 0, 0);
	if (t_app > t_rt) {
		recv_block(0, 0, t_app, 0, 1);
	}
}

static void
test_property1(void **state)
{
	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		long t_app = swap ? 30 : 10, t_rt = swap ? 10 : 30;
		overlap(t_app, t_rt);
		struct fixture f;
		struct charm c = stages_start(&f);
		assert_int_equal(charm_initial(&c), 0);
		assert_int_equal(charm_dependency_merge(&c), 0);
		assert_int_equal(charm_repair_merge(&c), 0);
		assert_int_equal(charm_infer(&c), 0);
		assert_int_equal(charm_leap_merge(&c), 0);
		uint32_t app = P(A0, t_app), rt = P(A0, t_rt);
		assert_int_not_equal(app, rt);
		assert_int_equal(c.leap[app], 0);
		assert_int_equal(c.leap[rt], 0);
		assert_int_equal(charm_enforce(&c), 0);
		app = P(A0, t_app);
		rt = P(A0, t_rt);
		assert_int_equal(c.np, 2);
		assert_int_equal(tc_edges_of(&c, EDGE_ORDER), 1);
		uint32_t first = swap ? rt : app, second = swap ? app : rt;
		assert_true(has_edge(&c, first, second));
		assert_int_equal(c.leap[first], 0);
		assert_int_equal(c.leap[second], 1);
		stages_end(&f, &c);
		memset(logs, 0, sizeof logs);
	}
}

/* Alg. 5, Fig. 6: leap 0 holds X = {A(0) -> A(1)} and T = {A(2) -> A(3)};
 * leap 1 holds {A(0) -> A(0)} (after X by A(0)'s sources) and
 * S = {A(2) -> A(1)} (after T by A(2)'s). X's successors miss A(1),
 * whose next partition is S: without an edge X -> S, A(1)'s events in X
 * and S could share a step. */
static void
test_chare_paths(void **state)
{
	(void)state;
	send_block(0, 0, 10, 0);     /* X: A(0) -> A(1) */
	recv_block(1, 1, 20, 0, 0);
	send_block(0, 0, 30, 1);     /* A(0) -> A(0) */
	recv_block(0, 0, 35, 1, 0);
	send_block(1, 2, 5, 0);      /* T: A(2) -> A(3) */
	recv_block(1, 3, 8, 0, 1);
	send_block(1, 2, 50, 1);     /* S: A(2) -> A(1) */
	recv_block(1, 1, 60, 1, 1);
	struct fixture f;
	struct charm c = stages_start(&f);
	assert_int_equal(charm_initial(&c), 0);
	assert_int_equal(charm_dependency_merge(&c), 0);
	assert_int_equal(charm_repair_merge(&c), 0);
	assert_int_equal(charm_infer(&c), 0);
	assert_int_equal(charm_leap_merge(&c), 0);
	uint32_t x = P(A0, 10), s = P(A2, 50);
	assert_int_equal(c.np, 4);
	assert_int_equal(c.leap[x], 0);
	assert_int_equal(c.leap[s], 1);
	assert_false(has_edge(&c, x, s));
	assert_int_equal(charm_enforce(&c), 0);
	x = P(A0, 10);
	s = P(A2, 50);
	assert_true(has_edge(&c, x, s));
	assert_int_equal(tc_edges_of(&c, EDGE_PATH), 1);
	assert_int_equal(c.leap[s], 1);      /* leaps kept */
	stages_end(&f, &c);
}

/* ---- §3.2: steps ---- */

static struct analysis *
analyse(const struct trace *t, int reorder)
{
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.charm_reorder = reorder;
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (analysis_run(t, &o, NULL, NULL, &a, &e))
		fail_msg("%s", e.msg);
	assert_true(analysis_verified(a));
	return a;
}

/* The global step of the op of timeline tl that begins at t (µs) and
 * carries a message end. */
static uint32_t
step_at(const struct analysis *a, uint32_t tl, long t)
{
	const struct trace *tr = analysis_trace(a);
	uint32_t n_ops;
	struct trace_opv ops = trace_ops(tr, &n_ops);
	for (uint32_t o = 0; o < n_ops; o++) {
		struct trace_op op = trace_op_get(&ops, o);
		uint32_t n_ends;
		trace_op_ends(tr, o, &n_ends);
		if (op.timeline == tl && op.t_enter == (uint64_t)t && n_ends > 0)
			return analysis_lop_step(a, analysis_op_lop(a, o));
	}
	fail_msg("no op on timeline %u at %ld", tl, t);
	return 0;
}

/* Fig. 7: A(2) and A(1) send res to A(0) in one phase (merged by leap),
 * which receives A(2)'s first. Both receives have w = 1: the tie goes to
 * the lower invoking chare, A(1), whatever arrived first. */
static void
test_reorder_tie(void **state)
{
	(void)state;
	send_block(1, 1, 10, 0);
	send_block(1, 2, 5, 1);
	recv_block(0, 0, 20, 1, 1);     /* from A(2) */
	recv_block(0, 0, 30, 0, 1);     /* from A(1) */
	struct trace *t = run();
	struct analysis *a = analyse(t, 1);
	uint32_t n_parts;
	analysis_parts(a, &n_parts);
	assert_int_equal(n_parts, 1);
	assert_int_equal(step_at(a, A1, 10), 0);
	assert_int_equal(step_at(a, A2, 5), 0);
	assert_int_equal(step_at(a, A0, 30), 1);     /* A(1)'s first */
	assert_int_equal(step_at(a, A0, 20), 2);
	analysis_destroy(a);
	a = analyse(t, 0);                             /* physical order */
	assert_int_equal(step_at(a, A0, 20), 1);
	assert_int_equal(step_at(a, A0, 30), 2);
	analysis_destroy(a);
	trace_destroy(t);
}

/* §3.2.1: A(1) first receives res from A(3), then sends res to A(0);
 * A(2) sends res to A(0) directly. A(0) receives A(1)'s first (w = 2),
 * A(2)'s later (w = 1): reordered, A(2)'s comes first although A(1) is
 * the lower chare. */
static void
test_reorder_w(void **state)
{
	(void)state;
	send_block(1, 3, 1, 0);
	beg(1, RES, 4, 0, 1, 1);      /* A(1) receives, sends on */
	cr(1, RES, 5, 1);
	end(1, RES, 6, 0, 1);
	send_block(1, 2, 7, 2);
	recv_block(0, 0, 20, 1, 1);     /* from A(1) */
	recv_block(0, 0, 30, 2, 1);     /* from A(2) */
	struct trace *t = run();
	struct analysis *a = analyse(t, 1);
	uint32_t n_parts;
	analysis_parts(a, &n_parts);
	assert_int_equal(n_parts, 1);
	assert_int_equal(step_at(a, A3, 1), 0);
	assert_int_equal(step_at(a, A1, 4), 1);
	assert_int_equal(step_at(a, A2, 7), 0);
	assert_int_equal(step_at(a, A0, 30), 1);
	assert_int_equal(step_at(a, A0, 20), 2);
	analysis_destroy(a);
	a = analyse(t, 0);
	assert_int_equal(step_at(a, A0, 20), 2);
	assert_int_equal(step_at(a, A0, 30), 3);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The run of the cycle tests: groups of pairs of chares A(0) and A(1),
 * each receiving the other's message before sending its own; within a
 * group PE 0 meets pair k at its k-th place, PE 1 at pairs - 1 - k; the
 * groups lie 1,000 ticks apart. */
static void
write_cycle_groups(int groups, int pairs)
{
	char path[128];
	snprintf(path, sizeof path, "%s/run.sts", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(sts, f);
	fclose(f);
	for (int pe = 0; pe < 2; pe++) {
		snprintf(path, sizeof path, "%s/run.%d.log", dir, pe);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "PROJECTIONS-RECORD %d\n", 3 * groups * pairs);
		for (int g = 0; g < groups; g++)
			for (int k = 0; k < pairs; k++) {
				int i = g * pairs + (pe ? pairs - 1 - k : k);
				long t = 10 + 10 * (long)(g * pairs + k) + 1000 * (long)g;
				fprintf(f, "2 4 %d %ld %d %d 64 0 %d 0\n", RES, t, i, 1 - pe, pe);
				fprintf(f, "1 4 %d %ld %d %d 64 0\n", RES, t + 1, i, pe);
				fprintf(f, "3 0 %d %ld %d %d 0 0\n", RES, t + 2, i, 1 - pe);
			}
		fclose(f);
	}
}

/* Records that imply a cycle (each PE receives the other's message before
 * sending its own, as skewed clocks can show) stall the replay, which
 * breaks the cycle at the earliest operation still waiting. n such pairs
 * in one phase (A(0) meets them in one order, A(1) in the other, so the
 * inferred edges merge them all) cost n stalls: finding the earliest
 * waiting operation must not cost the phase's length each time (it did:
 * 40,000 operations took 1.5 s, twice as many four times as long). */
static void
test_cycles_linear(void **state)
{
	(void)state;
	/* under TSan 12,000 pairs: the reading and the analysis run on the
	 * workers the same (a gcov count of the files that use them: the
	 * same lines as 60,000), and a search from the start at each stall
	 * would still pass some 7 * 10^7 lops, against the run's few per pair */
#if defined(__SANITIZE_THREAD__)
	enum { PAIRS = 12000 };
#else
	enum { PAIRS = 60000 };
#endif
	write_cycle_groups(1, PAIRS);
	char path[128];
	snprintf(path, sizeof path, "%s/run.sts", dir);
	struct trace *t = NULL;
	struct err e = { 0 };
	assert_int_equal(projections_read(path, NULL, &t, &e), 0);
	struct analysis *a = NULL;
	assert_int_equal(analysis_run(t, NULL, NULL, NULL, &a, &e), 0);
	uint32_t n_parts;
	analysis_parts(a, &n_parts);
	assert_int_equal(n_parts, 1);
	assert_true(analysis_verify(a)->relaxed >= PAIRS);
	/* linear: every stall resumes the one cursor over the phase sorted by
	 * time, so all of them pass at most its lops once; a search from the
	 * start at each stall (the quadratic version: 14 s here) passes
	 * about PAIRS^2 / 2 */
	uint64_t lops = analysis_lop_count(a);
	if (a->stall_scans > lops)
		fail_msg("%llu lops passed for %llu stalls over %llu lops", (unsigned long long)a->stall_scans,
			 (unsigned long long)analysis_verify(a)->relaxed, (unsigned long long)lops);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The cycle run, read and analysed on threads. */
static struct analysis *
analyse_cycles(int threads)
{
	char path[128], v[16];
	snprintf(path, sizeof path, "%s/run.sts", dir);
	snprintf(v, sizeof v, "%d", threads);
	setenv("SKEIN_THREADS", v, 1);
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct err e = { 0 };
	assert_int_equal(projections_read(path, NULL, &t, &e), 0);
	assert_int_equal(analysis_run(t, NULL, NULL, NULL, &a, &e), 0);
	unsetenv("SKEIN_THREADS");
	return a;
}

/* Frees a of analyse_cycles and its trace. */
static void
cycles_done(struct analysis *a)
{
	struct trace *t = (struct trace *)a->t;
	analysis_destroy(a);
	trace_destroy(t);
}

/* Cycles in several phases: groups of the pairs above, far apart in time,
 * each its own phase. A lop a stall lets go first counts only what was
 * replayed before it; each phase's steps depend on nothing else, so
 * four equal groups give four phases as wide as one group alone, and
 * the steps are the same on any number of threads. (The clock values of
 * what had not been replayed were read as they were: a worker's scratch
 * from the phase before, or fresh memory, and the steps changed with the
 * threads and from run to run.) */
static void
test_cycles_phases(void **state)
{
	(void)state;
	write_cycle_groups(1, 5);
	struct analysis *a = analyse_cycles(1);
	assert_true(analysis_verify(a)->relaxed > 0);
	uint32_t width = a->n_steps;
	cycles_done(a);
	write_cycle_groups(4, 5);
	struct analysis *one = analyse_cycles(1);
	uint32_t n_parts;
	const struct analysis_part *parts = analysis_parts(one, &n_parts);
	assert_int_equal(n_parts, 4);
	for (uint32_t p = 0; p < n_parts; p++)
		assert_int_equal(parts[p].step_count, width);
	assert_true(analysis_verify(one)->relaxed >= 4);
	for (int th = 2; th <= 8; th *= 2) {
		a = analyse_cycles(th);
		assert_int_equal(a->n_lops, one->n_lops);
		assert_memory_equal(a->lop_step, one->lop_step, one->n_lops * sizeof *a->lop_step);
		cycles_done(a);
	}
	cycles_done(one);
}

/* The serial blocks and SDAG serials of charm_initial, worked out on
 * shares of the lops (a share's last block may go on into the next
 * shares, which then carry its first SDAG region back), against one pass
 * of one core over the lops (the rule as doc/charm.md gives it), on 1 to
 * 8 threads: long blocks of SDAG continuations whose serials lie late in
 * them, so that shares fall inside blocks, blocks span three shares and
 * more, and (a run of three executions) shares are empty. */
static uint32_t
region_of(const struct analysis *a, uint32_t l)
{
	return trace_op_get(&a->ops, lop_first_op(a, l)).region;
}

static void
blocks_one_core(const struct charm *c, uint32_t *block, uint32_t *serial, uint32_t *entry, uint32_t *nb)
{
	const struct analysis *a = c->a;
	uint32_t n_en;
	const struct trace_entry *en = trace_entries(c->t, &n_en);
	*nb = 0;
	for (uint32_t l = 0; l < c->n; l++) {
		int first = l == a->tl_lop[a->lop_tl[l]];
		if (first || !(trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_BLOCK_CONT))
			entry[(*nb)++] = region_of(a, l);
		block[l] = *nb - 1;
	}
	uint32_t next = TRACE_NONE;
	for (uint32_t l = c->n; l-- > 0;) {
		if (l + 1 == c->n || block[l + 1] != block[l])
			next = TRACE_NONE;
		uint32_t r = region_of(a, l);
		if (r != TRACE_NONE && r < n_en && en[r].sdag)
			next = r;
		serial[l] = next;
	}
}

/* Shares of 1 to 8 workers that end inside a block with an SDAG serial
 * past their end (where the carry decides). */
static uint32_t
carried(const struct charm *c, const uint32_t *block, const uint32_t *serial)
{
	uint32_t k = 0;
	for (uint32_t nw = 2; nw <= 8; nw++)
		for (uint32_t w = 0; w + 1 < nw; w++) {
			uint32_t from, to;
			par_share(c->n, w, nw, &from, &to);
			k += to > 0 && to < c->n && block[to] == block[to - 1] && serial[to] != TRACE_NONE;
		}
	return k;
}

static void
check_blocks(struct trace *t, uint32_t *carries)
{
	struct analysis *a = tc_lops_only(t);
	uint32_t n = a->n_lops, nb;
	uint32_t *block = malloc((n + 1) * sizeof *block), *serial = malloc((n + 1) * sizeof *serial);
	uint32_t *entry = malloc((n + 1) * sizeof *entry);
	assert_true(block && serial && entry);
	struct charm c;
	assert_int_equal(charm_init(&c, a), 0);
	blocks_one_core(&c, block, serial, entry, &nb);
	*carries += carried(&c, block, serial);
	charm_fini(&c);
	for (int th = 1; th <= 8; th++) {
		char v[16];
		snprintf(v, sizeof v, "%d", th);
		setenv("SKEIN_THREADS", v, 1);
		assert_int_equal(charm_init(&c, a), 0);
		assert_int_equal(charm_initial(&c), 0);
		assert_int_equal(c.n_blocks, nb);
		assert_memory_equal(c.block, block, n * sizeof *block);
		assert_memory_equal(c.serial, serial, n * sizeof *serial);
		assert_memory_equal(c.block_entry, entry, nb * sizeof *entry);
		charm_fini(&c);
	}
	unsetenv("SKEIN_THREADS");
	free(block);
	free(serial);
	free(entry);
	analysis_destroy(a);
}

static void
test_blocks_shares(void **state)
{
	(void)state;
	/* A(0): two blocks of SDAG continuations (executions without a
	 * message right after go), the serials late in each; A(1) receives
	 * what go sent */
	static const int first[] = { WORK, WORK, WORK, WORK, WORK, SER1, WORK, WORK, WORK, WORK, WORK, WORK,
				     WORK, SER0 };
	static const int second[] = { WORK, WORK, WORK, WORK, WORK, WORK, WORK, WORK, WORK, WORK, SER1, WORK };
	long t = 10;
	beg(0, GO, t, -1, 0, 0);
	cr(0, RES, t + 1, 0);
	end(0, GO, t + 2, -1, 0);
	t += 3;
	for (size_t k = 0; k < sizeof first / sizeof *first; k++, t += 2) {
		beg(0, first[k], t, -1, 0, 0);
		end(0, first[k], t + 1, -1, 0);
	}
	beg(0, GO, t, -1, 0, 0);
	end(0, GO, t + 1, -1, 0);
	t += 2;
	for (size_t k = 0; k < sizeof second / sizeof *second; k++, t += 2) {
		beg(0, second[k], t, -1, 0, 0);
		end(0, second[k], t + 1, -1, 0);
	}
	recv_block(1, 1, t + 5, 0, 0);
	uint32_t carries = 0;
	struct trace *tr = run();
	check_blocks(tr, &carries);
	trace_destroy(tr);
	assert_true(carries > 0);
	/* fewer lops than workers: empty shares */
	send_block(0, 0, 10, 0);
	recv_block(1, 1, 20, 0, 0);
	tr = run();
	check_blocks(tr, &carries);
	trace_destroy(tr);
}

/* uf_number on sets chained as deep as they go (lop l's parent l - 2,
 * two sets of 15,000), with the chains crossing every share: each
 * member must end at its root and take its set's id. A member another
 * worker has just pointed at its root must stay there while a walk
 * from below halves through it (a plain store put back the ancestor in
 * a few of a thousand numberings on 8 threads). */
static void
test_uf_number_deep(void **state)
{
	(void)state;
	enum { N = 30000, K = 2 };
#ifdef __SANITIZE_THREAD__
	const int rounds = 60;
#else
	const int rounds = 1500;
#endif
	uint8_t *member = malloc(N);
	uint32_t *id = malloc((N + 1) * sizeof *id), *parent = malloc((N + 1) * sizeof *parent);
	assert_true(member && id && parent);
	memset(member, 1, N);
	for (int it = 0; it < rounds; it++) {
		setenv("SKEIN_THREADS", it % 2 ? "8" : "4", 1);
		for (uint32_t l = 0; l < N; l++)
			parent[l] = l < K ? l : l - K;
		uint32_t ns, *roots;
		assert_int_equal(uf_number(parent, N, member, id, &ns, &roots), 0);
		assert_int_equal(ns, K);
		for (uint32_t k = 0; k < K; k++)
			assert_int_equal(roots[k], k);
		free(roots);
		for (uint32_t l = 0; l < N; l++) {
			if (parent[l] != l % K || id[l] != l % K)
				fail_msg("round %d, lop %u: parent %u, id %u", it, l, parent[l], id[l]);
		}
	}
	unsetenv("SKEIN_THREADS");
	free(member);
	free(id);
	free(parent);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_initial_split, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dependency_merge_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repair_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_infer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leap_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_property1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chare_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reorder_tie, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reorder_w, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cycles_linear, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cycles_phases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blocks_shares, setup, teardown),
		cmocka_unit_test(test_uf_number_deep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
