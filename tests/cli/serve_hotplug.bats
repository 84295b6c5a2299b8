#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# serve_hotplug.bats: pmuprof serve while a CPU goes offline and comes back, for real (root,
# a writable cpu1/online): its series freeze and never go back, and the CPU is counted
# again once online; a CPU offline when serve starts is counted once it comes online. The
# offline window is kept short (other work shares the machine) and teardown always puts the
# CPU back online.
load helpers
load serve_helpers

CPU=/sys/devices/system/cpu/cpu1/online

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	[ -w "$CPU" ] || skip "cpu1 cannot be taken offline here ($CPU is not writable)"
	[ "$(cat "$CPU")" = 1 ] || skip "cpu1 is offline already"
	SPID=
	BUSY=()
}

teardown() {
	local p
	echo 1 > "$CPU" || true
	for p in ${SPID:-} "${BUSY[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
}

# scrape FILE: task-clock per CPU as "CPU VALUE" lines, and the exposition in FILE.full.
scrape() {
	curl -sS --max-time 5 -o "$1.full" "http://127.0.0.1:$PORT/metrics"
	sed -n 's/^pmuprof_events_total{event="task-clock",.*cpu="\([0-9]*\)"} \(.*\)$/\1 \2/p' \
		"$1.full" | sort -n > "$1"
}

# busy: a busy loop per CPU of this machine's two, killed in teardown.
busy() {
	for _ in 1 2; do
		sh -c 'while :; do :; done' &
		BUSY+=($!)
	done
}

cpu_value() {
	awk -v c="$1" '$1 == c { print $2 }' "$2"
}

# Fails unless every series of $2 is at least its value in $1.
no_going_back() {
	join "$1" "$2" | awk '$3 < $2 { print; bad = 1 } END { exit bad }' ||
		fail "a count went back from $1 to $2"
}

@test "serve: a CPU offline keeps its count, back online it is counted again" {
	serve_start --per-cpu -e task-clock
	busy
	sleep 1
	scrape a
	assert_equal "$(wc -l < a)" 2
	echo 0 > "$CPU"
	sleep 1
	scrape b
	echo 1 > "$CPU"
	scrape c
	sleep 1.5
	scrape d
	for f in b c d; do
		assert_equal "$(wc -l < $f)" 2
	done
	no_going_back a b
	no_going_back b c
	no_going_back c d
	# offline, cpu1 counted (almost) nothing; back online, a busy loop runs there again
	off=$(awk -v b="$(cpu_value 1 b)" -v a="$(cpu_value 1 a)" 'BEGIN { print b - a }')
	on=$(awk -v d="$(cpu_value 1 d)" -v c="$(cpu_value 1 c)" 'BEGIN { print d - c }')
	awk -v x="$on" 'BEGIN { exit !(x > 0.3e9) }' || fail "cpu1 counted $on ns in 1.5 s online"
	awk -v x="$off" -v y="$on" 'BEGIN { exit !(x < y) }' || fail "offline $off >= online $on"
	kill -0 "$SPID"
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
	grep -qx "pmuprof serve: stopping on SIGTERM" serve.log || fail "$(cat serve.log)"
}

@test "serve: the default series never go back over an offline and online CPU" {
	serve_start -e task-clock,context-switches
	curl -sS -o a.txt "http://127.0.0.1:$PORT/metrics"
	echo 0 > "$CPU"
	sleep 0.5
	curl -sS -o b.txt "http://127.0.0.1:$PORT/metrics"
	echo 1 > "$CPU"
	sleep 0.5
	curl -sS -o c.txt "http://127.0.0.1:$PORT/metrics"
	for f in a b c; do
		grep '^pmuprof_events_total{' $f.txt | sed 's/^pmuprof_events_total//' | sort > $f
	done
	assert_equal "$(wc -l < c)" 2
	no_going_back a b
	no_going_back b c
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
}

@test "serve: a CPU offline when serve starts is counted once it comes online" {
	echo 0 > "$CPU"
	serve_start --per-cpu -e task-clock
	grep -q ": 1 events, 1 of 2 counters open, 2 CPUs$" serve.log || fail "$(cat serve.log)"
	scrape a
	assert_equal "$(cut -d' ' -f1 a)" 0
	grep -qx 'pmuprof_counters{state="refused"} 1' a.full || fail "$(cat a.full)"
	echo 1 > "$CPU"
	scrape b
	grep -qx 'pmuprof_counters{state="open"} 2' b.full || fail "$(cat b.full)"
	grep -qx 'pmuprof_counters{state="refused"} 0' b.full || fail "$(cat b.full)"
	busy
	sleep 1.5
	scrape c
	assert_equal "$(cut -d' ' -f1 c | tr '\n' ' ')" "0 1 "
	no_going_back a b
	no_going_back b c
	on=$(awk -v c="$(cpu_value 1 c)" -v b="$(cpu_value 1 b)" 'BEGIN { print c - b }')
	awk -v x="$on" 'BEGIN { exit !(x > 0.3e9) }' || fail "cpu1 counted $on ns in 1.5 s online"
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
}

# enabled FILE EVENT CPU: pmuprof_event_enabled_seconds_total of EVENT on CPU in a scrape.
enabled() {
	sed -n "s/^pmuprof_event_enabled_seconds_total{event=\"$2\",.*cpu=\"$3\"} //p" "$1.full"
}

@test "serve: a group the kernel breaks up as its CPU goes offline keeps each member's count" {
	# task-clock and context-switches share a group per CPU; offlining a CPU detaches its
	# groups' members, which the leader's read no longer returns
	serve_start --per-cpu -e task-clock,context-switches
	scrape a
	echo 0 > "$CPU"
	sleep 0.3
	scrape b
	echo 1 > "$CPU"
	scrape c
	sleep 0.3
	scrape d
	for f in a b c d; do
		assert_equal "$(enabled $f context-switches 1)" "$(enabled $f task-clock 1)"
	done
	for p in a:b b:c c:d; do
		x=$(enabled ${p%:*} context-switches 1)
		y=$(enabled ${p#*:} context-switches 1)
		awk -v x="$x" -v y="$y" 'BEGIN { exit !(y >= x && y > 0) }' ||
			fail "context-switches on cpu1 enabled ${p%:*} $x -> ${p#*:} $y"
	done
	kill -TERM "$SPID"
	wait "$SPID"
	SPID=
}
