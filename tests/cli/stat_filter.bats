#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat with PMEVTYPER filter-bit terms: refusals before the workload runs, --allow-secure
# marking in every format, the kernel's EL (--kernel-el, detection) in the JSON host object.
# Fixture sysfs trees make the Arm names resolve on x86; the Arm events themselves are not
# countable here, so task-clock rides along to give every run a counted event.
load helpers

QEMU=$FIXTURES/qemu-a57
VHE=$FIXTURES/filter/th-255

# The workload leaves a file behind: a refusal must come before it runs.
RAN=(/bin/sh -c ': > ran')

@test "filter-bit terms mixed with :u/:k/:h are refused, naming the event, before the workload" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e task-clock,inst_retired/p=1/k -- "${RAN[@]}"
	assert_failure 2
	assert_output --partial "cannot count event 'inst_retired/p=1/k'"
	assert_output --partial "filter-bit terms and its :u, :k or :h modifier both say where to count"
	assert_output --partial "give one or the other"
	assert_equal "${#lines[@]}" 1
	[ ! -e ran ] || fail "the workload ran"
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e armv8_pmuv3/event=0x8,nsh=1/u -- "${RAN[@]}"
	assert_failure 2
	assert_output --partial "cannot count event 'armv8_pmuv3/event=0x8,nsh=1/u'"
	[ ! -e ran ] || fail "the workload ran"
}

@test "a Secure/EL3 filter request is refused with why and the way out, exit 2, nothing run" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e inst_retired/p=1,nsk=1/ -- "${RAN[@]}"
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "pmuprof: cannot count event 'inst_retired/p=1,nsk=1/': NSK would have Secure EL1 and EL3 counted differently"
	assert_output --partial "Linux runs Non-secure"
	assert_output --partial "firmware"
	assert_output --partial "pass --allow-secure"
	[ ! -e ran ] || fail "the workload ran"
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e inst_retired/m=1/ -- "${RAN[@]}"
	assert_failure 2
	assert_output --partial "EL3"
}

@test "--allow-secure counts the Non-secure part and marks the event in JSON" {
	PMUPROF_SYSFS_ROOT=$QEMU stat_json --allow-secure -e task-clock,inst_retired/p=1,nsk=1/ -- "${RAN[@]}"
	assert_success
	[ -e ran ] || fail "the workload did not run"
	assert_equal "$(jqr '.schema_version')" 1.8
	assert_equal "$(jqr '.events[0].filter')" null
	assert_equal "$(jqr '.events[1].filter.terms')" P,NSK
	assert_equal "$(jqr '.events[1].filter.verdict')" secure
	assert_equal "$(jqr '.events[1].filter.marked')" true
	assert_equal "$(jqr '.events[1].filter.not_as_asked | join(",")')" s_el1,el3
	# P=1,NSK=1 counts Non-secure EL1 (P == NSK) and EL0 (U == NSU == 0), not EL2 (NSH 0)
	assert_equal "$(jqr '.events[1].exclude | [.user,.kernel,.hv] | join(",")')" false,false,true
	assert_equal "$(jqr '.events[1].config')" 0x8
	assert_equal "$(jqr '.host.kernel_el')" 1
	assert_equal "$(jqr '.host.kernel_el_source')" "Cortex-A57 is an Armv8.0 core, without VHE"
}

@test "--allow-secure marks the event in the text and -x reports too" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --allow-secure -e task-clock,inst_retired/m=1,p=1/ -- true
	assert_success
	assert_output --partial "inst_retired/m=1,p=1/"
	assert_line --regexp '^ +\^ marked: filter P,M: EL3 cannot be filtered as asked; Linux programs the Non-secure part only \(--allow-secure\)$'
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -x, --allow-secure -e task-clock,inst_retired/m=1,p=1/ -- true
	assert_success
	# perf's seven fields stay as they are; the mark is a comment line after the event's
	assert_line --index 1 --regexp '^[^,]*,,"inst_retired/m=1,p=1/",[0-9]+,[0-9.]+,,$'
	assert_line --index 2 '# inst_retired/m=1,p=1/: marked: filter P,M: EL3 cannot be filtered as asked; Linux programs the Non-secure part only (--allow-secure)'
}

@test "inst_retired/p=1/ asks for exactly what inst_retired:u does" {
	PMUPROF_SYSFS_ROOT=$QEMU stat_json -e task-clock,inst_retired/p=1/,inst_retired:u -- true
	assert_success
	assert_equal "$(jqr '.events[1].filter | [.terms,.verdict,.marked] | join(",")')" P,ok,false
	assert_equal "$(jqr '.events[1].exclude')" "$(jqr '.events[2].exclude')"
	assert_equal "$(jqr '[.events[1,2] | .type, .config] | join(",")')" 8,0x8,8,0x8
	assert_equal "$(jqr '.events[2].filter')" null
}

@test "--kernel-el: a VHE host refuses an EL1/EL2 split that --kernel-el 1 accepts" {
	# the fixture shows KVM up on a Neoverse V2: the kernel is at EL2 (VHE)
	PMUPROF_SYSFS_ROOT=$VHE run "$PMUPROF" stat -e inst_retired/p=1,nsh=1/ -- "${RAN[@]}"
	assert_failure 2
	assert_output --partial "with the kernel at EL2 (VHE)"
	assert_output --partial "give --kernel-el 1 if the kernel does not run at EL2"
	[ ! -e ran ] || fail "the workload ran"
	PMUPROF_SYSFS_ROOT=$VHE stat_json --kernel-el 1 -e task-clock,inst_retired/p=1,nsh=1/ -- true
	assert_success
	assert_equal "$(jqr '.host.kernel_el')" 1
	assert_equal "$(jqr '.host.kernel_el_source')" "given with --kernel-el"
	assert_equal "$(jqr '.events[1].exclude | [.user,.kernel,.hv] | join(",")')" false,true,false
	PMUPROF_SYSFS_ROOT=$VHE stat_json -e task-clock,inst_retired/p=0,nsh=1/ -- true
	assert_success
	assert_equal "$(jqr '.host.kernel_el')" 2
	assert_equal "$(jqr '.host.kernel_el_source')" "KVM is up on Neoverse V2 (armv9-a), which has VHE"
}

@test "--kernel-el takes 1 or 2; alone it is reported in the JSON host object" {
	run "$PMUPROF" stat --kernel-el 3 -e task-clock -- true
	assert_failure 2
	assert_output --partial "--kernel-el takes 1 or 2, not '3'"
	stat_json --kernel-el 2 -e task-clock -- true
	assert_success
	assert_equal "$(jqr '.host.kernel_el')" 2
}

@test "without filter terms the kernel's EL is not looked for (no extra files read)" {
	stat_json -e task-clock -- true
	assert_success
	assert_equal "$(jqr '.host | has("kernel_el")')" false
	# LeakSanitizer cannot run under ptrace (the sanitized run, tests/sanitize.sh)
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	need_strace
	strace -f -e trace=open,openat -o trace "$PMUPROF" stat -e task-clock -- true 2>/dev/null ||
		fail "pmuprof stat failed under strace"
	run grep -E '"/proc/cmdline"|misc/kvm|midr_el1' trace	# (the sanitizers' runtime reads /proc/self/cmdline)
	assert_failure
}

@test "threshold terms on stat: validated against caps/threshold_max" {
	PMUPROF_SYSFS_ROOT=$VHE run "$PMUPROF" stat -e stall_slot/threshold=256/ -- "${RAN[@]}"
	assert_failure 2
	assert_output --partial "threshold 256 is above caps/threshold_max of PMU 'armv8_pmuv3', 255"
	[ ! -e ran ] || fail "the workload ran"
	PMUPROF_SYSFS_ROOT=$VHE stat_json -e task-clock,stall_slot/threshold=2,threshold_compare=ge/ -- true
	assert_success
	assert_equal "$(jqr '.events[1].config1')" 0x50
}
