#!/bin/sh
# bench.sh BUILD — `make bench`: skein's load and analysis next to the OTF2
# library's bare per-location read of the same archive, on generated traces
# of 10^6, 10^7 and (when the disk allows) 10^8 events at 64 and 1024
# ranks, and on the largest real trace in ../shared; then the same for
# Charm++ Projections runs (skein-gen-charm) against the floor of
# decompressing and tokenising their logs. A benchmark, not a test: it
# prints figures and fails only if a program fails.
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

# Charm++: skein-gen-charm's Jacobi-like runs (8 PEs, 16 x 16 chares; 64
# PEs, 64 x 64 chares) next to prj_bare, the floor of decompressing and
# tokenising the same logs; then the largest shared Projections run.
echo
printf '%-34s %11s %8s %8s %8s %8s %8s %8s %8s %8s %8s %6s %6s\n' run records floor_s \
	load_s ld/fl struct_s metr_s total_s ratio Mrec/s B/rec B/op ok
crow() { # name sts
	b=$("$build/bench/prj_bare" "$2") || { echo "prj_bare failed on $2"; return 1; }
	s=$("$build/bench/bench_skein" "$2") || { echo "bench_skein failed on $2"; return 1; }
	echo "$b $s" | awk -v n="$1" '{
		rec=$1; bare=$2; load=$4; lops=$5; part=$6; leap=$7; steps=$8; metr=$9; tot=$10; rss=$11; ops=$12; ok=$14
		printf "%-34s %11d %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %8.1f %6.1f %6s\n",
			n, rec, bare, load, load/bare, lops+part+leap+steps, metr, tot, tot/bare, rec/tot/1e6,
			rss*1024/rec, rss*1024/ops, ok ? "yes" : "NO"
	}'
}
gencharm=$root/traces/gen/skein-gen-charm
for shape in "8 16 16" "64 64 64"; do
	set -- $shape
	for size in 1M 10M; do
		d=$dir/charm-jacobi-$1pe-$2x$3-$size
		[ -f "$d/jacobi.sts" ] || "$gencharm" -q -f -o "$d" -p "$1" -x "$2" -y "$3" -e "$size" ||
			{ echo "skein-gen-charm failed"; exit 1; }
		crow "generated jacobi $1 PEs $(($2 * $3)) chares $size" "$d/jacobi.sts"
	done
done
realc=$root/${SHARED:-../shared}/traces/projections/charm-jacobi2d_64c_4pe_8it/jacobi2d.prj.sts
[ -f "$realc" ] && crow "charm jacobi2d 64c (real, largest)" "$realc"
echo "floor_s: gzip decompression and integer tokenising of the logs alone (prj_bare);"
echo "ld/fl: skein's load over the floor; struct_s: the seed 004 structure and steps;"
echo "ratio: skein load+analysis over floor_s"
