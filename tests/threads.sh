#!/bin/sh
# threads.sh SKEIN SHARED — the result does not depend on the number of
# threads: info, analyze (text, JSON, the ops and iterations tables), the
# leap merge and export --csv give the same bytes with SKEIN_THREADS=1, 2
# and 4 on every corpus trace, every shared OTF2 trace and every shared
# Charm++ Projections run (whose logs are parsed per PE on the workers);
# so do diff on every corpus pair (a run and its -delay or -extra
# variant) and the archive export --otf2 writes from every corpus trace
# (its anchor's random archive id aside). The reader cuts the locations into more blocks
# than threads whenever it has more than one, so the join of blocks is
# exercised on every trace with more than one location. And skein's own
# decoding of the event files gives what libotf2's event readers give
# (SKEIN_OTF2_EVENTS=library), on 1 and 2 threads.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
tmp=$(mktemp -d /tmp/skein-threads-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
. "$root/tests/run.sh"
# same NAME CMD...: CMD's output and status for 2 and 4 threads are those
# for 1 (NAME: what a failure names)
same() {
	name=$1
	shift
	SKEIN_THREADS=1 "$@" >"$tmp/1" 2>&1
	s1=$?
	for n in 2 4; do
		SKEIN_THREADS=$n "$@" >"$tmp/$n" 2>&1
		sn=$?
		[ "$s1" -eq "$sn" ] && cmp -s "$tmp/1" "$tmp/$n" && ok ||
			bad "$name: $n threads differ from 1 (exit $sn vs $s1)"
	done
}
traces=$(ls "$root"/traces/corpus/*/traces.otf2)
if [ -d "$shared/traces/otf2" ]; then
	traces="$traces $(find "$shared/traces/otf2" -name traces.otf2 | sort)"
else
	echo "threads.sh: $shared/traces/otf2 absent: corpus traces only"
fi
for t in $traces; do
	for mode in "info --format json" "analyze" "analyze --format json" \
		"analyze --format csv --table ops" "analyze --format csv --table iterations" \
		"analyze --leap-merge --format json" "export --csv"; do
		# shellcheck disable=SC2086
		same "$mode $t" "$skein" $mode "$t"
	done
done
for t in $traces; do
	for mode in "info --format json" "analyze --format json"; do
		for n in 1 2; do
			# shellcheck disable=SC2086
			SKEIN_THREADS=$n "$skein" $mode "$t" >"$tmp/own" 2>&1
			so=$?
			# shellcheck disable=SC2086
			SKEIN_OTF2_EVENTS=library SKEIN_THREADS=$n "$skein" $mode "$t" >"$tmp/lib" 2>&1
			sl=$?
			[ "$so" -eq "$sl" ] && cmp -s "$tmp/own" "$tmp/lib" && ok ||
				bad "$mode $t, $n threads: skein's decoding differs from libotf2's (exit $so vs $sl)"
		done
	done
done
# Charm++ runs; the analysis and the PEs' profile also on 3, 5 to 8
# threads (8 three times), where the workers' shares of the lops end
# inside serial blocks more often (the initial phases carry a block's
# SDAG serial across a share's end)
if [ -d "$shared/traces/projections" ]; then
	for t in "$shared"/traces/projections/*/*.sts; do
		for mode in "info --format json" "analyze" "analyze --format json" \
			"analyze --format csv --table ops" "export --csv" "profile --format json" \
			"profile --pes --format json"; do
			# shellcheck disable=SC2086
			same "$mode $t" "$skein" $mode "$t"
		done
		# a PE's profile rows come from several workers, merged in no
		# fixed order (the largest call of equal ones: the first entered)
		for mode in "analyze --format json" "profile --pes --format json"; do
			# shellcheck disable=SC2086
			SKEIN_THREADS=1 "$skein" $mode "$t" >"$tmp/1" 2>&1
			for n in 3 5 6 7 8 8 8; do
				# shellcheck disable=SC2086
				SKEIN_THREADS=$n "$skein" $mode "$t" >"$tmp/$n" 2>&1
				cmp -s "$tmp/1" "$tmp/$n" && ok || bad "$mode $t: $n threads differ from 1"
			done
		done
	done
else
	echo "threads.sh: $shared/traces/projections absent: no Charm++ runs"
fi
for d in "$root"/traces/corpus/*-delay "$root"/traces/corpus/*-extra; do
	b=${d%-delay}
	b=${b%-extra}
	[ -d "$b" ] || continue
	same "diff $b $d" "$skein" diff "$b" "$d"
	same "diff --format csv $b $d" "$skein" diff --format csv --table changes "$b" "$d"
done
# a list of wait states long enough to be written in several rounds of
# pieces on the workers (report_json_items: 32,768 items a round)
gen=$root/traces/gen/skein-gen
[ -x "$gen" ] || make -s -C "$root/traces/gen" all >/dev/null || exit 1
"$gen" -q -f -o "$tmp/waits" -p 16 -e 2500000 -t stencil >/dev/null || exit 1
n=$(SKEIN_THREADS=2 "$skein" analyze -q --format json "$tmp/waits/traces.otf2" | grep -c '"cause_rank"')
[ "$n" -gt 65536 ] && ok || bad "the generated stencil has $n wait states, not more than two rounds"
same "analyze --format json (many waits)" "$skein" analyze -q --format json "$tmp/waits/traces.otf2"
# export --otf2: the archive's files, listed with their sums
for t in "$root"/traces/corpus/*/traces.otf2; do
	same "export --otf2 $t" sh -c 'rm -rf "$2" && "$1" export -q --otf2 "$2" "$3" &&
		cd "$2" && find . -type f ! -name traces.otf2 | sort | xargs sha256sum' sh "$skein" "$tmp/out" "$t"
done
echo "threads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
