# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# boot.sh: sourced by tests/arm64/run. The machines the suite boots, and booting one: Debian's
# arm64 kernel with the suite's initramfs under qemu-system-aarch64, exact instruction counting
# (-icount shift=0: one instruction per virtual-clock tick, so CPU_CYCLES == INST_RETIRED)
# on one CPU (with -smp 2, INST_RETIRED is QEMU's global instruction count), except hetero.
# hetero has four CPUs and two PMUs (lib/dtb.sh). There, each CPU's INST_RETIRED reads QEMU's
# one instruction count, so a CPU's user-space count also takes in whatever the other CPUs run
# while it is in user space: its cases run one task at a time while the other CPUs sleep
# (guest/cases-hetero).

# name|qemu machine, cpu and -smp (-smp 1 when not given)|general counters (PMCR_EL0.N)|
# exception level of the kernel|kind: "" (the common cases) or hetero (the devicetree with two
# PMUs, guest/cases-hetero)
MACHINES="a57|-M virt -cpu cortex-a57|6|EL1|
n1|-M virt -cpu neoverse-n1|6|EL1|
a64fx|-M virt,gic-version=3 -cpu a64fx|8|EL1|
n1-vhe|-M virt,virtualization=on,gic-version=3 -cpu neoverse-n1|6|EL2|
hetero|-M virt -cpu cortex-a57 -smp 4|6|EL1|hetero"

BOOT_TIMEOUT=${ARM64_BOOT_TIMEOUT:-240}
# QEMU's -icount setting, and more options (bench/arm64 makes guest time repeatable from boot to
# boot with BOOT_ICOUNT=shift=0,sleep=off and BOOT_QEMU_MORE="-seed N -rtc ...")
BOOT_ICOUNT=${BOOT_ICOUNT:-shift=0}
BOOT_QEMU_MORE=${BOOT_QEMU_MORE:-}
BOOT_MEM=512
# hetero's kernel arguments, for quiet CPUs: no scheduler domain joins CPUs 1-3 to anything
# (no load balancing: a task stays on the CPU it was started on, and no idle CPU is woken to
# balance), and no soft-lockup watchdog (a timer and a stopper thread on every CPU every 4 s)
HETERO_APPEND="isolcpus=domain,1-3 nowatchdog"

# machine_dtbs: the devicetrees of the machines that need their own ($WORK/dtb/NAME.dtb).
machine_dtbs() {
	rm -rf "$WORK/dtb"
	mkdir -p "$WORK/dtb" || return 1
	while IFS='|' read -r name args _ _ kind; do
		case $kind in
		hetero) dtb_two_pmus "$args" "$BOOT_MEM" "$WORK/dtb/$name.dtb" || return 1 ;;
		esac
	done <<EOM
$MACHINES
EOM
}

# boot NAME QEMUARGS KIND: boots one machine; its console goes to $WORK/NAME/console, its
# results to $WORK/NAME/out/, the seconds it took and qemu's exit status to $WORK/NAME/boot.
# The guest runs the case list KIND (guest/cases-KIND; guest/cases when KIND is ""), or
# GUEST_CASES when that is set (the benchmarks), or KIND itself when it is bench-*.
boot() {
	d=$WORK/$1
	rm -rf "$d"
	mkdir -p "$d/out" || return 1
	t0=$(date +%s)
	more="-smp 1"
	case " $2 " in *" -smp "*) more= ;; esac
	[ -f "$WORK/dtb/$1.dtb" ] && more="$more -dtb $WORK/dtb/$1.dtb"
	cases=${GUEST_CASES:-$3}
	case $3 in bench-*) cases=$3 ;; esac	# a benchmark's own machine, its own cases
	append="console=ttyAMA0 rdinit=/init panic=-1 quiet${cases:+ pmuprof_cases=$cases}"
	[ "$3" = hetero ] && append="$append $HETERO_APPEND"
	# shellcheck disable=SC2086 # $2, $more and BOOT_QEMU_MORE are lists of qemu options
	timeout -k 5 "$BOOT_TIMEOUT" qemu-system-aarch64 $2 $more $BOOT_QEMU_MORE -m "$BOOT_MEM" \
		-nographic -nic none -no-reboot -icount "$BOOT_ICOUNT" -kernel "$CACHE/vmlinuz" \
		-initrd "$WORK/initramfs.cpio.gz" -append "$append" \
		</dev/null >"$d/console" 2>&1
	st=$?
	echo "$st $(($(date +%s) - t0))" > "$d/boot"
	# the results: a base64 tar.gz between two marker lines (the console adds \r; output that
	# did not end its line may precede the first marker)
	tr -d '\r' < "$d/console" |
		sed -n '/@@pmuprof-arm64-results-begin@@$/,/^@@pmuprof-arm64-results-end@@$/p' |
		sed '1d;$d' | base64 -d 2>/dev/null | tar -xzf - -C "$d/out" 2>/dev/null
	return 0
}

# boot_all: boots every machine, as many at a time as there are CPUs: a machine starts as soon
# as one before it is done (a slot is a line in a pipe), the slow one with four CPUs first.
boot_all() {
	jobs=$(nproc 2>/dev/null || echo 1)
	rm -f "$WORK/slots"
	mkfifo "$WORK/slots" || return 1
	exec 4<>"$WORK/slots"
	rm -f "$WORK/slots"
	for _ in $(seq "$jobs"); do echo >&4; done
	while IFS='|' read -r name args _ _ kind; do
		[ -n "$name" ] || continue
		read -r _ <&4
		{ boot "$name" "$args" "$kind"; echo >&4; } &
	done <<EOM
$(echo "$MACHINES" | grep '|hetero$'; echo "$MACHINES" | grep -v '|hetero$')
EOM
	wait
	exec 4>&-
}
