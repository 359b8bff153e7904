#!/bin/sh
# realapps.sh SKEIN [DIR] — skein points at a delay injected into real
# applications: on every archive of traces/realapps (or DIR), made by
# traces/tracer/make-delay-traces.sh with one rank stopped, the rank and
# the stop's length are read from its COMMAND (the injection's log), and
#   * `skein analyze`'s problem 1 is that rank's, taking at least 0.9 of
#     the stop, and is the operation the rank was in while stopped (its
#     enter and exit in --table ops hold the stop); --format json's first
#     problem is the same one, and so is the first row of the explorer's
#     problems list (skein render);
#   * the archive holds the stop as logged: otf2-print shows no event of
#     that rank in it after its first tenth, events before and after;
#   * skein reads the archive as otf2-print does: each record kind and
#     each rank's events counted alike.
skein=$1
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$root/traces/realapps}
case $skein in /*) ;; *) skein=$root/$skein ;; esac
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d /tmp/skein-realapps-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
. "$root/tests/run.sh"
command -v otf2-print >/dev/null || { echo "realapps.sh: needs otf2-print (otf2-tools)"; exit 1; }

# seconds 306.1 ms: the duration in seconds
seconds() { awk -v v="$1" -v u="$2" 'BEGIN { f["s"] = 1; f["ms"] = 1e-3; f["us"] = 1e-6; f["ns"] = 1e-9
	if (!(u in f)) exit 1; printf "%.9f\n", v * f[u] }'; }
# at_least A B: A >= B, both decimal
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

archives=0
for cmd in "$dir"/*/COMMAND; do
	[ -f "$cmd" ] || continue
	archives=$((archives + 1))
	a=$(dirname "$cmd")
	arch=$(basename "$a")
	trace=$a/traces.otf2
	# the injection's log: "stopped: rank R (pid P, NAME) from T0 to T1 ns CLOCK_MONOTONIC: S s"
	set -- $(sed -n 's/^ *stopped: rank \([0-9]*\) (.*) from \([0-9]*\) to \([0-9]*\) ns CLOCK_MONOTONIC: \([0-9.]*\) s$/\1 \2 \3 \4/p' "$cmd")
	if [ $# -ne 4 ]; then
		bad "$arch: COMMAND has no line 'stopped: rank R (...) from T0 to T1 ns CLOCK_MONOTONIC: S s'"
		continue
	fi
	rank=$1 t0=$2 t1=$3 stop=$4
	least=$(awk -v s="$stop" 'BEGIN { printf "%.9f\n", 0.9 * s }')

	# analyze: "  1  rank R's OP (step N) took 306.1 ms, ..." (or created,
	# waited, made others wait: the first duration is the problem's)
	if run "$arch analyze" 0 analyze "$trace"; then
		line=$(awk '/^problems / { on = 1; next } on && $1 == "1" { print; exit }' "$tmp/out")
		# its own operation and step come first, before any it held up
		own=$(printf '%s\n' "$line" | sed -n "s/^ *1  rank \([0-9]*\)'s \((computation)\|[A-Za-z_0-9]*\) (step \([0-9]*\)) \(.*\)/\1|\2|\3|\4/p")
		prank=${own%%|*} rest=${own#*|}
		pop=${rest%%|*} rest=${rest#*|}
		pstep=${rest%%|*} rest=${rest#*|}
		ptime=$(seconds $(printf '%s\n' "$rest" | grep -o '[0-9][0-9.]* [mun]\{0,1\}s\b' | head -n 1) 2>/dev/null)
		[ "$prank" = "$rank" ] && [ -n "$ptime" ] && at_least "$ptime" "$least" && ok ||
			bad "$arch: analyze's problem 1 is rank $rank's and takes at least $least s (0.9 of the stop): '$line'"
	else
		prank= pstep= pop= ptime=
	fi

	# the JSON's problems list says the same
	if run "$arch json" 0 analyze --format json "$trace"; then
		python3 - "$tmp/out" "$rank" "$least" "$pstep" "$pop" >"$tmp/py" 2>&1 <<'PY' && ok ||
import json, sys
d = json.load(open(sys.argv[1]))
rank, least, step, op = int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
p = d["problems"][0]
assert p["rank"] == rank, "rank %s, not %d" % (p["rank"], rank)
assert p["amount_s"] >= least, "%s s, less than %s" % (p["amount_s"], least)
assert str(p["step"]) == step and p["operation"] == op, \
    "step %s %s, where the text's problem 1 is step %s %s" % (p["step"], p["operation"], step, op)
PY
			bad "$arch: --format json's first problem is rank $rank's, at least $least s, the text's: $(cat "$tmp/py")"
	fi

	# problem 1 is the operation the rank was in while it was stopped: its
	# enter and exit (--table ops, seconds from the clock's global offset)
	# hold the stop from the end of its first tenth
	offset=$(otf2-print -G "$trace" 2>/dev/null | sed -n 's/^CLOCK_PROPERTIES .*Global Offset: \([0-9]*\),.*/\1/p')
	if [ -n "$offset" ] && run "$arch ops" 0 analyze --format csv --table ops "$trace"; then
		awk -F, -v r="$prank" -v s="$pstep" -v a="$(((t0 + (t1 - t0) / 10 - offset) / 1000))" -v b="$(((t1 - offset) / 1000))" '
			$1 == r && $2 == s { found = 1; printf "%s..%s s", $8, $9; ok = $8 * 1e6 <= a && b <= $9 * 1e6 }
			END { printf " against the stop %.6f..%.6f s\n", a / 1e6, b / 1e6; exit !(found && ok) }' \
			"$tmp/out" >"$tmp/span" && [ "$prank" = "$rank" ] && ok ||
			bad "$arch: problem 1 (rank $prank step $pstep) is rank $rank's operation holding the stop: $(cat "$tmp/span")"
	else
		bad "$arch: no clock offset or no ops table"
	fi

	# the explorer's problems list: its first row
	if run "$arch render" 0 render --pane lists --size 120x12 "$trace"; then
		row=$(awk '$2 == "1" { print; exit }' "$tmp/out")
		set -- $(printf '%s\n' "$row" | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^r[0-9]+$/) { print substr($i, 2), $(i + 1), $(i + 3), $(i + 4); exit } }')
		[ $# -eq 4 ] && [ "$1" = "$rank" ] && [ "$2" = "$pstep" ] && rtime=$(seconds "$3" "$4") &&
			at_least "$rtime" "$least" && ok ||
			bad "$arch: the explorer's first problem is rank $rank's at step $pstep, at least $least s: '$row'"
	fi

	# otf2-print: the stopped rank recorded nothing while it was stopped
	# (but in the stop's first tenth: the signal takes effect once the
	# kernel next runs it), and the stop lies within its events; each
	# record kind and each location's events as skein counts them
	if otf2-print "$trace" >"$tmp/print" 2>"$tmp/err" && otf2-print -G "$trace" >"$tmp/defs" 2>>"$tmp/err"; then
		awk -v r="$rank" -v t0="$t0" -v t1="$t1" '
			BEGIN { late = t0 + (t1 - t0) / 10 }
			$3 ~ /^[0-9]+$/ && $2 == r { t = $3 + 0
				if (t < t0 + 0) before++; else if (t > t1 + 0) after++; else if (t > late) inside++ }
			END { printf "%d %d %d\n", before, inside, after; exit !(before > 0 && inside == 0 && after > 0) }' \
			"$tmp/print" >"$tmp/gap" && ok ||
			bad "$arch: rank $rank's events before, during (after its first tenth) and after the stop: $(cat "$tmp/gap") (want N 0 N)"
		if run "$arch info" 0 info --format json "$trace"; then
			python3 - "$tmp/out" "$tmp/print" "$tmp/defs" >"$tmp/py" 2>&1 <<'PY' && ok ||
import collections, json, re, sys
d = json.load(open(sys.argv[1]))
kinds, locs = collections.Counter(), collections.Counter()
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 3 and f[1].isdigit() and f[2].isdigit():
        kinds[f[0]] += 1
        locs[int(f[1])] += 1
group = {}
for line in open(sys.argv[3]):
    m = re.match(r'LOCATION +(\d+) .*Group: "MPI Rank (\d+)"', line)
    if m:
        group[int(m.group(1))] = int(m.group(2))
assert sum(kinds.values()) == d["events"], "%d events printed, skein %d" % (sum(kinds.values()), d["events"])
assert dict(kinds) == d["records"], "records %s, skein %s" % (dict(kinds), d["records"])
ranks = collections.Counter()
for loc, n in locs.items():
    ranks[group[loc]] += n
mine = {t["rank"]: t["events"] for t in d["timelines"]}
assert dict(ranks) == mine, "events per rank %s, skein %s" % (dict(ranks), mine)
assert d["messages"]["total"] == kinds["MPI_SEND"] + kinds["MPI_ISEND"], "messages"
PY
				bad "$arch: skein info agrees with otf2-print: $(cat "$tmp/py")"
		fi
	else
		bad "$arch: otf2-print: $(head -c 300 "$tmp/err")"
	fi
done
[ "$archives" -gt 0 ] && ok || bad "no archive with a COMMAND under $dir"

echo "realapps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
