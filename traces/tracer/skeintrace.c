/* skeintrace.c — life cycle of the skeintrace PMPI tracer: MPI_Init,
 * MPI_Init_thread and MPI_Finalize wrappers (the Fortran ones are in
 * skeintrace-fort.c), the threads' locations, the clock, failure handling
 * and the two-function user-region API.
 *
 * Timestamps are CLOCK_MONOTONIC nanoseconds shifted, per node, onto rank
 * 0's clock (measured by ping-pong between node leaders at MPI_Init), so
 * ranks that share a node share one time base exactly. */
#include "skeintrace-int.h"
#include "skeintrace.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct st_fn_def st_fn_defs[ST_F_COUNT] = ST_FN_DEFS;

_Thread_local struct st_thr st_me ST_TLS_MODEL;
struct st_global st;
pthread_mutex_t st_mutex = PTHREAD_MUTEX_INITIALIZER;

static int st_atexit_set;
static int st_ever_started; /* MPI_Init reached the tracer in this process */

/* ---- failure handling ------------------------------------------------ */

void
st_fail(const char *what, OTF2_ErrorCode code)
{
    if (st.failed)
        return;
    st.failed = 1;
    if (!st.failure[0])
        snprintf(st.failure, sizeof st.failure, "%s: %s", what, OTF2_Error_GetDescription(code));
    /* Only rank 0 speaks now; MPI_Finalize names every failure in one line. */
    if (st.rank == 0)
        fprintf(stderr, "skeintrace: cannot write the trace in %s (%s); tracing stopped\n", st.dir, st.failure);
    st_me.state = ST_OFF;
}

uint64_t
st_bytes(MPI_Count count, MPI_Datatype type)
{
    int size = 0;

    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

uint64_t
st_next_id(void)
{
    return __atomic_fetch_add(&st.next_id, 1, __ATOMIC_RELAXED);
}

void
st_unrecorded(enum st_fn fn, enum st_why why)
{
    __atomic_fetch_add(&st.unrec[fn][why], 1, __ATOMIC_RELAXED);
}

/* Calls before MPI_Init ([0]) and after MPI_Finalize ([1]): kept apart
 * from st, which MPI_Init clears. */
static uint64_t outside[2][ST_F_COUNT];

void
st_outside(enum st_fn fn)
{
    __atomic_fetch_add(&outside[st_ever_started][fn], 1, __ATOMIC_RELAXED);
}

void *
st_scratch(int slot, size_t n)
{
    if (n > st_me.scratch_cap[slot]) {
        size_t cap = n < 256 ? 256 : n + n / 2;
        void *p = realloc(st_me.scratch[slot], cap);
        if (!p)
            return NULL;
        st_me.scratch[slot] = p;
        st_me.scratch_cap[slot] = cap;
    }
    return st_me.scratch[slot];
}

/* ---- threads ---------------------------------------------------------------- */

/* A thread other than MPI_Init's calls MPI for the first time. Under
 * MPI_THREAD_SERIALIZED or MULTIPLE it gets a location of its own in the
 * rank's location group, as Score-P gives one to each thread; below that
 * such a call is not allowed by MPI, and is counted, not recorded. */
int
st_thread_first(struct st_call *k, enum st_fn fn)
{
    if (st_me.state == ST_NEW && st.thread_level >= MPI_THREAD_SERIALIZED && !st.failed) {
        OTF2_EvtWriter *w = NULL;
        uint32_t loc = 0;
        pthread_mutex_lock(&st_mutex);
        if (st.nlocs == st.caplocs) {
            uint32_t cap = st.caplocs ? 2 * st.caplocs : 8;
            struct st_loc *grown = realloc(st.locs, cap * sizeof *grown);
            if (grown) {
                st.locs = grown;
                st.caplocs = cap;
            }
        }
        if (st.nlocs < st.caplocs) {
            loc = st.nlocs;
            w = st_archive_writer(loc);
            if (w)
                st.locs[st.nlocs++] = (struct st_loc){ w, 0 };
        }
        pthread_mutex_unlock(&st_mutex);
        if (w) {
            st_me.evt = w;
            st_me.loc = loc;
            st_me.state = ST_IDLE;
            return st_call_begin(k, fn);
        }
    }
    st_me.state = ST_FOREIGN;
    st_unrecorded(fn, ST_WHY_THREAD);
    return 0;
}

/* ---- clock synchronisation -------------------------------------------- */

enum { SYNC_ROUNDS = 16, SYNC_TAG = 7001 };

/* Offset (ns) to add to this rank's raw clock to get rank 0's. Ranks on one
 * node share CLOCK_MONOTONIC, so only node leaders measure (a ping-pong
 * with rank 0, keeping the round with the smallest round trip) and pass the
 * result to their node; rank 0's node gets exactly 0. */
static int64_t
st_measure_offset(void)
{
    MPI_Comm node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
    const char *per_rank = getenv("SKEIN_TRACE_SYNC_PER_RANK"); /* testing: every rank its own node */
    int nrank = 0, lrank = 0, lsize = 1;
    int64_t offset = 0;

    if (per_rank && strcmp(per_rank, "1") == 0)
        PMPI_Comm_split(st.icomm, st.rank, 0, &node);
    else
        PMPI_Comm_split_type(st.icomm, MPI_COMM_TYPE_SHARED, st.rank, MPI_INFO_NULL, &node);
    PMPI_Comm_rank(node, &nrank);
    PMPI_Comm_split(st.icomm, nrank == 0 ? 0 : MPI_UNDEFINED, st.rank, &leaders);
    if (leaders != MPI_COMM_NULL) {
        PMPI_Comm_rank(leaders, &lrank);
        PMPI_Comm_size(leaders, &lsize);
        if (lrank == 0) {
            for (int peer = 1; peer < lsize; peer++)
                for (int i = 0; i < SYNC_ROUNDS; i++) {
                    int64_t ping, t;
                    PMPI_Recv(&ping, 1, MPI_INT64_T, peer, SYNC_TAG, leaders, MPI_STATUS_IGNORE);
                    t = (int64_t)st_clock_raw();
                    PMPI_Send(&t, 1, MPI_INT64_T, peer, SYNC_TAG, leaders);
                }
        } else {
            int64_t best = INT64_MAX;
            for (int i = 0; i < SYNC_ROUNDS; i++) {
                int64_t t1 = (int64_t)st_clock_raw(), t0, t2;
                PMPI_Send(&t1, 1, MPI_INT64_T, 0, SYNC_TAG, leaders);
                PMPI_Recv(&t0, 1, MPI_INT64_T, 0, SYNC_TAG, leaders, MPI_STATUS_IGNORE);
                t2 = (int64_t)st_clock_raw();
                if (t2 - t1 < best) {
                    best = t2 - t1;
                    offset = t0 - (t1 + (t2 - t1) / 2);
                }
            }
        }
        PMPI_Comm_free(&leaders);
    }
    PMPI_Bcast(&offset, 1, MPI_INT64_T, 0, node);
    PMPI_Comm_free(&node);
    return offset;
}

/* ---- start and stop ----------------------------------------------------- */

static void
st_atexit(void)
{
    char line[2048];
    size_t at = 0;

    if (st.started && st.rank == 0)
        fprintf(stderr, "skeintrace: the program ended without MPI_Finalize; no trace was written to %s\n",
                st.dir);
    if (st.started || st.rank != 0)
        return;
    for (uint32_t f = 0; f < ST_F_COUNT; f++)
        if (outside[1][f] && at < sizeof line - 100)
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%s %llu", at ? ", " : "", st_fn_defs[f].name,
                                   (unsigned long long)outside[1][f]);
    if (at)
        fprintf(stderr, "skeintrace: MPI calls after MPI_Finalize, not recorded (rank 0): %s\n", line);
}

/* At exit of a process that used MPI without its MPI_Init reaching the
 * tracer (MPI reached through a path the tracer does not wrap): one line,
 * from the launcher's rank 0, rather than silence. */
static void
st_exit_check(void)
{
    const char *env = getenv("SKEIN_TRACE"), *rank = getenv("PMI_RANK");
    int init = 0, fin = 0;

    if (st_ever_started || (env && strcmp(env, "0") == 0))
        return;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (!init && !fin)
        return;
    if (!rank)
        rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank && strcmp(rank, "0") != 0)
        return;
    fprintf(stderr, "skeintrace: this program used MPI but its MPI_Init never reached the tracer; nothing was "
                    "traced (MPI called through a path skeintrace does not wrap)\n");
}

__attribute__((constructor)) static void
st_loaded(void)
{
    atexit(st_exit_check);
}

static uint64_t
st_realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The library built for the other MPI cannot even pass calls through: its
 * wrappers take handles of the wrong width (MPICH's are ints, Open MPI's
 * pointers), so the program would crash at some later call. Say so and stop
 * before MPI starts. */
int
st_wrong_mpi(void)
{
#if defined(OPEN_MPI)
    static const char other[] = "MPIR_Err_create_code", mine[] = "Open MPI", theirs[] = "MPICH";
#else
    static const char other[] = "ompi_mpi_comm_world", mine[] = "MPICH", theirs[] = "Open MPI";
#endif
    void *self = dlopen(NULL, RTLD_LAZY);
    const char *rank = getenv("PMI_RANK"); /* MPI is not usable yet: ask the launcher */

    if (!self || !dlsym(self, other))
        return 0;
    if (!rank)
        rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank && strcmp(rank, "0") != 0) {
        /* The launcher ends the whole job when the first process exits:
         * give rank 0 time to say why before this one does. */
        sleep(2);
        return 1;
    }
    fprintf(stderr, "skeintrace: this tracer was built for %s but the program uses %s; stopping "
                    "(use libskeintrace-%s.so)\n",
            mine, theirs, theirs[0] == 'O' ? "openmpi" : "mpich");
    return 1;
}

void
st_start(uint64_t t_enter_raw, enum st_fn fn, int provided)
{
    const char *env = getenv("SKEIN_TRACE");
    int initialized = 0, ok, all = 0;

    if (env && strcmp(env, "0") == 0)
        return;
    if (st.started)
        return;
    memset(&st, 0, sizeof st);
    st.icomm = MPI_COMM_NULL;
    PMPI_Initialized(&initialized);
    if (!initialized)
        return;
    st_ever_started = 1;
    for (uint32_t f = 0; f < ST_F_COUNT; f++)
        st.unrec[f][ST_WHY_BEFORE] = outside[0][f];
    st.thread_level = provided;
    st.mt = provided == MPI_THREAD_MULTIPLE;
    PMPI_Comm_dup(MPI_COMM_WORLD, &st.icomm);
    PMPI_Comm_rank(st.icomm, &st.rank);
    PMPI_Comm_size(st.icomm, &st.size);
    PMPI_Comm_group(MPI_COMM_WORLD, &st.world_group);
    st.offset = st_measure_offset();
    st.t_start = t_enter_raw + (uint64_t)st.offset;
    st.rt_start = st_realtime() - (st_clock_raw() - t_enter_raw);
    st.next_id = 1;
    /* Every rank must take the same path through the collective set-up. */
    ok = st_comm_setup() == 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, st.icomm);
    if (!all || st_archive_open() != 0) {
        if (!all && st.rank == 0)
            fprintf(stderr, "skeintrace: out of memory at MPI_Init; not tracing\n");
        st_comm_teardown();
        PMPI_Group_free(&st.world_group);
        PMPI_Comm_free(&st.icomm);
        st.icomm = MPI_COMM_NULL;
        return;
    }
    st.started = 1;
    if (!st_atexit_set) {
        atexit(st_atexit);
        st_atexit_set = 1;
    }
    st_me.evt = st.evt;
    st_me.loc = 0;
    st_mark_used(fn);
    st_check(OTF2_EvtWriter_Enter(st.evt, NULL, st.t_start, (OTF2_RegionRef)fn), "Enter");
    st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st_now(), (OTF2_RegionRef)fn), "Leave");
    st_me.state = st.failed ? ST_OFF : ST_IDLE;
}

int
MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = st_clock_raw();
    int rc;

    if (st_wrong_mpi())
        exit(1);
    st_me.state = ST_BUSY; /* what MPI calls inside is its own */
    rc = PMPI_Init(argc, argv);
    st_me.state = ST_NEW;
    if (rc == MPI_SUCCESS)
        st_start(t0, ST_F_MPI_Init, MPI_THREAD_SINGLE);
    return rc;
}

int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t t0 = st_clock_raw();
    int rc;

    if (st_wrong_mpi())
        exit(1);
    st_me.state = ST_BUSY;
    rc = PMPI_Init_thread(argc, argv, required, provided);
    st_me.state = ST_NEW;
    if (rc == MPI_SUCCESS)
        st_start(t0, ST_F_MPI_Init_thread, *provided);
    return rc;
}

static void st_close_user_regions(uint64_t t);

/* Everything the tracer does at MPI_Finalize, before PMPI_Finalize: the
 * region, the archive, the report. Only the thread of MPI_Init does it;
 * a second call (MPICH's Fortran MPI_Finalize calls the C one) does
 * nothing. */
void
st_finalize(void)
{
    if (!st.started || st_me.loc != 0 || st_me.state == ST_NEW || st_me.state == ST_FOREIGN)
        return;
    st.finalizing = 1;
    if (!st.failed && st_me.state == ST_IDLE) {
        uint64_t t0 = st_now();
        st_mark_used(ST_F_MPI_Finalize);
        st_check(OTF2_EvtWriter_Enter(st.evt, NULL, t0, ST_F_MPI_Finalize), "Enter");
        st.t_stop = st_now();
        st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st.t_stop, ST_F_MPI_Finalize), "Leave");
        st_close_user_regions(st.t_stop);
    } else {
        st.t_stop = st_now();
    }
    st_me.state = ST_OFF;
    st.drift = st_measure_offset() - st.offset;
    st_archive_close();
    st_comm_teardown();
    st_requests_teardown();
    st_rma_teardown();
    for (uint32_t i = 0; i < st.nuser; i++)
        free(st.user_names[i]);
    free(st.user_names);
    free(st.user_stack);
    st.user_names = NULL;
    st.user_stack = NULL;
    for (uint32_t i = 0; i < st.ngroups; i++)
        free(st.groups[i].members);
    free(st.groups);
    st.groups = NULL;
    free(st.locs);
    st.locs = NULL;
    PMPI_Group_free(&st.world_group);
    PMPI_Comm_free(&st.icomm);
    st.icomm = MPI_COMM_NULL;
    st.started = 0;
}

int
MPI_Finalize(void)
{
    st_finalize();
    return PMPI_Finalize();
}

/* ---- user regions ------------------------------------------------------- */

/* User regions are recorded on the thread of MPI_Init only (one stack per
 * rank); a call from another thread while tracing is ignored, and said so
 * once. Returns 1 when the call may record. */
static int
st_region_thread(const char *name)
{
    static int warned;

    if (!name || !st.started || st.finalizing)
        return 0;
    if (st_me.loc == 0 && (st_me.state == ST_IDLE || st_me.state == ST_OFF))
        return st_me.state == ST_IDLE;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "skeintrace: rank %d: user region \"%s\" from a thread other than MPI_Init's; such calls are "
                        "ignored\n",
                st.rank, name);
    return 0;
}

/* Names are interned per rank in first-use order; MPI_Finalize unifies them
 * into global region ids. A linear scan over a short list of names beats a
 * hash table for the handful of phases a program marks. */
static uint32_t
st_user_region(const char *name)
{
    for (uint32_t i = 0; i < st.nuser; i++)
        if (strcmp(st.user_names[i], name) == 0)
            return i;
    if (st.nuser == st.capuser) {
        uint32_t cap = st.capuser ? 2 * st.capuser : 16;
        char **names = realloc(st.user_names, cap * sizeof *names);
        if (!names)
            return UINT32_MAX;
        st.user_names = names;
        st.capuser = cap;
    }
    st.user_names[st.nuser] = strdup(name);
    if (!st.user_names[st.nuser])
        return UINT32_MAX;
    return st.nuser++;
}

void
skeintrace_region_begin(const char *name)
{
    uint32_t id;

    if (!st_region_thread(name))
        return;
    id = st_user_region(name);
    if (id == UINT32_MAX)
        return;
    if (st.nstack == st.capstack) {
        uint32_t cap = st.capstack ? 2 * st.capstack : 16;
        uint32_t *stack = realloc(st.user_stack, cap * sizeof *stack);
        if (!stack)
            return;
        st.user_stack = stack;
        st.capstack = cap;
    }
    st.user_stack[st.nstack++] = id;
    st_check(OTF2_EvtWriter_Enter(st.evt, NULL, st_now(), ST_F_COUNT + id), "Enter");
}

void
skeintrace_region_end(const char *name)
{
    static int warned;
    uint32_t id, pos;

    if (!st_region_thread(name))
        return;
    for (id = 0; id < st.nuser; id++)
        if (strcmp(st.user_names[id], name) == 0)
            break;
    for (pos = st.nstack; pos > 0; pos--)
        if (id < st.nuser && st.user_stack[pos - 1] == id)
            break;
    if (pos == 0) {
        if (!warned++)
            fprintf(stderr, "skeintrace: rank %d: skeintrace_region_end(\"%s\") without a matching begin; ignored\n",
                    st.rank, name);
        return;
    }
    if (pos != st.nstack && !warned++)
        fprintf(stderr, "skeintrace: rank %d: region \"%s\" ends while inner regions are open; recorded as called\n",
                st.rank, name);
    memmove(&st.user_stack[pos - 1], &st.user_stack[pos], (st.nstack - pos) * sizeof *st.user_stack);
    st.nstack--;
    st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st_now(), ST_F_COUNT + id), "Leave");
}

/* Regions still open at MPI_Finalize are closed there, innermost first, so
 * every location's Enter/Leave records balance. */
static void
st_close_user_regions(uint64_t t)
{
    if (st.nstack > 0 && st.rank == 0)
        fprintf(stderr, "skeintrace: %u user region(s) still open at MPI_Finalize on rank 0; closed there\n",
                st.nstack);
    while (st.nstack > 0) {
        uint32_t id = st.user_stack[--st.nstack];
        st_check(OTF2_EvtWriter_Leave(st.evt, NULL, t, ST_F_COUNT + id), "Leave");
    }
}
