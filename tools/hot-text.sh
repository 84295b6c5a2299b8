#!/bin/sh
# tools/hot-text.sh: writes tools/hot-text.txt, the functions of pmuprof that its everyday jobs
# run, which the link places together at the front of .text (Makefile, $(O)/hot-text.ld).
#
# Why (issue 16): the kernel maps an executable's file 64 KiB at a time (fault-around), and in
# the arm64 guest each such window costs about 12,000 kernel instructions the first time a run
# touches it. The 69 KiB of code that `stat -e <6 events> -- cmd` runs lay across all four
# windows of .text; in this order they take the first two (a run then faults 57 times, not 58:
# the read-only data and the event tables after .text span four windows either way).
#
# The list comes from callgrind on this machine, not from the Arm guest: a fixture sysfs tree
# (qemu-a57, n1-server) gives the Arm names, planning and report paths, and software events the
# opening, reading and closing of counters. Functions the list misses or names that no longer
# exist cost nothing but their place: the link matches names, and whatever is not listed goes
# where it went before. Run it after a change that moves the stat path to new functions:
#   make && sh tools/hot-text.sh && git diff tools/hot-text.txt
# Needs valgrind. Usage: tools/hot-text.sh [PMUPROF] (default build/pmuprof).
set -eu
cd "$(dirname "$0")/.."
PP=$(realpath "${1:-build/pmuprof}")
command -v valgrind >/dev/null || { echo "hot-text: valgrind is not installed" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FX=$PWD/tests/fixtures
E6=inst_retired,cpu_cycles,br_mis_pred,l1d_cache,l1d_cache_refill,mem_access
E20=$E6,l1i_cache_refill,l1i_tlb_refill,l1d_tlb_refill,exc_taken,exc_return,cid_write_retired
E20=$E20,br_pred,l1i_cache,l1d_cache_wb,l2d_cache,l2d_cache_refill,l2d_cache_wb,bus_access
E20=$E20,inst_spec
n=0
# profile TIER ROOT ARGS...: callgrind runs of pmuprof ARGS with sysfs root ROOT ("" for this
# machine's): one with the caches cold (tier 2: a boot's first run), then one warm (TIER)
profile() {
	tier=$1 root=$2
	shift 2
	for pass in 2 "$tier"; do
		n=$((n + 1))
		XDG_CACHE_HOME=$T/cache PMUPROF_SYSFS_ROOT=$root valgrind --tool=callgrind \
			--callgrind-out-file="$T/cg.$pass.$n" "$PP" "$@" >/dev/null 2>&1 || true
		[ -s "$T/cg.$pass.$n" ] || { echo "hot-text: callgrind wrote nothing: $*" >&2; exit 1; }
	done
}
# tier 1, the real job: stat with Arm events (6, 20; a57 and n1), software events counted for
# real, with -r and -I, and (m) the metrics beside their events, computed from a saved report's
# counts (of that profile, only the functions of the files that compute metrics are stat's)
profile 1 "$FX/qemu-a57" stat -e "$E6" -- /bin/true
profile 1 "$FX/qemu-a57" stat -e "$E20" -- /bin/true
profile 1 "$FX/n1-server" stat -e "$E6" -- /bin/true
profile 1 "" stat -e task-clock,page-faults,context-switches -- /bin/true
profile 1 "" stat -r 3 -e task-clock,page-faults -- /bin/true
profile 1 "" stat -I 10 -e task-clock -- sleep 0.05
profile m "" report tests/fixtures/diff/metrics-base.json
# tier 2, the other everyday jobs
profile 2 "$FX/qemu-a57" stat -- /bin/true
profile 2 "$FX/qemu-a57" list
profile 2 "" stat -- /bin/true
# fns TIER [FILES]: the functions of pmuprof's own object in TIER's profiles, one a line, of
# the source files matching the regular expression FILES (default all): callgrind names an
# object with "ob=(id) path" or "cob=(id) path" once and by "(id)" after, a source file
# likewise with "fl=", "fi=" or "fe=", and a function with "fn=" or "cfn=" (the names GCC
# gives a function's clones, ".isra.0" and the like, go back to the function's: the link
# takes its clones with it)
fns() {
	for f in "$T"/cg."$1".*; do
		awk -v pp="$PP" -v files="${2:-.}" '
			/^c?ob=/ { id = $1; sub(/^c?ob=/, "", id); if (NF > 1) ob[id] = $2 }
			/^ob=/ { cur = ob[id] }
			/^(f[lie]|cfi|cfl)=/ { id = $1; sub(/^[a-z]+=/, "", id); if (NF > 1) fl[id] = $2 }
			/^fl=/ { file = fl[id] }
			/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) fn[id] = $2 }
			/^fn=/ && cur == pp && file ~ files { print fn[id] }' "$f"
	done | sed 's/[.]\(isra\|constprop\|part\|cold\)[.].*//' | grep -E '^[A-Za-z_][A-Za-z0-9_]*$'
}
{
	fns 1
	fns m 'src/(metrics|mexpr|mxtab|evtab)[.]c$'
	# what only a machine with an Arm PMU runs: its PMU cache, with the counters' probe (the
	# fixture trees here have no boot_id, so no cache), readings of real counts, the warning
	# when the kernel multiplexes (callgrind in the A57 guest found these beyond the list)
	printf '%s\n' sysfs_cache_load put_head cachefile_path strbuf_put number parse_cap from_probed \
		sysfs_parse_decimal grow mux_warn msg_warn_text put_line mexpr_strerror
} | sort -u >"$T/tier1"
{ fns 2; fns m; } | sort -u | comm -23 - "$T/tier1" >"$T/tier2"
{
	echo "# The functions of pmuprof that its everyday jobs run, placed first in .text in this"
	echo "# order: the real job's (tier 1), then the rest of the everyday jobs' (tier 2)."
	echo "# Written by tools/hot-text.sh (it says how and why); do not edit by hand."
	cat "$T/tier1"
	echo "# tier 2"
	cat "$T/tier2"
} >tools/hot-text.txt
echo "hot-text: $(wc -l <"$T/tier1") + $(wc -l <"$T/tier2") functions in tools/hot-text.txt"
