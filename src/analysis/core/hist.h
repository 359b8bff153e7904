/* hist.h — distributions for the histogram panes (issue 7).
 *
 *  - hist: counts of values in linear or logarithmic bins (lateness,
 *    differential lateness, durations, message sizes), with the values
 *    collected for the whole trace or a selection (partition, step window).
 *  - activity: the stacked activity timeline of seed 003 §2.1 — per time
 *    bin, the fraction of ranks inside each MPI function (time-weighted),
 *    every MPI call counted, those the structure keeps as ops and the
 *    quiet ones (trace.h); what is left is computation. A Charm++ run's
 *    processes are its PEs: the fraction of PEs inside each entry method.
 *  - density: seed 003 §2.2–2.3 — communication calls as points of
 *    (start or end time, log duration), counted per cell (D), with the
 *    paper's linear and logarithmic opacity maps, a minimum opacity the
 *    caller chooses, and the function each cell is coloured by (the
 *    paper maps colour to the MPI function, as in the timeline). In a
 *    Charm++ run every entry-method execution is a point, messages or
 *    not: its work is what the plot is for.
 * All are computed from the model in one pass; nothing here draws.
 */
#ifndef SKEIN_HIST_H
#define SKEIN_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "model/trace.h"

struct hist {
	uint32_t n_bins;
	int log;              /* bins equal in log10(value) */
	double lo, hi;        /* range of the bins (positive values when log) */
	uint64_t *count;      /* n_bins */
	uint64_t zero;        /* values <= 0 when log (not in any bin) */
	uint64_t total;
	uint64_t peak;        /* the largest bin count */
};

/* Bins n values into `bins` bins spanning their range. Returns 0,
 * ERR_USAGE (bins == 0) or ERR_NOMEM. */
int hist_build(const double *v, size_t n, uint32_t bins, int log, struct hist *h);
void hist_fini(struct hist *h);
/* Lower edge of bin b (b == n_bins gives the upper edge of the last). */
double hist_edge(const struct hist *h, uint32_t b);

/* What to collect: everything, or one partition and/or a step window;
 * without the ranks' start-up (analysis_lop_startup) when no_startup. */
struct hist_select {
	uint32_t part;               /* TRACE_NONE: all partitions */
	uint32_t step_first, step_end;   /* [first, end); step_end 0: all steps */
	int no_startup;
};

enum hist_metric { HM_LATENESS, HM_DIFF, HM_DURATION, HM_IDLE };

/* Values of a metric over the lops a selection holds, in seconds.
 * region restricts HM_DURATION to one region (TRACE_NONE: all
 * communication calls; in a Charm++ trace every entry-method execution
 * counts, messages or not). HM_IDLE is seed 004's idle experienced. *v
 * is malloc'd. */
int hist_collect(const struct analysis *a, enum hist_metric m, uint32_t region,
		 const struct hist_select *sel, double **v, size_t *n);

/* Sizes of all matched messages in bytes. *v is malloc'd. */
int hist_collect_msg_sizes(const struct trace *t, double **v, size_t *n);

struct activity {
	uint32_t n_bins, n_funcs;
	uint64_t t0, t1;             /* ticks */
	uint32_t *func_region;       /* n_funcs: region ids, most time first */
	double *frac;                /* n_bins x (n_funcs + 1): last column "other MPI" */
};

/* Fraction of ranks inside each MPI function per bin over [t0, t1), for
 * the max_funcs functions with the most time (the rest as "other"). */
int activity_compute(const struct trace *t, uint64_t t0, uint64_t t1, uint32_t bins,
		     uint32_t max_funcs, struct activity *act);
void activity_fini(struct activity *act);

enum density_map { DENSITY_LINEAR, DENSITY_LOG };

/* Functions with a colour of their own in the density plot; the rest
 * share one ("other"). */
#define DENSITY_FUNCS 6

struct density {
	uint32_t w, h;
	uint64_t t0, t1;             /* x: time, ticks */
	double dur_lo, dur_hi;       /* y: log10 of the duration in seconds */
	uint32_t *d;                 /* w x h: calls per cell (row 0 = longest) */
	uint32_t *region;            /* w x h: the cell's dominant region (a majority
				      * vote: exact when one has most of its calls) */
	float *opacity;              /* w x h: the paper's map, 0 where empty */
	uint32_t d_max;
	uint64_t points;             /* calls plotted */
	/* colours: the regions with the most calls, most first; each cell's
	 * colour is the index of its region among them, or n_funcs (other) */
	uint32_t func_region[DENSITY_FUNCS];
	uint64_t func_calls[DENSITY_FUNCS + 1];   /* calls of each, [n_funcs]: the rest */
	uint32_t n_funcs;
	uint8_t *func;               /* w x h */
};

/* Communication calls of [t0, t1) as points (use_end: at their end time)
 * against log duration, on a w x h grid, with opacity
 * o_min + (1 - o_min) * D/Dmax (linear) or log D / log Dmax (log). A
 * Charm++ run's points are all its entry-method executions (the pieces
 * the model splits them into at their sends), with or without messages. */
int density_compute(const struct trace *t, uint64_t t0, uint64_t t1, uint32_t w, uint32_t h,
		    int use_end, enum density_map map, double o_min, struct density *d);
void density_fini(struct density *d);

#endif
