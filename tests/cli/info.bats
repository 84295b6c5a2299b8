#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof info against the fixture machines: PMUs, cores, caps, format terms, perf settings.
load helpers

info_json() {
	PMUPROF_SYSFS_ROOT=$FIXTURES/$1 run "$PMUPROF" info --json
	assert_success
	printf '%s\n' "$output" >info.json
	jq -e . info.json >/dev/null || fail "info --json is not JSON"
}

ji() {
	jq -r "$1" info.json
}

@test "n1-server: one armv8_pmuv3_0 over 80 CPUs, Neoverse N1, counters not probed on a fixture" {
	info_json n1-server
	assert_equal "$(ji '.schema_version')" 1.0
	assert_equal "$(ji '.pmus | length')" 1
	assert_equal "$(ji '.pmus[0].name')" armv8_pmuv3_0
	assert_equal "$(ji '.pmus[0].type')" 8
	assert_equal "$(ji '.pmus[0].cpus | length')" 80
	assert_equal "$(ji '.pmus[0].core')" neoverse-n1
	assert_equal "$(ji '.pmus[0].core_title')" "Neoverse N1"
	assert_equal "$(ji '.pmus[0].midr')" 0x00000000413fd0c1
	assert_equal "$(ji '.pmus[0].counters.probed')" null
	assert_equal "$(ji '.pmus[0].counters.status')" "not probed: the PMUs are a fixture tree"
	assert_equal "$(ji '.pmus[0].counters.per_arm_data')" 6
	assert_equal "$(ji '.pmus[0].nevents')" 45
	assert_equal "$(ji '.pmus[0].mux_interval_ms')" 4
	assert_equal "$(ji '.note')" null
}

@test "caps of 0 (no PMMIR_EL1 on N1) are null, not 0" {
	info_json n1-server
	assert_equal "$(ji '.pmus[0].caps.slots')" null
	assert_equal "$(ji '.pmus[0].caps.bus_slots')" null
	assert_equal "$(ji '.pmus[0].caps.bus_width_bytes')" null
	assert_equal "$(ji '.pmus[0].caps.threshold_width')" null
	assert_equal "$(ji '.pmus[0].caps.branches')" null
}

@test "format terms are decoded to field and bits" {
	info_json n1-server
	assert_equal "$(ji '[.pmus[0].formats[] | "\(.name)=\(.field):\(.bits)"] | join(" ")')" \
		"event=config:0-15 long=config1:0 rdpmc=config1:1"
}

@test "machine: kernel release, paranoid, perf_user_access, nmi_watchdog as numbers" {
	info_json n1-server
	assert_equal "$(ji '.machine.kernel_release')" 6.1.0-18-arm64
	assert_equal "$(ji '.machine.perf_event_paranoid')" 2
	assert_equal "$(ji '.machine.perf_event_paranoid | type')" number
	assert_equal "$(ji '.machine.perf_user_access')" 0
	assert_equal "$(ji '.machine.nmi_watchdog')" 0
	assert_equal "$(ji '.machine.ncpus')" 80
}

@test "phone-a55-a76: two PMUs in CPU order with their cores and MIDRs" {
	info_json phone-a55-a76
	assert_equal "$(ji '[.pmus[].name] | join(",")')" armv8_cortex_a55,armv8_cortex_a76
	assert_equal "$(ji '[.pmus[].type] | join(",")')" 8,9
	assert_equal "$(ji '[.pmus[].core] | join(",")')" cortex-a55,cortex-a76
	assert_equal "$(ji '[.pmus[].midr] | join(",")')" 0x00000000412fd050,0x00000000414fd0b1
	assert_equal "$(ji '[.pmus[].cpus | join("")] | join(",")')" 0123,4567
	assert_equal "$(ji '[.pmus[].nevents] | join(",")')" 47,41
	assert_equal "$(ji '.machine.perf_event_paranoid')" 3
}

@test "qemu-a57: armv8_pmuv3 on cpu 0, Cortex-A57" {
	info_json qemu-a57
	assert_equal "$(ji '.pmus[0].name')" armv8_pmuv3
	assert_equal "$(ji '.pmus[0].cpus | join(",")')" 0
	assert_equal "$(ji '.pmus[0].core')" cortex-a57
	assert_equal "$(ji '.pmus[0].nevents')" 2
}

@test "x86-host: no Arm PMU, said so, the machine part still there" {
	info_json x86-host
	assert_equal "$(ji '.pmus | length')" 0
	[[ "$(ji '.note')" == *"no Arm PMUv3"* ]] || fail "note: $(ji '.note')"
	assert_equal "$(ji '.machine.kernel_release')" 6.1.0-18-amd64
	[ "$(ji '.machine.perf_event_paranoid | type')" = number ] || fail "paranoid not a number"
}

@test "text: PMU block and machine block" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 run "$PMUPROF" info
	assert_success
	assert_line "armv8_cortex_a76 (type 9)"
	assert_line --regexp '^  counters +unknown, not probed: the PMUs are a fixture tree \(6 per Arm.s data\)$'
	assert_line --regexp '^  perf_event_paranoid +3$'
	assert_line --regexp '^    bus width +not given$'
}

@test "info takes no arguments" {
	run "$PMUPROF" info extra
	assert_failure 2
}
