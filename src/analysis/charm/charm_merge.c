/* charm_merge.c — merging across dependencies (seed 004, Alg. 1) and
 * restoring merges across split blocks (Alg. 2), each followed by a cycle
 * merge.
 *
 * Alg. 1: both ends of every remote invocation belong to one phase.
 * Since a message's two ends are of one class (an invocation involving the
 * runtime is a runtime dependency at both ends), this never mixes
 * application and runtime partitions.
 *
 * Alg. 2: the paper's text (and Fig. 4) merges, for each partition, "all
 * directly succeeding partitions that share the same type (entry method)
 * of split serial block". Its pseudocode, read literally, compares each
 * event with the event before it in its serial block and merges when both
 * are of one class — but events of one class next to each other in a
 * block already share an initial partition, so it would never merge. skein
 * follows the text (doc/charm.md): for each partition P, the partitions
 * that P's split edges lead to are grouped by their class and the entry
 * method that started their serial block, and each group becomes one.
 * These are exactly the pieces that one partition would have held had the
 * blocks not been split (Jacobi: after the reduction's broadcast, every
 * chare's iteration-starting sends). Merged pieces lead on to more pieces
 * that belong together, so the repair repeats until it merges nothing.
 */
#include "charm_impl.h"

#include <stdlib.h>
#include <string.h>

int
charm_dependency_merge(struct charm *c)
{
	const struct analysis *a = c->a;
	uint32_t n_msgs;
	trace_msgs(a->t, &n_msgs);
	for (uint32_t m = 0; m < n_msgs; m++) {
		if (!msg_ok(a, m))
			continue;
		uint32_t s = a->op_lop[a->msgs[m].send_op], r = a->op_lop[a->msgs[m].recv_op];
		if (c->cls[s] != CLS_NONE && c->cls[r] != CLS_NONE)
			uf_union(&c->u, s, r);
	}
	int rc = charm_graph_build(c, 1);
	if (!rc)
		c->a->stats.charm_dependency = c->np;
	return rc;
}

struct split_target {
	uint32_t from;       /* source partition */
	uint32_t entry;      /* entry that started the target's block */
	uint8_t cls;
	uint32_t lop;        /* a lop of the target */
};

static int
cmp_target(const void *x, const void *y)
{
	const struct split_target *a = x, *b = y;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	return a->lop < b->lop ? -1 : a->lop > b->lop;
}

/* One pass of the repair; returns how many merges it made, or a negative
 * error. */
static int64_t
repair_pass(struct charm *c)
{
	{
		size_t n = 0;
		for (size_t i = 0; i < c->n_e; i++)
			n += c->e[i].kind == EDGE_SPLIT;
		struct split_target *t = malloc((n + 1) * sizeof *t);
		if (!t)
			return ERR_NOMEM;
		n = 0;
		for (size_t i = 0; i < c->n_e; i++) {
			const struct charm_edge *e = &c->e[i];
			if (e->kind != EDGE_SPLIT || c->pid[e->a] == c->pid[e->b])
				continue;
			t[n++] = (struct split_target){ .from = c->pid[e->a], .cls = c->cls[e->b],
							.entry = c->block_entry[c->block[e->b]], .lop = e->b };
		}
		if (n > 1)
			qsort(t, n, sizeof *t, cmp_target);
		int64_t merged = 0;
		for (size_t i = 1; i < n; i++)
			if (t[i].from == t[i - 1].from && t[i].cls == t[i - 1].cls &&
			    t[i].entry == t[i - 1].entry)
				merged += uf_union(&c->u, t[i - 1].lop, t[i].lop);
		free(t);
		return merged;
	}
}

/* Repairing can merge the partitions split edges come from (the pieces
 * of one application phase, after the runtime phase before them), which
 * then lead to more pieces that belong together (the contributions that
 * end that phase): the repair is repeated until it merges nothing. */
int
charm_repair_merge(struct charm *c)
{
	int rc = 0;
	for (int round = 0; c->a->opts.charm_repair && round < 32 && !rc; round++) {
		int64_t merged = repair_pass(c);
		if (merged < 0)
			return (int)merged;
		rc = charm_graph_build(c, 1);
		if (!merged)
			break;
	}
	if (!rc && !c->a->opts.charm_repair)
		rc = charm_graph_build(c, 1);
	if (!rc)
		c->a->stats.charm_repair = c->np;
	return rc;
}
