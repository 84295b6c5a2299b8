# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# shellcheck disable=SC2154,SC2153 # m, O, HA, HB, xm, xa, xb, HX_OK: set by check_hetero.sh
# check_targets.sh: sourced by check.sh. perf's targets on the hetero machine (
# guest/cases-hetero): -A and -C count CPU by CPU, -p and -t attach to a running task, -a
# ends at --timeout, and events split over both PMUs are multiplexed; each held to the exact
# counts of the workloads' sources, and compared with Debian's perf in the same guest. The
# tool runs on CPU 3, which the -C cases leave out. Uses check_hetero's variables and HX_JQ.
#
# Where perf reads more than pmuprof: on a CPU it counts with -a or -C, perf 6.1 moves itself
# to that CPU to enable and to disable its counters there (evlist__enable/disable with an
# affinity), so a few hundred of its own user-space instructions count on every CPU; pmuprof
# moves only to open, before counting starts, and enables from its own CPU. So perf's figure
# on a CPU is pmuprof's plus perf's own: at least pmuprof's, and at most TX_PERF_OWN more.
TX_PERF_OWN=1000

# The jq definitions of these checks (after HX_JQ). units(e; want): event e has one unit per
# [unit, cpu, raw] of want, in that order, each counted all its time and exact (raw null:
# any count above 0, the tool's own CPU). top(target; aggr): the report's header.
# shellcheck disable=SC2016 # $u, $w ... are jq variables
TX_JQ='
def units(e; want):
	(e.units // []) as $u |
	need([$u[] | [.unit, .cpu]] == [want[] | .[0:2]];
	     "\(e.name): units \([$u[] | [.unit, .cpu]]), not \([want[] | .[0:2]])"),
	($u | to_entries[] | .value as $p | want[.key] as $w | select($w) |
	 need($p.status == "counted" and $p.value == $p.raw_value and $p.counted_pct == 100 and
	      $p.time_running_ns == $p.time_enabled_ns and
	      (if $w[2] == null then $p.raw_value > 0 else $p.raw_value == $w[2] end);
	      "\(e.name) \($p.unit): \($p.status) raw \($p.raw_value) value \($p.value) \($p.counted_pct)%, not \($w[2] // "> 0") at 100%"));
def top(target; aggr):
	need(.schema_version == "1.8"; "schema_version \(.schema_version)"),
	need(.target == target; "target \(.target), not \(target)"),
	need(.aggregation == aggr; "aggregation \(.aggregation), not \(aggr)");
'

# tx_pp BASE PROGRAM: hx_pp with TX_JQ too (pmuprof's report BASE.json; $x, $xa, $xb are
# migrate's total and its parts on A and B).
tx_pp() { hx_pp "$1" "$xm" "$xa" "$xb" "$TX_JQ$2"; }

# tx_perf BASE TOOL CPU:WANT...: perf's -A report BASE.err, against the values pmuprof read
# (WANT: exact, or "=WANT" for exactly WANT): perf's value on CPU is between WANT and WANT +
# TX_PERF_OWN. Prints what is wrong.
tx_perf() {
	b=$1
	shift
	[ "$(cat "$b.rc" 2>/dev/null)" = 0 ] || echo "exit status $(cat "$b.rc" 2>/dev/null)"
	for cw in "$@"; do
		c=${cw%%:*} w=${cw#*:}
		v=$(awk -F, -v c="CPU$c" '$1 == c && $4 ~ /inst_retired/ && $2 ~ /^[0-9]+$/ { print $2; exit }' "$b.err")
		case $w in
		=*) [ "$v" = "${w#=}" ] || echo "perf CPU$c: '$v', not ${w#=}" ;;
		*) [ -n "$v" ] && [ "$v" -ge "$w" ] && [ "$v" -le $((w + TX_PERF_OWN)) ] ||
			echo "perf CPU$c: '$v', not $w to $((w + TX_PERF_OWN))" ;;
		esac
	done
}

# tx_perf_p BASE WANT: perf -p's report BASE.err: WANT on A, not counted on B.
tx_perf_p() {
	[ "$(cat "$1.rc" 2>/dev/null)" = 0 ] || echo "exit status $(cat "$1.rc" 2>/dev/null)"
	a=$(perf_val "$1.err" "$HA/inst_retired/u") b=$(perf_val "$1.err" "$HB/inst_retired/u")
	[ "$a" = "$2" ] && [ "$b" = '<not counted>' ] || echo "perf -p: $HA '$a', $HB '$b'"
}

# tx_best NAME PROGRAM: the first attempt of pmuprof's NAME that PROGRAM finds right (its
# number in TX_OK; empty when none), for the peer checks that compare with it.
tx_best() { hx_attempts "$1" tx_pp "$2" && TX_OK=$HX_OK || TX_OK=''; }

# tx_raw NAME UNIT: the raw value of inst_retired:u's unit UNIT in pmuprof's right attempt.
tx_raw() {
	jq -r --arg u "$2" '.events[0].units[] | select(.unit == $u) | .raw_value' \
		"$O/$1.$TX_OK.json" 2>/dev/null
}

# check_targets: the cases (check_hetero's variables: m, O, HA, HB, HTYPES, xa, xb).
check_targets() {
	x0=$(wl_migrate_phase 0) x2=$(wl_migrate_phase 2) xs=$(wl_sloop_spin)
	l0=$(hx_grouped "$x0") l2=$(hx_grouped "$x2") ls=$(hx_grouped "$xs")
	# -A -C 0-2: migrate's phases on CPU 0 and CPU 2, nothing on CPU 1; its start on CPU 3
	# is not counted; each part on its PMU
	a="[[\"CPU0\", 0, $x0], [\"CPU1\", 1, 0], [\"CPU2\", 2, $x2]]"
	# shellcheck disable=SC2016 # $a, $b, $n ... are jq variables
	tx_best pp-A.migrate "top(\"CPU(s) 0-2\"; \"cpu\"),
		(\"inst_retired:u\", \"cpu_cycles:u\") as \$n | event(\$n) as \$e |
		need(\$e.value == $((x0 + x2)); \"\\(\$n): \\(\$e.value), not $((x0 + x2))\"),
		units(\$e; $a),
		parts(\$e; [[\$a, \"0-1\", $x0], [\$b, \"2-3\", $x2]]; \$e.split[0].config)"
	hx_tap "$m: pmuprof -A -C 0-2 on CPU 3: migrate counted $l0 on CPU0 ($HA), 0 on CPU1, $l2 on CPU2 ($HB), exactly; its start on CPU 3 left out"
	hx_attempts perf-A.migrate tx_perf 0:"$x0" 1:0 2:"$x2"
	hx_tap "$m: perf -a -A: migrate on CPU0, CPU1, CPU2 as pmuprof's -A -C 0-2 (plus perf's own instructions there, at most $TX_PERF_OWN)"
	# -C 0-1: CPU 2 left out, and with it the part on $HB
	# shellcheck disable=SC2016
	tx_best pp-C01.migrate "top(\"CPU(s) 0-1\"; \"cpu\"),
		(\"inst_retired:u\", \"cpu_cycles:u\") as \$n | event(\$n) as \$e |
		need(\$e.value == $x0; \"\\(\$n): \\(\$e.value), not $x0\"),
		units(\$e; [[\"CPU0\", 0, $x0], [\"CPU1\", 1, 0]]),
		parts(\$e; [[\$a, \"0-1\", $x0]]; \$e.split[0].config)"
	hx_tap "$m: pmuprof -A -C 0-1: migrate's $l0 on CPU0, 0 on CPU1, and CPU 2 (its $l2) left out: no CPU2 row, no $HB part"
	# shellcheck disable=SC2016
	hx_attempts pp-C01agg.migrate tx_pp "top(\"CPU(s) 0-1\"; \"global\"),
		event(\"inst_retired:u\") as \$e | need(\$e.value == $x0; \"total \\(\$e.value), not $x0\"),
		need((\$e.units // []) == []; \"units \\(\$e.units)\"),
		parts(\$e; [[\$a, \"0-1\", $x0]]; \"0x8\")"
	hx_tap "$m: pmuprof -C 0-1 (summed): migrate $l0, CPU 2 left out"
	hx_attempts perf-C01.migrate tx_perf 0:"$x0" 1:0
	hx_tap "$m: perf -A -C 0-1: CPU0 and CPU1 as pmuprof's (plus perf's own there, at most $TX_PERF_OWN)"

	# -p and -t attach to sloop during its sleep: what it runs after it is counted, exactly,
	# on CPU 0's PMU; the other PMU's part never ran
	for t in p:process t:thread; do
		# shellcheck disable=SC2016
		hx_attempts "pp-${t%%:*}.sloop" tx_pp "
			need(.target | test(\"^${t#*:} id '[0-9]+'\$\"); \"target \\(.target)\"),
			event(\"inst_retired:u\") as \$e | need(\$e.value == $xs; \"total \\(\$e.value), not $xs\"),
			parts(\$e; [[\$a, \"0-1\", $xs], [\$b, \"2-3\", null]]; \"0x8\")"
		hx_tap "$m: pmuprof -${t%%:*}: attached to sloop in its sleep, counts its $ls after it exactly, on $HA; $HB not counted"
	done
	hx_attempts perf-p.sloop tx_perf_p "$xs"
	hx_tap "$m: perf -p: sloop's $ls after its sleep on $HA, as pmuprof's -p"

	# -a --timeout 300, no command: sloop's spin on CPU0, nothing on CPUs 1 and 2, the tool's
	# own instructions on CPU 3 (any number)
	a="[[\"CPU0\", 0, $xs], [\"CPU1\", 1, 0], [\"CPU2\", 2, 0], [\"CPU3\", 3, null]]"
	# shellcheck disable=SC2016
	tx_best pp-a.sloop "top(\"system wide\"; \"cpu\"),
		need(.timeout_ms == 300 and .timed_out == true; \"timeout_ms \\(.timeout_ms) timed_out \\(.timed_out)\"),
		(\"inst_retired:u\", \"cpu_cycles:u\") as \$n | event(\$n) as \$e | units(\$e; $a),
		(\$e.units[] | need(.time_enabled_ns >= 300000000; \"\\(\$n) \\(.unit): enabled \\(.time_enabled_ns) ns, under the 300 ms timeout\"))"
	hx_tap "$m: pmuprof -a -A --timeout 300 (no command): sloop's $ls on CPU0, 0 on CPU1 and CPU2, pmuprof's own on CPU3; timed_out, each CPU enabled 300 ms or more"
	# shellcheck disable=SC2016
	hx_attempts pp-a-agg.sloop tx_pp "top(\"system wide\"; \"global\"),
		need(.timed_out == true; \"timed_out \\(.timed_out)\"),
		event(\"inst_retired:u\") as \$e |
		need(\$e.split[0].raw_value == $xs and \$e.split[1].raw_value > 0 and
		     \$e.value == \$e.split[0].raw_value + \$e.split[1].raw_value;
		     \"total \\(\$e.value), parts \\([\$e.split[].raw_value])\")"
	hx_tap "$m: pmuprof -a --timeout 300 (summed): $ls on $HA (CPUs 0-1), pmuprof's own on $HB (CPUs 2-3), total their sum"
	if [ -n "$TX_OK" ]; then
		c3=$(tx_raw pp-a.sloop CPU3)
		hx_attempts perf-a.sloop tx_perf 0:"$xs" 1:0 2:0
		hx_tap "$m: perf -a -A --timeout 300: CPU0 to CPU2 as pmuprof's (plus perf's own there, at most $TX_PERF_OWN); on CPU 3, the tools' own: pmuprof $c3, perf $(awk -F, '$1 == "CPU3" { print $2; exit }' "$O/perf-a.sloop.1.err")"
	else
		tap_fail "$m: perf -a -A --timeout 300 as pmuprof's" "no right attempt of pmuprof's to compare with"
	fi
	check_targets_mux
}

# check_targets_mux: big.LITTLE under multiplexing. Each part is one of three things: counted
# all its window (running = enabled) and exact; scaled by its own times, value = raw x window
# / running (to 1 in the last place), raw at most the exact count; or never on a counter (the
# kernel rotates every 4 ms, and a phase of migrate lasts 4 or 8 ms): "not counted", raw 0,
# value null. A total is the sum of its counted parts' values, its running time theirs, and
# its counted_pct 100 x running / enabled. pp-mux: 12 events on both PMUs, at least one part
# multiplexed on each. pp-mux1: inst_retired:u alone on $HA (exact, 100%) while 6 events
# given on $HB share that PMU with its other part (7 on 6 counters: each runs part of the time).
check_targets_mux() {
	# shellcheck disable=SC2016 # $p, $v ... are jq variables
	mx='
	def scaled(p; x; where):
		if p.time_running_ns == 0 then
			need(p.status == "not counted" and p.raw_value == 0 and p.value == null;
			     "\(where): never on a counter: \(p.status) raw \(p.raw_value) value \(p.value)")
		elif p.time_running_ns == p.time_enabled_ns then
			need(p.status == "counted" and p.raw_value == x and p.value == x;
			     "\(where): counted 100%: raw \(p.raw_value) value \(p.value), not \(x)")
		else
			(p.raw_value * p.time_enabled_ns / p.time_running_ns) as $v |
			need(p.status == "counted" and p.value != null and (p.value - $v | fabs) <= 1 and
			     p.raw_value <= x;
			     "\(where): raw \(p.raw_value) x \(p.time_enabled_ns) / \(p.time_running_ns) = \($v), value \(p.value)")
		end;
	def total(e):
		([e.split[] | select(.status == "counted") | .value] | add) as $s |
		([e.split[].time_running_ns] | add) as $r |
		need(e.status == "counted" and e.value != null and (e.value - $s | fabs) <= (e.split | length) and
		     e.time_running_ns == $r and (e.counted_pct - 100 * $r / e.time_enabled_ns | fabs) < 1e-6;
		     "\(e.name): total \(e.status) \(e.value) running \(e.time_running_ns) \(e.counted_pct)%, parts \([e.split[].value]) running \($r)");
	def muxed(pmu): [.events[].split[]? | select(.pmu == pmu and .time_running_ns < .time_enabled_ns)] | length;
	'
	# shellcheck disable=SC2016
	hx_attempts pp-mux.migrate tx_pp "$mx"'
		need((.events | length) == 12; "\(.events | length) events"),
		need([.events[] | select(.status == "counted")] | length > 0; "nothing counted"),
		(.events[] | select(.status == "counted") | . as $e |
		 need([.split[]?.pmu] == [$a, $b]; "\(.name): parts \([.split[]?.pmu])"),
		 scaled(.split[0]; $xa; "\(.name) on \($a)"), scaled(.split[1]; $xb; "\(.name) on \($b)"),
		 total($e)),
		need(muxed($a) > 0 and muxed($b) > 0; "multiplexed parts: \(muxed($a)) on \($a), \(muxed($b)) on \($b)")'
	hx_tap "$m: pmuprof: 12 events split over both PMUs, multiplexed on each: every part exact at 100% or raw x window / running, and each total the sum of its parts"
	# shellcheck disable=SC2016
	hx_attempts pp-mux1.migrate tx_pp "$mx"'
		event("inst_retired:u") as $e |
		need($e.split[0].pmu == $a and $e.split[0].time_running_ns == $e.split[0].time_enabled_ns and
		     $e.split[0].raw_value == $xa;
		     "inst_retired:u on \($a): raw \($e.split[0].raw_value) running \($e.split[0].time_running_ns) of \($e.split[0].time_enabled_ns), not \($xa) all the time"),
		scaled($e.split[1]; $xb; "inst_retired:u on \($b)"), total($e),
		need($e.split[1].time_running_ns < $e.split[1].time_enabled_ns; "inst_retired:u on \($b): not multiplexed"),
		need((.events | length) == 7; "\(.events | length) events"),
		(.events[1:][] | scaled(.; $xb; .name)),
		need(muxed($b) > 0; "nothing multiplexed on \($b)")'
	hx_tap "$m: pmuprof: inst_retired:u = $(hx_grouped "$xa") on $HA (alone there, exact) + its $HB part scaled by its own times (6 more events there, multiplexed)"
}
