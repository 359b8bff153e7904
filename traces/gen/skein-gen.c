/* skein-gen — deterministic synthetic OTF2 traces in Score-P's MPI record
 * conventions, of any size, for skein's benchmarks and scale tests.
 *
 * This file: options, the run, and the summary. See doc/generator.md.
 */
#define _POSIX_C_SOURCE 200809L
#include "gen.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAX_RANKS (1u << 20)
#define MAX_DELAYS 1024

static const char *const pattern_names[PAT_COUNT] = {
    [PAT_STENCIL] = "stencil",
    [PAT_TREE] = "tree",
    [PAT_RING] = "ring",
    [PAT_DISSEMINATION] = "dissemination",
    [PAT_SPARSE] = "sparse",
    [PAT_COALESCE] = "coalesce",
    [PAT_MIXED] = "mixed",
    [PAT_GATHER] = "gather",
};

const char *
gen_pattern_name(enum gen_pattern p)
{
    return p < PAT_COUNT ? pattern_names[p] : "?";
}

static void
usage(FILE *f)
{
    fprintf(f,
"usage: skein-gen [options] -o DIR\n"
"Write a deterministic synthetic MPI trace as an OTF2 archive DIR/traces.otf2\n"
"with Score-P's record conventions.\n"
"\n"
"  -o, --output DIR          output directory (created if missing)\n"
"  -p, --ranks P             MPI ranks, >= 2 (default 8)\n"
"  -n, --iterations N        iterations (default 10)\n"
"  -e, --events E            instead of -n: the fewest iterations giving at\n"
"                            least E events (E may be 5000000, 5M, 5e6)\n"
"  -t, --pattern NAME        stencil | tree | ring | dissemination | sparse |\n"
"                            coalesce | mixed | gather (default stencil)\n"
"  -k, --allreduce-every K   MPI_Allreduce after every K-th iteration, 0: none\n"
"                            (default 1 for stencil, 0 otherwise)\n"
"  -d, --delay D:R:I         D microseconds of extra computation on rank R in\n"
"                            iteration I (0-based); repeatable\n"
"  -N, --nodes N             spread ranks over N system-tree nodes, block\n"
"                            placement (default 1)\n"
"  -s, --seed S              seed of the small timing jitter (default 1)\n"
"  -c, --compute-us US       computation per iteration, microseconds\n"
"                            (default 100)\n"
"      --jitter PCT          compute jitter amplitude in percent (default 2)\n"
"      --msg-bytes B         point-to-point message size (default 4096)\n"
"      --skip-pct PCT        sparse: share of messages skipped (default 25)\n"
"      --sendrecv            ring and dissemination use MPI_Sendrecv\n"
"      --mem-mb M            memory for open event writers; more ranks than\n"
"                            fit are written in several passes (default 256)\n"
"      --dry-run             write nothing; print the exact record counts\n"
"  -f, --force               replace an archive already in DIR\n"
"  -q, --quiet               no summary on stderr\n"
"  -h, --help                this text\n"
"  -V, --version             version\n"
"\n"
"The summary (stdout for --dry-run, stderr otherwise) lists one line per\n"
"record kind, named as otf2-print names it: KIND COUNT.\n");
}

/* ---- number parsing ----------------------------------------------------- */

static int
parse_u64(const char *s, uint64_t *out, bool suffixes)
{
    if (!s || *s == '\0' || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (suffixes && *end) {
        if ((*end == 'k' || *end == 'K') && end[1] == '\0')
            mul = 1000;
        else if ((*end == 'm' || *end == 'M') && end[1] == '\0')
            mul = 1000000;
        else if ((*end == 'g' || *end == 'G') && end[1] == '\0')
            mul = 1000000000;
        else if (*end == 'e' || *end == 'E') {
            char *e2;
            unsigned long x = strtoul(end + 1, &e2, 10);
            if (e2 == end + 1 || *e2 || x > 19)
                return -1;
            while (x--)
                mul *= 10;
        } else {
            return -1;
        }
    } else if (*end) {
        return -1;
    }
    if (mul > 1 && v > UINT64_MAX / mul)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

static int
parse_u32(const char *s, uint32_t *out, uint32_t max)
{
    uint64_t v;
    if (parse_u64(s, &v, false) != 0 || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Microseconds with up to three decimals, into nanoseconds. */
static int
parse_us(const char *s, uint64_t *ns)
{
    if (!s || *s == '\0' || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long whole = strtoull(s, &end, 10);
    if (errno || end == s || whole > UINT64_MAX / 1000 - 1)
        return -1;
    uint64_t frac = 0, scale = 100;
    if (*end == '.') {
        end++;
        while (*end >= '0' && *end <= '9') {
            frac += (uint64_t)(*end - '0') * scale;
            scale /= 10;
            end++;
        }
    }
    if (*end)
        return -1;
    *ns = (uint64_t)whole * 1000 + frac;
    return 0;
}

static int
parse_delay(const char *arg, struct gen_delay *d)
{
    char buf[128];
    if (strlen(arg) >= sizeof buf)
        return -1;
    strcpy(buf, arg);
    char *c1 = strchr(buf, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
        return -1;
    *c1 = *c2 = '\0';
    if (parse_us(buf, &d->delay_ns) != 0 ||
        parse_u32(c1 + 1, &d->rank, UINT32_MAX) != 0 ||
        parse_u64(c2 + 1, &d->iteration, false) != 0)
        return -1;
    return 0;
}

static int
bad(const char *opt, const char *arg)
{
    fprintf(stderr, "skein-gen: invalid %s '%s' (see --help)\n", opt, arg);
    return -1;
}

/* ---- options ------------------------------------------------------------ */

enum {
    OPT_JITTER = 256,
    OPT_MSG_BYTES,
    OPT_SKIP_PCT,
    OPT_SENDRECV,
    OPT_DRY_RUN,
    OPT_MEM_MB,
};

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"ranks", required_argument, NULL, 'p'},
    {"iterations", required_argument, NULL, 'n'},
    {"events", required_argument, NULL, 'e'},
    {"pattern", required_argument, NULL, 't'},
    {"allreduce-every", required_argument, NULL, 'k'},
    {"delay", required_argument, NULL, 'd'},
    {"nodes", required_argument, NULL, 'N'},
    {"seed", required_argument, NULL, 's'},
    {"compute-us", required_argument, NULL, 'c'},
    {"jitter", required_argument, NULL, OPT_JITTER},
    {"msg-bytes", required_argument, NULL, OPT_MSG_BYTES},
    {"skip-pct", required_argument, NULL, OPT_SKIP_PCT},
    {"sendrecv", no_argument, NULL, OPT_SENDRECV},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"mem-mb", required_argument, NULL, OPT_MEM_MB},
    {"force", no_argument, NULL, 'f'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* Returns 0 to run, 1 to exit successfully (help), -1 on error. */
static int
parse_options(int argc, char **argv, struct gen_options *o)
{
    *o = (struct gen_options){
        .ranks = 8,
        .iterations = 10,
        .pattern = PAT_STENCIL,
        .nodes = 1,
        .seed = 1,
        .compute_ns = 100000,
        .jitter_pct = 2,
        .msg_bytes = 4096,
        .skip_pct = 25,
        .mem_budget = (uint64_t)256 << 20,
    };
    bool every_set = false, iters_set = false;
    int c;
    while ((c = getopt_long(argc, argv, "o:p:n:e:t:k:d:N:s:c:fqhV",
                            long_options, NULL)) != -1) {
        switch (c) {
        case 'o': o->outdir = optarg; break;
        case 'p':
            if (parse_u32(optarg, &o->ranks, MAX_RANKS) || o->ranks < 2)
                return bad("--ranks", optarg);
            break;
        case 'n':
            if (parse_u64(optarg, &o->iterations, true))
                return bad("--iterations", optarg);
            iters_set = true;
            break;
        case 'e':
            if (parse_u64(optarg, &o->target_events, true) ||
                o->target_events == 0)
                return bad("--events", optarg);
            break;
        case 't': {
            int p;
            for (p = 0; p < PAT_COUNT; p++)
                if (strcmp(optarg, pattern_names[p]) == 0)
                    break;
            if (p == PAT_COUNT)
                return bad("--pattern", optarg);
            o->pattern = (enum gen_pattern)p;
            break;
        }
        case 'k':
            if (parse_u32(optarg, &o->allreduce_every, UINT32_MAX))
                return bad("--allreduce-every", optarg);
            every_set = true;
            break;
        case 'd': {
            if (o->ndelays == MAX_DELAYS) {
                fprintf(stderr, "skein-gen: at most %d delays\n", MAX_DELAYS);
                return -1;
            }
            if (o->ndelays % 16 == 0) {
                struct gen_delay *d =
                    realloc(o->delays, (o->ndelays + 16) * sizeof *d);
                if (!d)
                    return -1;
                o->delays = d;
            }
            if (parse_delay(optarg, &o->delays[o->ndelays]))
                return bad("--delay (want D:R:I)", optarg);
            o->ndelays++;
            break;
        }
        case 'N':
            if (parse_u32(optarg, &o->nodes, MAX_RANKS) || o->nodes == 0)
                return bad("--nodes", optarg);
            break;
        case 's':
            if (parse_u64(optarg, &o->seed, false))
                return bad("--seed", optarg);
            break;
        case 'c':
            if (parse_us(optarg, &o->compute_ns))
                return bad("--compute-us", optarg);
            break;
        case OPT_JITTER:
            if (parse_u32(optarg, &o->jitter_pct, 100))
                return bad("--jitter", optarg);
            break;
        case OPT_MSG_BYTES:
            if (parse_u64(optarg, &o->msg_bytes, true) ||
                o->msg_bytes > ((uint64_t)1 << 40))
                return bad("--msg-bytes", optarg);
            break;
        case OPT_SKIP_PCT:
            if (parse_u32(optarg, &o->skip_pct, 100))
                return bad("--skip-pct", optarg);
            break;
        case OPT_SENDRECV: o->sendrecv = true; break;
        case OPT_DRY_RUN: o->dry_run = true; break;
        case OPT_MEM_MB: {
            uint64_t mb;
            if (parse_u64(optarg, &mb, false) || mb == 0 || mb > (1u << 30))
                return bad("--mem-mb", optarg);
            o->mem_budget = mb << 20;
            break;
        }
        case 'f': o->force = true; break;
        case 'q': o->quiet = true; break;
        case 'h': usage(stdout); return 1;
        case 'V': printf("skein-gen %s\n", GEN_VERSION); return 1;
        default: usage(stderr); return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "skein-gen: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (!o->outdir && !o->dry_run) {
        fprintf(stderr, "skein-gen: need -o DIR (or --dry-run)\n");
        return -1;
    }
    if (iters_set && o->target_events) {
        fprintf(stderr, "skein-gen: give --iterations or --events, not both\n");
        return -1;
    }
    if (o->nodes > o->ranks) {
        fprintf(stderr, "skein-gen: more nodes (%u) than ranks (%u)\n",
                o->nodes, o->ranks);
        return -1;
    }
    if (!every_set)
        o->allreduce_every = o->pattern == PAT_STENCIL ? 1 : 0;
    for (size_t i = 0; i < o->ndelays; i++) {
        const struct gen_delay *d = &o->delays[i];
        if (d->rank >= o->ranks) {
            fprintf(stderr, "skein-gen: delay on rank %u, but only %u ranks\n",
                    d->rank, o->ranks);
            return -1;
        }
        if (!o->target_events && d->iteration >= o->iterations) {
            fprintf(stderr,
                    "skein-gen: delay in iteration %" PRIu64
                    ", but only %" PRIu64 " iterations (0-based)\n",
                    d->iteration, o->iterations);
            return -1;
        }
    }
    return 0;
}

/* The configuration in words: the archive's description and the summary's
 * first line. No output path, so two directories get identical archives. */
static void
describe(const struct gen_options *o, char *buf, size_t n)
{
    int w = snprintf(buf, n,
                     "skein-gen %s: pattern=%s ranks=%u nodes=%u ", GEN_VERSION,
                     gen_pattern_name(o->pattern), o->ranks, o->nodes);
    if (o->target_events)
        w += snprintf(buf + w, n - (size_t)w, "events>=%" PRIu64,
                      o->target_events);
    else
        w += snprintf(buf + w, n - (size_t)w, "iterations=%" PRIu64,
                      o->iterations);
    w += snprintf(buf + w, n - (size_t)w,
                  " allreduce-every=%u seed=%" PRIu64 " compute-ns=%" PRIu64
                  " jitter=%u%% msg-bytes=%" PRIu64 " skip=%u%% sendrecv=%d",
                  o->allreduce_every, o->seed, o->compute_ns, o->jitter_pct,
                  o->msg_bytes, o->skip_pct, o->sendrecv ? 1 : 0);
    for (size_t i = 0; i < o->ndelays && (size_t)w + 64 < n; i++)
        w += snprintf(buf + w, n - (size_t)w,
                      " delay=%" PRIu64 "ns:%u:%" PRIu64,
                      o->delays[i].delay_ns, o->delays[i].rank,
                      o->delays[i].iteration);
}

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
summary(FILE *f, const char *desc, const struct emitter *em, uint64_t iters,
        uint32_t ranks, uint32_t passes)
{
    const uint64_t *c = emitter_counts(em);
    const uint64_t *loc = emitter_loc_events(em);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        lo = loc[r] < lo ? loc[r] : lo;
        hi = loc[r] > hi ? loc[r] : hi;
    }
    fprintf(f, "# %s\n", desc);
    fprintf(f, "iterations %" PRIu64 "\n", iters);
    fprintf(f, "events %" PRIu64 "\n", emitter_total(em));
    for (int k = 0; k < EV_COUNT; k++)
        fprintf(f, "%s %" PRIu64 "\n", gen_ev_names[k], c[k]);
    fprintf(f, "messages %" PRIu64 "\n",
            c[EV_MPI_SEND] + c[EV_MPI_ISEND]);
    fprintf(f, "collectives %" PRIu64 "\n", c[EV_MPI_COLLECTIVE_END] / ranks);
    fprintf(f, "location_events_min %" PRIu64 "\n", lo);
    fprintf(f, "location_events_max %" PRIu64 "\n", hi);
    fprintf(f, "first_timestamp %" PRIu64 "\n", emitter_first_time(em));
    fprintf(f, "last_timestamp %" PRIu64 "\n", emitter_last_time(em));
    fprintf(f, "write_passes %u\n", passes);
}

/* 1024 ranks means 1024 open event files. */
static void
raise_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* One run of the simulation over the whole program. With by_target (the
 * planning pass of --events) it stops at the fewest iterations whose
 * events reach the target; otherwise it runs `iters`. Returns the number
 * of iterations run. */
static uint64_t
simulate(const struct gen_options *o, struct emitter *em, uint64_t iters,
         bool by_target)
{
    struct sim *s = sim_create(o, em);
    if (!s) {
        fprintf(stderr, "skein-gen: out of memory\n");
        exit(1);
    }
    const uint64_t tail = sim_epilogue_events_per_rank() * o->ranks;
    sim_prologue(s);
    uint64_t it = 0;
    if (by_target) {
        while (emitter_total(em) + tail < o->target_events)
            sim_iteration(s, it++);
    } else {
        for (; it < iters; it++)
            sim_iteration(s, it);
    }
    uint64_t before = emitter_total(em);
    sim_epilogue(s);
    if (by_target && emitter_total(em) != before + tail) {
        fprintf(stderr, "skein-gen: internal error: epilogue event count\n");
        exit(1);
    }
    sim_destroy(s);
    return it;
}

/* Ranks lo .. *hi-1 fit the memory budget (at least one rank). */
static uint32_t
next_block(const struct gen_options *o, const struct emitter *em, uint32_t lo)
{
    uint64_t mem = 0;
    uint32_t hi = lo;
    while (hi < o->ranks) {
        uint64_t m = emitter_location_memory(em, hi);
        if (hi > lo && mem + m > o->mem_budget)
            break;
        mem += m;
        hi++;
    }
    return hi;
}

int
main(int argc, char **argv)
{
    struct gen_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        free(o.delays);
        return rc > 0 ? 0 : 2;
    }
    char desc[2048];
    describe(&o, desc, sizeof desc);
    raise_file_limit();

    double t0 = now_s();
    struct emitter *em = emitter_open(&o, desc);
    if (!em) {
        free(o.delays);
        return 1;
    }
    emitter_plan(em);
    uint64_t iters = simulate(&o, em, o.iterations, o.target_events != 0);
    for (size_t i = 0; i < o.ndelays; i++)
        if (o.delays[i].iteration >= iters)
            fprintf(stderr,
                    "skein-gen: warning: delay in iteration %" PRIu64
                    " never happened (%" PRIu64 " iterations)\n",
                    o.delays[i].iteration, iters);

    uint32_t passes = 0;
    for (uint32_t lo = 0; lo < o.ranks; passes++)
        lo = next_block(&o, em, lo);
    if (o.dry_run) {
        summary(stdout, desc, em, iters, o.ranks, passes);
    } else {
        for (uint32_t lo = 0, hi; lo < o.ranks; lo = hi) {
            hi = next_block(&o, em, lo);
            emitter_write_pass(em, lo, hi);
            simulate(&o, em, iters, false);
            if (emitter_end_pass(em) != 0)
                rc = 1;
        }
        if (!o.quiet)
            summary(stderr, desc, em, iters, o.ranks, passes);
    }
    uint64_t total = emitter_total(em);
    if (emitter_close(em) != 0)
        rc = 1;
    double dt = now_s() - t0;
    if (!o.quiet && !o.dry_run)
        fprintf(stderr, "# wrote %" PRIu64 " events in %.2f s (%.1f M/s)\n",
                total, dt, dt > 0 ? total / dt / 1e6 : 0.0);
    free(o.delays);
    return rc;
}
