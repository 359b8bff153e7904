#!/bin/sh
# inter.sh SKEIN — messages on an intercommunicator (tests/inter.c, 4
# ranks) traced under MPICH and Open MPI, read by skein: it counts every
# message otf2-print counts, between the same ranks (otf2-print
# translates a rank on an InterComm itself: an independent count),
# matches them all, warns of nothing, and its analysis blames world rank
# 1, whose computation before each send made rank 2 wait. The tracer's
# one line names the barrier on the intercommunicator it records the
# region of. Needs the tracer built (make -C traces/tracer); part of
# check.sh. Prints ok/FAIL lines and "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
here=$(pwd)
skein=${1:?usage: inter.sh SKEIN}
case $skein in /*) ;; *) skein=$OLDPWD/$skein ;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/skeintrace-inter.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
unset SKEIN_TRACE SKEIN_TRACE_OVERWRITE SKEIN_TRACE_BUFFER_MB SKEIN_TRACE_VERBOSE

# pairs ARCHIVE: "sender receiver count" per pair of world ranks (location
# = world rank in the tracer's archives), from otf2-print's send records
pairs() {
	otf2-print "$1" 2>/dev/null | awk '
		$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
			match($0, /Receiver: [0-9]+ \("[^"]*" <[0-9]+>\)/)
			r = substr($0, RSTART, RLENGTH); sub(/.*</, "", r); sub(/>.*/, "", r)
			n[$2 " " r]++
		}
		END { for (p in n) print p, n[p] }' | sort -n
}

for mpi in mpich openmpi; do
	if [ ! -f "$here/libskeintrace-$mpi.so" ] || ! command -v mpicc.$mpi >/dev/null; then
		if [ $mpi = mpich ]; then
			bad "mpich: libskeintrace-mpich.so or mpicc.mpich missing (make -C traces/tracer)"
		else
			echo "SKIP - openmpi: libskeintrace-openmpi.so or mpicc.openmpi missing"
		fi
		continue
	fi
	if [ $mpi = mpich ]; then
		set -- mpirun.mpich -n 4
	else
		set -- mpirun.openmpi --oversubscribe -n 4
	fi
	prog=$work/inter-$mpi
	dir=$work/$mpi
	if ! mpicc.$mpi -std=c11 -O1 -Wall -Wextra -o "$prog" tests/inter.c 2>"$work/cc.err"; then
		bad "$mpi: build tests/inter.c: $(head -c 300 "$work/cc.err")"
		continue
	fi
	SKEIN_TRACE_DIR=$dir timeout 60 "$@" env LD_PRELOAD="$here/libskeintrace-$mpi.so" "$prog" \
		>"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc -ne 0 ] || [ ! -f "$dir/traces.otf2" ]; then
		bad "$mpi: the traced run: exit $rc, $(head -c 300 "$work/err")"
		continue
	fi
	[ "$(cat "$work/err")" = "skeintrace: MPI calls not recorded in full: MPI_Barrier 4 (a collective on an intercommunicator)" ] &&
		ok "$mpi: the tracer names the barrier on the intercommunicator, nothing else" ||
		bad "$mpi: the tracer's lines: $(head -c 300 "$work/err")"
	a=$dir/traces.otf2
	# the archive holds one InterComm, and all 20 messages are on it
	otf2-print -G "$a" 2>/dev/null | grep -c '^INTER_COMM ' >"$work/n"
	pairs "$a" >"$work/want"
	"$skein" comm --format csv "$a" 2>"$work/comm.err" | sed 1d | cut -d, -f1-3 | tr ',' ' ' | sort -n >"$work/got"
	[ "$(cat "$work/n")" = 1 ] && [ "$(awk '{ n += $3 } END { print n }' "$work/want")" = 20 ] &&
		[ "$(cut -d' ' -f1,2 "$work/want" | tr '\n' ,)" = "0 3,1 2,2 1,3 0," ] &&
		cmp -s "$work/want" "$work/got" &&
		ok "$mpi: skein counts the 20 messages on the intercommunicator between the ranks otf2-print names" ||
		bad "$mpi: messages by pair: otf2-print $(tr '\n' ';' <"$work/want"), skein $(tr '\n' ';' <"$work/got") $(head -c 200 "$work/comm.err")"
	"$skein" info "$a" >"$work/info" 2>&1
	grep -q '^messages *20 (20 matched, 0 sends unmatched, 0 receives unmatched)' "$work/info" &&
		! grep -q '^warning' "$work/info" &&
		ok "$mpi: every message matched, no warning" ||
		bad "$mpi: info: $(grep '^messages\|^warning' "$work/info" | tr '\n' ' ')"
	# the analysis: the first problem is rank 1's computation, and rank
	# 2's late-sender waits are for rank 1 (its partner across the groups)
	if "$skein" analyze --format json "$a" >"$work/an.json" 2>"$work/an.err" &&
		python3 - "$work/an.json" 2>"$work/an.err" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))
assert a["verifier"]["passed"], a["verifier"]
assert not a["warnings"], a["warnings"]
p = a["problems"][0]
assert p["kind"] == "delay" and p["rank"] == 1 and p["operation"] == "(computation)", p
late = [w for w in a["waits"] if w["kind"] == "late-sender" and w["cause_rank"] == 1]
assert len(late) >= 4 and all(w["rank"] == 2 for w in late), late
EOF
	then
		ok "$mpi: the analysis points at rank 1's computation, rank 2 waiting for it"
	else
		bad "$mpi: analysis: $(tail -c 300 "$work/an.err")"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
