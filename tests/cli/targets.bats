#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# perf's targets on this machine, with software events (which count for real here):
# -a and -C count every task on CPUs, -p and -t attach to running tasks; --timeout, -D,
# SIGINT and the tasks' end stop counting. Counts are checked against what the machine says
# (its online CPUs, the workload's own CPU time), never against a fixed CPU count.

load helpers

online() { getconf _NPROCESSORS_ONLN; }

# value / expected within [lo, hi] (awk: bats has no floating point)
# stderr of the last run holds this text, on its one line
has() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
	# one line, and the "Try ... --help" hint after a usage error
	local hint="^Try 'pmuprof stat --help' for more information\.$"
	(( $(printf '%s\n' "$stderr" | grep -vc "$hint") == 1 )) ||
		fail "more than one line: $stderr"
}

ratio_in() {
	awk -v v="$1" -v e="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { r = v / e; if (r < lo || r > hi) { print "ratio " r " not in [" lo ", " hi "]"; exit 1 } }'
}

@test "-a counts cpu-clock on every online CPU: the time elapsed times the CPUs" {
	run -0 "$PMUPROF" stat -a -j -o r.json -e cpu-clock -- sleep 0.3
	v=$(jq '.events[0].value' r.json)
	wall=$(jq '.time.wall_ns' r.json)
	ratio_in "$v" "$(( wall * $(online) ))" 0.97 1.03
	jq -e '.events[0].status == "counted"' r.json
}

@test "-C 0 counts cpu-clock on CPU 0 alone" {
	run -0 "$PMUPROF" stat -C 0 -j -o r.json -e cpu-clock -- sleep 0.2
	ratio_in "$(jq '.events[0].value' r.json)" "$(jq '.time.wall_ns' r.json)" 0.97 1.03
}

@test "-a without a command counts until --timeout, and exits 0" {
	run -0 "$PMUPROF" stat -a --timeout 200 -j -o r.json -e cpu-clock
	wall=$(jq '.time.wall_ns' r.json)
	(( wall >= 200000000 && wall < 2000000000 ))
	ratio_in "$(jq '.events[0].value' r.json)" "$(( wall * $(online) ))" 0.97 1.03
}

@test "-a with a command keeps the command's exit status" {
	run -3 "$PMUPROF" stat -a -e cpu-clock -- sh -c 'exit 3'
	assert_output --partial "cpu-clock"
}

@test "--timeout ends the command with SIGTERM and exits 0, as perf does" {
	run -0 "$PMUPROF" stat --timeout 100 -j -o r.json -e task-clock -- sleep 5
	wall=$(jq '.time.wall_ns' r.json)
	(( wall < 3000000000 ))
	jq -e '.exit.signal == 15' r.json
}

@test "SIGINT ends counting without a command: the report is written" {
	"$PMUPROF" stat -a -j -o r.json -e cpu-clock &
	pid=$!
	sleep 0.3
	kill -INT "$pid"
	wait "$pid"
	jq -e '.events[0].status == "counted" and .exit.interrupted == true' r.json
	ratio_in "$(jq '.events[0].value' r.json)" "$(( $(jq '.time.wall_ns' r.json) * $(online) ))" \
		0.97 1.03
}

@test "-p attaches to a running process: its page faults after attaching, exactly" {
	# the workload sleeps while pmuprof attaches, then touches 3000 fresh pages
	"$PPLOAD" sleep 1 600 touch 3000 &
	pid=$!
	sleep 0.1
	run -0 "$PMUPROF" stat -p "$pid" -j -o r.json -e page-faults,task-clock
	wait "$pid"
	v=$(jq '.events[0].value' r.json)
	# the touches, plus the few faults of its exit path
	(( v >= 3000 && v < 3100 ))
	# counting ended when the process did: well before the timeout a hang would need
	(( $(jq '.time.wall_ns' r.json) < 5000000000 ))
}

@test "-p counts every thread of the process" {
	"$PPLOAD" sleep 1 600 threads 3 150 &
	pid=$!
	sleep 0.1
	run -0 "$PMUPROF" stat -p "$pid" -j -o r.json -e task-clock
	wait "$pid"
	# three threads spinning 150 ms of CPU time each: 450 ms and a little more
	ratio_in "$(jq '.events[0].value' r.json)" 450000000 0.95 1.3
}

@test "-t follows one thread, and ends when it does" {
	"$PPLOAD" sleep 1 600 touch 2000 &
	pid=$!
	sleep 0.1
	run -0 "$PMUPROF" stat -t "$pid" -j -o r.json -e page-faults
	wait "$pid"
	v=$(jq '.events[0].value' r.json)
	(( v >= 2000 && v < 2100 ))
}

@test "-p with a command counts the process while the command runs" {
	"$PPLOAD" sleep 1 500 touch 2000 sleep 1 3000 &
	pid=$!
	sleep 0.02
	run -0 "$PMUPROF" stat -p "$pid" -j -o r.json -e page-faults -- sleep 1.2
	kill "$pid"
	v=$(jq '.events[0].value' r.json)
	(( v >= 2000 && v < 2100 ))
	jq -e '.time.wall_ns < 3000000000' r.json
}

@test "-D starts counting after the delay" {
	# 1,000 pages before the delay ends, 2,000 after it
	run -0 "$PMUPROF" stat -D 300 -j -o r.json -e page-faults -- \
		"$PPLOAD" touch 1000 sleep 1 600 touch 2000
	v=$(jq '.events[0].value' r.json)
	(( v >= 2000 && v < 2100 ))
}

@test "targets: bad input gets one line naming the way out, exit 2" {
	run -2 --separate-stderr "$PMUPROF" stat -C 1023 true
	[[ $stderr =~ ^pmuprof:\ -C:\ CPU\ 1023\ is\ not\ online\ \(this\ machine\'s\ online\ CPUs\ are\ [0-9,-]+\)$ ]] || fail "$stderr"
	run -2 --separate-stderr "$PMUPROF" stat -C 1-x true
	has "-C takes a list of CPUs such as 0-3,6, not '1-x'"
	run -2 --separate-stderr "$PMUPROF" stat -p 0x12 true
	has "-p takes a list of process ids"
	pid=$(sh -c 'echo $$')
	run -2 --separate-stderr "$PMUPROF" stat -p "$pid" true
	has "-p: no process $pid on this machine"
	run -2 --separate-stderr "$PMUPROF" stat -A true
	has "-A splits the counts by CPU: it needs -a or -C"
	run -2 --separate-stderr "$PMUPROF" stat --per-core true
	has "--per-core splits the counts by CPU: it needs -a or -C"
	run -2 --separate-stderr "$PMUPROF" stat --per-thread true
	has "--per-thread splits the counts by thread: it needs -p, -t or -a"
	run -2 --separate-stderr "$PMUPROF" stat -a -p 1 true
	has "-a counts CPUs and -p tasks: give one of them"
	run -2 --separate-stderr "$PMUPROF" stat -a -r 3
	has "-r repeats a command"
	run -2 --separate-stderr "$PMUPROF" stat -a --mux=runs
	has "--mux=runs counts each planned group in a run of the command"
	run -2 --separate-stderr "$PMUPROF" stat -A --per-socket -a true
	has "-A and --per-socket both choose how counts are aggregated"
	run -2 --separate-stderr "$PMUPROF" stat
	has "no command to run"
}

@test "-a -o: a failing target leaves no report file" {
	run -2 "$PMUPROF" stat -a -e no_such_event -o r.json true
	[ ! -e r.json ]
}

@test "-a -A: a row per online CPU, each CPU's cpu-clock its elapsed time; the rows add up to the total" {
	run -0 "$PMUPROF" stat -a -A -j -o r.json -e cpu-clock -- sleep 0.2
	jq -e --argjson n "$(online)" '.aggregation == "cpu" and (.events[0].units | length) == $n' r.json
	wall=$(jq '.time.wall_ns' r.json)
	for v in $(jq '.events[0].units[].value' r.json); do ratio_in "$v" "$wall" 0.97 1.03; done
	jq -e '([.events[0].units[].value] | add) - .events[0].value | fabs < 1' r.json
	run -0 "$PMUPROF" stat -a -A -x, -e cpu-clock -- sleep 0.1
	(( $(grep -c '^CPU[0-9]*,' <<<"$output") == $(online) ))
}

@test "--per-socket, --per-core, --per-die, --per-node: units from this machine's topology" {
	sockets=$(lscpu -p=SOCKET | grep -v '^#' | sort -u | wc -l)
	cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
	run -0 "$PMUPROF" stat -a --per-socket -j -o s.json -e cpu-clock -- true
	jq -e --argjson n "$sockets" '(.events[0].units | length) == $n' s.json
	jq -e --argjson n "$(online)" '([.events[0].units[].ncpus] | add) == $n' s.json
	run -0 "$PMUPROF" stat -a --per-core -j -o c.json -e cpu-clock -- true
	jq -e --argjson n "$cores" '(.events[0].units | length) == $n' c.json
	jq -e '.events[0].units | all(.unit | test("^S[0-9]+-D[0-9]+-C[0-9]+$"))' c.json
	run -0 "$PMUPROF" stat -a --per-die -x, -e cpu-clock -- true
	[[ $output =~ ^S[0-9]+-D[0-9]+,[0-9]+, ]]
	run -0 "$PMUPROF" stat -a --per-node -j -o n.json -e cpu-clock -- true
	jq -e '.aggregation == "node" and (.events[0].units[0].unit | test("^N[0-9]+$"))' n.json
}

@test "a fixture tree's CPUs: -C names its online ones; nothing is opened on them" {
	# the tree's PMU is never opened; software events count on this machine's CPUs, so
	# only the topology reading is the tree's: a fixture cannot list this machine's CPUs
	run -2 --separate-stderr env PMUPROF_SYSFS_ROOT="$FIXTURES/n1-2s" "$PMUPROF" stat -C 6 \
		-e task-clock true
	has "-C: CPU 6 is not online"
	# and nothing is opened on a fixture's CPUs, software events included: each says why
	run -0 env PMUPROF_SYSFS_ROOT="$FIXTURES/n1-2s" "$PMUPROF" stat -a --per-socket -j -o r.json \
		-e task-clock,inst_retired true
	jq -e '[.events[] | .status == "not counted"] | all' r.json
	jq -e '.events[0].reason | test("its CPUs come from the fixture tree")' r.json
	jq -e '.events[1].reason | test("its PMU comes from the fixture tree")' r.json
}

@test "-p --per-thread: a row per thread, named comm-tid" {
	"$PPLOAD" sleep 1 600 spin 50 &
	pid=$!
	sleep 0.1
	run -0 "$PMUPROF" stat -p "$pid" --per-thread -j -o r.json -e task-clock
	wait "$pid"
	jq -e --arg u "ppload-$pid" '.aggregation == "thread" and .events[0].units[0].unit == $u and
		.events[0].units[0].thread == ($u | ltrimstr("ppload-") | tonumber)' r.json
}

@test "-a -I: each interval's per-CPU cells add up to its total" {
	run -0 "$PMUPROF" stat -a -A -I 100 -j -o r.json -e cpu-clock -- sleep 0.35
	jq -e '.intervals | length >= 3' r.json
	jq -e '[.intervals[] | .events[0] | (([.units[].value] | add) - .value | fabs) < 1] | all' r.json
}
