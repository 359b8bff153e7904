/* dmatch_impl.h — the distributed match's state, shared by dmatch.c
 * (counts, messages, information) and dcoll.c (collectives). */
#ifndef SKEIN_DMATCH_IMPL_H
#define SKEIN_DMATCH_IMPL_H

#include <stdlib.h>

#include "base/dcomm.h"
#include "base/vec.h"
#include "build_impl.h"
#include "dmodel.h"

/* What each rank tells every other first: its timelines and its records
 * of each kind (calls, ends, frames, sends, receive halves, calls on a
 * self communicator, quiet calls, RMA operations, passive-target
 * epochs). */
enum { K_TL_LO, K_TL_HI, K_OPS, K_ENDS, K_FRAMES, K_SENDS, K_RECVS, K_SELF, K_CALLS, K_RMAS,
       K_EPOCHS, K_COUNT };

struct dm {
	struct dcomm *c;
	struct trace *t;
	struct build *b;
	struct dmodel *d;
	uint32_t *tl_first;             /* every rank's first timeline; size + 1 */
	uint64_t off[K_COUNT];          /* the ranks' before this one, of each kind */
	uint64_t all[K_COUNT];          /* all ranks' */
	uint64_t *rcount;               /* bytes from each rank (allgathers) */
	uint32_t *recv_msg;             /* receive half -> global message id */
	uint32_t *coll_of;              /* collective half -> global collective id */
};

/* n records of `size` bytes (1 byte for none): 0 or ERR_NOMEM. */
static inline int
dm_alloc(void *p, size_t n, size_t size)
{
	void **q = p;
	*q = malloc(n ? n * size : 1);
	return *q ? 0 : ERR_NOMEM;
}

/* The collectives (dcoll.c): every rank's t->colls, its own members,
 * d->coll_first and d->member_before, m->coll_of; returns the same on
 * every rank. */
int dmatch_collectives(struct dm *m);

#endif
