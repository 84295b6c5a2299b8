#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# perf 6.19's default metric names given to -M: those of figures pmuprof prints beside an
# event (cs_per_second, CPUs_utilized, ...) count that event and task-clock, and the figure
# beside the event is perf's metric; software events count for real on any host, so the
# figures are checked against the counts. (The names that are pmuprof's metrics, such as
# insn_per_cycle: metrics.bats.)

load helpers

# Fails unless event $1's figure in report.json is its count per second of task-clock, in
# the unit shown (/sec, K/sec, M/sec, G/sec).
rate_is_per_task_clock() {
	jq -e --arg n "$1" '
		(.events[] | select(.name == "task-clock") | .value) as $tc
		| (.events[] | select(.name == $n)) as $e
		| ({"/sec": 1, "K/sec": 1e3, "M/sec": 1e6, "G/sec": 1e9}[$e.metric.unit]) as $m
		| ($e.value / ($tc / 1e9)) as $want
		| ($e.metric.value * $m - $want) as $d
		| $tc > 0 and $m != null and (if $d < 0 then -$d else $d end) <= 1e-9 * ($want + 1)
	' report.json >/dev/null || fail "$1's figure is not its count per task-clock second: $(jq -c --arg n "$1" '[.events[] | select(.name == $n or .name == "task-clock") | {name, value, metric}]' report.json)"
}

# -M NAME -- CMD...: exits 0 and counts exactly EVENT and task-clock, whose figure is the rate.
per_second() {
	local name=$1 event=$2
	shift 2
	stat_json -M "$name" -- "$@"
	assert_success
	assert_equal "$(jqr '[.events[] | [.name, .status]] | tostring')" \
		"[[\"$event\",\"counted\"],[\"task-clock\",\"counted\"]]"
	assert_equal "$(jqr '.metric_requests | tostring')" "[\"$name\"]"
	rate_is_per_task_clock "$event"
}

@test "-M cs_per_second counts context-switches and task-clock: the rate beside it is perf's metric" {
	per_second cs_per_second context-switches "$PPLOAD" sleep 5 2
	[ "$(jqr '.events[0].value')" -ge 5 ] || fail "context-switches $(jqr '.events[0].value')"
}

@test "-M page_faults_per_second and migrations_per_second: their event and task-clock" {
	per_second page_faults_per_second page-faults "$PPLOAD" touch 200
	[ "$(jqr '.events[0].value')" -ge 200 ] || fail "page-faults $(jqr '.events[0].value')"
	per_second migrations_per_second cpu-migrations "$PPLOAD" threads 2 20
	# in any case, as pmuprof's own metric names
	per_second PAGE_FAULTS_PER_SECOND page-faults "$PPLOAD" touch 10
}

@test "-M CPUs_utilized counts task-clock: CPUs utilized is task-clock over the wall time" {
	stat_json -M CPUs_utilized -- "$PPLOAD" spin 50
	assert_success
	assert_equal "$(jqr '[.events[] | [.name, .status, .metric.unit]] | tostring')" \
		'[["task-clock","counted","CPUs utilized"]]'
	jq -e '(.events[0].value / .time.wall_ns) as $want
		| (.events[0].metric.value - $want) as $d
		| $want > 0 and (if $d < 0 then -$d else $d end) <= 1e-12' report.json >/dev/null ||
		fail "CPUs utilized $(jqr '.events[0].metric.value'), task-clock $(jqr '.events[0].value') ns, wall $(jqr '.time.wall_ns') ns"
	# the text shows it beside task-clock, as perf 6.1 does
	run -0 --separate-stderr "$PMUPROF" stat -M cpus_utilized -- "$PPLOAD" spin 20
	assert_regex "$stderr" $'\n +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized\n'
}

@test "-M insn_per_cycle,cs_per_second: a metric and a figure of perf's together" {
	stat_json -M insn_per_cycle,cs_per_second -- "$PPLOAD" sleep 2 1
	assert_success
	assert_equal "$(jqr '.metric_requests | tostring')" '["ipc","cs_per_second"]'
	# the metric's events first, then the figure's
	assert_equal "$(jqr '[.events[].name] | tostring')" \
		'["cycles","instructions","context-switches","task-clock"]'
	assert_equal "$(jqr '[.events[2:][] | .status] | tostring')" '["counted","counted"]'
	rate_is_per_task_clock context-switches
	# ipc is reported, computed or not, as any -M metric
	assert_equal "$(jqr '[.metrics[] | select(.requested) | .name] | tostring')" '["ipc"]'
}

@test "-M perf's names count each event once, beside -e's and the metrics'" {
	stat_json -e task-clock -M CPUs_utilized,cs_per_second,page_faults_per_second -- true
	assert_success
	assert_equal "$(jqr '[.events[].name] | tostring')" \
		'["task-clock","context-switches","page-faults"]'
	# on an Arm core the metric's cpu_cycles and inst_retired are perf's cycles and instructions
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --plan \
		-M cycles_frequency,insn_per_cycle,branch_frequency,stalled_cycles_per_instruction
	assert_equal "$(awk '/^  [^ ]/ { print $1 }' <<<"$output" | tr '\n' ' ')" \
		"cpu_cycles inst_retired task-clock branches stalled-cycles-frontend stalled-cycles-backend "
}

@test "-M of perf's figures whose events are not counted here: as any -M metric's" {
	if "$PMUPROF" stat -e instructions -- true 2>/dev/null; then
		skip "this machine counts instructions: stalled_cycles_per_instruction is counted"
	fi
	run -2 --separate-stderr "$PMUPROF" stat -M stalled_cycles_per_instruction -- true
	assert_equal "$stderr" "pmuprof: cannot count any of the events here: 'stalled-cycles-frontend' (ENOENT), 'stalled-cycles-backend' (ENOENT), 'instructions' (ENOENT) (see 'pmuprof list' for what this machine has)"
	run -2 --separate-stderr "$PMUPROF" stat -M ipc -- true
	assert_regex "$stderr" "^pmuprof: cannot count any of the events here: 'cycles' \(ENOENT\)"
	# beside a counted one: the run goes on, the hardware event not supported
	stat_json -M cycles_frequency -- true
	assert_success
	assert_equal "$(jqr '[.events[] | [.name, .status]] | tostring')" \
		'[["cycles","not supported"],["task-clock","counted"]]'
}

@test "-M with a name neither pmuprof's nor perf's: still one line" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host run -2 --separate-stderr "$PMUPROF" stat \
		-M insn_per_cycle,cs_per_sec -- true
	assert_equal "$stderr" "pmuprof: no metric or group 'cs_per_sec' for an unknown core (see 'pmuprof list --metrics')"
	assert_equal "$output" ""
}

@test "report -M cs_per_second on a saved report: the figure beside context-switches" {
	stat_json -M cs_per_second -- "$PPLOAD" sleep 2 1
	run -0 --separate-stderr "$PMUPROF" report -M cs_per_second report.json
	assert_regex "$output" $'\n +[0-9]+ +context-switches +# +[0-9.]+ [KMG]?/sec\n'
	run -2 --separate-stderr "$PMUPROF" report -M cs_per_sec report.json
	assert_regex "$stderr" "^pmuprof: no metric or group 'cs_per_sec' "
}

@test "-M list ends with perf 6.19's names: the metric each is, or the events it counts" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host run -0 "$PMUPROF" stat -M list
	assert_line "perf 6.19's metric names -M takes (a figure beside an event counts its events):"
	assert_line --regexp '^  insn_per_cycle +is ipc$'
	assert_line --regexp '^  cs_per_second +counts context-switches,task-clock$'
	assert_line --regexp '^  CPUs_utilized +counts task-clock$'
	assert_equal "$(grep -cE '^  [A-Za-z_]+ +(is|counts) ' <<<"$output")" 11
}
