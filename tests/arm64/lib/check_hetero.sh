# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_hetero.sh: sourced by check.sh. The cases of the hetero machine (guest/cases-hetero):
# two Arm PMUs on disjoint CPUs (A: armv8_cortex_a57 on CPUs 0-1, B: armv8_pmuv3 on CPUs 2-3),
# the migrate workload's two phases counted each on its own PMU, by perf and in pmuprof's split
# (schema 1.3: an Arm event not tied to a PMU is opened once per PMU whose CPUs the command may
# run on; the total and one part per PMU in every report).
#
# Attempts: every counted command ran HN times (NAME.1 ... in the results). A count in user
# space on one CPU also takes in what the other CPUs executed meanwhile (QEMU has one
# instruction count for the machine), and the guest keeps them asleep but not always: such an
# attempt reads a few thousand too many. A case passes when one attempt is right in every
# respect; the attempts before it are shown as TAP comments.

# hx_attempts NAME FN ARGS...: FN BASE ARGS... prints what is wrong with one attempt (nothing
# when all is right), BASE being $O/NAME.K. Sets HX_OK to the first right attempt's number
# (empty if none) and HX_WHY to what was wrong with the attempts before it, a line each.
hx_attempts() {
	hx_n=$1 hx_f=$2
	shift 2
	HX_OK='' HX_WHY=''
	for hx_i in $(seq "$HN"); do
		hx_o=$("$hx_f" "$O/$hx_n.$hx_i" "$@" 2>&1)
		if [ -z "$hx_o" ]; then
			HX_OK=$hx_i
			return 0
		fi
		HX_WHY="$HX_WHY${HX_WHY:+
}attempt $hx_i: $(printf '%s\n' "$hx_o" | head -n 6 | tr '\n' ';' | sed 's/;$//')"
	done
	return 1
}

# hx_tap DESC: the TAP line of the case hx_attempts just judged.
hx_tap() {
	if [ -n "$HX_OK" ]; then
		tap_ok "$1"
		[ -z "$HX_WHY" ] || printf '%s\n' "$HX_WHY" | sed "s/^/# $m: other CPUs' instructions? /"
	else
		tap_fail "$1" "$HX_WHY"
	fi
}

# hx_grouped N: N with thousands separators (4,000,017).
hx_grouped() { echo "$1" | sed ':a;s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta'; }

# hx_perf BASE AI BI: perf stat --no-scale -x, of BASE counted AI instructions on A and BI on
# B in user space ("-" for <not counted>), and as many cycles.
hx_perf() {
	b=$1
	[ "$(cat "$b.rc" 2>/dev/null)" = 0 ] || echo "exit status $(cat "$b.rc" 2>/dev/null)"
	for hp in "$HA:$2" "$HB:$3"; do
		p=${hp%%:*} want=${hp#*:}
		[ "$want" = - ] && want='<not counted>'
		i=$(perf_val "$b.err" "$p/inst_retired/u") c=$(perf_val "$b.err" "$p/cpu_cycles/u")
		[ "$i" = "$want" ] && [ "$c" = "$want" ] ||
			echo "$p: inst_retired:u '$i' cpu_cycles:u '$c', not '$want'"
	done
}

# The jq definitions every pmuprof check shares. parts(e; want; cfg): event e is split into one
# part per [pmu, cpus, raw] of want, in that order: the PMU's type, config cfg (the event's
# Arm encoding, also for a generic name such as instructions, whose row keeps its own), value =
# raw_value = raw exactly ("counted"), or "not counted" (raw_value 0 as read, value null) where
# raw is null (the command never ran there); the parts add up to the total, and their running times to its
# enabled time (no multiplexing: a part runs all the time the command is on its PMU's CPUs, its
# window, and the total's enabled time is the sum of the windows).
# shellcheck disable=SC2016 # $s, $p, $types ... are jq variables
HX_JQ='
def need(c; msg): if c then empty else msg end;
def parts(e; want; cfg):
	(e.split // []) as $s |
	need(e.split | type == "array"; "\(e.name): split \(e.split)"),
	need([$s[] | [.pmu, .cpus]] == [want[] | .[0:2]];
	     "\(e.name): parts \([$s[] | [.pmu, .cpus]]), not \([want[] | .[0:2]])"),
	need(e.only_on == null; "\(e.name): only_on \(e.only_on)"),
	($s | to_entries[] | .value as $p | want[.key] as $w | select($w) |
	 need($p.type == $types[$p.pmu]; "\(e.name) on \($p.pmu): type \($p.type)"),
	 need($p.config == cfg; "\(e.name) on \($p.pmu): config \($p.config), not \(cfg)"),
	 need($p.core | type == "string" or . == null; "\(e.name) on \($p.pmu): core \($p.core)"),
	 need($p.time_enabled_ns == $p.time_running_ns;
	      "\(e.name) on \($p.pmu): enabled (its window: the time on that core type) \($p.time_enabled_ns), running \($p.time_running_ns)"),
	 if $w[2] == null then
		need($p.status == "not counted" and $p.raw_value == 0 and $p.value == null and
		     $p.time_running_ns == 0;
		     "\(e.name) on \($p.pmu), where the command never ran: status \($p.status), raw \($p.raw_value), value \($p.value), running \($p.time_running_ns) (not counted, 0, null, 0)")
	 else
		need($p.status == "counted" and $p.raw_value == $w[2] and $p.value == $p.raw_value and
		     $p.time_running_ns > 0;
		     "\(e.name) on \($p.pmu): \($p.status) raw \($p.raw_value) value \($p.value) running \($p.time_running_ns), not \($w[2])")
	 end),
	need(e.status == "counted" and e.value == e.raw_value and
	     e.raw_value == ([$s[].raw_value // 0] | add);
	     "\(e.name): total \(e.status) \(e.value) raw \(e.raw_value), parts \([$s[].raw_value])"),
	need(([$s[].time_running_ns] | add) == e.time_enabled_ns;
	     "\(e.name): parts ran \([$s[].time_running_ns]), enabled \(e.time_enabled_ns)");
def event(name): first(.events[] | select(.name == name)) // {name: name};
'

# hx_pp BASE PROGRAM: the pmuprof report BASE.json read with PROGRAM (after HX_JQ), which
# prints what is wrong; the exit status too.
hx_pp() {
	[ "$(cat "$1.rc" 2>/dev/null)" = 0 ] ||
		echo "exit status $(cat "$1.rc" 2>/dev/null): $(tail_of "$1.err" 2 | tr '\n' ' ')"
	# shellcheck disable=SC2016 # $a, $b, $types, $x are jq variables
	jq -r --arg a "$HA" --arg b "$HB" --argjson types "$HTYPES" --argjson x "$2" \
		--argjson xa "$3" --argjson xb "$4" "$HX_JQ$5" "$1.json" 2>&1
}

# check_hetero M ARGS N: every case of the hetero machine M (booted with qemu ARGS), whose CPUs
# have N general counters.
check_hetero() {
	m=$1 n=$3
	check_boot "$m" "$2" hetero-attempts || return
	HN=$(cat "$O/hetero-attempts")
	read -r HA HB < "$O/hetero-pmus"
	# guest.pmus lines: "NAME TYPE CPUS"
	HTYPES=$(awk '$1 ~ /^arm/ { printf "%s\"%s\": %s", n++ ? ", " : "{", $1, $2 } END { print "}" }' \
		"$O/guest.pmus")
	ca=$(awk -v p="$HA" '$1 == p { print $3 }' "$O/guest.pmus")
	cb=$(awk -v p="$HB" '$1 == p { print $3 }' "$O/guest.pmus")
	bad=$(grep -iE 'pmu|perfevents' "$O/guest.dmesg" | grep -v pmuprof_cases |
		grep -iE 'fail|error|unable|invalid|cannot|no irq')
	[ "$HA" = armv8_cortex_a57 ] && [ "$ca" = 0-1 ] && [ "$HB" = armv8_pmuv3 ] &&
		[ "$cb" = 2-3 ] && [ -z "$bad" ] &&
		grep -q "hw perfevents: enabled with $HA PMU driver, $((n + 1)) counters available" \
			"$O/guest.dmesg" &&
		grep -q "hw perfevents: enabled with $HB PMU driver, $((n + 1)) counters available" \
			"$O/guest.dmesg"
	tap "$m: two PMUs from the devicetree: armv8_cortex_a57 on CPUs 0-1, armv8_pmuv3 on CPUs 2-3, $n counters + the cycle counter each" \
		$? "PMUs: $HA on '$ca', $HB on '$cb'" "$bad" "$(grep 'hw perfevents' "$O/guest.dmesg")"

	# migrate: its start (5) and CPU 0 on A, CPU 2 on B; sloop pinned to one CPU
	xs=$(wl_migrate_phase start) x0=$(wl_migrate_phase 0) x2=$(wl_migrate_phase 2)
	xa=$((xs + x0)) xb=$x2 xm=$(wl_expect migrate) xl=$(wl_expect sloop)
	hx_attempts perf.migrate hx_perf "$xa" "$xb"
	hx_tap "$m: perf: migrate: $HA counts $(hx_grouped "$xa") (its start and CPU 0, the second sched_setaffinity's svc included), $HB $(hx_grouped "$xb") (CPU 2); cycles = instructions"
	hx_attempts perf.c0 hx_perf "$xl" -
	hx_tap "$m: perf: sloop pinned to CPU 0: $HA $(hx_grouped "$xl"), $HB not counted"
	hx_attempts perf.c2 hx_perf - "$xl"
	hx_tap "$m: perf: sloop pinned to CPU 2: $HB $(hx_grouped "$xl"), $HA not counted"
	check_hetero_pmuprof
}

# check_hetero_pmuprof: the pmuprof cases of the hetero machine (check_hetero's variables).
check_hetero_pmuprof() {
	if [ -z "$PMUPROF" ]; then
		tap_not_run "$m: pmuprof cases" "$PMUPROF_WHY"
		return
	fi
	check_hetero_info
	check_serve_hotplug "$m"
	jq -e '.events[0] | has("split")' "$O/pp.migrate.1.json" >/dev/null 2>&1
	tap "$m: pmuprof stat -j: each Arm event has its split over the two PMUs" $? \
		"$(head -c 300 "$O/pp.migrate.1.json" 2>/dev/null)" "$(tail_of "$O/pp.migrate.1.err" 3)"
	la=$(hx_grouped "$xa") lb=$(hx_grouped "$xb") lm=$(hx_grouped "$xm") ll=$(hx_grouped "$xl")
	# shellcheck disable=SC2016 # $x, $xa, ... are jq variables
	hx_attempts pp.migrate hx_pp "$xm" "$xa" "$xb" '
		need(.schema_version == "1.8"; "schema_version \(.schema_version)"),
		(["inst_retired:u", "0x8"], ["cpu_cycles:u", "0x11"]) as [$n, $c] | event($n) as $e |
		need($e.value == $x; "\($n): \($e.value), not \($x)"),
		parts($e; [[$a, "0-1", $xa], [$b, "2-3", $xb]]; $c)'
	hx_tap "$m: pmuprof: migrate: inst_retired:u and cpu_cycles:u = $lm, split $la on $HA + $lb on $HB, exactly"
	# shellcheck disable=SC2016
	hx_attempts pp-names.migrate hx_pp "$xm" "$xa" "$xb" '
		(event("r08:u"), event("instructions:u")) as $e |
		need($e.value == $x; "\($e.name): \($e.value), not \($x)"),
		parts($e; [[$a, "0-1", $xa], [$b, "2-3", $xb]]; "0x8"),
		(event("\($b)/inst_retired/u") | need(.split == null and .only_on == [$b] and
			.pmu == $b and .raw_value == $xb and .value == $xb and .counted_pct == 100;
			"\(.name): split \(.split) only_on \(.only_on) pmu \(.pmu) raw \(.raw_value) value \(.value) \(.counted_pct)%, not null [\($b)] \($xb) \($xb) 100%")),
		(event("task-clock") | need(.split == null and .status == "counted";
			"\(.name): split \(.split) \(.status)"))'
	hx_tap "$m: pmuprof: migrate: r08:u and instructions:u split the same; $HB/inst_retired/u (only_on $HB: $lb, counted all the time the command ran there, not scaled) and task-clock not split"
	hx_attempts pp-text.migrate hx_text "$lm" "$la" "$lb"
	hx_tap "$m: pmuprof: text report: $lm inst_retired:u, then $la on $HA (CPUs 0-1) and $lb on $HB (CPUs 2-3)"
	# shellcheck disable=SC2016
	hx_attempts pp.c0 hx_pp "$xl" "$xl" null '
		event("inst_retired:u") as $e | parts($e; [[$a, "0-1", $xa]]; "0x8")'
	hx_tap "$m: pmuprof under taskset -c 0: inst_retired:u split on $HA only, $ll"
	# shellcheck disable=SC2016
	hx_attempts pp.c2 hx_pp "$xl" null "$xl" '
		event("inst_retired:u") as $e | parts($e; [[$b, "2-3", $xb]]; "0x8")'
	hx_tap "$m: pmuprof under taskset -c 2: inst_retired:u split on $HB only, $ll"
	# shellcheck disable=SC2016
	hx_attempts pp.any hx_pp "$xl" "$xl" null '
		event("inst_retired:u") as $e | parts($e; [[$a, "0-1", $xa], [$b, "2-3", $xb]]; "0x8")'
	hx_tap "$m: pmuprof on every CPU, sloop stays on CPU 0: $ll on $HA, $HB not counted (it never ran there)"
	check_mx_hetero
	check_hetero_cputype
	check_regions_hetero "$m"
	check_hetero_peer
	check_hetero_plan
	check_targets
	check_schema "$m"
}

# check_hetero_cputype: --cputype counts one core type only: migrate's phase on CPU 2 alone
# with $HB's PMU, each event tied to it (no parts, only_on it, counted all the time the command
# was there); with -A -C 0-2 and $HA's, CPUs 0-1 only, CPU 0's phase exactly; a core name
# that names both PMUs (both are the A57's here) is refused.
check_hetero_cputype() {
	# shellcheck disable=SC2016 # $b, $x, ... are jq variables
	hx_attempts pp-ct.migrate hx_pp "$xm" "$xa" "$xb" '
		need([.events[].name] == ["inst_retired:u", "cpu_cycles:u"];
		     "events \([.events[].name])"),
		(.events[] | need(.split == null and .only_on == [$b] and .pmu == $b and
			.raw_value == $xb and .value == $xb and .counted_pct == 100;
			"\(.name): split \(.split) only_on \(.only_on) pmu \(.pmu) raw \(.raw_value) value \(.value) \(.counted_pct)%, not null [\($b)] \($xb) \($xb) 100%"))'
	hx_tap "$m: pmuprof --cputype $HB: migrate's inst_retired:u and cpu_cycles:u = $lb, CPU 2's phase alone, on $HB alone"
	# shellcheck disable=SC2016
	hx_attempts pp-ctA.migrate tx_pp "top(\"CPU(s) 0-1\"; \"cpu\"),
		event(\"inst_retired:u\") as \$e |
		need(\$e.value == $x0 and \$e.split == null and \$e.pmu == \$a;
		     \"\\(\$e.name): \\(\$e.value) split \\(\$e.split) pmu \\(\$e.pmu), not $x0 null \\(\$a)\"),
		units(\$e; [[\"CPU0\", 0, $x0], [\"CPU1\", 1, 0]])"
	hx_tap "$m: pmuprof --cputype $HA -A -C 0-2: CPUs 0-1 only (CPU 2 left out), migrate's $(hx_grouped "$x0") on CPU0, 0 on CPU1"
	e=$(cat "$O/pp-ctcore.err" 2>/dev/null)
	[ "$(cat "$O/pp-ctcore.rc" 2>/dev/null)" = 2 ] &&
		[ "$e" = "pmuprof: --cputype 'cortex-a57' names more than one PMU of this machine: $HA (cortex-a57), $HB (cortex-a57) (give the PMU's name)" ]
	tap "$m: pmuprof --cputype cortex-a57: refused in one line, both PMUs being the A57's" $? \
		"exit $(cat "$O/pp-ctcore.rc" 2>/dev/null): $e"
}

# hx_text BASE TOTAL PA PB: the text report (BASE.err) shows the total, then a line per PMU.
hx_text() {
	[ "$(cat "$1.rc" 2>/dev/null)" = 0 ] || echo "exit status $(cat "$1.rc" 2>/dev/null)"
	l=$(grep -A2 -E "^ +$2 +inst_retired:u$" "$1.err" 2>/dev/null)
	if ! printf '%s\n' "$l" | grep -Eq "^ +$3 +$HA/inst_retired/u \\((cortex-a57, )?CPUs 0-1\\)" ||
		! printf '%s\n' "$l" | grep -Eq "^ +$4 +$HB/inst_retired/u \\((cortex-a57, )?CPUs 2-3\\)"; then
		echo "text report:"
		tail_of "$1.err" 10
	fi
}

# check_hetero_peer: pmuprof's part on each PMU = perf's count there: some attempt of pmuprof
# reads on both PMUs what some attempt of perf does (a PMU outside pmuprof's CPUs has no part;
# perf's event there is not counted).
check_hetero_peer() {
	bad=
	for c in migrate c0 c2; do
		f=$(for i in $(seq "$HN"); do
			echo "$(perf_val "$O/perf.$c.$i.err" "$HA/inst_retired/u")" \
				"$(perf_val "$O/perf.$c.$i.err" "$HB/inst_retired/u")"
		done)
		p=$(for i in $(seq "$HN"); do
			for q in "$HA" "$HB"; do
				# shellcheck disable=SC2016 # $p is a jq variable
				jq -r --arg p "$q" '[.events[0].split[] | select(.pmu == $p) |
					.raw_value // "<not counted>"] | first // "<not counted>"' \
					"$O/pp.$c.$i.json" 2>/dev/null || echo '?'
			done | paste -sd' ' -
		done)
		ok=1
		while read -r l; do
			printf '%s\n' "$f" | grep -qxF "$l" && ok=0
		done <<EOM
$p
EOM
		[ $ok = 0 ] || bad="$bad $c (perf: $(echo "$f" | paste -sd';' -); pmuprof: $(echo "$p" | paste -sd';' -))"
	done
	[ -z "$bad" ]
	tap "$m: pmuprof = perf on each PMU (migrate, CPU 0, CPU 2)" $? "no attempts agree:$bad"
}

# check_hetero_plan: --plan puts each event on both PMUs, or on CPU 2's only under taskset.
check_hetero_plan() {
	f=$O/pp-plan.out g=$O/pp-plan.c2.out ok=0
	[ "$(cat "$O/pp-plan.rc")" = 0 ] && [ "$(cat "$O/pp-plan.c2.rc")" = 0 ] || ok=1
	for e in "inst_retired:u +PMU +event counter" "cpu_cycles:u +PMU +cycle counter"; do
		a=$(echo "$e" | sed "s/PMU/$HA/") b=$(echo "$e" | sed "s/PMU/$HB/")
		grep -Eq "^  $a$" "$f" && grep -Eq "^  $b$" "$f" && grep -Eq "^  $b$" "$g" || ok=1
	done
	! grep -q "$HA" "$g" && [ $ok = 0 ]
	tap "$m: pmuprof stat --plan: each event on $HA and on $HB; under taskset -c 2 on $HB only" \
		$? "$(cat "$f" "$g" 2>/dev/null | head -n 16)"
}

# check_hetero_info: pmuprof info -j, probed afresh: the two PMUs, their CPUs, their counters.
check_hetero_info() {
	j=$O/pp-info.out
	# shellcheck disable=SC2016 # $a, $b, $types, $n are jq variables
	out=$(jq -r --arg a "$HA" --arg b "$HB" --argjson types "$HTYPES" --argjson n "$n" '
		def need(c; msg): if c then empty else msg end;
		def cpus: if type == "array" then map(tostring) | join(",") else . end;
		need([.pmus[].name] == [$a, $b]; "PMUs \([.pmus[].name])"),
		(.pmus[] | . as $p |
		 need(.type == $types[.name]; "\(.name): type \(.type)"),
		 need((.cpus | cpus) == (if .name == $a then "0,1" else "2,3" end) or
		      .cpus == (if .name == $a then "0-1" else "2-3" end); "\(.name): cpus \(.cpus)"),
		 need(.counters.probed == $n and .counters.cycle_counter == true;
		      "\(.name): counters \(.counters)"))
	' "$j" 2>&1)
	[ "$(cat "$O/pp-info.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: pmuprof info -j: $HA on CPUs 0-1 and $HB on CPUs 2-3, $n counters + the cycle counter probed on each" \
		$? "$out" "$(tail_of "$O/pp-info.err" 3)"
	echo "# $m: probe took $(jq -r '[.pmus[] | "\(.name) \(.counters.probe_ms * 100 | round / 100) ms"] | join(", ")' "$j" 2>/dev/null)"
}
