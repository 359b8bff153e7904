/* test_profile.c — the profile and the communication summary on
 * synthetic streams whose answer is known exactly: nesting, calls made
 * inside calls, quiet calls, regions closed out of order or left open,
 * measurement switched off, windows, rank sets, a call split where it
 * held two collectives, message pairs; spans against a sweep of every
 * record; records entered on one tick. */
#include "testutil.h"

#include <string.h>

#include "analysis/profile/profile.h"
#include "base/par.h"
#include "model/build.h"
#include "model/trace_impl.h"
#include "projections/projections_read.h"

/* The pairs comm_compute sorts (linked with -Wl,--wrap=qsort): the
 * elements of every qsort of struct comm_pair while `counting`. */
static int counting;
static size_t pairs_sorted;
void __real_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void
__wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (counting && size == sizeof(struct comm_pair))
		pairs_sorted += n;
	__real_qsort(base, n, size, cmp);
}

enum { R_MAIN, R_WORK, R_SEND, R_RECV, R_TEST, R_RANK, R_ALLREDUCE, R_INIT, R_COUNT };

struct fx {
	struct trace *t;
	struct build *b;
	uint32_t reg[R_COUNT];
};

static int
setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	f->t = trace_new();
	f->t->info.ticks_per_second = 1000;
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "main", ROLE_USER }, { "work", ROLE_USER }, { "MPI_Send", ROLE_SEND },
		{ "MPI_Recv", ROLE_RECV }, { "MPI_Test", ROLE_WAIT }, { "MPI_Comm_rank", ROLE_MPI_OTHER },
		{ "MPI_Allreduce", ROLE_COLLECTIVE }, { "MPI_Init", ROLE_MPI_OTHER },
	};
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(f->t, regions[i].name, regions[i].role, 4, &f->reg[i]), 0);
	uint32_t world[3] = { 0, 1, 2 }, id;
	assert_int_equal(trace_add_comm(f->t, 0, world, 3, 0, &id), 0);
	assert_int_equal(trace_set_timelines(f->t, 3), 0);
	f->b = build_create(f->t);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fx *f = *state;
	build_destroy(f->b);
	trace_destroy(f->t);
	free(f);
	return 0;
}

#define TL(r) assert_int_equal(build_timeline_begin(f->b, (r)), 0)
#define END() assert_int_equal(build_timeline_end(f->b), 0)
#define ENTER(t, r) assert_int_equal(build_enter(f->b, (t), f->reg[r]), 0)
#define LEAVE(t, r) assert_int_equal(build_leave(f->b, (t), f->reg[r]), 0)
#define SEND(t, peer, bytes) assert_int_equal(build_send(f->b, (t), (peer), 0, 0, (bytes), UINT64_MAX), 0)
#define RECV(t, peer, bytes) assert_int_equal(build_recv(f->b, (t), (peer), 0, 0, (bytes), UINT64_MAX), 0)
#define FINISH() assert_int_equal(build_finish(f->b, NULL, NULL), 0)

static const struct profile_region *
region(const struct profile *p, struct fx *f, int r)
{
	for (uint32_t i = 0; i < p->n_regions; i++)
		if (p->regions[i].region == f->reg[r])
			return &p->regions[i];
	return NULL;
}

static const struct profile_row *
row(const struct profile *p, struct fx *f, uint32_t rank, int r)
{
	for (uint32_t i = 0; i < p->n_rows; i++)
		if (p->rows[i].rank == rank && p->rows[i].region == f->reg[r])
			return &p->rows[i];
	return NULL;
}

/* Rank 0: main [0, 100) holding MPI_Init [0, 10) with MPI_Comm_rank
 * inside it [2, 3), work [20, 60) holding MPI_Send [30, 40) (a message of
 * 8 bytes to rank 1) and two MPI_Test [42, 43), [44, 45); measurement off
 * [50, 55). Rank 1: main [0, 100), MPI_Recv [35, 70) of that message,
 * work entered at 75 and closed by main's leave. Rank 2: main [0, 80) with work
 * [10, 30) closed by main's leave at 20, out of order (work [10, 20)). */
static void
stream(struct fx *f)
{
	TL(0);
	ENTER(0, R_MAIN);
	ENTER(0, R_INIT);
	ENTER(2, R_RANK);
	LEAVE(3, R_RANK);
	LEAVE(10, R_INIT);
	ENTER(20, R_WORK);
	ENTER(30, R_SEND);
	SEND(31, 1, 8);
	LEAVE(40, R_SEND);
	ENTER(42, R_TEST);
	LEAVE(43, R_TEST);
	ENTER(44, R_TEST);
	LEAVE(45, R_TEST);
	assert_int_equal(build_measurement(f->b, 50, 0), 0);
	assert_int_equal(build_measurement(f->b, 55, 1), 0);
	LEAVE(60, R_WORK);
	LEAVE(100, R_MAIN);
	END();
	TL(1);
	ENTER(0, R_MAIN);
	ENTER(35, R_RECV);
	RECV(69, 0, 8);
	LEAVE(70, R_RECV);
	ENTER(75, R_WORK);
	LEAVE(100, R_MAIN);     /* closes work out of order */
	END();
	TL(2);
	ENTER(0, R_MAIN);
	ENTER(10, R_WORK);
	LEAVE(20, R_MAIN);      /* work closed out of order at 20 */
	ENTER(20, R_MAIN);
	LEAVE(80, R_MAIN);
	END();
	FINISH();
}

static void
whole(void **state)
{
	struct fx *f = *state;
	stream(f);
	uint32_t nc;
	const struct trace_call *c = trace_calls(f->t, &nc);
	/* rank 0: MPI_Init, MPI_Comm_rank (inside it), two MPI_Test, the gap */
	assert_int_equal(nc, 5);
	assert_int_equal(trace_call_kind(&c[0]), CALL_MPI);
	assert_int_equal(trace_call_region(&c[0]), f->reg[R_INIT]);
	assert_int_equal(trace_call_kind(&c[1]), CALL_INNER);
	assert_int_equal(trace_call_kind(&c[4]), CALL_GAP);
	assert_int_equal(trace_call_region(&c[4]), TRACE_NONE);
	struct profile p;
	struct err e = { 0 };
	assert_int_equal(profile_compute(f->t, NULL, &p, &e), 0);
	const struct profile_region *main_ = region(&p, f, R_MAIN), *work = region(&p, f, R_WORK);
	const struct profile_region *init = region(&p, f, R_INIT), *rank = region(&p, f, R_RANK);
	const struct profile_region *test = region(&p, f, R_TEST), *send = region(&p, f, R_SEND);
	assert_non_null(main_);
	/* main: rank 0 100 less the gap's 5 = 95; rank 1 100; rank 2 20 + 60 */
	assert_int_equal(main_->calls, 4);
	assert_int_equal(main_->incl, 95 + 100 + 80);
	/* exclusive: rank 0 95 - 10 (init) - 35 (work less gap) = 50; rank 1
	 * 100 - 35 - 25 = 40; rank 2 80 - 10 = 70 */
	assert_int_equal(main_->excl, 50 + 40 + 70);
	assert_int_equal(main_->max_rank, 2);
	assert_int_equal(main_->excl_max, 70);
	assert_int_equal(main_->excl_min, 40);
	assert_int_equal(work->calls, 3);
	assert_int_equal(work->incl, 35 + 25 + 10);
	assert_int_equal(work->excl, (35 - 10 - 2) + 25 + 10);
	assert_int_equal(work->ranks, 3);
	assert_int_equal(init->calls, 1);
	assert_int_equal(init->incl, 10);
	assert_int_equal(init->excl, 9);
	assert_int_equal(rank->calls, 1);
	assert_int_equal(rank->incl, 1);
	assert_int_equal(test->calls, 2);
	assert_int_equal(test->incl, 2);
	assert_int_equal(send->calls, 1);
	assert_int_equal(send->incl, 10);
	assert_int_equal(region(&p, f, R_RECV)->max_rank, 1);
	/* the mean and imbalance over the three ranks */
	assert_true(init->excl_mean > 2.99 && init->excl_mean < 3.01);
	assert_true(profile_imbalance(init) > 2.99 && profile_imbalance(init) < 3.01);
	assert_int_equal(p.n_ranks, 3);
	assert_int_equal(p.misnested, 2);
	profile_free(&p);
}

static void
windows(void **state)
{
	struct fx *f = *state;
	stream(f);
	struct profile_scope s;
	profile_scope_all(&s);
	s.from = 41;
	s.to = 56;
	struct profile p;
	struct err e = { 0 };
	assert_int_equal(profile_compute(f->t, &s, &p, &e), 0);
	/* rank 0 in [41, 56): work 15 less the gap 5 = 10, two tests; rank 1
	 * the receive 15; main each rank 15 (rank 0: less the gap) */
	assert_int_equal(region(&p, f, R_WORK)->incl, 10);
	assert_int_equal(region(&p, f, R_WORK)->excl, 8);
	assert_int_equal(region(&p, f, R_TEST)->calls, 2);
	assert_int_equal(region(&p, f, R_RECV)->incl, 15);
	assert_int_equal(region(&p, f, R_MAIN)->incl, 10 + 15 + 15);
	assert_int_equal(region(&p, f, R_MAIN)->excl, 0 + 0 + 15);
	assert_null(region(&p, f, R_SEND));
	assert_null(region(&p, f, R_INIT));
	profile_free(&p);
	/* a window that starts inside MPI_Init finds it and the call inside */
	s.from = 2;
	s.to = 4;
	assert_int_equal(profile_compute(f->t, &s, &p, &e), 0);
	assert_int_equal(region(&p, f, R_INIT)->incl, 2);
	assert_int_equal(region(&p, f, R_INIT)->excl, 1);
	assert_int_equal(region(&p, f, R_RANK)->incl, 1);
	profile_free(&p);
	/* two windows that meet add up to the whole */
	struct profile a, b, all;
	s.from = 0, s.to = 43;
	assert_int_equal(profile_compute(f->t, &s, &a, &e), 0);
	s.from = 43, s.to = UINT64_MAX;
	assert_int_equal(profile_compute(f->t, &s, &b, &e), 0);
	assert_int_equal(profile_compute(f->t, NULL, &all, &e), 0);
	for (uint32_t i = 0; i < all.n_regions; i++) {
		uint64_t sum = 0, xs = 0;
		for (uint32_t k = 0; k < a.n_regions; k++)
			if (a.regions[k].region == all.regions[i].region)
				sum += a.regions[k].incl, xs += a.regions[k].excl;
		for (uint32_t k = 0; k < b.n_regions; k++)
			if (b.regions[k].region == all.regions[i].region)
				sum += b.regions[k].incl, xs += b.regions[k].excl;
		assert_int_equal(sum, all.regions[i].incl);
		assert_int_equal(xs, all.regions[i].excl);
	}
	profile_free(&a);
	profile_free(&b);
	profile_free(&all);
}

static void
ranks(void **state)
{
	struct fx *f = *state;
	stream(f);
	uint8_t kept[3];
	struct err e = { 0 };
	assert_int_equal(profile_parse_ranks(f->t, "0,2", kept, &e), 0);
	assert_true(kept[0] && !kept[1] && kept[2]);
	assert_int_equal(profile_parse_ranks(f->t, "1-2", kept, &e), 0);
	assert_true(!kept[0] && kept[1] && kept[2]);
	assert_int_equal(profile_parse_ranks(f->t, "3", kept, &e), ERR_USAGE);
	assert_int_equal(profile_parse_ranks(f->t, "2-1", kept, &e), ERR_USAGE);
	assert_int_equal(profile_parse_ranks(f->t, "x", kept, &e), ERR_USAGE);
	uint64_t ticks;
	assert_int_equal(profile_parse_time(f->t, "20ms", &ticks, &e), 0);
	assert_int_equal(ticks, 20);
	assert_int_equal(profile_parse_time(f->t, "0.5", &ticks, &e), 0);
	assert_int_equal(ticks, 500);
	assert_int_equal(profile_parse_time(f->t, "1 h", &ticks, &e), ERR_USAGE);
	struct profile_scope s;
	profile_scope_all(&s);
	assert_int_equal(profile_parse_ranks(f->t, "1", kept, &e), 0);
	s.ranks = kept;
	struct profile p;
	assert_int_equal(profile_compute(f->t, &s, &p, &e), 0);
	assert_int_equal(p.n_ranks, 1);
	assert_null(region(&p, f, R_SEND));
	assert_int_equal(region(&p, f, R_MAIN)->incl, 100);
	assert_non_null(row(&p, f, 1, R_WORK));
	assert_null(row(&p, f, 0, R_WORK));
	profile_free(&p);
	/* the message 0 -> 1 is kept only with both ranks */
	struct comm c;
	assert_int_equal(comm_compute(f->t, &s, &c, &e), 0);
	assert_int_equal(c.n_pairs, 0);
	comm_free(&c);
	assert_int_equal(comm_compute(f->t, NULL, &c, &e), 0);
	assert_int_equal(c.n_pairs, 1);
	assert_int_equal(c.pairs[0].sender, 0);
	assert_int_equal(c.pairs[0].receiver, 1);
	assert_int_equal(c.pairs[0].messages, 1);
	assert_int_equal(c.pairs[0].bytes, 8);
	assert_int_equal(c.pairs[0].transfer, 69 - 31);
	assert_int_equal(c.size_bins[4], 1);        /* [8, 16) */
	comm_free(&c);
}

/* A call that held two collectives is two ops, but one call. */
static void
split_call(void **state)
{
	struct fx *f = *state;
	for (uint32_t r = 0; r < 3; r++) {
		TL(r);
		ENTER(0, R_ALLREDUCE);
		assert_int_equal(build_coll_begin(f->b, 1), 0);
		assert_int_equal(build_coll_end(f->b, 2, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
		assert_int_equal(build_coll_begin(f->b, 3), 0);
		assert_int_equal(build_coll_end(f->b, 4, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8), 0);
		LEAVE(5, R_ALLREDUCE);
		END();
	}
	FINISH();
	uint32_t n;
	trace_ops(f->t, &n);
	assert_int_equal(n, 12);          /* two calls a rank, each with its computation */
	struct profile p;
	struct err e = { 0 };
	assert_int_equal(profile_compute(f->t, NULL, &p, &e), 0);
	assert_int_equal(region(&p, f, R_ALLREDUCE)->calls, 3);
	assert_int_equal(region(&p, f, R_ALLREDUCE)->incl, 15);
	profile_free(&p);
	struct comm c;
	assert_int_equal(comm_compute(f->t, NULL, &c, &e), 0);
	assert_int_equal(c.colls[COLL_ALLREDUCE].count, 2);
	assert_int_equal(c.colls[COLL_ALLREDUCE].time, 15);
	comm_free(&c);
}

/* A random stream on each rank: user regions nested up to four deep;
 * quiet calls, some made on one tick (a short one, then a long one:
 * they lie longest first, a call inside the long one); collectives, a call holding up to three (it
 * is cut into as many ops) with a user region and a quiet call inside
 * it; measurement off now and then (with gaps); up to 8,000 records a
 * rank. */
static uint64_t
random_stream(struct fx *f, unsigned seed, int gaps)
{
	srand(seed);
	uint64_t end = 0;
	for (uint32_t r = 0; r < 3; r++) {
		TL(r);
		uint64_t t = (uint64_t)(rand() % 5);
		int stack[8], depth = 0;
		for (int i = 0; i < 4000; i++) {
			int what = rand() % 12;
			t += 1 + (uint64_t)(rand() % 7);
			if (what < 3 && depth < 4) {
				stack[depth] = depth % 2 ? R_WORK : R_MAIN;
				ENTER(t, stack[depth]);
				depth++;
			} else if (what < 6 && depth) {
				depth--;
				LEAVE(t, stack[depth]);
			} else if (what < 8) {
				ENTER(t, R_RANK);
				LEAVE(t + 1 + (uint64_t)(rand() % 3), R_RANK);
				t += 4;
			} else if (what < 9) {
				ENTER(t, R_RANK);          /* two on one tick */
				LEAVE(t, R_RANK);
				ENTER(t, R_RANK);
				ENTER(t + 1, R_INIT);      /* a call inside a call: sorted */
				LEAVE(t + 2, R_INIT);
				LEAVE(t + 3 + (uint64_t)(rand() % 30), R_RANK);
				t += 34;
			} else if (what < 11) {
				int n = 1 + rand() % 3, inside = rand() % 2;
				ENTER(t, R_ALLREDUCE);
				if (inside) {
					ENTER(t + 1, R_WORK);      /* open across the pieces */
					ENTER(t + 3, R_INIT);
					LEAVE(t + 4, R_INIT);
				}
				t += 5;
				for (int k = 0; k < n; k++, t += 3 + (uint64_t)(rand() % 9)) {
					assert_int_equal(build_coll_begin(f->b, t + 1), 0);
					assert_int_equal(build_coll_end(f->b, t + 2, COLL_ALLREDUCE, 0, UINT32_MAX, 8,
									8), 0);
				}
				if (inside)
					LEAVE(t - 1, R_WORK);
				LEAVE(t, R_ALLREDUCE);
			} else if (gaps && i % 50 == 11) {
				assert_int_equal(build_measurement(f->b, t, 0), 0);
				assert_int_equal(build_measurement(f->b, t + 5, 1), 0);
				t += 6;
			}
		}
		while (depth)
			LEAVE(++t, stack[--depth]);
		END();
		end = t > end ? t : end;
	}
	FINISH();
	return end;
}

/* Each region's inclusive and exclusive time in a profile, added to
 * incl and excl with the sign sign (modulo 2^64). */
static void
add_regions(const struct profile *p, struct fx *f, uint64_t sign, uint64_t *incl, uint64_t *excl)
{
	for (int r = 0; r < R_COUNT; r++) {
		const struct profile_region *x = region(p, f, r);
		incl[r] += sign * (x ? x->incl : 0);
		excl[r] += sign * (x ? x->excl : 0);
	}
}

/* Profiles over spans (the critical path's: the sweep moves from one
 * span to the next past what lies between) against a sweep of every
 * record: each span [lo, hi) as the window from 0 to hi less the window
 * from 0 to lo (a window from 0 reads every record from the first),
 * region by region; sparse spans or dense, and spans weighted by 1
 * likewise where measurement never stops (weighted spans do not leave
 * out the time measurement was off: the delays' blame). */
/* Under TSan each profile is some ten times slower: the spans are
 * taken 96 at most where 256 (each compared against two window
 * profiles, every one on the workers): each shape's sweep still moves
 * over many spans, sparse and dense, weighted or not, on the workers
 * (a gcov count: the same lines of profile.c as 256; 48 missed the
 * measurement gaps joined in add_gap). */
#ifndef SPANS_TAKEN
#if defined(__SANITIZE_THREAD__)
#define SPANS_TAKEN 96u
#else
#define SPANS_TAKEN 256u
#endif
#endif

static void
check_spans(struct fx *f, int gaps)
{
	uint64_t end = random_stream(f, 11, gaps);
	enum { MAX_SPANS = 256 };
	for (int shape = 0; shape < 3; shape++) {
		uint64_t lo[MAX_SPANS], hi[MAX_SPANS];
		double w[3 * MAX_SPANS];
		uint32_t n = 0, first[4];
		for (uint64_t t = 1 + (uint64_t)(rand() % 50); t < end && n < MAX_SPANS && n < SPANS_TAKEN;) {
			uint64_t len = shape == 0 ? 1 + (uint64_t)(rand() % 20) : 10 + (uint64_t)(rand() % 200);
			if (shape == 0)
				t += (uint64_t)(rand() % 2);
			lo[n] = t;
			hi[n] = t + len < end ? t + len : end;
			t = hi[n] + 1 + (uint64_t)(rand() % (shape == 2 ? 3 : rand() % 2 ? 20 : 600));
			n++;
		}
		/* the same spans on every rank */
		uint64_t all_lo[3 * MAX_SPANS], all_hi[3 * MAX_SPANS];
		for (uint32_t r = 0; r < 3; r++) {
			first[r] = r * n;
			for (uint32_t k = 0; k < n; k++) {
				all_lo[r * n + k] = lo[k];
				all_hi[r * n + k] = hi[k];
				w[r * n + k] = 1.0;
			}
		}
		first[3] = 3 * n;
		uint64_t incl[R_COUNT] = { 0 }, excl[R_COUNT] = { 0 };
		struct profile_scope s;
		struct err e = { 0 };
		for (uint32_t k = 0; k < n; k++) {
			struct profile q;
			for (int side = 0; side < 2; side++) {
				profile_scope_all(&s);
				s.from = 0;
				s.to = side ? hi[k] : lo[k];
				assert_int_equal(profile_compute(f->t, &s, &q, &e), 0);
				add_regions(&q, f, side ? 1 : UINT64_MAX, incl, excl);
				profile_free(&q);
			}
		}
		for (int weighted = 0; weighted < 2 - gaps; weighted++) {
			profile_scope_all(&s);
			s.span_first = first;
			s.span_lo = all_lo;
			s.span_hi = all_hi;
			s.span_w = weighted ? w : NULL;
			struct profile p;
			assert_int_equal(profile_compute(f->t, &s, &p, &e), 0);
			uint64_t any = 0;
			for (int r = 0; r < R_COUNT; r++) {
				const struct profile_region *x = region(&p, f, r);
				assert_true((x ? x->incl : 0) == incl[r]);
				assert_true((x ? x->excl : 0) == excl[r]);
				any += incl[r];
			}
			assert_true(any > 0);
			profile_free(&p);
		}
	}
}

static void
spans_as_windows(void **state)
{
	check_spans(*state, 1);
}

static void
weighted_spans_as_windows(void **state)
{
	check_spans(*state, 0);
}

/* On one tick a region that takes no time, then one holding an MPI call
 * entered on that tick: the call is the second one's child whichever
 * stream's head came first (the frames' head was the first region and
 * the call went ahead of the region enclosing it). */
static void
one_tick(void **state)
{
	struct fx *f = *state;
	uint32_t tiny;
	assert_int_equal(trace_add_region(f->t, "tiny", ROLE_USER, 4, &tiny), 0);
	TL(0);
	ENTER(0, R_MAIN);
	assert_int_equal(build_enter(f->b, 50, tiny), 0);
	assert_int_equal(build_leave(f->b, 50, tiny), 0);
	ENTER(50, R_WORK);
	ENTER(50, R_SEND);
	SEND(60, 1, 8);
	LEAVE(250, R_SEND);
	LEAVE(300, R_WORK);
	LEAVE(1000, R_MAIN);
	END();
	TL(1);
	ENTER(0, R_MAIN);
	ENTER(100, R_RECV);
	RECV(200, 0, 8);
	LEAVE(300, R_RECV);
	LEAVE(1000, R_MAIN);
	END();
	TL(2);
	END();
	FINISH();
	struct profile p;
	struct err e = { 0 };
	assert_int_equal(profile_compute(f->t, NULL, &p, &e), 0);
	const struct profile_row *w = row(&p, f, 0, R_WORK), *m = row(&p, f, 0, R_MAIN);
	assert_non_null(w);
	assert_non_null(m);
	assert_int_equal(w->incl, 250);
	assert_int_equal(w->excl, 50);
	assert_int_equal(m->excl, 750);
	assert_int_equal(row(&p, f, 0, R_SEND)->incl, 200);
	profile_free(&p);
}

/* A Charm++ run's messages come in creation order, their senders
 * changing at almost every one: each pair is summed once per worker
 * (the sort sees at most a worker's count of each), and the matrix is
 * what a count over the messages gives. */
static void
charm_pairs_once(void **state)
{
	(void)state;
	struct trace *t = tu_load_charm("projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts");
	if (!t)
		skip();
	uint32_t nm, n_tl;
	const struct trace_msg *m = trace_msgs(t, &nm);
	trace_timelines(t, &n_tl);
	uint64_t *cnt = calloc((size_t)n_tl * n_tl, sizeof *cnt), *bytes = calloc((size_t)n_tl * n_tl, sizeof *bytes);
	uint32_t changes = 0, prev = TRACE_NONE;
	for (uint32_t i = 0; i < nm; i++) {
		if (m[i].sender >= n_tl || m[i].receiver >= n_tl)
			continue;
		changes += m[i].sender != prev;
		prev = m[i].sender;
		cnt[(size_t)m[i].sender * n_tl + m[i].receiver]++;
		bytes[(size_t)m[i].sender * n_tl + m[i].receiver] += m[i].bytes;
	}
	uint32_t cells = 0;
	for (size_t k = 0; k < (size_t)n_tl * n_tl; k++)
		cells += cnt[k] != 0;
	print_message("%u messages, %u runs of one sender, %u pairs\n", nm, changes, cells);
	assert_true(changes > cells);               /* the order this is about */
	struct comm c;
	struct err e = { 0 };
	counting = 1;
	pairs_sorted = 0;
	assert_int_equal(comm_compute(t, NULL, &c, &e), 0);
	counting = 0;
	assert_int_equal(c.n_pairs, cells);
	assert_true(pairs_sorted <= (size_t)par_workers() * cells);
	for (uint32_t i = 0; i < c.n_pairs; i++) {
		size_t k = (size_t)c.pairs[i].sender * n_tl + c.pairs[i].receiver;
		assert_true(i == 0 || k > (size_t)c.pairs[i - 1].sender * n_tl + c.pairs[i - 1].receiver);
		assert_int_equal(c.pairs[i].messages, cnt[k]);
		assert_int_equal(c.pairs[i].bytes, bytes[k]);
	}
	comm_free(&c);
	free(cnt);
	free(bytes);
	trace_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(whole, setup, teardown),
		cmocka_unit_test_setup_teardown(windows, setup, teardown),
		cmocka_unit_test_setup_teardown(ranks, setup, teardown),
		cmocka_unit_test_setup_teardown(split_call, setup, teardown),
		cmocka_unit_test_setup_teardown(spans_as_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(weighted_spans_as_windows, setup, teardown),
		cmocka_unit_test_setup_teardown(one_tick, setup, teardown),
		cmocka_unit_test(charm_pairs_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
