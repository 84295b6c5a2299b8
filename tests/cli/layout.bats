#!/usr/bin/env bats
# The order of pmuprof's file (issue 16): the functions tools/hot-text.txt names come first in
# .text, the real job's (tier 0) before the rest, and the read-only data of their files before
# .text, as tools/hot-text.awk's linker script puts them, so that a plain stat run reads its code
# and data from as few 64 KiB page-cache windows as it can.
load helpers

# The functions of pmuprof as "address name" lines, ascending, the names of GCC's clones
# (".isra.0", ".constprop.0", ".part.0", ".cold") cut back to the function's; fails the test
# when the binary has no symbol table (a stripped, installed one: skipped by the caller).
functions() {
	nm -n --defined-only "$PMUPROF" | awk '$2 ~ /^[tT]$/ { n = $3; sub(/[.].*/, "", n); print $1, n }'
}

needs_symbols() {
	command -v nm >/dev/null || skip "nm (binutils) is not installed"
	[ -n "$(nm "$PMUPROF" 2>/dev/null | head -n 1)" ] ||
		skip "$PMUPROF has no symbol table (stripped)"
}

@test "tools/hot-text.txt is current: nearly every name in it is a function of pmuprof" {
	needs_symbols
	functions >fns
	grep '^[A-Za-z_]' "$ROOT/tools/hot-text.txt" >listed
	n=$(wc -l <listed)
	[ "$n" -ge 100 ] || fail "tools/hot-text.txt lists $n functions: run tools/hot-text.sh"
	# a function the compiler inlined everywhere has no symbol: a few may be missing
	missing=$(awk 'FILENAME == ARGV[1] { have[$2] = 1; next } !($1 in have)' fns listed | wc -l)
	[ "$missing" -le $((n / 10)) ] || fail "$missing of the $n functions tools/hot-text.txt" \
		"names are not in pmuprof: run tools/hot-text.sh"
}

@test "the real job's functions come first in .text, before every function not listed" {
	needs_symbols
	functions >fns
	# tier 0: the names before the "# tier 1" line; start-up and exit code (crt files,
	# libc_nonshared, main, static constructors: a sanitizer runtime's) is placed with them
	awk '/^# tier 1/ { exit } /^[A-Za-z_]/' "$ROOT/tools/hot-text.txt" >tier1
	grep '^[A-Za-z_]' "$ROOT/tools/hot-text.txt" >listed
	start='^(_start|_init|_fini|main|call_weak_fn|atexit|frame_dummy|.*_tm_clones|_GLOBAL__.*|__.*)$'
	run awk -v start="$start" '
		FILENAME == ARGV[1] { t1[$1] = 1; next }
		FILENAME == ARGV[2] { all[$1] = 1; next }
		$2 in t1 { last1 = $1; n1++ }
		!($2 in all) && $2 !~ start && first == "" { first = $1; fname = $2 }
		END { printf "%d %s %s %s\n", n1, last1, first, fname }' tier1 listed fns
	assert_success
	read -r n1 last1 first fname <<<"$output"
	[ "$n1" -ge 100 ] || fail "only $n1 tier-0 functions found in pmuprof"
	[ -n "$first" ] || fail "no function outside tools/hot-text.txt found"
	# nm prints addresses as fixed-width hex: they compare as strings
	[[ "$last1" < "$first" ]] ||
		fail "tier 0 ends at $last1, after $fname (not listed) at $first: the link did not order .text"
}

@test "the read-only data of the real job's files lies before .text, that of the others after it, before the event tables" {
	command -v readelf >/dev/null || skip "readelf (binutils) is not installed"
	grep -q '^@stat_run$' "$ROOT/tools/hot-text.txt" ||
		fail "tools/hot-text.txt names no file whose data goes first: run tools/hot-text.sh"
	# "NAME ADDRESS SIZE" of the sections, from readelf -SW's "[Nr] Name Type Address Off Size"
	readelf -SW "$PMUPROF" | sed 's/^ *\[ *[0-9]*\]//' |
		awk '$1 ~ /^[.]/ { print $1, $3, $5 }' >sections
	run awk '$1 == ".rodata_hot" { h = $2; hs = $3 } $1 == ".text" { t = $2; ts = $3 }
		$1 == ".rodata_cold" { c = $2; cs = $3 } $1 == ".rodata_evtab" { e = $2 }
		$1 == ".rodata" { r = $3 } END { print h, hs, t, ts, c, cs, e, r ? r : 0 }' sections
	assert_success
	read -r hot hsize text tsize cold csize evtab rosize <<<"$output"
	[ -n "$hot" ] || fail "no .rodata_hot section: the link did not place the real job's data"
	[ -n "$text" ] && [ -n "$cold" ] && [ -n "$evtab" ] ||
		fail "no .text, .rodata_cold or .rodata_evtab section"
	# fixed-width hex compares as a string; the hot data is at least a few KiB (the strings
	# and option tables of cmd_stat.c alone are more), the other files' is in .rodata_cold
	# (next to the code's tail, not in a window of its own after the tables: what is left in
	# a .rodata is no more than a few bytes of the C start-up's, if anything)
	[[ "$hot" < "$text" ]] || fail ".rodata_hot at $hot is not before .text at $text"
	[ $((16#$hsize)) -ge 8192 ] || fail ".rodata_hot holds only $((16#$hsize)) bytes"
	[[ "$text" < "$cold" ]] && [[ "$cold" < "$evtab" ]] ||
		fail ".rodata_cold at $cold is not between .text at $text and the tables at $evtab"
	[ $((16#$csize)) -ge 8192 ] || fail ".rodata_cold holds only $((16#$csize)) bytes"
	[ $((16#$rosize)) -le 64 ] || fail "a .rodata of $((16#$rosize)) bytes after the tables"
	# and it fills the padding before the tables' window: it starts in .text's last window
	[ $((16#$cold / 65536)) -eq $(((16#$text + 16#$tsize) / 65536)) ] ||
		fail ".rodata_cold at $cold is not in the window of .text's end"
}

@test "the event tables start a 64 KiB window, so their head, common events and hot strings take one" {
	needs_symbols
	run bash -c "nm --defined-only '$PMUPROF' | awk '\$3 == \"evtab_gen\" { print \$1 }'"
	assert_success
	[ -n "$output" ] || fail "no evtab_gen symbol in $PMUPROF"
	# the generator aligns the tables to the kernel's fault-around window (tools/evgen_emit.c)
	[ $((16#$output % 65536)) -eq 0 ] || fail "evtab_gen at 0x$output is not 64 KiB aligned"
}

@test "tools/hot-text.txt lists every function the real job runs now in tier 0" {
	# a function the compiler stops inlining (a change of code or of what it calls) is new
	# to the list: not listed, the link leaves it where the cold code goes, and each plain
	# run pays a window of the file more for it (16 us in the A57 guest). The list is made
	# from the release build (make's ./pmuprof) by callgrind, whatever binary the other tests
	# check (a sanitizer's build does not run under valgrind)
	command -v valgrind >/dev/null || skip "valgrind is not installed: tools/hot-text.sh needs it"
	pp=$ROOT/pmuprof
	[ -x "$pp" ] || fail "the release build is not built ($pp): run make"
	HOT_TEXT_OUT=$PWD/now.txt run sh "$ROOT/tools/hot-text.sh" "$pp"
	assert_success
	awk '/^# tier 1/ { exit } /^[A-Za-z_]/' "$ROOT/tools/hot-text.txt" | sort >listed
	awk '/^# tier 1/ { exit } /^[A-Za-z_]/' now.txt | sort >now
	[ "$(wc -l <now)" -ge 100 ] || fail "tools/hot-text.sh found only $(wc -l <now) functions"
	missing=$(comm -13 listed now | tr '\n' ' ')
	[ -z "$missing" ] || fail "the real job runs functions tier 0 of tools/hot-text.txt" \
		"does not list: $missing(run tools/hot-text.sh)"
}
