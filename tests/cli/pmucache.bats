#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The per-boot cache of the counters' probes (src/machine/sysfs_cache.c): where it is (info names it),
# how it is turned off (PMUPROF_CACHE=off), what it answers for (a PMU's counters, for the
# boot, sysfs root, PMU name and type it was written for) and what it never holds (the rest of
# what sysfs says of the PMUs, read at every run). A fixture tree is never probed, so these
# tests write the probes' lines as a real run appends them; tests/unit/test_sysfs.c writes
# them through sysfs_cache_add_probe. Each test works on a copy of a fixture tree with a
# boot_id.

load helpers

DEV=sys/bus/event_source/devices
BOOT=6a1c2b9e-0000-4000-8000-000000000001

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	cp -R "$FIXTURES/qemu-a57" fx
	mkdir -p fx/proc/sys/kernel/random
	echo "$BOOT" > fx/proc/sys/kernel/random/boot_id
	export PMUPROF_SYSFS_ROOT=$BATS_TEST_TMPDIR/fx XDG_CACHE_HOME=$BATS_TEST_TMPDIR/xdg
	unset PMUPROF_CACHE
	CACHE=$XDG_CACHE_HOME/pmuprof/counters
}

# cache_with LINE...: the cache file of this boot and root, then the lines
cache_with() {
	mkdir -p "${CACHE%/*}"
	printf 'pmuprof-counters 1\nroot %s\nboot %s\n' "$PMUPROF_SYSFS_ROOT" "$BOOT" > "$CACHE"
	local l
	for l in "$@"; do
		printf '%s\n' "$l" >> "$CACHE"
	done
}

# counters: what info -j says of the first Arm PMU's counters, one line
counters() {
	run -0 "$PMUPROF" info -j
	echo "$output" | jq -c '.pmus[0] | [.type, .counters.probed, .counters.status,
		.counters.probed_on, .counters.cycle_counter, .counters.probe_ms]'
}

NOT_PROBED='[8,null,"not probed: the PMUs are a fixture tree",null,null,null]'

@test "PMU cache: info names its file, in text and JSON; PMUPROF_CACHE=off and no home say so" {
	run -0 "$PMUPROF" info
	assert_line --index -2 "pmuprof"
	assert_line --index -1 "  cache                $CACHE"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -r .cache_file)" "$CACHE"
	XDG_CACHE_HOME= HOME=/home/someone run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -r .cache_file)" /home/someone/.cache/pmuprof/counters
	PMUPROF_CACHE=off run -0 "$PMUPROF" info
	assert_line --index -1 "  cache                off (PMUPROF_CACHE=off)"
	PMUPROF_CACHE=off run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq .cache_file)" null
	XDG_CACHE_HOME= HOME= run -0 "$PMUPROF" info
	assert_line --index -1 \
		"  cache                none (neither XDG_CACHE_HOME nor HOME is an absolute path)"
}

@test "PMU cache: what sysfs says of the PMUs is read at every run, never cached" {
	cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -c '.pmus[0] | [.name, .type, .nevents, .mux_interval_ms]')" \
		'["armv8_pmuv3",8,2,4]'
	echo 10 > "fx/$DEV/armv8_pmuv3/perf_event_mux_interval_ms"
	rm "fx/$DEV/armv8_pmuv3/events/inst_retired"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -c '.pmus[0] | [.nevents, .mux_interval_ms]')" '[1,10]'
	echo event=0x0099 > "fx/$DEV/armv8_pmuv3/events/cpu_cycles"
	run -0 "$PMUPROF" explain -j -e armv8_pmuv3/cpu_cycles/
	assert_equal "$(echo "$output" | jq -r '.events[0].config')" 0x99
	# a PMU registered again (a new type): its old probe no longer answers
	echo 9 > "fx/$DEV/armv8_pmuv3/type"
	assert_equal "$(counters)" "${NOT_PROBED/8/9}"
	# the runs above wrote nothing: a fixture tree is not probed, and the file is of probes
	assert_equal "$(tail -n 1 "$CACHE")" "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	run ls "$XDG_CACHE_HOME/pmuprof"
	assert_output counters
}

@test "PMU cache: a probe of this boot answers for the counters; the last good line counts, one cut short is not read" {
	assert_equal "$(counters)" "$NOT_PROBED"
	cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	assert_equal "$(counters)" '[8,5,"cached","cpu",true,1.875]'
	echo "cap armv8_pmuv3 8 4 0 -1 task 2000" >> "$CACHE"
	printf 'cap armv8_pmuv3 8 3 1 -1 cpu 1' >> "$CACHE"
	assert_equal "$(counters)" '[8,4,"cached","task",false,2]'
	# a bad line is skipped, the good one before it still answers
	for bad in "cap armv8_pmuv3 8 0 1 -1 cpu 10" "cap armv8_pmuv3 8 5 1 -1 gpu 10" \
		"cap armv8_pmuv3 8 5 1 -1 cpu" "cap armv8_pmuv3 8 5 1 -1 cpu 10 more" \
		"cap armv8_pmuv3 8 x5 1 -1 cpu 10" "cap armv8_pmuv3 8 5 2 -1 cpu 10" "garbage"; do
		cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875" "$bad"
		assert_equal "$bad: $(counters)" "$bad: [8,5,\"cached\",\"cpu\",true,1.875]"
	done
}

@test "PMU cache: a probe of another PMU name or type, another boot or sysfs root is not used" {
	for other in "cap armv8_pmuv3 9 5 1 -1 cpu 10" "cap nosuchpmu 8 5 1 -1 cpu 10"; do
		cache_with "$other"
		assert_equal "$other: $(counters)" "$other: $NOT_PROBED"
	done
	cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	echo 6a1c2b9e-0000-4000-8000-000000000002 > fx/proc/sys/kernel/random/boot_id
	assert_equal "boot: $(counters)" "boot: $NOT_PROBED"
	echo "$BOOT" > fx/proc/sys/kernel/random/boot_id
	cp -R fx fx2
	PMUPROF_SYSFS_ROOT=$BATS_TEST_TMPDIR/fx2 run -0 "$PMUPROF" info -j
	assert_equal "root: $(echo "$output" | jq -c '.pmus[0].counters.probed')" "root: null"
	sed -i 's/^pmuprof-counters 1$/pmuprof-counters 2/' "$CACHE"
	assert_equal "format: $(counters)" "format: $NOT_PROBED"
	# without a boot to key on, no cache answers
	cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	rm fx/proc/sys/kernel/random/boot_id
	assert_equal "no boot_id: $(counters)" "no boot_id: $NOT_PROBED"
}

@test "PMU cache: PMUPROF_CACHE=off: a good file is not read" {
	cache_with "cap armv8_pmuv3 8 5 1 -1 cpu 1875"
	cp "$CACHE" before
	PMUPROF_CACHE=off run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -c '.pmus[0].counters.probed')" null
	cmp "$CACHE" before
	# any other value leaves it on
	PMUPROF_CACHE=on run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq -c '.pmus[0].counters.probed')" 5
}
