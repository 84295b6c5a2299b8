# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# workloads.sh: sourced by tests/arm64/run. The guest's workloads (tests/arm64/workloads/*.S),
# how each is built, and its exact user-space instruction count. The counts are what the source
# writes (see the comment at the top of each .S file); the cost of exec and start-up in user
# space was measured to be 0 instructions (the first instruction counted is _start's), so the
# counts hold exactly with nothing added: see tests/arm64/README.md.

# name:source:defines
WORKLOADS="loop:loop.S:-DITERS=1000000
loop2:loop.S:-DITERS=2500000
loop3:loop.S:-DITERS=10000000
syscalls:syscalls.S:-DCALLS=10000
threads:threads.S:-DTHREADS=3 -DITERS=1000000
forks:forks.S:-DCHILDREN=3 -DITERS=1000000"
# The workloads of the hetero machine (in the guest's /t/smp): migrate pins itself to CPU 0, then
# to CPU 2 (on a one-CPU machine its second sched_setaffinity fails); sloop is the loop after a
# sleep. Both sleep 100 ms before they spin, so that the other CPUs are asleep (migrate.S).
# sloop2 is sloop's loop of 2,500,000 rounds: serve's case moves each into a cgroup while it
# sleeps (guest/cases.serve).
SMP_WORKLOADS="migrate:migrate.S:-DFIRST=0 -DITERS1=1000000 -DSECOND=2 -DITERS2=2000000 -DSETTLE_MS=100
sloop:loop.S:-DITERS=1000000 -DSETTLE_MS=100
sloop2:loop.S:-DITERS=2500000 -DSETTLE_MS=100"

# wl_expect NAME: the exact user-space instruction count of workload NAME.
wl_expect() {
	case $1 in
	loop) echo $((4 * 1000000 + 5)) ;;
	loop2) echo $((4 * 2500000 + 5)) ;;
	# 40 ms of virtual time under -icount shift=0 (1 ns per instruction): -I 2 sees ~20 ticks
	loop3) echo $((4 * 10000000 + 5)) ;;
	syscalls) echo $((3 * 10000 + 6)) ;;
	# (THREADS + 1) spinners, 30 per thread around the spin, 10 in the main thread
	threads) echo $((4 * 1000000 * (3 + 1) + 30 * 3 + 10)) ;;
	# (CHILDREN + 1) spinners, 26 per child around the spin, 7 in the parent
	forks) echo $((4 * 1000000 * (3 + 1) + 26 * 3 + 7)) ;;
	# 5 on the CPU it starts on, 4 * ITERS1 + 12 on CPU 0, 4 * ITERS2 + 10 on CPU 2
	migrate) echo $((5 + 4 * 1000000 + 12 + 4 * 2000000 + 10)) ;;
	# 4 to sleep first
	sloop) echo $((4 * 1000000 + 9)) ;;
	sloop2) echo $((4 * 2500000 + 9)) ;;
	*) echo "wl_expect: no workload '$1'" >&2; return 1 ;;
	esac
}

# wl_migrate_phase CPU: migrate's user-space instructions on CPU (0 or 2, where it pins itself;
# sleep included) or "start" (its first sched_setaffinity, on the CPU it was started on).
wl_migrate_phase() {
	case $1 in
	start) echo 5 ;;
	0) echo $((4 * 1000000 + 12)) ;;
	2) echo $((4 * 2000000 + 10)) ;;
	esac
}

# wl_sloop_spin [sloop2]: sloop's (or sloop2's) user-space instructions after its sleep (its
# first 4 make it): what a tool that attaches to it while it sleeps counts.
wl_sloop_spin() { echo $(($(wl_expect "${1:-sloop}") - 4)); }

# build_workloads DIR: assembles every workload (static, no libc): WORKLOADS into DIR/w,
# SMP_WORKLOADS into DIR/smp; and the C workload that marks regions with pmuprof/region.h
# (static, with libc: tests/workload/ppregion.c) into DIR/regions.
build_workloads() {
	mkdir -p "$1/w" "$1/smp" "$1/regions" || return 1
	aarch64-linux-gnu-gcc -std=c11 -D_GNU_SOURCE -O2 -static -pthread -Iinclude \
		-o "$1/regions/ppregion" tests/workload/ppregion.c || return 1
	{
		printf '%s\n' "$WORKLOADS" | sed 's|^|w:|'
		printf '%s\n' "$SMP_WORKLOADS" | sed 's|^|smp:|'
	} | while IFS=: read -r dir name src defs; do
		# shellcheck disable=SC2086 # defs is a list of -D options
		aarch64-linux-gnu-gcc -nostdlib -static -no-pie -Wl,--build-id=none $defs \
			-o "$1/$dir/$name" "tests/arm64/workloads/$src" || exit 1
	done
}

# wl_region_loop N: the user-space instructions of ppregion's "loop N" (subs, b.ne).
wl_region_loop() { echo $((2 * $1)); }

# wl_names: the workloads' names, one a line.
wl_names() { echo "$WORKLOADS" | cut -d: -f1; }
