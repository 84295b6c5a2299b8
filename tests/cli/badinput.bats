#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# badinput.bats: owns the bad-input catalogue: every row of badinput.tsv (malformed specs, bad
# options, commands that cannot run, unwritable -o and --export paths, broken sysfs trees,
# reports diff and report cannot read) must give its exit status, one line on stderr matching
# its regex, nothing on stdout, no crash, and leave the scratch directory (with its -o report)
# exactly as it was.
# One @test per group of rows; a failure lists every row of the group that broke, by line.
load helpers

TABLE=$BATS_TEST_DIRNAME/badinput.tsv
SEED='the report of an earlier run'
# A usage error ends with this hint, as coreutils' do; it is the one second line allowed.
ARGP_HINT="^Try 'pmuprof( [a-z]+)? --help' for more information\.$"

pp() {
	"$PMUPROF" "$@"
}

# The files a row may use; the same fresh set for each row.
make_scratch() {
	mkdir adir rodir
	chmod 555 rodir
	printf '%s\n' "$SEED" >out.report
	printf 'x\n' >afile
	printf '#!/bin/sh\nexit 0\n' >notexec
	printf 'garbage\001\002\n' >badelf
	printf '#!/nonexistent/interpreter\n' >badinterp
	chmod 755 badelf badinterp
	printf '{"schema_version":"1.0","events":[]}\0trailing' >nul.json
	printf '%*s' 5000 '' | tr ' ' '[' >deep.json
	printf '[]\n' >array.json
	printf '{"schema_version":"1.0","events":[{"value":1}]}\n' >noname.json
	printf '{"schema_version":"1.0","events":{}}\n' >evobj.json
}

# What is in the scratch directory: names, types, sizes and contents' checksums.
snapshot() {
	find . -mindepth 1 -printf '%p %y %s\n' | sort
	find . -type f -exec md5sum {} + | sort
}

# check_row LINE STATUS REGEX COMMAND: appends what broke to $broken; 0 when the row held.
check_row() {
	local line=$1 want=$2 re=$3 cmd=$4 dir before after extra why="" status output stderr
	local -a stderr_lines
	dir=$BATS_TEST_TMPDIR/row$line
	mkdir "$dir" && cd "$dir" || return 1
	make_scratch
	before=$(snapshot)
	# shellcheck disable=SC2034 # the rows' commands use them
	OUT=$dir/out.report FX=$FIXTURES NA=$'\xc3\xa9' LONG=$(printf '%*s' 10000 '' | tr ' ' a)
	# not bats' run: its status checks take 127 for a typo in the test, here it is wanted
	(eval "$cmd") >"$dir.stdout" 2>"$dir.stderr" </dev/null
	status=$?
	output=$(cat "$dir.stdout")
	stderr=$(cat "$dir.stderr")
	mapfile -t stderr_lines <"$dir.stderr"
	if [ "$status" -eq 200 ]; then
		skipped+="line $line (directory modes do not bind root); "
		return 0
	fi
	[ "$status" -eq "$want" ] || why+="exit $status, not $want; "
	[ "$status" -lt 128 ] || why+="killed by signal $((status - 128)); "
	[ ${#stderr_lines[@]} -ge 1 ] || why+="nothing on stderr; "
	[[ ${stderr_lines[0]:-} =~ $re ]] || why+="stderr line 1 does not match /$re/; "
	extra=${stderr_lines[1]:-}
	[ ${#stderr_lines[@]} -le 2 ] || why+="${#stderr_lines[@]} lines on stderr; "
	[ -z "$extra" ] || [[ $extra =~ $ARGP_HINT ]] || why+="line 2 is not the hint: $extra; "
	[ -z "$output" ] || why+="stdout not empty; "
	after=$(snapshot)
	[ "$before" = "$after" ] || why+="the directory changed: $(diff <(echo "$before") \
		<(echo "$after") | grep '^[<>]' | head -n 3 | tr '\n' ' '); "
	cd "$BATS_TEST_TMPDIR" || return 1
	chmod -R u+w "$dir"
	[ -z "$why" ] && return 0
	broken+="  badinput.tsv:$line: ${cmd:0:100}"$'\n'"    $why"$'\n'"    stderr: ${stderr:0:300}"$'\n'
	return 1
}

# run_group GROUP: every row of the group; fails listing the rows that broke.
run_group() {
	local group=$1 line=0 g want re cmd n=0
	broken="" skipped=""
	while IFS=$'\t' read -r g want re cmd; do
		line=$((line + 1))
		[ "$g" = "$group" ] || continue
		n=$((n + 1))
		check_row "$line" "$want" "$re" "$cmd" || true
	done <"$TABLE"
	[ "$n" -gt 0 ] || fail "no rows of group '$group' in $TABLE"
	[ -z "$skipped" ] || echo "# skipped: $skipped" >&3
	[ -z "$broken" ] || fail "$(printf '%s of %s rows broke:\n%s' \
		"$(grep -c '^  badinput' <<<"$broken")" "$n" "$broken")"
}

@test "the catalogue holds at least 60 bad inputs, each row well-formed" {
	local rows
	rows=$(grep -cv '^#' "$TABLE")
	[ "$rows" -ge 60 ] || fail "only $rows rows"
	run awk -F'\t' '!/^#/ && (NF != 4 || $2 !~ /^[0-9]+$/) { print FILENAME ":" NR }' "$TABLE"
	assert_output ""
}

@test "malformed event specs: one line with the column, exit 2, report untouched" {
	run_group spec
}

@test "bad options and values: one line (plus the hint), exit 2" {
	run_group option
}

@test "commands that cannot run: 127 when not found, 126 when not executable" {
	run_group command
}

@test "-o paths that cannot be written: exit 2 before the run, no file anywhere" {
	run_group output
}

@test "broken sysfs trees: one line, no crash" {
	run_group sysfs
}

@test "reports diff cannot read: one line naming the file, exit 2" {
	run_group diff
}

@test "reports pmuprof report cannot read or write: one line naming the file, exit 2" {
	run_group report
}

@test "usage errors: the message and one line of hint, naming the program 'pmuprof'" {
	local c
	for c in stat list info explain diff report; do
		run --separate-stderr "$PMUPROF" "$c" --bogus
		assert_failure 2
		assert_equal "$stderr" "pmuprof $c: unrecognized option '--bogus'"$'\n'"Try 'pmuprof $c --help' for more information."
	done
	run --separate-stderr "$PMUPROF" explain
	assert_failure 2
	assert_equal "$stderr" "pmuprof explain: no event given (try 'pmuprof explain -e inst_retired:u')"$'\n'"Try 'pmuprof explain --help' for more information."
	# the top level, run by its path
	run --separate-stderr "$PMUPROF" -x
	assert_failure 2
	assert_equal "$stderr" "pmuprof: invalid option -- 'x'"$'\n'"Try 'pmuprof --help' for more information."
	run --separate-stderr "$PMUPROF"
	assert_failure 2
	assert_equal "$stderr" "pmuprof: no command given (try 'pmuprof stat -- COMMAND')"$'\n'"Try 'pmuprof --help' for more information."
	# help itself is unchanged: argp's, on standard output
	run --separate-stderr "$PMUPROF" diff --help
	assert_success
	assert_line --index 0 "Usage: pmuprof diff [OPTION...] BASE.json NEW.json"
	assert_equal "$stderr" ""
}
