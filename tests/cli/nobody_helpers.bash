# SPDX-License-Identifier: Apache-2.0
# nobody_helpers.bash: running pmuprof as user nobody under a given
# kernel.perf_event_paranoid, for the .bats files that check what an unprivileged user gets.
# The setting is changed for one command at a time and always put back.

PARANOID=/proc/sys/kernel/perf_event_paranoid

# nobody_usable PROGRAM...: skips the test unless root can run PROGRAMs as user nobody.
nobody_usable() {
	[ "$(id -u)" = 0 ] || skip "needs root, to run pmuprof as user nobody"
	id nobody >/dev/null 2>&1 || skip "there is no user nobody"
	command -v su >/dev/null || skip "su is not installed"
	[ -r "$PARANOID" ] || skip "$PARANOID is not readable"
	su nobody -s /bin/sh -c 'for p; do test -x "$p" || exit 1; done' -- "$@" ||
		skip "user nobody cannot execute $* (directory modes)"
}

# as_nobody ARGS...: pmuprof ARGS as user nobody, in the directory $scratch (or /).
as_nobody() {
	su nobody -s /bin/sh -c 'cd "$0" && exec "$@"' -- "${scratch:-/}" "$PMUPROF" "$@"
}

# with_paranoid LEVEL COMMAND...: COMMAND with kernel.perf_event_paranoid at LEVEL, put back
# right after (and by the trap if interrupted); status 99 when the level cannot be set.
with_paranoid() {
	local want=$1 old
	shift
	old=$(cat "$PARANOID")
	[ "$old" = "$want" ] && { "$@"; return; }
	(
		trap 'echo "$old" >"$PARANOID"' EXIT INT TERM
		{ echo "$want" >"$PARANOID"; } 2>/dev/null && [ "$(cat "$PARANOID")" = "$want" ] ||
			exit 99
		"$@"
	)
}
