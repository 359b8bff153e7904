/* profile_report.h — `skein profile` and `skein comm`: the flat profile
 * and the communication summary (analysis/profile/profile.h) as text,
 * JSON or CSV (doc/profile.md). They need the model only: a trace, or a
 * saved analysis, alike. */
#ifndef SKEIN_PROFILE_REPORT_H
#define SKEIN_PROFILE_REPORT_H

#include <stdio.h>

#include "analysis/profile/profile.h"
#include "report.h"

/* What the report says the scope is ("whole trace", "0.1-0.2 s, ranks
 * 0-15"); ranks_text may be NULL (all). */
struct profile_report_opts {
	enum report_format fmt;
	int per_rank;              /* a row per rank and region */
	const char *ranks_text;    /* the rank set as given, or NULL */
};

/* Returns 0, or ERR_IO when out could not be written. */
int profile_report_write(const struct trace *t, const struct profile *p, FILE *out,
			 const struct profile_report_opts *o);
int comm_report_write(const struct trace *t, const struct comm *c, FILE *out,
		      const struct profile_report_opts *o);

#endif
