#!/bin/sh
# waits.sh SKEIN — the wait-state traces of traces/waits (README.md
# there), made with MPICH and Open MPI under the project's tracer: on
# each, the wait states skein finds agree with an independent count from
# otf2-print (tests/waitcheck.py, within 1%), and the ground truth of
# traces/waits/expected.txt holds: the iterations found, the top problem
# (rank, operation, iteration), each rank's waiting by kind, and which
# rank's delays made the others wait the most. One Python process checks
# them all (tests/waitsuite.py).
skein=$1
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
command -v otf2-print >/dev/null || { echo "waits.sh: needs otf2-print (otf2-tools)"; exit 1; }
exec python3 "$root/tests/waitsuite.py" "$skein" "$root/traces/waits"
