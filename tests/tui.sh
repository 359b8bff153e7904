#!/bin/sh
# tui.sh SKEIN — the explorer end to end: the real binary in a tmux
# session (120x40, TERM=screen, LANG=C.UTF-8, TZ=UTC), driven with
# send-keys and read back with capture-pane; plus `skein render` through
# the command line against the golden screens. Skips when tmux is absent.
skein=$1
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d /tmp/skein-tui-XXXXXX)
sock=skein-tui-$$
cleanup() {
	command -v tmux >/dev/null 2>&1 && tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# a trace of our own: skein-gen output is byte-identical on every run
gen=$root/traces/gen/skein-gen
[ -x "$gen" ] || make -s -C "$root/traces/gen" >/dev/null 2>&1
if [ ! -x "$gen" ] || ! "$gen" -q -f -o "$tmp/stencil8d" -p 8 -n 4 -t stencil -d 2000:3:1; then
	echo "tui tests: skipped (cannot build or run traces/gen/skein-gen)"
	exit 0
fi
trace=$tmp/stencil8d/traces.otf2
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC

# --- skein render on the command line draws the golden screens
for c in "hotspot|>|" "color-256|>|--color ansi" "ascii|>|--ascii" "pane-details|>|--pane details --size 60x30"; do
	name=${c%%|*}; rest=${c#*|}; keys=${rest%%|*}; opts=${rest#*|}
	# shellcheck disable=SC2086
	if "$skein" render "$trace" --size 120x40 --keys "$keys" $opts >"$tmp/out" 2>"$tmp/err" &&
		cmp -s "$tmp/out" "$root/tests/golden/$name.txt"; then ok; else bad "render $name differs from tests/golden/$name.txt"; fi
done
"$skein" render "$trace" --size 0x5 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "render --size 0x5 is a usage error"
"$skein" render "$trace" --pane nope >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "render --pane nope is a usage error"
"$skein" render "$trace" --keys "<Nope>" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "a bad key script is a usage error"
"$skein" explore "$trace" >"$tmp/out" 2>"$tmp/err" </dev/null; [ $? -eq 2 ] && grep -q 'needs a terminal' "$tmp/err" &&
	ok || bad "explore without a terminal"
"$skein" "$trace" | grep -q '^operations ' && ok || bad "skein TRACE into a pipe prints info"
"$skein" render --leap-merge --metric diff "$trace" --size 100x30 >"$tmp/out" && grep -q 'differential lateness' "$tmp/out" &&
	ok || bad "structure and explorer options reach render"

if ! command -v tmux >/dev/null 2>&1; then
	echo "tui tests: tmux is missing, interactive tests skipped"
	echo "tui tests: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -t tui; }
# wait_for PATTERN [SECONDS]: until the screen matches (grep -E)
wait_for() {
	n=0 limit=$(( ${2:-5} * 10 ))
	while [ $n -lt $limit ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
wait_gone() {
	n=0
	while [ $n -lt 50 ]; do
		screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
t -f /dev/null new-session -d -s tui -x 120 -y 40 \
	"env -i PATH=/usr/bin:/bin HOME=$tmp TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC PS1='tui\$ ' sh" ||
	{ echo "tui tests: cannot start tmux"; echo "tui tests: $pass passed, 1 failed"; exit 1; }
t set -g status off >/dev/null
wait_for '^tui\$' || bad "shell prompt in tmux"
t send-keys -t tui "stty -g >$tmp/stty.before; clear" Enter

# start, move, jump, help
t send-keys -t tui "$skein $trace" Enter
wait_for 'logical · lateness' && wait_for 'r0 step 0' && ok || bad "the explorer shows the grid ($(screen | head -3))"
screen | grep -q '^│r0  ▸·C·C·s·r·C' && ok || bad "grid row of rank 0"
t send-keys -t tui j l l
wait_for 'r1 step 2' && ok || bad "j and l move the selection"
t send-keys -t tui '>'
wait_for 'r3 step 10' && wait_for 'hotspot 1/20' && ok || bad "> jumps to the delayed rank"
t send-keys -t tui '?'
wait_for 'help · Esc' && ok || bad "? opens the help"
t send-keys -t tui Escape
wait_gone 'help · Esc' && ok || bad "Esc closes the help"
t send-keys -t tui ':' 's' 't' 'e' 'p' ' ' '2' '0' Enter
wait_for 'r3 step 20' && ok || bad ":step 20"

# resize at any moment: narrow layout, tiny, back
t resize-window -t tui -x 90 -y 30
wait_for '^┌ details ─' && ok || bad "resize to 90x30 stacks the details under the grid"
[ "$(screen | head -1 | wc -m)" -le 91 ] && ok || bad "status line fits 90 columns"
t resize-window -t tui -x 30 -y 8
wait_for 'terminal too small: 30x8' && ok || bad "tiny terminal message"
t resize-window -t tui -x 120 -y 40
wait_for '┌ logical · lateness ─' && wait_for '│r3  ▸' && ok || bad "back to 120x40 with the selection kept"

# q quits and gives the terminal back
t send-keys -t tui q
wait_gone 'logical · lateness' && ok || bad "q leaves the alternate screen"
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED" Enter
wait_for '^TTY-RESTORED' && ok || bad "terminal modes restored after q"

# Ctrl-C and SIGTERM restore it too
t send-keys -t tui "clear; $skein $trace" Enter
wait_for 'logical · lateness' || bad "second start"
t send-keys -t tui C-c
wait_gone 'logical · lateness' && ok || bad "Ctrl-C quits"
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-2" Enter
wait_for '^TTY-RESTORED-2' && ok || bad "terminal modes restored after Ctrl-C"

# the explorer's pid: a shell that writes its own and becomes skein
t send-keys -t tui "clear; sh -c 'echo \$\$ >$tmp/pid; exec $skein $trace'" Enter
wait_for 'logical · lateness' || bad "third start"
pid=$(cat "$tmp/pid" 2>/dev/null)
[ -n "$pid" ] && kill -TERM "$pid"
wait_gone 'logical · lateness' && ok || bad "SIGTERM ends the explorer"
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-3" Enter
wait_for '^TTY-RESTORED-3' && ok || bad "terminal modes restored after SIGTERM"

# a trace without MPI communication: the explorer refuses in one line, exit 1
ocl=$root/../shared/traces/otf2/casita-1_ocl_deps
if [ -d "$ocl" ]; then
	t send-keys -t tui "clear; $skein $ocl; echo EXIT=\$?" Enter
	wait_for '^EXIT=1' && screen | grep -q "^skein: $ocl: nothing to analyse: OpenCL, compiler and user regions" &&
		ok || bad "the explorer refuses a trace without MPI communication ($(screen | tail -3))"
fi

# skein diff on a terminal: the explorer on AFTER compared with BEFORE
corpus=$root/traces/corpus
t send-keys -t tui "clear; $skein diff $corpus/stencil-4 $corpus/stencil-4-delay; echo DIFF-DONE" Enter
wait_for 'logical · Δ lateness' 10 && ok || bad "skein diff on a terminal opens the explorer on the change ($(screen | head -2))"
t send-keys -t tui '>'
wait_for 'the largest change between' && wait_for 'before │ after' && ok ||
	bad "the details show both runs ($(screen | tail -5))"
t send-keys -t tui ':' 'i' 't' 'e' 'r' ' ' '4' Enter
wait_for 'iteration 4 of 6: steps 20' && ok || bad ":iter 4"
t send-keys -t tui q
wait_for '^DIFF-DONE' && ok || bad "q leaves the comparison"
t send-keys -t tui "clear; $skein diff $corpus/stencil-4 $corpus/stencil-4-delay | head -3 | tail -1" Enter
wait_for '^structure     9 partitions alike' && ok || bad "skein diff into a pipe prints the report"

t send-keys -t tui "exit" Enter
echo "tui tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
