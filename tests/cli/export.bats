#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat --export FORMAT:FILE and pmuprof report --format FORMAT: each format read by
# its consumer's rules (OpenMetrics by python3-prometheus-client's parser; BMF and
# github-action-benchmark against their documented shapes; a markdown table's shape), values
# equal to the JSON report's of the same run, -r's confidence interval computed here again,
# and the files written atomically, refused before the command runs when they cannot be.
load helpers

# all_formats [STAT OPTIONS...] -- COMMAND: one run writing every export and the JSON report.
all_formats() {
	run "$PMUPROF" stat -o out.txt --export json:r.json --export bmf:bmf.json \
		--export github-benchmark:gh.json --export openmetrics:om.txt \
		--export markdown:table.md "$@"
	for f in r.json bmf.json gh.json om.txt table.md; do
		[ -s "$f" ] || fail "stat wrote no $f (status $status): $output"
	done
	check_report r.json
}

# The benchmark's name in BMF: the command's basename and its arguments.
bench_name() {
	jq -r '.command | .[0] |= sub(".*/"; "") | join(" ")' r.json
}

# Bencher Metric Format (bencher.dev/docs/reference/bencher-metric-format): an object of
# benchmarks, each an object of measures, each {value, lower_value?, upper_value?} of numbers
# and nothing else.
check_bmf_shape() {
	jq -e 'type == "object" and length == 1 and
	       ([.[] | type == "object" and length > 0] | all) and
	       ([.[][] | type == "object" and (.value | type == "number") and
		 ((keys - ["value", "lower_value", "upper_value"]) == []) and
		 ((has("lower_value") | not) or (.lower_value | type == "number")) and
		 ((has("upper_value") | not) or (.upper_value | type == "number"))] | all)' \
		"$1" >/dev/null || fail "$1 is not in Bencher Metric Format: $(cat "$1")"
}

# github-action-benchmark's custom tools (customSmallerIsBetter): an array of {name, unit,
# value, range?, extra?}, name and unit strings, value a number, range and extra strings.
check_gh_shape() {
	jq -e 'type == "array" and length > 0 and
	       ([.[] | type == "object" and (.name | type == "string") and
		 (.unit | type == "string") and (.value | type == "number") and
		 ((keys - ["name", "unit", "value", "range", "extra"]) == []) and
		 ((has("range") | not) or (.range | type == "string")) and
		 ((has("extra") | not) or (.extra | type == "string"))] | all)' \
		"$1" >/dev/null || fail "$1 is not github-action-benchmark's format: $(cat "$1")"
}

# Lines "SERIES VALUE" with the value printed alike whatever its spelling (2, 2.0, 2e0), sorted.
norm() {
	awk '{ $NF = sprintf("%.17g", $NF); print }' | sort
}

# The counted events of r.json, {name: value}.
counted() {
	jq -cS '[.events[] | select(.status == "counted") | {(.name): .value}] | add // {}' r.json
}

@test "BMF: the documented shape; one measure per counted event, values the JSON report's" {
	all_formats -e task-clock,page-faults,context-switches,cycles -- "$PPLOAD" touch 50
	assert_success
	check_bmf_shape bmf.json
	assert_equal "$(jq -r 'keys[0]' bmf.json)" "$(bench_name)"
	assert_equal "$(jq -cS '[.[] | to_entries[] | {(.key): .value.value}] | add' bmf.json)" \
		"$(counted)"
	# no interval without runs
	assert_equal "$(jq '[.[][] | select(has("lower_value"))] | length' bmf.json)" 0
}

@test "github-benchmark: the documented shape; values the JSON report's" {
	all_formats -e task-clock,page-faults,cycles -- "$PPLOAD" touch 50
	check_gh_shape gh.json
	assert_equal "$(jq -cS '[.[] | {(.name): .value}] | add' gh.json)" "$(counted)"
	assert_equal "$(jq -r '.[] | select(.name == "task-clock") | .unit' gh.json)" ns
	assert_equal "$(jq -r '.[] | select(.name == "page-faults") | .unit' gh.json)" count
}

@test "--name names the benchmark in BMF, github-benchmark and JSON" {
	all_formats --name 'sort 1k' -e task-clock,page-faults -- "$PPLOAD" touch 5
	assert_success
	assert_equal "$(jq -r 'keys | join(",")' bmf.json)" "sort 1k"
	assert_equal "$(jq -r .name r.json)" "sort 1k"
	assert_equal "$(jq -r '[.[].name] | join(",")' gh.json)" "sort 1k - task-clock,sort 1k - page-faults"
	jq -e 'all(.[]; .extra | startswith("command: ppload touch 5\n"))' gh.json
	# pmuprof report names it as stat did
	for f in bmf:bmf.json github-benchmark:gh.json; do
		"$PMUPROF" report --format "${f%%:*}" r.json > again || fail "report --format ${f%%:*}"
		cmp again "${f#*:}" || fail "$(diff again "${f#*:}")"
	done
	run --separate-stderr "$PMUPROF" stat --name '' -e task-clock -- touch ran
	assert_failure 2
	assert_regex "$stderr" "^pmuprof stat: --name is empty \(give the benchmark a name, e.g. --name 'sort 1k'\)"
	[ ! -e ran ] || fail "the command ran"
}

@test "without --name the benchmark is the command's basename and arguments, wherever it is" {
	all_formats -e task-clock -- "$PPLOAD" touch 5
	assert_equal "$(jq -r 'keys[0]' bmf.json)" "ppload touch 5"
	assert_equal "$(jq -r .name r.json)" null
	assert_equal "$(jq -r '.[0].name' gh.json)" task-clock
	assert_equal "$(jq -r '.[0].extra | split("\n")[0]' gh.json)" "command: ppload touch 5"
	mkdir -p elsewhere/bin
	cp "$PPLOAD" elsewhere/bin/ppload
	(cd elsewhere && "$PMUPROF" stat --export bmf:b.json -e task-clock -- bin/ppload touch 5) ||
		fail "stat failed"
	assert_equal "$(jq -r 'keys[0]' elsewhere/b.json)" "ppload touch 5"
}

@test "OpenMetrics: read by prometheus_client's parser; a sample per counted event, the JSON's values" {
	all_formats -e task-clock,page-faults,cycles -- "$PPLOAD" touch 50
	om_check om.txt > samples || fail "the parser refused om.txt: $(cat samples)"
	assert_equal "$(tail -n 1 om.txt)" "# EOF"
	# every counted event's value, labelled with its event and PMU
	jq -r '.events[] | select(.status == "counted") |
	       "pmuprof_event_value{event=\(.name),pmu=\(.pmu)} \(.value)"' r.json | norm > want
	grep '^pmuprof_event_value{' samples | norm > got
	diff want got || fail "event samples differ"
	# the share of time counted of every event, 0 for those not counted
	jq -r '.events[] | "pmuprof_event_running_ratio{event=\(.name),pmu=\(.pmu)} \(if .status ==
	       "counted" then .counted_pct / 100 else 0 end)"' r.json | norm > want
	grep '^pmuprof_event_running_ratio{' samples | norm > got
	diff want got || fail "running ratios differ"
	assert_equal "$(grep -c '^pmuprof_time_seconds{' samples)" 3
	wall=$(jq -r '.time.wall_ns' r.json)
	assert_equal "$(grep '^pmuprof_time_seconds{time=wall}' samples | norm)" \
		"$(echo "pmuprof_time_seconds{time=wall} $(awk -v w="$wall" 'BEGIN { printf "%.17g", w / 1e9 }')" | norm)"
}

@test "OpenMetrics with -I: one sample per event per interval, the intervals' ends" {
	all_formats -I 20 -e page-faults,task-clock -- "$PPLOAD" trickle 6 15
	om_check om.txt > samples || fail "the parser refused om.txt: $(cat samples)"
	[ "$(jq '.intervals | length' r.json)" -ge 2 ] || fail "fewer than 2 intervals"
	# built from r.json's intervals, each event's PMU from its entry in .events
	jq -r '(.events | map({(.name): .pmu}) | add) as $pmu | .intervals | to_entries[] |
	       .key as $i | .value.events[] | select(.value != null) |
	       "pmuprof_interval_value{event=\(.name),interval=\($i + 1),pmu=\($pmu[.name])} \(.value)"' \
		r.json | norm > want
	grep '^pmuprof_interval_value{' samples | norm > got
	diff want got || fail "interval samples differ"
	assert_equal "$(grep -c '^pmuprof_interval_end_seconds{' samples)" "$(jq '.intervals | length' r.json)"
}

@test "OpenMetrics on a big.LITTLE fixture: a sample per core type's PMU, labelled with its CPUs" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76
	all_formats -e inst_retired,task-clock -- "$PPLOAD" spin 2
	om_check om.txt > samples || fail "the parser refused om.txt: $(cat samples)"
	grep -qx 'pmuprof_event_running_ratio{cpus=0-3,event=inst_retired,pmu=armv8_cortex_a55} 0' samples ||
		fail "no A55 part: $(cat samples)"
	grep -qx 'pmuprof_event_running_ratio{cpus=4-7,event=inst_retired,pmu=armv8_cortex_a76} 0' samples ||
		fail "no A76 part: $(cat samples)"
}

@test "markdown: a table, a row per event in order, every row as wide as the header" {
	all_formats -e task-clock,page-faults,cycles -- "$PPLOAD" touch 50
	awk 'function cells(s) { gsub(/\\\|/, "", s); return gsub(/\|/, "|", s) - 1 }
	     NR == 1 { n = cells($0); if (n < 2) exit 1; next }
	     NR == 2 { if ($0 !~ /^(\| *:?-+:? *)+\|$/ || cells($0) != n) exit 2; next }
	     { if (cells($0) != n || $0 !~ /^\|.*\|$/) exit 3 }' table.md ||
		fail "not a markdown table: $(cat table.md)"
	assert_equal "$(tail -n +3 table.md | cut -d'|' -f2 | sed 's/^ //; s/ $//')" \
		"$(jq -r '.events[].name' r.json)"
	assert_equal "$(grep '^| page-faults ' table.md | cut -d'|' -f3 | tr -d ' ')" \
		"$(jq -r '.events[] | select(.name == "page-faults") | .value' r.json)"
}

# The 97.5% quantile of Student's t with 4 degrees of freedom, for a 95% interval from 5 runs
# (NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2).
T975_4=2.776445105

@test "-r 5: BMF's lower and upper values are the 95% confidence interval of the mean" {
	all_formats -r 5 -e task-clock,page-faults -- "$PPLOAD" touch 50 spin 1
	check_bmf_shape bmf.json
	check_gh_shape gh.json
	for ev in task-clock page-faults; do
		read -r mean lo hi < <(jq -r --arg e "$ev" --argjson t "$T975_4" '
			.events[] | select(.name == $e) | .runs as $x | ($x | length) as $n |
			($x | add / $n) as $m | ([$x[] | (. - $m) * (. - $m)] | add / ($n - 1) | sqrt) as $s |
			"\($m) \($m - $t * $s / ($n | sqrt)) \($m + $t * $s / ($n | sqrt))"' r.json)
		read -r v l h < <(jq -r --arg e "$ev" '.[][$e] | "\(.value) \(.lower_value) \(.upper_value)"' bmf.json)
		awk -v a="$v" -v b="$mean" 'BEGIN { exit !(a == b || (a - b) ^ 2 <= (1e-9 * b) ^ 2) }' ||
			fail "$ev: value $v, not the mean $mean"
		awk -v a="$l" -v b="$lo" -v m="$mean" 'BEGIN { exit !((a - b) ^ 2 <= (1e-6 * m) ^ 2) }' ||
			fail "$ev: lower_value $l, not $lo"
		awk -v a="$h" -v b="$hi" -v m="$mean" 'BEGIN { exit !((a - b) ^ 2 <= (1e-6 * m) ^ 2) }' ||
			fail "$ev: upper_value $h, not $hi"
		[ "$(jq -r --arg e "$ev" '.[] | select(.name == $e) | .range | startswith("± ")' gh.json)" = true ] ||
			fail "$ev: no range in gh.json"
	done
}

@test "pmuprof report --format prints each export as stat wrote it" {
	all_formats -r 2 -e task-clock,page-faults -- "$PPLOAD" touch 20
	for f in bmf:bmf.json github-benchmark:gh.json openmetrics:om.txt markdown:table.md; do
		"$PMUPROF" report --format "${f%%:*}" r.json > again || fail "report --format ${f%%:*}"
		cmp again "${f#*:}" || fail "$(diff again "${f#*:}")"
	done
}

@test "the workload's status is kept and the exports written; a failed write fails a passing run" {
	run "$PMUPROF" stat --export bmf:bmf.json -e task-clock -- "$PPLOAD" exit 3
	assert_failure 3
	check_bmf_shape bmf.json
	# /dev/full takes the file but not its bytes: the export fails after the run
	run --separate-stderr "$PMUPROF" stat --export bmf:/dev/full -e task-clock -- "$PPLOAD" exit 3
	assert_failure 3
	assert_regex "$stderr" "pmuprof: cannot write bmf export '/dev/full': No space left on device"
	run --separate-stderr "$PMUPROF" stat --export openmetrics:/dev/full -e task-clock -- "$PPLOAD" spin 1
	assert_failure 2
}

# refused SPEC MESSAGE: stat --export SPEC exits 2 with MESSAGE before the command runs.
refused() {
	run --separate-stderr "$PMUPROF" stat --export "$1" -e task-clock -- sh -c 'touch ran'
	assert_failure 2
	assert_regex "$stderr" "$2"
	[ ! -e ran ] || fail "the command ran"
}

@test "refused before the command runs: an unknown format, no file, an unwritable path, a directory" {
	refused yaml:out.yaml "--export takes FORMAT:FILE with FORMAT one of text, json, csv, bmf, github-benchmark, openmetrics, markdown, not 'yaml:out.yaml'"
	refused bmf "--export takes FORMAT:FILE"
	refused bmf: "--export 'bmf:' names no file"
	refused bmf:nodir/bmf.json "^pmuprof: cannot write bmf export 'nodir/bmf.json': No such file or directory \(choose a writable path for --export\)$"
	mkdir d
	refused markdown:d "^pmuprof: cannot write markdown export 'd': it names a directory"
	run "$PMUPROF" stat --export bmf:x.json --export markdown:x.json -e task-clock -- true
	assert_failure 2
	assert_output --partial "names a file another --export writes"
	# the first export's temporary file is not left behind when the second is refused
	run --separate-stderr "$PMUPROF" stat --export bmf:ok.json --export markdown:nodir/t.md \
		-e task-clock -- sh -c 'touch ran'
	assert_failure 2
	[ ! -e ran ] && [ ! -e ok.json ] || fail "the command ran, or ok.json was written"
	assert_equal "$(ls -A | grep -c '^\.ok\.json')" 0
}

@test "a run that fails leaves no export, not even half of one; an old file stays as it was" {
	echo old > bmf.json
	run -127 "$PMUPROF" stat --export bmf:bmf.json --export markdown:t.md -e task-clock -- ./no-such-command
	assert_failure 127
	assert_equal "$(cat bmf.json)" old
	[ ! -e t.md ] || fail "t.md was written"
	assert_equal "$(ls -A | grep -c '^\.')" 0
}
