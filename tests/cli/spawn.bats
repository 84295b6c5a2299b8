#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# spawn.bats: owns how the command is started. A run whose counting starts at the command's
# exec holds no child: its counters follow pmuprof and the command is vforked after they are
# open. A run with -D (or a target such as -a) holds its child after the fork while the
# counters are opened on it: the tests here kill it from outside while pmuprof opens
# its counters, or after they are open and before the go byte. gdb stops the real pmuprof at
# that moment (a catchpoint on a system call, no code of pmuprof's changed) while the test
# kills the child it finds in /proc and waits until the kernel has ended it.
load helpers

setup() {
	[ -x "$PMUPROF" ] || skip "pmuprof is not built ($PMUPROF): run make"
	command -v gdb >/dev/null || fail "gdb is needed to stop pmuprof between spawn and go (sh tools/deps.sh installs it)"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# held_kill WHEN ARGS...: runs pmuprof ARGS under gdb; at WHEN (open: pmuprof's first
# perf_event_open; go: the one-byte write to a pipe or socket that lets the child exec) kills pmuprof's
# child with SIGKILL and waits until it is a zombie, then lets pmuprof run on. pmuprof's
# stderr goes to err.txt; $status is pmuprof's exit status, or 128 + the signal that ended it.
held_kill() {
	local when=$1
	shift
	cat >kill.gdb <<-EOF
	set pagination off
	set confirm off
	handle SIGPIPE nostop noprint pass
	python
	import os
	def proc_pid():
	    return gdb.selected_inferior().pid
	def args():
	    # /proc/PID/syscall: the number, then the arguments, in every architecture's order
	    return open("/proc/%d/syscall" % proc_pid()).read().split()[1:]
	def go_write():
	    a = args()
	    fd, n = int(a[0], 16), int(a[2], 16)
	    try:
	        link = os.readlink("/proc/%d/fd/%d" % (proc_pid(), fd))
	        return n == 1 and link.startswith(("pipe:", "socket:"))
	    except OSError:
	        return False
	def kill_child():
	    pid = proc_pid()
	    for k in open("/proc/%d/task/%d/children" % (pid, pid)).read().split():
	        os.kill(int(k), 9)
	        # waits for the kernel, not for a time: SIGKILL is done once the child is a zombie
	        while open("/proc/%s/stat" % k).read().rsplit(") ", 1)[1][0] != "Z":
	            pass
	        print("held-kill: killed %s" % k)
	end
	EOF
	if [ "$when" = open ]; then
		echo "catch syscall perf_event_open" >>kill.gdb
	else
		echo "catch syscall write sendto sendmsg" >>kill.gdb
	fi
	# gdb starts pmuprof through a shell, which takes the redirections
	cat >>kill.gdb <<-EOF
	set args $(printf '%q ' "$@") 2>err.txt </dev/null
	run
	python
	if "$when" == "go":
	    while not go_write():
	        gdb.execute("continue")
	        gdb.execute("continue")	# from the call's exit to the next entry
	kill_child()
	gdb.execute("delete")
	end
	continue
	python
	code = gdb.parse_and_eval("\$_exitcode")
	sig = gdb.parse_and_eval("\$_exitsignal")
	print("held-kill: status %d" % (int(code) if code.type.code != gdb.TYPE_CODE_VOID else 128 + int(sig)))
	end
	EOF
	# LeakSanitizer cannot run under ptrace (a sanitized pmuprof, tests/sanitize.sh): the
	# rest of ASan and UBSan still checks this run
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	run gdb -q -batch -nx -x kill.gdb "$PMUPROF"
	echo "$output" >gdb.txt
	[[ "$output" == *"held-kill: killed "* ]] || fail "gdb did not stop pmuprof at its $when: $output"
	status=$(sed -n 's/^held-kill: status //p' gdb.txt)
	[ -n "$status" ] || fail "pmuprof did not end under gdb: $output"
}

@test "a run counted from the exec holds no child: its counters are open before the command starts" {
	local -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	cat >open.gdb <<-EOF
	set pagination off
	set confirm off
	catch syscall perf_event_open
	set args stat -e task-clock,page-faults -- true 2>err.txt </dev/null
	run
	python
	pid = gdb.selected_inferior().pid
	print("children at open: [%s]" % open("/proc/%d/task/%d/children" % (pid, pid)).read().strip())
	gdb.execute("delete")
	end
	continue
	EOF
	run gdb -q -batch -nx -x open.gdb "$PMUPROF"
	assert_output --partial "children at open: []"
	assert_output --partial "exited normally"
	run cat err.txt
	assert_output --partial "page-faults"
}

@test "a command killed before its counters were opened: said so in one line, 128+9" {
	held_kill open stat -D 1 -e task-clock,page-faults -- true
	assert_equal "$status" 137
	run cat err.txt
	assert_output "pmuprof: the command was killed by SIGKILL before its counters were opened"
}

@test "a command killed after its counters were opened, before the go byte: no SIGPIPE, 128+9" {
	held_kill go stat -D 1 -e task-clock -- true
	assert_equal "$status" 137
	run cat err.txt
	assert_output "pmuprof: the command was killed by SIGKILL before it ran"
}

@test "the same with a JSON report asked for: no half-written file" {
	held_kill go stat -D 1 --json -o r.json -e task-clock -- true
	assert_equal "$status" 137
	[ ! -e r.json ]
}
