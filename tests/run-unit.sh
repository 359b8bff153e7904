#!/bin/sh
# run-unit.sh BUILD SHARED — runs every cmocka test binary in BUILD/tests
# and prints one closing line: "N passed, N failed, N skipped".
build=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
SKEIN_ROOT=$root
SKEIN_SHARED=$(cd "$root" && cd "$shared" 2>/dev/null && pwd || echo "$root/$shared")
export SKEIN_ROOT SKEIN_SHARED
[ -d "$SKEIN_SHARED/traces" ] || echo "note: $SKEIN_SHARED/traces is absent: tests on the shared traces are skipped"
# LeakSanitizer needs ptrace-free operation; halt on the first UBSan report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
pass=0 fail=0 skipped=0 status=0
log=$(mktemp)
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	supp=
	case $t in */test_badinput) supp="suppressions=$root/tests/lsan-otf2.supp" ;; esac
	( cd "$root" && LSAN_OPTIONS=${supp:-${LSAN_OPTIONS:-}} "$t" ) >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skipped=$((skipped + ${s:-0}))
	if [ $rc -ne 0 ]; then
		status=1
		[ -z "$f" ] && { echo "$t: exited with status $rc"; fail=$((fail + 1)); }
	fi
done
rm -f "$log"
echo "unit tests ($build): $pass passed, $fail failed, $skipped skipped"
exit $status
