#!/bin/sh
# layers.sh — mk/layers.sh passes on the tree as it is, and fails, naming
# the file and the rule, on each kind of violation planted into a copy.
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

check() { sh "$root/mk/layers.sh" "$1" >"$tmp/out" 2>&1; }

if check "$root"; then ok; else bad "the tree itself: $(cat "$tmp/out")"; fi

# plant NAME FILE LINE EXPECTED: a fresh copy with LINE added to FILE must
# fail with a message containing EXPECTED.
plant() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	cp -R "$root/src" "$root/tui" "$tmp/t/"
	mkdir -p "$(dirname "$tmp/t/$2")"
	printf '%s\n' "$3" >>"$tmp/t/$2"
	if check "$tmp/t"; then
		bad "$1: accepted"
	elif grep -qF -- "$4" "$tmp/out"; then
		ok
	else
		bad "$1: wrong message: $(cat "$tmp/out")"
	fi
}

plant "upward include" src/base/vec.c '#include "view/view.h"' \
	'src/base/vec.c: includes "view/view.h": view is a layer above base'
plant "model includes analysis" src/model/trace.h '#include "analysis/core/analysis.h"' \
	'analysis/core is a layer above model'
plant "sibling readers" src/otf2/otf2_read.c '#include "projections/projections.h"' \
	'projections and otf2 are siblings'
plant "relative path" src/view/view.c '#include "../base/vec.h"' 'by a relative path'
plant "curses in the core" src/view/surface/grid.c '#include <curses.h>' 'only tui/ may include'
plant "MPI in the core" src/analysis/mpi/steps.c '#include <mpi.h>' 'only mpi/ may include'
plant "OTF2 outside its reader" src/analysis/mpi/steps.c '#include <otf2/otf2.h>' 'only otf2/ may include'
plant "libyaml outside config" src/report/info.c '#include <yaml.h>' 'only config/ may include'
plant "libxml2 outside samples" src/topo/topo.c '#include <libxml/parser.h>' 'only samples/ may include'
plant "samples reader includes otf2 reader" src/samples/samples.c '#include "otf2/otf2_read.h"' \
	'otf2 and samples are siblings'
plant "unknown folder" src/misc/x.c '#include "base/err.h"' "folder 'misc' is not a layer"
plant "file at the top" src/loose.c '/* */' 'at the top of src/'
# the analysis's folders: the core below the paradigms, the paradigms
# apart, the run above them
plant "analysis core includes a paradigm" src/analysis/core/metrics.c '#include "analysis/mpi/stages.h"' \
	'src/analysis/core/metrics.c: includes "analysis/mpi/stages.h": analysis/mpi is a layer above analysis/core'
plant "a paradigm includes the run" src/analysis/charm/charm.c '#include "analysis/run/run.h"' \
	'analysis/run is a layer above analysis/charm'
plant "Charm++ stages include MPI stages" src/analysis/charm/charm.c '#include "analysis/mpi/stages.h"' \
	'analysis/mpi and analysis/charm are siblings'
plant "the saved format includes the distributed job" src/analysis/saved/saved.c \
	'#include "analysis/dist/dsaved.h"' 'analysis/dist is a layer above analysis/saved'
plant "the surface includes the view" src/view/surface/grid.c '#include "view/view.h"' \
	'view is a layer above view/surface'
plant "a file beside the analysis's folders" src/analysis/x.c '/* */' "folder 'analysis' is not a layer"
plant "a folder of the analysis not listed" src/analysis/misc/x.c '/* */' "folder 'analysis/misc' is not a layer"
plant "an include by a layer that is not one" src/report/info.c '#include "analysis/analysis.h"' \
	"from 'analysis', which is not a layer"
plant "a header from elsewhere" src/topo/topo.c '#include "vec.h"' 'not in its folder'
# sizes: a 31st .c file in a folder, a file over 1,000 lines
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -R "$root/src" "$root/tui" "$tmp/t/"
n=$(ls "$tmp/t/src/analysis/core/"*.c | wc -l)
while [ "$n" -le 30 ]; do n=$((n + 1)); echo '/* */' >"$tmp/t/src/analysis/core/extra$n.c"; done
if check "$tmp/t"; then bad "a folder of 31 .c files accepted"
elif grep -qF 'src/analysis/core/: 31 .c files' "$tmp/out"; then ok
else bad "31 files: wrong message: $(cat "$tmp/out")"; fi
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -R "$root/src" "$root/tui" "$tmp/t/"
awk 'BEGIN { for (i = 0; i < 1001; i++) print "/* */" }' >"$tmp/t/src/base/long.c"
if check "$tmp/t"; then bad "a file of 1,001 lines accepted"
elif grep -qF 'src/base/long.c: 1001 lines' "$tmp/out"; then ok
else bad "1,001 lines: wrong message: $(cat "$tmp/out")"; fi

# tui includes from any layer below it
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -R "$root/src" "$root/tui" "$tmp/t/"
echo '#include "base/vec.h"' >>"$tmp/t/tui/main.c"
if check "$tmp/t"; then ok; else bad "tui including base refused: $(cat "$tmp/out")"; fi

echo "layers tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
