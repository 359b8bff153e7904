/* fmt.c — times and sizes for people (see fmt.h). */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Rounds v to four significant digits as printed; returns the decimals. */
static int
decimals_of(double v)
{
	double a = fabs(v);
	return a >= 99.995 ? 1 : a >= 9.9995 ? 2 : 3;
}

const char *
fmt_seconds(double s, char *buf, size_t n)
{
	static const struct { double scale; const char *name; } unit[] = {
		{ 1e6, "us" }, { 1e3, "ms" }, { 1, "s" },
	};
	double a = fabs(s);
	if (a == 0 || isnan(s)) {
		snprintf(buf, n, "0");
		return buf;
	}
	if (a * 1e9 < 999.5) {
		snprintf(buf, n, "%.0f ns", s * 1e9);
		return buf;
	}
	/* the first unit whose rounded value stays below 1000 (seconds: any) */
	size_t u = 0;
	while (u + 1 < sizeof unit / sizeof unit[0] && a * unit[u].scale >= 999.95)
		u++;
	double v = s * unit[u].scale;
	snprintf(buf, n, "%.*f %s", decimals_of(v), v, unit[u].name);
	return buf;
}

const char *
fmt_time(double s, char *buf, size_t n)
{
	snprintf(buf, n, "%.6f s", s);
	return buf;
}

void
fmt_times(double a, double b, char *x, char *y, size_t n)
{
	for (int d = 6; d <= 12; d++) {
		snprintf(x, n, "%.*f s", d, a);
		snprintf(y, n, "%.*f s", d, b);
		if (a == b || strcmp(x, y))
			break;
	}
}

const char *
fmt_bytes(double bytes, char *buf, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double x = bytes;
	int u = 0;
	while (fabs(x) >= (u ? 1023.95 : 1024) && u < 5) {
		x /= 1024;
		u++;
	}
	if (u == 0 || fmod(round(fabs(x) * 10), 10) == 0)    /* whole as printed */
		snprintf(buf, n, "%.0f %s", x, unit[u]);
	else
		snprintf(buf, n, "%.1f %s", x, unit[u]);
	return buf;
}

const char *
fmt_count(double x, char *buf, size_t n)
{
	double a = fabs(x);
	if (a < 10000)
		snprintf(buf, n, "%.0f", x);
	else if (a < 999950)
		snprintf(buf, n, "%.1fk", x / 1e3);
	else if (a < 999995000)
		snprintf(buf, n, "%.2fM", x / 1e6);
	else
		snprintf(buf, n, "%.2fG", x / 1e9);
	return buf;
}

const char *
fmt_change(double s, char *buf, size_t n)
{
	char b[24];
	if (fabs(s) < 5e-10) {
		snprintf(buf, n, "0");
		return buf;
	}
	fmt_seconds(fabs(s), b, sizeof b);
	snprintf(buf, n, "%c%.23s", s < 0 ? '-' : '+', b);
	return buf;
}

__extension__ typedef unsigned __int128 u128;

int
fmt_f9(double v, char *b)
{
	if (!isfinite(v))
		return 0;
	char *p = b;
	if (signbit(v)) {
		*p++ = '-';             /* printf keeps the sign of -0 and of what rounds to 0 */
		v = -v;
	}
	if (v >= 1.8e10)
		return 0;               /* v 10^9 would pass 2^64 */
	uint64_t q = 0;             /* v 10^9, rounded */
	if (v > 0) {
		/* v = m 2^-s exactly, m < 2^53; v < 2^35, so s >= 18 */
		uint64_t bits;
		memcpy(&bits, &v, sizeof bits);
		int be = (int)(bits >> 52);                     /* v > 0: no sign bit */
		uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
		int s = 1074;                                   /* subnormal */
		if (be) {
			m |= UINT64_C(1) << 52;
			s = 1075 - be;
		}
		u128 n = (u128)m * 1000000000u;   /* < 2^83 */
		if (s < 128) {
			u128 one = 1, r = n & ((one << s) - 1), half = one << (s - 1);
			q = (uint64_t)(n >> s);
			q += r > half || (r == half && (q & 1));
		}                       /* else below 2^-45: 0 */
	}
	p += fmt_uint(q / 1000000000u, p);
	*p++ = '.';
	uint32_t f = (uint32_t)(q % 1000000000u);
	for (int i = 8; i >= 0; i--, f /= 10)
		p[i] = (char)('0' + f % 10);
	return (int)(p + 9 - b);
}
