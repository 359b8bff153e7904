/* test_omp_records.c — OpenMP's team and task records (Score-P's OPARI2
 * adapter writes ThreadTeamBegin before a thread's parallel region and
 * ThreadTaskCreate / ThreadTaskSwitch around its tasks): archives written
 * by libotf2 where time alone cannot tell a thread's team or which task
 * a thread ran, read by both readers; the waits are worked out by hand. */
#include "testutil.h"
#include "testotf2.h"

#include "analysis/hybrid/hybrid.h"

#include <stdio.h>
#include <stdlib.h>

static char tmpdir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/skein-omprec-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Event kinds of the tables below (E_NONE: nothing written; E_LOCK: a
 * lock taken, whatever `records` says). */
enum { E_LEAVE, E_ENTER, E_TEAM, E_CREATE, E_SWITCH, E_LOCK, E_NONE };

/* One event: kind, time, region or team, creating thread, generation. */
struct ev {
	int kind;
	uint64_t time;
	uint32_t ref, creator, gen;
};

/* Writes location loc's events (the team and task records only with
 * `records`); returns how many. */
static uint64_t
write_events(OTF2_Archive *a, uint64_t loc, const struct ev *v, size_t n, int records)
{
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, loc);
	assert_non_null(w);
	uint64_t written = 0;
	for (size_t k = 0; k < n; k++) {
		const struct ev *e = &v[k];
		if (e->kind == E_NONE)
			continue;
		written += records || e->kind == E_ENTER || e->kind == E_LEAVE || e->kind == E_LOCK;
		if (e->kind == E_ENTER)
			OTF2_EvtWriter_Enter(w, NULL, e->time, e->ref);
		else if (e->kind == E_LEAVE)
			OTF2_EvtWriter_Leave(w, NULL, e->time, e->ref);
		else if (e->kind == E_LOCK)
			OTF2_EvtWriter_ThreadAcquireLock(w, NULL, e->time, OTF2_PARADIGM_OPENMP, e->ref, 1);
		else if (records && e->kind == E_TEAM)
			OTF2_EvtWriter_ThreadTeamBegin(w, NULL, e->time, e->ref);
		else if (records && e->kind == E_CREATE)
			OTF2_EvtWriter_ThreadTaskCreate(w, NULL, e->time, e->ref, e->creator, e->gen);
		else if (records && e->kind == E_SWITCH)
			OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, e->time, e->ref, e->creator, e->gen);
	}
	OTF2_Archive_CloseEvtWriter(a, w);
	return written;
}

/* The definitions: one process of n_locs CPU threads with events[l]
 * events each, the regions named (all OpenMP's). */
static void
write_defs(OTF2_Archive *a, uint32_t n_locs, const uint64_t *events, const char *const *region,
	   uint32_t n_regions)
{
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 100000, OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, 0, "");
	OTF2_GlobalDefWriter_WriteString(g, 1, "node");
	OTF2_GlobalDefWriter_WriteString(g, 2, "process");
	OTF2_GlobalDefWriter_WriteString(g, 3, "thread");
	for (uint32_t r = 0; r < n_regions; r++) {
		OTF2_GlobalDefWriter_WriteString(g, 4 + r, region[r]);
		OTF2_GlobalDefWriter_WriteRegion(g, r, 4 + r, 4 + r, 0, OTF2_REGION_ROLE_UNKNOWN,
						 OTF2_PARADIGM_OPENMP, OTF2_REGION_FLAG_NONE, 0, 0, 0);
	}
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	for (uint32_t l = 0; l < n_locs; l++)
		OTF2_GlobalDefWriter_WriteLocation(g, l, 3, OTF2_LOCATION_TYPE_CPU_THREAD, events[l], 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
}

/* The analysis of archive dir, read by skein's decoder or libotf2's. */
static struct trace *
analysed(const char *dir, int library, struct hybrid *h)
{
	char anchor[160];
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	if (library)
		setenv("SKEIN_OTF2_EVENTS", "library", 1);
	struct trace *t = tu_load(anchor);
	unsetenv("SKEIN_OTF2_EVENTS");
	assert_int_equal(hybrid_compute(t, h, NULL), 0);
	return t;
}

/* The wait of `kind` place p began at `from`, its length (0: none). */
static uint64_t
wait_at(const struct hybrid *h, uint8_t kind, uint32_t p, uint64_t from)
{
	for (uint32_t k = 0; k < h->n_waits; k++)
		if (h->waits[k].kind == kind && h->waits[k].place == p && h->waits[k].from == from)
			return h->waits[k].to - from;
	return 0;
}

/* ---- nested teams forked at once ---- */

enum { R_PAR, R_BAR };

/* Two rounds, 1000 ns apart: the master (location 0) forks the outer
 * team {0, 1} (team 0); then, nested, the master forks team 1 {0, 2}
 * and thread 1 team 2 {1, 3}, a nanosecond apart, so that threads 2 and
 * 3 begin their parts while both nested forks are open. Each team ends
 * in a barrier: team 1's master waits 58 ns for thread 2, team 2's
 * thread 1 waits 88 ns for thread 3 (swapped teams would give 38 and
 * 108), the outer barrier's master 70 ns for thread 1. With `skip`,
 * thread 2 takes no part in the first round. */
static void
nested(const char *dir, int records, int skip)
{
	OTF2_Archive *a = tu_new_archive(dir);
	struct ev v[4][32];
	size_t n[4] = { 0 };
#define EV(l, k, t, r) (v[l][n[l]++] = (struct ev){ k, t, r, 0, 0 })
	for (uint64_t o = 0; o <= 1000; o += 1000) {
		EV(0, E_TEAM, o + 95, 0);
		EV(0, E_ENTER, o + 100, R_PAR);
		EV(0, E_TEAM, o + 115, 1);
		EV(0, E_ENTER, o + 120, R_PAR);
		EV(0, E_ENTER, o + 200, R_BAR);
		EV(0, E_LEAVE, o + 260, R_BAR);
		EV(0, E_LEAVE, o + 262, R_PAR);
		EV(0, E_ENTER, o + 300, R_BAR);
		EV(0, E_LEAVE, o + 380, R_BAR);
		EV(0, E_LEAVE, o + 400, R_PAR);

		EV(1, E_TEAM, o + 96, 0);
		EV(1, E_ENTER, o + 101, R_PAR);
		EV(1, E_TEAM, o + 116, 2);
		EV(1, E_ENTER, o + 121, R_PAR);
		EV(1, E_ENTER, o + 150, R_BAR);
		EV(1, E_LEAVE, o + 240, R_BAR);
		EV(1, E_LEAVE, o + 242, R_PAR);
		EV(1, E_ENTER, o + 370, R_BAR);
		EV(1, E_LEAVE, o + 380, R_BAR);
		EV(1, E_LEAVE, o + 390, R_PAR);

		if (!skip || o) {
			EV(2, E_TEAM, o + 117, 1);
			EV(2, E_ENTER, o + 125, R_PAR);
			EV(2, E_ENTER, o + 258, R_BAR);
			EV(2, E_LEAVE, o + 260, R_BAR);
			EV(2, E_LEAVE, o + 261, R_PAR);
		}

		EV(3, E_TEAM, o + 118, 2);
		EV(3, E_ENTER, o + 126, R_PAR);
		EV(3, E_ENTER, o + 238, R_BAR);
		EV(3, E_LEAVE, o + 240, R_BAR);
		EV(3, E_LEAVE, o + 241, R_PAR);
	}
#undef EV
	uint64_t events[4];
	for (uint64_t l = 0; l < 4; l++)
		events[l] = write_events(a, l, v[l], n[l], records);
	const char *const region[] = { "!$omp parallel @n.c:10", "!$omp implicit barrier @n.c:20" };
	write_defs(a, 4, events, region, 2);
}

/* Places: the master is timeline 0; threads 1, 2, 3 are lanes 0, 1, 2. */
static void
nested_teams(void **state)
{
	(void)state;
	char dir[128];
	for (int library = 0; library < 2; library++) {
		snprintf(dir, sizeof dir, "%s/nested", tmpdir);
		if (!library)
			nested(dir, 1, 0);
		struct hybrid h;
		struct trace *t = analysed(dir, library, &h);
		assert_int_equal(h.n_timelines, 1);
		assert_int_equal(h.teams, 6);
		assert_int_equal(h.parts_unsure, 0);
		assert_int_equal(h.n_waits, 6);
		for (uint64_t o = 0; o <= 1000; o += 1000) {
			assert_int_equal(wait_at(&h, HYW_BARRIER, 0, o + 200), 58);
			assert_int_equal(wait_at(&h, HYW_BARRIER, 1, o + 150), 88);
			assert_int_equal(wait_at(&h, HYW_BARRIER, 0, o + 300), 70);
		}
		hybrid_free(&h);
		trace_destroy(t);
	}
	/* without the records, time alone: threads 2 and 3 begin while three
	 * forks are open; no team open then is matched (a wrong one would
	 * give wrong waits) */
	snprintf(dir, sizeof dir, "%s/nested-bare", tmpdir);
	nested(dir, 0, 0);
	struct hybrid h;
	struct trace *t = analysed(dir, 0, &h);
	assert_int_equal(h.teams, 0);
	assert_int_equal(h.parts_unsure, 4);
	assert_int_equal(h.n_waits, 0);
	hybrid_free(&h);
	trace_destroy(t);
}

/* Thread 2 misses team 1's first instance: its first ThreadTeamBegin of
 * team 1 is the team's second, which its count calls the first. The
 * first instance's fork does not overlap its part: the tag is not
 * trusted, and time alone leaves the part in no team, rather than in the
 * wrong one (a 1058 ns wait of the master in the first round): the
 * second round's teams are not matched, the first round's team 2 and
 * outer team are. */
static void
missed_instance(void **state)
{
	(void)state;
	char dir[128];
	snprintf(dir, sizeof dir, "%s/skip", tmpdir);
	nested(dir, 1, 1);
	for (int library = 0; library < 2; library++) {
		struct hybrid h;
		struct trace *t = analysed(dir, library, &h);
		assert_int_equal(h.n_waits, 2);
		assert_int_equal(wait_at(&h, HYW_BARRIER, 1, 150), 88);
		assert_int_equal(wait_at(&h, HYW_BARRIER, 0, 300), 70);
		assert_int_equal(h.parts_unsure, 1);
		hybrid_free(&h);
		trace_destroy(t);
	}
}

/* ---- tasks run out of their creation order ---- */

enum { T_PAR, T_CREATE, T_TASK, T_WAIT };

/* One team {0, 1, 2, 3} (team 0). The master and thread 1 each create a
 * task at the same source line (entering the construct at 110 and 111)
 * and wait for it in a taskwait from 200; thread 2 runs thread 1's task
 * over [120, 130], thread 3 the master's over [140, 500]. The master
 * waits 300 ns; thread 1's task was done before its taskwait. In
 * creation order (the line's k-th run after its k-th creation) the waits
 * would be swapped. `between`: thread 1 takes a lock at 112, between
 * entering the construct and its ThreadTaskCreate (which moves its
 * clock on); `partial`: thread 1's ThreadTaskCreate is missing. */
enum { T_ALL, T_BETWEEN, T_PARTIAL };

static void
tasks(const char *dir, int records, int variant)
{
	OTF2_Archive *a = tu_new_archive(dir);
	struct ev v[4][12] = {
		{ { E_TEAM, 95, 0, 0, 0 }, { E_ENTER, 100, T_PAR, 0, 0 }, { E_ENTER, 110, T_CREATE, 0, 0 },
		  { E_CREATE, 110, 0, 0, 1 }, { E_LEAVE, 112, T_CREATE, 0, 0 }, { E_ENTER, 200, T_WAIT, 0, 0 },
		  { E_LEAVE, 500, T_WAIT, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
		{ { E_TEAM, 96, 0, 0, 0 }, { E_ENTER, 101, T_PAR, 0, 0 }, { E_ENTER, 111, T_CREATE, 0, 0 },
		  { E_NONE, 112, 3, 0, 0 }, { E_CREATE, 112, 0, 1, 1 }, { E_LEAVE, 113, T_CREATE, 0, 0 },
		  { E_ENTER, 200, T_WAIT, 0, 0 }, { E_LEAVE, 201, T_WAIT, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
		{ { E_TEAM, 97, 0, 0, 0 }, { E_ENTER, 102, T_PAR, 0, 0 }, { E_SWITCH, 120, 0, 1, 1 },
		  { E_ENTER, 120, T_TASK, 0, 0 }, { E_LEAVE, 130, T_TASK, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
		{ { E_TEAM, 98, 0, 0, 0 }, { E_ENTER, 103, T_PAR, 0, 0 }, { E_SWITCH, 140, 0, 0, 1 },
		  { E_ENTER, 140, T_TASK, 0, 0 }, { E_LEAVE, 500, T_TASK, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
	};
	if (variant == T_BETWEEN)
		v[1][3].kind = E_LOCK;
	if (variant == T_PARTIAL)
		v[1][4].kind = E_NONE;
	const size_t n[4] = { 8, 9, 6, 6 };
	uint64_t events[4];
	for (uint64_t l = 0; l < 4; l++)
		events[l] = write_events(a, l, v[l], n[l], records);
	const char *const region[] = { "!$omp parallel @t.c:1", "!$omp create task @t.c:5",
				       "!$omp task @t.c:5", "!$omp taskwait @t.c:9" };
	write_defs(a, 4, events, region, 4);
}

/* Archive `name` of tasks(records, variant), both readers: the master
 * waits `master` ns in its taskwait and thread 1 `thread1`. */
static void
taskwaits_are(const char *name, int records, int variant, uint64_t master, uint64_t thread1)
{
	char dir[128];
	snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
	tasks(dir, records, variant);
	for (int library = 0; library < 2; library++) {
		struct hybrid h;
		struct trace *t = analysed(dir, library, &h);
		assert_int_equal(h.tasks, 2);
		assert_int_equal(wait_at(&h, HYW_TASKWAIT, 0, 200), master);
		assert_int_equal(wait_at(&h, HYW_TASKWAIT, 1, 200), thread1);
		for (uint32_t k = 0; k < h.n_waits; k++)
			if (h.waits[k].kind == HYW_TASKWAIT)
				assert_int_equal(h.waits[k].cause, 3);      /* thread 3: lane 2 */
		hybrid_free(&h);
		trace_destroy(t);
	}
}

static void
tasks_by_id(void **state)
{
	(void)state;
	taskwaits_are("tasks", 1, T_ALL, 300, 0);
	/* a lock record between the construct's Enter and the creation
	 * (the thread's clock moved on): the creation still named */
	taskwaits_are("tasks-between", 1, T_BETWEEN, 300, 0);
	/* without the records: by source line and order, the master's task
	 * taken for the one thread 2 ran (thread 1's taskwait is a moment
	 * long: its wait is cut at its end) */
	taskwaits_are("tasks-bare", 0, T_ALL, 0, 1);
	/* one creation not named: the process's tasks by line, all of them */
	taskwaits_are("tasks-partial", 1, T_PARTIAL, 0, 1);
}

/* Two tasks the master creates at one tick in one construct (a tight
 * loop, a coarse timer): generations 1 and 2, entered at 110 both;
 * thread 1 runs the second over [120, 130], thread 2 the first over
 * [140, 500]. Each creation takes its own record's task (the first
 * frame the first tag of that tick): both runs have their creation (2
 * tasks run by another thread); taking the first tag for both would
 * leave the second run without one. */
static void
one_tick(void **state)
{
	(void)state;
	char dir[128];
	snprintf(dir, sizeof dir, "%s/tick", tmpdir);
	OTF2_Archive *a = tu_new_archive(dir);
	const struct ev v[3][10] = {
		{ { E_TEAM, 95, 0, 0, 0 }, { E_ENTER, 100, T_PAR, 0, 0 }, { E_ENTER, 110, T_CREATE, 0, 0 },
		  { E_CREATE, 110, 0, 0, 1 }, { E_LEAVE, 110, T_CREATE, 0, 0 }, { E_ENTER, 110, T_CREATE, 0, 0 },
		  { E_CREATE, 110, 0, 0, 2 }, { E_LEAVE, 111, T_CREATE, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
		{ { E_TEAM, 96, 0, 0, 0 }, { E_ENTER, 101, T_PAR, 0, 0 }, { E_SWITCH, 120, 0, 0, 2 },
		  { E_ENTER, 120, T_TASK, 0, 0 }, { E_LEAVE, 130, T_TASK, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
		{ { E_TEAM, 97, 0, 0, 0 }, { E_ENTER, 102, T_PAR, 0, 0 }, { E_SWITCH, 140, 0, 0, 1 },
		  { E_ENTER, 140, T_TASK, 0, 0 }, { E_LEAVE, 500, T_TASK, 0, 0 }, { E_LEAVE, 700, T_PAR, 0, 0 } },
	};
	const size_t n[3] = { 9, 6, 6 };
	uint64_t events[3];
	for (uint64_t l = 0; l < 3; l++)
		events[l] = write_events(a, l, v[l], n[l], 1);
	const char *const region[] = { "!$omp parallel @t.c:1", "!$omp create task @t.c:5",
				       "!$omp task @t.c:5", "!$omp taskwait @t.c:9" };
	write_defs(a, 3, events, region, 4);
	for (int library = 0; library < 2; library++) {
		struct hybrid h;
		struct trace *t = analysed(dir, library, &h);
		assert_int_equal(h.tasks, 2);
		hybrid_free(&h);
		trace_destroy(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nested_teams),
		cmocka_unit_test(missed_instance),
		cmocka_unit_test(tasks_by_id),
		cmocka_unit_test(one_tick),
	};
	return cmocka_run_group_tests_name("OpenMP team and task records", tests, setup, teardown);
}
