#!/bin/sh
# walkthrough.sh SKEIN — the explorer's first hour on a login node (issue
# 12), end to end in tmux: 80x24, TERM=xterm-256color inside tmux,
# NO_COLOR, LANG=C (ASCII glyphs). On the corpus trace stencil-4-delay (a
# 100 ms delay created by computation on rank 1 at step 6) it opens at the
# top hotspot, reads its lateness and cause without scrolling, follows c
# from a rank that inherited the delay back to it, searches a user
# region, clicks a cell, saves the view under ~ and reopens it to the same
# screen. Skips when tmux is missing.
skein=$1
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
trace=$root/traces/corpus/stencil-4-delay/traces.otf2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
if ! command -v tmux >/dev/null 2>&1; then
	echo "walkthrough: tmux is missing, skipped"
	exit 0
fi
[ -f "$trace" ] || { echo "walkthrough: $trace is missing"; exit 1; }

tmp=$(mktemp -d /tmp/skein-walk-XXXXXX)
sock=skein-walk-$$
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pane=walk
. "$root/tests/tmux.sh"
# the status line's selection, e.g. "r1 step 6"
at() { screen | head -1 | grep -q " $1 "; }

mkdir -p "$tmp/home"
t -f /dev/null new-session -d -s walk -x 80 -y 24 \
	"env -i PATH=/usr/bin:/bin HOME=$tmp/home TERM=xterm-256color NO_COLOR=1 LANG=C LC_ALL=C TZ=UTC PS1='walk\$ ' sh" ||
	{ echo "walkthrough: cannot start tmux"; exit 1; }
t set -g status off >/dev/null
wait_for '^walk\$' || bad "shell prompt"

# 1. open: the first screen is the top hotspot, lateness and cause in view
t send-keys -t walk "clear; $skein $trace" Enter
wait_for 'logical . lateness' || bad "the explorer starts ($(screen | head -2))"
wait_for 'problem 1/20: r1 computation s6 made others wait 200.1 ms' && at 'r1 step 6' && ok ||
	bad "it opens at the top problem, rank 1 step 6 ($(screen | head -1))"
screen | grep -q '^|lateness 100.2 ms \. diff\. 100.0 ms \. global 100.2 ms' &&
	screen | grep -q '^|cause created-compute: lateness created here' && ok ||
	bad "lateness, differential lateness and cause are on the 80x24 screen without scrolling"
! screen | LC_ALL=C grep -q '[^ -~]' && ok || bad "LANG=C: ASCII only"
t send-keys -t walk '>' '<'
wait_for 'problem 1/20' && at 'r1 step 6' && ok || bad "> and < come back to the top problem"

# 2. follow c: rank 0's Waitall inherited the delay from rank 1's Isend,
# whose message left when rank 1 reached its Waitall (sender progress): c
# goes to the computation before that Waitall, then the Isend, then the
# delay itself
t send-keys -t walk ':' 'r' 'a' 'n' 'k' ' ' '0' Enter ':' 's' 't' 'e' 'p' ' ' '9' Enter
wait_for 'lateness  r0 step 9 ' || bad ":rank 0 :step 9"
screen | grep -q '^|cause propagated-message' && screen | grep -q "from rank 1's MPI_Isend (step 7)" && ok ||
	bad "rank 0 step 9: propagated from rank 1's Isend, which waited for its Waitall"
t send-keys -t walk c
wait_for 'lateness  r1 step 8 ' && screen | grep -q '^|cause propagated-timeline' && ok ||
	bad "c goes to rank 1's computation before its Waitall"
t send-keys -t walk c
wait_for 'lateness  r1 step 7 ' && screen | grep -q '^|cause propagated-timeline' && ok || bad "c goes to rank 1's Isend"
t send-keys -t walk c
wait_for 'lateness  r1 step 6 ' && screen | grep -q '^|cause created-compute' && ok || bad "c again reaches the computation that created it"

# 3. search a user region, through the whole region stack
t send-keys -t walk '/' 'i' 't' 'e' 'r' Tab
wait_for '^/iteration' && ok || bad "Tab completes the region name"
t send-keys -t walk Enter
wait_for '/iteration: match [0-9]+/112' && ok || bad "/iteration matches the 112 operations inside an iteration"

# 4. click a cell: rank 2 (screen row 7) at step 4 (column 11)
click 11 7
wait_for 'lateness  r2 step 4 ' && ok || bad "a click selects rank 2 step 4 ($(screen | head -1))"

# 5. save the view under ~, note the screen, reopen it
t send-keys -t walk ':' 's' 'a' 'v' 'e' ' ' '~' '/' 'w' 'a' 'l' 'k' '.' 'y' 'a' 'm' 'l' Enter
wait_for 'view saved to ~/walk.yaml' && [ -f "$tmp/home/walk.yaml" ] && ok || bad ":save ~/walk.yaml writes into HOME"
t send-keys -t walk Escape
wait_gone 'view saved'
screen >"$tmp/before.txt"
t send-keys -t walk q
wait_gone 'logical . lateness' || bad "q"
t send-keys -t walk "clear; $skein --config ~/walk.yaml $trace" Enter
wait_for 'lateness  r2 step 4 ' || bad "reopening the saved view"
sleep 0.3
screen >"$tmp/after.txt"
if cmp -s "$tmp/before.txt" "$tmp/after.txt"; then
	ok
else
	bad "the reopened view is not the saved screen"
	diff "$tmp/before.txt" "$tmp/after.txt" | head -10
fi
t send-keys -t walk q
wait_gone 'logical . lateness' || bad "q after reopening"
t send-keys -t walk "exit" Enter
echo "walkthrough: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
