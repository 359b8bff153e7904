/* test_saved_mutate.c — no saved file whose sums are right can make a
 * command read out of bounds (issue 37).
 *
 * Files skein wrote (an MPI trace reordered with the leap merge, phases
 * and iterations; one with one-sided communication; a Charm++ run when
 * ../shared has it) are altered one
 * word at a time: every index word of every section (of a sample of each
 * section's records: the first two, the last two and three between) set
 * to 0, to the largest value, to its neighbour's value (the same word of
 * the record before) and to the first value past the end of what it
 * indexes; every other word (times, sizes, flags, the meta section's
 * scalars and counts) to the largest value. The sums are computed again,
 * so each altered file reaches the opener's checks (saved_check.c); one
 * that opens goes through what the commands read (savedread.h: info,
 * analyze in every format and table with the clusters, export, diff
 * against the file it came from both ways, render through every pane,
 * and for a change in the model its analysis again). Under ASan (make
 * check) a read out of bounds fails the test; a refusal must name the
 * file. About 5,000 files, a few seconds.
 *
 * SKEIN_MUTATE_FULL=1: every record, every word to 0, the largest value
 * and its neighbour's, the strings too, every key script, an MPI trace
 * with iterations as well (some minutes). SKEIN_MUTATE_FORK=1: each
 * altered file in a child process, every crash listed (with the
 * sanitizer's report) instead of stopping at the first.
 */
#include "testutil.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/saved/saved_impl.h"
#include "projections/projections_read.h"
#include "savedread.h"

/* What a word indexes: the count past which its value is out of range. */
enum target {
	X_NONE, X_STR, X_TL, X_REGION, X_COMM, X_CMEM, X_NODE, X_OP, X_END, X_MSG, X_COLL,
	X_COLLMEM, X_FRAME, X_PE, X_IDLE, X_LOP, X_PART, X_STEP, X_PLOP, X_SUCC, X_PMIN,
	X_ITER, X_PHASE, X_CALL, X_WIN, X_COUNT
};

/* Index words of a record: byte offset and target (u32 words). */
struct field {
	uint32_t sec, off;
	enum target x;
};

static const struct field fields[] = {
	{ S_TIMELINES, 8, X_STR }, { S_TIMELINES, 12, X_NODE }, { S_TIMELINES, 16, X_OP },
	{ S_TIMELINES, 20, X_OP }, { S_TIMELINES, 24, X_FRAME }, { S_TIMELINES, 28, X_FRAME },
	{ S_TIMELINES, 48, X_CALL }, { S_TIMELINES, 52, X_CALL },
	{ S_LOCATIONS, 8, X_STR }, { S_LOCATIONS, 12, X_STR }, { S_LOCATIONS, 16, X_TL },
	{ S_REGIONS, 0, X_STR },
	{ S_COMMS, 0, X_STR }, { S_COMMS, 4, X_CMEM }, { S_COMMS, 8, X_CMEM }, { S_COMMS, 12, X_COMM },
	{ S_COMM_MEMBERS, 0, X_TL },
	{ S_NODES, 0, X_STR }, { S_NODES, 4, X_STR }, { S_NODES, 8, X_NODE },
	{ S_OPS, 16, X_TL }, { S_OPS, 20, X_FRAME }, { S_OPS, 24, X_END }, { S_OPS, 28, X_REGION },
	{ S_ENDS, 0, X_MSG },
	{ S_MSGS, 24, X_OP }, { S_MSGS, 28, X_OP }, { S_MSGS, 32, X_OP }, { S_MSGS, 36, X_TL },
	{ S_MSGS, 40, X_TL }, { S_MSGS, 44, X_COMM },
	{ S_COLLS, 0, X_COMM }, { S_COLLS, 4, X_TL }, { S_COLLS, 8, X_COLLMEM },
	{ S_COLLS, 12, X_COLLMEM },
	{ S_COLL_MEMBERS, 0, X_OP },
	{ S_FRAMES, 16, X_REGION }, { S_FRAMES, 20, X_FRAME }, { S_FRAMES, 24, X_TL },
	{ S_PES, 288, X_IDLE }, { S_PES, 292, X_IDLE }, { S_PES, 296, X_TL },
	{ S_CHARES, 0, X_STR }, { S_CHARES, 8, X_PE },
	{ S_ENTRIES, 8, X_STR },
	{ S_OP_PE, 0, X_PE },
	{ S_LOP_OP, 0, X_OP }, { S_OP_LOP, 0, X_LOP }, { S_TL_LOP, 0, X_LOP }, { S_LOP_TL, 0, X_TL },
	{ S_LOP_PART, 0, X_PART },
	{ S_PARTS, 4, X_STEP }, { S_PARTS, 8, X_STEP }, { S_PARTS, 28, X_PHASE },
	{ S_PARTS, 32, X_REGION },
	{ S_PART_LOP_FIRST, 0, X_PLOP }, { S_PART_LOPS, 0, X_LOP }, { S_DAG_FIRST, 0, X_SUCC },
	{ S_DAG_SUCC, 0, X_PART }, { S_PART_ORDER, 0, X_PART }, { S_LOP_PHASE, 0, X_PHASE },
	{ S_LOP_PHASE_REGION, 0, X_REGION }, { S_LOP_STEP, 0, X_STEP }, { S_PMIN_FIRST, 0, X_PMIN },
	{ S_HOT, 0, X_LOP }, { S_HOT_ALL, 0, X_LOP }, { S_ITER_STARTS, 0, X_STEP },
	{ S_ITER_RUNS, 0, X_LOP }, { S_ITER_RUNS, 4, X_ITER },
	{ S_OP_OF_LOP, 0, X_OP }, { S_OP_LAST_OF_LOP, 0, X_OP }, { S_PART_REGION, 0, X_REGION },
	{ S_DIFF_BIG, 0, X_LOP }, { S_CAUSE_FAR, 0, X_LOP }, { S_CAUSE_FAR, 4, X_LOP },
	{ S_WINS, 0, X_STR }, { S_WINS, 4, X_COMM },
	{ S_RMAS, 32, X_OP }, { S_RMAS, 36, X_OP }, { S_RMAS, 40, X_TL }, { S_RMAS, 44, X_TL },
	{ S_RMAS, 48, X_WIN },
	{ S_EPOCHS, 16, X_TL }, { S_EPOCHS, 20, X_WIN }, { S_EPOCHS, 24, X_TL },
	{ S_EPOCHS, 28, X_OP }, { S_EPOCHS, 32, X_OP },
	{ S_WAITS, 0, X_LOP }, { S_WAITS, 4, X_LOP }, { S_WAITS, 8, X_LOP },
	{ S_DELAYS, 0, X_LOP }, { S_OUTLIERS, 0, X_LOP },
	{ S_PROBLEMS, 8, X_LOP }, { S_PROBLEMS, 12, X_LOP },
};

struct file {
	unsigned char *b;     /* 64-byte aligned, as a mapping is */
	size_t n;
	uint64_t count[X_COUNT];
};

static struct section *
section(struct file *f, uint32_t id)
{
	struct section *s = (struct section *)(f->b + sizeof(struct header));
	for (uint32_t i = 0; i < S_END; i++)
		if (s[i].id == id)
			return &s[i];
	return NULL;
}

static uint64_t
records(struct file *f, uint32_t id)
{
	struct section *s = section(f, id);
	return s ? s->count : 0;
}

/* The counts each target is checked against, from the unaltered file. */
static void
targets(struct file *f)
{
	const struct meta *m = (const struct meta *)(f->b + section(f, S_META)->offset);
	uint64_t *c = f->count;
	c[X_STR] = records(f, S_STRINGS);
	c[X_TL] = records(f, S_TIMELINES);
	c[X_REGION] = records(f, S_REGIONS);
	c[X_COMM] = records(f, S_COMMS);
	c[X_CMEM] = records(f, S_COMM_MEMBERS);
	c[X_NODE] = records(f, S_NODES);
	c[X_OP] = records(f, S_OPS) * (m->paradigm == PARADIGM_MPI ? 2 : 1);
	c[X_END] = records(f, S_ENDS);
	c[X_MSG] = records(f, S_MSGS);
	c[X_COLL] = records(f, S_COLLS);
	c[X_COLLMEM] = records(f, S_COLL_MEMBERS);
	c[X_FRAME] = records(f, S_FRAMES);
	c[X_PE] = records(f, S_PES);
	c[X_IDLE] = records(f, S_IDLES);
	c[X_LOP] = m->n_lops;
	c[X_PART] = m->n_parts;
	c[X_STEP] = m->n_steps;
	c[X_PLOP] = records(f, S_PART_LOPS);
	c[X_SUCC] = records(f, S_DAG_SUCC);
	c[X_PMIN] = records(f, S_PMIN);
	c[X_ITER] = m->iter_count;
	c[X_PHASE] = m->n_phases;
	c[X_CALL] = records(f, S_CALLS);
	c[X_WIN] = records(f, S_WINS);
}

/* The sums of section id, of the table and of the header, again. */
static void
resum(struct file *f, uint32_t id)
{
	struct section *s = section(f, id);
	s->sum = saved_checksum(f->b + s->offset, s->bytes);
	struct header h;
	memcpy(&h, f->b, sizeof h);
	h.table_sum = saved_checksum(f->b + sizeof h, sizeof(struct section) * S_END);
	h.header_sum = 0;
	h.header_sum = saved_checksum(&h, sizeof h);
	memcpy(f->b, &h, sizeof h);
}

static struct file
from_bytes(const char *path)
{
	struct file f = { 0 };
	char *raw = tu_slurp(path, &f.n);
	assert_non_null(raw);
	assert_int_equal(posix_memalign((void **)&f.b, 64, f.n), 0);
	memcpy(f.b, raw, f.n);
	free(raw);
	targets(&f);
	return f;
}

static struct file
save(struct analysis *a, const struct analysis_opts *o)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/skein-test-mutate-%ld.skein", (long)getpid());
	struct err e = { 0 };
	assert_int_equal(saved_write(a, o, path, &e), 0);
	struct file f = from_bytes(path);
	unlink(path);
	return f;
}

/* ---- what the commands read ---- */

struct run {
	const struct analysis *orig;     /* the unaltered file's, for diff */
	uint64_t opened, refused;
};

static FILE *devnull;
static int full;          /* SKEIN_MUTATE_FULL */

/* Opens f and reads it all (the model analysed again when section sec
 * is the model's); 0 when it opened, 1 when refused (the message must
 * name the file). */
static int
try_open(struct file *f, const struct run *r, uint32_t sec, char *why, size_t n)
{
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct err e = { 0 };
	if (saved_open_mem(f->b, f->n, "m.skein", &t, &a, NULL, &e)) {
		snprintf(why, n, "%s", e.msg);
		return 1;
	}
	savedread_all(a, r->orig, (sec < S_LOP_OP ? SAVEDREAD_REANALYSE : 0) |
		      (full ? SAVEDREAD_ALL_KEYS | SAVEDREAD_REANALYSE | SAVEDREAD_ALL : 0), devnull);
	analysis_destroy(a);
	trace_destroy(t);
	return 0;
}

/* ---- the alterations ---- */

static enum target
target_of(uint32_t sec, uint32_t off, uint32_t elem)
{
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (fields[i].sec == sec && fields[i].off == off % elem)
			return fields[i].x;
	return X_NONE;
}

/* The records altered: in full, all; else all of a short section, or
 * the first two, the last two and three between. */

static int
sampled(uint64_t rec, uint64_t count)
{
	if (full || count <= 8 || rec < 2 || rec + 2 >= count)
		return 1;
	uint64_t step = count / 4;
	return step && rec % step == 0 && rec / step <= 3;
}

struct alter {
	uint32_t sec;
	uint64_t off;         /* within the section */
	uint32_t width;       /* 1 or 4 */
	uint32_t value;
	const char *kind;
};

static int fork_each;
static uint64_t crashed;
static uint64_t tried;    /* altered files so far */
static int own_workers;   /* SKEIN_THREADS is this test's to set (ASan) */

/* Without ASan (the plain and TSan builds of make check) a read out of
 * bounds may pass unseen: there one altered file in eight is tried, for
 * the crashes a plain build does see; under TSan one in 16, which still
 * opens some 50 of each file (the model's sections among them, analysed
 * again) and reads them through every command's report and analysis on
 * the workers (savedread.h; SKEIN_THREADS unset: one a core), the
 * parallel paths TSan is for, in all but a few branches that single
 * alterations reach (gcov, 2026-12-02: 21 lines of view_charm.c's
 * details, 5 of iterations.c, 4 of profile.c, 3 of report_iter.c, one
 * each of path_blame.c, charm_metrics.c and saved.c, of the lines one
 * in eight runs in the files that use the worker pool; one in 64 lost
 * the general rendezvous of steps.c and the device copies of comm.c
 * too). What it drops is the same paths over more alterations, some
 * ten times slower each. */
#if defined(__SANITIZE_ADDRESS__)
#define STRIDE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRIDE 1
#endif
#endif
#if !defined(STRIDE) && defined(__SANITIZE_THREAD__)
#define STRIDE 16
#endif
#define PLAIN_STRIDE 8
#ifndef STRIDE
#define STRIDE PLAIN_STRIDE
#endif
/* the handlers before cmocka's (a sanitizer's, which prints where): a
 * child dies of its crash instead of running the next tests */
static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction before[sizeof crash_sigs / sizeof *crash_sigs];

static void
one(struct file *f, struct run *r, const struct alter *m)
{
	struct section *s = section(f, m->sec);
	unsigned char *p = f->b + s->offset + m->off;
	uint32_t old = 0;
	memcpy(&old, p, m->width);
	if (old == m->value || (!full && tried++ % STRIDE))
		return;
#if STRIDE == 1
	/* Under ASan every altered file is read, the plain run's one in
	 * eight on the workers (one a core) and the others on one
	 * (SKEIN_THREADS=1): out-of-bounds reads are what ASan is for, and
	 * the reads of a file are the same code on one worker or several
	 * but for how the shares are cut, which that one in eight keeps
	 * under ASan. A pool's sleeps and wake-ups for every small stage
	 * made the ASan run 34 s of CPU where it is 25. Nothing else runs
	 * while this changes. */
	if (own_workers && (tried - 1) % PLAIN_STRIDE)
		setenv("SKEIN_THREADS", "1", 1);
	else if (own_workers)
		unsetenv("SKEIN_THREADS");
#endif
	memcpy(p, &m->value, m->width);
	resum(f, m->sec);
	char why[512] = "";
	if (fork_each) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			for (size_t i = 0; i < sizeof crash_sigs / sizeof *crash_sigs; i++)
				sigaction(crash_sigs[i], &before[i], NULL);
			alarm(60);      /* a hang is a crash too */
			_exit(try_open(f, r, m->sec, why, sizeof why) ? 3 : 0);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 3)) {
			print_message("CRASH: section %u, byte %llu of it: %s %u (was %u)\n", m->sec,
				      (unsigned long long)m->off, m->kind, m->value, old);
			crashed++;
		}
	} else if (try_open(f, r, m->sec, why, sizeof why)) {
		r->refused++;
		if (!strstr(why, "m.skein"))
			fail_msg("section %u byte %llu set to %u: the refusal names no file: %s", m->sec,
				 (unsigned long long)m->off, m->value, why);
	} else {
		r->opened++;
	}
	memcpy(p, &old, m->width);
	resum(f, m->sec);
}

/* The first value past what word w of a record of section id indexes
 * (cur: its value now), or 0 when it is not an index. */
static int
past_end(const struct file *f, uint32_t id, uint32_t w, uint32_t elem, uint32_t width, uint32_t cur,
	 uint32_t *past)
{
	if (id == S_LOP_KIND) {
		*past = OP_KIND_COUNT;
		return 1;
	}
	if (id == S_CAUSE) {
		*past = (cur & ~CAUSE_MASK) | CAUSE_COUNT;
		return 1;
	}
	enum target x = width == 4 ? target_of(id, w, elem) : X_NONE;
	if (x == X_NONE)
		return 0;
	*past = (uint32_t)f->count[x];
	if (id == S_ENDS) {
		/* an end's id: 30 bits, its role above */
		uint32_t role = cur >> 30;
		*past = (uint32_t)f->count[role == END_COLL ? X_COLL : X_MSG] | role << 30;
	} else if (id == S_OPS && w == 28) {
		*past = (cur & ~0x3fffffu) | (uint32_t)f->count[X_REGION];
	}
	return 1;
}

/* Every index word of the sampled records set to 0, to the largest
 * value, to its neighbour's (the same word of the record before, or
 * after for the first) and to the first value past the end of what it
 * indexes; the other words (the meta section's too) to the largest
 * value, and in full also to 0 and the neighbour's. Strings are altered
 * in full only. */
static void
alter_all(struct file *f, struct run *r)
{
	for (uint32_t id = S_META; id < S_END; id++) {
		struct section *s = section(f, id);
		if (!s || !s->bytes || (!s->elem_size && !full))
			continue;
		uint32_t elem = s->elem_size ? s->elem_size : 1;
		uint32_t width = elem == 1 || elem % 4 ? 1 : 4;
		uint64_t count = s->bytes / elem;
		for (uint64_t rec = 0; rec < count; rec++) {
			if (!sampled(rec, count) && id != S_META)
				continue;
			for (uint32_t w = 0; w < elem; w += width) {
				uint64_t off = rec * elem + w;
				uint32_t cur = 0, nb = 0, max = width == 4 ? UINT32_MAX : 0xff, past;
				memcpy(&cur, f->b + s->offset + off, width);
				uint64_t noff = rec ? off - elem : count > 1 ? off + elem : off;
				if (id == S_META)
					noff = off >= 4 ? off - 4 : off + 4;
				memcpy(&nb, f->b + s->offset + noff, width);
				int index = id != S_META && past_end(f, id, w, elem, width, cur, &past);
				if (!index && !full && id != S_META && rec && rec + 1 < count)
					continue;     /* values: of the first and last records */
				struct alter m = { id, off, width, max, "max" };
				one(f, r, &m);
				if (!index && !full)
					continue;
				m.value = 0;
				m.kind = "0";
				one(f, r, &m);
				m.value = nb;
				m.kind = "neighbour";
				one(f, r, &m);
				if (!index)
					continue;
				m.value = past;
				m.kind = "past the end";
				one(f, r, &m);
			}
		}
	}
}

static void
mutate(struct analysis *a, const struct analysis_opts *o, const char *what)
{
	struct file f = save(a, o);
	struct run r = { .orig = a };
	/* unaltered (sums recomputed), it opens */
	char why[512];
	resum(&f, S_LOP_PART);
	if (try_open(&f, &r, S_LOP_PART, why, sizeof why))
		fail_msg("%s: the unaltered file is refused: %s", what, why);
	alter_all(&f, &r);
	print_message("%s: %llu altered files opened, %llu refused\n", what,
		      (unsigned long long)r.opened, (unsigned long long)r.refused);
	free(f.b);
	if (crashed)
		fail_msg("%llu altered files crashed", (unsigned long long)crashed);
}

static void
mpi_iterations(void **state)
{
	(void)state;
	if (!full) {
		print_message("skipped: in full only (SKEIN_MUTATE_FULL=1)\n");
		skip();
	}
	struct trace *t = tu_load_corpus("stencil-4");
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	mutate(a, &o, "stencil-4");
	analysis_destroy(a);
	trace_destroy(t);
}

static void
mpi_reordered_phases(void **state)
{
	(void)state;
	struct trace *t = tu_load_corpus("gen-gather-6-delay");
	struct analysis_opts o;
	analysis_opts_default(&o);
	o.reorder = 1;
	o.leap_merge = 1;
	struct analysis_phase_rule rule = { .region_glob = "iteration" };
	o.phases = &rule;
	o.n_phases = 1;
	struct analysis *a = tu_analyse(t, &o);
	mutate(a, &o, "gen-gather-6-delay, reordered, phases");
	analysis_destroy(a);
	trace_destroy(t);
}

/* One-sided communication: windows, RMA operations and epochs (the
 * project's tracer on tests/rma.c under MPICH, traces/onesided). */
static void
mpi_one_sided(void **state)
{
	(void)state;
	char path[1024];
	PROJECT_PATH(path, "traces/onesided/rma-2/traces.otf2");
	struct trace *t = tu_load(path);
	assert_true(trace_has_rma(t));
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	mutate(a, &o, "onesided rma-2");
	analysis_destroy(a);
	trace_destroy(t);
}

static void
charm(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "projections/charm-hello1d_8c_4pe/hello1d.prj.sts");
	struct trace *t = NULL;
	struct err e = { 0 };
	assert_int_equal(projections_read(path, NULL, &t, &e), 0);
	struct analysis *a = tu_analyse(t, NULL);
	struct analysis_opts o;
	analysis_opts_default(&o);
	mutate(a, &o, "charm-hello1d_8c_4pe");
	analysis_destroy(a);
	trace_destroy(t);
}

int
main(void)
{
	fork_each = getenv("SKEIN_MUTATE_FORK") && *getenv("SKEIN_MUTATE_FORK") == '1';
	full = getenv("SKEIN_MUTATE_FULL") && *getenv("SKEIN_MUTATE_FULL") == '1';
	own_workers = !full && !getenv("SKEIN_THREADS");
	for (size_t i = 0; i < sizeof crash_sigs / sizeof *crash_sigs; i++)
		sigaction(crash_sigs[i], NULL, &before[i]);
	devnull = fopen("/dev/null", "w");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mpi_iterations),
		cmocka_unit_test(mpi_reordered_phases),
		cmocka_unit_test(mpi_one_sided),
		cmocka_unit_test(charm),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	fclose(devnull);
	return rc;
}
