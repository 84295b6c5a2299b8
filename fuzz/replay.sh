#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fuzz/replay.sh: owns the fuzz regression tests in `make check`: builds each fuzz target with
# a plain main() (fuzz/replay.c; $CC, gcc by default) against $O/libpmuprof.a and runs it over
# its seed corpus (one TAP line per target) and over every crash ever found (one TAP line per
# file under tests/fuzz-corpus/<target>/crashes/). Needs `make O=$O all` first.
set -u
cd "$(dirname "$0")/.." || exit 2
O=${O:-build}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
LDFLAGS=${LDFLAGS:-}
out=$O/fuzz-replay
cjson_cflags=$(pkg-config --cflags libcjson 2>/dev/null || echo -I/usr/include/cjson)
cjson_libs=$(pkg-config --libs libcjson 2>/dev/null || echo -lcjson)
n=0 rc=0

tap() {	# STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; rc=1; fi
}

if [ ! -f "$O/libpmuprof.a" ]; then
	echo "not ok 1 - $O/libpmuprof.a is not built (run make O=$O all)"
	exit 1
fi
mkdir -p "$out"
for t in evspec sysfs diff; do
	bin=$out/fuzz_$t
	# shellcheck disable=SC2086 # the flag lists are meant to split
	$CC -std=c11 -D_GNU_SOURCE $CFLAGS -Wall -Wextra -Werror -Iinclude -Ifuzz $cjson_cflags \
		$LDFLAGS -o "$bin" "fuzz/fuzz_$t.c" fuzz/replay.c "$O/libpmuprof.a" $cjson_libs \
		-ldl -lm
	tap $? "fuzz_$t builds with $CC and a replay main()" || continue
	[ -x "$bin" ] || continue
	seeds=$(find "tests/fuzz-corpus/$t" -maxdepth 1 -type f ! -name '.*' | sort)
	if [ -n "$seeds" ]; then
		# shellcheck disable=SC2086 # corpus file names have no blanks (checked in by us)
		err=$("$bin" $seeds 2>&1 >/dev/null)
		st=$?
		tap $st "fuzz_$t over its $(echo "$seeds" | wc -l) seed inputs"
		[ $st -eq 0 ] || printf '%s\n' "$err" | head -n 5 | sed 's/^/# /'
	fi
	for f in "tests/fuzz-corpus/$t/crashes"/*; do
		[ -f "$f" ] || continue
		err=$("$bin" "$f" 2>&1 >/dev/null)
		st=$?
		tap $st "fuzz_$t: regression input $f"
		[ $st -eq 0 ] || printf '%s\n' "$err" | head -n 5 | sed 's/^/# /'
	done
done
echo "1..$n"
exit $rc
