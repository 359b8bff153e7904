/* par.h — running a stage on every core.
 *
 * par_run(n, fn, ctx) calls fn(ctx, i, n) for i in [0, n): worker i > 0
 * on a thread of the caller's pool (started at its first par_run, kept
 * until the caller's thread ends), worker 0 on the caller's. Each worker
 * must touch only its own share of the data. If a thread cannot be
 * started, the caller runs that share itself, so the result never
 * depends on threads. Returns the first non-zero value a worker returned
 * (in worker order), or 0. Threads may call it at once: each has its own
 * pool.
 */
#ifndef SKEIN_PAR_H
#define SKEIN_PAR_H

#include <stdatomic.h>
#include <stdint.h>

#define PAR_MAX 8

typedef int (*par_fn)(void *ctx, uint32_t i, uint32_t n);

int par_run(uint32_t n, par_fn fn, void *ctx);

/* The workers to use: SKEIN_THREADS when it is set to a number from 1 to
 * PAR_MAX, else the processors online (at most PAR_MAX). Every stage's
 * result is the same for any number (tested for 1, 2 and 4). */
uint32_t par_workers(void);

/* Splits [0, total) into n shares balanced by weight: share i is
 * [cut[i], cut[i + 1]). weight(ctx, k) is the cost of item k. */
void par_split(uint32_t total, uint32_t n, uint64_t (*weight)(const void *ctx, uint32_t k),
	       const void *ctx, uint32_t *cut);

/* Work cut into more pieces than workers, each worker taking the next
 * piece as it finishes one: the cores of a shared machine run at
 * different speeds from one moment to the next, and equal shares leave
 * the faster core idle while the slower one finishes. Worker w first
 * takes the pieces of its own equal share from the front, in order (so
 * that the workers stay in parts of the data of their own, as with
 * equal shares); then it takes from the back of the others' shares. A
 * stage whose result does not depend on which worker did which piece
 * cuts its items into PAR_PIECES(n) pieces (par_split), sets the pieces
 * up with par_pieces_init for its n workers and lets each worker loop on
 * par_take. */
#define PAR_PIECES_PER 16
#define PAR_PIECES_MAX (PAR_MAX * PAR_PIECES_PER)
#define PAR_PIECES(n) ((n) <= 1 ? 1 : (n) * PAR_PIECES_PER)
struct par_pieces {
	uint32_t n, nw;
	/* the pieces of worker w's share not taken yet: [lo, hi), as
	 * lo | hi << 32 */
	_Atomic uint64_t left[PAR_MAX];
};
void par_pieces_init(struct par_pieces *q, uint32_t n, uint32_t nw);
/* The next piece for worker w (below the nw of par_pieces_init), in
 * *i; 0 when none is left. */
int par_take(struct par_pieces *q, uint32_t w, uint32_t *i);
/* Share w of n equal shares of [0, total): [*from, *to). */
void par_share(uint32_t total, uint32_t w, uint32_t n, uint32_t *from, uint32_t *to);
/* Workers that each counted their items (taken from their equal shares,
 * in order) per key, cnt[w][k] for n keys, learn where to write them: the
 * counts become where worker w's items of key k go, after every key
 * before k and, within k, after the workers before w, so each key's items
 * stay in the shares' order. first[k] gets where key k starts, first[n]
 * the total, which is returned. */
uint32_t par_starts(uint32_t *const *cnt, uint32_t nw, uint32_t n, uint32_t *first);
/* Ids [0, n) grouped by key(ctx, id) on every core (a counting sort):
 * each key's ids in id order, into out; first[k] is where key k's start,
 * first[n_keys] how many ids have a key below n_keys (the others are
 * left out). key is called twice an id, from several threads. Each
 * worker counts in an array of n_keys, so there are fewer workers when
 * the keys outnumber the ids. 0 or ERR_NOMEM. */
int par_bucket(uint32_t n, uint32_t n_keys, uint32_t (*key)(const void *ctx, uint32_t id),
	       const void *ctx, uint32_t *first, uint32_t *out);

#endif
