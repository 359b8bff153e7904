/* regions.c — user-region marks for the mini-apps.
 *
 * The apps call app_region_begin/end; this file forwards them to the skein
 * tracer's two-function API (../tracer/skeintrace.h). That header resolves
 * the tracer at run time, so the same binary runs untraced, traced with
 * LD_PRELOAD=libskeintrace-mpich.so, or linked against the tracer.
 *
 * Should the header be missing (a tree without traces/tracer), the tracer's
 * functions are declared as weak *references*: they resolve to the tracer
 * when it is loaded and to NULL otherwise. (A weak *definition* would not
 * do: a symbol defined in the executable comes first in the dynamic
 * linker's search order and would shadow a preloaded tracer.)
 */
#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <stddef.h>  /* skeintrace.h uses NULL without including it */

#if defined(__has_include)
#if __has_include("../tracer/skeintrace.h")
#include "../tracer/skeintrace.h"
#define HAVE_SKEINTRACE_H 1
#endif
#endif

#ifndef HAVE_SKEINTRACE_H
void skeintrace_region_begin(const char *name) __attribute__((weak));
void skeintrace_region_end(const char *name) __attribute__((weak));
#endif

void
app_region_begin(const char *name)
{
#ifdef HAVE_SKEINTRACE_H
    skeintrace_region_begin(name);
#else
    if (skeintrace_region_begin)
        skeintrace_region_begin(name);
#endif
}

void
app_region_end(const char *name)
{
#ifdef HAVE_SKEINTRACE_H
    skeintrace_region_end(name);
#else
    if (skeintrace_region_end)
        skeintrace_region_end(name);
#endif
}
