/* skeintrace-coll.c — blocking collective wrappers.
 *
 * Each writes Enter, MpiCollectiveBegin (same timestamp), the call,
 * MpiCollectiveEnd with operation, communicator, root (a rank in the
 * communicator; undefined for rootless operations) and byte counts, then
 * Leave. The byte counts follow what Score-P records (observed in the
 * Score-P traces in ../shared/traces): N is the communicator size, b the
 * bytes of one contribution.
 *
 *   Bcast       root sends N*b, everyone receives b
 *   Gather(v)   everyone sends b, root receives N*b (sum of counts)
 *   Scatter(v)  root sends N*b (sum of counts), everyone receives b
 *   Reduce      everyone sends b, root receives N*b
 *   Allreduce, Allgather(v), Alltoall(v)   N*b each way (sums for -v)
 *   Reduce_scatter(_block)   sends the whole input, receives N times its block
 *   Scan / Exscan   sends (N-me)*b / (N-me-1)*b, receives (me+1)*b / me*b
 *   Barrier     0 and 0
 *
 * With MPI_IN_PLACE the rank's contribution to itself is not counted. */
#include "skeintrace-int.h"

#define NO_ROOT OTF2_UNDEFINED_UINT32

static int
coll_begin(enum st_region r, MPI_Comm comm)
{
    uint64_t t0 = st_enter(r);
    int c = st_comm_lookup(comm);

    if (c >= 0)
        st_check(OTF2_EvtWriter_MpiCollectiveBegin(st.evt, NULL, t0), "MpiCollectiveBegin");
    return c;
}

static void
coll_end(enum st_region r, int c, OTF2_CollectiveOp op, uint32_t root, uint64_t sent, uint64_t received)
{
    uint64_t t1 = st_now();

    if (c >= 0)
        st_check(OTF2_EvtWriter_MpiCollectiveEnd(st.evt, NULL, t1, op, (OTF2_CommRef)c, root, sent, received),
                 "MpiCollectiveEnd");
    st_leave(t1, r);
}

static uint64_t
sum_bytes(const int counts[], int n, MPI_Datatype type)
{
    uint64_t one = st_bytes(1, type), total = 0;

    for (int i = 0; i < n; i++)
        if (counts[i] > 0)
            total += (uint64_t)counts[i];
    return total * one;
}

/* size and rank of the tracked communicator c */
#define N_ ((uint64_t)st.comms[c].size)
#define ME_ (st.comms[c].myrank)

int
MPI_Barrier(MPI_Comm comm)
{
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Barrier(comm);
    c = coll_begin(ST_R_BARRIER, comm);
    rc = PMPI_Barrier(comm);
    coll_end(ST_R_BARRIER, c, OTF2_COLLECTIVE_OP_BARRIER, NO_ROOT, 0, 0);
    return rc;
}

int
MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    uint64_t b, sent = 0;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Bcast(buf, count, type, root, comm);
    c = coll_begin(ST_R_BCAST, comm);
    rc = PMPI_Bcast(buf, count, type, root, comm);
    if (c < 0)
        return coll_end(ST_R_BCAST, c, 0, 0, 0, 0), rc;
    b = st_bytes(count, type);
    if (ME_ == root)
        sent = N_ * b;
    coll_end(ST_R_BCAST, c, OTF2_COLLECTIVE_OP_BCAST, (uint32_t)root, sent, b);
    return rc;
}

static int
gather_common(int vector, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    enum st_region r = vector ? ST_R_GATHERV : ST_R_GATHER;
    uint64_t sent = 0, received = 0;
    int in_place = sendbuf == MPI_IN_PLACE;
    int c = coll_begin(r, comm), rc;

    if (vector)
        rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    else
        rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    if (c < 0)
        return coll_end(r, c, 0, 0, 0, 0), rc;
    if (ME_ == root) {
        uint64_t own = st_bytes(vector ? recvcounts[ME_] : recvcount, recvtype);
        received = vector ? sum_bytes(recvcounts, (int)N_, recvtype) : N_ * own;
        if (in_place)
            received -= own;
        else
            sent = st_bytes(sendcount, sendtype);
    } else {
        sent = st_bytes(sendcount, sendtype);
    }
    coll_end(r, c, vector ? OTF2_COLLECTIVE_OP_GATHERV : OTF2_COLLECTIVE_OP_GATHER, (uint32_t)root, sent,
             received);
    return rc;
}

int
MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return gather_common(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, comm);
}

int
MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
            const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    return gather_common(1, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, root, comm);
}

static int
scatter_common(int vector, const void *sendbuf, int sendcount, const int sendcounts[], const int displs[],
               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    enum st_region r = vector ? ST_R_SCATTERV : ST_R_SCATTER;
    uint64_t sent = 0, received = 0;
    int in_place = recvbuf == MPI_IN_PLACE;
    int c = coll_begin(r, comm), rc;

    if (vector)
        rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    else
        rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    if (c < 0)
        return coll_end(r, c, 0, 0, 0, 0), rc;
    if (ME_ == root) {
        uint64_t own = st_bytes(vector ? sendcounts[ME_] : sendcount, sendtype);
        sent = vector ? sum_bytes(sendcounts, (int)N_, sendtype) : N_ * own;
        if (in_place)
            sent -= own;
        else
            received = st_bytes(recvcount, recvtype);
    } else {
        received = st_bytes(recvcount, recvtype);
    }
    coll_end(r, c, vector ? OTF2_COLLECTIVE_OP_SCATTERV : OTF2_COLLECTIVE_OP_SCATTER, (uint32_t)root, sent,
             received);
    return rc;
}

int
MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return scatter_common(0, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int
MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return scatter_common(1, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int
MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    uint64_t b, sent, received = 0;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    c = coll_begin(ST_R_REDUCE, comm);
    rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    if (c < 0)
        return coll_end(ST_R_REDUCE, c, 0, 0, 0, 0), rc;
    b = st_bytes(count, type);
    sent = b;
    if (ME_ == root) {
        received = N_ * b;
        if (sendbuf == MPI_IN_PLACE) {
            sent = 0;
            received -= b;
        }
    }
    coll_end(ST_R_REDUCE, c, OTF2_COLLECTIVE_OP_REDUCE, (uint32_t)root, sent, received);
    return rc;
}

int
MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    uint64_t n;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    c = coll_begin(ST_R_ALLREDUCE, comm);
    rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    if (c < 0)
        return coll_end(ST_R_ALLREDUCE, c, 0, 0, 0, 0), rc;
    n = sendbuf == MPI_IN_PLACE ? N_ - 1 : N_;
    coll_end(ST_R_ALLREDUCE, c, OTF2_COLLECTIVE_OP_ALLREDUCE, NO_ROOT, n * st_bytes(count, type),
             n * st_bytes(count, type));
    return rc;
}

int
MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm)
{
    uint64_t sent, received;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    c = coll_begin(ST_R_ALLGATHER, comm);
    rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (c < 0)
        return coll_end(ST_R_ALLGATHER, c, 0, 0, 0, 0), rc;
    if (sendbuf == MPI_IN_PLACE)
        sent = received = (N_ - 1) * st_bytes(recvcount, recvtype);
    else {
        sent = N_ * st_bytes(sendcount, sendtype);
        received = N_ * st_bytes(recvcount, recvtype);
    }
    coll_end(ST_R_ALLGATHER, c, OTF2_COLLECTIVE_OP_ALLGATHER, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
               const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    uint64_t sent, received;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    c = coll_begin(ST_R_ALLGATHERV, comm);
    rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    if (c < 0)
        return coll_end(ST_R_ALLGATHERV, c, 0, 0, 0, 0), rc;
    received = sum_bytes(recvcounts, (int)N_, recvtype);
    if (sendbuf == MPI_IN_PLACE) {
        uint64_t own = st_bytes(recvcounts[ME_], recvtype);
        received -= own;
        sent = (N_ - 1) * own;
    } else {
        sent = N_ * st_bytes(sendcount, sendtype);
    }
    coll_end(ST_R_ALLGATHERV, c, OTF2_COLLECTIVE_OP_ALLGATHERV, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm)
{
    uint64_t sent, received;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    c = coll_begin(ST_R_ALLTOALL, comm);
    rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (c < 0)
        return coll_end(ST_R_ALLTOALL, c, 0, 0, 0, 0), rc;
    if (sendbuf == MPI_IN_PLACE)
        sent = received = (N_ - 1) * st_bytes(recvcount, recvtype);
    else {
        sent = N_ * st_bytes(sendcount, sendtype);
        received = N_ * st_bytes(recvcount, recvtype);
    }
    coll_end(ST_R_ALLTOALL, c, OTF2_COLLECTIVE_OP_ALLTOALL, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    uint64_t sent, received;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                              comm);
    c = coll_begin(ST_R_ALLTOALLV, comm);
    rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    if (c < 0)
        return coll_end(ST_R_ALLTOALLV, c, 0, 0, 0, 0), rc;
    received = sum_bytes(recvcounts, (int)N_, recvtype);
    if (sendbuf == MPI_IN_PLACE)
        sent = received = received - st_bytes(recvcounts[ME_], recvtype);
    else
        sent = sum_bytes(sendcounts, (int)N_, sendtype);
    coll_end(ST_R_ALLTOALLV, c, OTF2_COLLECTIVE_OP_ALLTOALLV, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    uint64_t sent, received, own;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
    c = coll_begin(ST_R_REDUCE_SCATTER, comm);
    rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
    if (c < 0)
        return coll_end(ST_R_REDUCE_SCATTER, c, 0, 0, 0, 0), rc;
    own = st_bytes(recvcounts[ME_], type);
    sent = sum_bytes(recvcounts, (int)N_, type);
    received = N_ * own;
    if (sendbuf == MPI_IN_PLACE) {
        sent -= own;
        received -= own;
    }
    coll_end(ST_R_REDUCE_SCATTER, c, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                         MPI_Comm comm)
{
    uint64_t n, b;
    int c, rc;

    if (st_tl != ST_IDLE)
        return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
    c = coll_begin(ST_R_REDUCE_SCATTER_BLOCK, comm);
    rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
    if (c < 0)
        return coll_end(ST_R_REDUCE_SCATTER_BLOCK, c, 0, 0, 0, 0), rc;
    b = st_bytes(recvcount, type);
    n = sendbuf == MPI_IN_PLACE ? N_ - 1 : N_;
    coll_end(ST_R_REDUCE_SCATTER_BLOCK, c, OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, NO_ROOT, n * b, n * b);
    return rc;
}

static int
scan_common(int exclusive, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
            MPI_Comm comm)
{
    enum st_region r = exclusive ? ST_R_EXSCAN : ST_R_SCAN;
    uint64_t b, sent, received;
    int c = coll_begin(r, comm), rc;

    rc = exclusive ? PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm)
                   : PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
    if (c < 0)
        return coll_end(r, c, 0, 0, 0, 0), rc;
    b = st_bytes(count, type);
    sent = (N_ - (uint64_t)ME_ - (exclusive ? 1 : 0)) * b;
    received = ((uint64_t)ME_ + (exclusive ? 0 : 1)) * b;
    if (sendbuf == MPI_IN_PLACE && !exclusive) {
        sent -= b;
        received -= b;
    }
    coll_end(r, c, exclusive ? OTF2_COLLECTIVE_OP_EXSCAN : OTF2_COLLECTIVE_OP_SCAN, NO_ROOT, sent, received);
    return rc;
}

int
MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
    return scan_common(0, sendbuf, recvbuf, count, type, op, comm);
}

int
MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (st_tl != ST_IDLE)
        return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
    return scan_common(1, sendbuf, recvbuf, count, type, op, comm);
}
