/* skeintrace-coll.c — collective records, blocking, non-blocking and
 * persistent.
 *
 * A blocking collective, as Score-P records it: Enter, MpiCollectiveBegin
 * (same timestamp), the call, MpiCollectiveEnd with operation,
 * communicator, root (a rank in the communicator; undefined for rootless
 * operations) and byte counts, then Leave. A non-blocking one (MPI_I...)
 * writes NonBlockingCollectiveRequest with a request id inside its region
 * and NonBlockingCollectiveComplete, with the same fields as
 * MpiCollectiveEnd, in the Wait/Test call that completes it; a persistent
 * one (..._init) does the same at each MPI_Start. The byte counts follow
 * what Score-P records (observed in the Score-P traces in ../shared/traces):
 * N is the communicator size, b the bytes of one contribution.
 *
 *   Bcast       root sends N*b, everyone receives b
 *   Gather(v)   everyone sends b, root receives N*b (sum of counts)
 *   Scatter(v)  root sends N*b (sum of counts), everyone receives b
 *   Reduce      everyone sends b, root receives N*b
 *   Allreduce, Allgather(v), Alltoall(v,w)   N*b each way (sums for -v, -w)
 *   Reduce_scatter(_block)   sends the whole input, receives N times its block
 *   Scan / Exscan   sends (N-me)*b / (N-me-1)*b, receives (me+1)*b / me*b
 *   Neighbor_*  as their global forms over the out- and in-neighbours
 *   Barrier     0 and 0
 *
 * With MPI_IN_PLACE the rank's contribution to itself is not counted. */
#include "skeintrace-rec.h"

#define NO_ROOT OTF2_UNDEFINED_UINT32

void
st_coll_pre(struct st_call *k, int mode, MPI_Comm comm)
{
    int c = st_comm_lookup(k, comm), inter;

    k->mode = mode;
    k->comm = c;
    k->mcomm = comm;
    k->size = 0;
    k->rank = 0;
    if (c < 0)
        return;
    st_lock(); /* another thread may be growing the table */
    k->size = st.comms[c].size;
    k->rank = st.comms[c].myrank;
    inter = st.comms[c].inter;
    st_unlock();
    if (inter) { /* rooted in one group, reduced across: not Score-P's byte counts */
        st_unrecorded(k->fn, ST_WHY_INTERCOLL);
        k->comm = -1;
        return;
    }
    if (mode == ST_BLOCKING)
        st_check(OTF2_EvtWriter_MpiCollectiveBegin(st_me.evt, NULL, k->t0), "MpiCollectiveBegin");
}

void
st_coll_post(struct st_call *k, int rc, MPI_Request *request, struct st_coll c)
{
    struct st_req e = { .sent = c.sent, .received = c.received, .comm = k->comm, .kind = REQ_COLL,
                        .peer = (int32_t)c.op, .tag = (int32_t)c.root };

    if (k->comm < 0)
        return;
    if (k->mode == ST_BLOCKING) {
        st_check(OTF2_EvtWriter_MpiCollectiveEnd(st_me.evt, NULL, st_t1(k), c.op, (OTF2_CommRef)k->comm, c.root,
                                                 c.sent, c.received),
                 "MpiCollectiveEnd");
        return;
    }
    if (rc != MPI_SUCCESS)
        return;
    e.key = st_req_key(request, sizeof *request);
    e.id = st_next_id();
    if (k->mode == ST_PERSISTENT) {
        st_persistent_put(&e);
        return;
    }
    st_check(OTF2_EvtWriter_NonBlockingCollectiveRequest(st_me.evt, NULL, k->t0, e.id),
             "NonBlockingCollectiveRequest");
    st_req_put(&e);
}

void
st_coll_complete(const struct st_req *e, uint64_t t)
{
    st_check(OTF2_EvtWriter_NonBlockingCollectiveComplete(st_me.evt, NULL, t, (OTF2_CollectiveOp)e->peer,
                                                          (OTF2_CommRef)e->comm, (uint32_t)e->tag, e->sent,
                                                          e->received, e->id),
             "NonBlockingCollectiveComplete");
}

/* ---- byte counts ---------------------------------------------------------- */

static MPI_Count
count_at(struct st_counts c, int i)
{
    return c.wide ? ((const MPI_Count *)c.p)[i] : ((const int *)c.p)[i];
}

static uint64_t
sum_bytes(struct st_counts counts, int n, MPI_Datatype type)
{
    uint64_t one = st_bytes(1, type), total = 0;

    for (int i = 0; counts.p && i < n; i++)
        if (count_at(counts, i) > 0)
            total += (uint64_t)count_at(counts, i);
    return total * one;
}

/* The -w forms: a datatype per peer. */
static uint64_t
sum_bytes_w(struct st_counts counts, const MPI_Datatype *types, int n)
{
    uint64_t total = 0;

    for (int i = 0; counts.p && types && i < n; i++)
        total += st_bytes(count_at(counts, i), types[i]);
    return total;
}

#define N_ ((uint64_t)k->size)
#define ME_ (k->rank)

struct st_coll
st_coll_barrier(struct st_call *k, int unused)
{
    (void)k;
    (void)unused;
    return (struct st_coll){ OTF2_COLLECTIVE_OP_BARRIER, NO_ROOT, 0, 0 };
}

struct st_coll
st_coll_bcast(struct st_call *k, MPI_Count count, MPI_Datatype type, int root)
{
    uint64_t b = st_bytes(count, type);
    return (struct st_coll){ OTF2_COLLECTIVE_OP_BCAST, (uint32_t)root, ME_ == root ? N_ * b : 0, b };
}

struct st_coll
st_coll_gather(struct st_call *k, int vector, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
               MPI_Count recvcount, struct st_counts recvcounts, MPI_Datatype recvtype, int root)
{
    struct st_coll c = { vector ? OTF2_COLLECTIVE_OP_GATHERV : OTF2_COLLECTIVE_OP_GATHER, (uint32_t)root, 0, 0 };

    if (ME_ == root) {
        uint64_t own = st_bytes(vector ? (recvcounts.p ? count_at(recvcounts, ME_) : 0) : recvcount, recvtype);
        c.received = vector ? sum_bytes(recvcounts, k->size, recvtype) : N_ * own;
        if (sendbuf == MPI_IN_PLACE)
            c.received -= own;
        else
            c.sent = st_bytes(sendcount, sendtype);
    } else {
        c.sent = st_bytes(sendcount, sendtype);
    }
    return c;
}

struct st_coll
st_coll_scatter(struct st_call *k, int vector, MPI_Count sendcount, struct st_counts sendcounts,
                MPI_Datatype sendtype, const void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root)
{
    struct st_coll c = { vector ? OTF2_COLLECTIVE_OP_SCATTERV : OTF2_COLLECTIVE_OP_SCATTER, (uint32_t)root, 0, 0 };

    if (ME_ == root) {
        uint64_t own = st_bytes(vector ? (sendcounts.p ? count_at(sendcounts, ME_) : 0) : sendcount, sendtype);
        c.sent = vector ? sum_bytes(sendcounts, k->size, sendtype) : N_ * own;
        if (recvbuf == MPI_IN_PLACE)
            c.sent -= own;
        else
            c.received = st_bytes(recvcount, recvtype);
    } else {
        c.received = st_bytes(recvcount, recvtype);
    }
    return c;
}

struct st_coll
st_coll_reduce(struct st_call *k, const void *sendbuf, MPI_Count count, MPI_Datatype type, int root)
{
    uint64_t b = st_bytes(count, type);
    struct st_coll c = { OTF2_COLLECTIVE_OP_REDUCE, (uint32_t)root, b, 0 };

    if (ME_ == root) {
        c.received = N_ * b;
        if (sendbuf == MPI_IN_PLACE) {
            c.sent = 0;
            c.received -= b;
        }
    }
    return c;
}

struct st_coll
st_coll_allreduce(struct st_call *k, const void *sendbuf, MPI_Count count, MPI_Datatype type)
{
    uint64_t n = sendbuf == MPI_IN_PLACE ? N_ - 1 : N_;
    return (struct st_coll){ OTF2_COLLECTIVE_OP_ALLREDUCE, NO_ROOT, n * st_bytes(count, type),
                             n * st_bytes(count, type) };
}

/* Allgather(v) and Alltoall */
struct st_coll
st_coll_allgather(struct st_call *k, int op, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                  MPI_Count recvcount, struct st_counts recvcounts, MPI_Datatype recvtype)
{
    struct st_coll c = { (OTF2_CollectiveOp)op, NO_ROOT, 0, 0 };

    if (recvcounts.p) {
        uint64_t own = st_bytes(count_at(recvcounts, ME_), recvtype);
        c.received = sum_bytes(recvcounts, k->size, recvtype);
        if (sendbuf == MPI_IN_PLACE) {
            c.received -= own;
            c.sent = (N_ - 1) * own;
        } else {
            c.sent = N_ * st_bytes(sendcount, sendtype);
        }
    } else if (sendbuf == MPI_IN_PLACE) {
        c.sent = c.received = (N_ - 1) * st_bytes(recvcount, recvtype);
    } else {
        c.sent = N_ * st_bytes(sendcount, sendtype);
        c.received = N_ * st_bytes(recvcount, recvtype);
    }
    return c;
}

/* Alltoallv, and Alltoallw when the type arrays are given */
struct st_coll
st_coll_alltoallv(struct st_call *k, const void *sendbuf, struct st_counts sendcounts, MPI_Datatype sendtype,
                  const MPI_Datatype *sendtypes, struct st_counts recvcounts, MPI_Datatype recvtype,
                  const MPI_Datatype *recvtypes)
{
    struct st_coll c = { recvtypes ? OTF2_COLLECTIVE_OP_ALLTOALLW : OTF2_COLLECTIVE_OP_ALLTOALLV, NO_ROOT, 0, 0 };

    if (recvtypes) {
        c.received = sum_bytes_w(recvcounts, recvtypes, k->size);
        if (sendbuf == MPI_IN_PLACE)
            c.sent = c.received = c.received - st_bytes(count_at(recvcounts, ME_), recvtypes[ME_]);
        else
            c.sent = sum_bytes_w(sendcounts, sendtypes, k->size);
        return c;
    }
    c.received = sum_bytes(recvcounts, k->size, recvtype);
    if (sendbuf == MPI_IN_PLACE)
        c.sent = c.received = c.received - st_bytes(count_at(recvcounts, ME_), recvtype);
    else
        c.sent = sum_bytes(sendcounts, k->size, sendtype);
    return c;
}

struct st_coll
st_coll_reduce_scatter(struct st_call *k, const void *sendbuf, MPI_Count recvcount, struct st_counts recvcounts,
                       MPI_Datatype type)
{
    struct st_coll c = { recvcounts.p ? OTF2_COLLECTIVE_OP_REDUCE_SCATTER : OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
                         NO_ROOT, 0, 0 };

    if (recvcounts.p) {
        uint64_t own = st_bytes(count_at(recvcounts, ME_), type);
        c.sent = sum_bytes(recvcounts, k->size, type);
        c.received = N_ * own;
        if (sendbuf == MPI_IN_PLACE) {
            c.sent -= own;
            c.received -= own;
        }
    } else {
        uint64_t n = sendbuf == MPI_IN_PLACE ? N_ - 1 : N_;
        c.sent = c.received = n * st_bytes(recvcount, type);
    }
    return c;
}

struct st_coll
st_coll_scan(struct st_call *k, int exclusive, const void *sendbuf, MPI_Count count, MPI_Datatype type)
{
    uint64_t b = st_bytes(count, type);
    struct st_coll c = { exclusive ? OTF2_COLLECTIVE_OP_EXSCAN : OTF2_COLLECTIVE_OP_SCAN, NO_ROOT, 0, 0 };

    c.sent = (N_ - (uint64_t)ME_ - (exclusive ? 1 : 0)) * b;
    c.received = ((uint64_t)ME_ + (exclusive ? 0 : 1)) * b;
    if (sendbuf == MPI_IN_PLACE && !exclusive) {
        c.sent -= b;
        c.received -= b;
    }
    return c;
}

/* Neighbourhood collectives: over the topology's out-neighbours (sent)
 * and in-neighbours (received); the operation is the global form's. */
struct st_coll
st_coll_neighbor(struct st_call *k, int op, MPI_Count sendcount, struct st_counts sendcounts, MPI_Datatype sendtype,
                 const MPI_Datatype *sendtypes, MPI_Count recvcount, struct st_counts recvcounts,
                 MPI_Datatype recvtype, const MPI_Datatype *recvtypes)
{
    int out = st_npeers(k->mcomm, 1, 1), in = st_npeers(k->mcomm, 0, 1);
    struct st_coll c = { (OTF2_CollectiveOp)op, NO_ROOT, 0, 0 };

    if (sendtypes)
        c.sent = sum_bytes_w(sendcounts, sendtypes, out);
    else if (sendcounts.p)
        c.sent = sum_bytes(sendcounts, out, sendtype);
    else
        c.sent = (uint64_t)out * st_bytes(sendcount, sendtype);
    if (recvtypes)
        c.received = sum_bytes_w(recvcounts, recvtypes, in);
    else if (recvcounts.p)
        c.received = sum_bytes(recvcounts, in, recvtype);
    else
        c.received = (uint64_t)in * st_bytes(recvcount, recvtype);
    return c;
}
