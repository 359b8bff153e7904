/* threads.c — the tracer's thread test, 2 ranks of 3 threads under
 * MPI_THREAD_MULTIPLE: two threads each exchange messages with the same
 * thread of the other rank on a communicator of their own (and one
 * Allreduce on it), while the main thread does collectives on
 * MPI_COMM_WORLD. Each thread's calls go on a location of its own. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

enum { ROUNDS = 20 };
static int rank, size;
static MPI_Comm comms[2];

static void *
worker(void *arg)
{
    int t = (int)(long)arg, peer = (rank + 1) % size;
    double x[4] = { 1, 2, 3, 4 }, y[4];
    MPI_Request req[2];

    for (int i = 0; i < ROUNDS; i++) {
        MPI_Irecv(y, 4, MPI_DOUBLE, peer, i, comms[t], &req[0]);
        MPI_Isend(x, 4, MPI_DOUBLE, peer, i, comms[t], &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        MPI_Sendrecv(x, 1, MPI_DOUBLE, peer, 100 + i, y, 1, MPI_DOUBLE, peer, 100 + i, comms[t],
                     MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, comms[t]);
    return NULL;
}

int
main(int argc, char **argv)
{
    int provided;
    double x = 1, y;
    pthread_t th[2];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("SKIP MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    for (long t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int i = 0; i < ROUNDS; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    MPI_Comm_free(&comms[0]);
    MPI_Comm_free(&comms[1]);
    MPI_Finalize();
    return 0;
}
