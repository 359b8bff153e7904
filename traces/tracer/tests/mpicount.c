/* mpicount.c — the counting layer the tracer's tests compare archives
 * with: an LD_AUDIT library that counts every call the program itself
 * and its libraries make to a function whose name starts with mpi_ or MPI_
 * (any case: the C functions and every Fortran entry point),
 * independently of the tracer: it sees the calls at the callers' PLT,
 * before any wrapper. Calls made by the MPI libraries themselves (their
 * Fortran bindings call the C functions) and by the tracer are not
 * counted.
 *
 *   LD_AUDIT=tests/build/mpicount.so MPICOUNT_DIR=dir program
 *
 * writes dir/count.RANK (the launcher's rank, or the pid): one line per
 * function, "name calls", the Fortran names folded to the C one (mpi_send_,
 * MPI_SEND, mpi_send_f08_, mpi_send_f08ts_ -> MPI_Send), so the counts
 * compare with the regions' Enter counts. Only the calls from MPI_Init
 * (or MPI_Init_thread) to MPI_Finalize are counted, as only they can be
 * traced; "outside NAME CALLS" lines give the others, and "symbol NAME
 * CALLS" lines the calls per symbol as called (mpi_send_, MPI_Send, ...). */
#define _GNU_SOURCE 1
#include <ctype.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAXF = 1024 };
static char *names[MAXF];
static unsigned long calls[MAXF], outside[MAXF];
static int nnames;
static int phase; /* 0 before MPI_Init, 1 until MPI_Finalize, 2 after */
static char busy;  /* a spin lock: threads call MPI at once (tests/threads.c) */

static void c_name(const char *s, char *out, size_t n);

unsigned int
la_version(unsigned int version)
{
    (void)version;
    return LAV_CURRENT;
}

/* References from the program and its libraries, but MPI's own and the
 * tracer's, to any library. */
unsigned int
la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
    static const char *const mpi[] = { "libmpi", "libopen-", "/openmpi", "libskeintrace", "libuc", "libpmix",
                                       "libfabric", "libhwloc", "libevent", "libotf2", "libpsm", "libibverbs" };

    (void)lmid;
    (void)cookie;
    for (size_t i = 0; i < sizeof mpi / sizeof *mpi; i++)
        if (strstr(map->l_name, mpi[i]))
            return LA_FLG_BINDTO;
    return LA_FLG_BINDFROM | LA_FLG_BINDTO;
}

static int
is_mpi(const char *s)
{
    return strncasecmp(s, "mpi_", 4) == 0 || strncasecmp(s, "mpix_", 5) == 0;
}

static int
slot(const char *s)
{
    for (int i = 0; i < nnames; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    if (nnames == MAXF)
        return -1;
    names[nnames] = strdup(s);
    return names[nnames] ? nnames++ : -1;
}

uintptr_t
la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook, uintptr_t *defcook, unsigned int *flags,
             const char *symname)
{
    (void)ndx;
    (void)refcook;
    (void)defcook;
    if (!is_mpi(symname) || ELF64_ST_TYPE(sym->st_info) != STT_FUNC)
        *flags |= LA_SYMB_NOPLTENTER | LA_SYMB_NOPLTEXIT;
    else
        *flags |= LA_SYMB_NOPLTEXIT;
    return sym->st_value;
}

Elf64_Addr
la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook, uintptr_t *defcook,
                       La_x86_64_regs *regs, unsigned int *flags, const char *symname, long *framesizep)
{
    int i;
    char c[300];

    (void)ndx;
    (void)refcook;
    (void)defcook;
    (void)regs;
    (void)flags;
    (void)framesizep;
    while (__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE))
        ;
    i = slot(symname);
    if (phase != 1)
        c_name(symname, c, sizeof c);
    if (phase == 0 && (strcmp(c, "MPI_Init") == 0 || strcmp(c, "MPI_Init_thread") == 0))
        phase = 1;
    if (i >= 0 && phase == 1)
        calls[i]++;
    else if (i >= 0)
        outside[i]++;
    if (phase == 1 && strncasecmp(symname, "mpi_finalize", 12) == 0 && strncasecmp(symname, "mpi_finalized", 13) != 0)
        phase = 2;
    __atomic_clear(&busy, __ATOMIC_RELEASE);
    return sym->st_value;
}

/* mpi_comm_split_f08ts_large_ -> MPI_Comm_split_c; MPI_COMM_SPLIT -> MPI_Comm_split */
static void
c_name(const char *s, char *out, size_t n)
{
    char low[256];
    size_t len = strlen(s), i;
    int large = 0;

    if (len >= sizeof low)
        len = sizeof low - 1;
    for (i = 0; i < len; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
    low[len] = '\0';
    if (len > 7 && strcmp(low + len - 7, "_large_") == 0) {
        large = 1;
        low[len -= 6] = '\0';
    }
    while (len > 0 && low[len - 1] == '_')
        low[--len] = '\0';
    if (len > 6 && strcmp(low + len - 6, "_f08ts") == 0)
        low[len -= 6] = '\0';
    else if (len > 4 && strcmp(low + len - 4, "_f08") == 0)
        low[len -= 4] = '\0';
    if (len < 6) /* not an MPI function's name */
        snprintf(out, n, "%s", s);
    else if (memcmp(low, "mpix_", 5) == 0)
        snprintf(out, n, "MPIX_%c%s%s", toupper((unsigned char)low[5]), low + 6, large ? "_c" : "");
    else
        snprintf(out, n, "MPI_%c%s%s", toupper((unsigned char)low[4]), low + 5, large ? "_c" : "");
}

__attribute__((destructor)) static void
done(void)
{
    const char *dir = getenv("MPICOUNT_DIR"), *rank = getenv("PMI_RANK");
    char path[4096], name[300];
    FILE *f;

    if (!dir || nnames == 0)
        return;
    if (!rank)
        rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank)
        snprintf(path, sizeof path, "%s/count.%s", dir, rank);
    else
        snprintf(path, sizeof path, "%s/count.pid%ld", dir, (long)getpid());
    f = fopen(path, "w");
    if (!f)
        return;
    for (int i = 0; i < nnames; i++) {
        c_name(names[i], name, sizeof name);
        if (calls[i])
            fprintf(f, "%s %lu\n", name, calls[i]);
        if (outside[i])
            fprintf(f, "outside %s %lu\n", name, outside[i]);
        fprintf(f, "symbol %s %lu\n", names[i], calls[i] + outside[i]);
    }
    fclose(f);
}
