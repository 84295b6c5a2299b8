#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof diff on crafted report pairs (tests/fixtures/diff, made by its mkfixtures.py): exit
# status, significance by threshold and by Welch's t-test, directions, formats, each error.
load helpers
load schema

eval "helpers_$(declare -f setup)"
setup() {
	helpers_setup
	F=$FIXTURES/diff
}

# diff_json BASE NEW [OPTIONS...]: the comparison as JSON in diff.json, and its exit status.
diff_json() {
	local a=$1 b=$2
	shift 2
	run "$PMUPROF" diff --format json "$@" "$F/$a" "$F/$b"
	printf '%s\n' "$output" > diff.json
}

# The verdict of event $1 in diff.json.
verdict() {
	jq -r --arg n "$1" '[.events[] | select(.name == $n)][0].verdict' diff.json
}

@test "identical reports: exit 0, nothing changed, an unmeasured event not compared" {
	diff_json base.json same.json
	assert_success
	assert_equal "$(verdict cycles)" unchanged
	assert_equal "$(verdict stall_backend)" "not compared"
	assert_equal "$(jq -r .regressed diff.json)" false
}

@test "10% more cycles is a regression: exit 1" {
	diff_json base.json cycles-up-10.json
	assert_failure 1
	assert_equal "$(verdict cycles)" regression
	assert_equal "$(jq -r '.events[0].change_pct' diff.json)" 10
	assert_equal "$(jq -r '.events[0].test' diff.json)" threshold
	assert_equal "$(verdict instructions)" unchanged
}

@test "10% fewer cycles is an improvement: exit 0" {
	diff_json base.json cycles-down-10.json
	assert_success
	assert_equal "$(verdict cycles)" improvement
}

@test "a 1% change passes the default 2% threshold, not --threshold 0.5%" {
	diff_json base.json cycles-up-1.json
	assert_success
	assert_equal "$(verdict cycles)" unchanged
	diff_json base.json cycles-up-1.json --threshold 0.5%
	assert_failure 1
	assert_equal "$(verdict cycles)" regression
	diff_json base.json cycles-up-1.json --threshold=0.5
	assert_failure 1
}

@test "-t is not --threshold (perf's -t is --tid): an invalid option" {
	run --separate-stderr "$PMUPROF" diff -t 0.5 "$F/base.json" "$F/cycles-up-1.json"
	assert_failure 2
	assert_equal "$stderr" "pmuprof diff: invalid option -- 't'"$'\n'"Try 'pmuprof diff --help' for more information."
}

@test "IPC-like names are higher-is-better: a drop regresses unless --lower-is-better" {
	diff_json base.json ipc-down-10.json
	assert_failure 1
	assert_equal "$(verdict ipc)" regression
	assert_equal "$(jq -r '.events[2].direction' diff.json)" higher-is-better
	diff_json base.json ipc-down-10.json --lower-is-better ipc
	assert_success
	assert_equal "$(verdict ipc)" improvement
}

@test "--higher-is-better turns more cycles into an improvement" {
	diff_json base.json cycles-up-10.json --higher-is-better cycles
	assert_success
	assert_equal "$(verdict cycles)" improvement
	assert_equal "$(jq -r '.events[0].direction' diff.json)" higher-is-better
}

@test "per-run values: a tight 5% shift is significant (Welch), exit 1" {
	diff_json runs-base.json runs-up-5.json
	assert_failure 1
	assert_equal "$(jq -r '.events[0].test' diff.json)" welch
	assert_equal "$(jq -r '.events[0].new.runs' diff.json)" 5
	jq -e '.events[0].p < 0.001 and .events[0].df > 7' diff.json >/dev/null ||
		fail "p, df: $(jq -c '.events[0] | [.p, .df]' diff.json)"
	assert_equal "$(verdict cycles)" regression
}

@test "per-run values: a noisy 5% shift is not significant, exit 0" {
	diff_json runs-base.json runs-noisy-up-5.json
	assert_success
	assert_equal "$(jq -r '.events[0].test' diff.json)" welch
	jq -e '.events[0].p > 0.05 and .events[0].change_pct > 2' diff.json >/dev/null ||
		fail "p, change: $(jq -c '.events[0] | [.p, .change_pct]' diff.json)"
	assert_equal "$(verdict cycles)" unchanged
}

@test "per-run values: a significant change under the threshold does not count" {
	diff_json runs-base.json runs-up-5.json --threshold 10
	assert_success
	assert_equal "$(verdict cycles)" unchanged
	diff_json runs-base.json runs-up-5.json --alpha 1e-20
	assert_success
}

@test "a stats object stands in for the runs; events only on one side are not compared" {
	diff_json runs-base.json stats-up-5.json
	assert_failure 1
	assert_equal "$(jq -r '.events[0].test' diff.json)" welch
	assert_equal "$(jq -r '.events[1].note' diff.json)" "only in BASE"
}

@test "--event compares only the events named" {
	diff_json base.json cycles-up-10.json --event instructions -e task-clock
	assert_success
	assert_equal "$(jq -r '[.events[].name] | join(",")' diff.json)" instructions,task-clock
}

@test "repeated names are matched in order" {
	diff_json dup-base.json dup-new.json
	assert_failure 1
	assert_equal "$(jq -r '[.events[].verdict] | join(",")' diff.json)" unchanged,regression
}

@test "--for-each-cgroup reports: an event is matched by name and cgroup, not by place" {
	diff_json cgroup-base.json cgroup-new.json
	assert_failure 1
	validate_diff diff.json
	assert_equal "$(jq -r .schema_version diff.json)" 1.2
	assert_equal "$(jq -c '[.events[] | [.name, .cgroup, .verdict, .change_pct, .note]]' diff.json)" \
		'[["task-clock",null,"unchanged",0,null],["task-clock","db","regression",10,null],["task-clock","web","not compared",null,"only in BASE"],["page-faults","db","unchanged",0,null],["task-clock","api","not compared",null,"only in NEW"]]'
	# --event takes the name in every cgroup
	diff_json cgroup-base.json cgroup-new.json --event task-clock
	assert_equal "$(jq -r '[.events[] | .cgroup // "-"] | join(",")' diff.json)" -,db,web,api
	run "$PMUPROF" diff "$F/cgroup-base.json" "$F/cgroup-new.json"
	assert_failure 1
	assert_line --index 0 --regexp '^event +cgroup +base +new +change +test +verdict$'
	assert_line --regexp '^task-clock +- +10,000,000 ns +10,000,000 ns +\+0\.00% +threshold +unchanged$'
	assert_line --regexp '^task-clock +db +4,000,000 ns +4,400,000 ns +\+10\.00% +threshold +regression$'
	run "$PMUPROF" diff -f markdown "$F/cgroup-base.json" "$F/cgroup-new.json"
	assert_line "| event | cgroup | base | new | change | test | verdict |"
	assert_line "| \`task-clock\` | \`db\` | 4,000,000 ns | 4,400,000 ns | +10.00% | threshold | **regression** |"
	# without cgroups, no such column
	run "$PMUPROF" diff "$F/base.json" "$F/same.json"
	assert_line --index 0 --regexp '^event +base +new +change +test +verdict$'
}

@test "--for-each-cgroup reports: a metric is matched by the cgroup of its events" {
	diff_json cgroup-ipc-base.json cgroup-ipc-new.json --metrics
	assert_failure 1
	validate_diff diff.json
	assert_equal "$(jq -c '[.metrics[] | select(.name == "ipc") | [.cgroup, .base.value,
		.new.value, .verdict]]' diff.json)" '[["db",2,2,"unchanged"],["web",1,0.5,"regression"]]'
	run "$PMUPROF" diff --metrics "$F/cgroup-ipc-base.json" "$F/cgroup-ipc-new.json"
	assert_failure 1
	assert_line --regexp '^metric +cgroup +base +new +change +test +verdict$'
	assert_line --regexp '^ipc +web +1 per cycle +0\.500 per cycle +-50\.00% +threshold +regression$'
}

@test "text and markdown: a row per event and the summary" {
	run "$PMUPROF" diff "$F/base.json" "$F/cycles-up-10.json"
	assert_failure 1
	assert_line --regexp '^cycles +1,000,000 +1,100,000 +\+10\.00% +threshold +regression$'
	assert_line --partial "1 regression, 0 improvements, 3 unchanged, 1 not compared"
	run "$PMUPROF" diff -f markdown "$F/base.json" "$F/cycles-up-10.json"
	assert_failure 1
	assert_line "| event | base | new | change | test | verdict |"
	assert_line "| \`cycles\` | 1,000,000 | 1,100,000 | +10.00% | threshold | **regression** |"
	assert_line --partial "**Regressed.**"
}

@test "real reports: a loop twice as long regresses task-clock" {
	"$PMUPROF" stat -e task-clock,page-faults --json -o a.json -- "$PPLOAD" spin 50
	"$PMUPROF" stat -e task-clock,page-faults --json -o b.json -- "$PPLOAD" spin 100
	run "$PMUPROF" diff -e task-clock a.json b.json
	assert_failure 1
	run "$PMUPROF" diff -e task-clock b.json a.json
	assert_success
}

# err ARGS... : exit 2 and exactly one line on stderr, nothing on stdout.
err() {
	run --separate-stderr "$PMUPROF" diff "$@"
	assert_failure 2
	assert_output ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
}

@test "error: a missing file" {
	err "$F/base.json" nope.json
	assert_equal "$stderr" "pmuprof: cannot read report 'nope.json': No such file or directory (give the path of a 'pmuprof stat --json -o FILE' report)"
}

@test "error: a truncated report" {
	err "$F/base.json" "$F/truncated.json"
	assert_regex "$stderr" "^pmuprof: cannot read report '.*truncated.json': the JSON ends early, at line [0-9]+ "
}

@test "error: invalid JSON names the line and column" {
	err "$F/invalid.json" "$F/base.json"
	assert_regex "$stderr" "^pmuprof: cannot read report '.*invalid.json': invalid JSON at line 14, column 13 "
}

@test "error: an empty file" {
	err "$F/base.json" "$F/empty.json"
	assert_regex "$stderr" "': the file is empty "
}

@test "error: a schema major version other than 1" {
	err "$F/base.json" "$F/schema-2.json"
	assert_regex "$stderr" "schema version '2.0' is not one this pmuprof reads \(1.x; "
}

@test "error: JSON that is not a report" {
	err "$F/not-a-report.json" "$F/base.json"
	assert_regex "$stderr" "no \"schema_version\" string, so not a pmuprof stat report"
}

@test "error: no event in common" {
	err "$F/base.json" "$F/other-events.json"
	assert_regex "$stderr" "^pmuprof: cannot compare '.*base.json' and '.*other-events.json': no event in common "
}

@test "error: --event naming an event one report lacks" {
	err "$F/base.json" "$F/other-events.json" --event branches
	assert_regex "$stderr" "^pmuprof: cannot compare event 'branches': it is not in '.*base.json' "
}

@test "error: bad options and arguments exit 2" {
	run "$PMUPROF" diff --format xml "$F/base.json" "$F/same.json"
	assert_failure 2
	run "$PMUPROF" diff --threshold -3 "$F/base.json" "$F/same.json"
	assert_failure 2
	run "$PMUPROF" diff --alpha 2 "$F/base.json" "$F/same.json"
	assert_failure 2
	run "$PMUPROF" diff "$F/base.json"
	assert_failure 2
	run "$PMUPROF" diff --higher-is-better cycles --lower-is-better cycles "$F/base.json" "$F/same.json"
	assert_failure 2
}

# The row of metric $1 in diff.json, field $2.
metric_field() {
	jq -r --arg n "$1" "[.metrics[] | select(.name == \$n)][0].$2" diff.json
}

@test "--metrics: IPC from per-run counts is tested run by run; its drop is a regression" {
	diff_json metrics-base.json metrics-ipc-down.json --metrics
	assert_equal "$status" 1
	assert_equal "$(jq -r .schema_version diff.json)" 1.2
	assert_equal "$(metric_field ipc direction)" higher-is-better
	assert_equal "$(metric_field ipc test)" welch
	assert_equal "$(metric_field ipc verdict)" regression
	assert_equal "$(metric_field ipc unit)" "per cycle"
	# each run's IPC (instructions / cycles of that run), their mean
	assert_equal "$(metric_field ipc base.runs)" 5
	assert_equal "$(jq -r '[.metrics[] | select(.name == "ipc")][0].base.value * 1000 | round' diff.json)" 2000
	assert_equal "$(jq -r '[.metrics[] | select(.name == "ipc")][0].new.value * 1000 | round' diff.json)" 1800
	# fewer instructions alone would be an improvement: the metric says what the counts do not
	assert_equal "$(verdict instructions)" improvement
	assert_equal "$(jq -r .summary.regressions diff.json)" 2
}

@test "--metrics: a mix (load_percentage) has no better direction: its change is 'changed', not a regression" {
	diff_json metrics-base.json metrics-ipc-down.json --metrics
	assert_equal "$(metric_field load_percentage direction)" none
	assert_equal "$(metric_field load_percentage verdict)" changed
	assert_equal "$(jq -r .summary.changed diff.json)" 1
	# given a direction, it is judged
	diff_json metrics-base.json metrics-ipc-down.json --metrics --higher-is-better load_percentage \
		--higher-is-better ipc
	assert_equal "$(metric_field load_percentage verdict)" improvement
	assert_equal "$(metric_field ipc verdict)" regression	# already higher-is-better
	diff_json metrics-base.json metrics-ipc-down.json --metrics --lower-is-better ipc
	assert_equal "$(metric_field ipc verdict)" improvement
}

@test "metrics: compared only with --metrics or when --event names one; events and metrics of one name stay apart" {
	diff_json metrics-base.json metrics-ipc-down.json
	assert_equal "$(jq -r '.metrics | length' diff.json)" 0
	diff_json metrics-base.json metrics-ipc-down.json -e ipc
	assert_equal "$status" 1
	assert_equal "$(jq -r '.events | length' diff.json)" 0
	assert_equal "$(jq -r '[.metrics[].name] | join(",")' diff.json)" ipc
	# base.json has an event named ipc (2.0) as well as the metric from cycles and instructions
	diff_json base.json ipc-down-10.json -e ipc
	assert_equal "$(jq -r '[.events[].name] | join(",")' diff.json)" ipc
	assert_equal "$(verdict ipc)" regression
	assert_equal "$(metric_field ipc verdict)" unchanged
	run -2 "$PMUPROF" diff -e load_percentage "$F/base.json" "$F/metrics-base.json"
	assert_output --partial "load_percentage"
}

@test "--metrics in text and markdown: a table of metrics under the events', and the changed count" {
	run -1 "$PMUPROF" diff --metrics "$F/metrics-base.json" "$F/metrics-ipc-down.json"
	assert_regex "$output" $'\nmetric +base +new +change +test +verdict\nipc +2\\.000 per cycle'
	assert_regex "$output" "load_percentage .* changed"
	assert_output --partial "2 regressions, 1 improvement, 2 unchanged, 1 changed, 0 not compared"
	run -1 "$PMUPROF" diff --metrics -f markdown "$F/metrics-base.json" "$F/metrics-ipc-down.json"
	assert_output --partial "| metric | base | new | change | test | verdict |"
	assert_regex "$output" '\| `ipc` \|.*\*\*regression\*\*'
	# without metrics the summary is as before
	run -1 "$PMUPROF" diff "$F/metrics-base.json" "$F/metrics-ipc-down.json"
	refute_output --partial " changed,"
	refute_output --partial "metric "
}

@test "error: a value of the wrong type names the file and the field" {
	jq '.events[0].value = "twenty"' "$F/base.json" > str.report
	err "$F/base.json" str.report
	assert_regex "$stderr" "^pmuprof: cannot read report 'str.report': \.events\[0\]\.value is a string, not a number \("
	jq '.events[1].stats = {"n": 3, "mean": false, "stddev": 1}' "$F/runs-base.json" > bool.report
	err bool.report "$F/runs-base.json"
	assert_regex "$stderr" "^pmuprof: cannot read report 'bool.report': \.events\[1\]\.stats\.mean is a boolean, not a number \("
}

# nothing_counted IN OUT: IN with every event not counted (a runner without the PMU)
nothing_counted() {
	jq '.events[] |= (.status = "not counted" | .value = null | .raw_value = null |
	    .time_running_ns = 0 | .counted_pct = null | del(.runs, .stats))' "$1" > "$2"
}

@test "nothing compared (each event not counted in a report): exit 2 unless --allow-empty" {
	nothing_counted "$F/base.json" b.json
	nothing_counted "$F/same.json" n.json
	run --separate-stderr "$PMUPROF" diff b.json n.json
	assert_failure 2
	assert_line --partial "0 regressions, 0 improvements, 0 unchanged, 5 not compared"
	assert_equal "$stderr" "pmuprof: compared nothing: no event of 'b.json' and 'n.json' was counted in both (run them where the PMU counts these events, or give --allow-empty to accept it)"
	run --separate-stderr "$PMUPROF" diff --allow-empty b.json n.json
	assert_success
	assert_equal "$stderr" ""
	# one side counted: still nothing compared
	run -2 "$PMUPROF" diff -f json "$F/base.json" n.json
	run -0 "$PMUPROF" diff --allow-empty -f markdown "$F/base.json" n.json
	# -e choosing only events not counted
	run -2 "$PMUPROF" diff -e stall_backend "$F/base.json" "$F/same.json"
}

@test "a diff report, or JSON without a command, is not a stat report" {
	run -0 "$PMUPROF" diff -f json "$F/base.json" "$F/same.json"
	printf '%s\n' "$output" > d.json
	err d.json "$F/base.json"
	assert_equal "$stderr" "pmuprof: cannot read report 'd.json': it is a diff report, not a stat report (give the JSON that 'pmuprof stat --json' wrote)"
	run --separate-stderr "$PMUPROF" report d.json
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot read report 'd.json': it is a diff report, not a stat report (give the JSON that 'pmuprof stat --json' wrote)"
	jq 'del(.command)' "$F/base.json" > nocmd.report
	err "$F/base.json" nocmd.report
	assert_regex "$stderr" "^pmuprof: cannot read report 'nocmd.report': no \"command\" array, so not a pmuprof stat report "
}

@test "control characters in names: escaped in text and markdown, kept in JSON" {
	jq '.events[0].name = "evil\u001b[2J\u0007name"' "$F/base.json" > b.json
	jq '.events[0].name = "evil\u001b[2J\u0007name"' "$F/cycles-up-10.json" > n.json
	run -1 "$PMUPROF" diff b.json n.json
	assert_line --regexp '^evil\\x1b\[2J\\x07name +1,000,000 +1,100,000 +\+10\.00% +threshold +regression$'
	run -1 "$PMUPROF" diff -f markdown b.json n.json
	assert_line --partial '| `evil\x1b[2J\x07name` | 1,000,000 |'
	run -1 "$PMUPROF" diff -f json b.json n.json
	printf '%s\n' "$output" > d.json
	assert_equal "$(jq -r '.events[0].name' d.json)" $'evil\e[2J\aname'
}

@test "BASE or NEW given as - is read from standard input" {
	run -1 bash -c '"$1" diff - "$2" < "$3"' _ "$PMUPROF" "$F/cycles-up-10.json" "$F/base.json"
	assert_line --regexp '^cycles +1,000,000 +1,100,000 '
	run -2 --separate-stderr "$PMUPROF" diff - - < "$F/base.json"
	assert_equal "$stderr" "pmuprof diff: standard input (-) can be BASE or NEW, not both"$'\n'"Try 'pmuprof diff --help' for more information."
}
