/* test_hybrid.c — threads and GPU streams (analysis/hybrid/hybrid.h) and
 * the critical path through them, against ground truth: archives of
 * traces/gen/skein-gen-hybrid, whose --truth file lists every wait it
 * wrote (a slow OpenMP thread, a long kernel the host waits for, a late
 * rank the others wait for in MPI_Allreduce, an OpenMP lock the threads
 * take in turn, a task the master waits for in a taskwait), and the shared
 * casita-2_cuda_simple against otf2-print's counts and CASITA's path. */
#include "testutil.h"
#include "testotf2.h"

#include "analysis/core/analysis.h"
#include "analysis/explain/explain.h"
#include "analysis/hybrid/hybrid.h"
#include "analysis/path/path.h"
#include "analysis/profile/profile.h"
#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "model/trace_impl.h"
#include "view/model/view_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

static char tmpdir[64];
static int have_gen;

/* Writes archive NAME with the generator's options into tmpdir. */
static int
gen(const char *name, const char *opts)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "'%s/traces/gen/skein-gen-hybrid' --force %s --truth '%s/%s.txt' '%s/%s' 2>/dev/null",
		 tu_env("SKEIN_ROOT", "."), opts, tmpdir, name, tmpdir, name);
	return system(cmd) == 0;
}

static int
setup(void **state)
{
	(void)state;
	const char *root = tu_env("SKEIN_ROOT", ".");
	char g[1024], cmd[2048];
	snprintf(g, sizeof g, "%s/traces/gen/skein-gen-hybrid", root);
	if (access(g, X_OK) != 0) {
		snprintf(cmd, sizeof cmd, "make -s -C '%s/traces/gen' skein-gen-hybrid >/dev/null 2>&1", root);
		if (system(cmd) != 0) { /* checked below */ }
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/skein-hybrid-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	/* the generator built, every run must succeed (a failing one fails
	 * the tests, not skips them) */
	have_gen = access(g, X_OK) == 0;
	if (have_gen && !(
		gen("thread", "--ranks 2 --threads 3 --iterations 5 --slow-thread 1:2:3000000") &&
		gen("kernel", "--ranks 2 --threads 3 --iterations 5 --long-kernel 0:5000000") &&
		gen("late", "--ranks 3 --threads 2 --iterations 5 --late-rank 2:2000000") &&
		gen("lock", "--ranks 2 --threads 3 --iterations 5 --lock-hold 200000") &&
		gen("task", "--ranks 2 --threads 3 --iterations 5 --taskwait 300000")))
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* One fact of a truth file: its kind, rank, member (-1: none), the
 * member it waited for (a lock's holder; -1: not said), ns. */
struct fact {
	char kind[32];
	int rank, member, holder;
	uint64_t ns;
	int seen;
};

static struct fact *
truth(const char *name, uint32_t *n, uint64_t *run_ns)
{
	char path[256], line[256];
	snprintf(path, sizeof path, "%s/%s.txt", tmpdir, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	struct fact *v = calloc(4096, sizeof *v);
	*n = 0;
	while (fgets(line, sizeof line, f) && *n < 4096) {
		struct fact *x = &v[*n];
		int it;
		unsigned long long ns;
		x->member = x->holder = -1;
		if (sscanf(line, "run_ns %llu", &ns) == 1)
			*run_ns = ns;
		else if (sscanf(line, "barrier_wait rank %d member %d iteration %d ns %llu", &x->rank, &x->member, &it, &ns) == 4)
			strcpy(x->kind, "omp-barrier"), x->ns = ns, (*n)++;
		else if (sscanf(line, "lock_wait rank %d member %d iteration %d holder %d ns %llu", &x->rank, &x->member,
				&it, &x->holder, &ns) == 5)
			strcpy(x->kind, "lock-wait"), x->ns = ns, (*n)++;
		else if (sscanf(line, "taskwait_wait rank %d iteration %d ns %llu", &x->rank, &it, &ns) == 3)
			strcpy(x->kind, "omp-taskwait"), x->ns = ns, (*n)++;
		else if (sscanf(line, "device_wait rank %d iteration %d ns %llu", &x->rank, &it, &ns) == 3)
			strcpy(x->kind, "device-wait"), x->ns = ns, (*n)++;
		else if (sscanf(line, "allreduce_wait rank %d iteration %d ns %llu", &x->rank, &it, &ns) == 3)
			strcpy(x->kind, "allreduce"), x->ns = ns, (*n)++;
	}
	fclose(f);
	return v;
}

static struct analysis *
load(const char *name, struct trace **t)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s/traces.otf2", tmpdir, name);
	*t = tu_load(path);
	struct analysis *a = NULL;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	assert_int_equal(analysis_run(*t, &o, NULL, NULL, &a, &e), 0);
	return a;
}

/* The member a place is: 0 for the master (the rank), k for the lane
 * "OMP thread k"; -1 for a stream. */
static int
member_of(const struct trace *t, const struct hybrid *h, uint32_t p)
{
	if (p < h->n_timelines)
		return 0;
	const struct trace_lane *L = &trace_lanes(t, NULL)[p - h->n_timelines];
	int k;
	const char *name = trace_str(t, trace_locations(t, NULL)[L->location].name);
	return L->kind == LANE_THREAD && sscanf(name, "OMP thread %d", &k) == 1 ? k : -1;
}

/* Every wait state of the lanes is a fact of the truth and every fact of
 * those kinds is found, to the nanosecond. */
static void
waits_are_the_truth(const struct trace *t, struct fact *f, uint32_t nf)
{
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	for (uint32_t i = 0; i < h.n_waits; i++) {
		const struct hybrid_wait *w = &h.waits[i];
		const char *kind = hybrid_wait_name(w->kind);
		int rank = (int)hybrid_place_rank(t, &h, w->place);
		int member = w->kind == HYW_BARRIER || w->kind == HYW_LOCK ? member_of(t, &h, w->place) : -1;
		int holder = w->kind == HYW_LOCK ? member_of(t, &h, w->cause) : -1;
		uint32_t k = 0;
		for (; k < nf; k++)
			if (!f[k].seen && !strcmp(f[k].kind, kind) && f[k].rank == rank && f[k].member == member &&
			    f[k].holder == holder && f[k].ns == w->to - w->from)
				break;
		if (k == nf)
			fail_msg("a %s of %llu ns on rank %d member %d is not in the truth", kind,
				 (unsigned long long)(w->to - w->from), rank, member);
		f[k].seen = 1;
	}
	for (uint32_t k = 0; k < nf; k++)
		if (!f[k].seen && strcmp(f[k].kind, "allreduce"))
			fail_msg("the truth's %s of %llu ns on rank %d member %d was not found", f[k].kind,
				 (unsigned long long)f[k].ns, f[k].rank, f[k].member);
	hybrid_free(&h);
}

/* The MPI wait states in the Allreduces are the truth's. */
static void
allreduce_waits_are_the_truth(const struct analysis *a, struct fact *f, uint32_t nf)
{
	uint32_t nw, found = 0, want = 0;
	const struct analysis_wait *w = analysis_waits(a, &nw);
	for (uint32_t k = 0; k < nf; k++)
		want += !strcmp(f[k].kind, "allreduce");
	for (uint32_t i = 0; i < nw; i++) {
		if (w[i].kind != WAIT_NXN)
			continue;
		int rank = (int)analysis_lop_timeline(a, w[i].lop);
		uint32_t k = 0;
		for (; k < nf; k++)
			if (!f[k].seen && !strcmp(f[k].kind, "allreduce") && f[k].rank == rank && f[k].ns == w[i].time)
				break;
		if (k == nf)
			fail_msg("an Allreduce wait of %llu ns on rank %d is not in the truth",
				 (unsigned long long)w[i].time, rank);
		f[k].seen = 1;
		found++;
	}
	assert_int_equal(found, want);
}

static const char *
region_name(const struct analysis *a, uint32_t r)
{
	uint32_t nr;
	const struct trace_region *reg = trace_regions(analysis_trace(a), &nr);
	return r < nr ? trace_str(analysis_trace(a), reg[r].name) : r == PATH_REGION_IDLE ? "(idle)" : "-";
}

static uint64_t
on_path(const struct analysis *a, const struct path *p, const char *name)
{
	for (uint32_t i = 0; i < p->n_regions; i++)
		if (!strcmp(region_name(a, p->regions[i].region), name))
			return p->regions[i].time;
	return 0;
}

static uint64_t
blame_of(const struct analysis *a, const struct path *p, const char *name)
{
	for (uint32_t i = 0; i < p->n_regions; i++)
		if (!strcmp(region_name(a, p->regions[i].region), name))
			return p->regions[i].blame;
	return 0;
}

/* The truth's waits of one kind, summed. */
static uint64_t
truth_ns(const struct fact *f, uint32_t nf, const char *kind)
{
	uint64_t v = 0;
	for (uint32_t k = 0; k < nf; k++)
		if (!strcmp(f[k].kind, kind))
			v += f[k].ns;
	return v;
}

/* |x - want| <= slack */
static void
near(uint64_t x, uint64_t want, uint64_t slack)
{
	if (x + slack < want || x > want + slack)
		fail_msg("%llu is not within %llu of %llu", (unsigned long long)x, (unsigned long long)slack,
			 (unsigned long long)want);
}

static const char *
most_blame(const struct analysis *a, const struct path *p)
{
	uint32_t best = 0;
	for (uint32_t i = 1; i < p->n_regions; i++)
		if (p->regions[i].blame > p->regions[best].blame)
			best = i;
	return region_name(a, p->regions[best].region);
}

/* The path tiles the run, its regions add up to it, and place p (or any
 * lane of rank r named `lane`) has at least `least` ticks on it. */
static uint64_t
place_time(const struct path *p, uint32_t place)
{
	uint64_t v = 0;
	for (uint32_t k = p->tl_first[place]; k < p->tl_first[place + 1]; k++)
		v += p->segs[p->tl_segs[k]].to - p->segs[p->tl_segs[k]].from;
	return v;
}

static void
tiles(const struct path *p, uint64_t run_ns)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < p->n_regions; i++)
		sum += p->regions[i].time;
	assert_int_equal(sum, p->length);
	assert_int_equal(p->length, run_ns);
	for (uint32_t i = 0; i < p->n_segs; i++)
		assert_int_equal(p->segs[i].from, i ? p->segs[i - 1].to : p->from);
}

#define NEED_GEN() \
	do { \
		if (!have_gen) { \
			print_message("skipped: no skein-gen-hybrid\n"); \
			skip(); \
		} \
	} while (0)

/* Rank 1's OpenMP thread 2 takes 3 ms longer in its loop every
 * iteration: its teammates wait for it in the implicit barrier, rank 0
 * for rank 1 in the Allreduce, and the path runs through thread 2's
 * loops (5 × 4 ms), which have the most blame: every barrier and
 * Allreduce wait of the truth, less the threads' fork latency (their
 * parts begin 5 us after the master's), none for the master's barrier,
 * in which rank 1 waited (its time is no work of its own). */
static void
slow_thread(void **state)
{
	(void)state;
	NEED_GEN();
	uint32_t nf;
	uint64_t run = 0;
	struct fact *f = truth("thread", &nf, &run);
	struct trace *t;
	struct analysis *a = load("thread", &t);
	waits_are_the_truth(t, f, nf);
	allreduce_waits_are_the_truth(a, f, nf);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	tiles(&p, run);
	assert_int_equal(on_path(a, &p, "!$omp for @hybrid.c:11"), 5 * 4000000u);
	assert_string_equal(region_name(a, p.regions[0].region), "!$omp for @hybrid.c:11");
	assert_string_equal(most_blame(a, &p), "!$omp for @hybrid.c:11");
	near(blame_of(a, &p, "!$omp for @hybrid.c:11"),
	     truth_ns(f, nf, "omp-barrier") + truth_ns(f, nf, "allreduce"), 100000);
	assert_true(blame_of(a, &p, "!$omp implicit barrier @hybrid.c:20") < 20000);
	/* rank 1's thread 2 (lanes: rank 0's two threads and stream, then
	 * rank 1's) carries the loops */
	assert_true(place_time(&p, p.n_timelines + 4) >= 5 * 4000000u);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
	free(f);
}

/* Rank 0's kernel takes 5 ms: its host waits for it in
 * cuStreamSynchronize every iteration, rank 1 waits for rank 0 in the
 * Allreduce, and the kernels are on the path whole (5 × 5 ms), its top
 * region with the most blame: the device waits and the Allreduce waits
 * of the truth (rank 0 took longer than rank 1 in cuStreamSynchronize
 * alone, waiting for the kernel), but for the 3 us the call takes after
 * the kernel ends; not cuStreamSynchronize. */
static void
long_kernel(void **state)
{
	(void)state;
	NEED_GEN();
	uint32_t nf;
	uint64_t run = 0;
	struct fact *f = truth("kernel", &nf, &run);
	struct trace *t;
	struct analysis *a = load("kernel", &t);
	waits_are_the_truth(t, f, nf);
	allreduce_waits_are_the_truth(a, f, nf);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	tiles(&p, run);
	assert_int_equal(on_path(a, &p, "jacobi_kernel"), 5 * 5000000u);
	assert_string_equal(region_name(a, p.regions[0].region), "jacobi_kernel");
	assert_string_equal(most_blame(a, &p), "jacobi_kernel");
	near(blame_of(a, &p, "jacobi_kernel"), truth_ns(f, nf, "device-wait") + truth_ns(f, nf, "allreduce"),
	     20000);
	assert_true(blame_of(a, &p, "cuStreamSynchronize") < 20000);
	/* rank 0's stream (lane 2) */
	assert_true(place_time(&p, p.n_timelines + 2) >= 5 * 5000000u);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
	free(f);
}

/* Rank 2 of 3 computes 2 ms longer before each Allreduce: the path
 * leaves for it at every Allreduce, so it changes rank and passes rank
 * 2's computations whole (5 × 2.1 ms). */
static void
late_rank(void **state)
{
	(void)state;
	NEED_GEN();
	uint32_t nf;
	uint64_t run = 0;
	struct fact *f = truth("late", &nf, &run);
	struct trace *t;
	struct analysis *a = load("late", &t);
	waits_are_the_truth(t, f, nf);
	allreduce_waits_are_the_truth(a, f, nf);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	tiles(&p, run);
	assert_int_equal(on_path(a, &p, "compute"), 5 * 2100000u);
	assert_true(p.jumps > 0);
	assert_true(place_time(&p, 2) >= 5 * 2100000u);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
	free(f);
}

/* Each OpenMP thread takes a lock after its loop and runs "update" 0.2
 * ms holding it, the master first; as Score-P records it, the release
 * comes inside omp_unset_lock after "update" returned, and "update"
 * takes the lock again inside (a nest lock: one hold). Thread 1 waits
 * 195.6 µs for the master, thread 2 396.2 µs for thread 1, every
 * iteration, on both ranks (the truth names each wait's holder). The
 * path runs through the three holds of each iteration (5 × 3 × 0.2 ms),
 * and the 20 lock waits are blamed on "update", and so are the barrier
 * waits for thread 2, late by its wait for the lock (less the threads'
 * fork latency: 5 us, ten times). A saved file keeps the locks. */
static void
lock_holder(void **state)
{
	(void)state;
	NEED_GEN();
	uint32_t nf;
	uint64_t run = 0;
	struct fact *f = truth("lock", &nf, &run);
	uint32_t nlock = 0;
	uint64_t locked_ns = 0;
	for (uint32_t k = 0; k < nf; k++)
		if (!strcmp(f[k].kind, "lock-wait"))
			nlock++, locked_ns += f[k].ns;
	assert_int_equal(nlock, 20);
	assert_int_equal(locked_ns, 10 * 195600u + 10 * 396200u);
	struct trace *t;
	struct analysis *a = load("lock", &t);
	/* two ranks × three members × five iterations (the nested
	 * acquisitions inside "update" are the same holds) */
	uint32_t nh;
	trace_holds(t, &nh);
	assert_int_equal(nh, 30);
	waits_are_the_truth(t, f, nf);
	allreduce_waits_are_the_truth(a, f, nf);
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	/* per rank, twice an iteration and once between iterations (thread
	 * 2 to the master, which asks when the lock is free: no wait) */
	assert_int_equal(h.lock_passes, 2 * (5 * 2 + 4));
	hybrid_free(&h);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	tiles(&p, run);
	assert_int_equal(on_path(a, &p, "update"), 5 * 3 * 200000u);
	near(blame_of(a, &p, "update"), locked_ns + truth_ns(f, nf, "omp-barrier") - 10 * 5000, 20000);
	assert_int_equal(blame_of(a, &p, "!$omp for @hybrid.c:11"), 0);
	path_free(&p);
	/* the explorer's lanes metric: each rank's operations hold every
	 * wait of its process (its threads' barrier and lock waits, its
	 * host's device waits), the truth's to the nanosecond */
	struct view_index *ix;
	assert_int_equal(view_index_create(a, &ix, NULL), 0);
	for (uint32_t r = 0; r < 2; r++) {
		uint64_t want = 0, got = 0;
		for (uint32_t k = 0; k < nf; k++)
			if (f[k].rank == (int)r && strcmp(f[k].kind, "allreduce"))
				want += f[k].ns;
		uint32_t first, end;
		view_index_rank_lops(ix, r, &first, &end);
		for (uint32_t l = first; l < end; l++)
			got += view_index_value(ix, METRIC_LANES, l);
		assert_int_equal(got, want);
		assert_true(want > 10 * 195600u);
	}
	view_index_destroy(ix);
	char saved[128];
	snprintf(saved, sizeof saved, "%s/lock.skein", tmpdir);
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	assert_int_equal(saved_write(a, &o, saved, &e), 0);
	struct trace *t2;
	struct analysis *a2;
	assert_int_equal(saved_open(saved, &t2, &a2, NULL, &e), 0);
	uint32_t nh2;
	const struct trace_hold *h1 = trace_holds(t, &nh), *h2 = trace_holds(t2, &nh2);
	assert_int_equal(nh, nh2);
	assert_memory_equal(h1, h2, nh * sizeof *h1);
	for (uint32_t k = 0; k < nf; k++)
		f[k].seen = 0;
	waits_are_the_truth(t2, f, nf);
	analysis_destroy(a2);
	trace_destroy(t2);
	/* an acquisition lost (rank 0's thread 1 in iteration 2, order 8):
	 * its own wait goes, and thread 2's after it names no holder (the
	 * holder before is unknown) instead of the master */
	struct trace_hold *hd = t->holds;
	size_t lost = SIZE_MAX;
	for (size_t k = 0; k < t->n_holds; k++)
		if (hd[k].order == 8 && trace_locations(t, NULL)[hd[k].location].timeline == TRACE_NONE &&
		    strstr(trace_str(t, trace_locations(t, NULL)[hd[k].location].name), "thread 1") &&
		    (trace_locations(t, NULL)[hd[k].location].id & 0xffffffffu) == 0)
			lost = k;
	assert_true(lost != SIZE_MAX);
	memmove(&hd[lost], &hd[lost + 1], (t->n_holds - lost - 1) * sizeof *hd);
	t->n_holds--;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	assert_int_equal(h.lock_gaps, 1);
	uint32_t waits = 0;
	for (uint32_t k = 0; k < h.n_waits; k++)
		waits += h.waits[k].kind == HYW_LOCK;
	assert_int_equal(waits, 18);
	hybrid_free(&h);
	analysis_destroy(a);
	trace_destroy(t);
	free(f);
}

/* The master creates a task every iteration that thread 1 runs for 0.3
 * ms after its loop, and waits for it in a taskwait: 305 µs (the task
 * starts 5 µs after the taskwait, as thread 1's loop ends later), every
 * iteration, on both ranks, blamed on the task, as are the threads'
 * barrier waits for thread 1, late by the task; the path runs through
 * the tasks (5 × 0.3 ms). */
static void
task_wait(void **state)
{
	(void)state;
	NEED_GEN();
	uint32_t nf;
	uint64_t run = 0;
	struct fact *f = truth("task", &nf, &run);
	uint32_t ntw = 0;
	for (uint32_t k = 0; k < nf; k++)
		if (!strcmp(f[k].kind, "omp-taskwait")) {
			ntw++;
			assert_int_equal(f[k].ns, 305000);
		}
	assert_int_equal(ntw, 10);
	struct trace *t;
	struct analysis *a = load("task", &t);
	waits_are_the_truth(t, f, nf);
	allreduce_waits_are_the_truth(a, f, nf);
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	assert_int_equal(h.tasks, 10);
	hybrid_free(&h);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	tiles(&p, run);
	assert_int_equal(on_path(a, &p, "!$omp task @hybrid.c:14"), 5 * 300000u);
	near(blame_of(a, &p, "!$omp task @hybrid.c:14"), 10 * 305000u + truth_ns(f, nf, "omp-barrier"), 20000);
	path_free(&p);
	analysis_destroy(a);
	trace_destroy(t);
	free(f);
}

/* ---- two parallel regions back to back, written by libotf2 ---- */

/* A process without MPI, its master (location 0) and one OpenMP thread
 * (1): the master's parallel regions [100, 200] and [200, 300], each a
 * loop and an implicit barrier entered at 150 and 250; the thread's
 * parts [102, 196] and [x, 296], entering the barriers at 190 and 290.
 * x = 199: the thread's clock puts its second part before the second
 * fork, while the first is still open; 200: at the tick it forks. */
static void
back_to_back(const char *dir, uint64_t x)
{
	OTF2_Archive *a = tu_new_archive(dir);
	/* per location: enter/leave (1/0), time, region (0 parallel, 1 for, 2 barrier) */
	const uint64_t ev[2][12][3] = {
		{ { 1, 100, 0 }, { 1, 100, 1 }, { 0, 150, 1 }, { 1, 150, 2 }, { 0, 198, 2 }, { 0, 200, 0 },
		  { 1, 200, 0 }, { 1, 200, 1 }, { 0, 250, 1 }, { 1, 250, 2 }, { 0, 298, 2 }, { 0, 300, 0 } },
		{ { 1, 102, 0 }, { 1, 102, 1 }, { 0, 190, 1 }, { 1, 190, 2 }, { 0, 195, 2 }, { 0, 196, 0 },
		  { 1, x, 0 }, { 1, x, 1 }, { 0, 290, 1 }, { 1, 290, 2 }, { 0, 295, 2 }, { 0, 296, 0 } },
	};
	for (uint64_t loc = 0; loc < 2; loc++) {
		OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, loc);
		assert_non_null(w);
		for (int k = 0; k < 12; k++) {
			const uint64_t *e = ev[loc][k];
			if (e[0])
				OTF2_EvtWriter_Enter(w, NULL, e[1], (OTF2_RegionRef)e[2]);
			else
				OTF2_EvtWriter_Leave(w, NULL, e[1], (OTF2_RegionRef)e[2]);
		}
		OTF2_Archive_CloseEvtWriter(a, w);
	}
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
	const char *const str[] = { "", "!$omp parallel @x.c:1", "!$omp for @x.c:2", "!$omp implicit barrier @x.c:3",
				    "node", "process", "Master thread", "OMP thread 1" };
	for (uint32_t i = 0; i < 8; i++)
		OTF2_GlobalDefWriter_WriteString(g, i, str[i]);
	const OTF2_RegionRole role[] = { OTF2_REGION_ROLE_PARALLEL, OTF2_REGION_ROLE_LOOP,
					 OTF2_REGION_ROLE_IMPLICIT_BARRIER };
	for (uint32_t r = 0; r < 3; r++)
		OTF2_GlobalDefWriter_WriteRegion(g, r, r + 1, r + 1, 0, role[r], OTF2_PARADIGM_OPENMP,
						 OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 4, 4, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 5, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	OTF2_GlobalDefWriter_WriteLocation(g, 0, 6, OTF2_LOCATION_TYPE_CPU_THREAD, 12, 0);
	OTF2_GlobalDefWriter_WriteLocation(g, 1, 7, OTF2_LOCATION_TYPE_CPU_THREAD, 12, 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
}

/* Back to back, with the thread's part begun at the fork's tick or just
 * before it (its clock): both teams are matched, each barrier's 40 ns
 * wait of the master found, no part in no team. */
static void
teams_back_to_back(void **state)
{
	(void)state;
	for (uint64_t x = 199; x <= 201; x++) {
		char dir[128], anchor[160];
		snprintf(dir, sizeof dir, "%s/b2b%llu", tmpdir, (unsigned long long)x);
		back_to_back(dir, x);
		snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
		struct trace *t = tu_load(anchor);
		struct hybrid h;
		assert_int_equal(hybrid_compute(t, &h, NULL), 0);
		assert_int_equal(h.teams, 2);
		assert_int_equal(h.barriers, 2);
		assert_int_equal(h.parts_unsure, 0);
		assert_int_equal(h.n_waits, 2);
		for (uint32_t k = 0; k < h.n_waits; k++) {
			assert_int_equal(h.waits[k].kind, HYW_BARRIER);
			assert_int_equal(h.waits[k].place, 0);
			assert_int_equal(h.waits[k].to - h.waits[k].from, 40);
		}
		hybrid_free(&h);
		trace_destroy(t);
	}
}

/* A process without MPI, its host thread (location 0) and two CUDA
 * streams (1, 2): it launches kA on stream 1 at [100, 110] and kB on
 * stream 2 at [120, 130], each Enter tagged with its stream
 * (CUDA_STREAM_REF) when `tags`, then synchronises [140, 400]; stream
 * 2 runs kB at [135, 200], stream 1 kA at [300, 350]. */
static void
two_streams(const char *dir, int tags)
{
	OTF2_Archive *a = tu_new_archive(dir);
	OTF2_AttributeList *al = OTF2_AttributeList_New();
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	if (tags)
		OTF2_AttributeList_AddLocationRef(al, 0, 1);
	OTF2_EvtWriter_Enter(w, al, 100, 0);
	OTF2_EvtWriter_Leave(w, NULL, 110, 0);
	if (tags)
		OTF2_AttributeList_AddLocationRef(al, 0, 2);
	OTF2_EvtWriter_Enter(w, al, 120, 0);
	OTF2_EvtWriter_Leave(w, NULL, 130, 0);
	OTF2_EvtWriter_Enter(w, NULL, 140, 3);
	OTF2_EvtWriter_Leave(w, NULL, 400, 3);
	OTF2_Archive_CloseEvtWriter(a, w);
	w = OTF2_Archive_GetEvtWriter(a, 1);
	OTF2_EvtWriter_Enter(w, NULL, 300, 1);
	OTF2_EvtWriter_Leave(w, NULL, 350, 1);
	OTF2_Archive_CloseEvtWriter(a, w);
	w = OTF2_Archive_GetEvtWriter(a, 2);
	OTF2_EvtWriter_Enter(w, NULL, 135, 2);
	OTF2_EvtWriter_Leave(w, NULL, 200, 2);
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_AttributeList_Delete(al);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
	const char *const str[] = { "", "cuLaunchKernel", "kA", "kB", "cuCtxSynchronize", "node", "process",
				    "Master thread", "CUDA[0:1]", "CUDA[0:2]", "CUDA_STREAM_REF" };
	for (uint32_t i = 0; i < 11; i++)
		OTF2_GlobalDefWriter_WriteString(g, i, str[i]);
	const uint32_t name[] = { 1, 2, 3, 4 };
	for (uint32_t r = 0; r < 4; r++)
		OTF2_GlobalDefWriter_WriteRegion(g, r, name[r], name[r], 0,
						 r == 1 || r == 2 ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_WRAPPER,
						 OTF2_PARADIGM_CUDA, OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteAttribute(g, 0, 10, 0, OTF2_TYPE_LOCATION);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 5, 5, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 6, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	OTF2_GlobalDefWriter_WriteLocation(g, 0, 7, OTF2_LOCATION_TYPE_CPU_THREAD, 6, 0);
	OTF2_GlobalDefWriter_WriteLocation(g, 1, 8, OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, 2, 0);
	OTF2_GlobalDefWriter_WriteLocation(g, 2, 9, OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, 2, 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
}

/* The frame of the launch each stream's kernel was paired with (its
 * edge back to the host), for stream lanes 0 and 1. */
static void
kernel_launches(const char *dir, uint32_t *by)
{
	char anchor[160];
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	struct trace *t = tu_load(anchor);
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	assert_int_equal(h.unpaired_work, 0);
	assert_int_equal(h.unpaired_calls, 0);
	by[0] = by[1] = TRACE_NONE;
	for (uint32_t k = 0; k < h.n_edges; k++) {
		const struct hybrid_edge *e = &h.edges[k];
		if (e->place >= h.n_timelines && e->by == 0)
			by[e->place - h.n_timelines] = e->by_frame;
	}
	hybrid_free(&h);
	trace_destroy(t);
}

/* Launches that name their stream (Score-P's CUDA_STREAM_REF) are paired
 * with that stream's kernels: kA with the first launch, kB with the
 * second, though kB ran first; without the names, in time order, kB
 * goes with the first (both readers alike). */
static void
stream_launches(void **state)
{
	(void)state;
	char dir[128];
	uint32_t by[2];
	for (int library = 0; library < 2; library++) {
		if (library)
			setenv("SKEIN_OTF2_EVENTS", "library", 1);
		snprintf(dir, sizeof dir, "%s/streams-tagged", tmpdir);
		if (!library)
			two_streams(dir, 1);
		kernel_launches(dir, by);
		assert_int_equal(by[0], 0);     /* stream 1's kA: the first launch */
		assert_int_equal(by[1], 1);     /* stream 2's kB: the second */
		snprintf(dir, sizeof dir, "%s/streams-plain", tmpdir);
		if (!library)
			two_streams(dir, 0);
		kernel_launches(dir, by);
		assert_int_equal(by[0], 1);
		assert_int_equal(by[1], 0);
		unsetenv("SKEIN_OTF2_EVENTS");
	}
}

/* casita-2_cuda_simple: every fork (otf2-print: 25 THREAD_FORK on rank
 * 0, 24 on rank 1) a team with its barrier; CASITA's path agrees on the
 * device and thread regions it sees as skein does (doc/analysis.md). */
static void
casita_cuda(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-2_cuda_simple/traces.otf2");
	struct trace *t = tu_load(path);
	struct analysis *a = NULL;
	struct analysis_opts o;
	analysis_opts_default(&o);
	struct err e = { 0 };
	assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
	struct hybrid h;
	assert_int_equal(hybrid_compute(t, &h, NULL), 0);
	assert_int_equal(h.teams, 49);
	assert_int_equal(h.barriers, 49);
	/* 20 cuLaunchKernel and 43 cuMemcpy calls a rank, as many kernels
	 * and copies on its stream */
	assert_int_equal(h.unpaired_work, 0);
	assert_int_equal(h.unpaired_calls, 0);
	/* otf2-print: 40 THREAD_ACQUIRE_LOCK, each released, 10 a location;
	 * by acquisition order the lock passes from one thread of a rank to
	 * the other 34 times */
	uint32_t nh;
	trace_holds(t, &nh);
	assert_int_equal(nh, 40);
	assert_int_equal(h.lock_passes, 34);
	/* otf2-print: rank 0's OpenMP thread enters "!$omp critical
	 * @jacobi_cuda.c:200" at 9604711649489007 while its master holds the
	 * section's lock (ThreadAcquireLock order 1 at 9604711649503291,
	 * ThreadReleaseLock at 9604711649520135; the thread's acquisition is
	 * order 2): it waits 31,128 ns for the master. Without the locks'
	 * records the master's body ("critical sblock" to 9604711649517187)
	 * would say 28,180 ns. */
	int found = 0;
	for (uint32_t i = 0; i < h.n_waits; i++) {
		const struct hybrid_wait *w = &h.waits[i];
		if (w->kind == HYW_CRITICAL && w->from + trace_info(t)->global_offset == 9604711649489007ull) {
			assert_int_equal(w->to - w->from, 31128);
			assert_int_equal(w->cause, 0);
			assert_int_equal(w->place, h.n_timelines);
			found = 1;
		}
	}
	assert_true(found);
	hybrid_free(&h);
	struct path p;
	assert_int_equal(path_compute(a, &p, NULL), 0);
	uint64_t sum = 0;
	for (uint32_t i = 0; i < p.n_regions; i++)
		sum += p.regions[i].time;
	assert_int_equal(sum, p.length);
	/* CASITA: 0.004914 s and 0.024031 s */
	assert_int_equal(on_path(a, &p, "_Z11copy_kernelPfPKfii") / 1000, 4914);
	assert_int_equal(on_path(a, &p, "!$omp for @jacobi_cuda.c:175") / 1000, 24031);
	path_free(&p);
	/* the profile counts the threads and streams with their ranks:
	 * CASITA's region table (every location) has the device kernel's
	 * 20 calls, 0.009828 s, and the loop's 40, 0.096127 s */
	struct profile pr;
	assert_int_equal(profile_compute(t, NULL, &pr, NULL), 0);
	uint64_t kernel_calls = 0, kernel_us = 0, loop_calls = 0, loop_us = 0;
	for (uint32_t i = 0; i < pr.n_regions; i++) {
		const char *name = region_name(a, pr.regions[i].region);
		if (!strcmp(name, "_Z11copy_kernelPfPKfii") && pr.regions[i].excl > 1000000)
			kernel_calls += pr.regions[i].calls, kernel_us += pr.regions[i].excl;
		if (!strcmp(name, "!$omp for @jacobi_cuda.c:175"))
			loop_calls += pr.regions[i].calls, loop_us += pr.regions[i].excl;
	}
	assert_int_equal(kernel_calls, 20);
	assert_int_equal((kernel_us + 500) / 1000, 9828);     /* to CASITA's microsecond */
	assert_int_equal(loop_calls, 40);
	assert_int_equal((loop_us + 500) / 1000, 96127);
	profile_free(&pr);
	/* the communication summary counts the streams' copies as device
	 * copies: otf2-print has 86 RMA_GET and RMA_PUT on the two CUDA
	 * streams, 192,020,304 bytes in all */
	struct comm cm;
	assert_int_equal(comm_compute(t, NULL, &cm, NULL), 0);
	assert_int_equal(cm.device_ops, 86);
	assert_int_equal(cm.device_bytes, 192020304);
	comm_free(&cm);
	/* a saved file keeps the lanes: the same frames, the same path */
	char saved[128];
	snprintf(saved, sizeof saved, "%s/cuda.skein", tmpdir);
	struct analysis_opts o2;
	analysis_opts_default(&o2);
	assert_int_equal(saved_write(a, &o2, saved, &e), 0);
	struct trace *t2;
	struct analysis *a2;
	assert_int_equal(saved_open(saved, &t2, &a2, NULL, &e), 0);
	uint32_t n1, n2, f1, f2;
	const struct trace_lane *l1 = trace_lanes(t, &n1), *l2 = trace_lanes(t2, &n2);
	const struct trace_frame *fr1 = trace_lane_frames(t, &f1), *fr2 = trace_lane_frames(t2, &f2);
	assert_int_equal(n1, n2);
	assert_int_equal(f1, f2);
	assert_memory_equal(l1, l2, n1 * sizeof *l1);
	assert_memory_equal(fr1, fr2, f1 * sizeof *fr1);
	const uint64_t *b1 = trace_lane_bytes(t, &n1), *b2 = trace_lane_bytes(t2, &n2);
	assert_int_equal(n1, f1);
	assert_int_equal(n2, f2);
	assert_memory_equal(b1, b2, n1 * sizeof *b1);
	const struct trace_hold *h1 = trace_holds(t, &n1), *h2 = trace_holds(t2, &n2);
	assert_int_equal(n1, 40);
	assert_int_equal(n2, 40);
	assert_memory_equal(h1, h2, n1 * sizeof *h1);
	struct path q;
	assert_int_equal(path_compute(a2, &q, NULL), 0);
	assert_int_equal(on_path(a2, &q, "_Z11copy_kernelPfPKfii") / 1000, 4914);
	path_free(&q);
	analysis_destroy(a2);
	trace_destroy(t2);
	analysis_destroy(a);
	trace_destroy(t);
}

/* casita-1_scorep-ompt-host-nested (otf2-print): two outer teams
 * (parallel@0x4021, @0x4027), each of the master and threads 3, 2 and
 * 4, in which the master and thread 2 fork nested teams (of threads 5, 6
 * and 7, and of 8, 9 and 10): OMPT's OMPT_PARALLEL_REGION_ID on every
 * fork and implicit task names them (ids 1-6, both readers alike), and
 * time alone could not (15 of the 18 parts were begun while several
 * forks were open). In the first outer team the master enters its
 * barrier at tick 95204647044632994 and thread 2, last, at
 * ...045915605: 1,282,611 ticks; in the master's nested team it enters
 * at ...043422500 and thread 7, last, at ...044558137: 1,135,637. */
static void
nested_teams(const struct trace *t, const struct hybrid *h)
{
	uint32_t n;
	trace_tags(t, &n);
	assert_int_equal(n, 30);
	assert_int_equal(h->teams, 6);
	assert_int_equal(h->barriers, 6);
	int outer = 0, inner = 0;
	for (uint32_t k = 0; k < h->n_waits; k++) {
		const struct hybrid_wait *w = &h->waits[k];
		uint64_t id = w->cause >= h->n_timelines
			? trace_locations(t, NULL)[trace_lanes(t, NULL)[w->cause - h->n_timelines].location].id : 0;
		if (w->place == 0 && w->from + trace_info(t)->global_offset == 95204647044632994ull) {
			assert_int_equal(w->to - w->from, 1282611);
			assert_int_equal(id, 8589934592ull);
			outer = 1;
		}
		if (w->place == 0 && w->from + trace_info(t)->global_offset == 95204647043422500ull) {
			assert_int_equal(w->to - w->from, 1135637);
			assert_int_equal(id, 25769803776ull);
			inner = 1;
		}
	}
	assert_true(outer && inner);
	/* libotf2's reading tags them alike */
	char path[1024];
	SHARED_TRACE(path, "otf2/casita-1_scorep-ompt-host-nested/traces.otf2");
	setenv("SKEIN_OTF2_EVENTS", "library", 1);
	struct trace *t2 = tu_load(path);
	unsetenv("SKEIN_OTF2_EVENTS");
	uint32_t n2;
	const struct trace_tag *a = trace_tags(t, &n), *b = trace_tags(t2, &n2);
	assert_int_equal(n, n2);
	assert_memory_equal(a, b, n * sizeof *a);
	trace_destroy(t2);
}

/* Every shared trace with threads or streams: the dependencies and the
 * path computed (under ASan and UBSan in make check), the path tiling
 * the run and its regions adding up to it, every wait inside its
 * frame's time and before its release, every edge released no later
 * than it holds. */
static void
shared_hybrid(void **state)
{
	(void)state;
	static const char *const rel[] = {
		"otf2/casita-2_cuda_simple/traces.otf2", "otf2/casita-2_jacobi_blame_cpu_015/traces.otf2",
		"otf2/casita-1_xeonphi_jacobi_01/traces.otf2", "otf2/casita-1_ocl_deps/traces.otf2",
		"otf2/casita-1_scorep-ompt-host-nested/traces.otf2", "otf2/fastotf2-simple-mi300/traces.otf2",
		"otf2/apex-hpx-als-movielens/APEX.otf2",
	};
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		char path[1024];
		SHARED_TRACE(path, rel[i]);
		struct trace *t = tu_load(path);
		uint32_t n_lanes;
		trace_lanes(t, &n_lanes);
		assert_true(n_lanes > 0);
		struct analysis *a = NULL;
		struct analysis_opts o;
		analysis_opts_default(&o);
		struct err e = { 0 };
		assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
		struct hybrid h;
		assert_int_equal(hybrid_compute(t, &h, NULL), 0);
		for (uint32_t k = 0; k < h.n_waits; k++) {
			const struct hybrid_wait *w = &h.waits[k];
			uint32_t first, n;
			const struct trace_frame *fr = hybrid_place_frames(t, &h, w->place, &first, &n);
			assert_true(w->from < w->to);
			assert_true(w->frame >= first && w->frame < first + n);
			assert_true(w->from >= fr[w->frame].t_enter && w->to <= fr[w->frame].t_leave);
		}
		for (uint32_t k = 0; k < h.n_edges; k++)
			assert_true(h.edges[k].by_at <= h.edges[k].at);
		/* otf2-print: the Xeon Phi run's OpenMP thread runs 100 tasks
		 * of each of "!$omp task @jacobi_target.c:164" and ":219", the
		 * master creates them ("!$omp create task" of the same lines) */
		if (strstr(rel[i], "xeonphi"))
			assert_int_equal(h.tasks, 200);
		assert_int_equal(h.parts_unsure, 0);
		if (strstr(rel[i], "nested"))
			nested_teams(t, &h);
		hybrid_free(&h);
		struct path p;
		assert_int_equal(path_compute(a, &p, NULL), 0);
		tiles(&p, p.to - p.from);
		assert_int_equal(p.from, trace_info(t)->t_begin);
		assert_int_equal(p.to, trace_info(t)->t_end);
		path_free(&p);
		analysis_destroy(a);
		trace_destroy(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slow_thread),
		cmocka_unit_test(long_kernel),
		cmocka_unit_test(late_rank),
		cmocka_unit_test(lock_holder),
		cmocka_unit_test(task_wait),
		cmocka_unit_test(teams_back_to_back),
		cmocka_unit_test(stream_launches),
		cmocka_unit_test(casita_cuda),
		cmocka_unit_test(shared_hybrid),
	};
	return cmocka_run_group_tests_name("threads and streams", tests, setup, teardown);
}
