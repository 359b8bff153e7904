#!/bin/sh
# mpi.sh BUILD SHARED — skein-mpi (doc/distributed.md) under MPICH with
# 1 to 4 ranks (oversubscribed: the machine may have fewer cores; one
# count per trace), and under Open MPI when it is installed (a second
# count on every third trace; without it, MPICH on that count too):
#  * on every corpus trace, every one-sided one (traces/onesided) and
#    every shared OTF2 trace, `skein-mpi analyze
#    --format json --save F` prints what `skein analyze --format json`
#    prints, F opens to those bytes, and F is the serial --save's bytes
#    but for the stage timings (tests/savedcmp.py); a trace the serial analysis refuses is refused
#    with its message and status, nothing saved;
#  * other options (--paper --leap-merge, a forced leap merge,
#    --iterations, --clusters: rank 0 clusters from the saved file,
#    --reorder --leap-merge) alike,
#    each on two of three traces the leap merge changes; stepping one
#    partition a round (SKEIN_DIST_BATCH=1) alike;
#  * a location's events missing or truncated on one rank: the serial
#    error, once, from rank 0, exit 1, within seconds (not a hang);
#  * every shared Charm++ Projections run alike (each rank parses its
#    share of the PEs' logs, rank 0 builds and analyses), with the
#    configuration's runtime chare types; a log truncated or missing: the
#    serial error once, exit 1;
#  * rank 0 out of memory for a piece it is told of: said once, exit 1;
#  * usage errors once, exit 2; --help;
#  * dcomm over each MPI (tests/mpi_dcomm.c) on 1 to 5 ranks.
# Skips (passing) when skein-mpi was not built (no MPI compiler).
build=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
skein=$build/skein
tmp=$(mktemp -d /tmp/skein-mpi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 1
pass=0 fail=0
. "$root/tests/run.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# one thread per rank: ranks already share the cores
export SKEIN_THREADS=1

if [ ! -x "$build/skein-mpi" ] || ! command -v mpirun.mpich >/dev/null; then
	echo "mpi.sh: SKIP: $build/skein-mpi or mpirun.mpich missing (apt-get install mpich libmpich-dev)"
	exit 0
fi
impls=mpich
if [ -x "$build/skein-mpi.openmpi" ] && command -v mpirun.openmpi >/dev/null; then
	impls="mpich openmpi"
else
	echo "mpi.sh: Open MPI not installed (or skein-mpi.openmpi not built): MPICH only"
fi
# Every job runs on this machine alone, and its launcher is told so:
# MPICH's default (ssh) launcher and Open MPI without a host list look up
# the machine's own name, which takes 5 s a launch where the name is in
# no /etc/hosts (a container, a minbase chroot); forked and localhost
# jobs start at once everywhere.
MPICH="mpirun.mpich -launcher fork" OPENMPI="mpirun.openmpi -H localhost:4"
# use IMPL: the launcher and binary of an MPI
use() {
	case $1 in
	mpich) mpiexec=$MPICH bin=$build/skein-mpi ;;
	openmpi) mpiexec=$OPENMPI bin=$build/skein-mpi.openmpi ;;
	esac
}

# dcomm (base/dcomm.h) over each MPI: every operation's result on 1 to
# 5 ranks (tests/mpi_dcomm.c), as tests/test_dist.c checks it over threads
for impl in $impls; do
	case $impl in
	mpich) dc="$build/tests/mpi_dcomm" launch=$MPICH ;;
	openmpi) dc="$build/tests/mpi_dcomm.openmpi" launch="mpirun.openmpi -H localhost:5" ;;
	esac
	for n in 1 2 3 4 5; do
		out=$(timeout 60 $launch -n $n "$dc" 2>&1)
		[ $? -eq 0 ] && [ "$out" = "dcomm: ok on $n ranks" ] && ok ||
			bad "dcomm over $impl on $n ranks: $(printf %s "$out" | head -c 300)"
	done
done

traces="$(ls traces/corpus/*/traces.otf2) $(ls traces/onesided/*/traces.otf2)"
if [ -d "$shared/traces/otf2" ]; then
	traces="$traces $(find "$shared/traces/otf2" -name traces.otf2 | sort)"
else
	echo "mpi.sh: $shared/traces/otf2 absent: corpus traces only"
fi

# check NAME TRACE N OPTIONS...: skein-mpi ($mpiexec, $bin) on N ranks
# against the serial run (in $tmp/s.*), as the header says
check() {
	name=$1 t=$2 n=$3
	shift 3
	rm -f "$tmp/m.skein"
	timeout 120 $mpiexec -n "$n" "$bin" analyze -q --format json "$@" --save "$tmp/m.skein" "$t" \
		>"$tmp/m.json" 2>"$tmp/m.err"
	st=$?
	if [ "$sst" -ne 0 ]; then
		sed 's/^skein: /skein-mpi: /' "$tmp/s.err" >"$tmp/s.err2"
		# Open MPI's launcher adds its own report of the exit status
		grep '^skein' "$tmp/m.err" >"$tmp/ours"
		[ "$st" -eq "$sst" ] && [ ! -e "$tmp/m.skein" ] && cmp -s "$tmp/s.err2" "$tmp/ours" && ok ||
			bad "$name: $t refused by skein (exit $sst) but skein-mpi on $n ranks: exit $st ($(head -c 300 "$tmp/m.err"))"
		return
	fi
	if [ "$st" -ne 0 ]; then
		bad "$name: $t on $n ranks: exit $st ($(head -c 300 "$tmp/m.err"))"
		return
	fi
	cmp -s "$tmp/s.json" "$tmp/m.json" && ok || bad "$name: $t on $n ranks: the report differs"
	"$skein" analyze --format json "$@" "$tmp/m.skein" >"$tmp/m2.json" 2>/dev/null
	cmp -s "$tmp/s.json" "$tmp/m2.json" && ok || bad "$name: $t on $n ranks: the saved file's analysis differs"
	python3 "$root/tests/savedcmp.py" "$tmp/s.skein" "$tmp/m.skein" >"$tmp/cmp" && ok ||
		bad "$name: $t on $n ranks: saved file: $(cat "$tmp/cmp")"
}

# serial TRACE OPTIONS...: the serial analysis into $tmp/s.*
serial() {
	t=$1
	shift
	rm -f "$tmp/s.skein"
	"$skein" analyze -q --format json "$@" --save "$tmp/s.skein" "$t" >"$tmp/s.json" 2>"$tmp/s.err"
	sst=$?
}

# Every trace once under MPICH, on 3 or 4 ranks; every third trace under
# both MPIs instead, on two counts taken in turn (MPICH on 3, 4, 1, 2,
# Open MPI on 1, 2, 3, 4): each count is met under each MPI, and every
# trace on 3 or 4 ranks under one of them. Every count everywhere took
# 5.7 min, most of it waiting for the launches; a rank's start-up
# (MPI_Init) is some 0.2 s of CPU on a 2-core VM, an Open MPI launch the
# dearest (1.3 s where MPICH's 0.9 for three ranks): one launch per trace
# under each MPI took 141 s of CPU (2026-12-02). The MPIs differ only in
# what dcomm_mpi's calls do, which the dcomm runs above check on 1 to 5
# ranks under each: make check stays short
i=0
for t in $traces; do
	serial "$t"
	use mpich
	if [ $((i % 3)) -eq 0 ]; then
		j=$((i / 3))
		check mpich "$t" $(((j + 2) % 4 + 1))
		case $impls in
		*openmpi*) use openmpi && check openmpi "$t" $((j % 4 + 1)) ;;
		*) check mpich "$t" $((j % 4 + 1)) ;;
		esac
	else
		check mpich "$t" $((i % 2 + 3))
	fi
	i=$((i + 1))
done

# other structure options: the same code, other stages; each option set
# on two of three traces the leap merge changes, in turn (every pair met)
use mpich
three="traces/corpus/wavefront-9-delay traces/corpus/lammps-melt-4 traces/corpus/tree_allreduce-8-delay"
k=0
for opts in "--paper --leap-merge" "--leap-merge --leap-force --leap-factor 2" \
	"--iterations structure --no-coalesce" "--clusters 4" "--reorder --leap-merge"; do
	for j in 0 1; do
		t=$(echo $three | cut -d' ' -f$(((k + j) % 3 + 1)))
		# shellcheck disable=SC2086
		serial "$t" $opts
		for n in 2 3; do
			# shellcheck disable=SC2086
			check "mpich $opts" "$t" $n $opts
		done
	done
	k=$((k + 1))
done

# stepping in rounds of one partition each (SKEIN_DIST_BATCH=1:
# doc/distributed.md), and the reordering's replay alike
for opts in "" "--reorder --leap-merge"; do
	for t in traces/corpus/wavefront-9-delay traces/corpus/lammps-melt-4; do
		# shellcheck disable=SC2086
		serial "$t" $opts
		export SKEIN_DIST_BATCH=1
		# shellcheck disable=SC2086
		check "mpich, one partition a round, $opts" "$t" 3 $opts
		unset SKEIN_DIST_BATCH
	done
done

# a location's events missing, then truncated, on one rank: the serial
# message once, from rank 0, exit 1 on every rank, within seconds
for impl in $impls; do
	use $impl
	for broken in missing truncated; do
		rm -rf "$tmp/b" && cp -R traces/corpus/stencil-4-delay "$tmp/b"
		case $broken in
		missing) rm "$tmp/b/traces/3.evt" ;;
		truncated) head -c 1000 traces/corpus/stencil-4-delay/traces/2.evt >"$tmp/b/traces/2.evt" ;;
		esac
		"$skein" analyze -q "$tmp/b" >/dev/null 2>"$tmp/s.err"
		sed 's/^skein: /skein-mpi: /' "$tmp/s.err" >"$tmp/s.err2"
		for n in 2 4; do
			# the timeout guards against a hang (124): no rank waits for
			# one that gave up
			timeout 120 $mpiexec -n $n "$bin" analyze -q --save "$tmp/b.skein" "$tmp/b" >"$tmp/out" 2>"$tmp/err"
			st=$?
			[ "$st" -eq 1 ] && ok ||
				bad "$impl, $broken events, $n ranks: exit $st (want 1; 124: a rank hung)"
			grep '^skein' "$tmp/err" >"$tmp/ours"
			cmp -s "$tmp/s.err2" "$tmp/ours" && [ -s "$tmp/ours" ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/b.skein" ] && ok ||
				bad "$impl, $broken events, $n ranks: want the serial message once ($(cat "$tmp/s.err2")), got: $(head -c 400 "$tmp/err")"
		done
	done
done

# Charm++ Projections runs: every rank parses its share of the PEs' logs
# and rank 0 builds the model from them all (doc/distributed.md); each
# shared run on two counts under MPICH (5 ranks: more ranks than PEs,
# one rank reads none) and one under Open MPI, as for OTF2 traces
runs=$shared/traces/projections
if [ -d "$runs" ]; then
	i=0
	for sts in "$runs"/*/*.sts; do
		serial "$sts"
		use mpich
		check "mpich, Charm++" "$sts" $((i % 5 + 1))
		check "mpich, Charm++" "$sts" $(((i + 2) % 5 + 1))
		case $impls in
		*openmpi*) use openmpi && check "openmpi, Charm++" "$sts" $(((i + 1) % 4 + 1)) ;;
		esac
		i=$((i + 1))
	done
	# generated runs of more PEs (skein-gen-charm built here, apart from
	# traces/gen, which another make may be building when this script
	# runs on its own): 8 PEs, and 6 PEs with a delayed chare, plain logs
	cc -std=c11 -O2 -o "$tmp/gencharm" traces/gen/skein-gen-charm.c -lz &&
		"$tmp/gencharm" -q -o "$tmp/g8" -p 8 -x 8 -y 8 -n 12 &&
		"$tmp/gencharm" -q -o "$tmp/g6" -p 6 -x 6 -y 4 -n 10 -d 900:2,1:4 --plain && ok ||
		bad "skein-gen-charm: built and run"
	for g in g8 g6; do
		serial "$tmp/$g/jacobi.sts"
		use mpich
		for n in 3 8; do
			check "mpich, Charm++" "$tmp/$g/jacobi.sts" $n
		done
		case $impls in
		*openmpi*) use openmpi && check "openmpi, Charm++" "$tmp/$g/jacobi.sts" 2 ;;
		esac
	done
	# the configuration's runtime chare types reach every rank's reader
	use mpich
	j2=$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts
	printf 'charm:\n  runtime_chares: ["Ck*", "dummy_*", "SDAG", "Main"]\n' >"$tmp/rt.yaml"
	serial "$j2" --config "$tmp/rt.yaml"
	"$skein" analyze -q --format json "$j2" >"$tmp/default.json"
	cmp -s "$tmp/default.json" "$tmp/s.json" && bad "runtime_chares: Main as the runtime's changes nothing" || ok
	check "mpich, Charm++, runtime_chares" "$j2" 3 --config "$tmp/rt.yaml"
	# a log cut short (PE 3's, the last rank's share) and one missing:
	# the serial message once, from rank 0, exit 1 on every rank
	for impl in $impls; do
		use $impl
		for broken in truncated missing; do
			rm -rf "$tmp/cb" && cp -R "$runs/charm-jacobi2d_16c_4pe_10it" "$tmp/cb"
			case $broken in
			truncated) head -c 3000 "$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.3.log.gz" \
					>"$tmp/cb/jacobi2d.prj.3.log.gz" ;;
			missing) rm "$tmp/cb/jacobi2d.prj.2.log.gz" ;;
			esac
			"$skein" analyze -q "$tmp/cb/jacobi2d.prj.sts" >/dev/null 2>"$tmp/s.err"
			sed 's/^skein: /skein-mpi: /' "$tmp/s.err" >"$tmp/s.err2"
			for n in 2 4; do
				rm -f "$tmp/cb.skein"
				timeout 120 $mpiexec -n $n "$bin" analyze -q --save "$tmp/cb.skein" "$tmp/cb/jacobi2d.prj.sts" \
					>"$tmp/out" 2>"$tmp/err"
				st=$?
				grep '^skein' "$tmp/err" >"$tmp/ours"
				[ "$st" -eq 1 ] && cmp -s "$tmp/s.err2" "$tmp/ours" && [ -s "$tmp/ours" ] &&
					[ ! -s "$tmp/out" ] && [ ! -e "$tmp/cb.skein" ] && ok ||
					bad "$impl, Charm++ log $broken, $n ranks: exit $st, want 1 and $(cat "$tmp/s.err2"), got: $(head -c 400 "$tmp/err")"
			done
		done
	done
else
	echo "mpi.sh: $runs absent: no Charm++ runs"
fi

# rank 0 without memory for a share's piece it is told of (the shim
# tests/mpi_recvfail.c fails that allocation once): its message once,
# exit 1 on every rank, nothing saved, no rank waiting for ever (the
# sender is told not to send the bytes); gathered OTF2 and Charm++
use mpich
if mpicc.mpich -shared -fPIC -o "$tmp/recvfail.so" tests/mpi_recvfail.c -ldl 2>"$tmp/err"; then
	j2=$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts
	for case in "charm 2" "charm 3" "otf2 3"; do
		# shellcheck disable=SC2086
		set -- $case
		t=traces/corpus/stencil-4
		[ "$1" = charm ] && t=$j2
		[ "$1" = charm ] && [ ! -f "$t" ] && continue
		rm -f "$tmp/r.skein"
		SKEIN_MPI_GATHER=1 timeout 120 $MPICH -n 1 env LD_PRELOAD="$tmp/recvfail.so" "$bin" analyze -q \
			--save "$tmp/r.skein" "$t" : -n $(($2 - 1)) "$bin" analyze -q --save "$tmp/r.skein" "$t" \
			>"$tmp/out" 2>"$tmp/err"
		st=$?
		[ "$st" -eq 1 ] && [ "$(grep -c '^skein-mpi: rank 0: out of memory receiving rank 1' "$tmp/err")" -eq 1 ] &&
			[ "$(grep -c '^skein' "$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/r.skein" ] && ok ||
			bad "rank 0 out of memory receiving ($case ranks): exit $st (124: a hang), $(head -c 300 "$tmp/err")"
	done
else
	bad "tests/mpi_recvfail.c does not build: $(head -c 300 "$tmp/err")"
fi

# a Projections run's logs looked up by rank 0 alone (the others take
# them from it): with tests/mpi_statcount.c counting each process's
# stat() calls on the logs, one of three ranks asks the file system
use mpich
if [ -f "$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts" ]; then
	if cc -shared -fPIC -o "$tmp/statcount.so" tests/mpi_statcount.c -ldl 2>"$tmp/err"; then
		rm -f "$tmp/sc.txt" "$tmp/sc.skein"
		timeout 120 $MPICH -n 3 env SKEIN_STATCOUNT_FILE="$tmp/sc.txt" LD_PRELOAD="$tmp/statcount.so" \
			"$bin" analyze -q --save "$tmp/sc.skein" "$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts" \
			>/dev/null 2>"$tmp/err"
		st=$?
		asked=$(awk '$2 > 0' "$tmp/sc.txt" 2>/dev/null | wc -l)
		ranks=$(wc -l <"$tmp/sc.txt" 2>/dev/null)
		[ "$st" -eq 0 ] && [ "$ranks" -eq 3 ] && [ "$asked" -eq 1 ] && ok ||
			bad "Charm++ logs looked up by $asked of ${ranks:-0} ranks (want 1 of 3), exit $st: $(head -c 300 "$tmp/err")"
	else
		bad "tests/mpi_statcount.c does not build: $(head -c 300 "$tmp/err")"
	fi
fi

# usage: said once, exit 2; --help on stdout
use mpich
for args in "info traces/corpus/stencil-4" "analyze traces/corpus/stencil-4" "analyze --bogus --save x traces/corpus/stencil-4"; do
	# shellcheck disable=SC2086
	timeout 60 $MPICH -n 3 "$bin" $args >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 2 ] && [ "$(grep -c "^Try 'skein-mpi --help'" "$tmp/err")" -eq 1 ] && ok ||
		bad "skein-mpi $args: exit $st, want 2 and one message: $(head -c 300 "$tmp/err")"
done
for v in abc 0 -3 64k; do
	SKEIN_DIST_BATCH=$v timeout 60 $MPICH -n 2 "$bin" analyze -q --save "$tmp/v.skein" traces/corpus/stencil-4 \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 2 ] && [ "$(grep -c "^skein-mpi: SKEIN_DIST_BATCH: want a positive count" "$tmp/err")" -eq 1 ] &&
		[ ! -e "$tmp/v.skein" ] && ok || bad "SKEIN_DIST_BATCH=$v: exit $st, want 2 and one message: $(head -c 300 "$tmp/err")"
done
serial traces/corpus/stencil-4
"$skein" analyze -q --save "$tmp/s.skein" traces/corpus/stencil-4 >/dev/null
timeout 60 $MPICH -n 2 "$bin" analyze -q --save "$tmp/again.skein" "$tmp/s.skein" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "already a saved analysis" "$tmp/err" && ok || bad "a saved file as the trace: $(cat "$tmp/err")"
# a .sts whose PE has no log: the serial message, once, exit 1
mkdir -p "$tmp/prj"
printf 'PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 1\nEND\n' >"$tmp/prj/run.sts"
"$skein" analyze -q "$tmp/prj/run.sts" >/dev/null 2>"$tmp/s.err"
sed 's/^skein: /skein-mpi: /' "$tmp/s.err" >"$tmp/s.err2"
timeout 60 $MPICH -n 2 "$bin" analyze -q --save "$tmp/p.skein" "$tmp/prj/run.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && cmp -s "$tmp/s.err2" "$tmp/err" && [ -s "$tmp/err" ] && [ ! -e "$tmp/p.skein" ] && ok ||
	bad "a Charm++ run without its log: want $(cat "$tmp/s.err2"), got: $(cat "$tmp/err")"
timeout 60 $MPICH -n 2 "$bin" --help >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(grep -c '^usage: mpiexec' "$tmp/out")" -eq 1 ] && ok || bad "--help: $(head -c 300 "$tmp/out")"
# progress on rank 0: a line per stage and every rank's peak memory
timeout 60 $MPICH -n 3 "$bin" analyze --save "$tmp/m.skein" traces/corpus/stencil-4 >/dev/null 2>"$tmp/err"
grep -q '^skein-mpi: reading' "$tmp/err" && grep -q '^skein-mpi: metrics' "$tmp/err" &&
	grep -Eq '^skein-mpi: 3 ranks, [0-9.]+ s; peak memory per rank \(MB\):( [0-9.]+){3}$' "$tmp/err" && ok ||
	bad "progress on rank 0: $(cat "$tmp/err")"
# ids defined twice are counted once, as the serial analysis counts them
# (every rank reads the definitions: the count was the ranks' sum)
if [ -x "$build/tools/craft" ]; then
	"$build/tools/craft" dup-defs "$tmp/dupdefs" >/dev/null
	"$skein" analyze -q --format json "$tmp/dupdefs" >"$tmp/dd.s" 2>/dev/null
	timeout 60 $MPICH -n 2 "$bin" analyze -q --format json --save "$tmp/dd.skein" "$tmp/dupdefs" >"$tmp/dd.m" 2>"$tmp/err"
	cmp -s "$tmp/dd.s" "$tmp/dd.m" && grep -q '"definitions of an id defined before (the first kept)": 5' "$tmp/dd.m" && ok ||
		bad "ids defined twice on 2 ranks: $(grep -A1 '"warnings"' "$tmp/dd.m" | tail -1)"
else
	echo "mpi.sh: $build/tools/craft not built: ids defined twice not checked"
fi
# a directory holding an OTF2 archive and a Projections run: refused as
# the serial analysis refuses it (skein-mpi took it for the run)
mkdir "$tmp/both" && cp -r traces/corpus/stencil-4/. "$tmp/both/" && : >"$tmp/both/run.sts"
serial "$tmp/both"
use mpich
check "mpich, OTF2 and Projections in one directory" "$tmp/both" 2
[ "$sst" -eq 1 ] && grep -q 'holds an OTF2 archive and a Projections run' "$tmp/s.err" && ok ||
	bad "OTF2 and Projections in one directory: serial exit $sst ($(cat "$tmp/s.err"))"
# --save onto the trace's own anchor: refused before the work, the
# archive untouched (it was replaced by the saved file, exit 0)
mkdir "$tmp/own" && cp -r traces/corpus/stencil-4/. "$tmp/own/"
timeout 60 $MPICH -n 2 "$bin" analyze -q --save "$tmp/own/traces.otf2" "$tmp/own" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/own/traces.otf2" traces/corpus/stencil-4/traces.otf2 &&
	grep -q "^skein-mpi: $tmp/own/traces.otf2: exists and is not a file skein saved" "$tmp/err" && ok ||
	bad "--save onto the trace: $(cat "$tmp/err")"

echo "mpi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
