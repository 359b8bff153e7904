/* gen.h — shared types of skein-gen, the synthetic Score-P-like OTF2
 * trace generator.
 *
 * Three parts: options (skein-gen.c), the timing simulation that decides
 * what every rank does and when (sim.c, patterns.c), and the emitter that
 * turns those decisions into OTF2 records or, for --dry-run, only counts
 * them (emit.c, defs.c). The simulation never sees OTF2 types; the emitter
 * never decides a timestamp.
 */
#ifndef SKEIN_GEN_H
#define SKEIN_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN_VERSION "1.0"

/* ---- options ------------------------------------------------------------ */

enum gen_pattern {
    PAT_STENCIL,
    PAT_TREE,
    PAT_RING,
    PAT_DISSEMINATION,
    PAT_SPARSE,
    PAT_COALESCE,
    PAT_MIXED,
    PAT_GATHER, /* after mixed: mixed cycles through the ones before it */
    PAT_COUNT
};

/* Extra computation of delay_ns on rank `rank` in iteration `iteration`. */
struct gen_delay {
    uint64_t delay_ns;
    uint32_t rank;
    uint64_t iteration;
};

struct gen_options {
    const char *outdir;
    uint32_t ranks;
    uint64_t iterations;      /* used when target_events == 0 */
    uint64_t target_events;   /* --events: smallest N reaching it */
    enum gen_pattern pattern;
    uint32_t allreduce_every; /* 0: none */
    struct gen_delay *delays;
    size_t ndelays;
    uint32_t nodes;
    uint64_t seed;
    uint64_t compute_ns;
    uint32_t jitter_pct;      /* compute jitter amplitude, percent */
    uint64_t msg_bytes;
    uint32_t skip_pct;        /* sparse: share of messages skipped */
    uint64_t mem_budget;      /* bytes of open event writers per pass */
    bool sendrecv;            /* ring/dissemination use MPI_Sendrecv */
    bool dry_run;
    bool force;
    bool quiet;
};

const char *gen_pattern_name(enum gen_pattern p);

/* ---- what the emitter can record ---------------------------------------- */

/* Region ids in the trace are these values. */
enum gen_region {
    REG_MAIN,
    REG_ITERATION,
    REG_COMPUTE,
    REG_MPI_INIT,
    REG_MPI_FINALIZE,
    REG_MPI_COMM_RANK,
    REG_MPI_COMM_SIZE,
    REG_MPI_SEND,
    REG_MPI_RECV,
    REG_MPI_ISEND,
    REG_MPI_IRECV,
    REG_MPI_SENDRECV,
    REG_MPI_WAIT,
    REG_MPI_WAITALL,
    REG_MPI_BARRIER,
    REG_MPI_BCAST,
    REG_MPI_REDUCE,
    REG_MPI_ALLREDUCE,
    REG_COUNT
};

enum gen_coll { COLL_BARRIER, COLL_BCAST, COLL_REDUCE, COLL_ALLREDUCE };

/* Communicator ids in the trace. */
#define GEN_COMM_WORLD 0u
#define GEN_COMM_SELF  1u
#define GEN_NO_ROOT    UINT32_MAX
/* String id of the program name (defs.c writes "" first, then it). */
#define GEN_STR_PROGRAM 1u

/* Record kinds, named as otf2-print names them. */
enum gen_ev {
    EV_PROGRAM_BEGIN,
    EV_PROGRAM_END,
    EV_ENTER,
    EV_LEAVE,
    EV_MPI_SEND,
    EV_MPI_RECV,
    EV_MPI_ISEND,
    EV_MPI_ISEND_COMPLETE,
    EV_MPI_IRECV_REQUEST,
    EV_MPI_IRECV,
    EV_MPI_COLLECTIVE_BEGIN,
    EV_MPI_COLLECTIVE_END,
    EV_COUNT
};

extern const char *const gen_ev_names[EV_COUNT];

/* ---- emitter (emit.c) --------------------------------------------------- */

struct emitter;

/* Opens the archive under o->outdir (nothing on disk for o->dry_run);
 * description goes into the anchor file. Returns NULL after printing the
 * reason. The options must outlive the emitter. */
struct emitter *emitter_open(const struct gen_options *o,
                             const char *description);

/* Passes. The simulation runs once per pass and calls em_* for every
 * rank; a pass records only its ranks. emitter_plan starts the counting
 * pass over all ranks (nothing written); it fixes the totals and the
 * per-location counts. emitter_write_pass opens the event writers of ranks
 * lo .. hi-1; emitter_end_pass closes them and checks that each wrote what
 * the plan counted (0, or -1 after printing). For a dry run a write pass
 * writes nothing. */
void emitter_plan(struct emitter *em);
void emitter_write_pass(struct emitter *em, uint32_t lo, uint32_t hi);
int emitter_end_pass(struct emitter *em);

/* Estimated peak memory of rank r's open event writer, from the plan. */
uint64_t emitter_location_memory(const struct emitter *em, uint32_t r);

/* Writes the local and global definitions, closes the archive, frees.
 * Returns 0 or -1 after printing the reason. */
int emitter_close(struct emitter *em);

uint64_t emitter_total(const struct emitter *em);
const uint64_t *emitter_counts(const struct emitter *em);      /* [EV_COUNT] */
const uint64_t *emitter_loc_events(const struct emitter *em);  /* [ranks] */
uint64_t emitter_first_time(const struct emitter *em);
uint64_t emitter_last_time(const struct emitter *em);

void em_program_begin(struct emitter *em, uint32_t r, uint64_t t);
void em_program_end(struct emitter *em, uint32_t r, uint64_t t);
void em_enter(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g);
void em_leave(struct emitter *em, uint32_t r, uint64_t t, enum gen_region g);
void em_send(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
             uint32_t tag, uint64_t bytes);
void em_recv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
             uint32_t tag, uint64_t bytes);
void em_isend(struct emitter *em, uint32_t r, uint64_t t, uint32_t dst,
              uint32_t tag, uint64_t bytes, uint64_t req);
void em_isend_complete(struct emitter *em, uint32_t r, uint64_t t,
                       uint64_t req);
void em_irecv_request(struct emitter *em, uint32_t r, uint64_t t,
                      uint64_t req);
void em_irecv(struct emitter *em, uint32_t r, uint64_t t, uint32_t src,
              uint32_t tag, uint64_t bytes, uint64_t req);
void em_coll_begin(struct emitter *em, uint32_t r, uint64_t t);
void em_coll_end(struct emitter *em, uint32_t r, uint64_t t,
                 enum gen_coll op, uint32_t root, uint64_t sent,
                 uint64_t received);

/* ---- output directory (outdir.c) --------------------------------------- */

/* outdir_prepare, outdir_fix_trace_id: outdir.h */

/* ---- definitions (defs.c) ----------------------------------------------- */

/* Writes all global definitions. loc_events[r] is the event count of rank
 * r's location; first/last bound every timestamp. Returns 0 or -1. */
struct OTF2_GlobalDefWriter_struct;
int defs_write(struct OTF2_GlobalDefWriter_struct *w,
               const struct gen_options *o, const uint64_t *loc_events,
               uint64_t first, uint64_t last);

/* Node of rank r under block placement over o->nodes nodes. */
uint32_t gen_node_of(const struct gen_options *o, uint32_t r);

/* ---- simulation (sim.c, patterns.c) ------------------------------------- */

struct sim;

struct sim *sim_create(const struct gen_options *o, struct emitter *em);
void sim_destroy(struct sim *s);
void sim_prologue(struct sim *s);
void sim_iteration(struct sim *s, uint64_t it);
void sim_epilogue(struct sim *s);
/* Events sim_epilogue adds per rank; --events plans with it. */
uint64_t sim_epilogue_events_per_rank(void);

#endif
