#!/bin/sh
# run-units.sh SHARED BUILD... — the unit test binaries of every BUILD
# (the plain, ASan+UBSan and TSan builds of `make check`) as one pool of
# jobs, a processor's worth and one more at a time, the slowest tests
# first; then each build's output whole, in the order given, closed by
# a line "unit tests (BUILD): N passed, N failed, N skipped"
# (tests/run-unit.sh is this over one build).
# Three runs side by side, one per build, took 263 s on 2 cores with
# 405 s of CPU: the TSan run went on alone at the end. Most of a
# sanitizer run's time is the kernel's (threads made and ended, pages
# faulted in). Exits 1 when any test failed.
# UNITS_SKIP: test binaries (paths as BUILD/tests/NAME) not run (make
# check's TSan build leaves out the tests that start no thread);
# UNITS_NOTHREADS: test binaries run with BUILD/tests/nothreads.so
# preloaded, which fails any that starts a thread (tests/nothreads.c).
shared=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-units-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
SKEIN_ROOT=$root
SKEIN_SHARED=$(cd "$root" && cd "$shared" 2>/dev/null && pwd || echo "$root/$shared")
export SKEIN_ROOT SKEIN_SHARED
[ -d "$SKEIN_SHARED/traces" ] || echo "note: $SKEIN_SHARED/traces is absent: tests on the shared traces are skipped"
# LeakSanitizer without ptrace, halt on the first UBSan or TSan report
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}
jobs=$(($(nproc 2>/dev/null || echo 1) + 1))
skipped() {
	case " $(echo ${UNITS_SKIP:-}) " in *" $1 "*) return 0 ;; esac
	return 1
}
# the slowest (the longest of their three runs, 2026-11-30), started first
slow="test_saved_mutate test_dist_run test_dist_cc test_view_blocks test_dist_match test_dist_part
	test_view_golden test_dist_saved test_share test_charm test_charm_algo test_iterations test_evt
	test_view_prefetch test_metrics test_reorder test_random test_prj_share test_dist_iter"
{
	for s in $slow; do
		i=0
		for b in "$@"; do
			i=$((i + 1))
			[ -x "$b/tests/$s" ] && ! skipped "$b/tests/$s" && echo "$i $b/tests/$s"
		done
	done
	i=0
	for b in "$@"; do
		i=$((i + 1))
		for t in "$b"/tests/test_*; do
			[ -x "$t" ] && [ -f "$t" ] && ! skipped "$t" || continue
			case " $(echo $slow) " in *" ${t##*/} "*) continue ;; esac
			echo "$i $t"
		done
	done
} >"$tmp/jobs"
# one job: its output and status beside each other, by build and name
xargs -P "$jobs" -L 1 sh -c '
	tmp=$1 i=$2 t=$3
	supp=
	case $t in */test_badinput) supp="suppressions=$SKEIN_ROOT/tests/lsan-otf2.supp" ;; esac
	pre=
	case " $(echo ${UNITS_NOTHREADS:-}) " in *" $t "*) pre=$(cd "$SKEIN_ROOT" && cd "${t%/*}" && pwd)/nothreads.so ;; esac
	( cd "$SKEIN_ROOT" && LSAN_OPTIONS=${supp:-${LSAN_OPTIONS:-}} LD_PRELOAD=$pre "$t" ) >"$tmp/$i.${t##*/}.log" 2>&1
	echo $? >"$tmp/$i.${t##*/}.rc"' sh "$tmp" <"$tmp/jobs"
status=0 i=0
for b in "$@"; do
	i=$((i + 1))
	pass=0 fail=0 skipped=0 bstatus=0
	for t in "$b"/tests/test_*; do
		[ -x "$t" ] && [ -f "$t" ] && ! skipped "$t" || continue
		log=$tmp/$i.${t##*/}.log
		cat "$log"
		rc=$(cat "$tmp/$i.${t##*/}.rc" 2>/dev/null || echo 1)
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
		pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skipped=$((skipped + ${s:-0}))
		if [ "$rc" -ne 0 ]; then
			bstatus=1
			[ -z "$f" ] && { echo "$t: exited with status $rc"; fail=$((fail + 1)); }
		fi
	done
	echo "unit tests ($b): $pass passed, $fail failed, $skipped skipped"
	[ $bstatus -eq 0 ] || { echo "run-units.sh: the tests of $b failed"; status=1; }
done
exit $status
