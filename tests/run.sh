# run.sh — sourced by the command-line tests (cli.sh, cli_structure.sh,
# samples.sh, saved.sh, threads.sh, leap.sh): counting results and running
# skein. Before sourcing, set
# $skein (the binary), $tmp (a scratch directory) and pass=0 fail=0.
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# run NAME EXPECTED_STATUS ARGS... — skein's stdout and stderr in
# $tmp/out and $tmp/err; 1 (after saying so) when the status differs
run() {
	name=$1 want=$2
	shift 2
	"$skein" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$name: exit $got, want $want ($(head -c 300 "$tmp/err"))"
		return 1
	fi
	return 0
}
