/* outdir.h — the output directory around a generator's OTF2 archive
 * (outdir.c), for every generator. */
#ifndef SKEIN_GEN_OUTDIR_H
#define SKEIN_GEN_OUTDIR_H

#include <stdbool.h>

/* Creates DIR; an archive already there (traces.otf2 or traces/) is an
 * error unless force, then it is removed, and nothing else. Returns 0,
 * or -1 after a message that starts with PROG. */
int outdir_prepare(const char *prog, const char *dir, bool force);

/* Replaces OTF2's random trace id in DIR/traces.otf2 by a hash of the
 * description. Returns 0, or -1 when it could not. */
int outdir_fix_trace_id(const char *dir, const char *description);

#endif
