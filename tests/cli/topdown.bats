#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat --topdown: Arm's top-down method from the metric tables: stage 1, then the
# stage-2 groups under the dominant node, counted exactly run by run, printed as a tree (the
# counting side on a fixture tree, which opens nothing; the tree from known counts through
# pmuprof report).

load helpers

# The --topdown report of Neoverse N1 (the n1-server fixture), with counts set by hand:
# CPU_CYCLES 1000, STALL_BACKEND 600, STALL_FRONTEND 100, INST_RETIRED 2000, the cache and TLB
# accesses and LL reads 400, every other event 40.
counted_topdown() {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --topdown -j -o td.json -- true
	jq '.events[] |= (.status = "counted" | .reason = null | .note = null |
	    .time_enabled_ns = 1000 | .time_running_ns = 1000 | .counted_pct = 100 | .scaled = false |
	    .value = (if .name == "cpu_cycles" then 1000 elif .name == "stall_backend" then 600
		      elif .name == "stall_frontend" then 100 elif .name == "inst_retired" then 2000
		      elif (.name | test("_cache$|_tlb$|_rd$")) then 400 else 40 end) |
	    .raw_value = .value)' td.json > counted.json
}

@test "--topdown counts stage 1 first; no node with a share, it then counts every group under it, exactly in runs of the command" {
	counted_topdown
	check_report td.json
	assert_equal "$(jq -r '.topdown.group, .topdown.how, .mux.mode, .metrics_core' td.json)" \
		$'Cycle_Accounting\nstage 1 alone in 1 run, then it and every group under it (no node had a share) in 8 runs of the command (--mux=runs), each count exact\nruns\nneoverse-n1:r3p1'
	assert_equal "$(jq -r '.metric_requests | join(" ")' td.json)" \
		"Cycle_Accounting Branch_Effectiveness ITLB_Effectiveness L1I_Cache_Effectiveness L2_Cache_Effectiveness LL_Cache_Effectiveness DTLB_Effectiveness L1D_Cache_Effectiveness Operation_Mix"
	# on a fixture tree nothing is counted: every node says why
	assert_equal "$(jq -r '.topdown.stage1[] | "\(.name) \(.value) \(.dominant)"' td.json)" \
		$'frontend_stalled_cycles null false\nbackend_stalled_cycles null false'
	assert_equal "$(jq -r '.metrics[] | select(.name == "backend_stalled_cycles") | .reason' td.json)" \
		"STALL_BACKEND not counted"
}

@test "the tree: stage 1 in percent, the dominant node's groups and metrics below it" {
	counted_topdown
	run -0 "$PMUPROF" report counted.json
	assert_line " Top-down, neoverse-n1 (Cycle_Accounting): stage 1 alone in 1 run, then it and every group under it (no node had a share) in 8 runs of the command (--mux=runs), each count exact"
	assert_line --regexp '^    frontend_stalled_cycles +10\.00%$'
	assert_line --regexp '^ => backend_stalled_cycles +60\.00%$'
	assert_line "     DTLB_Effectiveness"
	# 40 / 2000 * 1000; 400 / 2000 * 1000; 40 / 400
	assert_line --regexp '^       dtlb_mpki +20\.000  MPKI$'
	assert_line --regexp '^       ll_cache_read_mpki +200\.000  MPKI$'
	assert_line --regexp '^       l1d_cache_miss_ratio +0\.100  per cache access$'
	# the frontend's groups are not shown: it is not dominant
	refute_line "     ITLB_Effectiveness"
	run -0 "$PMUPROF" report -j counted.json
	printf '%s\n' "$output" > again.json
	check_report again.json
	assert_equal "$(jq -c '.topdown.stage1[] | [.name, .value, .dominant, (.drill_down | length)]' again.json)" \
		$'["frontend_stalled_cycles",10,false,0]\n["backend_stalled_cycles",60,true,5]'
	assert_equal "$(jq -r '.metrics[] | select(.name == "dtlb_mpki") | "\(.group) \(.stage) \(.value)"' again.json)" \
		"DTLB_Effectiveness 2 20"
}

@test "--topdown: a core without Arm's top-down data is refused in one line; -I counts in one run" {
	run -2 --separate-stderr "$PMUPROF" stat --topdown --cpu-model cortex-a57 -- true
	assert_equal "$stderr" "pmuprof: --topdown needs Arm's top-down data for the core, which cortex-a57 lacks (it is there for Neoverse and C1 cores: give --cpu-model CORE, or use -M)"
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --topdown -I 100 -j -o one.json -- true
	assert_equal "$(jq -r '.topdown.how, .mux.mode' one.json)" $'one run, multiplexed: the values are estimates\nkernel'
}

@test "--topdown runs the command once for stage 1, then once per run of the second pass; -r repeats only the second" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --topdown -j -o td.json -- \
		sh -c 'echo x >> runs.txt'
	# stage 1 (Cycle_Accounting) fits the counters: one run; then 8 (the JSON's mux.runs)
	assert_equal "$(jq -r '.mux.runs' td.json)" 8
	assert_equal "$(wc -l < runs.txt)" 9
	rm runs.txt
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --topdown -r 2 -j -o td.json -- \
		sh -c 'echo x >> runs.txt'
	assert_equal "$(wc -l < runs.txt)" 17
	# --mux=kernel, or -I: one pass, every group at once
	rm runs.txt
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --topdown --mux=kernel -j \
		-o td.json -- sh -c 'echo x >> runs.txt'
	assert_equal "$(wc -l < runs.txt)" 1
	assert_equal "$(jq -r '.metric_requests | length' td.json)" 9
}

@test "--topdown: a first pass that cannot run the command ends it, said once" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -127 --separate-stderr "$PMUPROF" stat --topdown -- \
		/no/such/command
	assert_equal "$stderr" "pmuprof: cannot run '/no/such/command': command not found"
}

@test "--topdown: SIGINT in the first pass writes its report, runs no second, keeps the command's status" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server "$PMUPROF" stat --topdown -j -o td.json -- \
		sh -c 'trap "" INT; echo x >> runs.txt; i=0
			while [ ! -e go ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
			exit 3' &
	pid=$!
	# SIGINT once the command runs and pmuprof catches SIGINT (SigCgt bit 1: it forwards from
	# then on; a background job of this shell starts with SIGINT ignored, so one sent
	# earlier is lost); the command ends only after it, whatever the load: it waits for "go"
	for _ in $(seq 200); do
		if [ -s runs.txt ]; then
			cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status")
			(((16#$cgt >> 1) & 1)) && break
		fi
		sleep 0.05
	done
	kill -INT "$pid"
	touch go
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 3
	assert_equal "$(wc -l < runs.txt)" 1
	assert_equal "$(jq -r '.exit.interrupted, .mux.runs, .topdown.group' td.json)" \
		$'true\n1\nCycle_Accounting'
}
