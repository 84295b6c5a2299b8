#!/usr/bin/env bats
# Resources and signals: many events against RLIMIT_NOFILE, a 256-thread workload, a closed
# report stream, SIGINT and SIGTERM during a run.
load helpers

many_events() {
	local e= i
	for i in $(seq 1 "$1"); do e="$e${e:+,}task-clock"; done
	echo "$e"
}

@test "300 events raise a low soft RLIMIT_NOFILE up to what they need" {
	run bash -c "ulimit -Sn 64; '$PMUPROF' stat -x, -e '$(many_events 300)' -o many.csv -- '$PPLOAD' spin 5"
	assert_success
	assert_equal "$(wc -l < many.csv)" 300
	assert_equal "$(grep -c ',msec,task-clock,' many.csv)" 300
}

@test "beyond the hard RLIMIT_NOFILE: one clear line, exit 2, the workload not run" {
	run bash -c "ulimit -n 64; '$PMUPROF' stat -e '$(many_events 300)' -- touch ran"
	assert_failure 2
	assert_output "pmuprof: cannot open 300 counters: the hard limit on open files is 64, 332 are needed (as root, 'ulimit -Hn 332' raises it; or count fewer events)"
	[ ! -e ran ]
}

@test "a 256-thread workload is counted with all its threads (inherit)" {
	stat_json -e task-clock,context-switches -- "$PPLOAD" threads 256 4
	assert_success
	# 256 x 4 ms spun: every thread counted (at least 85% of it), none twice (under twice
	# it: creating and joining the threads adds CPU time of its own, half as much again
	# under AddressSanitizer on a loaded host)
	awk -v v="$(jqr '.events[0].value')" 'BEGIN { exit !(v >= 0.85 * 1024000000 && v < 2 * 1024000000) }' ||
		fail "task-clock $(jqr '.events[0].value') is not between 85% and twice 1,024,000,000 ns"
}

@test "a closed report stream does not lose the workload's exit status" {
	# head -c 0 exits at once: the report is written into a pipe nobody reads
	{
		st=0
		"$PMUPROF" stat -e task-clock -- "$PPLOAD" sleep 1 200 exit 3 || st=$?
		echo "$st" > rc
	} 2>&1 | head -c 0
	assert_equal "$(cat rc)" 3
}

# A shell without job control starts background commands with SIGINT ignored, and exec keeps
# that: env --default-signal gives pmuprof and its workload SIGINT as a terminal would.
@test "SIGINT during a run reaches the workload; the report is written and marked interrupted" {
	env --default-signal=INT "$PMUPROF" stat -j -o r.json -e task-clock -- "$PPLOAD" sleep 50 100 &
	pid=$!
	sleep 0.5
	kill -INT "$pid"
	wait "$pid" || st=$?
	assert_equal "${st:-0}" 130
	jq -e '.exit.interrupted == true and .exit.signal == 2 and .exit.signal_name == "SIGINT"
	       and .events[0].status == "counted"' r.json
	check_report r.json
}

@test "SIGTERM during a run likewise" {
	env --default-signal=TERM "$PMUPROF" stat -j -o r.json -e task-clock -- "$PPLOAD" sleep 50 100 &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid" || st=$?
	assert_equal "${st:-0}" 143
	jq -e '.exit.interrupted == true and .exit.signal_name == "SIGTERM"' r.json
}
