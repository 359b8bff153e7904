#!/bin/sh
# saved.sh SKEIN SHARED — `skein analyze --save FILE` and FILE opened in
# place of the trace: info, analyze (text, JSON, CSV tables with the
# iterations, clusters), export --csv/--json and render give the bytes they
# give from the trace, on every corpus trace, every shared OTF2 trace and
# every shared Charm++ Projections run (and an MPI trace reordered);
# other structure options (the iterations' too) analyse the saved model
# again (same bytes as from the trace); two saves of one trace are the
# same bytes but for the stage timings; the iteration region and the
# warning for locations without local definitions are kept; diff and
# export --otf2 take saved files; a changed trace is said (and export
# --otf2 refuses it); truncated, corrupt, foreign and other-version files
# get a one-line error, exit 1; --save refuses to replace anything but a
# saved analysis or an empty file (the trace's own anchor above all).
skein=$1
shared=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $skein in /*) ;; *) skein=$root/$skein ;; esac
tmp=$(mktemp -d /tmp/skein-saved-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 1
pass=0 fail=0
. "$root/tests/run.sh"
traces=$(ls traces/corpus/*/traces.otf2)
if [ -d "$shared/traces/otf2" ]; then
	traces="$traces $(find "$shared/traces/otf2" -name traces.otf2 | sort)"
else
	echo "saved.sh: $shared/traces/otf2 absent: corpus traces only"
fi
# same_saved TRACE MAY_REFUSE OTHER MODE...: TRACE saved (or, when
# MAY_REFUSE is 1 and the analysis refuses it, refused alike with nothing
# saved; with 0 a refusal fails), then each MODE from the
# saved file gives the bytes it gives from TRACE, quietly; the modes
# matching the regular expression OTHER say the saved model is analysed
# again; render gives the same screen
saved_is_file() { [ "$(head -c 8 "$1")" = SKEINSAV ]; }
same_saved() {
	t=$1 may_refuse=$2 other=$3
	shift 3
	"$skein" analyze --save "$tmp/s.skein" "$t" >"$tmp/a1" 2>"$tmp/e1"
	st=$?
	if [ "$st" -ne 0 ]; then
		[ "$may_refuse" = 1 ] && [ ! -e "$tmp/s.skein" ] && ok ||
			bad "$t: refused (exit $st): $(head -c 300 "$tmp/e1")"
		return
	fi
	"$skein" analyze "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e2"
	cmp -s "$tmp/a1" "$tmp/a2" && [ ! -s "$tmp/e2" ] && ok || bad "analyze from the saved $t differs"
	# saved again, on one thread: the same bytes but for the stage
	# timings (the records' padding is written as zeros)
	SKEIN_THREADS=1 "$skein" analyze -q --save "$tmp/s1.skein" "$t" >/dev/null 2>&1
	python3 "$root/tests/savedcmp.py" "$tmp/s.skein" "$tmp/s1.skein" >"$tmp/cmp" 2>&1 && ok ||
		bad "$t saved twice: $(cat "$tmp/cmp")"
	rm -f "$tmp/s1.skein"
	for mode in "$@"; do
		# shellcheck disable=SC2086
		"$skein" $mode "$t" >"$tmp/x1" 2>&1
		# shellcheck disable=SC2086
		"$skein" $mode "$tmp/s.skein" >"$tmp/x2" 2>"$tmp/e2"
		cmp -s "$tmp/x1" "$tmp/x2" && ok || bad "$mode from the saved $t differs"
		if echo "$mode" | grep -qE "$other"; then
			grep -q "saved with other structure options" "$tmp/e2" && ok ||
				bad "$mode on the saved $t: other options not said"
		else
			[ ! -s "$tmp/e2" ] && ok || bad "$mode on the saved $t: $(cat "$tmp/e2")"
		fi
	done
	"$skein" render --size 100x30 "$t" | tail -n +2 >"$tmp/r1"
	"$skein" render --size 100x30 "$tmp/s.skein" | tail -n +2 >"$tmp/r2"
	cmp -s "$tmp/r1" "$tmp/r2" && ok || bad "render from the saved $t differs"
	rm -f "$tmp/s.skein"
}
for t in $traces; do
	same_saved "$t" 1 'leap|--iterations' "analyze --format json" "analyze --format csv --table ops" \
		"analyze --format csv --table partitions" "analyze --format csv --table iterations" \
		"analyze --clusters 3 --format json" "info --format json" "info --ranks" \
		"export --csv" "export --json" "analyze --leap-merge --format json" \
		"analyze --iterations structure --format csv --table iterations"
done

# Charm++ runs: every shared Projections run, saved and reopened, gives
# the bytes its logs give (info, analyze in every format and table,
# export, render), and a charm option other than the saved ones (here
# physical order) analyses the saved model again, as the logs would be
prj=$shared/traces/projections
if [ -d "$prj" ]; then
	printf 'charm:\n  reorder: false\n' >"$tmp/phys.yaml"
	for t in "$prj"/*/*.sts; do
		same_saved "$t" 0 'phys.yaml' "analyze --format json" "analyze --format csv --table hotspots" \
			"analyze --format csv --table partitions" "analyze --format csv --table timelines" \
			"analyze --format csv --table ops" "analyze --format csv --table iterations" \
			"info" "info --format json" "export --csv" "export --json" \
			"analyze --config $tmp/phys.yaml --format json"
	done
	# saved from physical order, reopened with it: no second analysis
	t=$prj/charm-jacobi2d_imb_16c_4pe_10it/jacobi2d_imb.prj.sts
	"$skein" analyze --config "$tmp/phys.yaml" --save "$tmp/s.skein" "$t" >"$tmp/a1" 2>&1
	"$skein" analyze --config "$tmp/phys.yaml" "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e2"
	cmp -s "$tmp/a1" "$tmp/a2" && [ ! -s "$tmp/e2" ] && grep -q 'reorder off' "$tmp/a2" && ok ||
		bad "charm.reorder false saved and reopened: $(cat "$tmp/e2")"
	# --phase names MPI regions: a Charm++ run does not apply it and says
	# so, saved or not; without it the report is the same but for that
	"$skein" analyze --phase 'Hello*' --save "$tmp/s.skein" "$prj/charm-hello1d_8c_4pe" >"$tmp/a1" 2>&1
	"$skein" analyze --phase 'Hello*' "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e2"
	"$skein" analyze "$tmp/s.skein" >"$tmp/a3" 2>>"$tmp/e2"
	grep -v '^note          --phase (phases.split_at): .*Charm++' "$tmp/a1" >"$tmp/a1n"
	cmp -s "$tmp/a1" "$tmp/a2" && cmp -s "$tmp/a1n" "$tmp/a3" && ! cmp -s "$tmp/a1" "$tmp/a1n" &&
		[ ! -s "$tmp/e2" ] && ok || bad "--phase on a saved Charm++ run: $(cat "$tmp/e2")"
	# a log that changed is said (the .sts alone did not change)
	cp -R "$prj/charm-hello1d_8c_4pe" "$tmp/hello"
	"$skein" analyze --save "$tmp/s.skein" "$tmp/hello/hello1d.prj.sts" >"$tmp/a1" 2>&1
	touch -d '2001-01-01' "$tmp/hello/hello1d.prj.2.log.gz"
	"$skein" analyze "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e"
	grep -q "hello1d.prj.sts has changed since this analysis was saved" "$tmp/e" &&
		cmp -s "$tmp/a1" "$tmp/a2" && ok || bad "a changed Projections log not said: $(cat "$tmp/e")"
	rm -rf "$tmp/hello" "$tmp/s.skein"
else
	echo "saved.sh: $prj absent: no Charm++ runs"
fi

# an MPI trace reordered (seed 004's replay: lops out of time order)
# keeps its order when saved
t=traces/corpus/gen-gather-6-delay
"$skein" analyze --reorder --leap-merge --format json --save "$tmp/s.skein" "$t" >"$tmp/a1" 2>&1
"$skein" analyze --reorder --leap-merge --format json "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e2"
cmp -s "$tmp/a1" "$tmp/a2" && [ ! -s "$tmp/e2" ] && ok || bad "--reorder saved and reopened differs"
"$skein" analyze --leap-merge --format json "$t" >"$tmp/a1" 2>&1
"$skein" analyze --leap-merge --format json "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e2"
cmp -s "$tmp/a1" "$tmp/a2" && grep -q "saved with other structure options" "$tmp/e2" && ok ||
	bad "without --reorder: the saved model is not analysed again"
rm -f "$tmp/s.skein"

# the iteration region is an option like the others: saved, compared
t=traces/corpus/stencil-4-delay
"$skein" analyze --iteration-region 'iter*' --save "$tmp/s.skein" "$t" >"$tmp/a1" 2>&1
"$skein" analyze --iteration-region 'iter*' "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e"
cmp -s "$tmp/a1" "$tmp/a2" && [ ! -s "$tmp/e" ] && grep -q "region 'iteration' (named in the configuration)" "$tmp/a2" && ok ||
	bad "--iteration-region: the saved analysis differs or was not taken ($(cat "$tmp/e"))"
"$skein" analyze "$t" >"$tmp/a1" 2>&1
"$skein" analyze "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e"
cmp -s "$tmp/a1" "$tmp/a2" && grep -q "saved with other structure options" "$tmp/e" && ok ||
	bad "without --iteration-region: the saved model is not analysed again"

# locations without local definitions: the warning and its file are kept
cp -R "$t" "$tmp/nold" && rm "$tmp/nold"/traces/*.def
"$skein" analyze --save "$tmp/s.skein" "$tmp/nold" >"$tmp/a1" 2>"$tmp/e1"
for mode in "info" "info --format json" "analyze --format json"; do
	# shellcheck disable=SC2086
	"$skein" $mode "$tmp/nold" >"$tmp/x1" 2>"$tmp/e1"
	# shellcheck disable=SC2086
	"$skein" $mode "$tmp/s.skein" >"$tmp/x2" 2>"$tmp/e2"
	# info names the file in its report, the others on stderr
	cmp -s "$tmp/x1" "$tmp/x2" && cmp -s "$tmp/e1" "$tmp/e2" &&
		cat "$tmp/x2" "$tmp/e2" | grep -q "nold/traces/0.def" && ok ||
		bad "$mode: no local definitions not kept in the saved file"
done
rm -rf "$tmp/nold"

# diff and export take saved files
"$skein" analyze --save "$tmp/before.skein" traces/corpus/stencil-4 >/dev/null 2>&1
"$skein" analyze --save "$tmp/after.skein" "$t" >/dev/null 2>&1
for mode in "diff" "diff --format json" "diff --format csv --table changes"; do
	# shellcheck disable=SC2086
	"$skein" $mode traces/corpus/stencil-4 "$t" >"$tmp/x1" 2>&1
	# shellcheck disable=SC2086
	"$skein" $mode "$tmp/before.skein" "$tmp/after.skein" >"$tmp/x2" 2>"$tmp/e2"
	# shellcheck disable=SC2086
	"$skein" $mode "$tmp/before.skein" "$t" >"$tmp/x3" 2>>"$tmp/e2"
	cmp -s "$tmp/x1" "$tmp/x2" && cmp -s "$tmp/x1" "$tmp/x3" && [ ! -s "$tmp/e2" ] && ok ||
		bad "$mode from saved files differs"
done
"$skein" export -q --otf2 "$tmp/ex1" "$t" && "$skein" export -q --otf2 "$tmp/ex2" "$tmp/after.skein" &&
	diff -r -x traces.otf2 "$tmp/ex1" "$tmp/ex2" >/dev/null && ok ||
	bad "export --otf2 from the saved file differs from the trace's (the anchor's archive id aside)"

# a changed trace is said, and the saved analysis is still shown; export
# --otf2, which reads the archive again, refuses it
cp -R traces/corpus/stencil-4-delay "$tmp/tr"
"$skein" analyze --save "$tmp/s.skein" "$tmp/tr" >"$tmp/a1" 2>/dev/null
"$skein" analyze "$tmp/s.skein" >/dev/null 2>"$tmp/e" && [ ! -s "$tmp/e" ] && ok ||
	bad "unchanged trace: $(cat "$tmp/e")"
touch -d '2001-01-01' "$tmp/tr/traces.otf2"
"$skein" analyze "$tmp/s.skein" >"$tmp/a2" 2>"$tmp/e"
grep -q "has changed since this analysis was saved" "$tmp/e" && cmp -s "$tmp/a1" "$tmp/a2" && ok ||
	bad "changed trace not said: $(cat "$tmp/e")"
"$skein" export --otf2 "$tmp/ex3" "$tmp/s.skein" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] && [ ! -e "$tmp/ex3" ] && grep -q "export --otf2 copies the trace's archive, and .*tr/traces.otf2 has changed" "$tmp/e" &&
	ok || bad "export --otf2 of a saved file whose trace changed: $(cat "$tmp/e")"
rm -f "$tmp/tr/traces.otf2" && mkfifo "$tmp/tr/traces.otf2"
timeout 120 "$skein" export --otf2 "$tmp/ex3" "$tmp/s.skein" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "has changed" "$tmp/e" && ok || bad "export --otf2 with a FIFO for the saved trace: $(cat "$tmp/e")"
rm -rf "$tmp/tr"
"$skein" info "$tmp/s.skein" >/dev/null 2>"$tmp/e" && [ ! -s "$tmp/e" ] && ok ||
	bad "trace gone: the saved file should open quietly: $(cat "$tmp/e")"
"$skein" export --csv "$tmp/s.skein" >/dev/null 2>"$tmp/e" && [ ! -s "$tmp/e" ] && ok ||
	bad "trace gone: export --csv needs no trace: $(cat "$tmp/e")"
"$skein" export --otf2 "$tmp/ex3" "$tmp/s.skein" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] && grep -q "tr/traces.otf2 is not there" "$tmp/e" && ok ||
	bad "export --otf2 of a saved file whose trace is gone: $(cat "$tmp/e")"

# broken files: exit 1 and one line naming the file and what is wrong
size=$(wc -c <"$tmp/s.skein")
broken() { # NAME FILE EXPECTED
	"$skein" analyze "$2" >"$tmp/out" 2>"$tmp/e"
	st=$?
	if [ "$st" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] &&
		grep -q "$3" "$tmp/e"; then
		ok
	else
		bad "$1: exit $st, $(cat "$tmp/e")"
	fi
}
head -c $((size / 2)) "$tmp/s.skein" >"$tmp/half.skein"
broken truncated "$tmp/half.skein" "truncated"
head -c 40 "$tmp/s.skein" >"$tmp/head.skein"
broken "header only" "$tmp/head.skein" "truncated\|corrupt"
cp "$tmp/s.skein" "$tmp/flip.skein"
printf 'X' | dd of="$tmp/flip.skein" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
broken "a byte changed" "$tmp/flip.skein" "checksum is wrong\|padding is corrupt"
# the middle of the file is in the ops (the largest section)
cp "$tmp/s.skein" "$tmp/flip.skein"
printf 'X' | dd of="$tmp/flip.skein" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
broken "a byte of a section changed" "$tmp/flip.skein" "checksum is wrong"
# between two sections: the padding no sum covers
cp "$tmp/s.skein" "$tmp/pad.skein"
if python3 - "$tmp/pad.skein" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(struct.unpack_from('<I', b, 16)[0]):
    off, n = struct.unpack_from('<QQ', b, 64 + 48 * i + 16)
    if n and (off + n) % 64:
        b[off + n] = 0x58
        open(sys.argv[1], 'wb').write(b)
        sys.exit(0)
sys.exit(1)
PY
then
	broken "a byte of padding changed" "$tmp/pad.skein" "padding is corrupt"
else
	bad "no section of the saved file ends off a multiple of 64"
fi
cp "$tmp/s.skein" "$tmp/ver.skein"
printf '\013' | dd of="$tmp/ver.skein" bs=1 seek=8 conv=notrunc 2>/dev/null
broken "another version" "$tmp/ver.skein" "format version 11"
{ printf 'SKEINSAV'; head -c 5000 /dev/urandom; } >"$tmp/foreign.skein"
broken "foreign bytes after the magic" "$tmp/foreign.skein" "corrupt\|truncated\|version\|byte order"
head -c 5000 /dev/urandom >"$tmp/noise.skein"
broken "not a saved analysis" "$tmp/noise.skein" "not an OTF2 archive"
# --save never replaces what is not a saved analysis: the trace's own
# anchor (helper-39's `analyze --save DIR/traces.otf2 DIR` turned the
# archive into a saved file, exit 0), another file, a directory, a link;
# it replaces a saved file and an empty one, and refuses before the work
mkdir "$tmp/own"
cp -r traces/corpus/stencil-4/. "$tmp/own/"
cp "$tmp/own/traces.otf2" "$tmp/anchor.copy"
: >"$tmp/own/empty.skein"
ln -s "$tmp/s.skein" "$tmp/own/link.skein"
for target in "$tmp/own/traces.otf2" "$tmp/own/traces.def" "$tmp/own/traces" "$tmp/own/link.skein"; do
	"$skein" analyze -q --save "$target" "$tmp/own" >"$tmp/o" 2>"$tmp/e"
	st=$?
	[ "$st" -eq 1 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] &&
		grep -q "^skein: $target: \(exists and is not a file skein saved\|is a directory\)" "$tmp/e" && ok ||
		bad "--save $target: exit $st, $(cat "$tmp/e")"
done
cmp -s "$tmp/own/traces.otf2" "$tmp/anchor.copy" && [ -L "$tmp/own/link.skein" ] && ok ||
	bad "--save onto the trace: the anchor or the link changed"
for target in "$tmp/own/empty.skein" "$tmp/own/empty.skein"; do     # empty, then saved
	"$skein" analyze -q --save "$target" "$tmp/own" >/dev/null 2>"$tmp/e" && saved_is_file "$target" && ok ||
		bad "--save $target refused: $(cat "$tmp/e")"
done
echo "saved: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
