/* skeintrace-int.h — internals shared by the files of the skeintrace PMPI
 * tracer. Not installed; programs use skeintrace.h.
 *
 * The wrappers are generated from mpi.def by mkwrap.awk (fns.h, wrap.c,
 * fwrap.c in the build's gen-* folder); what they record is written by hand
 * in the rk_* hooks of skeintrace-rec.h. Each rank records one OTF2
 * location per thread that calls MPI (see doc/tracer.md).
 *
 * Source must not assume the MPI ABI: MPI_Comm is an int in MPICH and a
 * pointer in Open MPI, so handles are only compared with ==, converted with
 * the PMPI c2f/f2c functions, or copied byte-wise (requests, messages). */
#ifndef SKEINTRACE_INT_H
#define SKEINTRACE_INT_H

#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h> /* MPIX_: the persistent collectives of Open MPI 4 */
#endif
#include <otf2/otf2.h>
#include <pthread.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fns.h"

/* One row of mpi.def: the region of a function. The local region id of
 * function f is f; user regions follow from ST_F_COUNT. */
struct st_fn_def {
    const char *name;
    OTF2_RegionRole role;
};
extern const struct st_fn_def st_fn_defs[ST_F_COUNT];

/* Why a call was not recorded, counted per function and reported at
 * MPI_Finalize (st_report_unrecorded). */
enum st_why {
    ST_WHY_THREAD,   /* from a thread that may not call MPI (thread level below SERIALIZED) */
    ST_WHY_COMM,     /* on a communicator or window without a definition */
    ST_WHY_KIND,     /* a kind of call the tracer does not record (partitioned communication) */
    ST_WHY_INTERCOLL, /* a collective on an intercommunicator */
    /* not communication, so OTF2::MPI_COMMUNICATION_COMPLETE stays true: */
    ST_WHY_IO,       /* MPI-IO: its region only, no OTF2 I/O records */
    ST_WHY_BEFORE,   /* before MPI_Init, when there is no archive yet */
    ST_WHY_COUNT
};

/* Per thread. ST_NEW until the thread's first MPI call; only recording
 * threads reach ST_IDLE. ST_BUSY while inside a wrapper, so calls the MPI
 * library (or the tracer) makes are not recorded twice. ST_FOREIGN: a
 * thread whose calls are counted, not recorded. */
enum { ST_NEW = 0, ST_IDLE, ST_BUSY, ST_OFF, ST_FOREIGN };
enum { ST_SC_STATUSES, ST_SC_FSTATUSES, ST_SC_REQUESTS, ST_SC_KEYS, ST_SC_SENDTYPES, ST_SC_RECVTYPES,
       ST_SC_INDICES, ST_SC_COUNT };
struct st_thr {
    int state;
    uint32_t loc;          /* this thread's location in its rank: 0 the thread of MPI_Init */
    OTF2_EvtWriter *evt;
    void *scratch[ST_SC_COUNT];
    size_t scratch_cap[ST_SC_COUNT];
};
#if defined(__GNUC__)
#define ST_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define ST_TLS_MODEL
#endif
extern _Thread_local struct st_thr st_me ST_TLS_MODEL;

/* One recorded call, on the stack of its wrapper. */
struct st_call {
    uint64_t t0, t1;  /* Enter; the time of the records after the call and of Leave (0: not yet) */
    enum st_fn fn;
    int32_t comm;     /* local id of the communicator (or window) the call is on; -1 none */
    int32_t size, rank; /* that communicator's size and this rank in it */
    MPI_Comm mcomm;
    uint64_t key, id; /* hooks' scratch: a handle's key, a request or matching id */
    int mode;         /* collectives: ST_BLOCKING, ST_NONBLOCKING, ST_PERSISTENT */
    void *fout;       /* Fortran wrappers: the raw MPI_Comm output argument */
};
enum { ST_BLOCKING, ST_NONBLOCKING, ST_PERSISTENT };

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
    uint32_t nidup;   /* MPI_Comm_idup calls on it so far */
    int32_t *members; /* world rank of each comm rank; only on the leader */
    int32_t inter;    /* an intercommunicator: size and members are its local group's */
    int32_t rsize;    /* the remote group's size */
    int32_t *rmembers; /* world rank of each remote rank; only on the leader */
};

/* One RMA window: named like a communicator (leader, seq), over the
 * communicator it was created on. */
struct st_win {
    int32_t leader;
    uint32_t seq;
    int32_t comm;     /* local comm id */
    uint32_t fkey;    /* PMPI_Win_c2f handle; UINT32_MAX once freed */
    uint32_t access, exposure; /* local group ids of the PSCW epochs */
};

/* A group of processes named by an RmaGroupSync: world ranks. */
struct st_group {
    uint32_t n;
    int32_t *members;
};

/* A location of this rank: the thread of MPI_Init, then one per other
 * recording thread; global id rank, or (index << 32) | rank. */
struct st_loc {
    OTF2_EvtWriter *evt;
    uint64_t nevents;
};

struct st_global {
    int started;            /* archive open on every rank */
    int finalizing;
    int rank, size;
    int thread_level;       /* provided by MPI_Init_thread (MPI_THREAD_SINGLE for MPI_Init) */
    int mt;                 /* several threads may record at once: shared tables take st_mutex */
    MPI_Comm icomm;         /* private duplicate of MPI_COMM_WORLD */
    MPI_Group world_group;
    int keyval;             /* attribute that tells us when a comm is freed */
    OTF2_Archive *archive;
    OTF2_EvtWriter *evt;    /* the main thread's */
    int64_t offset;         /* ns added to CLOCK_MONOTONIC: this node's shift to rank 0's clock */
    int64_t drift;          /* residual offset measured at MPI_Finalize */
    uint64_t t_start;       /* first timestamp (enter of MPI_Init) */
    uint64_t t_stop;        /* last timestamp */
    uint64_t rt_start;      /* CLOCK_REALTIME ns at t_start */
    uint64_t next_id;       /* OTF2 request and RMA matching ids, from 1 like Score-P */
    uint64_t buffer_bytes;  /* event buffer limit per rank */
    int failed;             /* a write failed here; recording stopped */
    char failure[256];
    char dir[4096];
    /* calls not recorded, per function and reason; summed on rank 0 at MPI_Finalize */
    uint64_t unrec[ST_F_COUNT][ST_WHY_COUNT];
    unsigned char used[(ST_F_COUNT + 7) / 8]; /* functions recorded here: their regions are defined */
    /* locations */
    struct st_loc *locs;
    uint32_t nlocs, caplocs;
    /* communicators, windows, groups */
    struct st_comm *comms;
    uint32_t ncomms, capcomms;
    uint32_t seq;           /* registrations made by this rank */
    struct st_win *wins;
    uint32_t nwins, capwins;
    struct st_group *groups;
    uint32_t ngroups, capgroups;
    /* user regions: local ids ST_F_COUNT + i */
    char **user_names;
    uint32_t nuser, capuser;
    uint32_t *user_stack;
    uint32_t nstack, capstack;
};
extern struct st_global st;
extern pthread_mutex_t st_mutex;

static inline void
st_lock(void)
{
    if (st.mt)
        pthread_mutex_lock(&st_mutex);
}
static inline void
st_unlock(void)
{
    if (st.mt)
        pthread_mutex_unlock(&st_mutex);
}

/* skeintrace.c */
/* After PMPI_Init(_thread) succeeded: start tracing (collective). */
void st_start(uint64_t t_enter_raw, enum st_fn fn, int provided);
/* The library built for the other MPI is loaded: 1 after one line on stderr. */
int st_wrong_mpi(void);
/* Everything before PMPI_Finalize: the last records, the archive. */
void st_finalize(void);
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
/* A thread's first call while tracing: give it a location, or count it. */
int st_thread_first(struct st_call *k, enum st_fn fn);
/* Bytes in count elements of type; 0 for a null type or count. */
uint64_t st_bytes(MPI_Count count, MPI_Datatype type);
uint64_t st_next_id(void);
void st_unrecorded(enum st_fn fn, enum st_why why);
/* A call while the tracer is not started: before MPI_Init or after MPI_Finalize. */
void st_outside(enum st_fn fn);
/* Scratch memory of this thread, slot ST_SC_*, at least n bytes; NULL when out of memory. */
void *st_scratch(int slot, size_t n);

/* Function fn was recorded: its region is defined. Threads may race to
 * set the bit, so it is set atomically, and only the first time. */
static inline void
st_mark_used(enum st_fn fn)
{
    unsigned char bit = (unsigned char)(1u << (fn & 7));

    if (!(__atomic_load_n(&st.used[fn >> 3], __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(&st.used[fn >> 3], bit, __ATOMIC_RELAXED);
}

/* Start recording call k of function fn: 1 and Enter written, or 0 when
 * the call is to go straight to MPI. */
static inline int
st_call_begin(struct st_call *k, enum st_fn fn)
{
    if (st_me.state != ST_IDLE) {
        if ((st_me.state == ST_NEW || st_me.state == ST_FOREIGN) && st.started && !st.finalizing)
            return st_thread_first(k, fn);
        if (!st.started && (st_me.state == ST_NEW || st_me.state == ST_OFF))
            st_outside(fn);
        return 0;
    }
    k->fn = fn;
    k->comm = -1;
    k->fout = NULL;
    k->t1 = 0;
    k->t0 = st_now();
    st_me.state = ST_BUSY;
    st_mark_used(fn);
    st_check(OTF2_EvtWriter_Enter(st_me.evt, NULL, k->t0, (OTF2_RegionRef)fn), "Enter");
    return 1;
}
/* The time of the records after the call, and of its Leave. */
static inline uint64_t
st_t1(struct st_call *k)
{
    if (!k->t1)
        k->t1 = st_now();
    return k->t1;
}
static inline void
st_call_end(struct st_call *k)
{
    st_check(OTF2_EvtWriter_Leave(st_me.evt, NULL, st_t1(k), (OTF2_RegionRef)k->fn), "Leave");
    st_me.state = st.failed ? ST_OFF : ST_IDLE;
}

/* skeintrace-comm.c */
int st_comm_setup(void);
void st_comm_teardown(void);
/* Local id of comm, or -1 (unknown or intercommunicator: counted against k's function). */
int st_comm_lookup(struct st_call *k, MPI_Comm comm);
/* Local id, or -1, without counting. */
int st_comm_find(MPI_Comm comm);
/* Register a communicator just created from parent (collective over newcomm;
 * no-op for MPI_COMM_NULL and intercommunicators). */
void st_comm_register(MPI_Comm newcomm, MPI_Comm parent);
/* Local group id of the members of group (world ranks), or -1. */
int32_t st_group_of(MPI_Group group);

/* skeintrace-p2p.c: outstanding requests */
enum { REQ_SEND = 1, REQ_RECV, REQ_SENDRECV, REQ_COLL, REQ_RMA, REQ_IDUP };
struct st_req {
    uint64_t key;     /* handle bytes; 0: empty slot */
    uint64_t id, id2; /* OTF2 request ids (id2: the receive of an Isendrecv) */
    uint64_t sent, received;
    int32_t comm;     /* local comm id (REQ_RMA: window id) */
    int32_t kind;
    int32_t peer, tag; /* persistent sends: peer and tag; collectives: operation and root;
                          Isendrecv: the receive's tag */
    uint32_t loc;     /* location of the thread that issued it */
    void *out;        /* REQ_IDUP: where the new communicator's handle will be */
    uint64_t syncs;   /* REQ_RMA: its window's synchronisations before it */
    int fortran;      /* ... a Fortran handle */
};
uint64_t st_req_key(const void *handle, size_t size);
void st_req_put(const struct st_req *e);
void st_persistent_put(const struct st_req *e);
void st_requests_teardown(void);
/* skeintrace-comm.c: an MPI_Comm_idup's completion */
void st_comm_idup_complete(const struct st_req *e, uint64_t t);
/* skeintrace-coll.c: a persistent or non-blocking collective's completion */
void st_coll_complete(const struct st_req *e, uint64_t t);
/* skeintrace-rma.c */
void st_rma_complete(const struct st_req *e, uint64_t t);
/* A request-based operation whose request was freed at time t. */
void st_rma_freed(const struct st_req *e, uint64_t t);
void st_rma_teardown(void);
/* Local window id of win, or -1. */
int st_win_find(MPI_Win win);

/* skeintrace-fort.c: Fortran arguments */
enum { ST_FL_F77, ST_FL_F08, ST_FL_F08_DESC };
#define ST_FSTATUS_MAX 16 /* ints; at least MPI_F_STATUS_SIZE and sizeof(MPI_F08_status) / sizeof(int) */
#ifndef MPI_F_STATUS_SIZE
#define MPI_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(int)) /* Open MPI 4: its MPI_STATUS_SIZE, 6 */
#endif
void *st_fnext(const char *names);
#define ST_FNEXT(fp, names) \
    do { \
        if (!__atomic_load_n((void **)&(fp), __ATOMIC_ACQUIRE)) \
            __atomic_store_n((void **)&(fp), st_fnext(names), __ATOMIC_RELEASE); \
    } while (0)
const void *st_fbuf(const void *p, int flavour);
int st_fstatus_ignored(const void *p);
int st_fstatuses_ignored(const void *p);
void st_fstatus(const void *f, MPI_Status *c, int n);
MPI_Status *st_scratch_statuses(int n);
void *st_scratch_fstatuses(int n);
MPI_Request *st_frequests(const void *f, int n);
void st_frequests_again(MPI_Request *c, const void *f, int n);
int *st_findices(const void *f, const int *n);
const MPI_Datatype *st_ftypes(const void *f, int n, int send);
int st_npeers(MPI_Comm comm, int send, int neighbours);

/* skeintrace-archive.c */
/* Collective over MPI_COMM_WORLD: create the archive and this rank's event
 * writer. Returns 0, or -1 on every rank after one line on stderr. */
int st_archive_open(void);
/* An event writer for location index loc of this rank; NULL on failure. */
OTF2_EvtWriter *st_archive_writer(uint32_t loc);
/* Collective: unify definitions, write them, close the archive. */
void st_archive_close(void);
uint64_t st_location_id(int rank, uint32_t loc);

/* skeintrace-unify.c */
/* Collective over st.icomm: gather every rank's definitions on rank 0,
 * which writes the global definitions to gw (when gw is not NULL), and
 * give each rank its local-to-global maps in *maps (malloc'd): st.ncomms
 * global comm ids, ST_F_COUNT + st.nuser global region ids, st.nwins
 * window ids and st.ngroups group ids. Returns 0, or -1 with *maps NULL on
 * every rank. */
int st_unify(OTF2_GlobalDefWriter *gw, uint32_t **maps);
/* Collective: sum the calls not recorded on rank 0 (st_unify does it). */
void st_sum_unrecorded(void);
/* Rank 0 after st_unify: calls not recorded, summed over the ranks. */
uint64_t st_unrecorded_total(void);
void st_report_unrecorded(void);

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
