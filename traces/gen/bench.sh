#!/bin/sh
# bench.sh [DIR] — time skein-gen on 10^6, 10^7 and 10^8 events at 64 and
# 1024 ranks (stencil), one archive at a time in DIR (default
# ${TMPDIR:-/tmp}/skein-gen-bench, deleted afterwards; the 10^8 archives
# take about 1.4 GB each). Prints one table row per run: wall time,
# events per second, peak RSS (GNU time), archive bytes per event, passes.
# SKEIN_GEN_BENCH_MAX=1e7 stops before the 10^8 runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/skein-gen
dir=${1:-${TMPDIR:-/tmp}/skein-gen-bench}
max=${SKEIN_GEN_BENCH_MAX:-1e8}
[ -x /usr/bin/time ] || { echo "bench.sh: needs GNU time (/usr/bin/time)"; exit 1; }
make -s -C "$here" skein-gen || exit 1

printf '%-6s %-5s %12s %8s %10s %9s %8s %7s\n' \
    ranks events written seconds "events/s" "RSS MiB" "B/event" passes
for ranks in 64 1024; do
    for e in 1e6 1e7 1e8; do
        [ "$e" = 1e8 ] && [ "$max" != 1e8 ] && continue
        rm -rf "$dir"
        sync
        /usr/bin/time -f '%e %M' -o "$dir.time" \
            "$gen" -p $ranks -e $e -o "$dir" 2>"$dir.sum" || exit 1
        read -r secs kb <"$dir.time"
        n=$(awk '$1 == "events" { print $2 }' "$dir.sum")
        passes=$(awk '$1 == "write_passes" { print $2 }' "$dir.sum")
        bytes=$(du -sb "$dir" | cut -f1)
        awk -v r=$ranks -v e=$e -v n=$n -v s=$secs -v kb=$kb -v b=$bytes \
            -v p=$passes 'BEGIN {
                printf "%-6s %-5s %12d %8.2f %10.2e %9.0f %8.2f %7d\n",
                       r, e, n, s, n / s, kb / 1024, b / n, p }'
        rm -rf "$dir" "$dir.time" "$dir.sum"
    done
done
