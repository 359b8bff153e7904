#!/bin/sh
# gen.sh [DIR] — writes skein's own small sample set (MemAxes layout) into
# DIR (default: toy beside this script): hardware.xml in MemAxes' format,
# data/samples.csv in later MemAxes' column set (data_source in decimal),
# and src/toy.c, the code the samples point at. Deterministic: the same
# bytes every time (a Park-Miller generator in awk), so tests can rebuild
# it and compare.
#
# The node: 2 NUMA nodes, an L3 each, 4 cores with an L2 and an L1, 2
# hardware threads per core: CPUs 0-15, even ones on NUMA 0 (as LULESH's
# node numbers them). 2400 loads of four arrays: a hits L1, b L3, c local
# memory, d remote memory or the other package's cache. Along zidx there
# are two regimes: below 12 every access comes from CPU 0 (imbalanced),
# from 12 on from all 16 CPUs in turn (balanced).
dir=${1:-$(dirname "$0")/toy}
mkdir -p "$dir/data" "$dir/src"

awk 'BEGIN {
	print "<Hardware id=\"0\" name=\"toy\">"
	for (n = 0; n < 2; n++) {
		printf "  <NUMA id=\"%d\" size=\"8388608\">\n", n
		print "    <Cache id=\"3\" size=\"8388608\">"
		for (c = 0; c < 4; c++) {
			print "      <Cache id=\"2\" size=\"262144\">"
			print "        <Cache id=\"1\" size=\"32768\">"
			printf "          <CPU id=\"%d\"></CPU>\n", 2 * c + n
			printf "          <CPU id=\"%d\"></CPU>\n", 2 * c + n + 8
			print "        </Cache>"
			print "      </Cache>"
		}
		print "    </Cache>"
		print "  </NUMA>"
	}
	print "</Hardware>"
}' >"$dir/hardware.xml"

awk 'function rnd() { seed = (seed * 16807) % 2147483647; return seed }
BEGIN {
	seed = 20160229
	print "variable,source,line,time,latency,data_source,cpu,node,zidx"
	for (k = 0; k < 2400; k++) {
		z = rnd() % 24
		cpu = z < 12 ? 0 : k % 16
		r = rnd() % 100
		if (r < 40)      { v = "a"; line = 12; ds = rnd() % 10 < 8 ? 1 : 2; lat = ds == 1 ? 4 + rnd() % 6 : 8 + rnd() % 8 }
		else if (r < 65) { v = "b"; line = 13; ds = rnd() % 4 ? 4 : 3;  lat = ds == 4 ? 40 + rnd() % 30 : 12 + rnd() % 10 }
		else if (r < 85) { v = "c"; line = 14 + rnd() % 2; ds = 10; lat = 180 + rnd() % 60 }
		else             { v = "d"; line = 25; ds = rnd() % 3 ? 11 : 8; lat = ds == 11 ? 300 + rnd() % 100 : 120 + rnd() % 40 }
		printf "%s,toy.c,%d,%d,%d,%d,%d,%d,%d\n", v, line, 1000000 + 37 * k + rnd() % 30, lat, ds, cpu, cpu % 2, z
	}
}' >"$dir/data/samples.csv"

cat >"$dir/src/toy.c" <<'SRC'
/* toy.c — the loop the samples of skein's toy set point at. */
#include <stddef.h>

/* four arrays, from L1-sized to larger than the node's caches */
double a[1024], b[1 << 18], c[1 << 22], d[1 << 22];

double
sweep(size_t n, const size_t *z)
{
	double s = 0;
	for (size_t i = 0; i < n; i++) {
		s += a[i % 1024];          /* line 12: small, stays in L1 */
		s += b[z[i] % (1 << 18)];  /* line 13: fits in L3 */
		s += c[z[i] * 64];         /* line 14: local memory */
		s *= c[z[i] * 64 + 1];     /* line 15 */
	}
	return s;
}

double
remote(size_t n, const size_t *z)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += d[z[i] * 64];         /* line 25: the other package's memory */
	return s;
}
SRC
