/* topo.c — the topology tree, clusters of nodes, placing ranks on them
 * and aggregating per-rank values (hwloc is in topo_load.c). */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/intern.h"
#include "base/vec.h"
#include "topo_impl.h"

struct topo *
topo_new(void)
{
	struct topo *t = calloc(1, sizeof *t);
	if (t && !(t->strings = intern_create())) {
		free(t);
		return NULL;
	}
	return t;
}

void
topo_destroy(struct topo *t)
{
	if (!t)
		return;
	free(t->objs);
	free(t->children);
	free(t->pu_obj);
	intern_destroy(t->strings);
	free(t);
}

int
topo_append(struct topo *t, uint8_t type, uint32_t parent, uint8_t depth, uint32_t os_index,
	    uint32_t name, uint32_t *id)
{
	if (t->n >= UINT32_MAX - 1)
		return ERR_LIMIT;
	if (VEC_GROW(t->objs, t->n, t->cap))
		return ERR_NOMEM;
	*id = (uint32_t)t->n;
	t->objs[t->n++] = (struct topo_obj){
		.type = type, .depth = depth, .parent = parent, .pu_first = t->n_pu,
		.index = t->count[type]++, .os_index = os_index, .name = name,
	};
	if (type == TOPO_PU)
		t->n_pu++;
	return 0;
}

/* Children lists and PU ranges from the parent links (objects are in
 * depth-first order, so a parent comes before its children and an
 * object's PUs are contiguous). */
int
topo_link(struct topo *t)
{
	uint32_t n = (uint32_t)t->n;
	uint32_t *count = calloc(n + 1, sizeof *count);
	free(t->children);
	free(t->pu_obj);
	t->children = malloc((n + 1) * sizeof *t->children);
	t->pu_obj = malloc((t->n_pu + 1) * sizeof *t->pu_obj);
	if (!count || !t->children || !t->pu_obj) {
		free(count);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		t->objs[i].n_children = 0;
		t->objs[i].pu_count = 0;
	}
	for (uint32_t i = 1; i < n; i++)
		t->objs[t->objs[i].parent].n_children++;
	uint32_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		t->objs[i].first_child = at;
		at += t->objs[i].n_children;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint32_t p = t->objs[i].parent;
		t->children[t->objs[p].first_child + count[p]++] = i;
	}
	free(count);
	/* PU counts, leaves upwards (children have larger ids) */
	for (uint32_t i = n; i-- > 0;) {
		struct topo_obj *o = &t->objs[i];
		if (o->type == TOPO_PU) {
			o->pu_count = 1;
			t->pu_obj[o->pu_first] = i;
		}
		if (i > 0)
			t->objs[o->parent].pu_count += o->pu_count;
	}
	return 0;
}

/* ---- building, for readers of other formats (topo.h) ---- */

struct topo *topo_create(void) { return topo_new(); }

int
topo_add(struct topo *t, enum topo_type type, uint32_t parent, uint32_t os_index, const char *name,
	 uint32_t *id)
{
	if ((unsigned)type >= TOPO_TYPE_COUNT)
		return ERR_USAGE;
	if (parent == TRACE_NONE) {
		if (t->n)
			return ERR_USAGE;         /* one root */
	} else {
		/* depth-first: the parent is the last object or an ancestor of it */
		uint32_t a = t->n ? (uint32_t)t->n - 1 : TRACE_NONE;
		while (a != TRACE_NONE && a != parent)
			a = t->objs[a].parent;
		if (a == TRACE_NONE)
			return ERR_USAGE;
		if (t->objs[parent].type == TOPO_PU || t->objs[parent].depth >= UINT8_MAX - 1)
			return ERR_USAGE;
	}
	/* as many objects as a loaded topology may have */
	if (t->n >= TOPO_MAX_OBJECTS)
		return ERR_LIMIT;
	uint32_t sid = 0;
	if (name && *name && intern_add(t->strings, name, strlen(name), &sid))
		return ERR_NOMEM;
	uint8_t depth = parent == TRACE_NONE ? 0 : (uint8_t)(t->objs[parent].depth + 1);
	return topo_append(t, (uint8_t)type, parent, depth, os_index, sid, id);
}

int
topo_finish(struct topo *t)
{
	if (t->n == 0 || t->n_pu == 0)
		return ERR_FORMAT;
	return topo_link(t);
}

int
topo_cluster(const struct topo *node, uint32_t n, const char *const *names,
	     struct topo **out, struct err *e)
{
	*out = NULL;
	if ((uint64_t)n * (node->n + 1) > TOPO_MAX_CLUSTER)
		return err_set(e, ERR_LIMIT, "a cluster of %u nodes of %zu objects each: more than the %u "
			       "objects skein shows", n, node->n, TOPO_MAX_CLUSTER);
	struct topo *t = topo_new();
	uint32_t root, nid, id;
	if (!t || topo_append(t, TOPO_CLUSTER, TRACE_NONE, 0, 0, 0, &root))
		goto nomem;
	for (uint32_t i = 0; i < n; i++) {
		char buf[32];
		const char *name = names && names[i] ? names[i] : (snprintf(buf, sizeof buf, "node%u", i), buf);
		uint32_t sid;
		if (intern_add(t->strings, name, strlen(name), &sid) ||
		    topo_append(t, TOPO_NODE, root, 1, i, sid, &nid))
			goto nomem;
		uint32_t base = (uint32_t)t->n;
		for (size_t k = 0; k < node->n; k++) {
			const struct topo_obj *o = &node->objs[k];
			uint32_t parent = o->parent == TRACE_NONE ? nid : base + o->parent;
			if (topo_append(t, o->type, parent, (uint8_t)(o->depth + 2), o->os_index, 0, &id))
				goto nomem;
		}
	}
	if (topo_link(t))
		goto nomem;
	*out = t;
	return 0;
nomem:
	topo_destroy(t);
	return err_set(e, ERR_NOMEM, "out of memory building a cluster of %u nodes", n);
}

int
topo_system_tree(const struct trace *trace, struct topo **out, struct err *e)
{
	*out = NULL;
	uint32_t ntl, nn;
	const struct trace_timeline *tl = trace_timelines(trace, &ntl);
	const struct trace_node *nodes = trace_nodes(trace, &nn);
	struct topo *t = topo_new();
	uint32_t *order = malloc((nn + 2) * sizeof *order);    /* nodes by first use; nn: none */
	uint8_t *seen = calloc(nn + 2, 1);
	uint32_t root, id, n_order = 0;
	if (!t || !order || !seen || topo_append(t, TOPO_CLUSTER, TRACE_NONE, 0, 0, 0, &root))
		goto nomem;
	for (uint32_t r = 0; r < ntl; r++) {
		uint32_t k = tl[r].node < nn ? tl[r].node : nn;
		if (!seen[k]) {
			seen[k] = 1;
			order[n_order++] = k;
		}
	}
	/* depth-first: each node, then one PU per rank placed on it */
	for (uint32_t i = 0; i < n_order; i++) {
		uint32_t k = order[i], sid;
		const char *name = k < nn ? trace_str(trace, nodes[k].name) : "(no node)";
		if (intern_add(t->strings, name, strlen(name), &sid) || topo_append(t, TOPO_NODE, root, 1, i, sid, &id))
			goto nomem;
		uint32_t node = id;
		for (uint32_t r = 0; r < ntl; r++)
			if ((tl[r].node < nn ? tl[r].node : nn) == k && topo_append(t, TOPO_PU, node, 2, r, 0, &id))
				goto nomem;
	}
	if (topo_link(t))
		goto nomem;
	free(order);
	free(seen);
	*out = t;
	return 0;
nomem:
	free(order);
	free(seen);
	topo_destroy(t);
	return err_set(e, ERR_NOMEM, "out of memory building the trace's system tree");
}

const struct topo_obj *
topo_objs(const struct topo *t, uint32_t *n)
{
	if (n)
		*n = (uint32_t)t->n;
	return t->objs;
}

const uint32_t *topo_children(const struct topo *t) { return t->children; }

const uint32_t *
topo_pu_objs(const struct topo *t, uint32_t *n)
{
	if (n)
		*n = t->n_pu;
	return t->pu_obj;
}

const char *topo_str(const struct topo *t, uint32_t id) { return intern_str(t->strings, id); }
uint32_t topo_count(const struct topo *t, enum topo_type type) { return type < TOPO_TYPE_COUNT ? t->count[type] : 0; }

const char *
topo_type_name(enum topo_type type)
{
	static const char *const names[TOPO_TYPE_COUNT] = {
		"Cluster", "Node", "Machine", "Package", "NUMANode", "L3", "L2", "L1", "Core", "PU",
	};
	return type < TOPO_TYPE_COUNT ? names[type] : "?";
}

/* ---- placement ---- */

/* The node objects of t (the root itself for a single node). */
static uint32_t
nodes_of(const struct topo *t, const uint32_t **ids)
{
	static const uint32_t root = 0;
	if (t->objs[0].type == TOPO_CLUSTER) {
		*ids = t->children + t->objs[0].first_child;
		return t->objs[0].n_children;
	}
	*ids = &root;
	return 1;
}

/* The PU for the local-th rank on node object `node`: cores in order,
 * then their second hardware threads, and so on. */
static uint32_t
pu_on_node(const struct topo *t, uint32_t node, uint32_t local)
{
	const struct topo_obj *N = &t->objs[node];
	uint32_t cores = 0, first_core = TRACE_NONE;
	/* cores of the node are a contiguous run of objects in DFS order, but
	 * other objects sit between them; count by scanning the subtree */
	for (uint32_t i = node; i < t->n && (i == node || t->objs[i].depth > N->depth); i++)
		if (t->objs[i].type == TOPO_CORE) {
			if (first_core == TRACE_NONE)
				first_core = i;
			cores++;
		}
	if (!cores)
		return N->pu_first + local % N->pu_count;
	uint32_t k = local % cores, seen = 0;
	for (uint32_t i = first_core; i < t->n; i++) {
		if (t->objs[i].type != TOPO_CORE)
			continue;
		if (seen++ == k) {
			const struct topo_obj *c = &t->objs[i];
			return c->pu_first + (local / cores) % c->pu_count;
		}
	}
	return N->pu_first;
}

static uint32_t
node_cores(const struct topo *t, uint32_t node)
{
	uint32_t cores = 0;
	for (uint32_t i = node; i < t->n && (i == node || t->objs[i].depth > t->objs[node].depth); i++)
		cores += t->objs[i].type == TOPO_CORE;
	return cores ? cores : t->objs[node].pu_count;
}

int
topo_place(const struct topo *t, const struct trace *trace, const struct topo_place_opts *o,
	   uint32_t **pu_of, struct err *e)
{
	uint32_t n_tl, n_nodes;
	const struct trace_timeline *tls = trace_timelines(trace, &n_tl);
	const uint32_t *nodes;
	uint32_t nn = nodes_of(t, &nodes);
	trace_nodes(trace, &n_nodes);
	*pu_of = malloc((n_tl + 1) * sizeof **pu_of);
	uint32_t *node_of = malloc((n_tl + 1) * sizeof *node_of);
	uint32_t *local = malloc((n_tl + 1) * sizeof *local);
	uint32_t *fill = calloc(nn + 1, sizeof *fill);
	uint32_t *tnode = malloc((n_nodes + 1) * sizeof *tnode);
	int rc = ERR_NOMEM;
	if (!*pu_of || !node_of || !local || !fill || !tnode)
		goto out;
	rc = 0;
	switch (o->how) {
	case PLACE_EXPLICIT:
		if (!o->pu || o->n_pu < n_tl) {
			rc = err_set(e, ERR_USAGE, "explicit placement names %u ranks, the trace has %u",
				     o->pu ? o->n_pu : 0, n_tl);
			goto out;
		}
		for (uint32_t r = 0; r < n_tl; r++) {
			if (o->pu[r] >= t->n_pu) {
				rc = err_set(e, ERR_USAGE, "rank %u placed on PU %u; the topology has %u",
					     r, o->pu[r], t->n_pu);
				goto out;
			}
			(*pu_of)[r] = o->pu[r];
		}
		goto out;
	case PLACE_BLOCK: {
		uint32_t per = o->ranks_per_node ? o->ranks_per_node : node_cores(t, nodes[0]);
		for (uint32_t r = 0; r < n_tl; r++) {
			node_of[r] = (r / per) % nn;
			local[r] = r % per + (r / per / nn) * per;
		}
		break;
	}
	case PLACE_ROUND_ROBIN:
		for (uint32_t r = 0; r < n_tl; r++) {
			node_of[r] = r % nn;
			local[r] = r / nn;
		}
		break;
	case PLACE_SYSTEM_TREE: {
		/* trace node -> topology node: by name, else in order of first use */
		uint32_t next = 0;
		for (uint32_t k = 0; k < n_nodes; k++)
			tnode[k] = TRACE_NONE;
		for (uint32_t r = 0; r < n_tl; r++) {
			uint32_t k = tls[r].node;
			uint32_t target = 0;
			if (nn > 1 && k != TRACE_NONE) {
				if (tnode[k] == TRACE_NONE) {
					const char *name = trace_str(trace, trace_nodes(trace, NULL)[k].name);
					for (uint32_t i = 0; i < nn && tnode[k] == TRACE_NONE; i++)
						if (strcmp(name, topo_str(t, t->objs[nodes[i]].name)) == 0)
							tnode[k] = i;
					if (tnode[k] == TRACE_NONE)
						tnode[k] = next++ % nn;
				}
				target = tnode[k];
			}
			node_of[r] = target;
			local[r] = fill[target]++;
		}
		break;
	}
	}
	for (uint32_t r = 0; r < n_tl; r++)
		(*pu_of)[r] = pu_on_node(t, nodes[node_of[r]], local[r]);
out:
	free(node_of);
	free(local);
	free(fill);
	free(tnode);
	if (rc) {
		free(*pu_of);
		*pu_of = NULL;
	}
	return rc;
}

int
topo_aggregate(const struct topo *t, const uint32_t *pu_of, uint32_t n_ranks,
	       const double *per_rank, enum topo_agg how, double *per_obj)
{
	uint32_t *count = calloc(t->n + 1, sizeof *count);
	if (!count)
		return ERR_NOMEM;
	for (size_t i = 0; i < t->n; i++)
		per_obj[i] = 0;
	for (uint32_t r = 0; r < n_ranks; r++) {
		if (pu_of[r] >= t->n_pu)
			continue;
		double v = per_rank ? per_rank[r] : 1;
		for (uint32_t o = t->pu_obj[pu_of[r]]; o != TRACE_NONE; o = t->objs[o].parent) {
			if (how == AGG_MAX)
				per_obj[o] = count[o] == 0 || v > per_obj[o] ? v : per_obj[o];
			else if (how == AGG_COUNT)
				per_obj[o] += 1;
			else
				per_obj[o] += v;
			count[o]++;
		}
	}
	if (how == AGG_MEAN)
		for (size_t i = 0; i < t->n; i++)
			per_obj[i] = count[i] ? per_obj[i] / count[i] : 0;
	free(count);
	return 0;
}
