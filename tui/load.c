/* load.c — trace loading on a worker thread with a progress bar. */
#include "load.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "otf2/otf2_read.h"
#include "projections/projections_read.h"
#include "cli.h"
#include "screen.h"

struct job {
	const char *path;
	const struct load_charm *charm;
	const struct analysis_opts *ao;
	struct trace *t;
	struct analysis *a;
	struct err e;
	int rc;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int finished;
	const char *stage;         /* a string literal of the reader or analysis */
	uint64_t done, total;
	atomic_int cancel;
};

static int
on_progress(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	struct job *j = ud;
	pthread_mutex_lock(&j->mu);
	j->stage = stage;
	j->done = done;
	j->total = total;
	pthread_mutex_unlock(&j->mu);
	return atomic_load(&j->cancel);
}

int
load_is_charm(const char *path, int *charm, struct err *e)
{
	*charm = projections_is_run(path);
	struct stat st;
	if (*charm && stat(path, &st) == 0 && S_ISDIR(st.st_mode) && otf2_dir_has_anchor(path))
		return err_set(e, ERR_IO, "%s: holds an OTF2 archive and a Projections run; name the "
			       "file to open (the .otf2 anchor or the .sts)", path);
	return 0;
}

int
load_read(const char *path, const struct load_charm *charm, trace_progress_fn progress,
	  void *ud, struct trace **t, struct err *e)
{
	int is_charm;
	int rc = load_is_charm(path, &is_charm, e);
	if (rc)
		return rc;
	if (is_charm) {
		struct projections_read_opts o = { .progress = progress, .ud = ud };
		if (charm && charm->runtime_chares) {
			o.runtime_chares = charm->runtime_chares;
			o.n_runtime_chares = charm->n_runtime_chares;
		}
		if (charm && charm->runtime_entries) {
			o.runtime_entries = charm->runtime_entries;
			o.n_runtime_entries = charm->n_runtime_entries;
		}
		return projections_read(path, &o, t, e);
	}
	struct otf2_read_opts o = { .progress = progress, .ud = ud };
	return otf2_read(path, &o, t, e);
}

int
load_saved(const char *path, const struct analysis_opts *ao, struct trace **t,
	   struct analysis **a, struct err *e)
{
	struct saved_info info;
	int rc = saved_open(path, t, a, &info, e);
	if (rc)
		return rc;
	if (info.trace_state == SAVED_TRACE_CHANGED)
		cli_error("%s: %s has changed since this analysis was saved; showing the saved "
			  "analysis (analyse the trace again to update it)", path, info.trace);
	if (!a)
		return 0;
	if (saved_opts_differ(&info, ao)) {
		cli_error("%s: saved with other structure options; analysing the saved model again",
			  path);
		analysis_destroy(*a);
		*a = NULL;
		rc = analysis_run(*t, ao, NULL, NULL, a, e);
		if (rc == ERR_FORMAT) {       /* its model is not as a reader makes one */
			char m[sizeof e->msg];
			memcpy(m, e->msg, sizeof m);
			snprintf(e->msg, sizeof e->msg, "%s: %.*s", path, (int)(sizeof e->msg / 2), m);
		}
	} else if (ao->clusters && (rc = saved_cluster(*a, ao->clusters))) {
		err_set(e, rc, "%s: clusters: %s", path, err_name(rc));
	}
	if (!rc && *a)      /* what the command line asked that cannot apply */
		analysis_note_unused_opts(*a, ao);
	if (rc) {
		analysis_destroy(*a);
		trace_destroy(*t);
		*a = NULL;
		*t = NULL;
	}
	return rc;
}

static void *
worker(void *arg)
{
	struct job *j = arg;
	int saved = saved_is(j->path);
	if (saved) {
		j->rc = saved < 0 ? err_set(&j->e, ERR_NOMEM, "%s: out of memory", j->path) :
				    load_saved(j->path, j->ao, &j->t, &j->a, &j->e);
		pthread_mutex_lock(&j->mu);
		j->finished = 1;
		pthread_cond_signal(&j->cv);
		pthread_mutex_unlock(&j->mu);
		return NULL;
	}
	j->rc = load_read(j->path, j->charm, on_progress, j, &j->t, &j->e);
	if (j->rc == 0 && (j->rc = trace_require_communication(j->t, &j->e))) {
		char m[sizeof j->e.msg];
		memcpy(m, j->e.msg, sizeof m);
		snprintf(j->e.msg, sizeof j->e.msg, "%s: %.*s", j->path, (int)(sizeof j->e.msg / 2), m);
		trace_destroy(j->t);
		j->t = NULL;
	}
	if (j->rc == 0) {
		on_progress(j, "analysing", 0, 0);
		j->rc = analysis_run(j->t, j->ao, on_progress, j, &j->a, &j->e);
		if (j->rc) {
			char m[sizeof j->e.msg];
			memcpy(m, j->e.msg, sizeof m);
			int n = snprintf(j->e.msg, sizeof j->e.msg, "%s: ", j->path);
			if (n > 0 && (size_t)n < sizeof j->e.msg)
				snprintf(j->e.msg + n, sizeof j->e.msg - (size_t)n, "%.*s",
					 (int)(sizeof j->e.msg - (size_t)n - 1), m);
			trace_destroy(j->t);
			j->t = NULL;
		}
	}
	pthread_mutex_lock(&j->mu);
	j->finished = 1;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

static void
draw_bar(const char *stage, uint64_t done, uint64_t total, double secs)
{
	enum { W = 30 };
	char bar[W + 1];
	if (total && done <= total) {
		int fill = (int)((double)done / (double)total * W);
		for (int i = 0; i < W; i++)
			bar[i] = i < fill ? '#' : '-';
		bar[W] = 0;
		fprintf(stderr, "\rskein: %-12s [%s] %3.0f%%  %.0f s  (Ctrl-C cancels)\033[K", stage, bar,
			100.0 * (double)done / (double)total, secs);
	} else {
		static const char spin[] = "|/-\\";
		fprintf(stderr, "\rskein: %-12s %c  %.0f s  (Ctrl-C cancels)\033[K", stage,
			spin[(int)(secs * 4) % 4], secs);
	}
	fflush(stderr);
}

int
load_trace(const char *path, const struct load_charm *charm, const struct analysis_opts *ao,
	   int progress, struct trace **t, struct analysis **a, struct err *e)
{
	struct job j;
	memset(&j, 0, sizeof j);
	j.path = path;
	j.charm = charm;
	j.ao = ao;
	j.stage = "reading";
	atomic_init(&j.cancel, 0);
	pthread_mutex_init(&j.mu, NULL);
	pthread_cond_init(&j.cv, NULL);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_t th;
	if (pthread_create(&th, NULL, worker, &j)) {
		pthread_mutex_destroy(&j.mu);
		pthread_cond_destroy(&j.cv);
		return err_set(e, ERR_NOMEM, "cannot start the loading thread");
	}
	int shown = 0;
	pthread_mutex_lock(&j.mu);
	while (!j.finished) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&j.cv, &j.mu, &until);
		if (screen_interrupted())
			atomic_store(&j.cancel, 1);
		double secs = cli_seconds_since(&t0);
		if (progress && !j.finished && secs > 0.3) {
			const char *stage = j.stage;
			uint64_t done = j.done, total = j.total;
			pthread_mutex_unlock(&j.mu);
			draw_bar(stage, done, total, secs);
			shown = 1;
			pthread_mutex_lock(&j.mu);
		}
	}
	pthread_mutex_unlock(&j.mu);
	pthread_join(th, NULL);
	if (shown)
		fputs("\r\033[K", stderr);
	pthread_mutex_destroy(&j.mu);
	pthread_cond_destroy(&j.cv);
	if (j.rc) {
		if (j.rc == ERR_CANCELLED || screen_interrupted())
			return err_set(e, ERR_CANCELLED, "%s: loading cancelled", path);
		*e = j.e;
		return j.rc;
	}
	*t = j.t;
	*a = j.a;
	return 0;
}
