#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# tests/run's summary line: passed, failed and skipped counted apart from the runners' TAP,
# adding up to the TAP lines, over stand-in unit test binaries (shell scripts printing TAP).
load helpers

# unit_bin NAME TAP-SCRIPT: a stand-in unit test binary under $BATS_TEST_TMPDIR/o/tests.
unit_bin() {
	mkdir -p o/tests
	printf '#!/bin/sh\n%s\n' "$2" > "o/tests/$1"
	chmod +x "o/tests/$1"
}

@test "tests/run: N passed, N failed, N skipped; a skip is not a pass" {
	unit_bin test_a 'echo 1..3; echo "ok 1 - one"; echo "ok 2 - two # SKIP no such PMU here"
		echo "not ok 3 - three"; exit 1'
	unit_bin test_b 'echo 1..2; echo "ok 1 - four"; echo "ok 2 # skip lower case, no description"'
	O=$PWD/o run "$ROOT/tests/run" unit
	assert_failure 1
	assert_equal "${lines[-1]}" "2 passed, 1 failed, 2 skipped"
	# each skip is listed with its reason
	assert_line "#   ok 2 - two # SKIP no such PMU here"
}

@test "tests/run: a runner that dies without a 'not ok', or reports nothing, is a failure" {
	unit_bin test_a 'echo 1..1; echo "ok 1 - one"; exit 3'
	unit_bin test_b 'echo "no TAP at all"'
	O=$PWD/o run "$ROOT/tests/run" unit
	assert_failure 1
	assert_equal "${lines[-1]}" "1 passed, 2 failed, 0 skipped"
}

@test "tests/run: all passed is status 0; no unit test binaries at all is a failure" {
	unit_bin test_a 'echo 1..1; echo "ok 1 - one"'
	O=$PWD/o run "$ROOT/tests/run" unit
	assert_success
	assert_equal "${lines[-1]}" "1 passed, 0 failed, 0 skipped"
	mkdir empty
	O=$PWD/empty run "$ROOT/tests/run" unit
	assert_failure 1
	assert_equal "${lines[-1]}" "0 passed, 1 failed, 0 skipped"
}
