#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof info --check: a verdict per point (pmu, access, counters, vm), exit 0 only when
# hardware counts can be trusted; then pmuprof serve's points (serve, wide, events, cgroups)
# and whether serve can count. On this host, the expected verdicts come from asking the
# machine itself (its sysfs, /proc); the verdict logic is tested on fixture trees.
# shellcheck disable=SC2016 # as_nobody's script is su's
load helpers
load nobody_helpers

DEV=/sys/bus/event_source/devices

# host_pmu: the CPU PMU this machine shows, as the kernel names it: an Arm PMUv3 PMU (a
# "cpus" file and format/event config:0-15), or x86's core PMU ("cpu", "cpu_*", or the
# PERF_TYPE_RAW type 4); empty when it shows none.
host_pmu() {
	local d n
	for d in "$DEV"/*; do
		n=${d##*/}
		if [ -f "$d/cpus" ] && [ "$(cat "$d/format/event" 2>/dev/null)" = config:0-15 ]; then
			echo "$n"; return
		fi
		case $n in cpu | cpu_*) echo "$n"; return ;; esac
		[ "$(cat "$d/type" 2>/dev/null)" = 4 ] && { echo "$n"; return; }
	done
	return 0
}

# host_hypervisor: whether the machine shows a hypervisor's cpuinfo flag or a VM's DMI
host_hypervisor() {
	grep -qw hypervisor /proc/cpuinfo && return 0
	grep -qE '^(QEMU|KVM|VMware|innotek|VirtualBox|Xen|Bochs|Parallels|BHYVE|Google Compute Engine|Virtual Machine)' \
		/sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name 2>/dev/null
}

# verdict POINT: the verdict word of POINT's line in $output
verdict() {
	printf '%s\n' "$output" | awk -v p="$1" '$1 == p { print $2 }'
}

@test "this host: the pmu, counters and vm lines follow what the machine shows" {
	local pmu
	pmu=$(host_pmu)
	run "$PMUPROF" info --check
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 10 ] ||
		fail "not 4 points and a verdict, then serve's 4 and its verdict: $output"
	if [ -z "$pmu" ]; then
		assert_failure 1
		assert_equal "$(verdict pmu)" no
		assert_equal "$(verdict counters)" no
		assert_line --regexp '^counters +no +none: no PMU to count on$'
		if host_hypervisor; then
			assert_equal "$(verdict vm)" no
			assert_line --regexp '^vm +no +a virtual machine \(.*\) that exposes no PMU'
		else
			assert_equal "$(verdict vm)" ok
		fi
		assert_line "counts of hardware events cannot be trusted here"
	else
		assert_equal "$(verdict pmu)" ok
		assert_line --regexp "^pmu +ok +$pmu"
		assert_equal "$(verdict vm)" ok
	fi
}

@test "this host: the access line follows the capabilities and perf_event_paranoid" {
	local eff paranoid
	eff=$((16#$(awk '/^CapEff:/ { print $2 }' /proc/self/status)))
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	run "$PMUPROF" info --check
	if (((eff >> 38) & 1)); then
		assert_line --regexp "^access +ok +CAP_PERFMON: any event, any CPU \\(perf_event_paranoid $paranoid does not apply\\)$"
	elif (((eff >> 21) & 1)); then
		assert_line --regexp '^access +ok +CAP_SYS_ADMIN'
	elif [ "$paranoid" -ge 3 ]; then
		assert_line --regexp "^access +no +perf_event_paranoid $paranoid, no CAP_PERFMON"
	else
		assert_line --regexp "^access +ok +perf_event_paranoid $paranoid, no CAP_PERFMON"
	fi
}

@test "this host: --json says the same as the text, and the exit status agrees" {
	run "$PMUPROF" info --check
	local st=$status text=$output
	run "$PMUPROF" info --check --json
	assert_equal "$status" "$st"
	printf '%s\n' "$output" >check.json
	assert_equal "$(jq -r '.schema_version' check.json)" 1.1
	assert_equal "$(jq -r '[.checks[].point] | join(",")' check.json)" pmu,access,counters,vm
	assert_equal "$(jq -r '[.serve.checks[].point] | join(",")' check.json)" \
		serve,wide,events,cgroups
	assert_equal "$(jq -r '.trusted' check.json)" "$([ "$st" -eq 0 ] && echo true || echo false)"
	local p
	for p in pmu access counters vm; do
		output=$text
		assert_equal "$(jq -r --arg p "$p" '.checks[] | select(.point == $p) | .verdict' check.json)" \
			"$(verdict "$p")"
	done
	for p in serve wide events cgroups; do
		output=$text
		assert_equal "$(jq -r --arg p "$p" '.serve.checks[] | select(.point == $p) | .verdict' check.json)" \
			"$(verdict "$p")"
	done
}

@test "x86-vm fixture: a cloud VM without a virtual PMU, unprivileged at paranoid 2" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-vm run "$PMUPROF" info --check
	assert_failure 1
	assert_line --regexp '^pmu +no +no CPU PMU in /sys/bus/event_source/devices: only software events count \(this VM exposes none\)$'
	assert_line --regexp '^access +ok +perf_event_paranoid 2, no CAP_PERFMON: user space of your own processes'
	assert_line --regexp '^counters +no +none: no PMU to count on$'
	assert_line --regexp '^vm +no +a virtual machine \(the hypervisor flag in /proc/cpuinfo\) that exposes no PMU'
	assert_line "counts of hardware events cannot be trusted here"
}

@test "arm-vm fixture: a KVM guest seen by its DMI, root" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/arm-vm run "$PMUPROF" info --check --json
	assert_failure 1
	printf '%s\n' "$output" >check.json
	assert_equal "$(jq -r '.trusted' check.json)" false
	assert_equal "$(jq -r '[.checks[].verdict] | join(",")' check.json)" no,ok,no,no
	assert_equal "$(jq -r '.checks[1].detail' check.json)" \
		"CAP_PERFMON: any event, any CPU (perf_event_paranoid 2 does not apply)"
	[[ "$(jq -r '.checks[3].detail' check.json)" == "a virtual machine (DMI sys_vendor 'QEMU') that exposes no PMU"* ]] ||
		fail "vm: $(jq -r '.checks[3].detail' check.json)"
}

@test "n1-server fixture: a PMU, but counters are not probed on a fixture: not trusted" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" info --check
	assert_failure 1
	assert_line --regexp '^pmu +ok +armv8_pmuv3_0 \(Neoverse N1, 80 CPUs\)$'
	assert_line --regexp '^counters +unknown +unknown, not probed: the PMUs are a fixture tree$'
	assert_line --regexp '^vm +ok +no sign of a hypervisor$'
}

@test "phone fixture: paranoid 3 and no capability refuse perf_event_open; both PMUs named" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 run "$PMUPROF" info --check
	assert_failure 1
	assert_line --regexp '^pmu +ok +armv8_cortex_a55 \(Cortex-A55, 4 CPUs\), armv8_cortex_a76 \(Cortex-A76, 4 CPUs\)$'
	assert_line --regexp "^access +no +perf_event_paranoid 3, no CAP_PERFMON: no perf_event_open at all"
}

@test "x86-host fixture: the core PMU 'cpu' is found by the machine's own sysfs" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host run "$PMUPROF" info --check
	assert_failure 1
	assert_line --regexp "^pmu +ok +cpu \\(the host's core PMU"
}

@test "broken fixture: an unreadable perf_event_paranoid is unknown, not ok" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/broken run "$PMUPROF" info --check
	assert_failure 1
	assert_line --regexp '^access +unknown +cannot read /proc/sys/kernel/perf_event_paranoid$'
}

# The first online CPU, which serve's wide point tries.
cpu0() {
	sed 's/[-,].*//' /sys/devices/system/cpu/online
}

@test "this host, as root: serve is found beside pmuprof and counts every task of a CPU" {
	[ "$(id -u)" = 0 ] || skip "the wide point opens as root only when run as root"
	run "$PMUPROF" info --check
	assert_line --regexp "^serve +ok +pmuprof-serve at $(dirname "$PMUPROF")/pmuprof-serve\$"
	assert_line --regexp "^wide +ok +a counter of every task on CPU $(cpu0) opens: serve counts system-wide\$"
	if [ -z "$(host_pmu)" ] || [ "$(host_pmu)" = cpu ]; then
		assert_line --regexp '^events +ok +the software fallback \(no Arm PMU\): task-clock,context-switches,page-faults \(-e and -M choose others\)$'
	fi
	cgm=$(cgroup2_mount)
	if [ -n "$cgm" ] && awk '$1 == "perf_event" && $2 == 0 && $4 == 1 { f = 1 } END { exit !f }' /proc/cgroups; then
		assert_line --regexp "^cgroups +ok +cgroup v2 at $cgm: --for-each-cgroup can count\$"
		assert_line "pmuprof serve can count here, per cgroup too"
	else
		assert_line --regexp '^cgroups +no +'
		assert_line "pmuprof serve can count here, but not per cgroup"
	fi
	run "$PMUPROF" info --check --json
	printf '%s\n' "$output" >check.json
	assert_equal "$(jq -r '.serve.can_count' check.json)" true
}

@test "as nobody at perf_event_paranoid 2: serve is refused, the line names the sysctl and CAP_PERFMON" {
	nobody_usable "$PMUPROF"
	run with_paranoid 2 as_nobody info --check
	[ "$status" -ne 99 ] || skip "cannot set kernel.perf_event_paranoid to 2 here"
	assert_line "wide      no       a counter of every task on CPU $(cpu0) is refused (EACCES): serve needs kernel.perf_event_paranoid <= 0 (it is 2) or CAP_PERFMON (as root, 'sysctl -w kernel.perf_event_paranoid=0', or run serve as root)"
	assert_line "pmuprof serve cannot count here"
	run with_paranoid 2 as_nobody info --check --json
	printf '%s\n' "$output" >check.json
	assert_equal "$(jq -r '.serve.can_count' check.json)" false
	assert_equal "$(jq -r '.serve.per_cgroup' check.json)" false
	assert_equal "$(jq -r '.serve.checks[1].verdict' check.json)" no
}

@test "a pmuprof without pmuprof-serve beside it or in ../libexec/pmuprof: serve cannot run" {
	mkdir -p bin
	cp "$PMUPROF" bin/pmuprof
	run bin/pmuprof info --check
	assert_line "serve     no       no pmuprof-serve beside pmuprof nor in ../libexec/pmuprof: pmuprof serve cannot run (build it with make, or install it as $PWD/bin/../libexec/pmuprof/pmuprof-serve)"
	assert_line "pmuprof serve cannot count here"
	# installed: found where pmuprof serve looks next
	mkdir -p libexec/pmuprof
	cp "$(dirname "$PMUPROF")/pmuprof-serve" libexec/pmuprof/
	run bin/pmuprof info --check
	assert_line "serve     ok       pmuprof-serve at $PWD/bin/../libexec/pmuprof/pmuprof-serve"
	# there, but not a program
	chmod 644 libexec/pmuprof/pmuprof-serve
	run bin/pmuprof info --check
	assert_line "serve     no       pmuprof-serve cannot be run: Permission denied ($PWD/bin/../libexec/pmuprof/pmuprof-serve)"
}

@test "n1-server fixture: serve would count the Arm set; the wide counter is not tried" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/n1-server run "$PMUPROF" info --check
	assert_line "events    ok       the Arm set on armv8_pmuv3_0 (Neoverse N1): cpu_cycles,inst_retired and group Cycle_Accounting (-e and -M choose others)"
	assert_line "wide      unknown  not tried: the machine is a fixture tree"
	assert_line "whether pmuprof serve can count here is unknown"
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 run "$PMUPROF" info --check
	assert_line --regexp '^events +ok +the Arm set on armv8_cortex_a55 \(Cortex-A55\), armv8_cortex_a76 \(Cortex-A76\): cpu_cycles,inst_retired'
	PMUPROF_SYSFS_ROOT=$FIXTURES/x86-vm run "$PMUPROF" info --check
	assert_line --regexp '^events +ok +the software fallback \(no Arm PMU\): task-clock,context-switches,page-faults'
}
