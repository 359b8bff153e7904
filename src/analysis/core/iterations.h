/* iterations.h — the iterations of a run, found in its logical structure.
 *
 * The seed paper's Fig. 14b shows "eleven repetitions of the lateness
 * profile, corresponding to the iterations": the partitions of an
 * iterative program repeat. skein finds that repetition instead of
 * assuming it (doc/analysis.md, "Iterations", says how):
 *
 *  * structure: the partitions in order of their first global step, each
 *    reduced to its signature (signature.h), form a sequence; its
 *    smallest period covering the most of it is one iteration. The first
 *    iteration and the last may differ from the others (set-up work, a
 *    shorter last round).
 *  * regions: when a user region is entered the same number of times on
 *    every rank, each Enter falls just before one partition, and the
 *    stretches between them share their partitions (an extra collective
 *    every k-th iteration or an extra exchange is tolerated), that region
 *    marks the iterations — the outermost such region wins. This tells
 *    apart rounds the structure cannot (a ring's P-1 identical shifts per
 *    iteration) and keeps occasional extra phases inside an iteration.
 *  * named: the configuration names the region (opts.iter_region).
 *
 * A Charm++ run (iterations_period.c): the period of its application
 * phases alone (its runtime phases change from one iteration to the
 * next), each iteration with the runtime phases that follow it; a named
 * glob matches entry methods, the k-th executions starting the k-th.
 *
 * An iteration is a stretch of the partition sequence: the partitions
 * from one boundary to the next. It starts at the global step starts[k]
 * and the next one at starts[k + 1]; where iterations overlap across
 * ranks (a pipelined wavefront), a partition of iteration k may reach
 * past starts[k + 1], so an operation's iteration is its partition's
 * (iterations_of_lop), and a step's is the span it falls in
 * (iterations_of_step). Set-up before the first and wrap-up after the
 * last belong to none.
 */
#ifndef SKEIN_ITERATIONS_H
#define SKEIN_ITERATIONS_H

#include <stdint.h>

#include "analysis.h"

enum iterations_source {
	ITER_NONE,        /* no repetition found, or detection off */
	ITER_STRUCTURE,   /* the period of the partition signatures */
	ITER_REGION,      /* a user region's Enters, checked against the structure */
	ITER_NAMED,       /* the region the configuration named */
};

struct iterations {
	uint32_t count;          /* 0: none */
	enum iterations_source source;
	uint32_t region;         /* the region marking them (REGION, NAMED), or TRACE_NONE */
	uint32_t period_parts;   /* partitions of the most common iteration */
	uint32_t period_steps;   /* global steps of the most common iteration */
	uint32_t irregular;      /* iterations whose partitions differ from the most common */
	uint8_t named_none;      /* opts.iter_region was given and marked fewer than two */
	const uint32_t *starts;  /* count + 1 global steps; starts[count] ends the last */
};

/* The iterations of a (never NULL; count 0 when none). Lives as long as a. */
const struct iterations *iterations_get(const struct analysis *a);

/* The iteration holding global step `step`, or TRACE_NONE (set-up,
 * wrap-up, or no iterations). O(log count). */
uint32_t iterations_of_step(const struct analysis *a, uint32_t step);

/* The iteration of lop l (that of its partition, or of the instance of
 * the marking region it ends in), or TRACE_NONE. O(log count) where it
 * is its step's, as it is but in pipelines. */
uint32_t iterations_of_lop(const struct analysis *a, uint32_t l);

/* iterations_of_lop of lops l0 .. l1 - 1 into out[0 .. l1 - l0), in one
 * walk: O(1) a lop in steps that follow each other. */
void iterations_of_lops(const struct analysis *a, uint32_t l0, uint32_t l1, uint32_t *out);

/* How they were found, for reports: "structure", "region", "named", "none". */
const char *iterations_source_name(enum iterations_source s);

#endif
