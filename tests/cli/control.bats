#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# pmuprof stat's control channel, perf's: --control fd:CTL[,ACK] and fifo:CTL[,ACK], -D -1,
# the commands enable, disable, ping and stop answered with "ack", and counts over the
# enabled windows equal to Debian's perf's for the same program and events.

load helpers

PPREGION=${PPREGION:-$ROOT/${O:-build}/ppregion}

# A window of 1000 fresh pages, then one of 50, between pages that are not counted: the
# marker is pmuprof/region.h driving perf's FIFOs (PERF_CTL_FIFO, PERF_ACK_FIFO).
windows=(touch 300 begin w touch 1000 end w touch 500 begin w touch 50 end w)

fifos() {
	mkfifo ctl ack
	export PERF_CTL_FIFO=ctl PERF_ACK_FIFO=ack
}

@test "--control fifo: -D -1 counts the enabled windows only, as perf stat does" {
	need_perf
	fifos
	run -0 --separate-stderr perf stat -D -1 --control fifo:ctl,ack -e page-faults -x, -- \
		"$PPREGION" "${windows[@]}"
	perf_pf=$(grep ',page-faults,' <<<"$stderr" | cut -d, -f1)
	run -0 --separate-stderr "$PMUPROF" stat -D -1 --control fifo:ctl,ack -e page-faults \
		-x, -- "$PPREGION" "${windows[@]}"
	assert_output ""
	pp_pf=$(grep ',page-faults,' <<<"$stderr" | cut -d, -f1)
	# the windows' 1050 pages, and the one the marker's own return touches
	[ "$perf_pf" -ge 1050 ] && [ "$perf_pf" -le 1055 ] || fail "perf counted $perf_pf"
	assert_equal "$pp_pf" "$perf_pf"
}

@test "--control fifo: without -D -1 everything is counted, and disable stops it" {
	fifos
	stat_json --control fifo:ctl,ack -e page-faults -- "$PPREGION" touch 2000 \
		begin w touch 10 end w
	assert_success
	pf=$(jqr '.events[0].raw_value')
	# counting starts at the exec: the 2000 pages before the first enable are in; after
	# the disable (end w) nothing more is
	[ "$pf" -ge 2000 ] || fail "only $pf page faults"
	[ "$pf" -lt 2100 ] || fail "$pf page faults: counted after the disable"
}

@test "--control fd:CTL,ACK: the shell's descriptors; each command answered with ack" {
	need_perf
	cat > marker.sh <<'SH'
exec 3>&"$CTL_W" 4<&"$ACK_R"
for cmd in ping enable disable ping stop; do
	echo $cmd >&3
	IFS= read -r -d '' -t 5 -u 4 a
	printf '%s=%q\n' "$cmd" "$a" >> answers
done
SH
	# pipes: pmuprof reads 10, answers on 11; the marker writes on 12, reads on 13
	run -0 bash -c '
		exec 10<> <(:) ; exec 12>&10
		exec 11<> <(:) ; exec 13<&11
		CTL_W=12 ACK_R=13 "$0" stat -D -1 --control fd:10,11 -e page-faults -x, -- bash marker.sh 10<&10 11>&11
	' "$PMUPROF"
	run cat answers
	assert_output "$(printf '%s\n' "ping=\$'ack\\n'" "enable=\$'ack\\n'" "disable=\$'ack\\n'" \
		"ping=\$'ack\\n'" "stop=\$'ack\\n'")"
}

@test "-D -1 with -I: the totals are the enabled window's, as without -I" {
	fifos
	run -0 --separate-stderr "$PMUPROF" stat -D -1 --control fifo:ctl,ack -I 100 \
		-e page-faults -x, -- "$PPREGION" touch 300 begin w touch 1000 end w touch 500
	assert_output ""
	# the last line is the totals' (-x: count first); the intervals before it, if any, add
	# up to it
	total=$(tail -n 1 <<<"$stderr" | cut -d, -f1)
	[ "$total" -ge 1000 ] || fail "only $total page faults in the window"
	[ "$total" -le 1003 ] || fail "$total page faults: counted outside the window"
}

@test "-D -1 with no enable: nothing counted, the command's status kept" {
	stat_json -D -1 -e page-faults -- "$PPLOAD" touch 100 exit 3
	assert_failure 3
	assert_equal "$(jqr '.events[0].raw_value')" 0
}

@test "--control: a bad spec is refused with the way out" {
	run -2 "$PMUPROF" stat --control pipe:3 -- true
	assert_output --partial "--control 'pipe:3': it takes fd:CTL[,ACK] or fifo:CTL[,ACK]"
	run -2 "$PMUPROF" stat --control fd:x,4 -- true
	assert_output --partial "CTL and ACK are descriptor numbers"
	run -2 "$PMUPROF" stat --control fifo:no/such/fifo -- true
	assert_output --partial "cannot open control FIFO 'no/such/fifo'"
	run -2 "$PMUPROF" stat --control fd:57 -- true
	assert_output --partial "descriptor 57 is not open"
}

@test "--control: garbage is warned about once, not answered; the status is kept" {
	fifos
	cat > g.sh <<'SH'
exec 3>ctl 4<ack
echo hello >&3; echo again >&3
echo ping >&3; IFS= read -r -t 5 -u 4 a; echo "[$a]" > answer
exit 5
SH
	run -5 --separate-stderr "$PMUPROF" stat --control fifo:ctl,ack -e page-faults -x, -- \
		bash g.sh
	assert_equal "$(grep -c "ignoring .* on the control channel" <<<"$stderr")" 1
	assert_equal "$(cat answer)" "[ack]"
}

@test "--control: a program that never reads its answers does not hold pmuprof up" {
	fifos
	# 20000 pings: 100 KB of answers, more than a pipe holds
	run -0 --separate-stderr timeout 20 "$PMUPROF" stat --control fifo:ctl,ack -e page-faults \
		-x, -- bash -c 'exec 3>ctl; for i in $(seq 20000); do echo ping; done >&3'
	assert_equal "$(grep -c "answer channel is full, never read: pmuprof stops answering" \
		<<<"$stderr")" 1
}
