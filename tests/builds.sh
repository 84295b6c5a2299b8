#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/builds.sh: owns the build matrix: pmuprof built with other compilers, linkers and flags
# than the main build (gcc and GNU ld, `make`), each into build/<variant> with warnings as
# errors (WERROR=-Werror), then checked: its read-only data is not mapped executable
# (tests/tools/rodata-segment.sh), its unit test binaries pass, and the binary runs. Prints
# TAP, four lines a variant ("ok N - build clang+lld: unit tests (26 binaries)").
#
# Usage: tests/builds.sh [VARIANT...]   (tests/run builds; the default is every variant below
# but clang+lto, which gcc+lto and clang+lld cover between them)
#
#   clang+lld   CC=clang, LDFLAGS=-fuse-ld=lld
#   gcc+lto     CFLAGS="-O2 -g -flto=auto -ffat-lto-objects", LDFLAGS=-flto=auto
#   clang+lto   CC=clang, CFLAGS="-O2 -g -flto", LDFLAGS=-flto (ld.bfd and LLVM's plugin)
#   gcc+gold    LDFLAGS="-fuse-ld=gold -Wl,--rosegment": gold maps read-only data in the code's
#               segment unless told otherwise, whatever the program, so the check asks for it
#   hardening   Debian's flags: DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags
#
# A variant's directory is built afresh when its flags differ from the last run's (make does
# not track flags), and incrementally otherwise. A variant whose compiler, linker or
# dpkg-buildflags is missing fails, saying so: tools/deps.sh installs every one of them.
set -u
cd "$(dirname "$0")/.." || exit 2
variants=${*:-clang+lld gcc+lto gcc+gold hardening}
jobs=$(nproc 2>/dev/null || echo 2)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmuprof-builds.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 rc=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)) rc=1
	echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# have CMD: CMD is installed (for a linker, the compiler driver finds ld.NAME on PATH)
have() { command -v "$1" >/dev/null 2>&1; }

# check V: builds variant V (label) with $cc, $cflags, $cppflags, $ldflags into $dir
check() {
	v=$1
	flags="CC=$cc CFLAGS=$cflags CPPFLAGS=$cppflags LDFLAGS=$ldflags WERROR=-Werror"
	if [ "$(cat "$dir/.builds-flags" 2>/dev/null)" != "$flags" ]; then
		rm -rf "$dir"
		mkdir -p "$dir" && printf '%s\n' "$flags" >"$dir/.builds-flags"
	fi
	if make -s -j"$jobs" O="$dir" CC="$cc" CFLAGS="$cflags" CPPFLAGS="$cppflags" \
		LDFLAGS="$ldflags" WERROR=-Werror all unit-bins >"$tmp/build" 2>&1; then
		ok "build $v: builds with -Werror ($flags)"
	else
		fail "build $v: builds with -Werror ($flags)" "$(tail -n 20 "$tmp/build")"
		# the stamp goes, so that the next run starts afresh
		rm -f "$dir/.builds-flags"
		return
	fi

	if out=$(tests/tools/rodata-segment.sh "$dir/pmuprof" 2>&1); then
		ok "build $v: .rodata is in a non-executable segment ($(echo $out))"
	else
		fail "build $v: .rodata is in a non-executable segment" "$out"
	fi

	total=0 bad=
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		total=$((total + 1))
		"$t" >"$tmp/unit" 2>&1 || bad="$bad
${t##*/}: $(grep -m 3 '^not ok' "$tmp/unit" || tail -n 3 "$tmp/unit")"
	done
	if [ "$total" -eq 0 ]; then
		fail "build $v: unit tests" "no test binary in $dir/tests"
	elif [ -z "$bad" ]; then
		ok "build $v: unit tests ($total binaries)"
	else
		fail "build $v: unit tests ($total binaries)" "$bad"
	fi

	# the tables and the counting path, as built: a plain run and a table lookup
	value=$("$dir/pmuprof" stat -j -e task-clock -o "$tmp/report.json" -- true >/dev/null 2>&1 &&
		jq -r '.events[0].value' "$tmp/report.json" 2>/dev/null)
	names=$("$dir/pmuprof" list --cpu-model cortex-a57 -n 2>/dev/null | grep -c '^INST_RETIRED$')
	if [ "${value:-0}" != null ] && [ "${value:-0}" -gt 0 ] 2>/dev/null && [ "$names" = 1 ]; then
		ok "build $v: pmuprof runs (stat -j counts task-clock: $value ns; list finds INST_RETIRED)"
	else
		fail "build $v: pmuprof runs (stat -j counts task-clock; list finds INST_RETIRED)" \
			"task-clock value: '$value'; INST_RETIRED lines in list --cpu-model cortex-a57 -n: $names"
	fi
}

for v in $variants; do
	cc=gcc cflags="-O2 -g" cppflags= ldflags= why=
	case $v in
	clang+lld)
		cc=clang ldflags=-fuse-ld=lld
		have clang || why="clang is not installed"
		have ld.lld || why="${why:-ld.lld is not installed}" ;;
	gcc+lto)
		cflags="-O2 -g -flto=auto -ffat-lto-objects" ldflags=-flto=auto
		have gcc || why="gcc is not installed" ;;
	clang+lto)
		cc=clang cflags="-O2 -g -flto" ldflags=-flto
		have clang || why="clang is not installed" ;;
	gcc+gold)
		ldflags="-fuse-ld=gold -Wl,--rosegment"
		have ld.gold || why="ld.gold is not installed" ;;
	hardening)
		if have dpkg-buildflags; then
			export DEB_BUILD_MAINT_OPTIONS=hardening=+all
			cflags=$(dpkg-buildflags --get CFLAGS)
			cppflags=$(dpkg-buildflags --get CPPFLAGS)
			ldflags=$(dpkg-buildflags --get LDFLAGS)
			unset DEB_BUILD_MAINT_OPTIONS
		else
			why="dpkg-buildflags is not installed (dpkg-dev)"
		fi ;;
	*)
		echo "tests/builds.sh: no variant '$v' (clang+lld, gcc+lto, clang+lto, gcc+gold, hardening)" >&2
		exit 2 ;;
	esac
	dir=build/$(echo "$v" | tr '+' '-')
	if [ -n "$why" ]; then
		fail "build $v: $why (sh tools/deps.sh installs it)"
		continue
	fi
	check "$v"
done
echo "1..$n"
exit $rc
