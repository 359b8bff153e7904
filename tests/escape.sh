#!/bin/sh
# escape.sh SKEIN CRAFT — no byte of an input file reaches the terminal
# as a control (issue 37, doc/robustness.md): terminal escape sequences
# (OSC ESC ]0;…BEL, CSI ESC [2J, the 8-bit CSI as UTF-8 C1 and as a raw
# byte), the bidirectional controls (U+202E shows what follows right to
# left), U+2028-2029, U+FEFF and bytes that are not UTF-8 (overlong,
# surrogates, past U+10FFFF, stray, truncated) put into every kind of
# input — an OTF2 archive's names (written by CRAFT's unicode kind), a
# Projections run's chare and entry-method names and Charm++ version, a
# configuration's names (iterations.name, phases.named), the names and
# paths in saved analyses of both, a sample set's symbols and columns,
# and the directory the inputs lie in — then every command that writes
# text run on each: info (with the ranks, as JSON), analyze (text, JSON,
# every CSV table, with clusters and iterations, with the
# configuration), export, diff, render over every pane, samples, config
# (the configuration written back as YAML); a key map with bytes that
# are not UTF-8 or a NUL is refused. Its standard output must be UTF-8
# with no control character but line feeds and tabs and no
# bidirectional control, its standard error the same without tabs; JSON
# must parse, and keeps every valid character (controls escaped), each
# byte that is not UTF-8 as U+FFFD.
skein=$1
craft=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
case $craft in /*) ;; *) craft=$root/$craft ;; esac
tmp=$(mktemp -d /tmp/skein-escape-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=$tmp/xdg
[ -x "$craft" ] || { echo "escape tests: $craft missing"; exit 1; }

# the sequences: a window title (OSC), clear screen (CSI), the same CSI
# as a C1 control in UTF-8 and as a lone byte
esc=$(printf '\033]0;pwned\007\033[2J\302\2332J\2332J')
# U+202E, then the other bidirectional controls, U+2028-2029 and U+FEFF,
# é € U+1F600, and bytes that are not UTF-8: overlong '/' in 2, 3 and 4
# bytes, U+D800, U+110000, a 5-byte form, a stray continuation, E2 82 cut
# short by '!' and F0 9F 98 by what follows (craft's UNICODE)
uni=$(printf '\342\200\256gnp.\342\200\252\342\200\253\342\200\254\342\200\255\342\201\246\342\201\247\342\201\250\342\201\251\342\200\216\342\200\217\330\234\342\200\250\342\200\251\357\273\277\303\251\342\202\254\360\237\230\200\300\257\340\200\257\360\200\200\257\355\240\200\364\220\200\200\370\210\200\200\200\200\342\202!\360\237\230')
# the inputs lie in a directory whose name holds them too: paths are
# shown (and saved) as well as names
dir="$tmp/in$esc$uni"
mkdir -p "$dir"

# clean FILE [LINES]: no control but \n and \t (with LINES, as for
# stderr, but \n), no C1 in UTF-8, no bidirectional control, U+2028,
# U+2029 or U+FEFF (one grep over the bytes: a NUL too, which the
# [[:cntrl:]] of the three greps this replaced let through), and valid
# UTF-8 (iconv refuses overlong forms, surrogates and what passes
# U+10FFFF). Two programs a file where five were: the script checks
# 534 files
clean() {
	ctl='\x00-\x08'
	[ -n "${2:-}" ] && ctl='\x00-\x09'
	! LC_ALL=C grep -Pqa "[$ctl\\x0b-\\x1f\\x7f]|\\xc2[\\x80-\\x9f]|\\xd8\\x9c|\\xe2\\x80[\\x8e\\x8f\\xa8-\\xae]|\\xe2\\x81[\\xa6-\\xa9]|\\xef\\xbb\\xbf" "$1" &&
		iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}
# json FILE: FILE parses as JSON (UTF-8, RFC 8259)
json() {
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" 2>/dev/null
}

# each ARGS... on INPUT: status 0 (or the status given by -s N), and
# clean output
runs() {
	want=0
	[ "$1" = -s ] && { want=$2; shift 2; }
	what=$1 input=$2
	shift 2
	for a in "$@"; do
		# shellcheck disable=SC2086
		"$skein" $a "$input" >"$tmp/out" 2>"$tmp/err" </dev/null
		st=$?
		if [ "$st" -ne "$want" ]; then
			bad "$what: $a: exit $st, want $want ($(head -c 200 "$tmp/err" | tr -cd '[:print:]'))"
		elif ! clean "$tmp/out" || ! clean "$tmp/err" lines; then
			bad "$what: $a: control characters from the input reach the terminal"
		elif case $a in *json*) ! json "$tmp/out" ;; *) false ;; esac; then
			bad "$what: $a: not JSON"
		else
			ok
		fi
	done
}

# ---- the inputs
# OTF2: the crafted archive, its creator, ranks, node, location and
# region names escaped, the rest of UNICODE after each
"$craft" unicode "$dir/otf2" >/dev/null || bad "craft unicode failed"
# Projections: the tests' constructed run, its chare and entry names and
# Charm++ version escaped
mkdir -p "$dir/prj"
LC_ALL=C awk -v e="$esc$uni" 'BEGIN { f = "run.sts"; n = 0 }
	/^===$/ { f = "run." n ".log"; n++; next }
	f == "run.sts" && /^CHARMVERSION / { $0 = $0 e }
	f == "run.sts" && /^CHARE / { sub(/" /, e "\" ") }
	f == "run.sts" && /^ENTRY CHARE / { sub(/\(/, e "(") }
	{ print > (dir "/" f) }' dir="$dir/prj" "$root/tests/fuzz/prj/constructed"
LC_ALL=C grep -q 'CHARE 1 "A.*pwned.*gnp' "$dir/prj/run.sts" && LC_ALL=C grep -q 'work.*pwned.*gnp' "$dir/prj/run.sts" ||
	bad "the Projections names were not altered"
# a configuration naming iterations and phases with them (stencil-4,
# below, has iterations to name) (YAML escapes:
# the file itself holds no control character, the values do)
# (YAML holds only valid UTF-8: the bidirectional controls, not the bad bytes)
cat >"$tmp/esc.yaml" <<'YAML'
iterations:
  name: "round\e]0;pwned\a\e[2J\u009b2J\u202e\u2066\u2028\ufeffé"
phases:
  named:
    - {name: "ph\e]0;pwned\a\e[2J\u202e\u200f", region: "*"}
YAML
# saved analyses of both
"$skein" analyze -q --save "$dir/otf2.skein" "$dir/otf2" >/dev/null 2>&1 || bad "saving the OTF2 archive"
"$skein" analyze -q --save "$dir/prj.skein" "$dir/prj/run.sts" >/dev/null 2>&1 ||
	bad "saving the Projections run"

# ---- every command on every trace input
trace_cmds="info|info --ranks|info --format json|analyze|analyze --clusters 3|analyze --iterations structure
analyze --format json|analyze --format json --clusters 3
analyze --format csv --table hotspots|analyze --format csv --table partitions
analyze --format csv --table timelines|analyze --format csv --table ops
analyze --format csv --table iterations|analyze --config $tmp/esc.yaml
analyze --config $tmp/esc.yaml --format json|analyze --config $tmp/esc.yaml --format csv --table iterations
analyze --config $tmp/esc.yaml --format csv --table partitions|analyze --leap-merge
export --csv|export --json|render --size 120x40|render --size 120x40 --keys >
render --size 100x40 --pane details --keys >|render --size 100x40 --pane timeline
render --size 100x40 --pane topology|render --size 100x40 --pane histogram
render --size 100x30 --config $tmp/esc.yaml --keys >i
analyze --format csv --table problems|analyze --format csv --table waits|analyze --format csv --table delays
analyze --format csv --table outliers|analyze --format csv --table critical|analyze --all
profile|profile --ranks|profile --format json|profile --format csv|comm|comm --format json|comm --format csv
render --size 120x40 --keys p|render --size 120x40 --keys a|render --size 120x40 --keys i
render --size 120x40 --keys T|render --size 120x40 --keys iv|render --size 120x40 --keys ivv"
for input in "$dir/otf2" "$dir/prj/run.sts" "$dir/otf2.skein" "$dir/prj.skein"; do
	name=$(basename "$input")
	old=$IFS
	IFS='|
'
	# shellcheck disable=SC2086
	set -- $trace_cmds
	IFS=$old
	runs "$name" "$input" "$@"
	# diff: the input against itself and against its saved analysis
	case $input in
	*prj*) others="$dir/prj/run.sts|$dir/prj.skein" ;;
	*) others="$dir/otf2|$dir/otf2.skein" ;;
	esac
	IFS='|'
	# shellcheck disable=SC2086
	set -- $others
	IFS=$old
	for other in "$@"; do
		runs "$name" "$input" "diff $other" "diff --format json $other" "diff --format csv --table ops $other" \
			"diff --format csv --table partitions $other" "diff --format csv --table regions $other" \
			"diff --format csv --table changes $other"
	done
done
# the configuration's names where there are iterations to name
cp -r "$root/traces/corpus/stencil-4" "$dir/stencil"
runs "configuration" "$dir/stencil" "analyze --config $tmp/esc.yaml" "analyze --config $tmp/esc.yaml --clusters 2" \
	"analyze --config $tmp/esc.yaml --format csv --table iterations" \
	"analyze --config $tmp/esc.yaml --format csv --table partitions" \
	"analyze --config $tmp/esc.yaml --format json" "render --size 120x40 --config $tmp/esc.yaml --keys >" \
	"render --size 100x40 --config $tmp/esc.yaml --pane details --keys >"
"$skein" analyze --config "$tmp/esc.yaml" "$dir/stencil" | grep -q '^iterations    6 round?\]0;pwned??\[2J?2J????és, ' &&
	ok || bad "the configuration's iteration name shown with '?'"
# a message naming the input: one clean line
runs -s 1 "message" "$dir/otf2/nothing-here" "info"
runs -s 1 "message" "$dir/prj/missing.sts" "info"

# what a name NAME (bytes) shows as, by Python's UTF-8 decoder (strict
# as RFC 3629), not skein's: text, each control (the bidirectional ones
# too) and each byte that is not UTF-8 a '?'; JSON, the name with each
# such byte U+FFFD
shows='import os, re, sys
name = os.fsencode(sys.argv[1]).decode("utf-8", "surrogateescape")
def text(s):
	return re.sub("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\udc80-\udcff]", "?", s)
def json_of(s):
	return re.sub("[\udc80-\udcff]", "\ufffd", s)
def strings(x):
	if isinstance(x, str):
		yield x
	elif isinstance(x, dict):
		for k, v in x.items():
			yield k
			yield from strings(v)
	elif isinstance(x, list):
		for v in x:
			yield from strings(v)
'
for input in "$dir/otf2" "$dir/otf2.skein"; do
	"$skein" info "$input" | python3 -c "$shows"'
line = [l for l in sys.stdin if l.startswith("creator ")][0]
want = "creator       craft?]0;pwned??[2J" + text(name) + " (OTF2"
assert line.startswith(want), (line, want)' "$uni" && ok || bad "info shows $input's creator as the rule says"
	"$skein" analyze --format json "$input" | python3 -c "$shows"'
import json
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
want = "ma\"in,\x1b[2J" + json_of(name)
assert any(s == want for s in strings(d)), want' "$uni" && ok || bad "JSON keeps $input's region name, bad bytes as U+FFFD"
done
for input in "$dir/prj/run.sts" "$dir/prj.skein"; do
	"$skein" analyze --format json "$input" | python3 -c "$shows"'
import json
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))
assert any(json_of(name) in s for s in strings(d)), json_of(name)' "$esc$uni" && ok ||
		bad "JSON keeps the names of $input, bad bytes as U+FFFD"
done
# the configuration dumped: its names escaped in the YAML, which loads
# back to the same dump
"$skein" config --config "$tmp/esc.yaml" >"$tmp/dump.yaml" 2>"$tmp/err"
clean "$tmp/dump.yaml" && clean "$tmp/err" lines && ok || bad "config: control characters reach the terminal"
grep -qF 'name: "round\x1B]0;pwned\x07\x1B[2J\x9B2J\u202E\u2066\u2028\uFEFFé"' "$tmp/dump.yaml" && ok ||
	bad "config shows the iteration name escaped"
"$skein" config --config "$tmp/dump.yaml" | cmp -s - "$tmp/dump.yaml" && ok || bad "the dump loads back to itself"

# JSON keeps the exact bytes, escaped
for input in "$dir/prj/run.sts" "$dir/prj.skein"; do
	"$skein" analyze --format json "$input" | python3 -c 'import json, sys
def strings(x):
	if isinstance(x, str):
		yield x
	elif isinstance(x, dict):
		for k, v in x.items():
			yield k
			yield from strings(v)
	elif isinstance(x, list):
		for v in x:
			yield from strings(v)
d = json.load(sys.stdin)
assert any("\x1b]0;pwned\x07\x1b[2J" in s for s in strings(d)), "escapes kept"' && ok ||
		bad "JSON keeps the exact names of $input, escaped"
done
"$skein" analyze --format json --config "$tmp/esc.yaml" "$dir/otf2" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["iterations"]["name"] == "round\x1b]0;pwned\x07\x1b[2J\u009b2J\u202e\u2066\u2028\ufeff\xe9", d["iterations"]["name"]' && ok ||
	bad "JSON keeps the configuration's iteration name, escaped"

# ---- a key map: UTF-8 text, or refused at the bad byte (an overlong
# '/' bound '/'; a NUL ended the line, the rest unread)
printf '\300\257 quit\n' >"$dir/overlong.keys"
printf 'j move-down\nq quit\000zzz\n' >"$dir/nul.keys"
runs -s 2 "key map" "$dir/overlong.keys" "keys --keymap"
runs -s 2 "key map" "$dir/nul.keys" "keys --keymap"
"$skein" keys --keymap "$dir/overlong.keys" 2>&1 >/dev/null | grep -q 'overlong.keys:1:1: byte 0xc0 is not UTF-8$' &&
	ok || bad "a key map with an overlong '/' refused at 1:1"
"$skein" keys --keymap "$dir/nul.keys" 2>&1 >/dev/null | grep -q 'nul.keys:2:7: a NUL byte in the line$' &&
	ok || bad "a key map with a NUL inside a line refused at 2:7"

# ---- a sample set: a data symbol and a column named with them
cp -r "$root/traces/samples/toy" "$dir/sset"
python3 -c 'import sys
p = sys.argv[1] + "/data/samples.csv"
e = sys.argv[2]
s = open(p, encoding="utf-8", errors="surrogateescape").read()
s = s.replace("\nd,", "\n\"d" + e + "\",").replace("zidx\n", "z" + e + "idx\n", 1)
open(p, "w", encoding="utf-8", errors="surrogateescape").write(s)' "$dir/sset" "$esc$uni"
runs "sample set" "$dir/sset" "samples --format text" "samples --format json" \
	"samples --format csv --table symbols" "samples --format csv --table resources" \
	"samples --format csv --table lines" "render --size 120x40" "render --size 120x40 --keys <Tab><Tab>"
runs -s 2 "sample set" "$dir/sset" "samples --attribute nope"

echo "escape tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
