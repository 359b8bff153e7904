#!/bin/sh
# threads.sh SKEIN SHARED — the result does not depend on the number of
# threads: info, analyze (text, JSON, the ops table) and the leap merge
# give the same bytes with SKEIN_THREADS=1, 2 and 4 on every corpus trace
# and every shared OTF2 trace (the reader cuts the locations into more
# blocks than threads whenever it has more than one, so the join of
# blocks is exercised on every trace with more than one location).
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
tmp=$(mktemp -d /tmp/skein-threads-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
traces=$(ls "$root"/traces/corpus/*/traces.otf2)
if [ -d "$shared/traces/otf2" ]; then
	traces="$traces $(find "$shared/traces/otf2" -name traces.otf2 | sort)"
else
	echo "threads.sh: $shared/traces/otf2 absent: corpus traces only"
fi
for t in $traces; do
	for mode in "info --format json" "analyze" "analyze --format json" \
		"analyze --format csv --table ops" "analyze --leap-merge --format json"; do
		# shellcheck disable=SC2086
		SKEIN_THREADS=1 "$skein" $mode "$t" >"$tmp/1" 2>&1
		s1=$?
		for n in 2 4; do
			# shellcheck disable=SC2086
			SKEIN_THREADS=$n "$skein" $mode "$t" >"$tmp/$n" 2>&1
			sn=$?
			if [ "$s1" -eq "$sn" ] && cmp -s "$tmp/1" "$tmp/$n"; then
				pass=$((pass + 1))
			else
				fail=$((fail + 1))
				echo "FAIL: $mode $t: $n threads differ from 1 (exit $sn vs $s1)"
			fi
		done
	done
done
echo "threads: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
