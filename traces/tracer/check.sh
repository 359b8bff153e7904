#!/bin/sh
# check.sh — end-to-end test of the skeintrace tracer (make -C traces/tracer check).
#
# Builds tests/allcalls.c, which calls every wrapped MPI function on 4
# ranks, runs it untraced and traced (MPICH with LD_PRELOAD, MPICH linked,
# Open MPI with LD_PRELOAD when installed), and checks each archive with
# otf2check.py: exact record counts per location (tests/allcalls.expected),
# every message matched FIFO after rank translation, every collective
# complete on every member. Also: overwrite protection, an unwritable
# trace directory, SKEIN_TRACE=0, the committed LAMMPS trace, and
# skein reading messages on an intercommunicator (tests/inter.sh).
# Prints "N passed, N failed" last; exit status 1 on any failure.
set -u
cd "$(dirname "$0")" || exit 1
here=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
skip() { echo "SKIP - $*"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/skeintrace-check.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

CFLAGS_TEST="-std=c11 -O1 -Wall -Wextra -Wno-stringop-overflow -Wno-stringop-overread"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
unset SKEIN_TRACE SKEIN_TRACE_OVERWRITE SKEIN_TRACE_BUFFER_MB SKEIN_TRACE_VERBOSE

# check_trace NAME TRACE STDOUT [EXPECTED]: otf2check's lines count as tests
check_trace() {
    if [ -n "${4:-}" ]; then
        python3 otf2check.py --expect "$4" --polls "$3" "$2" > "$work/check.out" 2>&1
    else
        python3 otf2check.py "$2" > "$work/check.out" 2>&1
    fi
    n_ok=$(grep -c '^ok - ' "$work/check.out")
    n_bad=$(grep -c '^not ok - ' "$work/check.out")
    pass=$((pass + n_ok))
    fail=$((fail + n_bad))
    if [ "$n_bad" -gt 0 ] || [ "$n_ok" -eq 0 ]; then
        [ "$n_ok" -eq 0 ] && fail=$((fail + 1))
        echo "FAIL - $1: $n_bad of $((n_ok + n_bad)) checks failed:"
        grep -v '^ok - ' "$work/check.out" | sed 's/^/    /'
    else
        echo "ok - $1: $n_ok checks ($(grep '^# ' "$work/check.out" | sed 's/^# //'))"
    fi
}

# run_app NAME OUTDIR MPIRUN... : run with a 60 s limit, stdout/stderr kept
run_app() {
    name=$1
    dir=$2
    shift 2
    rm -rf "$dir"
    SKEIN_TRACE_DIR=$dir timeout 60 "$@" > "$work/$name.out" 2> "$work/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$name: exit status $rc"
        sed 's/^/    /' "$work/$name.err" | head -20
        return 1
    fi
    return 0
}

for tool in mpicc.mpich mpirun.mpich otf2-print python3 timeout; do
    command -v $tool > /dev/null || { bad "$tool not found (apt-get install mpich libmpich-dev otf2-tools python3)"; }
done
[ "$fail" -eq 0 ] || { echo "$pass passed, $fail failed"; exit 1; }

mkdir -p tests/build
mpich_app=tests/build/allcalls-mpich
if mpicc.mpich $CFLAGS_TEST -o $mpich_app tests/allcalls.c &&
   mpicc.mpich $CFLAGS_TEST -o tests/build/allcalls-mpich-linked tests/allcalls.c \
       -L"$here" -lskeintrace-mpich -Wl,-rpath,"$here"; then
    ok "build tests/allcalls.c with MPICH (header alone, and linked with the tracer)"
else
    bad "build tests/allcalls.c with MPICH"
fi

# 1. untraced: the header's calls are no-ops, nothing is written
if run_app untraced "$work/untraced" mpirun.mpich -n 4 ./$mpich_app; then
    if [ "$(grep -c '^POLL' "$work/untraced.out")" -eq 4 ] && [ ! -e "$work/untraced" ]; then
        ok "untraced run completes and writes nothing"
    else
        bad "untraced run: expected 4 POLL lines and no archive"
    fi
fi

# 2. MPICH, LD_PRELOAD
preload_mpich="env LD_PRELOAD=$here/libskeintrace-mpich.so"
if run_app mpich "$work/mpich" mpirun.mpich -n 4 $preload_mpich ./$mpich_app; then
    check_trace "MPICH, LD_PRELOAD" "$work/mpich/traces.otf2" "$work/mpich.out" tests/allcalls.expected
fi

# 3. MPICH, linked, MPI_Init_thread
sed 's/^REGION:MPI_Init /REGION:MPI_Init_thread /' tests/allcalls.expected > "$work/thread.expected"
if run_app linked "$work/linked" mpirun.mpich -n 4 ./tests/build/allcalls-mpich-linked thread; then
    check_trace "MPICH, linked, MPI_Init_thread" "$work/linked/traces.otf2" "$work/linked.out" "$work/thread.expected"
fi

# 4. an existing archive is kept unless SKEIN_TRACE_OVERWRITE=1
if [ -f "$work/mpich/traces.otf2" ]; then
    before=$(cksum < "$work/mpich/traces.otf2")
    SKEIN_TRACE_DIR=$work/mpich timeout 60 mpirun.mpich -n 4 $preload_mpich ./$mpich_app \
        > "$work/again.out" 2> "$work/again.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q 'already exists' "$work/again.err" &&
       [ "$(cksum < "$work/mpich/traces.otf2")" = "$before" ]; then
        ok "an existing trace is not overwritten; the program still runs"
    else
        bad "existing trace: exit $rc, stderr: $(head -c 300 "$work/again.err")"
    fi
    SKEIN_TRACE_OVERWRITE=1 SKEIN_TRACE_DIR=$work/mpich timeout 60 mpirun.mpich -n 4 $preload_mpich \
        ./$mpich_app > "$work/over.out" 2> "$work/over.err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cksum < "$work/mpich/traces.otf2")" != "$before" ] &&
       otf2-print --silent "$work/mpich/traces.otf2" > /dev/null 2>&1; then
        ok "SKEIN_TRACE_OVERWRITE=1 replaces the trace"
    else
        bad "SKEIN_TRACE_OVERWRITE=1: exit $rc, stderr: $(head -c 300 "$work/over.err")"
    fi
fi

# 5. an unwritable trace directory: one line on stderr, the program finishes
SKEIN_TRACE_DIR=/dev/null/skein timeout 60 mpirun.mpich -n 4 $preload_mpich ./$mpich_app \
    > "$work/nodir.out" 2> "$work/nodir.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^skeintrace:' "$work/nodir.err")" -eq 1 ] &&
   [ "$(grep -c '^POLL' "$work/nodir.out")" -eq 4 ]; then
    ok "unwritable trace directory: one line on stderr, program completes"
else
    bad "unwritable trace directory: exit $rc, stderr: $(head -c 300 "$work/nodir.err")"
fi

# 6. SKEIN_TRACE=0 switches the tracer off
if SKEIN_TRACE=0 run_app off "$work/off" mpirun.mpich -n 4 $preload_mpich ./$mpich_app; then
    if [ ! -e "$work/off" ]; then ok "SKEIN_TRACE=0: nothing written"; else bad "SKEIN_TRACE=0 wrote a trace"; fi
fi

# 7. Open MPI (Debian's default MPI): the other ABI
if [ -f libskeintrace-openmpi.so ] && command -v mpicc.openmpi > /dev/null && command -v mpirun.openmpi > /dev/null; then
    if mpicc.openmpi $CFLAGS_TEST -o tests/build/allcalls-openmpi tests/allcalls.c; then
        ok "build tests/allcalls.c with Open MPI"
        if run_app openmpi "$work/openmpi" mpirun.openmpi --oversubscribe -n 4 \
               env LD_PRELOAD="$here/libskeintrace-openmpi.so" ./tests/build/allcalls-openmpi; then
            check_trace "Open MPI, LD_PRELOAD" "$work/openmpi/traces.otf2" "$work/openmpi.out" tests/allcalls.expected
        fi
        # the MPICH build preloaded into an Open MPI program: one line, clean stop
        SKEIN_TRACE_DIR=$work/wrong timeout 60 mpirun.openmpi --oversubscribe -n 4 \
            env LD_PRELOAD="$here/libskeintrace-mpich.so" ./tests/build/allcalls-openmpi \
            > "$work/wrong.out" 2> "$work/wrong.err"
        rc=$?
        if [ $rc -ne 0 ] && [ $rc -lt 124 ] && [ "$(grep -c '^skeintrace:.*built for MPICH' "$work/wrong.err")" -eq 1 ] &&
           ! grep -q -i 'segmentation\|signal' "$work/wrong.err" && [ ! -e "$work/wrong" ]; then
            ok "tracer for the wrong MPI: one line on stderr, clean stop before MPI_Init"
        else
            bad "tracer for the wrong MPI: exit $rc, stderr: $(head -c 300 "$work/wrong.err")"
        fi
    else
        bad "build tests/allcalls.c with Open MPI"
    fi
else
    skip "Open MPI: libskeintrace-openmpi.so, mpicc.openmpi or mpirun.openmpi missing (apt-get install libopenmpi-dev)"
fi

# 8. every family of calls, C and Fortran, under both MPIs (2 ranks each):
# the archive against the counting layer (tests/mpicount.c, an LD_AUDIT
# library that counts the program's own calls: tests/compare.py), the
# consistency checks, and skein reading it when a skein binary is given
gcc -shared -fPIC -O2 -Wall -Wextra -o tests/build/mpicount.so tests/mpicount.c 2> "$work/mpicount.err" ||
    bad "build tests/mpicount.c: $(head -c 300 "$work/mpicount.err")"
skein=${SKEIN:-}
[ -n "$skein" ] && [ ! -x "$skein" ] && skein=""
[ -z "$skein" ] && skip "skein not built: archives not read with skein (make -C traces check SKEIN=build/skein)"
# family MPI NAME PROGRAM: run, then every check on its archive
family() {
    mpi=$1 name=$2 prog=$3
    dir=$work/fam-$mpi-$name
    mkdir -p "$dir/count"
    if [ "$mpi" = mpich ]; then
        set -- mpirun.mpich -n 2
    else
        set -- mpirun.openmpi --oversubscribe -n 2
    fi
    SKEIN_TRACE_DIR=$dir/trace MPICOUNT_DIR=$dir/count timeout 60 "$@" env LD_AUDIT="$here/tests/build/mpicount.so" \
        LD_PRELOAD="$here/libskeintrace-$mpi.so" "$prog" > "$dir/out" 2> "$dir/err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$dir/err" ]; then
        bad "$mpi $name: exit status $rc, stderr: $(head -c 300 "$dir/err")"
        return
    fi
    if grep -q '^SKIP' "$dir/out"; then
        skip "$mpi $name: $(grep '^SKIP' "$dir/out" | head -1)"
        return
    fi
    python3 tests/compare.py "$dir/count" "$dir/trace/traces.otf2" > "$dir/compare" 2>&1
    python3 otf2check.py "$dir/trace/traces.otf2" > "$dir/check" 2>&1
    n_ok=$(cat "$dir/compare" "$dir/check" | grep -c '^ok - ')
    n_bad=$(cat "$dir/compare" "$dir/check" | grep -c '^not ok - ')
    if [ -n "$skein" ]; then
        if "$skein" info -q "$dir/trace/traces.otf2" > "$dir/info" 2>&1 &&
           "$skein" analyze -q -f json "$dir/trace/traces.otf2" > "$dir/an.json" 2>&1 &&
           python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["verifier"]["passed"] else 1)' \
               "$dir/an.json"; then
            n_ok=$((n_ok + 1))
        else
            n_bad=$((n_bad + 1))
            echo "not ok - skein info/analyze: $(head -c 300 "$dir/info") $(head -c 300 "$dir/an.json")" >> "$dir/check"
        fi
    fi
    # Fortran's MPI_IN_PLACE is an address of the library's own: the
    # program's second Allreduce is in place, so rank 0 sends 1 x 64 bytes.
    # Every Isend of fortran.F90 completes, most in Waitany, Testany,
    # Waitsome and Testsome, whose indices MPICH's mpi_f08 counts from 0
    case $name in fortran-*)
        if otf2-print -L 0 "$dir/trace/traces.otf2" 2> /dev/null | grep 'Operation: ALLREDUCE' | sed -n 2p |
           grep -q 'Sent: 64, Received: 64'; then
            n_ok=$((n_ok + 1))
        else
            n_bad=$((n_bad + 1))
            echo "not ok - MPI_IN_PLACE from Fortran: the second Allreduce is not counted in place" >> "$dir/check"
        fi
        if grep -q '^# .*, 0 Isends never completed$' "$dir/check"; then
            n_ok=$((n_ok + 1))
        else
            n_bad=$((n_bad + 1))
            echo "not ok - every Isend completed: $(grep '^# ' "$dir/check")" >> "$dir/check"
        fi ;;
    esac
    # where rank 0's one-sided operations complete, worked out from rma.c:
    # region, kind and count of its RmaOpComplete records (under Open MPI
    # four requests are freed: two complete at the flush and unlock after
    # their frees, two at frees after the flush and unlock; MPICH waits)
    if [ "$name" = rma ]; then
        if [ "$mpi" = mpich ]; then
            want="MPI_Wait NON_BLOCKING 3,MPI_Waitall NON_BLOCKING 6,"
        else
            want="MPI_Request_free NON_BLOCKING 2,MPI_Wait NON_BLOCKING 1,MPI_Waitall NON_BLOCKING 4,"
        fi
        want="${want}MPI_Win_complete NON_BLOCKING 2,MPI_Win_fence REMOTE 3,"
        if [ "$mpi" = mpich ]; then want="${want}MPI_Win_flush REMOTE 1,"; else want="${want}MPI_Win_flush REMOTE 2,"; fi
        want="${want}MPI_Win_flush_all REMOTE 1,MPI_Win_flush_local NON_BLOCKING 1,MPI_Win_flush_local_all NON_BLOCKING 2,"
        [ "$mpi" = mpich ] || want="${want}MPI_Win_unlock REMOTE 1,"
        got=$(otf2-print -L 0 "$dir/trace/traces.otf2" 2> /dev/null | awk '
            $1 == "ENTER" { match($0, /Region: "[^"]*"/); st[++n] = substr($0, RSTART + 9, RLENGTH - 10) }
            $1 == "LEAVE" { n-- }
            $1 ~ /^RMA_OP_COMPLETE_/ { k = $1; sub(/^RMA_OP_COMPLETE_/, "", k); c[st[n] " " k]++ }
            END { for (x in c) print x, c[x] }' | LC_ALL=C sort | tr '\n' ',')
        if [ "$got" = "$want" ]; then
            n_ok=$((n_ok + 1))
        else
            n_bad=$((n_bad + 1))
            echo "not ok - rank 0's RMA completions by region: got $got, want $want" >> "$dir/check"
        fi
    fi
    pass=$((pass + n_ok))
    fail=$((fail + n_bad))
    if [ "$n_bad" -gt 0 ]; then
        echo "FAIL - $mpi $name: $n_bad of $((n_ok + n_bad)) checks failed:"
        cat "$dir/compare" "$dir/check" | grep -v '^ok - ' | sed 's/^/    /'
    else
        echo "ok - $mpi $name: $n_ok checks ($(grep '^# ' "$dir/compare" | sed 's/^# //'))"
    fi
}
for mpi in mpich openmpi; do
    [ "$mpi" = openmpi ] && [ ! -f libskeintrace-openmpi.so ] && { skip "Open MPI families: no libskeintrace-openmpi.so"; continue; }
    command -v mpicc.$mpi > /dev/null || { skip "$mpi families: mpicc.$mpi missing"; continue; }
    for prog in rma nbc threads; do
        if mpicc.$mpi $CFLAGS_TEST -pthread -o tests/build/$prog-$mpi tests/$prog.c 2> "$work/cc.err"; then
            family $mpi $prog tests/build/$prog-$mpi
        else
            bad "build tests/$prog.c with $mpi: $(head -c 300 "$work/cc.err")"
        fi
    done
    if ! gfortran --version > /dev/null 2>&1 || ! command -v mpif90.$mpi > /dev/null; then
        skip "$mpi Fortran: gfortran or mpif90.$mpi missing (apt-get install gfortran)"
        continue
    fi
    # mpif.h, use mpi, use mpi_f08 (gfortran wants argument mismatches allowed for mpif.h)
    for form in F77 F90 F08; do
        extra=""
        [ $form = F77 ] && extra=-fallow-argument-mismatch
        [ $form = F08 ] && [ $mpi = mpich ] && extra=-DLARGE
        if mpif90.$mpi -cpp -D$form $extra -O1 -o tests/build/fortran-$form-$mpi tests/fortran.F90 \
               2> "$work/fc.err"; then
            family $mpi fortran-$form tests/build/fortran-$form-$mpi
        else
            bad "build tests/fortran.F90 -D$form with $mpi: $(head -c 300 "$work/fc.err")"
        fi
    done
done

# 9. the table covers both libraries (tests/coverage.sh: nm -D of the
# MPI libraries against mpi.def and the tracer), and what is not
# recorded is said (tests/honest.c)
for mpi in mpich openmpi; do
    lib=$mpi
    [ $mpi = openmpi ] && lib=ompi
    [ -f libskeintrace-$mpi.so ] || continue
    prog=tests/build/fortran-F08-$mpi
    [ -x "$prog" ] || prog=tests/build/rma-$mpi
    if [ -x "$prog" ]; then
        sh tests/coverage.sh $lib "$prog" libskeintrace-$mpi.so > "$work/coverage" 2>&1
        pass=$((pass + $(grep -c '^ok - ' "$work/coverage")))
        fail=$((fail + $(grep -c '^not ok - ' "$work/coverage")))
        sed 's/^not ok/FAIL/' "$work/coverage"
    fi
    mpicc.$mpi $CFLAGS_TEST -pthread -o tests/build/honest-$mpi tests/honest.c 2> "$work/cc.err" ||
        { bad "build tests/honest.c with $mpi: $(head -c 300 "$work/cc.err")"; continue; }
    if [ $mpi = mpich ]; then
        set -- mpirun.mpich -n 2
    else
        set -- mpirun.openmpi --oversubscribe -n 2
    fi
    pre="env LD_PRELOAD=$here/libskeintrace-$mpi.so"
    dir=$work/honest-$mpi
    SKEIN_TRACE_DIR=$dir timeout 60 "$@" $pre tests/build/honest-$mpi > "$work/h.out" 2> "$work/h.err"
    rc=$?
    line=$(grep '^skeintrace: MPI calls not recorded in full: ' "$work/h.err")
    if [ $rc -eq 0 ] && [ "$(grep -c '^skeintrace:' "$work/h.err")" -eq 3 ] &&
       [ "$(grep -c '^skeintrace: rank [01]: user region "other thread" from a thread other than MPI_Init.s; such calls are ignored$' "$work/h.err")" -eq 2 ] &&
       echo "$line" | grep -q 'MPI_Comm_rank 2 (from a thread that may not call MPI)' &&
       echo "$line" | grep -q 'MPI_Barrier 2 (a collective on an intercommunicator)' &&
       otf2-print -I "$dir/traces.otf2" | grep -A1 'MPI_COMMUNICATION_COMPLETE' | grep -q 'value *false'; then
        ok "$mpi: calls not recorded are named in one line (and a thread's user region), the archive says MPI_COMMUNICATION_COMPLETE false"
    else
        bad "$mpi honest: exit $rc, stderr: $(head -c 400 "$work/h.err")"
    fi
    dir=$work/abort-$mpi
    SKEIN_TRACE_DIR=$dir timeout 60 "$@" $pre tests/build/honest-$mpi abort > /dev/null 2>&1
    SKEIN_TRACE_DIR=$dir timeout 60 "$@" $pre tests/build/honest-$mpi > "$work/h.out" 2> "$work/h.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^skeintrace: replacing the unfinished trace in ' "$work/h.err" &&
       otf2-print --silent "$dir/traces.otf2" > /dev/null 2>&1; then
        ok "$mpi: after MPI_Abort the next run into the same folder is traced, with one line"
    else
        bad "$mpi after an abort: exit $rc, stderr: $(head -c 400 "$work/h.err")"
    fi
    dir=$work/io-$mpi
    SKEIN_TRACE_DIR=$dir timeout 60 "$@" $pre tests/build/honest-$mpi io "$work/io-$mpi.dat" > "$work/h.out" 2> "$work/h.err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c '^skeintrace:' "$work/h.err")" -eq 2 ] &&
       grep -q '^skeintrace: MPI calls not recorded in full: MPI_File_close 2 (MPI-IO: its region only), .*MPI_Initialized 2 (before MPI_Init)$' "$work/h.err" &&
       grep -q '^skeintrace: MPI calls after MPI_Finalize, not recorded (rank 0): MPI_Finalized 1$' "$work/h.err" &&
       otf2-print -I "$dir/traces.otf2" | grep -A1 'MPI_COMMUNICATION_COMPLETE' | grep -q 'value *true'; then
        ok "$mpi: MPI-IO and calls outside MPI_Init..MPI_Finalize are named; MPI_COMMUNICATION_COMPLETE stays true"
    else
        bad "$mpi MPI-IO: exit $rc, stderr: $(head -c 400 "$work/h.err")"
    fi
    SKEIN_TRACE_DIR=$work/pmpi-$mpi timeout 60 "$@" $pre tests/build/honest-$mpi pmpi > "$work/h.out" 2> "$work/h.err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c '^skeintrace:' "$work/h.err")" -eq 1 ] &&
       grep -q 'MPI_Init never reached the tracer' "$work/h.err"; then
        ok "$mpi: a program whose MPI calls never reach the tracer gets one line at exit"
    else
        bad "$mpi PMPI-only program: exit $rc, stderr: $(head -c 400 "$work/h.err")"
    fi
done

# 10. the committed LAMMPS trace passes the same consistency checks
lammps=../corpus/lammps-melt-4/traces.otf2
if [ -f "$lammps" ]; then
    check_trace "committed LAMMPS trace ($lammps)" "$lammps"
else
    skip "no committed LAMMPS trace at $lammps (make -C traces/tracer lammps)"
fi

# 11. the checker itself on a real Score-P trace, when ../shared is around
scorep=$(cd ../../.. && pwd)/shared/traces/otf2/sstmacro-mpi-coverage-10/traces.otf2
if [ -f "$scorep" ]; then
    check_trace "otf2check.py on Score-P's sstmacro-mpi-coverage-10" "$scorep"
else
    skip "Score-P reference trace not found (../shared is absent)"
fi

# 12. messages on an intercommunicator, read by skein (tests/inter.sh:
# 4 ranks under both MPIs, skein's count against otf2-print's)
if [ -n "$skein" ]; then
    sh tests/inter.sh "$skein" > "$work/inter" 2>&1
    pass=$((pass + $(grep -c '^ok - ' "$work/inter")))
    fail=$((fail + $(grep -c '^FAIL - ' "$work/inter")))
    grep '^ok - \|^FAIL - \|^SKIP - ' "$work/inter" | sed 's/^ok - /ok - intercommunicator: /'
else
    skip "skein not built: tests/inter.sh not run"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
