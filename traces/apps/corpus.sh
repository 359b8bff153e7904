#!/bin/sh
# corpus.sh CORPUS_DIR [--emit] [NAME...] — regenerate skein's committed traces.
#
# Runs every mini-app of the table below under the skein tracer (and
# libsleepwait.so, see sleepwait.c) into a scratch directory, checks the
# archive with verify.sh, and checks it against the committed
# CORPUS_DIR/NAME/expected.txt with refcheck.py; a run whose timing noise
# contradicts the expected late operations is retried (up to TRIES times,
# default 5). Only a run that passes replaces the committed archive.
#
# --emit writes expected.txt from the fresh run instead of checking it:
# only for a new or changed table entry, and only after checking the
# result by hand against README.md.
#
# A name ending in -openmpi runs under Open MPI (the apps and
# libsleepwait.so built in openmpi/, libskeintrace-openmpi.so), the others
# under MPICH.
#
# Environment: MPIRUN (mpirun.mpich), TRACER (../tracer/libskeintrace-mpich.so),
# SLEEPWAIT (./libsleepwait.so), MPIRUN_OPENMPI (mpirun.openmpi),
# TRACER_OPENMPI (../tracer/libskeintrace-openmpi.so), SLEEPWAIT_OPENMPI
# (./openmpi/libsleepwait.so), PYTHON (python3), TRIES (5).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# The table: name, ranks, app and arguments, extra expected.txt sections.
# Delays are 100 ms against 50 us of compute per iteration: on two shared
# cores a rank is now and then preempted for 5 ms or more, which made a
# 10 ms delay's late list (everything at least D/2 late) flicker from run
# to run (loop.sh). `paper` is the paper's pipeline where skein's default
# differs.
table() {
    cat <<'TABLE'
stencil-4                 4 stencil -i 6 -k 3                              no-coalesce
stencil-4-delay           4 stencil -i 6 -k 3 -d 100000:1:1                no-coalesce
stencil-4-extra           4 stencil -i 6 -k 3 -x 3                         no-coalesce
tree_allreduce-4          4 tree_allreduce -i 4                            paper
tree_allreduce-4-delay    4 tree_allreduce -i 4 -d 100000:3:1              paper
ring_allreduce-4          4 ring_allreduce -i 4                            -
ring_allreduce-4-delay    4 ring_allreduce -i 4 -d 100000:1:1              -
dissemination-4           4 dissemination -i 4                             paper
dissemination-4-delay     4 dissemination -i 4 -d 100000:1:1               paper
kary_tree-4               4 kary_tree -i 4 -k 3                            no-waitall-merge
kary_tree-4-delay         4 kary_tree -i 4 -k 3 -d 100000:1:1              no-waitall-merge
sparse_exchange-4         4 sparse_exchange -i 6 -s 3                      leap-merge
sparse_exchange-4-delay   4 sparse_exchange -i 6 -s 3 -d 100000:1:2        leap-merge
coalesce-4                4 coalesce -i 4                                  no-coalesce
coalesce-4-delay          4 coalesce -i 4 -d 100000:0:1                    no-coalesce
tree_allreduce-8-delay    8 tree_allreduce -i 3 -d 100000:7:1              paper
ring_allreduce-8-delay    8 ring_allreduce -i 3 -d 100000:2:1              -
dissemination-8-delay     8 dissemination -i 3 -d 100000:5:1               paper
butterfly-8-delay         8 butterfly -i 4 -d 100000:5:1                   -
butterfly-8-delay-openmpi 8 butterfly -i 4 -d 100000:5:1                   -
wavefront-9-delay         9 wavefront -i 6 -d 100000:4:2                   -
wavefront-9-delay-openmpi 9 wavefront -i 6 -d 100000:4:2                   -
overlap-4-delay           4 overlap -i 4 -d 100000:1:0                     -
overlap-4-delay-openmpi   4 overlap -i 4 -d 100000:1:0                     -
TABLE
}

if [ "${1:-}" = --table ]; then   # the table alone, for loop.sh
    table
    exit 0
fi
[ $# -ge 1 ] || { echo "usage: corpus.sh CORPUS_DIR [--emit] [NAME...] | corpus.sh --table" >&2; exit 2; }
corpus=$1; shift
emit=0
if [ "${1:-}" = --emit ]; then emit=1; shift; fi
MPIRUN=${MPIRUN:-mpirun.mpich}
TRACER=${TRACER:-$here/../tracer/libskeintrace-mpich.so}
SLEEPWAIT=${SLEEPWAIT:-$here/libsleepwait.so}
PYTHON=${PYTHON:-python3}
TRIES=${TRIES:-5}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
TRACER_OPENMPI=${TRACER_OPENMPI:-$here/../tracer/libskeintrace-openmpi.so}
SLEEPWAIT_OPENMPI=${SLEEPWAIT_OPENMPI:-$here/openmpi/libsleepwait.so}
# Open MPI refuses root without these, and 8 or 9 ranks on two cores
# without --oversubscribe
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for f in "$TRACER" "$SLEEPWAIT"; do
    [ -f "$f" ] || { echo "corpus: $f missing (make -C traces tracer apps)" >&2; exit 1; }
done
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "corpus: no $PYTHON: traces are checked with verify.sh only" >&2
    PYTHON=
fi
mkdir -p "$corpus" || exit 1
corpus=$(cd "$corpus" && pwd)
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
failed=0


wanted() { # name [selected names...]
    n=$1; shift
    [ $# -eq 0 ] && return 0
    for w in "$@"; do [ "$w" = "$n" ] && return 0; done
    return 1
}

run_one() { # name ranks sections app args
    name=$1 np=$2 sections=$3 app=$4 args=$5
    delay=$(echo " $args " | sed -n 's/.* -d \([0-9]*:[0-9]*:[0-9]*\) .*/\1/p')
    case $name in
    *-openmpi)
        run=$MPIRUN_OPENMPI; over=--oversubscribe; tracer=$TRACER_OPENMPI
        sleepwait=$SLEEPWAIT_OPENMPI; bin=$here/openmpi/$app
        shown="SKEIN_TRACE_DIR=traces/corpus/$name $run --oversubscribe -n $np env LD_PRELOAD=traces/apps/openmpi/libsleepwait.so:traces/tracer/libskeintrace-openmpi.so traces/apps/openmpi/$app $args"
        for f in "$tracer" "$sleepwait" "$bin"; do
            [ -f "$f" ] || { echo "corpus: $name: $f missing (apt-get install libopenmpi-dev; make -C traces tracer apps)" >&2; return 1; }
        done
        ;;
    *)
        run=$MPIRUN; over=; tracer=$TRACER; sleepwait=$SLEEPWAIT; bin=$here/$app
        shown="SKEIN_TRACE_DIR=traces/corpus/$name $run -n $np env LD_PRELOAD=traces/apps/libsleepwait.so:traces/tracer/libskeintrace-mpich.so traces/apps/$app $args"
        ;;
    esac
    out=$scratch/$name
    try=1
    while :; do
        rm -rf "$out"
        # shellcheck disable=SC2086
        if ! SKEIN_TRACE_DIR=$out SKEIN_TRACE_OVERWRITE=1 \
             "$run" $over -n "$np" env LD_PRELOAD="$sleepwait:$tracer" \
             "$bin" $args </dev/null >"$scratch/$name.log" 2>&1; then
            echo "corpus: $name: the run failed:" >&2
            sed 's/^/    /' "$scratch/$name.log" | head -n 20 >&2
            return 1
        fi
        "$here/verify.sh" "$out" >"$scratch/$name.verify" 2>&1 ||
            { cat "$scratch/$name.verify" "$scratch/$name.log" >&2; return 1; }
        [ -z "$PYTHON" ] && break
        if [ $emit = 1 ]; then
            set -- --trace "$name" --command "$shown"
            [ -n "$delay" ] && set -- "$@" --delay "$delay"
            for s in $(echo "$sections" | tr ',' ' '); do
                [ "$s" = - ] || set -- "$@" --section "$s"
            done
            set -- "$@" --notes "$here/expected-notes.txt"
            "$PYTHON" "$here/refcheck.py" emit "$out/traces.otf2" "$@" \
                >"$out/expected.txt" 2>"$scratch/$name.check" && break
            [ $? = 3 ] || { cat "$scratch/$name.check" >&2; return 1; }
        fi
        if [ $emit = 0 ] && [ ! -f "$corpus/$name/expected.txt" ]; then
            echo "corpus: $name: no expected.txt to check against (use --emit)" >&2
            return 1
        fi
        if [ $emit = 0 ]; then
            "$PYTHON" "$here/refcheck.py" check "$out/traces.otf2" \
                "$corpus/$name/expected.txt" >"$scratch/$name.check" 2>&1 && break
        fi
        echo "corpus: $name: try $try rejected:" >&2
        sed 's/^/    /' "$scratch/$name.check" | head -n 12 >&2
        try=$((try + 1))
        if [ $try -gt "$TRIES" ]; then
            echo "corpus: $name: giving up after $TRIES tries" >&2
            return 1
        fi
    done
    mkdir -p "$corpus/$name" || return 1
    rm -rf "$corpus/$name/traces" "$corpus/$name/traces.otf2" "$corpus/$name/traces.def"
    mv "$out/traces" "$out/traces.otf2" "$out/traces.def" "$corpus/$name/" || return 1
    if [ $emit = 1 ] && [ -n "$PYTHON" ]; then
        mv "$out/expected.txt" "$corpus/$name/" || return 1
    fi
    echo "corpus: $name: $(sed 's/^verify: [^:]*: //' "$scratch/$name.verify"), try $try"
    return 0
}

table | while read -r name np app rest; do
    sections=$(echo "$rest" | awk '{print $NF}')
    args=$(echo "$rest" | awk '{$NF=""; print}')
    wanted "$name" "$@" || continue
    run_one "$name" "$np" "$sections" "$app" "$(echo $args)" ||
        echo "$name" >>"$scratch/failed"
done
if [ -s "$scratch/failed" ]; then
    echo "corpus: failed: $(tr '\n' ' ' <"$scratch/failed")" >&2
    exit 1
fi
exit 0
