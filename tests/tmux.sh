# tmux.sh — sourced by the tests that drive the explorer in tmux
# (tui.sh, walkthrough.sh, hostile.sh, samples.sh). Before sourcing, set
# $sock (the tmux server's socket name) and $pane (the session's name).
t() { tmux -L "$sock" "$@"; }
screen() { t capture-pane -p -t "$pane"; }
# wait_for PATTERN [SECONDS]: until the screen matches (grep -E; 15 s unless
# SECONDS: generous, so a loaded machine does not fail a test that passes)
wait_for() {
	n=0 limit=$(( ${2:-15} * 10 ))
	while [ $n -lt $limit ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# wait_gone PATTERN: until the screen no longer matches (15 s at most)
wait_gone() {
	n=0
	while [ $n -lt 150 ]; do
		screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# click COLUMN ROW (1-based): an SGR 1006 mouse press and release
click() { t send-keys -t "$pane" -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
