#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# textfile.bats: the textfile route: pmuprof stat -a -I MS --export openmetrics:FILE rewrites
# FILE atomically at every interval with the counts so far as OpenMetrics counters, which a
# collector (node_exporter's textfile collector) may read at any moment.
load helpers

@test "stat -a -I --export openmetrics: FILE rewritten whole at each interval, counters never back" {
	"$PMUPROF" stat -a -I 100 -x, -o live.csv --export openmetrics:tf.prom -e task-clock,page-faults \
		-- sleep 2 &
	pid=$!
	# read it as a collector would, as often as it can: every read must parse whole
	py_prom - tf.prom > reads.txt <<'EOF2' || fail "$(cat reads.txt)"
import os, sys, time
from prometheus_client.openmetrics.parser import text_string_to_metric_families
path, seen, last, t0 = sys.argv[1], set(), 0.0, time.time()
while time.time() - t0 < 1.6:
    try:
        text = open(path).read()
    except FileNotFoundError:
        time.sleep(0.01)
        continue
    v = None
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if s.name == "pmuprof_events_total" and s.labels["event"] == "task-clock":
                if fam.type != "counter":
                    sys.exit("pmuprof_events is a " + fam.type)
                v = s.value
    if v is None or v < last:
        sys.exit(f"task-clock {v} after {last}")
    last = v
    seen.add(v)
    time.sleep(0.005)
print(len(seen))
EOF2
	wait "$pid"
	[ "$(cat reads.txt)" -ge 5 ] || fail "only $(cat reads.txt) distinct counts read"
	# at the end: the same counters (the whole run's), then the report's gauges, then # EOF
	assert_equal "$(tail -n 1 tf.prom)" "# EOF"
	assert_equal "$(head -n 1 tf.prom)" "# TYPE pmuprof_events counter"
	grep -q '^pmuprof_event_value{event="task-clock",pmu="software"} ' tf.prom || fail "no gauges"
	# task-clock of the whole run: about CPUs x its length (the report's own duration)
	total=$(awk '/^pmuprof_events_total\{event="task-clock"/ { print $NF }' tf.prom)
	wall=$(awk '/^pmuprof_time_seconds\{time="wall"\}/ { print $NF }' tf.prom)
	awk -v t="$total" -v w="$wall" -v n="$(getconf _NPROCESSORS_ONLN)" \
		'BEGIN { r = t / (w * 1e9 * n); exit !(r > 0.9 && r < 1.1) }' ||
		fail "task-clock $total over $wall s on $(getconf _NPROCESSORS_ONLN) CPUs"
	assert_equal "$(ls -A | sort | tr '\n' ' ')" "live.csv reads.txt tf.prom "
}

@test "stat --export openmetrics without -I: gauges only, as before" {
	"$PMUPROF" stat --export openmetrics:om.prom -e task-clock -- true 2>/dev/null
	run grep -c '^pmuprof_events_total' om.prom
	assert_output 0
	grep -q '^pmuprof_event_value{event="task-clock"' om.prom || fail "$(cat om.prom)"
}
