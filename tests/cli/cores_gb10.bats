#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# tests/cli/cores_gb10.bats: Cortex-X925 and Cortex-A725 on the GB10-like fixture tree (two
# ACPI-named PMUs, told apart by MIDR only): list, --plan, the split of a stat, the generic
# metrics, and --cpu-model. QEMU emulates neither core, so the split is proven here on the
# fixture, not counted in the arm64 guest.
load helpers

GB10=$FIXTURES/gb10

@test "gb10: list names each PMU's core from its CPUs' MIDR, with its CPUs" {
	PMUPROF_SYSFS_ROOT=$GB10 run "$PMUPROF" list --json
	assert_success
	assert_equal "$(jq -r '[.cores[] | "\(.pmu) \(.core) \(.midr) \(.cpus | map(tostring) |
		join(","))"] | join(";")' <<<"$output")" \
		"armv8_pmuv3_0 cortex-a725 0x00000000410fd870 0,1,2,3,4,10,11,12,13,14;armv8_pmuv3_1 cortex-x925 0x00000000410fd850 5,6,7,8,9,15,16,17,18,19"
	assert_equal "$(jq -r '[.cores[].nevents] | join(",")' <<<"$output")" 201,244
	PMUPROF_SYSFS_ROOT=$GB10 run "$PMUPROF" list
	assert_line 'Cortex-A725 on armv8_pmuv3_0 (type 8, 10 cpus from 0): * = advertised by the PMU'
	assert_line 'Cortex-X925 on armv8_pmuv3_1 (type 9, 10 cpus from 5): * = advertised by the PMU'
}

@test "gb10: --cpu-model names either core, with the events of Arm's data" {
	run "$PMUPROF" list --json --cpu-model cortex-x925
	assert_success
	assert_equal "$(jq -r '[.cores[] | "\(.core) \(.title) \(.nevents)"] | join(";")' <<<"$output")" \
		"cortex-x925 Cortex-X925 244"
	# BR_IMMED_SPEC (0x78) is the X925's own, BR_IMMED_TAKEN_RETIRED (0x8108) the A725's
	assert_equal "$(jq -r '[.cores[0].events[] | select(.name | test("^BR_IMMED_(SPEC|TAKEN_RETIRED)$")) |
		"\(.name) \(.code)"] | join(";")' <<<"$output")" "BR_IMMED_SPEC 120"
	run "$PMUPROF" list --json --cpu-model a725
	assert_equal "$(jq -r '.cores[0].core' <<<"$output")" cortex-a725
	assert_equal "$(jq -r '[.cores[0].events[] | select(.name | test("^BR_IMMED_(SPEC|TAKEN_RETIRED)$")) |
		"\(.name) \(.code)"] | join(";")' <<<"$output")" "BR_IMMED_TAKEN_RETIRED 33032"
	run "$PMUPROF" list --cores
	assert_line cortex-a725
	assert_line cortex-x925
}

@test "gb10: --plan places an event on both core types; one only the X925 has on its PMU alone" {
	PMUPROF_SYSFS_ROOT=$GB10 run "$PMUPROF" stat --plan -e inst_retired,cycles,memory_error,pc_write_retired
	assert_success
	assert_line --regexp '^  inst_retired +armv8_pmuv3_0 +event counter$'
	assert_line --regexp '^  inst_retired +armv8_pmuv3_1 +event counter$'
	assert_line --regexp '^  cycles +armv8_pmuv3_1 +cycle counter$'
	assert_line --regexp '^  memory_error +armv8_pmuv3_1 +event counter$'
	refute_line --regexp '^  memory_error +armv8_pmuv3_0'
	assert_line "not counted on armv8_pmuv3_0: its core (cortex-a725) has no event 'memory_error'"
	assert_line --regexp '^  pc_write_retired +armv8_pmuv3_0 +event counter$'
	refute_line --regexp '^  pc_write_retired +armv8_pmuv3_1'
	assert_line "not counted on armv8_pmuv3_1: its core (cortex-x925) has no event 'pc_write_retired'"
}

@test "gb10: stat splits an event into one part per core type, each with its core and CPUs" {
	PMUPROF_SYSFS_ROOT=$GB10 stat_json -e inst_retired:u,memory_error,task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[0].split[] | "\(.pmu) \(.core) \(.cpus) \(.type) \(.config)"] |
		join(";")')" \
		'armv8_pmuv3_0 cortex-a725 0-4,10-14 8 0x8;armv8_pmuv3_1 cortex-x925 5-9,15-19 9 0x8'
	assert_equal "$(jqr '[.events[1].split[].status][0]')" absent
	assert_equal "$(jqr '.events[1].only_on | tostring')" '["armv8_pmuv3_1"]'
	assert_equal "$(jqr '.events[2].status')" counted
	assert_equal "$(jqr '.host.midr')" 0x410fd870
}

@test "gb10: both cores get the 23 generic metrics (IPC, MPKI, miss ratios, stalls)" {
	PMUPROF_SYSFS_ROOT=$GB10 run "$PMUPROF" list --metrics --json
	assert_success
	assert_equal "$(jq -r '[.metric_sets[] | "\(.core) \(.generic) \(.metrics | length)"] |
		join(";")' <<<"$output")" "cortex-a725 true 23;cortex-x925 true 23"
	for m in ipc branch_mpki l1d_cache_mpki l2_cache_miss_ratio ll_cache_read_mpki \
		branch_misprediction_ratio dtlb_walk_ratio backend_stalled_cycles; do
		assert_equal "$(jq -r --arg m "$m" '[.metric_sets[].metrics[] | select(.name == $m)] |
			length' <<<"$output")" 2
	done
	PMUPROF_SYSFS_ROOT=$GB10 run "$PMUPROF" stat --plan -M ipc --cpu-model cortex-x925
	assert_success
	assert_line --regexp '^  inst_retired +armv8_pmuv3_1 +event counter, group 0$'
	assert_line --regexp '^  cpu_cycles +armv8_pmuv3_1 +cycle counter, group 0$'
	refute_output --partial armv8_pmuv3_0
}

@test "gb10: --cpu-model ties stat to one core type's PMU; the other core's own event is refused" {
	PMUPROF_SYSFS_ROOT=$GB10 stat_json --cpu-model x925 -e br_immed_spec,inst_retired,task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[] | "\(.name) \(.pmu) \(.split) \(.only_on | tostring)"] | join(";")')" \
		'br_immed_spec armv8_pmuv3_1 null ["armv8_pmuv3_1"];inst_retired armv8_pmuv3_1 null ["armv8_pmuv3_1"];task-clock software null null'
	assert_equal "$(jqr '.metrics_core')" cortex-x925:r0p0
	# BR_IMMED_SPEC is the X925's own: the A725 has no such event
	PMUPROF_SYSFS_ROOT=$GB10 run -2 --separate-stderr "$PMUPROF" stat --cpu-model a725 -e br_immed_spec -- true
	assert_equal "$stderr" "pmuprof: cannot use event 'br_immed_spec' (column 1 of 'br_immed_spec'): no such event (see 'pmuprof list')"
}
