/* coalesce — ranks post different numbers of Isends before one Waitall.
 *
 * P >= 3. Rank r sends to the n_r = 1 + (r mod (P-1)) ranks that follow it
 * ((r+1) .. (r+n_r) mod P, all distinct), so the ranks post 1, 2, ...,
 * P-1, 1, ... MPI_Isends in a row. Each iteration every rank computes,
 * posts an MPI_Irecv for every message it will get (ascending sender),
 * its MPI_Isends, and one MPI_Waitall for everything — the SMG2000-like
 * case of the paper's Fig. 5: with Isend coalescing (§3.3) all sends and
 * all Waitalls line up; without it the Waitalls land on different steps.
 * See README.md.
 */
#include "common.h"

#include <mpi.h>

#define MAXP 256
enum { TAG_DATA = 70 };

static int
sends_of(int r, int nranks)
{
    return 1 + r % (nranks - 1);
}

int
main(int argc, char **argv)
{
    struct app_opts o = { .iters = 4, .compute_us = 50 };
    static double out[MAXP], in[MAXP];
    static MPI_Request req[2 * MAXP];
    static MPI_Status st[2 * MAXP];
    int rank, nranks, rc, i, s, d, n, nsend;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "coalesce",
                   "ranks post different numbers of Isends before one "
                   "Waitall (Isend-coalescing case)", rank, nranks);
    if (rc == 0 && (nranks < 3 || nranks > MAXP))
        rc = app_refuse(rank, "coalesce", "needs 3 to 256 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    nsend = sends_of(rank, nranks);

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);

        app_region_begin("exchange");
        n = 0;
        for (s = 0; s < nranks; s++) {
            d = (rank - s + nranks) % nranks;   /* how far s sends ahead */
            if (d >= 1 && d <= sends_of(s, nranks)) {
                MPI_Irecv(&in[s], 1, MPI_DOUBLE, s, TAG_DATA, MPI_COMM_WORLD,
                          &req[n]);
                n++;
            }
        }
        for (d = 1; d <= nsend; d++) {
            out[d] = rank * 1000.0 + i * 10 + d;
            MPI_Isend(&out[d], 1, MPI_DOUBLE, (rank + d) % nranks, TAG_DATA,
                      MPI_COMM_WORLD, &req[n]);
            n++;
        }
        MPI_Waitall(n, req, st);
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
