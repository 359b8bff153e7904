#!/bin/sh
# make.sh [NAME...] — regenerate the one-sided and non-blocking collective
# archives of traces/onesided (README.md) with the project's tracer:
#
#   rma-2, rma-2-openmpi    traces/tracer/tests/rma.c: every window
#                           constructor, operation and synchronisation mode
#   nbc-2, nbc-2-openmpi    traces/tracer/tests/nbc.c: non-blocking and
#                           persistent collectives, MPI_Comm_idup, ...
#   ga-2, ga-2-openmpi      traces/tracer/tests/ga.c: a Global Arrays
#                           program (ARMCI-MPI: windows, atomics, flushes
#                           under lock_all)
#   lock-4, lock-4-openmpi  traces/tracer/tests/lock.c: ranks waiting for
#                           a lock rank 2 holds 0.3 s
#   lockall-4, lockall-4-openmpi  traces/tracer/tests/lockall.c: the same
#                           for rank 2's MPI_Win_lock_all
#   lockwait-4, lockwait-4-openmpi  traces/tracer/tests/lockwait.c: ranks
#                           waiting in MPI_Win_lock_all for an exclusive
#                           lock rank 2 holds 0.3 s
#
# 2 ranks each (4 for lock, lockall and lockwait), MPICH (no suffix) or Open MPI (-openmpi). Needs the
# tracer built (make -C traces/tracer), mpicc.mpich / mpicc.openmpi and,
# for ga-*, Debian's libglobalarrays-dev and libarmci-mpi-dev.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tracer=$here/../tracer
L=/usr/lib/x86_64-linux-gnu
work=$(mktemp -d "${TMPDIR:-/tmp}/skein-onesided.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
names=${*:-rma-2 rma-2-openmpi nbc-2 nbc-2-openmpi ga-2 ga-2-openmpi lock-4 lock-4-openmpi lockall-4 lockall-4-openmpi lockwait-4 lockwait-4-openmpi}
rc=0
for name in $names; do
	n=$(echo "$name" | sed 's/^[a-z]*-\([0-9]*\).*/\1/')
	case $name in
	*-openmpi) mpi=openmpi run="mpirun.openmpi -H localhost:4 -n $n" ;;
	*) mpi=mpich run="mpirun.mpich -launcher fork -n $n" ;;
	esac
	prog=${name%%-*}
	lib=$tracer/libskeintrace-$mpi.so
	[ -f "$lib" ] || { echo "make.sh: $lib missing (make -C traces/tracer)"; rc=1; continue; }
	case $prog in
	ga) build="mpicc.$mpi -o $work/$prog $tracer/tests/ga.c $L/libga-$mpi.a $L/libscalapack-$mpi.so.2.2 -llapack -lblas -larmci-$mpi -lgfortran -lm" ;;
	*) build="mpicc.$mpi -std=c11 -O1 -o $work/$prog $tracer/tests/$prog.c" ;;
	esac
	if ! $build 2> "$work/cc.err"; then
		echo "make.sh: $name: cannot build: $(head -c 300 "$work/cc.err")"
		rc=1
		continue
	fi
	# rma.c and nbc.c poll (MPI_Win_test, MPI_Test) until a request is
	# done: on two oversubscribed cores MPICH may poll a hundred thousand
	# times, a megabyte of the same call. Up to five runs, the first
	# under 256 KB kept (else the last).
	for try in 1 2 3 4 5; do
		rm -rf "$work/trace"
		if ! SKEIN_TRACE_DIR=$work/trace timeout 120 $run env LD_PRELOAD=$lib "$work/$prog" \
		     > "$work/out" 2> "$work/err"; then
			echo "make.sh: $name: the run failed: $(head -c 300 "$work/err")"
			rc=1
			continue 2
		fi
		[ "$(du -sk "$work/trace" | cut -f1)" -lt 256 ] && break
	done
	rm -rf "${here:?}/$name"
	mkdir -p "$here/$name"
	cp -r "$work/trace/traces.otf2" "$work/trace/traces.def" "$work/trace/traces" "$here/$name/"
	{
		echo "# $name — traces/tracer/tests/$prog.c, $n ranks, $mpi, traced by skeintrace"
		echo
		echo "Regenerate with: sh traces/onesided/make.sh $name"
		echo
		echo "    $build" | sed "s|$work/|./|g; s|$tracer/|\$TRACER/|g"
		echo "    SKEIN_TRACE_DIR=trace $run env LD_PRELOAD=\$TRACER/libskeintrace-$mpi.so ./$prog"
		echo
		echo "(TRACER=traces/tracer, absolute.) $(mpirun.$mpi --version 2>&1 | grep -i 'version\|openrte' | head -1 | tr -s ' '), $(otf2-print --version 2>&1 | head -1)"
	} > "$here/$name/COMMAND"
	echo "$name: $(du -sk "$here/$name" | cut -f1) KB"
done
exit $rc
