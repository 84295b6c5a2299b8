#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# fuzz/mkcorpus.sh: owns how the sysfs and diff seed corpora under tests/fuzz-corpus/ were made
# from the fixture trees (tests/fixtures/): run it again after a fixture changes. The evspec
# seeds are written by hand. Sections of a sysfs seed are in fuzz/fuzz_sysfs.c's order.
set -eu
cd "$(dirname "$0")/.."
out=tests/fuzz-corpus
fx=tests/fixtures

# FILE: its content, or "<dir>" for a directory; nothing at all when it is missing (the
# section is then empty, which fuzz_sysfs writes as an empty file: close enough for a seed)
section() {
	if [ -d "$1" ]; then printf '<dir>'; elif [ -f "$1" ]; then cat "$1"; fi
}

# SEED-NAME TREE PMU-DIR CPU: one seed from one PMU of a fixture tree
sysfs_seed() {
	d=$fx/$2/sys/bus/event_source/devices/$3
	c=$fx/$2/sys/devices/system/cpu
	{
		first=1
		for f in "$d/type" "$d/cpus" "$d/format/event" "$d/format/long" \
			"$d/events/cpu_cycles" "$d/events/inst_retired" "$d/caps/slots" \
			"$d/perf_event_mux_interval_ms" "$fx/$2/proc/cpuinfo" \
			"$c/cpu$4/regs/identification/midr_el1" "$c/possible" \
			"$fx/$2/proc/sys/kernel/perf_event_paranoid"; do
			[ $first = 1 ] || printf '\n%%%%\n'
			first=0
			section "$f"
		done
		printf '\n%%%%\n'
		if [ -d "$d/events" ]; then
			for e in "$d"/events/*; do
				[ -f "$e" ] || continue
				printf '%s %s\n' "${e##*/}" "$(head -c 120 "$e" | tr -d '\n\0')"
			done | head -n 12
		fi
	} >"$out/sysfs/$1"
}

mkdir -p "$out/sysfs" "$out/diff"
sysfs_seed n1 n1-server armv8_pmuv3_0 0
sysfs_seed n1-spe n1-server arm_spe_0 0
sysfs_seed n1-smmu n1-server smmuv3_pmcg_3f001002 0
sysfs_seed a55 phone-a55-a76 armv8_cortex_a55 0
sysfs_seed a76 phone-a55-a76 armv8_cortex_a76 4
sysfs_seed dsu phone-a55-a76 arm_dsu_0 0
sysfs_seed a57 qemu-a57 armv8_pmuv3 0
for p in "$fx"/rk3399-cpuinfo/sys/bus/event_source/devices/*cortex*; do
	sysfs_seed "rk3399-${p##*_}" rk3399-cpuinfo "${p##*/}" 4
done
sysfs_seed x86 x86-host cpu 0
for p in "$fx"/broken/sys/bus/event_source/devices/*; do
	sysfs_seed "broken-${p##*/}" broken "${p##*/}" 0
done
cp "$fx"/diff/*.json "$out/diff/"
