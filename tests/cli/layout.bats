#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The source's size rules (DESIGN.md's house style): a file of src/ reads in one sitting and a
# function on one screen.
load helpers

@test "no file in src/ is over 600 lines" {
	cd "$ROOT"
	run sh -c 'find src -name "*.[ch]" -exec wc -l {} + | awk "\$2 != \"total\" && \$1 > 600"'
	assert_success
	assert_output ''
	# the check sees the files: there are dozens, and the biggest is near the limit
	n=$(find src -name '*.[ch]' | wc -l)
	[ "$n" -gt 50 ]
}

# The functions of the C files given longer than 80 lines, as "FILE: the line before its body":
# a body opens with "{" alone in column 0 and closes with "}" in column 0 (the house style).
long_functions() {
	awk 'FNR == 1 { open = 0 }
	     /^\{/ { open = FNR; name = prev }
	     /^\}/ && open { if (FNR - open + 1 > 80) print FILENAME ": " name; open = 0 }
	     { prev = $0 }' "$@"
}

@test "no function in src/ is over 80 lines, from its opening brace to its closing one" {
	cd "$ROOT"
	mapfile -t files < <(find src -name '*.c')
	[ "${#files[@]}" -gt 50 ]
	run long_functions "${files[@]}"
	assert_success
	assert_output ''
	# it finds a long function when there is one
	{ printf 'static void f(void)\n{\n'; for _ in $(seq 85); do echo "	x();"; done; echo '}'; } \
		> "$BATS_TEST_TMPDIR/long.c"
	run long_functions "$BATS_TEST_TMPDIR/long.c"
	assert_output "$BATS_TEST_TMPDIR/long.c: static void f(void)"
}
