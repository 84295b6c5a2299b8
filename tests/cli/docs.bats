#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Man pages render without warnings; install honours PREFIX and DESTDIR.
load helpers

@test "every man page renders with groff -ww without a warning" {
	command -v groff >/dev/null || skip "groff is not installed"
	n=0
	for m in "$ROOT"/pmuprof.1 "$ROOT"/man/*.[157]; do
		out=$(LC_ALL=C.UTF-8 groff -man -ww -z "$m" 2>&1)
		[ -z "$out" ] || fail "$m: $out"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n man pages found"
}

@test "every man page renders at 80 columns, as man shows it in the arm64 guest, without a warning" {
	command -v man >/dev/null || fail "man is not installed (man-db, which tools/deps.sh installs)"
	for m in "$ROOT"/pmuprof.1 "$ROOT"/man/*.[157]; do
		out=$(MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$m" 2>&1 >/dev/null)
		[ -z "$out" ] || fail "$m: $out"
	done
}

@test "make install puts the binary and the man pages under DESTDIR/PREFIX" {
	run make -C "$ROOT" -s install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/opt/pp
	assert_success
	[ -x "$BATS_TEST_TMPDIR/root/opt/pp/bin/pmuprof" ]
	[ -f "$BATS_TEST_TMPDIR/root/opt/pp/share/man/man1/pmuprof.1" ]
	[ -f "$BATS_TEST_TMPDIR/root/opt/pp/share/man/man1/pmuprof-stat.1" ]
	[ -f "$BATS_TEST_TMPDIR/root/opt/pp/share/man/man5/pmuprof-json.5" ]
	[ -f "$BATS_TEST_TMPDIR/root/opt/pp/share/pmuprof/pmuprof-json.schema.json" ]
	run "$BATS_TEST_TMPDIR/root/opt/pp/bin/pmuprof" --version
	assert_success
}

@test "README: two set-up commands, the licence, the platform floor once, under 15 KB" {
	r=$ROOT/README.md
	size=$(wc -c < "$r")
	[ "$size" -le 15360 ] || fail "README.md is $size bytes"
	# the set-up section's indented lines are its commands: exactly two
	cmds=$(awk '/^## Set up/ { on = 1; next } /^## / { on = 0 } on && /^    [^ ]/' "$r" | wc -l)
	[ "$cmds" -eq 2 ] || fail "the set-up section has $cmds commands"
	grep -q '^## Licence' "$r"
	awk '/^## Licence/ { on = 1; next } /^## / { on = 0 } on' "$r" | grep -q 'Apache-2.0'
	[ "$(grep -c 'Platform floor' "$r")" -eq 1 ] || fail "the platform floor is not said once"
}
