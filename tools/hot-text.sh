#!/bin/sh
# tools/hot-text.sh: writes tools/hot-text.txt: the functions of pmuprof that its everyday jobs
# run, which the link places together at the front of .text, and the source files whose
# read-only data the real job reads, which it places before them (Makefile, $(O)/hot-text.ld).
#
# Why (issue 16): the kernel maps an executable's file 64 KiB at a time (fault-around), and in
# the arm64 guest each such window costs a run about 21 us of guest time the first time it
# touches it (18,000 kernel instructions, half of them at exit: a floor that touched two more
# windows of its own file took 43 us longer). So the start of the file holds what a plain
# `stat -e EVENTS -- cmd` reads: the loader's tables and the PLT (21 KiB), the read-only data
# of the files its code is in (strings, option tables: about 25 KiB), then its 74 KiB of code
# (tier 0), all in the first two windows. After them: the code of stat's other forms (-r,
# -I, the metrics; tier 1), then the other everyday jobs' (list, info, the default set, a
# refused event; tier 2).
#
# The list comes from callgrind on this machine, not from the Arm guest: a fixture sysfs tree
# (qemu-a57, n1-server) gives the Arm names, planning and report paths, and software events the
# opening, reading and closing of counters. Functions the list misses or names that no longer
# exist cost nothing but their place: the link matches names, and whatever is not listed goes
# where it went before. Run it after a change that moves the stat path to new functions:
#   make && sh tools/hot-text.sh && git diff tools/hot-text.txt
# Needs valgrind. Usage: tools/hot-text.sh [PMUPROF] (default build/pmuprof); with
# HOT_TEXT_OUT set, the list goes there instead (tests/cli/layout.bats compares the two).
set -eu
cd "$(dirname "$0")/.."
PP=$(realpath "${1:-build/pmuprof}")
command -v valgrind >/dev/null || { echo "hot-text: valgrind is not installed" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the fixture trees with a boot_id, so that a warm run reads the PMU cache as on a machine (the
# fixtures have none: a tree without one is never cached), and the cold run fills it
for t in qemu-a57 n1-server; do
	cp -R "tests/fixtures/$t" "$T/$t"
	mkdir -p "$T/$t/proc/sys/kernel/random"
	echo 00000000-0000-4000-8000-000000000000 >"$T/$t/proc/sys/kernel/random/boot_id"
done
FX=$T
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
# tier 0, the real job: stat with Arm events (6, 20; a57 and n1) and software events counted
# for real; tier 1, its other forms: with -r and -I, and (m) the metrics beside their events,
# computed from a saved report's counts (of that profile, only the functions of the files that
# compute metrics are stat's)
profile 0 "$FX/qemu-a57" stat -e "$E6" -- /bin/true
profile 0 "$FX/qemu-a57" stat -e "$E20" -- /bin/true
profile 0 "$FX/n1-server" stat -e "$E6" -- /bin/true
profile 0 "" stat -e task-clock,page-faults,context-switches -- /bin/true
profile 1 "" stat -r 3 -e task-clock,page-faults -- /bin/true
profile 1 "" stat -I 10 -e task-clock -- sleep 0.05
profile m "" report tests/fixtures/diff/metrics-base.json
# tier 2, the other everyday jobs
profile 2 "$FX/qemu-a57" stat -- /bin/true
profile 2 "$FX/qemu-a57" list
profile 2 "$FX/qemu-a57" info
# a refusal: a term the event lacks (the one that loads no libpfm4)
profile 2 "$FX/qemu-a57" stat -e inst_retired/bogus/ -- /bin/true
profile 2 "" stat -- /bin/true
# own TIER: "FILE FUNCTION" for each function of pmuprof's own object in TIER's profiles, one
# a line: callgrind names an object with "ob=(id) path" or "cob=(id) path" once and by "(id)"
# after, a source file likewise with "fl=", "fi=" or "fe=", and a function with "fn=" or
# "cfn=" (the names GCC gives a function's clones, ".isra.0" and the like, go back to the
# function's: the link takes its clones with it)
own() {
	for f in "$T"/cg."$1".*; do
		awk -v pp="$PP" '
			/^c?ob=/ { id = $1; sub(/^c?ob=/, "", id); if (NF > 1) ob[id] = $2 }
			/^ob=/ { cur = ob[id] }
			/^(f[lie]|cfi|cfl)=/ { id = $1; sub(/^[a-z]+=/, "", id); if (NF > 1) fl[id] = $2 }
			/^fl=/ { file = fl[id] }
			/^c?fn=/ { id = $1; sub(/^c?fn=/, "", id); if (NF > 1) fn[id] = $2 }
			/^fn=/ && cur == pp { print file, fn[id] }' "$f"
	done | sed 's/[.]\(isra\|constprop\|part\|cold\)[.][^ ]*$//'
}
# fns TIER [FILES]: the functions in TIER's profiles of the source files matching the regular
# expression FILES (default all), one a line
fns() {
	own "$1" | awk -v files="${2:-.}" '$1 ~ files { print $2 }' |
		grep -E '^[A-Za-z_][A-Za-z0-9_]*$'
}
# what only a fixture tree runs (its own root, the note beside an event never opened, the
# probe it cannot make): left out of tier 0, whose code must fit the file's first two windows
FIXTURE_ONLY='sysfs_set_root|root_free|note_line|capacity_probe'
# files TIER: the source files (their base names, without .c) of the functions in TIER's
# profiles, one a line
files() {
	own "$1" | sed -n 's|^.*/src/\([A-Za-z0-9_]*\)[.]c .*$|\1|p' | sort -u
}
{
	fns 0
	fns m 'src/(metrics|mexpr|mxtab|evtab)[.]c$'
	# what only a machine with an Arm PMU runs: readings of real counts, the warning when the
	# kernel multiplexes (callgrind in the A57 guest found these beyond the list)
	printf '%s\n' sysfs_parse_decimal grow mux_warn msg_warn_text put_line mexpr_strerror
} | sort -u | grep -vxE "$FIXTURE_ONLY" >"$T/tier0"
fns 1 | sort -u | comm -23 - "$T/tier0" >"$T/tier1"
{ fns 2; fns m; } | sort -u | comm -23 - "$T/tier0" | comm -23 - "$T/tier1" >"$T/tier2"
# and those of the metrics' files and of the Arm-only functions above
{
	files 0
	files m | grep -E '^(metrics|mexpr|mxtab|evtab)$'
	printf '%s\n' sysfs readings cmd_stat msg
} | sort -u >"$T/rodata"
{
	echo "# The functions of pmuprof that its everyday jobs run, placed first in .text in this"
	echo "# order: the real job's (tier 0), stat's other forms (tier 1), the rest of the everyday"
	echo "# jobs' (tier 2); and, on the lines that start with '@', the source files whose"
	echo "# read-only data the link places before .text (those of tier 0's functions)."
	echo "# Written by tools/hot-text.sh (it says how and why); do not edit by hand."
	sed 's/^/@/' "$T/rodata"
	cat "$T/tier0"
	echo "# tier 1"
	cat "$T/tier1"
	echo "# tier 2"
	cat "$T/tier2"
} >"${HOT_TEXT_OUT:-tools/hot-text.txt}"
echo "hot-text: $(wc -l <"$T/tier0") + $(wc -l <"$T/tier1") + $(wc -l <"$T/tier2") functions," \
	"$(wc -l <"$T/rodata") files' read-only data in ${HOT_TEXT_OUT:-tools/hot-text.txt}"
