#!/bin/sh
# cli_structure.sh SKEIN SHARED — skein diff, skein export and the
# iterations in analyze, as scripts see them, checked against otf2-print
# and the corpus's expected files rather than against skein itself.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d /tmp/skein-structure-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
. "$root/tests/run.sh"
corpus=$root/traces/corpus

# Communication calls of an archive, from otf2-print alone: an MPI call
# (Enter ... Leave on one location) that carries a message or collective
# record. Isends and collectives are counted once per call.
comm_calls() {
	otf2-print "$1" 2>/dev/null | awk '
		$1 == "ENTER" && $0 ~ /Region: "MPI_/ { open[$2] = 1; marked[$2] = 0; next }
		$1 == "LEAVE" && $0 ~ /Region: "MPI_/ { if (marked[$2]) n++; open[$2] = 0; next }
		$1 ~ /^MPI_(SEND|ISEND|RECV|IRECV|COLLECTIVE_END|ISEND_COMPLETE)$/ { if (open[$2]) marked[$2] = 1 }
		END { print n + 0 }'
}

# ---- export: every corpus trace round-trips ----
for dir in "$corpus"/*/; do
	name=$(basename "$dir")
	out=$tmp/export-$name
	if ! run "export $name" 0 export -q --otf2 "$out" "$dir"; then continue; fi
	[ ! -s "$tmp/out" ] || bad "export $name: wrote to stdout"
	if otf2-print "$out/traces.otf2" >"$tmp/print" 2>"$tmp/print.err" && [ ! -s "$tmp/print.err" ]; then
		ok
	else
		bad "otf2-print $name: $(head -c 200 "$tmp/print.err")"
	fi
	# skein reads its own export and finds the same structure
	"$skein" analyze -f csv -t ops "$dir" >"$tmp/a.csv" 2>/dev/null
	"$skein" analyze -f csv -t ops "$out" >"$tmp/b.csv" 2>/dev/null
	cmp -s "$tmp/a.csv" "$tmp/b.csv" && [ -s "$tmp/a.csv" ] && ok || bad "round trip $name"
	# its definitions count the iteration records it added: no warning
	# where the original has none
	"$skein" info "$dir" | grep '^warning' >"$tmp/wa"
	"$skein" info "$out" | grep '^warning' >"$tmp/wb"
	cmp -s "$tmp/wa" "$tmp/wb" && ok || bad "export $name: warnings $(cat "$tmp/wb")"
	# every communication call of the original carries the attributes
	expect=$(comm_calls "$dir/traces.otf2")
	got=$(grep -c '"skein:partition"' "$tmp/print")
	[ "$expect" -gt 0 ] && [ "$got" = "$expect" ] && ok || bad "attributes $name: $got, want $expect"
	# one iteration record per rank and iteration (every rank of these
	# apps runs every iteration)
	iters=$(sed -n 's/^iterations \([0-9]*\).*/\1/p' "$dir/expected.txt" 2>/dev/null)
	ranks=$(sed -n 's/^ranks \([0-9]*\).*/\1/p' "$dir/expected.txt" 2>/dev/null)
	if [ -n "$iters" ] && [ -n "$ranks" ]; then
		got=$(grep -c '^PARAMETER_UINT64 .*"skein iteration"' "$tmp/print")
		[ "$got" = $((iters * ranks)) ] && ok || bad "iteration records $name: $got, want $((iters * ranks))"
	fi
done
trace=$corpus/stencil-4-delay
run export-twice 1 export -q --otf2 "$tmp/export-stencil-4-delay" "$trace" &&
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'already holds an OTF2 archive' "$tmp/err" && ok ||
	bad "export into an existing archive"
# a part of an archive is refused too, with nothing written (the OTF2
# writer once failed on an existing traces/ folder and left a 72-byte
# anchor that the next try took for an archive), and a whole export
# leaves no stage behind
mkdir -p "$tmp/part/traces"
run export-part 1 export -q --otf2 "$tmp/part" "$trace" &&
	grep -q 'already holds an OTF2 archive (or a part of one: traces)' "$tmp/err" &&
	[ "$(ls -A "$tmp/part")" = traces ] && [ -z "$(ls -A "$tmp/part/traces")" ] &&
	[ -z "$(ls -A "$tmp"/export-*/ | grep skein-export)" ] && ok || bad "export into a part of an archive"
run export-none 2 export "$trace" && grep -q 'exactly one of' "$tmp/err" && ok || bad "export without a kind"
run export-two 2 export --csv --json "$trace" && ok || bad "export --csv --json"
# an export stopped by SIGINT, SIGTERM or SIGHUP removes its stage and
# dies of the signal (it left .skein-export-PID in the directory), and
# the directory it made (it was left, empty): a generated trace of 2
# million events, a second or two of copying, signalled as soon as the
# stage appears
gen=$root/traces/gen/skein-gen
[ -x "$gen" ] || make -s -C "$root/traces/gen" >/dev/null 2>&1
if [ -x "$gen" ] && "$gen" -q -f -o "$tmp/sigbig" -p 4 -e 2M; then
	for sig in INT TERM HUP; do
		out=$tmp/sig-$sig
		case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
		if [ $sig = INT ]; then
			# a script's background job ignores SIGINT (and skein
			# leaves an ignored signal ignored): env gives it back
			if ! env --default-signal=INT true 2>/dev/null; then
				skip=$((skip + 1))
				echo "skipped: export and SIGINT (no env --default-signal)"
				continue
			fi
			env --default-signal=INT "$skein" export -q --otf2 "$out" "$tmp/sigbig" >/dev/null 2>"$tmp/err" &
		else
			"$skein" export -q --otf2 "$out" "$tmp/sigbig" >/dev/null 2>"$tmp/err" &
		fi
		pid=$!
		i=0
		while [ ! -d "$out/.skein-export-$pid" ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i + 1)); done
		kill -$sig $pid
		wait $pid 2>/dev/null    # the shell says "Terminated" else
		got=$?
		if [ $i -lt 1500 ] && [ $got = $want ] && [ ! -e "$out" ] && [ ! -s "$tmp/err" ]; then
			ok
		else
			bad "export stopped by SIG$sig: exit $got (want $want), left: $(ls -dA "$out" "$out"/* 2>/dev/null | tr '\n' ' ')$(head -c 200 "$tmp/err")"
		fi
	done
else
	bad "skein-gen: the trace for the interrupted export"
fi

# ---- export: CSV and JSON, one row per operation ----
ops=$("$skein" analyze -f json "$trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["operations"])')
run export-csv 0 export --csv "$trace" &&
	[ "$(head -1 "$tmp/out")" = "op,rank,kind,region,in,partition,step,local_step,iteration,enter_s,exit_s,duration_s,lateness_s,diff_s,global_s,cause,cause_rank,cause_step,calls" ] &&
	[ "$(($(wc -l <"$tmp/out") - 1))" = "$ops" ] && ok || bad "export --csv rows"
cp "$tmp/out" "$tmp/export.csv"
run export-json 0 export --json "$trace" && python3 - "$tmp/out" "$tmp/export.csv" "$ops" <<'PY' && ok || bad "export --json"
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(d["operations"]) == int(sys.argv[3]) == len(rows)
assert d["columns"] == list(rows[0].keys())
for j, c in zip(d["operations"], rows):
    assert str(j["op"]) == c["op"] and j["cause"] == c["cause"] and str(j["partition"]) == c["partition"]
# the injected delay (rank 1, iteration 1) is the largest differential lateness
top = max(d["operations"], key=lambda o: o["diff_s"])
assert (top["rank"], top["kind"], top["iteration"]) == (1, "compute", 1), top
PY

# ---- diff ----
run diff 0 diff "$corpus/stencil-4" "$trace" && [ ! -s "$tmp/err" ] &&
	grep -q '^structure     9 partitions alike, 0 changed, 0 only before, 0 only after$' "$tmp/out" &&
	grep -q '^largest change: rank 1 step 6 iteration 1 (computation) in exchange: differential lateness +10' "$tmp/out" &&
	grep -q '^  its lateness reached 14 operations on 3 ranks' "$tmp/out" && ok || bad "diff text"
# rank 2's MPI_Waitall of step 13 took 104.7 ms longer, waiting for rank
# 1's delayed message: the largest change's own (the wait's root), not
# a slowdown to say again after it
grep -q 'slowdown' "$tmp/out" && bad "diff: the delay's wait said again as a slowdown" || ok
# kary_tree: rank 2's MPI_Waitall, +100.2 ms, waited for rank 0's send,
# late because rank 0 sat in its own Waitall for rank 1's delay (the
# wait's root is rank 0's send: rank 0 had synchronised with rank 2 in
# that Waitall): the largest change's, not a slowdown. otf2-print has
# rank 0's longest MPI_Waitall cover most of rank 2's.
otf2-print "$corpus/kary_tree-4-delay/traces.otf2" 2>/dev/null | awk '
	$1 == "ENTER" && /Region: "MPI_Waitall"/ { t[$2] = $3 }
	$1 == "LEAVE" && /Region: "MPI_Waitall"/ && $3 - t[$2] > len[$2] + 0 { len[$2] = $3 - t[$2]; en[$2] = t[$2]; ex[$2] = $3 }
	END { lo = en[0] > en[2] ? en[0] : en[2]; hi = ex[0] < ex[2] ? ex[0] : ex[2]; exit !(2 * (hi - lo) >= len[2] && len[2] > 0) }' &&
	ok || bad "kary_tree-4-delay: rank 0's Waitall does not cover rank 2's"
run diff-chain 0 diff "$corpus/kary_tree-4" "$corpus/kary_tree-4-delay" &&
	grep -q '^largest change: rank 1 step 20 iteration 1 (computation) in level: differential lateness +99' "$tmp/out" &&
	! grep -q 'slowdown' "$tmp/out" && ok || bad "diff: a wait for the delay through rank 0's wait said as a slowdown"
# LAMMPS with a rank stopped (its COMMAND says which) in an MPI_Send:
# the largest slowdown, rank 1's send to it, says that rank's send held
# it up, as analyze's problems do
stop=$(sed -n 's/^ *stopped: rank \([0-9]*\) .*/\1/p' "$root/traces/realapps/lammps-melt-4-stop/COMMAND")
run diff-held 0 diff "$corpus/lammps-melt-4" "$root/traces/realapps/lammps-melt-4-stop" &&
	grep -q "^largest slowdown: rank 1 step [0-9]* iteration 1 MPI_Send: .*; rank $stop's MPI_Send (step [0-9]*, took [0-9.]* ms) held it up\$" "$tmp/out" &&
	ok || bad "diff: the stopped rank $stop not named as holding up the slowdown ($(grep slowdown "$tmp/out"))"
run diff-json 0 diff -f json "$corpus/stencil-4" "$trace" && python3 - "$tmp/out" <<'PY' && ok || bad "diff json"
import json, sys
d = json.load(open(sys.argv[1]))
w = d["worse"][0]
assert (w["rank"], w["kind"], w["iteration"]) == (1, "compute", 1), w
assert w["d_diff_s"] > 0.006 and all(x["d_diff_s"] < 0.004 for x in d["worse"][1:])
assert len(d["propagation"]) == 14
assert d["structure"] == {"alike": 9, "changed": 0, "only_before": 0, "only_after": 0}
assert d["largest_slowdown"] is None, d["largest_slowdown"]
PY
run diff-csv 0 diff -f csv -t ops "$corpus/stencil-4" "$trace" &&
	[ "$(($(wc -l <"$tmp/out") - 1))" = "$ops" ] && ok || bad "diff csv rows"
run diff-extra 0 diff "$corpus/stencil-4" "$corpus/stencil-4-extra" &&
	grep -q '^structure     8 partitions alike, 1 changed, 0 only before, 0 only after$' "$tmp/out" &&
	grep -q '^    1 message only in after: rank 0 -> rank 1, tag 14$' "$tmp/out" && ok || bad "diff extra message"
run diff-extra-csv 0 diff -f csv -t changes "$corpus/stencil-4" "$corpus/stencil-4-extra" &&
	[ "$(sed -n 2p "$tmp/out")" = "5,5,after,message,1,0,1,14," ] && ok || bad "diff changes csv"
run diff-ranks 0 diff "$corpus/dissemination-4" "$corpus/dissemination-8-delay" &&
	grep -q '^ranks         4 -> 8: the rank counts differ' "$tmp/out" && ok || bad "diff rank counts"
# a largest change that lasted less than it created says where the rest
# was lost, as analyze's problems do (Meep's headline was an 8-us
# computation, the 302-ms one before it unnamed)
run diff-lost 0 diff "$root/traces/waits/late-sender-4" "$root/traces/waits/late-sender-4-openmpi" &&
	grep -q '^  after, it created [0-9.]* ms, of which [0-9.]* ms was lost in the [0-9]* operations before it, the longest step [0-9]* (computation) (took [0-9.]* ms)$' "$tmp/out" &&
	ok || bad "diff: where the largest change was lost ($(sed -n 7,8p "$tmp/out"))"
run diff-one 2 diff "$trace" && grep -q 'two traces' "$tmp/err" && ok || bad "diff with one trace"
run diff-missing 1 diff "$trace" /nonexistent && [ ! -s "$tmp/out" ] && ok || bad "diff missing trace"
# the explorer on a comparison opens on the change, the metric left at
# its default (auto) or named; another metric named is kept
run diff-render 0 render --size 100x30 --before "$corpus/stencil-4" "$trace" &&
	grep -q '┌ logical · Δ lateness ─' "$tmp/out" && ok || bad "render --before opens on Δ lateness"
run diff-render-auto 0 render --size 100x30 --metric auto --before "$corpus/stencil-4" "$trace" &&
	grep -q '┌ logical · Δ lateness ─' "$tmp/out" && ok || bad "render --metric auto --before"
run diff-render-diff 0 render --size 100x30 --metric diff --before "$corpus/stencil-4" "$trace" &&
	grep -q '┌ logical · differential lateness ─' "$tmp/out" && ok || bad "render --metric diff --before"

# ---- iterations: the apps' own regions, counted by otf2-print ----
for dir in "$corpus"/*/; do
	name=$(basename "$dir")
	expect=$(otf2-print "$dir/traces.otf2" 2>/dev/null | awk '$1 == "ENTER" && $2 == 0 && /Region: "iteration"/ { n++ } END { print n + 0 }')
	[ "$expect" -gt 0 ] || continue
	run "iterations $name" 0 analyze -f csv -t iterations "$dir" &&
		[ "$(($(wc -l <"$tmp/out") - 1))" = "$expect" ] && ok || bad "iterations $name: want $expect"
done
run iterations-off 0 analyze --iterations off "$trace" && grep -q '^iterations    none found' "$tmp/out" &&
	grep -q '^  1     1      6     2     - (computation)' "$tmp/out" && ok || bad "--iterations off"
run iterations-bad 2 analyze --iterations sometimes "$trace" && ok || bad "--iterations bad value"
run iteration-region 0 analyze --iteration-region reduce "$trace" &&
	grep -q "^iterations    2 iterations, at the Enters of region 'reduce'" "$tmp/out" && ok ||
	bad "--iteration-region"
run iteration-region-none 2 analyze --iteration-region nosuch "$trace" &&
	grep -q "matches no region" "$tmp/err" && ok || bad "--iteration-region matching nothing"
printf 'iterations:\n  name: sweep\n' >"$tmp/sweep.yaml"
run iteration-name 0 analyze --config "$tmp/sweep.yaml" "$trace" && grep -q '^iterations    6 sweeps' "$tmp/out" &&
	grep -q '^sweep ' "$tmp/out" && ok || bad "iterations.name"
printf 'iterations:\n  find: often\n' >"$tmp/bad.yaml"
run iteration-find-bad 2 analyze --config "$tmp/bad.yaml" "$trace" &&
	grep -q "bad.yaml:2:9: iterations.find: 'often' is not one of auto, structure or off" "$tmp/err" && ok ||
	bad "iterations.find error"

# ---- generated traces: receives complete in varying order inside a
# Waitall, and neither the period nor the diff may depend on it ----
gen=$root/traces/gen/skein-gen
[ -x "$gen" ] || make -s -C "$root/traces/gen" >/dev/null 2>&1
if [ -x "$gen" ] && "$gen" -q -f -o "$tmp/g1" -p 16 -n 50 -t stencil &&
	"$gen" -q -f -o "$tmp/g2" -p 16 -n 50 -t stencil -d 3000:5:20; then
	run gen-iterations 0 analyze --iterations structure -f csv -t iterations "$tmp/g1" &&
		[ "$(($(wc -l <"$tmp/out") - 1))" = 50 ] && ok || bad "generated stencil: 50 iterations by the structure"
	run gen-diff 0 diff "$tmp/g1" "$tmp/g2" &&
		grep -q ' 0 changed, 0 only before, 0 only after$' "$tmp/out" &&
		grep -q '^largest change: rank 5 step [0-9]* iteration 20 (computation)' "$tmp/out" && ok ||
		bad "generated stencil with a delay: alike structure, the delay first ($(sed -n 3p "$tmp/out"))"
else
	echo "skipped: no skein-gen"
	skip=$((skip + 2))
fi

# ---- the shared real traces whose iteration count is known ----
s=$root/$shared/traces/otf2
if [ -d "$s/casita-2_jacobi_blame_cpu_015" ]; then
	# 1000 Allreduce per rank: the run's 2000 are two ranks' 1000
	expect=$(otf2-print "$s/casita-2_jacobi_blame_cpu_015/traces.otf2" 2>/dev/null |
		awk '$1 == "ENTER" && $2 == 0 && /Region: "MPI_Allreduce"/ { n++ } END { print n + 0 }')
	run casita-iterations 0 analyze -f json "$s/casita-2_jacobi_blame_cpu_015" &&
		[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"]["count"])' "$tmp/out")" = "$expect" ] &&
		[ "$expect" = 1000 ] && ok || bad "casita Jacobi iterations: want $expect"
	expect=$(otf2-print "$s/tracer-stencil4d-32/traces.otf2" 2>/dev/null |
		awk '$1 == "ENTER" && $2 == 5 && /Region: "MPI_Waitall"/ { n++ } END { print n + 0 }')
	run stencil4d-iterations 0 analyze -f json "$s/tracer-stencil4d-32" &&
		[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"]["count"])' "$tmp/out")" = "$expect" ] &&
		[ "$expect" = 2 ] && ok || bad "stencil4d iterations: want $expect"
	for t in "$s"/*/; do
		n=$(basename "$t")
		a=$(ls "$t"*.otf2 | head -1)
		rm -rf "$tmp/sx"
		"$skein" export -q --otf2 "$tmp/sx" "$a" >/dev/null 2>"$tmp/sx.err"
		case $? in
		0) ;;
		1) grep -q 'nothing to analyse' "$tmp/sx.err" && ok || bad "export shared $n: $(cat "$tmp/sx.err")"
		   continue ;;
		*) bad "export shared $n"; continue ;;
		esac
		otf2-print "$tmp/sx/traces.otf2" >/dev/null 2>&1 && ok || bad "otf2-print shared export $n"
	done
else
	echo "skipped: $s is absent"
	skip=$((skip + 3))
fi

echo "structure cli tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
