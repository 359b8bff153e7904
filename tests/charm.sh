#!/bin/sh
# charm.sh SKEIN SHARED — Charm++ Projections runs through the command
# line: every shared run loads, and the records skein counts per PE and
# type (info --format json) are what zcat | awk counts in the logs
# themselves, independently of skein's reader.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
case $shared in /*) ;; *) shared=$root/$shared ;; esac
tmp=$(mktemp -d /tmp/skein-charm-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

runs=$shared/traces/projections
if [ ! -d "$runs" ]; then
	echo "charm.sh: skipped: $runs is absent"
	exit 0
fi

# Projections' record type numbers and the names skein reports them by.
names='1 CREATION
2 BEGIN_PROCESSING
3 END_PROCESSING
4 ENQUEUE
5 DEQUEUE
6 BEGIN_COMPUTATION
7 END_COMPUTATION
10 MESSAGE_RECV
13 USER_EVENT
14 BEGIN_IDLE
15 END_IDLE
16 BEGIN_PACK
17 END_PACK
18 BEGIN_UNPACK
19 END_UNPACK
20 CREATION_BCAST
21 CREATION_MULTICAST
100 USER_EVENT_PAIR'
echo "$names" >"$tmp/names"

for sts in "$runs"/*/*.sts; do
	run=$(basename "$(dirname "$sts")")
	base=${sts%.sts}
	# ground truth: "PE NAME COUNT" lines, from the logs alone
	: >"$tmp/want"
	pe=0
	while :; do
		log=$base.$pe.log.gz
		[ -f "$log" ] || log=$base.$pe.log
		[ -f "$log" ] || break
		zcat -f "$log" | awk -v pe="$pe" -v names="$tmp/names" '
			BEGIN { while ((getline l < names) > 0) { split(l, f, " "); n[f[1]] = f[2] } }
			NR > 1 { c[$1]++ }
			END { for (k in c) print pe, (k in n ? n[k] : "OTHER"), c[k] }' >>"$tmp/want"
		pe=$((pe + 1))
	done
	sort "$tmp/want" -o "$tmp/want"
	if ! "$skein" info --format json "$sts" >"$tmp/info.json" 2>"$tmp/err"; then
		bad "$run: info failed: $(head -c 300 "$tmp/err")"
		continue
	fi
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["pes"]:
    for k, v in p["records"].items():
        print(p["pe"], k, v)' "$tmp/info.json" | sort >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then
		ok
	else
		bad "$run: records per PE differ from zcat | awk:"
		diff "$tmp/want" "$tmp/got" | head -10
	fi
	# the directory opens the run as well as its .sts
	"$skein" info "$(dirname "$sts")" >/dev/null 2>&1 && ok || bad "$run: info on the directory"
done

# analyze on the injected imbalance (jacobi2d_imb: Jacobi(1,2) on PE 1
# busy-waits 20 ms in one compute): text, JSON and CSV agree on the top
# hotspot; the PEs that wait at the next reduction experience the idle.
imb=$runs/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts
if [ -f "$imb" ]; then
	"$skein" analyze "$imb" >"$tmp/a.txt" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && ok || bad "analyze text"
	grep -q '^verifier      passed' "$tmp/a.txt" && ok || bad "analyze text: verifier"
	grep -A10 '^hotspots' "$tmp/a.txt" | grep -E '^  1 Jacobi\(1,2\) +1 .*20\.05 ms.*Jacobi::Jacobi_compute$' >/dev/null \
		&& ok || bad "analyze text: top hotspot"
	"$skein" analyze -f json "$imb" >"$tmp/a.json" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hotspots"][0]
assert d["hotspot_metric"] == "differential duration", d["hotspot_metric"]
assert (h["chare"], h["pe"], h["entry"]) == ("Jacobi(1,2)", 1, "Jacobi::Jacobi_compute"), h
assert 0.019 < h["diff_duration_s"] < 0.021, h
assert d["verifier"]["passed"]
kinds = [p["kind"] for p in d["partitions"] if p["kind"] != "none"]
assert all(a != b for a, b in zip(kinds, kinds[1:])), kinds   # phases alternate
assert kinds.count("runtime") >= 10, kinds
apps = [p for p in d["partitions"] if p["kind"] == "application" and p["operations"] >= 96]
assert len(apps) == 10 and all(p["entry"] == "Jacobi::receiveGhosts" for p in apps), apps
hp = d["partitions"][h["partition"]]
w = hp["pe_work_s"]
assert len(w) == 4 and w[1] > 0.02 and max(w[0], w[2], w[3]) < 0.001, w
assert abs(hp["imbalance_s"] - (w[1] - min(w))) < 1e-6, hp
tl = {t["chare"]: t for t in d["timelines"]}
assert all(tl["Jacobi(%d,%d)" % (p, i)]["pe"] == p for p in range(4) for i in range(4))
' "$tmp/a.json" 2>"$tmp/err" && ok || bad "analyze json: $(tail -1 "$tmp/err")"
	for table in hotspots partitions timelines ops; do
		"$skein" analyze -f csv -t $table "$imb" >"$tmp/a.csv" && python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), sys.argv[2]
h = rows[0]
if sys.argv[2] == "hotspots":
    top = dict(zip(h, rows[1]))
    assert top["chare"] == "Jacobi(1,2)" and top["pe"] == "1", top
if sys.argv[2] == "ops":
    ops = [dict(zip(h, r)) for r in rows[1:]]
    waited = {o["pe"] for o in ops if float(o["idle_experienced_s"]) > 0.015}
    assert waited == {"0", "2", "3"}, waited
' "$tmp/a.csv" $table 2>"$tmp/err" && ok || bad "analyze csv $table: $(tail -1 "$tmp/err")"
	done
	# physical order instead of reordering, from the configuration
	printf 'charm:\n  reorder: false\n' >"$tmp/phys.yaml"
	"$skein" analyze --config "$tmp/phys.yaml" "$imb" >"$tmp/p.txt" && grep -q 'reorder off' "$tmp/p.txt" \
		&& grep -q '^verifier      passed' "$tmp/p.txt" && ok || bad "analyze with charm.reorder false"
	printf 'charm:\n  reorder: maybe\n' >"$tmp/bad.yaml"
	"$skein" analyze --config "$tmp/bad.yaml" "$imb" >"$tmp/out" 2>"$tmp/err"
	[ $? -ne 0 ] && [ ! -s "$tmp/out" ] && grep -q 'bad.yaml:2:12' "$tmp/err" && ok || bad "charm.reorder maybe: $(cat "$tmp/err")"
	"$skein" render --size 100x30 "$imb" >"$tmp/r.txt" && grep -q 'hotspot 1/20: differential duration 20.05 ms' "$tmp/r.txt" \
		&& grep -q 'Jacobi(1,2) step 197' "$tmp/r.txt" && ok || bad "render opens at the top hotspot"
	# a Charm++ run's words: chares and phases, not ranks and partitions,
	# in the status line, the footer and the help, which explains seed
	# 004's metrics instead of lateness
	grep -q 'phase 10/24' "$tmp/r.txt" && ok || bad "a Charm++ run's status line names its phase"
	"$skein" render --size 200x300 --keys '?' "$imb" >"$tmp/h.txt" && tail -n 1 "$tmp/h.txt" | grep -q '\[ \] phase' \
		&& tail -n 1 "$tmp/h.txt" | grep -q 's creates' && ! tail -n 1 "$tmp/h.txt" | grep -q 'C coll' \
		&& tail -n 1 "$tmp/h.txt" | grep -q 'c invoker' && grep -q 'execution that invoked the selected one' "$tmp/h.txt" \
		&& ! grep -q 'C collective\|W wait\|lateness came from' "$tmp/h.txt" \
		&& grep -q 'previous chare (row)' "$tmp/h.txt" && grep -q 'execution of the PE in time' "$tmp/h.txt" \
		&& grep -q 'next phase on this chare' "$tmp/h.txt" && grep -q 'largest differential duration first' "$tmp/h.txt" \
		&& grep -q 'the idle time on its PE an execution waited' "$tmp/h.txt" \
		&& ! grep -v ' rank N\| partition N\|metric NAME' "$tmp/h.txt" | grep -qw 'rank\|partition' \
		&& ok || bad "a Charm++ run's help speaks of chares, phases and seed 004's metrics"
	# :save keeps the charm section and the view; the saved file reopens
	# on the same screen with the same structure (once Esc has put away
	# the message: the reopened one says the trace's quality first, on
	# lines the panes give up while it is shown)
	printf 'charm:\n  reorder: false\n' >"$tmp/in.yaml"
	if "$skein" render --config "$tmp/in.yaml" --size 100x30 --keys 'jj:save '"$tmp"'/saved.yaml<Enter>' "$imb" >/dev/null &&
	   grep -q '^  reorder: false' "$tmp/saved.yaml" &&
	   "$skein" render --config "$tmp/in.yaml" --size 100x30 --keys 'jj<Esc>' "$imb" >"$tmp/a.scr" &&
	   "$skein" render --config "$tmp/saved.yaml" --size 100x30 --keys '<Esc>' "$imb" >"$tmp/b.scr" &&
	   cmp -s "$tmp/a.scr" "$tmp/b.scr"; then ok; else bad ":save on a Charm++ run"; fi
else
	skip=$((skip + 1))
fi

# a run that is not there, and a .sts that is not one: one line, exit 1
"$skein" info "$tmp/none.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "missing .sts"
echo "hello" >"$tmp/x.sts"
"$skein" info "$tmp/x.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q 'x.sts:1:1: not a Projections .sts file' "$tmp/err" && ok || bad "not a .sts"

# export: CSV and JSON rows for a Charm++ run; --otf2 (a copy of the
# trace's own archive) is refused in one line, never a crash
hello=$runs/charm-hello1d_8c_4pe/hello1d.prj.sts
if [ -f "$hello" ]; then
	"$skein" export --csv "$hello" >"$tmp/ex.csv" && [ "$(wc -l <"$tmp/ex.csv")" -gt 50 ] && ok || bad "export --csv"
	"$skein" export --otf2 "$tmp/exp" "$hello" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'no OTF2 archive to copy' "$tmp/err" &&
		[ ! -e "$tmp/exp/traces.otf2" ] && ok || bad "export --otf2 of a Charm++ run: $(cat "$tmp/err")"
	# and from a saved analysis of it, the same line
	"$skein" analyze -q --save "$tmp/h.skein" "$(dirname "$hello")" >/dev/null &&
		"$skein" export --otf2 "$tmp/exp" "$tmp/h.skein" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'hello1d.prj.sts: a Charm++ run has no OTF2 archive' "$tmp/err" &&
		ok || bad "export --otf2 of a saved Charm++ run: $(cat "$tmp/err")"
	# the directory names its .sts, as a trace's directory its anchor
	"$skein" info "$(dirname "$hello")" | grep -q "^trace .*/charm-hello1d_8c_4pe/hello1d.prj.sts$" &&
		ok || bad "info on the run's directory does not name the .sts"
else
	skip=$((skip + 1))
fi

# hotspots rank the application's own work (issue 38): on hello1d the
# runtime's CkLocMgr entries took longer than their peers, and on
# jacobi2d_imb the constructors and an SDAG_RTS; by default none of them
# is ranked, with --startup they are (and said to be)
imb=$runs/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts
if [ -f "$hello" ] && [ -f "$imb" ]; then
	for run in "$hello" "$imb"; do
		"$skein" analyze -f json "$run" >"$tmp/d.json" && "$skein" analyze -f json --startup "$run" >"$tmp/s.json" &&
		python3 -c '
import json, sys
d, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def setup(h):
    cls, _, entry = h["entry"].partition("::")
    return h["entry"].startswith(("Ck", "SDAG::")) or cls == entry or h["chare"].startswith("runtime[")
assert d["hotspots"] and not any(setup(h) for h in d["hotspots"]), [h["entry"] for h in d["hotspots"]]
assert any(setup(h) for h in s["hotspots"][:5]), [h["entry"] for h in s["hotspots"]]
c = d["choices"]["startup"]
assert not c["counted"] and c["left_out_with_diff"] > 0 and c["operations"] >= c["left_out_with_diff"], c
assert s["choices"]["startup"]["counted"]
if "hello1d" in sys.argv[3]:
    assert d["hotspots"][0]["entry"] == "Hello::SayHi", d["hotspots"][0]
    assert s["hotspots"][0]["entry"] == "CkLocMgr::requestLocation", s["hotspots"][0]
else:
    assert d["hotspots"][0]["entry"] == "Jacobi::Jacobi_compute", d["hotspots"][0]
    assert ("Jacobi(1,2)", "Jacobi::Jacobi") in [(h["chare"], h["entry"]) for h in s["hotspots"][:3]]
' "$tmp/d.json" "$tmp/s.json" "$run" 2>"$tmp/err" && ok || bad "hotspots of $(basename "$run"): application work: $(tail -1 "$tmp/err")"
	done
	"$skein" analyze "$hello" | grep -A6 '^hotspots' | grep -q 'constructors and the leading phase' &&
		"$skein" analyze "$hello" | grep -A10 '^hotspots' | grep -q '^  1 Hello(.*Hello::SayHi$' &&
		ok || bad "analyze text: the hotspots say what they leave out"
	# the MPI rules did not run on a Charm++ run, and options that ask for
	# them are named as not applying (JSON, text, and the explorer's stderr)
	"$skein" analyze -f json --no-auto-merge "$imb" >"$tmp/c.json" && python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["choices"]
assert not c["auto_merge"]["ran"] and "Charm++" in c["auto_merge"]["why"], c["auto_merge"]
assert not c["sender_progress"]["ran"], c["sender_progress"]
assert c["not_applied"] == ["--no-auto-merge (structure.auto_merge)"], c["not_applied"]
' "$tmp/c.json" 2>"$tmp/err" && ok || bad "analyze json on a Charm++ run: choices: $(tail -1 "$tmp/err")"
	"$skein" analyze -f json "$imb" | python3 -c '
import json, sys
assert json.load(sys.stdin)["choices"]["not_applied"] == []' && ok || bad "analyze json: nothing given, nothing unapplied"
	"$skein" analyze --global-step-merge "$imb" | grep -q '^note          --global-step-merge (structure.global_step_merge): .*do not apply to a Charm++ run' &&
		ok || bad "analyze text names an option that does not apply"
	"$skein" render --leap-merge "$imb" >/dev/null 2>"$tmp/err" &&
		grep -q '^skein: warning: --leap-merge (structure.leap_merge): .*Charm++' "$tmp/err" &&
		ok || bad "render warns of an option that does not apply: $(cat "$tmp/err")"
else
	skip=$((skip + 1))
fi

# iterations (issue 38): the period of the application phases, or the
# executions of a named entry method; one that marks none says so
j2=$runs/charm-jacobi2d_16c_4pe_10it/jacobi2d.prj.sts
if [ -f "$j2" ]; then
	"$skein" analyze "$j2" >"$tmp/i.txt" &&
		grep -q '^iterations    10 iterations, found as the period of the application phases$' "$tmp/i.txt" &&
		[ "$(grep -cE '^[0-9] +[0-9]+-[0-9]+ +2 ' "$tmp/i.txt")" -eq 10 ] &&
		ok || bad "analyze: jacobi2d's 10 iterations"
	"$skein" analyze --iteration-region 'Jacobi::Jacobi_begin_iteration' "$j2" |
		grep -q "^iterations    10 iterations, at the executions of entry method 'Jacobi::Jacobi_begin_iteration'" &&
		ok || bad "analyze --iteration-region on a Charm++ run"
	"$skein" analyze -f json --iteration-region 'Jacobi::receiveGhosts' "$j2" >"$tmp/n.json" &&
		"$skein" analyze --iteration-region 'Jacobi::receiveGhosts' "$j2" |
		grep -q "^iterations    none: the executions of the entry method named (--iteration-region, iterations.region) do not mark two" &&
		python3 -c '
import json, sys
it = json.load(open(sys.argv[1]))["iterations"]
assert it["count"] == 0 and it["named_marked_none"], it' "$tmp/n.json" &&
		ok || bad "an entry method that marks no iterations says so"
	"$skein" analyze -f csv -t iterations "$j2" | head -1 | grep -q ',diff_duration_s,max_diff_duration_s,idle_experienced_s$' &&
		ok || bad "analyze csv iterations: a Charm++ run's columns"
else
	skip=$((skip + 1))
fi

# two broken logs: the error said is always the lowest PE's, on 1, 2
# and 4 threads and every time. The logs are taken largest first; a
# failure stops only the PEs after it, and a lower PE taken later is
# still read. First PE 1 cut late and PE 3 early (PE 3's error first in
# time), then PE 1 cut early and PE 3 late (PE 3 the larger, taken
# before PE 1 and failing first)
if [ -f "$j2" ]; then
	for cuts in "7000 300" "300 6000"; do
		set -- $cuts
		rm -rf "$tmp/two" "$tmp/two.err" && cp -R "$(dirname "$j2")" "$tmp/two" &&
			chmod -R u+w "$tmp/two"
		head -c "$1" "$(dirname "$j2")/jacobi2d.prj.1.log.gz" >"$tmp/two/jacobi2d.prj.1.log.gz"
		head -c "$2" "$(dirname "$j2")/jacobi2d.prj.3.log.gz" >"$tmp/two/jacobi2d.prj.3.log.gz"
		said=
		for th in 1 2 2 2 2 2 2 4 4 4; do
			SKEIN_THREADS=$th "$skein" analyze -q "$tmp/two/jacobi2d.prj.sts" >/dev/null 2>>"$tmp/two.err"
			[ $? -eq 1 ] || said="$said exit-not-1"
		done
		[ -z "$said" ] && [ "$(wc -l <"$tmp/two.err")" -eq 10 ] &&
			[ "$(grep -c "^skein: $tmp/two/jacobi2d.prj.1.log.gz: unexpected end of file" "$tmp/two.err")" -eq 10 ] &&
			ok || bad "two broken logs (cut at $cuts): want PE 1's error every time, got: $(sort "$tmp/two.err" | uniq -c | head -c 300)$said"
	done
else
	skip=$((skip + 1))
fi

# a failure stops only the PEs after it: PE 1's log long (a stop is
# looked for every 65,536 lines) and cut near its end, PE 3's cut at
# once. PE 3 fails while PE 1 is still read, and PE 1's error is the one
# said (stopping PE 1 too would say PE 3's)
gencharm=$root/traces/gen/skein-gen-charm
[ -x "$gencharm" ] || make -s -C "$root/traces/gen" all >/dev/null || exit 1
if "$gencharm" -q -f -o "$tmp/long" -p 4 -x 4 -y 4 -e 400000 >/dev/null; then
	l1=$tmp/long/jacobi.1.log.gz
	head -c $(($(wc -c <"$l1") - 2000)) "$l1" >"$tmp/l1" && mv "$tmp/l1" "$l1"
	head -c 300 "$tmp/long/jacobi.3.log.gz" >"$tmp/l3" && mv "$tmp/l3" "$tmp/long/jacobi.3.log.gz"
	lines=$(gzip -dc "$l1" 2>/dev/null | wc -l)
	said=
	: >"$tmp/long.err"
	for th in 1 2 2 2 4 4 4; do
		SKEIN_THREADS=$th "$skein" analyze -q "$tmp/long/jacobi.sts" >/dev/null 2>>"$tmp/long.err"
		[ $? -eq 1 ] || said="$said exit-not-1"
	done
	[ "$lines" -gt 65536 ] && [ -z "$said" ] && [ "$(wc -l <"$tmp/long.err")" -eq 7 ] &&
		[ "$(grep -c "^skein: $l1: unexpected end of file" "$tmp/long.err")" -eq 7 ] &&
		ok || bad "a long log failing late: want PE 1's error every time ($lines lines), got: $(sort "$tmp/long.err" | uniq -c | head -c 300)$said"
else
	bad "skein-gen-charm failed"
fi

# skein diff of two Charm++ runs (issue 38): Jacobi 2-D without and with
# the 20 ms busy-wait in Jacobi(1,2); in seed 004's words and metrics,
# the busy-wait first, and the PEs that waited for it
if [ -f "$j2" ] && [ -f "$imb" ]; then
	"$skein" diff "$j2" "$imb" >"$tmp/d.txt" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
		grep -q '^largest change: chare Jacobi(1,2) on PE 1, application phase 10, step 197, iteration 4: Jacobi::Jacobi_compute took +20.05 ms, differential duration +20.05 ms$' "$tmp/d.txt" &&
		grep -q '^worse (differential duration grew; largest first)$' "$tmp/d.txt" &&
		grep -A2 '^worse' "$tmp/d.txt" | grep -q '^  1 Jacobi(1,2) .* Jacobi::Jacobi_compute  *+20.05 ms' &&
		grep -q 'the longest idle experienced in its iteration, by PE: PE 0 .* -> 20.55 ms, PE 1 .*, PE 2 .* -> 20.81 ms, PE 3 .* -> 21.06 ms$' "$tmp/d.txt" &&
		grep -q '^entry methods (total duration and differential duration' "$tmp/d.txt" &&
		! grep -qiw 'rank\|ranks\|partition\|partitions\|lateness\|computation' "$tmp/d.txt" &&
		ok || bad "diff of two Charm++ runs: $(head -c 300 "$tmp/err")"
	"$skein" diff -f json "$j2" "$imb" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["paradigm"] == "charm" and d["ranked_by"] == "differential duration", d["ranked_by"]
w = d["worse"][0]
assert (w["chare"], w["entry"], w["pe"], w["iteration"]) == ("Jacobi(1,2)", "Jacobi::Jacobi_compute", 1, 4), w
assert 0.019 < w["d_diff_duration_s"] < 0.021, w
assert all(abs(x["d_diff_duration_s"]) < 0.001 for x in d["worse"][1:] + d["better"])
assert d["regions"][0]["region"] == "Jacobi::Jacobi_compute" and d["regions"][0]["what"] == "entry"
' && ok || bad "diff -f json of two Charm++ runs"
	# a Charm++ run against an MPI trace: refused (it ranked 9.9 s against
	# 11 ms as if they were two runs of one program, exit 0)
	"$skein" diff "$root/traces/corpus/stencil-4" "$j2" >"$tmp/o" 2>"$tmp/err"
	[ $? -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q 'a Charm++ run and an MPI trace are not two runs of one program' "$tmp/err" && ok ||
		bad "diff of an MPI trace and a Charm++ run: $(cat "$tmp/err")"
	"$skein" diff -f csv -t ops "$j2" "$imb" | head -1 | grep -q ',chare,entry,pe,d_diff_duration_s,d_idle_experienced_s$' &&
		ok || bad "diff -f csv of two Charm++ runs: the Charm++ columns"
	# the other way round, the same execution got better
	"$skein" diff "$imb" "$j2" | grep -A2 '^better' | grep -q '^  1 Jacobi(1,2) .* Jacobi::Jacobi_compute  *-20.05 ms' &&
		ok || bad "diff the other way round"
else
	skip=$((skip + 1))
fi

# a run in which no entry method ran: nothing to analyse, said in one line
mkdir -p "$tmp/empty"
printf 'PROJECTIONS_ID\nVERSION 11.0\nPROCESSORS 1\nCHARE 0 "A" -1\nENTRY CHARE 0 "go()" 0 0\nEND\n' >"$tmp/empty/run.sts"
printf 'PROJECTIONS-RECORD 2\n6 10\n7 20\n' >"$tmp/empty/run.0.log"
"$skein" analyze "$tmp/empty/run.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q 'no entry method ran' "$tmp/err" && ok || bad "a run without executions: $(cat "$tmp/err")"

echo "charm.sh: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
