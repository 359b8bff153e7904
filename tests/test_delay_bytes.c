/* test_delay_bytes.c — the bytes the delays' stage (analysis/explain/
 * delay.c) and the waits' (waits.c) hold above what they leave, per
 * wait, and the critical path's blame of the delays (path_blame.c), per
 * delay: counted, not timed. The library's malloc, calloc, realloc and
 * free come here (-Wl,--wrap, Makefile), which keep the bytes allocated
 * (malloc_usable_size) and their most while a stage runs again on a
 * finished analysis (the blame runs once, after it).
 *
 * The delays' arrays (doc/performance.md, "Where the 10^8 peak is"):
 * each wait's pass (16 bytes), with the ends' peer bytes (1 an end), the
 * index of the waits (two bits a lop) and the targets (4 each); then the
 * order of the waits by exit (4 bytes a wait, and 4 a wait for the steps
 * between their exits while it is made), one record a delaying lop (24)
 * of which the open ones stay, and the inflows of the waits that are
 * targets (8 each, and two bits a wait to find them). Until the passes
 * were 16 bytes the stage held 32 a wait for them beside the order, the
 * exits (8) and the peer bytes; then 16 beside the order, the peer
 * bytes and the inflows of every wait. */
#include "testdsl.h"

#include <malloc.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/explain/explain.h"
#include "analysis/path/path_impl.h"
#include "base/recycle.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

/* the stages (explain_impl.h, whose names the DSL's clash with) */
int explain_waits(struct analysis *a);
int explain_delays(struct analysis *a);

/* Under TSan the rings are about half as long (2,100 iterations where
 * 4,000: still past MATCH_PAR_MIN's 65,536 sends and receives, and
 * ends, so that the model's matching and the ends' numbering run on the
 * workers as on the long rings) and the counts asserted of them in
 * proportion: each test's stage (the delays', the waits', the blame, the
 * analysis whole) still runs on the workers (par_workers: one a core),
 * in the same pieces and shares, and the bytes it holds are asserted
 * per wait, delay or lop against the same bounds; each analysis there
 * is some twenty times slower. */
#if defined(__SANITIZE_THREAD__)
#define RING_ITERS 2100u
#else
#define RING_ITERS 4000u
#endif
/* a count the long ring passes, in proportion to the ring */
#define RING_PART(n) ((uint32_t)((uint64_t)(n) * RING_ITERS / 4000u))

static atomic_llong live, most;
/* while set, the pool's bytes at the first allocation (-1: none yet) */
static atomic_int watch_pool;
static atomic_llong pooled_first = -1;

static void
count(void *p, int sign)
{
	if (!p)
		return;
	long long none = -1;
	if (sign > 0 && atomic_load(&watch_pool))
		atomic_compare_exchange_strong(&pooled_first, &none, (long long)recycle_pooled());
	long long n = sign * (long long)malloc_usable_size(p), now = atomic_fetch_add(&live, n) + n;
	long long m = atomic_load(&most);
	while (now > m && !atomic_compare_exchange_weak(&most, &m, now))
		;
}

void *
__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);
	count(p, 1);
	return p;
}

void *
__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);
	count(p, 1);
	return p;
}

void *
__wrap_realloc(void *p, size_t n)
{
	size_t was = p ? malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, n);
	if (q) {
		atomic_fetch_sub(&live, (long long)was);
		count(q, 1);
	}
	return q;
}

void
__wrap_free(void *p)
{
	count(p, -1);
	__real_free(p);
}

/* A ring of `ranks` ranks, `iters` iterations: each computes for a time
 * of its own (a hash of rank and iteration), sends to the next and
 * receives from the one before, so most receives wait, and the waits'
 * causes waited in turn. Every time is `scale` ticks a unit (as
 * testdsl.h's calls would write them with a unit of 1). */
static void
op(struct dsl *d, int region, uint64_t *now, uint64_t scale)
{
	assert_int_equal(build_leave(d->b, (*now += 1) * scale, d->reg[region]), 0);
	*now += 1;
}

static struct trace *
ring_with(uint32_t ranks, uint32_t iters, uint64_t scale, uint32_t allreduce_every)
{
	struct dsl *d = dsl_new(ranks);
	for (uint32_t r = 0; r < ranks; r++) {
		rank(d, r);
		uint64_t now = 0, req = 0;
		for (uint32_t i = 0; i < iters; i++) {
			uint32_t h = (r * 2654435761u) ^ (i * 40503u);
			assert_int_equal(build_enter(d->b, now * scale, d->reg[R_IRECV]), 0);
			assert_int_equal(build_irecv_request(d->b, now * scale, ++req), 0);
			op(d, R_IRECV, &now, scale);
			now += 100 + (h >> 7) % 997;
			assert_int_equal(build_enter(d->b, now * scale, d->reg[R_SEND]), 0);
			assert_int_equal(build_send(d->b, now * scale, (r + 1) % ranks, 0, i, 8, UINT64_MAX), 0);
			op(d, R_SEND, &now, scale);
			/* the message waited for arrives some time on */
			uint64_t done = now + (h >> 3) % 331;
			assert_int_equal(build_enter(d->b, now * scale, d->reg[R_WAITALL]), 0);
			now = done;
			assert_int_equal(build_recv(d->b, now * scale, (r + ranks - 1) % ranks, 0, i, 8, req), 0);
			op(d, R_WAITALL, &now, scale);
			if (allreduce_every && i % allreduce_every == 0) {
				now += (h >> 11) % 53;
				assert_int_equal(build_enter(d->b, now * scale, d->reg[R_ALLREDUCE]), 0);
				assert_int_equal(build_coll_begin(d->b, now * scale), 0);
				assert_int_equal(build_coll_end(d->b, now * scale, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8),
						 0);
				op(d, R_ALLREDUCE, &now, scale);
			}
		}
	}
	return dsl_done(d);
}

static struct trace *
ring(uint32_t ranks, uint32_t iters, uint64_t scale)
{
	return ring_with(ranks, iters, scale, 0);
}

static void
transient_bytes(void **state)
{
	(void)state;
	struct trace *t = ring(16, RING_ITERS, 1);
	struct analysis *a = analyse(t, NULL);
	uint32_t n = a->n_waits, nd = a->n_delays;
	assert_true(n > RING_PART(30000));
	/* what the first run found, to compare */
	uint32_t *root = malloc(((size_t)n + 1) * sizeof *root);
	assert_non_null(root);
	/* the roots as the waits' stage left them: a wait's root may be read
	 * before it is worked out */
	for (uint32_t i = 0; i < n; i++) {
		root[i] = a->waits[i].root_lop;
		a->waits[i].root_lop = TRACE_NONE;
	}
	struct analysis_delay *dv = malloc(((size_t)nd + 1) * sizeof *dv);
	assert_non_null(dv);
	memcpy(dv, a->delays, (size_t)nd * sizeof *dv);
	free(a->delays);
	a->delays = NULL;
	a->n_delays = 0;
	recycle_drain();
	atomic_store(&live, 0);
	atomic_store(&most, 0);
	assert_int_equal(explain_delays(a), 0);
	long long left = atomic_load(&live), held = atomic_load(&most) - left;
	recycle_drain();
	/* the same answers */
	assert_int_equal(a->n_delays, nd);
	assert_memory_equal(a->delays, dv, (size_t)nd * sizeof *dv);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(a->waits[i].root_lop, root[i]);
	/* what it leaves is the delays' list */
	assert_true(left <= (long long)(((size_t)nd + 1) * sizeof *dv) + 64);
	/* held above that: 24.4-25.0 bytes a wait on this ring (4 ends and
	 * 8 lops a wait); 45.6 with the 32-byte passes, 30.1 with the
	 * 16-byte ones beside the order and every wait's inflow */
	long long bound = 55LL * n / 2;
	print_message("waits %u, delays %u, ends %u, lops %u: %lld bytes held, %.1f a wait\n", n, nd, a->n_ends,
		      a->n_lops, held, (double)held / n);
	assert_true(held < bound);
	free(root);
	free(dv);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The waits' stage, the same way: the waits found (each piece of the
 * lops' and of the collectives' in a list of its own) go straight to
 * their lop's place in the list it leaves, one per lop, each piece's
 * list freed once read. It held the lists joined, then a radix sort's
 * keys and their copy (16 bytes a wait each) and the list one per lop
 * beside them. On a ring with an Allreduce every other iteration (the
 * collectives' waits found after the others, out of lop order). */
static void
waits_transient_bytes(void **state)
{
	(void)state;
	struct trace *t = ring_with(16, RING_ITERS, 1, 2);
	struct analysis *a = analyse(t, NULL);
	uint32_t n = a->n_waits, coll = 0;
	struct analysis_wait *was = a->waits;
	for (uint32_t i = 0; i < n; i++)
		coll += was[i].kind == WAIT_NXN;
	assert_true(n > RING_PART(30000) && coll > RING_PART(10000));
	a->waits = NULL;
	a->n_waits = 0;
	recycle_drain();
	atomic_store(&live, 0);
	atomic_store(&most, 0);
	assert_int_equal(explain_waits(a), 0);
	long long left = atomic_load(&live), held = atomic_load(&most) - left;
	recycle_drain();
	assert_int_equal(a->n_waits, n);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(a->waits[i].lop, was[i].lop);
		assert_int_equal(a->waits[i].cause_lop, was[i].cause_lop);
		assert_int_equal(a->waits[i].kind, was[i].kind);
		assert_int_equal(a->waits[i].time, was[i].time);
	}
	/* what it leaves is the list, 24 bytes a wait */
	assert_true(left <= (long long)(((size_t)n + 1) * sizeof *was) + 64);
	/* held above it: the lists found (24 bytes a wait, and what their
	 * doubling left unused) and two bits a lop: 26.6-29.2 bytes a wait
	 * on 1 to 8 threads, 56.0 before */
	print_message("waits %u (%u of collectives), lops %u: %lld bytes held, %.1f a wait\n", n, coll, a->n_lops,
		      held, (double)held / n);
	assert_true(held < 40LL * n);
	free(was);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The same ring with every time 2^32 ticks a unit: each wait's x and wd
 * then take 33 bits or more (the pass records' list of large ones), and
 * the analysis does not depend on the unit: the same roots, and each
 * delay's cost and direct share the same to a unit (the shares are
 * doubles scaled by a power of 2, exactly; only the rounding to ticks
 * differs). */
static void
large_ticks(void **state)
{
	(void)state;
	struct trace *t1 = ring(8, 500, 1), *t2 = ring(8, 500, UINT64_C(1) << 32);
	struct analysis *a1 = analyse(t1, NULL), *a2 = analyse(t2, NULL);
	assert_true(a1->n_waits > 2000);
	assert_int_equal(a2->n_waits, a1->n_waits);
	for (uint32_t i = 0; i < a1->n_waits; i++) {
		assert_int_equal(a2->waits[i].lop, a1->waits[i].lop);
		assert_int_equal(a2->waits[i].time, a1->waits[i].time << 32);
		assert_int_equal(a2->waits[i].root_lop, a1->waits[i].root_lop);
	}
	/* every delay with a cost of a unit or more in both */
	uint32_t matched = 0;
	for (uint32_t k = 0, j = 0; k < a1->n_delays; k++) {
		const struct analysis_delay *d1 = &a1->delays[k];
		while (j < a2->n_delays && a2->delays[j].lop < d1->lop)
			j++;
		if (d1->cost == 0)
			continue;
		assert_true(j < a2->n_delays && a2->delays[j].lop == d1->lop);
		const struct analysis_delay *d2 = &a2->delays[j];
		double unit = 0x1p32, waits = (double)d2->waits;
		assert_true(fabs((double)d2->cost - (double)d1->cost * unit) <= (waits + 1) * unit);
		assert_true(fabs((double)d2->direct - (double)d1->direct * unit) <= (waits + 1) * unit);
		matched++;
	}
	assert_true(matched > 100);
	analysis_destroy(a1);
	analysis_destroy(a2);
	trace_destroy(t1);
	trace_destroy(t2);
}

/* The critical path's blame (analysis/path/path_blame.c), the same way,
 * per delay: each delay's cost spread over the regions of its operation
 * (a piece of its time, 32 bytes; one a delay on this ring), the pieces'
 * edges in order (8 a piece) and the spans a profile of the timelines
 * weighs (24 a span), with the delays' references (4). It held a piece
 * for every delay, then their edges and room for a span an edge beside
 * them: 114.4-127.2 bytes a delay on 1 to 8 threads. Now one timeline's
 * pieces are held at a time, settled before the next timeline's are
 * made, and the spans have room for one a delay: 35.8-41.6, of which 28
 * are the spans and the references, the rest the largest timeline's
 * pieces and the profile's workers. */
static void
path_blame_bytes(void **state)
{
	(void)state;
	struct trace *t = ring(16, RING_ITERS, 1);
	struct analysis *a = analyse(t, NULL);
	uint32_t nd, nr;
	const struct analysis_delay *d = analysis_delays(a, &nd);
	trace_regions(t, &nr);
	assert_true(nd > RING_PART(10000));
	uint64_t cost = 0;
	for (uint32_t i = 0; i < nd; i++)
		cost += d[i].cost;
	uint64_t *blame = calloc((size_t)nr + 3, sizeof *blame);
	assert_non_null(blame);
	struct path p = { 0 };
	recycle_drain();
	atomic_store(&live, 0);
	atomic_store(&most, 0);
	assert_int_equal(path_blame(a, NULL, &p, blame, nr), 0);
	long long left = atomic_load(&live), held = atomic_load(&most) - left;
	/* every delay's cost given out, to the rounding of a tick an instance
	 * the profile weighs */
	uint64_t given = 0;
	for (uint32_t s = 0; s < nr + 3; s++)
		given += blame[s];
	assert_int_equal(p.blame_total, cost);
	print_message("delays %u, cost %llu, given %llu: %lld bytes held, %.1f a delay\n", nd,
		      (unsigned long long)cost, (unsigned long long)given, held, (double)held / nd);
	assert_true(given + nd >= cost && given <= cost + nd);
	assert_true(left == 0);
	assert_true(held < 48LL * nd);
	free(blame);
	analysis_destroy(a);
	trace_destroy(t);
}

/* What a finished analysis holds, per lop (its arrays, the run's pool
 * given back), on the ring with an Allreduce every other iteration. An
 * MPI trace's op -> lop is an index, 12 bytes a word of 64 ops, where
 * op_lop took 4 bytes an op (a lop here), and the problems are the ones
 * kept, not every candidate (a delay's or an outlier's, 24 bytes each):
 * 39.9 bytes a lop with op_lop, 36.1 with the index and every candidate,
 * 34.5 now, on 1, 2 and 4 threads (doc/performance.md, "The analysis
 * above the model at 10^8"). */
static void
analysis_bytes(void **state)
{
	(void)state;
	struct trace *t = ring_with(16, RING_ITERS, 1, 2);
	analysis_destroy(analyse(t, NULL));      /* the workers' pools started */
	recycle_drain();
	long long before = atomic_load(&live);
	struct analysis *a = analyse(t, NULL);
	recycle_drain();
	long long held = atomic_load(&live) - before;
	uint32_t n_ops, nl = a->n_lops;
	trace_ops(t, &n_ops);
	/* every op in the lop that says it holds it, and no other */
	for (uint32_t op = 0; op < n_ops; op++) {
		uint32_t l = analysis_op_lop(a, op), first, count;
		analysis_lop_ops(a, l, &first, &count);
		assert_true(l < nl && first <= op && op < first + count);
	}
	print_message("lops %u, ops %u, problems %u: %lld bytes held, %.1f a lop\n", nl, n_ops, a->n_problems,
		      held, (double)held / nl);
	assert_true(held < 35LL * nl);
	assert_null(a->op_lop);
	analysis_destroy(a);
	trace_destroy(t);
}

/* The explanations start with nothing pooled: the pages the stages
 * before left in the pool (op_lop's, once it is an index) were resident
 * under the waits' lists, whose peak was the run's at 10^8 events. Here
 * a freed 8 MiB block's pages are pooled before explain_run. */
static void
explain_starts_unpooled(void **state)
{
	(void)state;
	struct trace *t = ring(16, 1000, 1);
	struct analysis *a = analyse(t, NULL);
	free(a->waits);
	free(a->delays);
	free(a->outliers);
	free(a->problems);
	a->waits = NULL;
	a->delays = NULL;
	a->outliers = NULL;
	a->problems = NULL;
	a->n_waits = a->n_delays = a->n_outliers = a->n_problems = 0;
	a->explained = 0;
	size_t big = (size_t)8 << 20;
	char *p = recycle_malloc(big);
	assert_non_null(p);
	memset(p, 1, big);
	recycle_free(p, big);
	if (recycle_pooled() == 0)
		skip();          /* pages that cannot move (recycle.h) */
	atomic_store(&pooled_first, -1);
	atomic_store(&watch_pool, 1);
	assert_int_equal(explain_run(a), 0);
	atomic_store(&watch_pool, 0);
	print_message("pooled at the explanations' first allocation: %lld bytes\n",
		      (long long)atomic_load(&pooled_first));
	assert_true(atomic_load(&pooled_first) == 0);
	assert_true(a->n_waits > 0);
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(transient_bytes),
		cmocka_unit_test(large_ticks),
		cmocka_unit_test(waits_transient_bytes),
		cmocka_unit_test(path_blame_bytes),
		cmocka_unit_test(analysis_bytes),
		cmocka_unit_test(explain_starts_unpooled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
