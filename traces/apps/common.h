/* common.h — shared plumbing for skein's MPI mini-apps.
 *
 * Every app takes the same core options (defaults set by each app):
 *   -i ITERS      iterations of the main loop
 *   -c US         busy-wait "compute" per iteration, microseconds
 *   -d D:R:I      inject a busy-wait of D microseconds on rank R at iteration I,
 *                 after the compute and before the iteration's communication
 *                 (may be given up to APP_MAX_DELAYS times)
 *   -h            help
 * plus up to a few app-specific integer options declared by the app.
 *
 * Timing uses clock_gettime(CLOCK_MONOTONIC) so that no MPI call (which a
 * tracer might record) is made inside the busy loops.
 */
#ifndef SKEIN_APPS_COMMON_H
#define SKEIN_APPS_COMMON_H

#define APP_MAX_DELAYS 8
#define APP_MAX_EXTRA 4

struct app_delay {
    long us;
    int rank;
    int iter;
};

/* An app-specific integer option such as "-k 3". */
struct app_extra {
    char letter;
    const char *meaning;
    long value;     /* default on input, parsed value on output */
    long min;
    long max;
};

struct app_opts {
    int iters;
    long compute_us;
    int ndelays;
    struct app_delay delays[APP_MAX_DELAYS];
    int nextra;
    struct app_extra extra[APP_MAX_EXTRA];
};

/* Parse argv into *o (whose extra[] the caller has filled with defaults).
 * On a bad option, rank 0 prints the usage and every rank returns -1; the
 * caller then calls MPI_Finalize and exits non-zero. Returns 1 after -h. */
int app_parse(struct app_opts *o, int argc, char **argv, const char *name,
              const char *summary, int rank, int nranks);

/* Value of the app-specific option with this letter. */
long app_extra(const struct app_opts *o, char letter);

/* Busy-wait for us microseconds. */
void app_spin_us(long us);

/* The per-iteration compute: regions "compute" (and "delay" when a delay
 * is injected on this rank at this iteration, nested inside it). */
void app_compute(const struct app_opts *o, int rank, int iter);

/* Rank 0 prints "name: message" to stderr, every rank returns -1. */
int app_refuse(int rank, const char *name, const char *message);

/* User-region marks; forwarded to the skein tracer when it is loaded
 * (LD_PRELOAD or linked), no-ops otherwise. See regions.c. */
void app_region_begin(const char *name);
void app_region_end(const char *name);

#endif
