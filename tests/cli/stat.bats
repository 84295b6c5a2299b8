#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat on this machine with software events (hardware events are not supported here).
load helpers

@test "task-clock of a busy loop is within 10% of its CPU time" {
	stat_json -e task-clock -- "$PPLOAD" spin 300
	assert_success
	tc=$(jqr '.events[0].value')
	cpu=$(jqr '.time.user_ns + .time.system_ns')
	within_pct "$tc" "$cpu" 10
	within_pct "$tc" 300000000 10
	assert_equal "$(jqr '.events[0].status')" counted
	assert_equal "$(jqr '.events[0].unit')" ns
}

@test "page-faults count at least one per touched page" {
	stat_json -e page-faults -- "$PPLOAD" touch 3000
	assert_success
	[ "$(jqr '.events[0].value')" -ge 3000 ] || fail "page-faults $(jqr '.events[0].value') < 3000"
}

@test "context-switches count at least one per sleep" {
	stat_json -e context-switches,cs -- "$PPLOAD" sleep 20 1
	assert_success
	[ "$(jqr '.events[0].value')" -ge 20 ] || fail "context-switches $(jqr '.events[0].value') < 20"
	assert_equal "$(jqr '.events[0].value')" "$(jqr '.events[1].value')"
}

@test "forked children are counted with the parent (inherit)" {
	stat_json -e task-clock -- "$PPLOAD" fork 4 100
	assert_success
	within_pct "$(jqr '.events[0].value')" 400000000 15
}

@test "threads are counted with the process" {
	stat_json -e task-clock -- "$PPLOAD" threads 3 100
	assert_success
	within_pct "$(jqr '.events[0].value')" 300000000 15
}

@test "pmuprof's own work is not counted: a tiny command counts a tiny task-clock" {
	stat_json -e task-clock,page-faults -- "$PPLOAD"
	assert_success
	[ "$(jqr '.events[0].value')" -lt 20000000 ] || fail "task-clock $(jqr '.events[0].value')"
}

@test "exit status passes through: 0 and 3" {
	run "$PMUPROF" stat -e task-clock -o r.txt -- "$PPLOAD" exit 0
	assert_success
	run "$PMUPROF" stat -e task-clock -o r.txt -- "$PPLOAD" exit 3
	assert_failure 3
	assert_output ""
	grep -q "exited with status 3" r.txt
}

@test "a workload killed by a signal exits 128+N and JSON names the signal" {
	stat_json -e task-clock -- "$PPLOAD" kill 9
	assert_failure 137
	assert_equal "$(jqr '.exit.signal')" 9
	assert_equal "$(jqr '.exit.signal_name')" SIGKILL
	assert_equal "$(jqr '.exit.status')" null
}

@test "a missing command exits 127 with one line" {
	run -127 "$PMUPROF" stat -e task-clock -- ./no-such-command
	assert_output "pmuprof: cannot run './no-such-command': command not found"
}

@test "a non-executable command exits 126 with one line" {
	echo 'echo hi' > script.sh
	chmod 644 script.sh
	run "$PMUPROF" stat -e task-clock -- ./script.sh
	assert_failure 126
	assert_output "pmuprof: cannot run './script.sh': Permission denied"
}

@test "arguments after the command belong to it" {
	run "$PMUPROF" stat -e task-clock -o r.txt ls --version
	assert_success
	assert_line --partial "ls (GNU coreutils)"
	grep -q "stats for 'ls --version'" r.txt
}

@test "JSON: schema fields, numbers as numbers, command and host" {
	stat_json -e task-clock,page-faults,cycles -- "$PPLOAD" spin 20
	assert_success
	assert_equal "$(jqr '.schema_version')" 1.8
	assert_equal "$(jqr '.command | join(" ")')" "$PPLOAD spin 20"
	assert_equal "$(jqr '.host.machine')" "$(uname -m)"
	assert_equal "$(jqr '.host.kernel_release')" "$(uname -r)"
	assert_equal "$(jqr '.events | length')" 3
	assert_equal "$(jqr '[.events[].name] | join(",")')" task-clock,page-faults,cycles
	assert_equal "$(jqr '.events[1].value | type')" number
	assert_equal "$(jqr '.events[1].raw_value | type')" number
	assert_equal "$(jqr '.events[1].time_enabled_ns > 0')" true
	assert_equal "$(jqr '.events[1].time_running_ns == .events[1].time_enabled_ns')" true
	assert_equal "$(jqr '.events[1].counted_pct')" 100
	assert_equal "$(jqr '.events[1].type')" 1
	assert_equal "$(jqr '.events[1].config')" 0x2
	assert_equal "$(jqr '.events[0].metric.unit')" "CPUs utilized"
	assert_equal "$(jqr '.time.wall_ns | type')" number
	assert_equal "$(jqr '.exit.status')" 0
	assert_equal "$(jqr '.exit.interrupted')" false
}

@test "hardware events here are <not supported>, not an error, and the rest count" {
	if "$PMUPROF" stat -e cycles -o /dev/null true 2>/dev/null; then
		skip "this machine has a hardware PMU: cycles can be counted"
	fi
	stat_json -e cycles,task-clock -- "$PPLOAD"
	assert_success
	assert_equal "$(jqr '.events[0].status')" "not supported"
	assert_equal "$(jqr '.events[0].value')" null
	assert_equal "$(jqr '.events[1].status')" counted
	run "$PMUPROF" stat -e cycles,task-clock -- "$PPLOAD"
	assert_success
	assert_line --regexp '^ +<not supported> +cycles$'
}

@test "nothing countable at all is an error, and the workload does not run" {
	if "$PMUPROF" stat -e cycles -o /dev/null true 2>/dev/null; then
		skip "this machine has a hardware PMU: cycles can be counted"
	fi
	run "$PMUPROF" stat -e cycles,instructions -- touch ran
	assert_failure 2
	assert_output --partial "cannot count any of the events here"
	[ ! -e ran ] || fail "the workload ran"
}

# An event every kernel refuses, whatever the host's PMU: software events stop below
# PERF_COUNT_SW_MAX (linux/perf_event.h), and perf_event_open gives ENOENT past it.
REFUSED=software/config=0x99/

@test "an event the kernel refuses is <not supported>, not an error, on any host" {
	stat_json -e "$REFUSED,task-clock" -- "$PPLOAD" spin 5
	assert_success
	assert_equal "$(jqr '.events[0] | [.status, .reason, .value] | map(tostring) | join(" ")')" \
		"not supported ENOENT null"
	assert_equal "$(jqr '.events[1].status')" counted
	run "$PMUPROF" stat -e "$REFUSED,task-clock" -- true
	assert_success
	assert_line --regexp '^ +<not supported> +software/config=0x99/$'
	run "$PMUPROF" stat -e "$REFUSED,software/config=0x98/" -- touch ran
	assert_failure 2
	assert_output --partial "cannot count any of the events here"
	[ ! -e ran ] || fail "the workload ran"
}

@test "CSV: perf's seven fields per event" {
	run "$PMUPROF" stat -x, -e "task-clock,page-faults,$REFUSED" -o r.csv -- "$PPLOAD" spin 10
	assert_success
	assert_equal "$(wc -l < r.csv)" 3
	awk -F, 'NF != 7 { print "line " NR " has " NF " fields"; bad = 1 } END { exit bad }' r.csv
	assert_equal "$(sed -n 1p r.csv | cut -d, -f2,3)" msec,task-clock
	assert_equal "$(sed -n 3p r.csv | cut -d, -f1,3)" "<not supported>,$REFUSED"
	run "$PMUPROF" stat -x ';' -e task-clock -o r2.csv -- "$PPLOAD"
	awk -F';' 'NF != 7 { exit 1 }' r2.csv
}

@test "CSV quotes a field that holds the separator" {
	run "$PMUPROF" stat -x, -e 'software/config=2,config1=0/' -o r.csv -- "$PPLOAD" touch 10
	assert_success
	run cat r.csv
	assert_output --regexp '^[0-9]+,,"software/config=2,config1=0/",[0-9]+,100\.00,,$'

}

@test "text: perf stat's shape" {
	run "$PMUPROF" stat -e task-clock,page-faults -o r.txt -- "$PPLOAD" touch 2000
	assert_success
	run cat r.txt
	assert_line --index 0 " Performance counter stats for '$PPLOAD touch 2000':"
	assert_line --regexp '^ +[0-9]+\.[0-9]{2} msec task-clock +# +[0-9.]+ CPUs utilized$'
	assert_line --regexp '^ +[0-9],[0-9]{3} +page-faults +# '
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} seconds time elapsed$'
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} seconds user$'
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} seconds sys$'
}

@test "the report goes to stderr by default, leaving the workload's stdout alone" {
	run --separate-stderr "$PMUPROF" stat -e task-clock -- echo hello
	assert_success
	assert_output hello
	[[ $stderr == *"Performance counter stats for 'echo hello'"* ]] || fail "stderr: $stderr"
}

@test "default events are perf stat's set" {
	stat_json -- "$PPLOAD"
	assert_equal "$(jqr '[.events[].name] | join(",")')" \
		task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses
}

@test "names are case-insensitive; -e repeats and lists combine" {
	stat_json -e TASK-CLOCK -e Page-Faults,CS -- "$PPLOAD"
	assert_success
	assert_equal "$(jqr '[.events[] | .status] | unique | join(",")')" counted
	assert_equal "$(jqr '.events | length')" 3
}

@test "modifiers :u :k set the exclude flags" {
	stat_json -e task-clock:u,page-faults:k,cs:uk -- "$PPLOAD" touch 10
	assert_success
	assert_equal "$(jqr '.events[0].exclude | [.user,.kernel,.hv] | join(",")')" false,true,true
	assert_equal "$(jqr '.events[1].exclude | [.user,.kernel,.hv] | join(",")')" true,false,true
	assert_equal "$(jqr '.events[2].exclude | [.user,.kernel,.hv] | join(",")')" false,false,true
}

@test "raw codes and PMU terms resolve through sysfs" {
	stat_json -e 'software/config=2/,r1a' -- "$PPLOAD" touch 100
	assert_equal "$(jqr '.events[0].type')" 1
	assert_equal "$(jqr '.events[0].pmu')" software
	[ "$(jqr '.events[0].value')" -ge 100 ]
	assert_equal "$(jqr '.events[1].type')" 4
	assert_equal "$(jqr '.events[1].config')" 0x1a
}

@test "an unknown event names itself, its column and the closest names" {
	run "$PMUPROF" stat -e task-clock,page-fualts -- true
	assert_failure 2
	assert_output "pmuprof: cannot use event 'page-fualts' (column 12 of 'task-clock,page-fualts'): no such event (did you mean 'page-faults'?)"
}

@test "a malformed list names the column" {
	run "$PMUPROF" stat -e 'task-clock,,cs' -- true
	assert_failure 2
	assert_output "pmuprof: cannot parse event list 'task-clock,,cs': empty event name at column 12"
	run "$PMUPROF" stat -e '{task-clock,cs' -- true
	assert_failure 2
	assert_output --partial "unbalanced '{'"
}

@test "an unknown PMU term is an error naming the PMU" {
	run "$PMUPROF" stat -e 'software/confgi=2/' -- true
	assert_failure 2
	assert_output --partial "unknown term 'confgi' for PMU 'software'"
}

@test "-o writes the report atomically and a failed run leaves the old file intact" {
	echo "old report" > keep.json
	run "$PMUPROF" stat --json -o keep.json -e no-such-event -- "$PPLOAD"
	assert_failure 2
	assert_equal "$(cat keep.json)" "old report"
	run -127 "$PMUPROF" stat --json -o keep.json -e task-clock -- ./missing-command
	assert_equal "$(cat keep.json)" "old report"
	[ -z "$(ls -A | grep -v keep.json)" ] || fail "left behind: $(ls -A)"
	run "$PMUPROF" stat --json -o keep.json -e task-clock -- "$PPLOAD"
	assert_success
	jq -e '.events[0].status == "counted"' keep.json
}

@test "-o to an unwritable place fails before the workload runs" {
	run "$PMUPROF" stat -o /nonexistent-dir/r.json -e task-clock -- touch ran
	assert_failure 2
	assert_output --partial "cannot write report file '/nonexistent-dir/r.json'"
	[ ! -e ran ]
}

@test "no command, and --json with -x, are usage errors" {
	run "$PMUPROF" stat -e task-clock
	assert_failure 2
	assert_output --partial "no command to run"
	run "$PMUPROF" stat --json -x, true
	assert_failure 2
	assert_output --partial "give one of them"
}

@test "--help, stat --help and --version" {
	run "$PMUPROF" --help
	assert_success
	assert_output --partial "stat"
	run "$PMUPROF" stat --help
	assert_success
	assert_output --partial "--event=LIST"
	run "$PMUPROF" --version
	assert_success
	assert_output --regexp '^pmuprof [0-9]+\.[0-9]+\.[0-9]+$'
	run "$PMUPROF" frobnicate
	assert_failure 2
	assert_output --partial "'frobnicate' is not a pmuprof command"
}

@test "groups: braces open members under their leader" {
	stat_json -e '{task-clock,page-faults},cs' -- "$PPLOAD" touch 10
	assert_success
	assert_equal "$(jqr '[.events[].group] | map(tostring) | join(",")')" 0,0,null
	assert_equal "$(jqr '[.events[].status] | unique | join(",")')" counted
}

@test "unprivileged, perf_event_paranoid 2: user space is counted and the setting is named" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a command as user nobody"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ] || skip "perf_event_paranoid is not 2 here"
	dir=$(mktemp -d /tmp/pmuprof-nobody.XXXXXX)
	chmod 777 "$dir"
	run su nobody -s /bin/sh -c "'$PMUPROF' stat --json -o '$dir/u.json' -e task-clock,cs:k -- '$PPLOAD' spin 10"
	mv "$dir/u.json" u.json
	rmdir "$dir"
	assert_success
	assert_line --index 0 --partial "warning: counting user space only: kernel.perf_event_paranoid is 2"
	assert_line --index 1 --partial "not permitted to count 'cs:k': kernel.perf_event_paranoid is 2"
	jq -e '.events[0].name == "task-clock:u" and .events[0].status == "counted"
	       and .events[0].exclude.user == false and .events[0].exclude.kernel == true' u.json
	jq -e '.events[1].status == "not permitted" and .events[1].reason == "EACCES"' u.json
}

@test "modifiers written as terms: PMU/...,user/ is :u, kernel,hv is :kh" {
	stat_json -e 'software/config=1,user/,software/config=1,kernel,hv/,task-clock:u' -- "$PPLOAD" spin 5
	assert_success
	assert_equal "$(jqr '.events[0].exclude | [.user,.kernel,.hv] | join(",")')" false,true,true
	assert_equal "$(jqr '.events[1].exclude | [.user,.kernel,.hv] | join(",")')" true,false,false
	assert_equal "$(jqr '.events[0].exclude')" "$(jqr '.events[2].exclude')"
	run "$PMUPROF" stat -e 'software/config=1,user=2/' -- true
	assert_failure 2
	assert_output --partial "modifier term 'user' takes no value (or 1), not '2'"
}

@test "a modifier term and filter-bit terms on one event are refused, as with :u" {
	run "$PMUPROF" stat --cpu-model a57 -e 'inst_retired/p=1,user/' -- true
	assert_failure 2
	assert_output --partial "cannot count event 'inst_retired/p=1,user/'"
}

