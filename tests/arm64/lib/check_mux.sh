# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_mux.sh: sourced by check.sh. The probed counters, 14 events of
# loop3 multiplexed by the kernel (estimates within 2%) and counted in planned runs (exact).

# check_capacity M N: pmuprof info's probe found N general counters (the kernel's dmesg
# "N+1 counters available") and the cycle counter; prints the probe time as a TAP comment.
check_capacity() {
	m=$1 j=$O/pp-info.out
	n=$(sed -n 's/.*PMU driver, \([0-9]*\) counters available.*/\1/p' "$O/guest.dmesg")
	n=$((${n:-0} - 1))
	c=$(jq -r '.pmus[0].counters | "\(.probed) \(.cycle_counter) \(.probe_ms)"' "$j" 2>/dev/null)
	# shellcheck disable=SC2086 # the three words of $c
	set -- $c
	[ "$1" = "$n" ] && [ "$2" = true ]
	tap "$m: probe: $n general counters + the cycle counter" $? "counters: $c"
	echo "# $m: probe took ${3:-?} ms"
}

# check_mux_never M: 20 events on a command that ends before the kernel's first rotation: the
# events past the counters are never on one, and the multiplexing warning says they are not
# counted, not that they were counted 0.00% of the time with estimated values.
check_mux_never() {
	m=$1 j=$O/pp-mux20.true.json e=$O/pp-mux20.true.err
	nc=$(jq '[.events[] | select(.status == "not counted")] | length' "$j" 2>/dev/null)
	[ "$(cat "$O/pp-mux20.true.rc" 2>/dev/null)" = 0 ] && [ "${nc:-0}" -gt 0 ] &&
		grep -q 'multiplexed them, some were never on a counter and are not counted' "$e" &&
		! grep -q '0[.]00% of the time' "$e"
	tap "$m: 20 events on /bin/true: ${nc:-no} never on a counter, and the warning says they are not counted" \
		$? "$(tail_of "$e" 3)"
}

# check_mux14 M: the kernel's estimates within 2% of 40,000,005; --mux=runs exact.
check_mux14() {
	m=$1 x=$(wl_expect loop3)
	# shellcheck disable=SC2016 # $x is a jq variable
	out=$(jq -r --argjson x "$x" '
		def need(c; msg): if c then empty else msg end;
		need(.events | length == 14; "\(.events | length) events"),
		need(.mux.mode == "kernel" and .mux.multiplexed and .mux.runs_for_exact == 2;
		     "mux \(.mux)"),
		(.events | to_entries[] | .key as $i | .value |
		 need(.status == "counted" and ((.value - $x) | fabs) <= 0.02 * $x;
		      "\($i) \(.name): \(.status) \(.value), \(.counted_pct)%"),
		 need(.scaled == (.counted_pct < 100); "\($i): scaled \(.scaled)"))
	' "$O/pp-mux14.kernel.json" 2>&1)
	[ "$(cat "$O/pp-mux14.kernel.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: 14 events on loop3, --mux=kernel: every estimate within 2% of $x" $? "$out" \
		"$(tail_of "$O/pp-mux14.kernel.err" 3)"
	echo "# $m: --mux=kernel worst error: $(jq -r --argjson x "$x" '[.events[] |
		((.value - $x) / $x * 100 | fabs)] | max | tostring + "%"' \
		"$O/pp-mux14.kernel.json" 2>/dev/null)"
	grep -q 'exactly in 2 runs' "$O/pp-mux14.kernel.err"
	tap "$m: --mux=kernel warns once, naming 2 runs for exact counts" $? \
		"$(tail_of "$O/pp-mux14.kernel.err" 3)"
	# shellcheck disable=SC2016
	out=$(jq -r --argjson x "$x" '
		def need(c; msg): if c then empty else msg end;
		need(.mux.mode == "runs" and .mux.runs == 2 and (.mux.multiplexed | not);
		     "mux \(.mux)"),
		([.events[].run] | unique) as $r | need($r == [1, 2]; "runs \($r)"),
		(.events | to_entries[] | .key as $i | .value |
		 need(.value == $x and .raw_value == $x and .scaled == false and
		      .time_running_ns == .time_enabled_ns;
		      "\($i) \(.name): \(.value) in run \(.run), scaled \(.scaled)"))
	' "$O/pp-mux14.runs.json" 2>&1)
	[ "$(cat "$O/pp-mux14.runs.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: 14 events on loop3, --mux=runs: 2 runs, every count exactly $x" $? "$out" \
		"$(tail_of "$O/pp-mux14.runs.err" 3)"
	[ "$(cat "$O/pp-mux14.plan.rc")" = 0 ] && grep -q '^run 2:' "$O/pp-mux14.plan.out"
	tap "$m: --plan shows the two runs" $? "$(tail_of "$O/pp-mux14.plan.out" 3)"
	[ "$(cat "$O/pp-group7.rc")" = 2 ] && grep -q 'needs 9 general counters' "$O/pp-group7.err"
	tap "$m: a group of 9 can never fit: exit 2 naming what it needs" $? \
		"$(tail_of "$O/pp-group7.err" 2)"
}
