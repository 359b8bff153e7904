/* explain_impl.h — the stages of explain.h, each over a finished
 * analysis (struct analysis, analysis/core/analysis_impl.h), run in this
 * order by explain_run:
 *
 *   waits.c     the wait states (locks.c: lock waits) a->waits
 *   delay.c     their root causes                     a->delays, waits' root_lop
 *   locks.c     roots in lock calls that waited, moved waits' root_lop
 *   outliers.c  lops slower than in other iterations  a->outliers
 *   problems.c  one ranking of all, and where created lateness was lost
 *
 * Each returns 0 or ERR_NOMEM (explain_lock_roots cannot fail).
 */
#ifndef SKEIN_EXPLAIN_IMPL_H
#define SKEIN_EXPLAIN_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "explain.h"

#include "analysis/core/analysis_impl.h"

/* A growing list of waits. */
struct waits_out {
	struct analysis_wait *v;
	size_t n, cap;
};

int explain_waits(struct analysis *a);
/* The waits for locks other ranks held (locks.c), appended to w. */
int explain_lock_waits(const struct analysis *a, struct waits_out *w);
int explain_delays(struct analysis *a);
/* After the delays: a wait whose root is a lock call that mostly waited
 * for a lock another rank held (a rank that waited in turn) has that
 * wait's root, followed along the chain to the computation of the first
 * holder that held the lock (locks.c). */
void explain_lock_roots(struct analysis *a);
int explain_outliers(struct analysis *a);
int explain_problems(struct analysis *a);

/* What each region's calls can be in a wait state (waits.c): R_RECV a
 * blocking receive, R_SEND_BLOCKS a blocking send or completion, R_TEST
 * a test; one byte a region (free it), NULL on no memory. */
enum { R_RECV = 1, R_SEND_BLOCKS = 2, R_TEST = 4 };
uint8_t *explain_region_flags(const struct analysis *a);
/* Did timeline tl poll over [en, ex) (a computation's span)? Tests that
 * completed nothing from the first half of it to its end, none further
 * from the next (or from ex) than a quarter of it: the first one's
 * enter, else UINT64_MAX. (A test or two and then work is no polling.) */
uint64_t explain_polled(const struct analysis *a, const uint8_t *rf, uint32_t tl, uint64_t en, uint64_t ex);

/* The wait of lop l, or NULL (binary search over a->waits). */
const struct analysis_wait *explain_wait_of(const struct analysis *a, uint32_t l);

#endif
