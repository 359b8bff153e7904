/* inter.c — messages on an intercommunicator, 4 ranks: world ranks 0, 1
 * form one group, 2, 3 the other, joined by MPI_Intercomm_create. The
 * second group is split in reverse order (its local rank 0 is world
 * rank 3), so a peer's rank on the intercommunicator is neither its
 * world rank nor its rank in the caller's own group: world 0 talks to
 * world 3, world 1 to world 2, each as remote rank 0 and 1.
 *
 * Five rounds; in each, the first group's ranks send (MPI_Send) to their
 * partner, which receives (MPI_Recv) and answers (MPI_Isend, completed
 * by MPI_Wait; received by MPI_Irecv and MPI_Wait, from MPI_ANY_SOURCE).
 * World rank 1 computes 20 ms before each of its sends: world rank 2
 * waits that long for it (a late sender, 0.1 s in all), and rank 1's
 * computation is where the time went. Then a barrier on the
 * intercommunicator (the tracer records its region only) and one on
 * MPI_COMM_WORLD. 20 messages in all, every one on the
 * intercommunicator. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void
compute(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < seconds);
}

int
main(int argc, char **argv)
{
	int rank, size, local;
	double x[4] = { 1, 2, 3, 4 }, y[4] = { 0 };
	MPI_Comm half, inter;
	MPI_Request req;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (rank == 0)
			fprintf(stderr, "inter: run on 4 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int upper = rank >= 2;
	MPI_Comm_split(MPI_COMM_WORLD, upper, upper ? -rank : rank, &half);
	MPI_Comm_rank(half, &local);
	/* the other group's leader, as a rank of MPI_COMM_WORLD */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, upper ? 0 : 3, 21, &inter);
	for (int round = 0; round < 5; round++) {
		if (!upper) {
			/* 0.1 s: far above what a loaded machine's scheduling
			 * makes the other ranks late by (0.02 s was not, once) */
			compute(rank == 1 ? 0.1 : 0.001);
			MPI_Send(x, 4, MPI_DOUBLE, local, round, inter);
			MPI_Irecv(y, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 100 + round, inter, &req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(y, 4, MPI_DOUBLE, local, round, inter, MPI_STATUS_IGNORE);
			MPI_Isend(y, 4, MPI_DOUBLE, local, 100 + round, inter, &req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
	}
	MPI_Barrier(inter);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("inter: 5 rounds, %g\n", y[3]);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
