#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# tests/cli/metrics_xcheck.bats: the values of the metrics `pmuprof report -M` computes from
# saved counts, held against Arm's telemetry JSON read directly (tests/tools/metrics_values.py
# evaluates Arm's formula text itself): every metric of every core and revision; a division by
# zero, an input the report lacks and one not counted give null with the reason; -M GROUP.
load helpers

TELEMETRY=${PMUPROF_ARM_REFERENCE:-$ROOT/../shared/reference}/arm-telemetry
VALUES=$ROOT/tests/tools/metrics_values.py

# The set-up of every test: Arm's data (a skip saying why where it is missing), and base.report,
# a real stat report whose events the script replaces with synthetic raw events. The reports
# made here are named *.report and what pmuprof report prints *.json: the teardown validates
# those against the schema, and one synthetic report (the first test copies it).
telemetry_and_base() {
	[ -d "$TELEMETRY/pmu/cpu" ] ||
		skip "Arm's telemetry data not found in $TELEMETRY (set PMUPROF_ARM_REFERENCE: docs/testing.md says where to get it)"
	"$PMUPROF" stat --json -o base.report -e task-clock -- true || fail "stat --json failed"
}

# synthetic OUT ARM_FILE [EVENT=COUNT | -EVENT]...: the report of ARM_FILE's events with the
# script's counts, changed as asked; sets MODEL to the file's CORE:rXpY.
synthetic() {
	local out=$1 file=$2
	shift 2
	MODEL=$(python3 "$VALUES" report base.report "$TELEMETRY/pmu/cpu/$file" "$out" "$@") ||
		fail "no synthetic report of $file"
}

# mx FILE -M ... : pmuprof report -j FILE --cpu-model $MODEL with the options into out.json.
mx() {
	local file=$1
	shift
	run --separate-stderr "$PMUPROF" report -j --cpu-model "$MODEL" "$@" "$file"
	[ "$status" -eq 0 ] || fail "pmuprof report -j --cpu-model $MODEL $* $file: status $status: $stderr"
	printf '%s\n' "$output" >out.json
}

# The one metric named $1 of out.json as "value|reason".
metric() {
	jq -r --arg n "$1" '[.metrics[] | select(.name == $n)] |
		if length == 1 then "\(.[0].value)|\(.[0].reason)" else "\(length) metrics \($n)" end' \
		out.json
}

@test "every metric of Arm's data, each core and revision: report -M gives the formula's value" {
	telemetry_and_base
	mkdir mx
	run python3 "$VALUES" check "$PMUPROF" base.report "$TELEMETRY" mx
	# the per-core summary, shown in the TAP stream as comments
	printf '%s\n' "$output" | grep -E '^(not )?ok ' | sed 's/^/# /' >&3
	printf '%s\n' "$output"
	assert_success
	refute_output --partial "not ok"
	assert_line --partial "neoverse-n1:r4p1 (pmu/cpu/neoverse/neoverse-n1.json): 31 of 31 metrics agree"
	assert_line --partial "c1-ultra:r0p0 (pmu/cpu/lumex/arm-c1-ultra-r0p0-pmu.json): 145 of 145 metrics agree"
	assert_equal "$(grep -c '^ok ' <<<"$output")" \
		"$(find "$TELEMETRY/pmu/cpu" -name '*.json' | wc -l)"
	# a synthetic report and what report made of it are reports of the schema (the teardown)
	cp mx/neoverse-n2-r0p3.json n2.json
	cp mx/neoverse-n2-r0p3.out.json n2.out.json
}

@test "a division by zero gives null and 'division by zero'; the other metrics keep their values" {
	telemetry_and_base
	synthetic n1.report neoverse/neoverse-n1.json CPU_CYCLES=0 INST_RETIRED=2000 \
		L1D_CACHE_REFILL=50
	mx n1.report -M ipc,l1d_cache_mpki
	assert_equal "$(metric ipc)" "null|division by zero"
	assert_equal "$(metric l1d_cache_mpki)" "25|null"
	# a divisor that is a difference: C1's cycles less its idle cycles
	synthetic c1.report lumex/arm-c1-pro-r1p2-pmu.json CPU_CYCLES=7000 IMP_WFX_CLOCK_CYCLES=7000
	mx c1.report -M ipc
	assert_equal "$MODEL" c1-pro:r1p2
	assert_equal "$(metric ipc)" "null|division by zero"
}

@test "an input missing from the report, or not counted, gives null and a reason naming it" {
	telemetry_and_base
	synthetic n1.report neoverse/neoverse-n1.json -INST_RETIRED STALL_FRONTEND=300 \
		CPU_CYCLES=1200
	mx n1.report -M ipc,frontend_stalled_cycles
	assert_equal "$(metric frontend_stalled_cycles)" "25|null"
	run metric ipc
	assert_output --regexp '^null\|INST_RETIRED not counted'
	# CPU_CYCLES (0x11) refused by the kernel, as stat saves an event not supported
	jq '(.events[] | select(.config == "0x11")) |= (.status = "not supported" |
	    .reason = "ENOENT" | .value = null | .raw_value = null | .time_enabled_ns = 0 |
	    .time_running_ns = 0 | .counted_pct = null | .scaled = null)' n1.report >n1ns.report
	mx n1ns.report -M ipc,frontend_stalled_cycles
	run metric frontend_stalled_cycles
	assert_output --regexp '^null\|CPU_CYCLES not counted'
	run metric ipc
	assert_output --regexp '^null\|(INST_RETIRED|CPU_CYCLES) not counted'
}

@test "-M GROUP asks for the group's metrics, each with that group and its stage" {
	telemetry_and_base
	synthetic n2.report neoverse/neoverse-n2-r0p3.json
	mx n2.report -M topdown_l1
	assert_equal "$(jq -c '.metric_requests' out.json)" '["topdown_l1"]'
	assert_equal "$(jq -r '[.metrics[] | select(.requested) | .name] | sort | join(",")' out.json)" \
		backend_bound,bad_speculation,frontend_bound,retiring
	assert_equal "$(jq -r '[.metrics[] | select(.requested) | "\(.group) \(.stage) \(.core)"] |
		unique | join(",")' out.json)" "Topdown_L1 1 neoverse-n2"
}

@test "Cortex-X925 and A725 (generic metrics): from V3's counts, the values of Arm's V3 formulas" {
	telemetry_and_base
	# Arm publishes no telemetry file for either core; the generic metrics carry the names and
	# formulas Arm gives every Neoverse core, so V3's file (checked against Arm's text above)
	# is the reference: same counts, same names, same values.
	synthetic v3.report neoverse/neoverse-v3.json
	local names
	names=$(awk '$1 == "metric" { print $2 }' "$ROOT/events/metrics/generic.metrics" | paste -sd,)
	[ "$(tr , '\n' <<<"$names" | wc -l)" -eq 23 ] || fail "generic metrics: $names"
	mx v3.report -M "$names"
	jq -S '[.metrics[] | select(.requested) | {name, value}] | sort_by(.name)' out.json >v3.values
	[ "$(jq 'map(select(.value == null)) | length' v3.values)" -eq 0 ] || fail "$(cat v3.values)"
	for core in cortex-x925 cortex-a725; do
		MODEL=$core mx v3.report -M "$names"
		jq -S '[.metrics[] | select(.requested) | {name, value}] | sort_by(.name)' out.json >"$core.values"
		assert_equal "$(jq length "$core.values")" 23
		assert_equal "$(jq -r '[.metrics[] | select(.requested) | .core] | unique | join(",")' out.json)" "$core"
		diff -u v3.values "$core.values" || fail "$core: generic metrics differ from V3's"
	done
}
