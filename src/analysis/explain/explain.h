/* explain.h — what lateness cannot see (doc/analysis.md, "Beyond
 * lateness"): wait states, their root causes, where the time was lost,
 * operations slower than their instances in the other iterations, and one
 * ranking of every problem found.
 *
 * Lateness (seed 000) compares an operation with its peers at the same
 * logical step, so it is blind where a step holds one operation (a late
 * sender feeding a serialised receiver, a ping-pong) and it can surface
 * steps after the time was lost. These are computed from the model and
 * the analysis after the metrics (explain_run), in linear time or
 * n log n, for MPI traces; a saved analysis computes them when opened
 * (they are not saved). Every array lives as long as the analysis.
 *
 *   analysis_run / saved_open → explain_run → getters … → analysis_destroy
 */
#ifndef SKEIN_ANALYSIS_EXPLAIN_H
#define SKEIN_ANALYSIS_EXPLAIN_H

#include <stdint.h>

#include "analysis/core/analysis.h"

/* Scalasca's wait states (doc/analysis.md, "Wait states"). */
enum analysis_wait_kind {
	WAIT_LATE_SENDER,        /* a receive entered before its send began */
	WAIT_LATE_RECEIVER,      /* a blocking send held until its receive began */
	WAIT_NXN,                /* an all-to-all collective: waiting for the last to enter */
	WAIT_BARRIER,            /* MPI_Barrier: the same */
	WAIT_LATE_BROADCAST,     /* a one-to-all collective entered before its root */
	WAIT_EARLY_REDUCE,       /* an all-to-one collective's root entered before the others */
	WAIT_POLLING,            /* a computation polled (MPI_Test* that completed nothing)
	                          * for a message whose send began later */
	WAIT_LOCK,               /* a one-sided lock or lock_all call waited for another
	                          * rank's conflicting lock on the target to be released */
	WAIT_KIND_COUNT
};

/* One operation's wait state: the time it waited (ticks) for cause_lop
 * (the late send, the late receive, the last member to enter, the root),
 * and root_lop, the delay its waiting came from most (delay below). */
struct analysis_wait {
	uint32_t lop;            /* first: the arrays are found by it */
	uint32_t cause_lop;
	uint32_t root_lop;
	uint8_t kind;            /* enum analysis_wait_kind */
	uint64_t time;
};

/* Runs explain_waits, explain_delays, explain_outliers and
 * explain_problems on a finished analysis. Returns 0 or ERR_NOMEM.
 * Nothing for Charm++ traces (seed 004's idle experienced is their
 * measure of waiting). */
int explain_run(struct analysis *a);

/* The wait states, in lop order (one per waiting lop). */
const struct analysis_wait *analysis_waits(const struct analysis *a, uint32_t *n);
/* Lop's wait state, or NULL: O(log waits). */
const struct analysis_wait *analysis_lop_wait(const struct analysis *a, uint32_t lop);
/* "late-sender", "late-receiver", "wait-nxn", "wait-barrier",
 * "late-broadcast", "early-reduce", "polling", "lock-competition". */
const char *analysis_wait_name(enum analysis_wait_kind k);
/* Each timeline's waiting by kind, into time[tl * WAIT_KIND_COUNT + k]
 * (n_timelines * WAIT_KIND_COUNT zeroed by the caller). */
void analysis_wait_totals(const struct analysis *a, uint64_t *time);

/* A delay (Böhme et al.): an operation on the rank that made others
 * wait, with the waiting it caused: directly (the waits its excess time
 * made: short-term) and in all (with the waits those waits made in turn,
 * followed along chains of wait states: long-term). */
struct analysis_delay {
	uint32_t lop;
	uint32_t waits;          /* wait states it caused directly */
	uint64_t cost;           /* all the waiting it caused, ticks */
	uint64_t direct;         /* of which directly */
};
/* The delays, in lop order. */
const struct analysis_delay *analysis_delays(const struct analysis *a, uint32_t *n);
const struct analysis_delay *analysis_lop_delay(const struct analysis *a, uint32_t lop);

/* Where lop's created lateness was lost: when it created more than its own
 * duration explains, the lops on its timeline since its previous
 * synchronisation that account for the rest (doc/analysis.md). */
struct analysis_lost {
	uint64_t created;        /* its differential lateness */
	uint64_t inside;         /* of which in the lop itself (its duration, at most) */
	uint64_t before;         /* of which in the lops before it */
	uint32_t culprit;        /* the longest of those, or the lop itself */
	uint32_t from;           /* the first lop of the stretch looked at */
	int capped;              /* the stretch was cut at the most looked at */
};
/* Fills *out for lop; returns 1 when some of its created lateness was
 * lost before it (out->before > 0), else 0. */
int analysis_lop_lost(const struct analysis *a, uint32_t lop, struct analysis_lost *out);

/* An operation far slower than its instances in the other iterations:
 * the same rank, the same place in its iteration (doc/analysis.md). */
struct analysis_outlier {
	uint32_t lop;
	uint32_t instances;          /* how many the median is over */
	uint64_t duration, median;   /* ticks */
};
/* The outliers, largest excess (duration - median) first. */
const struct analysis_outlier *analysis_outliers(const struct analysis *a, uint32_t *n);
/* Were the outliers found against each rank's calls of the same kind and
 * region, the run having no iterations (1), or against the iterations
 * (0)? doc/analysis.md, "Outliers against the iterations". */
int analysis_outliers_by_region(const struct analysis *a);
/* Was outlier lop found against its rank's calls of its kind and region:
 * the run has no iterations, or the lop is in none of them (1); or
 * against its instances in the other iterations (0)? */
int analysis_outlier_by_region(const struct analysis *a, uint32_t lop);
const struct analysis_outlier *analysis_lop_outlier(const struct analysis *a, uint32_t lop);

/* The lop of timeline tl that covers at least half of [en, ex) (the
 * first, when two cover half each; a computation only, when compute),
 * else TRACE_NONE: what a rank was busy with meanwhile. O(log lops +
 * the lops in the interval). */
uint32_t analysis_busy_during(const struct analysis *a, uint32_t tl, uint64_t en, uint64_t ex, int compute);

/* One ranking of what the explanations found: a delay that made others
 * wait (its cost), lateness created where it was lost (the culprit of a
 * hotspot: its created lateness), an outlier (its excess). */
enum analysis_problem_kind {
	PROBLEM_DELAY,
	PROBLEM_CREATED,
	PROBLEM_OUTLIER,
	PROBLEM_KIND_COUNT
};
struct analysis_problem {
	uint64_t amount;             /* ticks */
	uint32_t lop;                /* where to look */
	uint32_t surfaced;           /* PROBLEM_CREATED: the hotspot it surfaced at */
	uint8_t kind;                /* enum analysis_problem_kind */
};
/* The problems, largest first (at most opts.hotspots; one per lop). */
const struct analysis_problem *analysis_problems(const struct analysis *a, uint32_t *n);
const char *analysis_problem_name(enum analysis_problem_kind k);  /* "delay" ... */

#endif
