/* butterfly — recursive-doubling exchange with MPI_Sendrecv.
 *
 * Each iteration every rank computes, then in round k (mask = 2^k, while
 * mask < P) exchanges a block with its partner r XOR mask in one
 * MPI_Sendrecv and adds what it received: the butterfly of a
 * recursive-doubling allreduce. Each round pairs the ranks, so a round is
 * P/2 separate two-rank exchanges; a delay on one rank reaches 2, 4, 8 …
 * ranks after the rounds. See README.md.
 */
#include "common.h"

#include <mpi.h>

#define BLOCK 4
enum { TAG_ROUND = 60 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50 };
    double out[BLOCK], in[BLOCK];
    int rank, nranks, rc, mask, round, i, j;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "butterfly",
                   "recursive-doubling exchange, one MPI_Sendrecv per round "
                   "with rank XOR 2^k", rank, nranks);
    if (rc == 0 && (nranks < 2 || (nranks & (nranks - 1)) != 0))
        rc = app_refuse(rank, "butterfly", "needs a power of two ranks, at least 2");
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
        for (round = 0, mask = 1; mask < nranks; round++, mask *= 2) {
            MPI_Sendrecv(out, BLOCK, MPI_DOUBLE, rank ^ mask, TAG_ROUND + round,
                         in, BLOCK, MPI_DOUBLE, rank ^ mask, TAG_ROUND + round,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (j = 0; j < BLOCK; j++)
                out[j] += in[j];
        }
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
