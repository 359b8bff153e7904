#!/bin/sh
# coverage.sh LIB PROGRAM TRACER — does the table cover the MPI library?
# LIB is mpich or ompi; PROGRAM an MPI program linked with that library
# (its ldd says which files the library is); TRACER the tracer built for
# it. Prints one "ok"/"not ok" line per check:
#   * every C function the library exports (MPI_x and MPIX_x, from nm -D)
#     has a row in mpi.def marked for that library;
#   * the tracer defines every one of them;
#   * the tracer defines every Fortran entry point the library's Fortran
#     bindings export (mpi_x_, mpi_x__, mpi_x, MPI_X, mpi_x_f08_, ...),
#     but the Fortran-only helpers that are not MPI calls (MPI_SIZEOF,
#     MPI_F_SYNC_REG, the predefined callbacks such as MPI_COMM_DUP_FN).
set -u
lib=$1 prog=$2 tracer=$3
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skeintrace-cov.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
say() { if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2: $3"; fails=$((fails + 1)); fi; }

libs=$(ldd "$prog" | awk '/libmpi|libmpich/ {print $3}')
[ -n "$libs" ] || { echo "not ok - $prog: no MPI library in its ldd"; exit 1; }
defined() { nm -D --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[TWi]$/ {print $3}' | sed 's/@.*//' | sort -u; }
core=$(echo "$libs" | grep -v 'fort\|mpifh\|usempi')
fort=$(echo "$libs" | grep 'fort\|mpifh\|usempi')
# C functions: names with a lower-case letter (the upper-case ones are Fortran)
defined $core | grep -E '^MPIX?_' | grep '[a-z]' > "$tmp/exported"
awk -F'[ \t]*[|][ \t]*' -v lib="$lib" '!/^#/ && NF >= 7 { split($2, l, ","); if (l[1] == "both" || l[1] == lib) print $1 }' \
    "$here/mpi.def" | sort -u > "$tmp/table"
defined "$tracer" > "$tmp/tracer"
missing=$(comm -23 "$tmp/exported" "$tmp/table" | tr '\n' ' ')
say $([ -z "$missing" ]; echo $?) "$lib: all $(wc -l < "$tmp/exported") exported C functions are in mpi.def ($(wc -l < "$tmp/table") rows for $lib)" "missing: $missing"
missing=$(comm -23 "$tmp/exported" "$tmp/tracer" | tr '\n' ' ')
say $([ -z "$missing" ]; echo $?) "$lib: the tracer defines all of them" "not defined: $missing"
if [ -n "$fort" ]; then
    defined $fort | grep -iE '^mpix?_' |
        grep -viE '^mpi_sizeof|^mpi_f_sync_reg|_fn_?_?$|_fn_null_?_?$|^mpi_alloc_mem_cptr$|_cptr__$' > "$tmp/fortran"
    missing=$(comm -23 "$tmp/fortran" "$tmp/tracer" | tr '\n' ' ')
    say $([ -z "$missing" ]; echo $?) "$lib: the tracer defines all $(wc -l < "$tmp/fortran") Fortran entry points of $(echo $fort | wc -w) Fortran libraries" "not defined: $missing"
fi
[ $fails -eq 0 ]
