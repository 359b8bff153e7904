/* wavefront — a 2-D wavefront sweep with blocking point-to-point.
 *
 * The ranks form a px × py grid (row-major: rank = i·px + j, row i, column
 * j). Each sweep (iteration), rank (i, j) receives from its north (i−1, j)
 * and then its west (i, j−1) neighbour with blocking MPI_Recv, computes,
 * and sends to its south (i+1, j) and then its east (i, j+1) neighbour
 * with blocking MPI_Send — the pipelined sweep of transport and
 * triangular-solve codes. Nothing separates the sweeps: rank (0, 0)
 * starts sweep s+1 as soon as it has sent sweep s, so the sweeps overlap
 * in time. A delay on one rank holds back every rank south-east of it
 * from that sweep on. See README.md.
 */
#include "common.h"

#include <mpi.h>

#define BLOCK 4
enum { TAG_SOUTH = 70, TAG_EAST = 71 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 6, .compute_us = 50 };
    double buf[BLOCK], in[BLOCK];
    int rank, nranks, rc, px, i, j, s, k;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "wavefront",
                   "2-D wavefront sweeps: blocking Recv from north and west, "
                   "Send to south and east", rank, nranks);
    for (px = 1; px * px < nranks; px++)
        ;
    if (rc == 0 && (nranks < 4 || px * px != nranks))
        rc = app_refuse(rank, "wavefront", "needs a square number of ranks, at least 4");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    i = rank / px;
    j = rank % px;

    MPI_Barrier(MPI_COMM_WORLD);
    for (s = 0; s < o.iters; s++) {
        app_region_begin("iteration");
        for (k = 0; k < BLOCK; k++)
            buf[k] = rank + s + k;
        app_region_begin("receive");
        if (i > 0) {
            MPI_Recv(in, BLOCK, MPI_DOUBLE, rank - px, TAG_SOUTH, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            for (k = 0; k < BLOCK; k++)
                buf[k] += in[k];
        }
        if (j > 0) {
            MPI_Recv(in, BLOCK, MPI_DOUBLE, rank - 1, TAG_EAST, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            for (k = 0; k < BLOCK; k++)
                buf[k] += in[k];
        }
        app_region_end("receive");
        app_compute(&o, rank, s);
        app_region_begin("send");
        if (i + 1 < px)
            MPI_Send(buf, BLOCK, MPI_DOUBLE, rank + px, TAG_SOUTH, MPI_COMM_WORLD);
        if (j + 1 < px)
            MPI_Send(buf, BLOCK, MPI_DOUBLE, rank + 1, TAG_EAST, MPI_COMM_WORLD);
        app_region_end("send");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
