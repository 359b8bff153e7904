/* skeintrace-p2p.c — point-to-point records and request completion.
 *
 * Records follow Score-P: a blocking send writes MpiSend inside its region,
 * a blocking receive MpiRecv with the source, tag and size from the status;
 * MPI_Sendrecv writes both. A non-blocking send writes MpiIsend with a
 * request id and, in the Wait/Test call that completes it, MpiIsendComplete;
 * a non-blocking receive writes MpiIrecvRequest and, where it completes,
 * MpiIrecv with the matched source, tag and size. A persistent request
 * records the same at each MPI_Start; a matched probe's message is received
 * by MPI_Mrecv (MpiRecv) or MPI_Imrecv (MpiIrecvRequest, then MpiIrecv).
 * Peers are ranks in the communicator; nothing is recorded for
 * MPI_PROC_NULL peers.
 *
 * Outstanding requests live in a hash table keyed by the bytes of the
 * MPI_Request handle (an int in MPICH, a pointer in Open MPI); when several
 * share a handle, completions take them oldest first. Persistent requests
 * have a table of their own, and matched messages another. */
#include "skeintrace-rec.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(MPI_Request) <= sizeof(uint64_t), "MPI_Request wider than 64 bits");
_Static_assert(sizeof(MPI_Message) <= sizeof(uint64_t), "MPI_Message wider than 64 bits");

struct reqtab {
    struct st_req *slots;
    uint32_t n, used;
};
static struct reqtab active, persistent, messages;

uint64_t
st_req_key(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size);
    return k;
}

static uint32_t
slot_of(const struct reqtab *t, uint64_t key)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9u;
    key ^= key >> 32;
    return (uint32_t)key & (t->n - 1);
}

static void
tab_put(struct reqtab *t, const struct st_req *e)
{
    uint32_t h;

    if (e->key == 0)
        return;
    if (2 * (t->used + 1) > t->n) {
        struct reqtab old = *t;
        uint32_t n = old.n ? 2 * old.n : 256;
        struct st_req *grown = calloc(n, sizeof *grown);
        if (!grown) {
            st_fail("request table", OTF2_ERROR_MEM_ALLOC_FAILED);
            return;
        }
        t->slots = grown;
        t->n = n;
        t->used = 0;
        for (uint32_t i = 0; i < old.n; i++)
            if (old.slots[i].key)
                tab_put(t, &old.slots[i]);
        free(old.slots);
    }
    /* Several entries may share a handle: MPICH hands out one built-in
     * handle for sends that complete at once. */
    for (h = slot_of(t, e->key); t->slots[h].key; h = (h + 1) & (t->n - 1))
        ;
    t->used++;
    t->slots[h] = *e;
}

/* Remove the oldest entry for key into *out (when out is not NULL); 0 when
 * there is none. Of several entries under one handle (MPICH's shared
 * handle of sends that completed at once), the calling thread's own come
 * first. */
static int
tab_take(struct reqtab *t, uint64_t key, struct st_req *out)
{
    uint32_t h, j, found = UINT32_MAX;

    if (!t->used || key == 0)
        return 0;
    for (h = slot_of(t, key); t->slots[h].key; h = (h + 1) & (t->n - 1)) {
        const struct st_req *e = &t->slots[h], *f = found == UINT32_MAX ? NULL : &t->slots[found];
        int mine = e->loc == st_me.loc, theirs = f && f->loc == st_me.loc;
        if (e->key == key && (!f || (mine && !theirs) || (mine == theirs && e->id < f->id)))
            found = h;
    }
    if (found == UINT32_MAX)
        return 0;
    h = found;
    if (out)
        *out = t->slots[h];
    for (j = (h + 1) & (t->n - 1); t->slots[j].key; j = (j + 1) & (t->n - 1)) {
        uint32_t home = slot_of(t, t->slots[j].key);
        if (((j - home) & (t->n - 1)) >= ((j - h) & (t->n - 1))) {
            t->slots[h] = t->slots[j];
            h = j;
        }
    }
    t->slots[h].key = 0;
    t->used--;
    return 1;
}

static const struct st_req *
tab_find(const struct reqtab *t, uint64_t key)
{
    if (!t->used || key == 0)
        return NULL;
    for (uint32_t h = slot_of(t, key); t->slots[h].key; h = (h + 1) & (t->n - 1))
        if (t->slots[h].key == key)
            return &t->slots[h];
    return NULL;
}

void
st_req_put(const struct st_req *e)
{
    struct st_req mine = *e;

    mine.loc = st_me.loc;
    st_lock();
    tab_put(&active, &mine);
    st_unlock();
}

void
st_requests_teardown(void)
{
    struct reqtab *tabs[] = { &active, &persistent, &messages };

    for (int i = 0; i < 3; i++) {
        free(tabs[i]->slots);
        memset(tabs[i], 0, sizeof *tabs[i]);
    }
}

static uint64_t
received_bytes(MPI_Status *status)
{
    MPI_Count n = 0;

    if (PMPI_Get_elements_x(status, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (uint64_t)n;
}

static void
record_recv(uint64_t t, int comm, MPI_Status *status)
{
    if (comm < 0 || status->MPI_SOURCE == MPI_PROC_NULL)
        return;
    st_check(OTF2_EvtWriter_MpiRecv(st_me.evt, NULL, t, (uint32_t)status->MPI_SOURCE, (OTF2_CommRef)comm,
                                    (uint32_t)status->MPI_TAG, received_bytes(status)),
             "MpiRecv");
}

/* The request with handle key completed with status at time t. */
static void
complete(uint64_t key, MPI_Status *status, uint64_t t)
{
    struct st_req e;
    int cancelled = 0, found;

    st_lock();
    found = tab_take(&active, key, &e);
    st_unlock();
    if (!found)
        return;
    if (e.kind == REQ_COLL) {
        st_coll_complete(&e, t);
        return;
    }
    if (e.kind == REQ_RMA) {
        st_rma_complete(&e, t);
        return;
    }
    if (e.kind == REQ_IDUP) {
        st_comm_idup_complete(&e, t);
        return;
    }
    PMPI_Test_cancelled(status, &cancelled);
    if (cancelled)
        st_check(OTF2_EvtWriter_MpiRequestCancelled(st_me.evt, NULL, t, e.id), "MpiRequestCancelled");
    else if (e.kind == REQ_SEND)
        st_check(OTF2_EvtWriter_MpiIsendComplete(st_me.evt, NULL, t, e.id), "MpiIsendComplete");
    else {
        if (e.kind == REQ_SENDRECV && e.id)
            st_check(OTF2_EvtWriter_MpiIsendComplete(st_me.evt, NULL, t, e.id), "MpiIsendComplete");
        if (status->MPI_SOURCE != MPI_PROC_NULL && (e.kind == REQ_RECV || e.id2))
            st_check(OTF2_EvtWriter_MpiIrecv(st_me.evt, NULL, t, (uint32_t)status->MPI_SOURCE, (OTF2_CommRef)e.comm,
                                             (uint32_t)(e.kind == REQ_SENDRECV && e.tag != MPI_ANY_TAG ? e.tag
                                                                                                : status->MPI_TAG),
                                             received_bytes(status),
                                             e.kind == REQ_SENDRECV ? e.id2 : e.id),
                     "MpiIrecv");
    }
}

/* ---- sends and receives ----------------------------------------------------- */

void
st_send(struct st_call *k, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    int c = st_comm_lookup(k, comm);

    k->comm = c;
    if (c >= 0 && dest != MPI_PROC_NULL)
        st_check(OTF2_EvtWriter_MpiSend(st_me.evt, NULL, k->t0, (uint32_t)dest, (OTF2_CommRef)c, (uint32_t)tag,
                                        st_bytes(count, type)),
                 "MpiSend");
}

void
st_isend_pre(struct st_call *k, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    k->comm = dest == MPI_PROC_NULL ? -1 : st_comm_lookup(k, comm);
    if (k->comm < 0)
        return;
    k->id = st_next_id();
    st_check(OTF2_EvtWriter_MpiIsend(st_me.evt, NULL, k->t0, (uint32_t)dest, (OTF2_CommRef)k->comm, (uint32_t)tag,
                                     st_bytes(count, type), k->id),
             "MpiIsend");
}

void
st_isend_post(struct st_call *k, int rc, MPI_Count count, MPI_Datatype type, int dest, int tag,
              MPI_Request *request)
{
    struct st_req e = { .id = k->id, .sent = st_bytes(count, type), .comm = k->comm, .kind = REQ_SEND,
                        .peer = dest, .tag = tag };

    if (rc != MPI_SUCCESS || k->comm < 0)
        return;
    e.key = st_req_key(request, sizeof *request);
    st_req_put(&e);
}

void
st_recv(struct st_call *k, int rc, int source, MPI_Comm comm, MPI_Status *status)
{
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
        record_recv(st_t1(k), k->comm >= 0 ? k->comm : st_comm_lookup(k, comm), status);
}

void
st_irecv(struct st_call *k, int rc, int source, MPI_Comm comm, MPI_Request *request)
{
    struct st_req e = { .comm = -1, .kind = REQ_RECV, .peer = source };

    if (rc != MPI_SUCCESS || source == MPI_PROC_NULL || (e.comm = st_comm_lookup(k, comm)) < 0)
        return;
    e.id = st_next_id();
    e.key = st_req_key(request, sizeof *request);
    st_check(OTF2_EvtWriter_MpiIrecvRequest(st_me.evt, NULL, k->t0, e.id), "MpiIrecvRequest");
    st_req_put(&e);
}

/* MPI_Isendrecv: an Isend and an Irecv request in one MPI request, both
 * completed where it completes (a half with MPI_PROC_NULL is left out). */
void
st_isendrecv(struct st_call *k, int rc, MPI_Count count, MPI_Datatype type, int dest, int tag, int source,
             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    /* MPICH 4.0's status of an Isendrecv carries an internal tag: the
     * receive's own tag is kept, unless it is MPI_ANY_TAG */
    struct st_req e = { .comm = -1, .kind = REQ_SENDRECV, .peer = dest, .tag = recvtag };

    if (rc != MPI_SUCCESS || (dest == MPI_PROC_NULL && source == MPI_PROC_NULL) ||
        (e.comm = st_comm_lookup(k, comm)) < 0)
        return;
    if (dest != MPI_PROC_NULL) {
        e.id = st_next_id();
        st_check(OTF2_EvtWriter_MpiIsend(st_me.evt, NULL, k->t0, (uint32_t)dest, (OTF2_CommRef)e.comm,
                                         (uint32_t)tag, st_bytes(count, type), e.id),
                 "MpiIsend");
    }
    if (source != MPI_PROC_NULL) {
        e.id2 = st_next_id();
        st_check(OTF2_EvtWriter_MpiIrecvRequest(st_me.evt, NULL, k->t0, e.id2), "MpiIrecvRequest");
    }
    e.key = st_req_key(request, sizeof *request);
    st_req_put(&e);
}

/* ---- matched probes ----------------------------------------------------------- */

void
st_mprobe(struct st_call *k, int rc, MPI_Comm comm, int flag, MPI_Message *message)
{
    struct st_req e = { .comm = -1, .kind = REQ_RECV };

    if (rc != MPI_SUCCESS || !flag || *message == MPI_MESSAGE_NO_PROC || *message == MPI_MESSAGE_NULL)
        return;
    e.comm = st_comm_lookup(k, comm);
    e.key = st_req_key(message, sizeof *message);
    e.id = st_next_id(); /* orders entries that share a handle */
    st_lock();
    tab_put(&messages, &e);
    st_unlock();
}

void
st_mrecv_pre(struct st_call *k, MPI_Message *message)
{
    struct st_req e;

    k->comm = -1;
    st_lock();
    if (tab_take(&messages, st_req_key(message, sizeof *message), &e))
        k->comm = e.comm;
    st_unlock();
}

void
st_mrecv(struct st_call *k, int rc, MPI_Status *status)
{
    if (rc == MPI_SUCCESS)
        record_recv(st_t1(k), k->comm, status);
}

void
st_imrecv(struct st_call *k, int rc, MPI_Request *request)
{
    struct st_req e = { .comm = k->comm, .kind = REQ_RECV };

    if (rc != MPI_SUCCESS || k->comm < 0)
        return;
    e.id = st_next_id();
    e.key = st_req_key(request, sizeof *request);
    st_check(OTF2_EvtWriter_MpiIrecvRequest(st_me.evt, NULL, k->t0, e.id), "MpiIrecvRequest");
    st_req_put(&e);
}

/* ---- persistent requests -------------------------------------------------------- */

void
st_send_init(struct st_call *k, int rc, int kind, MPI_Count count, MPI_Datatype type, int peer, int tag,
             MPI_Comm comm, MPI_Request *request)
{
    struct st_req e = { .sent = st_bytes(count, type), .comm = -1, .kind = kind, .peer = peer, .tag = tag };

    if (rc != MPI_SUCCESS || peer == MPI_PROC_NULL || (e.comm = st_comm_lookup(k, comm)) < 0)
        return;
    e.key = st_req_key(request, sizeof *request);
    e.id = st_next_id();
    st_lock();
    tab_put(&persistent, &e);
    st_unlock();
}

/* Persistent collectives keep their bytes, operation and root for each start. */
void
st_persistent_put(const struct st_req *e)
{
    st_lock();
    tab_put(&persistent, e);
    st_unlock();
}

void
st_start_pre(struct st_call *k, int n, const MPI_Request *requests)
{
    uint64_t *keys = st_scratch(ST_SC_KEYS, (size_t)(n > 0 ? n : 1) * sizeof *keys);

    k->key = keys != NULL;
    for (int i = 0; keys && i < n; i++)
        keys[i] = st_req_key(&requests[i], sizeof requests[i]);
}

/* Each started request is recorded as issued now: MpiIsend, MpiIrecvRequest
 * or NonBlockingCollectiveRequest with a fresh request id. */
void
st_start_post(struct st_call *k, int rc, int n)
{
    const uint64_t *keys = st_me.scratch[ST_SC_KEYS];

    if (rc != MPI_SUCCESS || !k->key)
        return;
    for (int i = 0; i < n; i++) {
        const struct st_req *p;
        struct st_req e;
        st_lock();
        p = tab_find(&persistent, keys[i]);
        if (p)
            e = *p;
        st_unlock();
        if (!p)
            continue;
        e.id = st_next_id();
        if (e.kind == REQ_SEND)
            st_check(OTF2_EvtWriter_MpiIsend(st_me.evt, NULL, k->t0, (uint32_t)e.peer, (OTF2_CommRef)e.comm,
                                             (uint32_t)e.tag, e.sent, e.id),
                     "MpiIsend");
        else if (e.kind == REQ_RECV)
            st_check(OTF2_EvtWriter_MpiIrecvRequest(st_me.evt, NULL, k->t0, e.id), "MpiIrecvRequest");
        else
            st_check(OTF2_EvtWriter_NonBlockingCollectiveRequest(st_me.evt, NULL, k->t0, e.id),
                     "NonBlockingCollectiveRequest");
        st_req_put(&e);
    }
}

/* ---- completion ------------------------------------------------------------------- */

/* Copy the handles before the call (completion nulls them). */
void
st_wait_pre(struct st_call *k, int n, const MPI_Request *requests)
{
    st_start_pre(k, n, requests);
}

/* Complete the requests an -any or -some call reports, each index read
 * plus shift: *index for -any; for -some, the *index first of indices,
 * the i-th with statuses[i]. */
static void
complete_reported(const uint64_t *keys, int how, int n, const int *index, const int *indices,
                  MPI_Status *statuses, uint64_t t, int shift)
{
    if (how == ST_ANY) {
        int i = *index == MPI_UNDEFINED ? -1 : *index + shift;
        if (i >= 0 && i < n)
            complete(keys[i], statuses, t);
    } else if (*index != MPI_UNDEFINED) {
        for (int j = 0; j < *index; j++) {
            int i = indices[j] + shift;
            if (i >= 0 && i < n)
                complete(keys[i], &statuses[j], t);
        }
    }
}

/* Record the completions in the order MPI reports them: array order for
 * the -all forms, index for -any, indices for -some. */
void
st_wait_post(struct st_call *k, int rc, int how, int n, int done, const int *index, const int *indices,
             MPI_Status *statuses)
{
    const uint64_t *keys = st_me.scratch[ST_SC_KEYS];
    uint64_t t = st_t1(k);

    if (rc != MPI_SUCCESS || !done || !k->key || n <= 0)
        return;
    if (how == ST_ALL) {
        for (int i = 0; i < n; i++)
            complete(keys[i], &statuses[i], t);
    } else {
        complete_reported(keys, how, n, index, indices, statuses, t, 0);
    }
}

/* MPICH 4.0's mpi_f08 MPI_Waitany, Testany, Waitsome and Testsome hand the
 * program the C binding's 0-based indices (its mpi_waitany_f08_ passes
 * PMPI_Waitany's index on untouched; MPICH 4.1 adds the 1), so the
 * Fortran wrapper's index - 1 names the request before the one that
 * completed. Which reading is right shows in the handles: a completed
 * request becomes MPI_REQUEST_NULL, unless it is persistent (that one
 * keeps its handle). f08_shift is what the handles last told: 1 for MPICH
 * 4.0's reading, 0 for the standard's, -1 before they have told. */
static int f08_shift = -1;

/* Whether the m indices at, each read plus shift, name exactly the
 * requests the call completed: each a slot that held a request before the
 * call, and among them every one of the nulled slots whose handle became
 * MPI_REQUEST_NULL (a named slot that kept its handle is a persistent
 * request). */
static int
indices_fit(const uint64_t *before, const MPI_Request *after, int n, int m, const int *at, int shift, uint64_t null,
            int nulled)
{
    int named = 0;

    for (int j = 0; j < m; j++) {
        int i = at[j] == MPI_UNDEFINED ? -1 : at[j] + shift;
        if (i < 0 || i >= n || before[i] == null)
            return 0;
        named += st_req_key(&after[i], sizeof after[i]) == null;
    }
    return named == nulled;
}

void
st_wait_post_f08(struct st_call *k, int rc, int how, int n, int done, const int *index, const int *indices,
                 MPI_Status *statuses, const MPI_Request *after)
{
    const uint64_t *keys = st_me.scratch[ST_SC_KEYS];
    const MPI_Request none = MPI_REQUEST_NULL;
    uint64_t t = st_t1(k), null = st_req_key(&none, sizeof none);
    int m = how == ST_ANY ? 1 : *index, nulled = 0, shift;

    if (rc != MPI_SUCCESS || !done || !k->key || n <= 0 || *index == MPI_UNDEFINED || m <= 0 ||
        (how == ST_SOME && !indices))
        return;
    shift = __atomic_load_n(&f08_shift, __ATOMIC_RELAXED);
    if (after) {
        const int *at = how == ST_ANY ? index : indices;
        int fit0, fit1;
        for (int i = 0; i < n; i++)
            nulled += keys[i] != null && st_req_key(&after[i], sizeof after[i]) == null;
        fit0 = indices_fit(keys, after, n, m, at, 0, null, nulled);
        fit1 = indices_fit(keys, after, n, m, at, 1, null, nulled);
        if (fit0 != fit1) {
            shift = fit1;
            __atomic_store_n(&f08_shift, shift, __ATOMIC_RELAXED);
        }
    }
    complete_reported(keys, how, n, index, indices, statuses, t, shift > 0);
}

/* A freed request's completion will never be seen; a persistent one is
 * forgotten with its last start. A one-sided operation's is: the window's
 * synchronisation completes it. */
void
st_request_free(struct st_call *k, int rc)
{
    const uint64_t *keys = st_me.scratch[ST_SC_KEYS];
    struct st_req e;
    int found;

    if (rc != MPI_SUCCESS || !k->key)
        return;
    st_lock();
    found = tab_take(&active, keys[0], &e);
    tab_take(&persistent, keys[0], NULL);
    st_unlock();
    if (found && e.kind == REQ_RMA)
        st_rma_freed(&e, st_t1(k));
}
