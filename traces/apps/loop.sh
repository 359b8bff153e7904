#!/bin/sh
# loop.sh [-n RUNS] [NAME...] — does skein find the injected delay every time?
#
# For each delayed trace of corpus.sh's table (or the NAMEs given), runs
# its app RUNS times (default 5) under the tracer, exactly as corpus.sh
# would but without retries, and checks every fresh trace with skein's
# analysis against the committed expected.txt — the default section: with
# no options, the hotspot (the injected delay, with its cause) and every
# late operation (the propagation) must be as the file says. One line per
# run, then one per trace: "NAME: k/RUNS runs as expected (h/RUNS with the
# expected hotspot)". Exit status 1 unless every run is as expected.
#
# Needs the apps, the tracer and skein's test binary (make, then
# make -C traces tools; build/tests/test_corpus). Environment as corpus.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=5
if [ "${1:-}" = -n ]; then runs=$2; shift 2; fi
CHECK=${CHECK:-$root/build/tests/test_corpus}
MPIRUN=${MPIRUN:-mpirun.mpich}
TRACER=${TRACER:-$here/../tracer/libskeintrace-mpich.so}
SLEEPWAIT=${SLEEPWAIT:-$here/libsleepwait.so}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
TRACER_OPENMPI=${TRACER_OPENMPI:-$here/../tracer/libskeintrace-openmpi.so}
SLEEPWAIT_OPENMPI=${SLEEPWAIT_OPENMPI:-$here/openmpi/libsleepwait.so}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$CHECK" ] || { echo "loop: $CHECK missing (make build/tests/test_corpus)" >&2; exit 1; }
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
status=0

wanted() { # name [selected names...]
    n=$1; shift
    [ $# -eq 0 ] && case $n in *-delay*) return 0 ;; *) return 1 ;; esac
    for w in "$@"; do [ "$w" = "$n" ] && return 0; done
    return 1
}

sh "$here/corpus.sh" --table >"$scratch/table"
while read -r name np app rest; do
    wanted "$name" "$@" || continue
    args=$(echo "$rest" | awk '{$NF=""; print}')
    case $name in
    *-openmpi) run="$MPIRUN_OPENMPI --oversubscribe"; lib=$SLEEPWAIT_OPENMPI:$TRACER_OPENMPI
               bin=$here/openmpi/$app ;;
    *) run=$MPIRUN; lib=$SLEEPWAIT:$TRACER; bin=$here/$app ;;
    esac
    ok=0 hotok=0
    k=1
    while [ $k -le "$runs" ]; do
        out=$scratch/$name-$k
        # shellcheck disable=SC2086
        if ! SKEIN_TRACE_DIR=$out SKEIN_TRACE_OVERWRITE=1 $run -n "$np" \
             env LD_PRELOAD="$lib" "$bin" $args </dev/null >"$out.log" 2>&1; then
            echo "$name run $k: the run failed: $(head -n 3 "$out.log" | tr '\n' ' ')"
        elif "$CHECK" "$out" "$root/traces/corpus/$name/expected.txt" default >"$out.check" 2>&1; then
            ok=$((ok + 1))
            echo "$name run $k: ok: hotspot and all $(sed -n 's/^late_count *\([0-9]*\).*/\1/p' "$root/traces/corpus/$name/expected.txt" | head -n 1) late operations as expected"
        else
            grep -E 'expected line|unexpected line' "$out.check" >"$out.diff"
            if grep -q ': hotspot ' "$out.diff"; then
                what="hotspot differs"
            else
                hotok=$((hotok + 1))
                what="hotspot as expected"
            fi
            echo "$name run $k: $what; $(grep -c ': late ' "$out.diff") late-operation lines differ:"
            sed 's/^/    /' "$out.diff" | head -n 8
        fi
        rm -rf "$out"
        k=$((k + 1))
    done
    echo "$name: $ok/$runs runs as expected ($((ok + hotok))/$runs with the expected hotspot)"
    [ $ok -eq "$runs" ] || status=1
done <"$scratch/table"
exit $status
