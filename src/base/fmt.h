/* fmt.h — one way to write each quantity for people.
 *
 * Every pane, the analyze text report and the status line write times
 * and sizes through these, so a number reads the same everywhere (JSON
 * and CSV keep raw numbers). Units are ASCII ("us", not the micro sign),
 * so output is the same in any locale and over any terminal.
 */
#ifndef SKEIN_FMT_H
#define SKEIN_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Seconds with four significant digits in the largest unit that keeps
 * the value at 1 or more: "0", "794 ns", "56.89 us", "10.06 ms",
 * "234.8 ms", "1.234 s". Negative values keep their sign. Returns buf. */
const char *fmt_seconds(double s, char *buf, size_t n);

/* A change in seconds with its sign: "+10.00 ms", "-3.2 us", and "0"
 * below half a nanosecond. Returns buf. */
const char *fmt_change(double s, char *buf, size_t n);

/* A point in time, seconds since the trace's start, to the microsecond:
 * "0.229231 s". Returns buf. */
const char *fmt_time(double s, char *buf, size_t n);

/* The two ends of a span, a and b, as fmt_time writes them, with more
 * decimals (down to the picosecond) while they would read alike: a
 * window of 0.2 us at 1 s is "1.0000000 s" to "1.0000002 s", not
 * "1.000000 s" twice. Into x and y, n bytes each. */
void fmt_times(double a, double b, char *x, char *y, size_t n);

/* A byte count in binary units: "512 B", "1.5 KiB", "4 MiB" (a whole
 * multiple without a decimal). Returns buf. */
const char *fmt_bytes(double bytes, char *buf, size_t n);

/* A count for a narrow column: exact below 10000, then "12.3k", "4.56M",
 * "7.89G" (decimal multiples). Returns buf. */
const char *fmt_count(double x, char *buf, size_t n);

/* v in decimal as "%" PRIu64 writes it, into b (20 bytes at least)
 * without a terminating NUL: its length. */
static inline int
fmt_uint(uint64_t v, char *b)
{
	int n = 1;
	for (uint64_t x = v; x >= 10; x /= 10)
		n++;
	for (int i = n; i-- > 0; v /= 10)
		b[i] = (char)('0' + v % 10);
	return n;
}

/* v as printf's "%.9f" writes it (CSV's seconds), into b, which holds
 * at least 32 bytes, without a terminating NUL: its length, or 0 where
 * the caller must use printf (v not finite, or 1.8e10 or more). Exact:
 * the double's value times 10^9 in 128-bit integers, rounded half to
 * even as glibc rounds. */
int fmt_f9(double v, char *b);

#endif
