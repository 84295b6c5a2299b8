#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# -G and --for-each-cgroup on this machine's cgroup v2 hierarchy: two child cgroups made for
# each test (removed again, whatever the result), a busy command moved into one, software
# events counted per cgroup with -a, and compared with perf stat -a -G on the same setup.

load helpers

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	[ -x "$PPLOAD" ] || fail "the test workload is not built ($PPLOAD): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	MNT=$(cgroup2_mount)
	[ -n "$MNT" ] || skip "no cgroup v2 hierarchy is mounted"
	[ "$(id -u)" = 0 ] || skip "making cgroups needs root"
	grep -qw perf_event /proc/cgroups || skip "the kernel has no perf_event cgroup controller"
	PFX=pmuprof-bats-$$
	BUSY=$PFX-busy
	IDLE=$PFX-idle
	mkdir "$MNT/$BUSY" "$MNT/$IDLE" || skip "cannot make a cgroup under $MNT"
}

# The cgroups go, even when the test failed: their tasks back to the root cgroup first.
teardown() {
	local cg pid
	for cg in "${BUSY:-}" "${IDLE:-}"; do
		[ -n "$cg" ] && [ -d "$MNT/$cg" ] || continue
		while read -r pid; do
			echo "$pid" >"$MNT/cgroup.procs" 2>/dev/null || true
		done <"$MNT/$cg/cgroup.procs"
		find "$MNT/$cg" -depth -type d -exec rmdir {} + || true
	done
	check_left_reports
}

# A command that moves itself into cgroup $1, then runs ppload with the rest.
in_cgroup() {
	local cg=$1
	shift
	printf 'echo $$ >%q/%q/cgroup.procs && exec %q %s' "$MNT" "$cg" "$PPLOAD" "$*"
}

ratio_in() {
	awk -v v="$1" -v e="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { r = v / e; if (r < lo || r > hi) { print "ratio " r " not in [" lo ", " hi "]"; exit 1 } }'
}

# stderr holds this text on one line (and argp's hint after a usage error)
one_line() {
	[[ $stderr == *"$1"* ]] || fail "stderr lacks '$1': $stderr"
	local hint="^Try 'pmuprof stat --help' for more information\.$"
	(( $(printf '%s\n' "$stderr" | grep -vc "$hint") == 1 )) || fail "more than one line: $stderr"
}

@test "-a -G: a busy command's task-clock in its cgroup, nothing in an idle one" {
	run -0 "$PMUPROF" stat -a -j -o r.json -e task-clock,task-clock,context-switches \
		-G "$BUSY,$IDLE,$BUSY" -- sh -c "$(in_cgroup "$BUSY" spin 400 sleep 20 5)"
	assert_equal "$(jq -r '[.events[].cgroup] | join(" ")' r.json)" "$BUSY $IDLE $BUSY"
	assert_equal "$(jq -r '.events[0].status' r.json)" counted
	# 400 ms of CPU in the cgroup: the spin, and the shell before its exec
	ratio_in "$(jq '.events[0].value' r.json)" 400e6 0.97 1.20
	# the idle cgroup had no task on any CPU: nothing counted there
	assert_equal "$(jq -r '.events[1].raw_value // 0' r.json)" 0
	# ppload's 20 sleeps are 20 context switches in the cgroup (more when other work on
	# this shared machine preempts the spin)
	cs=$(jq '.events[2].value' r.json)
	(( cs >= 20 )) || fail "context-switches in the cgroup: $cs"
}

@test "-G with one cgroup gives it to every event before it, none to those after it" {
	run -0 "$PMUPROF" stat -a -j -o r.json -e task-clock -e context-switches -G "$BUSY" \
		-e page-faults -- sh -c "$(in_cgroup "$BUSY" spin 100)"
	assert_equal "$(jq -c '[.events[].cgroup]' r.json)" "[\"$BUSY\",\"$BUSY\",null]"
	ratio_in "$(jq '.events[0].value' r.json)" 100e6 0.95 1.5
	# an empty name leaves its event counting every task
	run -0 "$PMUPROF" stat -a -x, -e task-clock,page-faults -G ",$IDLE" -- true
	assert_line --index 0 --regexp '^[0-9.]+,msec,task-clock,,'
	assert_line --index 1 --regexp "^<not counted>,,page-faults,$IDLE,0,"
}

@test "-a -G counts what perf stat -a -G counts" {
	need_perf
	cmd=$(in_cgroup "$BUSY" spin 300)
	run -0 --separate-stderr perf stat -a -x, -e task-clock -G "$BUSY" -- sh -c "$cmd"
	perf_v=$(printf '%s\n' "$stderr" | awk -F, '$3 == "task-clock" { print $1 * 1e6 }')
	assert_equal "$(printf '%s\n' "$stderr" | awk -F, '$3 == "task-clock" { print $4 }')" "$BUSY"
	run -0 "$PMUPROF" stat -a -j -o r.json -e task-clock -G "$BUSY" -- sh -c "$cmd"
	ratio_in "$(jq '.events[0].value' r.json)" "$perf_v" 0.90 1.10
}

@test "--for-each-cgroup: each event in each matching cgroup, in text, CSV and JSON" {
	cmd=$(in_cgroup "$BUSY" spin 200)
	run -0 "$PMUPROF" stat -a -j -o r.json -e task-clock,context-switches \
		--for-each-cgroup "^$PFX-" -- sh -c "$cmd"
	# cgroup by cgroup, sorted by path, every event in each
	assert_equal "$(jq -c '[.events[] | [.name, .cgroup]]' r.json)" \
		"[[\"task-clock\",\"$BUSY\"],[\"context-switches\",\"$BUSY\"],[\"task-clock\",\"$IDLE\"],[\"context-switches\",\"$IDLE\"]]"
	ratio_in "$(jq '.events[0].value' r.json)" 200e6 0.95 1.5
	assert_equal "$(jq -r '.events[2].raw_value // 0' r.json)" 0
	# CSV: the cgroup after the event's name, as perf -x prints it
	run -0 "$PMUPROF" stat -a -x, -e task-clock --for-each-cgroup "$BUSY,$IDLE" -- true
	assert_line --index 0 --regexp "^[^,]*,msec,task-clock,$BUSY,"
	assert_line --index 1 --regexp "^[^,]*,msec,task-clock,$IDLE,"
	# text: the cgroup after the name
	run -0 "$PMUPROF" stat -a -e task-clock --for-each-cgroup "$IDLE" -- true
	assert_line --regexp "^ +<not counted> msec task-clock +$IDLE\$"
}

@test "--for-each-cgroup: the exports tell the cgroups apart (OpenMetrics label, names, column)" {
	cmd=$(in_cgroup "$BUSY" spin 100)
	run -0 "$PMUPROF" stat -a -q -e task-clock,page-faults --for-each-cgroup "^$PFX-" \
		--export openmetrics:om.txt --export bmf:b.json --export github-benchmark:g.json \
		--export markdown:m.md -I 50 --export openmetrics:om-total.txt -- sh -c "$cmd"
	# each series once, the busy cgroup's counted, labelled with its cgroup
	run -0 om_check om.txt
	assert_line "pmuprof_event_value{cgroup=$BUSY,event=task-clock,pmu=software} ${lines[0]##* }"
	run grep -c "cgroup=$IDLE,event=task-clock" <(om_check om.txt)
	assert_output 4	# -I's three counters of the counts so far, and its running ratio
	run -0 sh -c 'grep -v "^#" om.txt | sed "s/} .*/}/" | sort | uniq -d'
	assert_output ''
	run -0 om_check om-total.txt
	assert_line --regexp "^pmuprof_events_total\{cgroup=$BUSY,event=task-clock,pmu=software\} [0-9.e+]+\$"
	assert_line --regexp "^pmuprof_events_total\{cgroup=$IDLE,event=task-clock,pmu=software\} 0(\.0)?\$"
	# the exports that key by name: the cgroup in the name
	assert_equal "$(jq -r '.[] | keys[]' b.json | grep -c "(cgroup $BUSY)")" 2
	assert_equal "$(jq -r '.[].name' g.json | sort -u | wc -l)" "$(jq length g.json)"
	jq -e --arg n "task-clock (cgroup $BUSY)" 'any(.[]; .name == $n)' g.json >/dev/null ||
		fail "no github-benchmark entry for the busy cgroup: $(cat g.json)"
	# markdown: a cgroup column
	run -0 head -1 m.md
	assert_output '| event | cgroup | value | unit | ± | counted | metric |'
	grep -q "^| task-clock | $BUSY | [0-9]" m.md || fail "$(cat m.md)"
}

@test "--for-each-cgroup matches paths below the mount, with perf's CSV layout" {
	need_perf
	mkdir "$MNT/$BUSY/inner"
	run -0 --separate-stderr "$PMUPROF" stat -a -x, -e task-clock --for-each-cgroup "^$PFX-busy" -- true
	mine=$(printf '%s\n' "$stderr" | cut -d, -f3,4 | sort)
	run -0 --separate-stderr perf stat -a -x, -e task-clock --for-each-cgroup "^$PFX-busy" -- true
	assert_equal "$mine" "$(printf '%s\n' "$stderr" | cut -d, -f3,4 | sort)"
	assert_equal "$mine" "task-clock,$BUSY"$'\n'"task-clock,$BUSY/inner"
	rmdir "$MNT/$BUSY/inner"
}

@test "bad cgroup input: one line, the way out, status 2" {
	run -2 --separate-stderr "$PMUPROF" stat -a -e task-clock -G "$PFX-nosuch" -- true
	one_line "cannot count in cgroup '$PFX-nosuch': no such cgroup under $MNT"
	run -2 --separate-stderr "$PMUPROF" stat -e task-clock -G "$BUSY" -- true
	one_line "-G counts the tasks of a cgroup on each CPU: it needs -a (or -C LIST)"
	run -2 --separate-stderr "$PMUPROF" stat -a -G "$BUSY" -e task-clock -- true
	one_line "-G gives a cgroup to each event named before it: give the events first"
	run -2 --separate-stderr "$PMUPROF" stat -a -e task-clock -G "$BUSY,$IDLE" -- true
	one_line "cannot give cgroup '$IDLE' an event: -G gives its cgroups in order"
	run -2 --separate-stderr "$PMUPROF" stat -a -e task-clock --for-each-cgroup "$PFX-[" -- true
	one_line "cannot use --for-each-cgroup pattern '$PFX-[': not an extended regular expression"
	run -2 --separate-stderr "$PMUPROF" stat -a -e task-clock --for-each-cgroup "^$PFX-zz.*" -- true
	one_line "no cgroup under $MNT matches '^$PFX-zz.*'"
	run -2 --separate-stderr "$PMUPROF" stat -e task-clock --for-each-cgroup "$BUSY" -- true
	one_line "--for-each-cgroup counts the tasks of a cgroup on each CPU: it needs -a"
	run -2 --separate-stderr "$PMUPROF" stat -a -e task-clock -G "$BUSY" --for-each-cgroup "$BUSY" -- true
	one_line "-G and --for-each-cgroup both choose the cgroups: give one of them"
	# a metric's events are not named on the command line: -M alone leaves -G none
	run -2 --separate-stderr "$PMUPROF" stat -a -M ipc -G "$BUSY" -- true
	one_line "-G gives a cgroup to each event named before it: give the events first"
	# perf 6.1 refuses it too, while it parses the options (whatever the metric)
	need_perf
	run --separate-stderr perf stat -a -M ipc -G "$BUSY" -- true
	assert_failure
	[[ $stderr == "must define events before cgroups"* ]] || fail "perf: $stderr"
}

@test "-I: each interval's events name their cgroup; pmuprof report prints the column again" {
	run -0 "$PMUPROF" stat -a -I 100 -j -o r.json -e task-clock,page-faults -G "$BUSY,$IDLE" \
		-- sh -c "$(in_cgroup "$BUSY" spin 300)"
	assert_equal "$(jq -r '[.intervals[0].events[].cgroup] | join(" ")' r.json)" "$BUSY $IDLE"
	# the intervals add up to the total, in the cgroup too
	sum=$(jq '[.intervals[].events[0].raw_value] | add' r.json)
	assert_equal "$sum" "$(jq '.events[0].raw_value' r.json)"
	run -0 --separate-stderr "$PMUPROF" report r.json
	assert_line --regexp "^ +[0-9.]+ msec task-clock +$BUSY +#"
	assert_line --regexp "^ +<not counted> +page-faults +$IDLE\$"
}

@test "-G: a cgroup the command removes keeps the command's status; -r stops there" {
	# removed during the only run: its counters, open already, count nothing more
	run -3 --separate-stderr "$PMUPROF" stat -a -j -o r.json -e task-clock -G "$IDLE" \
		-- sh -c "rmdir '$MNT/$IDLE'; exit 3"
	assert_equal "$stderr" ""
	assert_equal "$(jq -r '.events[0].cgroup' r.json)" "$IDLE"
	assert_equal "$(jq -r '.exit.status' r.json)" 3
	# removed in run 1 of 3: run 2 cannot count there, so the series is run 1
	mkdir "$MNT/$IDLE"
	run -0 --separate-stderr "$PMUPROF" stat -a -r 3 -j -o r.json -e task-clock -G "$IDLE" \
		-- sh -c "rmdir '$MNT/$IDLE' 2>/dev/null; exit 0"
	assert_equal "$stderr" "pmuprof: cgroup '$IDLE' was removed after recorded run 1: stopping after 1 recorded run"
	assert_equal "$(jq -c '[.repeat.runs, .repeat.requested, .repeat.stopped]' r.json)" \
		"[1,3,\"cgroup '$IDLE' was removed after recorded run 1\"]"
	# with other cgroups beside it, and the text report
	mkdir "$MNT/$IDLE"
	run -0 "$PMUPROF" stat -a -r 3 -e task-clock --for-each-cgroup "$BUSY,$IDLE" \
		-- sh -c "rmdir '$MNT/$IDLE' 2>/dev/null; exit 0"
	assert_line --index 0 "pmuprof: cgroup '$IDLE' was removed after recorded run 1: stopping after 1 recorded run"
	assert_line " The series stopped early: cgroup '$IDLE' was removed after recorded run 1 (1 of 3 runs recorded)."
	# removed before any run could open its counters: pmuprof's error
	mkdir "$MNT/$IDLE"
	run -2 --separate-stderr "$PMUPROF" stat -a -r 2 --prepare "rmdir '$MNT/$IDLE'" -e task-clock \
		-G "$IDLE" -- true
	one_line "cannot count in cgroup '$IDLE': it was removed before its counters were opened"
}

@test "pmuprof diff of two --for-each-cgroup reports matches each cgroup's events" {
	"$PMUPROF" stat -a -j -o a.json -e task-clock --for-each-cgroup "$BUSY,$IDLE" \
		-- sh -c "$(in_cgroup "$BUSY" spin 100)"
	# the root cgroup sorts first: matched by place, it would stand against the busy one
	"$PMUPROF" stat -a -j -o b.json -e task-clock --for-each-cgroup ",$BUSY" \
		-- sh -c "$(in_cgroup "$BUSY" spin 300)"
	run "$PMUPROF" diff -f json a.json b.json
	assert_failure 1
	printf '%s\n' "$output" >d.json
	# the busy cgroup's three times as long is its own regression
	assert_equal "$(jq -c '[.events[] | [.cgroup, .verdict, .note]]' d.json)" \
		"[[\"$BUSY\",\"regression\",null],[\"$IDLE\",\"not compared\",\"only in BASE\"],[\"/\",\"not compared\",\"only in NEW\"]]"
	ratio_in "$(jq '.events[0].change_pct' d.json)" 200 0.7 1.3
}
