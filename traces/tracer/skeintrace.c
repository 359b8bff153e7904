/* skeintrace.c — life cycle of the skeintrace PMPI tracer: MPI_Init,
 * MPI_Init_thread and MPI_Finalize wrappers, the clock, failure handling and
 * the two-function user-region API.
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

const struct st_region_def st_region_defs[ST_R_COUNT] = {
#define ST_DEF_(id, name, role) [ST_R_##id] = { name, OTF2_REGION_ROLE_##role },
    ST_REGIONS(ST_DEF_)
#undef ST_DEF_
};

_Thread_local int st_tl ST_TLS_MODEL = ST_OFF;
struct st_global st;

static pthread_t st_main_thread;
static int st_atexit_set;

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
    st_tl = ST_OFF;
}

uint64_t
st_bytes(int count, MPI_Datatype type)
{
    int size = 0;

    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
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
    if (st.started && st.rank == 0)
        fprintf(stderr, "skeintrace: the program ended without MPI_Finalize; no trace was written to %s\n",
                st.dir);
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
static int
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

static void
st_start(uint64_t t_enter_raw, enum st_region region)
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
    st_main_thread = pthread_self();
    PMPI_Comm_dup(MPI_COMM_WORLD, &st.icomm);
    PMPI_Comm_rank(st.icomm, &st.rank);
    PMPI_Comm_size(st.icomm, &st.size);
    PMPI_Comm_group(MPI_COMM_WORLD, &st.world_group);
    st.offset = st_measure_offset();
    st.t_start = t_enter_raw + (uint64_t)st.offset;
    st.rt_start = st_realtime() - (st_clock_raw() - t_enter_raw);
    st.next_request = 1;
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
    st_check(OTF2_EvtWriter_Enter(st.evt, NULL, st.t_start, (OTF2_RegionRef)region), "Enter");
    st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st_now(), (OTF2_RegionRef)region), "Leave");
    if (!st.failed)
        st_tl = ST_IDLE;
}

int
MPI_Init(int *argc, char ***argv)
{
    uint64_t t0 = st_clock_raw();
    int rc;

    if (st_wrong_mpi())
        exit(1);
    rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        st_start(t0, ST_R_INIT);
    return rc;
}

int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    uint64_t t0 = st_clock_raw();
    int rc;

    if (st_wrong_mpi())
        exit(1);
    rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        st_start(t0, ST_R_INIT_THREAD);
    return rc;
}

static void st_close_user_regions(uint64_t t);

int
MPI_Finalize(void)
{
    if (!st.started || !pthread_equal(st_main_thread, pthread_self()))
        return PMPI_Finalize();
    st_tl = ST_OFF;
    if (!st.failed) {
        uint64_t t0 = st_now();
        st_check(OTF2_EvtWriter_Enter(st.evt, NULL, t0, ST_R_FINALIZE), "Enter");
        st.t_stop = st_now();
        st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st.t_stop, ST_R_FINALIZE), "Leave");
        st_close_user_regions(st.t_stop);
    } else {
        st.t_stop = st_now();
    }
    st.drift = st_measure_offset() - st.offset;
    st_archive_close();
    st_comm_teardown();
    st_requests_teardown();
    for (uint32_t i = 0; i < st.nuser; i++)
        free(st.user_names[i]);
    free(st.user_names);
    free(st.user_stack);
    st.user_names = NULL;
    st.user_stack = NULL;
    PMPI_Group_free(&st.world_group);
    PMPI_Comm_free(&st.icomm);
    st.icomm = MPI_COMM_NULL;
    st.started = 0;
    return PMPI_Finalize();
}

/* ---- user regions ------------------------------------------------------- */

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

    if (st_tl != ST_IDLE || !name)
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
    st_check(OTF2_EvtWriter_Enter(st.evt, NULL, st_now(), ST_R_COUNT + id), "Enter");
}

void
skeintrace_region_end(const char *name)
{
    static int warned;
    uint32_t id, pos;

    if (st_tl != ST_IDLE || !name)
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
    st_check(OTF2_EvtWriter_Leave(st.evt, NULL, st_now(), ST_R_COUNT + id), "Leave");
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
        st_check(OTF2_EvtWriter_Leave(st.evt, NULL, t, ST_R_COUNT + id), "Leave");
    }
}
