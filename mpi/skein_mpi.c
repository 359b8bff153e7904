/* skein_mpi.c — skein-mpi: `skein analyze --save` as an MPI job
 * (doc/distributed.md).
 *
 *   mpiexec -n N skein-mpi analyze [STRUCTURE OPTIONS] --save FILE TRACE
 *
 * By default every stage is distributed (analysis/dist_run.h over dcomm,
 * dcomm_mpi.c): each rank reads its share of the locations, analyses it
 * and writes its part of the saved file; rank 0 then prints the report
 * from the file. With SKEIN_MPI_GATHER=1 (and for a trace whose ranks'
 * locations are not in rank order)
 * every rank reads the events of its share with its own OTF2 reader
 * (otf2_share_read) and the shares travel as bytes to rank 0, which joins
 * them in location order — build_join numbers every id as one reader
 * would — matches the messages, runs the analysis and writes the saved
 * file and the report with the code `skein analyze --save` runs
 * (tui/main.c). Either way the file opens to the bytes the serial
 * analysis gives.
 *
 * A Charm++ Projections run is read alike, its PEs' logs for shares
 * (projections_share_*): each rank parses its PEs' logs, rank 0 builds
 * the model from them all and analyses it.
 *
 * A failure on any rank (a location file missing or truncated, out of
 * memory) is agreed on at the end of each stage: rank 0 prints the first
 * failing rank's message, one line, and every rank exits with status 1.
 * Ranks that wait for rank 0 sleep between polls, so an oversubscribed
 * node keeps its cores for the work.
 */
#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "analysis/dist/dist_run.h"
#include "analysis/saved/saved.h"
#include "dcomm_mpi.h"
#include "model/dmodel.h"
#include "otf2/otf2_read.h"
#include "projections/projections_read.h"
#include "tui/cli.h"
#include "tui/load.h"

#ifndef SKEIN_VERSION
#define SKEIN_VERSION "unknown"
#endif

static const char usage_text[] =
	"usage: mpiexec -n N skein-mpi analyze [--format text|json|csv] [--table T]\n"
	"                 [STRUCTURE OPTIONS] --save FILE TRACE\n"
	"       skein-mpi --help | --version\n"
	"\n"
	"skein-mpi runs 'skein analyze --save FILE TRACE' as an MPI job: each rank\n"
	"reads, analyses and writes to FILE its share of the trace's locations\n"
	"(open FILE with 'skein FILE'), and rank 0 prints the report 'skein analyze'\n"
	"prints. With SKEIN_MPI_GATHER=1 (or a trace whose ranks' locations are not\n"
	"in rank order) rank 0 gathers the shares and analyses them alone. Of a\n"
	"Charm++ Projections run (TRACE its .sts) each rank parses its share of\n"
	"the PEs' logs and rank 0 builds and analyses the run.\n"
	"SKEIN_DIST_BATCH=K: each owner steps its partitions in rounds of at most\n"
	"K lops and message ends (default: a sixteenth of the largest rank's).\n"
	"The options are skein's (skein --help); doc/distributed.md says what runs\n"
	"where.\n"
	"\n"
	"  -q, --quiet   no progress on rank 0's stderr (a line per stage, and the\n"
	"                peak memory of every rank at the end)\n"
	"\n"
	"exit status: 0 success, 1 the trace could not be read on some rank, 2 usage\n"
	"error; the same on every rank.\n";

/* Bytes per message: MPI counts are ints. */
#define CHUNK ((size_t)1 << 30)

static int rank, size;
/* SKEIN_DIST_BATCH: stepping's round budget (doc/distributed.md; the
 * ranks take the largest they were given), 0 when unset. */
static uint64_t step_batch;
static long analysis_peak_kb;    /* rank 0's peak before the report, distributed */

/* Every rank says whether it failed; when one did, rank 0 prints the
 * message of the first that failed (one line) and 1 is returned on every
 * rank, else 0. */
static void wait_all(void);
static void wait_asleep(MPI_Request *rq);

static int
agree(int rc, const char *msg)
{
	wait_all();
	int mine = rc ? rank : size, first;
	MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (first == size)
		return 0;
	char buf[sizeof ((struct err *)0)->msg] = "";
	if (rank == first)
		snprintf(buf, sizeof buf, "%s", msg && msg[0] ? msg : "failed");
	MPI_Bcast(buf, (int)sizeof buf, MPI_CHAR, first, MPI_COMM_WORLD);
	if (rank == 0)
		cli_error("%s", buf);
	return 1;
}

/* Waits for every rank at a barrier, sleeping between polls (rank 0 may
 * be busy for long: the others must not spin on its cores). */
static void
wait_all(void)
{
	MPI_Request rq;
	MPI_Ibarrier(MPI_COMM_WORLD, &rq);
	wait_asleep(&rq);
}

/* Rank 0's exit code, on every rank (the others wait asleep). */
static int
share_rc(int rc)
{
	wait_all();
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return rc;
}

/* Waits for a request, sleeping between polls. */
static void
wait_asleep(MPI_Request *rq)
{
	int done = 0;
	while (MPI_Test(rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
}

/* Sends n bytes to rank 0 when it asks for them (a message with tag 3):
 * their count, then — when rank 0 answers that it has room for them
 * (tag 4) — pieces of up to CHUNK. Without the asking, an MPI library
 * may send the bytes eagerly, and rank 0 would hold every rank's share in
 * its unexpected-message queue until it reaches them; without the
 * answer, a rank 0 out of memory would have to receive bytes it cannot
 * hold. */
static void
send_bytes(const char *buf, size_t n)
{
	uint64_t len = n;
	char go, room;
	MPI_Request rq;
	MPI_Irecv(&go, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD, &rq);
	wait_asleep(&rq);
	MPI_Isend(&len, 1, MPI_UINT64_T, 0, 0, MPI_COMM_WORLD, &rq);
	wait_asleep(&rq);
	MPI_Irecv(&room, 1, MPI_CHAR, 0, 4, MPI_COMM_WORLD, &rq);
	wait_asleep(&rq);
	if (!room)
		return;
	for (size_t at = 0; at < n; at += CHUNK) {
		size_t k = n - at < CHUNK ? n - at : CHUNK;
		MPI_Isend(buf + at, (int)k, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq);
		wait_asleep(&rq);
	}
}

/* Asks rank src for its next bytes and receives them into a new buffer;
 * *buf NULL when there is no memory for it (the sender is told, and
 * sends nothing more of them). */
static void
recv_bytes(int src, char **buf, size_t *n)
{
	uint64_t len;
	char go = 1;
	MPI_Send(&go, 1, MPI_CHAR, src, 3, MPI_COMM_WORLD);
	MPI_Recv(&len, 1, MPI_UINT64_T, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	*n = (size_t)len;
	*buf = len <= SIZE_MAX - 1 ? malloc(*n ? *n : 1) : NULL;
	char room = *buf != NULL;
	MPI_Send(&room, 1, MPI_CHAR, src, 4, MPI_COMM_WORLD);
	for (size_t at = 0; room && at < *n; at += CHUNK) {
		size_t k = *n - at < CHUNK ? *n - at : CHUNK;
		MPI_Recv(*buf + at, (int)k, MPI_BYTE, src, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

/* A share's pieces as the gather sees them: an OTF2 share's (its head,
 * then its blocks) or a Projections run's (one PE's parsed log each). */
struct share_ops {
	uint32_t (*pieces)(const void *s);
	size_t (*piece_size)(const void *s, uint32_t i);
	void (*pack)(void *s, uint32_t i, char *buf);       /* frees what it packed */
	int (*add)(void *s, const char *buf, size_t n, struct err *e);
	const char *first, *rest;       /* a rank's first piece and the others, in messages */
	const char *joining;            /* the progress line between them, or NULL */
};

static uint32_t
otf2_pieces(const void *s)
{
	return otf2_share_pieces(s);
}

static size_t
otf2_piece_size(const void *s, uint32_t i)
{
	return otf2_share_piece_size(s, i);
}

static void
otf2_pack(void *s, uint32_t i, char *buf)
{
	otf2_share_pack_piece(s, i, buf);
}

static int
otf2_add(void *s, const char *buf, size_t n, struct err *e)
{
	return otf2_share_add_piece(s, buf, n, e);
}

static const struct share_ops otf2_ops = {
	otf2_pieces, otf2_piece_size, otf2_pack, otf2_add, "head", "share", "joining the shares",
};

static uint32_t
prj_pieces(const void *s)
{
	return projections_share_pieces(s);
}

static size_t
prj_piece_size(const void *s, uint32_t i)
{
	return projections_share_piece_size(s, i);
}

static void
prj_pack(void *s, uint32_t i, char *buf)
{
	projections_share_pack_piece(s, i, buf);
}

static int
prj_add(void *s, const char *buf, size_t n, struct err *e)
{
	return projections_share_add_piece(s, buf, n, e);
}

static const struct share_ops prj_ops = {
	prj_pieces, prj_piece_size, prj_pack, prj_add, "PE's log", "PE's log", NULL,
};

/* Rank 0: receives rank src's next piece (its `what`) and adds it,
 * unless an earlier piece failed (*rc): then it is received and dropped,
 * so that no sender waits for ever. */
static void
add_piece(const struct share_ops *ops, void *s, int src, const char *what, int *rc, struct err *e)
{
	char *buf;
	size_t n;
	recv_bytes(src, &buf, &n);
	if (!*rc && !buf)
		*rc = err_set(e, ERR_NOMEM, "rank 0: out of memory receiving rank %d's %s", src, what);
	if (!*rc)
		*rc = ops->add(s, buf, n, e);
	free(buf);
}

/* Every rank's share s to rank 0, piece by piece, each freed as it is
 * sent (no rank holds a second copy): rank 0 takes every rank's first
 * piece (an OTF2 share's head, whose blocks' sizes let it size the model
 * once), then the rest, adding each to its own s; *rc is its first
 * failure. Returns 1 when the ranks agreed on a failure before anything
 * was sent (said by rank 0; *gathered stays 0), else 0 with *gathered
 * set on every rank. */
static int
gather_pieces(const struct share_ops *ops, void *s, struct cli_progress *p, const char *progress,
	      int *gathered, int *rc, struct err *e)
{
	if (rank == 0)
		cli_progress(p, progress, 0, 0);
	char *buf = NULL;
	size_t n = 1;
	uint64_t pieces = ops->pieces(s), *n_pieces = NULL;
	if (rank != 0) {
		for (uint32_t i = 0; i < pieces; i++)
			if (ops->piece_size(s, i) > n)
				n = ops->piece_size(s, i);
		buf = malloc(n);
		*rc = buf ? 0 : err_set(e, ERR_NOMEM, "rank %d: out of memory packing %zu bytes", rank, n);
	} else if (!(n_pieces = calloc((size_t)size, sizeof *n_pieces))) {
		*rc = err_set(e, ERR_NOMEM, "rank 0: out of memory");
	}
	if (agree(*rc, e->msg)) {
		free(n_pieces);
		free(buf);
		return 1;
	}
	*gathered = 1;
	if (rank != 0) {
		MPI_Request rq;
		MPI_Isend(&pieces, 1, MPI_UINT64_T, 0, 2, MPI_COMM_WORLD, &rq);
		wait_asleep(&rq);
		for (uint32_t i = 0; i < pieces; i++) {
			size_t len = ops->piece_size(s, i);
			ops->pack(s, i, buf);
			send_bytes(buf, len);
		}
		free(buf);
		return 0;
	}
	for (int src = 1; src < size; src++) {
		MPI_Recv(&n_pieces[src], 1, MPI_UINT64_T, src, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (n_pieces[src])
			add_piece(ops, s, src, ops->first, rc, e);
	}
	if (ops->joining)
		cli_progress(p, ops->joining, 0, 0);
	for (int src = 1; src < size; src++)
		for (uint64_t i = 1; i < n_pieces[src]; i++)
			add_piece(ops, s, src, ops->rest, rc, e);
	free(n_pieces);
	return 0;
}

/* Reads this rank's share; on rank 0, gathers the others' and joins
 * them into *t. An exit code: a failure while reading is agreed on every
 * rank; past that (*gathered set on every rank) only rank 0 knows how
 * its join went. */
static int
read_distributed(const struct cli *c, struct cli_progress *p, struct trace **t, int *gathered)
{
	struct otf2_read_opts o = { .progress = rank == 0 ? cli_progress : NULL, .ud = p };
	struct otf2_share *s = NULL;
	struct err e = { 0 };
	*t = NULL;
	int rc = otf2_share_read(c->trace, &o, (uint32_t)rank, (uint32_t)size, &s, &e);
	if (agree(rc, e.msg)) {
		otf2_share_destroy(s);
		return EXIT_FAIL;
	}
	/* the threads' and streams' frames: every share's to rank 0's */
	struct dcomm dc;
	rc = dcomm_mpi_init(&dc, MPI_COMM_WORLD) ? ERR_NOMEM : 0;
	if (!agree(rc, "out of memory")) {
		rc = trace_lanes_gather(&dc, otf2_share_trace(s));
		dcomm_mpi_fini(&dc);
		if (rc)
			snprintf(e.msg, sizeof e.msg, "rank %d: %s gathering the threads and streams", rank,
				 err_name(rc));
	}
	if (agree(rc, e.msg)) {
		otf2_share_destroy(s);
		return EXIT_FAIL;
	}
	if (gather_pieces(&otf2_ops, s, p, "gathering the shares", gathered, &rc, &e) || rank != 0) {
		otf2_share_destroy(s);
		return *gathered ? EXIT_OK : EXIT_FAIL;
	}
	if (!rc)
		rc = otf2_share_finish(s, &o, t, &e);
	otf2_share_destroy(s);
	cli_progress_clear(p);
	if (rc)
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
	return rc ? EXIT_FAIL : EXIT_OK;   /* told the others with share_rc */
}

/* A Charm++ Projections run: every rank parses the logs of its share of
 * the PEs (projections_share_read) and sends them to rank 0, one PE's
 * parsed log at a time (each freed as it is sent), which builds the
 * model as `skein` would. The same exit codes as read_distributed. */
static int
read_projections(const struct cli *c, struct cli_progress *p, struct trace **t, int *gathered)
{
	struct projections_read_opts o = {
		.progress = rank == 0 ? cli_progress : NULL, .ud = p,
		.runtime_chares = c->charm.runtime_chares,
		.n_runtime_chares = c->charm.n_runtime_chares,
		.runtime_entries = c->charm.runtime_entries,
		.n_runtime_entries = c->charm.n_runtime_entries,
	};
	struct projections_share *s = NULL;
	struct err e = { 0 };
	*t = NULL;
	/* rank 0 looks the logs up for every rank (P x N look-ups on a
	 * parallel file system otherwise); a few bytes a PE */
	char *found = NULL;
	size_t len = 0;
	int rc = rank == 0 ? projections_share_find(c->trace, &o, &found, &len, &e) : 0;
	if (!rc && len > INT_MAX)
		rc = err_set(&e, ERR_LIMIT, "%s: too many PEs for one message", c->trace);
	if (agree(rc, e.msg)) {
		free(found);
		return EXIT_FAIL;
	}
	uint64_t n = len;
	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rank != 0 && !(found = malloc(n + 1)))
		rc = err_set(&e, ERR_NOMEM, "out of memory");
	if (agree(rc, e.msg)) {
		free(found);
		return EXIT_FAIL;
	}
	MPI_Bcast(found, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
	rc = projections_share_read(c->trace, &o, (uint32_t)rank, (uint32_t)size, found, (size_t)n, &s, &e);
	free(found);
	if (agree(rc, e.msg)) {
		projections_share_destroy(s);
		return EXIT_FAIL;
	}
	if (gather_pieces(&prj_ops, s, p, "gathering the PEs' logs", gathered, &rc, &e) || rank != 0) {
		projections_share_destroy(s);
		return *gathered ? EXIT_OK : EXIT_FAIL;
	}
	if (!rc)
		rc = projections_share_finish(s, t, &e);
	projections_share_destroy(s);
	cli_progress_clear(p);
	if (rc)
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
	return rc ? EXIT_FAIL : EXIT_OK;   /* told the others with share_rc */
}

/* The distributed analysis (doc/distributed.md, analysis/dist_run.h):
 * every stage on every rank, each for its own share; rank 0 then prints
 * the report from the saved file, as `skein analyze FILE` would. */
struct dist_ctx {
	struct cli *c;
	int exit;             /* rank 0: what stopped the run, as an exit code */
};

static int
on_loaded(void *ud, const struct trace *t)
{
	(void)ud;
	cli_load_warnings(t);
	return 0;
}

static int
on_checked(void *ud, const struct trace *t)
{
	struct dist_ctx *x = ud;
	x->exit = cli_check_regions(x->c, t);
	return x->exit;
}

/* An exit code, the same on every rank (*serial_only: the trace must be
 * analysed by one process: nothing was said or saved). */
static int
run_distributed(struct cli *c, struct cli_progress *p, int *serial_only)
{
	struct dcomm dc;
	struct err e = { 0 };
	*serial_only = 0;
	if (dcomm_mpi_init(&dc, MPI_COMM_WORLD)) {
		if (rank == 0)
			cli_error("out of memory");
		return EXIT_FAIL;
	}
	struct dist_ctx x = { c, EXIT_OK };
	struct dist_hooks h = { rank == 0 ? cli_progress : NULL, p, on_loaded, on_checked, &x, 0, 0,
				step_batch };
	int rc = dist_run(&dc, c->trace, &c->aopts, c->save, &h, &e);
	dcomm_mpi_fini(&dc);
	cli_progress_clear(p);
	if (rc && h.serial_only) {
		*serial_only = 1;
		return EXIT_OK;
	}
	if (rc) {
		if (rank == 0 && x.exit)
			;                /* said by the check */
		else if (rank == 0 && h.no_comm)
			cli_error("%s: %s", c->trace, e.msg);
		else if (rank == 0)
			cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
		return x.exit ? x.exit : rc == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	if (rank != 0)
		return EXIT_OK;
	/* the report maps the saved file: its pages count in rank 0's
	 * resident size too; the analysis's own peak is said apart */
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	analysis_peak_kb = ru.ru_maxrss;
	struct trace *t = NULL;
	struct analysis *a = NULL;
	if (load_saved(c->save, &c->aopts, &t, &a, &e)) {
		cli_error("%s", e.msg);
		return EXIT_FAIL;
	}
	/* opening it worked out the explanations, which the ranks' stages
	 * do not: saved with the rest, the file is the serial one */
	if (saved_append_explain(c->save, a, &e)) {
		cli_error("%s", e.msg);
		analysis_destroy(a);
		trace_destroy(t);
		return EXIT_FAIL;
	}
	const char *save = c->save;
	c->save = NULL;                  /* written already */
	rc = cli_analyze(c, t, &a, p);
	c->save = save;
	analysis_destroy(a);
	trace_destroy(t);
	return cli_finish_stdout(rc);
}

/* Rank 0 says how long the job took and every rank's peak memory (rc:
 * how the job ended, the same on every rank; nothing said on failure). */
static void
report_memory(const struct cli_progress *p, int rc)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	long kb = ru.ru_maxrss;
	long *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
	MPI_Gather(&kb, 1, MPI_LONG, all, 1, MPI_LONG, 0, MPI_COMM_WORLD);
	if (rank != 0 || !p->enabled || !all || rc) {
		free(all);
		return;
	}
	fprintf(stderr, "%s: %d ranks, %.2f s; peak memory per rank (MB):", cli_prog, size,
		cli_seconds_since(&p->start));
	for (int r = 0; r < size; r++)
		fprintf(stderr, " %.1f", (double)all[r] / 1024.0);
	fputc('\n', stderr);
	if (analysis_peak_kb)
		fprintf(stderr, "%s: rank 0's peak before the report (which maps the saved file): %.1f MB\n",
			cli_prog, (double)analysis_peak_kb / 1024.0);
	free(all);
}

/* The command line, checked the same on every rank; only rank 0 says
 * what is wrong. */
static int
setup(int argc, char **argv, struct cli *c)
{
	int rc = cli_parse_args(argc, argv, c);
	const char *batch = getenv("SKEIN_DIST_BATCH");
	if (!rc && batch && batch[0]) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(batch, &end, 10);
		if (*end || errno || v == 0 || batch[0] == '-')
			rc = cli_usage_error("SKEIN_DIST_BATCH: want a positive count of lops and "
					     "message ends", batch);
		step_batch = v;
	}
	if (!rc && (c->cmd == CMD_HELP || c->cmd == CMD_VERSION))
		return -1;
	if (!rc && c->cmd != CMD_ANALYZE)
		rc = cli_usage_error("skein-mpi runs 'analyze' only", NULL);
	else if (!rc && !c->save)
		rc = cli_usage_error("skein-mpi writes a saved analysis: give --save FILE", NULL);
	int saved = rc ? 0 : saved_is(c->trace);
	if (saved < 0) {
		cli_error("%s: out of memory", c->trace);
		rc = EXIT_FAIL;
	} else if (saved) {
		rc = cli_usage_error("already a saved analysis: open it with skein", c->trace);
	}
	if (!rc)
		rc = cli_setup_config(c);
	return rc;
}

int
main(int argc, char **argv)
{
	static struct cli c;
	cli_prog = "skein-mpi";
	int provided;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "skein-mpi: MPI_Init failed\n");
		return EXIT_FAIL;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	struct cli_progress p = { .lines = 1 };
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	/* the command line is checked alike everywhere: rank 0 says what is wrong */
	int saved_err = rank != 0 ? dup(STDERR_FILENO) : -1;
	int null_fd = saved_err >= 0 ? open("/dev/null", O_WRONLY) : -1;
	if (null_fd >= 0)
		dup2(null_fd, STDERR_FILENO);
	int rc = setup(argc, argv, &c);
	if (null_fd >= 0) {
		fflush(stderr);
		dup2(saved_err, STDERR_FILENO);
		close(null_fd);
	}
	if (saved_err >= 0)
		close(saved_err);
	if (rc) {
		if (rank == 0 && rc == -1 && c.cmd == CMD_HELP)
			fputs(usage_text, stdout);
		else if (rank == 0 && rc == -1)
			printf("skein-mpi %s\n", SKEIN_VERSION);
		if (rc == -1)
			rc = rank == 0 ? cli_finish_stdout(EXIT_OK) : EXIT_OK;
		config_fini(&c.cfg);
		MPI_Finalize();
		return rc;
	}
	p.enabled = rank == 0 && !c.quiet;
	struct trace *t = NULL;
	int gathered = 0, serial_only = 0;
	/* every stage distributed, where it is (SKEIN_MPI_GATHER: the shares
	 * gathered on rank 0, for comparison) */
	const char *gather = getenv("SKEIN_MPI_GATHER");
	int charm;
	struct err ke = { 0 };
	if (load_is_charm(c.trace, &charm, &ke)) {
		if (rank == 0)
			cli_error("%s", ke.msg);
		config_fini(&c.cfg);
		MPI_Finalize();
		return EXIT_FAIL;
	}
	if (!charm && (!gather || !gather[0] || !strcmp(gather, "0"))) {
		rc = run_distributed(&c, &p, &serial_only);
		if (!serial_only) {
			rc = share_rc(rc);
			report_memory(&p, rc);
			config_fini(&c.cfg);
			MPI_Finalize();
			return rc;
		}
	}
	rc = charm ? read_projections(&c, &p, &t, &gathered)
		   : read_distributed(&c, &p, &t, &gathered);
	if (!rc && rank == 0) {
		struct analysis *a = NULL;
		rc = cli_loaded(&c, c.trace, &t, &a);
		if (!rc)
			rc = cli_check_regions(&c, t);
		if (!rc)
			rc = cli_analyze(&c, t, &a, &p);
		analysis_destroy(a);
		trace_destroy(t);
		rc = cli_finish_stdout(rc);
	}
	/* rank 0 tells the others how the job ended */
	if (gathered)
		rc = share_rc(rc);
	report_memory(&p, rc);
	config_fini(&c.cfg);
	MPI_Finalize();
	return rc;
}
