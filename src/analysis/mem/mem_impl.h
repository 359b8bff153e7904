/* mem_impl.h — inside the samples analyses (mem.c, mem_score.c,
 * mem_cluster.c). */
#ifndef SKEIN_MEM_IMPL_H
#define SKEIN_MEM_IMPL_H

#include "mem.h"

struct mem {
	const struct samples *s;
	const struct topo *t;
	const struct topo_obj *obj;
	uint32_t n_obj;
	const uint32_t *pu_obj;       /* PU index -> object */
	uint32_t n_pu;
	uint32_t *server;             /* [pu * SL_COUNT + level]: serving object or SAMPLES_NONE */
	enum mem_ld ld;               /* what L_d averages over */
};

#endif
