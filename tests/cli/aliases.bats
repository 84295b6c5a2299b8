#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# tests/cli/aliases.bats: events/aliases.tsv, the vendor MIDRs of Arm cores: list --cores shows
# them with their sources, a vendor MIDR finds its core, and Neoverse V3AE takes V3's metrics.
load helpers

@test "list --cores: each core, then its vendor MIDRs with use and source; --names the ids only" {
	run -0 "$PMUPROF" list --cores
	assert_line '  = 0x6d/0xd49 * Microsoft Azure Cobalt 100 (midr; Linux arch/arm64/include/asm/cputype.h (MICROSOFT_CPU_PART_AZURE_COBALT_100: based on r0p0 of Neoverse N2))'
	assert_line --regexp '^  = 0x42/0x100 \* Broadcom Brahma-B53 \(midr; Linux arch/arm64/include/asm/cputype.h .*mapfile.csv 0x00000000420f1000 = arm/cortex-a53\)$'
	assert_line --regexp '^  = 0x51/0x804 r12p14-r15p15 Qualcomm Kryo 4xx Gold \(midr; '
	assert_line --regexp '^  = 0x41/0xd44 \* Qualcomm Kryo 6xx Prime \(same; '
	assert_line --regexp '^  = 0x41/0xd83 \* Arm Neoverse V3AE \(metrics; '
	# each alias line follows its core's
	assert_equal "$(grep -B1 'Brahma-B53' <<<"$output" | head -1)" cortex-a53
	assert_equal "$(grep -B1 'Cobalt 100' <<<"$output" | head -1)" neoverse-n2
	assert_equal "$(grep -c '^  = ' <<<"$output")" "$(grep -vc '^#' "$ROOT/events/aliases.tsv")"
	run -0 "$PMUPROF" list --cores --names
	refute_output --partial '  = '
	assert_equal "${#lines[@]}" 43
}

@test "Neoverse V3AE's metrics are V3's: same names, formulas and groups, on V3AE's own events" {
	run -0 "$PMUPROF" list --metrics --json --cpu-model neoverse-v3ae
	jq -S '[.metric_sets[] | .metrics[] | {name, formula, groups}]' <<<"$output" >v3ae.json
	assert_equal "$(jq -r '.metric_sets[0] | "\(.core) \(.generic)"' <<<"$output")" "neoverse-v3ae false"
	run -0 "$PMUPROF" list --metrics --json --cpu-model neoverse-v3
	jq -S '[.metric_sets[] | .metrics[] | {name, formula, groups}]' <<<"$output" >v3.json
	assert_equal "$(jq length v3ae.json)" 67
	diff -u v3.json v3ae.json
	run -0 "$PMUPROF" stat --plan --cpu-model neoverse-v3ae -M Topdown_L1
	assert_line --regexp '^  stall_slot_backend +'
}

@test "a vendor MIDR names its Arm core on a machine: Brahma-B53, Kryo 4xx Gold by revision" {
	cp -r "$FIXTURES/rk3399-cpuinfo" m
	# the RK3399 tree's MIDRs come from /proc/cpuinfo: its A53s become Broadcom's B53 and its
	# A72s a Kryo 4xx Gold of variant 0xc, revision 14 (rcpe, the A76's r0p0)
	awk '/^processor/ { cpu = $3 } /^CPU implementer/ { $0 = "CPU implementer\t: " (cpu < 4 ? "0x42" : "0x51") }
	     /^CPU part/ { $0 = "CPU part\t: " (cpu < 4 ? "0x100" : "0x804") }
	     /^CPU variant/ && cpu >= 4 { $0 = "CPU variant\t: 0xc" }
	     /^CPU revision/ && cpu >= 4 { $0 = "CPU revision\t: 14" } { print }' \
		"$FIXTURES/rk3399-cpuinfo/proc/cpuinfo" >m/proc/cpuinfo
	PMUPROF_SYSFS_ROOT=m run -0 "$PMUPROF" list --json
	assert_equal "$(jq -r '[.cores[] | "\(.pmu) \(.core) \(.midr)"] | join(";")' <<<"$output")" \
		"armv8_cortex_a53 cortex-a53 0x00000000420f1004;armv8_cortex_a72 cortex-a76 0x0000000051cf804e"
	# variant 0xb is before the range the row gives: no core
	sed -i 's/^CPU variant\t: 0xc/CPU variant\t: 0xb/' m/proc/cpuinfo
	PMUPROF_SYSFS_ROOT=m run -0 "$PMUPROF" list --json
	assert_equal "$(jq -r '.cores[1].core' <<<"$output")" null
}
