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

/* The signature (shape 0) or shape (shape 1) of every partition into
 * sig[n_parts], in one pass over the lops. Returns 0 or ERR_NOMEM. */
int signature_parts(const struct analysis *a, int shape, uint64_t *sig);

/* The partitions in sequence: by first global step, then lowest rank.
 * order[n_parts] gets partition ids. Returns 0 or ERR_NOMEM. */
int signature_sequence(const struct analysis *a, uint32_t *order);

/* Dense tokens for the signatures sig[] of the partitions in `order` (n
 * of them): equal signatures, equal tokens, numbered by first appearance.
 * *distinct gets the number of tokens. Returns 0 or ERR_NOMEM. */
int signature_tokens(const uint64_t *sig, const uint32_t *order, uint32_t n, uint32_t *tok,
		     uint32_t *distinct);

#endif
