/* test_random.c — property tests on random event streams.
 *
 * Each case simulates a random MPI program on 1-9 ranks with one global
 * clock, so the streams are causally consistent: blocking and
 * non-blocking point-to-point messages (Isend/Irecv completed by a
 * Waitall), Sendrecv exchanges, collectives on all ranks, user regions.
 * Half of the cases then damage the stream (records dropped, peers out of
 * range, leaves out of order) the way cut or buggy traces are damaged.
 * Every case is analysed under several option sets; whatever the input,
 * nothing may crash (the suite also runs under ASan/UBSan and TSan), every
 * op gets a step, steps strictly increase along each rank, and on
 * undamaged streams the verifier must pass with no ordering broken. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"
#include "model/build.h"
#include "model/trace_impl.h"

enum { R_USER, R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAITALL, R_SENDRECV, R_ALLREDUCE, R_COUNT };
#define MAXR 9
#define MAXEV 4096
/* Under TSan every case is some ten times slower: races show in fewer */
#if defined(__SANITIZE_THREAD__)
#define CASES 120u
#else
#define CASES 400u
#endif

struct ev {              /* one event of one rank's stream */
	uint64_t time;
	uint8_t kind;
	uint32_t a, b;       /* region, or peer and tag */
	uint64_t req;
};
enum { E_ENTER, E_LEAVE, E_SEND, E_ISEND, E_ISEND_DONE, E_IRECV_POST, E_RECV, E_IRECV_DONE,
       E_COLL };

struct prog {
	struct ev ev[MAXR][MAXEV];
	uint32_t n[MAXR];
	uint64_t clock;
	uint64_t seed;
	uint64_t req[MAXR];
};

static uint32_t
rnd(struct prog *p, uint32_t n)
{
	p->seed = p->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)((p->seed >> 33) % n);
}

static void
put(struct prog *p, uint32_t r, uint8_t kind, uint32_t a, uint32_t b, uint64_t req)
{
	if (p->n[r] < MAXEV)
		p->ev[r][p->n[r]++] = (struct ev){ .time = ++p->clock, .kind = kind, .a = a, .b = b, .req = req };
}

static void
call_begin(struct prog *p, uint32_t r, uint32_t region) { put(p, r, E_ENTER, region, 0, 0); }
static void
call_end(struct prog *p, uint32_t r, uint32_t region) { put(p, r, E_LEAVE, region, 0, 0); }

/* A random program: `steps` global actions. */
static void
generate(struct prog *p, uint32_t ranks, uint32_t steps)
{
	memset(p->n, 0, sizeof p->n);
	memset(p->req, 0, sizeof p->req);
	p->clock = 0;
	for (uint32_t r = 0; r < ranks; r++)
		call_begin(p, r, R_USER);
	for (uint32_t i = 0; i < steps; i++) {
		uint32_t s = rnd(p, ranks), d = rnd(p, ranks), tag = rnd(p, 3);
		switch (rnd(p, 6)) {
		case 0:        /* blocking send, blocking receive later */
			call_begin(p, s, R_SEND); put(p, s, E_SEND, d, tag, 0); call_end(p, s, R_SEND);
			call_begin(p, d, R_RECV); put(p, d, E_RECV, s, tag, 0); call_end(p, d, R_RECV);
			break;
		case 1: {      /* Irecv posted, Isend, both completed by Waitalls */
			uint64_t rq = ++p->req[d], sq = ++p->req[s];
			call_begin(p, d, R_IRECV); put(p, d, E_IRECV_POST, 0, 0, rq); call_end(p, d, R_IRECV);
			call_begin(p, s, R_ISEND); put(p, s, E_ISEND, d, tag, sq); call_end(p, s, R_ISEND);
			call_begin(p, s, R_WAITALL); put(p, s, E_ISEND_DONE, 0, 0, sq); call_end(p, s, R_WAITALL);
			call_begin(p, d, R_WAITALL); put(p, d, E_IRECV_DONE, s, tag, rq); call_end(p, d, R_WAITALL);
			break;
		}
		case 2:        /* a Sendrecv exchange between two ranks */
			if (s == d)
				break;
			call_begin(p, s, R_SENDRECV); call_begin(p, d, R_SENDRECV);
			put(p, s, E_SEND, d, 7, 0); put(p, d, E_SEND, s, 7, 0);
			put(p, s, E_RECV, d, 7, 0); put(p, d, E_RECV, s, 7, 0);
			call_end(p, s, R_SENDRECV); call_end(p, d, R_SENDRECV);
			break;
		case 3:        /* a collective on every rank */
			for (uint32_t r = 0; r < ranks; r++)
				call_begin(p, r, R_ALLREDUCE);
			for (uint32_t r = 0; r < ranks; r++)
				put(p, r, E_COLL, 0, 0, 0);
			for (uint32_t r = 0; r < ranks; r++)
				call_end(p, r, R_ALLREDUCE);
			break;
		default:       /* computation in a user region */
			call_begin(p, s, R_USER);
			p->clock += rnd(p, 100);
			call_end(p, s, R_USER);
		}
	}
	for (uint32_t r = 0; r < ranks; r++)
		call_end(p, r, R_USER);
}

/* Damages a stream as cut or buggy traces are damaged. */
static void
damage(struct prog *p, uint32_t ranks)
{
	for (uint32_t k = 0; k < 6; k++) {
		uint32_t r = rnd(p, ranks);
		if (!p->n[r])
			continue;
		uint32_t i = rnd(p, p->n[r]);
		switch (rnd(p, 4)) {
		case 0:        /* drop a record */
			memmove(&p->ev[r][i], &p->ev[r][i + 1], (p->n[r] - i - 1) * sizeof p->ev[r][0]);
			p->n[r]--;
			break;
		case 1:        /* a peer out of range */
			p->ev[r][i].a += 100;
			break;
		case 2:        /* cut the stream short */
			p->n[r] = i;
			break;
		default:       /* time going backwards */
			p->ev[r][i].time = p->ev[r][i].time > 50 ? p->ev[r][i].time - 50 : 0;
		}
	}
}

static struct trace *
build_trace(struct prog *p, uint32_t ranks)
{
	struct trace *t = trace_new();
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "work", ROLE_USER }, { "MPI_Send", ROLE_SEND }, { "MPI_Recv", ROLE_RECV },
		{ "MPI_Isend", ROLE_SEND }, { "MPI_Irecv", ROLE_RECV }, { "MPI_Waitall", ROLE_WAIT },
		{ "MPI_Sendrecv", ROLE_SENDRECV }, { "MPI_Allreduce", ROLE_COLLECTIVE },
	};
	uint32_t id, world[MAXR];
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(t, regions[i].name, regions[i].role, 4, &id), 0);
	for (uint32_t i = 0; i < ranks; i++)
		world[i] = i;
	assert_int_equal(trace_add_comm(t, 0, world, ranks, 0, &id), 0);
	assert_int_equal(trace_set_timelines(t, ranks), 0);
	struct build *b = build_create(t);
	for (uint32_t r = 0; r < ranks; r++) {
		assert_int_equal(build_timeline_begin(b, r), 0);
		for (uint32_t i = 0; i < p->n[r]; i++) {
			const struct ev *e = &p->ev[r][i];
			int rc = 0;
			switch (e->kind) {
			case E_ENTER: rc = build_enter(b, e->time, e->a); break;
			case E_LEAVE: rc = build_leave(b, e->time, e->a); break;
			case E_SEND: rc = build_send(b, e->time, e->a, 0, e->b, 8, UINT64_MAX); break;
			case E_ISEND: rc = build_send(b, e->time, e->a, 0, e->b, 8, e->req); break;
			case E_ISEND_DONE: rc = build_isend_complete(b, e->time, e->req); break;
			case E_IRECV_POST: rc = build_irecv_request(b, e->time, e->req); break;
			case E_RECV: rc = build_recv(b, e->time, e->a, 0, e->b, 8, UINT64_MAX); break;
			case E_IRECV_DONE: rc = build_recv(b, e->time, e->a, 0, e->b, 8, e->req); break;
			case E_COLL:
				rc = build_coll_begin(b, e->time);
				if (!rc)
					rc = build_coll_end(b, e->time, COLL_ALLREDUCE, 0, UINT32_MAX, 8, 8);
				break;
			}
			assert_int_equal(rc, 0);
		}
		assert_int_equal(build_timeline_end(b), 0);
	}
	assert_int_equal(build_finish(b, NULL, NULL), 0);
	build_destroy(b);
	return t;
}

static void
check_invariants(const struct analysis *a, int clean)
{
	const struct trace *t = analysis_trace(a);
	uint32_t n_tl;
	trace_timelines(t, &n_tl);
	for (uint32_t r = 0; r < n_tl; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		for (uint32_t l = first; l < first + count; l++) {
			assert_int_not_equal(analysis_lop_step(a, l), TRACE_NONE);
			assert_true(analysis_lop_step(a, l) < analysis_step_count(a));
			if (l > first)
				assert_true(analysis_lop_step(a, l - 1) < analysis_lop_step(a, l));
		}
	}
	if (clean) {
		const struct analysis_verify *v = analysis_verify(a);
		if (!analysis_verified(a) || v->relaxed)
			print_error("verifier failed on a causally consistent stream: message order %llu, "
				    "timeline %llu, collective split %llu, overlap %llu, cross %llu, relaxed %llu\n",
				    (unsigned long long)v->message_order, (unsigned long long)v->timeline_order,
				    (unsigned long long)v->collective_split, (unsigned long long)v->partition_overlap,
				    (unsigned long long)v->cross_partition, (unsigned long long)v->relaxed);
		assert_true(analysis_verified(a));
		assert_int_equal(analysis_verify(a)->relaxed, 0);
	}
}

static void
random_streams(void **state)
{
	(void)state;
	static struct prog p;
	for (uint32_t c = 0; c < CASES; c++) {
		p.seed = 0x5eed0000u + c;
		uint32_t ranks = 1 + rnd(&p, MAXR);
		generate(&p, ranks, 10 + rnd(&p, 120));
		int clean = c % 2 == 0;
		if (!clean)
			damage(&p, ranks);
		struct trace *t = build_trace(&p, ranks);
		for (int combo = 0; combo < 6; combo++) {
			struct analysis_opts o;
			analysis_opts_default(&o);
			o.coalesce_isends = combo != 1;
			o.waitall_merge = combo != 2;
			o.leap_merge = combo == 3 || combo == 5;
			o.leap_force = combo == 5;
			o.global_step_merge = combo == 4;
			o.clusters = combo == 4 ? 3 : 0;
			struct analysis *a = NULL;
			struct err e = { 0 };
			assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
			if (clean && (!analysis_verified(a) || analysis_verify(a)->relaxed))
				print_error("case %u (seed %#x, %u ranks), option set %d\n", c,
					    0x5eed0000u + c, ranks, combo);
			check_invariants(a, clean);
			analysis_destroy(a);
		}
		trace_destroy(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_streams),
	};
	return cmocka_run_group_tests_name("random event streams", tests, NULL, NULL);
}
