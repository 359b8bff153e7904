#!/bin/sh
# snapshot.sh SKEIN OUT [SHARED] — writes into OUT what skein prints for
# every trace the project can reach: the corpus, the shared OTF2 traces
# and Projections runs, generated traces of every skein-gen pattern and a
# generated Charm++ run, on 1 and 2 threads (info, analyze as text, JSON
# and the CSV tables, the leap merge, export --csv, render of the
# default screen, the saved file), diff of each corpus pair, and samples
# reports of every sample set. A developer's check that a change of
# layout or speed changed no result:
#
#   sh mk/snapshot.sh build/skein /tmp/before     (at the old commit)
#   sh mk/snapshot.sh build/skein /tmp/after      (at the new one)
#   sh mk/snapshot.sh --compare /tmp/before /tmp/after
#
# --compare prints each file that differs (saved files compared but for
# their timings, tests/savedcmp.py) and a count; exit 1 if any differs.
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --compare ]; then
	a=$2 b=$3 n=0 bad=0
	for f in $(cd "$a" && find . -type f | sort); do
		n=$((n + 1))
		if [ ! -f "$b/$f" ]; then
			echo "missing in $b: $f"; bad=$((bad + 1)); continue
		fi
		case $f in
		*.skein) python3 "$root/tests/savedcmp.py" "$a/$f" "$b/$f" >/dev/null ;;
		*) cmp -s "$a/$f" "$b/$f" ;;
		esac || { echo "differs: $f"; bad=$((bad + 1)); }
	done
	extra=$(cd "$b" && find . -type f | sort | while read -r f; do [ -f "$a/$f" ] || echo "$f"; done)
	[ -z "$extra" ] || { echo "only in $b:"; echo "$extra"; bad=$((bad + 1)); }
	echo "snapshot: $n files compared, $bad differ"
	[ "$bad" -eq 0 ]
	exit
fi
skein=$1
out=$2
shared=${3:-$root/../shared}
case $skein in /*) ;; *) skein=$(pwd)/$skein ;; esac
mkdir -p "$out" || exit 1
gen=$root/traces/gen
make -s -C "$gen" all >/dev/null || exit 1
# one fixed scratch folder, so that paths in messages are the same in
# both snapshots (one snapshot at a time)
tmp=${TMPDIR:-/tmp}/skein-snapshot
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
# generated traces: every pattern, delayed, on two nodes; written once
# and kept, as a saved analysis records its trace's size and time
g=${TMPDIR:-/tmp}/skein-snapshot-traces
for p in stencil tree ring dissemination sparse coalesce mixed gather; do
	[ -e "$g/gen-$p/traces.otf2" ] ||
		"$gen/skein-gen" -q -o "$g/gen-$p" -t "$p" -p 8 -n 4 -N 2 -d 500:2:3 || exit 1
done
[ -e "$g/gen-charm/jacobi.sts" ] || "$gen/skein-gen-charm" -q -o "$g/gen-charm" -d 2000:1,2:4 || exit 1

# run NAME ARGS...: skein's output and exit status into OUT/NAME
run() {
	name=$1
	shift
	"$skein" "$@" >"$out/$name" 2>&1
	echo "exit $?" >>"$out/$name"
}

traces=$(ls -d "$root"/traces/corpus/*/ "$g"/gen-*/)
[ -d "$shared/traces/otf2" ] && traces="$traces $(ls -d "$shared"/traces/otf2/*/)"
[ -d "$shared/traces/projections" ] && traces="$traces $(ls -d "$shared"/traces/projections/*/)"
for d in $traces; do
	[ -e "$d/traces.otf2" ] || ls "$d"/*.sts >/dev/null 2>&1 || continue
	n=$(basename "$d")
	for th in 1 2; do
		export SKEIN_THREADS=$th
		run "$n.$th.info" info --format json "$d"
		run "$n.$th.ranks" info --ranks "$d"
		run "$n.$th.analyze" analyze "$d"
		run "$n.$th.json" analyze --format json --clusters 3 "$d"
		for tab in hotspots partitions timelines ops iterations; do
			run "$n.$th.$tab.csv" analyze --format csv --table "$tab" "$d"
		done
		run "$n.$th.leap" analyze --leap-merge --format json "$d"
		run "$n.$th.reorder" analyze --reorder --format csv --table ops "$d"
		run "$n.$th.export" export --csv "$d"
		run "$n.$th.render" render --size 120x40 --topology "pack:2 core:4 pu:1" "$d"
		run "$n.$th.save" analyze -q --save "$tmp/$n.$th.skein" "$d"
		run "$n.$th.reopen" analyze --format json "$tmp/$n.$th.skein"
		[ ! -f "$tmp/$n.$th.skein" ] || mv "$tmp/$n.$th.skein" "$out/"
	done
done
unset SKEIN_THREADS
for d in "$root"/traces/corpus/*-delay "$root"/traces/corpus/*-extra; do
	b=${d%-delay}
	b=${b%-extra}
	[ -d "$b" ] || continue
	run "diff.$(basename "$d")" diff "$b" "$d"
	run "diff.$(basename "$d").csv" diff --format csv --table changes "$b" "$d"
done
samples="$root/traces/samples/toy"
[ -d "$shared/traces/memaxes" ] && samples="$samples $(ls -d "$shared"/traces/memaxes/*/)"
for s in $samples; do
	n=samples-$(basename "$s")
	run "$n" samples "$s"
	run "$n.json" samples --format json "$s"
	for tab in resources lines symbols levels windows clusters; do
		run "$n.$tab.csv" samples --format csv --table "$tab" "$s"
	done
done
echo "snapshot: $(ls "$out" | wc -l) files in $out"
