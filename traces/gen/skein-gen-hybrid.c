/* skein-gen-hybrid — a deterministic synthetic OTF2 trace of an
 * MPI+OpenMP+CUDA program in Score-P's conventions, and its ground truth.
 *
 * Every rank iterates: an OpenMP parallel region ("!$omp for", implicit
 * barrier), a kernel on its CUDA stream, a stream synchronisation, a copy
 * from the device, host computation, an MPI_Allreduce. Options plant a
 * slow thread, a long kernel, a late rank, an OpenMP lock every member
 * holds in turn, a task the master waits for in a taskwait; --truth
 * writes the waits they cause. Records follow a Score-P trace of such a program (casita-2_jacobi
 * _blame_cpu_015): location ids (k << 32) | r, fork/join and thread-team
 * records around parallel regions, device copies as RmaPut and
 * RmaOpCompleteBlocking on the stream in a window over the rank's CUDA
 * communicator (master and stream; remote 0 is the master). Same
 * arguments, same bytes: the OTF2 trace id is a hash of the arguments.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "outdir.h"

#define PROG "skein-gen-hybrid"

#define MAX_RANKS 65536u
#define MAX_THREADS 4096u
#define MAX_ITERATIONS 100000u
#define MAX_NS 1000000000000ull /* 1000 s: keeps every time in 64 bits */

#define EVT_CHUNK ((uint64_t)1024 * 1024) /* Score-P's chunk sizes */
#define DEF_CHUNK ((uint64_t)256 * 1024)
#define TICKS_PER_SECOND 1000000000u      /* 1 tick = 1 ns */

/* The timeline, in ns. S0 is the run's first event. */
enum {
    S0 = 1000000, INIT = 10000, FINALIZE = 10000, MAIN_TAIL = 1000,
    FORK = 5000, FOR = 1000000, RELEASE = 2000, THREAD_LEAVE = 1000,
    MASTER_LEAVE = 3000, LAUNCH_CALL = 10000, KSTART = 5000,
    KERNEL = 400000, SYNC_AT = 20000, SYNC_TAIL = 3000, COPY_LAT = 2000,
    COPY = 50000, COPY_TAIL = 2000, COMPUTE = 100000, COLL_TAIL = 5000,
    GAP = 1000,
    COPY_BYTES = 4096, COPY_MATCHING = 42, /* Score-P's one matching id */
    SET_LOCK = 500, UNSET_LOCK = 300, /* omp_set_lock once free, omp_unset_lock */
    RELEASE_AT = 100, /* the release record, inside omp_unset_lock */
    NEST_AT = 1000, NEST_HOLD = 40, /* the lock taken again inside "update" */
    LOCK_ID = 0,
    CREATE_TASK = 1000, TASK_START = 1000, TASKWAIT_TAIL = 500,
};
#define MAX_LOCK_THREADS 64u /* --lock-hold plans each turn in O(T^2) */

/* An imbalance option: --slow-thread R:K:NS, --long-kernel R:NS or
 * --late-rank R:NS. */
struct imbalance {
    bool on;
    uint32_t rank, thread;
    uint64_t ns;
};

struct opts {
    uint32_t ranks, threads; /* threads: the team size, master included */
    uint64_t iterations;
    struct imbalance slow, kernel, late;
    uint64_t lock_hold; /* --lock-hold NS, 0: no lock */
    uint64_t task;      /* --taskwait NS, 0: no task */
    const char *truth, *outdir;
    bool force;
};

/* ---- regions and references --------------------------------------------- */

enum region {
    REG_MAIN, REG_MPI_INIT, REG_MPI_FINALIZE, REG_MPI_ALLREDUCE, REG_COMPUTE,
    REG_OMP_PARALLEL, REG_OMP_FOR, REG_OMP_BARRIER, REG_CU_LAUNCH,
    REG_CU_SYNC, REG_CU_MEMCPY, REG_KERNEL, REG_SET_LOCK, REG_UNSET_LOCK,
    REG_UPDATE, REG_CREATE_TASK, REG_TASK, REG_TASKWAIT, REG_COUNT
};

/* String ids: these, then the region names (S_REGION + region), then
 * "OMP thread k" (S_REGION + REG_COUNT + k - 1), then "MPI Rank r". */
enum {
    S_EMPTY, S_PROGRAM, S_MACHINE, S_LINUX, S_PLATFORM, S_NODE, S_NODE0,
    S_MPI, S_OPENMP, S_CUDA, S_CUDA_GROUP, S_COMM_TMPL, S_WIN_TMPL,
    S_MASTER, S_STREAM, S_WORLD, S_SELF, S_SRC, S_CUDRV, S_CUDA_KERNEL,
    S_REGION
};
static const char *const strings[S_REGION] = {
    "", "skein_hybrid", "machine", "Linux", "platform", "node", "node0",
    "MPI", "OpenMP", "CUDA", "CUDA_GROUP", "Comm ${id}", "Win ${id}",
    "Master thread", "CUDA[0:7]", "MPI_COMM_WORLD", "MPI_COMM_SELF",
    "hybrid.c", "CUDRV", "CUDA_KERNEL",
};

struct region_def {
    const char *name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    OTF2_StringRef file;
    uint32_t begin, end;
};

#define R(name, role, paradigm, file, begin, end)                           \
    {name, OTF2_REGION_ROLE_##role, OTF2_PARADIGM_##paradigm, file, begin,  \
     end}
static const struct region_def regions[REG_COUNT] = {
    R("main", FUNCTION, USER, S_SRC, 1, 40),
    R("MPI_Init", FUNCTION, MPI, S_MPI, 0, 0),
    R("MPI_Finalize", FUNCTION, MPI, S_MPI, 0, 0),
    R("MPI_Allreduce", COLL_ALL2ALL, MPI, S_MPI, 0, 0),
    R("compute", FUNCTION, USER, S_SRC, 25, 30),
    R("!$omp parallel @hybrid.c:10", PARALLEL, OPENMP, S_SRC, 10, 20),
    R("!$omp for @hybrid.c:11", LOOP, OPENMP, S_SRC, 11, 19),
    R("!$omp implicit barrier @hybrid.c:20", IMPLICIT_BARRIER, OPENMP,
      S_SRC, 20, 20),
    R("cuLaunchKernel", WRAPPER, CUDA, S_CUDRV, 0, 0),
    R("cuStreamSynchronize", WRAPPER, CUDA, S_CUDRV, 0, 0),
    R("cuMemcpyDtoH_v2", WRAPPER, CUDA, S_CUDRV, 0, 0),
    R("jacobi_kernel", FUNCTION, CUDA, S_CUDA_KERNEL, 0, 0),
    R("omp_set_lock", FUNCTION, OPENMP, S_OPENMP, 0, 0),
    R("omp_unset_lock", FUNCTION, OPENMP, S_OPENMP, 0, 0),
    R("update", FUNCTION, USER, S_SRC, 12, 16),
    R("!$omp create task @hybrid.c:14", TASK_CREATE, OPENMP, S_SRC, 14, 14),
    R("!$omp task @hybrid.c:14", TASK, OPENMP, S_SRC, 14, 14),
    R("!$omp taskwait @hybrid.c:15", TASK_WAIT, OPENMP, S_SRC, 15, 15),
};
#undef R

/* Groups: the MPI ones (COMM_LOCATIONS, world, self), the OpenMP and CUDA
 * COMM_LOCATIONS groups, then per rank r its thread team's group
 * (GRP_RANK + 2r) and its CUDA group (GRP_RANK + 2r + 1). Communicators:
 * world, self, then per rank its team and its CUDA communicator, in the
 * same order. RMA window r is over rank r's CUDA communicator. */
enum { GRP_MPI_LOCS, GRP_WORLD, GRP_SELF, GRP_OMP_LOCS, GRP_CUDA_LOCS,
       GRP_RANK };
enum { COMM_WORLD, COMM_SELF, COMM_RANK };
#define TEAM_COMM(r) ((OTF2_CommRef)(COMM_RANK + 2 * (r)))
#define CUDA_COMM(r) ((OTF2_CommRef)(COMM_RANK + 2 * (r) + 1))

/* Rank r's location m: its team member m (m = 0: the master, whose id
 * is r; 1 .. T-1: the OpenMP threads) or, for m = T, its stream. */
#define LOC(r, m) (((uint64_t)(m) << 32) | (r))

/* Any failure ends the run. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(PROG ": ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

#define CHECK(call)                                                         \
    do {                                                                    \
        OTF2_ErrorCode e_ = (call);                                         \
        if (e_ != OTF2_SUCCESS)                                             \
            fail("%s: %s (%s)", #call, OTF2_Error_GetName(e_),              \
                 OTF2_Error_GetDescription(e_));                            \
    } while (0)

/* ---- the schedule ------------------------------------------------------- */

/* One iteration of one rank. */
struct step {
    uint64_t t0;   /* the master enters the parallel region */
    uint64_t B;    /* the last member enters the barrier */
    uint64_t t1;   /* the master leaves the parallel region */
    uint64_t L;    /* it enters cuLaunchKernel */
    uint64_t kend; /* the kernel ends */
    uint64_t t2;   /* cuStreamSynchronize returns */
    uint64_t C0;   /* the master enters cuMemcpyDtoH_v2 */
    uint64_t t3;   /* ... which returns */
    uint64_t a;    /* the master enters MPI_Allreduce */
};

static uint64_t
max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t
for_ns(const struct opts *o, uint32_t r, uint32_t m)
{
    bool slow = o->slow.on && o->slow.rank == r && o->slow.thread == m;
    return FOR + (slow ? o->slow.ns : 0);
}

/* When member m leaves its "!$omp for". */
static uint64_t
loop_end(const struct opts *o, uint32_t r, uint32_t m, uint64_t t0)
{
    return t0 + (m ? FORK : 0) + for_ns(o, r, m);
}

/* Member m's turn with the lock (--lock-hold) in the iteration that
 * starts at t0: it asks (enters omp_set_lock) when it leaves its loop,
 * gets it SET_LOCK after it is free, runs "update" lock_hold ns, lets go
 * (omp_unset_lock: the release RELEASE_AT into it, as Score-P records
 * it, after "update" returned). Members take it in the order they ask,
 * the lower member first on ties; `turn` is m's place in that order. */
struct lock_turn {
    uint64_t ask, acquire, release;
    uint32_t turn;
    uint64_t wait;   /* from asking to the holder before letting go */
    uint32_t holder; /* that member (m itself when none) */
};

static void
lock_turn(const struct opts *o, uint32_t r, uint32_t m, uint64_t t0,
          struct lock_turn *x)
{
    bool done[MAX_LOCK_THREADS] = {false};
    uint64_t free_at = 0;
    uint32_t last = m;
    for (uint32_t k = 0; k < o->threads; k++) {
        uint32_t next = UINT32_MAX;
        for (uint32_t j = 0; j < o->threads; j++)
            if (!done[j] && (next == UINT32_MAX ||
                             loop_end(o, r, j, t0) < loop_end(o, r, next, t0)))
                next = j;
        done[next] = true;
        uint64_t ask = loop_end(o, r, next, t0);
        uint64_t acquire = max64(ask, free_at) + SET_LOCK;
        if (next == m) {
            *x = (struct lock_turn){ask, acquire,
                                    acquire + o->lock_hold + RELEASE_AT, k,
                                    free_at > ask ? free_at - ask : 0,
                                    free_at > ask ? last : m};
            return;
        }
        free_at = acquire + o->lock_hold + RELEASE_AT;
        last = next;
    }
}

/* The task (--taskwait): the master creates it as it leaves its loop
 * and waits for it in a taskwait; thread 1 runs it after its own loop.
 * When it runs, and when the master's taskwait begins and ends. */
struct task_plan {
    uint64_t create, wait, start, end, wait_end;
};

static void
task_plan(const struct opts *o, uint32_t r, uint64_t t0, struct task_plan *x)
{
    x->create = loop_end(o, r, 0, t0);
    x->wait = x->create + CREATE_TASK;
    x->start = max64(x->wait, loop_end(o, r, 1, t0)) + TASK_START;
    x->end = x->start + o->task;
    x->wait_end = x->end + TASKWAIT_TAIL;
}

/* When member m enters the barrier: after its loop, after letting the
 * lock go, after the taskwait (the master) or the task (thread 1). */
static uint64_t
barrier_enter(const struct opts *o, uint32_t r, uint32_t m, uint64_t t0)
{
    if (o->task && m <= 1) {
        struct task_plan x;
        task_plan(o, r, t0, &x);
        return m == 0 ? x.wait_end : x.end;
    }
    if (!o->lock_hold)
        return loop_end(o, r, m, t0);
    struct lock_turn x;
    lock_turn(o, r, m, t0, &x);
    return x.acquire + o->lock_hold + UNSET_LOCK;
}

static uint64_t
kernel_ns(const struct opts *o, uint32_t r)
{
    return o->kernel.on && o->kernel.rank == r ? o->kernel.ns : KERNEL;
}

static void
plan_step(const struct opts *o, uint32_t r, uint64_t t0, struct step *s)
{
    s->t0 = t0;
    s->B = 0;
    for (uint32_t m = 0; m < o->threads; m++)
        s->B = max64(s->B, barrier_enter(o, r, m, t0));
    s->t1 = s->B + RELEASE + MASTER_LEAVE;
    s->L = s->t1 + GAP;
    s->kend = s->L + KSTART + kernel_ns(o, r);
    s->t2 = max64(s->kend, s->L + SYNC_AT) + SYNC_TAIL;
    s->C0 = s->t2 + GAP;
    s->t3 = s->C0 + COPY_LAT + COPY + COPY_TAIL;
    s->a = s->t3 + GAP + COMPUTE;
    if (o->late.on && o->late.rank == r)
        s->a += o->late.ns;
}

/* Iteration i starts at t0[i] on every rank; A[i] is the last rank's
 * entry into its Allreduce, which every rank leaves at A[i] + COLL_TAIL. */
struct schedule {
    uint64_t *t0, *A;
    uint64_t end; /* the last Allreduce ends */
};

static void
schedule_make(const struct opts *o, struct schedule *sc)
{
    sc->t0 = malloc(o->iterations * sizeof *sc->t0);
    sc->A = malloc(o->iterations * sizeof *sc->A);
    if (!sc->t0 || !sc->A)
        fail("out of memory");
    uint64_t t = S0 + INIT + GAP;
    for (uint64_t i = 0; i < o->iterations; i++) {
        struct step s;
        sc->t0[i] = t;
        sc->A[i] = 0;
        for (uint32_t r = 0; r < o->ranks; r++) {
            plan_step(o, r, t, &s);
            sc->A[i] = max64(sc->A[i], s.a);
        }
        t = sc->A[i] + COLL_TAIL + GAP;
    }
    sc->end = sc->A[o->iterations - 1] + COLL_TAIL;
}

/* ---- events ------------------------------------------------------------- */

/* The location being written: its writer, last time, event count. */
struct loc {
    OTF2_EvtWriter *w;
    OTF2_LocationRef id;
    uint64_t last, events;
};

/* Over all locations: the clock properties and run_ns. */
static uint64_t t_first = UINT64_MAX, t_last;

/* Every record goes through here: the writer, for a record at t. */
static OTF2_EvtWriter *
at(struct loc *l, uint64_t t)
{
    if (t < l->last)
        fail("internal error: location %" PRIu64 ": time %" PRIu64
             " after %" PRIu64, l->id, t, l->last);
    l->last = t;
    l->events++;
    t_first = t < t_first ? t : t_first;
    t_last = max64(t, t_last);
    return l->w;
}

static void
enter(struct loc *l, uint64_t t, enum region g)
{
    CHECK(OTF2_EvtWriter_Enter(at(l, t), NULL, t, (OTF2_RegionRef)g));
}

static void
leave(struct loc *l, uint64_t t, enum region g)
{
    CHECK(OTF2_EvtWriter_Leave(at(l, t), NULL, t, (OTF2_RegionRef)g));
}

/* Member m's turn with the lock in iteration i (Score-P's records:
 * ThreadAcquireLock as omp_set_lock returns, ThreadReleaseLock in
 * omp_unset_lock; acquisitions numbered per process from 1). */
static void
lock_member(const struct opts *o, struct loc *l, uint32_t r, uint32_t m,
            uint64_t i, uint64_t t0)
{
    struct lock_turn x;
    lock_turn(o, r, m, t0, &x);
    uint32_t order = (uint32_t)(i * o->threads + x.turn + 1);
    enter(l, x.ask, REG_SET_LOCK);
    CHECK(OTF2_EvtWriter_ThreadAcquireLock(at(l, x.acquire), NULL, x.acquire,
                                           OTF2_PARADIGM_OPENMP, LOCK_ID,
                                           order));
    leave(l, x.acquire, REG_SET_LOCK);
    enter(l, x.acquire, REG_UPDATE);
    /* "update" takes the lock again (a nest lock: the same order) */
    uint64_t nest = x.acquire + NEST_AT;
    if (o->lock_hold > 2 * NEST_AT) {
        CHECK(OTF2_EvtWriter_ThreadAcquireLock(at(l, nest), NULL, nest,
                                               OTF2_PARADIGM_OPENMP, LOCK_ID,
                                               order));
        CHECK(OTF2_EvtWriter_ThreadReleaseLock(at(l, nest + NEST_HOLD), NULL,
                                               nest + NEST_HOLD,
                                               OTF2_PARADIGM_OPENMP, LOCK_ID,
                                               order));
    }
    uint64_t done = x.acquire + o->lock_hold;
    leave(l, done, REG_UPDATE);
    enter(l, done, REG_UNSET_LOCK);
    CHECK(OTF2_EvtWriter_ThreadReleaseLock(at(l, x.release), NULL, x.release,
                                           OTF2_PARADIGM_OPENMP, LOCK_ID,
                                           order));
    leave(l, done + UNSET_LOCK, REG_UNSET_LOCK);
}

/* Member m joins the team and enters the region and the loop at t, the
 * barrier at b (after its turn with the lock, with --lock-hold); leaves
 * the barrier at release, the region and team at u. */
static void
team_member(const struct opts *o, struct loc *l, uint32_t r, uint32_t m,
            uint64_t i, uint64_t t, uint64_t t0, uint64_t b, uint64_t release,
            uint64_t u)
{
    CHECK(OTF2_EvtWriter_ThreadTeamBegin(at(l, t), NULL, t, TEAM_COMM(r)));
    enter(l, t, REG_OMP_PARALLEL);
    enter(l, t, REG_OMP_FOR);
    leave(l, loop_end(o, r, m, t0), REG_OMP_FOR);
    if (o->lock_hold)
        lock_member(o, l, r, m, i, t0);
    if (o->task && m <= 1) {
        struct task_plan x;
        task_plan(o, r, t0, &x);
        enum region g = m ? REG_TASK : REG_CREATE_TASK;
        enter(l, m ? x.start : x.create, g);
        leave(l, m ? x.end : x.wait, g);
        if (m == 0) {
            enter(l, x.wait, REG_TASKWAIT);
            leave(l, x.wait_end, REG_TASKWAIT);
        }
    }
    enter(l, b, REG_OMP_BARRIER);
    leave(l, release, REG_OMP_BARRIER);
    leave(l, u, REG_OMP_PARALLEL);
    CHECK(OTF2_EvtWriter_ThreadTeamEnd(at(l, u), NULL, u, TEAM_COMM(r)));
}

/* Rank r's location m (see LOC): its records, in time order. */
static void
write_location(const struct opts *o, const struct schedule *sc, uint32_t r,
               uint32_t m, struct loc *l)
{
    if (m == 0) {
        enter(l, S0, REG_MAIN);
        enter(l, S0, REG_MPI_INIT);
        leave(l, S0 + INIT, REG_MPI_INIT);
    }
    for (uint64_t i = 0; i < o->iterations; i++) {
        struct step s;
        plan_step(o, r, sc->t0[i], &s);
        uint64_t b = barrier_enter(o, r, m, s.t0), rel = s.B + RELEASE;
        if (m == o->threads) { /* the stream: kernel, copy to the host */
            uint64_t put = s.C0 + COPY_LAT, done = put + COPY;
            enter(l, s.L + KSTART, REG_KERNEL);
            leave(l, s.kend, REG_KERNEL);
            CHECK(OTF2_EvtWriter_RmaPut(at(l, put), NULL, put, r, 0,
                                        COPY_BYTES, COPY_MATCHING));
            CHECK(OTF2_EvtWriter_RmaOpCompleteBlocking(at(l, done), NULL,
                                                       done, r,
                                                       COPY_MATCHING));
            continue;
        }
        if (m > 0) { /* an OpenMP thread */
            team_member(o, l, r, m, i, s.t0 + FORK, s.t0, b, rel,
                        rel + THREAD_LEAVE);
            continue;
        }
        CHECK(OTF2_EvtWriter_ThreadFork(at(l, s.t0), NULL, s.t0,
                                        OTF2_PARADIGM_OPENMP, o->threads));
        team_member(o, l, r, 0, i, s.t0, s.t0, b, rel, s.t1);
        CHECK(OTF2_EvtWriter_ThreadJoin(at(l, s.t1), NULL, s.t1,
                                        OTF2_PARADIGM_OPENMP));
        enter(l, s.L, REG_CU_LAUNCH);
        leave(l, s.L + LAUNCH_CALL, REG_CU_LAUNCH);
        enter(l, s.L + SYNC_AT, REG_CU_SYNC);
        leave(l, s.t2, REG_CU_SYNC);
        enter(l, s.C0, REG_CU_MEMCPY);
        leave(l, s.t3, REG_CU_MEMCPY);
        enter(l, s.t3 + GAP, REG_COMPUTE);
        leave(l, s.a, REG_COMPUTE);
        uint64_t done = sc->A[i] + COLL_TAIL;
        enter(l, s.a, REG_MPI_ALLREDUCE);
        CHECK(OTF2_EvtWriter_MpiCollectiveBegin(at(l, s.a), NULL, s.a));
        CHECK(OTF2_EvtWriter_MpiCollectiveEnd(
            at(l, done), NULL, done, OTF2_COLLECTIVE_OP_ALLREDUCE, COMM_WORLD,
            OTF2_UNDEFINED_UINT32, 8, 8));
        leave(l, done, REG_MPI_ALLREDUCE);
    }
    if (m == 0) {
        uint64_t fin = sc->end + GAP;
        enter(l, fin, REG_MPI_FINALIZE);
        leave(l, fin + FINALIZE, REG_MPI_FINALIZE);
        leave(l, fin + FINALIZE + MAIN_TAIL, REG_MAIN);
    }
}

/* The pre-flush callback always flushes, and there is no post-flush
 * callback, so OTF2 writes no BufferFlush records (wall-clock times). One
 * location is written at a time: memory is that of the largest one. */
static OTF2_FlushType
pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
          bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush = pre_flush,
    .otf2_post_flush = NULL,
};

/* ---- global definitions ------------------------------------------------- */

static void
group(OTF2_GlobalDefWriter *w, OTF2_GroupRef self, OTF2_StringRef name,
      OTF2_GroupType type, OTF2_Paradigm paradigm, uint32_t n,
      const uint64_t *members)
{
    CHECK(OTF2_GlobalDefWriter_WriteGroup(w, self, name, type, paradigm,
                                          OTF2_GROUP_FLAG_NONE, n, members));
}

static void
comm(OTF2_GlobalDefWriter *w, OTF2_CommRef self, OTF2_StringRef name,
     OTF2_GroupRef grp)
{
    CHECK(OTF2_GlobalDefWriter_WriteComm(w, self, name, grp,
                                         OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE));
}

/* events[r * (T + 1) + m]: the event count of location LOC(r, m). */
static void
write_defs(OTF2_GlobalDefWriter *w, const struct opts *o,
           const uint64_t *events)
{
    const uint32_t P = o->ranks, T = o->threads;
    const OTF2_StringRef s_threads = S_REGION + REG_COUNT - 1; /* + k */
    const OTF2_StringRef s_ranks = s_threads + T;              /* + r */
    OTF2_AttributeValue v;
    char buf[64];

    /* Offset 0: the timestamps are the times since the clock's zero. */
    CHECK(OTF2_GlobalDefWriter_WriteClockProperties(
        w, TICKS_PER_SECOND, 0, t_last + 1, OTF2_UNDEFINED_TIMESTAMP));
    for (OTF2_StringRef i = 0; i < S_REGION; i++)
        CHECK(OTF2_GlobalDefWriter_WriteString(w, i, strings[i]));
    for (uint32_t g = 0; g < REG_COUNT; g++)
        CHECK(OTF2_GlobalDefWriter_WriteString(w, S_REGION + g,
                                               regions[g].name));
    for (uint32_t k = 1; k < T; k++) {
        snprintf(buf, sizeof buf, "OMP thread %u", k);
        CHECK(OTF2_GlobalDefWriter_WriteString(w, s_threads + k, buf));
    }
    for (uint32_t r = 0; r < P; r++) {
        snprintf(buf, sizeof buf, "MPI Rank %u", r);
        CHECK(OTF2_GlobalDefWriter_WriteString(w, s_ranks + r, buf));
    }

    /* Paradigms. */
    CHECK(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, S_MPI,
                                             OTF2_PARADIGM_CLASS_PROCESS));
    v.stringRef = S_COMM_TMPL;
    CHECK(OTF2_GlobalDefWriter_WriteParadigmProperty(
        w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
        OTF2_TYPE_STRING, v));
    v.stringRef = S_WIN_TMPL;
    CHECK(OTF2_GlobalDefWriter_WriteParadigmProperty(
        w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE,
        OTF2_TYPE_STRING, v));
    CHECK(OTF2_GlobalDefWriter_WriteParadigm(
        w, OTF2_PARADIGM_OPENMP, S_OPENMP,
        OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN));
    CHECK(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_CUDA, S_CUDA,
                                             OTF2_PARADIGM_CLASS_ACCELERATOR));

    /* System tree: the machine (0) and one node (1). */
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(
        w, 0, S_LINUX, S_MACHINE, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
        w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
    v.stringRef = S_LINUX;
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(
        w, 0, S_PLATFORM, OTF2_TYPE_STRING, v));
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1, S_NODE0, S_NODE, 0));
    CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
        w, 1, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));

    /* A process per rank; its master, threads and stream. */
    for (uint32_t r = 0; r < P; r++)
        CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(
            w, r, s_ranks + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
            OTF2_UNDEFINED_LOCATION_GROUP));
    for (uint32_t r = 0; r < P; r++) {
        const uint64_t *n = events + (size_t)r * (T + 1);
        for (uint32_t m = 0; m < T; m++)
            CHECK(OTF2_GlobalDefWriter_WriteLocation(
                w, LOC(r, m), m ? s_threads + m : S_MASTER,
                OTF2_LOCATION_TYPE_CPU_THREAD, n[m], r));
        CHECK(OTF2_GlobalDefWriter_WriteLocation(
            w, LOC(r, o->threads), S_STREAM,
            OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, n[T], r));
    }

    for (uint32_t g = 0; g < REG_COUNT; g++)
        CHECK(OTF2_GlobalDefWriter_WriteRegion(
            w, (OTF2_RegionRef)g, S_REGION + g, S_REGION + g, S_EMPTY,
            regions[g].role, regions[g].paradigm, OTF2_REGION_FLAG_NONE,
            regions[g].file, regions[g].begin, regions[g].end));

    /* Groups. Members of a COMM_GROUP are indices into its paradigm's
     * COMM_LOCATIONS group. */
    uint64_t *mem = malloc((size_t)P * (T > 2 ? T : 2) * sizeof *mem);
    if (!mem)
        fail("out of memory");
    for (uint32_t r = 0; r < P; r++)
        mem[r] = r;
    group(w, GRP_MPI_LOCS, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_MPI, P, mem);
    group(w, GRP_WORLD, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
          OTF2_PARADIGM_MPI, P, mem);
    group(w, GRP_SELF, S_EMPTY, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
          0, NULL);
    for (uint32_t r = 0; r < P; r++)
        for (uint32_t m = 0; m < T; m++)
            mem[(size_t)r * T + m] = LOC(r, m);
    group(w, GRP_OMP_LOCS, S_OPENMP, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_OPENMP, P * T, mem);
    for (uint32_t r = 0; r < P; r++) {
        mem[2 * r] = LOC(r, 0);
        mem[2 * r + 1] = LOC(r, o->threads);
    }
    group(w, GRP_CUDA_LOCS, S_CUDA, OTF2_GROUP_TYPE_COMM_LOCATIONS,
          OTF2_PARADIGM_CUDA, 2 * P, mem);
    for (uint32_t r = 0; r < P; r++) {
        for (uint32_t m = 0; m < T; m++)
            mem[m] = (uint64_t)r * T + m;
        group(w, GRP_RANK + 2 * r, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
              OTF2_PARADIGM_OPENMP, T, mem);
        mem[0] = 2 * (uint64_t)r;
        mem[1] = 2 * (uint64_t)r + 1;
        group(w, GRP_RANK + 2 * r + 1, S_CUDA_GROUP,
              OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_CUDA, 2, mem);
    }
    free(mem);

    /* Communicators and windows (unnamed, as Score-P's). */
    comm(w, COMM_WORLD, S_WORLD, GRP_WORLD);
    comm(w, COMM_SELF, S_SELF, GRP_SELF);
    for (uint32_t r = 0; r < P; r++) {
        comm(w, TEAM_COMM(r), S_EMPTY, GRP_RANK + 2 * r);
        comm(w, CUDA_COMM(r), S_EMPTY, GRP_RANK + 2 * r + 1);
    }
    for (uint32_t r = 0; r < P; r++)
        CHECK(OTF2_GlobalDefWriter_WriteRmaWin(w, r, S_EMPTY, CUDA_COMM(r),
                                               OTF2_RMA_WIN_FLAG_NONE));
}

/* ---- the archive -------------------------------------------------------- */

static void
write_archive(const struct opts *o, const struct schedule *sc,
              const char *description)
{
    const uint32_t P = o->ranks, T = o->threads;
    uint64_t *events = calloc((size_t)P * (T + 1), sizeof *events), total = 0;
    if (!events)
        fail("out of memory");
    OTF2_Archive *ar = OTF2_Archive_Open(o->outdir, "traces",
                                         OTF2_FILEMODE_WRITE, EVT_CHUNK,
                                         DEF_CHUNK, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (!ar)
        fail("cannot create an archive in %s", o->outdir);
    CHECK(OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL));
    CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(ar));
    CHECK(OTF2_Archive_SetCreator(ar, PROG " 1.0"));
    CHECK(OTF2_Archive_SetMachineName(ar, PROG));
    CHECK(OTF2_Archive_SetDescription(ar, description));
    CHECK(OTF2_Archive_OpenEvtFiles(ar));

    /* One location at a time: m < T a team member, m == T the stream. */
    for (uint32_t r = 0; r < P; r++)
        for (uint32_t m = 0; m <= T; m++) {
            struct loc l = {.id = LOC(r, m)};
            if (!(l.w = OTF2_Archive_GetEvtWriter(ar, l.id)))
                fail("no event writer for location %" PRIu64, l.id);
            write_location(o, sc, r, m, &l);
            uint64_t n = 0;
            CHECK(OTF2_EvtWriter_GetNumberOfEvents(l.w, &n));
            if (n != l.events)
                fail("internal error: location %" PRIu64 ": %" PRIu64
                     " events, OTF2 counts %" PRIu64, l.id, l.events, n);
            events[(size_t)r * (T + 1) + m] = n;
            total += n;
            CHECK(OTF2_Archive_CloseEvtWriter(ar, l.w));
        }
    CHECK(OTF2_Archive_CloseEvtFiles(ar));

    /* Every location gets a (here empty) local definition file. */
    CHECK(OTF2_Archive_OpenDefFiles(ar));
    for (uint32_t r = 0; r < P; r++)
        for (uint32_t m = 0; m <= T; m++) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, LOC(r, m));
            if (!dw)
                fail("no definition writer for %" PRIu64, LOC(r, m));
            CHECK(OTF2_Archive_CloseDefWriter(ar, dw));
        }
    CHECK(OTF2_Archive_CloseDefFiles(ar));

    OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(ar);
    if (!gw)
        fail("no global definition writer");
    write_defs(gw, o, events);
    CHECK(OTF2_Archive_Close(ar));
    if (outdir_fix_trace_id(o->outdir, description) != 0)
        fprintf(stderr, PROG ": warning: could not make the trace id "
                "reproducible\n");
    fprintf(stderr, PROG ": %s/traces.otf2: %u ranks, %u locations, %" PRIu64
            " events, %" PRIu64 " ns\n", o->outdir, P, P * (T + 1), total,
            t_last - t_first);
    free(events);
}

/* ---- the ground truth --------------------------------------------------- */

/* One fact a line, times in ns; grouped by kind, then by rank (member),
 * then by iteration. */
static void
write_truth(const struct opts *o, const struct schedule *sc, FILE *f)
{
    const uint32_t P = o->ranks, T = o->threads;
    const uint64_t N = o->iterations;
    struct step s;
    fprintf(f, "run_ns %" PRIu64 "\n", t_last - t_first);
    for (uint32_t r = 0; r < P; r++)
        for (uint32_t m = 0; m < T; m++)
            for (uint64_t i = 0; i < N; i++) {
                plan_step(o, r, sc->t0[i], &s);
                uint64_t b = barrier_enter(o, r, m, s.t0);
                if (b < s.B)
                    fprintf(f, "barrier_wait rank %u member %u iteration %"
                            PRIu64 " ns %" PRIu64 "\n", r, m, i, s.B - b);
            }
    for (int coll = 0; coll < 2; coll++) /* device waits, then MPI's */
        for (uint32_t r = 0; r < P; r++)
            for (uint64_t i = 0; i < N; i++) {
                plan_step(o, r, sc->t0[i], &s);
                uint64_t from = coll ? s.a : s.L + SYNC_AT;
                uint64_t to = coll ? sc->A[i] : s.kend;
                if (to > from)
                    fprintf(f, "%s rank %u iteration %" PRIu64 " ns %" PRIu64
                            "\n", coll ? "allreduce_wait" : "device_wait", r,
                            i, to - from);
            }
    for (uint32_t r = 0; r < P && o->lock_hold; r++)
        for (uint32_t m = 0; m < T; m++)
            for (uint64_t i = 0; i < N; i++) {
                struct lock_turn x;
                lock_turn(o, r, m, sc->t0[i], &x);
                if (x.wait)
                    fprintf(f, "lock_wait rank %u member %u iteration %" PRIu64
                            " holder %u ns %" PRIu64 "\n", r, m, i, x.holder,
                            x.wait);
            }
    for (uint32_t r = 0; r < P && o->task; r++)
        for (uint64_t i = 0; i < N; i++) {
            struct task_plan x;
            task_plan(o, r, sc->t0[i], &x);
            fprintf(f, "taskwait_wait rank %u iteration %" PRIu64 " ns %" PRIu64
                    "\n", r, i, x.end - x.wait);
        }
    for (uint32_t r = 0; r < P; r++)
        fprintf(f, "kernel_ns rank %u ns %" PRIu64 "\n", r, kernel_ns(o, r));
    for (uint32_t r = 0; r < P; r++) {
        uint32_t slowest = 0; /* the first of equals: the master on ties */
        for (uint32_t m = 1; m < T; m++)
            if (for_ns(o, r, m) > for_ns(o, r, slowest))
                slowest = m;
        fprintf(f, "slowest_member rank %u member %u\n", r, slowest);
    }
    uint32_t late = 0;
    uint64_t late_a = 0;
    for (uint32_t r = 0; r < P; r++) {
        plan_step(o, r, sc->t0[0], &s);
        if (s.a > late_a) /* strictly: the lowest rank on ties */
            late = r, late_a = s.a;
    }
    fprintf(f, "late_rank %u\n", late);
    if ((ferror(f) != 0) + (fclose(f) != 0))
        fail("writing %s failed", o->truth);
}

/* ---- command line ------------------------------------------------------- */

static void
usage(FILE *f)
{
    fprintf(f,
"usage: " PROG " [options] OUTDIR\n"
"Write OUTDIR/traces.otf2, a deterministic synthetic Score-P-like trace of\n"
"an MPI+OpenMP+CUDA program (a Jacobi loop) with planted imbalances.\n"
"\n"
"      --ranks R             MPI ranks (default 2)\n"
"      --threads T           the master and T-1 OpenMP threads (default 3)\n"
"      --iterations N        iterations (default 5)\n"
"      --slow-thread R:K:NS  on rank R, OpenMP thread K (1..T-1) takes NS ns\n"
"                            longer in its \"!$omp for\" every iteration\n"
"      --long-kernel R:NS    rank R's kernel lasts NS ns (others 400000)\n"
"      --late-rank R:NS      rank R computes NS ns more before MPI_Allreduce\n"
"      --lock-hold NS        after its loop each member takes an OpenMP lock\n"
"                            and holds it NS ns, in the order they ask\n"
"                            (--threads at most 64)\n"
"      --taskwait NS         after its loop the master creates a task thread 1\n"
"                            runs for NS ns, and waits for it in a taskwait\n"
"                            (not with --lock-hold)\n"
"      --truth FILE          write the ground truth to FILE\n"
"  -f, --force               replace an archive already in OUTDIR (its\n"
"                            traces.otf2, traces.def and traces/, nothing else)\n"
"  -h, --help                this text\n");
}

/* "N1[:N2[:N3]]": exactly n decimal fields, field i at most max[i]. */
static int
parse_fields(const char *arg, int n, const uint64_t *max, uint64_t *v)
{
    const char *p = arg;
    for (int i = 0; i < n; i++) {
        char *end;
        if (*p < '0' || *p > '9')
            return -1;
        errno = 0;
        unsigned long long x = strtoull(p, &end, 10);
        if (errno || x > max[i] || *end != (i < n - 1 ? ':' : '\0'))
            return -1;
        v[i] = x;
        p = end + 1;
    }
    return 0;
}

static void
bad(const char *opt, const char *arg, const char *why)
{
    fprintf(stderr, PROG ": invalid %s '%s': %s (see --help)\n", opt, arg,
            why);
    exit(2);
}

static uint32_t
number(const char *opt, const char *arg, uint64_t max)
{
    uint64_t v;
    if (parse_fields(arg, 1, &max, &v) != 0 || v == 0)
        bad(opt, arg, "not a number in range");
    return (uint32_t)v;
}

/* R:NS, or R:K:NS for a thread (K >= 1), checked against the final
 * --ranks and --threads. */
static void
imbalance(const char *opt, const char *arg, bool thread, const struct opts *o,
          struct imbalance *x)
{
    uint64_t v[3], max[3] = {o->ranks - 1, thread ? o->threads - 1 : MAX_NS,
                             MAX_NS};
    if (!arg)
        return;
    if ((thread && o->threads < 2) ||
        parse_fields(arg, thread ? 3 : 2, max, v) != 0 || (thread && !v[1]))
        bad(opt, arg, thread ? "R:K:NS, R < ranks, 1 <= K < threads"
                             : "R:NS, R < ranks");
    x->on = true;
    x->rank = (uint32_t)v[0];
    x->thread = thread ? (uint32_t)v[1] : 0;
    x->ns = v[thread ? 2 : 1];
}

/* The arguments, normalised: the archive's description and trace id. */
static void
describe(const struct opts *o, char *buf, size_t size)
{
    int n = snprintf(buf, size, PROG " --ranks %u --threads %u --iterations %"
                     PRIu64, o->ranks, o->threads, o->iterations);
    if (o->slow.on)
        n += snprintf(buf + n, size - (size_t)n, " --slow-thread %u:%u:%"
                      PRIu64, o->slow.rank, o->slow.thread, o->slow.ns);
    if (o->kernel.on)
        n += snprintf(buf + n, size - (size_t)n, " --long-kernel %u:%" PRIu64,
                      o->kernel.rank, o->kernel.ns);
    if (o->late.on)
        n += snprintf(buf + n, size - (size_t)n, " --late-rank %u:%" PRIu64,
                      o->late.rank, o->late.ns);
    if (o->lock_hold)
        n += snprintf(buf + n, size - (size_t)n, " --lock-hold %" PRIu64,
                      o->lock_hold);
    if (o->task)
        snprintf(buf + n, size - (size_t)n, " --taskwait %" PRIu64, o->task);
}

int
main(int argc, char **argv)
{
    enum { O_RANKS = 256, O_THREADS, O_ITER, O_SLOW, O_KERNEL, O_LATE,
           O_TRUTH, O_LOCK, O_TASK };
    static const struct option longopts[] = {
        {"ranks", required_argument, NULL, O_RANKS},
        {"threads", required_argument, NULL, O_THREADS},
        {"iterations", required_argument, NULL, O_ITER},
        {"slow-thread", required_argument, NULL, O_SLOW},
        {"long-kernel", required_argument, NULL, O_KERNEL},
        {"late-rank", required_argument, NULL, O_LATE},
        {"truth", required_argument, NULL, O_TRUTH},
        {"lock-hold", required_argument, NULL, O_LOCK},
        {"taskwait", required_argument, NULL, O_TASK},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct opts o = {.ranks = 2, .threads = 3, .iterations = 5};
    const char *slow_arg = NULL, *kernel_arg = NULL, *late_arg = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "fh", longopts, NULL)) != -1) {
        switch (c) {
        case O_RANKS: o.ranks = number("--ranks", optarg, MAX_RANKS); break;
        case O_THREADS:
            o.threads = number("--threads", optarg, MAX_THREADS);
            break;
        case O_ITER:
            o.iterations = number("--iterations", optarg, MAX_ITERATIONS);
            break;
        case O_SLOW: slow_arg = optarg; break;
        case O_KERNEL: kernel_arg = optarg; break;
        case O_LATE: late_arg = optarg; break;
        case O_TRUTH: o.truth = optarg; break;
        case O_LOCK:
        case O_TASK: {
            uint64_t max = MAX_NS, *v = c == O_LOCK ? &o.lock_hold : &o.task;
            if (parse_fields(optarg, 1, &max, v) != 0 || !*v)
                bad(c == O_LOCK ? "--lock-hold" : "--taskwait", optarg,
                    "not a number in range");
            break;
        }
        case 'f': o.force = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1)
        return usage(stderr), 2;
    o.outdir = argv[optind];
    imbalance("--slow-thread", slow_arg, true, &o, &o.slow);
    imbalance("--long-kernel", kernel_arg, false, &o, &o.kernel);
    imbalance("--late-rank", late_arg, false, &o, &o.late);
    if (o.lock_hold && o.threads > MAX_LOCK_THREADS)
        bad("--threads", "with --lock-hold", "at most 64 threads");
    if (o.task && (o.threads < 2 || o.lock_hold))
        bad("--taskwait", "with --lock-hold or one thread",
            "needs --threads 2 or more, without --lock-hold");

    char description[512];
    describe(&o, description, sizeof description);
    /* first: the truth file may be in or next to it */
    if (outdir_prepare(PROG, o.outdir, o.force) != 0)
        return 1;
    FILE *truth = o.truth ? fopen(o.truth, "w") : NULL;
    if (o.truth && !truth)
        fail("%s: %s", o.truth, strerror(errno));
    struct schedule sc;
    schedule_make(&o, &sc);
    write_archive(&o, &sc, description);
    if (truth)
        write_truth(&o, &sc, truth);
    free(sc.t0);
    free(sc.A);
    return 0;
}
