/* fmt.c — times and sizes for people (see fmt.h). */
#include "fmt.h"

#include <math.h>
#include <stdio.h>

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
