#!/bin/sh
# together.sh BACKGROUND FOREGROUND... — runs the command BACKGROUND
# while the FOREGROUND commands run one after the other, their output
# shown as it comes; BACKGROUND's output follows, whole, when it is done.
# Exits 1 when any command failed. `make check` runs tests/mpi.sh this
# way beside check-cli and check-traces: its launches spend a third of
# their time waiting (MPI start-up, ranks asleep while rank 0 works), time
# the other tests fill; one after the other they took 150 s and 190 s
# (doc/testing.md). Every test script keeps its files in its own
# temporary directory, so none sees another's.
bg=$1
shift
log=$(mktemp /tmp/skein-together-XXXXXX)
trap 'rm -f "$log" "$log.rc"' EXIT
( sh -c "$bg" >"$log" 2>&1; echo $? >"$log.rc" ) &
status=0
for fg in "$@"; do
	sh -c "$fg" || status=1
done
wait
cat "$log"
rc=$(cat "$log.rc" 2>/dev/null || echo 1)
[ "$rc" -eq 0 ] || { echo "together.sh: $bg failed (status $rc)"; status=1; }
exit $status
