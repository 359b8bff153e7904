/* dsaved_analysis.c — the head and the analysis's sections of a saved
 * analysis written by every rank of a distributed analysis (dsaved.h):
 * the per-lop and per-op sections in runs from each rank's lops, the
 * lops by partition where each rank's of a partition sit (an exclusive
 * scan of the ranks' counts per partition), the minima from the ranks
 * holding them, and the partition-level sections and hotspots from
 * rank 0. */
#include "dsaved.h"

#include <stdlib.h>
#include <string.h>

#include "dist_metrics.h"
#include "model/dmodel.h"
#include "analysis/saved/saved_impl.h"

static int
put_one(struct dsaved *w, uint32_t id, uint32_t elem, uint64_t all, uint64_t first,
	const void *data, uint64_t n)
{
	struct drun r = { first, n, data };
	return dsaved_put(w, id, elem, all, &r, n ? 1 : 0);
}

/* A section of rank 0's. */
static int
put_root(struct dsaved *w, const struct dcomm *c, uint32_t id, uint32_t elem, const void *data,
	 uint64_t n)
{
	return put_one(w, id, elem, n, 0, data, c->rank == 0 ? n : 0);
}

/* Strings as one section from rank 0 (the same on every rank). */
static int
put_strings(struct dsaved *w, struct dcomm *c, uint32_t id, const char *const *s, uint32_t n)
{
	uint64_t len = 0;
	for (uint32_t i = 0; i < n; i++)
		len += strlen(s[i]) + 1;
	char *buf = malloc(len + 1), *p = buf;
	int rc = dcomm_agree(c, buf ? 0 : ERR_NOMEM);
	for (uint32_t i = 0; i < n && !rc; i++) {
		size_t k = strlen(s[i]) + 1;
		memcpy(p, s[i], k);
		p += k;
	}
	if (!rc)
		rc = put_root(w, c, id, 1, buf, len);
	if (!rc)
		dsaved_last_is_strings(w, n);
	free(buf);
	return rc;
}

int
dsaved_put_head(struct dsaved *w, struct dcomm *c, const struct analysis *a,
		const struct analysis_opts *ran)
{
	const struct trace *t = a->t;
	struct meta m;
	saved_fill_meta(&m, a, ran);
	m.has_explain = 0;       /* the ranks write none: saved_append_explain adds them */
	int rc = put_root(w, c, S_META, sizeof m, &m, 1);
	uint32_t n_str = intern_count(t->strings);
	const char **strs = malloc(((size_t)n_str + 1) * sizeof *strs);
	rc = rc ? rc : dcomm_agree(c, strs ? 0 : ERR_NOMEM);
	for (uint32_t i = 0; i < n_str && !rc; i++)
		strs[i] = intern_str(t->strings, i);
	if (!rc)
		rc = put_strings(w, c, S_STRINGS, strs, n_str);
	free(strs);
	const char *one[1] = { t->info.path ? t->info.path : "" };
	if (!rc)
		rc = put_strings(w, c, S_PATH, one, 1);
	one[0] = t->info.creator ? t->info.creator : "";
	if (!rc)
		rc = put_strings(w, c, S_CREATOR, one, 1);
	/* the phase rules the analysis used */
	uint32_t n_phases = a->opts.n_phases ? ran->n_phases : 0;
	const char **globs = malloc(((size_t)n_phases + 1) * sizeof *globs);
	rc = rc ? rc : dcomm_agree(c, globs ? 0 : ERR_NOMEM);
	for (uint32_t i = 0; i < n_phases && !rc; i++)
		globs[i] = ran->phases[i].region_glob;
	if (!rc)
		rc = put_strings(w, c, S_PHASES, globs, n_phases);
	free(globs);
	one[0] = ran->iter_region ? ran->iter_region : "";
	if (!rc)
		rc = put_strings(w, c, S_ITER_REGION, one, ran->iter_region != NULL);
	return rc;
}

/* A per-lop array of the rank's, in its run. */
static int
per_lop(struct dsaved *w, const struct dsave_lops *x, uint32_t id, uint32_t elem, const void *v)
{
	return put_one(w, id, elem, x->lops_all, x->lop_off, v, x->la->n_lops);
}

/* ids[0 .. n) + off into a new array (the rank's entries of a CSR over
 * global ids); the caller frees it. */
static uint32_t *
shifted(const uint32_t *ids, uint32_t n, uint32_t off)
{
	uint32_t *v = malloc(((size_t)n + 1) * sizeof *v);
	for (uint32_t i = 0; v && i < n; i++)
		v[i] = ids[i] + off;
	return v;
}

/* The lops grouped by partition (in lop order within each): the rank's
 * of partition p sit after those of the ranks before it. */
static int
part_lops(struct dsaved *w, struct dcomm *c, const struct dsave_lops *x, const uint32_t *plf)
{
	const struct analysis *a = x->la;
	uint32_t np = x->n_parts, n = a->n_lops;
	uint64_t *before = calloc((size_t)np + 1, sizeof *before);
	uint32_t *at = calloc((size_t)np + 2, sizeof *at), *fill = malloc(((size_t)np + 1) * sizeof *fill);
	uint32_t *lops = malloc(((size_t)n + 1) * sizeof *lops);
	struct drun *runs = malloc(((size_t)np + 1) * sizeof *runs);
	int rc = dcomm_agree(c, before && at && fill && lops && runs ? 0 : ERR_NOMEM);
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_part[l] != TRACE_NONE)
			at[a->lop_part[l] + 1]++;
	for (uint32_t p = 0; p < np && !rc; p++) {
		before[p] = at[p + 1];
		at[p + 1] += at[p];
		fill[p] = at[p];
	}
	for (uint32_t l = 0; l < n && !rc; l++)
		if (a->lop_part[l] != TRACE_NONE)
			lops[fill[a->lop_part[l]]++] = x->lop_off + l;
	if (!rc)
		rc = dcomm_exscan(c, before, np);
	size_t k = 0;
	for (uint32_t p = 0; p < np && !rc; p++)
		if (at[p + 1] > at[p])
			runs[k++] = (struct drun){ plf[p] + before[p], at[p + 1] - at[p], lops + at[p] };
	if (!rc)
		rc = dsaved_put(w, S_PART_LOPS, sizeof *lops, plf[np], runs, k);
	free(before);
	free(at);
	free(fill);
	free(lops);
	free(runs);
	return rc;
}

int
dsaved_put_analysis(struct dsaved *w, struct dcomm *c, const struct dsave_lops *x)
{
	const struct dmodel *d = x->d;
	const struct analysis *a = x->la;
	const struct dmet_out *m = x->m;
	uint32_t n = a->n_lops, last = c->rank + 1 == c->size, np = x->n_parts;
	uint32_t op_off = 2 * d->oprec.off, n_tl = (uint32_t)d->t->n_timelines;
	/* lop -> first op: the rank's entries, and the end on the last rank */
	uint32_t *v = shifted(a->lop_op, n + last, op_off);
	int rc = dcomm_agree(c, v ? 0 : ERR_NOMEM);
	if (!rc)
		rc = put_one(w, S_LOP_OP, sizeof *v, (uint64_t)x->lops_all + 1, x->lop_off, v, n + last);
	free(v);
	v = rc ? NULL : shifted(a->op_lop, 2 * d->oprec.n, x->lop_off);
	rc = rc ? rc : dcomm_agree(c, v ? 0 : ERR_NOMEM);
	if (!rc)
		rc = put_one(w, S_OP_LOP, sizeof *v, 2 * (uint64_t)d->oprec.all, op_off, v,
			     2 * d->oprec.n);
	free(v);
	uint32_t ntl = d->tl_hi - d->tl_lo + last;
	v = rc ? NULL : shifted(a->tl_lop + d->tl_lo, ntl, x->lop_off);
	rc = rc ? rc : dcomm_agree(c, v ? 0 : ERR_NOMEM);
	if (!rc)
		rc = put_one(w, S_TL_LOP, sizeof *v, (uint64_t)n_tl + 1, d->tl_lo, v, ntl);
	free(v);
	if (!rc)
		rc = per_lop(w, x, S_LOP_TL, sizeof *a->lop_tl, a->lop_tl);
	if (!rc)
		rc = per_lop(w, x, S_LOP_KIND, 1, a->lop_kind);
	if (!rc)
		rc = per_lop(w, x, S_LOP_PART, sizeof *a->lop_part, a->lop_part);
	if (!rc)
		rc = put_root(w, c, S_PARTS, sizeof *x->parts, x->parts, np);
	/* partition -> first lop, from the partitions' lop counts */
	uint32_t *plf = rc ? NULL : malloc(((size_t)np + 2) * sizeof *plf);
	rc = rc ? rc : dcomm_agree(c, plf ? 0 : ERR_NOMEM);
	for (uint32_t p = 0; p <= np && !rc; p++)
		plf[p] = p ? plf[p - 1] + x->parts[p - 1].lop_count : 0;
	if (!rc)
		rc = put_root(w, c, S_PART_LOP_FIRST, sizeof *plf, plf, (uint64_t)np + 1);
	if (!rc)
		rc = part_lops(w, c, x, plf);
	free(plf);
	if (!rc)
		rc = put_root(w, c, S_DAG_FIRST, sizeof *x->dag_first, x->dag_first, (uint64_t)np + 1);
	if (!rc)
		rc = put_root(w, c, S_DAG_SUCC, sizeof *x->dag_succ, x->dag_succ, x->dag_first[np]);
	if (!rc)
		rc = put_root(w, c, S_PART_ORDER, sizeof *x->part_order, x->part_order, np);
	/* user phases, when the analysis had rules (the same on every rank) */
	int phases = a->opts.n_phases != 0;
	if (!rc && phases)
		rc = per_lop(w, x, S_LOP_PHASE, sizeof *a->lop_phase, a->lop_phase);
	else if (!rc)
		rc = dsaved_put(w, S_LOP_PHASE, sizeof(uint32_t), 0, NULL, 0);
	if (!rc && phases)
		rc = per_lop(w, x, S_LOP_PHASE_REGION, sizeof *a->lop_phase_region, a->lop_phase_region);
	else if (!rc)
		rc = dsaved_put(w, S_LOP_PHASE_REGION, sizeof(uint32_t), 0, NULL, 0);
	if (!rc)
		rc = per_lop(w, x, S_LOP_STEP, sizeof *a->lop_step, a->lop_step);
	/* the minima, from the ranks holding them */
	uint32_t mine = m->part_hi - m->part_lo;
	if (!rc)
		rc = put_one(w, S_PMIN, sizeof *m->pmin, m->n_slots, m->pmin_first[0], m->pmin,
			     m->pmin_first[mine] - m->pmin_first[0]);
	if (!rc)
		rc = put_one(w, S_PMIN_FIRST, sizeof *m->pmin_first, (uint64_t)np + 1, m->part_lo,
			     m->pmin_first, mine + last);
	if (!rc)
		rc = put_one(w, S_GMIN, sizeof *m->gmin, x->n_steps, m->step_lo, m->gmin,
			     m->step_hi - m->step_lo);
	if (!rc)
		rc = per_lop(w, x, S_CAUSE, 1, m->cause);
	if (!rc)
		rc = per_lop(w, x, S_DIFF, sizeof *m->diff, m->diff);
	/* the large values and far causes: in lop order, so in rank order */
	uint64_t cnt[2] = { m->n_big, m->n_far }, pre[2] = { m->n_big, m->n_far };
	if (!rc)
		rc = dcomm_exscan(c, pre, 2);
	if (!rc)
		rc = dcomm_reduce(c, cnt, 2, DCOMM_SUM);
	if (!rc)
		rc = put_one(w, S_DIFF_BIG, sizeof *m->big, cnt[0], pre[0], m->big, m->n_big);
	if (!rc)
		rc = put_one(w, S_CAUSE_FAR, sizeof *m->far, cnt[1], pre[1], m->far, m->n_far);
	uint64_t nh[2] = { m->n_hot, m->n_hot_all };
	if (!rc)
		rc = dcomm_reduce(c, nh, 2, DCOMM_MAX);    /* rank 0's: the others' are 0 */
	if (!rc)
		rc = put_one(w, S_HOT, sizeof(uint32_t), nh[0], 0, m->hot, c->rank ? 0 : nh[0]);
	if (!rc)
		rc = put_one(w, S_HOT_ALL, sizeof(uint32_t), nh[1], 0, m->hot_all, c->rank ? 0 : nh[1]);
	/* iterations: their starts (the same on every rank), each rank's runs */
	uint32_t n_it = a->iters.count;
	uint64_t runs = n_it ? a->n_iter_runs : 0, runs_before = runs, runs_all = runs;
	if (!rc)
		rc = put_one(w, S_ITER_STARTS, sizeof(uint32_t), n_it ? n_it + 1 : 0, 0,
			     a->iter_starts, c->rank == 0 && n_it ? n_it + 1 : 0);
	if (!rc)
		rc = dcomm_exscan(c, &runs_before, 1);
	if (!rc)
		rc = dcomm_reduce(c, &runs_all, 1, DCOMM_SUM);
	if (!rc)
		rc = put_one(w, S_ITER_RUNS, sizeof *a->iter_runs, runs_all, runs_before, a->iter_runs,
			     runs);
	/* reordering's lop -> op maps (every rank has them or none: dist_run),
	 * as global op ids */
	const uint32_t *maps[2] = { a->op_of_lop, a->op_last_of_lop };
	for (int i = 0; i < 2 && !rc; i++) {
		uint32_t id = i ? S_OP_LAST_OF_LOP : S_OP_OF_LOP;
		if (!maps[i]) {
			rc = dsaved_put(w, id, sizeof(uint32_t), 0, NULL, 0);
			continue;
		}
		v = shifted(maps[i], n, op_off);
		rc = dcomm_agree(c, v ? 0 : ERR_NOMEM);
		if (!rc)
			rc = per_lop(w, x, id, sizeof *v, v);
		free(v);
	}
	/* Charm++'s */
	static const struct {
		uint32_t id, elem;
	} none[] = { { S_IDLE_EXP, 8 }, { S_DUR_DIFF, 8 },
		     { S_IMBALANCE, 8 }, { S_PART_IMBALANCE, 8 }, { S_PART_REGION, 4 } };
	for (size_t i = 0; i < sizeof none / sizeof *none && !rc; i++)
		rc = dsaved_put(w, none[i].id, none[i].elem, 0, NULL, 0);
	return rc;
}
