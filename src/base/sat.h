/* sat.h — sums of counts that a crafted trace could make overflow.
 *
 * Byte counts come from the trace (a message may claim 2^63 bytes); their
 * sums saturate at UINT64_MAX instead of wrapping, and a writer shows a
 * saturated sum as such (sat_overflowed).
 */
#ifndef SKEIN_SAT_H
#define SKEIN_SAT_H

#include <stdint.h>

static inline uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* 1 when a sum made by sat_add hit the limit. */
static inline int
sat_overflowed(uint64_t sum)
{
	return sum == UINT64_MAX;
}

#endif
