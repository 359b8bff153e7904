/* test_path.c — the critical path (analysis/path/path.h) on traces
 * written by hand, each worked out by hand, and on real ones. Times are
 * ticks; the DSL's calls leave one tick after their last record and the
 * next starts a tick later; every rank starts with an MPI_Allreduce from
 * 0 to 1 (testwaits.h). */
#include "testwaits.h"

#include "analysis/path/path.h"
#include "analysis/path/path_impl.h"
#include "path_same.h"
#include "model/trace_impl.h"
#include "analysis/run/run.h"
#include "model/charm.h"
#include "projections/projections_read.h"

#include <glob.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
dump(const struct analysis *a, const struct path *p)
{
	for (uint32_t i = 0; i < p->n_segs; i++)
		fprintf(stderr, "seg %u: tl %u [%llu, %llu) kind %u wait %d release %d\n", i, p->segs[i].tl,
			(unsigned long long)p->segs[i].from, (unsigned long long)p->segs[i].to, p->segs[i].kind,
			(int)p->segs[i].wait_lop, (int)p->segs[i].release_lop);
	uint32_t nr;
	const struct trace_region *r = trace_regions(analysis_trace(a), &nr);
	for (uint32_t i = 0; i < p->n_regions; i++)
		fprintf(stderr, "region %s: time %llu blame %llu calls %llu\n",
			p->regions[i].region < nr ? trace_str(analysis_trace(a), r[p->regions[i].region].name) : "-",
			(unsigned long long)p->regions[i].time, (unsigned long long)p->regions[i].blame,
			(unsigned long long)p->regions[i].calls);
}

static void
seg_is(const struct path *p, uint32_t i, uint32_t tl, uint64_t from, uint64_t to, int kind)
{
	assert_true(i < p->n_segs);
	if (p->segs[i].tl != tl || p->segs[i].from != from || p->segs[i].to != to || p->segs[i].kind != kind)
		fail_msg("segment %u is tl %u [%llu, %llu) kind %u, not tl %u [%llu, %llu) kind %d", i,
			 p->segs[i].tl, (unsigned long long)p->segs[i].from, (unsigned long long)p->segs[i].to,
			 p->segs[i].kind, tl, (unsigned long long)from, (unsigned long long)to, kind);
}

static uint64_t
region_time(const struct analysis *a, const struct path *p, const char *name)
{
	uint32_t nr;
	const struct trace_region *r = trace_regions(analysis_trace(a), &nr);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		uint32_t x = p->regions[i].region;
		const char *rn = x < nr ? trace_str(analysis_trace(a), r[x].name)
			: x == PATH_REGION_STARTUP ? "(start-up)" : x == PATH_REGION_IDLE ? "(idle)" : "-";
		if (!strcmp(rn, name))
			return p->regions[i].time;
	}
	return 0;
}

/* The regions' times add up to the path's length, the segments tile the
 * run without gaps or overlaps, and every timeline's list is in order. */
static void
consistent(const struct analysis *a, const struct path *p)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < p->n_regions; i++)
		sum += p->regions[i].time;
	assert_int_equal(sum, p->length);
	assert_int_equal(p->length, p->to - p->from);
	for (uint32_t i = 0; i < p->n_segs; i++) {
		assert_int_equal(p->segs[i].from, i ? p->segs[i - 1].to : p->from);
		assert_true(p->segs[i].from < p->segs[i].to);
		assert_ptr_equal(path_at(p, p->segs[i].tl, p->segs[i].from), &p->segs[i]);
		assert_ptr_equal(path_at(p, p->segs[i].tl, p->segs[i].to - 1), &p->segs[i]);
	}
	if (p->n_segs)
		assert_int_equal(p->segs[p->n_segs - 1].to, p->to);
	(void)a;
}

/* A chain: rank 2 computes 100 and sends to rank 1 at 102; rank 1 has
 * waited in MPI_Recv since 12 (left 104) and sends to rank 0 at 105;
 * rank 0 has waited since 12 and leaves at 111, last. Back from 111 on
 * rank 0: its receive was released at 105 by rank 1's send; rank 1's
 * receive at 102 by rank 2's; rank 2 from there back to 0. */
static void
chain(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(3);
	start(d, 0);
	work(d, 10);
	recv_until(d, 1, 0, 110);
	start(d, 1);
	work(d, 10);
	recv_until(d, 2, 0, 103);
	send(d, 0, 0);
	start(d, 2);
	work(d, 100);
	send(d, 1, 0);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	struct path p;
	struct err e;
	assert_int_equal(path_compute(a, &p, &e), 0);
	if (getenv("PATH_DUMP"))
		dump(a, &p);
	consistent(a, &p);
	assert_int_equal(p.n_segs, 3);
	seg_is(&p, 0, 2, 0, 102, PATH_RUN);
	seg_is(&p, 1, 1, 102, 105, PATH_RUN);
	seg_is(&p, 2, 0, 105, 111, PATH_RUN);
	assert_int_equal(p.jumps, 2);
	assert_int_equal(p.segs[2].wait_lop, comm(a, 0, 1));
	assert_int_equal(p.segs[2].release_lop, comm(a, 1, 2));
	assert_int_equal(p.segs[1].wait_lop, comm(a, 1, 1));
	assert_int_equal(p.segs[1].release_lop, comm(a, 2, 1));
	/* MPI_Recv: 105..111 on rank 0, 102..104 on rank 1; the Allreduce
	 * 0..1 on rank 2; the rest computation outside any region */
	assert_int_equal(region_time(a, &p, "MPI_Recv"), 8);
	assert_int_equal(region_time(a, &p, "MPI_Allreduce"), 1);
	assert_int_equal(region_time(a, &p, "-"), 102);
	assert_null(path_at(&p, 0, 104));
	assert_true(path_overlaps(&p, 1, 100, 103));
	assert_false(path_overlaps(&p, 1, 105, 200));
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A late start: rank 1's first event is at 50, its send at 60; rank 0
 * waits for it in MPI_Recv from 2 and ends last. The path goes to rank
 * 1 at 60 and has [0, 50) as rank 1's start-up. */
static void
late_start(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	rank(d, 0);
	work(d, 2);
	recv_until(d, 1, 0, 70);
	rank(d, 1);
	work(d, 50);
	call(d, R_MAIN);
	work(d, 10);
	send(d, 0, 0);
	ret(d, R_MAIN);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	struct path p;
	struct err e;
	assert_int_equal(path_compute(a, &p, &e), 0);
	if (getenv("PATH_DUMP"))
		dump(a, &p);
	consistent(a, &p);
	assert_int_equal(p.segs[0].kind, PATH_STARTUP);
	assert_int_equal(p.segs[0].tl, 1);
	assert_int_equal(region_time(a, &p, "(start-up)"), 50 - p.from);
	assert_int_equal(p.jumps, 1);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A barrier-like collective that rank 2 enters last, at 82 after 80 of
 * computation: the others' waits were released by it, so the path runs
 * through rank 2's computation whichever rank leaves last. */
static void
collective(void **state)
{
	(void)state;
	static const uint64_t comp[3] = { 10, 30, 80 };
	static const uint64_t leave[3] = { 90, 84, 86 };
	struct dsl *d = dsl_new(3);
	for (uint32_t r = 0; r < 3; r++) {
		start(d, r);
		work(d, comp[r]);
		coll_until(d, COLL_ALLREDUCE, UINT32_MAX, leave[r]);
	}
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	struct path p;
	struct err e;
	assert_int_equal(path_compute(a, &p, &e), 0);
	if (getenv("PATH_DUMP"))
		dump(a, &p);
	consistent(a, &p);
	assert_int_equal(p.n_segs, 2);
	seg_is(&p, 0, 2, 0, 82, PATH_RUN);
	seg_is(&p, 1, 0, 82, 91, PATH_RUN);
	assert_int_equal(region_time(a, &p, "MPI_Allreduce"), 1 + 9);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

static uint64_t
region_blame(const struct analysis *a, const struct path *p, const char *name)
{
	uint32_t nr;
	const struct trace_region *r = trace_regions(analysis_trace(a), &nr);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		uint32_t x = p->regions[i].region;
		if (x < nr && !strcmp(trace_str(analysis_trace(a), r[x].name), name))
			return p->regions[i].blame;
	}
	return 0;
}

/* Time goes to the region it was spent in, not the one around the
 * operation: rank 1 works 5 in 'step', 41 in 'put' entered inside it,
 * and 6 more in 'step' before its send at 54 (step 2..57, put 7..48);
 * rank 0 waits for it in MPI_Recv from 4. On the path from 0 to 54 on
 * rank 1: the Allreduce 1, the tick after it outside any region, 'step'
 * 5 + 6, 'put' 41. The send's delay (rank 0 waited 54 - 4 = 50) is
 * spread over the computation it was, from 1 to 54: 'put' 41/53 of it
 * (38.7), 'step' 11/53 (10.4), the tick outside any region 1/53. */
static void
nested_regions(void **state)
{
	(void)state;
	struct dsl *d = dsl_new(2);
	start(d, 0);
	work(d, 2);
	recv_until(d, 1, 0, 60);
	start(d, 1);
	call(d, R_STEP);
	work(d, 5);
	call(d, R_PUT);
	work(d, 40);
	ret(d, R_PUT);
	work(d, 5);
	send(d, 0, 0);
	ret(d, R_STEP);
	struct trace *t = dsl_done(d);
	struct analysis *a = analyse(t, NULL);
	struct path p;
	struct err e;
	assert_int_equal(path_compute(a, &p, &e), 0);
	if (getenv("PATH_DUMP"))
		dump(a, &p);
	consistent(a, &p);
	seg_is(&p, 0, 1, 0, 54, PATH_RUN);
	assert_int_equal(region_time(a, &p, "put"), 41);
	assert_int_equal(region_time(a, &p, "step"), 11);
	assert_int_equal(region_time(a, &p, "MPI_Allreduce"), 1);
	assert_int_equal(region_time(a, &p, "-"), 1);
	const struct analysis_wait *w = wait_of(a, comm(a, 0, 1));
	assert_int_equal(w->time, 50);
	uint64_t put = region_blame(a, &p, "put"), step = region_blame(a, &p, "step");
	assert_true(put >= 38 && put <= 39);
	assert_true(step >= 10 && step <= 11);
	assert_true(put + step + region_blame(a, &p, "-") <= 50);
	assert_int_equal(p.blame_total, 50);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* Region `name`'s time on the path in seconds, 0 when absent. */
static double
seconds_of(const struct analysis *a, const struct path *p, const char *name)
{
	return trace_seconds(analysis_trace(a), region_time(a, p, name));
}

static void
near(double got, double want, double rel, const char *what)
{
	if (got < want * (1 - rel) || got > want * (1 + rel))
		fail_msg("%s: %.9f s, CASITA %.9f s (more than %.1f%% apart)", what, got, want, 100 * rel);
}

/* CASITA's critical path (../shared/reference/casita: time on CP per
 * region) on the shared traces: the same exclusive times for every region
 * after the path's start, which CASITA puts at the latest rank's first
 * event (skein's covers the run from its first event: MPI_Init and the
 * start-up before it differ, doc/analysis.md). casita-4_mpi_ls_barr:
 * foo, called inside late_sender and barrier, 19.945392 s of CASITA's
 * 19.982795; first by time and by blame. tracer-stencil4d-32: MPI_Send
 * 3.020 ms, MPI_Irecv 0.269 ms, TRACER_Loop 17 us. */
static void
casita(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-4_mpi_ls_barr/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = analyse(t, NULL);
	struct path p;
	struct err e;
	assert_int_equal(path_compute(a, &p, &e), 0);
	consistent(a, &p);
	near(seconds_of(a, &p, "foo"), 19.945392, 0.001, "casita-4 foo");
	uint32_t nr;
	const struct trace_region *r = trace_regions(t, &nr);
	assert_true(p.regions[0].region < nr);
	assert_string_equal(trace_str(t, r[p.regions[0].region].name), "foo");
	/* foo made nearly all the waiting (CASITA: 99.9967% of blame) */
	assert_true(region_blame(a, &p, "foo") > 0.98 * (double)p.blame_total);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);

	SHARED_TRACE(path, "otf2/tracer-stencil4d-32/traces.otf2");
	t = tu_load(path);
	a = analyse(t, NULL);
	assert_int_equal(path_compute(a, &p, &e), 0);
	consistent(a, &p);
	near(seconds_of(a, &p, "MPI_Send"), 0.003020, 0.01, "stencil4d MPI_Send");
	near(seconds_of(a, &p, "MPI_Irecv"), 0.000269, 0.01, "stencil4d MPI_Irecv");
	near(seconds_of(a, &p, "TRACER_Loop"), 0.000017, 0.05, "stencil4d TRACER_Loop");
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
}

/* A Charm++ run's ops in PE and time order, and its path, with the PEs'
 * lops in time order as the idle experienced kept them
 * (analysis_pe_lops) and as the path sorts them itself: the same order,
 * segments, jumps and regions. The held order breaks equal enters by
 * lop id and the path by op id, which differ where reordering numbers
 * a chare's lops in logical order; such ties are counted, so the test
 * sees them. */
static uint32_t
ties_by_lop_not_op(const struct analysis *a)
{
	uint32_t n = 0, n_pes = trace_pe_count(a->t);
	for (uint32_t pe = 0; pe < n_pes; pe++)
		for (uint32_t k = a->pe_first[pe] + 1; k < a->pe_first[pe + 1]; k++) {
			uint32_t x = lop_first_op(a, a->pe_lops[k - 1]), y = lop_first_op(a, a->pe_lops[k]);
			n += trace_op_get(&a->ops, x).t_enter == trace_op_get(&a->ops, y).t_enter && x > y;
		}
	return n;
}

static void
same_path(const struct path *p, const struct path *q)
{
	uint32_t at;
	const char *d = path_difference(p, q, &at);
	if (d)
		fail_msg("%s %u differs", d, at);
}

/* The longest run of equal enters on one PE in the kept order. */
static uint32_t
longest_tie(const struct analysis *a)
{
	uint32_t most = 0, n_pes = trace_pe_count(a->t);
	for (uint32_t pe = 0; pe < n_pes; pe++)
		for (uint32_t k = a->pe_first[pe], run = 0; k < a->pe_first[pe + 1]; k++) {
			run = k > a->pe_first[pe] && lop_enter(a, a->pe_lops[k]) == lop_enter(a, a->pe_lops[k - 1])
				? run + 1 : 1;
			most = run > most ? run : most;
		}
	return most;
}

/* One run, reordering off and on: the kept order is there and taken
 * (it lists every op), and gives what the path's own sort gives. Adds
 * the ties numbered against op order to *ties and returns the longest
 * run of equal enters. */
static uint32_t
same_pe_order(const struct trace *t, uint32_t *ties)
{
	uint32_t most = 0;
	for (int reorder = 0; reorder <= 1; reorder++) {
		struct analysis_opts o;
		analysis_opts_default(&o);
		o.charm_reorder = reorder;
		struct analysis *a = NULL;
		struct err e = { 0 };
		assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
		assert_non_null(a->pe_lops);
		assert_int_equal(a->n_lops, a->n_ops);
		assert_int_equal(a->pe_first[trace_pe_count(t)], a->n_ops);
		*ties += ties_by_lop_not_op(a);
		uint32_t m = longest_tie(a);
		most = m > most ? m : most;
		struct path p, q;
		size_t sz = ((size_t)a->n_ops + 1) * sizeof(uint32_t);
		uint32_t *order[2] = { malloc(sz), malloc(sz) }, *pos[2] = { malloc(sz), malloc(sz) }, last[2];
		assert_true(order[0] && order[1] && pos[0] && pos[1]);
		const uint32_t *pe = trace_op_pes(t);
		assert_int_equal(path_pe_order(a, pe, order[0], pos[0], &last[0]), 0);
		assert_int_equal(path_compute(a, &p, &e), 0);
		uint32_t *first = a->pe_first, *lops = a->pe_lops;
		a->pe_first = a->pe_lops = NULL;
		assert_int_equal(path_pe_order(a, pe, order[1], pos[1], &last[1]), 0);
		assert_int_equal(path_compute(a, &q, &e), 0);
		a->pe_first = first;
		a->pe_lops = lops;
		assert_memory_equal(order[0], order[1], (size_t)a->n_ops * sizeof(uint32_t));
		assert_memory_equal(pos[0], pos[1], (size_t)a->n_ops * sizeof(uint32_t));
		assert_int_equal(last[0], last[1]);
		for (int k = 0; k < 2; k++) {
			free(order[k]);
			free(pos[k]);
		}
		consistent(a, &p);
		same_path(&p, &q);
		path_free(&p);
		path_free(&q);
		analysis_destroy(a);
	}
	return most;
}

static void
charm_pe_order(void **state)
{
	(void)state;
	char dir[1024];
	SHARED_TRACE(dir, "projections");
	glob_t g;
	char pat[1100];
	snprintf(pat, sizeof pat, "%s/*/*.sts", dir);
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	uint32_t ties = 0, most = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct trace *t = NULL;
		struct err e = { 0 };
		assert_int_equal(projections_read(g.gl_pathv[i], NULL, &t, &e), 0);
		uint32_t m = same_pe_order(t, &ties);
		most = m > most ? m : most;
		trace_destroy(t);
	}
	print_message("%zu runs: %u ties numbered against op order, equal enters at most %u in a row\n",
		      g.gl_pathc, ties, most);
	assert_true(ties > 0);
	globfree(&g);

	/* Long runs of equal enters (sorted by op id on their own, past 32):
	 * a run's op times floored to 10 ms (the messages' times left, as
	 * the kept order and the path's sort read only the ops). */
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts");
	if (!t)
		skip();
	struct trace_oprec *r = t->oprec;
	for (size_t i = 0; i < t->n_oprec; i++) {
		r[i].t_enter -= r[i].t_enter % 10000;
		r[i].t_exit -= r[i].t_exit % 10000;
	}
	ties = 0;
	most = same_pe_order(t, &ties);
	print_message("floored to 10 ms: %u ties numbered against op order, equal enters at most %u in a row\n",
		      ties, most);
	assert_true(most > 32);
	assert_true(ties > 0);
	trace_destroy(t);
}

/* ---- the blame's order of sums and the stretches' cursor ---- */

static uint32_t
lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x >> 8;
}

static const struct path_piece *ref_pieces;

static uint64_t
ref_t(uint32_t e)
{
	return e & 1 ? ref_pieces[e >> 1].hi : ref_pieces[e >> 1].lo;
}

/* The order path_edge_order promises, by a comparison of its own. */
static int
ref_cmp(const void *p, const void *q)
{
	uint32_t x = *(const uint32_t *)p, y = *(const uint32_t *)q;
	uint32_t px = ref_pieces[x >> 1].place, py = ref_pieces[y >> 1].place;
	if (px != py)
		return px < py ? -1 : 1;
	if (ref_t(x) != ref_t(y))
		return ref_t(x) < ref_t(y) ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* n pieces on `places` places: each place's in time order, apart or
 * touching (the next begins where one ends, an edge of each at one
 * time), kept latest first as the delays' are, the places one after the
 * other or drawn for each piece (mixed); or anywhere (random: they
 * overlap, some are equal). */
enum layout { LATEST_FIRST, MIXED, RANDOM };

static void
make_pieces(struct path_piece *d, uint32_t n, uint32_t places, enum layout how, uint32_t seed)
{
	uint64_t *end = calloc(places, sizeof *end);
	assert_non_null(end);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t pl = how == MIXED ? lcg(&seed) % places : (uint32_t)((uint64_t)i * places / n);
		uint64_t lo = how == RANDOM ? lcg(&seed) % 1000 : end[pl] + (lcg(&seed) % 3 ? 0 : lcg(&seed) % 50);
		uint64_t hi = lo + 1 + lcg(&seed) % (how == RANDOM ? 100 : 20);
		end[pl] = hi;
		d[n - 1 - i] = (struct path_piece){ lo, hi, 1.0 + lcg(&seed) % 7, pl };
	}
	free(end);
}

/* The pieces' edges in the order path_blame sums them, against a sort
 * of that order: the pieces in order with touching ones (the ties put
 * right as they come, no sort), overlapping ones (sorted), one and two
 * pieces, none. */
static void
blame_edge_order(void **state)
{
	(void)state;
	enum { N = 3000 };
	struct path_piece *d = malloc(N * sizeof *d);
	uint32_t *ord = malloc(2 * N * sizeof *ord), *ref = malloc(2 * N * sizeof *ref);
	assert_true(d && ord && ref);
	uint32_t touching = 0;
	for (uint32_t seed = 1; seed <= 30; seed++)
		for (int how = LATEST_FIRST; how <= RANDOM; how++) {
			uint32_t n = seed == 1 ? 1 + (uint32_t)how : N - seed * 37, places = 1 + seed % 9;
			make_pieces(d, n, places, (enum layout)how, seed);
			for (uint32_t i = 0; i + 1 < n; i++)
				touching += how != RANDOM && d[i].place == d[i + 1].place && d[i + 1].hi == d[i].lo;
			for (uint32_t i = 0; i < 2 * n; i++)
				ref[i] = i;
			ref_pieces = d;
			qsort(ref, 2 * n, sizeof *ref, ref_cmp);
			assert_int_equal(path_edge_order(d, n, ord), 0);
			assert_memory_equal(ord, ref, 2 * (size_t)n * sizeof *ord);
		}
	assert_true(touching > 1000);       /* the ties the order puts right as they come */
	assert_int_equal(path_edge_order(d, 0, ord), 0);
	free(d);
	free(ord);
	free(ref);
}

/* The callbacks of hybrid_stretch and hybrid_stretch_runs, folded. */
struct fold {
	uint64_t h, n;
};

static void
fold_add(void *ctx, uint32_t region, int64_t ticks)
{
	struct fold *f = ctx;
	f->h = (f->h ^ region) * 1099511628211u;
	f->h = (f->h ^ (uint64_t)ticks) * 1099511628211u;
	f->n++;
}

static void
fold_run(void *ctx, uint64_t lo, uint64_t hi, uint32_t region)
{
	fold_add(ctx, region, (int64_t)(hi - lo));
	fold_add(ctx, (uint32_t)lo, 0);
}

/* A place's stretches found from a cursor as from nothing: the same
 * regions, times and runs, the stretches taken in time order, backwards
 * and at random. Under TSan every eighth of them (in the same orders):
 * hybrid_stretch and its cursor run on the caller's thread alone, and
 * their some 2n probes of up to an eighth of the place each cost O(n^2)
 * (22 s of TSan's 27 for this test); the traces are still read (the
 * reader's blocks on its workers) and hybrid_compute'd whole. */
#if defined(__SANITIZE_THREAD__)
#define CURSOR_STEP 8u
#else
#define CURSOR_STEP 1u
#endif

static uint64_t
cursor_place(const struct trace *t, const struct hybrid *h, uint32_t pl, uint32_t seed)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(t, h, pl, &first, &n);
	if (!n)
		return 0;
	uint64_t t0 = fr[first].t_enter, span = fr[first + n - 1].t_leave - t0 + 2, calls = 0;
	uint64_t before = t0 ? t0 - 1 : 0;
	for (int how = 0; how < 3; how++) {
		uint32_t cur[2] = { TRACE_NONE, TRACE_NONE };
		for (uint32_t k = 0; k < 2 * n + 8; k += CURSOR_STEP) {
			uint32_t j = how == 0 ? k : how == 1 ? 2 * n + 7 - k : lcg(&seed) % (2 * n + 8);
			/* a frame's enter or leave, or a tick beside it, or past the ends */
			const struct trace_frame *f = &fr[first + (j / 2) % n];
			uint64_t from = j >= 2 * n ? before + j % 4 * span / 3 : j & 1 ? f->t_leave : f->t_enter;
			from += how == 2 ? lcg(&seed) % 3 : 0;
			uint64_t to = from + 1 + lcg(&seed) % (span / 8 + 1);
			struct fold a = { 14695981039346656037u, 0 }, b = a, c = a, e = a;
			uint64_t x = hybrid_stretch(t, h, pl, from, to, fold_add, &a, NULL);
			uint64_t y = hybrid_stretch(t, h, pl, from, to, fold_add, &b, &cur[0]);
			assert_int_equal(x, y);
			assert_int_equal(a.h, b.h);
			assert_int_equal(a.n, b.n);
			hybrid_stretch_runs(t, h, pl, from, to, fold_run, &c, NULL);
			hybrid_stretch_runs(t, h, pl, from, to, fold_run, &e, &cur[1]);
			assert_int_equal(c.h, e.h);
			assert_int_equal(c.n, e.n);
			assert_true(cur[0] >= first && cur[0] <= first + n);
			calls += a.n + c.n;
		}
	}
	return calls;
}

static void
stretch_cursor(void **state)
{
	(void)state;
	const char *rel[] = { "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2",
			      "otf2/casita-1_xeonphi_jacobi_01/traces.otf2",
			      "otf2/casita-2_cuda_simple/traces.otf2" };
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		char path[1024];
		SHARED_TRACE(path, rel[i]);
		struct trace *t = tu_load(path);
		struct hybrid h;
		struct err e = { 0 };
		assert_int_equal(hybrid_compute(t, &h, &e), 0);
		assert_true(h.n_places > h.n_timelines);
		uint64_t calls = 0;
		for (uint32_t pl = 0; pl < h.n_places; pl++)
			calls += cursor_place(t, &h, pl, pl + 1);
		assert_true(calls > 10000);
		hybrid_free(&h);
		trace_destroy(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain),
		cmocka_unit_test(late_start),
		cmocka_unit_test(collective),
		cmocka_unit_test(nested_regions),
		cmocka_unit_test(casita),
		cmocka_unit_test(charm_pe_order),
		cmocka_unit_test(blame_edge_order),
		cmocka_unit_test(stretch_cursor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
