#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# --per-cache[=LEVEL]: one row per cache instance, by the caches this machine's sysfs lists
# (cpuN/cache/indexK), named as perf names them (S0-D0-L3-ID0). The grouping on the fixture
# trees (ids given or not, an offline CPU, levels) is tests/unit/test_topo.c's; here the real
# /sys of this host: a unit's CPUs are those its cache's shared_cpu_list names, and its value
# is the sum of theirs, as -A gives them.
load helpers

CPUDIR=/sys/devices/system/cpu

# the one line of a refusal, exit status 2
refused() {
	assert_failure 2
	[[ $stderr == "$1" || $stderr == "$1"$'\n'"Try 'pmuprof stat --help' for more information." ]] ||
		fail "stderr: $stderr"
}

# highest: the highest cache level CPU 0 has
highest() { cat "$CPUDIR"/cpu0/cache/index*/level | sort -n | tail -1; }

# ncpus LIST: how many CPUs a kernel cpulist names
ncpus() {
	local n=0 a b r
	IFS=, read -ra r <<<"$1"
	for a in "${r[@]}"; do
		b=${a#*-}
		n=$((n + b - ${a%-*} + 1))
	done
	echo "$n"
}

setup_file() {
	[ -r "$CPUDIR/cpu0/cache/index0/level" ] ||
		skip "this machine's sysfs lists no cache (cpu0/cache/index0)"
}

@test "per-cache: default level is the highest; each unit's CPUs are its shared_cpu_list" {
	lvl=$(highest)
	run -0 "$PMUPROF" stat -a --per-cache -j -o r.json -e cpu-clock -- sleep 0.1
	check_report r.json
	jq -e --argjson l "$lvl" '.aggregation == "cache" and
		(.events[0].units | all(.cache_level == $l and
		 (.unit == "S\(.socket)-D\(.die)-L\($l)-ID\(.cache)")))' r.json
	jq -e --argjson n "$(getconf _NPROCESSORS_ONLN)" \
		'([.events[0].units[].ncpus] | add) == $n' r.json
	# cpu0's cache of that level: the first unit (units are in CPU order), its CPUs
	for d in "$CPUDIR"/cpu0/cache/index*; do
		[ "$(cat "$d/level")" = "$lvl" ] && [ "$(cat "$d/type")" != Instruction ] && break
	done
	jq -e --argjson n "$(ncpus "$(cat "$d/shared_cpu_list")")" \
		'.events[0].units[0].ncpus == $n' r.json
	if [ -r "$d/id" ]; then
		jq -e --argjson id "$(cat "$d/id")" '.events[0].units[0].cache == $id' r.json
	fi
	jq -e '([.events[0].units[].value] | add) - .events[0].value | fabs < 0.01' r.json
}

@test "per-cache: a unit's value is the sum of its CPUs' (-A), cpu-clock over the same sleep" {
	run -0 "$PMUPROF" stat -a -A -j -o a.json -e cpu-clock -- sleep 0.2
	run -0 "$PMUPROF" stat -a --per-cache=L1 -j -o c.json -e cpu-clock -- sleep 0.2
	run -0 "$PMUPROF" stat -a --per-cache -j -o h.json -e cpu-clock -- sleep 0.2
	# L1 is per CPU here as on every machine: as many units as -A's, each about 0.2 s
	jq -e --slurpfile a a.json '(.events[0].units | length) == ($a[0].events[0].units | length)' \
		c.json
	# the highest level: each unit about its CPUs' -A values added (0.2 s each)
	jq -e --slurpfile a a.json '
		($a[0].events[0].units | map(.value) | add / length) as $per |
		.events[0].units | all((.value / (.ncpus * $per)) as $r | $r > 0.9 and $r < 1.1)' h.json
	jq -e --slurpfile a a.json '(.events[0].value / $a[0].events[0].value) as $r |
		$r > 0.9 and $r < 1.1' h.json
}

@test "per-cache: text and -x name the unit as perf 6.4 does, then its CPUs" {
	run -0 --separate-stderr "$PMUPROF" stat -a --per-cache=L3 -x, -e page-faults -- true
	[[ ${stderr_lines[0]} =~ ^S[0-9]+-D[0-9]+-L3-ID[0-9]+,[0-9]+,[0-9]+,,page-faults, ]] ||
		fail "CSV: ${stderr_lines[0]}"
	run -0 --separate-stderr "$PMUPROF" stat -a --per-cache=L3 -e page-faults -- true
	id=$(grep -oE '^S[0-9]+-D[0-9]+-L3-ID[0-9]+' <<<"$stderr" | head -1)
	n=$(grep -E "^$id " <<<"$stderr" | head -1 | awk '{ print $2 }')
	want=$(printf '%-22s %4d ' "$id" "$n")
	grep -qF -- "$want" <<<"$stderr" || fail "no line starting '$want': $stderr"
	run -0 --separate-stderr "$PMUPROF" stat -a --per-cache -I 40 -e page-faults -- sleep 0.1
	assert_equal "${stderr_lines[0]}" \
		"#           time cache                  cpus             counts unit events"
}

@test "per-cache: refused without -a or -C, with a bad level, a level no CPU has" {
	run --separate-stderr "$PMUPROF" stat --per-cache true
	refused "pmuprof stat: --per-cache splits the counts by CPU: it needs -a or -C"
	run --separate-stderr "$PMUPROF" stat -a --per-cache=L5 true
	refused "pmuprof stat: --per-cache takes a cache level from L1 to L4 (e.g. --per-cache=L3), not 'L5'"
	run --separate-stderr "$PMUPROF" stat -a --per-cache=3 true
	refused "pmuprof stat: --per-cache takes a cache level from L1 to L4 (e.g. --per-cache=L3), not '3'"
	run --separate-stderr "$PMUPROF" stat -a --per-core --per-cache true
	refused "pmuprof stat: --per-core and --per-cache both choose how counts are aggregated: give one of them"
	run --separate-stderr env PMUPROF_SYSFS_ROOT="$FIXTURES/n1-2s" "$PMUPROF" stat -a \
		--per-cache=l4 -e task-clock true
	refused "pmuprof: --per-cache=L4: no CPU has a level 4 cache (this machine's caches are L1, L2, L3): give one of those levels"
	# a fixture's CPUs count nothing here: the caches are read, the units are empty
	run -0 env PMUPROF_SYSFS_ROOT="$FIXTURES/n1-2s" "$PMUPROF" stat -a --per-cache \
		-j -o f.json -e task-clock true
	jq -e '.aggregation == "cache" and .events[0].status == "not counted"' f.json
}
