/* patterns.c — the communication of one iteration, per pattern.
 *
 * Each pattern mirrors one of skein's MPI mini-apps (traces/apps) and is
 * written as rounds: sim_round(), then a posting phase over all ranks
 * (sends, Irecv posts, the send half of Sendrecv), then a completion phase
 * over all ranks (Recv, Wait, Waitall, the receive half of Sendrecv).
 */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>

/* Message tags per pattern, so that a trace says which pattern sent what. */
enum {
    TAG_STENCIL = 0, /* + direction 0..3 */
    TAG_TREE_UP = 10,
    TAG_TREE_DOWN = 11,
    TAG_RING = 20,
    TAG_DISSEMINATION = 30,
    TAG_SPARSE = 40,   /* + slot 0..3 */
    TAG_COALESCE = 50, /* + distance 1..4 */
    TAG_GATHER = 60,
};

/* ---- stencil: 2-D periodic halo exchange -------------------------------- */

/* Direction d: 0 west, 1 east, 2 south, 3 north; d ^ 1 is the opposite. */
static uint32_t
stencil_neighbor(const struct sim *s, uint32_t r, uint32_t d)
{
    uint32_t x = r % s->px, y = r / s->px;
    switch (d) {
    case 0: x = (x + s->px - 1) % s->px; break;
    case 1: x = (x + 1) % s->px; break;
    case 2: y = (y + s->py - 1) % s->py; break;
    default: y = (y + 1) % s->py; break;
    }
    return y * s->px + x;
}

static bool
stencil_active(const struct sim *s, uint32_t d)
{
    return (d < 2 ? s->px : s->py) > 1; /* no self-messages on a 1-wide dim */
}

static void
run_stencil(struct sim *s)
{
    sim_round(s);
    for (uint32_t r = 0; r < s->P; r++) {
        /* The halo arriving from direction d ^ 1 travels in direction d. */
        for (uint32_t d = 0; d < 4; d++)
            if (stencil_active(s, d))
                p_irecv(s, r, stencil_neighbor(s, r, d ^ 1), TAG_STENCIL + d,
                        d);
        for (uint32_t d = 0; d < 4; d++)
            if (stencil_active(s, d))
                p_isend(s, r, stencil_neighbor(s, r, d), TAG_STENCIL + d, d);
    }
    for (uint32_t r = 0; r < s->P; r++)
        p_complete(s, r, REG_MPI_WAITALL);
}

/* ---- tree: binomial allreduce with point-to-point ----------------------- */

static void
run_tree(struct sim *s)
{
    const uint32_t P = s->P, L = s->rounds_log2;
    /* Reduce towards rank 0: at level l, ranks whose lowest set bit is l
     * send to r - 2^l. */
    for (uint32_t l = 0; l < L; l++) {
        uint32_t m = 1u << l, mask = (m << 1) - 1;
        sim_round(s);
        for (uint32_t r = 0; r < P; r++)
            if ((r & mask) == m)
                p_send(s, r, r - m, TAG_TREE_UP, 0);
        for (uint32_t r = 0; r < P; r++)
            if ((r & mask) == 0 && r + m < P)
                p_recv(s, r, r + m, TAG_TREE_UP, 0);
    }
    /* Broadcast back down, levels in reverse. */
    for (uint32_t l = L; l-- > 0;) {
        uint32_t m = 1u << l, mask = (m << 1) - 1;
        sim_round(s);
        for (uint32_t r = 0; r < P; r++)
            if ((r & mask) == 0 && r + m < P)
                p_send(s, r, r + m, TAG_TREE_DOWN, 0);
        for (uint32_t r = 0; r < P; r++)
            if ((r & mask) == m)
                p_recv(s, r, r - m, TAG_TREE_DOWN, 0);
    }
}

/* ---- ring and dissemination: every rank sends and receives each round -- */

/* One round: send to r + dist, receive from r - dist. Default calls:
 * ring Irecv + Send + Wait, dissemination Isend + Recv + Wait;
 * --sendrecv makes both one MPI_Sendrecv. */
static void
shift_round(struct sim *s, uint32_t dist, uint32_t tag, bool ring)
{
    const uint32_t P = s->P;
    sim_round(s);
    for (uint32_t r = 0; r < P; r++) {
        uint32_t to = (r + dist) % P, from = (r + P - dist) % P;
        if (s->o->sendrecv) {
            p_sendrecv_post(s, r, to, tag, 0);
        } else if (ring) {
            p_irecv(s, r, from, tag, 0);
            p_send(s, r, to, tag, 0);
        } else {
            p_isend(s, r, to, tag, 0);
        }
    }
    for (uint32_t r = 0; r < P; r++) {
        uint32_t from = (r + P - dist) % P;
        if (s->o->sendrecv) {
            p_sendrecv_finish(s, r, from, tag, 0);
        } else if (ring) {
            p_complete(s, r, REG_MPI_WAIT);
        } else {
            p_recv(s, r, from, tag, 0);
            p_complete(s, r, REG_MPI_WAIT);
        }
    }
}

static void
run_ring(struct sim *s)
{
    for (uint32_t k = 0; k + 1 < s->P; k++)
        shift_round(s, 1, TAG_RING, true);
}

static void
run_dissemination(struct sim *s)
{
    for (uint32_t k = 0; k < s->rounds_log2; k++)
        shift_round(s, 1u << k, TAG_DISSEMINATION, false);
}

/* ---- sparse: bulk-synchronous exchange with skipped messages ------------ */

static const int32_t sparse_offset[SLOTS] = {+1, -1, +2, -2};

static uint32_t
sparse_peer(const struct sim *s, uint32_t r, int32_t off)
{
    int64_t p = ((int64_t)r + off) % (int64_t)s->P;
    return (uint32_t)(p < 0 ? p + s->P : p);
}

/* Whether src sends its slot-k message in iteration it: the same pure
 * function on both sides, so sender and receiver agree without talking. */
static bool
sparse_sends(const struct sim *s, uint64_t it, uint32_t src, uint32_t k)
{
    if (sparse_peer(s, src, sparse_offset[k]) == src)
        return false; /* offset is a multiple of P */
    uint64_t h = sim_hash(s->o->seed ^ sim_hash(it * 0x9E3779B97F4A7C15ull +
                                                 (uint64_t)src * SLOTS + k));
    return h % 100 >= s->o->skip_pct;
}

static void
run_sparse(struct sim *s, uint64_t it)
{
    sim_round(s);
    for (uint32_t r = 0; r < s->P; r++) {
        for (uint32_t k = 0; k < SLOTS; k++) {
            uint32_t src = sparse_peer(s, r, -sparse_offset[k]);
            if (sparse_sends(s, it, src, k))
                p_irecv(s, r, src, TAG_SPARSE + k, k);
        }
        for (uint32_t k = 0; k < SLOTS; k++)
            if (sparse_sends(s, it, r, k))
                p_isend(s, r, sparse_peer(s, r, sparse_offset[k]),
                        TAG_SPARSE + k, k);
    }
    for (uint32_t r = 0; r < s->P; r++)
        p_complete(s, r, REG_MPI_WAITALL); /* none if nothing was posted */
}

/* ---- coalesce: different numbers of Isends before one Waitall ----------- */

/* Rank r sends to r+1 .. r+fanout(r). */
static uint32_t
coalesce_fanout(const struct sim *s, uint32_t r)
{
    uint32_t f = s->P - 1 < SLOTS ? s->P - 1 : SLOTS;
    return 1 + r % f;
}

static void
run_coalesce(struct sim *s)
{
    const uint32_t P = s->P;
    const uint32_t fmax = P - 1 < SLOTS ? P - 1 : SLOTS;
    sim_round(s);
    for (uint32_t r = 0; r < P; r++) {
        for (uint32_t d = 1; d <= fmax; d++) {
            uint32_t src = (r + P - d) % P;
            if (d <= coalesce_fanout(s, src))
                p_irecv(s, r, src, TAG_COALESCE + d, d - 1);
        }
        uint32_t f = coalesce_fanout(s, r);
        for (uint32_t d = 1; d <= f; d++)
            p_isend(s, r, (r + d) % P, TAG_COALESCE + d, d - 1);
    }
    for (uint32_t r = 0; r < P; r++)
        p_complete(s, r, REG_MPI_WAITALL);
}

/* ---- gather: MPI_ANY_SOURCE receives in arrival order ------------------- */

/* Every rank but 0 sends to rank 0, which receives the P - 1 messages as
 * MPI_Recv(MPI_ANY_SOURCE) would: in the order they arrive (ties by
 * rank), so jitter and delays reorder them from one iteration to the
 * next; then rank 0 broadcasts. The receive order is what seed 004's
 * reordering (skein --reorder) puts back in rank order. */
struct arrival_key {
    uint64_t t;
    uint32_t src;
};

static int
cmp_arrival(const void *x, const void *y)
{
    const struct arrival_key *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->src > b->src) - (a->src < b->src);
}

static void
run_gather(struct sim *s)
{
    const uint32_t P = s->P;
    sim_round(s);
    for (uint32_t r = 1; r < P; r++)
        p_send(s, r, 0, TAG_GATHER, 0);
    struct arrival_key *k = malloc((size_t)P * sizeof *k);
    if (!k) {
        fprintf(stderr, "skein-gen: out of memory\n");
        exit(1);
    }
    for (uint32_t r = 1; r < P; r++)
        k[r - 1] = (struct arrival_key){sim_arrival(s, r, 0, 0), r};
    qsort(k, P - 1, sizeof *k, cmp_arrival);
    for (uint32_t i = 0; i + 1 < P; i++)
        p_recv(s, 0, k[i].src, TAG_GATHER, 0);
    free(k);
    c_collective(s, COLL_BCAST, 0, s->o->msg_bytes);
}

/* ---- dispatch ----------------------------------------------------------- */

void
pattern_run(struct sim *s, enum gen_pattern p, uint64_t it)
{
    switch (p) {
    case PAT_STENCIL: run_stencil(s); break;
    case PAT_TREE: run_tree(s); break;
    case PAT_RING: run_ring(s); break;
    case PAT_DISSEMINATION: run_dissemination(s); break;
    case PAT_SPARSE: run_sparse(s, it); break;
    case PAT_COALESCE: run_coalesce(s); break;
    case PAT_GATHER: run_gather(s); break;
    case PAT_MIXED:
    case PAT_COUNT: break;
    }
}
