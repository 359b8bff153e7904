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
    uint32_t fkey;    /* PMPI_Comm_c2f handle, the lookup key */
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
    uint64_t untracked_all; /* the sum over ranks, on rank 0 after st_unify */
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
/* Collective over MPI_COMM_WORLD: create the archive and this rank's event
 * writer. Returns 0, or -1 on every rank after one line on stderr. */
int st_archive_open(void);
/* Collective: unify definitions, write them, close the archive. */
void st_archive_close(void);

/* skeintrace-unify.c */
/* Collective over st.icomm: gather every rank's definitions on rank 0,
 * which writes the global definitions to gw (when gw is not NULL), and
 * give each rank its local-to-global maps in *maps (malloc'd): st.ncomms
 * global comm ids, then st.nuser global region ids. Returns 0, or -1 with
 * *maps NULL on every rank. */
int st_unify(OTF2_GlobalDefWriter *gw, uint64_t nevents, uint32_t **maps);

/* skeintrace-util.c: byte buffers and a small hash multimap. */
struct st_buf {
    unsigned char *p;
    size_t n, cap;
    int bad; /* allocation failed, or a read ran past the end */
};
void st_put(struct st_buf *b, const void *data, size_t n);
void st_put_u32(struct st_buf *b, uint32_t v);
void st_put_u64(struct st_buf *b, uint64_t v);
void st_put_str(struct st_buf *b, const char *s);
/* Readers take from b->p at offset b->n (b->cap is the length). */
void st_get(struct st_buf *b, void *out, size_t n);
uint32_t st_get_u32(struct st_buf *b);
uint64_t st_get_u64(struct st_buf *b);
const char *st_get_str(struct st_buf *b); /* points into the buffer; "" when bad */

struct st_map { /* uint64 key -> uint32 value; a key may hold several values */
    uint64_t *keys;
    uint32_t *vals; /* UINT32_MAX: empty */
    uint32_t cap, n;
};
int st_map_add(struct st_map *m, uint64_t key, uint32_t val);
/* Values under key: start with *pos = UINT32_MAX; returns 0 when done. */
int st_map_next(const struct st_map *m, uint64_t key, uint32_t *pos, uint32_t *val);
void st_map_free(struct st_map *m);
uint64_t st_hash(const void *data, size_t n);

#endif
