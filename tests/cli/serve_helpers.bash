# SPDX-License-Identifier: Apache-2.0
# serve_helpers.bash: starting pmuprof serve for serve.bats and the serve_*.bats files.

# serve_start ARGS...: pmuprof serve on a free loopback port, its log in serve.log; PORT and
# SPID set.
serve_start() {
	"$PMUPROF" serve --listen 127.0.0.1:0 "$@" 2> serve.log &
	SPID=$!
	for _ in $(seq 50); do
		PORT=$(sed -n 's|.*listening on https\{0,1\}://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' serve.log)
		[ -z "$PORT" ] || return 0
		kill -0 "$SPID" 2>/dev/null || fail "serve ended before listening: $(cat serve.log)"
		sleep 0.1
	done
	fail "serve did not listen within 5 s: $(cat serve.log)"
}
