/* topo_impl.h — what topo.c (the tree, placement, aggregation) and
 * topo_load.c (hwloc, in a child process) share. Not a public header. */
#ifndef SKEIN_TOPO_IMPL_H
#define SKEIN_TOPO_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"

struct topo {
	struct topo_obj *objs;
	size_t n, cap;
	uint32_t *children;       /* CSR: objs[i].first_child indexes it */
	uint32_t *pu_obj;         /* PU index -> object */
	uint32_t n_pu;
	uint32_t count[TOPO_TYPE_COUNT];
	struct intern *strings;
};

/* A new empty topology, or NULL when out of memory. */
struct topo *topo_new(void);
/* Appends an object (depth-first order: its parent comes first) and puts
 * its index in *id, unchecked (topo_add is the checked, public one).
 * Returns 0, ERR_LIMIT or ERR_NOMEM. */
int topo_append(struct topo *t, uint8_t type, uint32_t parent, uint8_t depth, uint32_t os_index,
	     uint32_t name, uint32_t *id);
/* Children lists and PU ranges from the parent links; after the last
 * topo_append. Returns 0 or ERR_NOMEM. */
int topo_link(struct topo *t);

#endif
