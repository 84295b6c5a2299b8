# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# dtb.sh: sourced by tests/arm64/run. The devicetree of the machine with two Arm PMUs on
# disjoint CPUs. QEMU's virt machine has one CPU type, but the kernel's arm_pmu driver makes one
# PMU per devicetree PMU node and gives it only the CPUs its interrupts are routed to
# (interrupt-affinity): so QEMU's own devicetree, with its one PMU node replaced by two, is a
# big.LITTLE machine to the driver. The nodes' compatibles pick the PMUs' names:
# "arm,cortex-a57-pmu" is armv8_cortex_a57 (CPUs 0-1), "arm,armv8-pmuv3" is armv8_pmuv3
# (CPUs 2-3). Each CPU gets an SPI of its own that nothing raises (SPIs 80-83 are free on virt):
# a PMU node without interrupts would take every CPU, and one PPI in two nodes would need
# ppi-partitions. Counting needs no overflow interrupt; the workloads are far too short.

# dtb_two_pmus QEMUARGS MEM OUT: QEMU's devicetree for the machine QEMUARGS (with -smp 4) and
# MEM megabytes, with the two PMU nodes, compiled into OUT (the .dts files are kept beside it).
dtb_two_pmus() {
	b=${3%.dtb}
	rm -f "$b".*
	# shellcheck disable=SC2086 # $1 is a list of qemu options
	qemu-system-aarch64 $1 -m "$2" -nographic -nic none -machine dumpdtb="$b.qemu.dtb" \
		>"$b.log" 2>&1 || { cat "$b.log" >&2; return 1; }
	dtc -q -I dtb -O dts -o "$b.qemu.dts" "$b.qemu.dtb" || return 1
	# QEMU writes one node "pmu { interrupts = <PPI 7>; compatible = "arm,armv8-pmuv3"; };"
	awk '
		/^\tpmu \{$/ { skip = 1; found++; next }
		skip && /^\t\};$/ {
			skip = 0
			node("pmu-a57", "arm,cortex-a57-pmu", 80, 0)
			node("pmu-v3", "arm,armv8-pmuv3", 82, 2)
			next
		}
		!skip { print }
		# two CPUs from cpu@FIRST, an SPI each from SPI
		function node(name, compat, spi, first) {
			printf "\t%s {\n\t\tcompatible = \"%s\";\n", name, compat
			printf "\t\tinterrupts = <0x00 %d 0x04>, <0x00 %d 0x04>;\n", spi, spi + 1
			printf "\t\tinterrupt-affinity = <&{/cpus/cpu@%d}>, <&{/cpus/cpu@%d}>;\n",
				first, first + 1
			printf "\t};\n\n"
		}
		END { exit found != 1 }
	' "$b.qemu.dts" > "$b.dts" ||
		{ echo "arm64: no single 'pmu' node in QEMU's devicetree ($b.qemu.dts)" >&2; return 1; }
	dtc -q -I dts -O dtb -o "$3" "$b.dts"
}
