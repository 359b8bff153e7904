/* kary_tree — k-ary gather tree, each level sent up and back down.
 *
 * The communication of the parallel merge-tree algorithm (paper §5.2 and
 * the poster): ranks are the leaves of a k-ary tree (-k, default 3); in
 * level l = 1, 2, ... the ranks that are gather processes of level l-1
 * (r divisible by k^(l-1)) send their partial result up to their level-l
 * gather process g = r - r mod k^l, and g sends the combined result back
 * down to each of them before anyone moves up to level l+1 — the "send
 * down before up" order whose cost the poster points out. Children use
 * MPI_Irecv (down) + MPI_Isend (up) + MPI_Waitall; a gather process posts
 * one MPI_Irecv per child, completes them with one MPI_Waitall, then sends
 * down with blocking MPI_Send, one child after the other. Any P >= 2; the
 * last group of a level may be partial. See README.md.
 */
#include "common.h"

#include <mpi.h>

#define MAXK 64
enum { TAG_UP = 50, TAG_DOWN = 51 };

int
main(int argc, char **argv)
{
    struct app_opts o = {
        .iters = 4, .compute_us = 50, .nextra = 1,
        .extra = { { 'k', "arity of the gather tree", 3, 2, MAXK } },
    };
    double mine, down, up[MAXK];
    MPI_Request req[MAXK];
    MPI_Status st[MAXK];
    int rank, nranks, rc, arity, i, j, n;
    long sub, group;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "kary_tree",
                   "k-ary gather tree: each level sends up to the gather "
                   "process and back down", rank, nranks);
    if (rc == 0 && nranks < 2)
        rc = app_refuse(rank, "kary_tree", "needs at least 2 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    arity = (int)app_extra(&o, 'k');

    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        app_compute(&o, rank, i);
        mine = rank + i;

        app_region_begin("exchange");
        for (sub = 1; sub < nranks; sub *= arity) {
            long g;

            if (rank % sub != 0)
                break;              /* not a gather process of this level */
            group = sub * arity;
            g = rank - rank % group;
            for (n = 0; n < arity - 1 && g + (n + 1) * sub < nranks; n++)
                ;                   /* n: how many children g has here */
            if (rank == g && n == 0)
                continue;           /* a partial group with nobody in it */
            app_region_begin("level");
            if (rank != g) {
                MPI_Irecv(&down, 1, MPI_DOUBLE, (int)g, TAG_DOWN,
                          MPI_COMM_WORLD, &req[0]);
                MPI_Isend(&mine, 1, MPI_DOUBLE, (int)g, TAG_UP,
                          MPI_COMM_WORLD, &req[1]);
                MPI_Waitall(2, req, st);
                mine = down;
            } else {
                for (j = 0; j < n; j++)
                    MPI_Irecv(&up[j], 1, MPI_DOUBLE, (int)(g + (j + 1) * sub),
                              TAG_UP, MPI_COMM_WORLD, &req[j]);
                MPI_Waitall(n, req, st);
                for (j = 0; j < n; j++)
                    mine += up[j];
                for (j = 0; j < n; j++)
                    MPI_Send(&mine, 1, MPI_DOUBLE, (int)(g + (j + 1) * sub),
                             TAG_DOWN, MPI_COMM_WORLD);
            }
            app_region_end("level");
            if (rank != g)
                break;              /* children stop climbing here */
        }
        app_region_end("exchange");
        app_region_end("iteration");
    }
    MPI_Finalize();
    return 0;
}
