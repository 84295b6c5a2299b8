#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# How pmuprof is linked: the libraries a package tool must see, and no executable data.
load helpers

@test "pmuprof links libcjson and libm (DT_NEEDED), and loads libpfm4 only on need" {
	command -v readelf >/dev/null || fail "readelf is not installed (binutils, which gcc brings)"
	run readelf -dW "$PMUPROF"
	assert_success
	# dpkg-shlibdeps computes the package's Depends from these entries
	assert_output --regexp 'NEEDED.*\[libcjson\.so\.1\]'
	assert_output --regexp 'NEEDED.*\[libm\.so\.6\]'
	assert_output --regexp 'NEEDED.*\[libc\.so\.6\]'
	# libpfm4 is dlopen()ed when a name needs it (include/pfm.h says why)
	refute_output --partial 'libpfm'
}

@test "pmuprof's read-only data is in a segment without execute permission" {
	command -v readelf >/dev/null || fail "readelf is not installed (binutils, which gcc brings)"
	run "$ROOT/tests/tools/rodata-segment.sh" "$PMUPROF"
	assert_success
	assert_output --regexp '^\.rodata: LOAD R$'
	refute_output --regexp ' R ?E$'
}
