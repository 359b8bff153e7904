/* cli_export.c — `skein export --otf2 DIR | --csv | --json TRACE`: the
 * analysed structure for other tools (report/export.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/run/run.h"
#include "analysis/saved/saved.h"
#include "report/export.h"
#include "cli.h"

#ifndef SKEIN_VERSION
#define SKEIN_VERSION "unknown"
#endif

/* An export --otf2 interrupted (SIGINT, SIGTERM, SIGHUP) stops its copy
 * and removes its stage, dir/.skein-export-PID, before it dies of the
 * signal: the handler only notes it (async-signal-safe), the writer asks
 * between events (export_otf2's progress) and cleans up as after an
 * error, and the signal is raised again with its default action, so the
 * exit status is the signal's. A second signal while it cleans up kills
 * at once (SA_RESETHAND). */
static volatile sig_atomic_t interrupted;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof *stop_signals)

static void
on_stop(int sig)
{
	interrupted = sig;
}

static int
stop_asked(void *ud, const char *stage, uint64_t done, uint64_t total)
{
	(void)ud; (void)stage; (void)done; (void)total;
	return interrupted != 0;
}

/* Installs on_stop for the stop signals, keeping their old actions in
 * old; a signal ignored (nohup, a shell's background job) stays ignored. */
static void
catch_stops(struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
		sigaction(stop_signals[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	}
}

static void
release_stops(const struct sigaction *old)
{
	for (size_t i = 0; i < N_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
	if (interrupted) {
		/* the stage is gone: die of the signal as if uncaught */
		signal(interrupted, SIG_DFL);
		raise(interrupted);
	}
}

int
cli_export(struct cli *c)
{
	int kinds = (c->export_otf2 != NULL) + c->export_csv + c->export_json;
	if (kinds != 1)
		return cli_usage_error("export takes exactly one of --otf2 DIR, --csv and --json", NULL);
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct err e = { 0 };
	int rc = cli_load_trace(c, c->trace, &t, &a);
	if (rc)
		return rc;
	if ((rc = cli_check_regions(c, t)))
		;
	else if (!a && analysis_run(t, &c->aopts, NULL, NULL, &a, &e)) {
		cli_error("%s: %s", c->trace, e.msg);
		rc = EXIT_FAIL;
	}
	/* the OTF2 copy is made from the archive, record by record: from a
	 * saved analysis, only when its trace is still what was analysed (a
	 * Charm++ run has no archive: export_otf2 says so) */
	if (rc == EXIT_OK && c->export_otf2 && saved_source(t) != SAVED_TRACE_SAME &&
	    trace_info(t)->paradigm == PARADIGM_MPI) {
		cli_error("%s: export --otf2 copies the trace's archive, and %s %s; export the trace "
			  "itself, or use --csv or --json", c->trace, trace_info(t)->path,
			  saved_source(t) == SAVED_TRACE_MISSING ? "is not there"
			  : "has changed since this analysis was saved");
		rc = EXIT_FAIL;
	}
	if (rc == EXIT_OK && c->export_otf2) {
		struct otf2_write_stats st;
		struct sigaction old[N_STOP_SIGNALS];
		catch_stops(old);
		int w = export_otf2(a, c->export_otf2, "skein " SKEIN_VERSION " export", stop_asked, NULL, &st, &e);
		release_stops(old);
		if (w) {
			cli_error("%s", e.msg);
			rc = EXIT_FAIL;
		} else {
			if (st.skipped)
				cli_error("warning: %llu records of kinds the OTF2 copy does not know were left out",
					  (unsigned long long)st.skipped);
			if (st.moved)
				cli_error("warning: %llu %s timed before %s predecessor written at its time, as "
					  "skein read %s", (unsigned long long)st.moved,
					  st.moved == 1 ? "record" : "records", st.moved == 1 ? "its" : "their",
					  st.moved == 1 ? "it" : "them");
			if (st.unmatched)
				cli_error("warning: %llu communication calls were not found in the archive again "
					  "and carry no attributes", (unsigned long long)st.unmatched);
			if (!c->quiet)
				cli_error("wrote %s/traces.otf2: %llu calls annotated, %llu iteration records",
					  c->export_otf2, (unsigned long long)st.annotated,
					  (unsigned long long)st.parameters);
		}
	} else if (rc == EXIT_OK) {
		int w = c->export_csv ? export_csv(a, stdout) : export_json(a, stdout);
		if (w) {
			if (!ferror(stdout))       /* a write error is reported once, in main */
				cli_error("cannot write the export");
			rc = EXIT_FAIL;
		}
	}
	analysis_destroy(a);
	trace_destroy(t);
	return rc;
}
