#!/bin/sh
# make-delay-traces.sh [lammps] [abinit] — regenerate the archives of
# traces/realapps: real applications under libskeintrace-openmpi.so with
# one rank stopped (SIGSTOP, then SIGCONT) in the middle of the run, the
# delay skein must point at (tests/realapps.sh):
#   lammps-melt-4-stop  Debian's LAMMPS, the melt example run for 300
#                       steps on 4 ranks, rank 2 stopped for 0.3 s after
#                       the thermo output of step 100;
#   abinit-si-2-stop    Debian's ABINIT (Fortran), a silicon SCF on 2
#                       ranks, rank 1 stopped for 1 s once the second SCF
#                       step has begun (its computations before the SCF
#                       take 0.3-0.8 s on both ranks on a loaded machine:
#                       they outranked a stop of 0.3 s in each of 7 runs).
# The rank is found by its OMPI_COMM_WORLD_RANK, the stop stamped on
# CLOCK_MONOTONIC (the tracer's clock). The new trace must show the stop
# inside the stopped rank's run — after its MPI_Init, before its
# MPI_Finalize, 10-90% of the way through, no event of that rank in it
# after its first tenth — as the run's one long pause (no rank otherwise
# went more than half the stop between two events: a loaded machine
# makes such pauses), and pass otf2check.py. A run that fails is made
# again, three times at most; then the script stops and leaves the
# committed archive as it was. Beside each archive COMMAND has the exact
# command, the input, the versions, the injection's log and the
# application's output. Needs: lammps, lammps-examples, abinit,
# openmpi-bin, otf2-tools, python3, and the tracer (make -C traces/tracer).
set -eu
cd "$(dirname "$0")"
here=$(pwd)
outroot=$(cd .. && pwd)/realapps
tracer=$here/libskeintrace-openmpi.so
melt=/usr/share/lammps/examples/melt/in.melt
psp=/usr/share/abinit/psp/14si.pspnc

which=${*:-lammps abinit}
for w in $which; do
    case $w in lammps | abinit) ;; *) echo "usage: make-delay-traces.sh [lammps] [abinit]" >&2; exit 2 ;; esac
done
for tool in mpirun.openmpi otf2-print python3 dpkg-query; do
    command -v $tool > /dev/null || { echo "make-delay-traces: $tool not found (apt-get install openmpi-bin otf2-tools python3)" >&2; exit 1; }
done
case " $which " in *" lammps "*)
    command -v lmp > /dev/null || { echo "make-delay-traces: lmp not found (apt-get install lammps)" >&2; exit 1; }
    [ -f "$melt" ] || { echo "make-delay-traces: $melt not found (apt-get install lammps-examples)" >&2; exit 1; } ;;
esac
case " $which " in *" abinit "*)
    command -v abinit > /dev/null || { echo "make-delay-traces: abinit not found (apt-get install abinit)" >&2; exit 1; }
    [ -f "$psp" ] || { echo "make-delay-traces: $psp not found (apt-get install abinit-data)" >&2; exit 1; } ;;
esac
[ -f "$tracer" ] || { echo "make-delay-traces: build the tracer first (make -C traces/tracer)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/delay-traces.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# inject.py NAME RANK SECONDS OUTPUT TRIGGER TIMEOUT: once a line of the
# file OUTPUT matches TRIGGER, stop the process called NAME whose
# environment says it is rank RANK for SECONDS, then print the log.
cat > "$work/inject.py" << 'PY'
import os, re, signal, sys, time
name, rank, seconds, output, trigger, timeout = sys.argv[1:7]
deadline = time.monotonic() + float(timeout)
text, hit = "", None
while hit is None:
    try:
        with open(output, errors="replace") as f:
            text = f.read()
    except OSError:
        text = ""
    hit = re.search(trigger, text, re.M)
    if hit is None:
        if time.monotonic() > deadline:
            sys.exit("inject: no output line matched '%s' in %s s" % (trigger, timeout))
        time.sleep(0.02)
want = ("OMPI_COMM_WORLD_RANK=%s" % rank).encode()
pid = None
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        with open("/proc/%s/comm" % p) as f:
            if f.read().strip() != name:
                continue
        with open("/proc/%s/environ" % p, "rb") as f:
            env = f.read().split(b"\0")
    except OSError:
        continue
    if want in env:
        pid = int(p)
        break
if pid is None:
    sys.exit("inject: no process %s of rank %s" % (name, rank))
t0 = time.monotonic_ns()
os.kill(pid, signal.SIGSTOP)
time.sleep(float(seconds))
os.kill(pid, signal.SIGCONT)
t1 = time.monotonic_ns()
line = text[text.rfind("\n", 0, hit.start()) + 1:].split("\n", 1)[0].strip()
print("trigger: the output line '%s'" % line)
print("stopped: rank %s (pid %d, %s) from %d to %d ns CLOCK_MONOTONIC: %.4f s" %
      (rank, pid, name, t0, t1, (t1 - t0) / 1e9))
PY

# inside.py RANK T0 T1 < otf2-print output (a location per rank, numbered
# as the ranks): the stop [T0, T1] lies within the rank's run, 10-90% of
# the way, with no event of the rank in it after its first tenth (a
# signal takes effect once the kernel next runs the process); and it is
# the run's one long pause: no rank, outside MPI_Init and MPI_Finalize,
# went more than half the stop between two events but across the stop (a
# loaded machine that deschedules a rank makes such pauses, and then the
# stop is no longer plainly what skein must find first).
cat > "$work/inside.py" << 'PY'
import sys
rank, t0, t1 = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
init_end, fin_start, last, outside = {}, {}, {}, set()
inside, late, pause, where_pause = 0, 0, 0, ""
t0late = t0 + (t1 - t0) // 10
for line in sys.stdin:
    f = line.split()
    if len(f) < 3 or not f[1].isdigit() or not f[2].isdigit():
        continue
    loc, t = int(f[1]), int(f[2])
    if loc in last and loc not in outside and not (last[loc] < t1 and t > t0) and t - last[loc] > pause:
        pause, where_pause = t - last[loc], "rank %d before its %s at %d ns" % (loc, f[0], t)
    last[loc] = t
    init = '"MPI_Init"' in line or '"MPI_Init_thread"' in line
    if f[0] == "ENTER" and (init or '"MPI_Finalize"' in line):
        outside.add(loc)
        if not init:
            fin_start[loc] = t
    elif f[0] == "LEAVE" and init:
        outside.discard(loc)
        init_end[loc] = t
    if loc == rank and t0 < t < t1:
        inside += 1
        late = max(late, t - t0)
if rank not in init_end or rank not in fin_start:
    sys.exit("inside: rank %d's MPI_Init or MPI_Finalize is not in the trace" % rank)
a, b = init_end[rank], fin_start[rank]
where = (t0 - a) / (b - a)
print("inside: rank %d's run (end of MPI_Init to start of MPI_Finalize) is %.3f s; the stop began %.0f%% of the way through it; %s"
      % (rank, (b - a) / 1e9, 100 * where, "%d events of the rank fall within it, the last %.3f ms after SIGSTOP" % (inside, late / 1e6)
         if inside else "no event of the rank falls within it"))
print("quiet: the longest other pause between two events of a rank is %.3f s (%s)" % (pause / 1e9, where_pause))
if not (a < t0 and t1 < b and 0.1 <= where <= 0.9 and t0 + late < t0late):
    sys.exit("inside: the stop is not in the middle of rank %d's run" % rank)
if pause > (t1 - t0) / 2:
    sys.exit("inside: another pause of %.3f s, more than half the stop" % (pause / 1e9))
PY

# attempt NAME: one traced run of application NAME in $work/NAME with the
# stop; 0 when the trace shows it where it should be.
attempt() {
    d=$work/$1
    rm -rf "$d" && mkdir -p "$d"
    case $1 in
    lammps)
        # the example as shipped, run for 300 steps with thermo output every 50
        awk '$1 == "run" { print "run\t\t300"; next }
             $1 == "thermo" { print "thermo\t\t50"; next }
             { print }' "$melt" > "$d/in.melt"
        prog=lmp rank=2 stop=0.3 trigger='^ +100 ' args="-in in.melt -log none -nocite" ;;
    abinit)
        cat > "$d/si.abi" << EOF
acell 3*10.18
rprim 0 .5 .5  .5 0 .5  .5 .5 0
ntypat 1
znucl 14
natom 2
typat 1 1
xred 0 0 0  1/4 1/4 1/4
ecut 14
kptopt 1
ngkpt 4 4 4
nshiftk 4
shiftk 0.5 0.5 0.5  0.5 0 0  0 0.5 0  0 0 0.5
nstep 30
toldfe 1e-10
diemac 12
pp_dirpath "$(dirname "$psp")"
pseudos "$(basename "$psp")"
EOF
        prog=abinit rank=1 stop=1 trigger='^ ITER STEP NUMBER +2$' args="si.abi" ;;
    esac
    (
        cd "$d"
        # unbuffered Fortran output: ABINIT's log reaches the file as written
        SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            GFORTRAN_UNBUFFERED_PRECONNECTED=y \
            timeout 300 mpirun.openmpi --oversubscribe -n "$nranks" env LD_PRELOAD="$tracer" \
            $prog $args > run.out 2> run.err < /dev/null &
        job=$!
        s=0
        python3 "$work/inject.py" $prog $rank $stop run.out "$trigger" 120 > inject.log 2> inject.err || s=$?
        wait $job || { echo "make-delay-traces: the $1 run failed:" >&2; tail -n 20 run.err >&2; exit 1; }
        [ $s -eq 0 ] || { cat inject.err >&2; exit 1; }
    ) || return 1
    [ -f "$d/trace/traces.otf2" ] || { echo "make-delay-traces: the $1 run wrote no trace" >&2; return 1; }
    set -- $(sed -n 's/^stopped: rank [0-9]* (.*) from \([0-9]*\) to \([0-9]*\) ns.*/\1 \2/p' "$d/inject.log")
    otf2-print "$d/trace/traces.otf2" | python3 "$work/inside.py" $rank "$1" "$2" >> "$d/inject.log" 2> "$d/inside.err" ||
        { cat "$d/inject.log" "$d/inside.err" >&2; return 1; }
    python3 otf2check.py "$d/trace/traces.otf2" > "$d/check.out" ||
        { grep -v '^ok' "$d/check.out" >&2; echo "make-delay-traces: the trace fails otf2check.py" >&2; return 1; }
}

for app in $which; do
    case $app in
    lammps) name=lammps-melt-4-stop nranks=4 ;;
    abinit) name=abinit-si-2-stop nranks=2 ;;
    esac
    n=1
    until attempt $app; do
        [ $n -lt 3 ] || { echo "make-delay-traces: $app failed $n times; $outroot/$name left unchanged" >&2; exit 1; }
        n=$((n + 1))
        echo "make-delay-traces: $app again (run $n)" >&2
    done
    d=$work/$app out=$outroot/$name
    mkdir -p "$out"
    rm -rf "$out/traces" "$out/traces.otf2" "$out/traces.def"
    cp -R "$d/trace/traces" "$d/trace/traces.otf2" "$d/trace/traces.def" "$out/"
    bytes=$(cat "$out"/traces.otf2 "$out"/traces.def "$out"/traces/* | wc -c)
    {
        case $app in
        lammps)
            echo "# $name — LAMMPS melt example, 4 MPI ranks, rank $rank stopped for $stop s"
            input="in.melt: $melt with 'run 300' and 'thermo 50'" file=in.melt
            version="LAMMPS:   $(head -n 1 "$d/run.out") (Debian lammps $(dpkg-query -W -f='${Version}' lammps))" ;;
        abinit)
            echo "# $name — ABINIT silicon SCF, 2 MPI ranks, rank $rank stopped for $stop s"
            input="si.abi, the pseudopotential $psp" file=si.abi
            version="ABINIT:   $(sed -n 's/^\.Version \([^ ]*\) of ABINIT.*/\1/p' "$d/run.out" | head -n 1) (Debian abinit $(dpkg-query -W -f='${Version}' abinit))" ;;
        esac
        echo
        echo "Regenerate with: traces/tracer/make-delay-traces.sh $app"
        echo
        echo "## Command (run in a directory holding $file; TRACER=traces/tracer, absolute)"
        echo
        echo "    SKEIN_TRACE_DIR=trace OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GFORTRAN_UNBUFFERED_PRECONNECTED=y mpirun.openmpi --oversubscribe -n $nranks env LD_PRELOAD=\$TRACER/libskeintrace-openmpi.so $prog $args"
        echo
        echo "and beside it, once the output matched '$trigger', SIGSTOP to the $prog"
        echo "with OMPI_COMM_WORLD_RANK=$rank, SIGCONT $stop s later."
        echo
        echo "## Injection"
        echo
        sed 's/^/    /' "$d/inject.log"
        echo
        echo "## Versions"
        echo
        echo "    $version"
        echo "    Open MPI: $(mpirun.openmpi --version 2> /dev/null | head -n 1)"
        echo "    OTF2:     $(otf2-print --version 2> /dev/null | head -n 1)"
        echo "    tracer:   skeintrace 1.0 ($(uname -sm))"
        echo
        echo "## Input ($input)"
        echo
        sed 's/^/    /' "$d/$file"
        echo
        echo "## Trace"
        echo
        # counted from otf2-print (otf2check.py's summary counts each Enter twice)
        otf2-print "$out/traces.otf2" | awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ { print $1 }' | sort | uniq -c |
            awk '{ k = k sprintf(" %s %d", $2, $1); all += $1 } END { printf "    %d events:%s\n", all, k }'
        echo "    $(grep -c '^ok' "$d/check.out") checks of otf2check.py passed"
        echo "    $bytes bytes (anchor, definitions and event files)"
        echo
        case $app in
        lammps)
            echo "## Output"
            echo
            sed 's/^/    /' "$d/run.out" ;;
        abinit)
            echo "## Output (the SCF steps and the timing of ABINIT's log)"
            echo
            grep -E '^ ITER STEP|^ ETOT|SCF_istep|^ Proc\.|overall_(cpu|wall)_time' "$d/run.out" | sed 's/^/    /' ;;
        esac
    } > "$out/COMMAND"
    echo "make-delay-traces: wrote $out ($bytes bytes of trace)"
done
