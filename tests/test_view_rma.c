/* test_view_rma.c — view_rma.h's searches against walks of every record:
 * for each run of one to three operations of each rank of the one-sided
 * archives (traces/onesided), the operations its calls issued, those
 * they completed, and the passive-target epochs covering it are the
 * same as a walk over all of the rank's records finds (the details pane
 * walked them so on each redraw, 4-10 ms on NWChem). */
#include "testutil.h"

#include "model/build.h"
#include "model/trace_impl.h"
#include "view/model/view_rma.h"

static const char *const archives[] = { "rma-2", "rma-2-openmpi", "ga-2", "ga-2-openmpi" };

/* Every run of ops [o, o + k) of each timeline, k = 1..3. */
static void
check_trace(struct trace *t)
{
	struct view_rma *vr = NULL;
	assert_int_equal(view_rma_create(t, &vr), 0);
	uint32_t ntl, nr, ne;
	const struct trace_timeline *tls = trace_timelines(t, &ntl);
	const struct trace_rma *r = trace_rmas(t, &nr);
	const struct trace_epoch *e = trace_epochs(t, &ne);
	assert_true(nr > 0 && ne > 0);
	uint64_t seen_issued = 0, seen_done = 0, seen_epochs = 0;
	for (uint32_t tl = 0; tl < ntl; tl++) {
		uint32_t o0 = tls[tl].op_first, on = tls[tl].op_count;
		for (uint32_t o = o0; o < o0 + on; o++)
			for (uint32_t k = 1; k <= 3 && o + k <= o0 + on; k++) {
				uint64_t en = trace_op(t, o).t_enter, ex = trace_op(t, o + k - 1).t_exit;
				/* issued: the search's span holds every one the calls issued */
				uint32_t want = 0, got = 0, first;
				for (uint32_t i = 0; i < nr; i++)
					want += r[i].origin == tl && r[i].op >= o && r[i].op < o + k;
				uint32_t n = view_rma_issued(vr, tl, en, ex, &first);
				for (uint32_t i = first; i < first + n; i++) {
					assert_int_equal(r[i].origin, tl);
					got += r[i].op >= o && r[i].op < o + k;
				}
				assert_int_equal(got, want);
				seen_issued += want;
				/* completed: exactly those whose completing call is among them */
				want = 0;
				for (uint32_t i = 0; i < nr; i++)
					want += r[i].done_op != TRACE_NONE && r[i].done_op >= o && r[i].done_op < o + k;
				const uint32_t *ids;
				n = view_rma_completed(vr, o, o + k, &ids);
				assert_int_equal(n, want);
				for (uint32_t i = 0; i < n; i++)
					assert_true(r[ids[i]].done_op >= o && r[ids[i]].done_op < o + k);
				seen_done += want;
				/* epochs: the rank's that began by its exit and ended by
				 * its enter or later, in the same order */
				uint32_t at = view_rma_next_epoch(vr, tl, en, ex, TRACE_NONE);
				for (uint32_t i = 0; i < ne; i++) {
					if (e[i].timeline != tl || e[i].t_begin > ex || e[i].t_end < en)
						continue;
					assert_int_equal(at, i);
					seen_epochs++;
					at = view_rma_next_epoch(vr, tl, en, ex, at);
				}
				assert_int_equal(at, TRACE_NONE);
			}
	}
	/* the archives have them all: nothing was checked on empty answers */
	assert_true(seen_issued > 0 && seen_done > 0 && seen_epochs > 0);
	view_rma_destroy(vr);
}

static void
check_archive(const char *name)
{
	char rel[256], path[1200];
	snprintf(rel, sizeof rel, "traces/onesided/%s/traces.otf2", name);
	PROJECT_PATH(path, rel);
	struct trace *t = tu_load(path);
	check_trace(t);
	trace_destroy(t);
}

static void
test_searches(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof archives / sizeof *archives; i++)
		check_archive(archives[i]);
}

/* More epochs than the search skips at once (64): rank 0 holds a
 * lock_all on window 0 from start to end and, 200 times, locks window
 * 1 at rank 1, puts and unlocks; every tenth put is completed only by
 * a flush_all later. */
enum { R_MAIN, R_LOCK, R_PUT, R_UNLOCK, R_LOCK_ALL, R_UNLOCK_ALL, R_FLUSH_ALL, R_COUNT };

static void
test_many_epochs(void **state)
{
	(void)state;
	struct trace *t = trace_new();
	static const char *const names[R_COUNT] = {
		"main", "MPI_Win_lock", "MPI_Put", "MPI_Win_unlock", "MPI_Win_lock_all",
		"MPI_Win_unlock_all", "MPI_Win_flush_all",
	};
	uint32_t reg[R_COUNT], world[2] = { 0, 1 }, id;
	for (int i = 0; i < R_COUNT; i++)
		assert_int_equal(trace_add_region(t, names[i], i ? ROLE_MPI_OTHER : ROLE_USER, 4, &reg[i]), 0);
	assert_int_equal(trace_add_comm(t, 0, world, 2, 0, &id), 0);
	assert_int_equal(trace_add_win(t, 0, 0, 0, &id), 0);
	assert_int_equal(trace_add_win(t, 0, 0, 0, &id), 0);
	assert_int_equal(trace_set_timelines(t, 2), 0);
	t->info.records[REC_RMA_PUT] = 1;
	struct build *b = build_create(t);
	uint64_t now = 10, match = 1, late[20];
	int n_late = 0;
	assert_int_equal(build_timeline_begin(b, 0), 0);
	assert_int_equal(build_enter(b, 0, reg[R_MAIN]), 0);
	assert_int_equal(build_enter(b, now, reg[R_LOCK_ALL]), 0);
	assert_int_equal(build_rma_lock(b, now + 1, 0, UINT32_MAX, 1), 0);
	assert_int_equal(build_leave(b, now + 2, reg[R_LOCK_ALL]), 0);
	for (int i = 0; i < 200; i++) {
		now += 10;
		assert_int_equal(build_enter(b, now, reg[R_LOCK]), 0);
		assert_int_equal(build_rma_lock(b, now + 1, 1, 1, 0), 0);
		assert_int_equal(build_leave(b, now + 2, reg[R_LOCK]), 0);
		assert_int_equal(build_enter(b, now + 3, reg[R_PUT]), 0);
		assert_int_equal(build_rma_op(b, now + 4, RMA_PUT, 0, 1, 1, 8, 0, match), 0);
		if (i % 10)
			assert_int_equal(build_rma_complete(b, now + 4, RMA_DONE_BLOCKING, 1, match), 0);
		else
			late[n_late++] = match;
		match++;
		assert_int_equal(build_leave(b, now + 5, reg[R_PUT]), 0);
		assert_int_equal(build_enter(b, now + 6, reg[R_UNLOCK]), 0);
		assert_int_equal(build_rma_release(b, now + 7, 1, 1), 0);
		assert_int_equal(build_leave(b, now + 8, reg[R_UNLOCK]), 0);
		if (n_late == 5) {
			now += 10;
			assert_int_equal(build_enter(b, now, reg[R_FLUSH_ALL]), 0);
			for (int k = 0; k < n_late; k++)
				assert_int_equal(build_rma_complete(b, now + 1, RMA_DONE_REMOTE, 1, late[k]), 0);
			assert_int_equal(build_leave(b, now + 2, reg[R_FLUSH_ALL]), 0);
			n_late = 0;
		}
	}
	now += 10;
	assert_int_equal(build_enter(b, now, reg[R_UNLOCK_ALL]), 0);
	assert_int_equal(build_rma_release(b, now + 1, 0, UINT32_MAX), 0);
	assert_int_equal(build_leave(b, now + 2, reg[R_UNLOCK_ALL]), 0);
	assert_int_equal(build_leave(b, now + 10, reg[R_MAIN]), 0);
	assert_int_equal(build_timeline_end(b), 0);
	assert_int_equal(build_timeline_begin(b, 1), 0);
	assert_int_equal(build_enter(b, 0, reg[R_MAIN]), 0);
	assert_int_equal(build_leave(b, now + 10, reg[R_MAIN]), 0);
	assert_int_equal(build_timeline_end(b), 0);
	assert_int_equal(build_finish(b, NULL, NULL), 0);
	build_destroy(b);
	uint32_t ne, nr;
	trace_epochs(t, &ne);
	trace_rmas(t, &nr);
	assert_int_equal(ne, 201);
	assert_int_equal(nr, 200);
	check_trace(t);
	trace_destroy(t);
}

static void
test_destroy_null(void **state)
{
	(void)state;
	view_rma_destroy(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_searches),
		cmocka_unit_test(test_many_epochs),
		cmocka_unit_test(test_destroy_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
