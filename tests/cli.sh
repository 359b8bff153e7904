#!/bin/sh
# cli.sh SKEIN SHARED — the command line as scripts see it: exit codes,
# nothing but the result on stdout, one-line errors on stderr, and
# `make install` into a user prefix.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
# screens are UTF-8: read them in a UTF-8 locale whatever the caller has
# (a fresh machine has none, and a byte-wise grep . misses a │)
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d /tmp/skein-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
. "$root/tests/run.sh"
lines() { wc -l <"$1" | tr -d ' '; }

# a trace to read: the project's own corpus first, else a shared one
trace=
for t in "$root"/traces/corpus/*/traces.otf2; do [ -f "$t" ] && { trace=$t; break; }; done
[ -z "$trace" ] && [ -f "$root/$shared/traces/otf2/pipit-pingpong-otf2/traces.otf2" ] &&
	trace=$root/$shared/traces/otf2/pipit-pingpong-otf2/traces.otf2

run help 0 --help && grep -q '^usage: skein' "$tmp/out" && [ ! -s "$tmp/err" ] && ok || bad "--help output"
# every entry's continuation lines belong to it: --metric ends where it
# says its default (a stray 'partition or function' line followed it), and
# no continuation line repeats the one before
awk '/^  -m, --metric M  *colour by/ { on = 1 } on && /^      --color / { print prev; exit } on { prev = $0 }' "$tmp/out" |
	grep -q 'Charm++, else lateness)$' &&
	! awk 'prev != "" && $0 == prev { bad = 1 } { prev = $0 } END { exit !bad }' "$tmp/out" &&
	ok || bad "--help: the --metric entry ends with its default"
run version 0 --version && grep -qx 'skein [0-9][0-9.]*' "$tmp/out" && ok || bad "--version output"
run bad-option 2 --bogus && [ ! -s "$tmp/out" ] && [ -s "$tmp/err" ] && ok || bad "unknown option"
# option errors start with "skein:" as every other error does, not with
# the binary's full path (getopt's own messages did)
grep -qx "skein: unknown option '--bogus'" "$tmp/err" && ok || bad "an unknown option starts with skein: ($(head -1 "$tmp/err"))"
run missing-arg 2 render --keys && grep -qx "skein: an argument is missing after '--keys'" "$tmp/err" &&
	run bad-short 2 -z x && grep -qx "skein: unknown option '-z'" "$tmp/err" &&
	run ambiguous 2 --no x && grep -qx "skein: ambiguous option '--no'" "$tmp/err" &&
	ok || bad "option errors name the option ($(head -1 "$tmp/err"))"
run no-trace 2 && [ ! -s "$tmp/out" ] && grep -q 'no trace given' "$tmp/err" && ok || bad "no trace"
run extra-arg 2 info a b && grep -q "unexpected argument 'b'" "$tmp/err" && ok || bad "extra argument"
run missing 1 info /nonexistent/x.otf2 && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ] &&
	grep -q '^skein: /nonexistent/x.otf2: No such file or directory$' "$tmp/err" && ok || bad "missing trace"
run not-trace 1 info "$root/Makefile" && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ] &&
	grep -q 'not an OTF2 archive' "$tmp/err" && ok || bad "non-trace file"

if [ -n "$trace" ]; then
	run info 0 info "$trace" && [ ! -s "$tmp/err" ] && grep -q '^timelines ' "$tmp/out" &&
		grep -q '^messages ' "$tmp/out" && ok || bad "info text"
	run default-is-info 0 "$trace" && grep -q '^operations ' "$tmp/out" && ok || bad "skein TRACE"
	run bad-format 2 info -f xml "$trace" && [ ! -s "$tmp/out" ] && ok || bad "bad format"
	if run json 0 info --format json "$trace" && [ ! -s "$tmp/err" ]; then
		if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"] == sum(d["records"].values()), "records do not add up to events"
assert len(d["timelines"]) > 0
assert sum(t["events"] for t in d["timelines"]) + sum(l["events"] for l in d["other_locations"]) == d["events"]
assert d["messages"]["matched"] + d["messages"]["unmatched_sends"] + d["messages"]["unmatched_receives"] == d["messages"]["total"]
PY
		then ok; else bad "json content"; fi
	fi
	n=$("$skein" info -f json "$trace" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["timelines"]))')
	run ranks 0 info --ranks "$trace" && [ "$(grep -c '^[0-9]' "$tmp/out")" = "$n" ] && ok || bad "--ranks lines"
	run clusters 0 analyze --clusters 2 --caller-merge -f json "$trace" &&
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["options"]; assert o["clusters"] == 2 and o["caller_merge"]; assert any("clusters" in p for p in d["partitions"])' "$tmp/out" &&
		ok || bad "analyze --clusters --caller-merge"
	run bad-clusters 2 analyze --clusters 21 "$trace" && [ ! -s "$tmp/out" ] && ok || bad "--clusters 21"
	run structure-on-info 2 info --leap-merge "$trace" && ok || bad "structure option on info"
	# options may come after the trace too
	run option-after 0 info "$trace" -f json && python3 -m json.tool "$tmp/out" >/dev/null && ok || bad "option after trace"
else
	echo "skipped: no trace to read (no traces/corpus and no $shared)"
	skip=$((skip + 6))
fi

# configuration: dump round trip, layering, errors with file:line:column
export XDG_CONFIG_HOME="$tmp/xdg"
run config-dump 0 config && cp "$tmp/out" "$tmp/dump1.yaml" &&
	run config-reload 0 config --config "$tmp/dump1.yaml" && cmp -s "$tmp/out" "$tmp/dump1.yaml" &&
	ok || bad "skein config: dump, load, dump is identical"
printf 'structure:\n  leap_facotr: 3\n' >"$tmp/typo.yaml"
run config-typo 2 config --config "$tmp/typo.yaml" && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ] &&
	grep -q "^skein: $tmp/typo.yaml:2:3: .*leap_facotr.*did you mean 'leap_factor'" "$tmp/err" &&
	ok || bad "config typo: one line file:line:column with a suggestion ($(cat "$tmp/err"))"
printf 'structure: [1, 2\n' >"$tmp/broken.yaml"
run config-broken 2 config --config "$tmp/broken.yaml" && grep -q "^skein: $tmp/broken.yaml:[0-9]*:[0-9]*: " "$tmp/err" &&
	ok || bad "malformed YAML: file:line:column"
run config-missing 2 config --config "$tmp/none.yaml" && grep -q "none.yaml" "$tmp/err" && ok || bad "missing config file"
run config-extra 2 config extra && ok || bad "skein config takes no trace"
# key bindings are checked by 'skein config' as the explorer checks them
printf 'keys:\n  quit: [q]\n  fly-away: [x]\n' >"$tmp/badkey.yaml"
run config-bad-action 2 config --config "$tmp/badkey.yaml" && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ] &&
	grep -q "^skein: $tmp/badkey.yaml:3:3: keys: unknown action 'fly-away'" "$tmp/err" &&
	ok || bad "skein config rejects a binding to an unknown action ($(cat "$tmp/err"))"
printf 'keys:\n  quit: [Hyper-q]\n' >"$tmp/badname.yaml"
run config-bad-key 2 config --config "$tmp/badname.yaml" && grep -q "badname.yaml:2:10: keys.quit: unknown key name 'Hyper-q'" "$tmp/err" &&
	ok || bad "skein config rejects an unknown key name ($(cat "$tmp/err"))"
printf 'x fly\n' >"$tmp/bad.keys"
run keymap-bad 2 keys --keymap "$tmp/bad.keys" && grep -q "bad.keys:1:3: unknown action 'fly'" "$tmp/err" &&
	ok || bad "skein keys checks --keymap"
# skein keys: the list the help shows; doc/skein.1 and README.md hold it
run keys 0 keys && grep -q '^  Left, h  *previous step (column)$' "$tmp/out" && grep -q '^  save FILE ' "$tmp/out" &&
	grep -q '^In the topology$' "$tmp/out" && ok || bad "skein keys lists actions, commands and pane keys"
printf 'keys:\n  quit: [Q]\n' >"$tmp/rebind.yaml"
run keys-rebound 0 keys --config "$tmp/rebind.yaml" && grep -q '^  Q  *quit (closes the help first)$' "$tmp/out" &&
	ok || bad "skein keys shows the bindings of the configuration"
run keys-format 2 keys --format json && ok || bad "skein keys --format json is a usage error"
run keys-samples-opt 2 keys --attribute zidx && grep -q "'skein keys' takes only" "$tmp/err" &&
	ok || bad "skein keys refuses a samples option"
run config-samples-opt 2 config --windows 3 && grep -q "'skein config' takes only" "$tmp/err" &&
	ok || bad "skein config refuses a samples option"
sh "$root/mk/keys-doc.sh" "$skein" check && ok || bad "doc/skein.1 and README.md list the keys skein keys prints (make doc-keys)"
# a key script's bad key is named
run bad-key-name 2 render --keys 'jj<Foo>' "$trace" &&
	grep -q "^skein: unknown key name '<Foo>' at offset 2 of the key script" "$tmp/err" &&
	ok || bad "--keys '<Foo>' names the key ($(head -1 "$tmp/err"))"
# render --time: the keys' times and the resizes' apart (5 keys, 2 resizes)
run render-time 0 render -q --time --size 100x30 --keys 'jj<Resize:80x24>l<Resize:100x30>kv' "$trace" &&
	grep -Eq '^skein: render 100x30: first draw [0-9.]+ ms; background [0-9.]+ ms; 5 keys, [0-9.]+ ms mean, [0-9.]+ ms max per key; 2 resizes, [0-9.]+ ms max$' "$tmp/err" &&
	ok || bad "render --time: keys and resizes apart ($(head -1 "$tmp/err"))"
# 'skein render samples DIR' reads as 'skein samples DIR' does
# a size too large says so (it was called malformed)
run render-huge 2 render --size 100000x100000 "$trace" && grep -q "^skein: --size: at most 10000x10000, not '100000x100000'$" "$tmp/err" &&
	ok || bad "render --size too large: $(head -1 "$tmp/err")"
run render-samples 0 render --size 80x24 samples "$root/traces/samples/toy" &&
	head -1 "$tmp/out" | grep -q '^ skein  toy  2400 samples' &&
	ok || bad "skein render samples DIR shows the sample set ($(head -1 "$tmp/err"))"
run unknown-command 2 bogus-cmd x && grep -q "^skein: unknown command 'bogus-cmd'$" "$tmp/err" &&
	ok || bad "skein bogus-cmd x names the unknown command ($(head -1 "$tmp/err"))"
run dump-elsewhere 2 info --dump "$trace" && ok || bad "--dump belongs to skein config"
mkdir -p "$XDG_CONFIG_HOME/skein"
printf 'structure:\n  coalesce: false\n  leap_factor: 2.5\n' >"$XDG_CONFIG_HOME/skein/config.yaml"
printf 'structure:\n  leap_merge: true\n' >"$tmp/leap.yaml"
if [ -n "$trace" ]; then
	# the user's file, then --config files, then flags: each later layer wins
	run layers 0 analyze --config "$tmp/leap.yaml" --leap-factor 7 "$trace" &&
		grep -q '^options       coalesce off, waitall-merge on, leap-merge on (factor 7)' "$tmp/out" &&
		ok || bad "layering: XDG file, --config, flags ($(sed -n 2p "$tmp/out"))"
	printf 'phases:\n  split_at: [no_such_region]\n' >"$tmp/phase.yaml"
	run config-region 2 analyze --config "$tmp/phase.yaml" "$trace" && [ ! -s "$tmp/out" ] &&
		grep -q "^skein: $tmp/phase.yaml:2:14: .*no_such_region" "$tmp/err" &&
		ok || bad "a phase naming no region: file:line:column ($(cat "$tmp/err"))"
	run phase-flag-wins 0 analyze --config "$tmp/phase.yaml" --phase iteration "$trace" && ok ||
		bad "--phase replaces the file's phases"
	# a mistyped --phase is the same usage error as in a file, with a suggestion
	for cmd in analyze render; do
		run phase-typo-$cmd 2 $cmd --phase iteratoin "$trace" && [ ! -s "$tmp/out" ] &&
			[ "$(lines "$tmp/err")" = 1 ] &&
			grep -q "^skein: --phase 'iteratoin' matches no region of the trace (did you mean 'iteration'?)$" "$tmp/err" &&
			ok || bad "$cmd --phase iteratoin: exit 2 with a suggestion ($(cat "$tmp/err"))"
	done
	run phase-second-typo 2 analyze --phase 'iter*' --phase 'exchnge' "$trace" &&
		grep -q "'exchnge' matches no region.*did you mean 'exchange'" "$tmp/err" && ok ||
		bad "every --phase is checked"
fi
rm -rf "$XDG_CONFIG_HOME/skein"
# named phases label partitions; restrict keeps only the chosen ones
st=$root/traces/corpus/stencil-4/traces.otf2
run named-phases 0 analyze --config "$root/config/phases-by-function.yaml" "$st" &&
	[ "$(grep -c ' halo$' "$tmp/out")" = 6 ] && [ "$(grep -c ' reduction$' "$tmp/out")" = 2 ] &&
	ok || bad "named phases label the partitions"
run restrict 0 analyze --config "$root/config/batch-report.yaml" -f json "$st" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["partitions"]; assert len(p) == 6 and all(x["name"] == "iteration" for x in p) and 0 not in [x["index"] for x in p]' "$tmp/out" &&
	ok || bad "restrict keeps only the iterations"
# every automatic choice is reported and can be switched off: the
# butterfly's pairs merge by default (13 partitions), not with --paper (49)
bf=$root/traces/corpus/butterfly-8-delay/traces.otf2
"$skein" analyze "$bf" | grep -q '^auto merge    49 partitions merged into 13: ' &&
	"$skein" analyze --paper "$bf" | grep -q '^partitions    49 ' &&
	"$skein" analyze --paper "$bf" | grep -q 'auto-merge off, sender-progress off, startup on' &&
	"$skein" analyze -f json "$bf" | python3 -c 'import json,sys; c=json.load(sys.stdin)["choices"]; assert c["auto_merge"]["ran"] and c["auto_merge"]["merged"] == 36 and not c["startup"]["counted"] and c["startup"]["operations"] == 8' &&
	"$skein" analyze -f json --no-auto-merge --no-sender-progress --startup "$bf" | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["choices"]; assert not c["auto_merge"]["ran"] and not c["sender_progress"]["ran"] and c["startup"]["counted"] and d["partition_counts"]["final"] == 49' &&
	ok || bad "analyze reports the automatic choices; --paper and each switch turn them off"
ov=$root/traces/corpus/overlap-4-delay/traces.otf2
"$skein" analyze "$ov" | grep -q '^progress      [0-9]* receives completed only inside the call that completed the sender' &&
	"$skein" analyze "$ov" | grep -q '^  1     1 .*(computation) .*created-compute' &&
	"$skein" analyze --no-sender-progress "$ov" | grep -q '^  1     [02] .*MPI_Waitall .*created-in-flight' &&
	ok || bad "sender progress: reported; off, a neighbour's Waitall is the top hotspot"
# start-up is left out and listed (sstmacro's ranks start up to 58.8 ms apart)
sm=$root/$shared/traces/otf2/sstmacro-mpi-coverage-10
if [ -d "$sm" ]; then
	"$skein" analyze "$sm" >"$tmp/out" &&
		grep -q '^start-up      10 operations before each rank.s first communication left out' "$tmp/out" &&
		grep -q '^              rank 9 start-up, lateness 58.85 ms, diff 58.85 ms$' "$tmp/out" &&
		grep -q '^  1     5 .*MPI_Alltoall' "$tmp/out" &&
		"$skein" analyze --startup "$sm" | grep -q '^  1     9      0 .*(computation)' &&
		ok || bad "start-up: left out of the hotspots and listed; --startup counts it"
else
	skip=$((skip + 1))
fi
# one partition numbering everywhere: the explorer's ':partition 3' is
# analyze's partition 3 in text, JSON and CSV (0-based, by first step)
sv=$root/traces/corpus/stencil-4-delay/traces.otf2
"$skein" render "$sv" --pane details --size 60x20 --keys ':partition 3<Enter>' |
	grep -q '^.partition 3/9 · steps 10–13 · 4 ranks' &&
	"$skein" render "$sv" --size 120x30 --keys ':partition 3<Enter>' | head -1 | grep -q ' part 3/9 ' &&
	"$skein" analyze "$sv" | grep -q '^3  *10-13  *4 ' &&
	"$skein" analyze -f json "$sv" | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitions"][3]; assert p["index"] == 3 and p["step_first"] == 10 and p["step_count"] == 4' &&
	"$skein" analyze -f csv -t partitions "$sv" | grep -q '^3,10,4,4,' &&
	"$skein" analyze -f csv -t ops "$sv" | awk -F, '$4 == 3' | grep -q '^0,10,0,3,compute' &&
	ok || bad "partition 3 is the same in the explorer and in analyze text, JSON and CSV"
# a saved view reopens on the identical screen
sv=$root/traces/corpus/stencil-4-delay/traces.otf2
if "$skein" render "$sv" --size 100x24 --keys 'lllljjmm:save '"$tmp"'/view.yaml<Enter>' >/dev/null &&
	"$skein" render "$sv" --size 100x24 --keys 'lllljjmm' >"$tmp/a.txt" &&
	"$skein" render --config "$tmp/view.yaml" "$sv" --size 100x24 >"$tmp/b.txt" &&
	cmp -s "$tmp/a.txt" "$tmp/b.txt" && grep -q 'metric: global' "$tmp/view.yaml"; then
	ok
else
	bad ":save then --config: the same screen"
fi
# a saved analysis is named by its file in the status line, not by its
# directory ("skein  ux  lateness", the directory of a trace's anchor)
mkdir -p "$tmp/ux"
if "$skein" analyze -q --save "$tmp/ux/lateness-study.skein" "$sv" >/dev/null &&
	"$skein" render --size 80x24 "$tmp/ux/lateness-study.skein" | head -1 | grep -q '^ skein  lateness-study.skein  lateness ' &&
	"$skein" render --size 120x40 "$tmp/ux/lateness-study.skein" | head -1 | grep -q '^ skein  ux/lateness-study.skein  lateness ' &&
	"$skein" render --size 80x24 "$sv" | head -1 | grep -q '^ skein  stencil-4-delay  lateness '; then
	ok
else
	bad "a saved analysis is named by its file in the status line"
fi
# :save keeps the hardware of --topology (by its absolute path) and the
# side pane shown: the topology reopens as it was
cp "$root/tests/topo/foreign.xml" "$tmp/hw.xml"
if (cd "$tmp" && "$skein" render --topology hw.xml "$sv" --size 120x40 --keys 't:save '"$tmp"'/topo.yaml<Enter>') >/dev/null &&
	grep -q "^  hwloc: \"*$tmp/hw.xml\"*\$" "$tmp/topo.yaml" && grep -q '^    - panes: \[topology\]' "$tmp/topo.yaml" &&
	"$skein" render --topology "$tmp/hw.xml" "$sv" --size 120x40 --keys 't' >"$tmp/a.txt" &&
	"$skein" render --config "$tmp/topo.yaml" "$sv" --size 120x40 >"$tmp/b.txt" &&
	cmp -s "$tmp/a.txt" "$tmp/b.txt" && grep -q 'topology tree' "$tmp/b.txt"; then
	ok
else
	bad ":save with --topology and the topology pane: the file reopens on the same screen"
fi
# :save ~/FILE is in the home directory, as a shell would have it
mkdir -p "$tmp/home"
HOME=$tmp/home "$skein" render "$sv" --size 100x24 --keys ':save ~/v.yaml<Enter>' | tail -1 | grep -q 'view saved to ~/v.yaml' &&
	grep -q 'metric: lateness' "$tmp/home/v.yaml" && ok || bad ":save ~/v.yaml writes into \$HOME"
HOME=$tmp/home "$skein" render "$sv" --size 100x24 --keys ':save ~no-such-user-xyz/v.yaml<Enter>' | tail -1 |
	grep -q 'no such user' && ok || bad ":save ~nouser/ says why"
# ... also when the window was scrolled (the LAMMPS trace has 3668 steps)
lm=$root/traces/corpus/lammps-melt-4/traces.otf2
# (from rank 0 step 0: 0 g leave the first screen's hotspot)
if "$skein" render "$lm" --size 60x20 --keys '0gLLLLH:save '"$tmp"'/win.yaml<Enter>' >/dev/null &&
	grep -q '^  steps: \[159, 211\]' "$tmp/win.yaml" &&
	"$skein" render "$lm" --size 60x20 --keys '0gLLLLH' >"$tmp/a.txt" &&
	"$skein" render --config "$tmp/win.yaml" "$lm" --size 60x20 >"$tmp/b.txt" &&
	cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
	ok
else
	bad "a scrolled window is saved and restored"
fi
# ... and a clustered view: its zoom, its window of steps, the cluster's
# row (closed) or a rank's own row (its cluster open), and the operation
# the first screen jumped to in a cell of two steps (wavefront-9-delay:
# --config reopened at one step per column, the cluster opened, rank 4's
# MPI_Send of step 51 for its computation of step 50); and the focus
wf=$root/traces/corpus/wavefront-9-delay/traces.otf2
for keys in '--C' 'C:rank 4<Enter>' '<Tab>'; do
	if "$skein" render "$wf" --size 100x30 --keys "$keys"':save '"$tmp"'/cl.yaml<Enter>' >/dev/null &&
		"$skein" render "$wf" --size 100x30 --keys "$keys"'<Esc>' >"$tmp/a.txt" &&
		"$skein" render --config "$tmp/cl.yaml" "$wf" --size 100x30 --keys '<Esc>' >"$tmp/b.txt" &&
		cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
		ok
	else
		bad "a saved view with '$keys' reopens on the same screen"
	fi
done
grep -q '^  focus: overview$' "$tmp/cl.yaml" &&
	"$skein" render --config "$tmp/cl.yaml" "$wf" --size 100x30 --keys ':save '"$tmp"'/cl2.yaml<Enter>' >/dev/null &&
	grep -q '^  focus: overview$' "$tmp/cl2.yaml" && ok || bad ":save records the focused pane, and --config restores it"
# ... and the operation the cursor is on: after a move in a cell of two
# steps the cell's maximum (rank 1's step 9, the status line's step 8:
# it reopened on rank 1's step 8), after a jump the one jumped to
if "$skein" render "$wf" --size 100x30 --keys ':rank 1<Enter>:step 10<Enter>-h:save '"$tmp"'/mv.yaml<Enter>' >/dev/null &&
	grep -q '^    operation: maximum$' "$tmp/mv.yaml" &&
	"$skein" render "$wf" --size 100x30 --keys ':rank 1<Enter>:step 10<Enter>-h<Esc>' >"$tmp/a.txt" &&
	"$skein" render --config "$tmp/mv.yaml" "$wf" --size 100x30 --keys '<Esc>' >"$tmp/b.txt" &&
	cmp -s "$tmp/a.txt" "$tmp/b.txt" && grep -q 'rank 1 · step 9 ' "$tmp/b.txt" &&
	"$skein" render "$wf" --size 100x30 --keys '>-:save '"$tmp"'/mv.yaml<Enter>' >/dev/null &&
	grep -q '^    operation: jumped$' "$tmp/mv.yaml"; then
	ok
else
	bad "a saved view reopens on the operation under the cursor, moved to or jumped to"
fi
"$skein" render "$wf" --size 100x30 --keys '--C:save '"$tmp"'/cl.yaml<Enter>' >/dev/null &&
	grep -q '^  clusters: 4$' "$tmp/cl.yaml" && grep -q '^    steps: 2$' "$tmp/cl.yaml" &&
	"$skein" render --config "$tmp/cl.yaml" "$wf" --size 100x30 | head -1 | grep -q ' c1 r4 step 50 .* 4 cl  cell 2×1' &&
	ok || bad "a saved clustered view reopens at two steps per column on cluster c1's row"
# a fixed colour scale from the configuration
printf 'view:\n  scale: [0, 1ms]\n' >"$tmp/scale.yaml"
"$skein" render --config "$tmp/scale.yaml" "$sv" --size 100x24 --keys '<Esc>' | tail -1 | grep -q '^ lateness 0 .* 1.000 ms ' &&
	"$skein" render "$sv" --size 100x24 --keys '<Esc>' | tail -1 | grep -q '^ lateness 0 .* 100.3 ms ' &&
	ok || bad "view.scale fixes the colour scale"
printf 'view:\n  scale: [2ms, 8ms]\n' >"$tmp/scale2.yaml"
"$skein" render --config "$tmp/scale2.yaml" "$sv" --size 100x24 --keys '<Esc>' | tail -1 | grep -q '^ lateness 2.000 ms .* 8.000 ms ' &&
	ok || bad "view.scale: the legend starts at the fixed minimum"
# named phases reach the details pane: the selected operation's partition's phase
printf 'phases:\n  named:\n    - name: halo\n      region: exchange\n' >"$tmp/halo.yaml"
st4=$root/traces/corpus/stencil-4/traces.otf2
"$skein" render --config "$tmp/halo.yaml" "$st4" --pane details --size 60x20 --keys 'llll' | grep -q '^.phase     halo ' &&
	! "$skein" render "$st4" --pane details --size 60x20 --keys 'llll' | grep -q 'phase  ' &&
	ok || bad "details: the partition's named phase"
# the layout decides which panes appear; the topology section where ranks run
printf 'view:\n  layout:\n    - panes: [grid, timeline]\n' >"$tmp/lay.yaml"
n=$("$skein" render --config "$tmp/lay.yaml" "$sv" --size 110x30 | grep -c '┌')
[ "$n" = 2 ] && ok || bad "a layout of grid and timeline draws two panes (got $n)"
g2=$root/traces/corpus/gen-stencil-8-2nodes-delay/traces.otf2
for pl in 'system-tree|Node node1 / Machine / Package P#0 / Core L#5' \
	'round-robin|Node node1 / Machine / Package P#1 / Core L#6'; do
	printf 'topology:\n  source: synthetic\n  synthetic: "pack:2 core:2 pu:1"\n  placement: %s\n' "${pl%%|*}" >"$tmp/pl.yaml"
	"$skein" render --config "$tmp/pl.yaml" "$g2" --pane topology --size 90x14 | grep -q "hottest: ${pl#*|}" &&
		ok || bad "placement ${pl%%|*}: the delayed rank's node, package and core are hottest"
done
"$skein" render --topology 'pack:2 core:2 pu:1' "$g2" --pane topology --size 90x14 |
	grep -q 'hottest: Node node1 / Machine / Package P#0 / Core L#5' && ok || bad "--topology SYNTHETIC"
# key bindings come from the configuration alone: a key moved elsewhere is free
printf 'keys:\n  quit: [Q]\n' >"$tmp/keys.yaml"
"$skein" render --config "$tmp/keys.yaml" "$sv" --size 100x24 --keys 'q' | tail -1 | grep -q 'q is not bound' &&
	"$skein" render --config "$tmp/keys.yaml" "$sv" --size 100x120 --pane help | grep -q '  Q  *quit' &&
	ok || bad "keys: rebinding quit to Q frees q"
# every key the configuration accepts binds, '#' included (not read as a comment)
printf 'keys:\n  help: ["#"]\n' >"$tmp/hash.yaml"
"$skein" render --config "$tmp/hash.yaml" "$sv" --size 100x30 --keys '#' | grep -q '┌ help ' &&
	ok || bad "keys: '#' binds like any other key"
# the help overlay's title names the keys in force, not the built-in ones
printf 'keys:\n  close: [x]\n  help: [F1]\n  move-down: [n]\n  move-up: [p]\n' >"$tmp/helpkeys.yaml"
"$skein" render --config "$tmp/helpkeys.yaml" "$sv" --size 100x30 --keys '<F1>' | grep -q '┌ help · x or F1 closes · n/p scroll ' &&
	ok || bad "keys: the help title names the configured keys"
# --keymap FILE: bindings on top of the configuration's; unreadable files fail cleanly
printf 'Q quit\n' >"$tmp/extra.keys"
"$skein" render --keymap "$tmp/extra.keys" "$sv" --size 100x120 --pane help | grep -q 'q, Q  *quit' &&
	{ "$skein" render --keymap "$tmp/none.keys" "$sv" 2>"$tmp/err"; [ $? -eq 2 ]; } &&
	grep -q "none.keys: No such file or directory" "$tmp/err" &&
	{ "$skein" render --keymap "$tmp" "$sv" 2>"$tmp/err"; [ $? -eq 2 ]; } && grep -q "is a directory" "$tmp/err" &&
	ok || bad "--keymap: extra bindings, and clear errors for unreadable files"
"$skein" render --config "$tmp/keys.yaml" "$sv" --size 200x12 --keys '<Esc>' | tail -1 | grep -q '? help  Q quit  < > problem' &&
	ok || bad "keys: the footer names the configured keys"
unset XDG_CONFIG_HOME

# a trace without communication nor threads or streams: one line saying
# what it holds, exit 1, from info, analyze and the explorer's loader
# (render); a single rank with collectives is still a trace to analyse
craft_bin=$(dirname "$skein")/tools/craft     # make check-cli builds it
"$craft_bin" no-comm "$tmp/nocomm" 2 >/dev/null 2>&1 || bad "craft no-comm"
for cmd in info analyze render; do
	run "no-comm-$cmd" 1 $cmd "$tmp/nocomm" && [ ! -s "$tmp/out" ] && [ "$(lines "$tmp/err")" = 1 ] &&
		grep -q "^skein: $tmp/nocomm: nothing to analyse: MPI and user regions on 2 locations (cpu-thread 2), no MPI messages or collectives$" "$tmp/err" &&
		ok || bad "$cmd no-comm: one line, exit 1 ($(cat "$tmp/err"))"
done
# a region named in characters two columns wide (CJK, emoji) and with
# combining accents: no line of the screen is wider than the terminal,
# and a pane's right border stays in the last column, counted as
# Python's unicodedata has it (East Asian Wide and Fullwidth two
# columns, combining marks none); the panes counted code points and
# ran past their borders
cat >"$tmp/widths.py" <<'PY'
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ('Mn', 'Me', 'Cf'):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ('W', 'F') else 1
want, bad = int(sys.argv[1]), 0
for i, line in enumerate(sys.stdin.read().split('\n')[:-1]):
    n = sum(w(c) for c in line)
    box = line.startswith(('\u2502', '\u250c', '\u2514'))
    if n > want or (box and not line.endswith(('\u2502', '\u2510', '\u2518'))) or (box and n != want):
        print("line %d: %d columns: %s" % (i + 1, n, line))
        bad = 1
sys.exit(bad)
PY
if "$craft_bin" wide "$tmp/wide" >/dev/null 2>&1; then
	for keys in '' 'p' 'pv' 'i' '/\350\250\210<Enter>' '?' 'T' 'd'; do
		k=$(printf "$keys")
		"$skein" render "$tmp/wide" --size 100x30 --keys "$k" >"$tmp/w.txt" &&
			python3 "$tmp/widths.py" 100 <"$tmp/w.txt" >"$tmp/w.err" && ok ||
			bad "wide characters at '$k' past the screen or a border: $(head -2 "$tmp/w.err")"
	done
	"$skein" render "$tmp/wide" --size 120x30 --keys p | grep -q "$(printf '\350\250\210\347\256\227\343\203\253\343\203\274\343\203\227_')" &&
		ok || bad "the profile names the wide region"
	# the text profile's columns by the same count: every row of its table
	# as wide as its header, the wide name cut to the 32 columns of the
	# name column, ending in '…' (the name was cut and padded by code
	# points: its row 10 columns wider than the others)
	for opt in '' --ranks; do
		"$skein" profile $opt "$tmp/wide" >"$tmp/w.txt" && sed -n '2,$p' "$tmp/w.txt" | python3 -c '
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
lines = sys.stdin.read().split("\n")[:-1]
cols = [sum(w(c) for c in l) for l in lines]
name = [l for l in lines if "\u8a08" in l]
pre = name[0].split("\u2026")[0] + "\u2026" if name else ""
if len(set(cols)) != 1 or not name or sum(w(c) for c in pre) != lines[0].index("region") + 32:
    print(cols, pre)
    sys.exit(1)' >"$tmp/w.err" && ok || bad "profile $opt: the wide name's row out of line: $(head -2 "$tmp/w.err")"
	done
	# the topology pane names the chares on a PU when they fit, by their
	# columns (a Charm++ run's chares named in CJK: at 44 columns
	# 'SDAG計算' and 'A計算(1)' fit, and read '+3', counted by bytes)
	mkdir -p "$tmp/wprj"
	LC_ALL=C awk -v w="$(printf '\350\250\210\347\256\227')" 'BEGIN { f = "run.sts"; n = 0 }
		/^===$/ { f = "run." n ".log"; n++; next }
		f == "run.sts" && /^CHARE / { sub(/" /, w "\" ") }
		{ print > (dir "/" f) }' dir="$tmp/wprj" "$root/tests/fuzz/prj/constructed"
	"$skein" render "$tmp/wprj/run.sts" --topology "pack:1 core:2 pu:1" --pane topology --size 44x12 \
		>"$tmp/w.txt" 2>&1 && grep -q "PU P#0 SDAG$(printf '\350\250\210\347\256\227') " "$tmp/w.txt" &&
		grep -q "PU P#1 A$(printf '\350\250\210\347\256\227')(1) " "$tmp/w.txt" && ok ||
		bad "topology: the chares' wide names on their PUs ($(grep 'PU P#1' "$tmp/w.txt"))"
	# skein diff's tables by the same count: each row of the regions
	# table (the wide archive against itself: 'computation in 計算ル…',
	# cut to 26 columns by bytes, split its last character and fell 8
	# columns short) and of the entry methods' (the wide chares' run:
	# 'SDAG計算::SDAG_RTS', padded by bytes, 2 columns short) as wide as
	# its header
	"$skein" diff "$tmp/wide" "$tmp/wide" >"$tmp/w.txt" &&
		"$skein" diff "$tmp/wprj/run.sts" "$tmp/wprj/run.sts" >"$tmp/w2.txt" && python3 -c '
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
lines = []
for f in sys.argv[1:]:
    lines += open(f, encoding="utf-8", errors="replace").read().split("\n") + [""]
want, bad, wide = None, 0, 0
for l in lines:
    if l.startswith(("region ", "entry method ")):
        want = sum(w(c) for c in l)
    elif not l:
        want = None
    elif want is not None:
        wide += any(w(c) == 2 for c in l)
        if sum(w(c) for c in l) != want:
            print(l)
            bad = 1
sys.exit(bad or wide < 4)' "$tmp/w.txt" "$tmp/w2.txt" >"$tmp/w.err" && ok ||
		bad "diff: a wide name's row out of line: $(head -2 "$tmp/w.err")"
	# the radial legend's rings side by side in columns of one width by
	# their columns (the node 'ノード': the next ring abutted it, 'ns2 rank')
	"$skein" render "$tmp/wide" --pane topology --size 100x8 --keys vv | grep '0 Cluster' | python3 -c '
import sys, unicodedata
def w(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
l = sys.stdin.read()
at = [sum(w(c) for c in l[:l.index(k)]) for k in ("0 Cluster", "1 Node", "2 rank") if k in l]
sys.exit(len(at) != 3 or at[1] - at[0] != at[2] - at[1])' && ok || bad "topology legend: rings out of line beside a wide name"
	# the help's keys in a column of 16 by their columns: keys bound to
	# '計' and 'é' (the descriptions of their lines started 2 and 1
	# columns left of the others'), a trace's help and a sample set's
	printf '\350\250\210 help\n\303\251 quit\n' >"$tmp/wide.keys"
	for input in "$tmp/wide" "$root/$shared/traces/memaxes/llnl-main-lulesh"; do
		[ -e "$input" ] || continue
		"$skein" render "$input" --keymap "$tmp/wide.keys" --size 100x60 --keys '?' |
			grep -E ' (Left, h|\?, F1, .*|q, .*) {2,}[a-z]' | python3 -c '
import sys, unicodedata
def w(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 0 if unicodedata.combining(ch) else 1
at, n = set(), 0
for l in sys.stdin.read().split("\n")[:-1]:
    for word in ("left", "previous step", "this help", "quit"):
        if word in l:
            at.add(sum(w(c) for c in l[:l.index(word)]))
            n += 1
sys.exit(len(at) != 1 or n != 3)' && ok || bad "help of $input: the keys bound to wide characters out of line"
	done
	# skein keys: the keys' column of 22 by columns (it padded by bytes)
	"$skein" keys --keymap "$tmp/wide.keys" | grep -E '^  (Left, h|\?, F1, |q, )' | python3 -c '
import sys, unicodedata
def w(ch):
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 0 if unicodedata.combining(ch) else 1
at, n = set(), 0
for l in sys.stdin.read().split("\n")[:-1]:
    for word in ("this help", "quit"):
        if word in l:
            at.add(sum(w(c) for c in l[:l.index(word)]))
            n += 1
sys.exit(len(at) != 1 or n != 2)' && ok || bad "skein keys: the keys bound to wide characters out of line"
	# analyze's tables: the hotspots' and the critical path's names cut
	# to their columns by columns, the rows in line (a wide name ran its
	# rows 23 columns past the others)
	"$skein" analyze "$tmp/wide" >"$tmp/w.txt" && python3 -c '
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
def cols(l):
    return sum(w(c) for c in l)
text = open(sys.argv[1]).read().split("\n")
hot = text[text.index("hotspots (largest differential lateness first)") + 1:]
hot = [l.rsplit("  ", 1)[0] for l in hot[:hot.index("")] if not l.startswith("(")]
path = [l for l in text if l.startswith("critical path")]
path = text[text.index(path[0]) + 1:]
path = [l for l in path[:next(i for i, l in enumerate(path) if l.startswith("  most blame"))] if "more (" not in l]
named = [l for l in hot + path if "\u8a08" in l]
bad = len(set(map(cols, hot))) != 1 or len(set(map(cols, path))) != 1 or not named or \
    any("\u2026" not in l for l in named)
if bad:
    print(sorted(set(map(cols, hot))), sorted(set(map(cols, path))), len(named))
sys.exit(1 if bad else 0)' "$tmp/w.txt" >"$tmp/w.err" && ok || bad "analyze: wide names out of line: $(head -2 "$tmp/w.err")"
	# and info's table of ranks: names and nodes ("ランク 0", "ノード")
	# padded by columns (they were padded by bytes: 4 and 6 columns short)
	"$skein" info --ranks "$tmp/wide" | sed -n '/^rank  *name  *node/,$p' | python3 -c '
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
lines = sys.stdin.read().split("\n")[:-1]
cols = [sum(w(c) for c in l) for l in lines]
if len(lines) != 5 or len(set(cols)) != 1 or "\u30e9" not in lines[1]:
    print(cols)
    sys.exit(1)' >"$tmp/w.err" && ok || bad "info --ranks: wide names out of line: $(head -2 "$tmp/w.err")"
else
	bad "craft wide"
fi
# names past their columns: each cut to its column by columns (text_fit),
# the column as wide as the rows shown need up to a cap, so that every
# row stays in line (a long name pushed the rest of its row out): info
# --ranks on craft wide-long (ranks of 34 columns, a node of 58), a
# Projections run's chares named past 40 in info --ranks and analyze,
# the iterations' table under a long iterations.name, and samples'
# hardware with a machine named past 48
cat >"$tmp/rows.py" <<'PY'
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
# argv: the least rows (header included), the least rows cut ('…'), and
# "last" to leave out a last column of free text (after two blanks)
lines = [l for l in sys.stdin.read().split("\n") if l]
if sys.argv[3:] == ["last"]:
    lines = [l.rsplit("  ", 1)[0] for l in lines]
cols = [sum(w(c) for c in l) for l in lines]
cut = [l for l in lines if "\u2026" in l]
if len(lines) < int(sys.argv[1]) or len(set(cols)) != 1 or len(cut) < int(sys.argv[2]):
    print(len(lines), "rows of", cols, "columns,", len(cut), "cut")
    sys.exit(1)
PY
if "$craft_bin" wide-long "$tmp/wlong" >/dev/null 2>&1; then
	"$skein" info --ranks "$tmp/wlong" | sed -n '/^rank  *name  *node/,$p' | python3 "$tmp/rows.py" 5 4 >"$tmp/w.err" &&
		ok || bad "info --ranks: long names out of line: $(head -2 "$tmp/w.err")"
	# the radial topology's label of the node on its disc: its 58
	# columns cut whole by columns to the label's 31 bytes, ending in
	# '…', and centred by what is shown (it was cut at byte 31, inside
	# '一', shown as '?', and placed by the whole name's width: 13
	# columns left of the disc's middle)
	"$skein" render "$tmp/wlong" --pane topology --size 120x40 --keys vv | python3 -c '
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
def braille(ch):
    return 0x2800 <= ord(ch) <= 0x28ff
# the columns of the disc: where braille is (the legend on its right
# holds none); the label: the name of the node on a line of the disc,
# cut whole (an ellipsis, no question mark), its middle the middle of it
lines = sys.stdin.read().split("\n")
lo, hi, at = 10 ** 6, -1, None
for l in lines:
    col = 0
    for ch in l:
        if braille(ch):
            lo, hi = min(lo, col), max(hi, col)
        col += w(ch)
    if "\u30ce\u30fc\u30c9" in l and any(braille(c) for c in l[:l.index("\u30ce\u30fc\u30c9")]):
        i = l.index("\u30ce\u30fc\u30c9")
        j = i
        while j < len(l) and not braille(l[j]) and l[j] != " ":
            j += 1
        at = (sum(w(c) for c in l[:i]), l[i:j])
ok = at is not None and at[1].endswith("\u2026") and "?" not in at[1] and \
    abs(at[0] + sum(w(c) for c in at[1]) / 2 - (lo + hi) / 2) <= 1.5
if not ok:
    print("disc", lo, hi, "label", at)
sys.exit(0 if ok else 1)
' >"$tmp/w.err" && ok || bad "topology: the node's label on the disc: $(head -2 "$tmp/w.err")"
else
	bad "craft wide-long"
fi
mkdir -p "$tmp/lprj"
LC_ALL=C awk -v w="$(printf '\350\250\210\347\256\227')_a_chare_named_past_every_column_of_a_table" 'BEGIN { f = "run.sts"; n = 0 }
	/^===$/ { f = "run." n ".log"; n++; next }
	f == "run.sts" && /^CHARE / { sub(/" /, w "\" ") }
	{ print > (dir "/" f) }' dir="$tmp/lprj" "$root/tests/fuzz/prj/constructed"
"$skein" info --ranks "$tmp/lprj/run.sts" | sed -n '/^chare  *name  *kind/,$p' | python3 "$tmp/rows.py" 7 4 >"$tmp/w.err" &&
	ok || bad "info --ranks: a Charm++ run's long chare names out of line: $(head -2 "$tmp/w.err")"
printf 'iterations:\n  name: "%s_of_the_outer_solver_loop"\n' "$(printf '\346\231\202\351\226\223')" >"$tmp/iter-name.yaml"
if "$skein" analyze --config "$tmp/iter-name.yaml" "$tmp/lprj/run.sts" >"$tmp/w.txt"; then
	sed -n '/^  # chare /,/^$/p' "$tmp/w.txt" | python3 "$tmp/rows.py" 2 1 last >"$tmp/w.err" &&
		ok || bad "analyze: a Charm++ run's hotspots out of line: $(head -2 "$tmp/w.err")"
	sed -n '/^chare  *name  *PE/,/^$/p' "$tmp/w.txt" | python3 "$tmp/rows.py" 7 4 >"$tmp/w.err" &&
		ok || bad "analyze: a Charm++ run's chares out of line: $(head -2 "$tmp/w.err")"
else
	bad "analyze of a Charm++ run with long chare names"
fi
run iter-name 0 analyze --config "$tmp/iter-name.yaml" "$root/traces/corpus/stencil-4-delay" &&
	sed -n "/^$(printf '\346\231\202\351\226\223')/,/^\$/p" "$tmp/out" | python3 "$tmp/rows.py" 7 1 >"$tmp/w.err" &&
	ok || bad "analyze: the iterations' table under a long name out of line: $(head -2 "$tmp/w.err")"
mkdir -p "$tmp/lsamples" && cp -r "$root/traces/samples/toy/data" "$tmp/lsamples/" &&
	sed "s/name=\"toy\"/name=\"$(printf '\350\250\210\347\256\227\343\203\216\343\203\274\343\203\211')_nid001234.cluster.example.org_rack-07_slot-3\"/" \
		"$root/traces/samples/toy/hardware.xml" >"$tmp/lsamples/hardware.xml"
run samples-long-machine 0 samples "$tmp/lsamples" &&
	sed -n '/^  object  /,/^$/p' "$tmp/out" | python3 "$tmp/rows.py" 10 1 >"$tmp/w.err" &&
	ok || bad "samples: the hardware table out of line beside a long machine name: $(head -2 "$tmp/w.err")"
# programs without MPI (OpenCL, nested OpenMP, HPX, HIP): each process a
# timeline, its other threads and its streams its lanes (doc/model.md)
for nm in 'casita-1_ocl_deps|1 GPU stream' 'casita-1_scorep-ompt-host-nested|9 threads' \
	'apex-hpx-als-movielens|2 threads' 'fastotf2-simple-mi300|2 GPU streams'; do
	tr=$root/$shared/traces/otf2/${nm%%|*}
	if [ ! -d "$tr" ]; then
		skip=$((skip + 2))
		continue
	fi
	run "no-mpi-info" 0 info "$tr" && grep -q '^timelines     1 ' "$tmp/out" && grep -q '^lanes ' "$tmp/out" &&
		ok || bad "info ${nm%%|*}: a process without MPI ($(head -c 300 "$tmp/err"))"
	run "no-mpi-analyze" 0 analyze "$tr" && grep -q "^threads and streams .*${nm#*|}" "$tmp/out" &&
		grep -q '^critical path ' "$tmp/out" && [ ! -s "$tmp/err" ] &&
		ok || bad "analyze ${nm%%|*}: its threads and streams ($(head -c 300 "$tmp/err"))"
done
# the blame of a process without MPI is its threads' and streams'
# waiting, not other ranks' (the heading said "on other ranks")
oc=$root/$shared/traces/otf2/casita-1_ocl_deps
if [ -d "$oc" ]; then
	run no-mpi-blame 0 analyze "$oc" &&
		grep -q '^  most blame (the waiting its time caused elsewhere in its process): \$rot13 ' "$tmp/out" &&
		ok || bad "analyze casita-1_ocl_deps: whose waiting the blame is ($(grep 'most blame' "$tmp/out"))"
else
	skip=$((skip + 1))
fi
# critical_path.lanes is there for a trace without lanes too, empty
run path-lanes 0 analyze -f json "$trace" &&
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["critical_path"]["lanes"] == []' "$tmp/out" &&
	ok || bad "analyze -f json: critical_path.lanes is an empty list without lanes"
run path-blame-ranks 0 analyze "$trace" &&
	grep -q '^  most blame (the waiting its time caused on other ranks): ' "$tmp/out" &&
	ok || bad "analyze: an MPI run's blame is the waiting on other ranks ($(grep 'most blame' "$tmp/out"))"
xp=$root/$shared/traces/otf2/casita-1_xeonphi_jacobi_01
if [ -d "$xp" ]; then
	run one-rank-collectives 0 analyze "$xp" && grep -q '^verifier      passed' "$tmp/out" &&
		ok || bad "one rank with collectives is analysed"
else
	skip=$((skip + 1))
fi

# the note on calls without records names what they are (a run that
# polled: tests that completed nothing, not non-blocking collectives)
run quiet-note 0 info "$root/traces/waits/polling-4" &&
	grep -q '^note .* communication calls carried no message or collective records and are not operations (tests that completed nothing' "$tmp/out" &&
	ok || bad "info: the note on calls without records ($(grep '^note' "$tmp/out"))"

# the problems as text: an outlier blamed on the operation that held it
# up says whose times it gives (the outlier's, not the holder's, which
# it once printed with a median of 0); a start-up is no outlier
hs=$root/traces/waits/halo-stall-3-openmpi
run problems-text 0 analyze "$hs" &&
	grep -qx "  1  rank 1's MPI_Waitall (step 1367) held up rank 2's MPI_Waitall (step 1371), which took 304.3 ms (its median in the other iterations 998.3 us)" "$tmp/out" &&
	! grep -q "step 0) took\|median in the other iterations 0\$" "$tmp/out" &&
	ok || bad "analyze: the problems' text ($(grep -A2 '^problems' "$tmp/out" | tail -2))"

# a run without iterations: its outliers against each rank's calls of a
# region, and the JSON says so (QE with a rank stopped in MPI_Alltoall)
run outliers-calls 0 analyze --format json "$root/traces/waits/qe-stall-2" &&
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outliers"]
assert o and o[0]["operation"] == "MPI_Alltoall" and o[0]["rank"] == 1 and o[0]["against"] == "calls", o[:1]' "$tmp/out" &&
	run outliers-iterations 0 analyze --format json "$root/traces/corpus/stencil-4-delay" &&
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))["outliers"]
assert o and all(x["against"] == "iterations" for x in o), o[:1]' "$tmp/out" &&
	ok || bad "analyze: what the outliers' medians are over"

# what reading the trace noticed reaches analyze's report too, as info
# says it (text lines and the JSON's warnings; it was said by info and
# the explorer only): an archive with regions closed out of order and
# measurement switched off (traces/onesided/nbc-2 was one, until skein
# read its intercommunicator's messages)
warned=$root/$shared/traces/otf2/tracer-stencil4d-32
if [ -d "$warned" ]; then
	run warnings-info 0 info "$warned" && grep '^warning' "$tmp/out" >"$tmp/w.info" && [ -s "$tmp/w.info" ] &&
		run warnings-analyze 0 analyze "$warned" && grep '^warning' "$tmp/out" | cmp -s - "$tmp/w.info" &&
		run warnings-info-json 0 info --format json "$warned" && cp "$tmp/out" "$tmp/w.json" &&
		run warnings-analyze-json 0 analyze --format json "$warned" &&
		python3 -c 'import json, sys; a, b = (json.load(open(p))["warnings"] for p in sys.argv[1:])
assert a == b and a, (a, b)' "$tmp/w.json" "$tmp/out" &&
		ok || bad "analyze: the reading's warnings ($(grep '^warning' "$tmp/out"))"
else
	skip=$((skip + 1))
fi

# lateness lost before a hotspot: the hotspot's amount, what of it was
# lost before it and the longest of those operations with its own time
# and the share of the amount it explains (the line gave the longest one
# the whole amount, "lost here")
run lost-text 0 analyze "$root/traces/corpus/kary_tree-4-delay" &&
	grep -q "created [0-9.]* [mu]s of lateness; [0-9.]* [mu]s of it was lost in the [0-9]* operations before it, the longest rank [0-9]*'s .* (took [0-9.]* [mu]s, [0-9.]*% of it)\$" "$tmp/out" &&
	! grep -q 'lost here' "$tmp/out" && ok || bad "analyze: lateness lost before ($(grep 'lost' "$tmp/out" | head -2))"

# lateness the stretch before the hotspot did not lose stays on the
# hotspot, said to be lost further back (lockall-4-openmpi: rank 2's 73.00
# ms was put on a 12-us MPI_Put, the longest of the 6 operations before)
run unfound-text 0 analyze "$root/traces/onesided/lockall-4-openmpi" &&
	grep -q "rank 2's (computation) (step 28) created [0-9.]* ms of lateness, most of it further back than the 6 operations before it (which lost [0-9.]* us; it took [0-9.]* us)\$" "$tmp/out" &&
	! grep -q "MPI_Put (step 25) (took" "$tmp/out" && ok || bad "analyze: lateness found nowhere ($(grep 'step 28' "$tmp/out" | head -2))"

# make install into a user prefix, as on a login node without root
# with the documents --help and the man page name by file name; the
# help says where they are, and neither cites the project's "seeds" (a
# user has no such files) nor a doc/ path of the source tree
if make -s -C "$root" install PREFIX="$tmp/prefix" >/dev/null 2>"$tmp/err" &&
	"$tmp/prefix/bin/skein" --version >/dev/null && [ -f "$tmp/prefix/share/man/man1/skein.1" ] &&
	[ -f "$tmp/prefix/share/doc/skein/format.md" ] && [ -f "$tmp/prefix/share/doc/skein/charm.md" ] &&
	"$tmp/prefix/bin/skein" --help | grep -q "are in $tmp/prefix/share/doc/skein;" &&
	! "$tmp/prefix/bin/skein" --help | grep -q 'doc/[a-z-]*\.md\|seed 00' &&
	! "$tmp/prefix/bin/skein" keys --format man | grep -q 'doc/[a-z-]*\.md\|seed 00' &&
	! grep -q 'doc/[a-z-]*\.md\|seed 00' "$tmp/prefix/share/man/man1/skein.1" &&
	! grep -q 'seed 00' "$root/README.md"; then
	ok
else
	bad "make install PREFIX=... ($(head -c 200 "$tmp/err"))"
fi

echo "cli tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
