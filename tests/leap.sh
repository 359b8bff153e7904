#!/bin/sh
# leap.sh SKEIN SHARED [--write] — the leap merge gives the results of the
# implementation that rebuilt the whole partition graph after every pass
# (kept in tests/leap-merge.sha256: the SHA-256 of its output, written by
# that implementation before it was replaced by the windowed one, and
# written again by it on main, f01eabe, when the two met: main's reports
# had gained the iterations) on every corpus trace, every shared OTF2
# trace and two generated sparse traces, with the leap merge alone,
# forced, and with another factor. When the reports gained the Charm++
# fields (branch charm: "reorder", "block_order", "hotspot_metric"),
# every output was checked to be main's but for them, then the sums
# written again with --write. Likewise when an operation's iteration
# came to run from one Enter of the marking region to the next (main,
# 27d0e11): nine outputs (casita's two Jacobi runs, tree_allreduce's
# forced merge, which marks its iterations by 'bcast') were checked to
# differ from the build before only in the iterations' totals and the
# hotspots' iteration, then written again. When analyze's JSON gained
# the explanations beyond lateness (problems, waits, wait_totals, delays,
# outliers), every JSON output on the corpus and shared traces was
# checked to be the build before's but for those keys (the CSV and text
# outputs unchanged), then the sums written again; and when analyze's
# text became a summary (the heaviest 20 of long tables, the problems and
# wait states between the hotspots and the ranks), every text output with
# --all was checked to be the build before's but for those sections and
# the iterations it no longer cuts, then written again; and when a user
# region's iterations were also accepted alike in their shapes (the
# iterations of codes whose completion calls vary in number), the one
# output that changed (tree_allreduce-4-delay's forced merge: its
# iterations now marked by 'iteration', the app's loop, not 'bcast')
# was checked to differ only in its iterations, the hotspots' iteration
# and the outliers, then written again; and when each rank's row gained
# the time it waited and the waiting its delays caused (and root causes
# followed a call that only sent to the other rank back through its
# wait), every JSON output was checked equal to the build before's but
# for the explanations' keys and the two new fields, every text output
# but for the explanations' sections and the rank table's new columns,
# then written again.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
sums=$root/tests/leap-merge.sha256
tmp=$(mktemp -d /tmp/skein-leap-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 1
gen=traces/gen/skein-gen
[ -x "$gen" ] || make -s -C traces/gen all >/dev/null || exit 1
"$gen" -q -f -o "$tmp/sparse-16" -p 16 -e 100000 -t sparse --skip-pct 70 >/dev/null &&
	"$gen" -q -f -o "$tmp/sparse-64" -p 64 -e 300000 -t sparse --skip-pct 50 -s 7 >/dev/null ||
	exit 1
traces="$(ls traces/corpus/*/traces.otf2) gen:sparse-16 gen:sparse-64"
if [ -d "$shared/traces/otf2" ]; then
	traces="$traces $(cd "$shared/.." && find shared/traces/otf2 -name traces.otf2 | sort)"
else
	echo "leap.sh: $shared/traces/otf2 absent: corpus and generated traces only"
fi
pass=0 fail=0 skip=0
. "$root/tests/run.sh"
for t in $traces; do
	case $t in
	gen:*) path=$tmp/${t#gen:}/traces.otf2 ;;
	shared/*) path=$shared/${t#shared/} ;;
	*) path=$t ;;
	esac
	for mode in "--leap-merge --format csv --table ops" "--leap-merge --format json" \
		"--leap-merge --leap-force --format json" "--leap-merge --leap-factor 2 --no-auto-merge"; do
		# the trace's path is part of the output: name it as the sums do
		# shellcheck disable=SC2086
		sum=$("$skein" analyze $mode "$path" 2>&1 | sed "s|$path|$t|g" | sha256sum | cut -d' ' -f1)
		line="$sum  $mode  $t"
		if [ "$3" = --write ]; then
			echo "$line" >>"$tmp/new"
		elif grep -qxF -- "$line" "$sums"; then
			ok
		elif grep -qF -- "  $mode  $t" "$sums"; then
			bad "analyze $mode $t differs from the rebuilding implementation"
		else
			skip=$((skip + 1))
			echo "leap.sh: no sum for $mode $t"
		fi
	done
done
[ "$3" = --write ] && { cp "$tmp/new" "$sums"; echo "wrote $sums"; exit 0; }
echo "leap merge: $pass passed, $fail failed, $skip without a sum"
[ "$fail" -eq 0 ]
