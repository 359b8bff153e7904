/* ring_allreduce — ring allreduce with point-to-point, P-1 rounds.
 *
 * Each iteration every rank computes, then in each of P-1 rounds posts an
 * MPI_Irecv from its left neighbour (r-1), an MPI_Isend of the value it
 * received in the previous round (its own at round 0) to its right
 * neighbour (r+1), and completes both with one MPI_Waitall, accumulating
 * the sum as it goes (the paper's Fig. 9). A delay on one rank walks
 * around the ring one rank per round. See README.md.
 */
#include "common.h"

#include <mpi.h>

enum { TAG_ROUND = 30 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50 };
    double sum, pass, got;
    MPI_Request req[2];
    MPI_Status st[2];
    int rank, nranks, rc, left, right, round, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "ring_allreduce",
                   "ring allreduce with Irecv/Isend/Waitall, P-1 rounds",
                   rank, nranks);
    if (rc == 0 && nranks < 3)
        rc = app_refuse(rank, "ring_allreduce", "needs at least 3 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    left = (rank + nranks - 1) % nranks;
    right = (rank + 1) % nranks;

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);
        sum = pass = rank + i;

        app_region_begin("exchange");
        for (round = 0; round < nranks - 1; round++) {
            MPI_Irecv(&got, 1, MPI_DOUBLE, left, TAG_ROUND + round,
                      MPI_COMM_WORLD, &req[0]);
            MPI_Isend(&pass, 1, MPI_DOUBLE, right, TAG_ROUND + round,
                      MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, st);
            sum += got;
            pass = got;
        }
        app_region_end("exchange");
        app_region_end("iteration");
    }
    (void)sum;
    MPI_Finalize();
    return 0;
}
