#!/bin/sh
# layers.sh [ROOT] — checks that the source tree keeps its layers
# (doc/architecture.md): a file includes headers of its own folder or of
# a folder in a lower layer, never of a higher one or of a sibling in the
# same layer; only tui/ includes curses, only mpi/ (skein-mpi) MPI; a
# library's own headers appear in the one folder that wraps it. A layer
# is a folder of sources named by its path under src/ ("base",
# "analysis/core"); another layer's header is included by that path
# ("analysis/core/analysis.h"), one of the file's own folder by its name.
# And the tree stays readable: at most 30 .c files a folder, no source
# file over 1,000 lines. Prints one line per violation and exits 1 if
# there is any, 0 otherwise. One awk pass reads every file.
root=${1:-.}

# Layers, lowest first; folders in one group (commas) are siblings
# (readers of different formats must not depend on each other, nor the
# analysis's paradigms). The analysis: its core (struct analysis, what
# every paradigm feeds) beside the memory analytics; each paradigm's
# explanations beyond lateness over the core (a saved analysis opened
# computes them too); each paradigm's structure stages, the saved format
# and run comparison over those; the run of the stages and the
# distributed job over all.
LAYERS='base model topo otf2,projections,samples analysis/core,analysis/mem,analysis/profile,analysis/hybrid analysis/explain analysis/path
	analysis/mpi,analysis/charm,analysis/saved,analysis/compare analysis/run,analysis/dist
	config report view/surface view/model view tui mpi'
MAX_C=30
MAX_LINES=1000

cd "$root" || exit 1
files=$(find src tui mpi -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "layers: no sources under $root/src or $root/tui"; exit 1; }
# (not the tracer's wrappers, which its build generates from mpi.def:
# traces/tracer/.gitignore)
all=$(find src tui mpi tests traces -name '*.[ch]' -type f -not -path 'traces/tracer/gen-*' \
	2>/dev/null | sort)
# shellcheck disable=SC2086
printf '%s\n' $files | awk -v layers="$LAYERS" -v max_c=$MAX_C -v max_lines=$MAX_LINES -v all="$(echo $all)" '
function wrapper(name) {
	if (name ~ /^otf2\//) return "otf2"
	if (name == "yaml.h") return "config"
	if (name == "hwloc.h" || name ~ /^hwloc\//) return "topo"
	if (name ~ /^libxml\//) return "samples"
	if (name == "curses.h" || name ~ /^ncurses/ || name ~ /^ncursesw\// || name == "term.h") return "tui"
	if (name == "mpi.h" || name ~ /^mpi\//) return "mpi"
	return ""
}
function exists(path,   line, r) {
	r = (getline line < path) >= 0
	close(path)
	return r
}
function bad(msg) { print "layers: " msg; status = 1 }
BEGIN {
	ng = split(layers, groups, /[ \t\n]+/)
	r = 0
	for (i = 1; i <= ng; i++) {
		if (groups[i] == "") continue
		nm = split(groups[i], members, ",")
		for (k = 1; k <= nm; k++) rank[members[k]] = r
		r++
	}
}
{
	f = $0
	if (f ~ /^src\/[^\/]+$/) { bad(f ": at the top of src/: put it in its layer\047s folder"); next }
	if (f ~ /^(tui|mpi)\/.*\//) { bad(f ": too deep: tui/ and mpi/ are one folder each"); next }
	dir = f; sub(/\/[^\/]*$/, "", dir)
	mine = dir; sub(/^src\//, "", mine)
	if (f ~ /\.c$/) nc[dir]++
	if (!(mine in rank)) { bad(f ": folder \047" mine "\047 is not a layer (mk/layers.sh lists them)"); next }
	while ((getline line < f) > 0) {
		if (line !~ /^[ \t]*#[ \t]*include[ \t]*[<"]/) continue
		inc = line
		sub(/^[ \t]*#[ \t]*include[ \t]*/, "", inc)
		kind = substr(inc, 1, 1)
		name = substr(inc, 2)
		sub(/[>"].*$/, "", name)
		if (kind == "<") {
			w = wrapper(name)
			if (w != "" && w != mine) bad(f ": includes <" name ">, which only " w "/ may include")
			continue
		}
		if (name !~ /\//) {
			if (!exists(dir "/" name)) bad(f ": includes \"" name "\", which is not in its folder")
			continue
		}
		layer = name; sub(/\/[^\/]*$/, "", layer)
		if (layer ~ /(^|\/)\.\.?(\/|$)/) {
			bad(f ": includes \"" name "\" by a relative path: name the layer (\"layer/file.h\")")
			continue
		}
		if (!(layer in rank)) bad(f ": includes \"" name "\" from \047" layer "\047, which is not a layer")
		else if (layer == mine) {
			own = name; sub(/^.*\//, "", own)
			bad(f ": includes \"" name "\" by its layer\047s name: its own folder\047s headers are \"" own "\"")
		} else if (rank[layer] > rank[mine]) bad(f ": includes \"" name "\": " layer " is a layer above " mine)
		else if (rank[layer] == rank[mine]) bad(f ": includes \"" name "\": " layer " and " mine " are siblings in one layer")
	}
	close(f)
}
END {
	for (d in nc)
		if (nc[d] > max_c) bad(d "/: " nc[d] " .c files: split the folder (at most " max_c ")")
	n = split(all, every, " ")
	for (i = 1; i <= n; i++) {
		lines = 0
		while ((getline line < every[i]) > 0) lines++
		close(every[i])
		if (lines > max_lines) bad(every[i] ": " lines " lines: split it (at most " max_lines ")")
	}
	exit status
}'
