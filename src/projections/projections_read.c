/* projections_read.c — finding a run's files and reading them in order:
 * the .sts, the PEs' logs (on both cores), chares, then ops and messages. */
#include "prj_impl.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/par.h"
#include "base/sort.h"

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

static int
is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The one .sts file in a directory (a run's summary .sum.sts does not
 * count); 0, ERR_IO (none, or several) with e set. */
static int
find_sts(const char *dir, char **out, struct err *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return err_set(e, ERR_IO, "%s: %s", dir, strerror(errno));
	char *found = NULL;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".sts") || has_suffix(de->d_name, ".sum.sts"))
			continue;
		count++;
		if (!found) {
			size_t n = strlen(dir) + 1 + strlen(de->d_name) + 1;
			found = malloc(n);
			if (!found) {
				closedir(d);
				return err_set(e, ERR_NOMEM, "out of memory");
			}
			snprintf(found, n, "%s/%s", dir, de->d_name);
		}
	}
	closedir(d);
	if (count != 1) {
		free(found);
		return err_set(e, ERR_IO, count ? "%s: holds %d .sts files; name the one to open"
				 : "%s: holds no Projections .sts file", dir, count);
	}
	*out = found;
	return 0;
}

int
projections_is_run(const char *path)
{
	if (has_suffix(path, ".sts"))
		return 1;
	if (!is_dir(path))
		return 0;
	char *sts = NULL;
	int ok = find_sts(path, &sts, NULL) == 0;
	free(sts);
	return ok;
}

/* "<base>.<pe>.log.gz", else "<base>.<pe>.log". */
static int
log_path(const char *base, uint32_t pe, uint32_t pes, struct prj_pe_log *l, struct err *e)
{
	size_t n = strlen(base) + 32;
	char *p = malloc(n);
	if (!p)
		return err_set(e, ERR_NOMEM, "out of memory");
	struct stat st;
	snprintf(p, n, "%s.%u.log.gz", base, pe);
	if (stat(p, &st) != 0) {
		snprintf(p, n, "%s.%u.log", base, pe);
		if (stat(p, &st) != 0) {
			int rc = err_set(e, ERR_IO, "%s(.gz): missing: the .sts names %u PE%s and this "
					 "is the log of PE %u", p, pes, pes == 1 ? "" : "s", pe);
			free(p);
			return rc;
		}
	}
	l->path = p;
	l->file_size = (uint64_t)st.st_size;
	return 0;
}

/* N when name is "<base>.<N>.log" or "<base>.<N>.log.gz" (base without
 * its directory), else -1. */
static int64_t
log_number(const char *name, const char *base)
{
	size_t n = strlen(base);
	if (strncmp(name, base, n) != 0 || name[n] != '.' || name[n + 1] < '0' || name[n + 1] > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long pe = strtoull(name + n + 1, &end, 10);
	if (errno || pe > UINT32_MAX || (strcmp(end, ".log") != 0 && strcmp(end, ".log.gz") != 0))
		return -1;
	return (int64_t)pe;
}

/* Logs of PEs the .sts does not have (PROCESSORS below the logs beside
 * it): read as they stand, their PEs would be left out without a word,
 * so they are an error naming them (the lowest few). */
static int
check_extra_logs(const char *sts, const char *base, uint32_t pes, struct err *e)
{
	const char *slash = strrchr(base, '/');
	char *dir = slash ? strndup(base, (size_t)(slash - base) + 1) : strdup(".");
	const char *name = slash ? slash + 1 : base;
	if (!dir)
		return err_set(e, ERR_NOMEM, "out of memory");
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return 0;        /* the logs of its PEs were found: nothing else to tell */
	int64_t low[3] = { -1, -1, -1 };
	uint32_t extra = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		int64_t pe = log_number(de->d_name, name);
		if (pe < pes)
			continue;
		extra++;
		for (int k = 0; k < 3; k++)
			if (low[k] < 0 || pe < low[k]) {
				for (int m = 2; m > k; m--)
					low[m] = low[m - 1];
				low[k] = pe;
				break;
			}
	}
	closedir(d);
	if (!extra)
		return 0;
	char list[128] = "";
	for (int k = 0; k < 3 && low[k] >= 0; k++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld", k ? ", " : "",
			 (long long)low[k]);
	return err_set(e, ERR_FORMAT, "%s: PROCESSORS %u, but logs of %u more PE%s lie beside it "
		       "(PE %s%s): the .sts and the logs are not of one run", sts, pes, extra,
		       extra == 1 ? "" : "s", list, extra > 3 ? ", ..." : "");
}

/* The logs are taken one at a time, largest first (a static split by
 * file size left one core parsing alone for a tenth of the parse: the
 * logs' compression and records differ). A failure at PE k stops the
 * workers on a later PE, and a later PE taken afterwards is skipped;
 * every earlier PE is still read, so the error said is the lowest
 * failing PE's, whatever the timing. */
struct parse_job {
	struct prj_reader *r;
	uint32_t from, to;         /* the PEs to parse */
	uint32_t *order;           /* PEs from `from`, largest log first */
	struct err err[PAR_MAX];
	int rc[PAR_MAX];           /* each worker's lowest failure */
	uint32_t err_pe[PAR_MAX];  /* the PE of rc[w] */
	atomic_int *stop;          /* per PE from `from`: polled within its log */
	atomic_uint cur[PAR_MAX];  /* the PE a worker is on, or TRACE_NONE */
	atomic_uint fail;          /* the lowest failing PE so far, or TRACE_NONE */
	atomic_int cancelled;      /* the progress callback asked to stop */
	atomic_uint next;          /* the next of order to take */
	uint32_t nw;
	atomic_uint done;
};

/* PE pe failed (TRACE_NONE: cancelled): stops the PEs being read after
 * it. A flag per PE, not per worker: a worker gone on to another PE
 * meanwhile must not have that one stopped. */
static void
stop_after(struct parse_job *j, uint32_t pe)
{
	if (pe == TRACE_NONE) {
		atomic_store(&j->cancelled, 1);
	} else {
		unsigned f = atomic_load(&j->fail);
		while (pe < f && !atomic_compare_exchange_weak(&j->fail, &f, pe))
			;
	}
	for (uint32_t v = 0; v < j->nw; v++) {
		unsigned q = atomic_load(&j->cur[v]);
		if (q != TRACE_NONE && (pe == TRACE_NONE || q > pe))
			atomic_store(&j->stop[q - j->from], 1);
	}
}

static uint64_t
log_weight(const void *ctx, uint32_t k)
{
	const struct parse_job *j = ctx;
	return j->r->logs[j->from + k].file_size + 1;
}

static uint64_t
log_smaller(const void *ctx, uint32_t k)
{
	return UINT64_MAX - log_weight(ctx, k);
}

static int
parse_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct parse_job *j = ctx;
	struct prj_reader *r = j->r;
	(void)nw;
	for (;;) {
		unsigned k = atomic_fetch_add(&j->next, 1);
		if (k >= j->to - j->from)
			return 0;
		uint32_t pe = j->from + j->order[k];
		/* cur before fail and cancelled: a failure or a cancellation
		 * either sees this worker on pe or is seen here */
		atomic_store(&j->cur[w], pe);
		if (atomic_load(&j->cancelled))
			return ERR_CANCELLED;
		if (pe > atomic_load(&j->fail))
			continue;
		struct err e = { 0 };
		int rc = prj_log_read(&r->sts, pe, &r->logs[pe], &j->stop[pe - j->from], &e);
		if (rc == ERR_CANCELLED)
			continue;       /* a lower PE failed, or cancelled: above */
		if (rc) {
			if (!j->rc[w] || pe < j->err_pe[w]) {
				j->rc[w] = rc;
				j->err_pe[w] = pe;
				j->err[w] = e;
			}
			stop_after(j, pe);
			continue;
		}
		unsigned done = atomic_fetch_add(&j->done, 1) + 1;
		/* progress is reported by worker 0 only: callers' callbacks
		 * need not be thread-safe */
		if (w == 0 && r->opts && r->opts->progress &&
		    r->opts->progress(r->opts->ud, "reading", done, j->to - j->from))
			stop_after(j, TRACE_NONE);
	}
}

uint32_t
prj_workers(const struct prj_reader *r)
{
	uint32_t nw = par_workers();
	return nw < r->sts.pes ? nw : r->sts.pes ? r->sts.pes : 1;
}

uint64_t
prj_exec_weight(const void *r, uint32_t pe)
{
	return ((const struct prj_reader *)r)->logs[pe].n_execs + 1;
}

void
prj_split(const struct prj_reader *r, uint32_t n, uint32_t *cut)
{
	struct parse_job j = { .r = (struct prj_reader *)r, .from = 0, .to = r->sts.pes };
	par_split(r->sts.pes, n, log_weight, &j, cut);
}

int
prj_parse(struct prj_reader *r, uint32_t from, uint32_t to, struct err *e)
{
	if (from >= to)
		return 0;
	struct parse_job *j = calloc(1, sizeof *j);
	uint32_t n = to - from;
	uint32_t *order = malloc((size_t)n * sizeof *order);
	atomic_int *stop = calloc(n, sizeof *stop);
	uint32_t nw = par_workers() < n ? par_workers() : n;
	int rc = 0;
	if (!j || !order || !stop) {
		rc = err_set(e, ERR_NOMEM, "out of memory");
		goto out;
	}
	j->r = r;
	j->from = from;
	j->to = to;
	for (uint32_t k = 0; k < n; k++)
		order[k] = k;
	if (nw > 1 && sort_ids_keyed(order, n, log_smaller, j)) {
		rc = err_set(e, ERR_NOMEM, "out of memory");
		goto out;
	}
	j->order = order;
	j->stop = stop;
	j->nw = nw;
	atomic_init(&j->fail, TRACE_NONE);
	for (uint32_t w = 0; w < nw; w++)
		atomic_init(&j->cur[w], TRACE_NONE);
	par_run(nw, parse_worker, j);
	/* the lowest failing PE's error wins; then a cancellation */
	uint32_t lowest = TRACE_NONE;
	for (uint32_t w = 0; w < nw; w++)
		if (j->rc[w] && j->err_pe[w] < lowest) {
			lowest = j->err_pe[w];
			rc = j->rc[w];
			*e = j->err[w];
		}
	if (!rc && atomic_load(&j->cancelled))
		rc = err_set(e, ERR_CANCELLED, "cancelled");
out:
	free(order);
	free(stop);
	free(j);
	return rc;
}

static int
describe(struct prj_reader *r)
{
	struct trace *t = r->t;
	const struct prj_sts *s = &r->sts;
	t->info.paradigm = PARADIGM_CHARM;
	t->info.version[0] = s->vmajor;
	t->info.version[1] = s->vminor;
	t->info.ticks_per_second = 1000000;     /* Projections logs microseconds */
	char creator[160];
	if (s->charmversion && *s->charmversion)
		snprintf(creator, sizeof creator, "Charm++ %s", s->charmversion);
	else
		snprintf(creator, sizeof creator, "Charm++");
	return trace_set_creator(t, creator);
}

/* Room for the logs' slots [0, n) (and one past them), the new ones
 * zeroed. 0 or ERR_NOMEM. */
static int
logs_room(struct prj_reader *r, uint32_t n)
{
	if (n <= r->n_logs)
		return 0;
	struct prj_pe_log *p = realloc(r->logs, ((size_t)n + 1) * sizeof *p);
	if (!p)
		return ERR_NOMEM;
	memset(p + r->n_logs, 0, ((size_t)n + 1 - r->n_logs) * sizeof *p);
	r->logs = p;
	r->n_logs = n;
	return 0;
}

/* Every PE's log looked up in PE order, the slots growing with the logs
 * found: a .sts may claim 2^24 PEs beside two logs, and slots for all of
 * them before the first missing log (10 GB, touched again to be freed)
 * would follow the claim, not the run. */
static int
logs_find(struct prj_reader *r, const char *base, struct err *e)
{
	uint32_t pes = r->sts.pes, room = 0;
	for (uint32_t pe = 0; pe < pes; pe++) {
		if (pe == room) {
			room = pe ? 2 * pe : 64;     /* pes is at most 2^24 */
			if (room > pes)
				room = pes;
			if (logs_room(r, room))
				return err_set(e, ERR_NOMEM, "out of memory");
		}
		int rc = log_path(base, pe, pes, &r->logs[pe], e);
		if (rc)
			return rc;
	}
	return 0;
}

static int logs_found(struct prj_reader *r, const char *base, const char *found, size_t len, struct err *e);

int
prj_open(struct prj_reader *r, const char *path, const struct projections_read_opts *opts,
	 const char *found, size_t len, struct err *e)
{
	memset(r, 0, sizeof *r);
	r->opts = opts;
	int rc;
	if (is_dir(path)) {
		if ((rc = find_sts(path, &r->sts_path, e)))
			return rc;
	} else if (!(r->sts_path = strdup(path))) {
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	if (!(r->t = trace_new()))
		return err_set(e, ERR_NOMEM, "out of memory");
	if ((rc = prj_sts_read(r->sts_path, &r->sts, e)))
		return rc;
	if (opts && opts->progress && opts->progress(opts->ud, "reading", 0, r->sts.pes))
		return err_set(e, ERR_CANCELLED, "cancelled");
	/* <base>.sts -> <base>.<pe>.log[.gz] */
	char *base = strdup(r->sts_path);
	if (!base)
		return err_set(e, ERR_NOMEM, "out of memory");
	base[strlen(base) - 4] = 0;
	rc = found ? logs_found(r, base, found, len, e) : logs_find(r, base, e);
	if (!rc && !found)
		rc = check_extra_logs(r->sts_path, base, r->sts.pes, e);
	free(base);
	return rc;
}

/* prj_found's bytes: a PE a record of FOUND_REC bytes, whether its log
 * is gzipped, then its size (little end first). */
enum { FOUND_REC = 9 };

int
prj_found(const struct prj_reader *r, char **out, size_t *len)
{
	*len = (size_t)r->sts.pes * FOUND_REC;
	if (!(*out = malloc(*len + 1)))
		return ERR_NOMEM;
	for (uint32_t pe = 0; pe < r->sts.pes; pe++) {
		unsigned char *p = (unsigned char *)*out + (size_t)pe * FOUND_REC;
		p[0] = has_suffix(r->logs[pe].path, ".gz");
		for (int k = 0; k < 8; k++)
			p[1 + k] = (unsigned char)(r->logs[pe].file_size >> (8 * k));
	}
	return 0;
}

/* The logs' names and sizes from prj_found's bytes. */
static int
logs_found(struct prj_reader *r, const char *base, const char *found, size_t len, struct err *e)
{
	if (len != (size_t)r->sts.pes * FOUND_REC)
		return err_set(e, ERR_FORMAT, "%s: the run's logs were looked up for another number of PEs "
			       "(did the .sts change?)", r->sts_path);
	if (logs_room(r, r->sts.pes))
		return err_set(e, ERR_NOMEM, "out of memory");
	for (uint32_t pe = 0; pe < r->sts.pes; pe++) {
		const unsigned char *p = (const unsigned char *)found + (size_t)pe * FOUND_REC;
		size_t n = strlen(base) + 32;
		if (!(r->logs[pe].path = malloc(n)))
			return err_set(e, ERR_NOMEM, "out of memory");
		snprintf(r->logs[pe].path, n, "%s.%u.log%s", base, pe, p[0] ? ".gz" : "");
		uint64_t size = 0;
		for (int k = 0; k < 8; k++)
			size |= (uint64_t)p[1 + k] << (8 * k);
		r->logs[pe].file_size = size;
	}
	return 0;
}

int
prj_finish(struct prj_reader *r, struct trace **out, struct err *e)
{
	const struct projections_read_opts *opts = r->opts;
	if (opts && opts->progress && opts->progress(opts->ud, "building", 0, 0))
		return err_set(e, ERR_CANCELLED, "cancelled");
	/* the .sts found, as an OTF2 trace names its anchor file */
	int rc;
	if ((rc = trace_set_path(r->t, r->sts_path)) || (rc = describe(r)))
		return err_set(e, rc, "out of memory");
	if ((rc = prj_chares_assign(r, e)) || (rc = prj_build(r, e)))
		return rc;
	*out = r->t;
	r->t = NULL;
	return 0;
}

/* The PEs' records freed a share each: at 10^7 records they are
 * hundreds of MB, and giving their pages back costs as much as touching
 * them did. */
static int
close_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct prj_reader *r = ctx;
	uint32_t p0, p1;
	/* the slots of the logs found: every PE's once exec_tl exists */
	par_share(r->n_logs, w, nw, &p0, &p1);
	for (uint32_t pe = p0; pe < p1; pe++) {
		if (r->exec_tl)
			free(r->exec_tl[pe]);
		prj_log_fini(&r->logs[pe]);
	}
	return 0;
}

void
prj_close(struct prj_reader *r)
{
	par_run(prj_workers(r), close_worker, r);
	free(r->exec_tl);
	free(r->logs);
	prj_sts_fini(&r->sts);
	free(r->sts_path);
	trace_destroy(r->t);
	memset(r, 0, sizeof *r);
}

int
projections_read(const char *path, const struct projections_read_opts *opts,
		 struct trace **out, struct err *e)
{
	*out = NULL;
	struct prj_reader r;
	int rc = prj_open(&r, path, opts, NULL, 0, e);
	if (!rc)
		rc = prj_parse(&r, 0, r.sts.pes, e);
	if (!rc)
		rc = prj_finish(&r, out, e);
	prj_close(&r);
	return rc;
}
