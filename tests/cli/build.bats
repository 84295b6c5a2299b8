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

@test "serve's libraries are pmuprof-serve's alone; pmuprof serve runs it, or says where it goes" {
	serve=$(dirname "$PMUPROF")/pmuprof-serve
	run readelf -dW "$PMUPROF"
	assert_success
	refute_output --regexp 'NEEDED.*\[lib(microhttpd|gnutls|crypt)\.'
	run readelf -dW "$serve"
	assert_success
	assert_output --regexp 'NEEDED.*\[libmicrohttpd\.so'
	run "$PMUPROF" serve --help
	assert_success
	assert_line --index 0 --regexp '^Usage: pmuprof serve '
	# pmuprof alone, without its pmuprof-serve: one line naming it and where it goes
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cp "$PMUPROF" "$BATS_TEST_TMPDIR/bin/pmuprof"
	run "$BATS_TEST_TMPDIR/bin/pmuprof" serve --help
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^pmuprof: cannot run pmuprof-serve, which pmuprof serve runs: No such file or directory \(.*/bin/\.\./libexec/pmuprof/pmuprof-serve\)$"
}

@test "pmuprof's read-only data is in a segment without execute permission" {
	command -v readelf >/dev/null || fail "readelf is not installed (binutils, which gcc brings)"
	run "$ROOT/tests/tools/rodata-segment.sh" "$PMUPROF"
	assert_success
	assert_output --regexp '^\.rodata: LOAD R$'
	refute_output --regexp ' R ?E$'
}

@test "make CROSS=aarch64-linux-gnu- uses the cross tools, and HOSTCC for the table generator" {
	# without tests/run's exported O, which a make variable from the environment obeys
	run env -u O make -C "$ROOT" -n -B CROSS=aarch64-linux-gnu- all unit-bins
	assert_success
	# the program, its objects and its archive: the cross tools, in a build directory of its own
	assert_line --regexp '^aarch64-linux-gnu-gcc .* -c -o build/aarch64-linux-gnu/obj/main\.o src/main\.c$'
	assert_line --regexp '^aarch64-linux-gnu-gcc .* -o build/aarch64-linux-gnu/pmuprof '
	assert_line --regexp 'aarch64-linux-gnu-ar rcs build/aarch64-linux-gnu/libpmuprof\.a '
	# the generator runs during the build, on this machine: the build machine's compiler
	assert_line --regexp '^cc .* -o build/aarch64-linux-gnu/host/evgen '
	refute_line --regexp '^aarch64-linux-gnu-gcc .* -o build/aarch64-linux-gnu/host/evgen '
	refute_line --regexp '^(cc|gcc) .* -c -o build/aarch64-linux-gnu/obj/'
}

@test "make CROSS=... leaves CC and O given beside it alone" {
	run env -u O make -C "$ROOT" -n -B CROSS=aarch64-linux-gnu- CC=false-cc O=build/other \
		build/other/pmuprof
	assert_success
	assert_line --regexp '^false-cc .* -o build/other/pmuprof '
	refute_output --partial 'aarch64-linux-gnu-gcc'
}
