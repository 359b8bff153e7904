#!/bin/sh
# make-lammps-stall.sh — regenerate traces/waits/lammps-stall-2: Debian's
# LAMMPS (Open MPI) running the melt example for 2000 steps on 2 ranks
# under the skein tracer, with rank 1 stopped (SIGSTOP) for 0.3 s half
# way through and continued (SIGCONT). The ground truth: the top problem
# is on rank 1 and took the stall's 0.3 s (expected.txt). Needs lammps,
# lammps-examples, openmpi-bin and the tracer (make -C traces/tracer).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/lammps-stall-2
tracer=$here/../tracer/libskeintrace-openmpi.so
example=/usr/share/lammps/examples/melt/in.melt
for f in "$tracer" "$example"; do [ -f "$f" ] || { echo "make-lammps-stall: $f missing" >&2; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/lammps-stall.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
awk '$1 == "run" { print "run\t\t2000"; next } $1 == "thermo" { print "thermo\t\t250"; next } { print }' \
	"$example" >"$work/in.melt"
cd "$work"
SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 \
	timeout 300 mpirun.openmpi --oversubscribe -n 2 env LD_PRELOAD="$tracer" \
	lmp -in in.melt -log none -nocite >lammps.out 2>&1 </dev/null &
job=$!
# half way: LAMMPS prints its thermo header when the run starts
n=0
while ! grep -q '^ *Step' lammps.out 2>/dev/null && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
sleep 2
# rank 1: the lmp whose environment says so
for p in $(pgrep -x lmp); do
	if tr '\0' '\n' <"/proc/$p/environ" | grep -qx OMPI_COMM_WORLD_RANK=1; then
		kill -STOP "$p" && sleep 0.3 && kill -CONT "$p"
	fi
done
wait $job
rm -rf "$out" && mv trace "$out" && echo "wrote $out"
