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
log_path(const char *base, uint32_t pe, uint32_t pes, char **out, struct err *e)
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
	*out = p;
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
	DIR *d = dir ? opendir(dir) : NULL;
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

struct parse_job {
	struct prj_reader *r;
	uint32_t cut[PAR_MAX + 1];
	struct err err[PAR_MAX];
	int rc[PAR_MAX];
	atomic_int cancel;
	atomic_uint done;
};

static uint64_t
log_weight(const void *ctx, uint32_t pe)
{
	const struct prj_reader *r = ctx;
	struct stat st;
	return stat(r->logs[pe].path, &st) == 0 ? (uint64_t)st.st_size + 1 : 1;
}

static int
parse_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct parse_job *j = ctx;
	struct prj_reader *r = j->r;
	(void)nw;
	for (uint32_t pe = j->cut[w]; pe < j->cut[w + 1]; pe++) {
		int rc = prj_log_read(&r->sts, pe, &r->logs[pe], &j->cancel, &j->err[w]);
		if (rc) {
			j->rc[w] = rc;
			atomic_store(&j->cancel, 1);
			return rc;
		}
		unsigned done = atomic_fetch_add(&j->done, 1) + 1;
		/* progress is reported by worker 0 only: callers' callbacks
		 * need not be thread-safe */
		if (w == 0 && r->opts && r->opts->progress &&
		    r->opts->progress(r->opts->ud, "reading", done, r->sts.pes))
			atomic_store(&j->cancel, 1);
		if (atomic_load(&j->cancel))
			return j->rc[w] = ERR_CANCELLED;
	}
	return 0;
}

static int
parse_logs(struct prj_reader *r, struct err *e)
{
	struct parse_job *j = calloc(1, sizeof *j);
	if (!j)
		return err_set(e, ERR_NOMEM, "out of memory");
	j->r = r;
	uint32_t nw = par_workers();
	if (nw > r->sts.pes)
		nw = r->sts.pes;
	par_split(r->sts.pes, nw, log_weight, r, j->cut);
	par_run(nw, parse_worker, j);
	int rc = 0;
	/* the first real error wins over the cancellations it caused */
	for (uint32_t w = 0; w < nw && !rc; w++)
		if (j->rc[w] && j->rc[w] != ERR_CANCELLED) {
			rc = j->rc[w];
			*e = j->err[w];
		}
	for (uint32_t w = 0; w < nw && !rc; w++)
		if (j->rc[w])
			rc = err_set(e, ERR_CANCELLED, "cancelled");
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

int
projections_read(const char *path, const struct projections_read_opts *opts,
		 struct trace **out, struct err *e)
{
	*out = NULL;
	char *sts = NULL;
	int rc;
	if (is_dir(path)) {
		if ((rc = find_sts(path, &sts, e)))
			return rc;
	} else {
		sts = strdup(path);
		if (!sts)
			return err_set(e, ERR_NOMEM, "out of memory");
	}
	struct prj_reader r = { .opts = opts };
	r.t = trace_new();
	if (!r.t) {
		free(sts);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	if ((rc = prj_sts_read(sts, &r.sts, e)))
		goto out;
	if (opts && opts->progress && opts->progress(opts->ud, "reading", 0, r.sts.pes)) {
		rc = err_set(e, ERR_CANCELLED, "cancelled");
		goto out;
	}
	r.logs = calloc((size_t)r.sts.pes + 1, sizeof *r.logs);
	if (!r.logs) {
		rc = err_set(e, ERR_NOMEM, "out of memory");
		goto out;
	}
	/* <base>.sts -> <base>.<pe>.log[.gz] */
	sts[strlen(sts) - 4] = 0;
	for (uint32_t pe = 0; pe < r.sts.pes && !rc; pe++)
		rc = log_path(sts, pe, r.sts.pes, &r.logs[pe].path, e);
	char *base = rc ? NULL : strdup(sts);
	strcat(sts, ".sts");
	if (!rc && !base)
		rc = err_set(e, ERR_NOMEM, "out of memory");
	if (!rc)
		rc = check_extra_logs(sts, base, r.sts.pes, e);
	free(base);
	if (rc || (rc = parse_logs(&r, e)))
		goto out;
	if (opts && opts->progress && opts->progress(opts->ud, "building", 0, 0)) {
		rc = err_set(e, ERR_CANCELLED, "cancelled");
		goto out;
	}
	/* the .sts found, as an OTF2 trace names its anchor file */
	if ((rc = trace_set_path(r.t, sts)) || (rc = describe(&r)))
		err_set(e, rc, "out of memory");
	if (!rc && !(rc = prj_chares_assign(&r, e)))
		rc = prj_build(&r, e);
out:
	if (r.exec_tl)
		for (uint32_t pe = 0; pe < r.sts.pes; pe++)
			free(r.exec_tl[pe]);
	free(r.exec_tl);
	if (r.logs)
		for (uint32_t pe = 0; pe < r.sts.pes; pe++)
			prj_log_fini(&r.logs[pe]);
	free(r.logs);
	prj_sts_fini(&r.sts);
	free(sts);
	if (rc) {
		trace_destroy(r.t);
		return rc;
	}
	*out = r.t;
	return 0;
}
