# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_stat.sh: sourced by check.sh. The scripted-benchmarking cases of pmuprof stat in the
# guest: -r on an exact count (no spread at all), -I intervals summing exactly to the exact
# count, and IPC = 1 under -icount shift=0 (a cycle per instruction).

# check_stat M: the -r, -I and metric cases of machine M.
check_stat() {
	m=$1
	j=$O/pp-repeat.loop.json x=$(wl_expect loop)
	r=$(jq -r '[.repeat.runs, .events[0].stats.stddev, .events[0].stats.mean,
		([.events[0].runs[] | . == '"$x"'] | all)] | map(tostring) | join(" ")' "$j" 2>/dev/null)
	[ "$r" = "3 0 $x true" ]
	tap "$m: pmuprof stat -r 3: $EU of loop: 3 runs, stddev 0, mean $x exactly" $? \
		"runs, stddev, mean, all exact: '$r'" "$(tail_of "$O/pp-repeat.loop.err" 3)"
	j=$O/pp-interval.loop3.json x=$(wl_expect loop3)
	r=$(jq -r '[(.intervals | length), ([.intervals[].events[0].raw_value] | add),
		.events[0].value] | map(tostring) | join(" ")' "$j" 2>/dev/null)
	n=${r%% *} rest=${r#* }
	is_num "$n" && [ "$n" -ge 3 ] && [ "$rest" = "$x $x" ]
	tap "$m: pmuprof stat -I 2: $EU of loop3 in $n intervals sums to $x exactly" $? \
		"intervals, sum, total: '$r'" "$(tail_of "$O/pp-interval.loop3.err" 3)"
	# printed live: the interval lines' counts (field 2; the time leads) sum to the exact
	# count, and so does the summary line that follows them
	f=$O/pp-interval-x.loop3.err
	r=$(awk -F, '$1 == "summary" { s = $2; next } $1 ~ /^ *[0-9]+\.[0-9]+$/ { n++; t += $2 }
		END { printf "%d %d %s", n, t, s }' "$f" 2>/dev/null)
	n=${r%% *} rest=${r#* }
	is_num "$n" && [ "$n" -ge 3 ] && [ "$rest" = "$x $x" ] &&
		[ "$(cat "$O/pp-interval-x.loop3.rc" 2>/dev/null)" = 0 ]
	tap "$m: pmuprof stat -I 2 -x, printed live: $EU of loop3 in $n lines sums to $x exactly" \
		$? "lines, sum, summary: '$r'" "$(tail_of "$f" 3)"
	# -a --interval-count 3, no command: each event's total is its 3 intervals' sum, exactly
	j=$O/pp-interval-a.json
	r=$(jq -r '. as $d | [(.intervals | length)] + [range(.events | length) as $k |
		($d.events[$k].raw_value > 0 and $d.events[$k].raw_value ==
		 ([$d.intervals[].events[$k].raw_value] | add))] | map(tostring) | join(" ")' \
		"$j" 2>/dev/null)
	[ "$r" = "3 true true true" ] && [ "$(cat "$O/pp-interval-a.rc" 2>/dev/null)" = 0 ]
	tap "$m: pmuprof stat -a -I 20 --interval-count 3: each total is the 3 intervals' sum" $? \
		"intervals, each event's total > 0 and = its intervals' sum: '$r'" \
		"$(tail_of "$O/pp-interval-a.err" 3)"
	r=$(jq -r --arg u "$EU" '[.metrics[] | select(.name == "ipc" and (.events | index($u))) |
		.value] | map(tostring) | join(" ")' "$O/pp.loop.json" 2>/dev/null)
	[ "$r" = 1 ]
	tap "$m: pmuprof: loop: ipc of $EU over $EC = 1 (shift=0)" $? "ipc '$r'"
	grep -q "# *1.000 insn per cycle" "$O/pp-text.loop.err" 2>/dev/null
	tap "$m: pmuprof text: '1.000 insn per cycle' beside $EU" $? \
		"$(grep "$EU" "$O/pp-text.loop.err" 2>/dev/null | head -2)"
}
