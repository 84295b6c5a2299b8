#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fuzz/run.sh: owns `make fuzz`: builds the libFuzzer targets (clang, ASan + UBSan) into
# $O (default build/fuzz) and runs each for FUZZ_SECONDS (default 60) from its seed corpus
# under tests/fuzz-corpus/<target>/. Prints one TAP line per target; exits 1 on any crash,
# leaving the input under $O/crashes/<target>/ (copy it to tests/fuzz-corpus/<target>/crashes/
# so fuzz/replay.sh keeps it as a regression test).
# Usage: fuzz/run.sh [TARGET...]   (targets: evspec sysfs diff)
set -u
cd "$(dirname "$0")/.." || exit 2
O=${O:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
CC=${FUZZ_CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
targets=${*:-evspec sysfs diff}

# the library instrumented for coverage but without libFuzzer's main
if ! make -s O="$O" CC="$CC" HOSTCC="$CC" WERROR=-Werror \
	CFLAGS="-O1 -g $SAN -fsanitize=fuzzer-no-link" LDFLAGS="$SAN" "$O/libpmuprof.a" >&2; then
	echo "not ok 1 - the fuzzing build of libpmuprof failed"
	exit 1
fi
cjson_cflags=$(pkg-config --cflags libcjson 2>/dev/null || echo -I/usr/include/cjson)
cjson_libs=$(pkg-config --libs libcjson 2>/dev/null || echo -lcjson)

n=0 rc=0
echo "1..$(echo "$targets" | wc -w)"
for t in $targets; do
	n=$((n + 1))
	bin=$O/fuzz_$t
	seeds=tests/fuzz-corpus/$t
	work=$O/corpus/$t
	crashes=$O/crashes/$t
	mkdir -p "$work" "$crashes"
	# shellcheck disable=SC2086 # the flag lists are meant to split
	if ! $CC -std=c11 -D_GNU_SOURCE -O1 -g $SAN -fsanitize=fuzzer -Iinclude -Ifuzz \
		$cjson_cflags -o "$bin" "fuzz/fuzz_$t.c" "$O/libpmuprof.a" $cjson_libs -ldl -lm; then
		echo "not ok $n - fuzz_$t: does not build"
		rc=1
		continue
	fi
	log=$O/fuzz_$t.log
	# new inputs go to the work corpus; the committed seeds (and their crashes/) are read
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$work" "$seeds" "$seeds/crashes" >"$log" 2>&1
	st=$?
	stats=$(grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$log" |
		sed 's/^stat:://; s/: */=/' | tr '\n' ' ')
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	if [ $st -eq 0 ]; then
		echo "ok $n - fuzz_$t: ${FUZZ_SECONDS} s, no crash (${stats}${cov})"
	else
		rc=1
		echo "not ok $n - fuzz_$t: status $st, inputs in $crashes (log: $log)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*invariant broken|.*runtime error)' "$log" |
			head -n 5 | sed 's/^/# /'
	fi
done
exit $rc
