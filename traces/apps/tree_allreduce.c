/* tree_allreduce — binomial-tree allreduce written with point-to-point.
 *
 * P must be a power of two. Each iteration every rank computes, then the
 * values are reduced up a binomial tree with blocking MPI_Send/MPI_Recv
 * (level k: ranks whose lowest set bit is k send to r - 2^k) and the sum is
 * broadcast back down the same tree (level k: r sends to r + 2^k), the
 * libNBC-style algorithm of the paper's Fig. 8. The tree levels must come
 * out as logical steps. See README.md.
 */
#include "common.h"

#include <mpi.h>

enum { TAG_UP = 20, TAG_DOWN = 21 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50 };
    double value, incoming;
    int rank, nranks, rc, levels, k, top, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "tree_allreduce",
                   "binomial-tree allreduce with blocking Send/Recv (reduce "
                   "up, broadcast down)", rank, nranks);
    if (rc == 0 && (nranks < 2 || (nranks & (nranks - 1)) != 0))
        rc = app_refuse(rank, "tree_allreduce",
                        "needs a power-of-two rank count >= 2");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    for (levels = 0; (1 << levels) < nranks; levels++)
        ;

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);
        value = rank + i;

        app_region_begin("exchange");
        app_region_begin("reduce");
        /* A rank receives at every level below its lowest set bit, then
         * sends to its parent at that level; rank 0 only receives. */
        top = levels;
        for (k = 0; k < levels; k++) {
            if (rank & (1 << k)) {
                MPI_Send(&value, 1, MPI_DOUBLE, rank - (1 << k), TAG_UP,
                         MPI_COMM_WORLD);
                top = k;
                break;
            }
            MPI_Recv(&incoming, 1, MPI_DOUBLE, rank + (1 << k), TAG_UP,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            value += incoming;
        }
        app_region_end("reduce");

        app_region_begin("bcast");
        if (rank != 0)
            MPI_Recv(&value, 1, MPI_DOUBLE, rank - (1 << top), TAG_DOWN,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = top - 1; k >= 0; k--)
            MPI_Send(&value, 1, MPI_DOUBLE, rank + (1 << k), TAG_DOWN,
                     MPI_COMM_WORLD);
        app_region_end("bcast");
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
