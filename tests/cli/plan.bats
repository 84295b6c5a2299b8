#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The counting plan (stat --plan), --mux, --counters, --min-running and the JSON
# fields that say what was estimated; Arm PMUs come from fixture trees (never probed there).
load helpers

QEMU=$FIXTURES/qemu-a57
PHONE=$FIXTURES/phone-a55-a76

@test "--plan: 8 events on 6 counters + the cycle counter: cycles on it, two runs" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --plan -e r08,r08,r08,r08,r08,r08,r08,cpu_cycles,r08
	assert_success
	assert_line 'capacity: armv8_pmuv3: 6 general counters per Arm'"'"'s data (not probed: the PMUs are a fixture tree)'
	assert_line --regexp '^  cpu_cycles +armv8_pmuv3 +cycle counter$'
	assert_line 'run 2:'
	assert_output --partial 'would run the command 2 times for exact counts'
}

@test "--plan --counters 2: a chained 64-bit event takes two counters" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --plan --counters 2 --mux=runs \
		-e 'armv8_pmuv3/event=0x8,long/,r08,r08'
	assert_success
	assert_line --regexp '^  armv8_pmuv3/event=0x8,long/ +armv8_pmuv3 +chained pair$'
	assert_line 'run 2:'
	assert_output --partial 'the command runs 2 times'
}

@test "--plan: a user group stays whole, software events take no counter" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --plan --counters 3 \
		-e 'r08,{r08,r08,r08},task-clock'
	assert_success
	assert_line --regexp '^  task-clock +software +no counter$'
	[ "$(grep -c 'group 0' <<<"$output")" -eq 3 ]
	run awk '/^run 2:/ { r = 1 } r && /group 0/ { n++ } END { print n }' <<<"$output"
	assert_output 3
}

@test "a user group that can never fit: exit 2, what it needs and what the PMU has" {
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat -e '{r08,r08,r08,r08,r08,r08,r08}' -- true
	assert_failure 2
	assert_output --partial 'the group {r08,r08,r08,r08,r08,r08,r08} needs 7 general counters, but armv8_pmuv3 has 6 and the cycle counter'
	PMUPROF_SYSFS_ROOT=$QEMU run "$PMUPROF" stat --plan -e '{cpu_cycles,r08,r08,r08,r08,r08,r08}'
	assert_success
}

@test "big.LITTLE fixture: each event planned on its own core type's PMU" {
	PMUPROF_SYSFS_ROOT=$PHONE run "$PMUPROF" stat --plan -e r08,cpu_cycles
	assert_success
	assert_output --partial 'capacity: armv8_cortex_a55: 6 general counters per Arm'
}

@test "--mux=runs with software events: one run, each event says run 1, nothing scaled" {
	stat_json --mux=runs -e task-clock,page-faults -- true
	assert_equal "$(jqr '.mux.mode')" runs
	assert_equal "$(jqr '.mux.runs')" 1
	assert_equal "$(jqr '[.events[].run] | unique | tostring')" '[1]'
	assert_equal "$(jqr '[.events[].scaled] | unique | tostring')" '[false]'
}

@test "--mux=kernel (default): run null, scaled false when counted all the time" {
	stat_json -e task-clock -- true
	assert_equal "$(jqr '.mux.mode')" kernel
	assert_equal "$(jqr '.mux.multiplexed')" false
	assert_equal "$(jqr '.events[0].run')" null
	assert_equal "$(jqr '.events[0].scaled')" false
}

@test "--no-multiplex is --mux=runs; bad values are usage errors" {
	stat_json --no-multiplex -e task-clock -- true
	assert_equal "$(jqr '.mux.mode')" runs
	run "$PMUPROF" stat --mux=sometimes -e task-clock true
	assert_failure 2
	assert_output --partial "--mux takes 'kernel' or 'runs'"
	run "$PMUPROF" stat --counters 0 -e task-clock true
	assert_failure 2
	run "$PMUPROF" stat --min-running 101 -e task-clock true
	assert_failure 2
	run "$PMUPROF" stat --mux=runs -I 10 -e task-clock true
	assert_failure 2
	assert_output --partial '-I and --mux=runs cannot be combined'
}

@test "--min-running: fully counted events keep the command's status" {
	run "$PMUPROF" stat --min-running 100 -e task-clock -- sh -c 'exit 5'
	assert_failure 5
}

@test "--plan with 20 Arm events: discovery reads each sysfs file once" {
	need_strace
	local e=inst_retired,cpu_cycles,br_mis_pred,l1d_cache,l1d_cache_refill,mem_access
	e=$e,l1i_cache_refill,l1i_tlb_refill,l1d_tlb_refill,exc_taken,exc_return,cid_write_retired
	e=$e,br_pred,l1i_cache,l1d_cache_wb,l2d_cache,l2d_cache_refill,l2d_cache_wb,bus_access,inst_spec
	# LeakSanitizer cannot run under ptrace (the sanitized run, tests/sanitize.sh)
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server strace -f -e trace=open,openat -o "$BATS_TEST_TMPDIR/trace" \
		"$PMUPROF" stat --plan -e "$e" -- true >/dev/null 2>&1 || fail "pmuprof stat --plan failed under strace"
	# every file under the fixture that was opened, and opened: at least the PMU's type and
	# format/event, and none of them twice
	grep -v ENOENT "$BATS_TEST_TMPDIR/trace" | grep -o '"[^"]*n1-server[^"]*"' | sort > "$BATS_TEST_TMPDIR/opened"
	grep -q 'armv8_pmuv3_0/type"' "$BATS_TEST_TMPDIR/opened" || fail "the PMU's type was not read"
	grep -q 'armv8_pmuv3_0/format/event"' "$BATS_TEST_TMPDIR/opened" || fail "format/event was not read"
	run uniq -d "$BATS_TEST_TMPDIR/opened"
	assert_output ''
	# the 20 names are all in the N1 table: no events/ entry is read (the PMU advertises 45)
	run grep -c '/events/' "$BATS_TEST_TMPDIR/opened"
	assert_output 0
}

@test "discovery opens no file of the kernel's own PMUs, and of format/ only event and long" {
	need_strace
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server strace -f -e trace=open,openat -o "$BATS_TEST_TMPDIR/trace" \
		"$PMUPROF" stat --plan -e inst_retired,cpu_cycles -- true >/dev/null 2>&1 ||
		fail "pmuprof stat --plan failed under strace"
	run grep -c -E '/devices/(breakpoint|kprobe|software|tracepoint|uprobe)/' "$BATS_TEST_TMPDIR/trace"
	assert_output 0
	# the uncore PMUs are still looked at: smmuv3's "cpus" (it has cpumask instead)
	grep -q 'smmuv3_pmcg_3f001002/cpus"' "$BATS_TEST_TMPDIR/trace" || fail "smmuv3 was not looked at"
	run grep -o 'armv8_pmuv3_0/format[^"]*"' "$BATS_TEST_TMPDIR/trace"
	assert_output $'armv8_pmuv3_0/format/event"\narmv8_pmuv3_0/format/long"'
	# a term beyond them is read when an event names it
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server strace -f -e trace=open,openat -o "$BATS_TEST_TMPDIR/trace" \
		"$PMUPROF" stat --plan -e inst_retired/rdpmc=1/ -- true >/dev/null 2>&1 ||
		fail "pmuprof stat --plan with rdpmc=1 failed under strace"
	grep -q 'armv8_pmuv3_0/format/rdpmc"' "$BATS_TEST_TMPDIR/trace" || fail "format/rdpmc was not read"
}

@test "--plan with an event only the PMU advertises reads that events/ entry and no other" {
	need_strace
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	cp -R "$FIXTURES/n1-server" "$BATS_TEST_TMPDIR/tree"
	printf 'event=0x01f0\n' > "$BATS_TEST_TMPDIR/tree/sys/bus/event_source/devices/armv8_pmuv3_0/events/vendor_thing"
	PMUPROF_SYSFS_ROOT=$BATS_TEST_TMPDIR/tree strace -f -e trace=open,openat -o "$BATS_TEST_TMPDIR/trace" \
		"$PMUPROF" stat --plan -e inst_retired,vendor_thing -- true >/dev/null 2>&1 ||
		fail "pmuprof stat --plan failed under strace"
	run grep -o '/events/[^"]*"' "$BATS_TEST_TMPDIR/trace"
	assert_output '/events/vendor_thing"'
}

# An x86 PMU takes any PERF_TYPE_RAW config: an Arm code opened there counts an x86 event
# under the Arm name. No perf_event_open but the software events', whatever the mode.
@test "--cpu-model on a host with no Arm PMU: its events are never opened, not counted with the reason" {
	[ "$(uname -m)" != aarch64 ] || skip "this host may have an Arm PMU"
	need_strace
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	local why="--cpu-model names neoverse-n1, a core this machine has no PMU for" opts
	strace -f -e trace=perf_event_open -o trace "$PMUPROF" stat --cpu-model neoverse-n1 -j \
		-o report.json -e inst_retired,cycles,r11,task-clock -- true 2>/dev/null ||
		fail "pmuprof stat failed under strace"
	run grep -c 'perf_event_open(' trace
	assert_output 1
	run grep -c 'perf_event_open({type=PERF_TYPE_SOFTWARE' trace
	assert_output 1
	check_report report.json
	assert_equal "$(jqr '[.events[].status] | join(",")')" "not counted,not counted,not counted,counted"
	assert_equal "$(jqr '[.events[:3][].reason] | unique | join(",")')" "$why"
	assert_equal "$(jqr '[.events[:3][].value] | unique | join(",")')" ""
	# -M, --topdown and --mux=runs open nothing either (their events are the core's)
	for opts in "-M ipc" "--topdown" "--topdown --mux=runs" \
		"--mux=runs --counters 1 -e inst_retired,cpu_cycles,l1d_cache,task-clock"; do
		# shellcheck disable=SC2086
		strace -f -e trace=perf_event_open -o trace "$PMUPROF" stat --cpu-model neoverse-n1 \
			-j -o report.json $opts -- true 2>/dev/null || fail "$opts: pmuprof stat failed"
		run grep -v 'perf_event_open({type=PERF_TYPE_SOFTWARE' trace
		refute_output --partial perf_event_open
		check_report report.json
		assert_equal "$(jqr '[.events[] | select(.name != "task-clock") | .reason] | unique | join(",")')" "$why"
	done
	assert_equal "$(jqr '[.events[].run] | join(",")')" "1,1,2,1"
}

# Each run of the command sleeps longer (0.1, 0.3, 0.5 s): a time taken from another run
# than the one it is said to be of is too short for some run. Only lower bounds are held on a
# time, since a busy machine makes a sleep longer, never shorter; which run each time is of
# is held exactly, between the text and the JSON of one report.
@test "--mux=runs: every time names the planned run it is of; JSON time is run 1's" {
	local cmd='n=$(cat cnt); echo $((n + 1)) > cnt; sleep 0.$((n * 2 - 1))'
	local run what ns secs
	echo 1 > cnt
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" stat --mux=runs --counters 1 \
		--export json:report.json \
		-e task-clock,inst_retired,cpu_cycles,l1d_cache,l1d_cache_refill -- sh -c "$cmd"
	assert_success
	check_report report.json
	assert_equal "$(jqr '[.events[].run] | join(",")')" 1,1,1,2,3
	assert_equal "$(jqr '.time.plan_run')" 1
	assert_equal "$(jqr '[.time.plan_runs[].run] | join(",")')" 1,2,3
	assert_equal "$(jqr '[.time.wall_ns, .time.user_ns, .time.system_ns] | join(",")')" \
		"$(jqr '.time.plan_runs[0] | [.wall_ns, .user_ns, .system_ns] | join(",")')"
	jq -e '.time.plan_runs | .[0].wall_ns >= 1e8 and .[1].wall_ns >= 3e8 and
		.[2].wall_ns >= 5e8' report.json ||
		fail "runs slept 0.1, 0.3, 0.5 s: $(jqr '[.time.plan_runs[].wall_ns]')"
	# the text's time lines are perf's, each named by its run, and each the JSON's time of
	# that run to the nanosecond
	[ "$(grep -c 'seconds' <<<"$output")" -eq 9 ] || fail "not 9 time lines"
	for what in "time elapsed:wall_ns" "user:user_ns" "sys:system_ns"; do
		for run in 1 2 3; do
			ns=$(jqr ".time.plan_runs[$((run - 1))].${what#*:}")
			secs="$((ns / 1000000000))\\.$(printf %09d $((ns % 1000000000)))"
			assert_line --regexp "^ +$secs seconds ${what%:*}   \\[run $run\\]\$"
		done
	done
	# -r: time.runs are run 1's of each recorded run (its 1st and 3rd commands: 0.1 s, then
	# 0.5 s), so the least and the most of run 1's times; plan_runs the means
	echo 1 > cnt
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server stat_json -r 2 --mux=runs --counters 1 \
		-e task-clock,inst_retired,l1d_cache -- sh -c "$cmd"
	assert_success
	jq -e '.time.runs[1].wall_ns >= 5e8' report.json || fail "$(jqr .time.runs)"
	assert_equal "$(jqr '.time.runs | map(.wall_ns) | sort | join(",")')" \
		"$(jqr '.time.plan_runs[0].stats.wall_ns | [.min, .max] | join(",")')"
	assert_equal "$(jqr '[.time.plan_runs[].stats.wall_ns.n] | join(",")')" 2,2
	assert_equal "$(jqr '.time.stats.wall_ns.mean | round')" \
		"$(jqr '.time.plan_runs[0].stats.wall_ns.mean | round')"
	# without --mux=runs neither field is given, and the lines are perf's
	stat_json -e task-clock -- true
	assert_equal "$(jqr '[.time.plan_run, .time.plan_runs] | map(tostring) | join(",")')" null,null
	run "$PMUPROF" stat -e task-clock -- true
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} seconds time elapsed$'
}

@test "--cpu-model of a core the machine's Arm PMUs are not: never placed on their PMU" {
	# n1-server's PMU is a Neoverse N1's: the A57's codes would count N1 events there
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run -0 "$PMUPROF" stat --plan --cpu-model cortex-a57 \
		-e inst_retired,l1d_cache_refill_rd -- true
	assert_line "capacity: cortex-a57: 6 general counters per Arm's data (--cpu-model, not on this machine)"
	refute_output --partial armv8_pmuv3_0
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server stat_json --cpu-model cortex-a57 -e inst_retired -- true
	[ "$(jqr '.events[0].pmu')" = raw ]
	[ "$(jqr '.events[0].status')" = "not counted" ]
	# the machine's own core keeps its PMU
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server stat_json --cpu-model neoverse-n1 -e inst_retired -- true
	[ "$(jqr '.events[0].pmu')" = armv8_pmuv3_0 ]
}
