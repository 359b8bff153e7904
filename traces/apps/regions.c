/* regions.c — user-region marks for the mini-apps.
 *
 * The skein tracer exports skeintrace_region_begin/end. The apps must run
 * with the tracer preloaded (LD_PRELOAD), linked, or absent. A weak
 * *definition* here would not do: symbols defined in the executable come
 * first in the dynamic linker's search order, so a no-op fallback compiled
 * into the app would shadow the preloaded tracer. Instead the tracer's
 * functions are weak *references*: they resolve to the tracer when it is
 * loaded and to NULL otherwise, and the wrappers below check for that.
 */
#if defined(__has_include)
#if __has_include("../tracer/skeintrace.h")
#include "../tracer/skeintrace.h"
#define HAVE_SKEINTRACE_H 1
#endif
#endif
#ifndef HAVE_SKEINTRACE_H
void skeintrace_region_begin(const char *name);
void skeintrace_region_end(const char *name);
#endif

#include "common.h"

#pragma weak skeintrace_region_begin
#pragma weak skeintrace_region_end

void
app_region_begin(const char *name)
{
    if (skeintrace_region_begin)
        skeintrace_region_begin(name);
}

void
app_region_end(const char *name)
{
    if (skeintrace_region_end)
        skeintrace_region_end(name);
}
