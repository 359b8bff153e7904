#!/bin/sh
# make-halo-stall.sh — regenerate traces/waits/halo-stall-3 (MPICH) and
# halo-stall-3-openmpi: traces/apps/halo.f90 (Fortran, use mpi) on 3
# ranks under the skein tracer, rank 1 stopped (SIGSTOP) for 0.3 s half
# way and continued (SIGCONT). In the runs kept the stop fell inside
# rank 1's MPI_Waitall, after the receive that synchronised it with the
# rank that then waited for it: the top problem is that MPI_Waitall
# (expected.txt), where the wait's root by Scalasca's rule is the short
# computation after it. Which operation a new run's stop falls in is
# chance: check before replacing the traces. Needs gfortran, mpich,
# openmpi-bin and the tracer (make -C traces/tracer).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../apps/halo.f90
work=$(mktemp -d "${TMPDIR:-/tmp}/halo-stall.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
for mpi in mpich openmpi; do
	tracer=$here/../tracer/libskeintrace-$mpi.so
	[ -f "$tracer" ] || { echo "make-halo-stall: $tracer missing" >&2; exit 1; }
	"mpif90.$mpi" -O2 -o "$work/halo" "$src"
	over=; [ $mpi = openmpi ] && over=--oversubscribe    # 3 ranks, 2 cores here
	rm -rf "$work/trace"
	(cd "$work" && SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		OMPI_MCA_mpi_yield_when_idle=1 timeout 300 "mpirun.$mpi" $over -n 3 env LD_PRELOAD="$tracer" ./halo >halo.out 2>&1 </dev/null) &
	job=$!
	sleep 0.7
	# rank 1: the halo whose environment says so
	for p in $(pgrep -x halo); do
		if tr '\0' '\n' <"/proc/$p/environ" | grep -qE '^(OMPI_COMM_WORLD_RANK|PMI_RANK)=1$'; then
			kill -STOP "$p" && sleep 0.3 && kill -CONT "$p"
		fi
	done
	wait $job
	case $mpi in mpich) out=$here/halo-stall-3 ;; *) out=$here/halo-stall-3-openmpi ;; esac
	rm -rf "$out" && mv "$work/trace" "$out" && echo "wrote $out"
done
