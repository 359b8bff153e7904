#!/bin/sh
# samples.sh SKEIN SHARED — `skein samples` from the command line: its
# counts against counts made independently with awk over the CSV (per
# CPU, per NUMA node, per variable: samples and total latency), on
# skein's own toy set and, when ../shared is beside the checkout, on the
# LULESH and Mitos sets; a decimal data_source CSV made from LULESH's
# hexadecimal one; JSON; hostile input; options and configuration; :save;
# and the explorer in tmux.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
case $shared in /*) ;; *) shared=$root/$shared ;; esac
tmp=$(mktemp -d /tmp/skein-samples-XXXXXX)
sock=skein-samples-$$
cleanup() {
	command -v tmux >/dev/null 2>&1 && tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0 skip=0
. "$root/tests/run.sh"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC XDG_CONFIG_HOME=$tmp/xdg

# col FILE NAME: the column number of NAME in a CSV header
col() { head -1 "$1" | tr -d '\r' | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

# check_counts SET CSV: skein's per-CPU, per-NUMA and per-variable samples
# and cycles equal awk's over the CSV
check_counts() {
	set=$1 csv=$2 label=$3
	c_cpu=$(col "$csv" cpu) c_lat=$(col "$csv" latency) c_var=$(col "$csv" variable) c_node=$(col "$csv" node)
	run "$label resources" 0 samples --format csv "$set" || return
	cp "$tmp/out" "$tmp/res.csv"
	awk -F, -v c="$c_cpu" -v l="$c_lat" 'NR > 1 { n[$c]++; s[$c] += $l }
		END { for (k in n) printf "%s %d %d\n", k, n[k], s[k] }' "$csv" | sort -n >"$tmp/awk.cpu"
	awk -F, '$3 == "PU" && $6 > 0 { printf "%s %s %s\n", $4, $6, $7 }' "$tmp/res.csv" | sort -n >"$tmp/skein.cpu"
	cmp -s "$tmp/awk.cpu" "$tmp/skein.cpu" && ok || bad "$label: per-CPU samples and cycles differ from awk's"
	if [ -n "$c_node" ]; then
		awk -F, -v c="$c_node" -v l="$c_lat" 'NR > 1 { n[$c]++; s[$c] += $l }
			END { for (k in n) printf "%s %d %d\n", k, n[k], s[k] }' "$csv" | sort -n >"$tmp/awk.numa"
		awk -F, '$3 == "NUMANode" { printf "%s %s %s\n", $4, $6, $7 }' "$tmp/res.csv" | sort -n >"$tmp/skein.numa"
		cmp -s "$tmp/awk.numa" "$tmp/skein.numa" && ok || bad "$label: per-NUMA samples and cycles differ from awk's"
	fi
	if [ -n "$c_var" ]; then
		run "$label symbols" 0 samples --format csv --table symbols "$set" || return
		awk -F, -v c="$c_var" -v l="$c_lat" 'NR > 1 { n[$c]++; s[$c] += $l }
			END { for (k in n) printf "%s %d %d\n", k, n[k], s[k] }' "$csv" | sort >"$tmp/awk.var"
		awk -F, 'NR > 1 { gsub(/"/, "", $2); printf "%s %s %s\n", $2, $3, $4 }' "$tmp/out" | sort >"$tmp/skein.var"
		cmp -s "$tmp/awk.var" "$tmp/skein.var" && ok || bad "$label: per-variable samples and cycles differ from awk's"
	fi
}

# --- the toy set: committed bytes are what the generator writes
toy=$root/traces/samples/toy
sh "$root/traces/samples/gen.sh" "$tmp/toy" && for f in hardware.xml data/samples.csv src/toy.c; do
	cmp -s "$tmp/toy/$f" "$toy/$f" || { bad "traces/samples/gen.sh no longer writes $f"; false; }
done && ok
check_counts "$toy" "$toy/data/samples.csv" toy
run "toy text" 0 samples "$toy" && grep -q '^samples       2400 ' "$tmp/out" && [ ! -s "$tmp/err" ] &&
	grep -q 'data_source (Intel PEBS, decimal)' "$tmp/out" && ok || bad "toy text report"
# a CSV inside DIR/data names the set too; `skein DIR` into a pipe is the report
run "toy by its CSV" 0 samples --format csv --table levels "$toy/data/samples.csv" &&
	grep -q '^"local RAM",459,' "$tmp/out" && ok || bad "a set named by its CSV"
"$skein" "$toy" 2>/dev/null | grep -q '^samples       2400 ' && ok || bad "skein DIR into a pipe prints the report"
# JSON holds what the text does, consistently
if run "toy json" 0 samples --format json --attribute zidx "$toy"; then
	python3 - "$tmp/out" <<'PY' && ok || bad "toy JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 2400
r = {x["object"]: x for x in d["resources"]}
assert r[0]["issued_samples"] == 2400
assert sum(x["issued_samples"] for x in d["resources"] if x["type"] == "PU") == 2400
assert sum(x["served_samples"] for x in d["resources"]) + d["levels"]["unknown"]["samples"] + d["levels"]["L3 miss"]["samples"] <= 2400
assert d["symbols"][0]["symbol"] == "d"
assert d["scores"]["attribute"] == "zidx" and len(d["scores"]["windows"]) == 16
c = d["clusters"]["list"]
assert len(c) == 4 and c[0]["from"] == 0 and abs(c[0]["boundary"] - 12) <= 1, c[0]
PY
fi
# the clusters find the boundary of the toy's two regimes, zidx 12
run "toy clusters" 0 samples --format csv --table clusters --attribute zidx --clusters 2 "$toy" &&
	[ "$(sed -n 2p "$tmp/out" | cut -d, -f6)" = 12 ] && ok || bad "two clusters meet at zidx 12 ($(cat "$tmp/out"))"
# a range of one value (every zidx 7) puts every sample in the first
# window: the others and a set without samples have no score, '-' in
# text and an empty field in CSV (they printed nan), null in JSON
mkdir -p "$tmp/one/data" && cp "$toy/hardware.xml" "$tmp/one/" &&
	awk -F, 'BEGIN { OFS = "," } NR > 1 { $9 = 7 } { print }' "$toy/data/samples.csv" >"$tmp/one/data/samples.csv"
mkdir -p "$tmp/none/data" && cp "$toy/hardware.xml" "$tmp/none/" && head -1 "$toy/data/samples.csv" >"$tmp/none/data/samples.csv"
run "one zidx: windows" 0 samples --attribute zidx --format csv --table windows "$tmp/one" &&
	[ "$(sed -n 2p "$tmp/out" | cut -d, -f2-4)" = "7,7,2400" ] && [ -n "$(sed -n 2p "$tmp/out" | cut -d, -f5)" ] &&
	[ "$(awk -F, 'NR > 2 && $4 == 0 && $5 == ""' "$tmp/out" | wc -l)" = 15 ] && ok ||
	bad "a range of one value: the first window holds every sample, the others no score ($(head -3 "$tmp/out"))"
run "one zidx: text" 0 samples --attribute zidx "$tmp/one" &&
	[ "$(grep -c '^ *[0-9]* *7 *7 *0 *-$' "$tmp/out")" = 15 ] && ok || bad "a range of one value: '-' for no score in text"
nans=0
for set in one none; do
	for t in resources lines symbols levels windows clusters; do
		"$skein" samples --attribute zidx --format csv --table "$t" "$tmp/$set" 2>/dev/null | grep -qi 'nan' && nans=$((nans + 1))
	done
	"$skein" samples --attribute zidx "$tmp/$set" 2>/dev/null | grep -qi 'nan' && nans=$((nans + 1))
done
[ "$nans" = 0 ] && ok || bad "$nans reports print nan for a range of one value or no samples"

# --- L_d over the resources with samples (the default) or over every
# resource of the depth (samples.latency_mean: all, the paper's equation
# 1): along zidx the toy set's indices below 12 have samples on CPU 0
# alone, so there the paper's mean is the default's over 16 CPUs; the
# report says which it shows
printf 'samples:\n  latency_mean: all\n' >"$tmp/ld.yaml"
run "L_d sampled" 0 samples --metric latency --attribute zidx --format csv --table windows "$toy" &&
	cp "$tmp/out" "$tmp/ld1.csv" &&
	run "L_d all" 0 samples --config "$tmp/ld.yaml" --metric latency --attribute zidx --format csv --table windows "$toy" &&
	python3 -c '
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
assert len(a) == len(b) == 16
assert abs(float(a[0]["score"]) / 16 - float(b[0]["score"])) < 1e-5, (a[0], b[0])
assert all(float(y["score"]) <= float(x["score"]) + 1e-9 for x, y in zip(a, b))
' "$tmp/ld1.csv" "$tmp/out" && ok || bad "samples.latency_mean: all gives the paper's L_d"
run "L_d text" 0 samples --metric latency "$toy" &&
	grep -q '^              L_d: the mean cycles per sample over the resources with samples (samples.latency_mean: all' "$tmp/out" &&
	run "L_d all text" 0 samples --config "$tmp/ld.yaml" --metric latency "$toy" &&
	grep -q "^              L_d: the mean cycles per sample over every resource, those without samples as 0 (the paper's equation 1" "$tmp/out" &&
	run "L_d all json" 0 samples --config "$tmp/ld.yaml" --format json "$toy" &&
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["scores"]["latency_mean"] == "all"' "$tmp/out" &&
	ok || bad "the report says which L_d it shows"
printf 'samples:\n  latency_mean: paper\n' >"$tmp/ldbad.yaml"
run "L_d bad" 2 samples --config "$tmp/ldbad.yaml" "$toy" && grep -q 'ldbad.yaml:2:17: samples.latency_mean' "$tmp/err" &&
	ok || bad "samples.latency_mean: paper: $(cat "$tmp/err")"

# --- errors: one line, the place named
printf 'cpu,latency,dataSource\n0,12,1\n0,x,1\n' >"$tmp/bad.csv"
mkdir -p "$tmp/bad/data" && cp "$toy/hardware.xml" "$tmp/bad/" && cp "$tmp/bad.csv" "$tmp/bad/data/samples.csv"
run "bad csv" 1 samples "$tmp/bad" && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "^skein: $tmp/bad/data/samples.csv:3: latency: 'x' is not a whole number$" "$tmp/err" && ok ||
	bad "a bad CSV value: $(cat "$tmp/err")"
# a latency past 2^32 - 1 cycles: refused with its line (2^64 - 1 wrapped
# the toy set's cycles, 235060 -> 235004, exit 0)
mkdir -p "$tmp/wrap/data" && cp "$toy/hardware.xml" "$tmp/wrap/" &&
	awk -F, 'BEGIN { OFS = "," } NR == 2 { $5 = "18446744073709551615" } { print }' "$toy/data/samples.csv" >"$tmp/wrap/data/samples.csv"
run "latency of 2^64 - 1" 1 samples "$tmp/wrap" && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "^skein: $tmp/wrap/data/samples.csv:2: latency: '18446744073709551615' is too large (a latency is at most 4294967295 cycles)$" "$tmp/err" && ok ||
	bad "a latency of 2^64 - 1: $(cat "$tmp/err")"
printf '<Hardware>\n  <CPU id="0"/>\n  <Cache id="9"/>\n</Hardware>\n' >"$tmp/bad/hardware.xml"
run "bad xml" 1 samples "$tmp/bad" && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "^skein: $tmp/bad/hardware.xml:3: <Cache id=\"9\">: the id is the cache level, 1 to 3$" "$tmp/err" && ok ||
	bad "a bad hardware XML: $(cat "$tmp/err")"
printf '<Hardware><CPU id="0"/>' >"$tmp/bad/hardware.xml"
run "broken xml" 1 samples "$tmp/bad" && grep -q "hardware.xml:1: " "$tmp/err" && ok || bad "broken XML: $(cat "$tmp/err")"
# libxml2 is opened when a hardware file is read (samples_xml.c): where
# it cannot be, one line says so (a preload that refuses every dlopen);
# a trace needs none of it
nodl=$(cd "$(dirname "$skein")/tests" 2>/dev/null && pwd)/nodlopen.so   # tests/nodlopen.c
if [ -f "$nodl" ]; then
	LD_PRELOAD=$nodl "$skein" samples "$toy" >"$tmp/out" 2>"$tmp/err" </dev/null
	st=$?
	[ "$st" = 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q "^skein: $toy/hardware.xml: reading XML needs libxml2: refused by samples.sh$" "$tmp/err" && ok ||
		bad "no libxml2: exit $st: $(cat "$tmp/err")"
	LD_PRELOAD=$nodl "$skein" analyze "$root/traces/corpus/butterfly-8-delay/traces.otf2" >/dev/null 2>"$tmp/err" &&
		[ ! -s "$tmp/err" ] && ok || bad "a trace without libxml2: $(cat "$tmp/err")"
else
	bad "$(dirname "$skein")/tests/nodlopen.so is not built (make it first)"
fi
run "missing set" 1 samples /nonexistent/set && grep -q '^skein: /nonexistent/set: No such file or directory$' "$tmp/err" &&
	ok || bad "a missing set"
run "info on a set" 2 info "$toy" && grep -q 'sample set, not a trace' "$tmp/err" && ok || bad "info on a sample set"
run "bad attribute" 2 samples --attribute zidy "$toy" && grep -q "no attribute 'zidy'" "$tmp/err" && ok || bad "--attribute zidy"
printf 'samples:\n  attribute: zidy\n' >"$tmp/attr.yaml"
run "bad attribute in the configuration" 2 samples --config "$tmp/attr.yaml" "$toy" &&
	grep -q "^skein: $tmp/attr.yaml:2:14: samples.attribute: no attribute 'zidy' in these samples" "$tmp/err" && ok ||
	bad "samples.attribute: zidy: $(cat "$tmp/err")"
run "bad depth" 2 samples --depth l7 "$toy" && ok || bad "--depth l7"
run "bad metric" 2 samples --metric lateness "$toy" && ok || bad "--metric lateness on samples"
run "step >= window" 2 samples --window 10 --step 10 "$toy" && grep -q 'must be less than window' "$tmp/err" && ok ||
	bad "--step 10 --window 10"
run "table without csv" 2 samples --table lines "$toy" && ok || bad "--table without --format csv"
run "bad table" 2 samples --format csv --table nope "$toy" && ok || bad "--table nope"
run "samples option on a trace" 2 analyze --attribute x /nonexistent.otf2 && ok || bad "--attribute on analyze"
run "structure option on samples" 2 samples --leap-merge "$toy" && ok || bad "--leap-merge on samples"
printf 'samples:\n  selection: [{attribute: variable, value: q}]\n' >"$tmp/sel.yaml"
run "config pick" 2 samples --config "$tmp/sel.yaml" "$toy" &&
	grep -q "^skein: $tmp/sel.yaml:2:15: samples.selection: variable has no value 'q'" "$tmp/err" && ok ||
	bad "a pick naming a value the set lacks: $(cat "$tmp/err")"

# --- configuration and :save: a saved view reopens its selection
# awk: 1257 samples have zidx 12 or more, 195 of them are of d
printf 'samples:\n  attribute: zidx\n  filter: [{attribute: zidx, range: [12, 23]}]\n  selection: [{attribute: variable, value: d}]\n' >"$tmp/view.yaml"
run "config filter" 0 samples --format json --config "$tmp/view.yaml" "$toy" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["looked_at"] == 1257 and d["selected"] == 195, (d["looked_at"], d["selected"])' "$tmp/out" &&
	ok || bad "filter and selection from the configuration"
run "render save" 0 render "$toy" --size 100x30 --attribute zidx --keys "<Tab><Right><Down><Enter>:save $tmp/saved.yaml<Enter>" &&
	grep -q 'view saved to' "$tmp/out" && grep -q '^    - {op: new, attribute: variable, value: c}$' "$tmp/saved.yaml" &&
	ok || bad ":save in a samples view ($(tail -1 "$tmp/out"))"
run "render saved" 0 render "$toy" --size 100x30 --config "$tmp/saved.yaml" &&
	grep -q 'selected 459 (19.1%)  along zidx' "$tmp/out" && ok || bad "the saved view reopens its selection"
run "render pane" 0 render "$toy" --size 60x20 --pane clusters && grep -q '^┌ clusters' "$tmp/out" && ok || bad "render --pane clusters"
run "trace pane on samples" 2 render "$toy" --pane grid && ok || bad "render --pane grid on a sample set"

# --- the shared sets
lulesh=$shared/traces/memaxes/llnl-main-lulesh
if [ -d "$lulesh" ]; then
	check_counts "$lulesh" "$lulesh/data/samples.out" lulesh
	cp "$tmp/res.csv" "$tmp/lulesh.csv"
	check_counts "$lulesh/data/lulesh_inorder.out" "$lulesh/data/lulesh_inorder.out" lulesh-inorder
	# the figures the issue names
	run "lulesh resources" 0 samples --format csv "$lulesh" &&
		[ "$(awk -F, '$3 == "NUMANode" { printf "%s:%s ", $4, $6 }' "$tmp/out")" = "0:8952 1:6724 " ] && ok ||
		bad "LULESH: NUMA 0 has 8952 samples, NUMA 1 6724"
	run "lulesh symbols" 0 samples --format csv --table symbols "$lulesh" &&
		[ "$(sed -n 2p "$tmp/out")" = '1,"m_x",6535,425345' ] &&
		awk -F, '{ gsub(/"/, "", $2); c[$2] = $4 } END { exit !(c["m_fx"] > c["m_nodalMass"] && c["m_fy"] > c["m_nodalMass"] && c["m_fz"] > c["m_nodalMass"] && c["m_nodalMass"] > 0) }' "$tmp/out" &&
		ok || bad "LULESH: m_x first with 425345 cycles; m_fx, m_fy, m_fz above m_nodalMass"
	# the same samples with data_source in decimal (later MemAxes)
	mkdir -p "$tmp/dec/data" && cp "$lulesh/hardware.xml" "$tmp/dec/"
	python3 - "$lulesh/data/samples.out" "$tmp/dec/data/samples.csv" <<'PY'
import sys
src, dst = open(sys.argv[1]), open(sys.argv[2], "w")
head = src.readline().rstrip("\n").split(",")
ds, t = head.index("dataSource"), head.index("time")
head[ds] = "data_source"
dst.write(",".join(head) + "\n")
for line in src:
    f = line.rstrip("\n").split(",")
    f[ds], f[t] = str(int(f[ds], 16)), str(int(f[t], 16))
    dst.write(",".join(f) + "\n")
PY
	run "decimal" 0 samples --format csv "$tmp/dec" && cmp -s "$tmp/out" "$tmp/lulesh.csv" && ok ||
		bad "a decimal data_source CSV gives other counts than the hexadecimal one"
	"$skein" samples --format csv --table levels "$tmp/dec" >"$tmp/dec.levels" 2>/dev/null
	"$skein" samples --format csv --table levels "$lulesh" >"$tmp/hex.levels" 2>/dev/null
	cmp -s "$tmp/dec.levels" "$tmp/hex.levels" && ok || bad "the decimal CSV decodes to other levels"
	check_counts "$tmp/dec" "$tmp/dec/data/samples.csv" lulesh-decimal
	# the node column agrees with hardware.xml: nothing said; a hardware.xml
	# that contradicts it (its two NUMA nodes' ids swapped) is warned of in
	# one line, and the topology keeps the hardware's placement
	run "lulesh as shared" 0 samples --format csv "$lulesh" && [ ! -s "$tmp/err" ] && ok ||
		bad "lulesh: a warning where the node column and hardware.xml agree: $(cat "$tmp/err")"
	mkdir -p "$tmp/swap/data" && cp "$lulesh/data/samples.out" "$tmp/swap/data/" &&
		sed 's/<NUMA id="0"/<NUMA id="X"/; s/<NUMA id="1"/<NUMA id="0"/; s/<NUMA id="X"/<NUMA id="1"/' \
		"$lulesh/hardware.xml" >"$tmp/swap/hardware.xml"
	run "NUMA ids swapped" 0 samples --format csv "$tmp/swap" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q '^skein: warning: .*/swap/data/samples.out: the node column disagrees with the hardware for 15676 of 15676 samples (the first, sample 1: cpu 4 is on NUMA node 1 there, node 0 here)' "$tmp/err" &&
		awk -F, '$3 == "NUMANode" && $4 == 1 { print $6 }' "$tmp/out" | grep -qx 8952 &&
		ok || bad "a hardware.xml that contradicts the node column: $(cat "$tmp/err")"
	# the two runs along zidx (doc/samples.md): the samples with indices,
	# processor imbalance over 16 windows: lower on average in the second
	cp "$root/config/samples-zidx.yaml" "$tmp/z.yaml"
	m1=$("$skein" samples --config "$tmp/z.yaml" --format csv --table windows "$lulesh" | awk -F, 'NR > 1 { s += $5; n++ } END { printf "%.3f", s / n }')
	m2=$("$skein" samples --config "$tmp/z.yaml" --format csv --table windows "$lulesh/data/lulesh_inorder.out" |
		awk -F, 'NR > 1 { s += $5; n++ } END { printf "%.3f", s / n }')
	[ "$m1" = 4.408 ] && [ "$m2" = 4.152 ] && ok || bad "mean I_d along zidx: $m1 and $m2, doc/samples.md says 4.408 and 4.152"
	"$skein" samples --config "$tmp/z.yaml" --format csv --table clusters "$lulesh" >"$tmp/c1" 2>/dev/null
	"$skein" samples --config "$tmp/z.yaml" --format csv --table clusters "$lulesh/data/lulesh_inorder.out" >"$tmp/c2" 2>/dev/null
	[ "$(cut -d, -f6 "$tmp/c1" | tr '\n' ' ')" = "boundary 4 4 14 14 22 23 28  " ] &&
		[ "$(cut -d, -f6 "$tmp/c2" | tr '\n' ' ')" = "boundary 2 11 11 18 19 30 30  " ] && ok ||
		bad "the clusters along zidx moved: $(cut -d, -f6 "$tmp/c1" | tr '\n' ' ') / $(cut -d, -f6 "$tmp/c2" | tr '\n' ' ')"
else
	echo "skipped: $lulesh is absent"
	skip=$((skip + 8))
fi
mitos=$shared/traces/memaxes/capstum-mitos_1636037395
if [ -d "$mitos" ]; then
	check_counts "$mitos" "$mitos/data/samples.csv" mitos
	run "mitos" 0 samples --format json "$mitos" &&
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["samples"] == 7062 and d["hardware"] == "hwloc XML" and d["levels"]["unknown"]["samples"] == 7062' "$tmp/out" &&
		ok || bad "Mitos: 7062 samples on hwloc XML, levels not recorded"
else
	echo "skipped: $mitos is absent"
	skip=$((skip + 2))
fi

# --- the explorer in tmux
if command -v tmux >/dev/null 2>&1; then
	pane=s
	. "$root/tests/tmux.sh"
	t -f /dev/null new-session -d -s s -x 120 -y 40 \
		"env -i PATH=/usr/bin:/bin HOME=$tmp TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC sh" || bad "tmux"
	t set -g status off >/dev/null
	t send-keys -t s "$skein samples --attribute zidx $toy" Enter
	wait_for '┌ topology · tree · cycles' && wait_for '┌ clusters · 4 along zidx' && ok || bad "the samples explorer starts ($(screen | head -3))"
	t send-keys -t s Tab Right Enter
	wait_for 'selection \(new\): variable d · 367 of 2400' && ok || bad "selecting a symbol in the explorer"
	t send-keys -t s x
	wait_for 'selection cleared' && ok || bad "x clears the selection"
	t send-keys -t s q
	n=0; while [ $n -lt 50 ] && screen | grep -q '┌ topology'; do sleep 0.1; n=$((n + 1)); done
	screen | grep -q '┌ topology' && bad "q leaves the samples explorer" || ok
	# Ctrl-C is a key while the screen is open and stops skein as SIGINT
	# does: status 130 and the terminal as it was (python reports the
	# status: a shell abandons its command line when a job dies of SIGINT)
	t send-keys -t s "clear; stty -g >$tmp/stty.before" Enter
	t send-keys -t s "python3 -c 'import subprocess, sys; r = subprocess.call(sys.argv[1:]); print(\"status=%d\" % (128 - r if r < 0 else r))' $skein samples $toy; stty -g | cmp -s - $tmp/stty.before && echo TTY-OK" Enter
	wait_for '┌ topology · tree · cycles' || bad "the samples explorer starts again"
	t send-keys -t s C-c
	wait_for '^status=130$' && wait_for '^TTY-OK' && ok || bad "Ctrl-C: status 130 and the terminal restored ($(screen | tail -3))"
else
	echo "skipped: tmux is missing"
	skip=$((skip + 5))
fi

echo "samples tests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
