#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat --regions: named regions a program marks (pmuprof/region.h, or two lines of
# shell or Python): each region's counts are the sum of the counters' changes between its
# begins and ends, with its calls and wall time, in text and JSON; nesting, threads and
# children summed and flagged, and a channel misused never holds pmuprof up.

load helpers

PPREGION=${PPREGION:-$ROOT/${O:-build}/ppregion}

# jq over report.json: region NAME's field (.calls, .events[0].raw_value, ...)
region() {
	jq -r --arg n "$1" ".regions[] | select(.name == \$n) | $2" report.json
}

# Fails unless $1 is within [$2, $3].
between() {
	[ "$1" -ge "$2" ] || fail "$1 is below $2"
	[ "$1" -le "$3" ] || fail "$1 is above $3"
}

@test "--regions: a region touching N new pages counts N page faults" {
	stat_json --regions -e page-faults -- "$PPREGION" touch 300 begin a touch 1000 end a \
		begin b touch 50 end b touch 200
	assert_success
	assert_equal "$(jqr '[.regions[].name] | join(",")')" a,b
	between "$(region a '.events[0].raw_value')" 1000 1003
	between "$(region b '.events[0].raw_value')" 50 53
	assert_equal "$(region a '.calls')" 1
	assert_equal "$(region a '.unended')" 0
	assert_equal "$(region a '.overlapped')" false
	assert_equal "$(region a '.events[0].name')" page-faults
	assert_equal "$(region a '.events[0].status')" counted
	# the whole run has them all, and more
	[ "$(jqr '.events[0].raw_value')" -ge 1550 ] || fail "the run counted fewer"
	[ "$(region a '.wall_ns')" -gt 0 ] || fail "no wall time"
	assert_equal "$(jqr '.region_stray_ends')" 0
}

@test "--regions: calls summed over executions; nesting; every event per region" {
	stat_json --regions -e page-faults,task-clock,duration_time -- "$PPREGION" \
		begin outer touch 100 begin inner touch 200 end inner touch 300 \
		begin inner touch 400 end inner end outer
	assert_success
	assert_equal "$(region inner '.calls')" 2
	assert_equal "$(region outer '.calls')" 1
	between "$(region inner '.events[0].raw_value')" 600 604
	between "$(region outer '.events[0].raw_value')" 1000 1006
	assert_equal "$(region outer '.events | length')" 3
	# duration_time of a region is its wall time
	assert_equal "$(region outer '.events[2].raw_value')" "$(region outer '.wall_ns')"
	assert_equal "$(region inner '.events[1].status')" counted
}

@test "--regions: text has a block per region, after the whole run's" {
	run -0 --separate-stderr "$PMUPROF" stat --regions -e page-faults -- "$PPREGION" \
		begin load touch 500 end load
	assert_regex "$stderr" "Region 'load' \(1 call, 0\.[0-9]{9} seconds\):"
	block=$(sed -n "/Region 'load'/,\$p" <<<"$stderr")
	pf=$(awk '/page-faults/ { gsub(",", "", $1); print $1 }' <<<"$block")
	between "$pf" 500 503
}

@test "report: a region's field of the wrong type is refused, naming it, never read as 0" {
	stat_json --regions -e page-faults -- "$PPREGION" begin load touch 50 end load
	jq '.regions[0].calls = "1"' report.json > calls.report
	run -2 --separate-stderr "$PMUPROF" report calls.report
	assert_regex "$stderr" "^pmuprof: cannot read report 'calls.report': \.regions\[0\]\.calls is a string, not a number "
	jq '.regions[0].events[0].raw_value = true' report.json > raw.report
	run -2 --separate-stderr "$PMUPROF" report raw.report
	assert_regex "$stderr" ": \.regions\[0\]\.events\[0\]\.raw_value is a boolean, not a number "
	jq '.region_stray_ends = "0"' report.json > stray.report
	run -2 --separate-stderr "$PMUPROF" diff stray.report report.json
	assert_regex "$stderr" ": \.region_stray_ends is a string, not a number "
}

@test "--regions: threads and children are summed, the overlap flagged" {
	stat_json --regions -e page-faults -- "$PPREGION" threads 4 t 200 fork c 300
	assert_success
	assert_equal "$(region t '.calls')" 4
	assert_equal "$(region c '.calls')" 1
	# a child's faults are counted: the counters follow it
	between "$(region c '.events[0].raw_value')" 300 340
	[ "$(region t '.events[0].raw_value')" -ge 800 ] || fail "the threads' pages are missing"
	assert_equal "$(region c '.overlapped')" false
}

@test "--regions: the same region open twice at once is flagged as overlapped" {
	stat_json --regions -e page-faults -- "$PPREGION" begin r begin r touch 10 end r end r
	assert_success
	assert_equal "$(region r '.calls')" 2
	assert_equal "$(region r '.overlapped')" true
}

@test "--regions: a shell marker and a Python marker, two lines each way" {
	cat > mark.sh <<'SH'
echo "begin sh" >&"$PMUPROF_CTL_FD"; read -r -t 5 ack <&"$PMUPROF_ACK_FD"
"$1" touch 700
echo "end sh" >&"$PMUPROF_CTL_FD"; read -r -t 5 ack <&"$PMUPROF_ACK_FD"
echo "$ack" > sh-answer
SH
	cat > mark.py <<'PY'
import os, subprocess, sys
ctl, ack = int(os.environ["PMUPROF_CTL_FD"]), int(os.environ["PMUPROF_ACK_FD"])
os.write(ctl, b"begin py\n"); os.read(ack, 4)
subprocess.run([sys.argv[1], "touch", "900"], check=True)
os.write(ctl, b"end py\n"); a = os.read(ack, 4)
open("py-answer", "wb").write(a)
PY
	stat_json --regions -e page-faults -- bash mark.sh "$PPREGION"
	assert_success
	assert_equal "$(cat sh-answer)" ack
	# the pages and the start of the process that touches them
	between "$(region sh '.events[0].raw_value')" 700 900
	mv report.json sh.json
	stat_json --regions -e page-faults -- python3 mark.py "$PPREGION"
	assert_success
	assert_equal "$(cat py-answer)" ack
	between "$(region py '.events[0].raw_value')" 900 1100
}

@test "--regions: an end without a begin is a warning, counted in the report" {
	run -0 --separate-stderr "$PMUPROF" stat --regions -j -o report.json -e page-faults -- \
		"$PPREGION" end nobody begin a end a end a
	assert_equal "$(grep -c "region 'nobody' ended without a begin" <<<"$stderr")" 1
	assert_equal "$(jqr '.region_stray_ends')" 2
	assert_equal "$(region a '.calls')" 1
}

@test "--regions: a region begun and never ended, a program killed inside one" {
	run -137 --separate-stderr "$PMUPROF" stat --regions -j -o report.json -e page-faults -- \
		"$PPREGION" begin done touch 10 end done begin dying touch 10 kill 9
	assert_equal "$(region dying '.unended')" 1
	assert_equal "$(region dying '.calls')" 0
	assert_equal "$(region dying '.events[0].status')" "not counted"
	assert_equal "$(region done '.calls')" 1
	check_report report.json
	run -0 --separate-stderr "$PMUPROF" stat --regions -e page-faults -- "$PPREGION" begin x
	assert_regex "$stderr" "Begun 1 time and never ended"
}

@test "--regions: a 100 KB name is refused by the header and by pmuprof" {
	name=$(head -c 102400 /dev/zero | tr '\0' n)
	run -0 --separate-stderr "$PMUPROF" stat --regions -e page-faults -- "$PPREGION" \
		begin "$name" touch 10
	assert_output "begin $name: -36 (File name too long)"
	# written by hand: pmuprof answers err and warns once
	cat > long.sh <<SH
printf 'begin %s\n' "$name" >&"\$PMUPROF_CTL_FD"; read -r -t 5 a <&"\$PMUPROF_ACK_FD"
echo "\$a" > answer
SH
	run -0 --separate-stderr "$PMUPROF" stat --regions -e page-faults -- bash long.sh
	assert_equal "$(cat answer)" "err line too long"
	assert_equal "$(grep -c "ignoring a line of more than 4095 bytes" <<<"$stderr")" 1
}

@test "--regions: garbage and a bad name: warned once, the status kept" {
	cat > junk.sh <<'SH'
printf 'hello\nbegin a b\n' >&"$PMUPROF_CTL_FD"
read -r -t 5 a <&"$PMUPROF_ACK_FD"; echo "$a" > answer
exit 4
SH
	run -4 --separate-stderr "$PMUPROF" stat --regions -e page-faults -- bash junk.sh
	assert_equal "$(cat answer)" "err bad region name"
	assert_equal "$(grep -c "ignoring 'hello' on the control channel" <<<"$stderr")" 1
	assert_equal "$(grep -c "ignoring region 'a b'" <<<"$stderr")" 1
}

@test "--regions: a closed channel: the marks fail, the program and pmuprof go on" {
	run -0 --separate-stderr "$PMUPROF" stat --regions -j -o report.json -e page-faults -- \
		"$PPREGION" begin a touch 10 end a close begin b touch 10 end b
	# the first mark after the close fails; the channel is off from then on
	assert_output "begin b: -9 (Bad file descriptor)"
	assert_equal "$(jqr '[.regions[].name] | join(",")')" a
}

@test "--regions: a program that never reads its answers does not hold pmuprof up" {
	cat > deaf.sh <<'SH'
for i in $(seq 30000); do echo ping; done >&"$PMUPROF_CTL_FD"
exit 6
SH
	run -6 --separate-stderr timeout 30 "$PMUPROF" stat --regions -e page-faults -- bash deaf.sh
	assert_equal "$(grep -c "answer channel is full, never read" <<<"$stderr")" 1
}

@test "--regions: the program's wait is bounded when pmuprof does not answer" {
	# pmuprof stopped (SIGSTOP) after the command started: the mark times out, the program
	# goes on, and the marks after it do nothing
	cat > stop.sh <<'SH'
kill -STOP $PPID
PMUPROF_REGION_TIMEOUT_MS=300 "$1" begin a end a > out
kill -CONT $PPID
SH
	run -0 --separate-stderr timeout 20 "$PMUPROF" stat --regions -e page-faults -- \
		bash stop.sh "$PPREGION"
	assert_equal "$(cat out)" "begin a: -110 (Connection timed out)"
}

@test "--regions: pmuprof gone: the mark fails at once with EPIPE" {
	cat > orphan.sh <<'SH'
kill -KILL $PPID
sleep 0.2
"$1" begin a end a > out
SH
	run timeout 20 "$PMUPROF" stat --regions -e page-faults -- bash orphan.sh "$PPREGION"
	for _ in $(seq 50); do [ -s out ] && break; sleep 0.1; done
	assert_equal "$(cat out)" "begin a: -32 (Broken pipe)"
}

@test "--regions: without pmuprof the marks do nothing and succeed" {
	run -0 env -u PMUPROF_CTL_FD -u PERF_CTL_FIFO "$PPREGION" begin a touch 10 end a end z
	assert_output ""
}

@test "--regions -r 3: per-region statistics and per-run values" {
	stat_json --regions -r 3 -e page-faults -- "$PPREGION" begin a touch 400 end a
	assert_success
	assert_equal "$(region a '.events[0].runs | length')" 3
	assert_equal "$(region a '.events[0].stats.n')" 3
	assert_equal "$(region a '.calls')" 1
	for k in 0 1 2; do
		between "$(region a ".events[0].runs[$k]")" 400 403
	done
	assert_equal "$(region a '.wall_stats.n')" 3
}

@test "--regions: refused without a command, and with --control" {
	run -2 "$PMUPROF" stat --regions -a --timeout 10
	assert_output --partial "--regions counts the regions a command marks: give one to run"
	run -2 "$PMUPROF" stat --regions --control fd:3 -- true
	assert_output --partial "--regions and --control both give the command's channel"
}

@test "--regions: nothing is made in /tmp, and the channel is not left open in the command" {
	run -0 --separate-stderr "$PMUPROF" stat -e page-faults -- "$PPLOAD" fds
	without=$(sort -n <<<"$output")
	run -0 --separate-stderr env TMPDIR="$BATS_TEST_TMPDIR/t" "$PMUPROF" stat --regions \
		-e page-faults -- sh -c 'echo "$PMUPROF_CTL_FD"; echo "$PMUPROF_ACK_FD"; exec "$0" fds' \
		"$PPLOAD"
	# the command has the descriptors it has without --regions, and the two it is told of
	ctl=${lines[0]} ack=${lines[1]}
	assert_equal "$(printf '%s\n' "${lines[@]:2}" | sort -n)" \
		"$(printf '%s\n' $without "$ctl" "$ack" | sort -n)"
	[ ! -e "$BATS_TEST_TMPDIR/t" ] || fail "a temporary directory was made"
}

@test "diff: a region's regression fails it, though the whole run did not move" {
	# the same pages in all, moved from region a to region b
	stat_json --regions -r 3 -e page-faults -- "$PPREGION" begin a touch 300 end a \
		begin b touch 100 end b
	mv report.json base.json
	stat_json --regions -r 3 -e page-faults -- "$PPREGION" begin a touch 100 end a \
		begin b touch 300 end b
	mv report.json new.json
	run -1 "$PMUPROF" diff --threshold 5 base.json new.json
	assert_regex "$output" $'\npage-faults +[0-9.]+ .* unchanged'
	assert_regex "$output" $'\nregion a: page-faults .* improvement'
	assert_regex "$output" $'\nregion b: page-faults .* regression'
	run -0 "$PMUPROF" diff --event 'region a: page-faults' base.json new.json
	assert_output --partial "1 improvement"
}

@test "report: a saved report's regions printed again" {
	stat_json --regions -e page-faults -- "$PPREGION" begin load touch 500 end load
	run -0 "$PMUPROF" report report.json
	assert_regex "$output" "Region 'load' \(1 call, 0\.[0-9]{9} seconds\):"
	pf=$(sed -n "/Region 'load'/,\$p" <<<"$output" | awk '/page-faults/ { gsub(",", "", $1); print $1 }')
	between "$pf" 500 503
}

@test "--regions -x: a region field leads every row" {
	run -0 --separate-stderr "$PMUPROF" stat --regions -x, -e page-faults -- "$PPREGION" \
		begin a touch 100 end a begin b,c touch 10 end b,c
	assert_equal "${#stderr_lines[@]}" 3
	assert_regex "${stderr_lines[0]}" '^,[0-9]+,,page-faults,'
	assert_regex "${stderr_lines[1]}" '^a,10[0-3],,page-faults,'
	assert_regex "${stderr_lines[2]}" '^"b,c",1[0-3],,page-faults,'
}

@test "--regions --export: one benchmark per region (bmf, github-benchmark), a region label (openmetrics)" {
	run -0 "$PMUPROF" stat --regions --name bench -e page-faults --export bmf:b.json \
		--export github-benchmark:g.json --export openmetrics:o.txt -- "$PPREGION" \
		begin load touch 200 end load
	assert_equal "$(jq -r 'keys | join(";")' b.json)" "bench;bench / load"
	between "$(jq '."bench / load"."page-faults".value' b.json)" 200 203
	assert_equal "$(jq -r '[.[].name] | join(";")' g.json)" "bench - page-faults;bench - load: page-faults"
	assert_regex "$(cat o.txt)" $'\npmuprof_region_event_value\\{region="load",event="page-faults",pmu="software"\\} 20[0-3]\n'
	assert_regex "$(cat o.txt)" $'\npmuprof_region_calls\\{region="load"\\} 1\n'
	assert_equal "$(tail -1 o.txt)" "# EOF"
}
