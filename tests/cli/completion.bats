#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The bash completion (completion/pmuprof.bash), driven as bash drives it: COMP_WORDS and
# COMP_CWORD set, _pmuprof called, COMPREPLY read. What it offers must be what pmuprof itself
# says: its --help, 'list --names' (of fixture machines here), 'stat -M list'.
load helpers

# comp WORD...: completes the last WORD of "pmuprof WORD..."; the replies, one a line, in
# $output (and $lines). Called under bats' set -e: a completion that returns non-zero fails.
comp() {
	COMP_WORDS=("$PMUPROF" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_pmuprof
	output=$(printf '%s\n' "${COMPREPLY[@]}")
	lines=("${COMPREPLY[@]}")
}

setup() {
	[ -x "$PMUPROF" ] || fail "pmuprof is not built ($PMUPROF): run make"
	cd "$BATS_TEST_TMPDIR" || return 1
	# shellcheck source=../../completion/pmuprof.bash
	source "$ROOT/completion/pmuprof.bash"
}

@test "subcommands: those 'pmuprof --help' lists" {
	comp ''
	assert_equal "$output" "$(printf '%s\n' stat list info explain diff report serve)"
	comp in
	assert_equal "$output" info
}

@test "stat --control: its two forms" {
	comp stat --control ''
	assert_equal "$output" "$(printf '%s\n' fd: fifo:)"
	comp stat --control fi
	assert_equal "$output" fifo:
}

@test "options of stat, list and info, from their --help, none from wrapped help text" {
	comp stat --cpu
	assert_equal "$output" "$(printf '%s\n' --cpu --cpu-model --cputype)"
	comp stat --cpu-
	assert_equal "$output" --cpu-model
	comp stat --rep
	assert_equal "$output" --repeat
	comp stat --re
	assert_equal "$output" "$(printf '%s\n' --regions --repeat)"
	comp info --
	assert_equal "$output" "$(printf '%s\n' --check --help --json --usage --version)"
	comp list --n
	assert_equal "$output" --names
	comp serve --per-c
	assert_equal "$output" "$(printf '%s\n' --per-cluster --per-core --per-cpu)"
	comp serve --web
	assert_equal "$output" --web-config
}

@test "perf's common options of stat, and its tool events after -e" {
	comp stat --all-
	assert_equal "$output" "$(printf '%s\n' --all-cpus --all-kernel --all-user)"
	comp stat --log
	assert_equal "$output" --log-fd
	comp stat --no-i
	assert_equal "$output" --no-inherit
	comp stat --det
	assert_equal "$output" --detailed
	comp stat -e task-clock,dur
	assert_equal "$output" task-clock,duration_time
	comp stat -e _time
	assert_equal "$output" ""
	comp stat -e user_
	assert_equal "$output" user_time
	# explain counts nothing: no tool event there
	comp explain -e dur
	assert_equal "$output" ""
}

@test "options follow 'pmuprof CMD --help', so a new one is offered without touching the script" {
	# a pmuprof whose stat --help shows one option more than the real one
	cat >pmuprof <<-EOF2
	#!/bin/sh
	if [ "\$1 \$2" = "stat --help" ]; then
		"$PMUPROF" stat --help | sed 's/^  -[?], --help /      --brand-new=N   New\n&/'
	else exec "$PMUPROF" "\$@"; fi
	EOF2
	chmod +x pmuprof
	PMUPROF=$PWD/pmuprof
	comp stat --bra
	assert_equal "$output" --brand-new
	# it takes an argument ("=N"): nothing is offered for it
	comp stat --brand-new ''
	assert_equal "$output" ""
}

@test "events after -e on the x86 fixture: perf's generic names only" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host
	comp stat -e instr
	assert_equal "$output" instructions
	comp stat -e INST_RET
	assert_equal "$output" ""
}

@test "events after -e: the machine's PMU (the QEMU Cortex-A57 fixture), any case" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57
	comp stat -e inst_ret
	assert_equal "$output" INST_RETIRED
	comp explain -e CPU_CYC
	assert_equal "$output" CPU_CYCLES
}

@test "events after -e: big.LITTLE gives both cores' events, --cpu-model only its core's" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76
	# LD_RETIRED is the A55's (tests/fixtures/README.md)
	comp stat -e LD_RET
	assert_equal "$output" LD_RETIRED
	comp stat --cpu-model cortex-a76 -e LD_RET
	assert_equal "$output" ""
	comp stat --cpu-model=cortex-a55 -e LD_RET
	assert_equal "$output" LD_RETIRED
	comp explain --cpu-model cortex-a76 -e LD_RET
	assert_equal "$output" ""
}

@test "events after -e: --cpu-model's core on a host without an Arm PMU" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/x86-host
	comp stat --cpu-model neoverse-n1 -e stall_back
	assert_equal "$output" STALL_BACKEND
	comp stat --cpu-model neoverse-n1 --event = stall_back
	assert_equal "$output" STALL_BACKEND
}

@test "events: only the last name of a list or a group is completed" {
	export PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57
	comp stat -e 'cycles,inst_ret'
	assert_equal "$output" cycles,INST_RETIRED
	comp stat -e '{cycles,inst_ret'
	assert_equal "$output" '{cycles,INST_RETIRED'
}

@test "metrics after stat's -M: the core's metric and group names" {
	# a core not known here: the generic metrics (23), their 4 groups and perf 6.19's 11 names
	comp stat -M ''
	assert_line ipc
	assert_line MPKI
	assert_line ll_cache_read_miss_ratio
	assert_line insn_per_cycle
	assert_line cs_per_second
	assert_line stalled_cycles_per_instruction
	assert_equal "${#lines[@]}" 38
	comp stat -M ip
	assert_equal "$output" ipc
	comp stat -M cs_
	assert_equal "$output" cs_per_second
	PMUPROF_CPU_MODEL=neoverse-n2 comp stat -M Top
	assert_equal "$output" Topdown_L1
}

@test "cores after --cpu-model: those 'pmuprof list --cores --names' names; -M is no --cpu-model" {
	comp stat --cpu-model ''
	assert_equal "$output" "$("$PMUPROF" list --cores --names)"
	comp stat --cpu-model neoverse-n
	assert_line neoverse-n1
	assert_line neoverse-n2
	comp list --cpu-model cortex-a7
	assert_line cortex-a76
	# -M is perf's --metric, an option list and explain do not have
	comp list -M cortex-a7
	assert_equal "$output" ""
	comp explain -M cortex-a7
	assert_equal "$output" ""
	comp explain --cpu-model = cortex-a5
	assert_line cortex-a57
	# stat's -M is --metric: metrics, not cores
	comp stat -M cortex
	assert_equal "$output" ""
}

@test "list --cores: every core of the tables, as list --all-cores --json names them" {
	run "$PMUPROF" list --cores --names
	assert_success
	"$PMUPROF" list --all-cores --json >list.json
	assert_equal "$output" "$(jq -r '.cores[].core' list.json)"
}

@test "the workload after '--' or stat's first operand is a command, then its files" {
	comp stat -e cycles -- ech
	assert_line echo
	comp stat -r 3 ech
	assert_line echo
	touch a-file
	comp stat -- ls a-f
	assert_equal "$output" a-file
}

@test "--cputype: the machine's Arm PMUs and their cores; --per-cache=: the levels" {
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 comp stat --cputype ''
	assert_equal "$output" "$(printf '%s\n' armv8_cortex_a55 cortex-a55 armv8_cortex_a76 cortex-a76)"
	PMUPROF_SYSFS_ROOT=$FIXTURES/phone-a55-a76 comp stat --cputype cor
	assert_equal "$output" "$(printf '%s\n' cortex-a55 cortex-a76)"
	comp stat --per-cache = ''
	assert_equal "$output" "$(printf '%s\n' L1 L2 L3 L4)"
	comp stat --per-cache = L
	assert_equal "$output" "$(printf '%s\n' L1 L2 L3 L4)"
	# its level only after '=': the next word is the workload
	comp stat -a --per-cache ech
	assert_line echo
	comp stat -a --per-cache = L3 ech
	assert_line echo
}

@test "diff completes files" {
	touch base.json
	comp diff ba
	assert_equal "$output" base.json
}

@test "list --names: the names list --json gives, in its order, nothing else" {
	local t
	for t in qemu-a57 phone-a55-a76 x86-host; do
		PMUPROF_SYSFS_ROOT=$FIXTURES/$t run "$PMUPROF" list --names
		assert_success
		PMUPROF_SYSFS_ROOT=$FIXTURES/$t "$PMUPROF" list --json >list.json
		assert_equal "$output" "$(jq -r '.generic[].name, .cores[].events[].name' list.json)"
	done
	PMUPROF_SYSFS_ROOT=$FIXTURES/qemu-a57 run "$PMUPROF" list --names 'inst*'
	assert_equal "$output" "$(printf '%s\n' instructions INST_RETIRED INST_SPEC)"
}

@test "report: its file argument completes as a file" {
	: > saved-run.json
	comp report saved-r
	assert_equal "$output" saved-run.json
}

@test "cgroups after stat's -G and --for-each-cgroup, serve's --for-each-cgroup: the paths below the mount, the last of a list" {
	mkdir -p cg/web/inner cg/db
	export PMUPROF_CGROUP_ROOT=$PWD/cg
	comp stat -a -e task-clock -G 'db,w'
	assert_equal "$output" "db,web"$'\n'"db,web/inner"
	comp stat -a --for-each-cgroup d
	assert_equal "$output" db
	comp serve --for-each-cgroup w
	assert_equal "$output" "web"$'\n'"web/inner"
}
