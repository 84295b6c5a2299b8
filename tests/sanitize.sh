#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/sanitize.sh: owns the sanitizer run of the suite: builds everything with clang's
# AddressSanitizer and UndefinedBehaviorSanitizer into $O (default build/asan), then runs the
# unit tests, the CLI tests (bats, against that pmuprof and ppload) and the fuzz regression
# inputs with it. Prints TAP; any sanitizer report (collected through log_path, so a report
# inside a test that expected a failure still counts) is a failure of its own.
set -u
cd "$(dirname "$0")/.." || exit 2
O=${O:-build/asan}
SAN="-fsanitize=address,undefined"
CFLAGS="-O1 -g $SAN -fno-omit-frame-pointer -fno-sanitize-recover=all"
logs=$(mktemp -d "${TMPDIR:-/tmp}/pmuprof-asan.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT INT TERM
rc=0

# a development build: warnings are errors (WERROR, Makefile)
if ! make -s O="$O" CC=clang HOSTCC=clang CFLAGS="$CFLAGS" LDFLAGS="$SAN" WERROR=-Werror \
	all unit-bins >"$logs/build" 2>&1; then
	echo "not ok 1 - the sanitizer build (clang $SAN) failed"
	sed 's/^/# /' "$logs/build" | tail -n 20
	exit 1
fi
# a build directory whose objects were already up to date from a plain build would leave
# pmuprof uninstrumented, and every check below would pass without a sanitizer watching
if ! grep -q __asan_init "$O/pmuprof" || ! grep -q __ubsan_handle "$O/pmuprof"; then
	echo "not ok 1 - the sanitizer build: $O/pmuprof is not instrumented (a plain build in $O?)"
	exit 1
fi
echo "ok 1 - the sanitizer build (clang $SAN)"

# every report goes to a file of its own: a test's own exit status cannot hide it
ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:log_path=$logs/asan"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
# timing limits are for the real binary; tests that measure time skip under this variable
PMUPROF_SANITIZED=1
export ASAN_OPTIONS UBSAN_OPTIONS PMUPROF_SANITIZED

echo "# === unit (sanitized) ==="
O=$O tests/run unit || rc=1
echo "# === cli (sanitized) ==="
# the workloads are the plain build's, made here when this runner runs alone: what is
# sanitized is pmuprof, and the tests that time a workload (task-clock of a busy loop, of a
# tiny command) or count its page faults (ppregion's windows) would count the sanitizer's
# start-up and shadow memory too
if ! make -s O=build build/ppload build/ppregion >"$logs/workloads" 2>&1; then
	echo "not ok 1 - the plain workloads (build/ppload, build/ppregion) did not build"
	sed 's/^/# /' "$logs/workloads" | tail -n 20
	exit 1
fi
ppload="$PWD/build/ppload" ppregion="$PWD/build/ppregion"
PMUPROF="$PWD/$O/pmuprof" PPLOAD="$ppload" PPREGION="$ppregion" bats --tap tests/cli || rc=1
echo "# === fuzz regression inputs (sanitized) ==="
O=$O CC=clang CFLAGS="$CFLAGS" LDFLAGS="$SAN" fuzz/replay.sh || rc=1

n=0
for f in "$logs"/asan.* "$logs"/ubsan.*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	echo "not ok $n - sanitizer report ${f##*/}"
	head -n 12 "$f" | sed 's/^/# /'
	rc=1
done
[ $n -gt 0 ] || echo "ok 2 - no sanitizer report from any process of the run"
exit $rc
