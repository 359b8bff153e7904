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

#include "base/par.h"
#include "base/sort.h"

#include <stdlib.h>
#include <string.h>

/* The messages' unions on every core, a share of the messages each
 * (uf_unite_shared: the sets, and their roots, the smallest lops, are
 * those of the unions one after the other). */
static int
dependency_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct charm *c = ctx;
	const struct analysis *a = c->a;
	uint32_t n_msgs, from, to;
	trace_msgs(a->t, &n_msgs);
	par_share(n_msgs, w, nw, &from, &to);
	for (uint32_t m = from; m < to; m++) {
		if (!msg_ok(a, m))
			continue;
		uint32_t s = op_lop_of(a, a->msgs[m].send_op), r = op_lop_of(a, a->msgs[m].recv_op);
		if (c->cls[s] != CLS_NONE && c->cls[r] != CLS_NONE)
			uf_unite_shared(c->u.parent, s, r);
	}
	return 0;
}

int
charm_dependency_merge(struct charm *c)
{
	par_run(par_workers(), dependency_worker, c);
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

/* An entry (a region: below 2^22, trace.h) or TRACE_NONE in 30 bits. */
static uint32_t
entry_bits(uint32_t entry)
{
	_Static_assert(TRACE_REGION_MAX < (1u << 30) - 1, "a region fits 30 bits, TRACE_NONE apart");
	_Static_assert(CLS_RT < 4, "a class fits 2 bits");
	return entry > TRACE_REGION_MAX ? (1u << 30) - 1 : entry;
}

/* One pass of the repair; returns how many merges it made, or a negative
 * error. The targets are grouped by source partition, class and entry
 * with a radix sort (a qsort of them was 50 ms of one core at 10^7
 * records, a repair round), and each group's lops united. The order
 * within a group does not matter: a set's root is its smallest lop
 * whatever the order of the unions, and so is the count of unions that
 * joined two sets. */
static int64_t
repair_pass(struct charm *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_e; i++)
		n += c->e[i].kind == EDGE_SPLIT;
	if (n >= UINT32_MAX)
		return ERR_LIMIT;
	struct split_target *t = malloc((n + 1) * sizeof *t);
	struct sort_kv *kv = malloc((n + 1) * sizeof *kv);
	if (!t || !kv) {
		free(t);
		free(kv);
		return ERR_NOMEM;
	}
	n = 0;
	for (size_t i = 0; i < c->n_e; i++) {
		const struct charm_edge *e = &c->e[i];
		if (e->kind != EDGE_SPLIT || c->pid[e->a] == c->pid[e->b])
			continue;
		t[n] = (struct split_target){ .from = c->pid[e->a], .cls = c->cls[e->b],
					      .entry = c->block_entry[c->block[e->b]], .lop = e->b };
		kv[n] = (struct sort_kv){ (uint64_t)t[n].from << 32 | (uint64_t)(t[n].cls & 3) << 30 |
						  entry_bits(t[n].entry),
					  (uint32_t)n };
		n++;
	}
	int64_t merged = sort_keyed(kv, (uint32_t)n) ? ERR_NOMEM : 0;
	for (size_t k = 1; merged >= 0 && k < n; k++) {
		const struct split_target *x = &t[kv[k - 1].id], *y = &t[kv[k].id];
		if (x->from == y->from && x->cls == y->cls && x->entry == y->entry)
			merged += uf_union(&c->u, x->lop, y->lop);
	}
	free(t);
	free(kv);
	return merged;
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
