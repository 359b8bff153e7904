/* sim.h — internals shared by sim.c (the timing model and MPI call
 * primitives) and patterns.c (what each pattern does per iteration).
 *
 * The model: every rank has its own clock. Computation and MPI call costs
 * advance it; a receive cannot complete before its message arrived (send
 * record time + latency), and a collective cannot complete before its last
 * member entered (+ latency). Patterns run in rounds: in the posting phase
 * of a round every rank issues its sends (they never block: eager
 * protocol), which fixes their timestamps; in the completion phase every
 * rank finishes its receives and waits, which only needs send times of the
 * same round. So one round needs O(ranks) state, and every timestamp
 * follows from causality alone, which is what makes an injected delay
 * propagate exactly as it would in a real run.
 */
#ifndef SKEIN_GEN_SIM_H
#define SKEIN_GEN_SIM_H

#include "gen.h"

#define SLOTS 4     /* sends per rank per round, at most */
#define MAX_PEND 16 /* outstanding requests per rank, at most */

/* Timing model, nanoseconds (ticks: 1e9 per second). */
#define T_BASE 1000000000000ull /* first timestamp of the run */
#define LAT_INTER 2000u         /* message latency between nodes */
#define LAT_INTRA 400u          /* ... within a node */
#define BW_INTER 10u            /* bytes per ns between nodes */
#define BW_INTRA 40u            /* ... within a node */

struct pending {
    uint64_t req;
    uint64_t key; /* completion time: arrival (recv) or post time (send) */
    uint32_t peer, tag;
    bool is_recv;
};

struct rank {
    uint64_t t;        /* this rank's clock */
    uint64_t rng;      /* xorshift state: draws follow program order */
    uint64_t next_req; /* Score-P numbers requests per location from 1 */
    uint32_t npend;
    struct pending pend[MAX_PEND];
};

/* Send record time of (rank, slot) in the round `gen`. */
struct sent {
    uint64_t t;
    uint64_t gen;
};

struct sim {
    const struct gen_options *o;
    struct emitter *em;
    uint32_t P;
    struct rank *rk;
    struct sent *sent; /* [P * SLOTS] */
    uint32_t *node;    /* [P] */
    uint64_t gen;      /* current round */
    uint32_t px, py;   /* stencil grid */
    uint32_t rounds_log2; /* ceil(log2 P) */
};

uint32_t sim_rnd(struct sim *s, uint32_t r, uint32_t below);
uint64_t sim_hash(uint64_t x);

/* Rounds. */
void sim_round(struct sim *s);

/* When the message rank src sent in `slot` this round reaches dst. */
uint64_t sim_arrival(const struct sim *s, uint32_t src, uint32_t dst, uint32_t slot);

/* Point-to-point primitives; each advances rank r's clock past the call
 * and the user-code gap after it. `slot` names the send within the round
 * (sender side); the receiver names the same slot of the sender. */
void p_isend(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag,
             uint32_t slot);
void p_irecv(struct sim *s, uint32_t r, uint32_t src, uint32_t tag,
             uint32_t slot);
void p_send(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag,
            uint32_t slot);
void p_recv(struct sim *s, uint32_t r, uint32_t src, uint32_t tag,
            uint32_t slot);
/* MPI_Wait / MPI_Waitall over all of r's outstanding requests; nothing
 * when there are none. */
void p_complete(struct sim *s, uint32_t r, enum gen_region g);
/* MPI_Sendrecv split at the round's phase boundary: the send half in the
 * posting phase, the receive half and the Leave in the completion phase. */
void p_sendrecv_post(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag,
                     uint32_t slot);
void p_sendrecv_finish(struct sim *s, uint32_t r, uint32_t src, uint32_t tag,
                       uint32_t slot);

/* A collective on MPI_COMM_WORLD over all ranks. */
void c_collective(struct sim *s, enum gen_coll op, uint32_t root,
                  uint64_t bytes);

/* The communication part of one iteration of a pattern (patterns.c). */
void pattern_run(struct sim *s, enum gen_pattern p, uint64_t it);

#endif
