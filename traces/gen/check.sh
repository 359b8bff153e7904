#!/bin/sh
# check.sh — end-to-end checks of skein-gen: generate small traces of every
# pattern, read them back with otf2-print and verify them with
# check_trace.py (record counts against the generator's --dry-run summary,
# message matching, collectives, timestamps, placement, delay propagation),
# plus determinism, --events, multi-pass writing and option errors.
# Last line: "N passed, M failed"; exit status 1 if anything failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
gen=$here/skein-gen
chk="python3 $here/check_trace.py"

for tool in otf2-print python3; do
    command -v $tool >/dev/null 2>&1 || { echo "check.sh: needs $tool"; exit 1; }
done
make -s -C "$here" skein-gen || exit 1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skein-gen-check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0

# run NAME COMMAND...: one test; its output is shown only when it fails.
run() {
    name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        pass=$((pass + 1))
        echo "ok   $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        sed 's/^/     /' "$tmp/out"
    fi
}

# gen_verify DIR NODES ARGS...: write DIR, summarise the same arguments with
# --dry-run, and verify the archive against the summary.
gen_verify() {
    d=$tmp/$1
    nodes=$2
    shift 2
    "$gen" -q -o "$d" "$@" &&
        "$gen" --dry-run "$@" >"$d.sum" &&
        $chk verify "$d/traces.otf2" "$d.sum" "$nodes"
}

# same DIR1 DIR2: byte-identical archives.
same() {
    diff -r "$tmp/$1" "$tmp/$2"
}

# ---- every pattern: plain, delayed, propagation, determinism -------------
for p in stencil tree ring dissemination sparse coalesce mixed gather; do
    # Does one delay reach every rank within its own iteration?
    case $p in sparse | coalesce) full=0 ;; *) full=1 ;; esac
    base="-t $p -p 8 -n 3 -N 2"
    run "$p: 8 ranks, 3 iterations, 2 nodes" gen_verify $p 2 $base
    run "$p: with --delay 500:3:1" gen_verify $p-d 2 $base -d 500:3:1
    run "$p: the delay propagates causally" \
        $chk delay "$tmp/$p/traces.otf2" "$tmp/$p-d/traces.otf2" 500 3 1 $full
    run "$p: same arguments, identical archive" \
        sh -c "'$gen' -q -o '$tmp/$p-again' $base && diff -r '$tmp/$p' '$tmp/$p-again'"
done

# ---- shapes and options --------------------------------------------------
run "ring --sendrecv, 6 ranks" gen_verify ring-sr 1 -t ring -p 6 -n 2 --sendrecv
run "dissemination --sendrecv, 5 ranks" \
    gen_verify dis-sr 1 -t dissemination -p 5 -n 2 --sendrecv
for p in stencil tree dissemination sparse coalesce; do
    run "$p: 5 ranks (prime: 1-D grid), 3 nodes" \
        gen_verify $p-5 3 -t $p -p 5 -n 2 -N 3
done
run "stencil: 12 ranks (3x4 grid)" gen_verify st12 3 -t stencil -p 12 -n 2 -N 3
run "mixed: 2 ranks, 7 iterations (every pattern)" \
    gen_verify two 2 -t mixed -p 2 -n 7 -N 2
run "two delays, seed 7, no jitter, allreduce every 2" \
    gen_verify multi 4 -p 16 -n 4 -N 4 -d 200:0:0 -d 300.5:15:3 \
    --seed 7 --jitter 0 -k 2
run "sparse: skip 90%, bigger messages" \
    gen_verify sp90 2 -t sparse -p 9 -n 4 -N 2 --skip-pct 90 --msg-bytes 1M
run "another seed, another archive" \
    sh -c "'$gen' -q -o '$tmp/seed2' -t stencil -p 8 -n 3 -N 2 -s 2 && ! diff -r -q '$tmp/stencil' '$tmp/seed2' >/dev/null"

# ---- --events: the fewest iterations reaching the target -----------------
events_target() {
    s=$("$gen" --dry-run -t coalesce -p 8 -e 20000) || return 1
    n=$(echo "$s" | awk '$1 == "iterations" { print $2 }')
    e=$(echo "$s" | awk '$1 == "events" { print $2 }')
    less=$("$gen" --dry-run -t coalesce -p 8 -n $((n - 1)) |
        awk '$1 == "events" { print $2 }')
    echo "iterations $n: $e events; $((n - 1)): $less"
    [ "$e" -ge 20000 ] && [ "$less" -lt 20000 ]
}
run "--events 20000 picks the fewest iterations" events_target
run "--events archive verifies" gen_verify ev 1 -t coalesce -p 8 -e 2e4

# ---- writing in several passes changes nothing ---------------------------
passes() {
    "$gen" -q -o "$tmp/one" -p 32 -e 4e5 &&
        "$gen" -o "$tmp/many" -p 32 -e 4e5 --mem-mb 1 2>"$tmp/many.sum" &&
        grep "^write_passes" "$tmp/many.sum" &&
        [ "$(awk '$1 == "write_passes" { print $2 }' "$tmp/many.sum")" -gt 1 ] &&
        same one many
}
run "--mem-mb 1 writes in passes, same archive" passes

# ---- errors --------------------------------------------------------------
run "an existing archive is not overwritten" \
    sh -c "! '$gen' -q -o '$tmp/stencil' -p 8 -n 3 -N 2"
run "--force replaces it" \
    sh -c "'$gen' -q -f -o '$tmp/stencil' -t stencil -p 8 -n 3 -N 2 && diff -r '$tmp/stencil' '$tmp/stencil-again'"
run "bad arguments are refused" sh -c "
    ! '$gen' --dry-run -p 1 && ! '$gen' --dry-run -t nope &&
    ! '$gen' --dry-run -d 5:8:0 -p 8 && ! '$gen' --dry-run -d 5:1 &&
    ! '$gen' --dry-run -n 3 -e 100 && ! '$gen' --dry-run -N 9 -p 8 &&
    ! '$gen' -p 8"
run "--help" sh -c "'$gen' --help | grep -q -- --pattern"

# ---- skein-gen-charm: Projections logs ------------------------------------
gc=$here/skein-gen-charm
make -s -C "$here" skein-gen-charm || exit 1
# charm_counts DIR ARGS...: write DIR, and check that the records of each
# type in the logs (zcat | awk) are what --dry-run says, and that each
# log's header states its own record count.
charm_counts() {
    d=$tmp/$1
    shift
    "$gc" -q -f -o "$d" "$@" && "$gc" --dry-run "$@" >"$d.sum" || return 1
    for log in "$d"/jacobi.*.log*; do
        zcat -f "$log" | awk -v f="$log" 'NR == 1 { want = $2; next } { n++ }
            END { if (n != want) { print f ": header says " want ", " n " records"; exit 1 } }' || return 1
    done
    zcat -f "$d"/jacobi.*.log* | awk '
        BEGIN { split("1 CREATION 2 BEGIN_PROCESSING 3 END_PROCESSING 6 BEGIN_COMPUTATION 7 END_COMPUTATION 14 BEGIN_IDLE 15 END_IDLE 20 CREATION_BCAST", a, " ")
                for (i = 1; i < 16; i += 2) name[a[i]] = a[i + 1] }
        /^PROJECTIONS-RECORD/ { next }
        { c[name[$1] != "" ? name[$1] : "OTHER"]++; total++ }
        END { print "records", total; for (k in c) print k, c[k] }' | sort >"$d.got"
    grep -v "^iterations\|^chares\|^pes\| 0$" "$d.sum" | sort >"$d.want"
    diff "$d.want" "$d.got"
}
run "charm: 4 PEs, 4x4 chares, counts match --dry-run" charm_counts c44 -n 5
run "charm: 8 PEs, 12x5 chares, a delay, plain logs" charm_counts c8 -p 8 -x 12 -y 5 -n 4 -d 3000:2,3:1 --plain
run "charm: 1 PE" charm_counts c1 -p 1 -x 2 -y 3 -n 3
run "charm: same arguments, identical logs" \
    sh -c "'$gc' -q -o '$tmp/c44-again' -n 5 && diff -r '$tmp/c44' '$tmp/c44-again'"
charm_events() {
    s=$("$gc" --dry-run -e 20000) || return 1
    n=$(echo "$s" | awk '$1 == "iterations" { print $2 }')
    r=$(echo "$s" | awk '$1 == "records" { print $2 }')
    less=$("$gc" --dry-run -n $((n - 1)) | awk '$1 == "records" { print $2 }')
    echo "iterations $n: $r records; $((n - 1)): $less"
    [ "$r" -ge 20000 ] && [ "$less" -lt 20000 ]
}
run "charm: --events 20000 picks the fewest iterations" charm_events
run "charm: bad arguments are refused" sh -c "
    ! '$gc' --dry-run -p 0 && ! '$gc' --dry-run -p 32 -x 4 -y 4 &&
    ! '$gc' --dry-run -d 5:4,0:0 && ! '$gc' --dry-run -d 5:1:0 &&
    ! '$gc' --dry-run -n 3 -e 100 && ! '$gc' -n 2 &&
    ! '$gc' -q -o '$tmp/c44' -n 5"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
