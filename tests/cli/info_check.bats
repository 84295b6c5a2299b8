#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof info --check: a verdict per point (pmu, access, counters, vm), exit 0 only when
# hardware counts can be trusted. On this host, the expected verdicts come from asking the
# machine itself (its sysfs, /proc); the verdict logic is tested on fixture trees.
load helpers

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
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 5 ] || fail "not 4 points and a verdict: $output"
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
	assert_equal "$(jq -r '.schema_version' check.json)" 1.0
	assert_equal "$(jq -r '[.checks[].point] | join(",")' check.json)" pmu,access,counters,vm
	assert_equal "$(jq -r '.trusted' check.json)" "$([ "$st" -eq 0 ] && echo true || echo false)"
	local p
	for p in pmu access counters vm; do
		output=$text
		assert_equal "$(jq -r --arg p "$p" '.checks[] | select(.point == $p) | .verdict' check.json)" \
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
