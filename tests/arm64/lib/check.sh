# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check.sh: sourced by tests/arm64/run. Holds what each guest printed to the exact counts and
# prints one TAP line per case. Nothing is judged in the guest: it only runs and records
# (tests/arm64/guest/cases); every comparison is made here, JSON parsed with jq.

. tests/arm64/lib/check_stat.sh
. tests/arm64/lib/check_mux.sh
. tests/arm64/lib/check_hetero.sh
. tests/arm64/lib/check_targets.sh
. tests/arm64/lib/check_mx.sh
. tests/arm64/lib/check_regions.sh
. tests/arm64/lib/check_cgroup.sh
. tests/arm64/lib/check_serve.sh

T=0
FAILED=0
tap_ok() { T=$((T + 1)); echo "ok $T - $*"; }
# tap_fail DESC DIAG...: each DIAG (which may hold several lines) goes out as "#   " lines.
tap_fail() {
	T=$((T + 1))
	# shellcheck disable=SC2034 # read by run
	FAILED=1
	echo "not ok $T - $1"
	shift
	for l in "$@"; do [ -z "$l" ] || printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# tap_not_run DESC WHY: a case this machine is expected to run could not be run. Every case a
# machine's check function prints is one that machine must run (the hetero cases only on hetero,
# the VHE case only at EL2), so there is no skip here: it is a failure, with the reason.
tap_not_run() { tap_fail "$1" "expected to run on this machine, but could not: $2"; }
# tap DESC COND-STATUS DIAG...: ok when the status is 0.
tap() { d=$1; st=$2; shift 2; if [ "$st" -eq 0 ]; then tap_ok "$d"; else tap_fail "$d" "$@"; fi; }
# diag FILE: the last lines of FILE, one argument each (for tap_fail).
tail_of() { [ -f "$1" ] && tail -n "${2:-6}" "$1"; }

# perf_val FILE EVENT: the value perf stat -x, printed for EVENT ("" if none).
perf_val() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1" 2>/dev/null; }
# csv_val FILE INDEX: the first field of the INDEX'th (0-based) counter line of a -x, report.
csv_val() { grep -v -e '^#' -e '^$' "$1" 2>/dev/null | awk -F, -v i="$2" 'NR == i + 1 { print $1 }'; }
# json_val FILE INDEX FIELD: events[INDEX].FIELD of a pmuprof JSON report ("" if none).
json_val() { jq -r ".events[$2].$3 // empty" "$1" 2>/dev/null; }
# read_events: EU EC EK EI EY, the names of the five events every workload is counted with,
# from the guest's /out/events (guest/cases sets them, in this order): instructions in user
# space, cycles in user space, instructions in the kernel, instructions and cycles unfiltered.
read_events() {
	IFS=, read -r EU EC EK EI EY < "$O/events"
}
is_num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

# unknown_event NAME: the pmuprof run NAME failed because pmuprof did not know an event name.
unknown_event() {
	[ "$(cat "$O/$1.rc" 2>/dev/null)" != 0 ] &&
		grep -qiE 'unknown event|no such event|not a known event' "$O/$1.err" 2>/dev/null
}

# check_counts M SRC W RC U C K I CY: one source's run of workload W on machine M: its exit
# status RC, user instructions U, user cycles C, kernel instructions K, instructions I and
# cycles CY (unfiltered).
check_counts() {
	m=$1 src=$2 w=$3 rc=$4 u=$5 c=$6 k=$7 i=$8 cy=$9
	x=$(wl_expect "$w")
	[ "$u" = "$x" ] && [ "$rc" = 0 ]
	tap "$m: $src: $w: $EU = $x exactly" $? "got '$u', exit status $rc"
	[ "$c" = "$u" ] && [ -n "$i" ] && [ "$cy" = "$i" ]
	tap "$m: $src: $w: $EC = $EU and $EY = $EI (shift=0: a cycle per instruction)" $? \
		"$EC '$c', $EU '$u', $EY '$cy', $EI '$i'"
	is_num "$k" && is_num "$i" && is_num "$u" && [ $((u + k)) -eq "$i" ]
	tap "$m: $src: $w: $EU + $EK = $EI exactly" $? "$EU '$u' + $EK '$k' vs $EI '$i'"
}

# check_boot M ARGS FILE: machine M (booted with qemu ARGS) booted, ran its cases (FILE, which
# its case list writes, is among the results) and powered off in time. Sets O.
check_boot() {
	O=$WORK/$1/out
	read -r st secs < "$WORK/$1/boot"
	if [ "$st" -ne 0 ] || [ ! -f "$O/$3" ]; then
		why="qemu exit status $st after ${secs}s"
		[ "$st" -eq 124 ] && why="timed out after ${BOOT_TIMEOUT}s"
		[ -f "$O/$3" ] || why="$why, no results on the console"
		tap_fail "$1: boot ($2) and run the cases" "$why" \
			"console ($WORK/$1/console), last lines:" \
			"$(tail_of "$WORK/$1/console" 12 | tr -d '\r')"
		return 1
	fi
	tap_ok "$1: boot ($2) and run the cases in ${secs}s"
}

# check_machine M ARGS N LEVEL: every case of machine M (booted with qemu ARGS, N general
# counters, kernel at LEVEL).
check_machine() {
	m=$1 args=$2 n=$3 level=$4
	check_boot "$m" "$args" events || return
	read_events
	# the guest's Arm PMU: its name and perf type (guest.pmus lines: "NAME TYPE [CPUS]")
	PMU=$(awk '$1 ~ /^arm/ { print $1; exit }' "$O/guest.pmus" 2>/dev/null)
	PMU_TYPE=$(awk '$1 ~ /^arm/ { print $2; exit }' "$O/guest.pmus" 2>/dev/null)

	# the kernel's PMU driver as this CPU model has it: PMCR_EL0.N counters + the cycle counter
	grep -q "hw perfevents: enabled with .* PMU driver, $((n + 1)) counters available" \
		"$O/guest.dmesg"
	tap "$m: kernel PMU driver: $n counters + the cycle counter" $? \
		"$(grep 'hw perfevents' "$O/guest.dmesg")"
	if [ "$level" = EL2 ]; then
		grep -q 'VHE mode initialized\|Virtualization Host Extensions' "$O/guest.dmesg"
		tap "$m: kernel runs at EL2 with VHE" $? "no VHE line in dmesg"
	fi

	for w in $(wl_names); do
		f=$O/perf.$w.err
		check_counts "$m" perf "$w" "$(cat "$O/perf.$w.rc")" "$(perf_val "$f" "$EU")" \
			"$(perf_val "$f" "$EC")" "$(perf_val "$f" "$EK")" "$(perf_val "$f" "$EI")" \
			"$(perf_val "$f" "$EY")"
	done
	check_pmuprof "$m"
}

# check_pmuprof M: the pmuprof cases of machine M.
check_pmuprof() {
	m=$1
	if [ -z "$PMUPROF" ]; then
		tap_not_run "$m: pmuprof cases" "$PMUPROF_WHY"
		return
	fi
	# the events every case counts: a pmuprof that no longer knows them fails once, here,
	# and the cases after it fail on their own
	! unknown_event pp.loop
	tap "$m: pmuprof stat knows the events $(cat "$O/events")" $? "$(tail_of "$O/pp.loop.err" 3)"
	for w in $(wl_names); do
		j=$O/pp.$w.json
		rc=$(cat "$O/pp.$w.rc")
		[ "$rc" = 0 ] && jq -e . "$j" >/dev/null 2>&1
		tap "$m: pmuprof: $w: stat -j exits 0 with a JSON report" $? "exit status $rc" \
			"$(tail_of "$O/pp.$w.err" 3)"
		check_counts "$m" pmuprof "$w" "$rc" "$(json_val "$j" 0 value)" \
			"$(json_val "$j" 1 value)" "$(json_val "$j" 2 value)" \
			"$(json_val "$j" 3 value)" "$(json_val "$j" 4 value)"
		pu=$(json_val "$j" 0 value) pc=$(json_val "$j" 1 value)
		fu=$(perf_val "$O/perf.$w.err" "$EU") fc=$(perf_val "$O/perf.$w.err" "$EC")
		[ -n "$pu" ] && [ "$pu" = "$fu" ] && [ "$pc" = "$fc" ]
		tap "$m: pmuprof = perf: $w: $EU and $EC" $? \
			"pmuprof $EU '$pu' $EC '$pc', perf $EU '$fu' $EC '$fc'"
	done
	check_json "$m" "$O/pp.loop.json"
	check_formats "$m"
	check_mux "$m"
	check_names "$m"
	check_filter "$m" "$level"
	check_explain "$m" "$level" "$n"
	check_list_info "$m"
	check_stat "$m"
	check_capacity "$m"
	check_mux14 "$m"
	check_mux_never "$m"
	check_mx "$m"
	check_regions "$m"
	check_cgroup "$m"
	check_serve "$m"
	check_schema "$m"
}

# check_json M FILE: the JSON report of the loop, field by field, against what the guest has.
check_json() {
	m=$1 j=$2 x=$(wl_expect loop)
	# shellcheck disable=SC2016 # $x, $n, ... are jq variables
	out=$(jq -r --argjson x "$x" --argjson n "$(tr ',' '\n' < "$O/events" | wc -l)" \
		--arg e0 "$EU" --arg pmu "$PMU" --argjson type "$PMU_TYPE" \
		--arg midr "$(cat "$O/guest.midr")" --arg rel "$(head -1 "$O/guest.uname")" '
		def need(c; msg): if c then empty else msg end;
		def hex: ascii_downcase | ltrimstr("0x") | sub("^0+"; "");
		need(.schema_version == "1.8"; "schema_version \(.schema_version)"),
		need(.pmuprof_version | type == "string" and test("^[0-9]+\\.[0-9]+\\.[0-9]+");
		     "pmuprof_version \(.pmuprof_version)"),
		need(.command == ["/t/w/loop"]; "command \(.command)"),
		need(.host.machine == "aarch64"; "host.machine \(.host.machine)"),
		need(.host.kernel_release == $rel; "host.kernel_release \(.host.kernel_release)"),
		need((.host.midr | tostring | hex) == ($midr | hex); "host.midr \(.host.midr), not \($midr)"),
		need(.events | length == $n; "\(.events | length) events, not \($n)"),
		(.events[] | . as $e |
		 need(.status == "counted"; "\($e.name): status \(.status)"),
		 need(.pmu == $pmu and .type == $type; "\($e.name): pmu \(.pmu) type \(.type)"),
		 need(.value | type == "number"; "\($e.name): value \(.value)"),
		 need(.raw_value | type == "number"; "\($e.name): raw_value \(.raw_value)"),
		 need(.value == .raw_value; "\($e.name): value \(.value) != raw_value \(.raw_value)"),
		 need(.time_enabled_ns > 0 and .time_running_ns == .time_enabled_ns;
		      "\($e.name): enabled \(.time_enabled_ns) running \(.time_running_ns)"),
		 need(.counted_pct == 100; "\($e.name): counted_pct \(.counted_pct)"),
		 need(.name | type == "string"; "name \(.name)"),
		 need(has("unit"); "\($e.name): no unit")),
		need(.events[0].name == $e0; "events[0].name \(.events[0].name), not \($e0)"),
		need(.events[0].value == $x; "events[0].value \(.events[0].value), not \($x)"),
		# the encodings: INST_RETIRED 0x08, CPU_CYCLES 0x11; :u, :k and no modifier
		need([.events[].config | tostring | hex] == ["8", "11", "8", "8", "11"];
		     "configs \([.events[].config])"),
		need([.events[].exclude | [.user, .kernel]] ==
		     [[false, true], [false, true], [true, false], [false, false], [false, false]];
		     "exclude user/kernel \([.events[].exclude | [.user, .kernel]])"),
		need(.time.wall_ns > 0 and (.time.user_ns | type == "number") and
		     (.time.system_ns | type == "number"); "time \(.time)"),
		need(.exit.status == 0 and .exit.signal == null; "exit \(.exit)")
	' "$j" 2>&1)
	[ -z "$out" ]
	tap "$m: pmuprof: --json report of the loop, parsed on the host, field by field" $? "$out"
}

# check_mux M: 12 events on N + 1 counters. The kernel rotates them every 4 ms, and loop2 runs
# for only about 10 ms of virtual time, so scaled values are rough (a few %) and some events never
# run. What must hold exactly: each event is counted 100% of the time and exact, or scaled as
# raw * enabled / running, or "not counted" with a null value.
check_mux() {
	m=$1 x=$(wl_expect loop2)
	# shellcheck disable=SC2016 # $x is a jq variable
	out=$(jq -r --argjson x "$x" '
		def need(c; msg): if c then empty else msg end;
		need(.events | length == 12; "\(.events | length) events"),
		need([.events[] | select(.status == "counted" and .counted_pct < 100)] | length > 0;
		     "no event was multiplexed"),
		(.events | to_entries[] | .key as $i | .value |
		 if .status == "counted" then
			need(.time_running_ns > 0 and .time_running_ns <= .time_enabled_ns;
			     "\($i): enabled \(.time_enabled_ns) running \(.time_running_ns)"),
			need((.counted_pct - 100 * .time_running_ns / .time_enabled_ns) | fabs < 0.01;
			     "\($i): counted_pct \(.counted_pct)"),
			need((.value - .raw_value * .time_enabled_ns / .time_running_ns) | fabs < 1;
			     "\($i): value \(.value), raw \(.raw_value) scaled by enabled/running"),
			need(.time_running_ns < .time_enabled_ns or .value == $x;
			     "\($i): counted all the time but \(.value), not \($x)")
		 elif .status == "not counted" then
			need(.value == null and .time_running_ns == 0;
			     "\($i): not counted, value \(.value), running \(.time_running_ns)")
		 else "\($i): status \(.status)" end)
	' "$O/pp-mux.loop2.json" 2>&1)
	[ "$(cat "$O/pp-mux.loop2.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: pmuprof: 12 events multiplexed: exact at 100%, else scaled by enabled/running" $? \
		"$out" "$(tail_of "$O/pp-mux.loop2.err" 3)"
}

# check_formats M: the text and CSV reports and the exit status passthrough.
check_formats() {
	m=$1 x=$(wl_expect loop)
	grouped=$(echo "$x" | sed ':a;s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta')
	[ "$(cat "$O/pp-text.loop.rc")" = 0 ] &&
		grep -Eq "^ +$grouped +inst_retired:u( +# .*)?$" "$O/pp-text.loop.err" &&
		grep -Eq "^ +$grouped +cpu_cycles:u$" "$O/pp-text.loop.err"
	tap "$m: pmuprof: text report of the loop shows $grouped for inst_retired:u and cpu_cycles:u" $? \
		"$(tail_of "$O/pp-text.loop.err" 12)"
	ok=0
	i=0
	for e in $(tr ',' ' ' < "$O/events"); do
		pv=$(csv_val "$O/pp-csv.loop.err" "$i") fv=$(perf_val "$O/perf.loop.err" "$e")
		case $e in *:u) [ "$pv" = "$fv" ] || ok=1 ;; *) is_num "$pv" || ok=1 ;; esac
		i=$((i + 1))
	done
	[ "$(cat "$O/pp-csv.loop.rc")" = 0 ] && [ "$(csv_val "$O/pp-csv.loop.err" 0)" = "$x" ] &&
		[ $ok -eq 0 ]
	tap "$m: pmuprof: -x, report of the loop: user counts = perf's -x, values" $? \
		"$(tail_of "$O/pp-csv.loop.err" 6)"
	[ "$(cat "$O/pp-exit3.rc")" = 3 ]
	tap "$m: pmuprof: exit status of the workload passed through (3)" $? \
		"exit status $(cat "$O/pp-exit3.rc")"
}

# check_names M: the same loop counted by raw codes, perf generic names and PMU terms.
check_names() {
	m=$1 x=$(wl_expect loop)
	for v in raw:r08:u,r11:u generic:instructions:u,cycles:u \
		"terms:$PMU/event=0x08/u,$PMU/event=0x11/u"; do
		r=pp-${v%%:*}.loop ev=${v#*:}
		a=$(json_val "$O/$r.json" 0 value) b=$(json_val "$O/$r.json" 1 value)
		[ "$a" = "$x" ] && [ "$b" = "$x" ]
		tap "$m: pmuprof: -e $ev of the loop = $x" $? "got '$a' and '$b'" \
			"$(tail_of "$O/$r.err" 3)"
	done
}

# check_filter M LEVEL: filter-bit terms counted on the loop and the syscall-heavy workload, the
# kernel at LEVEL (EL1, or EL2 with VHE). Events (guest/cases, /out/filter-events), one run:
# 0 inst_retired/p=1/, 1 inst_retired:u, 2 inst_retired/u=1,nsh=1/, 3 inst_retired:k,
# 4 inst_retired. p=1 must equal :u and the exact count; p=1 + u=1,nsh=1 and :u + :k must each
# equal inst_retired exactly; the JSON says which terms were used and the kernel's EL.
check_filter() {
	m=$1 el=${2#EL}
	for w in loop syscalls; do
		j=$O/pp-filter.$w.json x=$(wl_expect "$w")
		p=$(json_val "$j" 0 value) u=$(json_val "$j" 1 value) kf=$(json_val "$j" 2 value)
		k=$(json_val "$j" 3 value) i=$(json_val "$j" 4 value)
		[ "$(cat "$O/pp-filter.$w.rc")" = 0 ] && [ "$p" = "$u" ] && [ "$p" = "$x" ]
		tap "$m: pmuprof: $w: inst_retired/p=1/ = inst_retired:u = $x exactly" $? \
			"p=1 '$p', :u '$u'" "$(tail_of "$O/pp-filter.$w.err" 3)"
		is_num "$p" && is_num "$kf" && is_num "$u" && is_num "$k" && is_num "$i" &&
			[ $((p + kf)) -eq "$i" ] && [ $((u + k)) -eq "$i" ]
		tap "$m: pmuprof: $w: p=1 + u=1,nsh=1 = :u + :k = inst_retired exactly (kernel at EL$el)" \
			$? "p=1 '$p' + u=1,nsh=1 '$kf', :u '$u' + :k '$k', all '$i'"
	done
	# shellcheck disable=SC2016 # $el is a jq variable
	out=$(jq -r --argjson el "$el" '
		def need(c; msg): if c then empty else msg end;
		need(.host.kernel_el == $el; "host.kernel_el \(.host.kernel_el), not \($el)"),
		need(.host.kernel_el_source | type == "string"; "host.kernel_el_source \(.host.kernel_el_source)"),
		need([.events[].filter | if . == null then null else [.terms, .verdict, .marked] end] ==
		     [["P", "ok", false], null, ["U,NSH", "ok", false], null, null];
		     "filter \([.events[].filter])"),
		need([.events[].exclude | [.user, .kernel]] ==
		     [[false, true], [false, true], [true, false], [true, false], [false, false]];
		     "exclude user/kernel \([.events[].exclude | [.user, .kernel]])"),
		need([.events[].status] == ["counted", "counted", "counted", "counted", "counted"] and
		     ([.events[].counted_pct] | all(. == 100)); "status \([.events[] | [.status, .counted_pct]])")
	' "$O/pp-filter.loop.json" 2>&1)
	[ -z "$out" ]
	tap "$m: pmuprof: --json of filter-bit terms: terms, verdict, exclude flags, kernel_el $el" $? "$out"
}

# check_explain M LEVEL: pmuprof explain -j in the guest, parsed here: the kernel EL it decided,
# and each register value against what armv8pmu_set_event_filter writes at that EL
# (exclude_user sets U (30), exclude_kernel P (31); NSH (27) is set at EL1 when neither
# exclude_hv nor exclude_host is, at EL2 when neither exclude_kernel nor exclude_host is).
check_explain() {
	m=$1 el=${2#EL} nc=$3
	# inst_retired:u: P, NSH clear both ways; cpu_cycles: NSH (EL2 counted) at either EL.
	# inst_retired:k: U, and NSH only at EL2 (exclude_hv is set by :k, ignored at EL2);
	# u=1,nsh=1: U and NSH
	k=0x40000008
	[ "$el" = 2 ] && k=0x48000008
	# shellcheck disable=SC2016 # $el, $rel, $nc are jq variables
	out=$(jq -r --argjson el "$el" --arg rel "$(head -1 "$O/guest.uname")" --argjson nc "$nc" '
		def need(c; msg): if c then empty else msg end;
		need(.machine.kernel_el == $el; "machine.kernel_el \(.machine.kernel_el), not \($el) (\(.machine.kernel_el_source))"),
		need(.machine.counters == $nc and (.machine.counters_source | IN("probed", "cached"));
		     "machine.counters \(.machine.counters) (\(.machine.counters_source)), not \($nc) probed"),
		need(.machine.kernel_release == $rel; "machine.kernel_release \(.machine.kernel_release)"),
		need([.events[] | [.register.name, .register.value, .counter]] ==
		     [["PMEVTYPER0_EL0", "0x80000008", 0], ["PMCCFILTR_EL0", "0x8000000", 31]];
		     "registers \([.events[] | [.register.name, .register.value, .counter]])"),
		need(.events[0].register.fields | [.P, .U, .NSH] == [1, 0, 0]; "inst_retired:u fields \(.events[0].register.fields)"),
		need(.programming.pmcntenset == "0x80000001"; "pmcntenset \(.programming.pmcntenset)"),
		need(.programming.writes[-1] | .register == "PMCR_EL0" and .value == "0x1";
		     "last write \(.programming.writes[-1])")
	' "$O/pp-explain.out" 2>&1)
	[ "$(cat "$O/pp-explain.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: pmuprof explain -j -e inst_retired:u,cpu_cycles: $nc probed counters, PMEVTYPER0 0x80000008, PMCCFILTR 0x8000000 at EL$el" \
		$? "$out" "$(tail_of "$O/pp-explain.err" 3)"
	# shellcheck disable=SC2016 # $k is a jq variable
	out=$(jq -r --arg k "$k" '
		def need(c; msg): if c then empty else msg end;
		need([.events[].register.value] == [$k, "0x48000008"];
		     "values \([.events[].register.value]), not [\($k), 0x48000008]"),
		need(.events[1].filter_terms == "U,NSH" and .events[1].verdict == "ok";
		     "u=1,nsh=1: terms \(.events[1].filter_terms) verdict \(.events[1].verdict)")
	' "$O/pp-explain-k.out" 2>&1)
	[ "$(cat "$O/pp-explain-k.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: pmuprof explain -j: inst_retired:k is $k at EL$el, u=1,nsh=1 is 0x48000008" $? \
		"$out" "$(tail_of "$O/pp-explain-k.err" 3)"
}

# check_list_info M: pmuprof list shows the guest's advertised events; info shows its PMU.
check_list_info() {
	m=$1
	pmu=$PMU
	miss=
	# guest.events.PMU lines: "PMU/event event=0x...."
	evs=$(sed 's|^[^/]*/\([^ ]*\) .*|\1|' "$O/guest.events.$pmu" 2>/dev/null)
	[ -n "$evs" ] || miss=" (the guest listed no events of '$pmu')"
	for e in $evs; do
		grep -qiw "$e" "$O/pp-list.out" || miss="$miss $e"
	done
	[ "$(cat "$O/pp-list.rc")" = 0 ] && [ -z "$miss" ]
	tap "$m: pmuprof list shows the events $pmu advertises" $? "missing:$miss" \
		"$(tail_of "$O/pp-list.err" 3)"
	# shellcheck disable=SC2016 # $x are jq variables
	out=$(jq -r --arg pmu "$pmu" --argjson type "$PMU_TYPE" --arg midr "$(cat "$O/guest.midr")" \
		--argjson nev "$(wc -l < "$O/guest.events.$pmu")" \
		--arg rel "$(head -1 "$O/guest.uname")" '
		def need(c; msg): if c then empty else msg end;
		need(.pmus | length == 1; "\(.pmus | length) PMUs, not 1"),
		(.pmus[0] |
		 need(.name == $pmu; "name \(.name), not \($pmu)"),
		 need(.type == $type; "type \(.type), not \($type)"),
		 need(.midr == $midr; "midr \(.midr), not \($midr)"),
		 need(.nevents == $nev; "nevents \(.nevents), not \($nev)")),
		need(.machine.kernel_release == $rel; "kernel_release \(.machine.kernel_release)")
	' "$O/pp-info.out" 2>&1)
	[ "$(cat "$O/pp-info.rc")" = 0 ] && [ -z "$out" ]
	tap "$m: pmuprof info -j describes $pmu as the guest has it (type, MIDR, events)" $? \
		"$out" "$(tail_of "$O/pp-info.err" 3)"
	# a probe that found nothing (null) fails like a wrong count
	probed=$(jq -r '.pmus[0].counters.probed' "$O/pp-info.out" 2>/dev/null)
	[ "$probed" = "$n" ]
	tap "$m: pmuprof info -j: $pmu has $n counters" $? "counters.probed '$probed'"
	check_ready "$m"
}

# check_ready M: pmuprof info --check in a guest with a PMU, run as root: every point ok, its
# PMU and probed counters named, exit 0; --json agrees.
check_ready() {
	m=$1
	o=$O/pp-check.out
	grep -qE "^pmu +ok +$PMU " "$o" && grep -qE '^access +ok +CAP_PERFMON' "$o" &&
		grep -qE "^counters +ok +$n general \+ the cycle counter free \(probed\)$" "$o" &&
		grep -qE '^vm +ok ' "$o" && grep -qx 'counts of hardware events can be trusted here' "$o" &&
		[ "$(cat "$O/pp-check.rc")" = 0 ]
	tap "$m: pmuprof info --check: every point ok, exit 0" $? "exit $(cat "$O/pp-check.rc")" \
		"$(cat "$o")" "$(tail_of "$O/pp-check.err" 3)"
	out=$(jq -r '"\(.trusted) \([.checks[].verdict] | join(","))"' "$O/pp-check-json.out" 2>&1)
	[ "$out" = "true ok,ok,ok,ok" ] && [ "$(cat "$O/pp-check-json.rc")" = 0 ]
	tap "$m: pmuprof info --check --json: trusted, every point ok" $? "$out" \
		"$(tail_of "$O/pp-check-json.err" 3)"
}

# check_schema M: every stat report the guest wrote (pp*.json) matches the JSON Schema of
# man/pmuprof-json.5 (python3-jsonschema, which tools/deps.sh installs).
check_schema() {
	m=$1 schema=$PWD/man/pmuprof-json.schema.json n=0 bad= py=
	# the first Python with jsonschema: the one on PATH, else Debian's (HOST_PKGS installs it)
	for p in python3 /usr/bin/python3; do
		"$p" -c 'import jsonschema' 2>/dev/null && py=$p && break
	done
	if [ -z "$py" ]; then
		tap_not_run "$m: guest JSON reports match the schema" \
			"no python3 with jsonschema (apt-get install python3-jsonschema)"
		return
	fi
	for j in "$O"/pp*.json; do
		[ -f "$j" ] || continue
		n=$((n + 1))
		"$py" - "$schema" "$j" <<'PY' 2>>"$O/schema.err" || bad="$bad ${j##*/}"
import json, sys
import jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errors = list(jsonschema.validators.validator_for(schema)(schema).iter_errors(doc))
for e in errors:
    print("%s: %s: %s" % (sys.argv[2], list(e.absolute_path), e.message), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
	done
	[ "$n" -gt 0 ] && [ -z "$bad" ]
	tap "$m: all $n guest JSON reports match the schema" $? "not matching:$bad" \
		"$(tail_of "$O/schema.err" 4)"
}
