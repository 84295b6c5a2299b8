#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat against its man page and perf: --min-running fails on events
# never counted, -o refuses a directory path, a failing --prepare/--cleanup is pmuprof's own
# failure, --plan --cpu-model plans for the core on a host without it, and messages never cut
# a word in half nor give a column outside the text they show.
load helpers

# Fourteen events: more than 6 counters and the cycle counter hold.
A57_EVENTS=inst_retired,cpu_cycles,l1d_cache,l1d_cache_refill,l2d_cache,br_mis_pred,br_pred,mem_access,exc_taken,l1i_cache,l1i_cache_refill,bus_access,exc_return,l1d_tlb_refill

@test "--min-running: an event the kernel refuses (not supported) fails the gate, exit 3" {
	# PERF_TYPE_SOFTWARE has no config 999 on any kernel: refused everywhere
	run --separate-stderr "$PMUPROF" stat --min-running 50 -o report.txt \
		-e 'task-clock,software/config=999/' -- true
	assert_equal "$status" 3
	assert_regex "$stderr" "'software/config=999/' was not counted at all \(not supported\), less than --min-running 50 \(exit status 3\)"
	grep -q 'not supported' report.txt || fail "no report written"
	# --min-running 0 is no gate
	run "$PMUPROF" stat --min-running 0 -e 'task-clock,software/config=999/' -- sh -c 'exit 5'
	assert_equal "$status" 5
}

@test "--min-running: a not counted event (a fixture's PMU) fails the gate, exit 3" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57 run --separate-stderr "$PMUPROF" stat \
		--min-running 1 -e task-clock,inst_retired -- true
	assert_equal "$status" 3
	assert_regex "$stderr" "'inst_retired' was not counted at all \(not counted\)"
}

@test "-o FILE/ is refused as a directory path, exit 2, nothing written or run" {
	run --separate-stderr "$PMUPROF" stat -o report.txt/ -e task-clock -- sh -c ': > ran'
	assert_equal "$status" 2
	assert_equal "$stderr" "pmuprof: cannot write report file 'report.txt/': it names a directory (give -o the path of a file)"
	[ ! -e report.txt ] || fail "report.txt was written"
	[ ! -e ran ] || fail "the command ran"
	run -2 "$PMUPROF" stat -o sub/. -e task-clock -- true
	mkdir d
	run -2 "$PMUPROF" stat -o d -e task-clock -- true
	assert_output --partial "it names a directory"
	assert_equal "$(ls -A d)" ""
}

@test "a failing --cleanup after a recorded run: exit 2, one-line error, the report of that run written" {
	run --separate-stderr "$PMUPROF" stat -r 2 --json -o report.json --cleanup 'exit 4' -e task-clock -- true
	assert_equal "$status" 2
	assert_equal "$stderr" "pmuprof: the cleanup command 'exit 4' failed (status 4) at run 1: stopping (append ' || true' to it if its status does not matter)"
	assert_equal "$(jqr '.events[0].status')" counted
	assert_equal "$(jqr '.repeat.runs')" 1
	assert_regex "$(jqr '.repeat.stopped')" "cleanup command 'exit 4' failed"
	run --separate-stderr "$PMUPROF" stat --cleanup 'exit 4' -e task-clock -- true
	assert_equal "$status" 2
	assert_regex "$stderr" "msec task-clock"
	run --separate-stderr "$PMUPROF" stat -r 3 --json -o report.json --prepare "[ ! -e once ] || exit 7; : > once" -e task-clock -- true
	assert_equal "$status" 2
	assert_regex "$stderr" "the prepare command .* failed \(status 7\) at run 2"
	assert_equal "$(jqr '.time.runs | length')" 1
	run --separate-stderr "$PMUPROF" stat --prepare false -e task-clock -- sh -c ': > ran'
	assert_equal "$status" 2
	[ ! -e ran ] || fail "the command ran after a failing --prepare"
}

@test "--plan --cpu-model cortex-a57 --counters 6 plans 14 events on 6 counters + the cycle counter, any host" {
	run "$PMUPROF" stat --plan --cpu-model cortex-a57 --counters 6 -e "$A57_EVENTS"
	assert_success
	assert_line "capacity: cortex-a57: 6 general counters (--counters) + the cycle counter"
	refute_output --partial "no counter"
	refute_output --partial "everything fits"
	assert_line --regexp '^  cpu_cycles +raw +cycle counter$'
	assert_equal "$(grep -c '^run [0-9]*:$' <<<"$output")" 3
	assert_equal "$(grep -c 'event counter$' <<<"$output")" 13
	assert_line --partial "--mux=runs would run the command 3 times"
	# without --counters: Arm's data for the core (PMCR_EL0.N 6 on Cortex-A57)
	run "$PMUPROF" stat --plan --mux=runs --cpu-model cortex-a57 -e "$A57_EVENTS,task-clock"
	assert_success
	assert_line --partial "cortex-a57: 6 general counters per Arm's data"
	assert_line "--mux=runs: the command runs 3 times, each run counting its own events exactly"
	assert_line --regexp '^  task-clock +software +no counter$'
}

@test "--mux=runs --cpu-model on a host without the core: every planned run is made, each event says its run" {
	[ -z "$(ls /sys/bus/event_source/devices/ | grep -i armv8)" ] || skip "this host has an Arm PMU"
	stat_json --mux=runs --cpu-model cortex-a57 --counters 6 -e "$A57_EVENTS,task-clock" -- true
	assert_equal "$status" 0
	assert_equal "$(jqr '[.events[].run] | join(",")')" "1,1,1,1,1,1,1,2,2,2,2,2,2,3,1"
	assert_equal "$(jqr '.mux.runs')" 3
	assert_equal "$(jqr '.events[14].status')" counted
}

@test "messages: the column points into the event list as shown, items whole" {
	run -2 --separate-stderr "$PMUPROF" stat --plan --cpu-model cortex-a57 -e "$A57_EVENTS,no_such_event,task-clock"
	[[ $stderr =~ column\ ([0-9]+)\ of\ \'([^\']*)\' ]] || fail "no column in: $stderr"
	col=${BASH_REMATCH[1]} shown=${BASH_REMATCH[2]}
	assert_equal "${shown:col-1:13}" no_such_event
	[[ $shown == ...* || $shown == inst_retired* ]] || fail "cut inside a name: $shown"
	# the items either side are whole names of the list
	first=${shown#...}
	first=${first%%,*}
	[[ ",$A57_EVENTS,no_such_event,task-clock," == *",$first,"* ]] || fail "'$first' is cut"
	run -2 --separate-stderr "$PMUPROF" stat -e "task-clock,cpu-clock,page-faults,cpu-migrations,context-switches,major-faults,minor-faults,alignment-faults,{task-clock,,}" -- true
	[[ $stderr =~ at\ column\ ([0-9]+)$ ]] || fail "no column in: $stderr"
	[[ $stderr =~ list\ \'([^\']*)\' ]]
	shown=${BASH_REMATCH[1]}
	col=$(sed -E 's/.*at column ([0-9]+)$/\1/' <<<"$stderr")
	assert_equal "${shown:col-2:2}" ",,"
}

@test "messages: the list of events that cannot be counted names whole errno names, then 'and N more'" {
	# PERF_TYPE_SOFTWARE has no config 990 to 1003 on any kernel: 14 events, each refused
	# (--cpu-model's Arm events are never opened on a host without that PMU)
	local e=software/config=990/ k
	for k in $(seq 991 1003); do e=$e,software/config=$k/; done
	run -2 --separate-stderr "$PMUPROF" stat -e "$e" -- true
	assert_regex "$stderr" "^pmuprof: cannot count any of the events here: 'software/config=990/' \([A-Z]+\), "
	assert_regex "$stderr" "\([A-Z]+\) and [0-9]+ more \(see 'pmuprof list' for what this machine has\)$"
	refute_regex "$stderr" "\([A-Z]+ \(see"
}
