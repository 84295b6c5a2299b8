#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat -I/--interval-count: per-interval counts with timestamps in text, JSON and
# CSV, the intervals summing exactly to the totals, and --interval-count ending the command.

load helpers

@test "-I: intervals in JSON sum exactly to the totals (page faults spread over time)" {
	stat_json -I 10 -e page-faults,task-clock -- "$PPLOAD" trickle 20 3
	assert_success
	assert_equal "$(jqr '.interval_ms')" 10
	assert_equal "$(jqr '.interval_stop')" null
	n=$(jqr '.intervals | length')
	[ "$n" -ge 4 ] || fail "only $n intervals"
	# timestamps rise; every interval lists every event
	assert_equal "$(jqr '[.intervals[].t_ns] | . == sort')" true
	assert_equal "$(jqr '[.intervals[].events | length == 2] | all')" true
	for k in 0 1; do
		assert_equal "$(jqr "[.intervals[].events[$k].raw_value] | add")" "$(jqr ".events[$k].raw_value")"
	done
	assert_equal "$(jqr '[.intervals[].events[0].value] | add')" "$(jqr '.events[0].value')"
	# the faults came in more than one interval
	assert_equal "$(jqr '[.intervals[].events[0].raw_value | select(. > 0)] | length > 1')" true
}

@test "-I: text lines as perf stat -I prints them, then the summary" {
	run -0 --separate-stderr "$PMUPROF" stat -I 10 -e page-faults -- "$PPLOAD" trickle 5 5
	assert_equal "${stderr_lines[0]}" "#           time             counts unit events"
	assert_regex "${stderr_lines[1]}" '^ +0\.0[0-9]{8} +[0-9,]+ +page-faults$'
	assert_regex "$stderr" "Performance counter stats for '$PPLOAD trickle 5 5':"
}

@test "-I with -x: a leading timestamp on interval lines, 'summary' on the totals (8 fields)" {
	run -0 --separate-stderr "$PMUPROF" stat -I 10 -x, -e page-faults,task-clock -- \
		"$PPLOAD" trickle 5 5
	nint=0
	for line in "${stderr_lines[@]}"; do
		assert_equal "$(awk -F, '{ print NF }' <<<"$line")" 8
		if [[ $line != summary,* ]]; then
			assert_regex "$line" '^[0-9]+\.[0-9]{9},'
			nint=$((nint + 1))
		fi
	done
	[ "$nint" -ge 4 ] || fail "only $nint interval lines"
	# the interval page-faults add up to the total line's
	sum=$(printf '%s\n' "${stderr_lines[@]}" | awk -F, '$1 != "summary" && $4 == "page-faults" { s += $2 } END { print s }')
	total=$(printf '%s\n' "${stderr_lines[@]}" | awk -F, '$1 == "summary" && $4 == "page-faults" { print $2 }')
	assert_equal "$sum" "$total"
}

@test "-I: each interval's line carries the figure derived over the interval, as perf 6.1's" {
	# perf stat -I 200 -e task-clock prints "#    0.987 CPUs utilized" on each interval line
	run -0 --separate-stderr "$PMUPROF" stat -I 100 -e task-clock,page-faults -- \
		"$PPLOAD" spin 350
	n=0
	for line in "${stderr_lines[@]}"; do
		[[ $line =~ ^\ +0\.[0-9]{9}\  ]] || continue
		n=$((n + 1))
		[[ $line == *"<not counted>"* ]] && continue
		case $line in
		*task-clock*) assert_regex "$line" ' msec task-clock +# +[0-9]+\.[0-9]{3} CPUs utilized$' ;;
		*page-faults*) assert_regex "$line" ' page-faults +# +[0-9]+\.[0-9]{3} [KMG]?/sec$' ;;
		esac
	done
	[ "$n" -ge 6 ] || fail "only $n interval lines: $stderr"
	# -x: the metric fields filled on interval lines, empty where not counted
	run -0 --separate-stderr "$PMUPROF" stat -I 100 -x, -e task-clock -- "$PPLOAD" spin 350
	assert_regex "${stderr_lines[0]}" '^0\.[0-9]{9},[0-9.]+,msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized$'
}

@test "-I -x: interval lines have perf 6.1's fields (compared with Debian's perf stat)" {
	need_perf
	# the fields, not the values: counts, times and the figure's value vary
	shape() {
		awk -F, '$1 != "summary" { for (i = 1; i <= NF; i++) { f = $i; gsub(/^ +| +$/, "", f)
			if (f ~ /^[0-9]+(\.[0-9]+)?$/) f = "N"; printf "%s%s", f, i < NF ? "," : "\n" } }'
	}
	perf stat -I 100 -x, -e task-clock -- sleep 0.35 2>perf.csv
	"$PMUPROF" stat -I 100 -x, -e task-clock -- sleep 0.35 2>pp.csv
	shape <perf.csv | sort -u >perf.shape
	shape <pp.csv | sort -u >pp.shape
	grep -q 'CPUs utilized' perf.shape || skip "perf printed no metric on its intervals: $(cat perf.csv)"
	diff perf.shape pp.shape || fail "fields differ from perf's: $(cat perf.csv) against $(cat pp.csv)"
}

@test "--interval-count N: N intervals, then the command runs to its end with its status (as perf)" {
	# perf stat -I 100 --interval-count 2 -e task-clock sleep 1 prints 2 intervals and takes 1 s
	stat_json -I 20 --interval-count 3 -e page-faults -- sh -c "\"$PPLOAD\" trickle 1000 2; : > ended; exit 6"
	assert_equal "$status" 6
	[ -e ended ] || fail "the command was ended before its end"
	assert_equal "$(jqr '.intervals | length')" 3
	assert_equal "$(jqr '.interval_stop')" interval-count
	assert_equal "$(jqr '.exit.signal_name')" null
	assert_equal "$(jqr '.exit.status')" 6
	# the totals are the whole run's: more than the three intervals saw
	sum=$(jqr '[.intervals[].events[0].raw_value] | add')
	[ "$(jqr '.events[0].raw_value')" -gt "$sum" ] || fail "total $(jqr '.events[0].raw_value') <= intervals $sum"
	run -6 --separate-stderr "$PMUPROF" stat -I 20 --interval-count 2 -e page-faults -- sh -c "\"$PPLOAD\" trickle 1000 2; exit 6"
	assert_regex "$stderr" "Intervals stopped after 2 \(--interval-count\); the totals are of the whole run"
	refute_regex "$stderr" "SIGTERM"
}

@test "-a --interval-count N with no command: the totals are the N intervals' sum, exactly" {
	[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "-a needs kernel.perf_event_paranoid <= 0 or root"
	# counters on CPUs count on after the last interval: the counting ends with it
	stat_json -a -I 100 --interval-count 3 -e cpu-clock,context-switches,task-clock
	assert_success
	assert_equal "$(jqr '.intervals | length')" 3
	assert_equal "$(jqr '.interval_stop')" interval-count
	for k in 0 1 2; do
		assert_equal "$(jqr "[.intervals[].events[$k].raw_value] | add")" "$(jqr ".events[$k].raw_value")"
		assert_equal "$(jqr "[.intervals[].events[$k].value] | add")" "$(jqr ".events[$k].value")"
	done
	# the time counted ends with the last interval too
	assert_equal "$(jqr '.time.wall_ns')" "$(jqr '.intervals[2].t_ns')"
	# per CPU (-A) likewise, unit by unit
	stat_json -a -A -I 100 --interval-count 2 -e cpu-clock
	assert_success
	for u in $(seq 0 $(($(jqr '.events[0].units | length') - 1))); do
		assert_equal "$(jqr "[.intervals[].events[0].units[$u].raw_value] | add")" \
			"$(jqr ".events[0].units[$u].raw_value")"
	done
}

@test "-I: usage errors" {
	run -2 --separate-stderr "$PMUPROF" stat -I 0 true
	assert_regex "$stderr" "-I takes a whole number from 1 to 2147483647"
	run -2 --separate-stderr "$PMUPROF" stat --interval-count 2 true
	assert_regex "$stderr" "--interval-count needs -I MS"
}

@test "-I: each interval is printed when it ends, while the command still runs (as perf)" {
	# the command ends only once an interval line has reached the log: printed at the end,
	# none would, and the command would be ended by the test's own limit
	"$PMUPROF" stat -I 20 -e task-clock -- sh -c \
		'n=0; while [ ! -e go ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done
		 [ -e go ]; exit $((4 + $?))' 2>live.txt &
	pid=$!
	seen=0
	for _ in $(seq 500); do
		if grep -qE ' task-clock( |$)' live.txt; then seen=1; break; fi
		sleep 0.01
	done
	: > go
	wait "$pid" && st=0 || st=$?
	assert_equal "$seen" 1
	assert_equal "$st" 4	# the command's status: it saw go
	assert_equal "$(head -n 1 live.txt)" "#           time             counts unit events"
	grep -q "Performance counter stats for" live.txt || fail "no totals after the intervals"
}

@test "-I printed live is the whole report's text, byte for byte (text, -x, -A, --metric-only, --no-summary)" {
	w=("$PPLOAD" trickle 12 4)
	"$PMUPROF" stat -I 10 -e page-faults,task-clock --export text:whole.txt -- "${w[@]}" 2>live.txt
	cmp live.txt whole.txt || fail "text: $(diff live.txt whole.txt)"
	[ "$(grep -cE '^ +[0-9]+\.[0-9]{9} .* page-faults ' live.txt)" -ge 4 ] ||
		fail "fewer than 4 intervals: $(cat live.txt)"
	"$PMUPROF" stat -x, -I 10 -e page-faults,task-clock --export csv:whole.csv -- "${w[@]}" 2>live.csv
	cmp live.csv whole.csv || fail "-x: $(diff live.csv whole.csv)"
	"$PMUPROF" stat -A -a -I 10 -e cpu-clock --export text:whole-a.txt -- "${w[@]}" 2>live-a.txt
	cmp live-a.txt whole-a.txt || fail "-A: $(diff live-a.txt whole-a.txt)"
	# as many lines per interval as the machine has online CPUs
	ncpu=$(getconf _NPROCESSORS_ONLN)
	first=$(awk 'NR == 2 { print $1 }' live-a.txt)
	assert_equal "$(grep -c "^ *$first CPU" live-a.txt)" "$ncpu"
	"$PMUPROF" stat --metric-only -I 10 -e page-faults,task-clock --export text:whole-m.txt -- "${w[@]}" 2>live-m.txt
	cmp live-m.txt whole-m.txt || fail "--metric-only: $(diff live-m.txt whole-m.txt)"
	"$PMUPROF" stat --no-summary -I 10 -e page-faults --export text:whole-n.txt -- "${w[@]}" 2>live-n.txt
	cmp live-n.txt whole-n.txt || fail "--no-summary: $(diff live-n.txt whole-n.txt)"
	refute grep -q "Performance counter stats" live-n.txt
}

@test "-I: a reader that goes away ends the live lines, not pmuprof: the command's status is kept" {
	run bash -c "\"$PMUPROF\" stat -I 5 -e task-clock -- sh -c '\"$PPLOAD\" trickle 30 3; exit 3' 2>&1 >/dev/null | head -n 1 >/dev/null; exit \${PIPESTATUS[0]}"
	assert_equal "$status" 3
}

@test "-I with -j or -o: one document, written whole at the end" {
	stat_json -I 10 -e page-faults -- "$PPLOAD" trickle 5 5
	assert_success
	[ "$(jqr '.intervals | length')" -ge 2 ] || fail "$(cat report.json)"
	run -0 --separate-stderr "$PMUPROF" stat -I 10 -e page-faults -o out.txt -- "$PPLOAD" trickle 5 5
	assert_equal "$stderr" ""
	assert_equal "$(head -n 1 out.txt)" "#           time             counts unit events"
	grep -q "Performance counter stats for" out.txt || fail "$(cat out.txt)"
}
