#!/bin/sh
# portable.sh SHARED BUILD — the unit and golden tests that can read a
# hardware topology run again on foreign hardware and must give what they
# give on this machine: hwloc reads the "machine" from HWLOC_XMLFILE (a
# 2-socket AMD EPYC node from ../shared, or tests/topo/foreign.xml when
# ../shared is absent) and, in a third run, from HWLOC_SYNTHETIC. A test
# that read the live machine where it should load a fixed topology passes
# here and fails there. The tests that can read one are the test binaries
# with hwloc's loader linked in (nm: hwloc_topology_load); the others
# cannot see these variables, and are not run again. Of those, the ones
# whose first run never called it (a preload counts the calls, in forked
# children too) cannot either: 3 of 19 load a topology, and the other 16
# ran twice more for nothing (2026-12-02). Each test's summary (passed,
# failed, skipped, and which) must be the same in the three runs.
shared=$1
build=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
tmp=$(mktemp -d /tmp/skein-portable-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
SKEIN_ROOT=$root
SKEIN_SHARED=$(cd "$root" && cd "$shared" 2>/dev/null && pwd || echo "$root/$shared")
export SKEIN_ROOT SKEIN_SHARED
unset HWLOC_XMLFILE HWLOC_SYNTHETIC
xml=$SKEIN_SHARED/traces/hwloc/epyc-corona.xml
[ -f "$xml" ] || xml=$root/tests/topo/foreign.xml
synth="pack:2 l3:2 core:3 pu:2"
command -v nm >/dev/null || { echo "portable.sh: needs nm (binutils)"; exit 1; }
# the spy (tests/topospy.c): each call of hwloc_topology_load appends a
# line to $SKEIN_TOPO_SPY
spy=$(cd "$build/tests" 2>/dev/null && pwd)/topospy.so
[ -f "$spy" ] || { echo "portable.sh: $build/tests/topospy.so is not built (make check-portable builds it)"; exit 1; }
# summary LOG: what a cmocka run's log says of each test and in all
summary() {
	grep -E '^\[ +(OK|FAILED|SKIPPED|PASSED) +\]' "$1" | sort
}
status=0 n=0 linked=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	nm "$t" 2>/dev/null | grep -q ' U hwloc_topology_load$' || continue
	linked=$((linked + 1))
	rm -f "$tmp/loads"
	( cd "$root" && SKEIN_TOPO_SPY=$tmp/loads LD_PRELOAD=$spy "$t" ) >"$tmp/here" 2>&1
	[ -s "$tmp/loads" ] || continue
	n=$((n + 1))
	( cd "$root" && HWLOC_XMLFILE=$xml "$t" ) >"$tmp/xml" 2>&1
	( cd "$root" && HWLOC_SYNTHETIC=$synth "$t" ) >"$tmp/synth" 2>&1
	summary "$tmp/here" >"$tmp/s.here"
	for run in xml synth; do
		summary "$tmp/$run" >"$tmp/s.$run"
		if ! cmp -s "$tmp/s.here" "$tmp/s.$run"; then
			echo "portable: $(basename "$t") differs on foreign hardware ($run):"
			diff "$tmp/s.here" "$tmp/s.$run" | head -20
			grep -E -A3 '^\[  ERROR   \]' "$tmp/$run" | head -20
			status=1
		fi
	done
done
[ "$n" -gt 0 ] || { echo "portable: no test binary in $build/tests loads a topology"; exit 1; }
if [ $status -eq 0 ]; then
	echo "portable: the $n test programs that load a topology (of $linked linking hwloc) give the same results with HWLOC_XMLFILE=$(basename "$xml") and HWLOC_SYNTHETIC=\"$synth\""
else
	echo "portable: FAILED: a test reads the live machine's topology (load a fixed one: tests/testutil.h TU_MACHINE)"
fi
exit $status
