/* dissemination — dissemination all-to-all, ceil(log2 P) rounds.
 *
 * Each iteration every rank computes, then in round k (k = 0, 1, ...,
 * while 2^k < P) posts an MPI_Irecv from (r - 2^k) mod P, an MPI_Isend to
 * (r + 2^k) mod P, and completes both with one MPI_Waitall — the
 * dissemination pattern of libNBC's all-to-all and barrier (the paper's
 * Fig. 1). After the last round every rank has heard, directly or not,
 * from every other. See README.md.
 */
#include "common.h"

#include <mpi.h>

#define BLOCK 4
enum { TAG_ROUND = 40 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50 };
    double out[BLOCK], in[BLOCK];
    MPI_Request req[2];
    MPI_Status st[2];
    int rank, nranks, rc, dist, round, i, j;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "dissemination",
                   "dissemination all-to-all with Irecv/Isend/Waitall, "
                   "ceil(log2 P) rounds", rank, nranks);
    if (rc == 0 && nranks < 2)
        rc = app_refuse(rank, "dissemination", "needs at least 2 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);
        for (j = 0; j < BLOCK; j++)
            out[j] = rank * BLOCK + j + i;

        app_region_begin("exchange");
        for (round = 0, dist = 1; dist < nranks; round++, dist *= 2) {
            MPI_Irecv(in, BLOCK, MPI_DOUBLE, (rank - dist + nranks) % nranks,
                      TAG_ROUND + round, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(out, BLOCK, MPI_DOUBLE, (rank + dist) % nranks,
                      TAG_ROUND + round, MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, st);
            for (j = 0; j < BLOCK; j++)
                out[j] += in[j];
        }
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
