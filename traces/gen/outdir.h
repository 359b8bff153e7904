/* outdir.h — the archive's trace id made reproducible (outdir.c), for
 * every generator. */
#ifndef SKEIN_GEN_OUTDIR_H
#define SKEIN_GEN_OUTDIR_H

/* Replaces OTF2's random trace id in DIR/traces.otf2 by a hash of the
 * description. Returns 0, or -1 when it could not. */
int outdir_fix_trace_id(const char *dir, const char *description);

#endif
