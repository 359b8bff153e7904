#!/bin/sh
# onesided.sh SKEIN [SHARED] — one-sided communication and non-blocking
# collectives end to end (tests/onesided.py says what): the archives of
# traces/onesided, made by the project's tracer under MPICH and Open MPI,
# and the shared Score-P traces with RMA records, against an independent
# count from otf2-print (tests/rmacheck.py). Needs otf2-print.
skein=$1
shared=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
command -v otf2-print >/dev/null || { echo "onesided.sh: SKIP: needs otf2-print (otf2-tools)"; exit 0; }
[ -n "$shared" ] || shared=$root/../shared
exec python3 "$root/tests/onesided.py" "$skein" "$root" "$shared"
