/* signature.h — what a partition does, independent of time.
 *
 * A partition's signature hashes, for each of its ranks in rank order,
 * the sequence of its communication operations: kind, MPI region *name*
 * (not id), and the message pattern — for each message its peer rank and
 * tag, for each collective its type and root, as a set per operation (a
 * Waitall's receives are recorded in completion order, which timing
 * decides). Computation is left out
 * (it sits between communication and adds no structure). Two partitions
 * with equal signatures did the same communication, whether they are two
 * iterations of one run or the same phase in two runs of one program.
 *
 * The shape is looser: the set of (kind, region name) pairs alone, with
 * no ranks, counts or peers — what is left to compare when two runs have
 * different rank counts.
 */
#ifndef SKEIN_SIGNATURE_H
#define SKEIN_SIGNATURE_H

#include <stdint.h>

#include "analysis.h"
#include "base/hash.h"

/* The signature (shape 0) or shape (shape 1) of every partition into
 * sig[n_parts], in one pass over the lops. Returns 0 or ERR_NOMEM. */
int signature_parts(const struct analysis *a, int shape, uint64_t *sig);

/* The partitions in sequence: by first global step, then lowest rank.
 * order[n_parts] gets partition ids. Returns 0 or ERR_NOMEM. */
int signature_sequence(const struct analysis *a, uint32_t *order);

/* The same from each partition's lowest rank low[p] (UINT32_MAX: none). */
int signature_order(const struct analysis *a, const uint64_t *low, uint32_t *order);

/* Dense tokens for the signatures sig[] of the partitions in `order` (n
 * of them): equal signatures, equal tokens, numbered by first appearance.
 * *distinct gets the number of tokens. Returns 0 or ERR_NOMEM. */
int signature_tokens(const uint64_t *sig, const uint32_t *order, uint32_t n, uint32_t *tok,
		     uint32_t *distinct);

/* What the signature is made of (signature.c, dist_sign.c): a region's
 * name hashed; one end of a lop (role; for a message its peer and tag,
 * for a collective its type and root); a lop's kind and region, then the
 * sum of its ends' values mixed in. */
uint64_t signature_region_hash(const struct trace *t, uint32_t region);

static inline uint64_t
signature_end(uint32_t role, uint32_t x, uint32_t y)
{
	uint64_t v = (uint64_t)role << 60;
	if (role == END_SEND || role == END_RECV)
		v |= (uint64_t)x << 28 | (y & 0xfffffff);
	else if (role == END_COLL)
		v |= (uint64_t)x << 32 | y;
	return hash_mix(HASH_SEED, v);
}

/* signature_end of end e, its message or collective read from the
 * trace's msgs or colls */
static inline uint64_t
signature_end_of(const struct trace_end *e, const struct trace_msg *msgs,
		 const struct trace_coll *colls)
{
	uint32_t x = 0, y = 0;
	if (e->role == END_SEND)
		x = msgs[e->id].receiver, y = msgs[e->id].tag;
	else if (e->role == END_RECV)
		x = msgs[e->id].sender, y = msgs[e->id].tag;
	else if (e->role == END_COLL)
		x = colls[e->id].type, y = colls[e->id].root;
	return signature_end(e->role, x, y);
}

static inline uint64_t
signature_lop_head(uint8_t kind, uint64_t region)
{
	return hash_mix(hash_mix(HASH_SEED, kind), region);
}

/* One partition's signature as signature_parts folds it: from
 * signature_start(), each of its communication lops in lop order folded
 * in by signature_fold, from the lop's timeline (last_tl: the timeline
 * folded last, TRACE_NONE at the start), kind, region name hash (rh[r]
 * of those signature_regions allocates, n_reg of them; NULL on
 * ERR_NOMEM) and the sum of signature_end_of over its ends. */
static inline uint64_t
signature_start(void)
{
	return hash_mix(HASH_SEED, 0x5167);
}

static inline uint64_t
signature_fold_term(uint64_t sig, uint32_t *last_tl, uint32_t tl, uint64_t term)
{
	if (*last_tl != tl)
		sig = hash_mix(sig, 0x100000000ull | tl);
	*last_tl = tl;
	return hash_mix(sig, term);
}

/* A lop's term of the fold (signature_fold in two halves: the term can
 * be made apart from the fold, in another order), from its head
 * (signature_lop_head, which depends on kind and region alone) */
static inline uint64_t
signature_term_of(uint64_t head, uint64_t ends)
{
	return hash_mix(head, ends);
}

static inline uint64_t
signature_term(uint8_t kind, uint64_t region, uint64_t ends)
{
	return signature_term_of(signature_lop_head(kind, region), ends);
}

static inline uint64_t
signature_fold(uint64_t sig, uint32_t *last_tl, uint32_t tl, uint8_t kind, uint64_t region,
	       uint64_t ends)
{
	return signature_fold_term(sig, last_tl, tl, signature_term(kind, region, ends));
}
uint64_t *signature_regions(const struct trace *t, uint32_t *n_reg);

/* A distributed analysis's (a->dc): the same, each rank folding what its
 * lops add and the partitions' owners putting it together
 * (dist_sign.c); collective. */
int dist_signature_parts(const struct analysis *a, int shape, uint64_t *sig);
int dist_signature_sequence(const struct analysis *a, uint32_t *order);

#endif
