/* sparse_exchange — bulk-synchronous ring exchange with occasional
 * pre- and post-exchange messages between a few ranks.
 *
 * P even, >= 4. Each iteration every rank computes, then exchanges with
 * both ring neighbours (MPI_Irecv x2, MPI_Isend x2, one MPI_Waitall). In
 * "sparse" iterations (i mod S == 1, -s S, default 3) one pair of ranks
 * exchanges an extra message just before the ring exchange (rank 2m sends
 * to 2m+1, blocking Send/Recv, m = (i / S) mod (P/2)) and another pair
 * just after it (rank 2m'+1 sends to 2m', m' = (m+1) mod (P/2)); all other
 * ranks skip those messages. The extra messages form partitions of two
 * ranks on either side of the ring exchange — the isolated LULESH
 * messages of the paper's Fig. 3 — which only leap merging (Algorithm 1)
 * folds back into complete phases: the pre-message forward, the
 * post-message backward. See README.md.
 */
#include "common.h"

#include <mpi.h>

#define HALO 4
enum { TAG_RIGHT = 60, TAG_LEFT = 61, TAG_PRE = 62, TAG_POST = 63 };

int
main(int argc, char **argv)
{
    struct app_opts o = {
        .iters = 6, .compute_us = 100, .nextra = 1,
        .extra = { { 's', "iterations i with i mod S == 1 carry the extra "
                          "messages, 0 = none", 3, 0, 1000000 } },
    };
    double out[2][HALO], in[2][HALO], extra = 0.0;
    MPI_Request req[4];
    MPI_Status st[4];
    int rank, nranks, rc, left, right, pairs, i, j, pre, post;
    long period;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "sparse_exchange",
                   "ring exchange with occasional pre/post messages between "
                   "a few ranks (leap-merge case)", rank, nranks);
    if (rc == 0 && (nranks < 4 || nranks % 2 != 0))
        rc = app_refuse(rank, "sparse_exchange",
                        "needs an even rank count >= 4");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    period = app_extra(&o, 's');
    left = (rank + nranks - 1) % nranks;
    right = (rank + 1) % nranks;
    pairs = nranks / 2;

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        pre = post = -1;        /* the lower rank of the pair, if any */
        if (period > 0 && i % period == 1) {
            pre = 2 * (int)((i / period) % pairs);
            post = (pre + 2) % nranks;
        }

        app_region_begin("iteration");
        app_compute(&o, rank, i);
        for (j = 0; j < HALO; j++)
            out[0][j] = out[1][j] = rank + i + j + extra;

        app_region_begin("exchange");
        if (rank == pre || rank == pre + 1) {
            app_region_begin("pre");
            if (rank == pre)
                MPI_Send(&out[0][0], 1, MPI_DOUBLE, pre + 1, TAG_PRE,
                         MPI_COMM_WORLD);
            else
                MPI_Recv(&extra, 1, MPI_DOUBLE, pre, TAG_PRE, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            app_region_end("pre");
        }

        app_region_begin("halo");
        MPI_Irecv(in[0], HALO, MPI_DOUBLE, left, TAG_RIGHT, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(in[1], HALO, MPI_DOUBLE, right, TAG_LEFT, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(out[0], HALO, MPI_DOUBLE, right, TAG_RIGHT, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(out[1], HALO, MPI_DOUBLE, left, TAG_LEFT, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, st);
        app_region_end("halo");

        if (rank == post || rank == post + 1) {
            app_region_begin("post");
            if (rank == post + 1)
                MPI_Send(&in[0][0], 1, MPI_DOUBLE, post, TAG_POST,
                         MPI_COMM_WORLD);
            else
                MPI_Recv(&extra, 1, MPI_DOUBLE, post + 1, TAG_POST,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            app_region_end("post");
        }
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
