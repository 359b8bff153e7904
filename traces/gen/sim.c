/* sim.c — per-rank clocks, MPI call primitives and collectives, and the
 * program frame (prologue, iteration frame, epilogue) around the patterns.
 * See sim.h for the timing model.
 */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- randomness: deterministic, per rank, in program order -------------- */

uint64_t
sim_hash(uint64_t x)
{
    /* splitmix64 finaliser */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static inline uint64_t
next64(struct rank *k)
{
    uint64_t x = k->rng; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    k->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint32_t
sim_rnd(struct sim *s, uint32_t r, uint32_t below)
{
    return (uint32_t)((next64(&s->rk[r]) >> 32) % below);
}

/* Costs of pieces of an MPI call and of user code between calls. */
static inline uint64_t
cost_in(struct sim *s, uint32_t r)
{
    return 120 + sim_rnd(s, r, 64);
}

static inline uint64_t
cost_out(struct sim *s, uint32_t r)
{
    return 100 + sim_rnd(s, r, 64);
}

static inline uint64_t
cost_gap(struct sim *s, uint32_t r)
{
    return 40 + sim_rnd(s, r, 32);
}

static inline uint64_t
cost_copy(uint64_t bytes)
{
    return bytes / 20;
}

static inline uint64_t
latency(const struct sim *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
    if (s->node[src] == s->node[dst])
        return LAT_INTRA + bytes / BW_INTRA;
    return LAT_INTER + bytes / BW_INTER;
}

static inline uint64_t
max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* ---- life cycle --------------------------------------------------------- */

struct sim *
sim_create(const struct gen_options *o, struct emitter *em)
{
    struct sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = o;
    s->em = em;
    s->P = o->ranks;
    s->rk = calloc(s->P, sizeof *s->rk);
    s->sent = calloc((size_t)s->P * SLOTS, sizeof *s->sent);
    s->node = calloc(s->P, sizeof *s->node);
    if (!s->rk || !s->sent || !s->node) {
        sim_destroy(s);
        return NULL;
    }
    for (uint32_t r = 0; r < s->P; r++) {
        s->rk[r].rng = sim_hash(o->seed * 0x100000001B3ull + r) | 1;
        s->rk[r].next_req = 1;
        s->node[r] = gen_node_of(o, r);
    }
    /* Stencil grid: the most square px * py = P with px <= py. */
    s->px = 1;
    for (uint32_t d = 1; (uint64_t)d * d <= s->P; d++)
        if (s->P % d == 0)
            s->px = d;
    s->py = s->P / s->px;
    s->rounds_log2 = 0;
    while ((1u << s->rounds_log2) < s->P)
        s->rounds_log2++;
    return s;
}

void
sim_destroy(struct sim *s)
{
    if (!s)
        return;
    free(s->rk);
    free(s->sent);
    free(s->node);
    free(s);
}

void
sim_round(struct sim *s)
{
    s->gen++;
}

/* ---- point-to-point ----------------------------------------------------- */

static void
set_sent(struct sim *s, uint32_t r, uint32_t slot, uint64_t t)
{
    struct sent *e = &s->sent[(size_t)r * SLOTS + slot];
    e->t = t;
    e->gen = s->gen;
}

static uint64_t
arrival(const struct sim *s, uint32_t src, uint32_t dst, uint32_t slot)
{
    const struct sent *e = &s->sent[(size_t)src * SLOTS + slot];
    if (e->gen != s->gen) {
        fprintf(stderr,
                "skein-gen: internal error: rank %u receives slot %u of rank "
                "%u, which sent nothing this round\n",
                dst, slot, src);
        abort();
    }
    return e->t + latency(s, src, dst, s->o->msg_bytes);
}

uint64_t
sim_arrival(const struct sim *s, uint32_t src, uint32_t dst, uint32_t slot)
{
    return arrival(s, src, dst, slot);
}

static void
push_pending(struct sim *s, uint32_t r, uint64_t req, uint64_t key,
             uint32_t peer, uint32_t tag, bool is_recv)
{
    struct rank *k = &s->rk[r];
    if (k->npend == MAX_PEND) {
        fprintf(stderr, "skein-gen: internal error: too many requests\n");
        abort();
    }
    k->pend[k->npend++] = (struct pending){
        .req = req, .key = key, .peer = peer, .tag = tag, .is_recv = is_recv};
}

void
p_isend(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag, uint32_t slot)
{
    struct rank *k = &s->rk[r];
    uint64_t bytes = s->o->msg_bytes;
    em_enter(s->em, r, k->t, REG_MPI_ISEND);
    uint64_t t = k->t + cost_in(s, r);
    uint64_t req = k->next_req++;
    em_isend(s->em, r, t, dst, tag, bytes, req);
    set_sent(s, r, slot, t);
    push_pending(s, r, req, t, dst, tag, false);
    t += cost_out(s, r) + cost_copy(bytes);
    em_leave(s->em, r, t, REG_MPI_ISEND);
    k->t = t + cost_gap(s, r);
}

void
p_irecv(struct sim *s, uint32_t r, uint32_t src, uint32_t tag, uint32_t slot)
{
    struct rank *k = &s->rk[r];
    em_enter(s->em, r, k->t, REG_MPI_IRECV);
    uint64_t t = k->t + cost_in(s, r);
    uint64_t req = k->next_req++;
    em_irecv_request(s->em, r, t, req);
    /* The sender may post later in this round: key holds the slot until
     * p_complete resolves it into an arrival time. */
    push_pending(s, r, req, slot, src, tag, true);
    t += cost_out(s, r);
    em_leave(s->em, r, t, REG_MPI_IRECV);
    k->t = t + cost_gap(s, r);
}

void
p_send(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag, uint32_t slot)
{
    struct rank *k = &s->rk[r];
    uint64_t bytes = s->o->msg_bytes;
    em_enter(s->em, r, k->t, REG_MPI_SEND);
    uint64_t t = k->t + cost_in(s, r);
    em_send(s->em, r, t, dst, tag, bytes);
    set_sent(s, r, slot, t);
    t += cost_out(s, r) + cost_copy(bytes);
    em_leave(s->em, r, t, REG_MPI_SEND);
    k->t = t + cost_gap(s, r);
}

void
p_recv(struct sim *s, uint32_t r, uint32_t src, uint32_t tag, uint32_t slot)
{
    struct rank *k = &s->rk[r];
    em_enter(s->em, r, k->t, REG_MPI_RECV);
    uint64_t t = max64(k->t + cost_in(s, r), arrival(s, src, r, slot) + 50);
    em_recv(s->em, r, t, src, tag, s->o->msg_bytes);
    t += cost_out(s, r);
    em_leave(s->em, r, t, REG_MPI_RECV);
    k->t = t + cost_gap(s, r);
}

void
p_sendrecv_post(struct sim *s, uint32_t r, uint32_t dst, uint32_t tag,
                uint32_t slot)
{
    struct rank *k = &s->rk[r];
    em_enter(s->em, r, k->t, REG_MPI_SENDRECV);
    uint64_t t = k->t + cost_in(s, r);
    em_send(s->em, r, t, dst, tag, s->o->msg_bytes);
    set_sent(s, r, slot, t);
    k->t = t + cost_copy(s->o->msg_bytes);
}

void
p_sendrecv_finish(struct sim *s, uint32_t r, uint32_t src, uint32_t tag,
                  uint32_t slot)
{
    struct rank *k = &s->rk[r];
    uint64_t t = max64(k->t + 30, arrival(s, src, r, slot) + 50);
    em_recv(s->em, r, t, src, tag, s->o->msg_bytes);
    t += cost_out(s, r);
    em_leave(s->em, r, t, REG_MPI_SENDRECV);
    k->t = t + cost_gap(s, r);
}

void
p_complete(struct sim *s, uint32_t r, enum gen_region g)
{
    struct rank *k = &s->rk[r];
    uint32_t n = k->npend;
    if (n == 0)
        return;
    uint64_t t0 = k->t;
    em_enter(s->em, r, t0, g);

    /* Completion times: sends completed locally (eager), receives when
     * their message arrived. Records follow in completion order, as
     * Score-P writes them inside the Wait/Waitall that completes them. */
    uint32_t order[MAX_PEND];
    for (uint32_t i = 0; i < n; i++) {
        struct pending *p = &k->pend[i];
        if (p->is_recv)
            p->key = arrival(s, p->peer, r, (uint32_t)p->key) + 50;
        else
            p->key = t0;
        uint32_t j = i;
        while (j > 0 && k->pend[order[j - 1]].key > p->key) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    uint64_t t = t0 + cost_in(s, r);
    for (uint32_t i = 0; i < n; i++) {
        const struct pending *p = &k->pend[order[i]];
        t = max64(t, p->key);
        if (p->is_recv)
            em_irecv(s->em, r, t, p->peer, p->tag, s->o->msg_bytes, p->req);
        else
            em_isend_complete(s->em, r, t, p->req);
        t += 10 + sim_rnd(s, r, 16);
    }
    k->npend = 0;
    t += cost_out(s, r);
    em_leave(s->em, r, t, g);
    k->t = t + cost_gap(s, r);
}

/* ---- collectives -------------------------------------------------------- */

void
c_collective(struct sim *s, enum gen_coll op, uint32_t root, uint64_t bytes)
{
    static const enum gen_region region[] = {
        [COLL_BARRIER] = REG_MPI_BARRIER,
        [COLL_BCAST] = REG_MPI_BCAST,
        [COLL_REDUCE] = REG_MPI_REDUCE,
        [COLL_ALLREDUCE] = REG_MPI_ALLREDUCE,
    };
    const uint32_t P = s->P;
    const enum gen_region g = region[op];
    uint64_t last = 0;
    for (uint32_t r = 0; r < P; r++) {
        uint64_t t = s->rk[r].t;
        em_enter(s->em, r, t, g);
        em_coll_begin(s->em, r, t);
        last = max64(last, t);
    }
    /* A tree algorithm: ceil(log2 P) hops of a latency each. */
    uint64_t hop = s->o->nodes > 1 ? LAT_INTER + bytes / BW_INTER
                                   : LAT_INTRA + bytes / BW_INTRA;
    uint64_t lat = s->rounds_log2 * hop;
    uint64_t all = (uint64_t)P * bytes;
    uint64_t t_root = root == GEN_NO_ROOT ? 0 : s->rk[root].t;
    for (uint32_t r = 0; r < P; r++) {
        struct rank *k = &s->rk[r];
        uint64_t t = k->t + cost_in(s, r), sent = 0, recvd = 0;
        switch (op) {
        case COLL_BARRIER:
            t = max64(t, last + lat);
            break;
        case COLL_ALLREDUCE:
            t = max64(t, last + lat);
            sent = recvd = all;
            break;
        case COLL_BCAST: /* non-roots wait for the root */
            if (r == root) {
                t += cost_copy(bytes);
                sent = all;
            } else {
                t = max64(t, t_root + lat);
            }
            recvd = bytes;
            break;
        case COLL_REDUCE: /* the root waits for everyone */
            if (r == root) {
                t = max64(t, last + lat);
                recvd = all;
            } else {
                t += cost_copy(bytes);
            }
            sent = bytes;
            break;
        }
        t += sim_rnd(s, r, 64);
        em_coll_end(s->em, r, t, op, root, sent, recvd);
        t += cost_out(s, r);
        em_leave(s->em, r, t, g);
        k->t = t + cost_gap(s, r);
    }
}

/* ---- program frame ------------------------------------------------------ */

static void
call_local(struct sim *s, uint32_t r, enum gen_region g)
{
    struct rank *k = &s->rk[r];
    em_enter(s->em, r, k->t, g);
    k->t += 300 + sim_rnd(s, r, 200);
    em_leave(s->em, r, k->t, g);
    k->t += cost_gap(s, r);
}

void
sim_prologue(struct sim *s)
{
    uint64_t last = 0;
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        /* Processes start a little apart, as a launcher starts them. */
        k->t = T_BASE + (uint64_t)r * 1000 + sim_rnd(s, r, 20000);
        em_program_begin(s->em, r, k->t);
        k->t += 5000 + sim_rnd(s, r, 1000);
        em_enter(s->em, r, k->t, REG_MAIN);
        k->t += 2000 + sim_rnd(s, r, 1000);
        em_enter(s->em, r, k->t, REG_MPI_INIT);
        last = max64(last, k->t);
    }
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        k->t = last + 50000 + sim_rnd(s, r, 5000); /* MPI_Init synchronises */
        em_leave(s->em, r, k->t, REG_MPI_INIT);
        k->t += cost_gap(s, r);
        call_local(s, r, REG_MPI_COMM_RANK);
        call_local(s, r, REG_MPI_COMM_SIZE);
    }
    c_collective(s, COLL_BCAST, 0, 64); /* parameters from rank 0 */
    c_collective(s, COLL_BARRIER, GEN_NO_ROOT, 0);
}

static uint64_t
compute_ns(struct sim *s, uint32_t r, uint64_t it)
{
    const struct gen_options *o = s->o;
    uint64_t c = o->compute_ns;
    uint64_t amp = c * o->jitter_pct / 100;
    if (amp) {
        uint64_t j = next64(&s->rk[r]) % (2 * amp + 1);
        c = c + j - amp;
    }
    for (size_t i = 0; i < o->ndelays; i++)
        if (o->delays[i].rank == r && o->delays[i].iteration == it)
            c += o->delays[i].delay_ns;
    return c;
}

void
sim_iteration(struct sim *s, uint64_t it)
{
    const struct gen_options *o = s->o;
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        em_enter(s->em, r, k->t, REG_ITERATION);
        k->t += cost_gap(s, r);
        em_enter(s->em, r, k->t, REG_COMPUTE);
        k->t += compute_ns(s, r, it);
        em_leave(s->em, r, k->t, REG_COMPUTE);
        k->t += cost_gap(s, r);
    }
    enum gen_pattern p = o->pattern;
    if (p == PAT_MIXED)
        p = (enum gen_pattern)(it % PAT_MIXED);
    pattern_run(s, p, it);
    if (o->allreduce_every && (it + 1) % o->allreduce_every == 0)
        c_collective(s, COLL_ALLREDUCE, GEN_NO_ROOT, 8);
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        em_leave(s->em, r, k->t, REG_ITERATION);
        k->t += cost_gap(s, r);
    }
}

uint64_t
sim_epilogue_events_per_rank(void)
{
    /* MPI_Reduce (Enter, CollectiveBegin, CollectiveEnd, Leave),
     * MPI_Finalize (Enter, Leave), Leave main, ProgramEnd. */
    return 8;
}

void
sim_epilogue(struct sim *s)
{
    c_collective(s, COLL_REDUCE, 0, 8); /* results to rank 0 */
    uint64_t last = 0;
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        em_enter(s->em, r, k->t, REG_MPI_FINALIZE);
        last = max64(last, k->t);
    }
    for (uint32_t r = 0; r < s->P; r++) {
        struct rank *k = &s->rk[r];
        k->t = last + 20000 + sim_rnd(s, r, 2000); /* MPI_Finalize syncs */
        em_leave(s->em, r, k->t, REG_MPI_FINALIZE);
        k->t += 1000 + sim_rnd(s, r, 500);
        em_leave(s->em, r, k->t, REG_MAIN);
        k->t += 2000 + sim_rnd(s, r, 500);
        em_program_end(s->em, r, k->t);
    }
}
