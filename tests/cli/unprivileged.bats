#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# unprivileged.bats: owns unprivileged use: pmuprof run as user nobody (via su) under
# kernel.perf_event_paranoid 2 (user-space counting works, with a warning naming the setting)
# and 3 (Debian's patch: refused, with the setting and the exact command to change it). The
# setting is changed only for one command at a time and always put back.
# shellcheck disable=SC2016,SC2154 # single-quoted scripts for su's sh; bats run sets $stderr
load helpers
load nobody_helpers

setup_file() {
	[ -r "$PARANOID" ] && cat "$PARANOID" >"$BATS_FILE_TMPDIR/paranoid.orig"
	return 0
}

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	[ -x "$PPLOAD" ] || fail "the test workload is not built ($PPLOAD): run make"
	nobody_usable "$PMUPROF" "$PPLOAD"
	# a directory nobody can write, for -o
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/pmuprof-nobody.XXXXXX")
	chmod 777 "$scratch"
}

teardown() {
	local orig
	# whatever a test did, the machine's setting is as it was
	orig=$(cat "$BATS_FILE_TMPDIR/paranoid.orig" 2>/dev/null) &&
		[ "$(cat "$PARANOID")" = "$orig" ] || echo "$orig" >"$PARANOID"
	[ -z "${scratch:-}" ] || { check_left_reports "$scratch"; rm -rf "$scratch"; }
}

@test "paranoid 2, as nobody: user-space counting works, the warning names the setting" {
	run --separate-stderr with_paranoid 2 as_nobody stat -e task-clock,page-faults -- \
		"$PPLOAD" spin 5
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 2 here"
	assert_success
	[ "$(cat "$PARANOID")" = "$(cat "$BATS_FILE_TMPDIR/paranoid.orig")" ]
	grep -qE 'task-clock:u' <<<"$stderr" || fail "task-clock not counted as task-clock:u: $stderr"
	grep -qE '^pmuprof: warning: counting user space only: kernel\.perf_event_paranoid is 2' \
		<<<"$stderr" || fail "no warning naming the setting: $stderr"
	grep -q "sysctl -w kernel.perf_event_paranoid=1" <<<"$stderr" ||
		fail "the warning does not give the command: $stderr"
}

@test "paranoid 2, as nobody: the JSON report has the events counted in user space" {
	run --separate-stderr with_paranoid 2 as_nobody stat --json -o report.json \
		-e task-clock,page-faults -- "$PPLOAD" spin 5 touch 100
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 2 here"
	assert_success
	run jq -r '.events[] | "\(.name) \(.status)"' "$scratch/report.json"
	assert_line "task-clock:u counted"
	assert_line "page-faults:u counted"
}

@test "paranoid 2, as nobody: an explicit kernel event is refused with the setting named" {
	run --separate-stderr with_paranoid 2 as_nobody stat -e task-clock:k -- "$PPLOAD" spin 1
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 2 here"
	assert_failure 2
	grep -q 'kernel.perf_event_paranoid is 2' <<<"$stderr" ||
		fail "the message does not name the setting: $stderr"
}

@test "paranoid 3, as nobody: refused, naming the setting and the exact command" {
	run --separate-stderr with_paranoid 3 as_nobody stat -e task-clock,page-faults:u -- \
		"$PPLOAD" spin 1
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 3 here"
	[ "$(cat "$PARANOID")" = "$(cat "$BATS_FILE_TMPDIR/paranoid.orig")" ] ||
		fail "the setting was not put back"
	if [ "$status" -eq 0 ]; then
		# only a kernel that really counted here excuses the success: a pmuprof that exits 0
		# with nothing counted is a failure, not this kernel's doing
		grep -qE '^ +[0-9][0-9.,]* +msec +task-clock' <<<"$stderr" ||
			fail "exit 0 under paranoid 3, yet task-clock was not counted: $stderr"
		skip "this kernel treats paranoid 3 as 2 (no Debian patch): it counts"
	fi
	assert_failure 2
	grep -q 'kernel.perf_event_paranoid is 3' <<<"$stderr" ||
		fail "the message does not name the setting: $stderr"
	grep -q "sysctl -w kernel.perf_event_paranoid=2" <<<"$stderr" ||
		fail "the message does not give the command: $stderr"
}

@test "paranoid 1, as nobody: -a is refused in one line naming the setting and CAP_PERFMON" {
	run --separate-stderr with_paranoid 1 as_nobody stat -a -e cpu-clock -- true
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 1 here"
	assert_failure 2
	[[ $stderr == "pmuprof: not permitted to count 'cpu-clock' on CPU "[0-9]*": counting every task of a CPU (-a, -C) needs kernel.perf_event_paranoid <= 0 (it is 1) or CAP_PERFMON"* ]] ||
		fail "not the message: $stderr"
	(( $(wc -l <<<"$stderr") == 1 )) || fail "more than one line: $stderr"
}

@test "paranoid 0, as nobody: -a counts every CPU" {
	run --separate-stderr with_paranoid 0 as_nobody stat -a -j -o r.json -e cpu-clock -- \
		sleep 0.1
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 0 here"
	assert_success
	jq -e '.events[0].status == "counted" and .target == "system wide"' "$scratch/r.json"
}

@test "as nobody: -p on another user's process is refused once, naming the right to trace" {
	run --separate-stderr as_nobody stat -p 1 -e task-clock --timeout 50
	assert_failure 2
	[[ $stderr == "pmuprof: not permitted to count 'task-clock' on thread 1: following a task needs the right to trace it"* ]] ||
		fail "not the message: $stderr"
	(( $(wc -l <<<"$stderr") == 1 )) || fail "more than one line: $stderr"
}
