/* cli_profile.c — `skein profile` and `skein comm`: the model alone is
 * read (a trace, or a saved analysis without analysing again), the scope
 * of --from, --to and --rank-set applied, the report written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile/profile.h"
#include "report/profile_report.h"
#include "cli.h"

int
cli_scope(const struct cli *c, const struct trace *t, struct profile_scope *s, uint8_t **kept)
{
	struct err e = { 0 };
	profile_scope_all(s);
	*kept = NULL;
	if (profile_parse_window(t, c->from, c->to, &s->from, &s->to, &e))
		return cli_usage_error(e.msg, NULL);
	if (c->rank_set) {
		uint32_t n;
		trace_timelines(t, &n);
		*kept = malloc((size_t)n + 1);
		if (!*kept) {
			cli_error("out of memory");
			return EXIT_FAIL;
		}
		if (profile_parse_ranks(t, c->rank_set, *kept, &e)) {
			free(*kept);
			*kept = NULL;
			return cli_usage_error(e.msg, NULL);
		}
		s->ranks = *kept;
	}
	return EXIT_OK;
}

int
cli_profile(struct cli *c)
{
	struct trace *t = NULL;
	int rc = cli_load_trace(c, c->trace, &t, NULL);
	if (rc)
		return rc;
	struct profile_scope s;
	uint8_t *kept = NULL;
	if ((rc = cli_scope(c, t, &s, &kept))) {
		trace_destroy(t);
		return rc;
	}
	if (c->by_pe && trace_info(t)->paradigm != PARADIGM_CHARM) {
		trace_destroy(t);
		free(kept);
		return cli_usage_error("--pes is for Charm++ runs; an MPI trace's ranks are its PEs", NULL);
	}
	s.by_pe = c->by_pe;
	struct profile_report_opts o = {
		.fmt = !c->format || strcmp(c->format, "text") == 0 ? REPORT_TEXT
		       : strcmp(c->format, "json") == 0 ? REPORT_JSON : REPORT_CSV,
		.per_rank = c->per_rank || c->by_pe, .ranks_text = c->rank_set,
	};
	struct err e = { 0 };
	if (c->cmd == CMD_PROFILE) {
		struct profile p;
		if (profile_compute(t, &s, &p, &e)) {
			cli_error("%s", e.msg);
			rc = EXIT_FAIL;
		} else {
			rc = profile_report_write(t, &p, stdout, &o) ? EXIT_FAIL : EXIT_OK;
			profile_free(&p);
		}
	} else {
		struct comm m;
		if (comm_compute(t, &s, &m, &e)) {
			cli_error("%s", e.msg);
			rc = EXIT_FAIL;
		} else {
			rc = comm_report_write(t, &m, stdout, &o) ? EXIT_FAIL : EXIT_OK;
			comm_free(&m);
		}
	}
	free(kept);
	trace_destroy(t);
	return rc;
}
