/* ga.c — a small Global Arrays program, for checking the tracer on a real
 * one-sided runtime by hand (not part of make check: it needs
 * libglobalarrays-dev and libarmci-mpi-dev). A 64x64 distributed array;
 * each rank, 20 times, puts, accumulates and gets an 8x8 patch and
 * increments a shared counter, then all synchronise. Global Arrays
 * does it with MPI windows (ARMCI-MPI): MPI_Accumulate, Get_accumulate,
 * Fetch_and_op and the flushes. doc/tracer.md has the numbers.
 *
 *   L=/usr/lib/x86_64-linux-gnu
 *   mpicc.mpich -o ga-mpich tests/ga.c $L/libga-mpich.a $L/libscalapack-mpich.so.2.2 \
 *       -llapack -lblas -larmci-mpich -lgfortran -lm
 *   (Open MPI: the same with -openmpi) */
#include <mpi.h>
#include <ga.h>
#include <macdecls.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int dims[2] = { 64, 64 }, chunk[2] = { -1, -1 }, lo[2], hi[2], ld = 8, me, n, g, cnt;
    int cdims[1] = { 16 }, cchunk[1] = { -1 }, zero[1] = { 0 };
    double buf[64], alpha = 1.0;

    MPI_Init(&argc, &argv);
    GA_Initialize();
    MA_init(C_DBL, 100000, 100000);
    me = GA_Nodeid();
    n = GA_Nnodes();
    g = NGA_Create(C_DBL, 2, dims, "a", chunk);
    cnt = NGA_Create(C_INT, 1, cdims, "c", cchunk);
    GA_Zero(g);
    GA_Zero(cnt);
    for (int i = 0; i < 64; i++)
        buf[i] = me + i;
    for (int it = 0; it < 20; it++) {
        lo[0] = (it * 8) % 64;
        hi[0] = lo[0] + 7;
        lo[1] = (me * 8) % 64;
        hi[1] = lo[1] + 7;
        NGA_Put(g, lo, hi, buf, &ld);
        NGA_Acc(g, lo, hi, buf, &ld, &alpha);
        NGA_Get(g, lo, hi, buf, &ld);
        NGA_Read_inc(cnt, zero, 1);
        GA_Sync();
    }
    if (me == 0)
        printf("done on %d ranks\n", n);
    GA_Destroy(g);
    GA_Destroy(cnt);
    GA_Terminate();
    MPI_Finalize();
    return 0;
}
