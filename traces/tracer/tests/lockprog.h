/* lockprog.h — what lock.c, lockall.c and lockwait.c share: a busy
 * computation of a given length, and their start: MPI initialised on
 * exactly 4 ranks (else `name: run on 4 ranks` and an abort) and a window
 * of 4 doubles a rank. */
#ifndef LOCKPROG_H
#define LOCKPROG_H

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

/* MPI_Init, then this rank and its part of a new window of 4 doubles. */
static void
lock_start(int *argc, char ***argv, const char *name, int *rank, double **base, MPI_Win *win)
{
	int size;
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (*rank == 0)
			fprintf(stderr, "%s: run on 4 ranks\n", name);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Win_allocate(4 * sizeof **base, sizeof **base, MPI_INFO_NULL, MPI_COMM_WORLD, base, win);
}

#endif
