#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/tools/rodata-segment.sh BINARY: checks that BINARY's read-only data (.rodata, and any
# .rodata.* or .rodata_* section a link made) is mapped without execute permission. Prints the
# section, and the type and flags of each program header whose segment holds it (readelf -lW);
# exits 0 when none of them has E, 1 when one has, 2 when readelf fails or no segment holds
# read-only data.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BINARY" >&2; exit 2; }
out=$(LC_ALL=C readelf -lW "$1") || exit 2
printf '%s\n' "$out" | awk '
	/^Program Headers:/ { ph = 1; next }
	ph && (/^ +Type / || /^ +\[/) { next }
	ph && NF == 0 { ph = 0; next }
	# Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align: Flg is "R", "R E", "RW"...
	ph { flg = ""; for (i = 7; i < NF; i++) flg = flg $i; type[n] = $1; flags[n++] = flg; next }
	/^ Section to Segment mapping:/ { sm = 1; next }
	sm && /^ +[0-9]+ / {
		k = $1 + 0
		for (i = 2; i <= NF; i++)
			if ($i ~ /^\.rodata([._].*)?$/) {
				found = 1
				print $i ": " type[k] " " flags[k]
				if (flags[k] ~ /E/) bad = 1
			}
	}
	END { exit bad ? 1 : found ? 0 : 2 }'
