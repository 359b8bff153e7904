#!/bin/sh
# together.sh CMD... — runs every CMD at once: the first one's output is
# shown as it comes, each other's follows whole, in the order given, when
# all are done. Exits 1 when any command failed. `make check` runs two
# streams this way after the unit tests, one a processor (the Makefile
# says which suites each takes, doc/testing.md why). The test scripts
# keep their files in temporary directories of their own, and what
# check-traces builds and writes in traces/ no other stream touches, so
# none sees another's. Interrupted, it ends every stream.
[ $# -ge 1 ] || { echo "usage: together.sh CMD..." >&2; exit 2; }
dir=$(mktemp -d /tmp/skein-together-XXXXXX)
trap 'rm -rf "$dir"' EXIT
# the streams run in the background, where SIGINT is ignored: end the
# process group instead (these streams and what they started, and the
# make that runs this, which an interrupt ends anyway)
trap 'trap - INT TERM; rm -rf "$dir"; kill 0' INT TERM
first=$1
shift
i=0
for cmd in "$@"; do
	i=$((i + 1))
	( sh -c "$cmd" >"$dir/$i.log" 2>&1; echo $? >"$dir/$i.rc" ) &
done
# the first in the background too, its output still shown as it comes:
# a trap runs only once the foreground command has ended
sh -c "$first" &
pid=$!
status=0
wait "$pid" || { echo "together.sh: $first failed"; status=1; }
wait
i=0
for cmd in "$@"; do
	i=$((i + 1))
	cat "$dir/$i.log"
	rc=$(cat "$dir/$i.rc" 2>/dev/null || echo 1)
	[ "$rc" -eq 0 ] || { echo "together.sh: $cmd failed (status $rc)"; status=1; }
done
exit $status
