#!/bin/sh
# bench.sh — measure skeintrace's overhead (make -C traces/tracer bench).
#
# Two measurements with tests/pingpong.c, per MPI, each the best of REPEAT
# runs untraced and REPEAT runs traced (LD_PRELOAD):
#   self       1 rank, ITERS calls of MPI_Sendrecv to itself on
#              MPI_COMM_SELF (4 events per traced call): the per-call cost
#              with no other process in the loop;
#   pingpong   2 ranks, ITERS zero-byte round trips of MPI_Send + MPI_Recv
#              (3 events per traced call). The ranks alternate, so the
#              recording of about two calls lies on each round trip's
#              critical path: per call = (traced - untraced) / 2.
# Bytes per event = event files / events, from the traced run's archive.
#
#   ITERS=200000 REPEAT=5 ./bench.sh
set -u
cd "$(dirname "$0")" || exit 1
here=$(pwd)
ITERS=${ITERS:-200000}
REPEAT=${REPEAT:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/skeintrace-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset SKEIN_TRACE SKEIN_TRACE_BUFFER_MB
mkdir -p tests/build

best() { # best MPIRUN... : smallest time over REPEAT runs
    b=""
    for i in $(seq "$REPEAT"); do
        rm -rf "$work/trace"
        t=$(SKEIN_TRACE_DIR=$work/trace "$@" | sed -n 's/.*: \([0-9.]*\) us per .*/\1/p')
        [ -n "$t" ] || { echo "bench: run failed: $*" >&2; return 1; }
        b=$(echo "$b $t" | awk '{ m = $1; for (i = 2; i <= NF; i++) if ($i < m) m = $i; print m }')
    done
    echo "$b"
}

per_event() { # events and bytes/event of the last traced run
    ev=$(otf2-print -G "$work/trace/traces.otf2" |
         awk '$1 == "LOCATION" { for (i = 1; i < NF; i++) if ($i == "Events:") { sub(",", "", $(i + 1)); n += $(i + 1) } } END { print n + 0 }')
    by=$(cat "$work/trace/traces"/*.evt | wc -c)
    echo "$ev $(echo "$by $ev" | awk '{ printf "%.2f", $2 ? $1 / $2 : 0 }')"
}

echo "ITERS=$ITERS REPEAT=$REPEAT, $(nproc) cores; times in microseconds"
printf '%-8s %-9s %10s %10s %14s %9s %11s\n' MPI test untraced traced "overhead/call" events bytes/event
for mpi in mpich openmpi; do
    case $mpi in
    mpich) cc=mpicc.mpich run=mpirun.mpich ;;
    openmpi) cc=mpicc.openmpi run="mpirun.openmpi --oversubscribe" ;;
    esac
    if ! command -v $cc > /dev/null || [ ! -f libskeintrace-$mpi.so ]; then
        echo "$mpi: skipped (not installed or not built)"
        continue
    fi
    $cc -std=c11 -O2 -o tests/build/pingpong-$mpi tests/pingpong.c || exit 1
    pre="env LD_PRELOAD=$here/libskeintrace-$mpi.so"
    for test in self pingpong; do
        if [ $test = self ]; then
            np=1 args="$ITERS 0 self" div=1
        else
            np=2 args="$ITERS 0" div=2
        fi
        plain=$(best $run -n $np tests/build/pingpong-$mpi $args) || exit 1
        traced=$(best $run -n $np $pre tests/build/pingpong-$mpi $args) || exit 1
        set -- $(per_event)
        printf '%-8s %-9s %10.3f %10.3f %14.3f %9d %11s\n' $mpi $test "$plain" "$traced" \
            "$(echo "$traced $plain $div" | awk '{ print ($1 - $2) / $3 }')" "$1" "$2"
    done
done
