# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_regions.sh: sourced by check.sh. Named regions in the guest (tests/workload/ppregion.c,
# marked with pmuprof/region.h): each region's user-space instructions are exact, two regions
# of N1 and N2 iterations differ by exactly 2 x (N2 - N1), the marker's own constant cost is
# measured, the counts stay exact with -r and --mux=runs, and the same binary counted through
# perf's --control and pmuprof's gives equal counts. The cost of a begin/end pair, against
# perf's enable/disable round trip, is measured in guest time and printed.

# region_val FILE NAME JQ: a region's field of a pmuprof JSON report ("" if none).
region_val() {
	jq -r --arg n "$2" ".regions[] | select(.name == \$n) | $3 // empty" "$1" 2>/dev/null
}

# check_regions M: the regions' cases of machine M.
check_regions() {
	m=$1 j=$O/pp-regions.json
	n1=100000 n2=300000
	r1=$(region_val "$j" r1 '.events[0].raw_value') r2=$(region_val "$j" r2 '.events[0].raw_value')
	c1=$(region_val "$j" r1 .calls) c2=$(region_val "$j" r2 .calls)
	# each ran twice: its count is twice (the loop and the marker's constant k)
	k=$(( (r1 / 2) - $(wl_region_loop $n1) ))
	is_num "$r1" && is_num "$r2" && [ "$c1" = 2 ] && [ "$c2" = 2 ] &&
		[ $((r2 - r1)) = $((2 * ($(wl_region_loop $n2) - $(wl_region_loop $n1)))) ]
	tap "$m: pmuprof --regions: $EU of r2 - r1 = 2 calls x 2 x ($n2 - $n1) exactly" \
		$? "r1 '$r1' (calls '$c1'), r2 '$r2' (calls '$c2')" \
		"$(tail_of "$O/pp-regions.err" 3)"
	# the marker's constant: the same in every execution, and small
	is_num "$k" && [ "$k" -ge 0 ] && [ "$k" -lt 2000 ] && [ $((r1 % 2)) = 0 ] &&
		[ "$r2" = $((2 * ($(wl_region_loop $n2) + k))) ]
	tap "$m: pmuprof --regions: the marker's own cost is $k user instructions, each time" $? \
		"r1 '$r1' r2 '$r2' k '$k'"
	# every event per region, the metric per region
	r=$(jq -r '[(.regions | length), (.regions[0].events | length) == (.events | length),
		(.regions[0].metrics | map(select(.name == "ipc" and .value != null)) | length > 0)] |
		map(tostring) | join(" ")' "$j" 2>/dev/null)
	[ "$r" = "2 true true" ]
	tap "$m: pmuprof --regions -M ipc: every event and ipc per region" $? "events, ipc: '$r'"
	check_regions_runs "$m" "$k"
	check_regions_perf "$m"
}

# check_regions_runs M K: -r 3 and --mux=runs keep each region exact (K: the marker's cost).
check_regions_runs() {
	m=$1 k=$2
	x1=$((2 * ($(wl_region_loop 100000) + k))) x2=$((2 * ($(wl_region_loop 300000) + k)))
	j=$O/pp-regions-r3.json
	r=$(jq -r '[.regions[] | [.name, (.events[0].runs | map(tostring) | join(","))] |
		join(":")] | join(" ")' "$j" 2>/dev/null)
	[ "$r" = "r1:$x1,$x1,$x1 r2:$x2,$x2,$x2" ]
	tap "$m: pmuprof --regions -r 3: each region's runs exact" $? "got '$r'" \
		"expected 'r1:$x1,$x1,$x1 r2:$x2,$x2,$x2'"
	j=$O/pp-regions-runs.json
	r=$(jq -r '[.mux.runs] + [.regions[] | [.events[].raw_value] | unique |
		map(tostring) | join(",")] | map(tostring) | join(" ")' "$j" 2>/dev/null)
	runs=${r%% *}
	is_num "$runs" && [ "$runs" -ge 2 ] && [ "${r#* }" = "$x1 $x2" ]
	tap "$m: pmuprof --regions --mux=runs: 12 events in $runs runs, every region count exact" \
		$? "runs and each region's distinct values: '$r' (expected '$x1 $x2')"
}

# check_regions_perf M: the same binary through perf's --control and pmuprof's: equal counts;
# and the cost of a mark pair, in guest time.
check_regions_perf() {
	m=$1
	# "enable" and "disable" carry no thread id (perf's words): each tool acts while the
	# program goes on from its write to its wait, and whether that wait's svc falls inside
	# the window differs from one boot to the next for perf as for pmuprof (perf read
	# 401156 and 401157 on two boots of the same image): equal within 2
	p=$(perf_val "$O/perf-ctl.regions.err" "$EU") q=$(perf_val "$O/pmuprof-ctl.regions.err" "$EU")
	is_num "$p" && is_num "$q" && [ "$p" -ge "$(wl_region_loop 200000)" ] &&
		[ $((p - q)) -le 2 ] && [ $((q - p)) -le 2 ]
	tap "$m: --control fifo, -D -1: $EU of the window: pmuprof $q = perf $p within 2" $? \
		"perf '$p', pmuprof '$q'" "$(tail_of "$O/pmuprof-ctl.regions.err" 3)"
	pp=$(awk '/ns per begin\/end pair/ { print $1 }' "$O/pp-regions-bench.out" 2>/dev/null)
	pf=$(awk '/ns per begin\/end pair/ { print $1 }' "$O/perf-regions-bench.out" 2>/dev/null)
	no=$(awk '/ns per begin\/end pair/ { print $1 }' "$O/pp-regions-nobench.out" 2>/dev/null)
	is_num "$pp" && is_num "$pf" && is_num "$no"
	tap "$m: a begin/end pair costs $pp ns under pmuprof --regions, $pf ns as perf's enable/disable round trip, $no ns without a tool (guest time)" \
		$? "pmuprof '$pp' perf '$pf' none '$no'"
}

# check_regions_hetero M: on two core types each region keeps its split: a part per PMU, the
# region's value their sum, and r2 - r1 still exactly 2 x (N2 - N1).
check_regions_hetero() {
	j=$O/pp-regions.h.json
	r=$(jq -r '[.regions[] | .events[0] | [(.split | length),
		(.value == ([.split[].value // 0] | add)), .value]] |
		map(map(tostring) | join(":")) | join(" ")' "$j" 2>/dev/null)
	r1=$(region_val "$j" r1 '.events[0].value') r2=$(region_val "$j" r2 '.events[0].value')
	case $r in "2:true:"*" 2:true:"*) st=0 ;; *) st=1 ;; esac
	[ "$st" = 0 ] && is_num "$r1" && is_num "$r2" &&
		[ $((r2 - r1)) = $(($(wl_region_loop 300000) - $(wl_region_loop 100000))) ]
	tap "$1: pmuprof --regions: each region split over the two PMUs, the parts summing to it, r2 - r1 exact" \
		$? "parts:sum ok:value per region '$r', r1 '$r1' r2 '$r2'" \
		"$(tail_of "$O/pp-regions.h.err" 3)"
}
