#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# --cputype PMU|CORE: counting restricted to one core type. On the phone fixture (cortex-a55 on
# CPUs 0-3, cortex-a76 on CPUs 4-7) the plan and the report's events show that PMU alone; this
# host has no Arm PMU, so the counts on one core type are proven in the arm64 hetero guest
# (tests/arm64: --cputype gives the count of that core type only). One-line refusals name the
# PMUs there are.
load helpers

PHONE=$FIXTURES/phone-a55-a76

# the one line of a refusal, exit status 2
refused() {
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_equal "$output" "$1"
}

@test "cputype: --plan on one core type, named by its PMU or by its core" {
	for name in armv8_cortex_a76 cortex-a76 Cortex-A76 a76; do
		PMUPROF_SYSFS_ROOT=$PHONE run -0 "$PMUPROF" stat --plan --cputype "$name" \
			-e inst_retired,cycles,r11:u,dsb_spec,task-clock -- true
		assert_line --regexp '^  inst_retired +armv8_cortex_a76 +event counter$'
		assert_line --regexp '^  cycles +armv8_cortex_a76 +cycle counter$'
		assert_line --regexp '^  r11:u +armv8_cortex_a76 +cycle counter$'
		assert_line --regexp '^  dsb_spec +armv8_cortex_a76 +event counter$'
		assert_line --regexp '^  task-clock +software +no counter$'
		refute_output --partial armv8_cortex_a55
	done
	# without it, each event on both
	PMUPROF_SYSFS_ROOT=$PHONE run -0 "$PMUPROF" stat --plan -e inst_retired -- true
	assert_line --regexp '^  inst_retired +armv8_cortex_a55 +event counter$'
	PMUPROF_SYSFS_ROOT=$PHONE run -0 "$PMUPROF" stat --plan --cputype cortex-a55 -a \
		-e inst_retired -- true
	assert_line --regexp '^  inst_retired +armv8_cortex_a55 +event counter$'
	refute_output --partial armv8_cortex_a76
}

@test "cputype: JSON: each event on that PMU alone, no parts; a software event as before" {
	PMUPROF_SYSFS_ROOT=$PHONE stat_json --cputype cortex-a76 -e inst_retired:u,cycles,task-clock \
		-- true
	assert_success
	assert_equal "$(jqr '[.events[] | "\(.name) \(.pmu) \(.split) \(.status)"] | join(";")')" \
		'inst_retired:u armv8_cortex_a76 null not counted;cycles armv8_cortex_a76 null not counted;task-clock software null counted'
	assert_equal "$(jqr '.events[0].reason')" \
		"its PMU comes from the fixture tree $PHONE (PMUPROF_SYSFS_ROOT), not this machine"
	# the a76's type (9) and the Arm code of each event
	assert_equal "$(jqr '[.events[0,1] | "\(.type) \(.config)"] | join(";")')" '9 0x8;9 0x11'
}

@test "cputype: -M: the metrics of that core type, not of the first CPU's" {
	PMUPROF_SYSFS_ROOT=$PHONE stat_json -M ipc -- true
	assert_success
	assert_equal "$(jqr '.metrics_core')" cortex-a55:r2p0
	PMUPROF_SYSFS_ROOT=$PHONE stat_json --cputype cortex-a76 -M ipc -- true
	assert_success
	assert_equal "$(jqr '.metrics_core')" cortex-a76:r4p1
	assert_equal "$(jqr '[.events[] | .pmu] | unique | join(" ")')" armv8_cortex_a76
}

@test "cputype: -a and -C count that PMU's CPUs only" {
	PMUPROF_SYSFS_ROOT=$PHONE stat_json --cputype cortex-a76 -A -C 2-5 -e task-clock -- true
	assert_success
	assert_equal "$(jqr '.target')" 'CPU(s) 4-5'
	PMUPROF_SYSFS_ROOT=$PHONE stat_json --cputype armv8_cortex_a55 -a -e task-clock -- true
	assert_success
	assert_equal "$(jqr '.target')" 'system wide'
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --cputype cortex-a76 -C 0-2 -e task-clock true
	refused "pmuprof: -C 0-2 has no CPU of armv8_cortex_a76 (--cputype): its CPUs are 4-7 (give some of them)"
}

@test "cputype: a name that matches no PMU, another core type's event, --cpu-model: refused" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --cputype cortex-a72 -e cycles true
	refused "pmuprof: --cputype 'cortex-a72' names no core type of this machine: its CPU PMUs are armv8_cortex_a55 (cortex-a55), armv8_cortex_a76 (cortex-a76) (give one of them, or its core)"
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --cputype cortex-a76 \
		-e armv8_cortex_a55/event=0x11/ true
	refused "pmuprof: cannot count event 'armv8_cortex_a55/event=0x11/' with --cputype armv8_cortex_a76: it names the PMU armv8_cortex_a55, another core type's (drop one of them)"
	# dsb_spec: the a76 has it, the a55 not
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --cputype cortex-a55 -e dsb_spec true
	refused "pmuprof: cannot count event 'dsb_spec' on armv8_cortex_a55 (--cputype): its core has no such event (drop one of them)"
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --cputype cortex-a55 --cpu-model cortex-a55 \
		-e cycles true
	refused "pmuprof: --cputype chooses one of this machine's core types: --cpu-model (or \$PMUPROF_CPU_MODEL) names the core counted instead (give one of them)"
	run -2 --separate-stderr "$PMUPROF" stat --cputype '' true
	[[ $stderr == *"--cputype is empty (give a PMU or a core, e.g. --cputype cortex-a55)"* ]]
}

@test "cputype: one PMU: naming it (or its core) changes nothing; no Arm PMU: the core PMU's name" {
	N1=$FIXTURES/n1-server
	PMUPROF_SYSFS_ROOT=$N1 run -0 "$PMUPROF" stat --plan -e inst_retired,cycles -- true
	want=$output
	for name in armv8_pmuv3_0 neoverse-n1 n1; do
		PMUPROF_SYSFS_ROOT=$N1 run -0 "$PMUPROF" stat --plan --cputype "$name" \
			-e inst_retired,cycles -- true
		assert_equal "$output" "$want"
	done
	PMUPROF_SYSFS_ROOT=$N1 run "$PMUPROF" stat --cputype cortex-a55 -e cycles true
	refused "pmuprof: --cputype 'cortex-a55' names no core type of this machine: its CPU PMU is armv8_pmuv3_0 (neoverse-n1) (give one of them, or its core)"
	X86=$FIXTURES/x86-host
	PMUPROF_SYSFS_ROOT=$X86 run -0 "$PMUPROF" stat --cputype cpu -e task-clock -- true
	PMUPROF_SYSFS_ROOT=$X86 run "$PMUPROF" stat --cputype core -e task-clock true
	refused "pmuprof: --cputype 'core' names no core type of this machine: it has no Arm PMU, and its CPU PMU is 'cpu' (give that, or drop --cputype)"
}
