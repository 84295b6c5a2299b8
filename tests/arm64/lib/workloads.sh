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
	*) echo "wl_expect: no workload '$1'" >&2; return 1 ;;
	esac
}

# build_workloads DIR: assembles every workload into DIR (static, no libc).
build_workloads() {
	mkdir -p "$1" || return 1
	echo "$WORKLOADS" | while IFS=: read -r name src defs; do
		# shellcheck disable=SC2086 # defs is a list of -D options
		aarch64-linux-gnu-gcc -nostdlib -static -no-pie -Wl,--build-id=none $defs \
			-o "$1/$name" "tests/arm64/workloads/$src" || exit 1
	done
}

# wl_names: the workloads' names, one a line.
wl_names() { echo "$WORKLOADS" | cut -d: -f1; }
