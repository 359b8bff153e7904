/* pingpong.c — cost of traced point-to-point calls, for bench.sh.
 *
 *   pingpong [N [B]]        ranks 0 and 1 exchange N messages of B bytes
 *                           (MPI_Send then MPI_Recv on rank 0, the reverse
 *                           on rank 1); prints the mean round trip
 *   pingpong N B self       each rank calls MPI_Sendrecv to itself on
 *                           MPI_COMM_SELF N times; rank 0 prints the mean
 *                           time per call (no other process in the loop,
 *                           so the steadiest measure of per-call cost)
 *
 * Defaults: N = 100000, B = 0. A warm-up of N/10 precedes the timed loop.
 * Under the tracer each Send or Recv records Enter, MpiSend or MpiRecv and
 * Leave; each Sendrecv records Enter, MpiSend, MpiRecv and Leave. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
    int rank, size, iters, bytes, self;
    char *buf, *buf2;
    double t0 = 0, t1 = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    iters = argc > 1 ? atoi(argv[1]) : 100000;
    bytes = argc > 2 ? atoi(argv[2]) : 0;
    self = argc > 3 && strcmp(argv[3], "self") == 0;
    buf = calloc((size_t)bytes + 1, 1);
    buf2 = calloc((size_t)bytes + 1, 1);
    if ((size < 2 && !self) || iters < 1 || bytes < 0 || !buf || !buf2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: needs 2 ranks (or 'self'), iterations >= 1, bytes >= 0\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int phase = 0; phase < 2; phase++) {
        int n = phase == 0 ? iters / 10 + 1 : iters; /* warm-up, then measured */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int i = 0; i < n && (self || rank < 2); i++) {
            if (self) {
                MPI_Sendrecv(buf, bytes, MPI_BYTE, 0, 0, buf2, bytes, MPI_BYTE, 0, 0, MPI_COMM_SELF,
                             MPI_STATUS_IGNORE);
            } else if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        t1 = MPI_Wtime();
    }
    if (rank == 0 && self)
        printf("pingpong: %d self Sendrecv calls of %d bytes: %.3f us per call\n", iters, bytes,
               (t1 - t0) / iters * 1e6);
    else if (rank == 0)
        printf("pingpong: %d round trips of %d bytes: %.3f us per round trip\n", iters, bytes,
               (t1 - t0) / iters * 1e6);
    free(buf);
    free(buf2);
    MPI_Finalize();
    return 0;
}
