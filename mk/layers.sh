#!/bin/sh
# layers.sh [ROOT] — checks that the source tree keeps its layers
# (doc/architecture.md): a file includes headers of its own folder or of
# a folder in a lower layer, never of a higher one or of a sibling in the
# same layer; only tui/ includes curses, only mpi/ (skein-mpi) MPI; a library's own headers appear in
# the one folder that wraps it. A layer is a folder of sources named by
# its path under src/ ("base", "analysis/core"); another layer's header
# is included by that path ("analysis/core/analysis.h"), one of the
# file's own folder by its name. And the tree stays readable: at most 30
# .c files a folder, no source file over 1,000 lines. Prints one line per
# violation and exits 1 if there is any, 0 otherwise.
root=${1:-.}

# Layers, lowest first; folders in one quoted group are siblings (readers
# of different formats must not depend on each other, nor the analysis's
# paradigms). The analysis: its core (struct analysis, what every
# paradigm feeds) beside the memory analytics; each paradigm's structure
# stages, the saved format and run comparison over the core; the run of
# the stages and the distributed job over those.
LAYERS='base model topo otf2,projections,samples analysis/core,analysis/mem
	analysis/mpi,analysis/charm,analysis/saved,analysis/compare analysis/run,analysis/dist
	config report view/surface view tui mpi'
MAX_C=30
MAX_LINES=1000

rank_of() { # rank_of FOLDER -> rank number, or nothing for an unknown folder
	r=0
	for group in $LAYERS; do
		case ",$group," in *",$1,"*) echo $r; return ;; esac
		r=$((r + 1))
	done
}

# Which folder may include a library's headers (pattern of the include).
wrapper_of() {
	case $1 in
	otf2/*) echo otf2 ;;
	yaml.h) echo config ;;
	hwloc.h|hwloc/*) echo topo ;;
	libxml/*) echo samples ;;
	curses.h|ncurses*|ncursesw/*|term.h) echo tui ;;
	mpi.h|mpi/*) echo mpi ;;
	esac
}

status=0
bad() { echo "$1"; }

files=$(cd "$root" && find src tui mpi -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "layers: no sources under $root/src or $root/tui"; exit 1; }
for f in $files; do
	case $f in
	src/*/*) mine=${f#src/}; mine=${mine%/*} ;;
	src/*) bad "$f: at the top of src/: put it in its layer's folder"; continue ;;
	tui/*/*|mpi/*/*) bad "$f: too deep: tui/ and mpi/ are one folder each"; continue ;;
	tui/*) mine=tui ;;
	mpi/*) mine=mpi ;;
	esac
	my_rank=$(rank_of "$mine")
	if [ -z "$my_rank" ]; then
		bad "$f: folder '$mine' is not a layer (mk/layers.sh lists them)"
		continue
	fi
	# "name.h" is the file's own folder; "layer/name.h" another layer.
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1\2/p' "$root/$f" |
	while read -r inc; do
		kind=$(printf %.1s "$inc")
		name=${inc#?}
		if [ "$kind" = '<' ]; then
			w=$(wrapper_of "$name")
			[ -n "$w" ] && [ "$w" != "$mine" ] &&
				echo "$f: includes <$name>, which only $w/ may include"
			continue
		fi
		case $name in
		*/*) layer=${name%/*} ;;
		*) [ -f "$root/${f%/*}/$name" ] || echo "$f: includes \"$name\", which is not in its folder"
		   continue ;;
		esac
		case $layer in
		.|..|./*|../*|*/.|*/..|*/./*|*/../*) echo "$f: includes \"$name\" by a relative path: name the layer (\"layer/file.h\")"; continue ;;
		esac
		r=$(rank_of "$layer")
		if [ -z "$r" ]; then
			echo "$f: includes \"$name\" from '$layer', which is not a layer"
		elif [ "$layer" = "$mine" ]; then
			echo "$f: includes \"$name\" by its layer's name: its own folder's headers are \"${name#*/}\""
		elif [ "$r" -gt "$my_rank" ]; then
			echo "$f: includes \"$name\": $layer is a layer above $mine"
		elif [ "$r" -eq "$my_rank" ]; then
			echo "$f: includes \"$name\": $layer and $mine are siblings in one layer"
		fi
	done
done > "${TMPDIR:-/tmp}/layers.$$"
for d in $(cd "$root" && find src tui mpi -name '*.c' 2>/dev/null | sed 's|/[^/]*$||' | sort | uniq -c |
	awk -v max=$MAX_C '$1 > max { print $2 ":" $1 }'); do
	echo "${d%:*}/: ${d#*:} .c files: split the folder (at most $MAX_C)"
done >> "${TMPDIR:-/tmp}/layers.$$"
(cd "$root" && find src tui mpi tests traces -name '*.[ch]' -type f 2>/dev/null | sort | xargs wc -l 2>/dev/null) |
	awk -v max=$MAX_LINES '$2 != "total" && $1 > max { print $2 ": " $1 " lines: split it (at most " max ")" }' \
	>> "${TMPDIR:-/tmp}/layers.$$"
if [ -s "${TMPDIR:-/tmp}/layers.$$" ]; then
	sed 's/^/layers: /' "${TMPDIR:-/tmp}/layers.$$"
	status=1
fi
rm -f "${TMPDIR:-/tmp}/layers.$$"
exit $status
