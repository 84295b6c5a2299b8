#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat -r/--warmup/--prepare/--cleanup: every run kept, statistics checked against
# values computed here independently (awk), run order seen through side effects, the series
# stopping at a failure, perf's -r CSV shape, and pmuprof diff on real repeated reports.

load helpers

# stats_check I: event I's stats recomputed from its "runs" with awk (sample stddev,
# t(0.975, n-1) for n = 5: 2.7764451051977987) must agree to 1e-9 relative.
stats_check() {
	local i=$1
	jq -r ".events[$i].runs[]" report.json | sort -g > runs.txt
	local want got
	want=$(awk '{ x[NR] = $1; s += $1 } END {
		n = NR; m = s / n; for (i = 1; i <= n; i++) v += (x[i] - m) ^ 2; sd = sqrt(v / (n - 1))
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		t = 2.7764451051977987; h = t * sd / sqrt(n)
		printf "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", m, med, sd, x[1], x[n], sd / m, m - h, m + h, sd / sqrt(n) / m }' runs.txt)
	got=$(jq -r ".events[$i].stats | [.mean, .median, .stddev, .min, .max, .cv, .ci95_low, .ci95_high, .rse] | map(tostring) | join(\" \")" report.json)
	paste <(tr ' ' '\n' <<<"$want") <(tr ' ' '\n' <<<"$got") | awk '
		{ d = $1 - $2; if (d < 0) d = -d; a = $1 < 0 ? -$1 : $1
		  if (d > 1e-9 * a && d > 1e-12) { print "field " NR ": want " $1 ", got " $2; bad = 1 } }
		END { exit bad }' || fail "stats of event $i differ"
}

@test "-r 5: five runs, their statistics as computed independently, value = mean, schema-valid" {
	stat_json -r 5 -e task-clock,page-faults -- "$PPLOAD" touch 50 spin 2
	assert_success
	assert_equal "$(jqr '.repeat.runs')" 5
	assert_equal "$(jqr '.repeat.requested')" 5
	assert_equal "$(jqr '.repeat.stopped')" null
	assert_equal "$(jqr '[.events[] | .runs | length] | join(",")')" 5,5
	assert_equal "$(jqr '.events[0].stats.n')" 5
	assert_equal "$(jqr '[.events[] | .value == .stats.mean] | all')" true
	assert_equal "$(jqr '.events[1].stats.outliers | type')" array
	assert_equal "$(jqr '.time.runs | length')" 5
	assert_equal "$(jqr '.time.stats.wall_ns.n')" 5
	stats_check 0
	stats_check 1
	# the page faults of 'touch 50' are at least 50 in every run
	assert_equal "$(jqr '[.events[1].runs[] | . >= 50] | all')" true
}

@test "-r 1: one run, stats with n = 1 and null where undefined" {
	stat_json -r 1 -e page-faults -- true
	assert_success
	assert_equal "$(jqr '.events[0].runs | length')" 1
	assert_equal "$(jqr '.events[0].stats | [.stddev, .cv, .ci95_low, .rse] | map(tostring) | join(",")')" null,null,null,null
	assert_equal "$(jqr '.events[0].stats.mean == .events[0].value')" true
}

@test "without -r the report has no runs or stats (schema 1.0 readers see what they knew)" {
	stat_json -e page-faults -- true
	assert_success
	assert_equal "$(jqr '.events[0] | has("runs") or has("stats")')" false
	assert_equal "$(jqr 'has("repeat")')" false
}

@test "--warmup runs are not recorded, and --prepare runs before each of them too" {
	stat_json --warmup 2 -r 3 --prepare "echo p >> $PWD/prep.log" -e page-faults -- true
	assert_success
	assert_equal "$(wc -l < prep.log)" 5
	assert_equal "$(jqr '.repeat.warmup')" 2
	assert_equal "$(jqr '.events[0].runs | length')" 3
}

@test "--prepare, the run and --cleanup alternate, in that order" {
	stat_json -r 2 --warmup 1 --prepare "echo prepare >> $PWD/order.log" \
		--cleanup "echo cleanup >> $PWD/order.log" -e page-faults -- \
		sh -c "echo run >> $PWD/order.log"
	assert_success
	assert_equal "$(tr '\n' ' ' < order.log)" "prepare run cleanup prepare run cleanup prepare run cleanup "
}

@test "a failing run stops the series: the runs made are reported, its status is pmuprof's" {
	stat_json -r 5 -e page-faults -- sh -c "echo x >> $PWD/n; [ \$(wc -l < $PWD/n) -lt 3 ]"
	assert_failure 1
	assert_equal "$(wc -l < n)" 3
	assert_equal "$(jqr '.repeat.runs')" 3
	assert_equal "$(jqr '.events[0].runs | length')" 3
	assert_equal "$(jqr '.repeat.stopped')" "recorded run 3 exited with status 1"
	assert_equal "$(jqr '.exit.status')" 1
	assert_regex "$output" "recorded run 3 exited with status 1: stopping after 3 recorded runs"
}

@test "a failing --prepare ends the series with a message" {
	run -2 --separate-stderr "$PMUPROF" stat -r 3 --prepare false -e page-faults -o r.txt -- true
	assert_failure 2
	assert_regex "$stderr" "the prepare command 'false' failed \(status 1\) at run 1: stopping"
	run --separate-stderr "$PMUPROF" stat -r 3 --cleanup 'exit 4' -e page-faults -o r.txt -- true
	assert_regex "$stderr" "the cleanup command 'exit 4' failed \(status 4\) at run 1"
	grep -q "stopped early" r.txt
}

@test "text: '(N runs)' and perf's '( +- x.xx% )' beside each count and the times" {
	run -0 --separate-stderr "$PMUPROF" stat -r 4 -e task-clock,page-faults -- true
	assert_regex "$stderr" "Performance counter stats for 'true' \(4 runs\):"
	assert_regex "$stderr" "page-faults +# .*\( \+- +[0-9]+\.[0-9]{2}% \)"
	assert_regex "$stderr" "seconds time elapsed +\( \+- +[0-9]+\.[0-9]{2}% \)"
}

@test "CSV with -r: perf's order, the variance (relative standard error) after the event" {
	run -0 --separate-stderr "$PMUPROF" stat -r 3 -x, -e task-clock,page-faults -- true
	for line in "${stderr_lines[@]}"; do
		assert_equal "$(awk -F, '{ print NF }' <<<"$line")" 8
	done
	assert_regex "${stderr_lines[1]}" '^[0-9]+,,page-faults,[0-9]+\.[0-9]{2}%,[0-9]+,100\.00,'
}

@test "usage errors: -r 0, -r x, -I with -r" {
	run -2 --separate-stderr "$PMUPROF" stat -r 0 true
	assert_regex "$stderr" "-r takes a whole number from 1 to 2147483647, not '0'"
	run -2 --separate-stderr "$PMUPROF" stat -r x true
	run -2 --separate-stderr "$PMUPROF" stat -r 2 -I 10 true
	assert_regex "$stderr" "-I and -r cannot be combined"
}

@test "pmuprof diff on real -r 3 reports: same workload 0, many more page faults 1" {
	"$PMUPROF" stat -r 3 -j -o a.json -e page-faults -- "$PPLOAD" touch 200
	"$PMUPROF" stat -r 3 -j -o b.json -e page-faults -- "$PPLOAD" touch 200
	"$PMUPROF" stat -r 3 -j -o c.json -e page-faults -- "$PPLOAD" touch 2000
	for f in a b c; do check_report $f.json; done
	run "$PMUPROF" diff --threshold 5% a.json b.json
	assert_success
	run "$PMUPROF" diff --threshold 1% a.json c.json
	assert_failure 1
}
