/* charm_metrics.c — the metrics of seed 004 §4, on the logical structure.
 *
 * Differential duration: a lop's duration (its sub-block: the reader
 * splits executions after each send, Fig. 13) beyond the shortest lop of
 * the same entry method at the same step of its phase. The paper compares
 * all events at a step, which it may since its steps hold events only and
 * it assumes they are "the same action"; skein's steps also hold
 * operations without events, of other entry methods (a 1 us SDAG_RTS
 * beside a 50 us Jacobi_compute), so it compares like with like.
 *
 * Idle experienced: the lop that runs first on a PE after an idle
 * interval experiences the whole interval; going on along the PE, the
 * first lop of every following serial block experiences it too as long
 * as the message that started that block was sent before the idle ended
 * (it was waiting for something that was already on its way); the search
 * stops at the first block started by a message sent after the idle ended,
 * and at the next idle interval. Blocks started by no recorded message
 * neither receive it nor stop the search (doc/charm.md).
 *
 * Imbalance: per phase, each PE's work is the sum of the durations of the
 * phase's lops that ran on it; a lop's imbalance is its PE's work minus
 * the least loaded PE's (among the PEs the phase ran on), a phase's is the
 * most loaded minus the least loaded.
 */
#include "charm_impl.h"

#include "base/par.h"
#include "base/sort.h"

#include <stdlib.h>
#include <string.h>

/* A phase's lops lie scattered: the loops over part_lops ask for the
 * records of the lops ahead of k (before k1), their ops' PEs with
 * op_pe. */
static inline void
phase_ahead(const struct analysis *a, const uint32_t *op_pe, uint32_t k, uint32_t k1)
{
	if (k + 16 < k1)
		analysis_lop_prefetch(a, a->part_lops[k + 16], 0);
	if (k + 4 < k1) {
		analysis_lop_prefetch(a, a->part_lops[k + 4], 1);
		if (op_pe)
			__builtin_prefetch(&op_pe[lop_first_op(a, a->part_lops[k + 4])]);
	}
}

/* The metrics of each phase, phase by phase on every core (a phase's
 * lops are its own), from one read of its lops in the phase's order
 * (where phase_ahead fetches their records): each lop's step, region,
 * PE and duration, kept by its position in the phase.
 *
 * Differential duration: the lops grouped by step and entry method (a
 * radix sort of step << 32 | region; the order within a group changes
 * nothing), each less the shortest of its group.
 *
 * The phase's entry, the entry method that most of its events ran (ties:
 * the lower region id), what the reports name the phase by, and its
 * imbalance: each PE's work, the sum of the durations of the phase's
 * lops that ran on it; a lop's imbalance is its PE's work less the least
 * loaded PE's, the phase's the most loaded less the least.
 *
 * Each worker's arrays are sized for the largest phase
 * (charm_phase_workers: one worker when a phase holds most of the run). */
struct phasing {
	struct analysis *a;
	const uint32_t *op_pe;
	uint32_t nreg, n_pes, most;
	struct par_pieces pieces;
};

/* A worker's scratch: by position in the phase (k, dur, pe_at), by
 * region (count, rstamp) and by PE (work, stamp, seen). */
struct phase_scratch {
	struct sort_kv *k;
	uint64_t *dur;
	uint32_t *pe_at;
	uint32_t *count, *rstamp;
	uint64_t *work;
	uint32_t *stamp, *seen;
};

static void
phase_scratch_free(struct phase_scratch *x)
{
	free(x->k);
	free(x->dur);
	free(x->pe_at);
	free(x->count);
	free(x->rstamp);
	free(x->work);
	free(x->stamp);
	free(x->seen);
}

static int
phase_scratch_alloc(struct phase_scratch *x, const struct phasing *g)
{
	x->k = malloc(((size_t)g->most + 1) * sizeof *x->k);
	x->dur = malloc(((size_t)g->most + 1) * sizeof *x->dur);
	x->pe_at = malloc(((size_t)g->most + 1) * sizeof *x->pe_at);
	x->count = malloc(((size_t)g->nreg + 1) * sizeof *x->count);
	x->rstamp = malloc(((size_t)g->nreg + 1) * sizeof *x->rstamp);
	x->work = malloc(((size_t)g->n_pes + 1) * sizeof *x->work);
	x->stamp = malloc(((size_t)g->n_pes + 1) * sizeof *x->stamp);
	x->seen = malloc(((size_t)g->n_pes + 1) * sizeof *x->seen);
	if (!x->k || !x->dur || !x->pe_at || !x->count || !x->rstamp || !x->work || !x->stamp || !x->seen)
		return ERR_NOMEM;
	memset(x->rstamp, 0xff, ((size_t)g->nreg + 1) * sizeof *x->rstamp);
	memset(x->stamp, 0xff, ((size_t)g->n_pes + 1) * sizeof *x->stamp);
	return 0;
}

static int
phase_metrics(const struct phasing *g, struct phase_scratch *x, uint32_t p)
{
	struct analysis *a = g->a;
	uint32_t i0 = a->part_lop_first[p], n = a->part_lop_first[p + 1] - i0;
	uint32_t best = TRACE_NONE, n_seen = 0;
	for (uint32_t i = 0; i < n; i++) {
		phase_ahead(a, g->op_pe, i0 + i, i0 + n);
		uint32_t l = a->part_lops[i0 + i], r = analysis_lop_region(a, l), pe = analysis_lop_pe(a, l);
		uint64_t d = lop_duration(a, l);
		x->k[i] = (struct sort_kv){ (uint64_t)a->lop_step[l] << 32 | r, i };
		x->dur[i] = d;
		x->pe_at[i] = pe;
		if (x->stamp[pe] != p) {
			x->stamp[pe] = p;
			x->work[pe] = 0;
			x->seen[n_seen++] = pe;
		}
		x->work[pe] += d;
		if (a->lop_kind[l] == OP_COMPUTE || r >= g->nreg)
			continue;
		if (x->rstamp[r] != p) {
			x->rstamp[r] = p;
			x->count[r] = 0;
		}
		x->count[r]++;
		if (best == TRACE_NONE || x->count[r] > x->count[best] || (x->count[r] == x->count[best] && r < best))
			best = r;
	}
	a->part_region[p] = best;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < n_seen; i++) {
		if (x->work[x->seen[i]] < lo)
			lo = x->work[x->seen[i]];
		if (x->work[x->seen[i]] > hi)
			hi = x->work[x->seen[i]];
	}
	a->part_imbalance[p] = n_seen ? hi - lo : 0;
	int rc = sort_keyed(x->k, n);
	if (rc)
		return rc;
	/* dur becomes the differential duration */
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;
		uint64_t min = UINT64_MAX;
		for (; j < n && x->k[j].key == x->k[i].key; j++)
			if (x->dur[x->k[j].id] < min)
				min = x->dur[x->k[j].id];
		for (; i < j; i++)
			x->dur[x->k[i].id] -= min;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t l = a->part_lops[i0 + i];
		a->dur_diff[l] = x->dur[i];
		a->imbalance[l] = x->work[x->pe_at[i]] - lo;
	}
	return 0;
}

static int
phase_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct phasing *g = ctx;
	struct phase_scratch x = { 0 };
	uint32_t p;
	(void)nw;
	int rc = phase_scratch_alloc(&x, g);
	while (!rc && par_take(&g->pieces, w, &p))
		rc = phase_metrics(g, &x, p);
	phase_scratch_free(&x);
	return rc;
}

static int
phases(struct analysis *a)
{
	uint32_t most, nw = charm_phase_workers(a, &most);
	struct phasing g = { .a = a, .op_pe = trace_op_pes(a->t), .n_pes = trace_pe_count(a->t), .most = most };
	trace_regions(a->t, &g.nreg);
	par_pieces_init(&g.pieces, a->n_parts, nw);
	return par_run(nw, phase_worker, &g);
}

/* The message that started lop l's serial block, if l starts one. */
static uint32_t
block_sink(const struct analysis *a, uint32_t l)
{
	uint32_t n;
	const struct trace_end *e = lop_ends(a, l, &n);
	for (uint32_t i = 0; i < n; i++)
		if (e[i].role == END_RECV && msg_ok(a, e[i].id))
			return e[i].id;
	return TRACE_NONE;
}

/* A lop's enter, the key of a PE's lops in time order (listed in lop
 * order, so equal enters stay in lop order). */
static uint64_t
enter_key(const void *ctx, uint32_t l)
{
	return lop_enter(ctx, l);
}

/* Each PE's lops in time order and its idle intervals, the PEs on every
 * core (a lop runs on one PE: each worker writes its PEs' lops only). */
struct idling {
	struct analysis *a;
	const uint32_t *first;       /* per PE: where its lops begin in v */
	uint32_t *v;                 /* by_pe, sorted PE by PE */
	struct par_pieces pieces;
};

static int
idle_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct idling *g = ctx;
	struct analysis *a = g->a;
	uint32_t n_pes, pe;
	const struct trace_pe *pes = trace_pes(a->t, &n_pes);
	const struct trace_idle *idles = trace_idles(a->t, NULL);
	int rc = 0;
	(void)nw;
	while (!rc && par_take(&g->pieces, w, &pe)) {
		uint32_t *v = g->v + g->first[pe], m = g->first[pe + 1] - g->first[pe];
		if ((rc = sort_ids_keyed(v, m, enter_key, a)))
			break;
		const struct trace_pe *P = &pes[pe];
		uint32_t at = 0;
		for (uint32_t k = P->idle_first; k < P->idle_first + P->idle_count; k++) {
			uint64_t i0 = idles[k].t_begin, i1 = idles[k].t_end, len = i1 - i0;
			uint64_t stop = k + 1 < P->idle_first + P->idle_count ? idles[k + 1].t_begin : UINT64_MAX;
			while (at < m && lop_enter(a, v[at]) < i1)
				at++;
			if (at >= m || !len)
				continue;
			/* the lop right after the idle interval */
			a->idle_exp[v[at]] = len;
			for (uint32_t j = at + 1; j < m && lop_enter(a, v[j]) < stop; j++) {
				uint32_t l = v[j];
				if (trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_BLOCK_CONT)
					continue;         /* not the first of its serial block */
				uint32_t msg = block_sink(a, l);
				if (msg == TRACE_NONE)
					continue;
				if (a->msgs[msg].t_send >= i1)
					break;           /* depends on something after the idle */
				a->idle_exp[l] = len;
			}
		}
	}
	return rc;
}

static uint32_t
pe_key(const void *ctx, uint32_t l)
{
	return analysis_lop_pe(ctx, l);
}

static int
idle_experienced(struct analysis *a)
{
	uint32_t n_pes, n = a->n_lops;
	trace_pes(a->t, &n_pes);
	uint32_t *first = malloc(((size_t)n_pes + 1) * sizeof *first);
	uint32_t *by_pe = malloc((n + 1) * sizeof *by_pe);
	int rc = first && by_pe ? par_bucket(n, n_pes, pe_key, a, first, by_pe) : ERR_NOMEM;
	if (!rc) {
		uint32_t nw = par_workers();
		struct idling g = { .a = a, .first = first, .v = by_pe };
		par_pieces_init(&g.pieces, n_pes, nw);
		rc = par_run(nw, idle_worker, &g);
	}
	if (!rc) {              /* kept: analysis_pe_lops */
		a->pe_first = first;
		a->pe_lops = by_pe;
	} else {
		free(first);
		free(by_pe);
	}
	return rc;
}

void
analysis_part_pe_work(const struct analysis *a, uint32_t p, uint64_t *work, uint32_t n_pes)
{
	memset(work, 0, (size_t)n_pes * sizeof *work);
	if (p >= a->n_parts)
		return;
	const uint32_t *op_pe = trace_op_pes(a->t);
	uint32_t k1 = a->part_lop_first[p + 1];
	for (uint32_t k = a->part_lop_first[p]; k < k1; k++) {
		phase_ahead(a, op_pe, k, k1);
		uint32_t l = a->part_lops[k], pe = analysis_lop_pe(a, l);
		if (pe < n_pes)
			work[pe] += lop_duration(a, l);
	}
}

uint32_t
analysis_part_region(const struct analysis *a, uint32_t p)
{
	return a->part_region && p < a->n_parts ? a->part_region[p] : TRACE_NONE;
}

int
charm_metrics_compute(struct analysis *a)
{
	uint32_t n = a->n_lops;
	a->idle_exp = calloc(n + 1, sizeof *a->idle_exp);
	a->dur_diff = calloc(n + 1, sizeof *a->dur_diff);
	a->imbalance = calloc(n + 1, sizeof *a->imbalance);
	a->part_imbalance = calloc((size_t)a->n_parts + 1, sizeof *a->part_imbalance);
	a->part_region = malloc(((size_t)a->n_parts + 1) * sizeof *a->part_region);
	if (!a->idle_exp || !a->dur_diff || !a->imbalance || !a->part_imbalance || !a->part_region)
		return ERR_NOMEM;
	int rc = phases(a);
	if (!rc)
		rc = idle_experienced(a);
	return rc;
}
