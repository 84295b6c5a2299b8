# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# check_serve.sh: sourced by check.sh. pmuprof serve in the guest (guest/cases.serve), scraped
# with busybox wget. On a one-CPU machine: the counts of the cgroup work, where sloop and
# sloop2 ran alone (each moved there while it slept), are exact at every scrape, and equal
# pmuprof stat -a -G's. On hetero: CPUs going offline and online while it serves, one of them
# offline when serve started.

# sv_val FILE EVENT [CGROUP]: pmuprof_events_total of EVENT, system-wide (no cgroup label) or
# in CGROUP, from a scrape ("" if none, or several).
sv_val() {
	sed -n "s/^pmuprof_events_total{event=\"$2\",\\(.*\\)} \\([0-9]*\\)\$/\\1 \\2/p" "$1" \
		2>/dev/null | awk -v g="${3:-}" '
		{ has = index($0, ",cgroup=\"") > 0 }
		(g == "" && !has) || (g != "" && index($0, ",cgroup=\"" g "\"") > 0) { n++; v = $NF }
		END { if (n == 1) print v }'
}

# check_serve M: the one-CPU machine M's serve case.
check_serve() {
	m=$1 u=inst_retired:u c=cpu_cycles:u
	x1=$(wl_sloop_spin sloop) x2=$(wl_sloop_spin sloop2)
	r=
	for k in 0 1 2; do r="$r$(cat "$O/serve.$k.rc" 2>/dev/null)"; done
	grep -q 'listening on http://127.0.0.1:' "$O/serve.log" 2>/dev/null && [ "$r" = 000 ] &&
		[ "$(cat "$O/serve.rc" 2>/dev/null)" = 0 ]
	tap "$m: pmuprof serve: listens, three scrapes with busybox wget, exit 0 on SIGTERM" $? \
		"wget's statuses '$r', serve's '$(cat "$O/serve.rc" 2>/dev/null)'" \
		"$(tail_of "$O/serve.log" 4)"
	got='' want="0 $x1 $((x1 + x2))"
	for e in $u $c; do
		g=
		for k in 0 1 2; do g="$g${g:+ }$(sv_val "$O/serve.$k.prom" "$e" work)"; done
		got="$got${got:+, }$e: $g"
	done
	[ "$got" = "$u: $want, $c: $want" ]
	tap "$m: pmuprof serve --for-each-cgroup: the cgroup's $u and $c at each scrape = 0, sloop's $x1, + sloop2's $x2, exactly" \
		$? "got '$got'" "$(grep "cgroup=" "$O/serve.2.prom" 2>/dev/null | head -4)"
	# two workload sizes: the difference of the differences is the loop's alone
	# shellcheck disable=SC2046 # the three values
	set -- $(for k in 0 1 2; do sv_val "$O/serve.$k.prom" $u work; done)
	[ $# = 3 ] && [ $(($3 - $2 - ($2 - $1))) = $((4 * (2500000 - 1000000))) ]
	tap "$m: pmuprof serve: (scrape 2 - scrape 1) - (scrape 1 - scrape 0) in the cgroup = 4 x (2,500,000 - 1,000,000) rounds exactly" \
		$? "scrapes '$*'"
	# system-wide, each difference takes in the workload and whatever else ran (the shell,
	# wget, serve itself)
	# shellcheck disable=SC2046
	set -- $(for k in 0 1 2; do sv_val "$O/serve.$k.prom" $u; done)
	[ $# = 3 ] && [ $(($2 - $1)) -ge "$x1" ] && [ $(($3 - $2)) -ge "$x2" ]
	tap "$m: pmuprof serve: system-wide $u grows by at least the workloads' counts" $? \
		"scrapes '$*'"
	# pmuprof stat -a -G on the same cgroup and workload
	j=$O/pp-cgroup.sloop2.json
	s=$(jq -r '[.events[] | .value] | map(tostring) | join(" ")' "$j" 2>/dev/null)
	[ "$(cat "$O/pp-cgroup.sloop2.rc")" = 0 ] && [ "$s" = "$x2 $x2" ]
	tap "$m: pmuprof stat -a -G work: sloop2 moved in while it sleeps: $u and $c $x2, as serve's" \
		$? "got '$s'" "$(tail_of "$O/pp-cgroup.sloop2.err" 3)"
}

# hp_series FILE: a scrape's pmuprof_events_total as "EVENT CPU PMU VALUE" lines, sorted.
hp_series() {
	sed -n 's/^pmuprof_events_total{event="\([^"]*\)",pmu="\([^"]*\)",.*cpu="\([0-9]*\)"} \([0-9]*\)$/\1 \3 \2 \4/p' \
		"$1" 2>/dev/null | sort
}

# hp_cpu FILE CPU: the values of CPU's series in a scrape, "inst cycles".
hp_cpu() { hp_series "$1" | awk -v c="$2" '$2 == c { printf "%s%s", s, $4; s = " " }'; }

# hp_state FILE STATE: pmuprof_counters{state="STATE"} of a scrape.
hp_state() { sed -n "s/^pmuprof_counters{state=\"$2\"} //p" "$1" 2>/dev/null; }

# check_serve_hotplug M: hetero's serve case, CPU 3 offline when serve started, CPU 1 offline
# and back while it serves (scrapes a to g).
check_serve_hotplug() {
	m=$1 h=$O/hp
	bad=
	for k in a b c d e f g; do
		[ "$(cat "$h.$k.rc" 2>/dev/null)" = 0 ] || bad="$bad scrape $k: wget $(cat "$h.$k.rc" 2>/dev/null);"
	done
	grep -q ': 2 events, 6 of 8 counters open, 4 CPUs$' "$O/serve-hp.log" 2>/dev/null ||
		bad="$bad log: $(head -n 1 "$O/serve-hp.log" 2>/dev/null);"
	[ "$(cat "$O/hp.alive" 2>/dev/null)" = 0 ] && [ "$(cat "$O/serve-hp.rc" 2>/dev/null)" = 0 ] ||
		bad="$bad alive '$(cat "$O/hp.alive" 2>/dev/null)' exit '$(cat "$O/serve-hp.rc" 2>/dev/null)';"
	[ -z "$bad" ]
	tap "$m: pmuprof serve --per-cpu, CPU 3 offline at its start: 6 of 8 counters open, seven scrapes over CPU 3 and CPU 1 coming online and going offline, alive, exit 0 on SIGTERM" \
		$? "$bad" "$(tail_of "$O/serve-hp.log" 4)"
	# CPU 3 offline at the start: no series, its 2 counters refused; once online, opened
	a=$(hp_series "$h.a.prom" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
	b=$(hp_series "$h.b.prom" | awk '{ print $1 "@" $2 "@" $3 }' | tr '\n' ' ')
	wb="cpu_cycles@0@$HA cpu_cycles@1@$HA cpu_cycles@2@$HB cpu_cycles@3@$HB inst_retired@0@$HA inst_retired@1@$HA inst_retired@2@$HB inst_retired@3@$HB "
	[ "$a" = "0 1 2 " ] && [ "$(hp_state "$h.a.prom" refused)" = 2 ] && [ "$b" = "$wb" ] &&
		[ "$(hp_state "$h.b.prom" open)" = 8 ] && [ "$(hp_state "$h.b.prom" refused)" = 0 ]
	tap "$m: pmuprof serve: CPU 3, offline at the start, has no series and 2 refused counters; online, its series appear on $HB (8 open, 0 refused)" \
		$? "CPUs at a '$a' (refused $(hp_state "$h.a.prom" refused)); series at b '$b' (open $(hp_state "$h.b.prom" open), refused $(hp_state "$h.b.prom" refused))" \
		"expected at b '$wb'"
	# counted once opened; frozen while offline; counted again once back
	c3b=$(hp_cpu "$h.b.prom" 3) c3c=$(hp_cpu "$h.c.prom" 3)
	c1d=$(hp_cpu "$h.d.prom" 1) c1e=$(hp_cpu "$h.e.prom" 1)
	c1f=$(hp_cpu "$h.f.prom" 1) c1g=$(hp_cpu "$h.g.prom" 1)
	grew() { [ -n "$1" ] && echo "$1 $2" | awk '{ exit !($3 > $1 && $4 > $2) }'; }
	grew "$c3b" "$c3c" && [ -n "$c1d" ] && [ "$c1d" = "$c1e" ] && grew "$c1f" "$c1g"
	tap "$m: pmuprof serve: CPU 3 counts once opened, CPU 1 stays still offline and counts again back online" \
		$? "CPU 3 '$c3b' -> '$c3c', CPU 1 offline '$c1d' -> '$c1e', back '$c1f' -> '$c1g'"
	# no series ever goes back
	bad=
	p=
	for k in a b c d e f g; do
		hp_series "$h.$k.prom" | awk '{ print $1 "@" $2, $4 }' > "$h.$k.series"
		if [ -n "$p" ]; then
			bad="$bad$(join "$h.$p.series" "$h.$k.series" |
				awk -v s="$p->$k" '$3 < $2 { printf "%s %s: %s -> %s; ", s, $1, $2, $3 }')"
		fi
		p=$k
	done
	[ -z "$bad" ] && [ "$(hp_series "$h.g.prom" | wc -l)" = 8 ]
	tap "$m: pmuprof serve: pmuprof_events_total never goes back over the seven scrapes, 8 series at the end" \
		$? "$bad" "$(hp_series "$h.g.prom" | wc -l) series at g"
	# a CPU's two events are one group: enabled for the same time at every scrape, also
	# while the CPU is offline (the kernel then breaks the group up) and once reopened
	bad=
	for k in a b c d e f g; do
		bad="$bad$(sed -n 's/^pmuprof_event_enabled_seconds_total{event="\([^"]*\)",.*cpu="\([0-9]*\)"} \(.*\)$/\2 \1 \3/p' \
			"$h.$k.prom" 2>/dev/null | sort | awk -v k="$k" '
			NR > 1 && $1 == c && $3 != t { printf "%s: CPU %s %s %s, %s %s; ", k, c, e, t, $2, $3 }
			{ c = $1; e = $2; t = $3 }')"
	done
	[ -z "$bad" ]
	tap "$m: pmuprof serve: each CPU's inst_retired and cpu_cycles enabled for the same time at every scrape" \
		$? "$bad"
	# descriptors: as many before CPU 1 went offline as after it came back
	f=
	for k in a b c d e f g; do f="$f${f:+ }$(tr ' ' / < "$h.$k.fds" 2>/dev/null)"; done
	# shellcheck disable=SC2086 # one word per scrape
	set -- $f
	[ $# = 7 ] && [ "${1#*/}" = 6 ] && [ "${3#*/}" = 8 ] && [ "$3" = "$5" ] && [ "$3" = "$7" ]
	tap "$m: pmuprof serve: no descriptor leaks: all/perf events after each scrape $f" $? \
		"expected a .../6, then c = e = g with 8 perf events"
	[ "$(cat "$O/hp.online" 2>/dev/null)" = 0-3 ]
	tap "$m: every CPU online again after serve's case" $? "online '$(cat "$O/hp.online" 2>/dev/null)'"
}
