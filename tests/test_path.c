/* test_path.c — the critical path (analysis/path/path.h) on traces
 * written by hand, each worked out by hand, and on real ones. Times are
 * ticks; the DSL's calls leave one tick after their last record and the
 * next starts a tick later; every rank starts with an MPI_Allreduce from
 * 0 to 1 (testwaits.h). */
#include "testwaits.h"

#include "analysis/path/path.h"
#include "analysis/run/run.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain),
		cmocka_unit_test(late_start),
		cmocka_unit_test(collective),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
