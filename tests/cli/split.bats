#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# big.LITTLE. On the sysfs tree of a phone with cortex-a55 (CPUs 0-3) and
# cortex-a76 (CPUs 4-7), an Arm event is planned and opened once per core type the command
# may run on, and every report gives the total and the split. This host has no Arm PMU, so the
# parts cannot count here: the exact per-core counts are proven under QEMU (tests/arm64, the
# hetero machine); these tests hold the shape, the PMUs, types, configs and absent core types.
load helpers

PHONE=$FIXTURES/phone-a55-a76

# stat_json on the phone, with task-clock so that something counts.
phone_json() {
	PMUPROF_SYSFS_ROOT=$PHONE stat_json "$@"
}

@test "split: --plan lists each event on both core types, an absent one says so" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --plan -e inst_retired,cycles,dsb_spec,task-clock
	assert_success
	assert_line --regexp '^  inst_retired +armv8_cortex_a55 +event counter$'
	assert_line --regexp '^  inst_retired +armv8_cortex_a76 +event counter$'
	assert_line --regexp '^  cycles +armv8_cortex_a55 +cycle counter$'
	assert_line --regexp '^  cycles +armv8_cortex_a76 +cycle counter$'
	assert_line --regexp '^  dsb_spec +armv8_cortex_a76 +event counter$'
	assert_line "not counted on armv8_cortex_a55: its core (cortex-a55) has no event 'dsb_spec'"
	refute_line --regexp '^  dsb_spec +armv8_cortex_a55'
}

@test "split: JSON: one part per PMU, its type, config and CPUs; absent parts; only_on" {
	phone_json -e inst_retired:u,r11,dsb_spec,br_cond_pred,task-clock -- true
	assert_success
	assert_equal "$(jqr '.schema_version')" 1.8
	assert_equal "$(jqr '[.events[0].split[] | "\(.pmu) \(.core) \(.cpus) \(.type) \(.config)"] | join(";")')" \
		'armv8_cortex_a55 cortex-a55 0-3 8 0x8;armv8_cortex_a76 cortex-a76 4-7 9 0x8'
	assert_equal "$(jqr '[.events[1].split[] | "\(.type) \(.config)"] | join(";")')" '8 0x11;9 0x11'
	assert_equal "$(jqr '[.events[2].split[].status][0]')" absent
	assert_equal "$(jqr '.events[2].only_on | tostring')" '["armv8_cortex_a76"]'
	assert_equal "$(jqr '[.events[3].split[].status][1]')" absent
	assert_equal "$(jqr '.events[3].only_on | tostring')" '["armv8_cortex_a55"]'
	assert_equal "$(jqr '.events[0].only_on')" null
	# the part carries the event's modifiers: exclude_kernel is the row's (checked by the
	# guest suite); here, a present part is never "absent" and an absent one has no value
	assert_equal "$(jqr '[.events[0].split[].status | select(. == "absent")] | length')" 0
	assert_equal "$(jqr '.events[2].split[0].raw_value')" null
	assert_equal "$(jqr '.events[2].split[0].config')" null
	assert_equal "$(jqr '.events[4].split')" null
	assert_equal "$(jqr '.events[4].status')" counted
}

@test "split: not split when the user named the PMU, with --cpu-model, or for software" {
	phone_json -e armv8_cortex_a76/inst_retired/,armv8_cortex_a55/event=0x11/,task-clock -- true
	assert_equal "$(jqr '[.events[].split] | unique | tostring')" '[null]'
	# counted only while the command runs on that PMU's CPUs, and the report says so
	assert_equal "$(jqr '.events[0].only_on | tostring')" '["armv8_cortex_a76"]'
	assert_equal "$(jqr '.events[1].only_on | tostring')" '["armv8_cortex_a55"]'
	assert_equal "$(jqr '.events[2].only_on')" null
	phone_json --cpu-model cortex-a76 -e inst_retired,task-clock -- true
	assert_equal "$(jqr '.events[0].split')" null
	assert_equal "$(jqr '.events[0].pmu')" armv8_cortex_a76
}

@test "split: the command's CPU affinity picks the core types (taskset -c 0: cortex-a55 only)" {
	command -v taskset >/dev/null || skip "taskset is not installed"
	[ "$(nproc --all)" -ge 2 ] || skip "needs 2 CPUs to restrict the affinity"
	PMUPROF_SYSFS_ROOT=$PHONE run taskset -c 0 "$PMUPROF" stat --json -o report.json \
		-e inst_retired,dsb_spec,task-clock -- true
	assert_equal "$(jqr '[.events[0].split[].pmu] | tostring')" '["armv8_cortex_a55"]'
	# dsb_spec exists on cortex-a76 only, where the command may not run
	assert_equal "$(jqr '.events[1].split[0].status')" absent
	assert_equal "$(jqr '.events[1].status')" "not supported"
	assert_equal "$(jqr '.events[1].reason')" ENOENT
	PMUPROF_SYSFS_ROOT=$PHONE run taskset -c 0 "$PMUPROF" stat --plan -e inst_retired
	refute_output --partial armv8_cortex_a76
}

@test "split: a user group becomes one group per core type" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --plan -e '{inst_retired,cpu_cycles},l1d_cache'
	assert_success
	[ "$(grep -c 'armv8_cortex_a55 .*group 0' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'armv8_cortex_a76 .*group 0' <<<"$output")" -eq 2 ]
	refute_line --regexp '^  l1d_cache .*group'
}

@test "split: a group that cannot fit one core type names that PMU" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --counters 2 -e '{r08,r08,r08}' -- true
	assert_failure 2
	assert_output --partial 'needs 3 general counters, but armv8_cortex_a55 has 2'
}

@test "split: the text report prints the total, then each core type" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat -e inst_retired,dsb_spec,task-clock -- true
	assert_success
	# the fixture's PMUs are not this machine's: never opened (fixture.bats)
	assert_line --regexp '^ +<not counted> +inst_retired$'
	assert_line --regexp '^ +<[a-z ]+> +armv8_cortex_a55/inst_retired/ \(cortex-a55, CPUs 0-3\)$'
	assert_line --regexp '^ +<[a-z ]+> +armv8_cortex_a76/inst_retired/ \(cortex-a76, CPUs 4-7\)$'
	assert_line --regexp '^ +<absent> +armv8_cortex_a55/dsb_spec/ \(cortex-a55, CPUs 0-3\): no such event on this core type$'
}

@test "split: CSV puts a row per core type, named as perf's hybrid rows, under the total" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat -x, -e inst_retired,task-clock -- true
	assert_success
	assert_equal "${#lines[@]}" 4
	assert_line --index 1 --regexp '^<[a-z ]+>,,armv8_cortex_a55/inst_retired/,[0-9]+,[0-9.]+,,$'
	assert_line --index 2 --regexp '^<[a-z ]+>,,armv8_cortex_a76/inst_retired/,[0-9]+,[0-9.]+,,$'
}

@test "split: -r and -I keep the split (schema-valid)" {
	phone_json -r 2 -e inst_retired,task-clock -- true
	assert_equal "$(jqr '.events[0].split | length')" 2
	phone_json -I 100 -e inst_retired,task-clock -- "$PPLOAD" sleep 1 0.25
	assert_equal "$(jqr '.events[0].split | length')" 2
}

@test "split: --mux=runs counts an event's parts in the same run of the command" {
	# cortex-a76 is full in run 1: l1d_cache's cortex-a55 part waits for run 2 with its twin,
	# so the total adds two counts of one run, never counts of two runs
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --plan --counters 2 --mux=runs \
		-e armv8_cortex_a76/event=0x8/,armv8_cortex_a76/event=0x8/,l1d_cache -- true
	assert_success
	run awk '/^run / { r = $2 } /^  l1d_cache / { print r, $2 }' <<<"$output"
	assert_output $'2: armv8_cortex_a55\n2: armv8_cortex_a76'
}
