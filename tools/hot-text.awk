# tools/hot-text.awk: the linker script the Makefile makes from tools/hot-text.txt (issue 16).
# The kernel maps a program's file 64 KiB at a time (fault-around), and in the arm64 guest the
# first touch of each such window costs a run about 21 us (tools/hot-text.sh). So the file is
# laid out in the order of use. Lines that start with '@' name source files: their objects'
# .rodata goes into .rodata_hot, which this script places before .text (after the PLT, in the
# same read-only, executable segment). Then .text: the C start-up's code, the real job's
# functions (tier 0), stat's other forms' (tier 1), the other everyday jobs' (tier 2), then the
# rest as the default script orders it; after it the other files' read-only data, then the
# event tables. This .text takes the place of the default script's (the same output section,
# defined first: a linker script given with -T that ends in INSERT adds to the default one, and
# its patterns take their sections first). All code stays in .text: valgrind reads the
# symbols of .text only.
BEGIN {
	print "/* From tools/hot-text.txt by tools/hot-text.awk (the Makefile): do not edit. */"
	print "SECTIONS\n{"
	nr = 0
}
/^@/ { rod[++nr] = substr($1, 2); next }
!started && (/^[A-Za-z_]/ || /^# tier/) {
	started = 1
	if (nr) {
		print "\t.rodata_hot : {"
		for (i = 1; i <= nr; i++)
			printf "\t\t*/%s.o(.rodata .rodata.*)\n", rod[i]
		print "\t}"
	}
	print "\t.text : {"
	print "\t\t*crt?.o(.text .text.*)\n\t\t*crtbegin*.o(.text .text.*)"
	print "\t\t*libc_nonshared.a:*(.text .text.*)\n\t\t*(.text.startup .text.startup.*)"
	# _fini (crti's prologue, crtn's epilogue, in link order), which the loader calls at
	# every exit: left in .fini, it followed the cold code into a window of its own
	print "\t\tKEEP (*(SORT_NONE(.fini)))"
}
/^# tier [12]/ { print "\t\t/* " substr($0, 3) " */" }
/^[A-Za-z_]/ { printf "\t\t*(.text.%s .text.%s.*)\n", $1, $1 }
END {
	print "\t\t*(.text.unlikely .text.*_unlikely .text.unlikely.*)"
	print "\t\t*(.text.exit .text.exit.*)\n\t\t*(.text.hot .text.hot.*)"
	print "\t\t*(.text .stub .text.* .gnu.linkonce.t.*)\n\t\t*(.gnu.warning)"
	print "\t}"
	# the read-only data of the other files next, in the padding before the event tables'
	# window: after them it took a window of its own, or two, which every job but the real
	# one reads (info, list, a refusal's message); here it shares one with the code's tail
	print "\t.rodata_cold : { *(EXCLUDE_FILE(*evtab_data.o) .rodata" \
		" EXCLUDE_FILE(*evtab_data.o) .rodata.*) }"
	# the event tables, aligned to a window (tools/evgen_emit.c), right after them
	print "\t.rodata_evtab : { *(.rodata.evtab) }"
	print "}\nINSERT BEFORE .fini;"
}
