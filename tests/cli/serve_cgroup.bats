#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# serve_cgroup.bats: pmuprof serve --for-each-cgroup on this machine's cgroup v2 hierarchy:
# a busy task's time in its cgroup's series, cgroups made and removed while serving (their
# series come and go, no descriptor is left behind), and the refusals of bad input. The test
# cgroups are made below the mount found in /proc/self/mountinfo and removed in teardown.
load helpers
load serve_helpers

# The cgroup v2 mount (mountinfo's fifth field of the cgroup2 line), or a skip.
cg_mount() {
	CGM=$(cgroup2_mount)
	[ -n "$CGM" ] || skip "no cgroup v2 hierarchy is mounted here"
	[ -w "$CGM" ] || skip "cannot make cgroups under $CGM (not root?)"
	# a unique prefix: other runs may make cgroups at the same time
	CGP="pptest_${BATS_ROOT_PID:-$$}_${BATS_TEST_NUMBER}"
}

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	cg_mount
	BUSY=
	SPID=
}

teardown() {
	local d p
	for p in ${SPID:-}; do kill -KILL "$p" 2>/dev/null || true; done
	for d in "$CGM/$CGP"*; do
		[ -d "$d" ] || continue
		# every task left in it (the busy loop's, whoever forked it), then the cgroup
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
		for _ in $(seq 20); do rmdir "$d" 2>/dev/null && break; sleep 0.05; done
	done
}

scrape() {
	curl -sS --max-time 5 -o "$1" "http://127.0.0.1:$PORT/metrics"
}

# The value of the series whose labels end with cgroup="$2" for event $1, in file $3.
cg_value() {
	awk -v k="{event=\"$1\"," -v c=",cgroup=\"$2\"} " \
		'index($0, "pmuprof_events_total" k) == 1 && index($0, c) { print $NF }' "$3"
}

# busy DIR: a shell spinning inside cgroup DIR for 20 s; BUSY is its pid.
busy() {
	sh -c 'echo $$ > "$1/cgroup.procs" && exec timeout 20 sh -c "while :; do :; done"' sh "$1" 3>&- &
	BUSY=$!
	for _ in $(seq 20); do
		grep -qx "$BUSY" "$1/cgroup.procs" && return 0
		sleep 0.05
	done
	fail "the busy loop did not enter $1"
}

@test "serve --for-each-cgroup: a busy loop's task-clock is ~1 CPU in its cgroup's series" {
	mkdir "$CGM/${CGP}_busy" "$CGM/${CGP}_idle"
	busy "$CGM/${CGP}_busy"
	serve_start -e task-clock,page-faults --for-each-cgroup "^${CGP}_"
	scrape a.txt
	t0=$(date +%s.%N)
	sleep 2
	scrape b.txt
	t1=$(date +%s.%N)
	# each cgroup gets the events' series, labelled with its path below the mount
	run grep -c "cgroup=\"${CGP}_busy\"" b.txt
	assert_output 6	# 2 events x (count, enabled, running)
	run grep -c "cgroup=\"${CGP}_idle\"" b.txt
	assert_output 6
	run grep -c 'cgroup="' b.txt
	assert_output 12
	# 2 events on every CPU, for the machine and for each of the 2 cgroups
	run awk '/^pmuprof_counters\{state="open"\} / { print $2 }' b.txt
	assert_output "$((2 * $(getconf _NPROCESSORS_ONLN) * 3))"
	a=$(cg_value task-clock "${CGP}_busy" a.txt)
	b=$(cg_value task-clock "${CGP}_busy" b.txt)
	[ -n "$a" ] || fail "no busy series: $(cat a.txt)"
	rate=$(awk -v a="$a" -v b="$b" -v t0="$t0" -v t1="$t1" 'BEGIN { print (b - a) / 1e9 / (t1 - t0) }')
	# one spinning task: one CPU, less what the machine's other work takes from it
	awk -v r="$rate" 'BEGIN { exit !(r > 0.6 && r < 1.05) }' || fail "busy cgroup at $rate CPUs"
	idle=$(cg_value task-clock "${CGP}_idle" b.txt)
	assert_equal "$idle" 0
	# the machine's series has no cgroup label and counts at least the busy loop
	all=$(awk '/^pmuprof_events_total\{event="task-clock",pmu="software",core="[^"]*"\} / { print $NF }' b.txt)
	awk -v a="$all" -v b="$b" 'BEGIN { exit !(a >= b) }' || fail "machine $all < cgroup $b"
}

@test "serve --cgroup-rescan: cgroups made and removed while serving, no descriptor leaked" {
	serve_start -e task-clock --for-each-cgroup "^${CGP}_" --cgroup-rescan 1
	scrape m.txt
	run grep -c 'cgroup="' m.txt
	assert_output 0
	base=$(ls /proc/"$SPID"/fd | wc -l)
	for i in 1 2 3 4; do
		mkdir "$CGM/${CGP}_c$i"
		sleep 1.1
		scrape m.txt
		run grep -c "cgroup=\"${CGP}_c$i\"" m.txt
		assert_output 3
		# its directory and a task-clock counter per CPU
		assert_equal "$(ls /proc/"$SPID"/fd | wc -l)" "$((base + 1 + $(getconf _NPROCESSORS_ONLN)))"
		rmdir "$CGM/${CGP}_c$i"
		sleep 1.1
		scrape m.txt
		run grep -c 'cgroup="' m.txt
		assert_output 0
		assert_equal "$(ls /proc/"$SPID"/fd | wc -l)" "$base"
	done
	# a scrape before the interval is up does not rescan
	mkdir "$CGM/${CGP}_late"
	scrape m.txt
	scrape m.txt
	run grep -c 'cgroup="' m.txt
	assert_output 0
	sleep 1.1
	scrape m.txt
	run grep -c "cgroup=\"${CGP}_late\"" m.txt
	assert_output 3
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
}

@test "serve --cgroup-rescan: a named cgroup removed goes stale, others and rescans go on" {
	mkdir "$CGM/${CGP}_a" "$CGM/${CGP}_b"
	serve_start -e task-clock --for-each-cgroup "${CGP}_a,${CGP}_b" --cgroup-rescan 1
	scrape m.txt
	run grep -c 'cgroup="' m.txt
	assert_output 6
	base=$(ls /proc/"$SPID"/fd | wc -l)
	rmdir "$CGM/${CGP}_a"
	sleep 1.1
	scrape m.txt
	# its series are dropped (Prometheus marks them stale), its counters and directory closed
	run grep -c "cgroup=\"${CGP}_a\"" m.txt
	assert_output 0
	run grep -c "cgroup=\"${CGP}_b\"" m.txt
	assert_output 3
	assert_equal "$(ls /proc/"$SPID"/fd | wc -l)" "$((base - 1 - $(getconf _NPROCESSORS_ONLN)))"
	run awk '/^pmuprof_counters\{state="open"\} / { print $2 }' m.txt
	assert_output "$(($(getconf _NPROCESSORS_ONLN) * 2))"
	# made again, it is a new cgroup: counted again from 0
	mkdir "$CGM/${CGP}_a"
	sleep 1.1
	scrape m.txt
	run grep -c "cgroup=\"${CGP}_a\"" m.txt
	assert_output 3
	assert_equal "$(cg_value task-clock "${CGP}_a" m.txt)" 0
	assert_equal "$(ls /proc/"$SPID"/fd | wc -l)" "$base"
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
	run cat serve.log
	assert_line --index 1 "pmuprof serve: stopping on SIGTERM"
}

@test "serve --for-each-cgroup: names without a pattern, and the root cgroup" {
	mkdir "$CGM/${CGP}_n"
	serve_start -e page-faults --for-each-cgroup ",${CGP}_n"
	scrape m.txt
	run grep -o 'cgroup="[^"]*"' m.txt
	assert_output "$(printf 'cgroup="%s"\n' / "${CGP}_n" / "${CGP}_n" / "${CGP}_n")"
}

@test "serve --for-each-cgroup: bad input is one line and exit 2" {
	run "$PMUPROF" serve --cgroup-rescan 5 --listen 127.0.0.1:0
	assert_failure 2
	assert_line --index 0 "pmuprof serve: --cgroup-rescan says how often the cgroups of --for-each-cgroup are matched again: give --for-each-cgroup too"
	run "$PMUPROF" serve --for-each-cgroup x --cgroup-rescan 0 --listen 127.0.0.1:0
	assert_failure 2
	assert_line --index 0 "pmuprof serve: --cgroup-rescan takes a whole number from 1 to 86400, not '0'"
	run "$PMUPROF" serve -e page-faults --for-each-cgroup 'a(' --listen 127.0.0.1:0
	assert_failure 2
	assert_output "pmuprof: cannot use --for-each-cgroup pattern 'a(': not an extended regular expression (see regex(7))"
	run "$PMUPROF" serve -e page-faults --for-each-cgroup "${CGP}_none" --listen 127.0.0.1:0
	assert_failure 2
	assert_output "pmuprof: cannot count in cgroup '${CGP}_none': no such cgroup under $CGM (give its path below that mount, or a pattern such as 'docker-.*')"
}
