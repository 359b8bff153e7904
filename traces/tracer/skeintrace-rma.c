/* skeintrace-rma.c — one-sided communication as OTF2's RMA records.
 *
 * A window gets a definition (RmaWin, over the communicator it was
 * created on, flagged CREATE_DESTROY_EVENTS) named like a communicator:
 * its members broadcast the world rank of its rank 0 and that rank's
 * registration counter at creation. What is written, all on the location
 * of the calling thread:
 *
 *   Win_create, _allocate, _allocate_shared, _create_dynamic
 *       RmaCollectiveBegin, RmaWinCreate, RmaCollectiveEnd (CREATE_HANDLE,
 *       or CREATE_HANDLE_AND_ALLOCATE when MPI allocates the memory)
 *   Win_free   RmaCollectiveBegin, RmaWinDestroy, RmaCollectiveEnd
 *       (DESTROY_HANDLE, or DESTROY_HANDLE_AND_DEALLOCATE)
 *   Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap
 *   and the request forms (Rput, ...)
 *       RmaPut, RmaGet or RmaAtomic (ACCUMULATE, FETCH_AND_ACCUMULATE,
 *       COMPARE_AND_SWAP) at the call's start, with the target's rank in
 *       the window's communicator, the bytes, and a matching id
 *   completion: each operation gets one record with its matching id —
 *       RmaOpCompleteRemote where a synchronisation completes it at the
 *       target too (fence, unlock, unlock_all, flush, flush_all),
 *       RmaOpCompleteNonBlocking where it completes at the origin only
 *       (complete, flush_local, flush_local_all, and the Wait or Test
 *       that completes a request-based operation; one whose request was
 *       freed completes at the synchronisation, as one without)
 *   Win_fence  RmaCollectiveBegin, the completions, RmaCollectiveEnd
 *       (BARRIER, sync level PROCESS|MEMORY)
 *   Win_post, Win_start   RmaGroupSync (PROCESS) with the group
 *   Win_complete, Win_wait, Win_test (when it succeeds)
 *       the completions, RmaGroupSync (PROCESS|MEMORY) with the epoch's group
 *   Win_lock, Win_lock_all   RmaRequestLock (lock id 0; all: remote undefined)
 *   Win_unlock, Win_unlock_all   the completions, RmaReleaseLock
 *   Win_flush, _flush_all, _flush_local, _flush_local_all
 *       the completions, RmaSync (MEMORY; all: remote undefined)
 *   Win_sync   RmaSync (MEMORY) with this rank as remote
 *
 * Groups (RmaGroupSync) are defined as COMM_GROUPs of world ranks. */
#include "skeintrace-rec.h"

#include <stdlib.h>
#include <string.h>

#define NO_RANK OTF2_UNDEFINED_UINT32

struct pending {
    uint64_t id;
    int32_t target;
};
struct winops {
    struct pending *ops;
    uint32_t n, cap;
    int allocated; /* MPI allocated its memory */
    /* Synchronisations that completed operations, counted: the last one
     * to every rank, and to each rank (only once a request-based
     * operation needs them: a freed request asks whether its own came). */
    uint64_t syncs, all;
    uint64_t *to;
    uint32_t nto;
};
static struct winops *winops; /* parallel to st.wins */
static uint32_t capops;

int
st_win_find(MPI_Win win)
{
    uint32_t key;

    if (win == MPI_WIN_NULL)
        return -1;
    key = (uint32_t)PMPI_Win_c2f(win);
    st_lock();
    for (uint32_t i = st.nwins; i-- > 0;)
        if (st.wins[i].fkey == key) {
            st_unlock();
            return (int)i;
        }
    st_unlock();
    return -1;
}

static int
win_lookup(struct st_call *k, MPI_Win win)
{
    int w = st_win_find(win);

    if (w < 0 && win != MPI_WIN_NULL)
        st_unrecorded(k->fn, ST_WHY_COMM);
    return w;
}

void
st_rma_teardown(void)
{
    for (uint32_t i = 0; i < capops; i++) {
        free(winops[i].ops);
        free(winops[i].to);
    }
    free(winops);
    winops = NULL;
    capops = 0;
    free(st.wins);
    st.wins = NULL;
    st.nwins = st.capwins = 0;
}

/* ---- windows ------------------------------------------------------------- */

void
st_win_create_post(struct st_call *k, int rc, MPI_Comm comm, MPI_Win *win, OTF2_CollectiveOp op)
{
    struct st_win w = { 0, 0, -1, 0, UINT32_MAX, UINT32_MAX };
    int32_t key[2];
    int id = -1;

    if (rc != MPI_SUCCESS || (w.comm = st_comm_lookup(k, comm)) < 0)
        return;
    key[0] = st.rank;
    st_lock();
    key[1] = (int32_t)st.seq++;
    st_unlock();
    PMPI_Bcast(key, 2, MPI_INT32_T, 0, comm);
    w.leader = key[0];
    w.seq = (uint32_t)key[1];
    w.fkey = (uint32_t)PMPI_Win_c2f(*win);
    st_lock();
    if (st.nwins == st.capwins) {
        uint32_t cap = st.capwins ? 2 * st.capwins : 16;
        struct st_win *grown = realloc(st.wins, cap * sizeof *grown);
        struct winops *ops = realloc(winops, cap * sizeof *ops);
        if (grown)
            st.wins = grown;
        if (ops) {
            memset(ops + capops, 0, (cap - capops) * sizeof *ops);
            winops = ops;
            capops = cap;
        }
        if (grown && ops)
            st.capwins = cap;
    }
    if (st.nwins < st.capwins) {
        id = (int)st.nwins++;
        st.wins[id] = w;
        winops[id].allocated = op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE;
    }
    st_unlock();
    if (id < 0) {
        st_fail("window table", OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    st_check(OTF2_EvtWriter_RmaCollectiveBegin(st_me.evt, NULL, k->t0), "RmaCollectiveBegin");
    st_check(OTF2_EvtWriter_RmaWinCreate(st_me.evt, NULL, st_t1(k), (OTF2_RmaWinRef)id), "RmaWinCreate");
    st_check(OTF2_EvtWriter_RmaCollectiveEnd(st_me.evt, NULL, st_t1(k), op, OTF2_RMA_SYNC_LEVEL_NONE,
                                             (OTF2_RmaWinRef)id, NO_RANK, 0, 0),
             "RmaCollectiveEnd");
}

void
st_win_free_pre(struct st_call *k, MPI_Win win)
{
    k->comm = win_lookup(k, win);
}

void
st_win_free_post(struct st_call *k, int rc)
{
    int w = k->comm, allocated;

    if (rc != MPI_SUCCESS || w < 0)
        return;
    st_lock();
    st.wins[w].fkey = UINT32_MAX; /* the handle may be reused by the next window */
    allocated = winops[w].allocated;
    winops[w].n = 0;
    free(winops[w].to);
    winops[w].to = NULL;
    winops[w].nto = 0;
    st_unlock();
    st_check(OTF2_EvtWriter_RmaCollectiveBegin(st_me.evt, NULL, k->t0), "RmaCollectiveBegin");
    st_check(OTF2_EvtWriter_RmaWinDestroy(st_me.evt, NULL, st_t1(k), (OTF2_RmaWinRef)w), "RmaWinDestroy");
    st_check(OTF2_EvtWriter_RmaCollectiveEnd(st_me.evt, NULL, st_t1(k),
                                             allocated ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                                                       : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                                             OTF2_RMA_SYNC_LEVEL_NONE, (OTF2_RmaWinRef)w, NO_RANK, 0, 0),
             "RmaCollectiveEnd");
}

/* ---- operations ---------------------------------------------------------- */

/* Operation id to target waits for a synchronisation of window w. Under
 * the lock. */
static void
pend(int w, uint64_t id, int32_t target)
{
    if (winops[w].n == winops[w].cap) {
        uint32_t cap = winops[w].cap ? 2 * winops[w].cap : 64;
        struct pending *grown = realloc(winops[w].ops, cap * sizeof *grown);
        if (grown) {
            winops[w].ops = grown;
            winops[w].cap = cap;
        }
    }
    if (winops[w].n < winops[w].cap)
        winops[w].ops[winops[w].n++] = (struct pending){ id, target };
}

void
st_rma(struct st_call *k, int rc, OTF2_RmaAtomicType type, MPI_Count sent, MPI_Datatype sendtype,
       MPI_Count received, MPI_Datatype recvtype, int target, MPI_Win win, MPI_Request *request)
{
    int w;
    uint64_t id;

    if (rc != MPI_SUCCESS || target == MPI_PROC_NULL || (w = win_lookup(k, win)) < 0)
        return;
    id = st_next_id();
    if (type == ST_RMA_PUT)
        st_check(OTF2_EvtWriter_RmaPut(st_me.evt, NULL, k->t0, (OTF2_RmaWinRef)w, (uint32_t)target,
                                       st_bytes(sent, sendtype), id),
                 "RmaPut");
    else if (type == ST_RMA_GET)
        st_check(OTF2_EvtWriter_RmaGet(st_me.evt, NULL, k->t0, (OTF2_RmaWinRef)w, (uint32_t)target,
                                       st_bytes(received, recvtype), id),
                 "RmaGet");
    else
        st_check(OTF2_EvtWriter_RmaAtomic(st_me.evt, NULL, k->t0, (OTF2_RmaWinRef)w, (uint32_t)target, type,
                                          st_bytes(sent, sendtype), st_bytes(received, recvtype), id),
                 "RmaAtomic");
    if (request) {
        struct st_req e = { .key = st_req_key(request, sizeof *request), .id = id, .comm = w, .kind = REQ_RMA,
                            .peer = target };
        st_lock();
        if (!winops[w].to) {
            uint32_t n = (uint32_t)st.comms[st.wins[w].comm].size;
            winops[w].to = calloc(n ? n : 1, sizeof *winops[w].to);
            winops[w].nto = winops[w].to ? n : 0;
        }
        e.syncs = winops[w].syncs;
        st_unlock();
        st_req_put(&e);
        return;
    }
    st_lock();
    pend(w, id, target);
    st_unlock();
}

/* A request-based operation whose request was freed at time t: no Wait
 * or Test will see it, so the window's next synchronisation that reaches
 * its target completes it, as it does the operations without a request.
 * When one already has (or the window is gone), it is complete: it is
 * recorded now, as a Wait would. */
void
st_rma_freed(const struct st_req *e, uint64_t t)
{
    const struct winops *o;
    int done;

    st_lock();
    o = &winops[e->comm]; /* the table moves when another thread makes a window */
    done = st.wins[e->comm].fkey == UINT32_MAX || o->all > e->syncs ||
           (e->peer >= 0 && (uint32_t)e->peer < o->nto && o->to[e->peer] > e->syncs);
    if (!done)
        pend(e->comm, e->id, e->peer);
    st_unlock();
    if (done)
        st_rma_complete(e, t);
}

/* A request-based operation completed in Wait or Test. */
void
st_rma_complete(const struct st_req *e, uint64_t t)
{
    st_check(OTF2_EvtWriter_RmaOpCompleteNonBlocking(st_me.evt, NULL, t, (OTF2_RmaWinRef)e->comm, e->id),
             "RmaOpCompleteNonBlocking");
}

/* Complete the pending operations of window w to target (or
 * ST_ALL_RANKS), in the order they were issued. Records are written after
 * the lock is released: a write may need a buffer chunk. */
static void
complete_ops(struct st_call *k, int w, int target, int remote)
{
    uint64_t *ids = NULL, t = st_t1(k);
    uint32_t kept = 0, n = 0;

    st_lock();
    winops[w].syncs++;
    if (target == ST_ALL_RANKS)
        winops[w].all = winops[w].syncs;
    else if (target >= 0 && (uint32_t)target < winops[w].nto)
        winops[w].to[target] = winops[w].syncs;
    if (winops[w].n)
        ids = st_scratch(ST_SC_KEYS, winops[w].n * sizeof *ids);
    for (uint32_t i = 0; i < winops[w].n; i++) {
        struct pending p = winops[w].ops[i];
        if ((target != ST_ALL_RANKS && p.target != target) || !ids)
            winops[w].ops[kept++] = p;
        else
            ids[n++] = p.id;
    }
    winops[w].n = kept;
    st_unlock();
    for (uint32_t i = 0; i < n; i++) {
        if (remote)
            st_check(OTF2_EvtWriter_RmaOpCompleteRemote(st_me.evt, NULL, t, (OTF2_RmaWinRef)w, ids[i]),
                     "RmaOpCompleteRemote");
        else
            st_check(OTF2_EvtWriter_RmaOpCompleteNonBlocking(st_me.evt, NULL, t, (OTF2_RmaWinRef)w, ids[i]),
                     "RmaOpCompleteNonBlocking");
    }
}

/* ---- synchronisation --------------------------------------------------------- */

void
st_win_fence_pre(struct st_call *k, MPI_Win win)
{
    k->comm = win_lookup(k, win);
    if (k->comm >= 0)
        st_check(OTF2_EvtWriter_RmaCollectiveBegin(st_me.evt, NULL, k->t0), "RmaCollectiveBegin");
}

void
st_win_fence_post(struct st_call *k, int rc)
{
    if (k->comm < 0)
        return;
    if (rc == MPI_SUCCESS)
        complete_ops(k, k->comm, ST_ALL_RANKS, 1);
    st_check(OTF2_EvtWriter_RmaCollectiveEnd(st_me.evt, NULL, st_t1(k), OTF2_COLLECTIVE_OP_BARRIER,
                                             OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY,
                                             (OTF2_RmaWinRef)k->comm, NO_RANK, 0, 0),
             "RmaCollectiveEnd");
}

/* Post and start open an exposure or access epoch with a group; complete,
 * wait and a successful test close it. */
void
st_win_group(struct st_call *k, int rc, int which, MPI_Group group, MPI_Win win, int flag)
{
    int w = win_lookup(k, win);
    uint32_t g;

    if (rc != MPI_SUCCESS || !flag || w < 0)
        return;
    if (which == ST_PSCW_POST || which == ST_PSCW_START) {
        int32_t id = st_group_of(group);
        st_lock();
        if (which == ST_PSCW_POST)
            st.wins[w].exposure = id < 0 ? UINT32_MAX : (uint32_t)id;
        else
            st.wins[w].access = id < 0 ? UINT32_MAX : (uint32_t)id;
        st_unlock();
        if (id >= 0)
            st_check(OTF2_EvtWriter_RmaGroupSync(st_me.evt, NULL, st_t1(k), OTF2_RMA_SYNC_LEVEL_PROCESS,
                                                 (OTF2_RmaWinRef)w, (OTF2_GroupRef)id),
                     "RmaGroupSync");
        return;
    }
    if (which == ST_PSCW_COMPLETE)
        complete_ops(k, w, ST_ALL_RANKS, 0);
    st_lock();
    g = which == ST_PSCW_COMPLETE ? st.wins[w].access : st.wins[w].exposure;
    st_unlock();
    if (g != UINT32_MAX)
        st_check(OTF2_EvtWriter_RmaGroupSync(st_me.evt, NULL, st_t1(k),
                                             OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY,
                                             (OTF2_RmaWinRef)w, (OTF2_GroupRef)g),
                 "RmaGroupSync");
}

void
st_win_lock(struct st_call *k, int lock_type, int rank, MPI_Win win)
{
    int w = win_lookup(k, win);

    if (w < 0 || rank == MPI_PROC_NULL)
        return;
    st_check(OTF2_EvtWriter_RmaRequestLock(st_me.evt, NULL, k->t0, (OTF2_RmaWinRef)w,
                                           rank == ST_ALL_RANKS ? NO_RANK : (uint32_t)rank, 0,
                                           lock_type == MPI_LOCK_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED),
             "RmaRequestLock");
}

void
st_win_unlock(struct st_call *k, int rc, int rank, MPI_Win win)
{
    int w = win_lookup(k, win);

    if (rc != MPI_SUCCESS || w < 0 || rank == MPI_PROC_NULL)
        return;
    complete_ops(k, w, rank, 1);
    st_check(OTF2_EvtWriter_RmaReleaseLock(st_me.evt, NULL, st_t1(k), (OTF2_RmaWinRef)w,
                                           rank == ST_ALL_RANKS ? NO_RANK : (uint32_t)rank, 0),
             "RmaReleaseLock");
}

void
st_win_flush(struct st_call *k, int rc, int rank, MPI_Win win)
{
    int w = win_lookup(k, win);
    int local = k->fn == ST_F_MPI_Win_flush_local || k->fn == ST_F_MPI_Win_flush_local_all;

    if (rc != MPI_SUCCESS || w < 0 || rank == MPI_PROC_NULL)
        return;
    complete_ops(k, w, rank, !local);
    st_check(OTF2_EvtWriter_RmaSync(st_me.evt, NULL, st_t1(k), (OTF2_RmaWinRef)w,
                                    rank == ST_ALL_RANKS ? NO_RANK : (uint32_t)rank, OTF2_RMA_SYNC_TYPE_MEMORY),
             "RmaSync");
}

void
st_win_sync(struct st_call *k, int rc, MPI_Win win)
{
    int w = win_lookup(k, win);
    int me = 0;

    if (rc != MPI_SUCCESS || w < 0)
        return;
    st_lock();
    me = st.comms[st.wins[w].comm].myrank;
    st_unlock();
    st_check(OTF2_EvtWriter_RmaSync(st_me.evt, NULL, st_t1(k), (OTF2_RmaWinRef)w, (uint32_t)me,
                                    OTF2_RMA_SYNC_TYPE_MEMORY),
             "RmaSync");
}
