/* skeintrace-fort.c — what the Fortran wrappers (fwrap.c, generated) need:
 * the library's own entry points, the C view of Fortran arguments, and
 * the hand-written Fortran MPI_Init, MPI_Init_thread and MPI_Finalize.
 *
 * Open MPI's Fortran bindings call PMPI_ functions, and MPICH's mpi_f08
 * ones do too, so the C wrappers never see those calls: the tracer
 * defines the Fortran symbols themselves (mpi_send_, mpi_send__,
 * mpi_send, MPI_SEND, mpi_send_f08_, MPICH's mpi_send_f08ts_ and
 * _large_ names). Each wrapper records as the C one does and calls the
 * next definition of its own name — the library's — with its arguments
 * untouched; only what the record needs is converted: handles with the
 * PMPI_*_f2c functions, statuses with PMPI_Status_f2c (MPICH's
 * MPI_F08_status has the C layout, Open MPI's the Fortran one), and the
 * sentinels MPI_IN_PLACE and MPI_STATUS(ES)_IGNORE, which are addresses
 * of Fortran objects each library names its own way. */
#define _GNU_SOURCE 1
#include "skeintrace-rec.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first of names ("a\0b\0...\0") defined after this library. */
void *
st_fnext(const char *names)
{
    for (const char *n = names; *n; n += strlen(n) + 1) {
        void *f = dlsym(RTLD_NEXT, n);
        if (f)
            return f;
    }
    fprintf(stderr, "skeintrace: the MPI library has no Fortran entry point %s; stopping\n", names);
    abort();
}

/* Sentinel objects: their addresses, found once. */
static const void *in_place_obj[2], *status_ignore_obj[2], *statuses_ignore_obj[2];
static int sentinels_found;

static void
find_sentinels(void)
{
    static const char *const in_place[2] = { "mpi_fortran_in_place_", "MPIR_F08_MPI_IN_PLACE" };
    static const char *const status[2] = { "mpi_fortran_status_ignore_", "MPIR_F08_MPI_STATUS_IGNORE_OBJ" };
    static const char *const statuses[2] = { "mpi_fortran_statuses_ignore_", "MPIR_F08_MPI_STATUSES_IGNORE_OBJ" };

    for (int i = 0; i < 2; i++) {
        in_place_obj[i] = dlsym(RTLD_DEFAULT, in_place[i]);
        status_ignore_obj[i] = dlsym(RTLD_DEFAULT, status[i]);
        statuses_ignore_obj[i] = dlsym(RTLD_DEFAULT, statuses[i]);
    }
    __atomic_store_n(&sentinels_found, 1, __ATOMIC_RELEASE);
}

/* A variable holding a sentinel's address (MPICH sets them when its
 * Fortran layer starts). */
static const void *
pointer_var(const char *name)
{
    void *const *p = dlsym(RTLD_DEFAULT, name);
    return p ? *p : NULL;
}

static void
sentinels(void)
{
    if (!__atomic_load_n(&sentinels_found, __ATOMIC_ACQUIRE))
        find_sentinels();
}

const void *
st_fbuf(const void *p, int flavour)
{
    static const void *in_place_ptr;

    if (flavour == ST_FL_F08_DESC && p)
        p = *(void *const *)p; /* a descriptor starts with the data's address */
    sentinels();
    if (!in_place_ptr)
        in_place_ptr = pointer_var("MPIR_F_MPI_IN_PLACE");
    if (p && (p == in_place_obj[0] || p == in_place_obj[1] || p == in_place_ptr))
        return MPI_IN_PLACE;
    return p;
}

int
st_fstatus_ignored(const void *p)
{
    sentinels();
    if (p == status_ignore_obj[0] || p == status_ignore_obj[1] || p == (const void *)MPI_F_STATUS_IGNORE)
        return 1;
#ifdef MPICH
    return p == (const void *)MPI_F08_STATUS_IGNORE;
#else
    return 0;
#endif
}

int
st_fstatuses_ignored(const void *p)
{
    sentinels();
    if (p == statuses_ignore_obj[0] || p == statuses_ignore_obj[1] || p == (const void *)MPI_F_STATUSES_IGNORE)
        return 1;
#ifdef MPICH
    return p == (const void *)MPI_F08_STATUSES_IGNORE;
#else
    return 0;
#endif
}

void
st_fstatus(const void *f, MPI_Status *c, int n)
{
    for (int i = 0; c && i < n; i++)
        PMPI_Status_f2c((const MPI_Fint *)f + (size_t)i * MPI_F_STATUS_SIZE, &c[i]);
}

MPI_Status *
st_scratch_statuses(int n)
{
    return st_scratch(ST_SC_STATUSES, (size_t)(n > 0 ? n : 1) * sizeof(MPI_Status));
}

void *
st_scratch_fstatuses(int n)
{
    return st_scratch(ST_SC_FSTATUSES, (size_t)(n > 0 ? n : 1) * MPI_F_STATUS_SIZE * sizeof(MPI_Fint));
}

MPI_Request *
st_frequests(const void *f, int n)
{
    MPI_Request *c = st_scratch(ST_SC_REQUESTS, (size_t)(n > 0 ? n : 1) * sizeof *c);

    st_frequests_again(c, f, n);
    return c;
}

void
st_frequests_again(MPI_Request *c, const void *f, int n)
{
    for (int i = 0; c && i < n; i++)
        c[i] = PMPI_Request_f2c(((const MPI_Fint *)f)[i]);
}

/* Fortran's indices count from 1. */
int *
st_findices(const void *f, const int *n)
{
    int *c = st_scratch(ST_SC_INDICES, (size_t)(*n > 0 ? *n : 1) * sizeof *c);

    for (int i = 0; c && i < *n && *n != MPI_UNDEFINED; i++)
        c[i] = ((const MPI_Fint *)f)[i] - 1;
    return c;
}

const MPI_Datatype *
st_ftypes(const void *f, int n, int send)
{
    MPI_Datatype *c = st_scratch(send ? ST_SC_SENDTYPES : ST_SC_RECVTYPES, (size_t)(n > 0 ? n : 1) * sizeof *c);

    for (int i = 0; c && i < n; i++)
        c[i] = PMPI_Type_f2c(((const MPI_Fint *)f)[i]);
    return c;
}

/* The peers a collective on comm exchanges with: its size (the remote
 * group's for an intercommunicator), or with neighbours set, the
 * topology's out- (send) or in-neighbours. */
int
st_npeers(MPI_Comm comm, int send, int neighbours)
{
    int n = 0, inter = 0, topo = MPI_UNDEFINED;

    if (comm == MPI_COMM_NULL)
        return 0;
    if (neighbours && PMPI_Topo_test(comm, &topo) == MPI_SUCCESS) {
        int in = 0, out = 0, weighted = 0, rank = 0;
        switch (topo) {
        case MPI_CART:
            PMPI_Cartdim_get(comm, &n);
            return 2 * n;
        case MPI_GRAPH:
            PMPI_Comm_rank(comm, &rank);
            PMPI_Graph_neighbors_count(comm, rank, &n);
            return n;
        case MPI_DIST_GRAPH:
            PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
            return send ? out : in;
        default:
            break;
        }
    }
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

/* ---- MPI_Init, MPI_Init_thread and MPI_Finalize from Fortran ----------------- */

static void
finit(void (*next)(MPI_Fint *), MPI_Fint *ierr)
{
    uint64_t t0 = st_clock_raw();
    MPI_Fint e = MPI_SUCCESS;

    if (st_wrong_mpi())
        exit(1);
    st_me.state = ST_BUSY; /* what MPI calls inside is its own */
    next(&e);
    if (st_me.state == ST_BUSY) /* MPICH's Fortran MPI_Init calls the C one, which started the tracer */
        st_me.state = ST_NEW;
    if (ierr)
        *ierr = e;
    if (e == MPI_SUCCESS)
        st_start(t0, ST_F_MPI_Init, MPI_THREAD_SINGLE);
}

static void
finit_thread(void (*next)(MPI_Fint *, MPI_Fint *, MPI_Fint *), MPI_Fint *required, MPI_Fint *provided,
             MPI_Fint *ierr)
{
    uint64_t t0 = st_clock_raw();
    MPI_Fint e = MPI_SUCCESS;

    if (st_wrong_mpi())
        exit(1);
    st_me.state = ST_BUSY;
    next(required, provided, &e);
    if (st_me.state == ST_BUSY)
        st_me.state = ST_NEW;
    if (ierr)
        *ierr = e;
    if (e == MPI_SUCCESS)
        st_start(t0, ST_F_MPI_Init_thread, *provided);
}

static void
ffinalize(void (*next)(MPI_Fint *), MPI_Fint *ierr)
{
    MPI_Fint e = MPI_SUCCESS;

    st_finalize();
    next(&e);
    if (ierr)
        *ierr = e;
}

#define ST_FLIFE(form, names, thread_names, fin_names) \
    static void st_##form##_init(MPI_Fint *ierr) \
    { \
        static void (*next_)(MPI_Fint *); \
        ST_FNEXT(next_, names); \
        finit(next_, ierr); \
    } \
    static void st_##form##_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) \
    { \
        static void (*next_)(MPI_Fint *, MPI_Fint *, MPI_Fint *); \
        ST_FNEXT(next_, thread_names); \
        finit_thread(next_, required, provided, ierr); \
    } \
    static void st_##form##_finalize(MPI_Fint *ierr) \
    { \
        static void (*next_)(MPI_Fint *); \
        ST_FNEXT(next_, fin_names); \
        ffinalize(next_, ierr); \
    }
#define ST_ALIAS(fn, name) extern __typeof__(fn) name __attribute__((alias(#fn), visibility("default")));

ST_FLIFE(f77, "mpi_init_\0mpi_init__\0mpi_init\0MPI_INIT\0",
         "mpi_init_thread_\0mpi_init_thread__\0mpi_init_thread\0MPI_INIT_THREAD\0",
         "mpi_finalize_\0mpi_finalize__\0mpi_finalize\0MPI_FINALIZE\0")
ST_FLIFE(f08, "mpi_init_f08_\0", "mpi_init_thread_f08_\0", "mpi_finalize_f08_\0")
ST_ALIAS(st_f77_init, mpi_init_)
ST_ALIAS(st_f77_init, mpi_init__)
ST_ALIAS(st_f77_init, mpi_init)
ST_ALIAS(st_f77_init, MPI_INIT)
ST_ALIAS(st_f77_init_thread, mpi_init_thread_)
ST_ALIAS(st_f77_init_thread, mpi_init_thread__)
ST_ALIAS(st_f77_init_thread, mpi_init_thread)
ST_ALIAS(st_f77_init_thread, MPI_INIT_THREAD)
ST_ALIAS(st_f77_finalize, mpi_finalize_)
ST_ALIAS(st_f77_finalize, mpi_finalize__)
ST_ALIAS(st_f77_finalize, mpi_finalize)
ST_ALIAS(st_f77_finalize, MPI_FINALIZE)
#if defined(OPEN_MPI) /* its mpif.h library's C-case names */
ST_ALIAS(st_f77_init, MPI_Init_f)
ST_ALIAS(st_f77_init, MPI_Init_f08)
ST_ALIAS(st_f77_init_thread, MPI_Init_thread_f)
ST_ALIAS(st_f77_init_thread, MPI_Init_thread_f08)
ST_ALIAS(st_f77_finalize, MPI_Finalize_f)
ST_ALIAS(st_f77_finalize, MPI_Finalize_f08)
#endif
ST_ALIAS(st_f08_init, mpi_init_f08_)
ST_ALIAS(st_f08_init_thread, mpi_init_thread_f08_)
ST_ALIAS(st_f08_finalize, mpi_finalize_f08_)
