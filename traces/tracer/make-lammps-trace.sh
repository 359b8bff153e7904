#!/bin/sh
# make-lammps-trace.sh — regenerate traces/corpus/lammps-melt-4: Debian's
# LAMMPS (linked with Open MPI) running the melt example on 4 ranks under
# libskeintrace-openmpi.so, shortened to 100 steps to keep the trace small.
# Writes the archive (traces.otf2, traces.def, traces/) and COMMAND (the
# exact command, the input, versions, LAMMPS's output), then checks the
# trace with otf2check.py. Needs: lammps, lammps-examples, openmpi-bin,
# and the tracer built (make -C traces/tracer).
set -eu
cd "$(dirname "$0")"
here=$(pwd)
out=$(cd .. && pwd)/corpus/lammps-melt-4
example=/usr/share/lammps/examples/melt/in.melt
steps=100

for tool in lmp mpirun.openmpi otf2-print python3; do
    command -v $tool > /dev/null || { echo "make-lammps-trace: $tool not found (apt-get install lammps openmpi-bin otf2-tools)" >&2; exit 1; }
done
[ -f "$example" ] || { echo "make-lammps-trace: $example not found (apt-get install lammps-examples)" >&2; exit 1; }
[ -f libskeintrace-openmpi.so ] || { echo "make-lammps-trace: build the tracer first (make -C traces/tracer)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/lammps-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# The example as shipped, with the run shortened and thermo output every 25 steps.
awk -v steps=$steps '$1 == "run" { print "run\t\t" steps; next }
                     $1 == "thermo" { print "thermo\t\t25"; next }
                     { print }' "$example" > "$work/in.melt"

cmd="SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --oversubscribe -n 4 env LD_PRELOAD=\$TRACER/libskeintrace-openmpi.so lmp -in in.melt -log none -nocite"
(
    cd "$work"
    SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout 300 mpirun.openmpi --oversubscribe -n 4 env LD_PRELOAD="$here/libskeintrace-openmpi.so" \
        lmp -in in.melt -log none -nocite > lammps.out 2> lammps.err
) || { echo "make-lammps-trace: the LAMMPS run failed:" >&2; cat "$work/lammps.err" >&2; exit 1; }
if [ -s "$work/lammps.err" ]; then
    echo "make-lammps-trace: stderr of the run:" >&2
    cat "$work/lammps.err" >&2
fi
python3 otf2check.py "$work/trace/traces.otf2" > "$work/check.out" || {
    grep -v '^ok' "$work/check.out" >&2
    echo "make-lammps-trace: the new trace fails otf2check.py; $out left unchanged" >&2
    exit 1
}

mkdir -p "$out"
rm -rf "$out/traces" "$out/traces.otf2" "$out/traces.def"
cp -R "$work/trace/traces" "$work/trace/traces.otf2" "$work/trace/traces.def" "$out/"
bytes=$(cat "$out"/traces.otf2 "$out"/traces.def "$out"/traces/* | wc -c)
{
    echo "# lammps-melt-4 — LAMMPS melt example, 4 MPI ranks, traced by skeintrace"
    echo
    echo "Regenerate with: make -C traces/tracer lammps   (traces/tracer/make-lammps-trace.sh)"
    echo
    echo "## Command (run in a directory holding in.melt; TRACER=traces/tracer, absolute)"
    echo
    echo "    $cmd"
    echo
    echo "## Versions"
    echo
    echo "    LAMMPS:   $(head -n 1 "$work/lammps.out") (Debian lammps $(dpkg-query -W -f='${Version}' lammps 2>/dev/null || echo '?'))"
    echo "    Open MPI: $(mpirun.openmpi --version 2>/dev/null | head -n 1)"
    echo "    OTF2:     $(otf2-print --version 2>/dev/null | head -n 1)"
    echo "    tracer:   skeintrace 1.0 ($(uname -sm))"
    echo
    echo "## Input (in.melt: $example with 'run $steps' and 'thermo 25')"
    echo
    sed 's/^/    /' "$work/in.melt"
    echo
    echo "## Trace"
    echo
    grep '^# ' "$work/check.out" | sed 's/^# /    /'
    echo "    $bytes bytes (anchor, definitions and event files)"
    echo
    echo "## LAMMPS output"
    echo
    sed 's/^/    /' "$work/lammps.out"
} > "$out/COMMAND"
echo "make-lammps-trace: wrote $out ($bytes bytes of trace)"
