#!/bin/sh
# keys-doc.sh SKEIN [check] — the explorer's keys in doc/skein.1 and
# README.md are `skein keys` output (the action table, the built-in
# bindings, the panes' keys, the commands): this rewrites the text between
# the "keys: begin" and "keys: end" markers of both files, or with
# `check` fails when either differs from what skein prints.
# `make doc-keys` runs it.
skein=$1
mode=${2:-write}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-keys-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# the built-in bindings only: no user configuration
run() { (unset XDG_CONFIG_HOME; HOME=$tmp "$skein" keys --format "$1"); }
run man >"$tmp/man" || exit 1
run markdown >"$tmp/md" || exit 1
status=0
# splice FILE BEGIN END GENERATED
splice() {
	# markers through the environment: awk -v would read the backslash
	B=$2 E=$3 GEN=$4 awk '
		index($0, ENVIRON["B"]) == 1 { print; while ((getline l < ENVIRON["GEN"]) > 0) print l; skip = 1; next }
		index($0, ENVIRON["E"]) == 1 { skip = 0 }
		!skip { print }' "$1" >"$tmp/new"
	if [ "$mode" = check ]; then
		cmp -s "$1" "$tmp/new" || { echo "$1: the key list differs from 'skein keys' (make doc-keys)"; status=1; }
	else
		cmp -s "$1" "$tmp/new" || cp "$tmp/new" "$1"
	fi
}
splice "$root/doc/skein.1" '.\" keys: begin' '.\" keys: end' "$tmp/man"
splice "$root/README.md" '<!-- keys: begin -->' '<!-- keys: end -->' "$tmp/md"
exit $status
