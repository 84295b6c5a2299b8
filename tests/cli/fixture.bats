#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat under a fixture sysfs tree (PMUPROF_SYSFS_ROOT): the fixture's PMU type numbers
# are another machine's (8 is msr on an x86 host), so no event whose PMU comes from the tree is
# ever opened: each is reported not counted with that reason, in every format, while software
# events count for real and the command's status is kept. Resolution and the plan still work.
load helpers

PHONE=$FIXTURES/phone-a55-a76
QEMU=$FIXTURES/qemu-a57

@test "fixture: an Arm event is not counted (null value, the reason), task-clock counts, status kept" {
	PMUPROF_SYSFS_ROOT=$PHONE stat_json -e sw_incr,task-clock -- sh -c 'exit 3'
	assert_equal "$status" 3
	assert_equal "$(jqr '.events[0].name')" sw_incr
	assert_equal "$(jqr '.events[0].status')" "not counted"
	assert_equal "$(jqr '.events[0].value')" null
	assert_equal "$(jqr '.events[0].raw_value')" null
	assert_equal "$(jqr '.events[0].reason')" \
		"its PMU comes from the fixture tree $PHONE (PMUPROF_SYSFS_ROOT), not this machine"
	# resolution still worked: the fixture's PMUs and type numbers are reported
	assert_equal "$(jqr '[.events[0].split[].pmu] | join(",")')" armv8_cortex_a55,armv8_cortex_a76
	assert_equal "$(jqr '[.events[0].split[].type] | join(",")')" 8,9
	assert_equal "$(jqr '[.events[0].split[].status] | unique | join(",")')" "not counted"
	assert_equal "$(jqr '[.events[0].split[].raw_value] | unique | join(",")')" ""
	assert_equal "$(jqr '.events[1].status')" counted
	[ "$(jqr '.events[1].value')" -gt 0 ] || fail "task-clock $(jqr '.events[1].value')"
	assert_equal "$(jqr '.mux.multiplexed')" false
}

@test "fixture: an event with only fixture events still runs the command and reports" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e sw_incr,cycles,inst_retired -- sh -c 'exit 4'
	assert_equal "$status" 4
	assert_line --regexp '^ +<not counted> +sw_incr$'
	assert_line --regexp '^ +<not counted> +cycles$'
	assert_line --regexp '^ +<not counted> +inst_retired$'
	assert_line --regexp "^ +# not counted: its PMU comes from the fixture tree $QEMU \(PMUPROF_SYSFS_ROOT\), not this machine$"
	[ "$(grep -c '# not counted: its PMU comes from the fixture tree' <<<"$output")" -eq 3 ]
	refute_output --partial "cannot count"
	refute_output --partial "multiplexed"
}

@test "fixture: CSV says not counted (perf's checker reads no comment lines: the reason is in text and JSON), task-clock counted in msec" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -x, -e sw_incr,task-clock -- true
	assert_success
	assert_line --regexp '^<not counted>,,sw_incr,0,'
	refute_output --partial "#"
	assert_line --regexp '^[0-9]+\.[0-9]{2},msec,task-clock,[1-9][0-9]*,'
}

@test "fixture: the plan is still made against the fixture's PMU (--counters)" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --plan --counters 2 -e inst_retired,l1d_cache,l2d_cache,br_pred
	assert_success
	assert_line "capacity: armv8_pmuv3: 2 general counters (--counters) + the cycle counter"
	assert_line "run 2:"
	PMUPROF_SYSFS_ROOT=$QEMU stat_json --mux=runs --counters 2 -e inst_retired,l1d_cache,l2d_cache,br_pred,task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[] | select(.name != "task-clock") | .status] | unique | join(",")')" "not counted"
	assert_equal "$(jqr '[.events[] | .run] | join(",")')" "1,1,2,2,1"
	assert_equal "$(jqr '.events[4].status')" counted
}

@test "fixture: a report longer than stderr's 2 KiB buffer is written whole: the text -o writes" {
	local ev=inst_retired,cpu_cycles,br_mis_pred,l1d_cache,l1d_cache_refill,mem_access
	ev=$ev,l1i_cache_refill,l1i_tlb_refill,l1d_tlb_refill,exc_taken,exc_return,br_pred
	ev=$ev,l1i_cache,l1d_cache_wb,l2d_cache,l2d_cache_refill,l2d_cache_wb,bus_access,inst_spec
	local err=$BATS_TEST_TMPDIR/err.txt out=$BATS_TEST_TMPDIR/r.txt
	PMUPROF_SYSFS_ROOT=$QEMU "$PMUPROF" stat -e "$ev" -- true 2>"$err"
	[ "$(wc -c <"$err")" -gt 2048 ] || fail "the report is $(wc -c <"$err") bytes, no more than 2 KiB"
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -o "$out" -e "$ev" -- true
	assert_success
	# the times differ from run to run; everything else is the same text
	diff <(grep -v ' seconds ' "$err") <(grep -v ' seconds ' "$out") || fail "stderr and -o differ"
	[ "$(grep -c '^ *<not counted> ' "$err")" -eq 19 ] || fail "rows: $(cat "$err")"
}

@test "a misspelt PMUPROF_SYSFS_ROOT is an error naming the variable and the path, not a machine without PMUs" {
	local way="(unset it to read this machine's /sys and /proc, or point it at a fixture tree such as tests/fixtures/n1-server)"
	PMUPROF_SYSFS_ROOT=$ROOT/tests/fixture/n1-server run --separate-stderr "$PMUPROF" info
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "pmuprof: PMUPROF_SYSFS_ROOT names '$ROOT/tests/fixture/n1-server', which does not exist $way"
	# a tree without sys/, a file: the same, for every command; nothing run
	PMUPROF_SYSFS_ROOT=$FIXTURES/broken-nosys run --separate-stderr "$PMUPROF" stat -e task-clock -- touch ran
	assert_failure 2
	assert_equal "$stderr" "pmuprof: PMUPROF_SYSFS_ROOT names '$FIXTURES/broken-nosys', which has no sys/ directory $way"
	[ ! -e ran ] || fail "the command ran"
	: > file
	PMUPROF_SYSFS_ROOT=file run --separate-stderr "$PMUPROF" list
	assert_failure 2
	assert_equal "$stderr" "pmuprof: PMUPROF_SYSFS_ROOT names 'file', which is not a directory $way"
	# a tree with sys/ (a trailing slash too), empty and / are machines
	PMUPROF_SYSFS_ROOT=$QEMU/ run -0 "$PMUPROF" info
	assert_line --regexp '^armv8_pmuv3 '
	PMUPROF_SYSFS_ROOT= run -0 "$PMUPROF" stat -e task-clock -- true
	PMUPROF_SYSFS_ROOT=/ run -0 "$PMUPROF" stat -e task-clock -- true
}
