/* charm_infer.c — inferring dependencies from partition sources (seed
 * 004, Alg. 3).
 *
 * After the dependency merge, the events that start a phase are sends:
 * they have the fewest dependencies. Missing control dependencies (made
 * inside the runtime, not traced) are inferred from the physical order of
 * sources on each chare: every source is followed by the next source on
 * its chare, and when that source is in another partition, an edge is
 * added. A cycle merge follows. Lops of a timeline are still in time
 * order here, so "the next source" is the next lop on the timeline that
 * sends.
 */
#include "charm_impl.h"

static int
is_source(const struct analysis *a, uint32_t l)
{
	uint32_t n;
	const struct trace_end *e = lop_ends(a, l, &n);
	for (uint32_t i = 0; i < n; i++)
		if (e[i].role == END_SEND && msg_ok(a, e[i].id))
			return 1;
	return 0;
}

int
charm_infer(struct charm *c)
{
	const struct analysis *a = c->a;
	int rc = 0;
	if (a->opts.charm_infer)
		for (uint32_t tl = 0; tl < c->n_tl && !rc; tl++) {
			uint32_t prev = TRACE_NONE;
			for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1] && !rc; l++) {
				if (c->cls[l] == CLS_NONE || !is_source(a, l))
					continue;
				if (prev != TRACE_NONE && c->pid[prev] != c->pid[l])
					rc = charm_edge_add(c, prev, l, EDGE_INFERRED);
				prev = l;
			}
		}
	if (!rc)
		rc = charm_graph_build(c, 1);
	if (!rc)
		c->a->stats.charm_infer = c->np;
	return rc;
}
