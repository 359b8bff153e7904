/* topo.h — hardware topology, rank placement and per-object aggregation
 * (issue 7; MemAxes' hardware view, seed 002 §6.2).
 *
 * A topology is a tree of objects kept in depth-first order, read from an
 * hwloc XML export, an hwloc synthetic description ("pack:2 numa:2
 * core:18 pu:1") or the machine skein runs on. Only the levels a reader of
 * lateness cares about are kept: machine, package, NUMA node, L3 cache,
 * core, PU (hwloc's groups give way to the NUMA node they carry; L1/L2
 * caches, 1:1 with cores on the machines seen, are dropped unless the
 * caller asks for them: memory samples are served by them). hwloc types
 * never leave topo_load.c. Readers of other topology formats (MemAxes' own
 * XML, src/samples/) build a topology object by object with topo_create
 * → topo_add… → topo_finish.
 *
 *   topo_load_* → topo_cluster (several nodes) → topo_place → topo_aggregate
 *
 * Every function returns 0 or a negative ERR_* code with a message in e.
 */
#ifndef SKEIN_TOPO_H
#define SKEIN_TOPO_H

#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

enum topo_type {
	TOPO_CLUSTER, TOPO_NODE, TOPO_MACHINE, TOPO_PACKAGE, TOPO_NUMA,
	TOPO_L3, TOPO_L2, TOPO_L1, TOPO_CORE, TOPO_PU, TOPO_TYPE_COUNT
};

struct topo_obj {
	uint8_t type;             /* enum topo_type */
	uint8_t depth;            /* 0 at the root */
	uint32_t parent;          /* TRACE_NONE at the root */
	uint32_t first_child;     /* children: [first_child, first_child + n_children) in topo_children() */
	uint32_t n_children;
	uint32_t pu_first;        /* the PUs below: [pu_first, pu_first + pu_count) in PU order */
	uint32_t pu_count;
	uint32_t index;           /* logical index among objects of its type */
	uint32_t os_index;        /* hwloc's OS index (PU and NUMA numbers), or the node number */
	uint32_t name;            /* string id (host name of a node), 0 otherwise */
};

struct topo;

/* What skein loads from hwloc: at most this many objects in a node's
 * tree, this many levels, this large an XML file. A cluster (topo_cluster)
 * holds at most TOPO_MAX_CLUSTER objects. Larger inputs are refused with
 * ERR_LIMIT (doc/topology.md). */
#define TOPO_MAX_OBJECTS (1u << 16)
#define TOPO_MAX_DEPTH 64u
#define TOPO_MAX_XML_BYTES (16u << 20)
#define TOPO_MAX_CLUSTER (1u << 22)

/* hwloc runs in a child process (its stderr silenced, memory and time
 * limited), so a file that crashes or stalls libhwloc is an error here.
 * Errors: ERR_IO (file missing or not a regular file), ERR_USAGE (not a
 * synthetic description), ERR_FORMAT (hwloc refused or crashed),
 * ERR_LIMIT (past the limits above, or more than 20 s of processor time), ERR_NOMEM,
 * ERR_CANCELLED (a signal interrupted the wait). */
int topo_load_xml(const char *path, struct topo **out, struct err *e);
/* As topo_load_xml; flags TOPO_LOAD_CACHES keeps L1 (data or unified)
 * and L2 caches as objects of their own. */
enum { TOPO_LOAD_CACHES = 1 };
int topo_load_xml_flags(const char *path, unsigned flags, struct topo **out, struct err *e);
int topo_load_synthetic(const char *description, struct topo **out, struct err *e);
int topo_load_machine(struct topo **out, struct err *e);

/* Building a topology: objects are added in depth-first order (a parent
 * before its children, a subtree before its next sibling): parent is
 * TRACE_NONE for the first object (the root) and otherwise the last
 * object added or one of its ancestors. name may be NULL. Returns 0,
 * ERR_USAGE for a parent that breaks the order (or a second root),
 * ERR_LIMIT (past TOPO_MAX_OBJECTS, as for a loaded topology) or
 * ERR_NOMEM; topo_finish computes children and PU ranges
 * and must come last (ERR_FORMAT: no object or no PU). */
struct topo *topo_create(void);
int topo_add(struct topo *t, enum topo_type type, uint32_t parent, uint32_t os_index,
	     const char *name, uint32_t *id);
int topo_finish(struct topo *t);

/* A cluster of n identical nodes named names[i] (may be NULL: "node<i>"):
 * a root, one node object per name, each holding a copy of `node`. */
int topo_cluster(const struct topo *node, uint32_t n, const char *const *names,
		 struct topo **out, struct err *e);

/* The trace's own system tree when the hardware is unknown: a root, its
 * nodes (named as the trace names them, in order of first use) and one
 * PU per rank placed there, in rank order (PU os_index = the rank), so
 * that PLACE_SYSTEM_TREE puts every rank on its own PU. */
int topo_system_tree(const struct trace *trace, struct topo **out, struct err *e);

void topo_destroy(struct topo *t);

/* Objects in depth-first order (object 0 is the root); children lists.
 * Counts go to *n when n is not NULL. Arrays live as long as t. */
const struct topo_obj *topo_objs(const struct topo *t, uint32_t *n);
const uint32_t *topo_children(const struct topo *t);
/* The object of each PU, in PU order (leaves, left to right). */
const uint32_t *topo_pu_objs(const struct topo *t, uint32_t *n);
const char *topo_str(const struct topo *t, uint32_t id);
const char *topo_type_name(enum topo_type type);
/* Objects of one type. */
uint32_t topo_count(const struct topo *t, enum topo_type type);

/* How ranks are placed on PUs. */
enum topo_placement {
	PLACE_SYSTEM_TREE,    /* the trace's node names; spread over each node's cores */
	PLACE_BLOCK,          /* ranks_per_node consecutive ranks per node */
	PLACE_ROUND_ROBIN,    /* rank r on node r mod nodes */
	PLACE_EXPLICIT,       /* pu[r] given for every rank */
};

struct topo_place_opts {
	enum topo_placement how;
	uint32_t ranks_per_node;  /* PLACE_BLOCK; 0: as many as cores */
	const uint32_t *pu;       /* PLACE_EXPLICIT: global PU index of each rank */
	uint32_t n_pu;
};

/* Places the ranks of `trace` on topology `t` (a single node or a
 * cluster); *pu_of receives a malloc'd array: rank -> global PU index.
 * With PLACE_SYSTEM_TREE on a cluster, node objects are matched by name
 * with the trace's system-tree nodes; on a single node every rank is on it.
 * Ranks on one node are spread over its cores in rank order (two ranks
 * share a core only when there are more ranks than cores). */
int topo_place(const struct topo *t, const struct trace *trace,
	       const struct topo_place_opts *o, uint32_t **pu_of, struct err *e);

enum topo_agg { AGG_SUM, AGG_MEAN, AGG_MAX, AGG_COUNT };

/* Aggregates a per-rank value over every object: per_obj[i] for object i
 * combines the ranks placed on PUs below it. Objects with no rank get 0. */
int topo_aggregate(const struct topo *t, const uint32_t *pu_of, uint32_t n_ranks,
		   const double *per_rank, enum topo_agg how, double *per_obj);

#endif
