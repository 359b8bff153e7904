/* waits — the wait states lateness cannot see, one pattern per -k, each
 * with its ground truth (README.md, "waits"):
 *
 *  1 late-sender chain: ranks 1..P-1 compute r x S us more each iteration,
 *    then MPI_Send to rank 0, which receives from 1, 2, ... in order with
 *    blocking MPI_Recv: rank 0 waits for each sender in turn
 *  2 late receiver: rank 0 MPI_Ssends to rank 1, which computes S us more
 *    before its MPI_Recv: rank 0 waits in MPI_Ssend
 *  3 barrier: rank r computes r x S us more, then MPI_Barrier
 *  4 N x N: rank r computes r x S us more, then MPI_Allreduce
 *  5 a lone step: a ring of MPI_Sendrecv; a delay (-d) on rank R is
 *    followed by an MPI_Sendrecv of R with itself, a step no other rank has
 *  6 ping-pong: rank 0 sends to 1, 1 answers; a delay (-d) on rank 1
 *    before its answer
 *  7 Waitsome exchange: each rank exchanges with both ring neighbours
 *    (Irecv, Isend) and completes the four requests with MPI_Waitsome until
 *    all are done (how many calls varies from iteration to iteration)
 *  8 polling: rank 0 posts an MPI_Irecv from every other rank and polls
 *    them with MPI_Test until all are done; rank r computes r x S us more
 *    before its MPI_Send
 *  9 contention: every rank computes, then MPI_Allreduce; rank 1's
 *    computation takes S percent longer in every iteration (as with another
 *    process on its core)
 *
 * -s S sets S (us, or percent for 9). Delays (-d D:R:I) are busy-waits
 * before the iteration's communication, as in the other apps.
 */
#include "common.h"

#include <mpi.h>

enum { TAG = 7 };

static void
late_sender_chain(const struct app_opts *o, int rank, int nranks, int i, long s)
{
    double x = rank, y;
    int r;
    app_compute(o, rank, i);
    if (rank > 0) {
        app_spin_us(rank * s);
        MPI_Send(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
        return;
    }
    for (r = 1; r < nranks; r++)
        MPI_Recv(&y, 1, MPI_DOUBLE, r, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void
late_receiver(const struct app_opts *o, int rank, int i, long s)
{
    double x = rank;
    app_compute(o, rank, i);
    if (rank == 0) {
        MPI_Ssend(&x, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD);
    } else if (rank == 1) {
        app_spin_us(s);
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void
staggered_collective(const struct app_opts *o, int rank, int i, long s, int barrier)
{
    double x = rank, y;
    app_compute(o, rank, i);
    app_spin_us(rank * s);
    if (barrier)
        MPI_Barrier(MPI_COMM_WORLD);
    else
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void
lone_step(const struct app_opts *o, int rank, int nranks, int i)
{
    double x = rank, y;
    int d, delayed = 0;
    app_compute(o, rank, i);
    for (d = 0; d < o->ndelays; d++)
        delayed |= o->delays[d].rank == rank && o->delays[d].iter == i;
    if (delayed)
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, rank, TAG + 1, &y, 1, MPI_DOUBLE, rank, TAG + 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % nranks, TAG, &y, 1, MPI_DOUBLE,
                 (rank + nranks - 1) % nranks, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void
ping_pong(const struct app_opts *o, int rank, int i)
{
    double x = i;
    if (rank == 0) {
        app_compute(o, rank, i);
        MPI_Send(&x, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_DOUBLE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        app_compute(o, rank, i);
        MPI_Send(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
    }
}

static void
waitsome_exchange(const struct app_opts *o, int rank, int nranks, int i)
{
    double out[2] = { rank, -rank }, in[2];
    MPI_Request req[4];
    MPI_Status st[4];
    int idx[4], n, done = 0;
    int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks;
    app_compute(o, rank, i);
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&in[1], 1, MPI_DOUBLE, right, TAG + 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&out[0], 1, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&out[1], 1, MPI_DOUBLE, left, TAG + 1, MPI_COMM_WORLD, &req[3]);
    while (done < 4) {
        MPI_Waitsome(4, req, &n, idx, st);
        if (n == MPI_UNDEFINED)
            break;
        done += n;
    }
}

static void
polling(const struct app_opts *o, int rank, int nranks, int i, long s)
{
    double x = rank, in[64];
    MPI_Request req[64];
    int r, flag, left;
    app_compute(o, rank, i);
    if (rank > 0) {
        app_spin_us(rank * s);
        MPI_Send(&x, 1, MPI_DOUBLE, 0, TAG, MPI_COMM_WORLD);
        return;
    }
    for (r = 1; r < nranks && r < 64; r++)
        MPI_Irecv(&in[r], 1, MPI_DOUBLE, r, TAG, MPI_COMM_WORLD, &req[r]);
    left = nranks - 1;
    while (left > 0)
        for (r = 1; r < nranks && r < 64; r++) {
            if (req[r] == MPI_REQUEST_NULL)
                continue;
            MPI_Test(&req[r], &flag, MPI_STATUS_IGNORE);
            left -= flag != 0;
        }
}

static void
contention(const struct app_opts *o, int rank, int i, long pct)
{
    double x = rank, y;
    app_compute(o, rank, i);
    if (rank == 1)
        app_spin_us(o->compute_us * pct / 100);
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int
main(int argc, char **argv)
{
    struct app_opts o = {
        .iters = 4, .compute_us = 200, .nextra = 2,
        .extra = { { 'k', "the pattern, 1 to 9 (see the source)", 1, 1, 9 },
                   { 's', "the stagger: microseconds, or percent for pattern 9", 20000, 0,
                     10000000 } },
    };
    int rank, nranks, rc, i;
    long k, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    rc = app_parse(&o, argc, argv, "waits",
                   "wait states: late sender, late receiver, barrier, N x N, a lone step, "
                   "ping-pong, Waitsome, polling, contention", rank, nranks);
    k = app_extra(&o, 'k');
    s = app_extra(&o, 's');
    if (rc == 0 && (nranks < 2 || nranks > 64))
        rc = app_refuse(rank, "waits", "needs 2 to 64 ranks");
    if (rc != 0) {
        MPI_Finalize();
        return rc < 0 ? 2 : 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < o.iters; i++) {
        app_region_begin("iteration");
        switch (k) {
        case 1: late_sender_chain(&o, rank, nranks, i, s); break;
        case 2: late_receiver(&o, rank, i, s); break;
        case 3: staggered_collective(&o, rank, i, s, 1); break;
        case 4: staggered_collective(&o, rank, i, s, 0); break;
        case 5: lone_step(&o, rank, nranks, i); break;
        case 6: ping_pong(&o, rank, i); break;
        case 7: waitsome_exchange(&o, rank, nranks, i); break;
        case 8: polling(&o, rank, nranks, i, s); break;
        default: contention(&o, rank, i, s); break;
        }
        app_region_end("iteration");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
