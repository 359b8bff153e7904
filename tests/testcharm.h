/* testcharm.h — shared by the Charm++ structure tests (test_charm*.c):
 * an analysis with its lops built and nothing else, ready for the seed
 * 004 stages to be run one by one (analysis/charm_impl.h).
 */
#ifndef SKEIN_TESTCHARM_H
#define SKEIN_TESTCHARM_H

#include "testutil.h"

#include "analysis/charm/charm_impl.h"

static inline struct analysis *
tc_lops_only(const struct trace *t)
{
	struct analysis *a = calloc(1, sizeof *a);
	assert_non_null(a);
	a->t = t;
	a->ops = trace_ops(t, &a->n_ops);
	a->msgs = trace_msgs(t, NULL);
	a->ends = trace_ends(t, &a->n_ends);
	analysis_opts_default(&a->opts);
	a->opts.coalesce_isends = 0;
	assert_int_equal(lops_build(a), 0);
	return a;
}

/* The dependency edges of kind k in c's partition graph. */
static inline uint32_t
tc_edges_of(const struct charm *c, enum charm_edge_kind k)
{
	uint32_t n = 0;
	for (size_t i = 0; i < c->n_e; i++)
		n += c->e[i].kind == k;
	return n;
}

#endif
