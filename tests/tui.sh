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

# --- skein render on the command line draws the golden screens (which
# press > from rank 0, step 0: the screen skein opens with)
for c in "hotspot||" "color-256||--color ansi" "ascii||--ascii" "pane-details||--pane details --size 60x30"; do
	name=${c%%|*}; rest=${c#*|}; keys=${rest%%|*}; opts=${rest#*|}
	# shellcheck disable=SC2086
	if "$skein" render "$trace" --size 120x40 --keys "$keys" $opts >"$tmp/out" 2>"$tmp/err" &&
		cmp -s "$tmp/out" "$root/tests/golden/$name.txt"; then ok; else bad "render $name differs from tests/golden/$name.txt"; fi
done
"$skein" render "$trace" --size 0x5 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "render --size 0x5 is a usage error"
"$skein" render "$trace" --size 30x8 >"$tmp/out" 2>"$tmp/err"; [ $? -eq 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q '^skein: --size 30x8 is too small: the explorer needs at least 40x12$' "$tmp/err" && ok ||
	bad "render below the minimum size is a usage error naming the minimum ($(head -1 "$tmp/err"))"
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

pane=tui
. "$root/tests/tmux.sh"
t -f /dev/null new-session -d -s tui -x 120 -y 40 \
	"env -i PATH=/usr/bin:/bin HOME=$tmp TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC PS1='tui\$ ' sh" ||
	{ echo "tui tests: cannot start tmux"; echo "tui tests: $pass passed, 1 failed"; exit 1; }
t set -g status off >/dev/null
wait_for '^tui\$' || bad "shell prompt in tmux"
t send-keys -t tui "stty -g >$tmp/stty.before; clear" Enter

# start, move, jump, help
t send-keys -t tui "$skein $trace" Enter
wait_for 'logical · lateness' && wait_for 'r3 step 10' && wait_for 'problem 1/20' && ok ||
	bad "the explorer opens at the top problem, the delayed rank ($(screen | head -3))"
screen | grep -q '^│r0   ·C·C·s·r·C' && ok || bad "grid row of rank 0"
t send-keys -t tui j l l
wait_for 'r4 step 12' && ok || bad "j and l move the selection"
t send-keys -t tui '>'
wait_for 'problem 2/20' && ok || bad "> goes on to the next problem"
t send-keys -t tui '<'
wait_for 'r3 step 10' && wait_for 'problem 1/20' && ok || bad "< back to the delayed rank"
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
# skein has ended before anything is typed: typed while it still ends
# (slower under load), the line is not echoed and the answer lands on
# the prompt's line, where '^TTY-RESTORED' does not find it
shell_back() {
	n=0
	while [ "$(t display -p -t tui '#{pane_current_command}')" != sh ] && [ $n -lt 150 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
shell_back
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED" Enter
wait_for '^TTY-RESTORED' && ok || bad "terminal modes restored after q"

# Ctrl-C and SIGTERM restore it too
t send-keys -t tui "clear; $skein $trace" Enter
wait_for 'logical · lateness' || bad "second start"
t send-keys -t tui C-c
wait_gone 'logical · lateness' && ok || bad "Ctrl-C quits"
shell_back
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-2" Enter
wait_for '^TTY-RESTORED-2' && ok || bad "terminal modes restored after Ctrl-C"

# the explorer's pid: a shell that writes its own and becomes skein
t send-keys -t tui "clear; sh -c 'echo \$\$ >$tmp/pid; exec $skein $trace'" Enter
wait_for 'logical · lateness' || bad "third start"
pid=$(cat "$tmp/pid" 2>/dev/null)
[ -n "$pid" ] && kill -TERM "$pid"
wait_gone 'logical · lateness' && ok || bad "SIGTERM ends the explorer"
shell_back
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-3" Enter
wait_for '^TTY-RESTORED-3' && ok || bad "terminal modes restored after SIGTERM"

# Ctrl-Z gives the terminal back as q does: the mouse reports off (they
# stayed on at the prompt: ncurses's own handler knows nothing of them),
# the alternate screen left, the cursor shown, the modes the shell's;
# fg sets them again and draws the screen whole, at the size it has now
modes() { t display -p -t tui '#{mouse_any_flag} #{mouse_sgr_flag} #{alternate_on} #{cursor_flag}'; }
t send-keys -t tui "clear; $skein $trace" Enter
wait_for 'logical · lateness' || bad "fourth start"
t send-keys -t tui C-z
wait_gone 'logical · lateness' && ok || bad "Ctrl-Z leaves the alternate screen"
shell_back
[ "$(modes)" = "0 0 0 1" ] && ok || bad "Ctrl-Z: mouse reports off, the cursor shown ($(modes))"
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-Z" Enter
wait_for '^TTY-RESTORED-Z' && ok || bad "terminal modes restored after Ctrl-Z"
t resize-window -t tui -x 90 -y 30
t send-keys -t tui "clear; fg" Enter
wait_for '^┌ details ─' && wait_for 'r3 step 10 ' && ok || bad "fg draws the explorer again, at 90x30 ($(screen | head -2))"
[ "$(modes)" = "1 1 1 0" ] && ok || bad "after fg the mouse reports are on again ($(modes))"
t send-keys -t tui j
wait_for 'r4 step 10 ' && ok || bad "keys reach the explorer after fg"
t resize-window -t tui -x 120 -y 40
t send-keys -t tui q
wait_gone 'logical · lateness' || bad "q after fg"
shell_back
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-5" Enter
wait_for '^TTY-RESTORED-5' && ok || bad "terminal modes restored after Ctrl-Z, fg and q"

# after the hotspot (issue 36): the profile, a matrix cell's messages,
# a list jump, the timeline zoomed, panned and a window marked by keys
# and by a drag, :window
t send-keys -t tui "clear; $skein $trace" Enter
wait_for 'problem 1/20' || bad "start for the panes"
t send-keys -t tui p
wait_for 'profile · time by region · whole trace · 8 ranks' && wait_for '^│MPI_Allreduce ' && ok ||
	bad "p opens the profile ($(screen | head -4))"
t send-keys -t tui v
wait_for 'by rank' && ok || bad "v: the ranks of the selected region"
t send-keys -t tui v Enter
wait_for 'the longest ' && wait_for 'logical · lateness' && ok || bad "Enter in the profile goes to the longest call ($(screen | tail -1))"
t send-keys -t tui a
wait_for 'communication · bytes sent' && wait_for 'Enter lists them' && ok || bad "a opens the matrix"
t send-keys -t tui Enter
wait_for 'messages of the cell' && ok || bad "Enter on a cell lists its messages"
t send-keys -t tui Enter
wait_for 'from send to receive' && wait_for 'took ' && ok || bad "Enter on a message goes to its send and says how long it took"
t send-keys -t tui i v
wait_for "^┌ hotspots" && ok || bad "i and v: the hotspots ($(screen | head -3))"
t send-keys -t tui j Enter
wait_for 'hotspots 2 of 20' && wait_for 'logical · lateness' && ok || bad "Enter in a list goes to the row's operation"
t send-keys -t tui T
wait_for '^┌ timeline · steps' && ok || bad "T gives the timeline the whole screen"
t send-keys -t tui + +
wait_for 'the timeline shows ' && wait_for '^┌ timeline · 0\.' && ok || bad "+ zooms in time"
t send-keys -t tui L
wait_for '^┌ timeline · 0\.' && ok || bad "L pans"
t send-keys -t tui s l l s
wait_for 'window 0\.[0-9]+ s to 0\.[0-9]+ s' && ok || bad "s, moves, s mark a window ($(screen | tail -2))"
# a drag from column 20 to 60 on the row of rank 2 (screen row 6, 1-based)
t send-keys -t tui -l "$(printf '\033[<0;20;6M\033[<0;60;6m')"
wait_for 'window 0\.[0-9]+ s to 0\.[0-9]+ s' && ok || bad "a drag marks a window"
t send-keys -t tui p
wait_for 'profile · time by region · 0\.' && ok || bad "the profile takes the marked window"
t send-keys -t tui Escape ':' 'w' 'i' 'n' 'd' 'o' 'w' ' ' '0' '.' '0' '0' '1' ' ' '0' '.' '0' '0' '2' Enter
wait_for 'window 0.001000 s to 0.002000 s' && ok || bad ":window T1 T2"
t send-keys -t tui q
wait_gone 'logical · lateness' || bad "q after the panes"

# a trace without communication (nor threads or streams): the explorer
# refuses in one line, exit 1
nocomm=$tmp/nocomm
if "$(dirname "$skein")/tools/craft" no-comm "$nocomm" 2 >/dev/null 2>&1; then
	t send-keys -t tui "clear; $skein $nocomm; echo EXIT=\$?" Enter
	wait_for '^EXIT=1' && screen | grep -q "^skein: $nocomm: nothing to analyse: MPI and user regions" &&
		ok || bad "the explorer refuses a trace without MPI communication ($(screen | tail -3))"
else
	bad "craft no-comm"
fi

# a region named in characters two columns wide and with combining
# accents: curses draws them where the grid put them, no line past the
# terminal, each pane's line between its borders (as Python's unicodedata
# counts)
cat >"$tmp/widths.py" <<'PY'
import sys, unicodedata
def w(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ('Mn', 'Me', 'Cf'):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ('W', 'F') else 1
want, bad = int(sys.argv[1]), 0
for line in sys.stdin.read().split('\n'):
    n = sum(w(c) for c in line)
    box = line.startswith(('\u2502', '\u250c', '\u2514'))
    bad |= n > want or (box and (n != want or not line.endswith(('\u2502', '\u2510', '\u2518'))))
sys.exit(bad)
PY
if "$(dirname "$skein")/tools/craft" wide "$tmp/wide" >/dev/null 2>&1; then
	t send-keys -t tui "clear; $skein $tmp/wide" Enter
	wait_for 'logical · lateness' || bad "the explorer opens a trace of wide names"
	t send-keys -t tui p
	wait_for '^│計算ループ' && screen | python3 "$tmp/widths.py" 120 && ok ||
		bad "wide names in the profile stay inside its borders ($(screen | grep '計' | head -1))"
	# the accents on their letters, as curses was handed them with
	# their letters (they were left out: "cafe_resume")
	screen | grep -q "_caf$(printf 'e\314\201')_r$(printf 'e\314\201')sum$(printf 'e\314\201')" && ok ||
		bad "combining accents in the profile ($(screen | grep '計' | head -1))"
	t send-keys -t tui p T
	wait_for '┌ timeline' && screen | python3 "$tmp/widths.py" 120 && ok ||
		bad "wide names in the timeline's legend stay inside its borders"
	t send-keys -t tui q
	wait_gone 'logical · lateness' || bad "q on the trace of wide names"
else
	bad "craft wide"
fi

# threads and GPU streams (issue 40): a hybrid run of skein-gen-hybrid;
# T gives the timeline the screen, Space opens the selected rank's
# process (its OpenMP threads and CUDA stream under its row), again closes it
hgen=$root/traces/gen/skein-gen-hybrid
[ -x "$hgen" ] || make -s -C "$root/traces/gen" skein-gen-hybrid >/dev/null 2>&1
if [ -x "$hgen" ] && "$hgen" --force --ranks 2 --threads 3 --iterations 3 "$tmp/hybrid" 2>/dev/null; then
	t send-keys -t tui "clear; $skein $tmp/hybrid/traces.otf2" Enter
	wait_for 'logical · lateness' || bad "the explorer opens a hybrid trace"
	t send-keys -t tui T
	wait_for '┌ timeline' || bad "T on a hybrid trace"
	t send-keys -t tui Space
	wait_for '^│└T2' && wait_for '^│└G1' && ok || bad "Space opens the rank's threads and stream ($(screen | head -8))"
	t send-keys -t tui Space
	wait_gone '^│└G1' && ok || bad "Space again closes them"
	t send-keys -t tui q
	wait_gone 'logical · lateness' || bad "q on the hybrid trace"
else
	bad "skein-gen-hybrid"
fi

# --- a login node's terminal (issue 12): TERM=xterm-256color inside tmux,
# whose Home/End/F-keys xterm's terminfo does not list
t send-keys -t tui "clear; TERM=xterm-256color $skein $trace" Enter
wait_for 'logical · lateness' && wait_for 'r3 step 10 ' || bad "start with TERM=xterm-256color"
t send-keys -t tui End
wait_for 'r3 step 29 ' && ok || bad "End (ESC [ 4 ~) goes to the last step ($(screen | head -1))"
t send-keys -t tui Home
wait_for 'r3 step 0 ' && ok || bad "Home (ESC [ 1 ~) goes to the first step"
t send-keys -t tui F5
wait_for 'F5 is not bound' && ok || bad "F5 is one key"
t send-keys -t tui -l "$(printf '\033[99~')"
t send-keys -t tui l
wait_for 'r3 step 1 ' && ! screen | grep -q 'not bound' && ok ||
	bad "an unknown sequence is dropped whole, not read as keys"
# Ctrl-C in a prompt cancels it; skein keeps running
t send-keys -t tui ':' 's' 't' 'e' 'p'
wait_for '^:step' || bad "the command line opens"
t send-keys -t tui C-c
wait_gone '^:step' && sleep 0.3 && screen | grep -q 'logical · lateness' && ok ||
	bad "Ctrl-C in the command line cancels it without quitting"
t send-keys -t tui '/' 'x' C-c
wait_gone '^/x' && screen | grep -q 'logical · lateness' && ok || bad "Ctrl-C in the search prompt cancels it"
# the explorer asks for mouse reports in SGR form
[ "$(t display -p -t tui '#{mouse_any_flag}#{mouse_sgr_flag}')" = 11 ] && ok || bad "mouse reporting is on, SGR encoded"
# a click (SGR 1006 report) selects the cell under it: row r2 is screen
# row 6 (1-based 7), step 4 is column 1 + label 5 + 4 (1-based 11)
click 11 7
wait_for 'r2 step 4 ' && ok || bad "a click selects a cell ($(screen | head -1))"
# the prompt edits: Tab completes, the history is kept between sessions
t send-keys -t tui ':' 's' 't' 'e' Tab
wait_for '^:step' && ok || bad "Tab completes a command ($(screen | tail -1))"
t send-keys -t tui '7' Enter
wait_for 'r2 step 7 ' && ok || bad ":step 7 after completion"
t send-keys -t tui C-c
wait_gone 'logical · lateness' && ok || bad "Ctrl-C outside a prompt stops skein"
grep -qx ':step 7' "$tmp/.local/state/skein/history" && ok || bad "the history is saved in ~/.local/state/skein/history"
t send-keys -t tui "clear; TERM=xterm-256color $skein $trace" Enter
wait_for 'logical · lateness' || bad "restart for the history"
t send-keys -t tui ':' Up
wait_for '^:step 7' && ok || bad "the history of the last session comes back with Up"
t send-keys -t tui C-a Right Right Right Right Right C-k '1' '2' Enter
wait_for 'r3 step 12 ' && ok || bad "C-a, Right and C-k edit the recalled line ($(screen | head -1))"
t send-keys -t tui q
wait_gone 'logical · lateness' || bad "q after the history test"
[ "$(t display -p -t tui '#{mouse_any_flag}')" = 0 ] && ok || bad "mouse reporting is off after quitting"
# --no-mouse leaves the mouse to the terminal
t send-keys -t tui "clear; TERM=xterm-256color $skein --no-mouse $trace" Enter
wait_for 'r3 step 10 ' || bad "start with --no-mouse"
[ "$(t display -p -t tui '#{mouse_any_flag}')" = 0 ] && ok || bad "--no-mouse: no mouse reporting"
click 11 7
t send-keys -t tui l
wait_for 'r3 step 11 ' && ok || bad "--no-mouse: a stray report is no click ($(screen | head -1))"
t send-keys -t tui q
wait_gone 'logical · lateness' || bad "q after --no-mouse"
t send-keys -t tui "stty -g | cmp -s - $tmp/stty.before && echo TTY-RESTORED-4" Enter
wait_for '^TTY-RESTORED-4' && ok || bad "terminal modes restored after Ctrl-C as a key"
# skein diff on a terminal: the explorer on AFTER compared with BEFORE
corpus=$root/traces/corpus
t send-keys -t tui "clear; $skein diff $corpus/stencil-4 $corpus/stencil-4-delay; echo DIFF-DONE" Enter
wait_for 'logical · Δ lateness' 10 && ok || bad "skein diff on a terminal opens the explorer on the change ($(screen | head -2))"
# it opens at the top hotspot (issue 12), here the delay: the largest change
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
