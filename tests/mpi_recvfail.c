/* mpi_recvfail.c — an LD_PRELOAD shim for tests/mpi.sh: the allocation
 * of the size a rank has just received as a byte count (skein-mpi's
 * length message, one MPI_UINT64_T) fails once, as if the receiving rank
 * had no memory for the bytes announced. Built with the MPI compiler
 * wrapper: cc -shared -fPIC -o recvfail.so mpi_recvfail.c -ldl. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t announced;
static int armed, fired;

int
MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	 MPI_Status *st)
{
	int rc = PMPI_Recv(buf, count, type, src, tag, comm, st);
	if (rc == MPI_SUCCESS && type == MPI_UINT64_T && count == 1 && !fired) {
		announced = *(uint64_t *)buf;
		armed = 1;
	}
	return rc;
}

void *
malloc(size_t n)
{
	static void *(*real)(size_t);
	if (!real)
		real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	if (armed && n == announced) {
		armed = 0;
		fired = 1;
		return NULL;
	}
	return real(n);
}
