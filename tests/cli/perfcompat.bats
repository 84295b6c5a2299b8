#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# perfcompat.bats: owns pmuprof stat side by side with Debian's perf 6.1 for the perf options
# a perf user brings along (-d, -v, -n, --all-user, --all-kernel, -i, --log-fd, the tool
# events duration_time, user_time, system_time) and for -I's derived figures: on this
# machine's software events, what must agree does (the events and their units, exit statuses,
# counts within a tolerance). pmuprof's side is asserted first, so that a machine without
# perf still checks it; the comparison then skips with the reason.
# shellcheck disable=SC2154 # bats run sets $output, $lines, $stderr
load helpers

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

# The events of a -x report in file $1, one "NAME,VALUE-OR-STATUS" a line ("<...>" kept, a
# count replaced by N), in order.
csv_events() {
	awk -F, '{ v = $1 ~ /^</ ? $1 : "N"; print $3 "," v }' "$1"
}

@test "-d, -dd, -ddd without an Arm PMU: perf's generic cache events, not supported as perf's" {
	ns='<not supported>'
	for d in -d -dd -ddd; do
		run --separate-stderr "$PMUPROF" stat "$d" -x, -e task-clock -- true
		assert_success
		printf '%s\n' "$stderr" >pp.csv
		want="task-clock,N"$'\n'"L1-dcache-loads,$ns"$'\n'"L1-dcache-load-misses,$ns"$'\n'"LLC-loads,$ns"$'\n'"LLC-load-misses,$ns"
		[ "$d" = -d ] || want+=$'\n'"L1-icache-loads,$ns"$'\n'"L1-icache-load-misses,$ns"$'\n'"dTLB-loads,$ns"$'\n'"dTLB-load-misses,$ns"$'\n'"iTLB-loads,$ns"$'\n'"iTLB-load-misses,$ns"
		[ "$d" != -ddd ] || want+=$'\n'"L1-dcache-prefetches,$ns"$'\n'"L1-dcache-prefetch-misses,$ns"
		assert_equal "$(csv_events pp.csv)" "$want"
	done
	# without -e: perf's default set, then the detailed events
	run --separate-stderr "$PMUPROF" stat -d -x, -- true
	printf '%s\n' "$stderr" >pp.csv
	assert_equal "$(awk -F, '{ print $3 }' pp.csv | paste -sd ' ')" \
		"task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses"
	need_perf
	for d in -d -dd -ddd; do
		"$PMUPROF" stat "$d" -x, -- true 2>pp.csv
		perf stat "$d" -x, -- true 2>perf.csv
		assert_equal "$(csv_events pp.csv)" "$(csv_events perf.csv)"
	done
}

@test "-d, -dd, -ddd on Arm: the common PMUv3 events each core's tables have (fixture trees)" {
	n1_d=l1d_cache,l1d_cache_refill,ll_cache_rd,ll_cache_miss_rd
	n1_dd=$n1_d,l1i_cache,l1i_cache_refill,l1d_tlb,l1d_tlb_refill,l1i_tlb,l1i_tlb_refill
	n1_ddd=$n1_dd,l2d_cache,l2d_cache_refill,l2d_tlb,l2d_tlb_refill,dtlb_walk,itlb_walk
	for d in d dd ddd; do
		PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server stat_json "-$d" -e task-clock -- true
		assert_success
		want=n1_$d
		assert_equal "$(jqr '[.events[].name] | join(",")')" "task-clock,${!want}"
		# on the fixture's PMU they are never opened: not counted, as the fixture's events
		assert_equal "$(jqr '[.events[1:][].status] | unique | join(",")')" "not counted"
	done
	# the plan names them too, each on an event counter of the fixture's PMU
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run --separate-stderr "$PMUPROF" stat -d --plan -e task-clock true
	assert_success
	for e in l1d_cache l1d_cache_refill ll_cache_rd ll_cache_miss_rd; do
		[[ $output =~ (^|$'\n')\ +$e\ +armv8_pmuv3_0\ + ]] || fail "--plan lacks $e: $output"
	done
	# Cortex-A57 (Armv8.0): no LL_CACHE_RD, so the L2 pair is the last level; it counts
	# L1D_TLB_REFILL and L1I_TLB_REFILL but not their accesses, which are left out
	PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57 stat_json -ddd -e task-clock -- true
	assert_equal "$(jqr '[.events[].name] | join(",")')" \
		"task-clock,l1d_cache,l1d_cache_refill,l2d_cache,l2d_cache_refill,l1i_cache,l1i_cache_refill,l1d_tlb_refill,l1i_tlb_refill"
	# big.LITTLE: the events both core types have, each split over them
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 stat_json -d -e task-clock -- true
	assert_equal "$(jqr '[.events[].name] | join(",")')" "task-clock,$n1_d"
	# --cpu-model on a host without an Arm PMU: that core's names
	run --separate-stderr "$PMUPROF" stat --cpu-model cortex-a57 -dd --plan -e task-clock true
	assert_success
	assert_equal "$(grep -oE '^  [a-z0-9_-]+' <<<"$output" | tr -d ' ' | paste -sd,)" \
		"task-clock,l1d_cache,l1d_cache_refill,l2d_cache,l2d_cache_refill,l1i_cache,l1i_cache_refill,l1d_tlb_refill,l1i_tlb_refill"
}

@test "-n, --null: no counters, the elapsed, user and system time only, as perf -n" {
	"$PMUPROF" stat -n -- sleep 0.1 2>pp.txt
	shape=$(text_shape pp.txt)
	assert_equal "$shape" "$(printf '\n Performance counter stats for %s:\n\nT seconds time elapsed\n\nT seconds user\nT seconds sys' "'sleep 0.1'")"
	wall=$(awk '/seconds time elapsed/ { print $1 }' pp.txt)
	awk -v w="$wall" 'BEGIN { exit !(w >= 0.1 && w < 5) }' || fail "elapsed $wall"
	stat_json -n -- true
	assert_success
	assert_equal "$(jqr '.events | length')" 0
	[ "$(jqr '.time.wall_ns')" -gt 0 ] || fail "no time: $(cat report.json)"
	# -x has no line to print (perf -n -x prints nothing either)
	run --separate-stderr "$PMUPROF" stat -n -x, -- sh -c 'exit 3'
	assert_failure 3
	assert_equal "$stderr" ""
	run --separate-stderr "$PMUPROF" stat -n -e task-clock -- true
	assert_failure 2
	[[ $stderr == "pmuprof stat: -n counts no event, only the times: -e gives events to count (give one of them)"* ]] || fail "$stderr"
	need_perf
	perf stat -n -- sleep 0.1 2>perf.txt
	assert_equal "$(text_shape perf.txt)" "$shape"
	# the child sleeps first: perf 6.1's SIGCHLD handler clears child_pid,
	# so a child that exits before perf reaches wait4 leaves perf exiting 0
	# (3 in 200 runs here)
	run --separate-stderr perf stat -n -x, -- sh -c 'sleep 0.2; exit 3'
	assert_failure 3
	assert_equal "$stderr" ""
}

@test "-v: each event's encoding, then each counter's 'NAME: VALUE ENABLED RUNNING' as perf -v" {
	run --separate-stderr "$PMUPROF" stat -v -e task-clock,page-faults,cycles -- "$PPLOAD" touch 100
	assert_success
	[[ $stderr == *"event 'task-clock': PMU software, type 1, config 0x1"* ]] || fail "$stderr"
	[[ $stderr == *"event 'page-faults': PMU software, type 1, config 0x2"* ]] || fail "$stderr"
	[[ $stderr == *"event 'cycles': PMU cpu, type 0, config 0x0 (on Arm: event 0x0011)"* ]] || fail "$stderr"
	[[ $stderr =~ (^|$'\n')task-clock:\ [0-9]+\ [0-9]+\ [0-9]+($'\n') ]] || fail "$stderr"
	[[ $stderr == *"cycles: not counted: the kernel refused to open it ("* ]] || fail "$stderr"
	[[ $stderr =~ (^|$'\n')page-faults:\ ([0-9]+)\ [0-9]+\ [0-9]+($'\n') ]] || fail "$stderr"
	pf=${BASH_REMATCH[2]}
	((pf >= 100)) || fail "page-faults $pf: ppload touched 100 pages"
	# the count it prints is the report's
	row=$(grep -E ' page-faults ' <<<"$stderr")
	assert_equal "$(awk '{ gsub(",", ""); print $1 }' <<<"$row")" "$pf"
	need_perf
	run --separate-stderr perf stat -v -e task-clock,page-faults,cycles -- "$PPLOAD" touch 100
	assert_equal "$(grep -oE '^[a-z-]+: [0-9]+ [0-9]+ [0-9]+$' <<<"$stderr" | cut -d: -f1 | paste -sd,)" task-clock,page-faults
}

@test "--all-user, --all-kernel: every event counted as with :u, :k; as perf's options" {
	for lv in user kernel; do
		stat_json --all-$lv -e task-clock,page-faults -- "$PPLOAD" touch 2000
		assert_success
		# the names stay as written (perf's do), the levels change
		assert_equal "$(jqr '[.events[].name] | join(",")')" task-clock,page-faults
		other=$([ $lv = user ] && echo kernel || echo user)
		assert_equal "$(jqr "[.events[].exclude.$other] | unique | join(\",\")")" true
		eval "pf_$lv=$(jqr '.events[1].value')"
	done
	# ppload's 2000 page faults are the user's; the kernel takes a handful
	((pf_user >= 2000)) || fail "--all-user: $pf_user page faults"
	((pf_kernel < 100)) || fail "--all-kernel: $pf_kernel page faults"
	run --separate-stderr "$PMUPROF" stat --all-user -e cycles:k -- true
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot count event 'cycles:k' with --all-user: its modifier chooses other levels (drop one of them)"
	run --separate-stderr "$PMUPROF" stat --all-user --all-kernel -- true
	assert_failure 2
	need_perf
	for lv in user kernel; do
		perf stat --all-$lv -x, -e page-faults -- "$PPLOAD" touch 2000 2>perf.csv
		eval "ppf_$lv=$(cut -d, -f1 perf.csv)"
	done
	within_pct "$pf_user" "$ppf_user" 5
	((ppf_kernel < 100)) || fail "perf --all-kernel: $ppf_kernel"
	run perf stat --all-user --all-kernel -e page-faults true
	assert_failure
}

@test "-i, --no-inherit: the children a command forks are not counted, as perf -i" {
	for i in "" -i; do
		"$PMUPROF" stat $i -x, -e task-clock -- "$PPLOAD" fork 2 100 2>pp.csv
		eval "tc${i:+_i}=$(awk -F, '{ printf "%d", $1 }' pp.csv)"
	done
	# two children spin 100 ms each: about 200 ms with them, a few ms without
	((tc >= 190)) || fail "with children: $tc msec"
	((tc_i < 50)) || fail "-i: $tc_i msec"
	run --separate-stderr "$PMUPROF" stat -i -a -e cpu-clock -- true
	assert_failure 2
	[[ $stderr == *"-i leaves out the processes a task forks: -a counts every task on its CPUs"* ]] || fail "$stderr"
	need_perf
	perf stat -i -x, -e task-clock -- "$PPLOAD" fork 2 100 2>perf.csv
	ptc_i=$(awk -F, '{ printf "%d", $1 }' perf.csv)
	((ptc_i < 50)) || fail "perf -i: $ptc_i msec"
}

@test "--log-fd N: the report to descriptor N instead of stderr; --append, as perf's" {
	run --separate-stderr bash -c "\"$PMUPROF\" stat --log-fd 3 -e page-faults -- \"$PPLOAD\" exit 4 3>log.txt"
	assert_failure 4
	assert_equal "$stderr" ""
	grep -qE '^ +[0-9,]+ +page-faults$' log.txt || fail "$(cat log.txt)"
	grep -q "Performance counter stats for" log.txt || fail "$(cat log.txt)"
	# 3>> and --append: a second report after the first, its '# started on' line first
	run bash -c "\"$PMUPROF\" stat --log-fd 3 --append -x, -e page-faults -- true 3>>log.txt"
	assert_success
	grep -q "Performance counter stats for" log.txt || fail "the first report is gone: $(cat log.txt)"
	grep -qE '^# started on ' log.txt || fail "$(cat log.txt)"
	grep -qE '^[0-9]+,,page-faults,' log.txt || fail "$(cat log.txt)"
	run --separate-stderr "$PMUPROF" stat --log-fd 9 -e page-faults true
	assert_failure 2
	assert_equal "$stderr" "pmuprof: --log-fd 9: descriptor 9 is not open (open it for pmuprof, as in '9>report.txt')"
	run --separate-stderr "$PMUPROF" stat --log-fd 3 -o out.txt -e page-faults true
	assert_failure 2
	# a descriptor that cannot take the report: 2 when the command succeeded, as with -o
	run --separate-stderr bash -c "\"$PMUPROF\" stat --log-fd 3 -e page-faults -- true 3>/dev/full"
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot write the report to --log-fd 3: No space left on device"
	need_perf
	run --separate-stderr bash -c "perf stat --log-fd 3 -e page-faults -- \"$PPLOAD\" touch 10 3>perf.txt"
	assert_equal "$stderr" ""
	grep -q "Performance counter stats for" perf.txt || fail "$(cat perf.txt)"
	run bash -c "perf stat --log-fd 3 -o out.txt -e page-faults true 3>/dev/null"
	assert_failure
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
