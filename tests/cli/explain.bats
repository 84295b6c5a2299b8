#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof explain: filter bits, exclude flags, register values and the programming sequence,
# deterministic through fixture sysfs trees (PMUPROF_SYSFS_ROOT) and --cpu-model.
load helpers

QEMU=$FIXTURES/qemu-a57
TH=$FIXTURES/filter/th-255

# Runs explain with its JSON in explain.json, checked to be valid JSON.
explain_json() {
	run "$PMUPROF" explain --json "$@"
	printf '%s\n' "$output" > explain.json
	jq -e . explain.json >/dev/null || fail "not JSON: $output"
}

jqe() {
	jq -r "$1" explain.json
}

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "inst_retired:u on the QEMU Cortex-A57: attr, where it counts, PMEVTYPER0 field by field" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e inst_retired:u
	assert_success
	assert_equal "$(jqe '.machine.kernel_el')" 1
	assert_equal "$(jqe '.machine.core')" cortex-a57
	assert_equal "$(jqe '.machine.pmuver')" 0
	assert_equal "$(jqe '.schema_version')" 1.1
	# a fixture tree cannot be probed: the counters are the core's, from Arm's data
	assert_equal "$(jqe '.machine.counters')" 6
	assert_equal "$(jqe '.machine.counters_source')" arm-data
	assert_equal "$(jqe '.events[0].pmu')" armv8_pmuv3
	assert_equal "$(jqe '.events[0].type')" 8
	assert_equal "$(jqe '.events[0].config')" 0x8
	assert_equal "$(jqe '.events[0].exclude | [.user,.kernel,.hv] | join(",")')" false,true,true
	assert_equal "$(jqe '.events[0].counts_at | [.ns_el0,.ns_el1,.ns_el2] | join(",")')" true,false,false
	assert_equal "$(jqe '.events[0].counter_kind')" "event counter"
	assert_equal "$(jqe '.events[0].register.name')" PMEVTYPER0_EL0
	assert_equal "$(jqe '.events[0].register.value')" 0x80000008
	assert_equal "$(jqe '.events[0].register.fields.evtCount')" 8
	assert_equal "$(jqe '.events[0].register.fields.P')" 1
	assert_equal "$(jqe '.events[0].register.fields.U')" 0
	assert_equal "$(jqe '.events[0].register.fields.NSH')" 0
	assert_equal "$(jqe '.events[0].register.fields.TH')" null
}

@test "inst_retired/p=1/ programs exactly what inst_retired:u does" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e inst_retired/p=1/ -e inst_retired:u
	assert_success
	assert_equal "$(jqe '.events[0].filter_terms')" P
	assert_equal "$(jqe '.events[0].verdict')" ok
	assert_equal "$(jqe '.events[0].exclude')" "$(jqe '.events[1].exclude')"
	assert_equal "$(jqe '.events[0].register.value')" "$(jqe '.events[1].register.value')"
}

@test "cycles go to the cycle counter: PMCCFILTR, PMCNTENSET bit 31, then PMCR.E" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e cycles:k,inst_retired
	assert_success
	assert_equal "$(jqe '.events[0].counter_kind')" "cycle counter"
	assert_equal "$(jqe '.events[0].counter')" 31
	assert_equal "$(jqe '.events[0].register.name')" PMCCFILTR_EL0
	assert_equal "$(jqe '.events[0].register.value')" 0x40000000
	assert_equal "$(jqe '.events[0].register.fields.evtCount')" null
	assert_equal "$(jqe '.programming.pmcntenset')" 0x80000001
	assert_equal "$(jqe '[.programming.writes[].register] | join(" ")')" \
		"PMCR_EL0 PMCNTENCLR_EL0 PMCCFILTR_EL0 PMINTENSET_EL1 PMCNTENSET_EL0 PMCNTENCLR_EL0 PMEVTYPER0_EL0 PMINTENSET_EL1 PMCNTENSET_EL0 PMCR_EL0"
	assert_equal "$(jqe '.programming.writes[-1].value')" 0x1
}

@test "a long event on a PMUv3 before p5 takes a chained even/odd pair" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e armv8_pmuv3/event=0x8,long/
	assert_success
	assert_equal "$(jqe '.events[0].config1')" 0x1
	assert_equal "$(jqe '.events[0].counter_kind')" "chained pair"
	assert_equal "$(jqe '.events[0].chained_low')" 0
	assert_equal "$(jqe '.events[0].counter')" 1
	assert_equal "$(jqe '[.programming.writes[] | select(.register == "PMEVTYPER1_EL0") | .value][0]')" 0x800001e
}

@test "a Secure-only filter request is refused with why and how" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" explain -e inst_retired/p=1,nsk=1/
	assert_failure 2
	assert_output --partial "cannot explain event 'inst_retired/p=1,nsk=1/'"
	assert_output --partial "Secure EL1 and EL3"
	assert_output --partial "firmware"
	assert_output --partial "--allow-secure"
}

@test "--allow-secure counts the Non-secure part and marks the event" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json --allow-secure -e inst_retired/p=1,nsk=1/
	assert_success
	assert_equal "$(jqe '.events[0].verdict')" secure
	assert_equal "$(jqe '.events[0].marked')" true
	assert_equal "$(jqe '.events[0].requested_at.s_el1')" false
	assert_equal "$(jqe '.events[0].counts_at.s_el1')" true
	assert_equal "$(jqe '.events[0].exclude.kernel')" false
}

@test "a VHE host (KVM up on Neoverse V2): the kernel is at EL2 and NSH follows exclude_kernel" {
	PMUPROF_SYSFS_ROOT=$TH explain_json -e inst_retired:k
	assert_success
	assert_equal "$(jqe '.machine.kernel_el')" 2
	assert_equal "$(jqe '.events[0].register.fields.NSH')" 1
	assert_equal "$(jqe '.events[0].register.fields.U')" 1
	PMUPROF_SYSFS_ROOT=$TH explain_json --kernel-el 1 -e inst_retired:k
	assert_equal "$(jqe '.machine.kernel_el')" 1
	assert_equal "$(jqe '.events[0].register.fields.NSH')" 0
}

@test "threshold terms go through format/ into config1 and PMEVTYPER.TH/TC" {
	PMUPROF_SYSFS_ROOT=$TH explain_json -e stall_slot/threshold=2,threshold_compare=ge,threshold_count/
	assert_success
	assert_equal "$(jqe '.events[0].config1')" 0x54
	assert_equal "$(jqe '.events[0].threshold.threshold')" 2
	assert_equal "$(jqe '.events[0].threshold.compare')" ge
	assert_equal "$(jqe '.events[0].threshold.count')" true
	assert_equal "$(jqe '.events[0].register.fields.TH')" 2
	assert_equal "$(jqe '.events[0].register.fields.TC')" 5
}

@test "threshold beyond caps/threshold_max, and on a kernel without the terms" {
	PMUPROF_SYSFS_ROOT=$TH run "$PMUPROF" explain -e stall_slot/threshold=256/
	assert_failure 2
	assert_output --partial "caps/threshold_max of PMU 'armv8_pmuv3', 255"
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" explain -e inst_retired/threshold=1/
	assert_failure 2
	assert_output --partial "this PMU's kernel offers no threshold counting"
}

@test "--cpu-model explains for a named core on any host" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host explain_json --cpu-model neoverse-n1 --kernel-el 1 -e inst_retired:u
	assert_success
	assert_equal "$(jqe '.machine.core')" neoverse-n1
	assert_equal "$(jqe '.machine.pmuver')" 1
	assert_equal "$(jqe '.machine.counters_source')" arm-data
	assert_equal "$(jqe '.events[0].arm_event')" 0x8
	assert_equal "$(jqe '.events[0].register.value')" 0x80000008
}

@test "software events have no PMU register" {
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e task-clock
	assert_success
	assert_equal "$(jqe '.events[0].register')" null
	assert_equal "$(jqe '.programming.pmcntenset')" 0x0
}

@test "filter-bit terms and :u/:k/:h on one event are refused, naming the event" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" explain -e inst_retired/p=1/k
	assert_failure 2
	assert_output "pmuprof: cannot explain event 'inst_retired/p=1/k': its filter-bit terms and its :u, :k or :h modifier both say where to count (give one or the other: p=1 alone counts what :u does)"
}

@test "inst_retired:u,cpu_cycles: the same registers at EL1 and EL2; inst_retired:k gains NSH at EL2" {
	for el in 1 2; do
		PMUPROF_SYSFS_ROOT=$QEMU explain_json --kernel-el $el -e inst_retired:u,cpu_cycles,inst_retired:k
		assert_success
		assert_equal "$(jqe '.machine.kernel_el')" $el
		assert_equal "$(jqe '.machine.kernel_el_source')" "given with --kernel-el"
		assert_equal "$(jqe '[.events[] | .register.name] | join(" ")')" \
			"PMEVTYPER0_EL0 PMCCFILTR_EL0 PMEVTYPER1_EL0"
		assert_equal "$(jqe '.events[0].register.value')" 0x80000008
		# cpu_cycles with no modifier: NSH, EL2 counted (!exclude_hv at EL1, !exclude_kernel at EL2)
		assert_equal "$(jqe '.events[1].register.value')" 0x8000000
		assert_equal "$(jqe '.events[1].register.fields.NSH')" 1
		assert_equal "$(jqe '.programming.pmcntenset')" 0x80000003
	done
	assert_equal "$(jqe '.events[2].register.value')" 0x48000008
	PMUPROF_SYSFS_ROOT=$QEMU explain_json -e inst_retired:k
	assert_equal "$(jqe '.events[0].register.value')" 0x40000008
	assert_equal "$(jqe '.machine.kernel_el_source')" "Cortex-A57 is an Armv8.0 core, without VHE"
}

@test "a kernel command line with kvm-arm.mode=nvhe keeps the kernel at EL1" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/filter/th-0 explain_json -e inst_retired:k
	assert_success
	assert_equal "$(jqe '.machine.kernel_el')" 1
	assert_equal "$(jqe '.machine.kernel_el_source')" "the kernel command line has kvm-arm.mode=nvhe"
	assert_equal "$(jqe '.events[0].register.fields | [.U, .P, .NSH] | join(",")')" 1,0,0
}

# An x86 host with KVM (/dev/kvm) shows nothing of an Arm machine's kernel: two such hosts
# must explain the same Arm core alike.
@test "--cpu-model of a core this machine lacks: the kernel's EL is assumed, not read from this host" {
	local why="assumed for --cpu-model Neoverse N1, not this machine's core: give --kernel-el 2 for a VHE host"
	cp -R "$FIXTURES/x86-host" kvmhost
	mkdir -p kvmhost/sys/class/misc/kvm
	echo 10:232 > kvmhost/sys/class/misc/kvm/dev
	PMUPROF_SYSFS_ROOT=$PWD/kvmhost explain_json --cpu-model neoverse-n1 -e 'inst_retired/u=1,nsh=1/'
	assert_success
	assert_equal "$(jqe '.machine.kernel_el')" 1
	assert_equal "$(jqe '.machine.kernel_el_source')" "$why"
	PMUPROF_SYSFS_ROOT=$PWD/kvmhost run -0 "$PMUPROF" explain --cpu-model neoverse-n1 \
		-e 'inst_retired/u=1,nsh=1/'
	assert_line "kernel at EL1 ($why)"
	# an Arm machine of another core: its KVM (th-255, a Neoverse V2) and its kernel command
	# line (th-0, kvm-arm.mode=nvhe) are its own kernel's, not the named core's
	for tree in "$TH" "$FIXTURES/filter/th-0"; do
		PMUPROF_SYSFS_ROOT=$tree explain_json --cpu-model neoverse-n1 -e inst_retired:k
		assert_success
		assert_equal "$(jqe '.machine.kernel_el')" 1
		assert_equal "$(jqe '.machine.kernel_el_source')" "$why"
	done
	# the machine's own core, and an Armv8.0 core, are decided as before; --kernel-el wins
	PMUPROF_SYSFS_ROOT=$TH explain_json --cpu-model neoverse-v2 -e inst_retired:k
	assert_equal "$(jqe '.machine.kernel_el')" 2
	assert_equal "$(jqe '.machine.kernel_el_source')" "KVM is up on Neoverse V2 (armv9-a), which has VHE"
	PMUPROF_SYSFS_ROOT=$PWD/kvmhost explain_json --cpu-model cortex-a57 -e inst_retired:k
	assert_equal "$(jqe '.machine.kernel_el_source')" "Cortex-A57 is an Armv8.0 core, without VHE"
	PMUPROF_SYSFS_ROOT=$PWD/kvmhost explain_json --cpu-model neoverse-n1 --kernel-el 2 -e inst_retired:k
	assert_equal "$(jqe '.machine.kernel_el')" 2
}

@test "a bad threshold term is refused by resolve with the accepted spellings" {
	PMUPROF_SYSFS_ROOT=$TH run "$PMUPROF" explain -e stall_slot/threshold_compare=gt/
	assert_failure 2
	assert_output --partial "bad threshold term 'threshold_compare=gt' (threshold=N, threshold_compare=eq|ne|ge|lt"
}

@test "standard output closed or full: exit 2 and one line with the reason" {
	for j in "" --json; do
		run --separate-stderr bash -c '"$1" explain $2 -e task-clock >&-' _ "$PMUPROF" "$j"
		assert_failure 2
		assert_equal "$stderr" "pmuprof: cannot write the explanation: Bad file descriptor"
		run --separate-stderr bash -c '"$1" explain $2 -e task-clock > /dev/full' _ "$PMUPROF" "$j"
		assert_failure 2
		assert_equal "$stderr" "pmuprof: cannot write the explanation: No space left on device"
	done
}

@test "-M is not --cpu-model (perf's -M is --metric): --cpu-model is long only" {
	run --separate-stderr "$PMUPROF" explain -M neoverse-n1 -e inst_retired
	assert_failure 2
	assert_equal "$stderr" "pmuprof explain: invalid option -- 'M'"$'\n'"Try 'pmuprof explain --help' for more information."
	run -0 "$PMUPROF" explain --help
	refute_output --partial "-M,"
	assert_output --partial "--cpu-model=CORE"
}
