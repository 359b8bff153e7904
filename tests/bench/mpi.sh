#!/bin/sh
# mpi.sh BUILD — `make bench`'s skein-mpi rows (doc/distributed.md): time
# and peak memory of every rank for `mpiexec -n N skein-mpi analyze
# --save` at 1, 2 and 4 ranks (MPICH, one thread per rank), distributed
# (the default) and with the shares gathered on rank 0
# (SKEIN_MPI_GATHER=1), next to the
# serial `skein analyze --save` on one thread, on generated stencil traces
# of 10^7 and (disk allowing) 10^8 events at 1024 ranks, and on the
# generated 64-PE Charm++ run of 10^7 records (its shares gathered). Figures are
# medians of BENCH_RUNS (3; 1 at 10^8) runs taken in turn; each run's
# saved file is checked against the serial one (tests/savedcmp.py). A
# benchmark, not a test: it fails only if a program fails.
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${BENCH_DIR:-/tmp/skein-bench}
gen=$root/traces/gen/skein-gen
if [ ! -x "$build/skein-mpi" ] || ! command -v mpirun.mpich >/dev/null; then
	echo "skein-mpi not built (no MPI compiler): no MPI figures"
	exit 0
fi
mkdir -p "$dir"
free_kb=$(df -Pk "$dir" | awk 'NR==2 {print $4}')
sizes=${BENCH_MPI_SIZES:-10M}
[ -z "$BENCH_MPI_SIZES" ] && [ "${free_kb:-0}" -gt 8000000 ] && [ "${BENCH_BIG:-1}" = 1 ] && sizes="$sizes 100M"
# BENCH_MPI_ONLY=charm: the Charm++ rows alone
[ "${BENCH_MPI_ONLY:-}" = charm ] && sizes=
tmp=$(mktemp -d /tmp/skein-bench-mpi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export SKEIN_THREADS=1

# median: the median of the numbers on stdin
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-24s %7s %8s %9s %9s %9s %6s\n' trace ranks wall_s rank0_MB other_MB max_MB same
# series NAME TRACE RUNS KINDS: the serial skein and skein-mpi of each
# kind (d: distributed, g: gathered; then the rank count: d2, g4) in
# turn, RUNS times; one row each of the medians
series() {
	name=$1 t=$2 runs=$3 kinds=$4
	: >"$tmp/serial"
	for run in $kinds; do : >"$tmp/$run"; done
	i=0
	while [ "$i" -lt "$runs" ]; do
		# serial: wall seconds and peak kB from GNU time
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$build/skein" analyze -q \
			--save "$tmp/s.skein" "$t" >/dev/null || { echo "skein failed"; exit 1; }
		cat "$tmp/time" >>"$tmp/serial"
		for run in $kinds; do
			n=${run#?}
			gather=
			[ "${run%?}" = g ] && gather=1
			SKEIN_MPI_GATHER=$gather mpirun.mpich -launcher fork -n $n "$build/skein-mpi" analyze \
				--save "$tmp/m.skein" "$t" \
				>/dev/null 2>"$tmp/err" || { echo "skein-mpi failed: $(tail -1 "$tmp/err")"; exit 1; }
			same=yes
			python3 "$root/tests/savedcmp.py" "$tmp/s.skein" "$tmp/m.skein" >/dev/null || same=NO
			# "skein-mpi: N ranks, S s; peak memory per rank (MB): R0 R1 ..."
			sed -n 's/^skein-mpi: [0-9]* ranks, \([0-9.]*\) s; peak memory per rank (MB):/\1/p' "$tmp/err" |
				awk -v s=$same '{ o = 0; m = $2; for (i = 3; i <= NF; i++) { if ($i > o) o = $i; if ($i > m) m = $i }
					print $1, $2, o, m, s }' >>"$tmp/$run"
			rm -f "$tmp/m.skein"
		done
		i=$((i + 1))
	done
	printf '%-24s %7s %8.2f %9.1f %9s %9.1f %6s\n' "$name" serial \
		"$(cut -d' ' -f1 "$tmp/serial" | median)" "$(cut -d' ' -f2 "$tmp/serial" | median | awk '{ print $1 / 1024 }')" \
		- "$(cut -d' ' -f2 "$tmp/serial" | median | awk '{ print $1 / 1024 }')" -
	for run in $kinds; do
		same=yes
		grep -q NO "$tmp/$run" && same=NO
		label="${run#?} $( [ "${run%?}" = d ] && echo dist || echo gath)"
		printf '%-24s %7s %8.2f %9.1f %9.1f %9.1f %6s\n' "$name" "$label" \
			"$(cut -d' ' -f1 "$tmp/$run" | median)" "$(cut -d' ' -f2 "$tmp/$run" | median)" \
			"$(cut -d' ' -f3 "$tmp/$run" | median)" "$(cut -d' ' -f4 "$tmp/$run" | median)" $same
	done
}
for size in $sizes; do
	t=$dir/stencil-1024-$size
	[ -f "$t/traces.otf2" ] || "$gen" -q -f -o "$t" -p 1024 -e "$size" -t stencil >/dev/null ||
		{ echo "skein-gen failed"; exit 1; }
	runs=${BENCH_RUNS:-3}
	[ "$size" = 100M ] && runs=${BENCH_RUNS_BIG:-1}
	series "stencil 1024 ranks $size" "$t/traces.otf2" "$runs" "d1 d2 d4 g1 g2 g4"
done
# Charm++: the generated 64-PE run of 10^7 records (bench.sh's), each
# rank parsing its share of the PEs' logs, rank 0 building and analysing
# (gathered: the one way skein-mpi reads a Projections run)
c=$dir/charm-jacobi-64pe-64x64-10M
[ -f "$c/jacobi.sts" ] || "$root/traces/gen/skein-gen-charm" -q -f -o "$c" -p 64 -x 64 -y 64 -e 10M ||
	{ echo "skein-gen-charm failed"; exit 1; }
series "charm 64 PEs 10M" "$c/jacobi.sts" "${BENCH_RUNS:-3}" "g1 g2 g4"
echo "skein-mpi on MPICH, one thread per rank (SKEIN_THREADS=1), the serial skein too;"
echo "dist: every stage distributed (the default); gath: the shares gathered on rank 0"
echo "(SKEIN_MPI_GATHER=1); wall_s: whole job; rank0_MB: rank 0's peak RSS; other_MB: the largest peak of the"
echo "other ranks; same: the saved file is the serial one's bytes (tests/savedcmp.py);"
echo "medians of the runs taken in turn"
[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$dir"/stencil-*-100M
