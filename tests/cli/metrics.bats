#!/usr/bin/env bats
# pmuprof stat -M: the metric list, the events a metric adds, and the metrics array in JSON
# (the formulas themselves are unit-tested on fixture counts: tests/unit/test_metrics.c).

load helpers

@test "-M list names every metric with its formula" {
	run -0 "$PMUPROF" stat -M list
	assert_line ipc
	assert_line topdown_l1
	assert_line --partial "ipc                      = INST_RETIRED / CPU_CYCLES  [insn per cycle]"
	assert_line --partial "frontend_bound           = 100 * (STALL_SLOT_FRONTEND / (SLOTS * CPU_CYCLES) - 4 * BR_MIS_PRED / CPU_CYCLES)  [%]  (neoverse-v1)"
}

@test "-M NAME unknown: a message pointing at the list" {
	run -2 --separate-stderr "$PMUPROF" stat -M nosuch true
	assert_regex "$stderr" "no metric 'nosuch' \(see 'pmuprof stat -M list'\)"
}

@test "-M ipc adds instructions and cycles as a group; metrics is an array in JSON" {
	stat_json -M ipc -e task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[].name] | join(",")')" task-clock,instructions,cycles
	assert_equal "$(jqr '.events[1].group == .events[2].group and .events[1].group != null')" true
	assert_equal "$(jqr '.metrics | type')" array
	if [ "$(jqr '.events[2].status')" = counted ]; then
		assert_equal "$(jqr '.metrics[0].name')" ipc
		assert_equal "$(jqr '.metrics[0].formula')" "INST_RETIRED / CPU_CYCLES"
	else
		assert_equal "$(jqr '.metrics | length')" 0
	fi
}
