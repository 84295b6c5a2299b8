#!/usr/bin/env bats
# The per-boot cache of the machine's Arm PMUs (src/sysfs_cache.c, issue 16): used by a later
# run of the same boot, never used for another key (boot_id, the sysfs root, the PMU
# directory's entries and their inode numbers), and a corrupt file is ignored and replaced.
# Each test works on a copy of a fixture tree with a boot_id, so it can change what a key is
# made of.

load helpers

DEV=sys/bus/event_source/devices

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	cp -R "$FIXTURES/qemu-a57" fx
	mkdir -p fx/proc/sys/kernel/random
	echo 6a1c2b9e-0000-4000-8000-000000000001 > fx/proc/sys/kernel/random/boot_id
	export PMUPROF_SYSFS_ROOT=$BATS_TEST_TMPDIR/fx XDG_CACHE_HOME=$BATS_TEST_TMPDIR/xdg
	CACHE=$XDG_CACHE_HOME/pmuprof/pmus
}

# pmu_facts: what info -j says of the first Arm PMU, one line
pmu_facts() {
	run -0 "$PMUPROF" info -j
	echo "$output" | jq -c '.pmus[0] | [.name, .type, .cpus, .midr, .formats, .nevents, .mux_interval_ms]'
}

@test "PMU cache: written by the first run, answers the next one of the boot (a file changed in place is not read again)" {
	[ ! -e "$CACHE" ]
	first=$(pmu_facts)
	assert_equal "$first" '["armv8_pmuv3",8,[0],"0x00000000411fd070",[{"name":"event","field":"config","bits":"0-15"},{"name":"long","field":"config1","bits":"0"},{"name":"rdpmc","field":"config1","bits":"1"}],2,4]'
	[ -s "$CACHE" ] || fail "no cache written"
	# on sysfs a registered PMU's type never changes in place; here, only the cache can
	# still say 8
	echo 99 > "fx/$DEV/armv8_pmuv3/type"
	assert_equal "$(pmu_facts)" "$first"
	# the same answer for stat: the plan names the PMU the cache gave
	run -0 "$PMUPROF" stat --plan -e inst_retired -- true
	assert_output --partial "armv8_pmuv3"
	# and an events/ entry's terms (read once, when the cache was written)
	echo event=0x0099 > "fx/$DEV/armv8_pmuv3/events/cpu_cycles"
	run -0 "$PMUPROF" explain -j -e armv8_pmuv3/cpu_cycles/
	assert_equal "$(echo "$output" | jq -r '.events[0].config')" 0x11
}

@test "PMU cache: perf_event_mux_interval_ms (writable) is read at each run, never cached" {
	pmu_facts > /dev/null
	echo 10 > "fx/$DEV/armv8_pmuv3/perf_event_mux_interval_ms"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq '.pmus[0].mux_interval_ms')" 10
}

@test "PMU cache: another boot_id, a PMU registered again (a new inode) or a new PMU is not answered from it" {
	pmu_facts > /dev/null
	echo 99 > "fx/$DEV/armv8_pmuv3/type"
	echo 6a1c2b9e-0000-4000-8000-000000000002 > fx/proc/sys/kernel/random/boot_id
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq '.pmus[0].type')" 99
	grep -qx "boot 6a1c2b9e-0000-4000-8000-000000000002" "$CACHE" || fail "the cache was not rewritten for the new boot"
	# a module reloaded: the PMU's directory is a new node, with a new inode number
	echo 77 > "fx/$DEV/armv8_pmuv3/type"
	cp -R "fx/$DEV/armv8_pmuv3" "fx/$DEV/armv8_pmuv3.new"
	rm -rf "fx/$DEV/armv8_pmuv3"
	mv "fx/$DEV/armv8_pmuv3.new" "fx/$DEV/armv8_pmuv3"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq '.pmus[0].type')" 77
	# a PMU added (another driver loaded)
	echo 55 > "fx/$DEV/armv8_pmuv3/type"
	mkdir "fx/$DEV/arm_dsu_0"
	run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq '.pmus[0].type')" 55
}

@test "PMU cache: another sysfs root is not answered from it" {
	pmu_facts > /dev/null
	cp -R fx fx2
	echo 42 > "fx2/$DEV/armv8_pmuv3/type"
	PMUPROF_SYSFS_ROOT=$BATS_TEST_TMPDIR/fx2 run -0 "$PMUPROF" info -j
	assert_equal "$(echo "$output" | jq '.pmus[0].type')" 42
}

@test "PMU cache: a corrupt or cut-short file is ignored, and replaced by a good one" {
	good=$(pmu_facts)
	cp "$CACHE" good.cache
	n=$(wc -l < good.cache)
	corrupt() {
		case $1 in
		empty) : > "$CACHE" ;;
		garbage) head -c 3000 /dev/urandom > "$CACHE" ;;
		half) head -n $((n / 2)) good.cache > "$CACHE" ;;
		noend) grep -vx end good.cache > "$CACHE" ;;
		after) { cat good.cache; echo "ev extra"; } > "$CACHE" ;;
		badtype) sed 's/^pmu armv8_pmuv3 8 /pmu armv8_pmuv3 x8 /' good.cache > "$CACHE" ;;
		badfmt) sed 's/^fmt event 0 ffff$/fmt event 9 ffff/' good.cache > "$CACHE" ;;
		badcpus) sed 's/^cpus 0$/cpus 0-/' good.cache > "$CACHE" ;;
		noeol) head -c -1 good.cache > "$CACHE" ;;
		unknown) sed 's/^cpus /cpuz /' good.cache > "$CACHE" ;;
		badevent) sed 's/^events /events bad.name event=0x1 /' good.cache > "$CACHE" ;;
		oddevents) sed 's/^events /events lone /' good.cache > "$CACHE" ;;
		twoevents) sed 's/^\(events .*\)$/\1\n\1/' good.cache > "$CACHE" ;;
		# a NUL after "end": the line's text up to it would pass for the end line
		nul) sed 's/^end$/end\x00/' good.cache > "$CACHE" ;;
		esac
	}
	for c in empty garbage half noend after badtype badfmt badcpus noeol unknown badevent \
		 oddevents twoevents nul; do
		corrupt "$c"
		! cmp -s "$CACHE" good.cache || fail "$c: the corruption changed nothing"
		echo 99 > "fx/$DEV/armv8_pmuv3/type"	# read from sysfs, not the bad cache
		run -0 "$PMUPROF" info -j
		assert_equal "$c $(echo "$output" | jq '.pmus[0].type')" "$c 99"
		echo 8 > "fx/$DEV/armv8_pmuv3/type"
		rm -f "$CACHE"
		pmu_facts > /dev/null
		cmp "$CACHE" good.cache || fail "$c: the cache was not written again"
	done
	assert_equal "$(pmu_facts)" "$good"
}

@test "PMU cache: a tree without a boot_id is never cached" {
	rm fx/proc/sys/kernel/random/boot_id
	pmu_facts > /dev/null
	[ ! -e "$CACHE" ] || fail "a cache was written without a boot to key it on"
}

# capacity.c's probe of a PMU's counters, a line appended to the cache after the PMUs
@test "PMU cache: a probe added answers for the counters; a bad one voids it, one cut short is not" {
	pmu_facts > /dev/null
	cp "$CACHE" good.cache
	counters() {
		run -0 "$PMUPROF" info -j
		echo "$output" | jq -c '.pmus[0] | [.type, .counters.probed, .counters.status,
			.counters.probed_on, .counters.cycle_counter, .counters.probe_ms]'
	}
	# a fixture tree is never probed: without a probe line, none
	assert_equal "$(counters)" \
		'[8,null,"not probed: the PMUs are a fixture tree",null,null,null]'
	# the line capacity.c appends after a probe (sysfs_cache_add_probe), as a real run writes it
	echo "cap armv8_pmuv3 5 1 -1 cpu 1875" >> "$CACHE"
	echo 99 > "fx/$DEV/armv8_pmuv3/type"	# only the cache still says 8
	assert_equal "$(counters)" '[8,5,"cached","cpu",true,1.875]'
	# the last line of a PMU counts; a line half written (no newline yet) is not read
	echo "cap armv8_pmuv3 4 0 -1 task 2000" >> "$CACHE"
	printf 'cap armv8_pmuv3 3 1' >> "$CACHE"
	assert_equal "$(counters)" '[8,4,"cached","task",false,2]'
	# a bad line after the PMUs voids the file: sysfs is read again (type 99)
	for bad in "cap armv8_pmuv3 0 1 -1 cpu 10" "cap armv8_pmuv3 5 1 -1 gpu 10" \
		"cap nosuchpmu 5 1 -1 cpu 10" "cap armv8_pmuv3 5 1 -1 cpu" "pmu x 1 0 0 0 0 0 0"; do
		{ cat good.cache; echo "$bad"; } > "$CACHE"
		run -0 "$PMUPROF" info -j
		assert_equal "$bad: $(echo "$output" | jq '.pmus[0].type')" "$bad: 99"
		echo 8 > "fx/$DEV/armv8_pmuv3/type"
		rm -f "$CACHE"
		pmu_facts > /dev/null
		echo 99 > "fx/$DEV/armv8_pmuv3/type"
	done
}
