/* stencil — 2-D periodic halo exchange with a periodic Allreduce.
 *
 * The ranks form a px x py periodic grid (py the largest divisor of P not
 * above sqrt(P); P must have py >= 2, e.g. 4, 6, 8, 9, 12, 16). Each
 * iteration every rank computes, posts an Irecv from each of its four
 * neighbours, an Isend to each, and completes all eight requests with one
 * MPI_Waitall; every K iterations (-k, default 3, 0 = never) an
 * MPI_Allreduce follows. This is the pF3D-like case of the paper's Fig. 4.
 * -x I adds one message in iteration I's exchange, rank 0 to its east
 * neighbour (tag TAG_EXTRA, completed by the same Waitall): the same
 * run with a structure that differs by one message, for skein diff.
 * See README.md for the logical structure it must produce.
 */
#include "common.h"

#include <mpi.h>

#define HALO 8
enum { TAG_EAST = 10, TAG_WEST = 11, TAG_NORTH = 12, TAG_SOUTH = 13, TAG_EXTRA = 14 };

int
main(int argc, char **argv)
{
    struct app_opts o = {
        .iters = 6, .compute_us = 50, .nextra = 2,
        .extra = { { 'k', "an MPI_Allreduce after every K-th iteration, 0 = never",
                     3, 0, 1000000 },
                   { 'x', "one extra message, rank 0 to its east neighbour, in "
                     "iteration X (-1 = never)", -1, -1, 1000000 } },
    };
    double out[4][HALO], in[4][HALO], local = 1.0, global = 0.0, extra[HALO];
    MPI_Request req[10];
    MPI_Status st[10];
    int rank, nranks, rc, px, py, x, y, d, j, i, nreq;
    int west, east, south, north;
    long period, extra_iter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "stencil",
                   "2-D periodic halo exchange (Irecv/Isend/Waitall) with a "
                   "periodic Allreduce", rank, nranks);
    py = 1;
    for (d = 2; d * d <= nranks; d++)
        if (nranks % d == 0)
            py = d;
    if (rc == 0 && py < 2)
        rc = app_refuse(rank, "stencil", "needs a rank count with a factor "
                        "pair px x py, px >= py >= 2 (4, 6, 8, 9, ...)");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    px = nranks / py;
    period = app_extra(&o, 'k');
    extra_iter = app_extra(&o, 'x');
    for (j = 0; j < HALO; j++)
        extra[j] = j;
    x = rank % px;
    y = rank / px;
    west = (x + px - 1) % px + y * px;
    east = (x + 1) % px + y * px;
    south = x + ((y + py - 1) % py) * px;
    north = x + ((y + 1) % py) * px;

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);
        for (d = 0; d < 4; d++)
            for (j = 0; j < HALO; j++)
                out[d][j] = local + d + j;

        app_region_begin("exchange");
        /* in[0] arrives from the west neighbour travelling east, etc. */
        MPI_Irecv(in[0], HALO, MPI_DOUBLE, west, TAG_EAST, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(in[1], HALO, MPI_DOUBLE, east, TAG_WEST, MPI_COMM_WORLD, &req[1]);
        MPI_Irecv(in[2], HALO, MPI_DOUBLE, south, TAG_NORTH, MPI_COMM_WORLD, &req[2]);
        MPI_Irecv(in[3], HALO, MPI_DOUBLE, north, TAG_SOUTH, MPI_COMM_WORLD, &req[3]);
        MPI_Isend(out[0], HALO, MPI_DOUBLE, east, TAG_EAST, MPI_COMM_WORLD, &req[4]);
        MPI_Isend(out[1], HALO, MPI_DOUBLE, west, TAG_WEST, MPI_COMM_WORLD, &req[5]);
        MPI_Isend(out[2], HALO, MPI_DOUBLE, north, TAG_NORTH, MPI_COMM_WORLD, &req[6]);
        MPI_Isend(out[3], HALO, MPI_DOUBLE, south, TAG_SOUTH, MPI_COMM_WORLD, &req[7]);
        nreq = 8;
        if (i == extra_iter && rank == 0)
            MPI_Isend(extra, HALO, MPI_DOUBLE, east, TAG_EXTRA, MPI_COMM_WORLD, &req[nreq++]);
        if (i == extra_iter && west == 0 && rank != 0)
            MPI_Irecv(extra, HALO, MPI_DOUBLE, 0, TAG_EXTRA, MPI_COMM_WORLD, &req[nreq++]);
        MPI_Waitall(nreq, req, st);
        app_region_end("exchange");

        local = 0.0;
        for (d = 0; d < 4; d++)
            local += in[d][0] * 0.25;
        if (period > 0 && (i + 1) % period == 0) {
            app_region_begin("reduce");
            MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            app_region_end("reduce");
            local = global / nranks;
        }
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
