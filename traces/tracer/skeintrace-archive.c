/* skeintrace-archive.c — the OTF2 archive: creation at MPI_Init, closing
 * at MPI_Finalize, and the callbacks OTF2 needs.
 *
 * Every rank opens the archive and writes its own event and local
 * definition files; OTF2's collective callbacks run over a private
 * duplicate of MPI_COMM_WORLD with PMPI calls (so they are never traced),
 * and rank 0, OTF2's root, writes the anchor and global definitions.
 * Events go into OTF2's chunked buffer; a memory callback caps it at
 * SKEIN_TRACE_BUFFER_MB per rank, beyond which OTF2 flushes to disk and
 * records a BufferFlush event stamped with the tracer's own clock. */
#include "skeintrace-int.h"

#include <otf2/OTF2_Pthread_Locks.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Definitions in chunks of 256 KiB, as Score-P 2.1 to 9.0 write them:
 * every reader (libotf2) allocates and clears a buffer of one chunk each
 * time it opens the archive, and 4 MiB of fresh pages cost a small
 * archive's read 40% of its time (doc/testing.md). */
enum { EVENT_CHUNK = 1 << 20, DEF_CHUNK = 256 << 10, DEFAULT_BUFFER_MB = 32 };

static uint64_t event_bytes; /* event chunks handed to OTF2 */

/* ---- OTF2 callbacks ---------------------------------------------------- */

static OTF2_ErrorCode
on_error(void *data, const char *file, uint64_t line, const char *function, OTF2_ErrorCode code, const char *fmt,
         va_list args)
{
    char msg[200];

    (void)data;
    (void)file;
    (void)line;
    (void)function;
    vsnprintf(msg, sizeof msg, fmt, args);
    if (!st.failure[0])
        snprintf(st.failure, sizeof st.failure, "%s: %s", OTF2_Error_GetDescription(code), msg);
    return code;
}

/* OTF2 3.0 crashes when a write fails (it reuses a freed file buffer), so
 * a flush only goes ahead when the file system has room for it, with some
 * margin for the other ranks writing there too; otherwise this rank stops
 * recording and its buffer is dropped. */
static OTF2_FlushType
pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef location, void *caller, bool final)
{
    struct statvfs fs;
    uint64_t need = 2 * event_bytes + (8u << 20);

    (void)data;
    (void)location;
    (void)caller;
    (void)final;
    if (st.failed)
        return OTF2_NO_FLUSH;
    if (type == OTF2_FILETYPE_EVENTS && statvfs(st.dir, &fs) == 0 &&
        (uint64_t)fs.f_bavail * fs.f_frsize < need) {
        snprintf(st.failure, sizeof st.failure, "file system nearly full: %.1f MiB free, %.1f MiB wanted",
                 (double)fs.f_bavail * (double)fs.f_frsize / 1048576.0, (double)need / 1048576.0);
        st_fail("flush", OTF2_ERROR_ENOSPC);
        return OTF2_NO_FLUSH;
    }
    return OTF2_FLUSH;
}

/* The BufferFlush record OTF2 inserts carries the time of the event that
 * triggered the flush and this as its end: the tracer's clock, so it stays
 * comparable with the events around it. */
static OTF2_TimeStamp
post_flush(void *data, OTF2_FileType type, OTF2_LocationRef location)
{
    (void)data;
    (void)type;
    (void)location;
    return st_now();
}

/* Chunks are chained through a header; only event chunks count against the
 * limit, and a writer always gets its first chunk. Chunks OTF2 releases go
 * to a pool and are only given back to the system after the archive is
 * closed: after a failed write (a full disk) OTF2 3.0 still reads chunks
 * it has already released, and must not find them unmapped. */
struct chunk {
    struct chunk *next;
    uint64_t size;
};
static struct chunk *pool;
static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER; /* threads' writers share the pool */

static void *
chunk_alloc(void *data, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, uint64_t size)
{
    struct chunk *c, **link;

    (void)data;
    (void)location;
    pthread_mutex_lock(&pool_mutex);
    if (type == OTF2_FILETYPE_EVENTS && *per_buffer && event_bytes + size > st.buffer_bytes) {
        pthread_mutex_unlock(&pool_mutex);
        return NULL; /* OTF2 flushes this buffer, releases it, and asks again */
    }
    for (link = &pool; *link && (*link)->size != size; link = &(*link)->next)
        ;
    c = *link;
    if (c)
        *link = c->next;
    else if ((c = malloc(sizeof *c + size)) == NULL) {
        pthread_mutex_unlock(&pool_mutex);
        return NULL;
    }
    c->size = size;
    c->next = *per_buffer;
    *per_buffer = c;
    if (type == OTF2_FILETYPE_EVENTS)
        event_bytes += size;
    pthread_mutex_unlock(&pool_mutex);
    return c + 1;
}

static void
chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, bool final)
{
    struct chunk *c = *per_buffer;

    (void)data;
    (void)location;
    (void)final;
    pthread_mutex_lock(&pool_mutex);
    while (c) {
        struct chunk *next = c->next;
        if (type == OTF2_FILETYPE_EVENTS)
            event_bytes -= c->size;
        c->next = pool;
        pool = c;
        c = next;
    }
    pthread_mutex_unlock(&pool_mutex);
    *per_buffer = NULL;
}

static void
pool_release(void)
{
    while (pool) {
        struct chunk *next = pool->next;
        free(pool);
        pool = next;
    }
}

struct OTF2_CollectiveContext {
    MPI_Comm comm;
};
static struct OTF2_CollectiveContext world_ctx;

static MPI_Datatype
mpi_type(OTF2_Type type)
{
    switch (type) {
    case OTF2_TYPE_UINT8: return MPI_UINT8_T;
    case OTF2_TYPE_INT8: return MPI_INT8_T;
    case OTF2_TYPE_UINT16: return MPI_UINT16_T;
    case OTF2_TYPE_INT16: return MPI_INT16_T;
    case OTF2_TYPE_UINT32: return MPI_UINT32_T;
    case OTF2_TYPE_INT32: return MPI_INT32_T;
    case OTF2_TYPE_UINT64: return MPI_UINT64_T;
    case OTF2_TYPE_INT64: return MPI_INT64_T;
    case OTF2_TYPE_FLOAT: return MPI_FLOAT;
    case OTF2_TYPE_DOUBLE: return MPI_DOUBLE;
    default: return MPI_BYTE;
    }
}

static OTF2_CallbackCode
result(int rc)
{
    return rc == MPI_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode
coll_size(void *data, OTF2_CollectiveContext *ctx, uint32_t *size)
{
    int n = 0, rc = PMPI_Comm_size(ctx->comm, &n);
    (void)data;
    *size = (uint32_t)n;
    return result(rc);
}

static OTF2_CallbackCode
coll_rank(void *data, OTF2_CollectiveContext *ctx, uint32_t *rank)
{
    int r = 0, rc = PMPI_Comm_rank(ctx->comm, &r);
    (void)data;
    *rank = (uint32_t)r;
    return result(rc);
}

static OTF2_CallbackCode
coll_barrier(void *data, OTF2_CollectiveContext *ctx)
{
    (void)data;
    return result(PMPI_Barrier(ctx->comm));
}

static OTF2_CallbackCode
coll_bcast(void *data, OTF2_CollectiveContext *ctx, void *buf, uint32_t n, OTF2_Type type, uint32_t root)
{
    (void)data;
    return result(PMPI_Bcast(buf, (int)n, mpi_type(type), (int)root, ctx->comm));
}

static OTF2_CallbackCode
coll_gather(void *data, OTF2_CollectiveContext *ctx, const void *in, void *out, uint32_t n, OTF2_Type type,
            uint32_t root)
{
    (void)data;
    return result(PMPI_Gather(in, (int)n, mpi_type(type), out, (int)n, mpi_type(type), (int)root, ctx->comm));
}

static OTF2_CallbackCode
coll_scatter(void *data, OTF2_CollectiveContext *ctx, const void *in, void *out, uint32_t n, OTF2_Type type,
             uint32_t root)
{
    (void)data;
    return result(PMPI_Scatter(in, (int)n, mpi_type(type), out, (int)n, mpi_type(type), (int)root, ctx->comm));
}

/* int counts and displacements for the -v forms, on the root only */
static int
counts_of(OTF2_CollectiveContext *ctx, const uint32_t *elements, uint32_t root, int **counts, int **displs)
{
    int rank, size, at = 0;

    *counts = *displs = NULL;
    PMPI_Comm_rank(ctx->comm, &rank);
    if ((uint32_t)rank != root)
        return 0;
    PMPI_Comm_size(ctx->comm, &size);
    *counts = malloc((size_t)size * sizeof **counts);
    *displs = malloc((size_t)size * sizeof **displs);
    if (!*counts || !*displs)
        return -1;
    for (int i = 0; i < size; i++) {
        (*counts)[i] = (int)elements[i];
        (*displs)[i] = at;
        at += (int)elements[i];
    }
    return 0;
}

static OTF2_CallbackCode
coll_gatherv(void *data, OTF2_CollectiveContext *ctx, const void *in, uint32_t n_in, void *out,
             const uint32_t *n_out, OTF2_Type type, uint32_t root)
{
    int *counts, *displs, rc = MPI_ERR_OTHER;

    (void)data;
    if (counts_of(ctx, n_out, root, &counts, &displs) == 0)
        rc = PMPI_Gatherv(in, (int)n_in, mpi_type(type), out, counts, displs, mpi_type(type), (int)root, ctx->comm);
    free(counts);
    free(displs);
    return result(rc);
}

static OTF2_CallbackCode
coll_scatterv(void *data, OTF2_CollectiveContext *ctx, const void *in, const uint32_t *n_in, void *out,
              uint32_t n_out, OTF2_Type type, uint32_t root)
{
    int *counts, *displs, rc = MPI_ERR_OTHER;

    (void)data;
    if (counts_of(ctx, n_in, root, &counts, &displs) == 0)
        rc = PMPI_Scatterv(in, counts, displs, mpi_type(type), out, (int)n_out, mpi_type(type), (int)root,
                           ctx->comm);
    free(counts);
    free(displs);
    return result(rc);
}

static void
coll_release(void *data, OTF2_CollectiveContext *global, OTF2_CollectiveContext *local)
{
    (void)data;
    (void)global;
    (void)local;
}

static const OTF2_CollectiveCallbacks collectives = {
    .otf2_release = coll_release,
    .otf2_get_size = coll_size,
    .otf2_get_rank = coll_rank,
    .otf2_create_local_comm = NULL,
    .otf2_free_local_comm = NULL,
    .otf2_barrier = coll_barrier,
    .otf2_bcast = coll_bcast,
    .otf2_gather = coll_gather,
    .otf2_gatherv = coll_gatherv,
    .otf2_scatter = coll_scatter,
    .otf2_scatterv = coll_scatterv,
};

/* OTF2 keeps pointers to these, so they must outlive the archive. */
static const OTF2_FlushCallbacks flush = { pre_flush, post_flush };
static const OTF2_MemoryCallbacks memory = { chunk_alloc, chunk_free_all };

/* ---- opening --------------------------------------------------------------- */

/* Remove a previous archive named traces in dir: the anchor, the global
 * definitions and the per-location files. Nothing else is touched. */
static int
remove_archive(const char *dir)
{
    char path[4200];
    DIR *d;
    struct dirent *e;

    snprintf(path, sizeof path, "%s/traces", dir);
    d = opendir(path);
    if (d) {
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            if (n > 4 && (strcmp(e->d_name + n - 4, ".evt") == 0 || strcmp(e->d_name + n - 4, ".def") == 0)) {
                snprintf(path, sizeof path, "%s/traces/%s", dir, e->d_name);
                unlink(path);
            }
        }
        closedir(d);
        snprintf(path, sizeof path, "%s/traces", dir);
        if (rmdir(path) != 0 && errno != ENOENT)
            return -1;
    }
    snprintf(path, sizeof path, "%s/traces.def", dir);
    if (unlink(path) != 0 && errno != ENOENT)
        return -1;
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    if (unlink(path) != 0 && errno != ENOENT)
        return -1;
    return 0;
}

static int
exists(const char *dir, const char *name)
{
    char path[4200];
    struct stat sb;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &sb) == 0;
}

/* Rank 0 decides where the archive goes (an absolute path, so ranks with
 * another working directory agree) and whether it may be written. */
static int
choose_dir(void)
{
    const char *env = getenv("SKEIN_TRACE_DIR");
    const char *over = getenv("SKEIN_TRACE_OVERWRITE");
    char cwd[2048];

    if (!env || !*env)
        env = "skein-trace";
    if (env[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(st.dir, sizeof st.dir, "%s", env);
    else
        snprintf(st.dir, sizeof st.dir, "%s/%s", cwd, env);
    if (!exists(st.dir, "traces.otf2") && !exists(st.dir, "traces") && !exists(st.dir, "traces.def"))
        return 0;
    /* Without its anchor file an archive was never finished (the run
     * aborted or was killed): nothing can read it, so it is replaced. */
    if (!exists(st.dir, "traces.otf2")) {
        if (remove_archive(st.dir) == 0) {
            fprintf(stderr, "skeintrace: replacing the unfinished trace in %s (an earlier run stopped before "
                            "MPI_Finalize)\n",
                    st.dir);
            return 0;
        }
        fprintf(stderr, "skeintrace: cannot remove the unfinished trace in %s (%s); not tracing\n", st.dir,
                strerror(errno));
        return -1;
    }
    if (over && strcmp(over, "1") == 0) {
        if (remove_archive(st.dir) == 0)
            return 0;
        fprintf(stderr, "skeintrace: cannot remove the previous trace in %s (%s); not tracing\n", st.dir,
                strerror(errno));
        return -1;
    }
    fprintf(stderr,
            "skeintrace: %s/traces.otf2 already exists; not tracing (set SKEIN_TRACE_OVERWRITE=1 to replace it, "
            "or SKEIN_TRACE_DIR to write elsewhere)\n",
            st.dir);
    return -1;
}

/* All ranks agree that every rank succeeded. */
static int
all_ok(int ok)
{
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, st.icomm);
    return all;
}

int
st_archive_open(void)
{
    const char *mb = getenv("SKEIN_TRACE_BUFFER_MB");
    int ok = 1;
    long limit = mb ? strtol(mb, NULL, 10) : DEFAULT_BUFFER_MB;

    st.buffer_bytes = (uint64_t)(limit >= 1 ? limit : 1) << 20;
    OTF2_Error_RegisterCallback(on_error, NULL);
    if (st.rank == 0)
        ok = choose_dir() == 0;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, st.icomm);
    if (!ok)
        return -1;
    PMPI_Bcast(st.dir, (int)sizeof st.dir, MPI_CHAR, 0, st.icomm);

    st.archive = OTF2_Archive_Open(st.dir, "traces", OTF2_FILEMODE_WRITE, EVENT_CHUNK, DEF_CHUNK,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!all_ok(st.archive != NULL))
        goto fail;
    /* Threads create and fill writers of their own (one location each). */
    ok = st.thread_level < MPI_THREAD_SERIALIZED ||
         OTF2_Pthread_Archive_SetLockingCallbacks(st.archive, NULL) == OTF2_SUCCESS;
    if (!all_ok(ok))
        goto fail;
    ok = OTF2_Archive_SetFlushCallbacks(st.archive, &flush, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetMemoryCallbacks(st.archive, &memory, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetCreator(st.archive, "skeintrace 1.0") == OTF2_SUCCESS &&
         OTF2_Archive_SetDescription(st.archive, "MPI trace written by skeintrace with Score-P's record "
                                                 "conventions") == OTF2_SUCCESS;
    if (!all_ok(ok))
        goto fail;
    world_ctx.comm = st.icomm;
    ok = OTF2_Archive_SetCollectiveCallbacks(st.archive, &collectives, NULL, &world_ctx, NULL) == OTF2_SUCCESS;
    if (!all_ok(ok))
        goto fail;
    ok = OTF2_Archive_OpenEvtFiles(st.archive) == OTF2_SUCCESS;
    if (ok) {
        st.evt = OTF2_Archive_GetEvtWriter(st.archive, (OTF2_LocationRef)st.rank);
        st.locs = malloc(8 * sizeof *st.locs);
        ok = st.evt != NULL && st.locs != NULL;
    }
    if (!all_ok(ok))
        goto fail;
    st.locs[0] = (struct st_loc){ st.evt, 0 };
    st.nlocs = 1;
    st.caplocs = 8;
    return 0;

fail:
    if (st.rank == 0)
        fprintf(stderr, "skeintrace: cannot create the trace in %s (%s); not tracing\n", st.dir,
                st.failure[0] ? st.failure : "OTF2 error");
    st.archive = NULL; /* OTF2's close is collective and may not be safe now */
    st.evt = NULL;
    free(st.locs);
    st.locs = NULL;
    return -1;
}

uint64_t
st_location_id(int rank, uint32_t loc)
{
    return ((uint64_t)loc << 32) | (uint32_t)rank;
}

OTF2_EvtWriter *
st_archive_writer(uint32_t loc)
{
    return OTF2_Archive_GetEvtWriter(st.archive, st_location_id(st.rank, loc));
}

/* ---- closing --------------------------------------------------------------- */

static void
write_map(OTF2_DefWriter *w, OTF2_MappingType type, uint32_t n, const uint32_t *map)
{
    OTF2_IdMap *m;

    if (n == 0)
        return;
    m = OTF2_IdMap_CreateFromUint32Array(n, map, false);
    if (m) {
        st_check(OTF2_DefWriter_WriteMappingTable(w, type, m), "MappingTable");
        OTF2_IdMap_Free(m);
    }
}

/* Every location of this rank gets the rank's mapping tables (the local
 * ids are the rank's) and, like Score-P, two clock offsets: one at the
 * start, already applied, and one at the end holding the drift since, for
 * readers that interpolate. */
static void
write_local_defs(const uint32_t *maps)
{
    if (OTF2_Archive_OpenDefFiles(st.archive) != OTF2_SUCCESS)
        return;
    for (uint32_t l = 0; l < st.nlocs; l++) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(st.archive, st_location_id(st.rank, l));
        if (!w)
            continue;
        if (maps) {
            const uint32_t *m = maps;
            write_map(w, OTF2_MAPPING_COMM, st.ncomms, m);
            m += st.ncomms;
            write_map(w, OTF2_MAPPING_REGION, ST_F_COUNT + st.nuser, m);
            m += ST_F_COUNT + st.nuser;
            write_map(w, OTF2_MAPPING_RMA_WIN, st.nwins, m);
            m += st.nwins;
            write_map(w, OTF2_MAPPING_GROUP, st.ngroups, m);
        }
        st_check(OTF2_DefWriter_WriteClockOffset(w, st.t_start, 0, 0.0), "ClockOffset");
        st_check(OTF2_DefWriter_WriteClockOffset(w, st.t_stop, st.drift, 0.0), "ClockOffset");
        OTF2_Archive_CloseDefWriter(st.archive, w);
    }
    OTF2_Archive_CloseDefFiles(st.archive);
}

/* After a failed write somewhere, one line from rank 0 naming the first
 * failing rank and its reason. Returns 1 when every rank is fine. */
static int
agree_on_failure(void)
{
    int mine = st.failed ? st.rank : st.size, first = st.size, nfailed = 0, failed = st.failed != 0;
    char reason[sizeof st.failure];

    PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, st.icomm);
    if (first == st.size)
        return 1;
    PMPI_Allreduce(&failed, &nfailed, 1, MPI_INT, MPI_SUM, st.icomm);
    memcpy(reason, st.failure, sizeof reason);
    PMPI_Bcast(reason, (int)sizeof reason, MPI_CHAR, first, st.icomm);
    if (st.rank == 0)
        fprintf(stderr, "skeintrace: no trace written to %s: %d rank(s) could not write, rank %d: %s "
                        "(partial files are left there)\n",
                st.dir, nfailed, first, reason[0] ? reason : "unknown error");
    return 0;
}

void
st_archive_close(void)
{
    uint32_t *maps = NULL;
    OTF2_GlobalDefWriter *gw = NULL;
    int ok;

    for (uint32_t l = 0; l < st.nlocs; l++) {
        OTF2_EvtWriter_GetNumberOfEvents(st.locs[l].evt, &st.locs[l].nevents);
        st_check(OTF2_Archive_CloseEvtWriter(st.archive, st.locs[l].evt), "closing the event file");
        st.locs[l].evt = NULL;
    }
    st.evt = NULL;
    OTF2_Archive_CloseEvtFiles(st.archive);
    /* A trace with a hole is no trace: then the archive is abandoned, not
     * closed, so no anchor file announces it (and OTF2 writes no more). */
    if (!agree_on_failure()) {
        st.archive = NULL;
        return;
    }
    if (st.rank == 0)
        gw = OTF2_Archive_GetGlobalDefWriter(st.archive);
    ok = st_unify(gw, &maps) == 0;
    write_local_defs(maps);
    free(maps);
    ok = all_ok(ok && !st.failed);
    if (st.rank == 0) {
        /* true only when every MPI call made while tracing was recorded in full */
        OTF2_Archive_SetBoolProperty(st.archive, "OTF2::MPI_COMMUNICATION_COMPLETE", st_unrecorded_total() == 0,
                                     true);
        st_report_unrecorded();
    }
    if (OTF2_Archive_Close(st.archive) != OTF2_SUCCESS)
        ok = 0;
    st.archive = NULL;
    pool_release();
    if (st.rank == 0) {
        const char *verbose = getenv("SKEIN_TRACE_VERBOSE");
        if (!ok)
            fprintf(stderr, "skeintrace: the trace in %s is incomplete and cannot be read (%s)\n", st.dir,
                    st.failure[0] ? st.failure : "a rank failed to write its definitions");
        else if (verbose && strcmp(verbose, "0") != 0)
            fprintf(stderr, "skeintrace: wrote %s/traces.otf2 (%d ranks)\n", st.dir, st.size);
    }
}
