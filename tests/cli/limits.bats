#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
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

# Runs bash -c SCRIPT with no descriptor open but 0, 1 and 2 (bats keeps a few open): what
# pmuprof counts as in use is then known.
bare_bash() {
	bash -c 'for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
		'"$1"
}

@test "beyond the hard RLIMIT_NOFILE: one clear line, exit 2, the workload not run" {
	# 300 counters, the 3 descriptors open, and 10 pmuprof opens during a run
	run bare_bash "ulimit -n 64; '$PMUPROF' stat -e '$(many_events 300)' -- touch ran"
	assert_failure 2
	assert_output "pmuprof: cannot open 300 counters: the hard limit on open files is 64, 313 are needed (as root, 'ulimit -Hn 313' raises it; or count fewer events)"
	[ ! -e ran ]
}

@test "one event under a hard limit of 20 open files counts, as perf's does" {
	run bash -c "ulimit -n 20; '$PMUPROF' stat -x, -e task-clock -- '$PPLOAD' spin 5"
	assert_success
	assert_line --regexp '^[0-9]+\.[0-9]{2},msec,task-clock,[1-9][0-9]*,100\.00,'
	# everything a run can open at once: -o, -I, --timeout, -D (a held command), 13 counters
	run bare_bash "ulimit -n 26; '$PMUPROF' stat -x, -o out.csv -I 50 --timeout 2000 -D 1 \
		-e '$(many_events 13)' -- '$PPLOAD' spin 150"
	assert_success
	[ "$(grep -c ',msec,task-clock,' out.csv)" -gt 13 ] || fail "$(cat out.csv)"
}

@test "the command runs under the caller's RLIMIT_NOFILE, whatever pmuprof raised its own to" {
	# 1 event: nothing raised; 40: the soft limit raised to 53, the command's still 20; by
	# vfork (the plain run), by a held fork (-I, --timeout), for a warm-up and --prepare
	run bash -c "ulimit -Sn 20; '$PMUPROF' stat -q -e task-clock -- sh -c 'ulimit -Sn'"
	assert_success
	assert_output 20
	run bash -c "ulimit -Sn 20; '$PMUPROF' stat -q -e '$(many_events 40)' -- sh -c 'ulimit -Sn; ulimit -Hn'"
	assert_success
	assert_output "20
$(ulimit -Hn)"
	run bash -c "ulimit -Sn 20; '$PMUPROF' stat -q -I 1000 -e '$(many_events 40)' -- sh -c 'ulimit -Sn'"
	assert_output 20
	run bash -c "ulimit -Sn 20; '$PMUPROF' stat -q --timeout 5000 -e '$(many_events 40)' -- sh -c 'ulimit -Sn'"
	assert_output 20
	run bash -c "ulimit -Sn 20; '$PMUPROF' stat -q -r 2 --warmup 1 --prepare 'ulimit -Sn' -e '$(many_events 40)' -- sh -c 'ulimit -Sn'"
	assert_success
	assert_equal "$(tr '\n' ' ' <<<"$output")" "20 20 20 20 20 20 "
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
