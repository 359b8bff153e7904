/* skeintrace-p2p.c — point-to-point wrappers and request completion.
 *
 * Records follow Score-P: a blocking send writes MpiSend inside its region,
 * a blocking receive MpiRecv with the source, tag and size from the status;
 * MPI_Sendrecv writes both. A non-blocking send writes MpiIsend with a
 * request id and, in the Wait/Test call that completes it, MpiIsendComplete;
 * a non-blocking receive writes MpiIrecvRequest and, where it completes,
 * MpiIrecv with the matched source, tag and size. Peers are ranks in the
 * communicator. Nothing is recorded for MPI_PROC_NULL peers.
 *
 * Outstanding requests live in a hash table keyed by the bytes of the
 * MPI_Request handle (an int in MPICH, a pointer in Open MPI); when several
 * share a handle, completions take them oldest first. */
#include "skeintrace-int.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(MPI_Request) <= sizeof(uint64_t), "MPI_Request wider than 64 bits");

enum { REQ_SEND = 1, REQ_RECV = 2 };

struct req {
    uint64_t key; /* 0: empty slot */
    uint64_t id;
    uint64_t bytes;
    int32_t comm;
    int32_t kind;
};
static struct req *reqs;
static uint32_t nreqs, nused;

static uint64_t
req_key(MPI_Request r)
{
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r);
    return k;
}

static uint32_t
req_hash(uint64_t key)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9u;
    key ^= key >> 32;
    return (uint32_t)key & (nreqs - 1);
}

static void
req_put(const struct req *e)
{
    uint32_t h;

    if (e->key == 0)
        return;
    if (2 * (nused + 1) > nreqs) {
        uint32_t old_n = nreqs;
        struct req *old = reqs;
        uint32_t n = old_n ? 2 * old_n : 256;
        struct req *grown = calloc(n, sizeof *grown);
        if (!grown) {
            st_fail("request table", OTF2_ERROR_MEM_ALLOC_FAILED);
            return;
        }
        reqs = grown;
        nreqs = n;
        nused = 0;
        for (uint32_t i = 0; i < old_n; i++)
            if (old[i].key)
                req_put(&old[i]);
        free(old);
    }
    /* Several entries may share a handle: MPICH hands out one built-in
     * handle for sends that complete at once. */
    for (h = req_hash(e->key); reqs[h].key; h = (h + 1) & (nreqs - 1))
        ;
    nused++;
    reqs[h] = *e;
}

/* Remove the oldest entry for key into *out; 0 when it was not tracked. */
static int
req_take(uint64_t key, struct req *out)
{
    uint32_t h, j, found = UINT32_MAX;

    if (!nused || key == 0)
        return 0;
    for (h = req_hash(key); reqs[h].key; h = (h + 1) & (nreqs - 1))
        if (reqs[h].key == key && (found == UINT32_MAX || reqs[h].id < reqs[found].id))
            found = h;
    if (found == UINT32_MAX)
        return 0;
    h = found;
    *out = reqs[h];
    for (j = (h + 1) & (nreqs - 1); reqs[j].key; j = (j + 1) & (nreqs - 1)) {
        uint32_t home = req_hash(reqs[j].key);
        if (((j - home) & (nreqs - 1)) >= ((j - h) & (nreqs - 1))) {
            reqs[h] = reqs[j];
            h = j;
        }
    }
    reqs[h].key = 0;
    nused--;
    return 1;
}

void
st_requests_teardown(void)
{
    free(reqs);
    reqs = NULL;
    nreqs = nused = 0;
}

/* Scratch space for copies of request arrays and for statuses the caller
 * asked MPI to ignore; only the recording thread uses it. */
static uint64_t *scratch_keys;
static MPI_Status *scratch_status;
static int scratch_cap;

static int
scratch_reserve(int n)
{
    if (n <= scratch_cap)
        return 0;
    uint64_t *k = realloc(scratch_keys, (size_t)n * sizeof *k);
    if (k)
        scratch_keys = k;
    MPI_Status *s = realloc(scratch_status, (size_t)n * sizeof *s);
    if (s)
        scratch_status = s;
    if (!k || !s)
        return -1;
    scratch_cap = n;
    return 0;
}

static uint64_t
received_bytes(MPI_Status *status)
{
    int n = 0;

    if (PMPI_Get_count(status, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (uint64_t)n;
}

static void
record_recv(uint64_t t, int comm, MPI_Status *status)
{
    if (comm < 0 || status->MPI_SOURCE == MPI_PROC_NULL)
        return;
    st_check(OTF2_EvtWriter_MpiRecv(st.evt, NULL, t, (uint32_t)status->MPI_SOURCE, (OTF2_CommRef)comm,
                                    (uint32_t)status->MPI_TAG, received_bytes(status)),
             "MpiRecv");
}

/* The request with handle key completed with status at time t. */
static void
complete(uint64_t key, MPI_Status *status, uint64_t t)
{
    struct req e;
    int cancelled = 0;

    if (!req_take(key, &e))
        return;
    PMPI_Test_cancelled(status, &cancelled);
    if (cancelled)
        st_check(OTF2_EvtWriter_MpiRequestCancelled(st.evt, NULL, t, e.id), "MpiRequestCancelled");
    else if (e.kind == REQ_SEND)
        st_check(OTF2_EvtWriter_MpiIsendComplete(st.evt, NULL, t, e.id), "MpiIsendComplete");
    else if (status->MPI_SOURCE != MPI_PROC_NULL)
        st_check(OTF2_EvtWriter_MpiIrecv(st.evt, NULL, t, (uint32_t)status->MPI_SOURCE, (OTF2_CommRef)e.comm,
                                         (uint32_t)status->MPI_TAG, received_bytes(status), e.id),
                 "MpiIrecv");
}

/* ---- blocking and non-blocking sends ---------------------------------- */

typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int (*isend_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static int
send_common(enum st_region r, send_fn fn, const void *buf, int count, MPI_Datatype type, int dest, int tag,
            MPI_Comm comm)
{
    uint64_t t0 = st_enter(r);
    int rc;

    if (dest != MPI_PROC_NULL) {
        int c = st_comm_lookup(comm);
        if (c >= 0)
            st_check(OTF2_EvtWriter_MpiSend(st.evt, NULL, t0, (uint32_t)dest, (OTF2_CommRef)c, (uint32_t)tag,
                                            st_bytes(count, type)),
                     "MpiSend");
    }
    rc = fn(buf, count, type, dest, tag, comm);
    st_leave(st_now(), r);
    return rc;
}

static int
isend_common(enum st_region r, isend_fn fn, const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm, MPI_Request *request)
{
    uint64_t t0 = st_enter(r);
    struct req e = { 0, 0, 0, -1, REQ_SEND };
    int rc;

    if (dest != MPI_PROC_NULL) {
        e.comm = st_comm_lookup(comm);
        if (e.comm >= 0) {
            e.id = st.next_request++;
            e.bytes = st_bytes(count, type);
            st_check(OTF2_EvtWriter_MpiIsend(st.evt, NULL, t0, (uint32_t)dest, (OTF2_CommRef)e.comm,
                                             (uint32_t)tag, e.bytes, e.id),
                     "MpiIsend");
        }
    }
    rc = fn(buf, count, type, dest, tag, comm, request);
    if (rc == MPI_SUCCESS && e.comm >= 0) {
        e.key = req_key(*request);
        req_put(&e);
    }
    st_leave(st_now(), r);
    return rc;
}

#define ST_SEND(NAME, REGION) \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) \
    { \
        if (st_tl != ST_IDLE) \
            return PMPI_##NAME(buf, count, type, dest, tag, comm); \
        return send_common(REGION, PMPI_##NAME, buf, count, type, dest, tag, comm); \
    }
#define ST_ISEND(NAME, REGION) \
    int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
                   MPI_Request *request) \
    { \
        if (st_tl != ST_IDLE) \
            return PMPI_##NAME(buf, count, type, dest, tag, comm, request); \
        return isend_common(REGION, PMPI_##NAME, buf, count, type, dest, tag, comm, request); \
    }

/* The prototypes come from mpi.h. */
ST_SEND(Send, ST_R_SEND)
ST_SEND(Ssend, ST_R_SSEND)
ST_SEND(Rsend, ST_R_RSEND)
ST_SEND(Bsend, ST_R_BSEND)
ST_ISEND(Isend, ST_R_ISEND)
ST_ISEND(Issend, ST_R_ISSEND)
ST_ISEND(Irsend, ST_R_IRSEND)
ST_ISEND(Ibsend, ST_R_IBSEND)

/* ---- receives ---------------------------------------------------------- */

int
MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    uint64_t t1;
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    st_enter(ST_R_RECV);
    rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    t1 = st_now();
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
        record_recv(t1, st_comm_lookup(comm), status);
    st_leave(t1, ST_R_RECV);
    return rc;
}

int
MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    struct req e = { 0, 0, 0, -1, REQ_RECV };
    uint64_t t0;
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Irecv(buf, count, type, source, tag, comm, request);
    t0 = st_enter(ST_R_IRECV);
    if (source != MPI_PROC_NULL)
        e.comm = st_comm_lookup(comm);
    rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (rc == MPI_SUCCESS && e.comm >= 0) {
        e.id = st.next_request++;
        e.key = req_key(*request);
        st_check(OTF2_EvtWriter_MpiIrecvRequest(st.evt, NULL, t0, e.id), "MpiIrecvRequest");
        req_put(&e);
    }
    st_leave(st_now(), ST_R_IRECV);
    return rc;
}

int
MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    uint64_t t0, t1;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                             recvtag, comm, status);
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    t0 = st_enter(ST_R_SENDRECV);
    c = st_comm_lookup(comm);
    if (c >= 0 && dest != MPI_PROC_NULL)
        st_check(OTF2_EvtWriter_MpiSend(st.evt, NULL, t0, (uint32_t)dest, (OTF2_CommRef)c, (uint32_t)sendtag,
                                        st_bytes(sendcount, sendtype)),
                 "MpiSend");
    rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                       recvtag, comm, status);
    t1 = st_now();
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
        record_recv(t1, c, status);
    st_leave(t1, ST_R_SENDRECV);
    return rc;
}

int
MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                     MPI_Comm comm, MPI_Status *status)
{
    MPI_Status local;
    uint64_t t0, t1;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    t0 = st_enter(ST_R_SENDRECV_REPLACE);
    c = st_comm_lookup(comm);
    if (c >= 0 && dest != MPI_PROC_NULL)
        st_check(OTF2_EvtWriter_MpiSend(st.evt, NULL, t0, (uint32_t)dest, (OTF2_CommRef)c, (uint32_t)sendtag,
                                        st_bytes(count, type)),
                 "MpiSend");
    rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
    t1 = st_now();
    if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
        record_recv(t1, c, status);
    st_leave(t1, ST_R_SENDRECV_REPLACE);
    return rc;
}

/* ---- completion ---------------------------------------------------------- */

int
MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Status local;
    uint64_t key, t1;
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Wait(request, status);
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    key = req_key(*request);
    st_enter(ST_R_WAIT);
    rc = PMPI_Wait(request, status);
    t1 = st_now();
    if (rc == MPI_SUCCESS)
        complete(key, status, t1);
    st_leave(t1, ST_R_WAIT);
    return rc;
}

int
MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Status local;
    uint64_t key, t1;
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Test(request, flag, status);
    if (status == MPI_STATUS_IGNORE)
        status = &local;
    key = req_key(*request);
    st_enter(ST_R_TEST);
    rc = PMPI_Test(request, flag, status);
    t1 = st_now();
    if (rc == MPI_SUCCESS && *flag)
        complete(key, status, t1);
    st_leave(t1, ST_R_TEST);
    return rc;
}

/* Shared by the array forms: copy the handles (completion nulls them),
 * supply statuses if the caller ignores them, call, then record the
 * completions in the order MPI reports them (array order for -all). */
enum array_kind { WAITALL, TESTALL, WAITANY, TESTANY, WAITSOME, TESTSOME };

static int
array_common(enum array_kind kind, int n, MPI_Request reqv[], int *index, int *flag, int *indices,
             MPI_Status *statuses)
{
    static const enum st_region region[] = { ST_R_WAITALL, ST_R_TESTALL, ST_R_WAITANY,
                                             ST_R_TESTANY, ST_R_WAITSOME, ST_R_TESTSOME };
    int one = (kind == WAITANY || kind == TESTANY);
    MPI_Status *s = statuses;
    uint64_t t1;
    int rc, done = 0;

    if (n < 0 || scratch_reserve(n > 0 ? n : 1) != 0)
        s = NULL; /* record the region only */
    else {
        for (int i = 0; i < n; i++)
            scratch_keys[i] = req_key(reqv[i]);
        if (one ? statuses == MPI_STATUS_IGNORE : statuses == MPI_STATUSES_IGNORE)
            s = scratch_status;
    }
    st_enter(region[kind]);
    switch (kind) {
    case WAITALL: rc = PMPI_Waitall(n, reqv, s ? s : statuses); done = 1; break;
    case TESTALL: rc = PMPI_Testall(n, reqv, flag, s ? s : statuses); done = *flag; break;
    case WAITANY: rc = PMPI_Waitany(n, reqv, index, s ? s : statuses); done = 1; break;
    case TESTANY: rc = PMPI_Testany(n, reqv, index, flag, s ? s : statuses); done = *flag; break;
    case WAITSOME: rc = PMPI_Waitsome(n, reqv, index, indices, s ? s : statuses); done = 1; break;
    default: rc = PMPI_Testsome(n, reqv, index, indices, s ? s : statuses); done = 1; break;
    }
    t1 = st_now();
    if (s && rc == MPI_SUCCESS && done) {
        if (kind == WAITALL || kind == TESTALL) {
            for (int i = 0; i < n; i++)
                complete(scratch_keys[i], &s[i], t1);
        } else if (one) {
            if (*index != MPI_UNDEFINED && *index >= 0 && *index < n)
                complete(scratch_keys[*index], s, t1);
        } else if (*index != MPI_UNDEFINED) {
            for (int i = 0; i < *index; i++)
                if (indices[i] >= 0 && indices[i] < n)
                    complete(scratch_keys[indices[i]], &s[i], t1);
        }
    }
    st_leave(t1, region[kind]);
    return rc;
}

int
MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    if (st_tl != ST_IDLE)
        return PMPI_Waitall(count, requests, statuses);
    return array_common(WAITALL, count, requests, NULL, NULL, NULL, statuses);
}

int
MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    if (st_tl != ST_IDLE)
        return PMPI_Testall(count, requests, flag, statuses);
    return array_common(TESTALL, count, requests, NULL, flag, NULL, statuses);
}

int
MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    if (st_tl != ST_IDLE)
        return PMPI_Waitany(count, requests, index, status);
    return array_common(WAITANY, count, requests, index, NULL, NULL, status);
}

int
MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    if (st_tl != ST_IDLE)
        return PMPI_Testany(count, requests, index, flag, status);
    return array_common(TESTANY, count, requests, index, flag, NULL, status);
}

int
MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    if (st_tl != ST_IDLE)
        return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    return array_common(WAITSOME, incount, requests, outcount, NULL, indices, statuses);
}

int
MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    if (st_tl != ST_IDLE)
        return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return array_common(TESTSOME, incount, requests, outcount, NULL, indices, statuses);
}

int
MPI_Request_free(MPI_Request *request)
{
    struct req e;
    uint64_t key;
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Request_free(request);
    key = req_key(*request);
    st_enter(ST_R_REQUEST_FREE);
    rc = PMPI_Request_free(request);
    if (rc == MPI_SUCCESS)
        req_take(key, &e); /* its completion will never be seen */
    st_leave(st_now(), ST_R_REQUEST_FREE);
    return rc;
}
