#!/bin/sh
# make.sh [NAME...] — regenerate the wait-state traces of traces/waits
# (README.md there): traces/apps/waits, one pattern each, under the skein
# tracer, with MPICH and (the -openmpi names) Open MPI. Needs the tracer
# and the apps built (make -C traces tracer apps). Each archive replaces
# the committed one only when its run succeeded.
set -u
here=$(cd "$(dirname "$0")" && pwd)
apps=$here/../apps
tracer=$here/../tracer
# Open MPI's waiting ranks yield their core (4 ranks share 2 cores here):
# busy-polling ranks would slow the computing ones and blur each pattern
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
table() {
	cat <<'TABLE'
late-sender-4    4 -k 1 -i 4 -s 20000
late-receiver-2  2 -k 2 -i 4 -s 20000
barrier-4        4 -k 3 -i 4 -s 20000
nxn-4            4 -k 4 -i 4 -s 20000
lone-step-4      4 -k 5 -i 6 -d 300000:1:2
pingpong-2       2 -k 6 -i 6 -d 300000:1:2
waitsome-4       4 -k 7 -i 6 -d 300000:1:2
polling-4        4 -k 8 -i 4 -s 300
contention-4     4 -k 9 -i 6 -c 20000 -s 50
TABLE
}
status=0
table | while read -r name np args; do
	for mpi in mpich openmpi; do
		case $mpi in
		mpich) out=$name run="mpirun.mpich -launcher fork" bin=$apps/waits lib=$tracer/libskeintrace-mpich.so ;;
		openmpi) out=$name-openmpi run="mpirun.openmpi --oversubscribe -H localhost:4" bin=$apps/openmpi/waits
			 lib=$tracer/libskeintrace-openmpi.so ;;
		esac
		[ $# -eq 0 ] || echo " $* " | grep -q " $out " || continue
		tmp=$(mktemp -d)
		# shellcheck disable=SC2086
		if SKEIN_TRACE_DIR=$tmp/t $run -n "$np" env LD_PRELOAD="$lib" "$bin" $args </dev/null >/dev/null 2>&1; then
			rm -rf "${here:?}/$out" && mv "$tmp/t" "$here/$out" && echo "wrote $out"
		else
			echo "make.sh: $out: the run failed" >&2
			status=1
		fi
		rm -rf "$tmp"
	done
done
exit $status
