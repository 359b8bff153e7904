/* common.c — option parsing, busy-waiting and the per-iteration compute
 * shared by the mini-apps. */
#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int
parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* "D:R:I" */
static int
parse_delay(const char *s, struct app_delay *d)
{
    long us, rank, iter;
    char buf[64], *r, *i;

    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    r = strchr(buf, ':');
    if (!r)
        return -1;
    *r++ = '\0';
    i = strchr(r, ':');
    if (!i)
        return -1;
    *i++ = '\0';
    if (parse_long(buf, 0, 100000000L, &us) < 0 ||
        parse_long(r, 0, 1L << 30, &rank) < 0 ||
        parse_long(i, 0, 1L << 30, &iter) < 0)
        return -1;
    d->us = us;
    d->rank = (int)rank;
    d->iter = (int)iter;
    return 0;
}

static void
usage(const struct app_opts *o, const char *name, const char *summary)
{
    int k;

    fprintf(stderr, "usage: %s [-i ITERS] [-c US] [-d D:R:I]...", name);
    for (k = 0; k < o->nextra; k++)
        fprintf(stderr, " [-%c N]", o->extra[k].letter);
    fprintf(stderr, "\n%s\n", summary);
    fprintf(stderr,
            "  -i ITERS  iterations (default %d)\n"
            "  -c US     busy compute per iteration in microseconds (default %ld)\n"
            "  -d D:R:I  busy-wait D microseconds on rank R at iteration I, before\n"
            "            that iteration's communication (repeatable, at most %d)\n",
            o->iters, o->compute_us, APP_MAX_DELAYS);
    for (k = 0; k < o->nextra; k++)
        fprintf(stderr, "  -%c N      %s (default %ld)\n", o->extra[k].letter,
                o->extra[k].meaning, o->extra[k].value);
}

int
app_refuse(int rank, const char *name, const char *message)
{
    if (rank == 0)
        fprintf(stderr, "%s: %s\n", name, message);
    return -1;
}

int
app_parse(struct app_opts *o, int argc, char **argv, const char *name,
          const char *summary, int rank, int nranks)
{
    char spec[3 + 2 * APP_MAX_EXTRA + 8];
    int c, k, bad = 0;
    size_t n = 0;
    long v;

    if (o->iters <= 0)
        o->iters = 4;
    if (o->compute_us < 0)
        o->compute_us = 50;
    spec[n++] = 'h';
    spec[n++] = 'i'; spec[n++] = ':';
    spec[n++] = 'c'; spec[n++] = ':';
    spec[n++] = 'd'; spec[n++] = ':';
    for (k = 0; k < o->nextra; k++) {
        spec[n++] = o->extra[k].letter;
        spec[n++] = ':';
    }
    spec[n] = '\0';

    opterr = 0;
    while ((c = getopt(argc, argv, spec)) != -1) {
        if (c == 'h') {
            if (rank == 0)
                usage(o, name, summary);
            return 1;
        } else if (c == 'i') {
            if (parse_long(optarg, 1, 1000000, &v) < 0)
                bad = 1;
            else
                o->iters = (int)v;
        } else if (c == 'c') {
            if (parse_long(optarg, 0, 10000000, &v) < 0)
                bad = 1;
            else
                o->compute_us = v;
        } else if (c == 'd') {
            if (o->ndelays >= APP_MAX_DELAYS ||
                parse_delay(optarg, &o->delays[o->ndelays]) < 0)
                bad = 1;
            else
                o->ndelays++;
        } else {
            for (k = 0; k < o->nextra; k++)
                if (c == o->extra[k].letter)
                    break;
            if (k == o->nextra ||
                parse_long(optarg, o->extra[k].min, o->extra[k].max, &v) < 0)
                bad = 1;
            else
                o->extra[k].value = v;
        }
    }
    if (optind != argc)
        bad = 1;
    for (k = 0; k < o->ndelays; k++)
        if (o->delays[k].rank >= nranks || o->delays[k].iter >= o->iters) {
            if (rank == 0)
                fprintf(stderr, "%s: delay %ld:%d:%d names a rank or iteration "
                        "that does not exist\n", name, o->delays[k].us,
                        o->delays[k].rank, o->delays[k].iter);
            bad = 1;
        }
    if (bad) {
        if (rank == 0)
            usage(o, name, summary);
        return -1;
    }
    return 0;
}

long
app_extra(const struct app_opts *o, char letter)
{
    int k;

    for (k = 0; k < o->nextra; k++)
        if (o->extra[k].letter == letter)
            return o->extra[k].value;
    return 0;
}

void
app_spin_us(long us)
{
    struct timespec t0, t;
    long long elapsed;

    if (us <= 0)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        clock_gettime(CLOCK_MONOTONIC, &t);
        elapsed = (long long)(t.tv_sec - t0.tv_sec) * 1000000000LL +
                  (t.tv_nsec - t0.tv_nsec);
    } while (elapsed < (long long)us * 1000LL);
}

void
app_compute(const struct app_opts *o, int rank, int iter)
{
    int k;

    app_region_begin("compute");
    app_spin_us(o->compute_us);
    for (k = 0; k < o->ndelays; k++)
        if (o->delays[k].rank == rank && o->delays[k].iter == iter) {
            app_region_begin("delay");
            app_spin_us(o->delays[k].us);
            app_region_end("delay");
        }
    app_region_end("compute");
}
