# SPDX-License-Identifier: Apache-2.0
# helpers.bash: shared set-up for pmuprof's bats tests: the binary under test, the test
# workload, bats-assert, and a scratch directory per test.
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert
load schema

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
PMUPROF=${PMUPROF:-$ROOT/pmuprof}
PPLOAD=${PPLOAD:-$ROOT/${O:-build}/ppload}
PFMHOST=${PFMHOST:-$ROOT/${O:-build}/pfmhost}
FIXTURES=$ROOT/tests/fixtures

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	[ -x "$PPLOAD" ] || fail "the test workload is not built ($PPLOAD): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# Every stat report and diff document a test leaves in its scratch directory (or DIR) is
# validated against its JSON Schema, so no test that writes one can skip that check.
check_left_reports() {
	local f kind
	for f in "${1:-$BATS_TEST_TMPDIR}"/*.json; do
		[ -f "$f" ] || continue
		kind=$(jq -r 'if type != "object" then "" elif has("command") and has("host")
			then "report" elif has("base") and has("regressed") then "diff" else "" end' \
			"$f" 2>/dev/null)
		case $kind in
		report) check_report "$f" ;;
		diff) ! schema_python >/dev/null || validate_diff "$f" ;;
		esac
	done
}

teardown() {
	check_left_reports
}

# Runs pmuprof with its report as JSON in report.json, checked to be valid JSON.
stat_json() {
	run "$PMUPROF" stat --json -o report.json "$@"
	[ -s report.json ] && jq -e . report.json >/dev/null && check_report report.json
}

# The value of a jq expression over report.json.
jqr() {
	jq -r "$1" report.json
}

# Fails unless $1 is within $3 percent of $2.
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }' ||
		fail "$1 is not within $3% of $2"
}

# The real perf, which tools/deps.sh installs: missing, it fails (the set-up is broken); when
# this machine's perf cannot count a software event, a skip that says so.
need_perf() {
	command -v perf >/dev/null ||
		fail "perf is not installed (Debian's linux-perf, which tools/deps.sh installs)"
	perf stat -e task-clock true >/dev/null 2>&1 ||
		skip "perf is installed but cannot count task-clock here"
}

# The text report without the lines whose figures change from run to run: times (seconds
# lines, msec counts), and trailing blank lines (perf ends with two, pmuprof one).
text_shape() {
	sed -e 's/^ *[0-9.]* \(+- [0-9.]* \)\{0,1\}seconds/T seconds/' \
	    -e 's/^ *[0-9.]* msec/N msec/' -e 's/ *$//' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# strace for the tests that count pmuprof's system calls: tools/deps.sh installs it, so its
# absence is a broken set-up, not a machine that cannot; a kernel that refuses ptrace is one.
need_strace() {
	command -v strace >/dev/null || fail "strace is not installed (sh tools/deps.sh installs it)"
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
}

# py_prom ARGS...: runs python3 with ARGS where prometheus_client imports (Debian's
# python3-prometheus-client is for Debian's python3, which need not be first on PATH).
py_prom() {
	local p
	for p in python3 /usr/bin/python3; do
		! "$p" -c 'import prometheus_client' 2>/dev/null || { "$p" "$@"; return; }
	done
	fail "python3-prometheus-client is missing: run tools/deps.sh"
}

# om_check FILE: parses FILE with prometheus_client's OpenMetrics parser (which refuses what
# the format forbids: no "# EOF", blank lines, clashing names, bad labels) and prints its
# samples as "name{label=value,...} value" lines, labels sorted.
om_check() {
	py_prom - "$1" <<'EOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
for fam in text_string_to_metric_families(text):
    # gauges, and with -I the counters of the counts so far
    if fam.type != "gauge" and not (fam.type == "counter" and fam.name.startswith("pmuprof_event")):
        sys.exit(f"{fam.name}: type {fam.type}, not gauge")
    for s in fam.samples:
        labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
        print(f"{s.name}{{{labels}}} {s.value!r}")
EOF
}

# The cgroup v2 mount, from mountinfo (never assumed: here it may be /sys/fs/cgroup/unified).
cgroup2_mount() {
	awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break; if ($(i + 1) == "cgroup2") { print $5; exit } }' \
		/proc/self/mountinfo
}
