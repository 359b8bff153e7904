/* rma.c — the tracer's one-sided test, 2 ranks: windows made each way
 * (create, allocate, allocate_shared, create_dynamic), operations of
 * every kind (Put, Get, Accumulate, Get_accumulate, Fetch_and_op,
 * Compare_and_swap and the request forms, waited for or freed), in every
 * synchronisation mode (fence; post/start/complete/wait and test;
 * lock/unlock with flush and flush_local; lock_all/unlock_all with
 * flush_all, flush_local_all and sync). compare.py checks the RMA records
 * against the calls. */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, size, peer, flag = 0, one = 1;
    double x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, y[8], *mem, *shared, dyn[4];
    long counter, result, compare = 0;
    MPI_Win win, awin, swin, dwin, cwin;
    MPI_Group world, pair;
    MPI_Request req[4];
    MPI_Aint base;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    double buf[8] = { 0 };

    /* fence */
    MPI_Win_create(buf, sizeof buf, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(x, 4, MPI_DOUBLE, peer, 0, 4, MPI_DOUBLE, win);
    MPI_Get(y, 2, MPI_DOUBLE, peer, 4, 2, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(x, 2, MPI_DOUBLE, peer, 0, 2, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_fence(0, win);

    /* post/start/complete/wait, then post/start/complete/test */
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_excl(world, 1, &rank, &pair);
    MPI_Win_post(pair, 0, win);
    MPI_Win_start(pair, 0, win);
    MPI_Put(x, 1, MPI_DOUBLE, peer, 1, 1, MPI_DOUBLE, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    MPI_Win_post(pair, 0, win);
    MPI_Win_start(pair, 0, win);
    MPI_Get(y, 1, MPI_DOUBLE, peer, 1, 1, MPI_DOUBLE, win);
    MPI_Win_complete(win);
    while (!flag)
        MPI_Win_test(win, &flag);
    printf("POLL rank %d MPI_Win_test\n", rank);
    MPI_Group_free(&pair);
    MPI_Group_free(&world);
    MPI_Win_free(&win);

    /* lock, flush, flush_local, request forms */
    MPI_Win_allocate(sizeof(double) * 8, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &awin);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, awin);
    MPI_Put(x, 8, MPI_DOUBLE, peer, 0, 8, MPI_DOUBLE, awin);
    MPI_Win_flush(peer, awin);
    MPI_Get(y, 8, MPI_DOUBLE, peer, 0, 8, MPI_DOUBLE, awin);
    MPI_Win_flush_local(peer, awin);
    MPI_Rput(x, 2, MPI_DOUBLE, peer, 0, 2, MPI_DOUBLE, awin, &req[0]);
    MPI_Rget(y, 2, MPI_DOUBLE, peer, 2, 2, MPI_DOUBLE, awin, &req[1]);
    MPI_Raccumulate(x, 2, MPI_DOUBLE, peer, 4, 2, MPI_DOUBLE, MPI_SUM, awin, &req[2]);
    MPI_Rget_accumulate(x, 2, MPI_DOUBLE, y, 2, MPI_DOUBLE, peer, 6, 2, MPI_DOUBLE, MPI_SUM, awin, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MPI_Win_unlock(peer, awin);
    /* request forms whose requests are freed: the Rget and the Rput are
     * completed by the flush and the unlock after their frees, the
     * Raccumulate and the last Rput at their frees after the flush and
     * the unlock that completed them; each once, also when a new request
     * reuses a freed handle (MPICH 4.0.2 refuses MPI_Request_free on an
     * RMA request: it waits) */
    MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, awin);
    MPI_Rget(y, 2, MPI_DOUBLE, peer, 2, 2, MPI_DOUBLE, awin, &req[0]);
    MPI_Raccumulate(x, 1, MPI_DOUBLE, peer, 5, 1, MPI_DOUBLE, MPI_SUM, awin, &req[1]);
#if defined(OPEN_MPI)
    MPI_Request_free(&req[0]);
#else
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
#endif
    MPI_Win_flush(peer, awin);
    MPI_Rput(x, 2, MPI_DOUBLE, peer, 0, 2, MPI_DOUBLE, awin, &req[0]);
#if defined(OPEN_MPI)
    MPI_Request_free(&req[1]);
    MPI_Request_free(&req[0]);
#else
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
#endif
    MPI_Rget(y, 1, MPI_DOUBLE, peer, 3, 1, MPI_DOUBLE, awin, &req[2]);
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Rput(x, 1, MPI_DOUBLE, peer, 7, 1, MPI_DOUBLE, awin, &req[3]);
    MPI_Win_unlock(peer, awin);
#if defined(OPEN_MPI)
    MPI_Request_free(&req[3]);
#else
    MPI_Wait(&req[3], MPI_STATUS_IGNORE);
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&awin);

    /* lock_all: atomics, flush_all, flush_local_all, sync */
    MPI_Win_allocate_shared(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &swin);
    MPI_Win_create(&counter, sizeof counter, sizeof counter, MPI_INFO_NULL, MPI_COMM_WORLD, &cwin);
    counter = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, cwin);
    MPI_Fetch_and_op(&one, &result, MPI_LONG, peer, 0, MPI_SUM, cwin);
    MPI_Win_flush_all(cwin);
    MPI_Compare_and_swap(&one, &compare, &result, MPI_LONG, peer, 0, cwin);
    MPI_Get_accumulate(&one, 1, MPI_LONG, &result, 1, MPI_LONG, peer, 0, 1, MPI_LONG, MPI_SUM, cwin);
    MPI_Win_flush_local_all(cwin);
    MPI_Win_sync(cwin);
    MPI_Win_unlock_all(cwin);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&cwin);
    MPI_Win_free(&swin);

    /* dynamic */
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dwin);
    MPI_Win_attach(dwin, dyn, sizeof dyn);
    MPI_Get_address(dyn, &base);
    MPI_Win_detach(dwin, dyn);
    MPI_Win_free(&dwin);
    MPI_Finalize();
    return 0;
}
