#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# perfopts.bats: owns the perf stat options perf users type out of habit:
# --append, -B/--big-num/--no-big-num, --no-scale, --metric-only, -q/--quiet, --post and
# --summary/--no-summary; each against perf 6.1's output shape, with the real perf (Debian's
# linux-perf) run on software events where it is installed. Also the rules stat's options share
# with each other: -M lists as -e's, --min-running's %, --no-csv-summary only where it acts.
# shellcheck disable=SC2154 # bats run sets $output, $lines, $stderr
load helpers

# A report file's shape: text_shape, with the date and the page-faults count left out.
# A scratch file of its own per report: two run at once in diff's process substitutions.
shape_counts() {
	sed -e 's/^# started on .*/# started on D/' "$1" >"$1.shape"
	text_shape "$1.shape" | sed 's/^ *[0-9,]* *page-faults.*/C page-faults/'
}

@test "--no-big-num: counts without thousands separators, in perf's columns" {
	run "$PMUPROF" stat --no-big-num -e page-faults -- "$PPLOAD" touch 5000
	assert_success
	row=$(grep -E ' page-faults$' <<<"$stderr$output")
	[[ $row =~ ^\ +([0-9]+)\ {6}page-faults$ ]] || fail "not a plain count row: '$row'"
	((BASH_REMATCH[1] >= 5000)) || fail "ppload touched 5000 pages, counted ${BASH_REMATCH[1]}"
	need_perf
	prow=$(perf stat --no-big-num -e page-faults -- "$PPLOAD" touch 5000 2>&1 >/dev/null |
		grep -E ' page-faults')
	# the name starts in the same column as perf's
	prefix=${row%%page-faults*} pprefix=${prow%%page-faults*}
	assert_equal "${#prefix}" "${#pprefix}"
}

@test "-B, --big-num: thousands separators, pmuprof's default as perf's" {
	for opt in -B --big-num ""; do
		run --separate-stderr "$PMUPROF" stat $opt -e page-faults -- "$PPLOAD" touch 5000
		assert_success
		row=$(grep -E ' page-faults$' <<<"$stderr")
		[[ $row =~ ^\ +[0-9]{1,3}(,[0-9]{3})+\ {6}page-faults$ ]] ||
			fail "${opt:-default}: no grouped count: '$row'"
	done
	# the last one given wins, as in perf
	run --separate-stderr "$PMUPROF" stat -B --no-big-num -e page-faults -- "$PPLOAD" touch 5000
	[[ $stderr =~ \ [0-9]{4,}\ {6}page-faults ]] || fail "--no-big-num after -B: $stderr"
}

@test "-B with -x: refused, as perf refuses it" {
	run --separate-stderr "$PMUPROF" stat -B -x, -e page-faults true
	assert_failure 2
	[[ $stderr == *"pmuprof stat: -B groups the digits of the text report: -x prints plain numbers (drop -B)"* ]] ||
		fail "$stderr"
	need_perf
	run perf stat -B -x, -e page-faults true
	assert_failure
}

@test "--append: the report after the file's content, with perf's '# started on' line" {
	printf 'old line\n' >out.txt
	run "$PMUPROF" stat --append -o out.txt -e page-faults -- "$PPLOAD" exit 0
	assert_success
	run "$PMUPROF" stat --append -o out.txt -e page-faults -- "$PPLOAD" exit 3
	assert_failure 3
	assert_equal "$(head -1 out.txt)" "old line"
	assert_equal "$(grep -c '^# started on ' out.txt)" 2
	assert_equal "$(grep -c 'Performance counter stats for' out.txt)" 2
	assert_equal "$(grep -c ' page-faults$' out.txt)" 2
	# perf's line: "# started on " and ctime's date, then a blank line, then the report
	run grep -A3 '^# started on ' out.txt
	[[ ${lines[0]} =~ ^#\ started\ on\ [A-Z][a-z]{2}\ [A-Z][a-z]{2}\ [\ 0-9][0-9]\ [0-9:]{8}\ [0-9]{4}$ ]] ||
		fail "not perf's line: '${lines[0]}'"
	assert_equal "${lines[1]}" " Performance counter stats for '$PPLOAD exit 0':"
	need_perf
	printf 'old line\n' >perf.txt
	perf stat --append -o perf.txt -e page-faults -- "$PPLOAD" exit 0
	# the old line and the first run, as perf's file has them
	awk '/^# started on / && n++ { exit } { print }' out.txt >first.txt
	diff <(shape_counts perf.txt) <(shape_counts first.txt)
}

@test "--append -j: the documents follow each other, a JSON stream" {
	"$PMUPROF" stat -j --append -o out.json -e page-faults true
	"$PMUPROF" stat -j --append -o out.json -e page-faults -- "$PPLOAD" touch 10
	assert_equal "$(jq -s length out.json)" 2
	assert_equal "$(jq -s -r '.[1].events[0].name' out.json)" page-faults
	jq -s '.[1]' out.json >second.json
	check_report second.json
	rm out.json
}

@test "--append: a run that reports nothing leaves the file as it was" {
	printf 'old line\n' >out.txt
	run -127 "$PMUPROF" stat --append -o out.txt -e page-faults -- ./no-such-command
	assert_failure 127 # the command is not found
	assert_equal "$(cat out.txt)" "old line"
	[ -z "$(find . -name '.out.txt.*')" ] || fail "a temporary file was left"
}

@test "--append: a new file is created; without -o it is refused" {
	run "$PMUPROF" stat --append -o new.txt -e page-faults true
	assert_success
	assert_equal "$(grep -c '^# started on ' new.txt)" 1
	run --separate-stderr "$PMUPROF" stat --append -e page-faults true
	assert_failure 2
	[[ $stderr == *"pmuprof stat: --append adds the report to a file: give it with -o FILE"* ]] ||
		fail "$stderr"
}

@test "--no-scale: values are the raw counts, and JSON says so" {
	stat_json --no-scale -e page-faults,task-clock -- "$PPLOAD" touch 100
	assert_success
	assert_equal "$(jqr '.mux.scaling')" false
	assert_equal "$(jqr '[.events[] | select(.value != .raw_value)] | length')" 0
	stat_json -e page-faults -- "$PPLOAD" touch 100
	assert_equal "$(jqr '.mux.scaling')" true
	run --separate-stderr "$PMUPROF" stat --no-scale -x, -e page-faults -- "$PPLOAD" touch 100
	assert_success
	[[ $stderr =~ ^[0-9]+,,page-faults,[0-9]+,100.00,, ]] || fail "$stderr"
}

@test "--metric-only: text as perf prints it (software events have no such metric)" {
	"$PMUPROF" stat --metric-only -e task-clock,page-faults true 2>pmuprof.txt
	# the header, then perf's two lines (units, values), empty: no rates, no CPUs utilized
	printf '\n%s\n\n\n\n\n%s\n\n%s\n%s\n' " Performance counter stats for 'true':" \
		"T seconds time elapsed" "T seconds user" "T seconds sys" >expected.txt
	diff expected.txt <(text_shape pmuprof.txt)
	need_perf
	perf stat --metric-only -e task-clock,page-faults true 2>perf.txt
	diff <(text_shape perf.txt) <(text_shape pmuprof.txt)
}

@test "--metric-only -x: perf's two lines, no event rows" {
	run --separate-stderr "$PMUPROF" stat --metric-only -x, -e task-clock,page-faults true
	assert_success
	assert_equal "$stderr" "$(printf '\n\n')"
	need_perf
	run --separate-stderr perf stat --metric-only -x, -e task-clock,page-faults true
	assert_equal "$stderr" "$(printf '\n\n')"
}

@test "--metric-only -I: perf's heading and a line per interval, text and -x" {
	"$PMUPROF" stat --metric-only -I 100 -e task-clock -- "$PPLOAD" trickle 2 150 2>pm.txt
	run grep -c '^ *[0-9]*\.[0-9]\{9\} $' pm.txt
	assert_output "$(($(grep -c . pm.txt) - 5))"	# all but the heading and the totals' 4
	assert_equal "$(head -1 pm.txt)" "#           time "
	"$PMUPROF" stat --metric-only -I 100 -x, -e task-clock -- "$PPLOAD" trickle 2 150 2>pm.csv
	assert_equal "$(head -1 pm.csv)" " time,"
	assert_equal "$(tail -1 pm.csv)" "         summary,"
	run grep -vc -e '^ *[0-9]*\.[0-9]\{9\},$' -e '^ time,$' -e '^ *summary,$' pm.csv
	assert_output 0
	need_perf
	perf stat --metric-only -I 100 -x, --summary -e task-clock -- "$PPLOAD" trickle 2 150 2>perf.csv
	assert_equal "$(head -1 perf.csv)" " time,"
	assert_equal "$(tail -1 perf.csv)" "         summary,"
}

@test "--metric-only with -A: refused (not supported yet)" {
	run --separate-stderr "$PMUPROF" stat --metric-only -a -A -e task-clock true
	assert_failure 2
	[[ $stderr == *"pmuprof stat: --metric-only prints the metrics summed over CPUs and tasks: -A is not supported with it (drop one of them)"* ]] ||
		fail "$stderr"
}

@test "-q, --quiet: no report, no warning; the command's status; errors still print" {
	for opt in -q --quiet; do
		run --separate-stderr "$PMUPROF" stat "$opt" -e page-faults -- "$PPLOAD" exit 3
		assert_failure 3
		assert_equal "$stderr" ""
		assert_equal "$output" ""
	done
	run --separate-stderr "$PMUPROF" stat -q -e no-such-event true
	assert_failure 2
	[[ $stderr == *"pmuprof: "*"no-such-event"* ]] || fail "no error: $stderr"
	run --separate-stderr "$PMUPROF" stat -q -o out.txt -e page-faults true
	assert_failure 2
	[ ! -e out.txt ] || fail "out.txt written"
	need_perf
	run --separate-stderr perf stat --quiet -e page-faults -- "$PPLOAD" exit 3
	assert_equal "$stderr" ""
}

@test "--post CMD: runs after each run, as --cleanup" {
	run "$PMUPROF" stat -r 3 --post 'echo post >>posts.txt' -e page-faults -- "$PPLOAD" exit 0
	assert_success
	assert_equal "$(cat posts.txt)" "$(printf 'post\npost\npost')"
}

@test "--summary: with -I the totals follow the intervals (the default); --no-summary drops them" {
	run --separate-stderr "$PMUPROF" stat -I 100 --summary -e page-faults -- "$PPLOAD" trickle 3 150
	assert_success
	[[ $stderr == *"Performance counter stats for"* ]] || fail "no totals: $stderr"
	run --separate-stderr "$PMUPROF" stat -I 100 --no-summary -e page-faults -- "$PPLOAD" trickle 3 150
	assert_success
	[[ $stderr != *"Performance counter stats for"* ]] || fail "totals: $stderr"
	[[ $stderr != *"seconds time elapsed"* ]] || fail "totals: $stderr"
	assert_equal "${stderr%%$'\n'*}" "#           time             counts unit events"
	rows=$(grep -cE '^ +[0-9]+\.[0-9]{9} +[0-9<].* page-faults$' <<<"$stderr")
	assert_equal "$rows" "$(grep -c . <<<"$stderr" | awk '{ print $1 - 1 }')"
	# -x: the intervals' rows only, no "summary" row
	run --separate-stderr "$PMUPROF" stat -I 100 --no-summary -x, -e page-faults -- "$PPLOAD" trickle 3 150
	assert_success
	[[ $stderr != *summary* ]] || fail "$stderr"
	[[ $stderr == *,page-faults,* ]] || fail "$stderr"
	run --separate-stderr "$PMUPROF" stat --no-summary -e page-faults true
	assert_failure 2
	[[ $stderr == *"pmuprof stat: --no-summary leaves out the totals after -I's intervals: give -I MS"* ]] ||
		fail "$stderr"
}

@test "--summary -x: the totals' row has perf's 'summary' field" {
	run --separate-stderr "$PMUPROF" stat -I 100 --summary -x, -e page-faults -- "$PPLOAD" trickle 2 150
	assert_success
	[[ $stderr =~ (^|$'\n')\ *summary,[0-9]+,,page-faults, ]] || fail "$stderr"
	need_perf
	run --separate-stderr perf stat -I 100 --summary -x, -e page-faults -- "$PPLOAD" trickle 2 150
	[[ $stderr =~ (^|$'\n')\ *summary,[0-9]+,,page-faults, ]] || fail "perf: $stderr"
}

@test "--min-running PCT%: a percent sign is taken, as diff's --threshold 5% is" {
	run --separate-stderr "$PMUPROF" stat --min-running 50% -e task-clock -- sh -c 'exit 5'
	assert_failure 5
	run --separate-stderr "$PMUPROF" stat --min-running 50% -e 'task-clock,software/config=999/' -o r.txt -- true
	assert_failure 3
	[[ $stderr == *"'software/config=999/' was not counted at all (not supported), less than --min-running 50 (exit status 3)"* ]] ||
		fail "$stderr"
	run --separate-stderr "$PMUPROF" stat --min-running 101% -e task-clock -- true
	assert_failure 2
	[[ $stderr == *"--min-running takes a percentage from 0 to 100 (50 or 50%), not '101%'"* ]] || fail "$stderr"
}

@test "-M: a list with an empty name is refused as -e refuses one; a plain list still counts" {
	for bad in '' 'ipc,' ',ipc' 'ipc,,cpi'; do
		run --separate-stderr "$PMUPROF" stat -M "$bad" -o r.txt -e task-clock -- touch ran
		assert_failure 2
		[[ $stderr == "pmuprof: cannot parse metric list '$bad': "*" at column "[0-9]* ]] || fail "-M '$bad': $stderr"
		[ ! -e ran ] || fail "-M '$bad' ran the command"
		[ ! -e r.txt ] || fail "-M '$bad' wrote a report"
	done
	# the same rule as -e's, word for word where they share it
	run --separate-stderr "$PMUPROF" stat -e '' -- true
	[[ $stderr == *"empty event list at column 1" ]] || fail "$stderr"
	run --separate-stderr "$PMUPROF" stat -M '' -- true
	[[ $stderr == *"empty metric list at column 1" ]] || fail "$stderr"
	stat_json --cpu-model neoverse-n1 -M ipc -e task-clock -- true
	assert_success
	assert_equal "$(jqr '[.events[].name] | sort | join(",")')" "cpu_cycles,inst_retired,task-clock"
}

@test "--no-csv-summary: with -x (or a csv export) and -I only, as --no-summary with -I only" {
	run --separate-stderr "$PMUPROF" stat -x, --no-csv-summary -e task-clock -- true
	assert_failure 2
	[[ $stderr == "pmuprof stat: --no-csv-summary leaves out the 'summary' field"* ]] || fail "$stderr"
	run --separate-stderr "$PMUPROF" stat -I 20 --no-csv-summary -e task-clock -- sleep 0.05
	assert_failure 2
	run --separate-stderr "$PMUPROF" stat -I 20 -x, --no-csv-summary -e task-clock -- sleep 0.05
	assert_success
	[[ $stderr != *summary* ]] || fail "$stderr"
	run --separate-stderr "$PMUPROF" stat -q -I 20 --no-csv-summary --export csv:x.csv -e task-clock -- sleep 0.05
	assert_success
	[ -s x.csv ] || fail "no csv export"
	run grep -c summary x.csv
	assert_output 0
}
