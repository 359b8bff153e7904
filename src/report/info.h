/* info.h — the `skein info` report: what a trace holds. */
#ifndef SKEIN_INFO_H
#define SKEIN_INFO_H

#include <stdio.h>

#include "model/trace.h"

enum info_format { INFO_TEXT, INFO_JSON };

/* Writes the report for t to out. per_rank adds one line (text) per
 * timeline; JSON always has them. Returns 0 or ERR_NOMEM / ERR_IO. */
int info_write(const struct trace *t, FILE *out, enum info_format fmt, int per_rank);

/* The report for a Charm++ trace (info_charm.c), from its summary s;
 * info_write calls it. Returns 0. */
struct summary;
int info_write_charm(const struct trace *t, const struct summary *s, FILE *out,
		     enum info_format fmt, int per_rank);

#endif
