#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# How stat resolves names, on the fixture machines: the JSON report shows type and config
# even where this x86 host cannot open the event (status "not supported"); task-clock rides
# along so that the run has something to count.
load helpers

# Resolves spec $2 on fixture $1 (extra stat options after): its JSON is events[1].
resolve_on() {
	local tree=$1 spec=$2
	shift 2
	PMUPROF_SYSFS_ROOT=$FIXTURES/$tree stat_json "$@" -e "task-clock,$spec" -- true
	assert_success
}

ev() {
	jqr ".events[1].$1"
}

@test "inst_retired on n1-server: armv8_pmuv3_0's type 8, config 0x8" {
	resolve_on n1-server inst_retired
	assert_equal "$(ev pmu)" armv8_pmuv3_0
	assert_equal "$(ev type)" 8
	assert_equal "$(ev config)" 0x8
}

@test "names are case-insensitive" {
	resolve_on n1-server INST_RETIRED
	assert_equal "$(ev config)" 0x8
	resolve_on n1-server L1d_Cache_Refill
	assert_equal "$(ev config)" 0x3
}

@test "a Neoverse N1 implementation-defined event resolves on N1" {
	resolve_on n1-server l1d_cache_refill_inner
	assert_equal "$(ev type)" 8
	assert_equal "$(ev config)" 0x44
}

@test "big.LITTLE: a name on both cores resolves on the first CPU's PMU, an A76-only one on the A76" {
	resolve_on phone-a55-a76 inst_retired
	assert_equal "$(ev pmu)" armv8_cortex_a55
	assert_equal "$(ev type)" 8
	resolve_on phone-a55-a76 dsb_spec
	assert_equal "$(ev pmu)" armv8_cortex_a76
	assert_equal "$(ev type)" 9
	assert_equal "$(ev config)" 0x7d
	resolve_on phone-a55-a76 br_cond_pred
	assert_equal "$(ev pmu)" armv8_cortex_a55
}

@test "an implementation-defined event of another core is not resolved (A76 L1D_CACHE_REFILL_INNER on A57)" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57 run "$PMUPROF" stat -e l1d_cache_refill_inner -- true
	assert_failure 2
	assert_output --partial "cannot use event 'l1d_cache_refill_inner'"
}

@test "a PMU named explicitly: its type; a bare event term from its table" {
	resolve_on phone-a55-a76 armv8_cortex_a76/inst_retired/
	assert_equal "$(ev type)" 9
	assert_equal "$(ev config)" 0x8
	resolve_on phone-a55-a76 armv8_cortex_a76/event=0x11/
	assert_equal "$(ev config)" 0x11
}

@test "EVENT/terms/: the event's PMU, its format terms and filter terms" {
	resolve_on n1-server 'inst_retired/long/'
	assert_equal "$(ev pmu)" armv8_pmuv3_0
	assert_equal "$(ev config)" 0x8
	assert_equal "$(ev config1)" 0x1
	resolve_on n1-server 'inst_retired/p=1,nsh=1/'
	assert_equal "$(ev config)" 0x8
}

@test "EVENT/terms/ with an unknown term names it" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" stat -e 'inst_retired/bogus=1/' -- true
	assert_failure 2
	assert_output --partial "unknown term 'bogus'"
}

@test "perf generic names stay PERF_TYPE_HARDWARE (the kernel maps them to PMUv3 codes)" {
	resolve_on n1-server cycles
	assert_equal "$(ev type)" 0
	assert_equal "$(ev config)" 0x0
	assert_equal "$(ev pmu)" cpu
}

@test "raw codes and PMU/event=/ keep working" {
	resolve_on n1-server r11
	assert_equal "$(ev type)" 4
	assert_equal "$(ev config)" 0x11
	resolve_on n1-server armv8_pmuv3_0/event=0x11/
	assert_equal "$(ev type)" 8
	assert_equal "$(ev config)" 0x11
}

@test "a typo gets the closest names" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" stat -e inst_retird -- true
	assert_failure 2
	assert_output --partial "did you mean 'inst_retired'"
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 run "$PMUPROF" stat -e dsb_spc -- true
	assert_failure 2
	assert_output --partial "'dsb_spec'"
}

@test "--cpu-model on x86: PERF_TYPE_RAW with the core's code" {
	resolve_on x86-host l1d_cache_refill_inner --cpu-model neoverse-n1
	assert_equal "$(ev type)" 4
	assert_equal "$(ev config)" 0x44
	assert_equal "$(ev pmu)" raw
}

@test "PMUPROF_CPU_MODEL does the same; --cpu-model wins over it" {
	PMUPROF_CPU_MODEL=a76 resolve_on x86-host dsb_spec
	assert_equal "$(ev config)" 0x7d
	PMUPROF_CPU_MODEL=a57 resolve_on x86-host dsb_spec --cpu-model a76
	assert_equal "$(ev config)" 0x7d
}

@test "--cpu-model on an Arm machine uses that core's PMU when there is one" {
	resolve_on phone-a55-a76 inst_retired --cpu-model cortex-a76
	assert_equal "$(ev pmu)" armv8_cortex_a76
	assert_equal "$(ev type)" 9
}

@test "an unknown --cpu-model is refused" {
	run "$PMUPROF" stat --cpu-model cortex-a999 -e task-clock -- true
	assert_failure 2
	assert_output --partial "unknown CPU model 'cortex-a999'"
}

# pfm_host: what libpfm4 knows of this host ($PFMHOST, tests/workload/pfmhost.c) in $output.
# Skips only where libpfm.so.4 is not installed; fails where the helper is not built.
pfm_host() {
	[ -x "$PFMHOST" ] || fail "the libpfm4 helper is not built ($PFMHOST): run make"
	run "$PFMHOST"
	[ "$status" -ne 2 ] || [[ "$output" != *"cannot load libpfm.so.4"* ]] ||
		skip "libpfm4 is not installed (${output#error })"
	[ "$status" -ne 2 ] || fail "$PFMHOST: $output"
}

@test "libpfm4 fallback: PERF_COUNT_SW_CPU_CLOCK of libpfm4's perf PMU, on any host" {
	pfm_host
	# libpfm4's "perf" PMU (the kernel's generic events) is present on every Linux host;
	# PERF_TYPE_SOFTWARE is 1, PERF_COUNT_SW_CPU_CLOCK 0 (linux/perf_event.h)
	for name in PERF_COUNT_SW_CPU_CLOCK perf_count_sw_cpu_clock; do
		PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host stat_json -e task-clock,$name -- "$PPLOAD" spin 1
		assert_success
		assert_equal "$(jqr '.events[1] | [.name, .pmu, .type, .config, .status] | join(" ")')" \
			"$name libpfm4 1 0x0 counted"
		[ "$(jqr '.events[1].value')" -gt 0 ] || fail "value $(jqr '.events[1].value')"
	done
}

@test "libpfm4 fallback: an event of the host's core PMU, named as libpfm4 names it" {
	pfm_host
	[ "$status" -ne 3 ] || skip "libpfm4 knows no core PMU on this CPU (it found:${output#present})"
	local pmu event type config
	pmu=$(awk '$1 == "pmu" { print $2 }' <<<"$output")
	read -r event type config < <(awk '$1 == "event" { print $2, $3, $4; exit }' <<<"$output")
	[ -n "$event" ] || fail "no event from $PFMHOST: $output"
	# the name as libpfm4 spells it, and in lower case (pmuprof's names are case-insensitive)
	for name in "$event" "${event,,}"; do
		PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host stat_json -e "task-clock,$name" -- true
		assert_success
		assert_equal "$(jqr '.events[1] | [.pmu, .type, .config] | join(" ")')" \
			"libpfm4 $type $config" "$name of $pmu"
	done
}

@test "libpfm4 fallback: a name neither pmuprof nor libpfm4 knows is refused" {
	pfm_host
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host run "$PMUPROF" stat -e task-clock,no_such_evt_xyz \
		-- true
	assert_failure 2
	assert_output --partial "cannot use event 'no_such_evt_xyz'"
	assert_output --partial "no such event"
}

# names_run ARGS...: pmuprof with a private cache directory, under strace: $output has
# pmuprof's messages, $BATS_TEST_TMPDIR/opened the files it opened
names_run() {
	need_strace
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run env XDG_CACHE_HOME="$BATS_TEST_TMPDIR/xdg" strace -f -e trace=open,openat \
		-o "$BATS_TEST_TMPDIR/trace" "$PMUPROF" "$@"
	grep -v ENOENT "$BATS_TEST_TMPDIR/trace" | grep -o '"[^"]*"' > "$BATS_TEST_TMPDIR/opened" || true
}

@test "libpfm4 is loaded only for a name nothing else knows, and asked again on every run" {
	pfm_host
	names_run stat -e task-clock,page-faults -- true
	assert_success
	run grep -c 'libpfm\.so\.4"' "$BATS_TEST_TMPDIR/opened"
	assert_output 0
	for i in 1 2; do
		names_run stat -e task-clock,no_such_evt_xyz -- true
		assert_failure 2
		assert_output --partial "cannot use event 'no_such_evt_xyz'"
		assert_output --partial "no such event"
		grep -q 'libpfm\.so\.4"' "$BATS_TEST_TMPDIR/opened" ||
			fail "run $i refused the name without asking libpfm4"
	done
	[ ! -e "$BATS_TEST_TMPDIR/xdg/pmuprof/libpfm4.names" ] ||
		fail "a list of libpfm4's names was written"
}
