#!/bin/sh
# run-units.sh SHARED BUILD... — tests/run-unit.sh over each BUILD at
# once (the plain, ASan+UBSan and TSan builds of `make check`), each
# build's output kept apart and printed whole, in the order given, when
# all are done. Most of a sanitizer run's time is the kernel's (threads
# made and ended, pages faulted in), which two cores share better when
# the runs overlap: the three took 166 s together, 270 s one after the
# other (2026-11-24). Exits 1 when any build's tests failed.
shared=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-units-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
i=0
for b in "$@"; do
	i=$((i + 1))
	( sh "$root/tests/run-unit.sh" "$b" "$shared" >"$tmp/$i.log" 2>&1; echo $? >"$tmp/$i.rc" ) &
done
wait
status=0 i=0
for b in "$@"; do
	i=$((i + 1))
	cat "$tmp/$i.log"
	rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 1)
	[ "$rc" -eq 0 ] || { echo "run-units.sh: the tests of $b failed (status $rc)"; status=1; }
done
exit $status
