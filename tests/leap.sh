#!/bin/sh
# leap.sh SKEIN SHARED [--write] — the leap merge gives the results of the
# implementation that rebuilt the whole partition graph after every pass
# (kept in tests/leap-merge.sha256: the SHA-256 of its output, written by
# that implementation before it was replaced by the windowed one) on every
# corpus trace, every shared OTF2 trace and two generated sparse traces,
# with the leap merge alone, forced, and with another factor (text, every
# table: --all). What the explanations beyond lateness add (problems,
# waits, delays, outliers; each rank's waited and made-wait) is taken out
# first (tests/leapfilter.py): these sums guard the structure. The sums
# were written again, each time after checking what changed, when the
# reports gained the iterations, the Charm++ fields, an operation's
# iteration from one Enter of its marking region to the next, and (this
# round) a summary for text with --all for every table (the JSON and CSV
# sums of the session's start were met again through the filter but for
# tree_allreduce-4-delay's forced merge, whose iterations are now marked
# by its loop, 'iteration', accepted alike in their shapes); and when the JSON
# gained choices.not_applied and iterations.named_marked_none (all 76 JSON
# outputs checked equal to the build before without those two keys).
# casita-1_xeonphi_jacobi_01's four sums are the windowed implementation's
# since its offload copies became one-sided operations (its model
# changed): one rank, so every leap is complete and the leap merge merges
# nothing (its ops table equal to the analysis without it, checked).
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
# casita-1_ocl_deps, casita-1_scorep-ompt-host-nested and fastotf2-simple-mi300
# were refused (no MPI) until issue 40 made each process a timeline with its
# threads and streams: their sums are of that analysis.
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
# every output first, then one start of Python filters and sums them all
# (tests/leapfilter.py --sums; a start a sum took 7 of the script's 21 s
# of CPU)
i=0
for t in $traces; do
	case $t in
	gen:*) path=$tmp/${t#gen:}/traces.otf2 ;;
	shared/*) path=$shared/${t#shared/} ;;
	*) path=$t ;;
	esac
	for mode in "--leap-merge --format csv --table ops" "--leap-merge --format json" \
		"--leap-merge --leap-force --format json" "--leap-merge --leap-factor 2 --no-auto-merge --all"; do
		i=$((i + 1))
		# the trace's path is part of the output: name it as the sums do
		# shellcheck disable=SC2086
		"$skein" analyze $mode "$path" 2>&1 | sed "s|$path|$t|g" >"$tmp/out.$i"
		echo "$mode  $t" >"$tmp/what.$i"
	done
done
n=$i i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	echo "$tmp/out.$i"
done | xargs python3 "$root/tests/leapfilter.py" --sums >"$tmp/sums" || { echo "leap.sh: leapfilter.py failed"; exit 1; }
[ "$(wc -l <"$tmp/sums")" -eq "$n" ] || { echo "leap.sh: $n outputs, $(wc -l <"$tmp/sums") sums"; exit 1; }
i=0
while read -r sum file; do
	i=$((i + 1))
	[ "$file" = "$tmp/out.$i" ] || { echo "leap.sh: sums out of order at $file"; exit 1; }
	what=$(cat "$tmp/what.$i")
	line="$sum  $what"
	if [ "$3" = --write ]; then
		echo "$line" >>"$tmp/new"
	elif grep -qxF -- "$line" "$sums"; then
		ok
	elif grep -qF -- "  $what" "$sums"; then
		bad "analyze $what differs from the rebuilding implementation"
	else
		skip=$((skip + 1))
		echo "leap.sh: no sum for $what"
	fi
done <"$tmp/sums"
[ "$3" = --write ] && { cp "$tmp/new" "$sums"; echo "wrote $sums"; exit 0; }
echo "leap merge: $pass passed, $fail failed, $skip without a sum"
[ "$fail" -eq 0 ]
