/* skeintrace.h — mark phases of an MPI program in a skeintrace trace.
 *
 *     #include "skeintrace.h"
 *     for (int it = 0; it < n; it++) {
 *         skeintrace_region_begin("iteration");
 *         ... compute and communicate ...
 *         skeintrace_region_end("iteration");
 *     }
 *
 * Each call records an Enter or Leave of a user region (OTF2 paradigm USER,
 * role FUNCTION) on the calling rank, with the same name-to-region mapping
 * on every rank. Calls before MPI_Init, after MPI_Finalize, from threads
 * other than the one that initialised MPI, or while tracing is off are
 * ignored. Regions must nest; one still open at MPI_Finalize is closed
 * there. `name` is copied; it may be freed after the call.
 *
 * Nothing to link: when this header is used on its own, the two calls look
 * the tracer up at run time (dlopen(NULL) + dlsym, once per source file)
 * and do nothing when the program runs without it. So one binary runs
 * untraced, traced with LD_PRELOAD=libskeintrace-<mpi>.so, or traced when
 * linked with -lskeintrace-<mpi>. On glibc older than 2.34 add -ldl. Define
 * SKEINTRACE_DISABLE to compile the calls away entirely. */
#ifndef SKEINTRACE_H
#define SKEINTRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SKEINTRACE_BUILD)

/* The tracer's own definitions (built with -DSKEINTRACE_BUILD). */
void skeintrace_region_begin(const char *name);
void skeintrace_region_end(const char *name);

#elif defined(SKEINTRACE_DISABLE)

static inline void skeintrace_region_begin(const char *name) { (void)name; }
static inline void skeintrace_region_end(const char *name) { (void)name; }

#else

#include <dlfcn.h>
#include <stddef.h>

typedef void (*skeintrace_fn_)(const char *);

/* The tracer's exported function named sym, or NULL when it is not loaded. */
static inline skeintrace_fn_
skeintrace_resolve_(const char *sym)
{
    union { void *p; skeintrace_fn_ f; } u;
    void *self = dlopen(NULL, RTLD_LAZY);

    u.p = self ? dlsym(self, sym) : NULL;
    return u.f;
}

static inline void
skeintrace_region_begin(const char *name)
{
    static int resolved;
    static skeintrace_fn_ fn;

    if (!resolved) {
        fn = skeintrace_resolve_("skeintrace_region_begin");
        resolved = 1;
    }
    if (fn)
        fn(name);
}

static inline void
skeintrace_region_end(const char *name)
{
    static int resolved;
    static skeintrace_fn_ fn;

    if (!resolved) {
        fn = skeintrace_resolve_("skeintrace_region_end");
        resolved = 1;
    }
    if (fn)
        fn(name);
}

#endif

#ifdef __cplusplus
}
#endif

#endif
