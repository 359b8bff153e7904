#!/bin/sh
# bench.sh BUILD — `make bench`: skein's load and default analysis next to
# the OTF2 library's bare single-thread per-location read of the same
# archive, on generated stencil traces of 10^7 and (when the disk allows)
# 10^8 events at 64 and 1024 ranks and on the archives of
# ../shared/tools/otf2floor (10^7 events at 64 and 1024 ranks, 10^8 at
# 64), the leap merge against the default
# analysis on a sparse 10^7-event trace, and the largest real trace in
# ../shared; then Charm++ Projections runs (skein-gen-charm, 10^6 and 10^7
# records) against the floor of decompressing and tokenising their logs.
# Each row is the median of BENCH_RUNS (3) runs, the bare read and skein
# taken in turn (A B A B ...), so that a machine shared with other work
# slows both alike. Then the profile, the communication matrix and the
# explorer's new panes from a saved analysis of each stencil. BENCH_ONLY=
# otf2, charm or profile runs one part. A
# benchmark, not a test: it prints figures and fails only if a program
# fails. The 10^8-event archives (1.4 GB each) are deleted at the end
# unless BENCH_KEEP=1.
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${BENCH_DIR:-/tmp/skein-bench}
runs=${BENCH_RUNS:-3}
gen=$root/traces/gen/skein-gen
mkdir -p "$dir"
free_kb=$(df -Pk "$dir" | awk 'NR==2 {print $4}')
sizes="10M"
[ "${free_kb:-0}" -gt 8000000 ] && [ "${BENCH_BIG:-1}" = 1 ] && sizes="$sizes 100M"
tmp=$(mktemp -d /tmp/skein-bench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# stencil RANKS SIZE: skein-gen's stencil of RANKS ranks and SIZE events,
# its directory in $t, written first when it is not there
stencil() {
	t=$dir/stencil-$1-$2
	[ -f "$t/traces.otf2" ] || "$gen" -q -f -o "$t" -p "$1" -e "$2" -t stencil >/dev/null ||
		{ echo "skein-gen failed"; exit 1; }
}

# median FILE: the per-column medians of the lines of FILE
median() {
	awk '{ for (i = 1; i <= NF; i++) v[i, NR] = $i; nf = NF }
	END {
		for (i = 1; i <= nf; i++) {
			n = 0
			for (r = 1; r <= NR; r++) a[++n] = v[i, r]
			for (x = 2; x <= n; x++) for (y = x; y > 1 && a[y - 1] + 0 > a[y] + 0; y--) {
				t = a[y]; a[y] = a[y - 1]; a[y - 1] = t
			}
			printf "%s%s", a[int((n + 1) / 2)], i < nf ? " " : "\n"
		}
	}' "$1"
}

# now_ns: a monotonic-enough clock for whole commands
now_ns() { date +%s%N; }
# reopen ANCHOR: saves the analysis, times `skein render` from the file (the
# first explorer screen, median of the runs) and compares `analyze` from
# the file with `analyze` from the trace; prints "SECONDS yes|NO"
reopen() {
	"$build/skein" analyze -q --save "$tmp/r.skein" "$1" >"$tmp/from-trace" || return 1
	"$build/skein" analyze -q "$tmp/r.skein" >"$tmp/from-file" || return 1
	same=NO
	cmp -s "$tmp/from-trace" "$tmp/from-file" && same=yes
	: >"$tmp/o"
	i=0
	while [ "$i" -lt "$runs" ]; do
		t0=$(now_ns)
		"$build/skein" render -q "$tmp/r.skein" >/dev/null || return 1
		t1=$(now_ns)
		echo "$(((t1 - t0) / 1000000))" >>"$tmp/o"
		i=$((i + 1))
	done
	echo "$(median "$tmp/o" | awk '{ printf "%.2f", $1 / 1000 }') $same"
	rm -f "$tmp/r.skein"
}
# row NAME ANCHOR: runs bare and skein in turn, prints the medians
row() {
	: >"$tmp/b"
	: >"$tmp/s"
	i=0
	while [ "$i" -lt "$runs" ]; do
		"$build/bench/otf2_bare" "$2" >>"$tmp/b" || { echo "otf2_bare failed on $2"; return 1; }
		"$build/bench/bench_skein" "$2" >>"$tmp/s" || { echo "bench_skein failed on $2"; return 1; }
		i=$((i + 1))
	done
	r=$(reopen "$2") || { echo "skein failed on $2"; return 1; }
	echo "$(median "$tmp/b") $(median "$tmp/s") $r" | awk -v n="$1" '{
		ev=$1; bare=$2; load=$5; lops=$6; part=$7; leap=$8; steps=$9; metr=$10; tot=$11
		rss=$12; ok=$15; cpu=$16; path=$17; reo=$18; same=$19
		printf "%-30s %11d %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %6.2f %8.1f %8s %8.2f %5s %7.2f %6.1f%%\n",
			n, ev, bare, load, lops+part+leap, steps, metr, tot, tot/bare, cpu/tot,
			rss*1024/ev, ok ? "yes" : "NO", reo, same, path, 100 * path / (tot - load)
	}'
}
if [ "${BENCH_ONLY:-otf2}" = otf2 ]; then
	printf '%-30s %11s %7s %7s %7s %7s %7s %7s %7s %6s %8s %8s %8s %5s %7s %7s\n' trace events bare_s \
		load_s part_s steps_s metr_s total_s ratio cpu/wl B/event verified reopen_s same path_s path/an
	for size in $sizes; do
		for ranks in 64 1024; do
			stencil "$ranks" "$size"
			row "stencil $ranks ranks $size" "$t/traces.otf2"
		done
	done
	# the archives of ../shared/tools/otf2floor/gen.c, which the issues'
	# figures use: the same kind of events, written with OTF2's default
	# 4 MB definition chunks where skein-gen writes modern Score-P's
	# 256 KB (doc/performance.md, "Two kinds of archive")
	floor=$root/${SHARED:-../shared}/tools/otf2floor/gen.c
	if [ -f "$floor" ] && cc -O2 -std=c11 -o "$tmp/floor-gen" "$floor" -lopen-trace-format2 -lm 2>/dev/null; then
		for size in $sizes; do
			for ranks in 64 1024; do
				case $size.$ranks in 10M.64) it=3906 ;; 10M.1024) it=244 ;; 100M.64) it=39062 ;; *) continue ;; esac
				t=$dir/floor-$size-r$ranks
				[ -f "$t/traces.otf2" ] || { rm -rf "$t" && "$tmp/floor-gen" "$t" "$ranks" "$it" >/dev/null; } ||
					{ echo "otf2floor's gen failed"; exit 1; }
				row "otf2floor $ranks ranks $size" "$t/traces.otf2"
			done
		done
	else
		echo "(no ../shared/tools/otf2floor/gen.c, or it did not build: its archives skipped)"
	fi
	real=$root/${SHARED:-../shared}/traces/otf2/casita-2_jacobi_blame_cpu_015/traces.otf2
	[ -f "$real" ] && row "casita jacobi (real, largest)" "$real"
	echo "bare_s: OTF2 per-location read, one thread; ratio: skein load + default analysis"
	echo "over bare_s; cpu/wl: skein's CPU time over its wall time; B/event: peak RSS of"
	echo "skein's whole run per trace event; reopen_s: 'skein render' of the saved analysis"
	echo "(the first explorer screen); same: 'analyze' from it byte-identical to 'analyze' from"
	echo "the trace; path_s: the critical path after the analysis (analysis/path), path/an: its"
	echo "cost over the analysis's (total_s less load_s); medians of $runs runs taken in turn"

	# the leap merge against the default analysis on a sparse trace
	t=$dir/sparse-64-10M
	[ -f "$t/traces.otf2" ] || "$gen" -q -f -o "$t" -p 64 -e 10M -t sparse --skip-pct 70 >/dev/null ||
		{ echo "skein-gen failed"; exit 1; }
	: >"$tmp/d"
	: >"$tmp/l"
	i=0
	while [ "$i" -lt "$runs" ]; do
		"$build/bench/bench_skein" "$t/traces.otf2" >>"$tmp/d" || exit 1
		"$build/bench/bench_skein" --leap-merge "$t/traces.otf2" >>"$tmp/l" || exit 1
		i=$((i + 1))
	done
	echo
	echo "$(median "$tmp/d") $(median "$tmp/l")" | awk '{
		printf "sparse 64 ranks 10M (70%% of messages skipped): default %.2f s, --leap-merge %.2f s\n", $8, $22
		printf "(leap stage %.2f s), ratio %.2f\n", $19, $22 / $8
	}'
	[ "${BENCH_ONLY:-}" = otf2 ] && { [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$dir"/stencil-*-100M "$dir"/floor-100M-*; }
fi

# The profile and the communication matrix from a saved analysis (doc/
# profile.md), whole trace, and the explorer's keys in the new panes, on
# the stencils, the floor tool's 10^7 archives and the 64-PE 10^7
# Charm++ run (keys only): medians of the runs (BENCH_ONLY=profile runs
# this alone). Issue #39 asks for every key under 16 ms and a resize
# under 50 ms at 10^7 events.
if [ "${BENCH_ONLY:-profile}" = profile ]; then
	[ -n "${BENCH_ONLY:-}" ] || echo
	printf '%-30s %11s %9s %9s %9s %9s %9s %9s %9s\n' trace events profile_s comm_s window_s key_ms key_max \
		resize_max ahead_ms
	# prow NAME TRACE [keys]: saved once, then the runs; "keys": no
	# profile or matrix (a Charm++ run has neither)
	prow() {
		"$build/skein" analyze -q --save "$tmp/p.skein" "$2" >/dev/null || exit 1
		ev=$("$build/skein" info --format json "$tmp/p.skein" | awk -F'[:,]' '/"events"/ { print $2 + 0; exit }')
		: >"$tmp/t"
		i=0
		while [ "$i" -lt "$runs" ]; do
			t0=$(now_ns) t1=$t0 t2=$t0 t3=$t0
			if [ "${3:-}" != keys ]; then
				"$build/skein" profile --format csv "$tmp/p.skein" >/dev/null || exit 1
				t1=$(now_ns)
				"$build/skein" comm --format csv "$tmp/p.skein" >/dev/null || exit 1
				t2=$(now_ns)
				"$build/skein" profile --format csv --from 0.1 --to 0.11 "$tmp/p.skein" >/dev/null || exit 1
				t3=$(now_ns)
			fi
			# per key: profile, comm, lists, the timeline zoomed and
			# panned; four resizes, each with its redraw
			"$build/skein" render -q --time --size 200x60 \
				--keys 'pv<Resize:120x40>va<Resize:200x60>vvvvvivvvvvT++++++LLHH-f1<Resize:80x24><Resize:200x60>' \
				"$tmp/p.skein" 2>"$tmp/k" >/dev/null || exit 1
			km=$(sed -n 's/.* background \([0-9.]*\) ms; .* keys, \([0-9.]*\) ms mean, \([0-9.]*\) ms max per key; [0-9]* resizes, \([0-9.]*\) ms max.*/\2 \3 \4 \1/p' "$tmp/k")
			echo "$(((t1 - t0) / 1000000)) $(((t2 - t1) / 1000000)) $(((t3 - t2) / 1000000)) $km" >>"$tmp/t"
			i=$((i + 1))
		done
		median "$tmp/t" | awk -v n="$1" -v ev="$ev" -v k="${3:-}" '{
			if (k == "keys")
				printf "%-30s %11d %9s %9s %9s %9.2f %9.2f %9.2f %9.1f\n", n, ev, "-", "-", "-", $4, $5, $6, $7
			else
				printf "%-30s %11d %9.3f %9.3f %9.3f %9.2f %9.2f %9.2f %9.1f\n", n, ev, $1 / 1000, $2 / 1000,
					$3 / 1000, $4, $5, $6, $7 }'
		rm -f "$tmp/p.skein"
	}
	for size in $sizes; do
		for ranks in 64 1024; do
			stencil "$ranks" "$size"
			prow "stencil $ranks ranks $size" "$t/traces.otf2"
		done
	done
	for ranks in 64 1024; do
		t=$dir/floor-10M-r$ranks
		[ -f "$t/traces.otf2" ] && prow "otf2floor $ranks ranks 10M" "$t/traces.otf2"
	done
	c=$dir/charm-jacobi-64pe-64x64-10M
	[ -f "$c/jacobi.sts" ] || "$root/traces/gen/skein-gen-charm" -q -f -o "$c" -p 64 -x 64 -y 64 -e 10M ||
		{ echo "skein-gen-charm failed"; exit 1; }
	prow "charm 64 PEs 10M" "$c/jacobi.sts" keys
	echo "profile_s, comm_s: 'skein profile' and 'skein comm' of the whole trace from the saved"
	echo "analysis (the process: mapping, checksums, the sweep); window_s: the profile of 10 ms;"
	echo "key_ms, key_max: the explorer's time per key (view work, 200x60) over p v v a v*5 i v*5 T + *6 L L H H - f 1,"
	echo "once the panes' whole-trace tables computed on a thread after the first draw are done (ahead_ms);"
	echo "resize_max: the largest of four resizes among those keys (120x40, 200x60, 80x24, 200x60), with its redraw"
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$dir"/stencil-*-100M "$dir"/floor-100M-*
	[ "${BENCH_ONLY:-}" = profile ] && exit 0
fi

# Charm++: skein-gen-charm's Jacobi-like runs (8 PEs, 16 x 16 chares; 64
# PEs, 64 x 64 chares) next to prj_bare, the floor of decompressing and
# tokenising the same logs; then the largest shared Projections run.
[ "${BENCH_ONLY:-charm}" = charm ] || exit 0
[ -n "${BENCH_ONLY:-}" ] || echo
printf '%-34s %9s %7s %7s %6s %8s %7s %7s %7s %6s %6s %6s %8s %5s %7s\n' run records floor_s \
	load_s ld/fl struct_s metr_s total_s ratio cpu/wl B/rec ok reopen_s same path_s
# crow NAME STS: the floor and skein in turn, the medians, and the saved
# analysis reopened
crow() {
	: >"$tmp/b"
	: >"$tmp/s"
	i=0
	while [ "$i" -lt "$runs" ]; do
		"$build/bench/prj_bare" "$2" >>"$tmp/b" || { echo "prj_bare failed on $2"; return 1; }
		"$build/bench/bench_skein" "$2" >>"$tmp/s" || { echo "bench_skein failed on $2"; return 1; }
		i=$((i + 1))
	done
	r=$(reopen "$2") || { echo "skein failed on $2"; return 1; }
	echo "$(median "$tmp/b") $(median "$tmp/s") $r" | awk -v n="$1" '{
		rec=$1; bare=$2; load=$4; lops=$5; part=$6; leap=$7; steps=$8; metr=$9; tot=$10
		rss=$11; ok=$14; cpu=$15; path=$16; reo=$17; same=$18
		printf "%-34s %9d %7.2f %7.2f %6.2f %8.2f %7.2f %7.2f %7.2f %6.2f %6.1f %6s %8.2f %5s %7.2f\n",
			n, rec, bare, load, load/bare, lops+part+leap+steps, metr, tot, tot/bare, cpu/tot,
			rss*1024/rec, ok ? "yes" : "NO", reo, same, path
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
echo "ratio: skein load + analysis over floor_s; B/rec: peak RSS per log record"
