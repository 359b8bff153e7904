/* honest.c — what the tracer says about what it did not record, 2 ranks.
 *
 *   honest          a message on an intercommunicator (recorded), a barrier
 *                   on it (not), and MPI_Comm_rank from a second thread
 *                   under MPI_THREAD_FUNNELED: one line at MPI_Finalize
 *                   names the last two, and the archive says
 *                   OTF2::MPI_COMMUNICATION_COMPLETE false; that thread's
 *                   user region is ignored, with one line
 *   honest abort    MPI_Abort after MPI_Init: leaves an unfinished archive,
 *                   which the next run replaces with one line
 *   honest pmpi     calls PMPI_Init and PMPI_Finalize only: nothing reaches
 *                   the tracer, which says so at exit
 *   honest io DIR   MPI_Initialized before MPI_Init, MPI-IO, MPI_Finalized
 *                   after MPI_Finalize: a line at MPI_Finalize names the
 *                   first two (OTF2::MPI_COMMUNICATION_COMPLETE stays
 *                   true: neither is communication), one at exit the third */
#include "../skeintrace.h"

#include <mpi.h>
#include <pthread.h>
#include <string.h>

static void *
other_thread(void *arg)
{
    int rank;
    (void)arg;
    skeintrace_region_begin("other thread"); /* ignored, said once */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);    /* not allowed under FUNNELED: counted */
    skeintrace_region_end("other thread");
    return NULL;
}

int
main(int argc, char **argv)
{
    int rank, provided, x = 1, flag;
    MPI_Comm half, inter;
    MPI_File fh;
    pthread_t th;

    if (argc > 1 && strcmp(argv[1], "pmpi") == 0) {
        PMPI_Init(&argc, &argv);
        PMPI_Finalize();
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "io") == 0) {
        MPI_Initialized(&flag);
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_File_open(MPI_COMM_WORLD, argv[2], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
        MPI_File_write_at_all(fh, rank * (MPI_Offset)sizeof x, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_File_close(&fh);
        MPI_Finalize();
        MPI_Finalized(&flag);
        return 0;
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1 && strcmp(argv[1], "abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank, 5, &inter);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 0, 6, inter);
    else
        MPI_Recv(&x, 1, MPI_INT, 0, 6, inter, MPI_STATUS_IGNORE);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    pthread_create(&th, NULL, other_thread, NULL);
    pthread_join(th, NULL);
    MPI_Finalize();
    return 0;
}
