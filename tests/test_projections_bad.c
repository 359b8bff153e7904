/* test_projections_bad.c — the Projections reader on small runs written
 * here: one whose every op and message is known by construction, and
 * hostile ones (truncated, wrong field counts, ids out of range, huge
 * numbers, a .sts from another run), each of which must give one clear
 * error naming the file, line and record — never a crash. */
#include "testutil.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/run/run.h"
#include "model/charm.h"
#include "projections/projections_read.h"

static char dir[256];

static int
cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/skein-prj-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
write_file(const char *name, const char *text)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
write_gz(const char *name, const char *text)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	gzFile g = gzopen(path, "wb");
	assert_non_null(g);
	gzputs(g, text);
	gzclose(g);
}

static void
clear(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -f '%s'/*", dir);
	assert_int_equal(system(cmd), 0);
}

/* Two PEs; a 1-D array A of two elements, a group G, a runtime group R. */
static const char sts[] =
	"PROJECTIONS_ID\n"
	"VERSION 11.0\n"
	"PROCESSORS 2\n"
	"CHARMVERSION v80000\n"
	"TOTAL_CHARES 4\n"
	"TOTAL_EPS 6\n"
	"CHARE 0 \"SDAG\" -1\n"
	"CHARE 1 \"A\" 1\n"
	"CHARE 2 \"G\" -1\n"
	"CHARE 3 \"CkReductionMgr\" -1\n"
	"ENTRY CHARE 0 \"SDAG_RTS\" 0 0\n"
	"ENTRY CHARE 1 \"work(int n)\" 1 0\n"
	"ENTRY CHARE 2 \"A_serial\" 1 0\n"
	"ENTRY CHARE 3 \"hello()\" 2 0\n"
	"ENTRY CHARE 4 \"RecvMsg(CkReductionMsg* m)\" 3 0\n"
	"ENTRY CHARE 5 \"redn_wrapper_done(CkReductionMsg *m)\" 1 0\n"
	"END\n";

/* PE 0: a loose creation (event 0) of A::work for A(1) on PE 1; A(0)
 * runs work (from PE 1's event 0), sends two messages, continues in its
 * SDAG serial and SDAG_RTS, is idle, then runs the reduction manager,
 * which broadcasts redn_wrapper_done (event 3) to both elements; A(0)'s
 * redn_wrapper_done creates A::work (event 4), which nothing runs. */
static const char log0[] =
	"PROJECTIONS-RECORD 17\n"
	"6 0\n"
	"1 4 1 10 0 0 64 0\n"
	"2 4 1 20 0 1 64 0 0 0\n"
	"1 4 1 22 1 0 64 0\n"
	"1 4 3 25 2 0 64 0\n"
	"3 0 1 30 0 1 0 0\n"
	"2 65535 2 31 -1 0 0 0 0 0\n"
	"3 0 2 40 -1 0 0 0\n"
	"2 65535 0 40 -1 0 0 0 0 0 0 0 0\n"
	"3 0 0 41 -1 0 0 0\n"
	"14 41 0\n"
	"15 60 0\n"
	"2 5 4 60 7 1 64 0 0 0 0 0 0\n"
	"1 4 5 62 3 0 64 0\n"
	"3 0 4 65 7 1 0 0\n"
	"2 4 5 70 3 0 64 0 0 0\n"
	"1 4 1 70 4 0 64 0\n"
	"3 0 5 71 3 0 0 0\n"
	"7 80\n";

/* PE 1: A(1) runs work (from PE 0's event 0) and sends to PE 0 (event 0)
 * and to the reduction manager (event 7); G on PE 1 runs hello (PE 0's
 * event 2); A(1) runs redn_wrapper_done, naming PE 0 as the sender
 * (forwarded); A(1)'s work is interrupted by the reduction manager
 * (nested) and resumes. */
static const char log1[] =
	"PROJECTIONS-RECORD 14\n"
	"6 0\n"
	"2 4 1 12 0 0 64 0 1 0\n"
	"1 4 1 14 0 1 64 0\n"
	"3 0 1 15 0 0 0 0\n"
	"2 4 4 15 9 1 64 0 0 0 0 0 0\n"
	"3 0 4 16 9 1 0 0\n"
	"2 4 1 16 0 0 64 0 1 0\n"
	"1 4 4 17 7 1 64 0\n"
	"3 0 1 18 0 0 0 0\n"
	"2 4 3 26 2 0 64 0 0 0 0 0 0\n"
	"3 0 3 27 2 0 0 0\n"
	"2 4 5 72 3 1 64 0 1 0\n"
	"3 0 5 73 3 1 0 0\n"
	"7 80\n";

static struct trace *
read_run(const char *name, struct err *e, int *rc)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct trace *t = NULL;
	*rc = projections_read(path, NULL, &t, e);
	return t;
}

static void
test_constructed(void **state)
{
	(void)state;
	clear();
	write_file("run.sts", sts);
	write_gz("run.0.log.gz", log0);
	write_file("run.1.log", log1);      /* plain and gzip mixed */
	struct err e = { 0 };
	int rc;
	struct trace *t = read_run("run.sts", &e, &rc);
	if (rc)
		print_error("%s\n", e.msg);
	assert_int_equal(rc, 0);
	uint32_t n_tl, n_ops, n_msgs;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	struct trace_opv ops = trace_ops(t, &n_ops);
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_chare *ch = trace_chares(t, NULL);
	/* A(0), A(1), G (one PE only: a singleton), runtime on both PEs */
	assert_int_equal(n_tl, 5);
	uint32_t a0 = trace_chare_find(t, "A(0)"), a1 = trace_chare_find(t, "A(1)"), g = trace_chare_find(t, "G");
	uint32_t r0 = trace_chare_find(t, "runtime[PE 0]"), r1 = trace_chare_find(t, "runtime[PE 1]");
	assert_int_equal(a0, 0);
	assert_int_equal(a1, 1);
	assert_int_equal(g, 2);
	assert_int_equal(r0, 3);
	assert_int_equal(r1, 4);
	assert_int_equal(ch[g].kind, CHARE_SINGLE);
	/* A(0): work split after its two creations; then the serial and
	 * SDAG_RTS continue the block; then redn_wrapper_done */
	assert_int_equal(tls[a0].op_count, 6);
	struct trace_op o[6];
	for (uint32_t k = 0; k < 6; k++)
		o[k] = trace_op_get(&ops, tls[a0].op_first + k);
	assert_int_equal(o[0].kind, OP_SENDRECV);      /* its sink, and the send at 22 */
	assert_int_equal(o[0].t_enter, 20);
	assert_int_equal(o[0].t_exit, 22);
	assert_int_equal(o[1].kind, OP_SEND);          /* [22, 30]: the send at 25 and the rest */
	assert_int_equal(o[1].t_exit, 30);
	assert_true(o[1].flags & OPF_EXEC_CONT);
	assert_int_equal(o[2].kind, OP_COMPUTE);       /* A_serial */
	assert_true(o[2].flags & OPF_BLOCK_CONT);
	assert_false(o[2].flags & OPF_EXEC_CONT);
	assert_int_equal(o[3].kind, OP_COMPUTE);       /* SDAG_RTS ran for A(0) */
	assert_true(o[3].flags & OPF_BLOCK_CONT);
	/* redn_wrapper_done: its sink (a broadcast: the runtime's) and its
	 * creation (an application one) are of two kinds: the sink gets a
	 * zero-length piece of its own */
	assert_int_equal(o[4].kind, OP_RECV);
	assert_false(o[4].flags & OPF_BLOCK_CONT);
	assert_int_equal(o[4].t_enter, 70);
	assert_int_equal(o[4].t_exit, 70);
	assert_int_equal(o[5].kind, OP_SEND);
	assert_true(o[5].flags & OPF_EXEC_CONT);
	/* A(1): its sink (PE 0's loose creation of an application entry) and
	 * its creation to A(0) share a piece; work is interrupted by the
	 * reduction manager and resumes (a continuation, no second sink) */
	assert_int_equal(tls[a1].op_count, 3);
	for (uint32_t k = 0; k < 3; k++)
		o[k] = trace_op_get(&ops, tls[a1].op_first + k);
	assert_int_equal(o[0].kind, OP_SENDRECV);
	assert_int_equal(o[0].t_enter, 12);
	assert_int_equal(o[0].t_exit, 15);
	assert_int_equal(o[1].kind, OP_SEND);          /* the resumed fragment */
	assert_int_equal(o[1].t_enter, 16);
	assert_true(o[1].flags & OPF_BLOCK_CONT);
	assert_false(o[1].flags & OPF_EXEC_CONT);
	assert_int_equal(o[2].kind, OP_RECV);
	/* the loose creation: a zero-length op of PE 0's runtime, no region */
	assert_int_equal(tls[r0].op_count, 2);
	assert_true(trace_op_get(&ops, tls[r0].op_first).flags & OPF_LOOSE);
	assert_int_equal(trace_op_get(&ops, tls[r0].op_first).region, TRACE_NONE);
	/* messages: PE 0's event 0 -> A(1); events 1 and 4 started nothing;
	 * event 2 -> G; event 3 (redn_wrapper, a runtime invocation, and a
	 * broadcast) -> A(0), and -> A(1) rerouted (A(1) names PE 1, which
	 * has no event 3); PE 1's event 0 -> A(0), event 7 -> the reduction
	 * manager on PE 0; the reduction manager on PE 1 names an event
	 * nobody created */
	uint32_t matched = 0, rerouted = 0, bcast = 0, runtime = 0, no_recv = 0, no_send = 0;
	for (uint32_t m = 0; m < n_msgs; m++) {
		matched += msgs[m].send_op != TRACE_NONE && msgs[m].recv_op != TRACE_NONE;
		no_recv += msgs[m].recv_op == TRACE_NONE;
		no_send += msgs[m].send_op == TRACE_NONE;
		rerouted += (msgs[m].flags & MSGF_REROUTED) != 0;
		bcast += (msgs[m].flags & MSGF_BROADCAST) != 0;
		runtime += (msgs[m].flags & MSGF_RUNTIME) != 0;
	}
	assert_int_equal(n_msgs, 9);
	assert_int_equal(matched, 6);
	assert_int_equal(no_recv, 2);
	assert_int_equal(no_send, 1);
	assert_int_equal(rerouted, 1);
	assert_int_equal(bcast, 2);
	assert_int_equal(runtime, 4);
	assert_int_equal(trace_info(t)->warnings[WARN_UNMATCHED_SEND], 2);
	assert_int_equal(trace_info(t)->warnings[WARN_UNMATCHED_RECV], 1);
	assert_int_equal(tls[r1].op_count, 1);
	/* PE 0 was idle once, from 41 to 60 */
	uint32_t n_idles;
	const struct trace_idle *idles = trace_idles(t, &n_idles);
	assert_int_equal(n_idles, 1);
	assert_int_equal(idles[0].t_begin, 41);
	assert_int_equal(idles[0].t_end, 60);
	trace_destroy(t);
}

struct bad {
	const char *what;
	const char *sts;          /* NULL: the good one */
	const char *log0, *log1;  /* NULL: the good ones; "" : no file */
	int gz_cut;               /* cut this many bytes off PE 0's gzip log */
	int code;
	const char *message;      /* a part of the error */
};

static const struct bad bads[] = {
	{ "no VERSION", "PROJECTIONS_ID\nPROCESSORS 2\nEND\n", NULL, NULL, 0, ERR_FORMAT,
	  "no VERSION line" },
	{ "not an sts", "hello world\n", NULL, NULL, 0, ERR_FORMAT, "not a Projections .sts" },
	{ "bad chare line", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 2\nCHARE x \"A\" 1\n", NULL,
	  NULL, 0, ERR_FORMAT, "run.sts:4:7: chare id" },
	{ "entry of an undefined chare", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 2\n"
	  "ENTRY CHARE 0 \"f()\" 9 0\n", NULL, NULL, 0, ERR_FORMAT, "run.sts:4:" },
	{ "missing log", NULL, NULL, "", 0, ERR_IO, "run.1.log(.gz): missing" },
	{ "no header", NULL, "6 0\n7 80\n", NULL, 0, ERR_FORMAT, "no PROJECTIONS-RECORD header" },
	{ "wrong field count", NULL, "PROJECTIONS-RECORD 2\n6 0\n2 4 1 20 0\n", NULL, 0,
	  ERR_FORMAT, "run.0.log.gz:3: BEGIN_PROCESSING record: 5 fields; at least 6 expected" },
	{ "too many fields", NULL, "PROJECTIONS-RECORD 2\n6 0\n14 5 0 9 9\n", NULL, 0, ERR_FORMAT,
	  "run.0.log.gz:3: BEGIN_IDLE record: 5 fields; 3 expected" },
	{ "entry out of range", NULL, "PROJECTIONS-RECORD 2\n6 0\n2 4 150 20 0 1 64 0 0 0\n", NULL,
	  0, ERR_FORMAT, "entry 150 is not defined" },
	{ "PE out of range", NULL, "PROJECTIONS-RECORD 2\n6 0\n1 4 1 10 0 7 64 0\n", NULL, 0,
	  ERR_FORMAT, "PE 7 is not one of the 2 PEs" },
	{ "huge number", NULL, "PROJECTIONS-RECORD 2\n6 0\n14 999999999999999999999999 0\n", NULL,
	  0, ERR_FORMAT, "run.0.log.gz:3: BEGIN_IDLE record: field 2 is not a whole number" },
	{ "negative time", NULL, "PROJECTIONS-RECORD 2\n6 0\n14 -5 0\n", NULL, 0, ERR_FORMAT,
	  "time -5 is out of range" },
	{ "not a number", NULL, "PROJECTIONS-RECORD 2\n6 0\n14 12x 0\n", NULL, 0, ERR_FORMAT,
	  "field 2 is not a whole number" },
	{ "no type", NULL, "PROJECTIONS-RECORD 2\n6 0\nhello\n", NULL, 0, ERR_FORMAT,
	  "run.0.log.gz:3: a record must start with its type number" },
	{ "fewer records than announced", NULL, "PROJECTIONS-RECORD 9\n6 0\n7 80\n", NULL, 0,
	  ERR_FORMAT, "truncated: the header announces 9 records, the log ends after 2" },
	{ "truncated gzip", NULL, NULL, NULL, 40, ERR_FORMAT, "truncated or corrupt" },
	{ "sts from another run", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 2\nCHARE 0 \"B\" -1\n"
	  "ENTRY CHARE 0 \"f()\" 0 0\nEND\n", NULL, NULL, 0, ERR_FORMAT,
	  "(is the .sts from another run?)" },
	{ "multicast count", NULL, "PROJECTIONS-RECORD 2\n6 0\n21 4 1 10 0 0 64 0 5 0 1\n", NULL, 0,
	  ERR_FORMAT, "do not match the destination count" },
	{ "unsupported version", "PROJECTIONS_ID\nVERSION 42.0\nPROCESSORS 2\n", NULL, NULL, 0,
	  ERR_FORMAT, "version 42.0 is not supported" },
	/* one message for every count out of range (0 said "at least 1", -4
	 * "from 0 to 16777216") */
	{ "no PEs", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 0\n", NULL, NULL, 0, ERR_FORMAT,
	  "run.sts:3:12: PROCESSORS must be a number from 1 to 16777216" },
	{ "negative PEs", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS -4\n", NULL, NULL, 0, ERR_FORMAT,
	  "run.sts:3:12: PROCESSORS must be a number from 1 to 16777216" },
	{ "too many PEs", "PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 16777217\n", NULL, NULL, 0, ERR_FORMAT,
	  "run.sts:3:12: PROCESSORS must be a number from 1 to 16777216" },
};

static void
test_hostile(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const struct bad *b = &bads[i];
		clear();
		write_file("run.sts", b->sts ? b->sts : sts);
		if (!b->log0 || b->log0[0])
			write_gz("run.0.log.gz", b->log0 ? b->log0 : log0);
		if (!b->log1 || b->log1[0])
			write_gz("run.1.log.gz", b->log1 ? b->log1 : log1);
		if (b->gz_cut) {
			char path[400];
			snprintf(path, sizeof path, "%s/run.0.log.gz", dir);
			FILE *f = fopen(path, "rb+");
			assert_non_null(f);
			fseek(f, 0, SEEK_END);
			long n = ftell(f);
			fclose(f);
			assert_int_equal(truncate(path, n - b->gz_cut), 0);
		}
		struct err e = { 0 };
		int rc;
		struct trace *t = read_run("run.sts", &e, &rc);
		if (rc != b->code || (b->message && !strstr(e.msg, b->message))) {
			print_error("%s: rc %d (%s), message '%s'; wanted %d with '%s'\n", b->what, rc,
				    err_name(rc), e.msg, b->code, b->message ? b->message : "");
			fail();
		}
		assert_null(t);
		/* one line */
		assert_null(strchr(e.msg, '\n'));
	}
}

static void
test_binary(void **state)
{
	(void)state;
	static const char bin[] = "PROJECTIONS-RECORD 2\n6 0\n7\0\0\1 80\n";
	clear();
	write_file("run.sts", sts);
	char path[400];
	snprintf(path, sizeof path, "%s/run.0.log.gz", dir);
	gzFile g = gzopen(path, "wb");
	assert_non_null(g);
	gzwrite(g, bin, sizeof bin - 1);
	gzclose(g);
	write_gz("run.1.log.gz", log1);
	struct err e = { 0 };
	int rc;
	struct trace *t = read_run("run.sts", &e, &rc);
	assert_null(t);
	assert_int_equal(rc, ERR_FORMAT);
	assert_non_null(strstr(e.msg, "run.0.log.gz:3: binary data"));
}

static void
test_empty_and_lenient(void **state)
{
	(void)state;
	struct err e = { 0 };
	int rc;
	struct trace *t;
	/* an empty log is not a log */
	clear();
	write_file("run.sts", sts);
	write_file("run.0.log", "");
	write_gz("run.1.log.gz", log1);
	t = read_run("run.sts", &e, &rc);
	assert_int_equal(rc, ERR_FORMAT);
	assert_non_null(strstr(e.msg, "run.0.log: empty"));
	assert_null(t);
	/* unknown record types are counted and skipped; an execution still
	 * open at the end is closed there */
	clear();
	write_file("run.sts", sts);
	write_file("run.0.log", "PROJECTIONS-RECORD 3\n6 0\n77 1 2 3\n2 4 1 20 0 1 64 0 0 0\n");
	write_gz("run.1.log.gz", log1);
	memset(&e, 0, sizeof e);
	t = read_run("run.sts", &e, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(trace_info(t)->warnings[WARN_UNKNOWN_RECORD], 1);
	assert_int_equal(trace_info(t)->warnings[WARN_UNCLOSED_REGION], 1);
	assert_int_equal(trace_pes(t, NULL)[0].records[CREC_OTHER], 1);
	trace_destroy(t);
	/* the directory holding the run opens it */
	memset(&e, 0, sizeof e);
	rc = projections_read(dir, NULL, &t, &e);
	assert_int_equal(rc, 0);
	trace_destroy(t);
	/* two .sts files: say so */
	write_file("other.sts", sts);
	memset(&e, 0, sizeof e);
	rc = projections_read(dir, NULL, &t, &e);
	assert_int_equal(rc, ERR_IO);
	assert_non_null(strstr(e.msg, "holds 2 .sts files"));
	/* a missing .sts */
	memset(&e, 0, sizeof e);
	t = read_run("nothere.sts", &e, &rc);
	assert_int_equal(rc, ERR_IO);
	assert_non_null(strstr(e.msg, "nothere.sts"));
}

/* ---- one run in every format version ---- */

/* A record of the version-neutral run below, written in version v's
 * layout (Charm++'s LogEntry::pup and Projections' GenericLogReader,
 * doc/charm.md): fields since 2.0 (msglen), 4.0 (recvtime and object ids:
 * 3, then 4 since 7.0, then since 9.0 one per array dimension), 5.0
 * (creation send time), 6.5 (cpu times), 6.6 (performance counters, as
 * many as TOTAL_PAPI_EVENTS). */
static void
put_rec(char *out, size_t n, double v, int type, int ep, long t, int event, int pe, int index)
{
	size_t k = (size_t)snprintf(out, n, "%d 4 %d %ld %d %d", type, ep, t, event, pe);
	if (v >= 2.0)
		k += (size_t)snprintf(out + k, n - k, " 64");
	if (type == 1 && v >= 5.0)
		k += (size_t)snprintf(out + k, n - k, " 0");
	if (type == 2 && v >= 4.0) {
		k += (size_t)snprintf(out + k, n - k, " 0");           /* recvtime */
		if (v >= 9.0)
			k += (size_t)snprintf(out + k, n - k, " %d", index);
		else
			k += (size_t)snprintf(out + k, n - k, v >= 7.0 ? " %d 0 0 0" : " %d 0 0", index);
	}
	if ((type == 2 || type == 3) && v >= 6.5)
		k += (size_t)snprintf(out + k, n - k, " %ld", t);      /* cpu time */
	if ((type == 2 || type == 3) && v >= 6.6)
		k += (size_t)snprintf(out + k, n - k, " 11 22");      /* two counters */
	snprintf(out + k, n - k, "\n");
}

/* A(0) on PE 0 runs start (no message) and invokes work on A(1) on PE 1
 * (PE 0's event 0); A(1) runs work and invokes done on A(0) (PE 1's
 * event 0); PE 0 is idle in between; A(0) runs done. */
static void
write_version(double v)
{
	char sts_text[1024], l0[1024], l1[1024], r[128];
	int quoted = v >= 9.0;
	snprintf(sts_text, sizeof sts_text,
		 "PROJECTIONS_ID\nVERSION %.1f\nPROCESSORS 2\n%sTOTAL_CHARES 1\nTOTAL_EPS 3\n"
		 "CHARE 0 %s\n"
		 "ENTRY CHARE 0 %s 0 0\nENTRY CHARE 1 %s 0 0\nENTRY CHARE 2 %s 0 0\nEND\n",
		 v, v >= 6.6 ? "TOTAL_PAPI_EVENTS 2\n" : "", quoted ? "\"A\" 1" : "A",
		 quoted ? "\"start()\"" : "start()", quoted ? "\"work(int n)\"" : "work(int n)",
		 quoted ? "\"done()\"" : "done()");
	write_file("run.sts", sts_text);
	snprintf(l0, sizeof l0, "PROJECTIONS-RECORD 9\n6 0\n");
	put_rec(r, sizeof r, v, 2, 0, 2, -1, 0, 0);
	strcat(l0, r);
	put_rec(r, sizeof r, v, 1, 1, 5, 0, 0, 0);
	strcat(l0, r);
	put_rec(r, sizeof r, v, 3, 0, 10, -1, 0, 0);
	strcat(l0, r);
	strcat(l0, "14 10 0\n15 40 0\n");
	put_rec(r, sizeof r, v, 2, 2, 40, 0, 1, 0);
	strcat(l0, r);
	put_rec(r, sizeof r, v, 3, 2, 45, 0, 1, 0);
	strcat(l0, r);
	strcat(l0, "7 50\n");
	snprintf(l1, sizeof l1, "PROJECTIONS-RECORD 5\n6 0\n");
	put_rec(r, sizeof r, v, 2, 1, 20, 0, 0, 1);
	strcat(l1, r);
	put_rec(r, sizeof r, v, 1, 2, 25, 0, 1, 0);
	strcat(l1, r);
	put_rec(r, sizeof r, v, 3, 1, 30, 0, 0, 1);
	strcat(l1, r);
	strcat(l1, "7 50\n");
	write_gz("run.0.log.gz", l0);
	write_file("run.1.log", l1);
}

static void
test_versions(void **state)
{
	(void)state;
	static const double versions[] = { 3.0, 4.0, 5.0, 6.0, 6.5, 6.6, 7.0, 8.0, 9.0, 10.0, 11.0 };
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
		double v = versions[i];
		clear();
		write_version(v);
		struct err e = { 0 };
		int rc;
		struct trace *t = read_run("run.sts", &e, &rc);
		if (rc)
			fail_msg("version %.1f: %s", v, e.msg);
		uint32_t n_tl, n_ops, n_msgs, n_idle, n_pe;
		trace_timelines(t, &n_tl);
		struct trace_opv ops = trace_ops(t, &n_ops);
		const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
		const struct trace_pe *pes = trace_pes(t, &n_pe);
		trace_idles(t, &n_idle);
		const uint32_t *op_pe = trace_op_pes(t);
		assert_int_equal(trace_info(t)->version[0], (uint32_t)v);
		assert_int_equal(n_pe, 2);
		assert_int_equal(n_idle, 1);
		assert_int_equal(pes[0].records[CREC_BEGIN_PROCESSING], 2);
		assert_int_equal(pes[1].records[CREC_CREATION], 1);
		/* A(0) and A(1): by index from 9.0 on, by PE before (one each) */
		char b0[64], b1[64];
		assert_int_equal(n_tl, 2);
		trace_chare_label(t, 0, b0, sizeof b0);
		trace_chare_label(t, 1, b1, sizeof b1);
		if (v >= 9.0) {
			assert_string_equal(b0, "A(0)");
			assert_string_equal(b1, "A(1)");
		}
		/* start and done on PE 0, work on PE 1 (one send each: no split) */
		if (n_ops != 3)
			fail_msg("version %.1f: %u ops", v, n_ops);
		assert_int_equal(n_msgs, 2);
		for (uint32_t m = 0; m < n_msgs; m++) {
			assert_int_not_equal(msgs[m].send_op, TRACE_NONE);
			assert_int_not_equal(msgs[m].recv_op, TRACE_NONE);
			assert_int_not_equal(op_pe[msgs[m].send_op], op_pe[msgs[m].recv_op]);
		}
		uint32_t on1 = 0;
		for (uint32_t o = 0; o < n_ops; o++)
			on1 += op_pe[o] == 1;
		assert_int_equal(on1, 1);
		assert_int_equal(trace_op_get(&ops, 0).t_enter, 2);
		assert_int_equal(trace_op_get(&ops, 0).t_exit, 10);
		trace_destroy(t);
	}
}

/* An execution naming a creation of its own PE that comes after it
 * began (impossible on one clock: corrupt records) is not matched to it. */
static void
test_creation_after_execution(void **state)
{
	(void)state;
	clear();
	write_version(11.0);
	/* PE 1's work names PE 0's event 0; make PE 0 also run done() naming
	 * its own event 1, created only later */
	static const struct { int type, ep; long t; int event, pe; } recs[] = {
		{ 2, 0, 2, -1, 0 }, { 1, 1, 5, 0, 0 }, { 3, 0, 10, -1, 0 },      /* start: creates work */
		{ 2, 2, 40, 1, 0 }, { 3, 2, 45, 1, 0 },                        /* done, naming event 1 */
		{ 2, 0, 50, -1, 0 }, { 1, 2, 52, 1, 0 }, { 3, 0, 55, -1, 0 },  /* event 1, too late */
	};
	char late[1024] = "PROJECTIONS-RECORD 10\n6 0\n", r[128];
	for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
		put_rec(r, sizeof r, 11.0, recs[i].type, recs[i].ep, recs[i].t, recs[i].event, recs[i].pe, 0);
		strcat(late, r);
	}
	strcat(late, "7 60\n");
	write_file("run.0.log", late);
	char path[400];
	snprintf(path, sizeof path, "%s/run.0.log.gz", dir);
	unlink(path);
	struct err e = { 0 };
	int rc;
	struct trace *t = read_run("run.sts", &e, &rc);
	if (rc)
		fail_msg("%s", e.msg);
	assert_int_equal(trace_info(t)->warnings[WARN_UNMATCHED_RECV], 1);
	uint32_t n_msgs;
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	uint32_t matched = 0;
	for (uint32_t m = 0; m < n_msgs; m++)
		matched += msgs[m].send_op != TRACE_NONE && msgs[m].recv_op != TRACE_NONE;
	assert_int_equal(matched, 1);        /* only work, from PE 0's event 0 */
	trace_destroy(t);
}

/* A chain of SayHi as an old Charm++ logs it (charmplusplus/projections'
 * test/hello, format 3.0): the sender's creation names the runtime's
 * delivery entry CkLocMgr::deliver, the receiver's execution names
 * SayHi. Main's loose creation starts it on PE 1; each SayHi invokes the
 * next on the other PE, the fourth invokes Main::done directly. Written
 * in version v's layout: before 9.0 every execution is matched to the
 * creation it names; from 9.0 on, where Charm++ names the entry itself,
 * a runtime creation of another entry is not taken for it. */
static void
write_delivery(double v)
{
	char sts_text[1024], l0[2048], l1[1024], r[128];
	int q = v >= 9.0;
	snprintf(sts_text, sizeof sts_text,
		 "PROJECTIONS_ID\nVERSION %.1f\nPROCESSORS 2\n%sTOTAL_CHARES 3\nTOTAL_EPS 3\n"
		 "CHARE 0 %s\nCHARE 1 %s\nCHARE 2 %s\n"
		 "ENTRY CHARE 0 %s 0 -1\nENTRY CHARE 1 %s 1 0\nENTRY CHARE 2 %s 2 0\nEND\n",
		 v, v >= 6.6 ? "TOTAL_PAPI_EVENTS 2\n" : "", q ? "\"CkLocMgr\" -1" : "CkLocMgr",
		 q ? "\"Hello\" 1" : "Hello", q ? "\"Main\" -1" : "Main",
		 q ? "\"deliver(CkMessage* impl_msg)\"" : "deliver(CkMessage* impl_msg)",
		 q ? "\"SayHi(int hiNo)\"" : "SayHi(int hiNo)", q ? "\"done()\"" : "done()");
	write_file("run.sts", sts_text);
	/* type, entry, time, event, pe (the sender's for an execution), index */
	static const int rec0[][6] = {
		{ 1, 0, 5, 0, 0, 0 },                                           /* Main: deliver, event 0 */
		{ 2, 1, 25, 0, 1, 1 }, { 1, 0, 30, 1, 0, 0 }, { 3, 1, 35, 0, 1, 1 },   /* SayHi 2 */
		{ 2, 1, 55, 1, 1, 3 }, { 1, 2, 60, 2, 0, 0 }, { 3, 1, 65, 1, 1, 3 },   /* SayHi 4 */
		{ 2, 2, 70, 2, 0, 0 }, { 3, 2, 75, 2, 0, 0 },                   /* Main::done */
	};
	static const int rec1[][6] = {
		{ 2, 1, 10, 0, 0, 0 }, { 1, 0, 15, 0, 1, 0 }, { 3, 1, 20, 0, 0, 0 },   /* SayHi 1 */
		{ 2, 1, 40, 1, 0, 2 }, { 1, 0, 45, 1, 1, 0 }, { 3, 1, 50, 1, 0, 2 },   /* SayHi 3 */
	};
	snprintf(l0, sizeof l0, "PROJECTIONS-RECORD 11\n6 0\n");
	for (size_t i = 0; i < sizeof rec0 / sizeof rec0[0]; i++) {
		put_rec(r, sizeof r, v, rec0[i][0], rec0[i][1], rec0[i][2], rec0[i][3], rec0[i][4], rec0[i][5]);
		strcat(l0, r);
	}
	strcat(l0, "7 80\n");
	snprintf(l1, sizeof l1, "PROJECTIONS-RECORD 8\n6 0\n");
	for (size_t i = 0; i < sizeof rec1 / sizeof rec1[0]; i++) {
		put_rec(r, sizeof r, v, rec1[i][0], rec1[i][1], rec1[i][2], rec1[i][3], rec1[i][4], rec1[i][5]);
		strcat(l1, r);
	}
	strcat(l1, "7 80\n");
	write_file("run.0.log", l0);
	write_file("run.1.log", l1);
}

static void
test_legacy_delivery(void **state)
{
	(void)state;
	static const double versions[] = { 3.0, 7.0, 11.0 };
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
		double v = versions[i];
		clear();
		write_delivery(v);
		struct err e = { 0 };
		int rc;
		struct trace *t = read_run("run.sts", &e, &rc);
		if (rc)
			fail_msg("version %.1f: %s", v, e.msg);
		uint32_t n_msgs, n_reg, matched = 0, sayhi = 0, app = 0;
		const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
		const struct trace_region *regs = trace_regions(t, &n_reg);
		for (uint32_t m = 0; m < n_msgs; m++) {
			if (msgs[m].send_op == TRACE_NONE || msgs[m].recv_op == TRACE_NONE)
				continue;
			matched++;
			const char *tag = trace_str(t, regs[msgs[m].tag].name);
			sayhi += !strcmp(tag, "Hello::SayHi");
			app += !(msgs[m].flags & MSGF_RUNTIME);
		}
		if (v < 9.0) {
			/* the four SayHi and done, every one an application
			 * invocation of the entry it started */
			if (matched != 5 || sayhi != 4 || app != 5)
				fail_msg("version %.1f: %u matched, %u SayHi, %u application", v, matched, sayhi, app);
			assert_int_equal(trace_info(t)->warnings[WARN_UNMATCHED_RECV], 0);
			/* one chain: SayHi at four consecutive steps, then done */
			struct analysis_opts o;
			analysis_opts_default(&o);
			struct analysis *a = NULL;
			assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
			assert_true(analysis_verified(a));
			uint32_t steps[8], n = 0;
			for (uint32_t l = 0; l < analysis_lop_count(a) && n < 8; l++) {
				uint32_t r = analysis_lop_region(a, l);
				if (r != TRACE_NONE && analysis_lop_kind(a, l) != OP_COMPUTE &&
				    strcmp(trace_str(t, regs[r].name), "CkLocMgr::deliver"))
					steps[n++] = analysis_lop_step(a, l);
			}
			assert_int_equal(n, 5);
			qsort(steps, n, sizeof steps[0], cmp_u32);
			for (uint32_t k = 1; k < n; k++)
				assert_int_equal(steps[k], steps[k - 1] + 1);
			analysis_destroy(a);
		} else {
			/* only done is started by a creation of its own entry */
			if (matched != 1)
				fail_msg("version %.1f: %u matched", v, matched);
			assert_int_equal(trace_info(t)->warnings[WARN_UNMATCHED_RECV], 4);
		}
		trace_destroy(t);
	}
}

/* Reads the constructed run with PE 0's event 2 (hello() for G) renamed
 * id: the counts of test_constructed. */
static int
read_with_event(const char *id)
{
	char l0[sizeof log0 + 64], l1[sizeof log1 + 64], *at;
	snprintf(l0, sizeof l0, "%s", log0);
	snprintf(l1, sizeof l1, "%s", log1);
	at = strstr(l0, "1 4 3 25 2 0 64 0\n");
	assert_non_null(at);
	snprintf(at, sizeof l0 - (size_t)(at - l0), "1 4 3 25 %s 0 64 0\n%s", id,
		 strstr(log0, "1 4 3 25 2 0 64 0\n") + strlen("1 4 3 25 2 0 64 0\n"));
	at = strstr(l1, "2 4 3 26 2 0 64 0 0 0 0 0 0\n");
	assert_non_null(at);
	snprintf(at, sizeof l1 - (size_t)(at - l1), "2 4 3 26 %s 0 64 0 0 0 0 0 0\n%s", id,
		 strstr(log1, "2 4 3 26 2 0 64 0 0 0 0 0 0\n") + strlen("2 4 3 26 2 0 64 0 0 0 0 0 0\n"));
	clear();
	write_file("run.sts", sts);
	write_gz("run.0.log.gz", l0);
	write_gz("run.1.log.gz", l1);
	struct err e = { 0 };
	int rc;
	struct trace *t = read_run("run.sts", &e, &rc);
	if (rc) {
		print_error("%s\n", e.msg);
		return 1;
	}
	uint32_t n_msgs, matched = 0;
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	for (uint32_t m = 0; m < n_msgs; m++)
		matched += msgs[m].send_op != TRACE_NONE && msgs[m].recv_op != TRACE_NONE;
	int bad = n_msgs != 9 || matched != 6 || trace_info(t)->warnings[WARN_UNMATCHED_RECV] != 1;
	if (bad)
		print_error("event %s: %u messages, %u matched\n", id, n_msgs, matched);
	trace_destroy(t);
	return bad;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* Event ids near 2^31 (a corrupt or hostile log) are matched like small
 * ones, in memory of the order of the records (the event table once
 * took 8 GB for one such id): in a child limited to 1 GB of address
 * space, where no sanitizer reserves its shadow. */
static void
test_sparse_event_ids(void **state)
{
	(void)state;
	assert_int_equal(read_with_event("2"), 0);
	assert_int_equal(read_with_event("2147483000"), 0);
#ifndef UNDER_SANITIZER
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit lim = { .rlim_cur = 1u << 30, .rlim_max = 1u << 30 };
		_exit(setrlimit(RLIMIT_AS, &lim) ? 2 : read_with_event("2147483000"));
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

/* The constructed run, its .sts defining besides a chare and an entry
 * method of id 10^7 (the largest a .sts may give) when sparse, read and
 * analysed on one thread: 0 when it gives the constructed run's
 * timelines, ops and messages, and a region more when sparse. */
static int
read_sparse_ids(int sparse)
{
	char text[sizeof sts + 128];
	snprintf(text, sizeof text, "%.*s%sEND\n", (int)(strstr(sts, "END\n") - sts), sts,
		 sparse ? "CHARE 10000000 \"Big\" -1\nENTRY CHARE 10000000 \"big()\" 10000000 0\n" : "");
	clear();
	write_file("run.sts", text);
	write_gz("run.0.log.gz", log0);
	write_gz("run.1.log.gz", log1);
	struct err e = { 0 };
	int rc;
	struct trace *t = read_run("run.sts", &e, &rc);
	struct analysis *a = NULL;
	if (!rc)
		rc = analysis_run(t, NULL, NULL, NULL, &a, &e);
	if (rc) {
		print_error("%s: %s\n", sparse ? "sparse ids" : "dense ids", e.msg);
		trace_destroy(t);
		return 1;
	}
	uint32_t n_tl, n_ops, n_msgs, n_reg, n_en;
	trace_timelines(t, &n_tl);
	trace_ops(t, &n_ops);
	trace_msgs(t, &n_msgs);
	trace_regions(t, &n_reg);
	const struct trace_entry *en = trace_entries(t, &n_en);
	int bad = n_tl != 5 || n_msgs != 9 || n_reg != 6u + (uint32_t)sparse || n_en != n_reg ||
		  (sparse && (en[n_en - 1].ep != 10000000 || en[n_en - 1].sts_chare != 10000000)) ||
		  !analysis_verified(a);
	if (bad)
		print_error("%s: %u timelines, %u ops, %u messages, %u regions\n", sparse ? "sparse ids" : "dense ids",
			    n_tl, n_ops, n_msgs, n_reg);
	analysis_destroy(a);
	trace_destroy(t);
	return bad;
}

/* The largest allocation asked for while watching (malloc, calloc and
 * realloc are wrapped for this test: Makefile). */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
static atomic_int watching;
static atomic_size_t largest;

static void
asked(size_t n)
{
	if (!atomic_load(&watching))
		return;
	size_t l = atomic_load(&largest);
	while (n > l && !atomic_compare_exchange_weak(&largest, &l, n))
		;
}

void *
__wrap_malloc(size_t n)
{
	asked(n);
	return __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t size)
{
	asked(size && n > SIZE_MAX / size ? SIZE_MAX : n * size);
	return __real_calloc(n, size);
}

void *
__wrap_realloc(void *p, size_t n)
{
	asked(n);
	return __real_realloc(p, n);
}

/* Chare and entry ids up to 10^7 beside the small ones: read and analysed
 * as the run without them, in memory of the lines read: no allocation
 * larger than the run's without them (the tables indexed by id took
 * 1 GB, the SDAG serials' 40 MB). */
static void
test_sparse_sts_ids(void **state)
{
	(void)state;
	size_t most[2];
	for (int sparse = 0; sparse < 2; sparse++) {
		atomic_store(&largest, 0);
		atomic_store(&watching, 1);
		int bad = read_sparse_ids(sparse);
		atomic_store(&watching, 0);
		assert_int_equal(bad, 0);
		most[sparse] = atomic_load(&largest);
	}
	if (most[1] > most[0])
		fail_msg("the largest allocation: %zu bytes with sparse ids, %zu without", most[1], most[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constructed),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_empty_and_lenient),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_creation_after_execution),
		cmocka_unit_test(test_sparse_event_ids),
		cmocka_unit_test(test_sparse_sts_ids),
		cmocka_unit_test(test_legacy_delivery),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
