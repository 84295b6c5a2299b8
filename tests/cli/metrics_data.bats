#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# tests/cli/metrics_data.bats: the metric tables (events/metrics) as `pmuprof list --metrics`
# serves them: against Arm's telemetry JSON, metric by metric; revisions (CORE:rXpY); the
# generic metrics a core's events allow; what a listing shows and refuses.
load helpers

TELEMETRY=${PMUPROF_ARM_REFERENCE:-$ROOT/../shared/reference}/arm-telemetry

# Runs pmuprof list --metrics --json with the arguments into lm.json, checked to be JSON.
lm_json() {
	run "$PMUPROF" list --metrics --json "$@"
	assert_success
	printf '%s\n' "$output" >lm.json
	jq -e . lm.json >/dev/null || fail "list --metrics --json is not JSON"
}

jl() {
	jq -r "$1" lm.json
}

@test "every metric and group of Arm's telemetry data is in the tables, formula for formula" {
	[ -d "$TELEMETRY/pmu/cpu" ] ||
		skip "Arm's telemetry data not found in $TELEMETRY (set PMUPROF_ARM_REFERENCE: docs/testing.md says where to get it)"
	run python3 "$ROOT/tests/cli/metrics_xcheck.py" "$PMUPROF" "$TELEMETRY"
	printf '%s\n' "$output"
	assert_success
	assert_output --partial "ok 14 - pmu/cpu/neoverse/neoverse-n2-r0p3.json: 36 metrics agree"
	refute_output --partial "not ok"
}

@test "--cpu-model neoverse-n2:r0p3 lists r0p3's formulas; r0p1 and no MIDR the older ones" {
	lm_json --cpu-model neoverse-n2:r0p3 frontend_bound
	assert_equal "$(jl '.metric_sets | length')" 1
	assert_equal "$(jl '.metric_sets[0].rev_from + " " + (.metric_sets[0].rev_to | tostring)')" "r0p3 null"
	assert_equal "$(jl '.metric_sets[0].metrics[0].formula')" \
		"100 * (STALL_SLOT_FRONTEND / (CPU_CYCLES * 5) - BR_MIS_PRED / CPU_CYCLES)"
	lm_json --cpu-model n2:r0p1 frontend_bound
	assert_equal "$(jl '.metric_sets[0].rev_to')" r0p2
	assert_equal "$(jl '.metric_sets[0].metrics[0].formula')" \
		"100 * ((STALL_SLOT_FRONTEND - CPU_CYCLES) / (5 * CPU_CYCLES) - BR_MIS_PRED / CPU_CYCLES)"
	assert_equal "$(jl '.metric_sets[0].metrics[0].events | join(",")')" \
		BR_MIS_PRED,CPU_CYCLES,STALL_SLOT_FRONTEND
	# no revision: every revision's set
	lm_json --cpu-model neoverse-n2 frontend_bound
	assert_equal "$(jl '[.metric_sets[].rev_from] | join(",")')" r0p0,r0p3
	PMUPROF_CPU_MODEL=neoverse-n2:r1p0 lm_json retiring
	assert_equal "$(jl '.metric_sets[0].rev_from')" r0p3
}

@test "the C1 cores have their metrics, and subtract idle cycles (IMP_WFX_CLOCK_CYCLES)" {
	for c in c1-nano c1-pro c1-premium c1-ultra c1-sme2; do
		lm_json --cpu-model "$c"
		assert_equal "$(jl '.metric_sets[0].core')" "$c"
		assert_equal "$(jl '.metric_sets[0].generic')" false
	done
	lm_json --cpu-model c1-pro:r1p2 ipc
	assert_equal "$(jl '.metric_sets[0].metrics[0].formula')" \
		"INST_RETIRED / (CPU_CYCLES - IMP_WFX_CLOCK_CYCLES)"
	lm_json --cpu-model c1-ultra Topdown_L1
	assert_equal "$(jl '.metric_sets[0].groups[0].stage')" 1
	assert_equal "$(jl '.metric_sets[0].groups[0].metrics | sort | join(",")')" \
		backend_bound,bad_speculation,frontend_bound,retiring
}

@test "a core without Arm's metrics gets the generic ones its events allow, and only those" {
	lm_json --cpu-model cortex-a57
	assert_equal "$(jl '.metric_sets[0].generic')" true
	# Cortex-A57 (Armv8.0) has no BR_RETIRED, L1D_TLB, STALL_FRONTEND, LL_CACHE_RD or
	# ITLB_WALK: 9 of the 22 generic metrics
	assert_equal "$(jl '[.metric_sets[0].metrics[].name] | join(",")')" \
		ipc,l1d_cache_miss_ratio,l1d_cache_mpki,l1d_tlb_mpki,l1i_cache_miss_ratio,l1i_cache_mpki,l1i_tlb_mpki,l2_cache_miss_ratio,l2_cache_mpki
	assert_equal "$(jl '[.metric_sets[0].groups[].name] | join(",")')" General,MPKI,Miss_Ratio
	lm_json --cpu-model cortex-a76
	assert_equal "$(jl '[.metric_sets[0].metrics[].name] | index("frontend_stalled_cycles") != null')" true
	# every core in the tables has a metric set, its own or the generic one
	lm_json --all-cores
	assert_equal "$(jl '[.metric_sets[].core] | unique | length')" \
		"$("$PMUPROF" list --all-cores --json | jq '.cores | length')"
}

@test "list --metrics in text: groups with their stage, each metric with its formula and events" {
	run "$PMUPROF" list --metrics --cpu-model neoverse-v1
	assert_success
	assert_line "Neoverse V1 metrics:"
	assert_line --regexp '^  group General +stage 2: ipc$'
	assert_line --regexp '^  ipc +IPC \(per cycle\)$'
	assert_line "      = INST_RETIRED / CPU_CYCLES"
	assert_line "      events: CPU_CYCLES INST_RETIRED"
}

@test "list --metrics: a bad revision and an unknown core are refused; no Arm PMU says so" {
	run "$PMUPROF" list --metrics --cpu-model neoverse-n2:r16p0
	assert_failure 2
	assert_output "pmuprof: bad revision in CPU model 'neoverse-n2:r16p0': want CORE:rXpY with X and Y from 0 to 15 (e.g. neoverse-n2:r0p3)"
	run "$PMUPROF" stat --cpu-model n2:r0p -e inst_retired -- true
	assert_failure 2
	assert_output "pmuprof: bad revision in CPU model 'n2:r0p': want CORE:rXpY with X and Y from 0 to 15 (e.g. neoverse-n2:r0p3)"
	run "$PMUPROF" list --metrics --cpu-model neoverse-n9
	assert_failure 2
	assert_output --partial "unknown CPU model 'neoverse-n9'"
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host lm_json
	assert_equal "$(jl '.metric_sets | length')" 0
	assert_equal "$(jl '.note')" "no Arm PMU on this machine: no metrics to list (give --cpu-model CORE[:rXpY] or --all-cores)"
}

@test "list --metrics on a machine: the PMU's MIDR picks the revision (n1-server is r3p1)" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server lm_json ipc
	assert_equal "$(jl '.metric_sets | length')" 1
	assert_equal "$(jl '.metric_sets[0].core')" neoverse-n1
	assert_equal "$(jl '.metric_sets[0].metrics[0].formula')" "INST_RETIRED / CPU_CYCLES"
}
