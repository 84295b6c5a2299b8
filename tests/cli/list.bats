#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof list against the fixture machines: which cores, how many events, which advertised.
load helpers

# Runs pmuprof list --json on fixture $1 (the rest are list's arguments) into list.json.
list_json() {
	local tree=$1
	shift
	PMUPROF_SYSFS_ROOT=$FIXTURES/$tree run "$PMUPROF" list --json "$@"
	assert_success
	printf '%s\n' "$output" >list.json
	jq -e . list.json >/dev/null || fail "list --json is not JSON"
}

jl() {
	jq -r "$1" list.json
}

@test "n1-server: one Neoverse N1 section on armv8_pmuv3_0, 110 events, 45 advertised" {
	list_json n1-server
	assert_equal "$(jl '.schema_version')" 1.0
	assert_equal "$(jl '.note')" null
	assert_equal "$(jl '.cores | length')" 1
	assert_equal "$(jl '.cores[0].core')" neoverse-n1
	assert_equal "$(jl '.cores[0].pmu')" armv8_pmuv3_0
	assert_equal "$(jl '.cores[0].type')" 8
	assert_equal "$(jl '.cores[0].midr')" 0x00000000413fd0c1
	assert_equal "$(jl '.cores[0].cpus | length')" 80
	assert_equal "$(jl '.cores[0].cpus[79]')" 79
	assert_equal "$(jl '.cores[0].nevents')" 110
	assert_equal "$(jl '.cores[0].events | length')" 110
	assert_equal "$(jl '[.cores[0].events[] | select(.advertised)] | length')" 45
	assert_equal "$(jl '[.cores[0].events[] | select(.class == "implementation defined")] | length')" 64
}

@test "an event carries code (a number), name, description, class and advertised" {
	list_json n1-server inst_retired
	assert_equal "$(jl '.cores[0].events | length')" 1
	assert_equal "$(jl '.cores[0].events[0].code')" 8
	assert_equal "$(jl '.cores[0].events[0].code | type')" number
	assert_equal "$(jl '.cores[0].events[0].name')" INST_RETIRED
	assert_equal "$(jl '.cores[0].events[0].class')" architectural
	assert_equal "$(jl '.cores[0].events[0].advertised')" true
	[ -n "$(jl '.cores[0].events[0].description')" ] || fail "empty description"
}

@test "phone-a55-a76: two sections in CPU order, types 8 and 9, advertised per PMU" {
	list_json phone-a55-a76
	assert_equal "$(jl '[.cores[].core] | join(",")')" cortex-a55,cortex-a76
	assert_equal "$(jl '[.cores[].pmu] | join(",")')" armv8_cortex_a55,armv8_cortex_a76
	assert_equal "$(jl '[.cores[].type] | join(",")')" 8,9
	assert_equal "$(jl '[.cores[].cpus[0]] | join(",")')" 0,4
	assert_equal "$(jl '[.cores[].nevents] | join(",")')" 111,107
	assert_equal "$(jl '[.cores[] | [.events[] | select(.advertised)] | length] | join(",")')" 47,41
	# ld_retired is in events/ of the A55 only
	assert_equal "$(jl '[.cores[] | .events[] | select(.name == "LD_RETIRED") | .advertised] | join(",")')" true
}

@test "implementation-defined events appear only under their core (DSB_SPEC: A76)" {
	list_json phone-a55-a76 'dsb_*'
	assert_equal "$(jl '[.cores[].nevents] | join(",")')" 0,1
	assert_equal "$(jl '.cores[1].events[0].code')" 125
	assert_equal "$(jl '.cores[1].events[0].class')" "implementation defined"
}

@test "qemu-a57: the A57 tables, two events advertised" {
	list_json qemu-a57
	assert_equal "$(jl '.cores[0].core')" cortex-a57
	assert_equal "$(jl '.cores[0].pmu')" armv8_pmuv3
	assert_equal "$(jl '.cores[0].nevents')" 84
	assert_equal "$(jl '[.cores[0].events[] | select(.advertised) | .name] | join(",")')" CPU_CYCLES,INST_RETIRED
}

@test "x86-host: generic events only, with a note about --cpu-model" {
	list_json x86-host
	assert_equal "$(jl '.cores | length')" 0
	# perf 6.1's 29 hardware and software names (bpf-output and cgroup-switches included) and
	# the 42 cache names
	assert_equal "$(jl '.generic | length')" 71
	assert_equal "$(jl '.generic[] | select(.name == "cycles") | .arm_code')" 17
	assert_equal "$(jl '.generic[] | select(.name == "task-clock") | .arm_code')" null
	[[ "$(jl '.note')" == *--cpu-model* ]] || fail "no note: $(jl '.note')"
}

@test "--cpu-model and PMUPROF_CPU_MODEL list a named core on x86, advertised unknown" {
	list_json x86-host --cpu-model neoverse-n1
	assert_equal "$(jl '.cores[0].core')" neoverse-n1
	assert_equal "$(jl '.cores[0].pmu')" null
	assert_equal "$(jl '.cores[0].nevents')" 110
	assert_equal "$(jl '[.cores[0].events[].advertised | select(. != null)] | length')" 0
	PMUPROF_CPU_MODEL=a76 list_json x86-host
	assert_equal "$(jl '.cores[0].core')" cortex-a76
	assert_equal "$(jl '.cores[0].nevents')" 107
}

@test "--all-cores lists every core, advertised where the machine has that core" {
	list_json n1-server --all-cores
	assert_equal "$(jl '.cores | length')" 43
	# 38 cores of Arm's PMU data (5,172 events, and N3's STALL_FRONTEND_FLOW from its telemetry
	# data; X925's 244 and A725's 201 among them), the five C1 cores (1,720)
	assert_equal "$(jl '[.cores[].nevents] | add')" 6893
	assert_equal "$(jl '[.cores[] | select(.pmu != null) | .core] | join(",")')" neoverse-n1
}

@test "PATTERN: substring and glob, any case" {
	list_json n1-server L1D_CACHE_REF
	assert_equal "$(jl '[.cores[0].events[].name] | join(",")')" L1D_CACHE_REFILL,L1D_CACHE_REFILL_INNER,L1D_CACHE_REFILL_OUTER,L1D_CACHE_REFILL_RD,L1D_CACHE_REFILL_WR
	list_json n1-server 'stall_*end'
	assert_equal "$(jl '[.cores[0].events[].name] | join(",")')" STALL_BACKEND,STALL_FRONTEND
	assert_equal "$(jl '[.generic[].name] | join(",")')" ""
}

@test "PATTERN matching nothing: no heading, a line on stderr, exit 1 (JSON keeps its document)" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run --separate-stderr "$PMUPROF" list nosuchthing
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "pmuprof: no event matches 'nosuchthing' ('pmuprof list' without a PATTERN lists them all)"
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run --separate-stderr "$PMUPROF" list --json nosuchthing
	assert_failure 1
	assert_equal "$(jq -c '[.generic, .cores[0].events, .cores[0].nevents]' <<<"$output")" '[[],[],0]'
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run --separate-stderr "$PMUPROF" list --names 'nosuch*'
	assert_failure 1
	assert_output ""
	# a match, in the generic names only or in a core's only, is still 0
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" list page-faults
	assert_success
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" list l1d_tlb_rd
	assert_success
	run "$PMUPROF" list --metrics --cpu-model neoverse-n1 ipc
	assert_success
	run --separate-stderr "$PMUPROF" list --metrics --cpu-model neoverse-n1 nosuchthing
	assert_failure 1
	assert_output ""
}

@test "text: a header per core and a star on advertised events" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57 run "$PMUPROF" list cycles
	assert_success
	assert_line --partial "Cortex-A57 on armv8_pmuv3"
	assert_line --regexp '^  0x0011 \* CPU_CYCLES +uarch'
	assert_line --regexp '^  cycles +type 0 config 0x0 \(on Arm: event 0x0011\)'
}

@test "an unknown --cpu-model is an error" {
	run "$PMUPROF" list --cpu-model cortex-a999
	assert_failure 2
	assert_output --partial "unknown CPU model 'cortex-a999'"
}

@test "events the PMU advertises beyond the tables are listed too (class sysfs)" {
	cp -R "$FIXTURES/qemu-a57" tree
	printf 'event=0x01f0\n' > tree/sys/bus/event_source/devices/armv8_pmuv3/events/vendor_thing
	PMUPROF_SYSFS_ROOT=$PWD/tree run "$PMUPROF" list
	assert_success
	assert_line --regexp '^  0x01f0 \* vendor_thing +sysfs +advertised by the PMU, not in pmuprof.s tables$'
	refute_line --regexp '^  0x0008 \* inst_retired +sysfs'
	PMUPROF_SYSFS_ROOT=$PWD/tree run "$PMUPROF" list --json vendor
	assert_success
	assert_equal "$(jq -c '.cores[0].events' <<<"$output")" \
		'[{"code":496,"name":"vendor_thing","description":null,"class":"sysfs","advertised":true,"terms":"event=0x01f0"}]'
	PMUPROF_SYSFS_ROOT=$PWD/tree run "$PMUPROF" stat --plan -e vendor_thing
	assert_success
	assert_line --regexp '^  vendor_thing +armv8_pmuv3 +event counter$'
}

@test "standard output full: exit 2 and the reason, for every kind of list" {
	for args in "" "--all-cores" "--names" "--json" "--cores" "--metrics --all-cores"; do
		# shellcheck disable=SC2086 # the options, split
		run --separate-stderr bash -c '"$1" list $2 > /dev/full' _ "$PMUPROF" "$args"
		assert_failure 2
		assert_equal "$stderr" "pmuprof: cannot write the list: No space left on device"
	done
	run --separate-stderr bash -c '"$1" list >&-' _ "$PMUPROF"
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot write the list: Bad file descriptor"
}

@test "-M is not --cpu-model (perf's -M is --metric): --cpu-model is long only" {
	run --separate-stderr "$PMUPROF" list -M neoverse-n1
	assert_failure 2
	assert_equal "$stderr" "pmuprof list: invalid option -- 'M'"$'\n'"Try 'pmuprof list --help' for more information."
	run -0 "$PMUPROF" list --help
	refute_output --partial "-M,"
}
