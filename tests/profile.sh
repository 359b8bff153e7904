#!/bin/sh
# profile.sh SKEIN SHARED — `skein profile` and `skein comm`: against an
# independent count from otf2-print (tests/profcheck.py) on every shared
# Score-P trace skein reads and on two of the corpus's real MPI runs, the
# collectives also over rank sets;
# the same from a saved analysis; windows that add up; rank sets; usage.
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
case $shared in /*) ;; *) shared=$root/$shared ;; esac
export LANG=C.UTF-8 LC_ALL=C.UTF-8
tmp=$(mktemp -d /tmp/skein-profile-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
. "$root/tests/run.sh"

# the independent count: every region's calls and time, the rank with
# the most, every pair's messages and bytes
check() {
	if python3 "$root/tests/profcheck.py" "$skein" "$@" >"$tmp/check" 2>&1; then
		ok
		echo "  $(basename "$(dirname "$1")"): $(tail -1 "$tmp/check")"
	else
		bad "profcheck $*: $(grep -v ' 0 differences' "$tmp/check" | head -5)"
	fi
}
if command -v otf2-print >/dev/null 2>&1; then
	if [ -d "$shared/traces/otf2" ]; then
		for d in "$shared"/traces/otf2/*/; do
			[ -f "$d/traces.otf2" ] && check "$d/traces.otf2"
		done
		# its threads left regions entered on others and left others open
		# (counted on ranks only, they were not)
		apex=$shared/traces/otf2/apex-hpx-als-movielens/APEX.otf2
		[ -f "$apex" ] && check "$apex"
	else
		echo "profile.sh: $shared/traces/otf2 absent: the shared traces skipped"
		skip=$((skip + 1))
	fi
	for c in lammps-melt-4 overlap-4-delay-openmpi; do
		check "$root/traces/corpus/$c/traces.otf2"
	done
	# the collectives over a rank set: the kept members' bytes (they were
	# the whole instance's); in a window: the members' calls that overlap
	# it, clipped (they counted when entered in it, unclipped: alltoall
	# 205.0 ms from 1.2 s to 1.22 s; none inside the long alltoall)
	sst=$shared/traces/otf2/sstmacro-mpi-coverage-10/traces.otf2
	if [ -f "$sst" ]; then
		check "$sst" --rank-set 0-3,7
		check "$sst" --from 1.2 --to 1.22
		check "$sst" --from 1.225 --to 1.2255
		check "$sst" --from 1.2 --to 1.22 --rank-set 0-3,7
	fi
	lammps=$root/traces/corpus/lammps-melt-4/traces.otf2
	check "$lammps" --rank-set 0
	check "$lammps" --from 0.2966 --to 0.3866
else
	echo "profile.sh: no otf2-print: the independent count skipped"
	skip=$((skip + 1))
fi

trace=$root/traces/corpus/stencil-4-delay/traces.otf2
# a saved analysis answers as the trace does
run save 0 analyze -q --save "$tmp/s.skein" "$trace" && ok
for cmd in "profile --format json" "profile --format csv --ranks" "comm --format json" \
	"profile --from 0.1 --to 0.25 --format csv" "comm --rank-set 1-2 --format csv" \
	"comm --rank-set 1-2 --format json"; do
	# shellcheck disable=SC2086
	"$skein" $cmd "$trace" >"$tmp/a" 2>&1 && "$skein" $cmd "$tmp/s.skein" >"$tmp/b" 2>&1 &&
		cmp -s "$tmp/a" "$tmp/b" && ok || bad "$cmd: the saved analysis differs from the trace"
done

# two windows that meet add up to the whole, region by region
"$skein" profile --format json "$trace" >"$tmp/all" &&
	"$skein" profile --format json --to 0.2 "$trace" >"$tmp/lo" &&
	"$skein" profile --format json --from 0.2 "$trace" >"$tmp/hi" &&
	python3 - "$tmp/all" "$tmp/lo" "$tmp/hi" <<'PY' && ok || bad "windows do not add up"
import json, sys
a, lo, hi = (json.load(open(f)) for f in sys.argv[1:])
part = {}
for p in (lo, hi):
    for r in p["regions"]:
        part[r["region"]] = part.get(r["region"], 0) + r["inclusive_s"]
for r in a["regions"]:
    if abs(part.get(r["region"], 0) - r["inclusive_s"]) > 1e-9 * max(1, r["inclusive_s"]):
        sys.exit(f"{r['region']}: {r['inclusive_s']} against {part.get(r['region'])}")
if not 0 < lo["to_s"] == hi["from_s"] == 0.2:
    sys.exit("the windows' ends")
PY

# a window's collectives take the time the profile gives their calls
"$skein" profile --format json --from 0.3515 --to 0.455 "$trace" >"$tmp/pw" &&
	"$skein" comm --format json --from 0.3515 --to 0.455 "$trace" >"$tmp/cw" &&
	python3 - "$tmp/pw" "$tmp/cw" <<'PY' && ok || bad "comm's collectives in a window against the profile's calls"
import json, sys
p, c = (json.load(open(f)) for f in sys.argv[1:])
calls = {r["region"]: r["inclusive_s"] for r in p["regions"]}
colls = {x["type"]: x["time_s"] for x in c["collectives"]}
for typ, name in (("allreduce", "MPI_Allreduce"), ("barrier", "MPI_Barrier")):
    if abs(colls.get(typ, 0) - calls.get(name, 0)) > 1e-9 or typ not in colls:
        sys.exit(f"{typ}: {colls.get(typ)} s against {name} {calls.get(name)} s")
PY

# a rank set keeps the pairs between its ranks, and the profile its ranks
"$skein" comm --format csv "$trace" >"$tmp/c_all" &&
	"$skein" comm --format csv --rank-set 0,2-3 "$trace" >"$tmp/c_set" &&
	awk -F, 'NR > 1 && $1 != 1 && $2 != 1' "$tmp/c_all" | diff - "$(tail -n +2 "$tmp/c_set" >"$tmp/c_set2"; echo "$tmp/c_set2")" >/dev/null &&
	ok || bad "comm --rank-set 0,2-3"
run ranks 0 profile --ranks --format csv --rank-set 1 "$trace" &&
	[ "$(tail -n +2 "$tmp/out" | cut -d, -f1 | sort -u)" = 1 ] && ok || bad "profile --rank-set 1 --ranks"
run text 0 profile "$trace" && head -1 "$tmp/out" | grep -q '^profile: whole trace, 4 ranks' &&
	grep -q '^MPI_Waitall ' "$tmp/out" && ok || bad "profile text"
# a window under a microsecond: its ends read apart (both read 0.200000 s)
for cmd in profile comm; do
	run "$cmd-short" 0 $cmd --from 0.2 --to 0.2000001 "$trace" &&
		head -1 "$tmp/out" | grep -q ' 0\.2000000 s to 0\.2000001 s' && ok ||
		bad "$cmd: a window of 100 ns: $(head -1 "$tmp/out")"
done

# one rank is one (it said "1 ranks with their threads")
run one-rank 0 profile --rank-set 1 "$trace" && head -1 "$tmp/out" | grep -q ', 1 rank, ' &&
	ok || bad "profile of one rank: $(head -1 "$tmp/out")"
if [ -d "$shared/traces/otf2/casita-1_xeonphi_jacobi_01" ]; then
	run one-rank-lanes 0 profile "$shared/traces/otf2/casita-1_xeonphi_jacobi_01" &&
		head -1 "$tmp/out" | grep -q ', 1 rank with its threads and GPU streams, ' &&
		ok || bad "profile of one rank with threads: $(head -1 "$tmp/out")"
fi
run comm-text 0 comm "$trace" && grep -q '^bytes sent' "$tmp/out" && grep -q '^collectives' "$tmp/out" &&
	ok || bad "comm text"
head -1 "$tmp/a" >/dev/null
run csv-head 0 profile --format csv "$trace" &&
	[ "$(head -1 "$tmp/out")" = "region,calls,inclusive_s,exclusive_s,min_s,mean_s,max_s,max_rank,imbalance,share" ] &&
	ok || bad "profile CSV header"
run comm-head 0 comm --format csv "$trace" && [ "$(head -1 "$tmp/out")" = "sender,receiver,messages,bytes" ] &&
	ok || bad "comm CSV header"

# the explorer keeps to the same scope (render, as explore does)
run render-scope 0 render --pane profile --size 100x20 --from 0.35 --to 0.46 --rank-set 1-2 "$trace" &&
	grep -q 'window 0.350000 s' "$tmp/out" && grep -q '^│delay ' "$tmp/out" && ok || bad "render --from --to --rank-set"
for p in profile comm lists; do
	run "render --pane $p" 0 render --pane "$p" --size 80x24 "$trace" && [ -s "$tmp/out" ] && ok ||
		bad "render --pane $p"
done
run render-late 2 render --from 9 "$trace" && grep -q 'the trace ends at' "$tmp/err" && ok || bad "render --from past the end"
# the matrix's scale names every shade it draws (it named 3 of 8)
run comm-scale 0 comm "$trace" && grep -q "^scale: ' ' none, then \. : - = + \* # for each seventh" "$tmp/out" &&
	ok || bad "comm: the scale names every shade ($(grep '^scale' "$tmp/out"))"
# profile and comm refuse it as render does (they printed an empty window)
for cmd in profile comm; do
	run $cmd-late 2 $cmd --from 9 --to 10 "$trace" && [ ! -s "$tmp/out" ] &&
		grep -q '^skein: --from 9: the trace ends at' "$tmp/err" && ok || bad "$cmd --from past the end"
done

# the text cuts long names with "…", distinct names stay distinct (two
# rows read '!$omp implicit barrier @jacobi_t'; casita-2_cuda_simple's
# mangled names widen the column to 40), JSON and CSV keep them whole
for xeon in casita-1_xeonphi_jacobi_01 casita-2_cuda_simple; do
	xeon=$shared/traces/otf2/$xeon
	[ -d "$xeon" ] || continue
	"$skein" profile "$xeon" >"$tmp/nt" && "$skein" profile --format json "$xeon" >"$tmp/nj" &&
		"$skein" profile --format csv "$xeon" >"$tmp/nc" &&
		python3 - "$tmp/nt" "$tmp/nj" "$tmp/nc" <<'PY' && ok || bad "profile: names cut apart in $xeon"
import csv, json, sys
text = open(sys.argv[1], encoding="utf-8").read().splitlines()
names = [r["region"] for r in json.load(open(sys.argv[2]))["regions"]]
if [r["region"] for r in csv.DictReader(open(sys.argv[3]))] != names:
    sys.exit("the CSV's names are not the JSON's")
w = text[1].index("calls") + len("calls") - 11       # the name column, then " %10s"
shown = [line[:w].rstrip() for line in text[2:2 + len(names)]]
cut = 0
for name, s in zip(names, shown):
    if s == name:
        continue
    head, _, tail = s.partition("\u2026")
    if not _ or not name.startswith(head) or not name.endswith(tail) or len(s) > w:
        sys.exit(f"{name!r} shows as {s!r}")
    cut += 1
if cut < 10 or len(set(shown)) != len(set(names)):
    sys.exit(f"{cut} names cut, {len(set(shown))} shown of {len(set(names))}")
PY
done

# --pes: the ranks are the PEs, the share over PEs x span (it was chares
# x span: Jacobi_compute 0.0150 of 21 chares' time, 0.0787 of 4 PEs')
prj=$shared/traces/projections/charm-jacobi2d_16c_4pe_10it
if [ -d "$prj" ]; then
	run pes 0 profile --pes --format json "$prj" && python3 - "$tmp/out" <<'PY' && ok || bad "profile --pes: the PEs' time"
import json, sys
p = json.load(open(sys.argv[1]))
span = p["to_s"] - p["from_s"]
if p["ranks"] != 4 or abs(p["total_s"] - 4 * span) > 1e-6:
    sys.exit(f"{p['ranks']} PEs, {p['total_s']} s in all over a span of {span} s")
for r in p["regions"]:
    if abs(r["share"] - r["exclusive_s"] / p["total_s"]) > 1e-6:
        sys.exit(f"{r['region']}: share {r['share']}")
jc = [r for r in p["regions"] if r["region"] == "Jacobi::Jacobi_compute"][0]
if abs(jc["share"] - 0.009348 / (4 * 0.029705)) > 1e-6:
    sys.exit(f"Jacobi_compute: share {jc['share']}")
PY
	run pes-text 0 profile --pes "$prj" && head -1 "$tmp/out" | grep -q '^profile: whole trace, 4 PEs, 118.8 ms' &&
		sed -n 3p "$tmp/out" | grep -q '^ *PE region' && ok || bad "profile --pes: the text says PEs ($(head -1 "$tmp/out"))"
else
	echo "profile.sh: $prj absent: --pes skipped"
	skip=$((skip + 1))
fi

# usage: one line, exit 2
for args in "profile --table x" "comm --ranks" "profile --from soon" "profile --from 2 --to 1" \
	"comm --rank-set 99" "comm --rank-set 3-1" "profile --format xml" "info --from 1" \
	"profile --pes"; do
	# shellcheck disable=SC2086
	run "$args" 2 $args "$trace" && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -le 2 ] &&
		ok || bad "$args: usage error"
done

echo "profile.sh: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
