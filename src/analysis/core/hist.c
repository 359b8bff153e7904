/* hist.c — histograms, the activity timeline and the call density. */
#include "hist.h"

#include "model/charm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/charm.h"

int
hist_build(const double *v, size_t n, uint32_t bins, int log, struct hist *h)
{
	memset(h, 0, sizeof *h);
	if (!bins)
		return ERR_USAGE;
	h->n_bins = bins;
	h->log = log;
	h->count = calloc(bins, sizeof *h->count);
	if (!h->count)
		return ERR_NOMEM;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (log && !(v[i] > 0))
			continue;
		double x = log ? log10(v[i]) : v[i];
		if (x < lo)
			lo = x;
		if (x > hi)
			hi = x;
	}
	if (lo > hi)
		lo = hi = 0;
	if (hi == lo)
		hi = lo + 1;          /* one value: a unit-wide range */
	h->lo = log ? pow(10, lo) : lo;
	h->hi = log ? pow(10, hi) : hi;
	for (size_t i = 0; i < n; i++) {
		h->total++;
		if (log && !(v[i] > 0)) {
			h->zero++;
			continue;
		}
		double x = log ? log10(v[i]) : v[i];
		double f = (x - lo) / (hi - lo);
		uint32_t b = f >= 1 ? bins - 1 : (uint32_t)(f * bins);
		if (++h->count[b] > h->peak)
			h->peak = h->count[b];
	}
	return 0;
}

void
hist_fini(struct hist *h)
{
	free(h->count);
	memset(h, 0, sizeof *h);
}

double
hist_edge(const struct hist *h, uint32_t b)
{
	if (h->log) {
		double lo = log10(h->lo), hi = log10(h->hi);
		return pow(10, lo + (hi - lo) * b / h->n_bins);
	}
	return h->lo + (h->hi - h->lo) * b / h->n_bins;
}

static int
selected(const struct analysis *a, uint32_t l, const struct hist_select *s)
{
	if (!s)
		return 1;
	if (s->part != TRACE_NONE && analysis_lop_part(a, l) != s->part)
		return 0;
	if (s->no_startup && analysis_lop_startup(a, l))
		return 0;
	uint32_t step = analysis_lop_step(a, l);
	return !s->step_end || (step >= s->step_first && step < s->step_end);
}

int
hist_collect(const struct analysis *a, enum hist_metric m, uint32_t region,
	     const struct hist_select *sel, double **v, size_t *n)
{
	const struct trace *t = analysis_trace(a);
	uint32_t nl = analysis_lop_count(a);
	int charm = trace_info(t)->paradigm == PARADIGM_CHARM;
	*n = 0;
	*v = malloc(((size_t)nl + 1) * sizeof **v);
	if (!*v)
		return ERR_NOMEM;
	for (uint32_t l = 0; l < nl; l++) {
		if (!selected(a, l, sel))
			continue;
		double x;
		if (m == HM_DURATION) {
			if ((analysis_lop_kind(a, l) == OP_COMPUTE && !charm) ||
			    (region != TRACE_NONE && analysis_lop_region(a, l) != region))
				continue;
			x = trace_seconds(t, analysis_lop_exit(a, l) - analysis_lop_enter(a, l));
		} else if (m == HM_IDLE) {
			x = trace_seconds(t, analysis_lop_idle_experienced(a, l));
		} else {
			x = trace_seconds(t, m == HM_DIFF ? analysis_lop_diff(a, l)
					  : analysis_lop_lateness(a, l));
		}
		(*v)[(*n)++] = x;
	}
	return 0;
}

int
hist_collect_msg_sizes(const struct trace *t, double **v, size_t *n)
{
	uint32_t nm;
	const struct trace_msg *msgs = trace_msgs(t, &nm);
	*n = 0;
	*v = malloc(((size_t)nm + 1) * sizeof **v);
	if (!*v)
		return ERR_NOMEM;
	for (uint32_t m = 0; m < nm; m++)
		if (msgs[m].send_op != TRACE_NONE && msgs[m].recv_op != TRACE_NONE)
			(*v)[(*n)++] = (double)msgs[m].bytes;
	return 0;
}

/* ---- activity ---- */

void
activity_fini(struct activity *act)
{
	free(act->func_region);
	free(act->frac);
	memset(act, 0, sizeof *act);
}

/* Calls fn(ud, region, enter, exit) for every MPI call of the trace
 * that is not inside another: the ops that are calls, and the quiet calls
 * (MPI_Wait that completed nothing, MPI_Irecv, MPI_Init, MPI_Comm_split,
 * non-blocking collectives: trace.h), which are MPI time as much as the
 * calls the structure keeps. Calls made inside another MPI call and the
 * gaps where measurement was off are left out. */
static void
each_mpi_call(const struct trace *t, uint64_t t0, uint64_t t1,
	      void (*fn)(void *ud, uint32_t region, uint64_t en, uint64_t ex), void *ud)
{
	uint32_t n_ops, n_calls;
	struct trace_opv ops = trace_ops(t, &n_ops);
	for (uint32_t i = 0; i < n_ops; i++) {
		struct trace_op o = trace_op_get(&ops, i);
		if (o.kind != OP_COMPUTE && o.region != TRACE_NONE && o.t_exit > t0 && o.t_enter < t1)
			fn(ud, o.region, o.t_enter, o.t_exit);
	}
	const struct trace_call *c = trace_calls(t, &n_calls);
	for (uint32_t i = 0; i < n_calls; i++) {
		uint64_t en = c[i].t_enter, ex = en + trace_call_ticks(&c[i]);
		uint32_t r = trace_call_region(&c[i]);
		if (trace_call_kind(&c[i]) == CALL_MPI && r != TRACE_NONE && ex > t0 && en < t1)
			fn(ud, r, en, ex);
	}
}

struct busy_acc {
	double *busy;
	uint64_t t0, t1;
};

static void
add_busy(void *ud, uint32_t region, uint64_t en, uint64_t ex)
{
	struct busy_acc *b = ud;
	b->busy[region] += (double)((ex < b->t1 ? ex : b->t1) - (en > b->t0 ? en : b->t0));
}

struct frac_acc {
	struct activity *act;
	const uint32_t *col;
	double width, norm;
};

/* spread a call's time over the bins it overlaps */
static void
add_frac(void *ud, uint32_t region, uint64_t en, uint64_t ex)
{
	struct frac_acc *f = ud;
	struct activity *act = f->act;
	uint32_t w = act->n_funcs + 1, bins = act->n_bins;
	uint32_t c = f->col[region] == TRACE_NONE ? act->n_funcs : f->col[region];
	double a = (double)((en > act->t0 ? en : act->t0) - act->t0);
	double b = (double)((ex < act->t1 ? ex : act->t1) - act->t0);
	uint32_t ba = (uint32_t)(a / f->width), bb = (uint32_t)(b / f->width);
	if (bb >= bins)
		bb = bins - 1;
	for (uint32_t k = ba; k <= bb && k < bins; k++) {
		double lo = k * f->width, hi = lo + f->width;
		double ov = (b < hi ? b : hi) - (a > lo ? a : lo);
		if (ov > 0)
			act->frac[(size_t)k * w + c] += ov / f->norm;
	}
}

int
activity_compute(const struct trace *t, uint64_t t0, uint64_t t1, uint32_t bins,
		 uint32_t max_funcs, struct activity *act)
{
	memset(act, 0, sizeof *act);
	if (!bins || t1 <= t0)
		return ERR_USAGE;
	uint32_t n_regions, n_tl;
	trace_regions(t, &n_regions);
	trace_timelines(t, &n_tl);
	double *busy = calloc(n_regions + 1, sizeof *busy);   /* time per region */
	uint32_t *col = malloc((n_regions + 1) * sizeof *col);
	if (!busy || !col) {
		free(busy);
		free(col);
		return ERR_NOMEM;
	}
	struct busy_acc ba = { busy, t0, t1 };
	each_mpi_call(t, t0, t1, add_busy, &ba);
	/* the max_funcs busiest regions get a column each, the rest "other" */
	act->func_region = malloc(((size_t)max_funcs + 1) * sizeof *act->func_region);
	if (!act->func_region) {
		free(busy);
		free(col);
		return ERR_NOMEM;
	}
	for (uint32_t r = 0; r < n_regions; r++)
		col[r] = TRACE_NONE;
	while (act->n_funcs < max_funcs) {
		uint32_t best = TRACE_NONE;
		for (uint32_t r = 0; r < n_regions; r++)
			if (busy[r] > 0 && col[r] == TRACE_NONE && (best == TRACE_NONE || busy[r] > busy[best]))
				best = r;
		if (best == TRACE_NONE)
			break;
		col[best] = act->n_funcs;
		act->func_region[act->n_funcs++] = best;
	}
	free(busy);
	uint32_t w = act->n_funcs + 1;
	act->n_bins = bins;
	act->t0 = t0;
	act->t1 = t1;
	act->frac = calloc((size_t)bins * w, sizeof *act->frac);
	if (!act->frac) {
		free(col);
		activity_fini(act);
		return ERR_NOMEM;
	}
	/* a Charm++ run's processes are its PEs (each runs one entry method
	 * at a time); its chares are far more and mostly waiting */
	uint32_t n_pe = 0;
	if (trace_info(t)->paradigm == PARADIGM_CHARM)
		trace_pes(t, &n_pe);
	uint32_t procs = n_pe ? n_pe : n_tl;
	double width = (double)(t1 - t0) / bins;
	struct frac_acc fa = { act, col, width, width * (procs ? procs : 1) };
	each_mpi_call(t, t0, t1, add_frac, &fa);
	free(col);
	return 0;
}

/* ---- density ---- */

void
density_fini(struct density *d)
{
	free(d->d);
	free(d->region);
	free(d->opacity);
	free(d->func);
	memset(d, 0, sizeof *d);
}

/* A communication call as a density point: its time (enter, or exit with
 * use_end) in [t0, t1) and log10 of its duration in seconds. Returns 0
 * for computation (an MPI trace's: a Charm++ run's executions without
 * messages are entry methods too) and calls outside the span. */
static int
density_point(const struct trace *t, const struct trace_op *o, int use_end, uint64_t t0, uint64_t t1,
	      uint64_t *x, double *y)
{
	*x = use_end ? o->t_exit : o->t_enter;
	if ((o->kind == OP_COMPUTE && trace_info(t)->paradigm != PARADIGM_CHARM) || o->region == TRACE_NONE ||
	    *x < t0 || *x >= t1)
		return 0;
	*y = log10(trace_seconds(t, o->t_exit - o->t_enter) + 1e-9);
	return 1;
}

int
density_compute(const struct trace *t, uint64_t t0, uint64_t t1, uint32_t w, uint32_t h,
		int use_end, enum density_map map, double o_min, struct density *d)
{
	memset(d, 0, sizeof *d);
	if (!w || !h || t1 <= t0 || o_min < 0 || o_min > 1)
		return ERR_USAGE;
	uint32_t n_ops, n_regions;
	struct trace_opv ops = trace_ops(t, &n_ops);
	trace_regions(t, &n_regions);
	size_t cells = (size_t)w * h;
	d->w = w;
	d->h = h;
	d->t0 = t0;
	d->t1 = t1;
	d->d = calloc(cells, sizeof *d->d);
	d->region = malloc(cells * sizeof *d->region);
	d->opacity = calloc(cells, sizeof *d->opacity);
	d->func = malloc(cells);
	/* the dominant region per cell by a Boyer-Moore majority vote: one
	 * counter per cell instead of a count per (cell, region); exact
	 * whenever one region has most of the cell's calls */
	uint32_t *votes = calloc(cells, sizeof *votes);
	uint64_t *calls = calloc((size_t)n_regions + 1, sizeof *calls);
	if (!d->d || !d->region || !d->opacity || !d->func || !votes || !calls) {
		free(votes);
		free(calls);
		density_fini(d);
		return ERR_NOMEM;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (uint32_t i = 0; i < n_ops; i++) {
		uint64_t x;
		double y;
		struct trace_op o = trace_op_get(&ops, i);
		if (!density_point(t, &o, use_end, t0, t1, &x, &y))
			continue;
		if (y < lo)
			lo = y;
		if (y > hi)
			hi = y;
		if (o.region < n_regions)
			calls[o.region]++;
		d->points++;
	}
	/* the functions with the most calls get colours of their own */
	while (d->n_funcs < DENSITY_FUNCS) {
		uint32_t best = TRACE_NONE;
		for (uint32_t r = 0; r < n_regions; r++)
			if (calls[r] && (best == TRACE_NONE || calls[r] > calls[best]))
				best = r;
		if (best == TRACE_NONE)
			break;
		d->func_region[d->n_funcs] = best;
		d->func_calls[d->n_funcs++] = calls[best];
		calls[best] = 0;
	}
	for (uint32_t r = 0; r < n_regions; r++)
		d->func_calls[d->n_funcs] += calls[r];
	free(calls);
	if (lo > hi)
		lo = hi = -9;
	if (hi - lo < 1e-9)
		hi = lo + 1;
	d->dur_lo = lo;
	d->dur_hi = hi;
	for (size_t c = 0; c < cells; c++)
		d->region[c] = TRACE_NONE;
	for (uint32_t i = 0; i < n_ops; i++) {
		const struct trace_op o = trace_op_get(&ops, i);
		uint64_t x;
		double y;
		if (!density_point(t, &o, use_end, t0, t1, &x, &y))
			continue;
		uint32_t cx = (uint32_t)((double)(x - t0) * w / (double)(t1 - t0));
		uint32_t cy = (uint32_t)((hi - y) / (hi - lo) * h);
		if (cx >= w)
			cx = w - 1;
		if (cy >= h)
			cy = h - 1;
		size_t c = (size_t)cy * w + cx;
		d->d[c]++;
		if (votes[c] == 0) {
			d->region[c] = o.region;
			votes[c] = 1;
		} else if (d->region[c] == o.region) {
			votes[c]++;
		} else {
			votes[c]--;
		}
		if (d->d[c] > d->d_max)
			d->d_max = d->d[c];
	}
	free(votes);
	for (size_t c = 0; c < cells; c++) {
		d->func[c] = (uint8_t)d->n_funcs;
		for (uint32_t k = 0; k < d->n_funcs && d->d[c]; k++)
			if (d->region[c] == d->func_region[k])
				d->func[c] = (uint8_t)k;
		if (!d->d[c])
			continue;
		double f;
		if (d->d_max <= 1)
			f = 1;
		else if (map == DENSITY_LOG)
			f = log((double)d->d[c]) / log((double)d->d_max);
		else
			f = (double)d->d[c] / d->d_max;
		d->opacity[c] = (float)(o_min + (1 - o_min) * f);
	}
	return 0;
}
