/* iterations_query.c — reading the iterations iterations.c found: the
 * iteration of a step, of a lop, of a run of lops. */
#include "analysis_impl.h"
#include "iterations.h"

/* The iteration of lop l's global step, or TRACE_NONE. */
static uint32_t
of_step(const struct analysis *a, uint32_t l)
{
	return a->lop_step[l] == TRACE_NONE ? TRACE_NONE : iterations_of_step(a, a->lop_step[l]);
}

/* The iteration of step s, looked for first where the step before was. */
uint32_t
iterations_near_step(const struct iterations *it, uint32_t s, uint32_t near, const struct analysis *a)
{
	for (uint32_t k = near; k < it->count && k <= near + 1; k++)
		if (it->starts[k] <= s && s < it->starts[k + 1])
			return k;
	return iterations_of_step(a, s);
}

const struct iterations *
iterations_get(const struct analysis *a)
{
	return &a->iters;
}

uint32_t
iterations_of_step(const struct analysis *a, uint32_t step)
{
	const struct iterations *it = &a->iters;
	if (!it->count || step < it->starts[0] || step >= it->starts[it->count])
		return TRACE_NONE;
	uint32_t lo = 0, hi = it->count;   /* starts[lo] <= step < starts[hi] */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (it->starts[mid] <= step)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint32_t
iterations_of_lop(const struct analysis *a, uint32_t l)
{
	const struct iter_run *r = a->iter_runs;
	uint32_t n = a->n_iter_runs;
	if (!n || l < r[0].lop)
		return TRACE_NONE;
	uint32_t lo = 0, hi = n;     /* r[lo].lop <= l < r[hi].lop */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r[mid].lop <= l)
			lo = mid;
		else
			hi = mid;
	}
	return r[lo].iter == ITER_OF_STEP ? of_step(a, l) : r[lo].iter;
}

const char *
iterations_source_name(enum iterations_source s)
{
	switch (s) {
	case ITER_STRUCTURE: return "structure";
	case ITER_REGION: return "region";
	case ITER_NAMED: return "named";
	default: return "none";
	}
}

void
iterations_of_lops(const struct analysis *a, uint32_t l0, uint32_t l1, uint32_t *out)
{
	const struct iter_run *r = a->iter_runs;
	uint32_t n = a->n_iter_runs, k = 0, near = 0;
	if (n && l0 > r[0].lop) {     /* the run holding l0 */
		uint32_t lo = 0, hi = n;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (r[mid].lop <= l0)
				lo = mid;
			else
				hi = mid;
		}
		k = lo;
	}
	for (uint32_t l = l0; l < l1; l++) {
		while (k + 1 < n && r[k + 1].lop <= l)
			k++;
		if (!n || l < r[0].lop) {
			out[l - l0] = TRACE_NONE;
		} else if (r[k].iter != ITER_OF_STEP) {
			out[l - l0] = r[k].iter;
		} else {
			uint32_t s = a->lop_step[l];
			near = s == TRACE_NONE ? near : iterations_near_step(&a->iters, s, near, a);
			out[l - l0] = s == TRACE_NONE ? TRACE_NONE : near;
		}
	}
}

