# tools/hot-text.awk: the linker script the Makefile makes from tools/hot-text.txt (issue 16).
# The kernel maps a program's file 64 KiB at a time (fault-around), and in the arm64 guest the
# first touch of each such window costs a run about 12,000 kernel instructions. So .text is
# laid out in the order of use: the C start-up's code, the real job's functions (tier 1), the
# other everyday jobs' (tier 2), then the rest as the default script orders it. This .text
# takes the place of the default script's (the same output section, defined first: a linker
# script given with -T that ends in INSERT adds to the default one, and its patterns take their
# sections first). Everything stays in .text: valgrind reads the symbols of .text only.
BEGIN {
	print "/* From tools/hot-text.txt by tools/hot-text.awk (the Makefile): do not edit. */"
	print "SECTIONS\n{\n\t.text : {"
	print "\t\t*crt?.o(.text .text.*)\n\t\t*crtbegin*.o(.text .text.*)"
	print "\t\t*libc_nonshared.a:*(.text .text.*)\n\t\t*(.text.startup .text.startup.*)"
}
/^# tier 2/ { print "\t\t/* tier 2 */" }
/^[A-Za-z_]/ { printf "\t\t*(.text.%s .text.%s.*)\n", $1, $1 }
END {
	print "\t\t*(.text.unlikely .text.*_unlikely .text.unlikely.*)"
	print "\t\t*(.text.exit .text.exit.*)\n\t\t*(.text.hot .text.hot.*)"
	print "\t\t*(.text .stub .text.* .gnu.linkonce.t.*)\n\t\t*(.gnu.warning)"
	print "\t}\n}\nINSERT BEFORE .fini;"
}
