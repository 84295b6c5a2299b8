#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Every kind of JSON pmuprof emits, validated against its JSON Schema (man/*.schema.json):
# stat reports of several event kinds, unsupported events and a killed workload; diff's JSON.
load helpers
load schema

@test "the validator rejects what the schema forbids" {
	schema_python >/dev/null || skip "no JSON Schema validator: install python3-jsonschema"
	jq '.events[0].status = "bogus" | del(.host.ncpus)' "$FIXTURES/diff/base.json" > bad.json
	run validate_report bad.json
	assert_failure
	assert_output --partial "'bogus' is not one of"
	assert_output --partial "'ncpus' is a required property"
	jq '.schema_version = "2.0"' "$FIXTURES/diff/base.json" > v2.json
	run validate_report v2.json
	assert_failure
	rm bad.json v2.json	# invalid on purpose: not for the teardown's check of reports
}

@test "stat: software events" {
	stat_json -e task-clock,page-faults,context-switches,cpu-migrations -- "$PPLOAD" spin 20
	assert_success
	validate_report report.json
}

@test "stat: the default set, hardware events not supported here included" {
	stat_json -- "$PPLOAD" spin 20
	assert_success
	validate_report report.json
}

@test "stat: modifiers, a group and a raw event" {
	stat_json -e '{task-clock:u,page-faults:k},r11,cycles:u' -- "$PPLOAD" touch 100
	validate_report report.json
}

@test "stat: a workload killed by a signal, and one that exits non-zero" {
	stat_json -e task-clock -- "$PPLOAD" kill 9
	assert_failure 137
	validate_report report.json
	stat_json -e task-clock -- "$PPLOAD" exit 3
	assert_failure 3
	validate_report report.json
}

@test "the crafted reports diff's tests read are valid reports" {
	for f in "$FIXTURES"/diff/*.json; do
		case ${f##*/} in truncated.json | invalid.json | empty.json | schema-2.json | \
			not-a-report.json) continue ;; esac
		validate_report "$f"
	done
}

@test "diff: JSON of every kind of row validates" {
	local F=$FIXTURES/diff
	for pair in "base.json same.json" "base.json cycles-up-10.json" \
		"runs-base.json runs-up-5.json" "runs-base.json stats-up-5.json" \
		"dup-base.json dup-new.json" "base.json ipc-down-10.json" \
		"metrics-base.json metrics-ipc-down.json" "base.json runs-up-5.json"; do
		set -- $pair
		run "$PMUPROF" diff -f json --metrics "$F/$1" "$F/$2"
		[ "$status" -le 1 ] || fail "diff $pair: status $status"
		printf '%s\n' "$output" > diff.json
		validate_diff diff.json
	done
}

@test "diff: JSON of real reports validates" {
	"$PMUPROF" stat --json -o a.json -- "$PPLOAD" spin 20
	"$PMUPROF" stat --json -o b.json -- "$PPLOAD" spin 30
	run "$PMUPROF" diff -f json a.json b.json
	printf '%s\n' "$output" > diff.json
	validate_diff diff.json
}

# 1.4's per-unit reports (-A, --per-core, --per-cluster, --per-socket, --per-thread, with -I),
# as report_json writes them from the hand-made reports of tests/unit/test_report_units.c
# (stat cannot count per unit yet on every machine): each is valid, and the schema rejects
# what 1.4 forbids.
@test "stat: per-unit reports (schema 1.4) validate, and the schema holds their shape" {
	local bin=$ROOT/${O:-build}/tests/test_report_units
	[ -x "$bin" ] || fail "the unit tests are not built ($bin): run make unit-bins"
	mkdir units
	run "$bin" --json-dir units
	assert_success
	for mode in cpu cpu-interval core cluster socket thread cache; do
		[ -s "units/$mode.json" ] || fail "no units/$mode.json"
		validate_report "units/$mode.json"
	done
	assert_equal "$(jq -r '.aggregation, .events[2].units[1].unit' units/cpu.json)" $'cpu\nCPU1'
	jq 'del(.events[0].units)' units/cpu.json > bad.json
	run validate_report bad.json
	assert_failure
	assert_output --partial "'units' is a required property"
	jq '.events[0].units = null' units/socket.json > bad.json
	run validate_report bad.json
	assert_failure
	assert_output --partial "None is not of type 'array'"
	jq 'del(.target)' units/core.json > bad.json
	run validate_report bad.json
	assert_failure
	assert_output --partial "'target' is a required property"
	rm bad.json	# invalid on purpose: not for the teardown's check of reports
}
