/* mpi_dcomm.c — dcomm over MPI (mpi/dcomm_mpi.c) checked as
 * tests/test_dist.c checks it over threads: run under mpiexec with any
 * number of ranks by tests/mpi.sh; prints "dcomm: ok on N ranks" or what
 * failed on rank 0, and exits 0 on every rank only when every rank saw
 * every result right. */
#include <mpi.h>
#include <stdio.h>

#include "dcomm_exercise.h"
#include "mpi/dcomm_mpi.h"

int
main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	struct dcomm c;
	int bad = dcomm_mpi_init(&c, MPI_COMM_WORLD) ? 1 : 0, all;
	if (!bad)
		bad = dcomm_exercise(&c, NULL);
	MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!bad)
		dcomm_mpi_fini(&c);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0)
		printf(all ? "dcomm: FAILED on %d ranks\n" : "dcomm: ok on %d ranks\n", size);
	MPI_Finalize();
	return all;
}
