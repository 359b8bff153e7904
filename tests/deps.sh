#!/bin/sh
# deps.sh — mk/deps.sh asks apt-get for exactly the missing packages, uses
# sudo when not root, and stops with one clear line when it cannot
# install. Runs the real script against fake pkg-config, apt-get, sudo and
# id on PATH, so nothing is installed.
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-deps-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

mkdir -p "$tmp/bin"
# pkg-config: modules listed in $tmp/have exist
cat >"$tmp/bin/pkg-config" <<EOS
#!/bin/sh
[ "\$1" = --exists ] && grep -qx "\$2" "$tmp/have"
EOS
# apt-get: logs its arguments
cat >"$tmp/bin/apt-get" <<EOS
#!/bin/sh
echo "apt-get \$*" >>"$tmp/log"
EOS
cat >"$tmp/bin/sudo" <<EOS
#!/bin/sh
[ "\$1" = -n ] && shift
[ "\$1" = true ] && exit \${FAKE_SUDO_FAILS:-0}
echo "sudo \$1" >>"$tmp/log"
exec "\$@"
EOS
cat >"$tmp/bin/id" <<EOS
#!/bin/sh
echo \${FAKE_UID:-0}
EOS
for c in otf2-print tmux mpirun.mpich mpicc.mpich; do printf '#!/bin/sh\n' >"$tmp/bin/$c"; done
chmod +x "$tmp/bin"/*
deps() { PATH="$tmp/bin:/usr/bin:/bin" sh "$root/mk/deps.sh" "$@" 2>"$tmp/err"; }

: >"$tmp/log"
printf 'ncursesw\nyaml-0.1\nhwloc\notf2\ncmocka\n' >"$tmp/have"
deps check && [ ! -s "$tmp/log" ] && ok || bad "nothing missing: apt-get must not run"

: >"$tmp/log"
printf 'ncursesw\nyaml-0.1\n' >"$tmp/have"
deps build && grep -q 'apt-get update' "$tmp/log" &&
	grep -q 'apt-get install -y -qq --no-install-recommends libhwloc-dev libopen-trace-format2-dev$' "$tmp/log" &&
	ok || bad "root: installs the missing ($(cat "$tmp/log"))"

: >"$tmp/log"
printf 'ncursesw\nyaml-0.1\nhwloc\notf2\n' >"$tmp/have"
deps check && grep -q 'install .* libcmocka-dev$' "$tmp/log" && ok || bad "check adds test packages"

printf 'ncursesw\n' >"$tmp/have"; : >"$tmp/log"
FAKE_UID=1000 deps build && grep -q '^sudo apt-get' "$tmp/log" && ok || bad "non-root uses sudo"

: >"$tmp/log"
if FAKE_UID=1000 FAKE_SUDO_FAILS=1 deps build; then bad "no sudo must fail"; else
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'missing Debian packages: libyaml-dev libhwloc-dev libopen-trace-format2-dev' "$tmp/err" &&
		[ ! -s "$tmp/log" ] && ok || bad "no sudo: one line naming the packages ($(cat "$tmp/err"))"
fi

: >"$tmp/log"
if SKEIN_NO_INSTALL=1 deps build; then bad "SKEIN_NO_INSTALL must fail when packages are missing"; else
	[ ! -s "$tmp/log" ] && grep -q 'apt-get install' "$tmp/err" && ok || bad "SKEIN_NO_INSTALL only reports"
fi

# a site OTF2 prefix is used instead of the Debian package
mkdir -p "$tmp/otf2/include/otf2" && : >"$tmp/otf2/include/otf2/otf2.h"
printf 'ncursesw\nyaml-0.1\nhwloc\n' >"$tmp/have"; : >"$tmp/log"
OTF2_PREFIX=$tmp/otf2 deps build && [ ! -s "$tmp/log" ] && ok || bad "OTF2_PREFIX replaces the package"
OTF2_PREFIX=$tmp/none deps build && bad "a bad OTF2_PREFIX must fail" || ok

echo "deps tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
