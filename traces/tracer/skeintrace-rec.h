/* skeintrace-rec.h — what the generated wrappers record: for each kind of
 * mpi.def's record column, rk_KIND_pre(k, args) runs after Enter and
 * before the MPI call, rk_KIND_post(k, rc, args) after it and before Leave.
 * The arguments are the C values of the parameters mpi.def names (the
 * Fortran wrappers convert theirs first), so one hook serves every MPI
 * function of its kind in both languages. */
#ifndef SKEINTRACE_REC_H
#define SKEINTRACE_REC_H

#include "skeintrace-int.h"

/* ---- point-to-point (skeintrace-p2p.c) ------------------------------------ */

void st_send(struct st_call *k, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
void st_isend_pre(struct st_call *k, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
void st_isend_post(struct st_call *k, int rc, MPI_Count count, MPI_Datatype type, int dest, int tag,
                   MPI_Request *request);
void st_recv(struct st_call *k, int rc, int source, MPI_Comm comm, MPI_Status *status);
void st_irecv(struct st_call *k, int rc, int source, MPI_Comm comm, MPI_Request *request);
void st_isendrecv(struct st_call *k, int rc, MPI_Count count, MPI_Datatype type, int dest, int tag, int source,
                  int recvtag, MPI_Comm comm, MPI_Request *request);
void st_mprobe(struct st_call *k, int rc, MPI_Comm comm, int flag, MPI_Message *message);
void st_mrecv_pre(struct st_call *k, MPI_Message *message);
void st_mrecv(struct st_call *k, int rc, MPI_Status *status);
void st_imrecv(struct st_call *k, int rc, MPI_Request *request);
void st_send_init(struct st_call *k, int rc, int kind, MPI_Count count, MPI_Datatype type, int peer, int tag,
                  MPI_Comm comm, MPI_Request *request);
void st_start_pre(struct st_call *k, int n, const MPI_Request *requests);
void st_start_post(struct st_call *k, int rc, int n);
void st_wait_pre(struct st_call *k, int n, const MPI_Request *requests);
enum { ST_ALL, ST_ANY, ST_SOME };
void st_wait_post(struct st_call *k, int rc, int how, int n, int done, const int *index, const int *indices,
                  MPI_Status *statuses);
/* The same for the mpi_f08 entry points of the -any and -some forms, whose
 * indices are checked against the requests the call completed (after: the
 * handles after the call): MPICH 4.0's are 0-based. */
void st_wait_post_f08(struct st_call *k, int rc, int how, int n, int done, const int *index, const int *indices,
                      MPI_Status *statuses, const MPI_Request *after);
void st_request_free(struct st_call *k, int rc);

#define rk_send_pre(k, count, type, dest, tag, comm) st_send(k, count, type, dest, tag, comm)
#define rk_send_post(k, rc, count, type, dest, tag, comm) ((void)0)
#define rk_isend_pre(k, count, type, dest, tag, comm, req) st_isend_pre(k, count, type, dest, tag, comm)
#define rk_isend_post(k, rc, count, type, dest, tag, comm, req) st_isend_post(k, rc, count, type, dest, tag, req)
#define rk_recv_pre(k, source, comm, status) ((void)0)
#define rk_recv_post(k, rc, source, comm, status) st_recv(k, rc, source, comm, status)
#define rk_irecv_pre(k, source, comm, req) ((void)0)
#define rk_irecv_post(k, rc, source, comm, req) st_irecv(k, rc, source, comm, req)
#define rk_sendrecv_pre(k, count, type, dest, tag, source, comm, status) st_send(k, count, type, dest, tag, comm)
#define rk_sendrecv_post(k, rc, count, type, dest, tag, source, comm, status) st_recv(k, rc, source, comm, status)
#define rk_isendrecv_pre(k, count, type, dest, tag, source, recvtag, comm, req) ((void)0)
#define rk_isendrecv_post(k, rc, count, type, dest, tag, source, recvtag, comm, req) \
    st_isendrecv(k, rc, count, type, dest, tag, source, recvtag, comm, req)
#define rk_mprobe_pre(k, comm, message) ((void)0)
#define rk_mprobe_post(k, rc, comm, message) st_mprobe(k, rc, comm, 1, message)
#define rk_improbe_pre(k, comm, flag, message) ((void)0)
#define rk_improbe_post(k, rc, comm, flag, message) st_mprobe(k, rc, comm, *(flag), message)
#define rk_mrecv_pre(k, message, status) st_mrecv_pre(k, message)
#define rk_mrecv_post(k, rc, message, status) st_mrecv(k, rc, status)
#define rk_imrecv_pre(k, message, req) st_mrecv_pre(k, message)
#define rk_imrecv_post(k, rc, message, req) st_imrecv(k, rc, req)
#define rk_send_init_pre(k, count, type, dest, tag, comm, req) ((void)0)
#define rk_send_init_post(k, rc, count, type, dest, tag, comm, req) \
    st_send_init(k, rc, REQ_SEND, count, type, dest, tag, comm, req)
#define rk_recv_init_pre(k, source, comm, req) ((void)0)
#define rk_recv_init_post(k, rc, source, comm, req) \
    st_send_init(k, rc, REQ_RECV, 0, MPI_DATATYPE_NULL, source, 0, comm, req)
#define rk_start_pre(k, req) st_start_pre(k, 1, req)
#define rk_start_post(k, rc, req) st_start_post(k, rc, 1)
#define rk_startall_pre(k, n, reqs) st_start_pre(k, n, reqs)
#define rk_startall_post(k, rc, n, reqs) st_start_post(k, rc, n)
#define rk_wait_pre(k, req, status) st_wait_pre(k, 1, req)
#define rk_wait_post(k, rc, req, status) st_wait_post(k, rc, ST_ALL, 1, 1, NULL, NULL, status)
#define rk_test_pre(k, req, flag, status) st_wait_pre(k, 1, req)
#define rk_test_post(k, rc, req, flag, status) st_wait_post(k, rc, ST_ALL, 1, *(flag), NULL, NULL, status)
#define rk_waitall_pre(k, n, reqs, statuses) st_wait_pre(k, n, reqs)
#define rk_waitall_post(k, rc, n, reqs, statuses) st_wait_post(k, rc, ST_ALL, n, 1, NULL, NULL, statuses)
#define rk_testall_pre(k, n, reqs, flag, statuses) st_wait_pre(k, n, reqs)
#define rk_testall_post(k, rc, n, reqs, flag, statuses) st_wait_post(k, rc, ST_ALL, n, *(flag), NULL, NULL, statuses)
#define rk_waitany_pre(k, n, reqs, index, status) st_wait_pre(k, n, reqs)
#define rk_waitany_post(k, rc, n, reqs, index, status) st_wait_post(k, rc, ST_ANY, n, 1, index, NULL, status)
#define rk_testany_pre(k, n, reqs, index, flag, status) st_wait_pre(k, n, reqs)
#define rk_testany_post(k, rc, n, reqs, index, flag, status) \
    st_wait_post(k, rc, ST_ANY, n, *(flag), index, NULL, status)
#define rk_waitsome_pre(k, n, reqs, outcount, indices, statuses) st_wait_pre(k, n, reqs)
#define rk_waitsome_post(k, rc, n, reqs, outcount, indices, statuses) \
    st_wait_post(k, rc, ST_SOME, n, 1, outcount, indices, statuses)
#define rk_testsome_pre rk_waitsome_pre
#define rk_testsome_post rk_waitsome_post
/* mpi.def's f08rec(): the mpi_f08 entry points of the four */
#define rk_waitany_f08_pre rk_waitany_pre
#define rk_waitany_f08_post(k, rc, n, reqs, index, status) \
    st_wait_post_f08(k, rc, ST_ANY, n, 1, index, NULL, status, reqs)
#define rk_testany_f08_pre rk_testany_pre
#define rk_testany_f08_post(k, rc, n, reqs, index, flag, status) \
    st_wait_post_f08(k, rc, ST_ANY, n, *(flag), index, NULL, status, reqs)
#define rk_waitsome_f08_pre rk_waitsome_pre
#define rk_waitsome_f08_post(k, rc, n, reqs, outcount, indices, statuses) \
    st_wait_post_f08(k, rc, ST_SOME, n, 1, outcount, indices, statuses, reqs)
#define rk_testsome_f08_pre rk_waitsome_pre
#define rk_testsome_f08_post rk_waitsome_f08_post
#define rk_request_free_pre(k, req) st_wait_pre(k, 1, req)
#define rk_request_free_post(k, rc, req) st_request_free(k, rc)
/* counted as not recorded; the argument says why, in mpi.def */
#define rk_unrecorded_pre(k, why) st_unrecorded((k)->fn, ST_WHY_KIND)
#define rk_unrecorded_post(k, rc, why) ((void)0)
/* MPI-IO: the region, counted (reported, but not communication) */
#define rk_io_pre(k) st_unrecorded((k)->fn, ST_WHY_IO)
#define rk_io_post(k, rc) ((void)0)

/* ---- collectives (skeintrace-coll.c) ------------------------------------------- */

/* What one member contributes to a collective: Score-P's byte counts. */
struct st_coll {
    OTF2_CollectiveOp op;
    uint32_t root;
    uint64_t sent, received;
};
/* An array of counts, int or MPI_Count. */
struct st_counts {
    const void *p;
    int wide;
};
#define ST_COUNTS(x) \
    _Generic((x), const int *: st_counts_int, int *: st_counts_int, const MPI_Count *: st_counts_wide, \
             MPI_Count *: st_counts_wide)(x)
static inline struct st_counts
st_counts_int(const int *p)
{
    return (struct st_counts){ p, 0 };
}
static inline struct st_counts
st_counts_wide(const MPI_Count *p)
{
    return (struct st_counts){ p, 1 };
}

void st_coll_pre(struct st_call *k, int mode, MPI_Comm comm);
void st_coll_post(struct st_call *k, int rc, MPI_Request *request, struct st_coll c);
struct st_coll st_coll_barrier(struct st_call *k, int unused);
struct st_coll st_coll_bcast(struct st_call *k, MPI_Count count, MPI_Datatype type, int root);
struct st_coll st_coll_gather(struct st_call *k, int vector, const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, MPI_Count recvcount, struct st_counts recvcounts,
                              MPI_Datatype recvtype, int root);
struct st_coll st_coll_scatter(struct st_call *k, int vector, MPI_Count sendcount, struct st_counts sendcounts,
                               MPI_Datatype sendtype, const void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype recvtype, int root);
struct st_coll st_coll_reduce(struct st_call *k, const void *sendbuf, MPI_Count count, MPI_Datatype type,
                              int root);
struct st_coll st_coll_allreduce(struct st_call *k, const void *sendbuf, MPI_Count count, MPI_Datatype type);
struct st_coll st_coll_allgather(struct st_call *k, int op, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, MPI_Count recvcount, struct st_counts recvcounts,
                                 MPI_Datatype recvtype);
struct st_coll st_coll_alltoallv(struct st_call *k, const void *sendbuf, struct st_counts sendcounts,
                                 MPI_Datatype sendtype, const MPI_Datatype *sendtypes, struct st_counts recvcounts,
                                 MPI_Datatype recvtype, const MPI_Datatype *recvtypes);
struct st_coll st_coll_reduce_scatter(struct st_call *k, const void *sendbuf, MPI_Count recvcount,
                                      struct st_counts recvcounts, MPI_Datatype type);
struct st_coll st_coll_scan(struct st_call *k, int exclusive, const void *sendbuf, MPI_Count count,
                            MPI_Datatype type);
struct st_coll st_coll_neighbor(struct st_call *k, int op, MPI_Count sendcount, struct st_counts sendcounts,
                                MPI_Datatype sendtype, const MPI_Datatype *sendtypes, MPI_Count recvcount,
                                struct st_counts recvcounts, MPI_Datatype recvtype,
                                const MPI_Datatype *recvtypes);

#define ST_NO_COUNTS ((struct st_counts){ NULL, 0 })
#define coll_barrier(k, unused) st_coll_barrier(k, unused)
#define coll_bcast(k, count, type, root) st_coll_bcast(k, count, type, root)
#define coll_gather(k, sb, sc, st, rc, rt, root) st_coll_gather(k, 0, sb, sc, st, rc, ST_NO_COUNTS, rt, root)
#define coll_gatherv(k, sb, sc, st, rcs, rt, root) st_coll_gather(k, 1, sb, sc, st, 0, ST_COUNTS(rcs), rt, root)
#define coll_scatter(k, sc, st, rb, rc, rt, root) st_coll_scatter(k, 0, sc, ST_NO_COUNTS, st, rb, rc, rt, root)
#define coll_scatterv(k, scs, st, rb, rc, rt, root) st_coll_scatter(k, 1, 0, ST_COUNTS(scs), st, rb, rc, rt, root)
#define coll_reduce(k, sb, count, type, root) st_coll_reduce(k, sb, count, type, root)
#define coll_allreduce(k, sb, count, type) st_coll_allreduce(k, sb, count, type)
#define coll_allgather(k, sb, sc, st, rc, rt) \
    st_coll_allgather(k, OTF2_COLLECTIVE_OP_ALLGATHER, sb, sc, st, rc, ST_NO_COUNTS, rt)
#define coll_allgatherv(k, sb, sc, st, rcs, rt) \
    st_coll_allgather(k, OTF2_COLLECTIVE_OP_ALLGATHERV, sb, sc, st, 0, ST_COUNTS(rcs), rt)
#define coll_alltoall(k, sb, sc, st, rc, rt) \
    st_coll_allgather(k, OTF2_COLLECTIVE_OP_ALLTOALL, sb, sc, st, rc, ST_NO_COUNTS, rt)
#define coll_alltoallv(k, sb, scs, st, rcs, rt) \
    st_coll_alltoallv(k, sb, ST_COUNTS(scs), st, NULL, ST_COUNTS(rcs), rt, NULL)
#define coll_alltoallw(k, sb, scs, sts, rcs, rts) \
    st_coll_alltoallv(k, sb, ST_COUNTS(scs), MPI_DATATYPE_NULL, sts, ST_COUNTS(rcs), MPI_DATATYPE_NULL, rts)
#define coll_reduce_scatter(k, sb, rcs, type) st_coll_reduce_scatter(k, sb, 0, ST_COUNTS(rcs), type)
#define coll_reduce_scatter_block(k, sb, rc, type) st_coll_reduce_scatter(k, sb, rc, ST_NO_COUNTS, type)
#define coll_scan(k, sb, count, type) st_coll_scan(k, 0, sb, count, type)
#define coll_exscan(k, sb, count, type) st_coll_scan(k, 1, sb, count, type)
#define coll_neighbor_allgather(k, sc, st, rc, rt) \
    st_coll_neighbor(k, OTF2_COLLECTIVE_OP_ALLGATHER, sc, ST_NO_COUNTS, st, NULL, rc, ST_NO_COUNTS, rt, NULL)
#define coll_neighbor_allgatherv(k, sc, st, rcs, rt) \
    st_coll_neighbor(k, OTF2_COLLECTIVE_OP_ALLGATHERV, sc, ST_NO_COUNTS, st, NULL, 0, ST_COUNTS(rcs), rt, NULL)
#define coll_neighbor_alltoall(k, sc, st, rc, rt) \
    st_coll_neighbor(k, OTF2_COLLECTIVE_OP_ALLTOALL, sc, ST_NO_COUNTS, st, NULL, rc, ST_NO_COUNTS, rt, NULL)
#define coll_neighbor_alltoallv(k, scs, st, rcs, rt) \
    st_coll_neighbor(k, OTF2_COLLECTIVE_OP_ALLTOALLV, 0, ST_COUNTS(scs), st, NULL, 0, ST_COUNTS(rcs), rt, NULL)
#define coll_neighbor_alltoallw(k, scs, sts, rcs, rts) \
    st_coll_neighbor(k, OTF2_COLLECTIVE_OP_ALLTOALLW, 0, ST_COUNTS(scs), MPI_DATATYPE_NULL, sts, 0, \
                     ST_COUNTS(rcs), MPI_DATATYPE_NULL, rts)

#define rk_coll_pre(k, mode, shape, comm, req, ...) st_coll_pre(k, ST_##mode, comm)
#define rk_coll_post(k, rc, mode, shape, comm, req, ...) st_coll_post(k, rc, req, coll_##shape(k, __VA_ARGS__))

/* ---- communicators (skeintrace-comm.c) ------------------------------------------ */

void st_comm_idup(struct st_call *k, int rc, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
#define rk_comm_create_pre(k, parent, newcomm) ((void)0)
#define rk_comm_create_post(k, rc, parent, newcomm) \
    ((rc) == MPI_SUCCESS ? st_comm_register(*(newcomm), parent) : (void)0)
#define rk_comm_idup_pre(k, comm, newcomm, req) ((void)0)
#define rk_comm_idup_post(k, rc, comm, newcomm, req) st_comm_idup(k, rc, comm, newcomm, req)

/* ---- one-sided (skeintrace-rma.c) ------------------------------------------------- */

void st_win_create_post(struct st_call *k, int rc, MPI_Comm comm, MPI_Win *win, OTF2_CollectiveOp op);
void st_win_free_pre(struct st_call *k, MPI_Win win);
void st_win_free_post(struct st_call *k, int rc);
void st_rma(struct st_call *k, int rc, OTF2_RmaAtomicType type, MPI_Count sent, MPI_Datatype sendtype,
            MPI_Count received, MPI_Datatype recvtype, int target, MPI_Win win, MPI_Request *request);
void st_win_fence_pre(struct st_call *k, MPI_Win win);
void st_win_fence_post(struct st_call *k, int rc);
void st_win_group(struct st_call *k, int rc, int which, MPI_Group group, MPI_Win win, int flag);
void st_win_lock(struct st_call *k, int lock_type, int rank, MPI_Win win);
void st_win_unlock(struct st_call *k, int rc, int rank, MPI_Win win);
void st_win_flush(struct st_call *k, int rc, int rank, MPI_Win win);
void st_win_sync(struct st_call *k, int rc, MPI_Win win);

/* RMA operation kinds beyond OTF2's atomic types */
#define ST_RMA_PUT ((OTF2_RmaAtomicType)100)
#define ST_RMA_GET ((OTF2_RmaAtomicType)101)
enum { ST_PSCW_POST, ST_PSCW_START, ST_PSCW_COMPLETE, ST_PSCW_WAIT };
/* the rank of lock_all, unlock_all and flush_all: every rank of the window
 * (neither MPI_PROC_NULL nor MPI_ANY_SOURCE in either MPI) */
#define ST_ALL_RANKS INT32_MIN

#define rk_win_create_pre(k, comm, win, op) ((void)0)
#define rk_win_create_post(k, rc, comm, win, op) st_win_create_post(k, rc, comm, win, op)
#define rk_win_free_pre(k, win) st_win_free_pre(k, *(win))
#define rk_win_free_post(k, rc, win) st_win_free_post(k, rc)
/* mpi.def names the kind of an operation: rma(PUT, ...) */
#define ST_RMA_TYPE_PUT ST_RMA_PUT
#define ST_RMA_TYPE_GET ST_RMA_GET
#define ST_RMA_TYPE_ACCUMULATE OTF2_RMA_ATOMIC_TYPE_ACCUMULATE
#define ST_RMA_TYPE_FETCH_AND_ACCUMULATE OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE
#define ST_RMA_TYPE_COMPARE_AND_SWAP OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP
#define rk_rma_pre(k, type, scount, stype, rcount, rtype, target, win, req) ((void)0)
#define rk_rma_post(k, rc, type, scount, stype, rcount, rtype, target, win, req) \
    st_rma(k, rc, ST_RMA_TYPE_##type, scount, stype, rcount, rtype, target, win, req)
#define rk_win_fence_pre(k, win) st_win_fence_pre(k, win)
#define rk_win_fence_post(k, rc, win) st_win_fence_post(k, rc)
#define rk_win_post_pre(k, group, win) ((void)0)
#define rk_win_post_post(k, rc, group, win) st_win_group(k, rc, ST_PSCW_POST, group, win, 1)
#define rk_win_start_pre(k, group, win) ((void)0)
#define rk_win_start_post(k, rc, group, win) st_win_group(k, rc, ST_PSCW_START, group, win, 1)
#define rk_win_complete_pre(k, win) ((void)0)
#define rk_win_complete_post(k, rc, win) st_win_group(k, rc, ST_PSCW_COMPLETE, MPI_GROUP_NULL, win, 1)
#define rk_win_wait_pre(k, win) ((void)0)
#define rk_win_wait_post(k, rc, win) st_win_group(k, rc, ST_PSCW_WAIT, MPI_GROUP_NULL, win, 1)
#define rk_win_test_pre(k, win, flag) ((void)0)
#define rk_win_test_post(k, rc, win, flag) st_win_group(k, rc, ST_PSCW_WAIT, MPI_GROUP_NULL, win, *(flag))
#define rk_win_lock_pre(k, type, rank, win) st_win_lock(k, type, rank, win)
#define rk_win_lock_post(k, rc, type, rank, win) ((void)0)
#define rk_win_unlock_pre(k, rank, win) ((void)0)
#define rk_win_unlock_post(k, rc, rank, win) st_win_unlock(k, rc, rank, win)
#define rk_win_flush_pre(k, rank, win) ((void)0)
#define rk_win_flush_post(k, rc, rank, win) st_win_flush(k, rc, rank, win)
#define rk_win_sync_pre(k, win) ((void)0)
#define rk_win_sync_post(k, rc, win) st_win_sync(k, rc, win)

#endif
