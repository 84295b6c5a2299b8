#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat -M and pmuprof report -M on the generated metric tables (events/metrics): the
# list, what a name adds, a metric asked for that cannot be computed, and the metrics of a
# saved report recomputed for a core and revision (the formulas against Arm's data:
# metrics_xcheck.bats; against hand-derived values: tests/unit/test_metrics.c).

load helpers

@test "-M list: the core's metrics and groups with their formulas; the generic ones when it is not known" {
	run -0 "$PMUPROF" stat -M list --cpu-model neoverse-n2:r0p3
	assert_line --index 0 "Neoverse N2 metrics (r0p3 and later):"
	assert_line --regexp '^  group Topdown_L1 +stage 1: frontend_bound backend_bound retiring bad_speculation$'
	assert_line "      = 100 * (STALL_SLOT_FRONTEND / (CPU_CYCLES * 5) - BR_MIS_PRED / CPU_CYCLES)"
	PMUPROF_SYSFS_ROOT="$FIXTURES/x86-host" run -0 "$PMUPROF" stat -M list
	assert_line --index 0 --partial "not known"
	assert_line --regexp '^  ipc +IPC \(per cycle\)$'
	refute_output --partial Topdown_L1
}

@test "-M NAME unknown: one line naming the core and the list" {
	run -2 --separate-stderr "$PMUPROF" stat -M nosuch --cpu-model neoverse-n1 true
	assert_equal "$stderr" "pmuprof: no metric or group 'nosuch' for neoverse-n1 (see 'pmuprof list --metrics --cpu-model neoverse-n1')"
	run -2 --separate-stderr "$PMUPROF" stat -M Topdown_L1 --cpu-model neoverse-n1 true
	assert_regex "$stderr" "no metric or group 'Topdown_L1' for neoverse-n1"
}

@test "-M adds a metric's events as one group, a group's as one when they fit the counters" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server
	run -0 "$PMUPROF" stat --plan -M ipc,Cycle_Accounting -- true
	# N1: 6 counters; ipc: {cpu_cycles,inst_retired}; Cycle_Accounting: its 3 events in one group
	assert_line --regexp '^  cpu_cycles +armv8_pmuv3_0 +cycle counter, group 0$'
	assert_line --regexp '^  inst_retired +armv8_pmuv3_0 +event counter, group 0$'
	assert_line --regexp '^  stall_frontend +armv8_pmuv3_0 +event counter, group 1$'
	assert_line --regexp '^  stall_backend +armv8_pmuv3_0 +event counter, group 1$'
	# case does not matter
	run -0 "$PMUPROF" stat --plan -M mpki -- true
	assert_line --partial br_mis_pred_retired
}

@test "-M on a host whose core is not known: perf's generic names; a metric not computed says why" {
	stat_json -M ipc -e task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[].name] | join(",")')" task-clock,cycles,instructions
	assert_equal "$(jqr '.events[1].group == .events[2].group and .events[1].group != null')" true
	assert_equal "$(jqr '.metric_requests | join(",")')" ipc
	assert_equal "$(jqr '.metrics_core')" null
	assert_equal "$(jqr '[.metrics[] | select(.name == "ipc")] | length')" 1
	assert_equal "$(jqr '.metrics[0] | [.requested, .core, .unit, .formula] | join("|")')" \
		"true|generic|per cycle|INST_RETIRED / CPU_CYCLES"
	if [ "$(jqr '.events[1].status')" = counted ] && [ "$(jqr '.events[2].status')" = counted ]; then
		assert_equal "$(jqr '.metrics[0].value == (.events[2].value / .events[1].value)')" true
	else	# this machine has no PMU: the reason names the first input the formula lacks
		assert_equal "$(jqr '.metrics[0].value')" null
		assert_equal "$(jqr '.metrics[0].reason')" \
			"$(jqr '"INST_RETIRED not counted" + (if .events[2].status == "not counted" then "" else ": " + .events[2].status end)')"
		run "$PMUPROF" stat -M ipc -e task-clock -- true
		assert_output --partial "Metrics not computed:"
		assert_output --partial "ipc: INST_RETIRED not counted"
	fi
}

# A saved report of the default events, cycles and instructions counted 1000 and 2500, for
# the core given (its "metrics_core").
counted() {
	"$PMUPROF" stat --json -o base.json -- "$PPLOAD" spin 1 || fail "stat failed"
	jq --arg core "$1" '(.events[] | select(.name == "cycles" or .name == "instructions")) |=
	    (.status = "counted" | .reason = null | .time_running_ns = .time_enabled_ns |
	     .counted_pct = 100 | .scaled = false | .metric = null |
	     .value = (if .name == "cycles" then 1000 else 2500 end) | .raw_value = .value) |
	    .metrics_core = (if $core == "" then null else $core end)' base.json > counts.json
}

@test "report -M: a metric of the saved report's core; its inputs; --cpu-model with a revision" {
	counted neoverse-n1:r4p1
	run -0 "$PMUPROF" report -j -M ipc,branch_mpki counts.json
	printf '%s\n' "$output" > again.json
	assert_equal "$(jq -c '[.metrics[] | {name, value, requested, core}]' again.json)" \
		'[{"name":"ipc","value":2.5,"requested":true,"core":"neoverse-n1"},{"name":"branch_mpki","value":null,"requested":true,"core":"neoverse-n1"}]'
	assert_equal "$(jq -c '.metrics[0].inputs' again.json)" \
		'[{"event":"CPU_CYCLES","index":'"$(jq '[.events[].name] | index("cycles")' counts.json)"',"value":1000},{"event":"INST_RETIRED","index":'"$(jq '[.events[].name] | index("instructions")' counts.json)"',"value":2500}]'
	assert_equal "$(jq -r '.metrics[1].reason' again.json)" "BR_MIS_PRED_RETIRED not counted: not in the report"
	assert_equal "$(jq -r '.metrics_core + " " + (.metric_requests | join(","))' again.json)" "neoverse-n1:r4p1 ipc,branch_mpki"
	# the -M names are saved: the report of the report computes them again
	run -0 "$PMUPROF" report -j again.json
	assert_equal "$(printf '%s\n' "$output" | jq -c '[.metrics[] | {name, value}]')" \
		'[{"name":"ipc","value":2.5},{"name":"branch_mpki","value":null}]'
	run -0 "$PMUPROF" report --cpu-model neoverse-n2:r0p3 -M General counts.json
	assert_output --regexp '2,500      instructions +#    2\.500 insn per cycle'
	run -2 --separate-stderr "$PMUPROF" report -M Topdown_L1 counts.json
	assert_equal "$stderr" "pmuprof: no metric or group 'Topdown_L1' for neoverse-n1 (see 'pmuprof list --metrics --cpu-model neoverse-n1')"
}

@test "text and -x: every metric beside its first event, a second one on a line of its own" {
	counted neoverse-n1
	# LL_CACHE_MISS_RD 50 leads three N1 formulas: over LL_CACHE_RD 500, 1 - 0.1 = 0.9 hit
	# ratio, 0.1 miss ratio, over INST_RETIRED 2500: 20 MPKI; STALL_BACKEND 100 over
	# CPU_CYCLES 1000: 10%
	jq '(.events[] | select(.name == "cycles")) as $c | .events += [
	    $c + {"name": "ll_cache_miss_rd", "pmu": "raw", "type": 4, "config": "0x37",
		  "value": 50, "raw_value": 50},
	    $c + {"name": "ll_cache_rd", "pmu": "raw", "type": 4, "config": "0x36",
		  "value": 500, "raw_value": 500},
	    $c + {"name": "stall_backend", "pmu": "raw", "type": 4, "config": "0x24",
		  "value": 100, "raw_value": 100}]' \
		counts.json > more.json
	run -0 "$PMUPROF" report -j more.json
	assert_equal "$(printf '%s\n' "$output" | jq -c '[.metrics[] | select(.requested | not) | {name, value}]')" \
		'[{"name":"backend_stalled_cycles","value":10},{"name":"ipc","value":2.5},{"name":"ll_cache_read_hit_ratio","value":0.9},{"name":"ll_cache_read_miss_ratio","value":0.1},{"name":"ll_cache_read_mpki","value":20}]'
	run -0 "$PMUPROF" report -x, more.json
	# the hit ratio's formula names LL_CACHE_RD first
	assert_line --regexp '^50,,ll_cache_miss_rd,[0-9]+,100\.00,0\.100,ll_cache_read_miss_ratio$'
	assert_line --index $(( $(printf '%s\n' "$output" | grep -n '^50,,ll_cache_miss_rd' | cut -d: -f1) )) \
		',,,,,20.000,ll_cache_read_mpki'
	assert_line --regexp '^500,,ll_cache_rd,[0-9]+,100\.00,0\.900,ll_cache_read_hit_ratio$'
	assert_line --regexp '^100,,stall_backend,[0-9]+,100\.00,10\.000,% backend_stalled_cycles$'
	assert_line --regexp '^2500,,instructions,[0-9]+,100\.00,2\.500,insn per cycle$'
	run -0 "$PMUPROF" report more.json
	assert_line --regexp '^ +50 +ll_cache_miss_rd +#    0\.100 ll_cache_read_miss_ratio$'
	assert_line --regexp '^ +# +20\.000 ll_cache_read_mpki$'
	assert_line --regexp '^ +100 +stall_backend +#    10\.00% backend_stalled_cycles$'
}

@test "list --metrics and -M list on an Arm PMU whose core the tables lack: the generic metrics, named as such" {
	cp -r "$FIXTURES/qemu-a57" tree
	# an Arm part number no table has (0xd99)
	echo 0x00000000410fd990 > tree/sys/devices/system/cpu/cpu0/regs/identification/midr_el1
	export PMUPROF_SYSFS_ROOT=$PWD/tree
	run -0 "$PMUPROF" list --metrics
	assert_line --index 0 "Generic metrics (the core is not in pmuprof's tables):"
	assert_line --regexp '^  group General +stage 2: ipc$'
	run -0 "$PMUPROF" list --metrics --json
	assert_equal "$(printf '%s\n' "$output" | jq -c '[.metric_sets[] | [.core, .generic, (.metrics | length)]]')" \
		'[["generic",true,23]]'
	run -0 "$PMUPROF" stat -M list
	assert_line --index 0 --partial "not known"
	assert_line --regexp '^  ipc +IPC \(per cycle\)$'
	# its -M events are perf's generic ones, which the kernel maps on any PMUv3
	run -0 "$PMUPROF" stat --plan -M ipc -- true
	assert_line --regexp '^  cycles '
	assert_line --regexp '^  instructions '
}

@test "-M insn_per_cycle (perf 6.19's name) is ipc: the same metric, the same value" {
	counted neoverse-n1:r4p1
	run -0 "$PMUPROF" report -j -M ipc counts.json
	printf '%s\n' "$output" >ours.json
	run -0 "$PMUPROF" report -j -M insn_per_cycle counts.json
	printf '%s\n' "$output" >perfs.json
	assert_equal "$(jq -c '[.metrics[] | select(.requested) | {name, value}]' perfs.json)" \
		'[{"name":"ipc","value":2.5}]'
	assert_equal "$(jq -c '[.metrics[] | select(.requested)]' perfs.json)" \
		"$(jq -c '[.metrics[] | select(.requested)]' ours.json)"
	# in any case, and beside pmuprof's own names
	run -0 "$PMUPROF" report -j -M INSN_PER_CYCLE,branch_miss_rate,frontend_cycles_idle counts.json
	assert_equal "$(jq -c '.metric_requests' <<<"$output")" \
		'["ipc","branch_misprediction_ratio","frontend_stalled_cycles"]'
	# stat takes the same names: its plan counts ipc's events
	run -0 "$PMUPROF" stat --plan --cpu-model neoverse-n1 -M insn_per_cycle,backend_cycles_idle
	assert_line --regexp '^  inst_retired +'
	assert_line --regexp '^  stall_backend +'
}
