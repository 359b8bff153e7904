#!/bin/sh
# deps.sh [build|check|traces] — make sure the Debian packages skein needs are
# present; install the missing ones with apt-get when we are root (or sudo
# works without a password), otherwise stop with one line naming them.
# SKEIN_NO_INSTALL=1 only reports.
set -u
what=${1:-build}

need=""
# A package is missing when its probe fails; probes are pkg-config modules,
# commands, or headers, so a site that installed a library elsewhere (and
# pointed PKG_CONFIG_PATH or OTF2_PREFIX at it) is not asked to apt-get it.
probe_pc()  { pkg-config --exists "$1" 2>/dev/null; }
probe_cmd() { command -v "$1" >/dev/null 2>&1; }
probe_hdr() { [ -f "$1" ]; }
want() { # want PACKAGE PROBE ARG
    "$2" "$3" || need="$need $1"
}

probe_cmd pkg-config || need="$need pkg-config"
want libncurses-dev  probe_pc ncursesw
want libyaml-dev     probe_pc yaml-0.1
want libhwloc-dev    probe_pc hwloc
want libxml2-dev     probe_pc libxml-2.0
want zlib1g-dev      probe_pc zlib
if [ -n "${OTF2_PREFIX:-}" ]; then
    probe_hdr "$OTF2_PREFIX/include/otf2/otf2.h" ||
        { echo "deps: OTF2_PREFIX=$OTF2_PREFIX has no include/otf2/otf2.h" >&2; exit 1; }
else
    want libopen-trace-format2-dev probe_pc otf2
fi
# What the tests call beyond a fresh Debian 12 (tests/deps.sh checks that
# every such tool is here; doc/testing.md).
case $what in
check|traces)
    want libcmocka-dev  probe_pc cmocka
    want otf2-tools     probe_cmd otf2-print
    want tmux           probe_cmd tmux
    want python3        probe_cmd python3
    want mpich          probe_cmd mpirun.mpich
    want libmpich-dev   probe_cmd mpicc.mpich
    want openmpi-bin    probe_cmd mpirun.openmpi
    want libopenmpi-dev probe_cmd mpicc.openmpi
    want gfortran       probe_cmd gfortran   # the tracer's Fortran tests
    ;;
esac
case $what in
traces)
    want lammps          probe_cmd lmp
    want lammps-examples probe_hdr /usr/share/lammps/examples/melt/in.melt
    ;;
esac

[ -z "$need" ] && exit 0

if [ "${SKEIN_NO_INSTALL:-0}" = 1 ]; then
    echo "deps: missing Debian packages:$need (install them: apt-get install$need)" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "deps: missing Debian packages:$need (as root: apt-get install$need)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: missing packages:$need, and no apt-get here: install them, or set PKG_CONFIG_PATH / OTF2_PREFIX" >&2
    exit 1
fi
echo "deps: installing$need" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 || { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $need >&2 ||
    { echo "deps: apt-get install$need failed" >&2; exit 1; }
exit 0
