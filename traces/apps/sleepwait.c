/* sleepwait.c — libsleepwait.so, a PMPI shim that waits by napping.
 *
 * MPICH's ch4 device waits by polling without ever giving up the CPU. With
 * four or more ranks on a two-core machine the waiting ranks then steal the
 * cores from the ranks they are waiting for, and a wait can cost a
 * scheduler time slice (milliseconds) — noise far larger than the apps'
 * compute and comparable to an injected delay.
 *
 * Preloaded *before* the tracer (LD_PRELOAD=libsleepwait.so:tracer.so),
 * this library defines the blocking PMPI_ calls the tracer forwards to as
 * their non-blocking form plus a test loop that yields for a while and then
 * sleeps in short naps. The tracer's MPI_ wrappers still record the same
 * calls with the same arguments and results, enter and leave around the
 * whole wait; only how MPICH waits changes. It defines no MPI_ name but
 * MPI_Finalize (see there), so it never hides the tracer's wrappers.
 * Without a tracer it only affects MPI_Finalize.
 *
 * Tuning (environment): SKEIN_SLEEPWAIT_SPINS (default 100) tests with a
 * sched_yield between them before napping, SKEIN_SLEEPWAIT_NAP_US (default
 * 50) the nap length.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

typedef int (*test_fn)(MPI_Request *, int *, MPI_Status *);
typedef int (*testall_fn)(int, MPI_Request *, int *, MPI_Status *);
typedef int (*testany_fn)(int, MPI_Request *, int *, int *, MPI_Status *);
typedef int (*testsome_fn)(int, MPI_Request *, int *, int *, MPI_Status *);

static test_fn real_test;
static testall_fn real_testall;
static testany_fn real_testany;
static testsome_fn real_testsome;
static long spins = 100;
static long nap_ns = 50000;

static void *
need(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);

    if (!f) {
        fprintf(stderr, "libsleepwait: %s not found\n", name);
        abort();
    }
    return f;
}

static void
setup(void)
{
    const char *s;

    if (real_test)
        return;
    real_testall = (testall_fn)need("PMPI_Testall");
    real_testany = (testany_fn)need("PMPI_Testany");
    real_testsome = (testsome_fn)need("PMPI_Testsome");
    if ((s = getenv("SKEIN_SLEEPWAIT_SPINS")) != NULL)
        spins = atol(s);
    if ((s = getenv("SKEIN_SLEEPWAIT_NAP_US")) != NULL)
        nap_ns = atol(s) * 1000;
    if (nap_ns <= 0 || nap_ns >= 1000000000L)
        nap_ns = 50000;
    /* Without this the kernel may stretch a 50 us nap to 100 us. */
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    real_test = (test_fn)need("PMPI_Test");
}

static void
pause_after(long attempt)
{
    struct timespec ts;

    if (attempt < spins) {
        sched_yield();
        return;
    }
    ts.tv_sec = 0;
    ts.tv_nsec = nap_ns;
    nanosleep(&ts, NULL);
}

static int
wait_one(MPI_Request *req, MPI_Status *status)
{
    int flag = 0, err;
    long k;

    setup();
    for (k = 0;; k++) {
        err = real_test(req, &flag, status);
        if (err != MPI_SUCCESS || flag)
            return err;
        pause_after(k);
    }
}

int
PMPI_Wait(MPI_Request *req, MPI_Status *status)
{
    return wait_one(req, status);
}

int
PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    int flag = 0, err;
    long k;

    setup();
    for (k = 0;; k++) {
        err = real_testall(count, reqs, &flag, statuses);
        if (err != MPI_SUCCESS || flag)
            return err;
        pause_after(k);
    }
}

int
PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    int flag = 0, err;
    long k;

    setup();
    for (k = 0;; k++) {
        err = real_testany(count, reqs, index, &flag, status);
        if (err != MPI_SUCCESS || flag)
            return err;
        pause_after(k);
    }
}

int
PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
              MPI_Status statuses[])
{
    int err;
    long k;

    setup();
    for (k = 0;; k++) {
        err = real_testsome(incount, reqs, outcount, indices, statuses);
        if (err != MPI_SUCCESS || *outcount != 0)
            return err;
        pause_after(k);
    }
}

int
PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
          MPI_Comm comm, MPI_Status *status)
{
    MPI_Request req;
    int err = PMPI_Irecv(buf, count, type, source, tag, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, status);
}

int
PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
          MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Isend(buf, count, type, dest, tag, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

int
PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Issend(buf, count, type, dest, tag, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

int
PMPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
              int stag, void *rbuf, int rcount, MPI_Datatype rtype, int source,
              int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request req[2];
    MPI_Status st[2];
    int err;

    err = PMPI_Irecv(rbuf, rcount, rtype, source, rtag, comm, &req[0]);
    if (err == MPI_SUCCESS)
        err = PMPI_Isend(sbuf, scount, stype, dest, stag, comm, &req[1]);
    if (err == MPI_SUCCESS)
        err = PMPI_Waitall(2, req, st);
    if (err == MPI_SUCCESS && status != MPI_STATUS_IGNORE)
        *status = st[0];
    return err;
}

int
PMPI_Barrier(MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Ibarrier(comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

int
PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

int
PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
            MPI_Op op, int root, MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

int
PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    MPI_Request req;
    int err = PMPI_Ibcast(buf, count, type, root, comm, &req);

    return err != MPI_SUCCESS ? err : wait_one(&req, MPI_STATUS_IGNORE);
}

/* Ranks that are done spin in MPI_Finalize (the tracer's clean-up, then
 * MPICH's own), starving the ranks still finishing their last collective:
 * meet in a napping barrier first. This is the one MPI_ name defined here;
 * it forwards to the next MPI_Finalize (the tracer's, or MPICH's). */
int
MPI_Finalize(void)
{
    typedef int (*finalize_fn)(void);
    finalize_fn next = (finalize_fn)need("MPI_Finalize");

    PMPI_Barrier(MPI_COMM_WORLD);
    return next();
}
