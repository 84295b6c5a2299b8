# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_mx.sh: sourced by check.sh. The metrics in the guest (schema 1.5): each metric's
# value against the value derived by hand from what QEMU 7.2's PMU counts, the value against its
# own inputs, and pmuprof report's recomputation against stat's.
#
# What QEMU's PMU counts (target/arm/helper.c of 7.2; measured here with perf on every common
# event 0x00-0x3f of the loop, on a57 and n1): INST_RETIRED (0x08) and CPU_CYCLES (0x11), and
# under -icount shift=0 one cycle per instruction, so the two are equal in one group. Every
# other event the kernel opens (it does not check raw events against PMCEID, and n1's PMCEID
# even advertises STALL_FRONTEND and STALL_BACKEND) and it reads 0. So, by hand:
#   ipc = INST_RETIRED / CPU_CYCLES = 1 exactly;
#   X / INST_RETIRED * 1000 (every *_mpki) and STALL_* / CPU_CYCLES * 100 (the *_stalled_cycles)
#     = 0 / a non-zero count = 0;
#   a ratio or a share over an event QEMU does not count (X / L1D_CACHE, X / INST_SPEC * 100,
#     (LL_CACHE_RD - LL_CACHE_MISS_RD) / LL_CACHE_RD, ...) = 0 / 0: null, "division by zero".
# An input that is truly not counted comes from a report that does not hold the event (pmuprof
# report -M), on hetero from the PMU whose CPUs the command never ran on, and where pmuprof has
# no tables for the core (a64fx): -M then adds perf's generic event where there is one
# (cache-misses for L1D_CACHE_REFILL), and the kernel refuses those that QEMU's PMCEID does not
# advertise: the metric is null, "L1D_CACHE_REFILL not counted: not supported".

# MX_JQ: the jq definitions the checks share. close(a; b): equal within the contract's relative
# 1e-9 (cJSON prints doubles with %1.15g, then %1.17g). input(m; ev): metric m's input of Arm
# event ev ({} if none). rows(m): what is wrong with m's inputs as rows of report r (each input's
# value is that of the event row its index names).
# shellcheck disable=SC2016 # $r, $m, ... are jq variables
MX_JQ='
def need(c; msg): if c then empty else msg end;
def close(a; b): (a | type) == "number" and (b | type) == "number" and
	((a - b) | fabs) <= 1e-9 * ([a, b] | map(fabs) | max);
def input(m; ev): [m.inputs[]? | select(.event == ev)] | first // {};
def rows(r; m):
	need(m.inputs | type == "array" and length > 0; "\(m.name): inputs \(m.inputs)"),
	(m.inputs[]? | . as $i |
	 need(.index | type == "number"; "\(m.name): \(.event): index \(.index)"),
	 need((.index | type) != "number" or r.events[.index].value == .value;
	      "\(m.name): \(.event) = \(.value), but its row \(.index) is \(r.events[.index]? | [.name, .value])"));
def ipc_ok(r; m; x):
	input(m; "INST_RETIRED") as $i | input(m; "CPU_CYCLES") as $c |
	need(m.formula == "INST_RETIRED / CPU_CYCLES" and m.unit == "per cycle";
	     "ipc: formula \(m.formula), unit \(m.unit)"),
	need(($i.value | type) == "number" and $i.value >= x and $c.value == $i.value;
	     "ipc: INST_RETIRED \($i.value), CPU_CYCLES \($c.value): not equal, or below \(x)"),
	need(($c.value | type) == "number" and $c.value != 0 and close(m.value; $i.value / $c.value);
	     "ipc \(m.value) != \($i.value) / \($c.value)"),
	need(close(m.value; 1) and m.reason == null; "ipc \(m.value) (\(m.reason)), not 1"),
	rows(r; m);
'

# mx_jq FILE PROGRAM ARGS...: what is wrong with FILE, read with PROGRAM after MX_JQ (jq's own
# complaint when FILE is not JSON); ARGS go to jq before the program.
mx_jq() {
	f=$1 p=$2
	shift 2
	jq -r "$@" "$MX_JQ$p" "$f" 2>&1
}

# mx_rc NAME: "" when the guest's run NAME exited 0, else what it said.
mx_rc() {
	[ "$(cat "$O/$1.rc" 2>/dev/null)" = 0 ] ||
		echo "exit status $(cat "$O/$1.rc" 2>/dev/null): $(tail_of "$O/$1.err" 3 | tr '\n' ' ')"
}

# mx_tap DESC NAME OUT: the TAP line of run NAME, whose checks printed OUT.
mx_tap() {
	r=$(mx_rc "$2")
	[ -z "$r" ] && [ -z "$3" ]
	tap "$1" $? "$r" "$3"
}

# mx_anchor FILE: the name of the row of INST_RETIRED that FILE's ipc is computed from (-M adds
# the core's Arm name, inst_retired; on a core without tables perf's, instructions).
mx_anchor() {
	jq -r '.events[first(.metrics[]? | select(.name == "ipc") | .inputs[] |
		select(.event == "INST_RETIRED") | .index) // -1]?.name // "inst_retired"' "$1" 2>/dev/null
}

# mx_line NAME EVENT: "" when the text report of run NAME prints ipc (1.000, perf's words) beside
# the count of EVENT, else the report.
mx_line() {
	grep -Eq "^ +[0-9,]+ +$2 +# +1\\.000 insn per cycle\$" "$O/$1.err" 2>/dev/null ||
		{ echo "no '<count> $2  # 1.000 insn per cycle' line in:"; tail_of "$O/$1.err" 10; }
}

# check_mx M: the metric cases of machine M (guest/cases' pp-mx-*).
check_mx() {
	m=$1 x=$(wl_expect loop) x2=$(wl_expect loop2)
	core=$(jq -r '.metric_sets[0].core // empty' "$O/pp-mx-list.out" 2>/dev/null)
	[ -n "$core" ]
	tap "$m: pmuprof list --metrics --json names this core's metric set (a core without tables: the generic one)" \
		$? "$(head -c 300 "$O/pp-mx-list.out" 2>/dev/null)" "$(tail_of "$O/pp-mx-list.err" 3)"
	# the metrics of the set: list --metrics --json's; when it names none, -M list's groups'
	MX_SET=$(jq -c '[.metric_sets[0].metrics[]?.name] | select(length > 0)' \
		"$O/pp-mx-list.out" 2>/dev/null)
	[ -n "$MX_SET" ] || MX_SET=$(awk '$1 == "group" { for (i = 3; i <= NF; i++) print $i }' \
		"$O/pp-mx-mlist.out" 2>/dev/null | grep -v ':$' | sort -u | jq -R . | jq -cs .)
	core=${core:-generic}
	# -M ipc: one metric, asked for, from one group's INST_RETIRED and CPU_CYCLES
	# shellcheck disable=SC2016 # $x, $core are jq variables
	out=$(mx_jq "$O/pp-mx-ipc.loop.json" '. as $r | [.metrics[]? | select(.name == "ipc")] as $ms |
		($ms | first // {}) as $m |
		need(.schema_version == "1.8"; "schema_version \(.schema_version)"),
		need(.metric_requests == ["ipc"]; "metric_requests \(.metric_requests)"),
		need(.metrics | type == "array" and length == 1 and ($ms | length) == 1;
		     "metrics \([.metrics[]? | .name]), not [ipc]"),
		need($m.requested == true and $m.group == "General" and $m.stage == 2 and
		     $m.estimate == false and $m.core == $core and $m.pmu == null and
		     $m.title == "IPC";
		     "ipc: requested \($m.requested) group \($m.group) stage \($m.stage) estimate \($m.estimate) core \($m.core) pmu \($m.pmu) title \($m.title)"),
		ipc_ok($r; $m; $x)' --argjson x "$x" --arg core "$core")
	mx_tap "$m: pmuprof stat -M ipc -j: ipc = INST_RETIRED / CPU_CYCLES of its inputs = 1 (shift=0)" \
		pp-mx-ipc.loop "$out"
	a=$(mx_anchor "$O/pp-mx-ipc.loop.json")
	mx_tap "$m: pmuprof stat -M ipc (text): '# 1.000 insn per cycle' beside $a" \
		pp-mx-ipc-text.loop "$(mx_line pp-mx-ipc-text.loop "$a")"
	# CSV: perf's metric-value and metric-unit fields (6 and 7) on the anchor's line
	l=$(awk -F, -v a="$a" '$3 == a && $6 + 0 == 1 && $7 == "insn per cycle"' \
		"$O/pp-mx-ipc-csv.loop.err" 2>/dev/null)
	mx_tap "$m: pmuprof stat -M ipc -x,: perf's metric fields on $a's line: 1, 'insn per cycle'" \
		pp-mx-ipc-csv.loop "$([ -n "$l" ] || tail_of "$O/pp-mx-ipc-csv.loop.err" 4 ||
			echo "no report")"
	check_mx_all "$m"
	check_mx_text "$m"
	check_mx_report "$m"
	check_mx_mux "$m"
	check_mx_generic "$m"
	# a group the core does not have: one line, exit 2, no report left behind
	# (the way out may name the core, as a command to run on another machine too)
	c=$core
	[ "$c" = generic ] && c='an unknown core'
	e="pmuprof: no metric or group 'Topdown_L1' for $c (see 'pmuprof list --metrics"
	e2=$(cat "$O/pp-mx-unknown.err")
	[ "$(cat "$O/pp-mx-unknown.rc")" = 2 ] &&
		{ [ "$e2" = "$e')" ] || [ "$e2" = "$e --cpu-model $core')" ]; } &&
		[ ! -e "$O/mx-unknown.json" ]
	tap "$m: pmuprof stat -M Topdown_L1 ($core has none): one line naming the way out, exit 2, no file" \
		$? "exit status $(cat "$O/pp-mx-unknown.rc"), file: $(ls "$O/mx-unknown.json" 2>&1)" \
		"$(head -n 4 "$O/pp-mx-unknown.err")"
}

# MX_WANT: every metric of the N1 set and of the generic set (A57's is part of it), by hand
# (see the top of this file): 1, 0, or null (0 / 0: division by zero).
MX_WANT='{"ipc": 1, "frontend_stalled_cycles": 0, "backend_stalled_cycles": 0,
	"branch_mpki": 0, "itlb_mpki": 0, "dtlb_mpki": 0, "l1i_tlb_mpki": 0, "l1d_tlb_mpki": 0,
	"l2_tlb_mpki": 0, "l1i_cache_mpki": 0, "l1d_cache_mpki": 0, "l2_cache_mpki": 0,
	"ll_cache_read_mpki": 0, "branch_misprediction_ratio": null, "itlb_walk_ratio": null,
	"dtlb_walk_ratio": null, "l1i_tlb_miss_ratio": null, "l1d_tlb_miss_ratio": null,
	"l2_tlb_miss_ratio": null, "l1i_cache_miss_ratio": null, "l1d_cache_miss_ratio": null,
	"l2_cache_miss_ratio": null, "ll_cache_read_miss_ratio": null,
	"ll_cache_read_hit_ratio": null, "load_percentage": null, "store_percentage": null,
	"integer_dp_percentage": null, "simd_percentage": null, "scalar_fp_percentage": null,
	"branch_percentage": null, "crypto_percentage": null}'

# check_mx_all M: every metric of the core's set, asked for by all its groups (guest/cases:
# /out/mx-groups), each metric's group in a run of its own (--mux=runs): each equals MX_WANT.
check_mx_all() {
	m=$1 g=$(cat "$O/mx-groups" 2>/dev/null)
	# shellcheck disable=SC2016 # $x, $core, $want, $set are jq variables
	out=$(mx_jq "$O/pp-mx-all.loop.json" '. as $r |
		($set.metric_sets[0] // {}) as $s | ($s.groups // []) as $gs |
		[.metrics[]?.name] as $got | $names as $all |
		need(($got | sort) == ($all | sort) and ($all | length) > 0;
		     "metrics of the set missing: \($all - $got); not of the set, or twice: \(($got - $all) + [$got | group_by(.)[] | select(length > 1)[0]])"),
		need(.metric_requests == ($groups | split(",")) or .metric_requests == [$groups];
		     "metric_requests \(.metric_requests), not the groups \($groups)"),
		(.metrics[]? | . as $m | ([$gs[] | select(.name == $m.group)] | first) as $g |
		 need($want | has($m.name); "\($m.name): no value derived by hand for it"),
		 need($m.requested == true and $m.estimate == false and $m.core == $core and
		      $m.pmu == null; "\($m.name): requested \($m.requested) estimate \($m.estimate) core \($m.core) pmu \($m.pmu)"),
		 need(($gs | length) == 0 or
		      $g != null and $m.stage == $g.stage and ($g.metrics | index($m.name)) != null;
		      "\($m.name): group \($m.group) stage \($m.stage): not a group of the set holding it"),
		 ((input($m; "INST_RETIRED").value, input($m; "CPU_CYCLES").value) as $ic |
		  need($ic == null or $ic >= $x; "\($m.name): INST_RETIRED or CPU_CYCLES \($ic), below \($x)")),
		 [$m.inputs[]? | select($r.events[.index // -1]?.status == "not supported") |
		  "\(.event) not counted: not supported"] as $ns |
		 ($m.inputs[]? | select(.event != "INST_RETIRED" and .event != "CPU_CYCLES") |
		  select($r.events[.index // -1]?.status != "not supported") |
		  need(.value == 0; "\($m.name): \(.event) \(.value), not 0 (QEMU does not count it)")),
		 rows($r; $m),
		 if $ns != [] then
			need($m.value == null and ($ns | index([$m.reason])) != null;
			     "\($m.name): \($m.value) (\($m.reason)), not null (\($ns | join(" or ")))")
		 elif $m.name == "ipc" then ipc_ok($r; $m; $x)
		 elif $want[$m.name] == null then
			need($m.value == null and $m.reason == "division by zero";
			     "\($m.name): \($m.value) (\($m.reason)), not null (division by zero)")
		 else
			need(close($m.value; $want[$m.name]) and $m.reason == null;
			     "\($m.name): \($m.value) (\($m.reason)), not \($want[$m.name])")
		 end)' --argjson x "$x" --arg core "$core" --argjson want "$MX_WANT" \
		--argjson set "$(jq -c . "$O/pp-mx-list.out" 2>/dev/null || echo null)" \
		--argjson names "${MX_SET:-[]}" \
		--arg groups "$g")
	n=$(jq '.metrics | length' "$O/pp-mx-all.loop.json" 2>/dev/null)
	mx_tap "$m: pmuprof stat --mux=runs -M <its $(echo "$g" | tr ',' '\n' | grep -c .) groups>: all ${n:-?} metrics of $core = the values derived by hand (ipc 1, MPKI and stalls 0, ratios over an uncounted event null)" \
		pp-mx-all.loop "$out"
}

# check_mx_text M: the text report of the same -M: each metric of the JSON report by its name,
# beside an event (ipc in perf's words, a share as a percentage, else the value: 0 by hand), or
# on a line of its own with its reason (null: division by zero).
check_mx_text() {
	# a line's end: --mux=runs tags it with its run
	m=$1 f=$O/pp-mx-all-text.loop.err miss='' t=' *( \[run [0-9]+\])?$'
	while IFS=: read -r n u v w; do
		[ -n "$n" ] || continue
		case $n:$u:$v in
		ipc:*) re="# +1\\.000 insn per cycle$t" ;;
		*:*:null) re="$n.* $w$t" ;;
		*:percent*) re="# +0\\.00% +$n$t" ;;
		*) re="# +0\\.000 +$n$t" ;;
		esac
		grep -Eq -- "$re" "$f" 2>/dev/null || miss="$miss $n"
	done <<EOM
$(jq -r '.metrics[]? | "\(.name):\(.unit):\(.value):\(.reason)"' "$O/pp-mx-all.loop.json" 2>/dev/null)
EOM
	[ -n "$(jq '.metrics[]?' "$O/pp-mx-all.loop.json" 2>/dev/null)" ] || miss=" (no metrics in the JSON report)"
	mx_tap "$m: pmuprof stat --mux=runs -M <every group> (text): each metric beside its event, or named with its reason" \
		pp-mx-all-text.loop "$([ -z "$miss" ] || { echo "not shown as they should be:$miss"; tail_of "$f" 50; })"
}

# mx_same A B: what differs between the metrics of reports A and B (name, PMU, value within
# 1e-9, reason), or what is wrong with either.
mx_same() {
	# shellcheck disable=SC2016 # $a is a jq variable
	mx_jq "$2" 'def key: "\(.name) on \(.pmu)";
		def vals: [.metrics[]? | {key: key, value: [.value, .reason]}] | from_entries;
		($a[0] | vals) as $x | vals as $y |
		need(($x | keys) == ($y | keys) and ($x | length) > 0;
		     "metrics \($y | keys), not \($x | keys)"),
		($x | to_entries[] | .key as $k | .value as [$v, $why] | $y[$k] as [$w, $wy] |
		 need(($v == null and $w == null or close($v; $w)) and $why == $wy;
		      "\($k): \($w) (\($wy)), stat said \($v) (\($why))"))' --slurpfile a "$1"
}

# check_mx_report M: pmuprof report recomputes the saved reports' metrics: the same values, and
# with -M a metric whose event the report does not hold (null, the event named).
check_mx_report() {
	m=$1
	for c in ipc all; do
		mx_tap "$m: pmuprof report -j of the saved -M $c report: the same metrics recomputed" \
			"pp-mx-report.$c" "$(mx_same "$O/pp-mx-$c.loop.json" "$O/pp-mx-report.$c.out")"
	done
	# shellcheck disable=SC2016
	out=$(mx_jq "$O/pp-mx-report.add.out" '. as $r |
		([.metrics[]? | select(.name == "ipc")] | first // {}) as $i |
		([.metrics[]? | select(.name == "l1d_cache_mpki")] | first // {}) as $l |
		ipc_ok($r; $i; $x),
		need($l.value == null and $l.reason == "L1D_CACHE_REFILL not counted: not in the report" and
		     $l.requested == true;
		     "l1d_cache_mpki: \($l.value) (\($l.reason)) requested \($l.requested), not null (L1D_CACHE_REFILL not counted: not in the report)")' \
		--argjson x "$x")
	mx_tap "$m: pmuprof report -M l1d_cache_mpki of the -M ipc report: null, 'L1D_CACHE_REFILL not counted: not in the report'; ipc still 1; exit 0" \
		pp-mx-report.add "$out"
}

# MX_OWN: jq; mine: the ipc that -M ipc adds beside events of its own (inst_retired:u ...):
# the one over the rows -M added (inst_retired and cpu_cycles, no modifier).
# shellcheck disable=SC2016 # $r is a jq variable
MX_OWN='. as $r |
def mine: [.metrics[]? | select(.name == "ipc" and .requested and
	(.events | length == 2 and all(test(":") | not)))] | first // {};'

# check_mx_mux M: -M ipc beside 12 events on 6 (or 8) counters: by runs the metric is exact and
# not an estimate; by the kernel it is its inputs' ratio, an estimate exactly when an input was
# scaled (or null, naming its input, when its group never got the counters).
check_mx_mux() {
	m=$1
	# shellcheck disable=SC2016 # $x is a jq variable
	out=$(mx_jq "$O/pp-mx-runs.loop2.json" "$MX_OWN"'
		mine as $m |
		need(.events | length == 14; "\(.events | length) events, not 12 + 2"),
		need($m.estimate == false; "ipc: estimate \($m.estimate)"),
		($m.inputs[]? | need($r.events[.index // -1]?.counted_pct == 100;
			"ipc: \(.event) counted \($r.events[.index // -1]?.counted_pct)%")),
		ipc_ok($r; $m; $x)' --argjson x "$x2")
	mx_tap "$m: pmuprof stat --mux=runs -M ipc beside 12 events: ipc exact (1), not an estimate" \
		pp-mx-runs.loop2 "$out"
	# shellcheck disable=SC2016
	out=$(mx_jq "$O/pp-mx-kernel.loop2.json" "$MX_OWN"'
		mine as $m |
		input($m; "INST_RETIRED") as $i | input($m; "CPU_CYCLES") as $c |
		([$m.inputs[]? | $r.events[.index // -1]?.counted_pct] | any(. < 100)) as $scaled |
		need(.mux.multiplexed == true; "mux \(.mux)"),
		need($m.name == "ipc"; "no ipc metric"),
		if $m.value == null then
			need($m.reason // "" | test("^(INST_RETIRED|CPU_CYCLES) not counted");
			     "ipc null: reason \($m.reason)")
		else
			need(($c.value | type) == "number" and $c.value != 0 and
			     close($m.value; $i.value / $c.value) and $m.estimate == $scaled;
			     "ipc \($m.value) estimate \($m.estimate): not \($i.value) / \($c.value), or not estimate = \($scaled)")
		end,
		rows($r; $m)')
	mx_tap "$m: pmuprof stat -M ipc beside 12 events, multiplexed by the kernel: ipc is its inputs' ratio, an estimate when they were scaled" \
		pp-mx-kernel.loop2 "$out"
	# -M ipc asks for one ipc, which its own group gives: inst_retired:u beside it is no second
	# ipc, null for a cpu_cycles:u nobody asked for (the reason "CPU_CYCLES not counted: not
	# in the report" would be untrue: -M counted CPU_CYCLES)
	# shellcheck disable=SC2016
	out=$(mx_jq "$O/pp-mx-runs.loop2.json" '
		[.metrics[]? | select(.name == "ipc" and .requested)] as $ms |
		need($ms | length == 1; "\($ms | length) ipc asked for: \([$ms[] | {events, value, reason}])")')
	mx_tap "$m: pmuprof stat -M ipc beside 12 inst_retired:u: one ipc, from the group -M added" \
		pp-mx-runs.loop2 "$out"
}

# check_mx_generic M: perf's generic instructions and cycles give ipc without -M, and nothing
# else: unfiltered in JSON and text, and in user space (pp-generic.loop) exactly 4N + 5 each.
check_mx_generic() {
	m=$1
	# shellcheck disable=SC2016 # $x is a jq variable
	out=$(mx_jq "$O/pp-mx-generic.loop.json" '. as $r | (.metrics[0]? // {}) as $m |
		need(.metric_requests == []; "metric_requests \(.metric_requests)"),
		need([.metrics[]?.name] == ["ipc"]; "metrics \([.metrics[]?.name]), not [ipc]"),
		need($m.requested == false and ($m.events | sort) == ["cycles", "instructions"] and
		     input($m; "INST_RETIRED").index == 0 and input($m; "CPU_CYCLES").index == 1;
		     "ipc: requested \($m.requested) events \($m.events) inputs \($m.inputs)"),
		ipc_ok($r; $m; $x)' --argjson x "$x")
	mx_tap "$m: pmuprof stat -e instructions,cycles -j: ipc by default (not requested) = 1, from those two rows" \
		pp-mx-generic.loop "$out"
	mx_tap "$m: pmuprof stat -e instructions,cycles (text): '# 1.000 insn per cycle' beside instructions" \
		pp-mx-generic-text.loop "$(mx_line pp-mx-generic-text.loop instructions)"
	# shellcheck disable=SC2016
	out=$(mx_jq "$O/pp-generic.loop.json" '. as $r | (.metrics[0]? // {}) as $m |
		need([.metrics[]?.name] == ["ipc"] and ($m.events | sort) == ["cycles:u", "instructions:u"];
		     "metrics \([.metrics[]? | [.name, .events]])"),
		need([$m.inputs[]? | [.event, .value]] | sort == [["CPU_CYCLES", $x], ["INST_RETIRED", $x]];
		     "ipc: inputs \([$m.inputs[]? | [.event, .value]]), not \($x) each"),
		ipc_ok($r; $m; $x)' --argjson x "$x")
	mx_tap "$m: pmuprof stat -e instructions:u,cycles:u -j: ipc = $x / $x = 1 by default" \
		pp-generic.loop "$out"
}

# shellcheck disable=SC2154 # m, HA, HB, xm, xa, xb, xl: set by check_hetero
# check_mx_hetero: hetero's metrics, per core type (check_hetero's variables: HA, HB, the
# migrate parts xa and xb, sloop's xl). Both PMUs are Cortex-A57's (QEMU's virt machine has one
# CPU type), so a metric on each is the A57 formula over that PMU's part alone, never over the
# total of both.
check_mx_hetero() {
	# shellcheck disable=SC2016 # $a, $b, $xa, ... are jq variables
	MX_HX='. as $r | [.metrics[]? | select(.name == "ipc")] as $ms |
		need([$ms[].pmu] == [$a, $b]; "ipc on \([$ms[].pmu]), not on [\($a), \($b)] each"),
		($ms[] | . as $m |
		 need(.core == "cortex-a57" and .formula == "INST_RETIRED / CPU_CYCLES";
		      "ipc on \(.pmu): core \(.core), formula \(.formula)"),
		 (.inputs[]? | . as $i | ([$r.events[.index]?.split[]? | select(.pmu == $m.pmu) |
			.value] | first) as $p |
		  need($p == .value; "ipc on \($m.pmu): \(.event) \(.value), its row'"'"'s part there \($p)")),'
	# migrate, inst_retired:u and cpu_cycles:u: ipc by default on each PMU, 1 from its own part
	# shellcheck disable=SC2016
	hx_attempts pp.migrate hx_pp "$xm" "$xa" "$xb" "$MX_JQ$MX_HX"'
		 (if .pmu == $a then $xa else $xb end) as $w |
		 need(input($m; "INST_RETIRED").value == $w and input($m; "CPU_CYCLES").value == $w;
		      "ipc on \(.pmu): inputs \([.inputs[]? | [.event, .value]]), not \($w) each"),
		 need(.requested == false and .estimate == false and close(.value; 1) and .reason == null;
		      "ipc on \(.pmu): \(.value) (\(.reason)) requested \(.requested) estimate \(.estimate)"))'
	hx_tap "$m: pmuprof: migrate: ipc per core type, by default: 1 on $HA ($(hx_grouped "$xa") / $(hx_grouped "$xa")) and 1 on $HB ($(hx_grouped "$xb") / $(hx_grouped "$xb")), never over their sum"
	# sloop stays on CPU 0: -M ipc on HA from its part; on HB nothing was counted
	# shellcheck disable=SC2016
	hx_attempts pp-mx.any hx_pp "$xl" "$xl" null "$MX_JQ$MX_HX"'
		 need(.requested == true; "ipc on \(.pmu): requested \(.requested)"),
		 if .pmu == $a then
			need(input($m; "INST_RETIRED").value >= $xa; "ipc on \(.pmu): inputs \(.inputs)"),
			need(close(.value; 1) and .reason == null; "ipc on \(.pmu): \(.value) (\(.reason)), not 1")
		 else
			need(.value == null and (.reason // "" | test("^(INST_RETIRED|CPU_CYCLES) not counted"));
			     "ipc on \(.pmu), where sloop never ran: \(.value) (\(.reason)), not null naming its uncounted input")
		 end)'
	hx_tap "$m: pmuprof -M ipc on every CPU, sloop stays on CPU 0: ipc 1 on $HA, null on $HB naming the uncounted input; exit 0"
}
