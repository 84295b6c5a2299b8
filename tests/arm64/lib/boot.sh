# shellcheck shell=sh
# boot.sh: sourced by tests/arm64/run. The machines the suite boots, and booting one: Debian's
# arm64 kernel with the suite's initramfs under qemu-system-aarch64, exact instruction counting
# (-icount shift=0: one instruction per virtual-clock tick, so CPU_CYCLES == INST_RETIRED)
# on one CPU (with -smp 2, INST_RETIRED is QEMU's global instruction count).

# name|qemu machine and cpu|general counters (PMCR_EL0.N)|exception level of the kernel
MACHINES="a57|-M virt -cpu cortex-a57|6|EL1
n1|-M virt -cpu neoverse-n1|6|EL1
a64fx|-M virt,gic-version=3 -cpu a64fx|8|EL1
n1-vhe|-M virt,virtualization=on,gic-version=3 -cpu neoverse-n1|6|EL2"

BOOT_TIMEOUT=${ARM64_BOOT_TIMEOUT:-240}

# boot NAME QEMUARGS: boots one machine; its console goes to $WORK/NAME/console, its results to
# $WORK/NAME/out/, the seconds it took and qemu's exit status to $WORK/NAME/boot.
boot() {
	d=$WORK/$1
	rm -rf "$d"
	mkdir -p "$d/out" || return 1
	t0=$(date +%s)
	# shellcheck disable=SC2086 # $2 is a list of qemu options
	timeout -k 5 "$BOOT_TIMEOUT" qemu-system-aarch64 $2 -smp 1 -m 512 -nographic -nic none \
		-no-reboot -icount shift=0 -kernel "$CACHE/vmlinuz" -initrd "$WORK/initramfs.cpio.gz" \
		-append 'console=ttyAMA0 rdinit=/init panic=-1 quiet' \
		</dev/null >"$d/console" 2>&1
	st=$?
	echo "$st $(($(date +%s) - t0))" > "$d/boot"
	# the results: a base64 tar.gz between two marker lines (the console adds \r)
	tr -d '\r' < "$d/console" |
		sed -n '/^@@pmuprof-arm64-results-begin@@$/,/^@@pmuprof-arm64-results-end@@$/p' |
		sed '1d;$d' | base64 -d 2>/dev/null | tar -xzf - -C "$d/out" 2>/dev/null
	return 0
}

# boot_all: boots every machine, as many at a time as there are CPUs.
boot_all() {
	jobs=$(nproc 2>/dev/null || echo 1)
	i=0
	while IFS='|' read -r name args _; do
		boot "$name" "$args" &
		i=$((i + 1))
		[ $((i % jobs)) -eq 0 ] && wait
	done <<EOM
$MACHINES
EOM
	wait
}
