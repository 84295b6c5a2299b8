# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_cgroup.sh: sourced by check.sh. stat -a --for-each-cgroup in the guest: each cgroup's
# user instructions are its own tasks' alone (ppb's minus ppa's is exactly loop2's minus loop's:
# the same wrapper ran each), as perf counts them, and each cgroup's IPC comes from its own two
# events.

# cg_val FILE CGROUP EVENT: the raw value of EVENT counted in CGROUP in a pmuprof JSON report.
cg_val() {
	jq -r --arg c "$2" --arg e "$3" \
		'[.events[] | select(.cgroup == $c and .name == $e) | .raw_value][0] // empty' \
		"$1" 2>/dev/null
}

# perf_cg_val FILE CGROUP EVENT: perf stat -x,'s value of EVENT in CGROUP (the 4th field).
perf_cg_val() {
	awk -F, -v c="$2" -v e="$3" '$3 == e && $4 == c { print $1; exit }' "$1" 2>/dev/null
}

# check_cgroup M: the per-cgroup cases of machine M.
check_cgroup() {
	m=$1 j=$O/pp-cgroup.json
	a=$(cg_val "$j" ppa "$EU") b=$(cg_val "$j" ppb "$EU")
	dx=$(($(wl_expect loop2) - $(wl_expect loop)))
	is_num "$a" && is_num "$b" && [ $((b - a)) -eq "$dx" ] &&
		[ "$a" -ge "$(wl_expect loop)" ] && [ "$(cat "$O/pp-cgroup.rc")" = 0 ]
	tap "$m: stat -a --for-each-cgroup: $EU of ppb - ppa = loop2 - loop = $dx exactly" $? \
		"ppa '$a', ppb '$b'" "$(tail_of "$O/pp-cgroup.err" 3)"
	pa=$(perf_cg_val "$O/perf-cgroup.err" ppa "$EU") pb=$(perf_cg_val "$O/perf-cgroup.err" ppb "$EU")
	# the wrapper's own instructions differ by a few between the two tools (each starts the
	# shell its own way), and not between the two cgroups of one run
	is_num "$pa" && is_num "$pb" && [ $((pb - pa)) -eq "$dx" ] &&
		[ $((a - pa)) -lt 100 ] && [ $((pa - a)) -lt 100 ]
	tap "$m: stat -a --for-each-cgroup: perf's $EU of ppb - ppa is the same $dx" $? \
		"pmuprof ppa '$a' ppb '$b', perf ppa '$pa' ppb '$pb'" "$(tail_of "$O/perf-cgroup.err" 3)"
	# each cgroup's ipc from its own events: 1 (shift=0, a cycle an instruction), its cgroup
	# named (schema 1.8) as its inputs' is
	r=$(jq -r '. as $r | [.metrics[] | select(.name == "ipc") |
		[(.inputs | map($r.events[.index].cgroup) | unique | join("+")), .cgroup, .value] |
		map(tostring) | join(":")] | sort | join(" ")' "$j" 2>/dev/null)
	[ "$r" = "ppa:ppa:1 ppb:ppb:1" ]
	tap "$m: stat -a --for-each-cgroup: ipc per cgroup, from its own events" $? \
		"inputs' cgroup : metric's cgroup : value: '$r' (expected 'ppa:ppa:1 ppb:ppb:1')"
}
