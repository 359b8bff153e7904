#!/bin/sh
# hostile.sh SKEIN CRAFT — hostile input on a shared login node (issue 18,
# doc/robustness.md): archives written by CRAFT (tests/hostile/craft.c,
# the OTF2 writer), FIFOs, hostile configurations, key maps and
# topologies, full disks, memory limits and signals. Each case checks the
# exit status, the one-line message and, for the memory cases, that skein
# stays within a stated address-space limit (ulimit -v).
skein=$1
craft=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
case $craft in /*) ;; *) craft=$root/$craft ;; esac
tmp=$(mktemp -d /tmp/skein-hostile-XXXXXX)
sock=skein-hostile-$$
cleanup() {
	command -v tmux >/dev/null 2>&1 && tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=$tmp/xdg
ulimit -c 0 2>/dev/null   # SIGQUIT below would dump core
# glibc's malloc as a user's skein has it: on huge pages (make check's
# GLIBC_TUNABLES) the heap grows in aligned 2 MB steps, and under the
# address-space limits below skein then ran out a little earlier, at a
# point that moved from run to run
unset GLIBC_TUNABLES

# The address-space limit for the memory cases: skein's code, libraries,
# two threads' stacks and the model of these tiny archives fit in a few
# tens of MB; before issue 18 each of them took 1.3 to 24 GB.
MEM_KB=200000

# expect NAME STATUS PATTERN -- ARGS: runs skein and checks the status
# and that stderr is one line matching the grep -E PATTERN (an empty
# PATTERN: stderr empty). The time limit guards against a hang (a FIFO
# opened and waited on): what passes takes well under a second, and the
# limit is far above it, so that a loaded machine cannot fail a test.
guard=120
expect() {
	name=$1 want=$2 pat=$3
	shift 4
	timeout --signal=KILL "$guard" "$skein" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	# a usage error adds the hint "Try 'skein --help'." on a line of its own
	grep -v "^Try 'skein --help'.\$" "$tmp/err" >"$tmp/err1"
	mv "$tmp/err1" "$tmp/err"
	lines=$(wc -l <"$tmp/err" | tr -d ' ')
	if [ "$got" -ne "$want" ]; then
		bad "$name: exit $got, want $want ($(head -c 300 "$tmp/err"))"
	elif [ -z "$pat" ] && [ -s "$tmp/err" ]; then
		bad "$name: unexpected message: $(head -c 300 "$tmp/err")"
	elif [ -n "$pat" ] && { [ "$lines" != 1 ] || ! grep -Eq -- "$pat" "$tmp/err"; }; then
		bad "$name: want one line matching '$pat', got $lines: $(head -c 300 "$tmp/err")"
	else
		ok
	fi
}
# the same under ulimit -v MEM_KB
expect_mem() {
	name=$1
	shift
	( ulimit -v $MEM_KB; expect "$name (within $MEM_KB KB)" "$@"; echo "$pass $fail" >"$tmp/counts" )
	read -r pass fail <"$tmp/counts"
}
mk() { "$craft" "$1" "$tmp/$2" ${3:+"$3"} >/dev/null || bad "craft $1 failed"; }
# a Projections run (the tests' constructed one, unpacked)
prj() {
	mkdir -p "$tmp/$1" && awk 'BEGIN { f = "run.sts"; n = 0 } /^===$/ { f = "run." n ".log"; n++; next }
		{ print > (d "/" f) }' d="$tmp/$1" "$root/tests/fuzz/prj/constructed"
}

[ -x "$craft" ] || { echo "hostile tests: $craft missing"; exit 1; }
mk plain plain

# ---- 1. memory bounded by what the archive holds
mk big-ids big-ids
expect_mem "ids near 2^26" 0 '' -- info "$tmp/big-ids"
grep -q '^messages      16 (16 matched' "$tmp/out" && ok || bad "ids near 2^26: the messages match"
mk spread-comms spread 20000
expect_mem "20,000 spread-out communicators" 0 '' -- info "$tmp/spread"
grep -q '^messages      16 (16 matched' "$tmp/out" && ok || bad "spread communicators: the messages match"
mk wide-comms wide 20000
expect_mem "20,000 communicators naming one group of 100,000" 1 'wide/traces.otf2: communicators with more than 16777216 members in all' -- info "$tmp/wide"
mk many-locs locs 10000
expect_mem "10,000 locations without local definitions, 16 MiB chunks" 0 '' -- info "$tmp/locs"
grep -q '^other locs    10000 ' "$tmp/out" && ok || bad "10,000 other locations counted"
mk many-defs defs 2000
expect_mem "2,000 local definition files, 16 MiB chunks" 0 '' -- info "$tmp/defs"
# threads' lock records that do not pair (a release of a lock never
# taken, one taken and never released, one taken inside another) and a
# release at the largest timestamp: the records counted, the two holds a
# rank that close kept (the largest time once marked an open hold and
# hung the reader)
mk bad-locks locks
expect "lock records that do not pair" 0 '' -- info "$tmp/locks"
grep -q 'THREAD_ACQUIRE_LOCK 16, THREAD_RELEASE_LOCK 12' "$tmp/out" && ok || bad "bad locks: every record counted"
grep -q '^locks         8 acquisitions of 2 locks by the threads$' "$tmp/out" && ok || bad "bad locks: the two holds a rank that close kept"
expect "lock records that do not pair, analysed and saved" 0 '' -- analyze --save "$tmp/locks.skein" "$tmp/locks"
expect "lock records that do not pair, from the saved file" 0 '' -- info "$tmp/locks.skein"
grep -q '^locks         8 acquisitions of 2 locks by the threads$' "$tmp/out" && ok || bad "bad locks: the holds saved"
# MPI_COMM_WORLD listing the locations last first (location k is rank
# N-1-k; the events are each rank's as in plain): the ranks' files are
# read in the reverse of rank order, which once built the model out of
# order and read past the ends array (ASan; the release build printed
# nothing and exited 0). The model is plain's, so every report is.
mk plain plain64 64
mk reversed reversed64 64
for cmd in "analyze --format json" "info --format json" "profile --format json" "comm --format json"; do
	a=$("$skein" $cmd "$tmp/plain64" 2>&1 | sed "s|$tmp/plain64|T|g")
	b=$("$skein" $cmd "$tmp/reversed64" 2>&1 | sed "s|$tmp/reversed64|T|g")
	[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "ranks' locations defined in reverse: $cmd differs from plain's"
done
# a clock that goes back: skein reads each such time as its
# predecessor's, and export --otf2 writes it so (the OTF2 writer refused
# the raw time: "cannot copy the events", exit 1, and a broken archive
# was left behind); the copy reads with no warning and the same events.
# The OTF2 writer refuses such a time, so plain's rank 1 has its middle
# timestamp record (token 5, then 8 bytes) set back to 900.
mk plain backwards
python3 - "$tmp/backwards/traces/1.evt" <<'PY' || bad "backwards: no timestamp to set back"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = [i for i in range(len(b) - 9) if b[i] == 5 and 1000 <= struct.unpack_from("<Q", b, i + 1)[0] < 10**6]
struct.pack_into("<Q", b, at[len(at) // 2] + 1, 900)
open(sys.argv[1], "wb").write(b)
PY
expect "a clock that goes back" 0 '' -- info "$tmp/backwards"
grep -q '^warning       1 event earlier than its predecessor$' "$tmp/out" && cp "$tmp/out" "$tmp/bw.info" && ok ||
	bad "a clock that goes back: not said ($(grep '^warning' "$tmp/out"))"
expect "export of a clock that goes back" 0 'warning: 1 record timed before its predecessor written at its time, as skein read it' -- export -q --otf2 "$tmp/bwx" "$tmp/backwards"
expect "the export of a clock that goes back, read" 0 '' -- info "$tmp/bwx"
! grep -q '^warning' "$tmp/out" && [ "$(grep '^events' "$tmp/out")" = "$(grep '^events' "$tmp/bw.info")" ] && ok ||
	bad "the export of a clock that goes back: $(grep '^warning\|^events' "$tmp/out")"
# a directory holding an OTF2 archive and a Projections run: one was
# opened without a word; now refused, naming what to give instead
mkdir "$tmp/both" && cp -r "$tmp/plain/." "$tmp/both/" && : >"$tmp/both/run.sts"
expect "an OTF2 archive and a Projections run in one directory" 1 'both: holds an OTF2 archive and a Projections run; name the file to open \(the \.otf2 anchor or the \.sts\)' -- info "$tmp/both"
expect "the archive of that directory, named" 0 '' -- info "$tmp/both/traces.otf2"
# ids defined twice, the second saying something else (a region renamed
# MPI_Recv, the world a group of one): the later definition silently
# replaced the earlier (two "main" rows in the profile, MPI_Send gone);
# now the first is kept and the rest counted, and the analysis is plain's
mk dup-defs dupdefs
expect "ids defined twice" 0 '' -- analyze "$tmp/dupdefs"
grep -q "^warning       5 definitions of an id defined before (the first kept)$" "$tmp/out" &&
	[ "$(sed '1,2d' "$tmp/out")" = "$("$skein" analyze "$tmp/plain" | sed 1d)" ] && ok ||
	bad "ids defined twice: $(grep '^warning' "$tmp/out")"
# clock properties that do not fit: every event before the global offset
# (all times were taken as 0 without a word: "no operation created
# lateness", exit 0) is counted and said; a resolution of 0 (taken as 1
# tick a second) is refused
mk late-offset lateoff
expect "events before the clock's offset" 0 '' -- info "$tmp/lateoff"
grep -q "^warning       104 events before the clock's global offset (taken as at it)$" "$tmp/out" && ok ||
	bad "events before the clock's offset: not said ($(grep '^warning' "$tmp/out"))"
mk zero-resolution zerores
expect "a timer resolution of 0" 1 'zerores/traces.otf2: the clock properties give a timer resolution of 0 ticks a second: no time can be read' -- analyze "$tmp/zerores"
# 200,000 locks held at once and let go in the order taken: each release
# finds its hold in a table (a scan of the open holds made this 27 s)
mk many-locks manylocks
expect "200,000 locks held at once" 0 '' -- info "$tmp/manylocks"
grep -q '^locks         800000 acquisitions of 200000 locks by the threads$' "$tmp/out" && ok || bad "many locks: every hold kept"
# 200,000 distinct OpenMP teams begun on each rank (the first the
# undefined team), a task created with no region open and one switched to
# with none entered after, then 10,000 threads beginning one team each:
# every team's parallel region tagged, each counted in a table by team
# and location, which no location clears for the next (the whole table,
# grown by the ranks, was once cleared for each thread: 2.4 s on one
# core, 0.5 now)
mk many-teams manyteams
expect "200,000 OpenMP teams a rank" 0 '' -- info "$tmp/manyteams"
grep -q 'THREAD_TEAM_BEGIN 810000, THREAD_TASK_CREATE 4, THREAD_TASK_SWITCH 4$' "$tmp/out" && ok || bad "many teams: every record counted"
expect "200,000 OpenMP teams a rank, analysed" 0 '' -- analyze "$tmp/manyteams"
# a chunk size past OTF2's 16 MiB, checked before libotf2 allocates it
cp -r "$tmp/plain" "$tmp/chunk"
printf '\377\377\377\377' | dd of="$tmp/chunk/traces.otf2" bs=1 seek=22 conv=notrunc 2>/dev/null
expect "definition chunk size of 2^56" 1 'traces.otf2: corrupt anchor file \(chunk size outside' -- info "$tmp/chunk"
# more locations than the global definitions can hold
cp -r "$tmp/plain" "$tmp/nloc"
printf '\377\377\377' | dd of="$tmp/nloc/traces.otf2" bs=1 seek=33 conv=notrunc 2>/dev/null
expect "anchor claims 2^24 locations" 1 'traces.def: truncated or corrupt global definitions \(the anchor declares' -- info "$tmp/nloc"

# a group claiming more members than its record holds: libotf2 read past
# its buffer (SEGV, found by fuzz_otf2)
cp -r "$tmp/plain" "$tmp/group"
python3 - "$tmp/group/traces.def" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
p = 18
while d[p] != 2:
    t, n = d[p], d[p + 1]
    if t == 18 and d[p + 2:p + 6] == bytes([0, 0, 6, 1]):   # self 0, name 0, the member count
        d[p + 6] = 200
        break
    p += 2 + n
open(sys.argv[1], "wb").write(d)
PY
expect "a group claiming 200 members in 8 bytes" 1 'traces.def: corrupt global definitions \(a group claims more members than its record holds at byte [0-9]+\)' -- info "$tmp/group"
# a Projections .sts claiming 2^24 PEs beside the logs of 2: the first
# missing log is named, in the memory and time of the two logs (slots for
# every PE claimed were allocated first, and touched again to be freed:
# 10 GB and 23-29 s before the same message)
prj prj-huge && sed 's/^PROCESSORS 2$/PROCESSORS 16777216/' "$tmp/prj-huge/run.sts" >"$tmp/sts" &&
	mv "$tmp/sts" "$tmp/prj-huge/run.sts"
expect_mem "PROCESSORS 16777216 beside 2 logs" 1 'prj-huge/run.2.log\(.gz\): missing: the .sts names 16777216 PEs and this is the log of PE 2$' 5 -- info "$tmp/prj-huge/run.sts"
# a chare and an entry method of id 10^7 (the largest a .sts may give)
# beside the run's own: the run analysed as without them (tables indexed
# by id took 1 GB for it)
prj prj-ids && cp -r "$tmp/prj-ids" "$tmp/prj-dense"
awk '/^END$/ { print "CHARE 10000000 \"Big\" -1"; print "ENTRY CHARE 10000000 \"big()\" 10000000 0" } { print }' \
	"$tmp/prj-ids/run.sts" >"$tmp/sts" && mv "$tmp/sts" "$tmp/prj-ids/run.sts"
grep -q '^ENTRY CHARE 10000000' "$tmp/prj-ids/run.sts" || bad "sparse .sts ids: the lines were not added"
expect_mem "chare and entry ids of 10^7" 0 '' -- analyze "$tmp/prj-ids/run.sts"
sed 's/prj-ids/prj-dense/' "$tmp/out" >"$tmp/ids.out"
"$skein" analyze "$tmp/prj-dense/run.sts" 2>&1 | cmp -s - "$tmp/ids.out" && ok ||
	bad "chare and entry ids of 10^7: analyze differs from the run without them"

# ---- 2. missing, empty or unreadable local definitions
cp -r "$tmp/plain" "$tmp/nodef" && rm "$tmp/nodef/traces/1.def"
expect "local definitions missing" 1 'nodef/traces/1.def: local definitions missing, while the other locations.* map ids' -- info "$tmp/nodef"
cp -r "$tmp/plain" "$tmp/emptydef" && : >"$tmp/emptydef/traces/1.def"
expect "local definitions empty" 1 'emptydef/traces/1.def: local definitions empty' -- analyze "$tmp/emptydef"
cp -r "$tmp/plain" "$tmp/dirdef" && rm "$tmp/dirdef/traces/1.def" && mkdir "$tmp/dirdef/traces/1.def"
expect "local definitions unreadable" 1 'dirdef/traces/1.def: is a directory, not a regular file' -- info "$tmp/dirdef"
mk global-ids gids
rm "$tmp/gids/traces/1.def"
expect "no mapping tables anywhere: a warning naming the file" 0 '' -- info "$tmp/gids"
grep -q '^warning       1 location without local definitions, read with global ids, e.g. .*gids/traces/1.def$' "$tmp/out" &&
	grep -q '^messages      16 (16 matched' "$tmp/out" && ok || bad "info names the file without local definitions"
expect "the warning on stderr for analyze" 0 'warning: .*gids/traces/1.def: no local definitions; 1 location read with global ids' -- analyze "$tmp/gids"
cp -r "$tmp/plain" "$tmp/noevt" && rm "$tmp/noevt/traces/2.evt"
expect "event file missing" 1 'noevt/traces/2.evt: No such file or directory \(the definitions declare 26 events\)' -- info "$tmp/noevt"

# ---- 3. no hangs: FIFOs everywhere, a corrupt anchor, signals
mkfifo "$tmp/fifo"
expect "FIFO as the trace" 1 'fifo: is a FIFO, not an OTF2 archive' -- info "$tmp/fifo"
mkdir "$tmp/fanchor" && mkfifo "$tmp/fanchor/traces.otf2"
expect "FIFO as the anchor" 1 'fanchor/traces.otf2: is a FIFO, not a regular file' -- info "$tmp/fanchor"
for f in traces.def traces/0.def traces/0.evt; do
	d=$tmp/f$(echo "$f" | tr '/.' '__')
	cp -r "$tmp/plain" "$d" && rm "$d/$f" && mkfifo "$d/$f"
	expect "FIFO as $f" 1 "is a FIFO, not a regular file" -- info "$d"
done
expect "FIFO as --topology" 2 'fifo: is a FIFO, not a regular file' -- render --topology "$tmp/fifo" "$tmp/plain"
expect "FIFO as --keymap" 2 'fifo: is a FIFO, not a regular file' -- render --keymap "$tmp/fifo" "$tmp/plain"
expect "FIFO as --config" 2 'fifo: is a FIFO, not a regular file' -- config --config "$tmp/fifo"
# a Projections run: a FIFO as its .sts or as a PE's log, plain or
# compressed, is refused before a read; a .sts naming fewer PEs than the
# logs beside it is an error naming them
prj prj-sts && rm "$tmp/prj-sts/run.sts" && mkfifo "$tmp/prj-sts/run.sts"
expect "FIFO as a Projections .sts" 1 'prj-sts/run.sts: is a FIFO, not a regular file' -- info "$tmp/prj-sts/run.sts"
expect "FIFO as the .sts of a run's directory" 1 'prj-sts/run.sts: is a FIFO, not a regular file' -- analyze "$tmp/prj-sts"
prj prj-log && rm "$tmp/prj-log/run.1.log" && mkfifo "$tmp/prj-log/run.1.log"
expect "FIFO as a PE's log" 1 'prj-log/run.1.log: is a FIFO, not a regular file' -- info "$tmp/prj-log/run.sts"
prj prj-gz && rm "$tmp/prj-gz/run.0.log" && mkfifo "$tmp/prj-gz/run.0.log.gz"
expect "FIFO as a PE's compressed log" 1 'prj-gz/run.0.log.gz: is a FIFO, not a regular file' -- analyze "$tmp/prj-gz/run.sts"
prj prj-pes && cp "$tmp/prj-pes/run.0.log" "$tmp/prj-pes/run.3.log" && gzip -c "$tmp/prj-pes/run.1.log" >"$tmp/prj-pes/run.2.log.gz"
expect "PROCESSORS below the logs present" 1 'prj-pes/run.sts: PROCESSORS 2, but logs of 2 more PEs lie beside it \(PE 2, 3\): the .sts and the logs are not of one run' -- info "$tmp/prj-pes/run.sts"
rm "$tmp/prj-pes/run.2.log.gz" "$tmp/prj-pes/run.3.log"
expect "the same run without the extra logs" 0 '' -- info "$tmp/prj-pes/run.sts"
mkdir -p "$XDG_CONFIG_HOME/skein" && mkfifo "$XDG_CONFIG_HOME/skein/config.yaml"
expect "FIFO as the user's configuration" 2 'config.yaml: is a FIFO, not a regular file' -- info "$tmp/plain"
rm -rf "$XDG_CONFIG_HOME"
# the anchor's strings without their terminating NUL: libotf2 searched
# the following reads for one for 12-30 s
cp -r "$tmp/plain" "$tmp/nul"
head -c 46 "$tmp/plain/traces.otf2" >"$tmp/nul/traces.otf2"
printf 'craft, no end' >>"$tmp/nul/traces.otf2"
expect "an anchor string without its NUL" 1 'nul/traces.otf2: corrupt anchor file \(machine name not terminated\)' -- info "$tmp/nul"

# signals: a slow leap merge (a tree reduction) is cancelled at once. The
# leap merge alone is near-linear now (0.1 s here); forced merges still
# level the whole partition graph after each (5 s), so --leap-force keeps
# the merge slow enough to be interrupted. The signal is sent once the
# merge has begun, as its progress on a terminal (script gives it one)
# says, not after a time: on a fast or a loaded machine alike it falls
# inside the merge
gen=$root/traces/gen/skein-gen
[ -x "$gen" ] || make -s -C "$root/traces/gen" >/dev/null 2>&1
if [ -x "$gen" ] && "$gen" -q -f -t tree -p 16 -e 300k -o "$tmp/tree" 2>/dev/null; then
	for c in "render|TERM|143" "analyze|TERM|143" "render|HUP|129"; do
		cmd=${c%%|*} rest=${c#*|} sig=${rest%%|*} want=${rest#*|}
		# cancelled, not finished: the status of the signal and nothing
		# on stdout (a finished analyze or render prints its result);
		# the watchdog only guards against a hang
		rm -f "$tmp/sig.pid" "$tmp/sig.tty"
		script -qfec "echo \$\$ >$tmp/sig.pid; exec $skein $cmd --leap-merge --leap-force $tmp/tree >$tmp/sig.out" \
			"$tmp/sig.tty" >/dev/null 2>&1 </dev/null &
		p=$!
		( sleep "$guard"; kill -KILL "$p" ) >/dev/null 2>&1 &
		dog=$!
		while kill -0 "$p" 2>/dev/null && ! grep -q "leap merging" "$tmp/sig.tty" 2>/dev/null; do
			sleep 0.1
		done
		kill -"$sig" "$(cat "$tmp/sig.pid" 2>/dev/null)" 2>/dev/null
		{ wait "$p"; } 2>/dev/null   # no "Terminated" from the shell
		got=$?
		kill "$dog" 2>/dev/null
		[ "$got" = "$want" ] && [ ! -s "$tmp/sig.out" ] && ok ||
			bad "$cmd --leap-merge --leap-force: SIG$sig during the merge gives $got (want $want, the work cancelled, nothing printed): $(head -c 300 "$tmp/sig.out")"
	done
	# analyze shows the leap merge's progress on a terminal (script gives it one)
	timeout --signal=KILL "$guard" script -qc "$skein analyze --leap-merge --leap-force $tmp/tree >/dev/null" /dev/null 2>&1 |
		tr '\r' '\n' | grep -q '^skein: leap merging  *[0-9]*%' && ok || bad "analyze shows leap merging progress"
else
	echo "skipped: signals during leap merge (cannot build or run traces/gen/skein-gen)"
fi

# ---- 4. quadratic paths: capped, with a clear error
awk 'BEGIN { print "phases:\n  split_at:"; for (i = 0; i < 200000; i++) print "    - r" i }' >"$tmp/big.yaml"
expect "200,000 split_at names" 2 'big.yaml:3:5: phases.split_at: 200000 items, more than the 1024' -- config --config "$tmp/big.yaml"
awk 'BEGIN { print "phases:\n  split_at:"; for (i = 0; i < 1000; i++) print "    - r" i; print "    - r500" }' >"$tmp/dup.yaml"
expect "a repeated split_at name" 2 "dup.yaml:1003:7: phases.split_at: 'r500' is listed twice \(first at line 503, column 7\)" -- config --config "$tmp/dup.yaml"
awk 'BEGIN { print "keys:"; for (i = 0; i < 1100; i++) print "  a" i ": [k" i "]" }' >"$tmp/keys.yaml"
expect "1,100 actions in keys" 2 'keys.yaml:2:3: keys: 1100 items, more than the 1024' -- config --config "$tmp/keys.yaml"
expect "a synthetic topology of 10^9 PUs" 2 "'pack:1000 core:1000 pu:1000': more than 65536 objects" -- render --topology 'pack:1000 core:1000 pu:1000' "$tmp/plain"

# ---- 5. escape sequences never reach the terminal
mk escape esc
for a in "info" "info --ranks" "analyze" "analyze -f csv -t ops" "analyze -f csv -t hotspots" "info -f json" "analyze -f json" \
	"diff $tmp/esc" "diff -f csv $tmp/esc" "diff -f csv -t regions $tmp/esc" "export --csv" "export --json"; do
	# shellcheck disable=SC2086
	"$skein" $a "$tmp/esc" >"$tmp/out" 2>"$tmp/err"
	if tr -d '\n\t' <"$tmp/out" | LC_ALL=C grep -q '[[:cntrl:]]' || LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err"; then
		bad "$a: control characters from the archive reach the terminal"
	else
		ok
	fi
done
"$skein" info "$tmp/esc" | grep -q '^creator       craft?]0;pwned??\[2J (OTF2' && ok || bad "info shows the creator's escapes as '?'"
"$skein" analyze -f csv -t ops "$tmp/esc" >"$tmp/ops.csv" &&
	python3 -c 'import csv,sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert all(len(r) == len(rows[0]) for r in rows), "as many fields as the header"
assert rows[1][rows[0].index("region")] == "ma\"in,?[2J", rows[1]' "$tmp/ops.csv" && ok || bad "CSV quoting per RFC 4180"
"$skein" info -f json "$tmp/esc" | python3 -c 'import json,sys; d = json.load(sys.stdin); assert d["creator"] == "craft\x1b]0;pwned\x07\x1b[2J"' &&
	ok || bad "JSON keeps the exact creator, escaped"
printf 'q\033]0;x\007 quit\n' >"$tmp/esc.keys"
expect "a key map with escapes" 2 "esc.keys:1:1: .*'q\?\]0;x\?'" -- render --keymap "$tmp/esc.keys" "$tmp/plain"
printf 'structure:\n  l\033[2Jeap: 1\n' >"$tmp/esc.yaml"
expect "a configuration key with escapes" 2 "esc.yaml:2:4: control characters are not allowed \(0x1b\)" -- config --config "$tmp/esc.yaml"

# a sample set (issue 14) under the same rule: a data symbol and a column
# named with escapes, in every output and in a message naming the columns
cp -r "$root/traces/samples/toy" "$tmp/sset"
python3 -c 'import sys
p = sys.argv[1] + "/data/samples.csv"
s = open(p).read().replace("\nd,", "\n\"d\x1b[2J\x1b]0;x\x07\",").replace("zidx\n", "z\x1b[2Jidx\n", 1)
open(p, "w").write(s)' "$tmp/sset"
for a in "samples --format text" "samples --format csv --table symbols" "samples --format json" \
	"samples --attribute nope" "render --size 120x40"; do
	# shellcheck disable=SC2086
	"$skein" $a "$tmp/sset" >"$tmp/out" 2>"$tmp/err"
	if tr -d '\n\t' <"$tmp/out" | LC_ALL=C grep -q '[[:cntrl:]]' || LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err"; then
		bad "$a on a sample set: control characters from its files reach the terminal"
	else
		ok
	fi
done
"$skein" samples --format text "$tmp/sset" | grep -q '  d?\[2J?\]0;x?$' && ok || bad "samples shows a symbol's escapes as '?'"
# FIFOs where a sample set's files belong: refused at once
mkdir -p "$tmp/fifo-set/data" "$tmp/fifo-hw/data"
cp "$root/traces/samples/toy/hardware.xml" "$tmp/fifo-set/" && mkfifo "$tmp/fifo-set/data/samples.csv"
cp "$root/traces/samples/toy/data/samples.csv" "$tmp/fifo-hw/data/" && mkfifo "$tmp/fifo-hw/hardware.xml"
expect "a FIFO as the samples" 1 'fifo-set/data/samples.csv: is a FIFO, not a regular file' -- samples --format text "$tmp/fifo-set"
expect "a FIFO as the hardware" 1 'fifo-hw/hardware.xml: is a FIFO, not a regular file' -- samples --format text "$tmp/fifo-hw"
mkfifo "$tmp/save.fifo"
timeout "$guard" "$skein" render "$root/traces/samples/toy" --size 120x24 --keys ":save $tmp/save.fifo<Enter>" |
	grep -q "cannot save $tmp/save.fifo: No such device or address" && ok || bad ":save to a FIFO from a sample set"

# ---- 6. exit codes and messages
printf '<?xml version="1.0"?>\n<topology version="2.0">\n<object type="Machine" os_index="0" cpuset="0x1"><object type="PU" os_index="0" cpuset="0xzz"/></object></topology>\n' >"$tmp/crash.xml"
expect "an XML topology that crashes libhwloc" 2 'crash.xml: hwloc [0-9.]+ crashed reading the topology' -- render --topology "$tmp/crash.xml" "$tmp/plain"
printf 'garbage' >"$tmp/garbage.xml"
expect "a garbage XML topology" 2 'garbage.xml: not an hwloc XML topology' -- render --topology "$tmp/garbage.xml" "$tmp/plain"
# the same from a configuration names where it was given (file:line:column);
# a source without its file or description was ignored without a word
printf 'topology:\n  source: hwloc\n  hwloc: %s\n' "$tmp/garbage.xml" >"$tmp/topo.yaml"
expect "a garbage XML topology from a configuration" 2 'topo.yaml:3:10: .*garbage.xml: not an hwloc XML topology' -- render --config "$tmp/topo.yaml" "$tmp/plain"
printf 'topology:\n  source: synthetic\n' >"$tmp/topo2.yaml"
expect "a synthetic topology without its description" 2 'topo2.yaml:2:11: topology.source is synthetic, but topology.synthetic is empty' -- render --config "$tmp/topo2.yaml" "$tmp/plain"
expect "a missing XML topology" 2 '/none.xml: No such file or directory' -- render --topology "$tmp/none.xml" "$tmp/plain"
for a in "--help" "--version" "config" "keys" "info $tmp/plain" "analyze -f json $tmp/plain" "render --size 80x12 $tmp/plain" \
	"samples --format text $root/traces/samples/toy" "samples --format csv --table lines $root/traces/samples/toy" \
	"render --size 80x24 $root/traces/samples/toy" "diff $tmp/plain $tmp/plain" "diff -f json $tmp/plain $tmp/plain" \
	"export --csv $tmp/plain" "export --json $tmp/plain"; do
	# shellcheck disable=SC2086
	"$skein" $a >/dev/full 2>"$tmp/err"
	got=$?
	[ "$got" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q '^skein: cannot write to standard output: No space left on device$' "$tmp/err" && ok ||
		bad "$a >/dev/full: exit $got, $(cat "$tmp/err")"
done
expect "--phase '['" 2 "--phase: '\[' is never closed in '\['" -- analyze --phase '[' "$tmp/plain"
expect "--iteration-region '['" 2 "iterations.region: '\[': '\[' is never closed" -- analyze --iteration-region '[' "$tmp/plain"
printf 'phases:\n  split_at: ["a[b"]\n' >"$tmp/glob.yaml"
expect "split_at 'a[b'" 2 "glob.yaml:2:14: phases.split_at: 'a\[b': '\[' is never closed" -- config --config "$tmp/glob.yaml"
python3 -c 'import sys
with open(sys.argv[1], "w") as f:
    for c in range(0x100, 0x100 + 300): f.write(chr(c) + " quit\n")' "$tmp/many.keys"
expect "300 key bindings" 2 'many.keys:[0-9]+:1: more than 256 key bindings, the most skein keeps' -- render --keymap "$tmp/many.keys" "$tmp/plain"
"$skein" render "$tmp/plain" --size 120x12 --keys ':save /dev/full<Enter>' | tail -1 | grep -q '^ cannot save /dev/full: No space left on device' &&
	ok || bad ":save /dev/full names the path and the reason"
# a limit just above what skein needs to start (its libraries: libxml2
# brings ICU's 30 MB of data), found in 5 MB steps: the archive's 16 MiB
# chunks do not fit
low=20000
while [ $low -lt 400000 ] && ! ( ulimit -v $low; "$skein" --version >/dev/null 2>&1 ); do low=$((low + 5000)); done
( ulimit -v $low; "$skein" info "$tmp/defs" >/dev/null 2>"$tmp/err"; echo $? >"$tmp/rc" )
[ "$(cat "$tmp/rc")" = 1 ] && grep -q 'out of memory' "$tmp/err" && [ "$(wc -l <"$tmp/err")" = 1 ] && ok ||
	bad "under a $low KB limit: 'out of memory' ($(cat "$tmp/err"))"
mk huge-bytes huge
"$skein" info "$tmp/huge" | grep -q '^messages      16 (16 matched.*), at least 18446744073709551615 bytes$' &&
	ok || bad "byte totals saturate instead of wrapping"

# ---- 7. the explorer gives the terminal back whatever signal ends it
if command -v tmux >/dev/null 2>&1; then
	pane=h
	. "$root/tests/tmux.sh"
	t -f /dev/null new-session -d -s h -x 120 -y 40 \
		"env -i PATH=/usr/bin:/bin HOME=$tmp TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 PS1='h\$ ' sh"
	t set -g status off >/dev/null
	wait_for '^h\$' || bad "shell prompt in tmux"
	t send-keys -t h "stty -g >$tmp/stty.before; clear" Enter
	# the status as the shell would report it: a shell abandons the rest
	# of a command line when a job dies of SIGINT, so python waits instead
	cat >"$tmp/status.py" <<'PY'
import signal, subprocess, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
p = subprocess.Popen(sys.argv[2:], preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
open(sys.argv[1], "w").write("%d\n" % p.pid)
r = p.wait()
print("status=%d" % (128 - r if r < 0 else r))
PY
	# a FIFO where the prompts' history belongs must not hang start-up
	mkdir -p "$tmp/.local/state/skein" && mkfifo "$tmp/.local/state/skein/history"
	# the whole terminal state after each: the line settings (stty), and
	# as tmux sees the pane, the keypad's application modes, the alternate
	# screen, mouse reports off and the cursor shown
	modes='#{keypad_cursor_flag}#{keypad_flag}#{alternate_on}#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}#{cursor_flag}'
	[ "$(t display -p -t h "$modes")" = 0000001 ] || bad "tmux reports the pane's modes"
	i=0
	for c in "QUIT|131" "USR1|138" "PIPE|141" "TERM|143" "INT|130" "HUP|129" "q|0"; do
		sig=${c%%|*} want=${c#*|} i=$((i + 1))
		rm -f "$tmp/pid"
		t send-keys -t h "clear; python3 $tmp/status.py $tmp/pid $skein explore $tmp/plain; stty -g | cmp -s - $tmp/stty.before && echo TTY-OK-$i" Enter
		wait_for 'logical · lateness' || bad "explorer start ($sig)"
		[ "$(t display -p -t h "$modes")" = 1111110 ] || bad "the explorer's modes ($sig)"
		pid=$(cat "$tmp/pid" 2>/dev/null)
		if [ "$sig" = q ]; then
			t send-keys -t h q
		elif [ -n "$pid" ]; then
			kill -"$sig" "$pid"
		fi
		wait_for "^TTY-OK-$i" && screen | grep -q "^status=$want\$" &&
			[ "$(t display -p -t h "$modes")" = 0000001 ] && ok ||
			bad "SIG$sig: terminal restored ($(t display -p -t h "$modes") of keypad, alternate screen, mouse, cursor) and status $want ($(screen | grep status=))"
	done
	# a bad --topology in the explorer: exit 2 and one line, before any screen
	t send-keys -t h "clear; $skein explore --topology $tmp/crash.xml $tmp/plain 2>$tmp/xerr; echo topo-status=\$?" Enter
	wait_for '^topo-status=' 10 && screen | grep -q '^topo-status=2$' && [ "$(wc -l <"$tmp/xerr")" = 1 ] &&
		grep -q 'crash.xml: hwloc [0-9.]* crashed' "$tmp/xerr" && ok || bad "explore --topology crash.xml: exit 2, one line"
	# leap merge in the explorer: progress shown, Ctrl-C cancels with 130
	if [ -f "$tmp/tree/traces.otf2" ]; then
		t send-keys -t h "clear; python3 $tmp/status.py $tmp/pid $skein explore --leap-merge --leap-force $tmp/tree" Enter
		wait_for 'leap merging' 10 && ok || bad "the explorer shows leap merging progress"
		t send-keys -t h C-c
		wait_for '^status=130$' 3 && ok || bad "Ctrl-C cancels leap merging ($(screen | tail -3))"
	fi
	t send-keys -t h exit Enter
else
	echo "skipped: terminal restoration (tmux missing)"
fi

# Out of memory, each allocation of a skein run failing in turn
# (tests/failmalloc.c: the k-th malloc, calloc or realloc of the process,
# the libraries' included), on one thread, so that the k-th allocation
# is the same one each run: exit 1 and one line saying so, or exit 0 and
# the whole output, or (where the command has such notes) the output
# saying what it left out; never a crash, a hang or another status.
fm=$(cd "$(dirname "$skein")/tests" 2>/dev/null && pwd)/failmalloc.so
# oom_line FILE: FILE is one line saying out of memory (read by the
# shell: the sweeps run skein some 300 times)
oom_line() {
	{ IFS= read -r l1 && ! IFS= read -r l2; } <"$1" || return 1
	case $l1 in *"out of memory"*) return 0 ;; esac
	return 1
}
# fm_sweep NAME LAST STRIDE NOTE SAID FAILED ARG...: skein ARG... with
# allocation k failing, every one of the LAST last and every STRIDE-th
# before; a run that goes on must print the whole output or say (the
# extended regular expression NOTE, at least SAID runs; empty: no note
# is accepted) what it left out, and then pass the command $check (none:
# empty) on its output; at least FAILED runs must fail for want of memory
fm_sweep() {
	name=$1 last=$2 stride=$3 note=$4 min_said=$5 min_failed=$6
	shift 6
	SKEIN_THREADS=1 "$skein" "$@" >"$tmp/fm.want" 2>/dev/null
	SKEIN_THREADS=1 SKEIN_FAIL_COUNT=$tmp/fm.count LD_PRELOAD=$fm "$skein" "$@" >/dev/null 2>&1
	total=$(cat "$tmp/fm.count" 2>/dev/null || echo 0)
	[ "$total" -gt 1000 ] && ok || bad "failmalloc.so counted $total allocations of $name"
	k=1 said=0 failed=0 fm_bad=
	while [ "$k" -le "$total" ]; do
		SKEIN_THREADS=1 timeout --signal=KILL "$guard" env SKEIN_FAIL_AT=$k LD_PRELOAD="$fm" \
			"$skein" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
		st=$?
		if [ "$st" = 1 ] && oom_line "$tmp/err"; then
			failed=$((failed + 1))
		elif [ "$st" = 0 ] && [ ! -s "$tmp/err" ] && [ -n "$note" ] && grep -Eq "$note" "$tmp/out" &&
			{ [ -z "$check" ] || $check "$tmp/out"; }; then
			said=$((said + 1))
		elif [ "$st" != 0 ] || ! cmp -s "$tmp/out" "$tmp/fm.want"; then
			fm_bad="$fm_bad allocation $k: exit $st, $(head -c 200 "$tmp/err")$(diff "$tmp/fm.want" \
				"$tmp/out" | head -3 | tr '\n' ' ');"
		fi
		if [ "$k" -ge $((total - last)) ]; then
			k=$((k + 1))
		else      # the stride, but never past the first of the last
			k=$((k + stride))
			[ "$k" -gt $((total - last)) ] && k=$((total - last))
		fi
	done
	[ -z "$fm_bad" ] && ok || bad "$name out of memory:$fm_bad"
	[ "$failed" -ge "$min_failed" ] && [ "$said" -ge "$min_said" ] && ok ||
		bad "$name: $failed allocations failed it, $said sections said they were not shown"
}
if [ -f "$fm" ]; then
	check=
	# loading the configuration (the built-in defaults and a --config
	# file), every 47th of some 2,300 allocations: a configuration that
	# could not be loaded for want of memory exited 2 (a usage error)
	printf 'structure:\n  leap_merge: true\n  hotspots: 7\n' >"$tmp/fm.yaml"
	fm_sweep "config --dump" 0 47 '' 0 41 --config "$tmp/fm.yaml" config --dump
	# analyze's report from a saved analysis (no libotf2, whose anchor
	# reader crashes on a failed allocation: doc/robustness.md): every
	# one of the last 120 allocations (the file opened, the model, the
	# explanations and the report; the thousands before are the built-in
	# configuration's, above) and every 97th before. A section that could
	# not be made says so in its place ("not shown: out of memory", the
	# critical path "not computed"); before, the wait states, the longest
	# waits, the ranks', partitions' and iterations' tables and the most
	# blame went missing without a word
	saved=$tmp/fm.skein
	"$skein" analyze -q --save "$saved" "$root/traces/corpus/stencil-4/traces.otf2" >/dev/null 2>&1
	fm_sweep analyze 120 97 'not (shown|computed): .*out of memory' 4 10 analyze "$saved"
	# the JSON report: {"not_shown": "out of memory"} where a section
	# would be (the iterations and the critical path went missing, an
	# empty list stood for the path's ranks, and the wait totals' arrays
	# were freed twice: glibc aborted)
	is_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
	check=is_json
	fm_sweep "analyze --format json" 70 211 '"not_shown": "out of memory"' 4 10 \
		analyze --format json "$saved"
	check=
	# a CSV table is the whole output: one it could not make is an
	# error, nothing written (the iterations' and the critical path's
	# were empty, exit 0)
	for table in iterations critical; do
		fm_sweep "analyze --table $table" 25 1009 '' 0 10 analyze --format csv --table "$table" "$saved"
	done
else
	bad "$(dirname "$skein")/tests/failmalloc.so is not built (make it first)"
fi

echo "hostile tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
