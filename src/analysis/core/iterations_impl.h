/* iterations_impl.h — what the files that find the iterations share:
 * iterations.c (the user regions, publishing, each lop's iteration) and
 * iterations_period.c (the structure's period, and a Charm++ run's
 * application phases and entry methods). */
#ifndef SKEIN_ITERATIONS_IMPL_H
#define SKEIN_ITERATIONS_IMPL_H

#include <stdint.h>

#include "analysis_impl.h"

/* Boundaries found by one method: positions in the partition sequence
 * where iterations start, and where the last one ends. */
struct bounds {
	uint32_t *b;      /* count + 1 */
	uint32_t count;
	uint32_t region;
	uint32_t depth;
};

struct seq {
	struct analysis *a;
	uint32_t n;          /* partitions */
	uint32_t *order;     /* position -> partition */
	uint32_t *pos;       /* partition -> position */
	uint32_t *tok;       /* position -> signature token */
	uint32_t distinct;
	uint8_t *sorted;     /* per timeline: are its lops' enters sorted (lop_at) */
};

/* How many of the first len tokens at x and at y agree. */
uint32_t iter_agree(const uint32_t *tok, uint32_t x, uint32_t y, uint32_t len);

/* The period of the token sequence tok[0 .. n) into out (out->b NULL
 * when there is none). Returns 0 or ERR_NOMEM. */
int iter_period(const uint32_t *tok, uint32_t n, struct bounds *out);

/* A Charm++ run's iterations (seed 004): the period of its application
 * phases, their signatures else their shapes (iterations_period.c says
 * why); the runtime phases between belong to the iteration before. */
int iter_charm_phases(const struct seq *s, struct bounds *out);
/* A Charm++ run's iterations marked by the executions of the entry
 * methods glob matches: the k-th execution on any chare starts the k-th. */
int iter_charm_entry(const struct seq *s, const char *glob, struct bounds *out);

#endif
