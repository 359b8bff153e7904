/* diff_impl.h — the compare folder's own: diff.c's stages in other files. */
#ifndef SKEIN_DIFF_IMPL_H
#define SKEIN_DIFF_IMPL_H

#include "diff.h"

/* Fills d->unpaired (diff.h) once the ops are paired (d->after_op) and
 * the parts aligned; nothing for Charm++ or different rank counts.
 * Returns 0 or ERR_NOMEM. */
int diff_unpaired(struct diff *d);

#endif
