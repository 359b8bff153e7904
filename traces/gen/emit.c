/* emit.c — the only place skein-gen touches the OTF2 writer API for events.
 *
 * Memory: OTF2 buffers each event writer up to 128 MiB before it flushes,
 * and by default never flushes event buffers on its own (the pre-flush
 * callback decides). Here the pre-flush callback always says "flush", and
 * the memory callbacks give each event writer exactly one chunk: when the
 * chunk is full, the next allocation fails, OTF2 writes the chunk to the
 * location's file and frees it, and the same chunk is handed out again.
 * So memory is one chunk per rank whatever the event count. The chunk is
 * mmap'd and dropped with MADV_DONTNEED after each flush, so only pages
 * actually written count towards the resident set.
 *
 * No post-flush callback is installed: OTF2 then writes no BufferFlush
 * records, so nothing wall-clock-dependent reaches the archive.
 */
#define _DEFAULT_SOURCE
#include "gen.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#define EVT_CHUNK ((uint64_t)256 * 1024) /* OTF2_CHUNK_SIZE_MIN */
#define DEF_CHUNK ((uint64_t)4 * 1024 * 1024)

const char *const gen_ev_names[EV_COUNT] = {
    [EV_PROGRAM_BEGIN] = "PROGRAM_BEGIN",
    [EV_PROGRAM_END] = "PROGRAM_END",
    [EV_ENTER] = "ENTER",
    [EV_LEAVE] = "LEAVE",
    [EV_MPI_SEND] = "MPI_SEND",
    [EV_MPI_RECV] = "MPI_RECV",
    [EV_MPI_ISEND] = "MPI_ISEND",
    [EV_MPI_ISEND_COMPLETE] = "MPI_ISEND_COMPLETE",
    [EV_MPI_IRECV_REQUEST] = "MPI_IRECV_REQUEST",
    [EV_MPI_IRECV] = "MPI_IRECV",
    [EV_MPI_COLLECTIVE_BEGIN] = "MPI_COLLECTIVE_BEGIN",
    [EV_MPI_COLLECTIVE_END] = "MPI_COLLECTIVE_END",
};

struct emitter {
    const struct gen_options *o;
    OTF2_Archive *archive;
    OTF2_EvtWriter **writers; /* NULL for a dry run */
    uint64_t *loc_events;
    uint64_t *last_t;
    uint64_t counts[EV_COUNT];
    uint64_t total;
    uint64_t t_first, t_last;
};

/* ---- failure ------------------------------------------------------------ */

static void
otf2_fail(OTF2_ErrorCode e, const char *what)
{
    fprintf(stderr, "skein-gen: %s: %s (%s)\n", what,
            OTF2_Error_GetName(e), OTF2_Error_GetDescription(e));
    exit(1);
}

#define CHECK(call)                                                         \
    do {                                                                    \
        OTF2_ErrorCode e_ = (call);                                         \
        if (e_ != OTF2_SUCCESS)                                             \
            otf2_fail(e_, #call);                                           \
    } while (0)

/* ---- flush and memory callbacks ----------------------------------------- */

static OTF2_FlushType
pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
          bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_callbacks = {
    .otf2_pre_flush = pre_flush,
    .otf2_post_flush = NULL, /* no BufferFlush records */
};

/* One reusable chunk per event buffer. */
struct evt_pool {
    void *mem;
    uint64_t size;
    bool in_use;
};

/* Definition buffers are few and small: plain malloc, no limit. */
struct def_pool {
    void **mem;
    size_t n, cap;
};

static void *
mem_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc,
             void **per_buffer, uint64_t size)
{
    (void)user, (void)loc;
    if (type == OTF2_FILETYPE_EVENTS) {
        struct evt_pool *p = *per_buffer;
        if (!p) {
            p = calloc(1, sizeof *p);
            if (!p)
                return NULL;
            *per_buffer = p;
        }
        if (p->in_use)
            return NULL; /* makes OTF2 flush this buffer, then ask again */
        if (!p->mem) {
            void *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED)
                return NULL;
            p->mem = m;
            p->size = size;
        }
        p->in_use = true;
        return p->mem;
    }
    struct def_pool *d = *per_buffer;
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d)
            return NULL;
        *per_buffer = d;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 4;
        void **mem = realloc(d->mem, cap * sizeof *mem);
        if (!mem)
            return NULL;
        d->mem = mem;
        d->cap = cap;
    }
    void *m = malloc(size);
    if (m)
        d->mem[d->n++] = m;
    return m;
}

static void
mem_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc,
             void **per_buffer, bool final)
{
    (void)user, (void)loc;
    if (!*per_buffer)
        return;
    if (type == OTF2_FILETYPE_EVENTS) {
        struct evt_pool *p = *per_buffer;
        if (p->mem) {
            if (final) {
                munmap(p->mem, p->size);
                p->mem = NULL;
            } else {
                madvise(p->mem, p->size, MADV_DONTNEED);
            }
        }
        p->in_use = false;
        if (final) {
            free(p);
            *per_buffer = NULL;
        }
        return;
    }
    struct def_pool *d = *per_buffer;
    for (size_t i = 0; i < d->n; i++)
        free(d->mem[i]);
    d->n = 0;
    if (final) {
        free(d->mem);
        free(d);
        *per_buffer = NULL;
    }
}

static OTF2_MemoryCallbacks memory_callbacks = {
    .otf2_allocate = mem_allocate,
    .otf2_free_all = mem_free_all,
};

/* ---- output directory --------------------------------------------------- */

static int
mkdir_p(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        fprintf(stderr, "skein-gen: bad output path '%s'\n", path);
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "skein-gen: mkdir %s: %s\n", buf, strerror(errno));
            return -1;
        }
        buf[i] = c;
    }
    return 0;
}

static bool
has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Removes an archive skein-gen (or anyone) wrote as DIR/traces.*: only the
 * anchor, the global definitions, and *.evt / *.def in DIR/traces. */
static int
remove_archive(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces", dir);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!has_suffix(e->d_name, ".evt") && !has_suffix(e->d_name, ".def"))
                continue;
            char f[4500];
            snprintf(f, sizeof f, "%s/%s", path, e->d_name);
            if (unlink(f) != 0) {
                fprintf(stderr, "skein-gen: rm %s: %s\n", f, strerror(errno));
                closedir(d);
                return -1;
            }
        }
        closedir(d);
        if (rmdir(path) != 0) {
            fprintf(stderr, "skein-gen: rmdir %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    const char *files[] = {"traces.otf2", "traces.def"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (unlink(path) != 0 && errno != ENOENT) {
            fprintf(stderr, "skein-gen: rm %s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int
prepare_dir(const struct gen_options *o)
{
    if (mkdir_p(o->outdir) != 0)
        return -1;
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/traces.otf2", o->outdir);
    bool anchor = stat(path, &st) == 0;
    snprintf(path, sizeof path, "%s/traces", o->outdir);
    bool sub = stat(path, &st) == 0;
    if (!anchor && !sub)
        return 0;
    if (!o->force) {
        fprintf(stderr,
                "skein-gen: %s already holds an archive (traces.otf2 or "
                "traces/); use --force to replace it\n",
                o->outdir);
        return -1;
    }
    return remove_archive(o->outdir);
}

/* ---- open / close ------------------------------------------------------- */

struct emitter *
emitter_open(const struct gen_options *o, const char *description)
{
    struct emitter *em = calloc(1, sizeof *em);
    if (!em)
        goto oom;
    em->o = o;
    em->loc_events = calloc(o->ranks, sizeof *em->loc_events);
    em->last_t = calloc(o->ranks, sizeof *em->last_t);
    if (!em->loc_events || !em->last_t)
        goto oom;
    em->t_first = UINT64_MAX;
    if (o->dry_run)
        return em;

    if (prepare_dir(o) != 0)
        goto fail;
    em->archive = OTF2_Archive_Open(o->outdir, "traces", OTF2_FILEMODE_WRITE,
                                    EVT_CHUNK, DEF_CHUNK,
                                    OTF2_SUBSTRATE_POSIX,
                                    OTF2_COMPRESSION_NONE);
    if (!em->archive) {
        fprintf(stderr, "skein-gen: cannot create archive in %s\n", o->outdir);
        goto fail;
    }
    CHECK(OTF2_Archive_SetFlushCallbacks(em->archive, &flush_callbacks, NULL));
    CHECK(OTF2_Archive_SetMemoryCallbacks(em->archive, &memory_callbacks,
                                          NULL));
    CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(em->archive));
    CHECK(OTF2_Archive_SetCreator(em->archive, "skein-gen " GEN_VERSION));
    CHECK(OTF2_Archive_SetMachineName(em->archive, "skein-gen"));
    CHECK(OTF2_Archive_SetDescription(em->archive, description));
    CHECK(OTF2_Archive_OpenEvtFiles(em->archive));

    em->writers = calloc(o->ranks, sizeof *em->writers);
    if (!em->writers)
        goto oom;
    for (uint32_t r = 0; r < o->ranks; r++) {
        em->writers[r] = OTF2_Archive_GetEvtWriter(em->archive, r);
        if (!em->writers[r]) {
            fprintf(stderr, "skein-gen: no event writer for rank %u\n", r);
            goto fail;
        }
    }
    return em;

oom:
    fprintf(stderr, "skein-gen: out of memory\n");
fail:
    if (em) {
        free(em->writers);
        free(em->loc_events);
        free(em->last_t);
        free(em);
    }
    return NULL;
}

int
emitter_close(struct emitter *em)
{
    const struct gen_options *o = em->o;
    int rc = 0;
    if (em->archive) {
        for (uint32_t r = 0; r < o->ranks; r++)
            CHECK(OTF2_Archive_CloseEvtWriter(em->archive, em->writers[r]));
        CHECK(OTF2_Archive_CloseEvtFiles(em->archive));

        /* Every location gets a (here empty) local definition file; one
         * writer at a time so that 1024 ranks do not hold 1024 buffers. */
        CHECK(OTF2_Archive_OpenDefFiles(em->archive));
        for (uint32_t r = 0; r < o->ranks; r++) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(em->archive, r);
            if (!dw) {
                fprintf(stderr, "skein-gen: no definition writer for %u\n", r);
                exit(1);
            }
            CHECK(OTF2_Archive_CloseDefWriter(em->archive, dw));
        }
        CHECK(OTF2_Archive_CloseDefFiles(em->archive));

        OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(em->archive);
        if (!gw) {
            fprintf(stderr, "skein-gen: no global definition writer\n");
            exit(1);
        }
        if (defs_write(gw, o, em->loc_events, em->t_first, em->t_last) != 0)
            rc = -1;
        CHECK(OTF2_Archive_Close(em->archive));
    }
    free(em->writers);
    free(em->loc_events);
    free(em->last_t);
    free(em);
    return rc;
}

uint64_t
emitter_total(const struct emitter *em)
{
    return em->total;
}

const uint64_t *
emitter_counts(const struct emitter *em)
{
    return em->counts;
}

const uint64_t *
emitter_loc_events(const struct emitter *em)
{
    return em->loc_events;
}

uint64_t
emitter_first_time(const struct emitter *em)
{
    return em->t_first;
}

uint64_t
emitter_last_time(const struct emitter *em)
{
    return em->t_last;
}

/* ---- records ------------------------------------------------------------ */

/* Book-keeping shared by every record; also the generator's own guard
 * against a timing bug: a timestamp going backwards on a location is fatal. */
static inline void
note(struct emitter *em, uint32_t r, uint64_t t, enum gen_ev k)
{
    if (t < em->last_t[r]) {
        fprintf(stderr,
                "skein-gen: internal error: rank %u time %llu after %llu (%s)\n",
                r, (unsigned long long)t, (unsigned long long)em->last_t[r],
                gen_ev_names[k]);
        abort();
    }
    em->last_t[r] = t;
    em->loc_events[r]++;
    em->counts[k]++;
    em->total++;
    if (t < em->t_first)
        em->t_first = t;
    if (t > em->t_last)
        em->t_last = t;
}

#define W(r) (em->writers[r])

void
em_program_begin(struct emitter *em, uint32_t r, uint64_t t)
{
    note(em, r, t, EV_PROGRAM_BEGIN);
    if (em->writers)
        CHECK(OTF2_EvtWriter_ProgramBegin(W(r), NULL, t, GEN_STR_PROGRAM, 0,
                                          NULL));
}

void
em_program_end(struct emitter *em, uint32_t r, uint64_t t)
{
    note(em, r, t, EV_PROGRAM_END);
    if (em->writers)
        CHECK(OTF2_EvtWriter_ProgramEnd(W(r), NULL, t, 0));
}

void
em_enter(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g)
{
    note(em, r, t, EV_ENTER);
    if (em->writers)
        CHECK(OTF2_EvtWriter_Enter(W(r), NULL, t, (OTF2_RegionRef)g));
}

void
em_leave(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g)
{
    note(em, r, t, EV_LEAVE);
    if (em->writers)
        CHECK(OTF2_EvtWriter_Leave(W(r), NULL, t, (OTF2_RegionRef)g));
}

void
em_send(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
        uint32_t tag, uint64_t bytes)
{
    note(em, r, t, EV_MPI_SEND);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiSend(W(r), NULL, t, dst, GEN_COMM_WORLD, tag,
                                     bytes));
}

void
em_recv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
        uint32_t tag, uint64_t bytes)
{
    note(em, r, t, EV_MPI_RECV);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiRecv(W(r), NULL, t, src, GEN_COMM_WORLD, tag,
                                     bytes));
}

void
em_isend(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
         uint32_t tag, uint64_t bytes, uint64_t req)
{
    note(em, r, t, EV_MPI_ISEND);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiIsend(W(r), NULL, t, dst, GEN_COMM_WORLD, tag,
                                      bytes, req));
}

void
em_isend_complete(struct emitter *em, uint32_t r, uint64_t t, uint64_t req)
{
    note(em, r, t, EV_MPI_ISEND_COMPLETE);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiIsendComplete(W(r), NULL, t, req));
}

void
em_irecv_request(struct emitter *em, uint32_t r, uint64_t t, uint64_t req)
{
    note(em, r, t, EV_MPI_IRECV_REQUEST);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiIrecvRequest(W(r), NULL, t, req));
}

void
em_irecv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
         uint32_t tag, uint64_t bytes, uint64_t req)
{
    note(em, r, t, EV_MPI_IRECV);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiIrecv(W(r), NULL, t, src, GEN_COMM_WORLD, tag,
                                      bytes, req));
}

void
em_coll_begin(struct emitter *em, uint32_t r, uint64_t t)
{
    note(em, r, t, EV_MPI_COLLECTIVE_BEGIN);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiCollectiveBegin(W(r), NULL, t));
}

void
em_coll_end(struct emitter *em, uint32_t r, uint64_t t, enum gen_coll op,
            uint32_t root, uint64_t sent, uint64_t received)
{
    static const OTF2_CollectiveOp ops[] = {
        [COLL_BARRIER] = OTF2_COLLECTIVE_OP_BARRIER,
        [COLL_BCAST] = OTF2_COLLECTIVE_OP_BCAST,
        [COLL_REDUCE] = OTF2_COLLECTIVE_OP_REDUCE,
        [COLL_ALLREDUCE] = OTF2_COLLECTIVE_OP_ALLREDUCE,
    };
    note(em, r, t, EV_MPI_COLLECTIVE_END);
    if (em->writers)
        CHECK(OTF2_EvtWriter_MpiCollectiveEnd(
            W(r), NULL, t, ops[op], GEN_COMM_WORLD,
            root == GEN_NO_ROOT ? OTF2_UNDEFINED_UINT32 : root, sent,
            received));
}
