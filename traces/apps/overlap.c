/* overlap — a ring exchange overlapped with computation, completed by a
 * Waitall that is the only place the MPI library makes progress.
 *
 * Each iteration every rank posts MPI_Irecv from both ring neighbours and
 * MPI_Isend of a large block (-b KiB, default 256: beyond the eager limit
 * of MPICH and Open MPI, so the data moves only while both ends are inside
 * MPI) to both, computes, then completes all four with one MPI_Waitall.
 * With no progress thread, a rank that computes late makes its neighbours'
 * Waitalls late: their receives from it, and their sends to it, complete
 * only once it reaches its own Waitall, although its Isends were on time.
 *
 * Open MPI's shared-memory transport would let a receiver copy the data
 * out of the sender's memory by itself (CMA "single copy") once it has
 * matched the message, so whether a receive needed the sender depended on
 * which of the two posted first. Without single copy, as on systems
 * without cross-memory attach, a large message moves in fragments that
 * the sender pushes only while it is inside MPI, like MPICH's: the app
 * asks for that (before MPI_Init, unless the environment says otherwise;
 * MPICH ignores the variable). See README.md.
 */
#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <mpi.h>
#include <stdlib.h>

enum { TAG_LEFT = 80, TAG_RIGHT = 81 };

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50, .nextra = 1,
                          .extra = { { 'b', "block size in KiB", 256, 1, 65536 } } };
    MPI_Request req[4];
    MPI_Status st[4];
    double *out, *in;
    int rank, nranks, rc, left, right, i, n;

    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "overlap",
                   "ring exchange of large blocks overlapped with computation, "
                   "completed by one Waitall", rank, nranks);
    if (rc == 0 && nranks < 3)
        rc = app_refuse(rank, "overlap", "needs at least 3 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    n = (int)(app_extra(&o, 'b') * 1024 / sizeof(double));
    out = calloc(2 * (size_t)n, sizeof *out);
    in = calloc(2 * (size_t)n, sizeof *in);
    if (!out || !in) {
        app_refuse(rank, "overlap", "out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    left = (rank + nranks - 1) % nranks;
    right = (rank + 1) % nranks;

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        out[0] = out[n] = rank + i;
        app_region_begin("post");
        MPI_Irecv(in, n, MPI_DOUBLE, left, TAG_RIGHT, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(in + n, n, MPI_DOUBLE, right, TAG_LEFT, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(out, n, MPI_DOUBLE, left, TAG_LEFT, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(out + n, n, MPI_DOUBLE, right, TAG_RIGHT, MPI_COMM_WORLD, &req[3]);
        app_region_end("post");
        app_compute(&o, rank, i);
        app_region_begin("complete");
        MPI_Waitall(4, req, st);
        app_region_end("complete");
        app_region_end("iteration");
    }
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
