#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof report: a saved stat report printed again is what stat printed, byte for byte (text,
# -x, -j; plain, -r, -I, a big.LITTLE split from a fixture tree, events not supported, a
# failing command); metrics recomputed from the counts; each kind of bad input.
load helpers

# saved OUT [STAT OPTIONS...] -- COMMAND: one run of stat printing its report to OUT with the
# options given, and saving it as JSON in saved.json through --export.
saved() {
	local out=$1
	shift
	run "$PMUPROF" stat -o "$out" --export json:saved.json "$@"
	[ "$status" -ne 2 ] && [ -s "$out" ] && [ -s saved.json ] ||
		fail "stat wrote no report (status $status): $output"
	check_report saved.json
}

# same_as OUT [REPORT OPTIONS...]: pmuprof report saved.json prints OUT byte for byte.
same_as() {
	local out=$1
	shift
	run --separate-stderr "$PMUPROF" report "$@" saved.json
	assert_success
	assert_equal "$stderr" ""
	"$PMUPROF" report "$@" saved.json > again || fail "pmuprof report failed"
	cmp again "$out" || fail "$(diff again "$out")"
}

# every_format [STAT OPTIONS...] -- COMMAND: text, CSV (-x ';') and JSON of the same runs.
every_format() {
	saved out.txt "$@"
	same_as out.txt
	same_as saved.json -j
	saved out.csv -x ';' "$@"
	same_as out.csv -x ';'
}

@test "the default events (hardware ones not supported on a host without a PMU): text, CSV, JSON" {
	every_format -- "$PPLOAD" touch 50 spin 5
}

@test "-r 3: means, noise, outliers and the times' spread print again" {
	every_format -r 3 -e task-clock,page-faults,cycles -- "$PPLOAD" touch 50
	[ "$(jq '.repeat.runs' saved.json)" = 3 ] || fail "not 3 runs"
}

@test "-I: the intervals print again; --no-csv-summary too" {
	every_format -I 20 -e task-clock,page-faults -- "$PPLOAD" trickle 6 15
	[ "$(jq '.intervals | length' saved.json)" -ge 2 ] || fail "fewer than 2 intervals"
	saved out.csv -x , --no-csv-summary -I 20 -e page-faults -- "$PPLOAD" trickle 4 15
	same_as out.csv -x , --no-csv-summary
}

@test "big.LITTLE split from a fixture tree, an event one core type lacks, its fixture note" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76
	every_format -e inst_retired,cycles,task-clock,ld_retired -- "$PPLOAD" spin 2
	assert_equal "$(jq -r '.events[0].split | length' saved.json)" 2
	assert_equal "$(jq -r '.events[3].split[1].status' saved.json)" absent
	grep -q 'not supported: its PMU comes from the fixture tree' out.txt ||
		fail "no fixture note under ld_retired"
}

@test "a command that fails and one killed by a signal: their endings print again" {
	every_format -e task-clock -- "$PPLOAD" exit 3
	grep -q 'exited with status 3' out.txt || fail "no exit status line"
	every_format -e page-faults -- "$PPLOAD" kill 9
	grep -q 'killed by signal 9' out.txt || fail "no signal line"
}

@test "-o writes the report atomically; --format text is the default" {
	saved out.txt -e task-clock -- "$PPLOAD" spin 1
	run "$PMUPROF" report --format text -o again.txt saved.json
	assert_success
	cmp again.txt out.txt
	assert_equal "$(ls -A | grep -c '^\.again')" 0
}

@test "-o writes through a symbolic link, and in place to /proc/self/fd/1" {
	saved out.txt -e task-clock -- "$PPLOAD" spin 1
	mkdir keep
	ln -s keep/again.txt link.txt
	run "$PMUPROF" report -o link.txt saved.json
	assert_success
	[ -L link.txt ] || fail "link.txt was replaced"
	cmp keep/again.txt out.txt
	echo first > fd.txt
	"$PMUPROF" report -o /proc/self/fd/1 saved.json >> fd.txt || fail "report failed"
	assert_equal "$(head -n 1 fd.txt)" first
	tail -n +2 fd.txt | cmp - out.txt
}

# The default events' report with cycles and instructions counted: 1000 and 2500.
counted_ipc() {
	"$PMUPROF" stat --json -o base.json -- "$PPLOAD" spin 1 || fail "stat failed"
	jq '(.events[] | select(.name == "cycles" or .name == "instructions")) |=
	    (.status = "counted" | .reason = null | .time_running_ns = .time_enabled_ns |
	     .counted_pct = 100 | .scaled = false | .metric = null |
	     .value = (if .name == "cycles" then 1000 else 2500 end) | .raw_value = .value) |
	    .metrics = [.metrics[0] // empty] | .metrics[0] = {"name": "ipc", "title": "IPC",
		"group": "General", "stage": 2, "unit": "per cycle", "value": 99, "reason": null,
		"estimate": false, "requested": false, "core": "generic", "pmu": null,
		"formula": "INST_RETIRED / CPU_CYCLES", "events": ["instructions", "cycles"],
		"inputs": []}' \
		base.json > counts.json
}

@test "-I: an interval's end prints from its integer nanoseconds, exact where a double is not" {
	saved out.txt -I 20 -e page-faults -- "$PPLOAD" trickle 3 15
	# about 101 days in: ns / 1e9 as a double, printed with %.9f, ends in 785
	jq '.intervals[0].t_ns as $t0 | .intervals[].t_ns += (8767276163023784 - $t0)' \
		saved.json > later.json
	mv later.json saved.json
	run "$PMUPROF" report saved.json
	assert_success
	assert_line --index 0 --regexp '^#           time +counts unit events$'
	assert_line --index 1 --regexp '^8767276\.163023784 +[0-9,]+ +page-faults$'
	run "$PMUPROF" report -x , saved.json
	assert_success
	assert_line --index 0 --regexp '^8767276\.163023784,[0-9]+,,page-faults,'
}

@test "metrics are recomputed from the saved counts, not copied" {
	counted_ipc
	run "$PMUPROF" report -j counts.json
	assert_success
	printf '%s\n' "$output" > again.json
	assert_equal "$(jq -c '[.metrics[] | {name, value}]' again.json)" '[{"name":"ipc","value":2.5}]'
	assert_equal "$(jq -r '.events[] | select(.name == "instructions") | .metric.value' again.json)" 2.5
	run "$PMUPROF" report counts.json
	assert_output --regexp '2,500      instructions +#    2\.500 insn per cycle'
}

@test "fields a newer minor version adds are left alone" {
	saved out.txt -e task-clock,page-faults -- "$PPLOAD" touch 10
	jq '.schema_version = "1.99" | .accelerators = [{"id": "npu0"}] |
	    .events[].energy = [{"value": 1}]' saved.json > newer.json
	mv newer.json saved.json
	same_as out.txt
}

# bad FILE: pmuprof report fails with status 2 and one line on standard error matching $2;
# with -o nothing is written.
bad() {
	run --separate-stderr "$PMUPROF" report -o out.txt "$1"
	assert_failure 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_regex "$stderr" "$2"
	[ ! -e out.txt ] || fail "out.txt was written"
	assert_equal "$(ls -A | grep -c '^\.out')" 0
}

@test "bad input: missing file, not JSON, empty, cut short, not a report, a negative count, a newer major version" {
	bad nope.json "^pmuprof: cannot read report 'nope.json': No such file or directory \(give the path"
	echo 'hello' > text.json
	bad text.json "^pmuprof: cannot read report 'text.json': invalid JSON at line 1, column 1 "
	: > empty.json
	bad empty.json "^pmuprof: cannot read report 'empty.json': the file is empty "
	"$PMUPROF" stat --json -o whole.json -e task-clock -- "$PPLOAD" spin 1
	head -n 20 whole.json > cut.json	# whole lines: the text ends, it is not garbled
	bad cut.json "^pmuprof: cannot read report 'cut.json': the JSON ends early, at line [0-9]+ "
	echo '{"hello": "world"}' > other.json
	bad other.json "no \"schema_version\" string, so not a pmuprof stat report"
	jq '.schema_version = "2.0"' whole.json > v2.json
	bad v2.json "schema version '2.0' is not one this pmuprof reads \(1\.x; "
	rm v2.json	# the teardown checks the reports left against the schema
	jq '.events[0].value = -1' whole.json > neg.report
	bad neg.report "a value that is not a count \(below 0 or past 2\^64\), so not a pmuprof stat report"
	bad . "^pmuprof: cannot read report '.': Is a directory$"
}

@test "usage: no file, two files, two formats, an unknown format: status 2" {
	run "$PMUPROF" report
	assert_failure 2
	assert_output --partial "give the report to print"
	run "$PMUPROF" report a.json b.json
	assert_failure 2
	run "$PMUPROF" report -j -x, a.json
	assert_failure 2
	assert_output --partial "give one"
	run "$PMUPROF" report --format yaml a.json
	assert_failure 2
	assert_output --partial "--format takes text, json, csv, bmf, github-benchmark, openmetrics, markdown, not 'yaml'"
}

@test "perf's targets print again: -a -A, --per-core, --per-socket with -I, -p --per-thread, --timeout" {
	every_format -a -A -e cpu-clock,context-switches -- sleep 0.05
	jq -e '.aggregation == "cpu" and (.events[0].units | length) > 0' saved.json
	every_format -a --per-core -I 20 -e cpu-clock -- sleep 0.05
	every_format -a --per-socket --timeout 60 -e cpu-clock,page-faults
	jq -e '.timed_out == true and .target == "system wide"' saved.json
	"$PPLOAD" sleep 1 60000 &
	pid=$!
	every_format -p "$pid" --per-thread --timeout 60 -e task-clock
	kill "$pid" 2>/dev/null || true
	jq -e '.aggregation == "thread"' saved.json
}

# an -r 3 report with task-clock and page-faults counted, in whole.json
whole_r3() {
	"$PMUPROF" stat -r 3 --json -o whole.json -e task-clock,page-faults -- "$PPLOAD" spin 1 ||
		fail "stat failed"
}

@test "a value of the wrong type is refused, naming the field, never read as 0" {
	whole_r3
	jq '.events[0].value = "twenty"' whole.json > str.report
	bad str.report "^pmuprof: cannot read report 'str.report': \.events\[0\]\.value is a string, not a number \(.*'pmuprof stat --json -o FILE'\)$"
	jq '.events[1].time_enabled_ns = true' whole.json > bool.report
	bad bool.report "^pmuprof: cannot read report 'bool.report': \.events\[1\]\.time_enabled_ns is a boolean, not a number "
	jq '.events[0].time_running_ns = null' whole.json > null.report
	bad null.report "^pmuprof: cannot read report 'null.report': \.events\[0\]\.time_running_ns is null, not a number "
	jq '.time.wall_ns = "1"' whole.json > wall.report
	bad wall.report ": \.time\.wall_ns is a string, not a number "
	jq '.events[0].runs[1] = {}' whole.json > run.report
	bad run.report ": \.events\[0\]\.runs\[1\] is an object, not a number "
	jq '.events[0].stats.mean = [1]' whole.json > mean.report
	bad mean.report ": \.events\[0\]\.stats\.mean is an array, not a number "
	jq '.events[0].exclude.user = "yes"' whole.json > excl.report
	bad excl.report ": \.events\[0\]\.exclude\.user is a string, not a boolean "
	jq '.command = "true"' whole.json > cmd.report
	bad cmd.report ": \.command is a string, not an array "
	# counted, but no number to show
	jq '.events[0].value = null' whole.json > counted.report
	bad counted.report ": \.events\[0\]\.value is null, but \.events\[0\]\.status is \"counted\" "
}

@test "a value outside its own runs' interval is refused: no BMF value of 0 with bounds in millions" {
	whole_r3
	jq '.events[0].value = 0' whole.json > zero.json
	run --separate-stderr "$PMUPROF" report --format bmf zero.json
	assert_failure 2
	assert_equal "$output" ""
	assert_regex "$stderr" "^pmuprof: cannot read report 'zero.json': \.events\[0\]\.value \(0\) is outside \.events\[0\]\.stats' 95% interval \([0-9.e+]+ to [0-9.e+]+\) "
	rm zero.json
	# the report as written exports values within their bounds
	run -0 "$PMUPROF" report --format bmf whole.json
	printf '%s\n' "$output" > bmf.out
	assert_equal "$(jq '[.[][] | select(.lower_value != null) | select(.value < .lower_value or .value > .upper_value)] | length' bmf.out)" 0
	assert_equal "$(jq '[.[][] | select(.lower_value != null)] | length' bmf.out)" 2
}

@test "report - reads the report from standard input" {
	saved out.txt -e task-clock,page-faults -- "$PPLOAD" touch 10
	"$PMUPROF" report - < saved.json > again || fail "report - failed"
	cmp again out.txt
	run --separate-stderr "$PMUPROF" report - < /dev/null
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot read report '-': the file is empty (write it with 'pmuprof stat --json -o FILE')"
}

@test "control characters in a saved report's strings are escaped in text, kept in JSON" {
	saved out.txt -e task-clock,page-faults -- "$PPLOAD" touch 10
	evil=$'evil\e[2J\aname'
	jq '.events[0].name = "evil\u001b[2J\u0007name" | .events[1].name = "new\nline\u007f\u009bx" |
	    .command = ["\u001b]0;title\u0007"]' saved.json > evil.json
	for f in text csv markdown openmetrics; do
		"$PMUPROF" report --format "$f" evil.json > "out.$f" || fail "report --format $f failed"
		# no C0 control but the newlines that end lines, no DEL, no C1 (U+0080 to U+009F)
		if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "out.$f"; then
			fail "a control character in --format $f: $(cat -v "out.$f")"
		fi
	done
	grep -qF 'evil\x1b[2J\x07name' out.text || fail "ESC and BEL not escaped as \\x1b and \\x07: $(cat -v out.text)"
	grep -qF 'new\x0aline\x7f\u009bx' out.text || fail "newline, DEL and CSI not escaped: $(cat -v out.text)"
	grep -qF "'\x1b]0;title\x07'" out.text || fail "the command not escaped: $(head -n 3 out.text | cat -v)"
	run -0 "$PMUPROF" report -j evil.json
	printf '%s\n' "$output" > again.json
	assert_equal "$(jq -r '.events[0].name' again.json)" "$evil"
	assert_equal "$(jq -r '.events[1].name' again.json)" $'new\nline\x7f\xc2\x9bx'
}

@test "a saved metrics_core no core has: named as the report's, escaped, in every format" {
	saved out.txt -e task-clock -- "$PPLOAD" spin 1
	jq '.metrics_core = "evil\u001b[2J"' saved.json > mc.report
	for f in -j --format=text; do
		run --separate-stderr "$PMUPROF" report "$f" mc.report
		assert_failure 2
		assert_equal "$stderr" "pmuprof: unknown CPU model 'evil\\x1b[2J' in the report's \"metrics_core\" (give --cpu-model CORE: see 'pmuprof list --all-cores')"
	done
}
