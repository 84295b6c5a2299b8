#!/usr/bin/env bats
# perfcompat.bats: owns pmuprof stat side by side with Debian's perf 6.1 for the perf options
# a perf user brings along (-d, -v, -n, --all-user, --all-kernel, -i, --log-fd, the tool
# events duration_time, user_time, system_time) and for -I's derived figures: on this
# machine's software events, what must agree does (the events and their units, exit statuses,
# counts within a tolerance). pmuprof's side is asserted first, so that a machine without
# perf still checks it; the comparison then skips with the reason.
# shellcheck disable=SC2154 # bats run sets $output, $lines, $stderr
load helpers

# The real perf, when it is installed and counts a software event here; else a skip.
need_perf() {
	command -v perf >/dev/null || skip "perf (Debian's linux-perf) is not installed here"
	perf stat -e task-clock true >/dev/null 2>&1 ||
		skip "perf is installed but cannot count task-clock here"
}

# The -x report in file $1 as "event,unit" lines for the totals, in order (perf pads the
# interval time with spaces; neither has a time field on the totals without -I).
events_units() {
	awk -F, '{ print $3 "," $2 }' "$1"
}

@test "-I: each interval's line has the derived figure after '#', as perf 6.1's" {
	run --separate-stderr "$PMUPROF" stat -I 100 --no-summary -e task-clock,page-faults -- "$PPLOAD" spin 350
	assert_success
	tc=$(grep -E ' msec task-clock ' <<<"$stderr")
	pf=$(grep -E ' page-faults ' <<<"$stderr")
	[ "$(wc -l <<<"$tc")" -ge 3 ] || fail "fewer than 3 intervals: $stderr"
	# every task-clock line: CPUs utilized, its value the count over the interval's length
	prev=0
	while read -r t ms _ _ hash cpus what; do
		assert_equal "$hash $what" "# CPUs utilized"
		want=$(awk -v ms="$ms" -v t="$t" -v p="$prev" 'BEGIN { printf "%.3f", ms / 1000 / (t - p) }')
		awk -v a="$cpus" -v b="$want" 'BEGIN { d = a - b; exit !(d < 0.0015 && d > -0.0015) }' ||
			fail "interval at $t: $cpus CPUs utilized, $ms msec over $(awk -v t="$t" -v p="$prev" 'BEGIN { print t - p }') s is $want"
		prev=$t
	done <<<"$tc"
	# page-faults: a rate per second of the interval's task-clock
	while read -r line; do
		[[ $line =~ page-faults\ +#\ +[0-9.]+\ [KMG]?/sec$ ]] || fail "no rate: '$line'"
	done <<<"$pf"
	need_perf
	run --separate-stderr perf stat -I 100 -e task-clock,page-faults -- "$PPLOAD" spin 350
	ptc=$(grep -E ' msec task-clock ' <<<"$stderr")
	[[ $ptc == *"# "*"CPUs utilized"* ]] || fail "perf: $stderr"
	[[ $(grep -E ' page-faults ' <<<"$stderr") == *"/sec"* ]] || fail "perf: $stderr"
}

@test "-x -I: the metric fields of interval lines are filled, as perf 6.1 fills them" {
	run --separate-stderr "$PMUPROF" stat -x, -I 100 --no-summary -e task-clock,page-faults -- "$PPLOAD" spin 250
	assert_success
	printf '%s\n' "$stderr" >pp.csv
	# time,value,unit,event,running,share,metric,metric unit
	awk -F, '$4 == "task-clock" && !($7 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $8 == "CPUs utilized") { bad = bad $0 "\n" }
		$4 == "page-faults" && !($7 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $8 ~ /^[KMG]?\/sec$/) { bad = bad $0 "\n" }
		END { if (bad != "") { printf "%s", bad; exit 1 } }' pp.csv || fail "empty metric fields: $(cat pp.csv)"
	# the figure is the interval's: task-clock's msec over the interval's length
	awk -F, '$4 == "task-clock" { want = $2 / 1000 / ($1 - prev); prev = $1
		if ($7 - want > 0.0015 || want - $7 > 0.0015) { print "at " $1 ": " $7 " is not " want; exit 1 } }' pp.csv ||
		fail "$(cat pp.csv)"
	need_perf
	run --separate-stderr perf stat -x, -I 100 -e task-clock,page-faults -- "$PPLOAD" spin 250
	printf '%s\n' "$stderr" | sed 's/^ *//' >perf.csv
	# the same fields, field for field in number, and the same metric units
	assert_equal "$(awk -F, '{ print NF }' pp.csv | sort -u)" "$(awk -F, '{ print NF }' perf.csv | sort -u)"
	assert_equal "$(awk -F, '$4 == "task-clock" { print $8 }' pp.csv | sort -u)" \
		"$(awk -F, '$4 == "task-clock" { print $8 }' perf.csv | sort -u)"
}

@test "duration_time, user_time, system_time: perf's tool events, in ns" {
	run --separate-stderr "$PMUPROF" stat -x, -e duration_time,user_time,system_time,task-clock -- "$PPLOAD" spin 100
	assert_success
	printf '%s\n' "$stderr" >pp.csv
	assert_equal "$(awk -F, '{ print $3 "," $2 }' pp.csv | head -n 3 | paste -sd ' ')" \
		"duration_time,ns user_time,ns system_time,ns"
	# duration_time is the elapsed time, user_time and system_time the command's, together
	# at least the 100 ms of CPU time ppload spun
	stat_json -e duration_time,user_time,system_time -- "$PPLOAD" spin 100
	assert_equal "$(jqr '.events[0].value')" "$(jqr '.time.wall_ns')"
	assert_equal "$(jqr '.events[1].value')" "$(jqr '.time.user_ns')"
	assert_equal "$(jqr '.events[2].value // 0')" "$(jqr '.time.system_ns')"
	assert_equal "$(jqr '[.events[].pmu] | unique | join(",")')" tool
	[ "$(jqr '.events[1].value + (.events[2].value // 0)')" -ge 99000000 ] ||
		fail "user_time + system_time: $(jqr '[.events[1].value, .events[2].value]')"
	# the text report: whole ns, as perf prints them
	run --separate-stderr "$PMUPROF" stat -e duration_time -- "$PPLOAD" spin 10
	[[ $stderr =~ (^|$'\n')\ +[0-9]{7,}\ ns\ +duration_time($'\n') ]] || fail "$stderr"
	# -I: duration_time is each interval's length; user_time has none until the end
	run --separate-stderr "$PMUPROF" stat -I 100 --no-summary -x, -e duration_time,user_time -- "$PPLOAD" spin 250
	awk -F, '$4 == "duration_time" { d = $2 / 1e9 - ($1 - prev); prev = $1; if (d > 0.001 || d < -0.001) exit 1 }' <<<"$stderr" ||
		fail "$stderr"
	assert_equal "$(awk -F, '$4 == "user_time" { print $2 }' <<<"$stderr" | sort -u)" "<not counted>"
	need_perf
	perf stat -x, -e duration_time,user_time,system_time,task-clock -- "$PPLOAD" spin 100 2>perf.csv
	assert_equal "$(awk -F, '{ print $3 "," $2 }' perf.csv | head -n 3 | paste -sd ' ')" \
		"duration_time,ns user_time,ns system_time,ns"
	within_pct "$(awk -F, 'NR == 2 { print $1 }' pp.csv)" "$(awk -F, 'NR == 2 { print $1 }' perf.csv)" 30
}
