#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Where -o and --export write: through a symbolic link to the file it names (the link stays),
# in place on a device, a pipe or an open descriptor (/proc/self/fd/N, /dev/stdout), each
# replaced atomically when it is a regular file; nothing made before the report is complete
# (a killed run leaves nothing); and one file named by two writers refused before the run.
load helpers

# only FILE...: the scratch directory holds exactly the files named (hidden ones included;
# bats' own files of run --separate-stderr aside).
only() {
	local want have
	want=$(printf '%s\n' "$@" | sort)
	have=$(ls -A | grep -v '^separate-stderr-' | sort)
	[ "$have" = "$want" ] || fail "the directory holds: $(echo $have), not: $(echo $want)"
}

@test "-o and --export write through a symbolic link to its file; the link stays a link" {
	echo old > real.txt
	chmod 640 real.txt
	ln -s real.txt link.txt
	mkdir sub
	ln -s ../b.json sub/blink.json	# relative to the link's directory, dangling
	run "$PMUPROF" stat -o link.txt --export bmf:sub/blink.json -e task-clock -- true
	assert_success
	[ -L link.txt ] || fail "link.txt is no longer a link: $(ls -l link.txt)"
	[ -L sub/blink.json ] || fail "sub/blink.json is no longer a link"
	assert_equal "$(readlink link.txt)" real.txt
	grep -q 'task-clock' real.txt || fail "the report is not in real.txt: $(cat real.txt)"
	assert_equal "$(stat -c %a real.txt)" 640
	jq -e 'keys | length == 1' b.json
	only real.txt link.txt sub b.json
	assert_equal "$(ls -A sub)" blink.json
}

@test "a chain of links and a link to another directory: the file at its end is written" {
	mkdir -p out/deep
	ln -s out/deep deeplink
	ln -s deeplink/r.json first.json
	ln -s first.json second.json
	run "$PMUPROF" stat -j -o second.json -e task-clock -- true
	assert_success
	[ -L second.json ] && [ -L first.json ] || fail "a link was replaced"
	jq -e '.events[0].name == "task-clock"' out/deep/r.json
	assert_equal "$(ls -A out/deep)" r.json
	# a loop of links is refused before the command runs
	ln -s loop2 loop1
	ln -s loop1 loop2
	run --separate-stderr "$PMUPROF" stat -o loop1 -e task-clock -- touch ran
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot write report file 'loop1': Too many levels of symbolic links (choose a writable path for -o)"
	[ ! -e ran ] || fail "the command ran"
}

@test "-o /proc/self/fd/1 to a file: the report follows the command's output in it" {
	run sh -c "'$PMUPROF' stat -o /proc/self/fd/1 -e task-clock -- echo from-the-command > out.txt"
	assert_success
	[ -f out.txt ] && [ ! -L out.txt ] || fail "out.txt is not a regular file"
	assert_equal "$(head -n 1 out.txt)" from-the-command
	grep -q ' task-clock' out.txt || fail "no report in out.txt: $(cat out.txt)"
	only out.txt
	# appended with >>: what the file held stays
	echo first > log.txt
	run sh -c "'$PMUPROF' stat --export json:/proc/self/fd/1 -e task-clock -- true >> log.txt"
	assert_success
	assert_equal "$(head -n 1 log.txt)" first
	tail -n +2 log.txt | jq -e '.events[0].name == "task-clock"'
	# a pipe
	run sh -c "'$PMUPROF' stat --export bmf:/proc/self/fd/1 -e task-clock -- true 2>/dev/null | jq -r 'keys[0]'"
	assert_success
	assert_output true
}

@test "-o through a link to /proc/self/fd/1 (as /dev/stdout is): the file gets it, the link stays" {
	ln -s /proc/self/fd/1 mystdout
	run sh -c "'$PMUPROF' stat -j -o mystdout -e task-clock -- true > out.json"
	assert_success
	[ -L mystdout ] || fail "mystdout is no longer a link: $(ls -l mystdout)"
	assert_equal "$(readlink mystdout)" /proc/self/fd/1
	jq -e '.events[0].name == "task-clock"' out.json
	only mystdout out.json
	# fd 1 closed: refused, nothing made
	run --separate-stderr sh -c "'$PMUPROF' stat -o mystdout -e task-clock -- touch ran >&-"
	assert_failure 2
	assert_equal "$stderr" "pmuprof: cannot write report file 'mystdout': Bad file descriptor (choose a writable path for -o)"
	only mystdout out.json
}

@test "-o /dev/stdout into a file leaves /dev/stdout a link" {
	[ -L /dev/stdout ] || skip "/dev/stdout is not a symbolic link here"
	# the machine's /dev/stdout is named only once a link of the same kind, made here, has
	# been written through and kept: a pmuprof that replaces links fails here, harmlessly
	ln -s /proc/self/fd/1 mystdout
	sh -c "'$PMUPROF' stat -o mystdout -e task-clock -- true > out.txt" || fail "stat failed"
	[ -L mystdout ] || fail "pmuprof replaces a link to /proc/self/fd/1 with a file"
	run sh -c "'$PMUPROF' stat -j -o /dev/stdout -e task-clock -- true > out.json"
	assert_success
	[ -L /dev/stdout ] || fail "/dev/stdout was replaced"
	jq -e '.events[0].name == "task-clock"' out.json
}

@test "a user who is not root writes -o /dev/stdout and /proc/self/fd/1" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a command as user nobody"
	dir=$(mktemp -d /tmp/pmuprof-nobody.XXXXXX)
	chmod 777 "$dir"
	for path in /dev/stdout /proc/self/fd/1; do
		run su nobody -s /bin/sh -c "'$PMUPROF' stat -j -o $path -e task-clock -- true > '$dir/o.json'"
		cp "$dir/o.json" o.json 2>/dev/null
		rm -f "$dir/o.json"
		assert_success
		jq -e '.events[0].name | startswith("task-clock")' o.json
		run su nobody -s /bin/sh -c "'$PMUPROF' stat -o $path -e task-clock -- true | cat"
		assert_success
		assert_output --partial 'task-clock'
	done
	rmdir "$dir"
	rm -f o.json
}

@test "SIGKILL during the run leaves no temporary file of -o or --export" {
	"$PMUPROF" stat -o out.txt --export bmf:b.json -e task-clock -- \
		sh -c 'echo $$ > started.tmp && mv started.tmp started && exec sleep 3' 2>/dev/null &
	pid=$!
	for _ in $(seq 200); do
		[ -s started ] && break
		sleep 0.02
	done
	[ -s started ] || fail "the command did not start"
	kill -KILL "$pid"
	wait "$pid" || true
	kill "$(cat started)" 2>/dev/null || true	# the orphaned sleep, by its id
	only started
}

# same SPEC... MESSAGE: stat with those options exits 2 with MESSAGE before the command runs.
same() {
	local msg=${*: -1}
	run --separate-stderr "$PMUPROF" stat "${@:1:$#-1}" -e task-clock -- touch ran
	assert_failure 2
	assert_regex "$stderr" "$msg"
	[ ! -e ran ] || fail "the command ran"
}

@test "-o and --export naming one file, however spelled, are refused before the command runs" {
	same -o out.json --export bmf:out.json \
		"^pmuprof stat: -o 'out.json' and --export 'bmf:out.json' name the same file \(give each its own file\)"
	same --export bmf:out.json -o ./out.json "-o './out.json' and --export 'bmf:out.json' name the same file"
	same -o "$PWD/out.json" --export json:out.json "name the same file"
	ln -s out.json link.json	# dangling: both would write out.json
	same -o link.json --export markdown:out.json "name the same file"
	echo old > out.json
	same -o out.json --export markdown:link.json "name the same file"
	mkdir d
	same -o d/../out.json --export csv:out.json "name the same file"
	ln out.json hard.json
	same -o hard.json --export csv:out.json "name the same file"
	assert_equal "$(cat out.json)" old
	run sh -c "'$PMUPROF' stat -o /proc/self/fd/1 --export bmf:out.json -e task-clock -- touch ran > out.json"
	assert_failure 2
	assert_output --partial "name the same file"
	[ ! -e ran ] || fail "the command ran"
	# two --export, spelled apart
	same --export bmf:x.json --export markdown:./x.json "names a file another --export writes"
}

@test "a device or descriptor named twice gets both reports, one after the other" {
	run sh -c "'$PMUPROF' stat -j -o /proc/self/fd/1 --export bmf:/proc/self/fd/1 -e task-clock -- true > both.out"
	assert_success
	jq -se 'length == 2 and (.[0].events[0].name == "task-clock") and (.[1] | keys | length == 1)' both.out
	run "$PMUPROF" stat -o /dev/null --export bmf:/dev/null -e task-clock -- true
	assert_success
}
