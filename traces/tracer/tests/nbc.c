/* nbc.c — the tracer's test of what completes later, 2 ranks:
 * non-blocking collectives of every kind (and MPI_Comm_idup, whose
 * communicator is then used), an intercommunicator (its messages, its
 * duplicate's, and its merge), persistent point-to-point and
 * collective requests (MPI_Start, MPI_Startall; MPICH's MPI_*_init,
 * Open MPI's MPIX_*_init), matched probes (Mprobe/Mrecv, Improbe/Imrecv),
 * MPI_Alltoallw, neighbourhood collectives on a ring, and MPICH's
 * large-count (_c) forms and MPI_Isendrecv. The program prints how many
 * polling calls it made ("POLL" lines, as allcalls.c does). */
#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#define PINIT(name) MPIX_##name##_init
#else
#define PINIT(name) MPI_##name##_init
#endif
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, size, peer, flag = 0, polls = 0, counts[2] = { 2, 2 }, displs[2] = { 0, 2 }, periods = 1;
    double x[4] = { 1, 2, 3, 4 }, y[8];
    MPI_Request req[12], preq[4];
    MPI_Datatype types[2] = { MPI_DOUBLE, MPI_DOUBLE };
    int bytes[2] = { 0, 2 * (int)sizeof(double) };
    MPI_Message msg;
    MPI_Status st;
    MPI_Comm ring, dup, half, inter, inter2, merged;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    counts[0] = counts[1] = 2;

    /* non-blocking collectives, completed by Waitall and Test */
    MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
    MPI_Ibcast(x, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Iallreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[2]);
    MPI_Ireduce(x, y, 4, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Iallgather(x, 2, MPI_DOUBLE, y, 2, MPI_DOUBLE, MPI_COMM_WORLD, &req[4]);
    MPI_Igather(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[5]);
    MPI_Iscatter(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[6]);
    MPI_Ialltoall(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, MPI_COMM_WORLD, &req[7]);
    MPI_Ialltoallv(x, counts, displs, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD, &req[8]);
    MPI_Iscan(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[9]);
    MPI_Ireduce_scatter_block(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[10]);
    MPI_Waitall(11, req, MPI_STATUSES_IGNORE);
    MPI_Iexscan(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[0]);
    for (flag = 0; !flag; polls++)
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);

    /* a communicator made by a non-blocking collective, then used */
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Allreduce(x, y, 2, MPI_DOUBLE, MPI_SUM, dup);
    MPI_Sendrecv(x, 1, MPI_DOUBLE, peer, 9, y, 1, MPI_DOUBLE, peer, 9, dup, MPI_STATUS_IGNORE);
    MPI_Comm_free(&dup);

    /* an intercommunicator between the two halves: point-to-point on it,
     * on its duplicate, and on the intracommunicator merged from it */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, (rank + 1) % 2, 7, &inter);
    MPI_Isend(x, 2, MPI_DOUBLE, 0, 11, inter, &req[0]);
    MPI_Irecv(y, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 11, inter, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Comm_dup(inter, &inter2);
    MPI_Sendrecv(x, 1, MPI_DOUBLE, 0, 12, y, 1, MPI_DOUBLE, 0, 12, inter2, MPI_STATUS_IGNORE);
    MPI_Intercomm_merge(inter, rank % 2, &merged);
    MPI_Allreduce(x, y, 1, MPI_DOUBLE, MPI_SUM, merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);

    /* Alltoallw, blocking and not */
    MPI_Alltoallw(x, counts, bytes, types, y, counts, bytes, types, MPI_COMM_WORLD);
    MPI_Ialltoallw(x, counts, bytes, types, y, counts, bytes, types, MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);

    /* neighbourhood collectives on a periodic ring */
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periods, 0, &ring);
    MPI_Neighbor_allgather(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, ring);
    MPI_Neighbor_alltoall(x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, ring);
    MPI_Ineighbor_alltoallv(x, counts, displs, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, ring, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);

    /* persistent point-to-point, started twice */
    MPI_Send_init(x, 2, MPI_DOUBLE, peer, 10, MPI_COMM_WORLD, &preq[0]);
    MPI_Recv_init(y, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD, &preq[1]);
    for (int i = 0; i < 2; i++) {
        MPI_Startall(2, preq);
        MPI_Waitall(2, preq, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&preq[0]);
    MPI_Request_free(&preq[1]);

    /* persistent collectives */
    PINIT(Allreduce)(x, y, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &preq[2]);
    PINIT(Bcast)(x, 2, MPI_DOUBLE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &preq[3]);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&preq[2]);
        MPI_Wait(&preq[2], MPI_STATUS_IGNORE);
        MPI_Start(&preq[3]);
        MPI_Wait(&preq[3], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&preq[2]);
    MPI_Request_free(&preq[3]);

    /* matched probes */
    MPI_Send(x, 3, MPI_DOUBLE, peer, 20, MPI_COMM_WORLD);
    MPI_Mprobe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(y, 3, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE);
    MPI_Isend(x, 4, MPI_DOUBLE, peer, 21, MPI_COMM_WORLD, &req[0]);
    for (flag = 0; !flag; polls++)
        MPI_Improbe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
    MPI_Imrecv(y, 4, MPI_DOUBLE, &msg, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Send(x, 1, MPI_DOUBLE, peer, 22, MPI_COMM_WORLD);
    MPI_Probe(MPI_ANY_SOURCE, 22, MPI_COMM_WORLD, &st);
    MPI_Recv(y, 1, MPI_DOUBLE, st.MPI_SOURCE, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

#if !defined(OPEN_MPI)
    /* MPI-4 in MPICH: large counts and Isendrecv */
    MPI_Send_c(x, (MPI_Count)2, MPI_DOUBLE, peer, 30, MPI_COMM_WORLD);
    MPI_Recv_c(y, (MPI_Count)2, MPI_DOUBLE, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce_c(x, y, (MPI_Count)4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Isendrecv(x, 2, MPI_DOUBLE, peer, 31, y, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
#else
    MPI_Send(x, 2, MPI_DOUBLE, peer, 30, MPI_COMM_WORLD);
    MPI_Recv(y, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#endif
    printf("POLL rank %d polls %d\n", rank, polls);
    MPI_Finalize();
    return 0;
}
