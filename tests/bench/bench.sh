#!/bin/sh
# bench.sh BUILD — `make bench`: skein's load and analysis next to the OTF2
# library's bare per-location read of the same archive, on generated traces
# of 10^6, 10^7 and (when the disk allows) 10^8 events at 64 and 1024
# ranks, and on the largest real trace in ../shared. A benchmark, not a
# test: it prints figures and fails only if a program fails.
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${BENCH_DIR:-/tmp/skein-bench}
gen=$root/traces/gen/skein-gen
mkdir -p "$dir"
free_kb=$(df -Pk "$dir" | awk 'NR==2 {print $4}')
sizes="1M 10M"
[ "${free_kb:-0}" -gt 8000000 ] && [ "${BENCH_BIG:-1}" = 1 ] && sizes="$sizes 100M"

printf '%-34s %11s %8s %8s %8s %8s %8s %8s %8s %8s %6s %6s %6s\n' trace events bare_s \
	load_s part_s steps_s metr_s total_s ratio Mev/s B/event B/op ok
row() { # name anchor
	b=$("$build/bench/otf2_bare" "$2") || { echo "otf2_bare failed on $2"; return 1; }
	s=$("$build/bench/bench_skein" "$2") || { echo "bench_skein failed on $2"; return 1; }
	echo "$b $s" | awk -v n="$1" '{
		ev=$1; bare=$2; load=$5; lops=$6; part=$7; leap=$8; steps=$9; metr=$10; tot=$11; rss=$12; ops=$13; ok=$15
		printf "%-34s %11d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %8.1f %6.1f %6s\n",
			n, ev, bare, load, lops+part+leap, steps, metr, tot, tot/bare, ev/tot/1e6,
			rss*1024/ev, rss*1024/ops, ok ? "yes" : "NO"
	}'
}
for ranks in 64 1024; do
	for size in $sizes; do
		t=$dir/stencil-$ranks-$size
		[ -f "$t/traces.otf2" ] || "$gen" -q -f -o "$t" -p "$ranks" -e "$size" -t stencil >/dev/null ||
			{ echo "skein-gen failed"; exit 1; }
		row "generated stencil $ranks ranks $size" "$t/traces.otf2"
	done
done
real=$root/${SHARED:-../shared}/traces/otf2/casita-2_jacobi_blame_cpu_015/traces.otf2
[ -f "$real" ] && row "casita jacobi (real, largest)" "$real"
echo "bare_s: OTF2 per-location read; ratio: skein load+analysis over bare_s;"
echo "B/event, B/op: peak RSS of skein's whole run per trace event and per operation"
