#!/bin/sh
# make-qe-stall.sh — regenerate traces/waits/qe-stall-2: Debian's Quantum
# ESPRESSO (pw.x, Open MPI, Fortran) on a silicon SCF (2 atoms, 30 Ry,
# 6x6x6 k-points) on 2 ranks under the skein tracer, with rank 1 stopped
# (SIGSTOP) for 0.3 s a second into the run and continued. The run kept
# was stopped inside an MPI_Alltoall before its exchange: both ranks sat
# 0.3 s in that call and left it together, so no wait state, delay or
# lateness shows it, and the run has no iterations; the top problem is
# that MPI_Alltoall, against rank 1's other calls of it (expected.txt).
# Where a new run's stop falls is chance: check before replacing the
# trace. Needs quantum-espresso, openmpi-bin and the tracer (make -C
# traces/tracer).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/qe-stall-2
tracer=$here/../tracer/libskeintrace-openmpi.so
pseudo=/usr/share/espresso/pseudo/Si.pz-vbc.UPF
for f in "$tracer" "$pseudo"; do [ -f "$f" ] || { echo "make-qe-stall: $f missing" >&2; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/qe-stall.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cat >"$work/si.in" <<'IN'
&control
  calculation='scf', prefix='si', outdir='./tmp', pseudo_dir='/usr/share/espresso/pseudo'
/
&system
  ibrav=2, celldm(1)=10.2, nat=2, ntyp=1, ecutwfc=30.0
/
&electrons
  conv_thr=1e-10, mixing_beta=0.7
/
ATOMIC_SPECIES
 Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS alat
 Si 0.00 0.00 0.00
 Si 0.25 0.25 0.25
K_POINTS automatic
 6 6 6 1 1 1
IN
cd "$work"
SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
	timeout 300 mpirun.openmpi --oversubscribe -n 2 env LD_PRELOAD="$tracer" \
	pw.x -in si.in >pw.out 2>&1 </dev/null &
job=$!
sleep 1
# rank 1: the pw.x whose environment says so
for p in $(pgrep -x pw.x); do
	if tr '\0' '\n' <"/proc/$p/environ" | grep -qx OMPI_COMM_WORLD_RANK=1; then
		kill -STOP "$p" && sleep 0.3 && kill -CONT "$p"
	fi
done
wait $job
rm -rf "$out" && mv trace "$out" && echo "wrote $out"
