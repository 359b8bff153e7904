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

# a run that is not there, and a .sts that is not one: one line, exit 1
"$skein" info "$tmp/none.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "missing .sts"
echo "hello" >"$tmp/x.sts"
"$skein" info "$tmp/x.sts" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q 'x.sts:1:1: not a Projections .sts file' "$tmp/err" && ok || bad "not a .sts"

echo "charm.sh: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
