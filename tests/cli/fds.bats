#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fds.bats: owns descriptor hygiene: the workload inherits no descriptor of pmuprof's (counter
# fds, the -o temporary file, sysfs reads) beyond 0, 1 and 2; ppload's fds step lists its own.
load helpers

# The workload's descriptors under pmuprof stat ARGS, from ppload fds, as one line; compared
# with what ppload run directly has (bats and the CI runner hand descriptors down too).
workload_fds() {
	run --separate-stderr "$PMUPROF" stat "$@" -- "$PPLOAD" fds
	assert_success
	echo "$output" | tr '\n' ' ' | sed 's/ $//'
}

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	[ -x "$PPLOAD" ] || fail "the test workload is not built ($PPLOAD): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -d /proc/self/fd ] || skip "no /proc/self/fd here (is /proc mounted?)"
	direct=$("$PPLOAD" fds | tr '\n' ' ' | sed 's/ $//')
	# shellcheck disable=SC2076 # a literal match
	[[ " $direct " =~ " 0 1 2 " ]] || fail "ppload fds, run directly, does not list 0 1 2: '$direct'"
}

@test "several events: only what pmuprof was given (0 1 2) reaches the workload" {
	[ "$(workload_fds -e task-clock,page-faults,context-switches,cpu-migrations)" = "$direct" ]
}

@test "the default events (some not supported here): only 0 1 2" {
	[ "$(workload_fds)" = "$direct" ]
}

@test "a group of events: only 0 1 2" {
	[ "$(workload_fds -e '{task-clock,page-faults},context-switches')" = "$direct" ]
}

@test "-o FILE: the report's temporary file does not reach the workload" {
	[ "$(workload_fds -e task-clock,page-faults -o report.txt)" = "$direct" ]
	[ -s report.txt ]
}

@test "--json -o FILE: only 0 1 2" {
	[ "$(workload_fds --json -o report.json -e task-clock,page-faults)" = "$direct" ]
	jq -e . report.json >/dev/null
}

@test "-x, with events resolved on a fixture machine: only 0 1 2" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host
	export PMUPROF_SYSFS_ROOT
	[ "$(workload_fds -x, -e task-clock,page-faults)" = "$direct" ]
}

@test "a descriptor pmuprof itself was given does reach the workload" {
	# pmuprof must not close what its caller meant the command to have (as a shell would not)
	exec 7>/dev/null
	direct=$("$PPLOAD" fds | tr '\n' ' ' | sed 's/ $//')
	[ "$(workload_fds -e task-clock)" = "$direct" ]
	exec 7>&-
}
