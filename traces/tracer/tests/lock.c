/* lock.c — lock competition for the one-sided tests (traces/onesided,
 * lock-4): three rounds; in each, rank 2 locks rank 0's window
 * exclusively, puts a value and holds the lock over a barrier that the
 * other ranks pass too, then ranks 1 and 3 ask for the same lock and
 * read the value. In the second round rank 2 computes 0.3 s before it
 * lets go: ranks 1 and 3 wait that long in MPI_Win_lock (or, where the
 * lock is granted lazily, in MPI_Win_unlock), and rank 2's computation
 * is where the time went. Rank 0 only serves its window. Run on 4 ranks. */
#define _POSIX_C_SOURCE 200809L
#include "lockprog.h"

int
main(int argc, char **argv)
{
	int rank;
	double *base, value = 1, got = 0, sum = 0;
	MPI_Win win;
	lock_start(&argc, &argv, "lock", &rank, &base, &win);
	for (int round = 0; round < 3; round++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 2) {
			MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
			MPI_Put(&value, 1, MPI_DOUBLE, 0, round, 1, MPI_DOUBLE, win);
			MPI_Win_flush(0, win);
			MPI_Barrier(MPI_COMM_WORLD);        /* the others ask once it is held */
			compute(round == 1 ? 0.3 : 0.001);
			MPI_Win_unlock(0, win);
		} else {
			MPI_Barrier(MPI_COMM_WORLD);
			if (rank != 0) {
				MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
				MPI_Get(&got, 1, MPI_DOUBLE, 0, round, 1, MPI_DOUBLE, win);
				MPI_Win_unlock(0, win);
			}
		}
		MPI_Allreduce(&got, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("lock: 3 rounds, sum %g\n", sum);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
