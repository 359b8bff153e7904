#!/bin/sh
# deps.sh — mk/deps.sh asks apt-get for exactly the missing packages, uses
# sudo when not root, and stops with one clear line when it cannot
# install; and every tool the test suite calls is either on a fresh
# Debian 12 (tests/debian12-base.txt) or installed by `mk/deps.sh check`.
# Runs the real script against fake pkg-config, apt-get, sudo, id and
# tools, with nothing else on PATH, so nothing is installed.
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/skein-deps-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The tools the suite calls: what `make check` runs (tests/tools.awk says
# what it reads), minus the commands a fresh Debian 12 has.
cd "$root" || exit 1
awk -f tests/tools.awk Makefile traces/Makefile traces/*/Makefile mk/layers.sh tests/*.sh \
	traces/e2e.sh traces/*/check.sh traces/apps/verify.sh traces/*/*.py tests/test_*.c >"$tmp/called" ||
	{ echo "FAIL: tests/tools.awk"; exit 1; }
grep -v '^#' tests/debian12-base.txt >"$tmp/base"
cut -f1 "$tmp/called" | grep -vxF -f "$tmp/base" >"$tmp/extra"
cd - >/dev/null || exit 1
grep -qx sh "$tmp/base" && grep -qx python3 "$tmp/extra" && grep -qx tmux "$tmp/extra" && ok ||
	bad "the scan finds sh on a fresh machine and python3, tmux beyond it ($(tr '\n' ' ' <"$tmp/extra"))"
# the scan on a planted script: t1..t9 are run, n1..n6 are not
cat >"$tmp/plant.sh" <<'EOS'
# n1 in a comment
x=$(t1 -q | t2)
check() { if "$@" >/dev/null; then :; fi; }
run() { name=$1; shift; check "$@"; }
check t3 arg
run "name" t4 "$x"
command -v n2 >/dev/null || exit 1
case $x in n3) t5 ;; *) echo "$(t6)" ;; esac
cmd="t7 --flag"
$cmd
SKEIN=1 timeout 60 env -i A=b t8 && sh -c "t9 '\$x'"
cat <<'PY'
n4 n5 in a heredoc
PY
for n6 in a b; do :; done
. "$tmp/lib.sh"
n8 x
EOS
# a function defined in a sourced file (beside the script) is no tool
printf 'n8() { :; }\n' >"$tmp/lib.sh"
printf 'x = subprocess.run(["p1", "-a"])\n' >"$tmp/plant.py"
printf 'int main(void) { return system("c1 -x f && c2 | c3") + system("n7 words"); }\n' >"$tmp/plant.c"
[ "$(awk -f "$root/tests/tools.awk" "$tmp/plant.sh" "$tmp/plant.py" "$tmp/plant.c" | cut -f1 | grep -v '^\(cat\|timeout\|env\|sh\)$' |
	tr '\n' ' ')" = "t1 t2 t3 t4 t5 t6 t7 t8 t9 p1 c1 c2 c3 " ] && ok ||
	bad "tools.awk on a planted script: $(awk -f "$root/tests/tools.awk" "$tmp/plant.sh" "$tmp/plant.py" "$tmp/plant.c" | cut -f1 | tr '\n' ' ')"

mkdir -p "$tmp/bin"
while read -r c; do printf '#!/bin/sh\n' >"$tmp/bin/$c"; done <"$tmp/extra"
# pkg-config: modules listed in $tmp/have exist (shell builtins only: PATH
# holds nothing but these fakes)
cat >"$tmp/bin/pkg-config" <<EOS
#!/bin/sh
[ "\$1" = --exists ] || exit 1
while read -r m; do [ "\$m" = "\$2" ] && exit 0; done <"$tmp/have"
exit 1
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
chmod +x "$tmp/bin"/*
deps() { PATH="$tmp/bin" /bin/sh "$root/mk/deps.sh" "$@" 2>"$tmp/err"; }
all_modules='ncursesw\nyaml-0.1\nhwloc\nlibxml-2.0\nzlib\notf2\ncmocka\n'

# Every tool the tests call is there: nothing to install. (A package asked
# for here is one the check set wants for a tool no test calls.)
: >"$tmp/log"
printf "$all_modules" >"$tmp/have"
deps check && [ ! -s "$tmp/log" ] && ok || bad "nothing missing: apt-get must not run ($(cat "$tmp/log" "$tmp/err"))"

# Each tool the tests call beyond a fresh machine, when missing, is installed.
got=""
while read -r c; do
	mv "$tmp/bin/$c" "$tmp/aside"
	: >"$tmp/log"
	if deps check && grep -q '^apt-get install ' "$tmp/log"; then
		ok; got="$got $c ($(sed -n 's/^apt-get install -y -qq --no-install-recommends //p' "$tmp/log"))"
	else
		bad "$(grep -m1 "^$c	" "$tmp/called" | cut -f2) calls $c, which a fresh Debian 12 lacks and mk/deps.sh check does not install"
	fi
	mv "$tmp/aside" "$tmp/bin/$c"
done <"$tmp/extra"
echo "deps tests: the tests call, beyond a fresh Debian 12:$got"

: >"$tmp/log"
printf 'ncursesw\nyaml-0.1\n' >"$tmp/have"
deps build && grep -q 'apt-get update' "$tmp/log" &&
	grep -q 'apt-get install -y -qq --no-install-recommends libhwloc-dev libxml2-dev zlib1g-dev libopen-trace-format2-dev$' "$tmp/log" &&
	ok || bad "root: installs the missing ($(cat "$tmp/log"))"

: >"$tmp/log"
printf 'ncursesw\nyaml-0.1\nhwloc\nlibxml-2.0\nzlib\notf2\n' >"$tmp/have"
deps check && grep -q 'install .* libcmocka-dev$' "$tmp/log" && ok || bad "check adds test packages"

printf 'ncursesw\n' >"$tmp/have"; : >"$tmp/log"
FAKE_UID=1000 deps build && grep -q '^sudo apt-get' "$tmp/log" && ok || bad "non-root uses sudo"

: >"$tmp/log"
if FAKE_UID=1000 FAKE_SUDO_FAILS=1 deps build; then bad "no sudo must fail"; else
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'missing Debian packages: libyaml-dev libhwloc-dev libxml2-dev zlib1g-dev libopen-trace-format2-dev' "$tmp/err" &&
		[ ! -s "$tmp/log" ] && ok || bad "no sudo: one line naming the packages ($(cat "$tmp/err"))"
fi

: >"$tmp/log"
if SKEIN_NO_INSTALL=1 deps build; then bad "SKEIN_NO_INSTALL must fail when packages are missing"; else
	[ ! -s "$tmp/log" ] && grep -q 'apt-get install' "$tmp/err" && ok || bad "SKEIN_NO_INSTALL only reports"
fi

# a site OTF2 prefix is used instead of the Debian package
mkdir -p "$tmp/otf2/include/otf2" && : >"$tmp/otf2/include/otf2/otf2.h"
printf 'ncursesw\nyaml-0.1\nhwloc\nlibxml-2.0\nzlib\n' >"$tmp/have"; : >"$tmp/log"
OTF2_PREFIX=$tmp/otf2 deps build && [ ! -s "$tmp/log" ] && ok || bad "OTF2_PREFIX replaces the package"
OTF2_PREFIX=$tmp/none deps build && bad "a bad OTF2_PREFIX must fail" || ok

echo "deps tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
