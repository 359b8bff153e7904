/* test_dist_random.c — the distributed match (dmodel_finish) on random
 * event streams, where the real traces have none of what makes matching
 * subtle: sends without a receive, receives without a send (on channels
 * with sends and without), byte counts that differ, Isends completed or
 * not, collectives on several communicators (a sub-communicator, a self
 * communicator) with timelines calling them unequally often, so that
 * some are incomplete, peers out of range, timelines never begun. Each case builds every
 * timeline's stream once in one model (build_finish) and once cut over
 * 1 to 7 ranks at random (ranks without timelines included), each rank
 * building its own timelines alone; every rank's shard must be
 * dmodel_slice's of the one model, warnings included (the definitions'
 * warning counted once, not once per rank). */
#include "testutil.h"

#include <string.h>

#include "base/dcomm.h"
#include "model/build.h"
#include "model/dmodel.h"
#include "model/trace_impl.h"

enum { R_USER, R_SEND, R_RECV, R_ISEND, R_WAIT, R_COLL, R_COUNT };
enum { C_WORLD, C_SUB, C_SELF, C_COUNT };
#define MAX_TL 12
#define MAX_RANKS 7

static uint64_t
rnd(uint64_t *s, uint32_t n)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (*s >> 33) % n;
}

/* The definitions, the same in every rank's trace: n timelines, the
 * world, the even timelines, a self communicator. */
static struct trace *
defined(uint32_t n)
{
	static const struct { const char *name; uint8_t role; } regions[R_COUNT] = {
		{ "work", ROLE_USER }, { "MPI_Send", ROLE_SEND }, { "MPI_Recv", ROLE_RECV },
		{ "MPI_Isend", ROLE_SEND }, { "MPI_Wait", ROLE_WAIT },
		{ "MPI_Allreduce", ROLE_COLLECTIVE },
	};
	struct trace *t = trace_new();
	assert_non_null(t);
	uint32_t id, world[MAX_TL], even[MAX_TL], n_even = 0;
	for (uint32_t i = 0; i < R_COUNT; i++) {
		assert_int_equal(trace_add_region(t, regions[i].name, regions[i].role, 4, &id), 0);
		assert_int_equal(id, i);
	}
	for (uint32_t r = 0; r < n; r++) {
		world[r] = r;
		if (r % 2 == 0)
			even[n_even++] = r;
	}
	assert_int_equal(trace_add_comm(t, 0, world, n, 0, &id), 0);
	assert_int_equal(trace_add_comm(t, 0, even, n_even, 0, &id), 0);
	assert_int_equal(trace_add_comm(t, 0, NULL, 0, 1, &id), 0);
	assert_int_equal(trace_set_timelines(t, n), 0);
	t->info.warnings[WARN_NO_LOCAL_DEFS] = 2;   /* as the definitions' reader counts */
	return t;
}

#define OK(x) assert_int_equal((x), 0)

/* Timeline tl's stream of case `seed`, on n timelines. */
static void
feed(struct build *b, uint32_t tl, uint32_t n, uint64_t seed)
{
	uint64_t s = seed * 1000003u + tl, time = 10;
	uint64_t req = 0, open_req = 0;
	if ((seed + tl) % 7 == 3)
		return;        /* never begun, as a rank with no location */
	OK(build_timeline_begin(b, tl));
	OK(build_enter(b, time++, R_USER));
	uint32_t calls = (uint32_t)rnd(&s, 40);
	for (uint32_t i = 0; i < calls; i++) {
		uint32_t peer = (uint32_t)rnd(&s, n + (rnd(&s, 20) == 0)), tag = (uint32_t)rnd(&s, 3);
		uint64_t bytes = 8 << rnd(&s, 2) ;
		time += rnd(&s, 5);
		if (rnd(&s, 30) == 0)
			time -= 3;     /* time going backwards */
		switch (rnd(&s, 7)) {
		case 0:
		case 1:
			OK(build_enter(b, time++, R_SEND));
			OK(build_send(b, time++, peer, C_WORLD, tag, bytes, UINT64_MAX));
			OK(build_leave(b, time++, R_SEND));
			break;
		case 2:
		case 3:
			OK(build_enter(b, time++, R_RECV));
			OK(build_recv(b, time++, peer, C_WORLD, tag, bytes, UINT64_MAX));
			OK(build_leave(b, time++, R_RECV));
			break;
		case 4:
			OK(build_enter(b, time++, R_ISEND));
			OK(build_send(b, time++, peer, C_WORLD, tag, bytes, ++req));
			OK(build_leave(b, time++, R_ISEND));
			if (!open_req)
				open_req = req;
			break;
		case 5:
			OK(build_enter(b, time++, R_WAIT));
			OK(build_isend_complete(b, time++, open_req ? open_req : 99));
			OK(build_leave(b, time++, R_WAIT));
			open_req = 0;
			break;
		default: {
			uint32_t comm = (uint32_t)rnd(&s, C_COUNT);
			uint32_t root = rnd(&s, 2) ? UINT32_MAX : 0;
			OK(build_enter(b, time++, R_COLL));
			OK(build_coll_begin(b, time++));
			OK(build_coll_end(b, time++, (uint8_t)rnd(&s, 13), comm, root, rnd(&s, 100), 8));
			OK(build_leave(b, time++, R_COLL));
		}
		}
	}
	if (rnd(&s, 4))
		OK(build_leave(b, time++, R_USER));   /* else left open */
	OK(build_timeline_end(b));
}

struct job {
	uint64_t seed;
	uint32_t n_tl;
	const uint32_t *first;
	const struct trace *serial;
	int rc[MAX_RANKS], same[MAX_RANKS];
	char why[MAX_RANKS][256];
};

static int
rank_main(struct dcomm *c, void *ud)
{
	struct job *j = ud;
	uint32_t r = c->rank, lo = j->first[r], hi = j->first[r + 1];
	struct trace *t = defined(j->n_tl);
	struct build *b = build_create(t);
	for (uint32_t tl = lo; tl < hi; tl++)
		feed(b, tl, j->n_tl, j->seed);
	struct dmodel d, want;
	j->rc[r] = dmodel_finish(c, t, b, lo, hi, &d, NULL, NULL);
	if (j->rc[r])
		return 0;
	j->same[r] = 0;
	if (dmodel_slice(j->serial, r, c->size, lo, hi, &want) == 0) {
		j->same[r] = !dmodel_compare(&d, &want, j->why[r], sizeof j->why[r]);
		dmodel_free(&want);
	}
	dmodel_free(&d);
	return 0;
}

/* What the cases held in all, so that the test is known to reach them. */
struct seen {
	uint64_t unmatched_send, lone, lone_no_send, mismatch, incomplete, self, ranks_empty;
};

static void
tally(const struct trace *t, struct seen *s)
{
	const struct trace_info *i = trace_info(t);
	s->unmatched_send += i->warnings[WARN_UNMATCHED_SEND];
	s->lone += i->warnings[WARN_UNMATCHED_RECV];
	s->mismatch += i->warnings[WARN_SIZE_MISMATCH];
	s->incomplete += i->warnings[WARN_INCOMPLETE_COLL];
	for (size_t k = 0; k < t->n_colls; k++)
		s->self += t->comms[t->colls[k].comm].is_self;
	/* a lone receive whose channel has no send at all */
	for (size_t m = 0; m < t->n_msgs; m++) {
		const struct trace_msg *x = &t->msgs[m];
		if (x->send_op != TRACE_NONE)
			continue;
		int any = 0;
		for (size_t k = 0; k < t->n_msgs && !any; k++)
			any = t->msgs[k].send_op != TRACE_NONE && t->msgs[k].sender == x->sender &&
			      t->msgs[k].receiver == x->receiver && t->msgs[k].tag == x->tag &&
			      t->msgs[k].comm == x->comm;
		s->lone_no_send += !any;
	}
}

static void
random_streams_match_as_one_model(void **state)
{
	(void)state;
	struct seen seen = { 0 };
	for (uint64_t seed = 1; seed <= 60; seed++) {
		uint64_t s = seed;
		uint32_t n_tl = 1 + (uint32_t)rnd(&s, MAX_TL);
		struct trace *serial = defined(n_tl);
		struct build *b = build_create(serial);
		for (uint32_t tl = 0; tl < n_tl; tl++)
			feed(b, tl, n_tl, seed);
		OK(build_finish(b, NULL, NULL));
		build_destroy(b);
		tally(serial, &seen);
		for (uint32_t n = 1; n <= MAX_RANKS; n++) {
			/* a random cut, ranks without timelines included */
			uint32_t first[MAX_RANKS + 1];
			first[0] = 0;
			for (uint32_t r = 1; r < n; r++) {
				uint32_t k = first[r - 1] + (uint32_t)rnd(&s, 4);
				first[r] = k < n_tl ? k : n_tl;
			}
			first[n] = n_tl;
			for (uint32_t r = 1; r < n; r++)
				seen.ranks_empty += first[r] == first[r - 1];
			struct job j = { .seed = seed, .n_tl = n_tl, .first = first, .serial = serial };
			OK(dcomm_threads_run(n, rank_main, &j));
			for (uint32_t r = 0; r < n; r++) {
				if (j.rc[r] || !j.same[r])
					print_error("case %llu, %u timelines on %u ranks, rank %u: %s %s\n",
						    (unsigned long long)seed, n_tl, n, r, err_name(j.rc[r]),
						    j.why[r]);
				OK(j.rc[r]);
				assert_true(j.same[r]);
			}
		}
		trace_destroy(serial);
	}
	print_message("cases held %llu unmatched sends, %llu lone receives (%llu on channels "
		      "without sends), %llu size mismatches, %llu incomplete collectives, %llu on "
		      "self communicators, %llu empty ranks\n",
		      (unsigned long long)seen.unmatched_send, (unsigned long long)seen.lone,
		      (unsigned long long)seen.lone_no_send, (unsigned long long)seen.mismatch,
		      (unsigned long long)seen.incomplete, (unsigned long long)seen.self,
		      (unsigned long long)seen.ranks_empty);
	assert_true(seen.unmatched_send > 10 && seen.lone > 10 && seen.lone_no_send > 10);
	assert_true(seen.mismatch > 10 && seen.incomplete > 10 && seen.self > 10);
	assert_true(seen.ranks_empty > 10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_streams_match_as_one_model),
	};
	return cmocka_run_group_tests_name("distributed match on random streams", tests, NULL, NULL);
}
