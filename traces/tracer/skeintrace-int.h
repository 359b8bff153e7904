/* skeintrace-int.h — internals shared by the files of the skeintrace PMPI
 * tracer. Not installed; programs use skeintrace.h.
 *
 * The tracer records, per MPI rank, one OTF2 location whose events follow
 * Score-P's conventions (see doc/tracer.md). Everything here runs on the
 * thread that called MPI_Init; other threads pass straight through to PMPI.
 *
 * Source must not assume the MPI ABI: MPI_Comm is an int in MPICH and a
 * pointer in Open MPI, so handles are only compared with ==, converted with
 * PMPI_Comm_c2f, or copied byte-wise (requests). */
#ifndef SKEINTRACE_INT_H
#define SKEINTRACE_INT_H

#include <mpi.h>
#include <otf2/otf2.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Every MPI function the tracer wraps: enum name, MPI name, OTF2 region role
 * (the role Score-P gives it). The position in this list is the global
 * OTF2 region id, identical on every rank. */
#define ST_REGIONS(X) \
    X(INIT, "MPI_Init", FUNCTION) \
    X(INIT_THREAD, "MPI_Init_thread", FUNCTION) \
    X(FINALIZE, "MPI_Finalize", FUNCTION) \
    X(SEND, "MPI_Send", POINT2POINT) \
    X(SSEND, "MPI_Ssend", POINT2POINT) \
    X(RSEND, "MPI_Rsend", POINT2POINT) \
    X(BSEND, "MPI_Bsend", POINT2POINT) \
    X(ISEND, "MPI_Isend", POINT2POINT) \
    X(ISSEND, "MPI_Issend", POINT2POINT) \
    X(IRSEND, "MPI_Irsend", POINT2POINT) \
    X(IBSEND, "MPI_Ibsend", POINT2POINT) \
    X(RECV, "MPI_Recv", POINT2POINT) \
    X(IRECV, "MPI_Irecv", POINT2POINT) \
    X(SENDRECV, "MPI_Sendrecv", POINT2POINT) \
    X(SENDRECV_REPLACE, "MPI_Sendrecv_replace", POINT2POINT) \
    X(WAIT, "MPI_Wait", FUNCTION) \
    X(WAITALL, "MPI_Waitall", FUNCTION) \
    X(WAITANY, "MPI_Waitany", FUNCTION) \
    X(WAITSOME, "MPI_Waitsome", FUNCTION) \
    X(TEST, "MPI_Test", FUNCTION) \
    X(TESTALL, "MPI_Testall", FUNCTION) \
    X(TESTANY, "MPI_Testany", FUNCTION) \
    X(TESTSOME, "MPI_Testsome", FUNCTION) \
    X(REQUEST_FREE, "MPI_Request_free", FUNCTION) \
    X(BARRIER, "MPI_Barrier", BARRIER) \
    X(BCAST, "MPI_Bcast", COLL_ONE2ALL) \
    X(REDUCE, "MPI_Reduce", COLL_ALL2ONE) \
    X(ALLREDUCE, "MPI_Allreduce", COLL_ALL2ALL) \
    X(GATHER, "MPI_Gather", COLL_ALL2ONE) \
    X(GATHERV, "MPI_Gatherv", COLL_ALL2ONE) \
    X(SCATTER, "MPI_Scatter", COLL_ONE2ALL) \
    X(SCATTERV, "MPI_Scatterv", COLL_ONE2ALL) \
    X(ALLGATHER, "MPI_Allgather", COLL_ALL2ALL) \
    X(ALLGATHERV, "MPI_Allgatherv", COLL_ALL2ALL) \
    X(ALLTOALL, "MPI_Alltoall", COLL_ALL2ALL) \
    X(ALLTOALLV, "MPI_Alltoallv", COLL_ALL2ALL) \
    X(REDUCE_SCATTER, "MPI_Reduce_scatter", COLL_ALL2ALL) \
    X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", COLL_ALL2ALL) \
    X(SCAN, "MPI_Scan", COLL_OTHER) \
    X(EXSCAN, "MPI_Exscan", COLL_OTHER) \
    X(COMM_SPLIT, "MPI_Comm_split", FUNCTION) \
    X(COMM_SPLIT_TYPE, "MPI_Comm_split_type", FUNCTION) \
    X(COMM_DUP, "MPI_Comm_dup", FUNCTION) \
    X(COMM_DUP_WITH_INFO, "MPI_Comm_dup_with_info", FUNCTION) \
    X(COMM_CREATE, "MPI_Comm_create", FUNCTION) \
    X(COMM_CREATE_GROUP, "MPI_Comm_create_group", FUNCTION) \
    X(CART_CREATE, "MPI_Cart_create", FUNCTION) \
    X(CART_SUB, "MPI_Cart_sub", FUNCTION) \
    X(GRAPH_CREATE, "MPI_Graph_create", FUNCTION) \
    X(DIST_GRAPH_CREATE, "MPI_Dist_graph_create", FUNCTION) \
    X(DIST_GRAPH_CREATE_ADJACENT, "MPI_Dist_graph_create_adjacent", FUNCTION) \
    X(COMM_FREE, "MPI_Comm_free", FUNCTION)

enum st_region {
#define ST_ENUM_(id, name, role) ST_R_##id,
    ST_REGIONS(ST_ENUM_)
#undef ST_ENUM_
    ST_R_COUNT
};

struct st_region_def {
    const char *name;
    OTF2_RegionRole role;
};
extern const struct st_region_def st_region_defs[ST_R_COUNT];

/* Per-thread state: only the thread that initialised MPI ever leaves
 * ST_OFF. ST_BUSY while inside a wrapper, so MPI calls made by the MPI
 * library itself (or by the tracer) are not recorded. */
enum { ST_OFF = 0, ST_IDLE = 1, ST_BUSY = 2 };
#if defined(__GNUC__)
#define ST_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define ST_TLS_MODEL
#endif
extern _Thread_local int st_tl ST_TLS_MODEL;

/* One communicator the tracer knows. Local ids index st.comms; they are
 * never reused, and become global OTF2 comm ids through the COMM mapping
 * table written at MPI_Finalize. */
struct st_comm {
    int32_t leader;   /* world rank of the communicator's rank 0; -1 world, -2 self */
    uint32_t seq;     /* the leader's registration counter for it */
    int32_t parent;   /* local id of the parent, -1 if none */
    uint32_t depth;   /* 0 for world/self, parent depth + 1 */
    int32_t size;
    int32_t myrank;
    int32_t *members; /* world rank of each comm rank; only on the leader */
};

struct st_global {
    int started;            /* archive open on every rank */
    int rank, size;
    MPI_Comm icomm;         /* private duplicate of MPI_COMM_WORLD */
    MPI_Group world_group;
    int keyval;             /* attribute that tells us when a comm is freed */
    OTF2_Archive *archive;
    OTF2_EvtWriter *evt;
    int64_t offset;         /* ns added to CLOCK_MONOTONIC: this node's shift to rank 0's clock */
    int64_t drift;          /* residual offset measured at MPI_Finalize */
    uint64_t t_start;       /* first timestamp (enter of MPI_Init) */
    uint64_t t_stop;        /* last timestamp */
    uint64_t rt_start;      /* CLOCK_REALTIME ns at t_start */
    uint64_t next_request;  /* OTF2 request ids, from 1 like Score-P */
    uint64_t untracked;     /* calls on communicators without a definition */
    uint64_t buffer_bytes;  /* event buffer limit per rank */
    int failed;             /* a write failed here; recording stopped */
    char failure[256];
    char dir[4096];
    /* communicators */
    struct st_comm *comms;
    uint32_t ncomms, capcomms;
    uint32_t seq;           /* registrations made by this rank */
    /* user regions: local ids ST_R_COUNT + i */
    char **user_names;
    uint32_t nuser, capuser;
    uint32_t *user_stack;
    uint32_t nstack, capstack;
};
extern struct st_global st;

/* skeintrace.c */
void st_fail(const char *what, OTF2_ErrorCode code);
static inline void
st_check(OTF2_ErrorCode code, const char *what)
{
    if (code != OTF2_SUCCESS)
        st_fail(what, code);
}
static inline uint64_t
st_clock_raw(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t
st_now(void)
{
    return st_clock_raw() + (uint64_t)st.offset;
}
/* Enter region r now; marks the thread busy. Returns the timestamp. */
static inline uint64_t
st_enter(enum st_region r)
{
    uint64_t t = st_now();
    st_tl = ST_BUSY;
    st_check(OTF2_EvtWriter_Enter(st.evt, NULL, t, (OTF2_RegionRef)r), "Enter");
    return t;
}
/* Leave region r at t; the thread is idle again (or off after a failure). */
static inline void
st_leave(uint64_t t, enum st_region r)
{
    st_check(OTF2_EvtWriter_Leave(st.evt, NULL, t, (OTF2_RegionRef)r), "Leave");
    st_tl = st.failed ? ST_OFF : ST_IDLE;
}
/* Bytes in count elements of type; 0 for a null type or count. */
uint64_t st_bytes(int count, MPI_Datatype type);

/* skeintrace-comm.c */
int st_comm_setup(void);
void st_comm_teardown(void);
/* Local id of comm, or -1 (unknown or intercommunicator: counted as untracked). */
int st_comm_lookup(MPI_Comm comm);
/* Register a communicator just created from parent (collective over newcomm;
 * no-op for MPI_COMM_NULL and intercommunicators). */
void st_comm_register(MPI_Comm newcomm, MPI_Comm parent);

/* skeintrace-p2p.c */
void st_requests_teardown(void);

/* skeintrace-archive.c */
int st_archive_open(void);
void st_archive_close(void);

/* skeintrace-clock.c */
void st_clock_sync(int at_end);

#endif
