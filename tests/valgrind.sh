#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/valgrind.sh: owns the valgrind memcheck run: pmuprof's stat, list, info, explain, diff
# and report over normal, failing and odd inputs, each required to exit as documented with zero
# memcheck errors and zero leaks of any kind. One TAP line per case. Uses $O/pmuprof and
# $O/ppload (default build/: run make first); the workload itself is not traced. pmuprof starts
# it here exactly as it does for users (fork, held on a socket until its counters are open):
# workload.c has no path of its own for valgrind.
set -u
cd "$(dirname "$0")/.." || exit 2
O=${O:-build}
P=$PWD/$O/pmuprof
W=$PWD/$O/ppload
FX=$PWD/tests/fixtures
D=$FX/diff
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmuprof-vg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
VGERR=99	# memcheck's exit status on an error: not one pmuprof or the workloads use
# On a usage error glibc's argp prints and calls exit() from inside argp_parse, before it frees
# the parser state it allocated (argp-parse.c, parser_init): memory still reachable at exit
# that no caller can free. That one block, and nothing else, is not counted as a leak.
cat >"$tmp/argp.supp" <<'SUPP'
{
   glibc-argp-exits-with-its-parser-state
   Memcheck:Leak
   match-leak-kinds: reachable
   fun:malloc
   fun:parser_init
   fun:argp_parse
}
SUPP
n=0 rc=0

if ! command -v valgrind >/dev/null; then
	echo "1..0 # SKIP valgrind is not installed (apt-get install valgrind)"
	exit 0
fi
if [ ! -x "$P" ] || [ ! -x "$W" ]; then
	echo "not ok 1 - $P or $W is not built (run make O=$O)"
	exit 1
fi

# vg STATUS DESCRIPTION [VAR=VALUE...] -- ARGS...: pmuprof ARGS under memcheck, with the
# environment additions given; passes when it exits STATUS and memcheck reports nothing.
vg() {
	local want=$1 desc=$2 st log
	local -a envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	n=$((n + 1))
	log=$tmp/vg.$n
	env "${envs[@]}" valgrind --log-file="$log" --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=$VGERR --suppressions="$tmp/argp.supp" \
		"$P" "$@" >"$tmp/out.$n" 2>"$tmp/err.$n" </dev/null
	st=$?
	if [ $st -eq "$want" ] && grep -q 'ERROR SUMMARY: 0 errors' "$log" &&
		! grep -qE '(definitely|indirectly|possibly) lost: [1-9]' "$log"; then
		echo "ok $n - $desc"
		return 0
	fi
	echo "not ok $n - $desc (exit $st, expected $want)"
	grep -E 'ERROR SUMMARY|lost:|reachable:|Invalid|uninitialised|at 0x|by 0x' "$log" |
		head -n 15 | sed 's/^/# /'
	sed 's/^/# stderr: /' "$tmp/err.$n" | head -n 3
	rc=1
	return 1
}

# --- stat
vg 0 "stat: the default events" -- stat -- "$W" spin 5
vg 0 "stat: several event kinds, a group, modifiers" -- \
	stat -e 'task-clock,{page-faults,context-switches}:u,cpu-migrations' -- "$W" spin 5 touch 100
# hardware events count on a host with a PMU and are refused on one without: either path is
# checked. Software configs past PERF_COUNT_SW_MAX are refused (ENOENT) by every kernel.
vg 0 "stat: events that cannot be counted here beside one that can" -- \
	stat -e 'task-clock,cycles,r11,instructions:u,software/config=0x99/' -- true
vg 2 "stat: nothing countable" -- stat -e software/config=0x99/,software/config=0x98/ -- true
vg 0 "stat -o FILE" -- stat -o "$tmp/report.txt" -- true
vg 0 "stat -j -o FILE" -- stat -j -o "$tmp/report.json" -e task-clock,page-faults -- true
vg 0 "stat -x, (CSV)" -- stat -x, -e task-clock -- true
printf 'old\n' >"$tmp/append.txt"
vg 0 "stat --append -o FILE (the old content copied first)" -- \
	stat --append -o "$tmp/append.txt" --no-big-num --no-scale -e page-faults -- true
vg 0 "stat --metric-only, -x" -- stat --metric-only -x, -e task-clock,page-faults -- true
vg 3 "stat -q: no report, the command's status" -- stat -q -e task-clock -- "$W" exit 3
vg 0 "stat -I 20 --no-summary --post" -- stat -I 20 --no-summary --post true -e task-clock -- "$W" spin 30
vg 0 "stat -j to stderr" -- stat -j -- "$W" fork 2 10
vg 0 "stat -r 3 --warmup 1 --prepare/--cleanup, JSON" -- \
	stat -r 3 --warmup 1 --prepare true --cleanup true -j -e task-clock,page-faults -- "$W" spin 5
vg 0 "stat -I 20 with -x," -- stat -I 20 -x, -e task-clock -- "$W" spin 60
vg 0 "stat -M ipc -r 2" -- stat -M ipc -r 2 -e task-clock -- "$W" spin 5
vg 3 "stat: a failing command's status" -- stat -e task-clock -- "$W" exit 3
vg 137 "stat: a workload killed by SIGKILL" -- stat -j -o "$tmp/killed.json" -- "$W" kill 9
vg 127 "stat: a command that does not exist" -- stat -- "$tmp/no-such-command"
vg 126 "stat: a directory as the command" -- stat -- "$tmp"
vg 2 "stat: a malformed event list" -- stat -e '{cycles,instructions' -- true
vg 2 "stat: an unknown event, with a suggestion" -- stat -e inst_retird -- true
vg 2 "stat: an unwritable -o path" -- stat -o "$tmp/missing/dir/out" -- true
vg 2 "stat: an unknown option (argp usage error)" -- stat --no-such-option -- true
vg 2 "stat: an empty -x separator" -- stat -x '' -- true
vg 2 "stat: --kernel-el 3" -- stat --kernel-el 3 -- true
vg 2 "stat: -o without its argument" -- stat -o
vg 2 "stat: --json with -x" -- stat --json -x, -- true
vg 0 "stat: Arm names on a fixture machine (never opened: reported not counted, the command runs)" \
	PMUPROF_SYSFS_ROOT="$FX/n1-server" -- stat -e inst_retired,cpu_cycles:u -- true
vg 0 "stat: filter-bit terms (a fixture's event: not counted)" PMUPROF_SYSFS_ROOT="$FX/n1-server" -- \
	stat -e 'inst_retired/p=1/' -- true
# --- list
vg 0 "list" -- list
vg 0 "list --all-cores" -- list --all-cores
vg 0 "list --all-cores --json" -- list --all-cores --json
vg 0 "stat -r 2: events split over a big.LITTLE fixture's core types" \
	PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- stat -r 2 -j -e '{inst_retired,cpu_cycles},dsb_spec,task-clock' -- true
vg 0 "stat --plan on a big.LITTLE fixture" PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- \
	stat --plan -e inst_retired,br_cond_pred -- true
vg 0 "list --json on a big.LITTLE fixture" PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- list --json
vg 0 "list --cpu-model neoverse-n1 with a glob" -- list --cpu-model neoverse-n1 'l1d*'
vg 0 "list --names on a big.LITTLE fixture" PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- list --names
vg 0 "list --cores" -- list --cores
vg 2 "list: an unknown --cpu-model" -- list --cpu-model cortex-a999
vg 0 "list --metrics --all-cores" -- list --metrics --all-cores
vg 0 "list --metrics --all-cores --json" -- list --metrics --all-cores --json
vg 0 "list --metrics for a revision, with a pattern" -- list --metrics --cpu-model neoverse-n2:r0p3 'bound'
vg 0 "list --metrics on a fixture: the PMU's MIDR" PMUPROF_SYSFS_ROOT="$FX/n1-server" -- \
	list --metrics --json
vg 2 "list --metrics: a bad revision" -- list --metrics --cpu-model neoverse-n2:r0p
# --- info
vg 0 "info on this host" -- info
for f in n1-server phone-a55-a76 qemu-a57 rk3399-cpuinfo x86-host broken; do
	vg 0 "info on fixture $f" PMUPROF_SYSFS_ROOT="$FX/$f" -- info
	vg 0 "info --json on fixture $f" PMUPROF_SYSFS_ROOT="$FX/$f" -- info --json
done
# --check exits 1 where counts cannot be trusted: this host (no PMU here) and every fixture
vg 1 "info --check on fixture x86-vm" PMUPROF_SYSFS_ROOT="$FX/x86-vm" -- info --check
vg 1 "info --check --json on fixture arm-vm" PMUPROF_SYSFS_ROOT="$FX/arm-vm" -- info --check --json
vg 1 "info --check on fixture phone-a55-a76" PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- info --check
# --- explain
vg 0 "explain --cpu-model neoverse-n1" -- explain --cpu-model neoverse-n1 -e inst_retired,cpu_cycles:u
vg 0 "explain --json, a group, on a fixture" PMUPROF_SYSFS_ROOT="$FX/n1-server" -- \
	explain --json -e '{inst_retired,cpu_cycles}:u,r0011'
vg 0 "explain: filter-bit terms" PMUPROF_SYSFS_ROOT="$FX/n1-server" -- \
	explain -e 'inst_retired/p=1,nsh=1/'
vg 2 "explain: an unknown event" PMUPROF_SYSFS_ROOT="$FX/n1-server" -- explain -e inst_retird
# --- diff
vg 0 "diff: the same report" -- diff "$D/base.json" "$D/same.json"
vg 1 "diff: a regression" -- diff "$D/base.json" "$D/cycles-up-10.json"
vg 1 "diff -f json, per-run values (Welch), a regression" -- diff -f json "$D/runs-base.json" "$D/runs-up-5.json"
vg 0 "diff -f markdown" -- diff -f markdown "$D/base.json" "$D/cycles-down-10.json"
vg 2 "diff: a truncated report" -- diff "$D/base.json" "$D/truncated.json"
vg 2 "diff: invalid JSON" -- diff "$D/invalid.json" "$D/base.json"
vg 2 "diff: an empty file" -- diff "$D/empty.json" "$D/base.json"
vg 2 "diff: a missing file" -- diff "$D/base.json" "$tmp/none.json"
# perf's targets: per CPU and per task copies, group reads, the wait without a command
vg 0 "stat -a -A -I (group reads per CPU)" -- stat -a -A -I 50 -x, -e cpu-clock,page-faults -- "$W" spin 120
vg 0 "stat -a --per-core -j, no command, --timeout" -- stat -a --per-core -j --timeout 150 -e cpu-clock
vg 0 "stat -a --per-thread" -- stat -a --per-thread -x, -e task-clock -- "$W" spin 20
vg 2 "stat -C: a CPU not online" -- stat -C 1023 -e cpu-clock true
"$W" sleep 1 30000 &
vgpid=$!
sleep 0.2
vg 0 "stat -p --per-thread --timeout" -- stat -p "$vgpid" --per-thread -j --timeout 300 -e task-clock
kill "$vgpid" 2>/dev/null
wait "$vgpid" 2>/dev/null

# --- exports and report (the reports read back are written by a plain run first)
vg 0 "stat -r 2 --export of every format" -- stat -r 2 -e task-clock,page-faults,cycles \
	--export json:"$tmp/x.json" --export csv:"$tmp/x.csv" --export bmf:"$tmp/x.bmf" \
	--export github-benchmark:"$tmp/x.gh" --export openmetrics:"$tmp/x.om" \
	--export markdown:"$tmp/x.md" -- "$W" spin 2
vg 0 "stat -I 20 --export openmetrics" -- stat -I 20 -e task-clock \
	--export openmetrics:"$tmp/i.om" -- "$W" spin 60
vg 2 "stat --export to a missing directory (refused before the run)" -- \
	stat --export bmf:"$tmp/none/x.bmf" -- true
"$P" stat -I 20 -e task-clock,page-faults -j -o "$tmp/int.json" -- "$W" spin 60 2>/dev/null
PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" "$P" stat -e inst_retired,ld_retired,task-clock -j \
	-o "$tmp/split.json" -- true 2>/dev/null
for f in text json csv bmf github-benchmark openmetrics markdown; do
	vg 0 "report --format $f of a -r report" -- report --format "$f" "$tmp/x.json"
done
vg 0 "report -x';' of a -I report" -- report -x';' "$tmp/int.json"
vg 0 "report --format openmetrics of a -I report" -- report --format openmetrics "$tmp/int.json"
vg 0 "report of a big.LITTLE fixture's report" -- report "$tmp/split.json"
vg 0 "report of a report with a stats object and no runs" -- report "$D/stats-up-5.json"
# --- metrics: -M, --topdown and their report again, per core type on big.LITTLE
vg 0 "stat --topdown on a fixture (nothing counted: every node with its reason)" \
	PMUPROF_SYSFS_ROOT="$FX/n1-server" -- stat --topdown -j -o "$tmp/td.json" -- true
vg 0 "stat -M ipc per core type on a big.LITTLE fixture" PMUPROF_SYSFS_ROOT="$FX/phone-a55-a76" -- \
	stat -M ipc -e cycles -- true
vg 2 "stat -M: an unknown metric" -- stat -M no_such_metric -- true
vg 0 "report --cpu-model CORE:rXpY -M of a --topdown report" -- \
	report --cpu-model neoverse-n2:r0p3 -M MPKI,ipc "$tmp/td.json"
vg 0 "report -j of a --topdown report (the tree)" -- report -j "$tmp/td.json"
vg 2 "report -M: a group the core lacks" -- report -M Topdown_L1 "$tmp/td.json"
vg 2 "report: a truncated report" -- report "$D/truncated.json"
vg 2 "report: a missing file" -- report "$tmp/none.json"
# --- reports checked before they are read: control characters escaped (and the document's
# strings put back before it is freed), a field of the wrong type, nothing compared
jq '.events[0].name = "evil\u001b[2J\u0007name" | .command = ["\u009b2J"]' "$tmp/x.json" \
	>"$tmp/evil.json"
vg 0 "report of names with control characters (escaped)" -- report "$tmp/evil.json"
for f in base cycles-up-10; do
	jq '.events[0].name = "evil\u001b[2J\u0007name"' "$D/$f.json" >"$tmp/evil-$f.json"
done
vg 1 "diff of names with control characters (escaped)" -- \
	diff -f markdown "$tmp/evil-base.json" "$tmp/evil-cycles-up-10.json"
jq '.events[0].value = "twenty"' "$tmp/x.json" >"$tmp/str.json"
vg 2 "report: a value of the wrong type" -- report "$tmp/str.json"
jq '.events[] |= (.status = "not counted" | .value = null | .counted_pct = null)' \
	"$D/base.json" >"$tmp/none-counted.json"
vg 2 "diff: nothing compared" -- diff "$D/base.json" "$tmp/none-counted.json"
vg 0 "diff --allow-empty: nothing compared" -- \
	diff --allow-empty "$D/base.json" "$tmp/none-counted.json"

echo "1..$n"
exit $rc
