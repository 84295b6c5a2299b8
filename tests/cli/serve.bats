#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# serve.bats: pmuprof serve on loopback, this machine's real counters: the series and their
# labels, both exposition formats (promtool, prometheus_client's OpenMetrics parser), counts
# that agree with wall time x CPUs, HTTP methods and paths, hostile clients (idle, slow,
# oversized, garbage, too many), basic auth and TLS from a web config, SIGHUP, SIGTERM and the
# refusals of bad input.
load helpers
load serve_helpers

# serve_stop [SIGNAL]: ends it; it must exit 0 and log the signal.
serve_stop() {
	local st=0
	kill -"${1:-TERM}" "$SPID"
	wait "$SPID" || st=$?
	SPID=
	assert_equal "$st" 0
	grep -qx "pmuprof serve: stopping on SIG${1:-TERM}" serve.log || fail "$(cat serve.log)"
}

LEFT=()
teardown() {
	local p
	for p in ${SPID:-} "${LEFT[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
}

get() {
	curl -sS --max-time 5 "$@"
}

# The value of the series whose line starts with $1 in file $2.
value_of() {
	awk -v k="$1" 'index($0, k) == 1 { print $NF }' "$2"
}

ncpus() {
	getconf _NPROCESSORS_ONLN
}

@test "serve: the default set here is the software events, one series per core type" {
	[ -z "$(ls /sys/bus/event_source/devices/ | grep -i -e armv8 -e arm_ -e pmuv3)" ] ||
		skip "this machine has an Arm PMU: the default set is the Arm one"
	serve_start
	get -o m.txt "http://127.0.0.1:$PORT/metrics"
	grep '^pmuprof_events_total{' m.txt | sed 's/} .*/}/' > got
	m=$(uname -m)
	printf '%s\n' "pmuprof_events_total{event=\"task-clock\",pmu=\"software\",core=\"$m\"}" \
		"pmuprof_events_total{event=\"context-switches\",pmu=\"software\",core=\"$m\"}" \
		"pmuprof_events_total{event=\"page-faults\",pmu=\"software\",core=\"$m\"}" > want
	diff want got || fail "the default series differ"
	assert_equal "$(grep -c '^pmuprof_event_enabled_seconds_total{' m.txt)" 3
	assert_equal "$(grep -c '^pmuprof_event_running_seconds_total{' m.txt)" 3
	assert_equal "$(grep '^pmuprof_build_info' m.txt)" "pmuprof_build_info{version=\"$("$PMUPROF" --version | awk '{ print $NF }')\"} 1"
	assert_equal "$(grep '^pmuprof_plan_runs' m.txt)" 'pmuprof_plan_runs{known="true"} 1'
	assert_equal "$(grep '^pmuprof_counters{state="open"}' m.txt)" \
		"pmuprof_counters{state=\"open\"} $((3 * $(ncpus)))"
	grep -q "listening on http://127.0.0.1:$PORT/metrics: 3 events, $((3 * $(ncpus))) of $((3 * $(ncpus))) counters open, $(ncpus) CPUs" serve.log ||
		fail "the start line: $(cat serve.log)"
	serve_stop
}

@test "serve -M cs_per_second (perf 6.19's name): context-switches and task-clock are served" {
	serve_start -M cs_per_second
	get -o m.txt "http://127.0.0.1:$PORT/metrics"
	assert_equal "$(grep '^pmuprof_events_total{' m.txt | sed 's/,pmu=.*//' | tr '\n' ' ')" \
		'pmuprof_events_total{event="context-switches" pmuprof_events_total{event="task-clock" '
	serve_stop
}

@test "serve: promtool check metrics finds nothing to say" {
	command -v promtool >/dev/null || fail "promtool is missing: run tools/deps.sh"
	serve_start -e task-clock,page-faults,cycles --per-cpu
	get -o m.txt "http://127.0.0.1:$PORT/metrics"
	run promtool check metrics < m.txt
	assert_success
	assert_output ''
	serve_stop
}

@test "serve: OpenMetrics by the Accept header, read by prometheus_client's parser" {
	serve_start -e task-clock,page-faults
	get -D h.txt -o om.txt -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;q=0.5' \
		"http://127.0.0.1:$PORT/metrics"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' h.txt ||
		fail "content type: $(cat h.txt)"
	assert_equal "$(tail -n 1 om.txt)" "# EOF"
	py_prom - om.txt > fams <<'EOF' || fail "the parser refused it: $(cat fams)"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
for f in text_string_to_metric_families(open(sys.argv[1]).read()):
    print(f.name, f.type, len(f.samples))
EOF
	printf '%s\n' "pmuprof_events counter 2" "pmuprof_event_enabled_seconds counter 2" \
		"pmuprof_event_running_seconds counter 2" "pmuprof_plan_runs gauge 1" \
		"pmuprof_counters gauge 2" "pmuprof_build info 1" > want
	diff want fams || fail "families differ"
	get -D h2.txt -o p.txt "http://127.0.0.1:$PORT/metrics"
	grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' h2.txt ||
		fail "without Accept: $(cat h2.txt)"
	serve_stop
}

@test "serve: task-clock grows by wall time x CPUs between scrapes, never back" {
	serve_start -e task-clock
	k='pmuprof_events_total{event="task-clock"'
	get -o a.txt "http://127.0.0.1:$PORT/metrics"
	t0=$(date +%s%N)
	sleep 1
	get -o b.txt "http://127.0.0.1:$PORT/metrics"
	t1=$(date +%s%N)
	a=$(value_of "$k" a.txt)
	b=$(value_of "$k" b.txt)
	# the scrapes are read when served: between t0 and t1, within 10 %
	awk -v a="$a" -v b="$b" -v w=$((t1 - t0)) -v n="$(ncpus)" \
		'BEGIN { r = (b - a) / (w * n); exit !(r > 0.9 && r < 1.1) }' ||
		fail "task-clock grew by $((b - a)) ns in $((t1 - t0)) ns on $(ncpus) CPUs"
	serve_stop
}

@test "serve --per-cpu, --per-core, --per-cluster: a series per unit, labelled" {
	serve_start -e page-faults --per-cpu
	get -o m.txt "http://127.0.0.1:$PORT/metrics"
	grep '^pmuprof_events_total{' m.txt | sed 's/.*cpu="\([0-9]*\)"}.*/\1/' > got
	online=$(cat /sys/devices/system/cpu/online)
	# every online CPU once ("0-1" style lists expanded)
	echo "$online" | tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }' > want
	diff want got || fail "CPUs differ"
	serve_stop
	for o in per-core:core_id per-cluster:cluster; do
		serve_start -e page-faults --"${o%%:*}"
		get -o m.txt "http://127.0.0.1:$PORT/metrics"
		n=$(grep -c "^pmuprof_events_total{event=\"page-faults\",pmu=\"software\",core=\"$(uname -m)\",${o#*:}=\"[0-9]*\"} [0-9]*$" m.txt)
		[ "$n" -ge 1 ] || fail "--${o%%:*}: $(cat m.txt)"
		serve_stop
	done
	run "$PMUPROF" serve --per-cpu --per-core
	assert_failure 2
	assert_line --index 0 "pmuprof serve: --per-cpu and --per-core both choose the series: give one"
}

@test "serve: GET and HEAD on /metrics and /, 404 elsewhere, 405 for other methods" {
	serve_start -e page-faults
	u=http://127.0.0.1:$PORT
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u/metrics")" 200
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u/")" 200
	get "$u/" | grep -q 'href="/metrics"' || fail "the landing page has no link"
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u/nothing")" 404
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u/metrics/x")" 404
	get -I -o head.txt "$u/metrics"
	grep -q '^HTTP/1.1 200' head.txt || fail "HEAD: $(cat head.txt)"
	assert_equal "$(get -I -s "$u/metrics" -w '%{size_download}' -o /dev/null)" 0
	for m in POST PUT DELETE OPTIONS PATCH; do
		assert_equal "$(get -X "$m" -d x -o /dev/null -w '%{http_code}' "$u/metrics")" 405
	done
	get -X POST -D h.txt -o /dev/null "$u/metrics"
	grep -qi '^allow: GET, HEAD' h.txt || fail "405 without Allow: $(cat h.txt)"
	serve_stop
}

@test "serve: a scraper's connection is kept from one scrape to the next" {
	serve_start -e page-faults
	u=http://127.0.0.1:$PORT/metrics
	# curl asks HTTP/1.1 keep-alive, as Prometheus does: two scrapes, one connection
	get -v -o /dev/null -o /dev/null "$u" "$u" 2> curl.txt
	grep -q 'Re-using existing connection' curl.txt || fail "a new connection: $(cat curl.txt)"
	run grep -ci '^< connection: close' curl.txt
	assert_output 0
	# the second answer is a whole scrape
	get -o a.txt -o b.txt "$u" "$u"
	grep -q '^pmuprof_events_total{event="page-faults"' b.txt || fail "second scrape: $(cat b.txt)"
	serve_stop
}

@test "serve: idle, slow, oversized, garbage and surplus clients cost nothing" {
	serve_start -e page-faults --max-connections 8 --timeout 2
	py_prom - "$PORT" > hostile.txt <<'EOF' || fail "$(cat hostile.txt)"
import socket, sys, time
port = int(sys.argv[1])
def conn():
    return socket.create_connection(("127.0.0.1", port), timeout=5)
def scrape():
    s = conn()
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    s.close()
    return data
def status(data):
    return data.split(b"\r\n", 1)[0].decode(errors="replace")
# 5 idle connections and a slow one: a scrape is still answered at once
idle = [conn() for _ in range(5)]
slow = conn(); slow.sendall(b"GET /met")
t = time.time(); r = scrape()
print("with idle clients:", status(r), "in %.1f s" % (time.time() - t) if time.time() - t < 1 else "slow")
# the slow client is closed after --timeout (2 s) although it keeps sending
closed = False
t = time.time()
while time.time() - t < 6:
    try:
        slow.sendall(b"r"); time.sleep(0.3)
        slow.settimeout(0.01)
        if slow.recv(1) == b"":
            closed = True; break
    except socket.timeout:
        continue
    except OSError:
        closed = True; break
print("slow client closed:", closed, "within 6 s")
for s in idle: s.close()
# a header of 100 KiB: refused, with a 4xx
s = conn()
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n")
try:
    print("oversized header:", status(s.recv(4096))[:12])
except OSError as e:
    print("oversized header: closed")
s.close()
# garbage, then a scrape
for g in (b"\x00\xff\xfe garbage\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"\r\n" * 50):
    s = conn(); s.sendall(g); s.close()
print("after garbage:", status(scrape()))
# more connections than allowed: the surplus is closed, the server goes on
many = [conn() for _ in range(12)]
time.sleep(0.5)
for s in many: s.close()
time.sleep(0.3)
print("after a flood:", status(scrape()))
EOF
	printf '%s\n' "with idle clients: HTTP/1.1 200 OK in 0.0 s" "slow client closed: True within 6 s" \
		"oversized header: HTTP/1.1 431" "after garbage: HTTP/1.1 200 OK" \
		"after a flood: HTTP/1.1 200 OK" > want
	sed 's/in 0\.[0-9] s/in 0.0 s/' hostile.txt > got
	diff want got || fail "$(cat hostile.txt)"
	kill -0 "$SPID" || fail "serve died"
	serve_stop
}

# webcfg_users FILE USER PASSWORD: a web config with one user (bcrypt, cost 4).
webcfg_user() {
	local h
	h=$(htpasswd -nbB -C 4 "$2" "$3" | cut -d: -f2-) || fail "htpasswd is missing: run tools/deps.sh"
	printf 'basic_auth_users:\n  %s: %s\n' "$2" "$h" > "$1"
}

@test "serve --web-config: basic auth with a bcrypt hash" {
	webcfg_user web.yml alice 'pa ss'
	serve_start -e page-faults --web-config web.yml
	u=http://127.0.0.1:$PORT/metrics
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u")" 401
	assert_equal "$(get -u alice:wrong -o /dev/null -w '%{http_code}' "$u")" 401
	assert_equal "$(get -u bob:'pa ss' -o /dev/null -w '%{http_code}' "$u")" 401
	assert_equal "$(get -u alice:'pa ss' -o /dev/null -w '%{http_code}' "$u")" 200
	get -D h.txt -o /dev/null "$u"
	grep -qi '^www-authenticate: Basic realm="pmuprof"' h.txt || fail "$(cat h.txt)"
	serve_stop
}

@test "serve --web-config: TLS with a certificate and key (relative to the file)" {
	command -v openssl >/dev/null || fail "openssl is missing: run tools/deps.sh"
	mkdir conf
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout conf/k.pem -out conf/c.pem 2>/dev/null
	printf 'tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\n' > conf/web.yml
	serve_start -e page-faults --web-config conf/web.yml
	grep -q "listening on https://" serve.log || fail "$(cat serve.log)"
	get --cacert conf/c.pem -o m.txt "https://127.0.0.1:$PORT/metrics"
	grep -q '^pmuprof_events_total{event="page-faults"' m.txt || fail "$(cat m.txt)"
	run curl -sS --max-time 5 -o /dev/null "http://127.0.0.1:$PORT/metrics"
	assert_failure
	run curl -sS --max-time 5 -o /dev/null "https://127.0.0.1:$PORT/metrics"
	assert_failure	# a self-signed certificate not trusted
	serve_stop
}

@test "serve: SIGHUP reloads the web config; a broken one keeps the previous" {
	: > web.yml
	serve_start -e page-faults --web-config web.yml
	u=http://127.0.0.1:$PORT/metrics
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u")" 200
	webcfg_user web.yml alice pw
	kill -HUP "$SPID"
	for _ in $(seq 30); do grep -q 'reloaded the web config' serve.log && break; sleep 0.1; done
	assert_equal "$(get -o /dev/null -w '%{http_code}' "$u")" 401
	assert_equal "$(get -u alice:pw -o /dev/null -w '%{http_code}' "$u")" 200
	printf 'basic_auth_users:\n  alice: plain\n' > web.yml
	kill -HUP "$SPID"
	for _ in $(seq 30); do grep -q 'keeping the previous' serve.log && break; sleep 0.1; done
	grep -q "pmuprof serve: cannot use web config 'web.yml': line 2: the password of user 'alice' is not a bcrypt hash" serve.log ||
		fail "$(cat serve.log)"
	assert_equal "$(get -u alice:pw -o /dev/null -w '%{http_code}' "$u")" 200
	serve_stop INT
	# one line per event
	run grep -c . serve.log
	assert_output 5
}

@test "serve: bad input is one line (and argp's hint) and exit 2" {
	run "$PMUPROF" serve --listen nonsense
	assert_failure 2
	assert_output "pmuprof: cannot use listen address 'nonsense': expected ADDR:PORT, [ADDR6]:PORT or :PORT (every address)"
	run "$PMUPROF" serve --listen 999.1.1.1:80
	assert_failure 2
	assert_output --regexp "^pmuprof: cannot use listen address '999.1.1.1:80': .* \(give a numeric address and port\)$"
	serve_start -e page-faults
	run "$PMUPROF" serve -e page-faults --listen "127.0.0.1:$PORT"
	assert_failure 2
	assert_output "pmuprof: cannot listen on '127.0.0.1:$PORT': Address already in use (another server has the port: choose another with --listen)"
	serve_stop
	run "$PMUPROF" serve -e no_such_event --listen 127.0.0.1:0
	assert_failure 2
	assert_line --index 0 --regexp "^pmuprof: cannot use event 'no_such_event'"
	run "$PMUPROF" serve --web-config missing.yml --listen 127.0.0.1:0 -e page-faults
	assert_failure 2
	assert_output "pmuprof serve: cannot use web config 'missing.yml': cannot read web config 'missing.yml': No such file or directory"
	run "$PMUPROF" serve -e duration_time --listen 127.0.0.1:0
	assert_failure 2
	assert_output --regexp "^pmuprof: cannot serve event 'duration_time': "
	run "$PMUPROF" serve sleep 1
	assert_failure 2
	assert_line --index 0 "pmuprof serve: serve takes no command: it counts every CPU until it is stopped (remove 'sleep')"
	run "$PMUPROF" serve --timeout 0
	assert_failure 2
	assert_line --index 0 "pmuprof serve: --timeout takes a whole number from 1 to 3600, not '0'"
	run "$PMUPROF" serve --max-connections 1025
	assert_failure 2
	assert_line --index 0 "pmuprof serve: --max-connections takes a whole number from 1 to 1024, not '1025'"
}

# A free loopback port (bound by the kernel, then let go).
free_port() {
	py_prom -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

@test "serve under Debian's Prometheus: three instances scraped each second, task-clock's rate = CPUs" {
	command -v prometheus >/dev/null || fail "prometheus is missing: run tools/deps.sh"
	ports=() pids=()
	for i in 1 2 3; do
		mkdir "s$i"
		cd "s$i"
		serve_start -e task-clock,page-faults
		cd ..
		ports+=("$PORT") pids+=("$SPID")
		LEFT+=("$SPID")
	done
	SPID=
	targets=$(printf '"127.0.0.1:%s",' "${ports[@]}")
	cat > prom.yml <<CONF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pmuprof
    static_configs:
      - targets: [${targets%,}]
CONF
	promtool check config prom.yml > /dev/null || fail "promtool refused prom.yml"
	pp=$(free_port)
	prometheus --config.file=prom.yml --storage.tsdb.path=data --web.listen-address="127.0.0.1:$pp" \
		--log.level=warn 2> prom.log &
	ppid=$!
	# rate() over a window the series fill: 10 samples of each in 10 s first (a series that
	# starts inside its window is extrapolated less, and reads low). A sample's time is its
	# scrape's start, its value read when serve answers: on a loaded machine the two drift
	# apart by up to the 1 s scrape timeout, 10 % of a 10 s window
	api() {
		curl -sS --max-time 2 -G "http://127.0.0.1:$pp/api/v1/query" --data-urlencode "query=$1" \
			-o "$2" 2>/dev/null && jq -e '.data.result' "$2" >/dev/null 2>&1
	}
	n=0
	for _ in $(seq 80); do
		sleep 0.5
		api 'count_over_time(pmuprof_events_total{event="task-clock"}[10s]) >= 10' c.json || continue
		n=$(jq '.data.result | length' c.json)
		[ "$n" -lt 3 ] || break
	done
	api 'rate(pmuprof_events_total{event="task-clock"}[10s])' r.json || n=0
	kill "$ppid"
	wait "$ppid" || true
	for s in "${pids[@]}"; do kill -TERM "$s"; done
	for s in "${pids[@]}"; do wait "$s" || fail "a serve instance did not end with 0"; done
	LEFT=()
	[ "$n" -eq 3 ] || fail "Prometheus has $n of 3 instances: $(cat r.json) $(cat prom.log)"
	jq -r '.data.result[] | .metric.instance' r.json | sort > got
	printf '127.0.0.1:%s\n' "${ports[@]}" | sort > want
	diff want got || fail "instances differ"
	# each instance counts the whole machine: CPUs x 1e9 ns of task-clock a second
	jq -r '.data.result[] | .value[1]' r.json | while read -r v; do
		awk -v v="$v" -v n="$(ncpus)" 'BEGIN { r = v / (n * 1e9); exit !(r > 0.9 && r < 1.1) }' ||
			fail "rate $v is not $(ncpus) x 1e9 within 10 %"
	done
	jq -e '.data.result | all(.metric.pmu == "software" and .metric.job == "pmuprof")' r.json >/dev/null ||
		fail "labels: $(cat r.json)"
}

@test "serve: a scrape reads each CPU's group once" {
	need_strace
	serve_start -e task-clock,page-faults,context-switches
	get -o /dev/null "http://127.0.0.1:$PORT/metrics"
	strace -f -qq -y -e trace=read -o trace.txt -p "$SPID" &
	st=$!
	sleep 0.5
	get -o /dev/null "http://127.0.0.1:$PORT/metrics"
	sleep 0.2
	kill -INT "$st"
	wait "$st" || true
	# the three software events of a CPU fit one group (the plan is exact): one read each,
	# and one of the online CPUs (a CPU back online gets its counters again)
	assert_equal "$(grep -c 'read([0-9]*<anon_inode:\[perf_event\]>' trace.txt)" "$(ncpus)"
	assert_equal "$(grep -c 'read([0-9]*</sys/devices/system/cpu/online>' trace.txt)" 1
	assert_equal "$(grep -c 'read(' trace.txt)" "$(($(ncpus) + 1))"
	serve_stop
}
