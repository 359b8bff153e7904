/* emit.c — the only place skein-gen writes OTF2 events.
 *
 * Memory. OTF2 buffers each event writer up to 128 MiB before it flushes,
 * and by default never flushes an event buffer on its own: the pre-flush
 * callback decides. Here the pre-flush callback always says "flush", and
 * the memory callbacks give each event writer exactly one chunk (1 MiB, as
 * Score-P): when it is full, the next allocation fails, OTF2 writes the
 * chunk to the location's file and frees it, and the same chunk is handed
 * out again. The chunk is mmap'd and dropped with MADV_DONTNEED after each
 * flush, so only pages written since count towards the resident set.
 * Below the buffer, OTF2's file layer collects writes in a 4 MiB buffer per
 * open file. So an open location costs up to about 5 MiB; the writer keeps
 * a memory budget by writing the ranks in blocks (passes), each pass
 * re-running the cheap, deterministic simulation and recording only its
 * block. A first pass only counts, which fixes the iteration count for
 * --events, the per-location event counts, and the block boundaries.
 *
 * No post-flush callback is installed: OTF2 then writes no BufferFlush
 * records, so nothing wall-clock-dependent reaches the archive.
 */
#define _DEFAULT_SOURCE
#include "gen.h"
#include "outdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <otf2/otf2.h>

/* Score-P's chunk sizes. */
#define EVT_CHUNK ((uint64_t)1024 * 1024)
#define DEF_CHUNK ((uint64_t)256 * 1024)

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
    const char *description;
    OTF2_Archive *archive;    /* NULL for a dry run */
    OTF2_EvtWriter **writers; /* [ranks], open ones for the pass only */
    uint32_t lo, span;        /* the pass records ranks lo .. lo+span-1 */
    bool planning;            /* the counting pass */
    bool writing;             /* a pass that writes */
    uint64_t *loc_events;     /* per rank: planned, then checked */
    uint64_t *loc_written;    /* per rank, in its writing pass */
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

/* ---- open, passes, close ------------------------------------------------ */

struct emitter *
emitter_open(const struct gen_options *o, const char *description)
{
    struct emitter *em = calloc(1, sizeof *em);
    if (!em)
        goto oom;
    em->o = o;
    em->description = description;
    em->loc_events = calloc(o->ranks, sizeof *em->loc_events);
    em->loc_written = calloc(o->ranks, sizeof *em->loc_written);
    em->last_t = calloc(o->ranks, sizeof *em->last_t);
    em->writers = calloc(o->ranks, sizeof *em->writers);
    if (!em->loc_events || !em->loc_written || !em->last_t || !em->writers)
        goto oom;
    em->t_first = UINT64_MAX;
    if (o->dry_run)
        return em;

    if (outdir_prepare("skein-gen", o->outdir, o->force) != 0)
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
    return em;

oom:
    fprintf(stderr, "skein-gen: out of memory\n");
fail:
    if (em) {
        free(em->writers);
        free(em->loc_events);
        free(em->loc_written);
        free(em->last_t);
        free(em);
    }
    return NULL;
}

void
emitter_plan(struct emitter *em)
{
    em->lo = 0;
    em->span = em->o->ranks;
    em->planning = true;
    em->writing = false;
}

#define FILE_BUFFER ((uint64_t)4 * 1024 * 1024) /* OTF2's, per open file */

uint64_t
emitter_location_memory(const struct emitter *em, uint32_t r)
{
    /* ~14 bytes per event in these traces; 16 leaves room. */
    uint64_t bytes = 16 * em->loc_events[r] + 64;
    return (bytes < EVT_CHUNK ? bytes : EVT_CHUNK) +
           (bytes < FILE_BUFFER ? bytes : FILE_BUFFER);
}

void
emitter_write_pass(struct emitter *em, uint32_t lo, uint32_t hi)
{
    em->planning = false;
    em->writing = em->archive != NULL;
    em->lo = lo;
    em->span = hi - lo;
    for (uint32_t r = lo; r < hi; r++) {
        em->loc_written[r] = 0;
        em->last_t[r] = 0;
        if (!em->writing)
            continue;
        em->writers[r] = OTF2_Archive_GetEvtWriter(em->archive, r);
        if (!em->writers[r]) {
            fprintf(stderr, "skein-gen: no event writer for rank %u\n", r);
            exit(1);
        }
    }
}

int
emitter_end_pass(struct emitter *em)
{
    int rc = 0;
    for (uint32_t r = em->lo; r < em->lo + em->span; r++) {
        if (em->writing) {
            CHECK(OTF2_Archive_CloseEvtWriter(em->archive, em->writers[r]));
            em->writers[r] = NULL;
        }
        if (em->loc_written[r] != em->loc_events[r]) {
            fprintf(stderr,
                    "skein-gen: internal error: rank %u wrote %llu events, "
                    "planned %llu\n",
                    r, (unsigned long long)em->loc_written[r],
                    (unsigned long long)em->loc_events[r]);
            rc = -1;
        }
    }
    em->span = 0;
    em->writing = false;
    return rc;
}

int
emitter_close(struct emitter *em)
{
    const struct gen_options *o = em->o;
    int rc = 0;
    if (em->archive) {
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
        if (outdir_fix_trace_id(o->outdir, em->description) != 0)
            fprintf(stderr, "skein-gen: warning: could not make the trace id "
                            "reproducible; archives will differ in it\n");
    }
    free(em->writers);
    free(em->loc_events);
    free(em->loc_written);
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

/* Book-keeping shared by every record. Returns whether rank r records in
 * this pass. Also the generator's guard against a timing bug: a timestamp
 * going backwards on a location is fatal. */
static inline bool
note(struct emitter *em, uint32_t r, uint64_t t, enum gen_ev k)
{
    if (r - em->lo >= em->span) /* unsigned: also r < lo */
        return false;
    if (t < em->last_t[r]) {
        fprintf(stderr,
                "skein-gen: internal error: rank %u time %llu after %llu (%s)\n",
                r, (unsigned long long)t, (unsigned long long)em->last_t[r],
                gen_ev_names[k]);
        abort();
    }
    em->last_t[r] = t;
    if (!em->planning) {
        em->loc_written[r]++;
        return em->writing;
    }
    em->loc_events[r]++;
    em->counts[k]++;
    em->total++;
    if (t < em->t_first)
        em->t_first = t;
    if (t > em->t_last)
        em->t_last = t;
    return false;
}

#define W(r) (em->writers[r])

void
em_program_begin(struct emitter *em, uint32_t r, uint64_t t)
{
    if (note(em, r, t, EV_PROGRAM_BEGIN))
        CHECK(OTF2_EvtWriter_ProgramBegin(W(r), NULL, t, GEN_STR_PROGRAM, 0,
                                          NULL));
}

void
em_program_end(struct emitter *em, uint32_t r, uint64_t t)
{
    if (note(em, r, t, EV_PROGRAM_END))
        CHECK(OTF2_EvtWriter_ProgramEnd(W(r), NULL, t, 0));
}

void
em_enter(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g)
{
    if (note(em, r, t, EV_ENTER))
        CHECK(OTF2_EvtWriter_Enter(W(r), NULL, t, (OTF2_RegionRef)g));
}

void
em_leave(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g)
{
    if (note(em, r, t, EV_LEAVE))
        CHECK(OTF2_EvtWriter_Leave(W(r), NULL, t, (OTF2_RegionRef)g));
}

void
em_send(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
        uint32_t tag, uint64_t bytes)
{
    if (note(em, r, t, EV_MPI_SEND))
        CHECK(OTF2_EvtWriter_MpiSend(W(r), NULL, t, dst, GEN_COMM_WORLD, tag,
                                     bytes));
}

void
em_recv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
        uint32_t tag, uint64_t bytes)
{
    if (note(em, r, t, EV_MPI_RECV))
        CHECK(OTF2_EvtWriter_MpiRecv(W(r), NULL, t, src, GEN_COMM_WORLD, tag,
                                     bytes));
}

void
em_isend(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
         uint32_t tag, uint64_t bytes, uint64_t req)
{
    if (note(em, r, t, EV_MPI_ISEND))
        CHECK(OTF2_EvtWriter_MpiIsend(W(r), NULL, t, dst, GEN_COMM_WORLD, tag,
                                      bytes, req));
}

void
em_isend_complete(struct emitter *em, uint32_t r, uint64_t t, uint64_t req)
{
    if (note(em, r, t, EV_MPI_ISEND_COMPLETE))
        CHECK(OTF2_EvtWriter_MpiIsendComplete(W(r), NULL, t, req));
}

void
em_irecv_request(struct emitter *em, uint32_t r, uint64_t t, uint64_t req)
{
    if (note(em, r, t, EV_MPI_IRECV_REQUEST))
        CHECK(OTF2_EvtWriter_MpiIrecvRequest(W(r), NULL, t, req));
}

void
em_irecv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
         uint32_t tag, uint64_t bytes, uint64_t req)
{
    if (note(em, r, t, EV_MPI_IRECV))
        CHECK(OTF2_EvtWriter_MpiIrecv(W(r), NULL, t, src, GEN_COMM_WORLD, tag,
                                      bytes, req));
}

void
em_coll_begin(struct emitter *em, uint32_t r, uint64_t t)
{
    if (note(em, r, t, EV_MPI_COLLECTIVE_BEGIN))
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
    if (note(em, r, t, EV_MPI_COLLECTIVE_END))
        CHECK(OTF2_EvtWriter_MpiCollectiveEnd(
            W(r), NULL, t, ops[op], GEN_COMM_WORLD,
            root == GEN_NO_ROOT ? OTF2_UNDEFINED_UINT32 : root, sent,
            received));
}
