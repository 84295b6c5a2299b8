# SPDX-License-Identifier: Apache-2.0
# pmuprof.bash: bash completion for pmuprof. Installed as
# /usr/share/bash-completion/completions/pmuprof (make install, the Debian package).
#
# Everything it offers comes from pmuprof itself, so it cannot drift from the code:
#   subcommands        the "Commands:" block of 'pmuprof --help'
#   options            'pmuprof CMD --help' (argp's option lines; '=ARG' marks an argument)
#   events after -e    'pmuprof list --names', of --cpu-model's core when the line gives one
#                      (and the machine's PMUs otherwise; PMUPROF_SYSFS_ROOT is honoured);
#                      for stat, perf's tool events too (duration_time, user_time,
#                      system_time: no PMU lists them)
#   metrics after -M   'pmuprof stat -M list' (stat's -M is perf's --metric)
#   cores after --cpu-model    'pmuprof list --cores --names'
#   cgroups after -G, --for-each-cgroup          the directories below the cgroup v2 mount
#                      of /proc/self/mountinfo ($PMUPROF_CGROUP_ROOT when set), 3 deep
#   after --cputype    the machine's Arm PMUs and their cores, from 'pmuprof info'
#   after --per-cache= the levels perf takes, L1 to L4
# The pmuprof asked is the one on the line (./pmuprof, a build tree's), else the one on PATH.

# _pmuprof_bin: the pmuprof being completed.
_pmuprof_bin() {
	local p=${COMP_WORDS[0]}
	p=${p/#\~/$HOME}
	if [[ $p == */* && -x $p ]]; then
		printf '%s\n' "$p"
	else
		printf 'pmuprof\n'
	fi
}

# _pmuprof_subcommands BIN: the names under "Commands:" in BIN --help.
_pmuprof_subcommands() {
	"$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1; next } on && !/^  / { on = 0 }'
}

# _pmuprof_options BIN CMD: one line per option of CMD, "NAME ARG" where ARG is 1 when the
# option takes an argument, 2 when it takes one only after '=' ("--per-cache[=LEVEL]": the
# next word is not its): argp prints "  -e, --event=LIST   ..." and "      --plan   ..."
# (an option's name at column 2 or 6, two spaces before its text; text that wraps is indented
# further, so a "--cpu-model's" in it is no option).
_pmuprof_options() {
	"$1" "$2" --help 2>/dev/null | awk '
		/^  -[^-]/ || /^      --/ {
			sub(/^ +/, ""); spec = $0; sub(/  .*/, "", spec)
			arg = spec ~ /\[=/ ? 2 : spec ~ /=/ ? 1 : 0
			n = split(spec, part, ", ")
			for (i = 1; i <= n; i++) {
				name = part[i]; sub(/[=[].*/, "", name)
				if (name ~ /^-/) print name, arg
			}
		}'
}

# _pmuprof_cpu_model: the core given on the line with --cpu-model; empty when none.
_pmuprof_cpu_model() {
	local i w next
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		next=${COMP_WORDS[i + 1]}
		[[ $w == -- ]] && break
		if [[ $w == --cpu-model=* ]]; then
			printf '%s\n' "${w#--cpu-model=}"
			return
		fi
		if [[ $w == --cpu-model ]]; then
			# "--cpu-model = x": bash's COMP_WORDBREAKS splits at '='
			[[ $next == = ]] && next=${COMP_WORDS[i + 2]}
			printf '%s\n' "$next"
			return
		fi
	done
}

# _pmuprof_match PREFIX CUR WORD...: COMPREPLY gets PREFIX+WORD for each WORD that starts
# with CUR, ignoring case (perf's Arm names are lower case, Arm's tables upper case).
_pmuprof_match() {
	local prefix=$1 cur=${2,,} w
	shift 2
	for w; do
		if [[ ${w,,} == "$cur"* ]]; then COMPREPLY+=("$prefix$w"); fi
	done
	return 0
}

# _pmuprof_events BIN CUR: the last name of a comma-separated event list, completed.
_pmuprof_events() {
	local bin=$1 cur=$2 model head last
	local -a args=(list --names)
	model=$(_pmuprof_cpu_model)
	[[ -n $model ]] && args+=(--cpu-model "$model")
	# "a,{b,c" -> head "a,{b," and last "c": only the last name is completed
	last=${cur##*[,\{]}
	head=${cur%"$last"}
	# shellcheck disable=SC2046 # one name a line, no spaces in names
	_pmuprof_match "$head" "$last" $("$bin" "${args[@]}" 2>/dev/null)
	# stat measures perf's tool events itself
	[[ $cmd != stat ]] || _pmuprof_match "$head" "$last" duration_time user_time system_time
	# more may follow a name: no space after it
	compopt -o nospace 2>/dev/null || true
}

# _pmuprof_metrics BIN CUR: the core's metric and group names ('stat -M list': a group's line
# is "  group NAME ...", a metric's "  NAME  Title (unit)", perf 6.19's names' "  NAME  is
# ipc" or "  NAME  counts EVENTS"; formulas are indented further).
# _pmuprof_cputypes BIN CUR: the machine's Arm PMUs ("armv8_cortex_a55 (type 8)" in
# 'pmuprof info') and their cores ("  core  Cortex-A55, MIDR ...", as list --cores spells it).
_pmuprof_cputypes() {
	# shellcheck disable=SC2046
	_pmuprof_match "" "$2" $("$1" info 2>/dev/null | awk '
		/^[a-z0-9_]+ \(type [0-9]+\)$/ { print $1 }
		/^  core / && $2 != "unknown" { c = tolower($2); sub(/,$/, "", c); print c }')
}

_pmuprof_metrics() {
	# shellcheck disable=SC2046
	_pmuprof_match "" "$2" $("$1" stat -M list 2>/dev/null | awk '/^  [^ ]/ { print ($1 == "group" ? $2 : $1) }')
}

# _pmuprof_cgroups CUR: the last cgroup of a comma-separated list, completed with the paths
# below the cgroup v2 mount (found in mountinfo, as pmuprof finds it).
_pmuprof_cgroups() {
	local cur=$1 root=${PMUPROF_CGROUP_ROOT:-} head last
	[[ -n $root ]] || root=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo 2>/dev/null)
	[[ -d $root ]] || return 0
	last=${cur##*,}
	head=${cur%"$last"}
	# shellcheck disable=SC2046 # one path a line; cgroup names have no spaces in practice
	_pmuprof_match "$head" "$last" $(find "$root" -mindepth 1 -maxdepth 3 -type d -printf '%P\n' 2>/dev/null | LC_ALL=C sort)
	compopt -o nospace 2>/dev/null || true
}

_pmuprof() {
	local bin cur prev cmd opt arg want= i w
	local -A takes=()
	COMPREPLY=()
	bin=$(_pmuprof_bin)
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=${COMP_WORDS[1]}

	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			_pmuprof_match "" "$cur" --help --usage --version
		else
			# shellcheck disable=SC2046
			_pmuprof_match "" "$cur" $(_pmuprof_subcommands "$bin")
		fi
		return 0
	fi

	while read -r opt arg; do
		takes[$opt]=$arg
	done < <(_pmuprof_options "$bin" "$cmd")

	# the workload's own words: after '--', or after stat's first operand
	if [[ $cmd == stat ]]; then
		for ((i = 2; i < COMP_CWORD; i++)); do
			w=${COMP_WORDS[i]} prev=${COMP_WORDS[i - 1]}
			[[ $w == -- ]] && ((i++))
			if [[ $w == -- ]] ||
				[[ $w != -* && $w != = && ${takes[${prev:-_}]} != 1 && $prev != = ]]; then
				if declare -F _command_offset >/dev/null; then
					_command_offset "$i"
				elif ((i == COMP_CWORD)); then
					mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
				else
					mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				fi
				return 0
			fi
		done
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi

	# "--event=x" arrives as "--event", "=", "x" (COMP_WORDBREAKS has '=')
	if [[ $cur == = ]]; then
		want=$prev cur=
	elif [[ $prev == = ]]; then
		want=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ ${takes[${prev:-_}]} == 1 ]]; then
		want=$prev
	fi
	if [[ -n $want ]]; then
		case $cmd:$want in
		*:-e | *:--event) [[ $cmd == diff ]] || { _pmuprof_events "$bin" "$cur"; return 0; } ;;
		stat:-M | stat:--metric | serve:-M | serve:--metric)
			_pmuprof_metrics "$bin" "$cur"; return 0 ;;
		serve:--web-config) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
		stat:-G | stat:--cgroup | stat:--for-each-cgroup | serve:--for-each-cgroup)
			_pmuprof_cgroups "$cur"; return 0 ;;
		stat:--cputype) _pmuprof_cputypes "$bin" "$cur"; return 0 ;;
		stat:--per-cache) _pmuprof_match "" "$cur" L1 L2 L3 L4; return 0 ;;
		*:--cpu-model)
			# shellcheck disable=SC2046
			_pmuprof_match "" "$cur" $("$bin" list --cores --names 2>/dev/null)
			return 0 ;;
		stat:--control) _pmuprof_match "" "$cur" fd: fifo:; return 0 ;;
		*:-o | *:--output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return 0 ;;
		esac
		return 0	# an argument pmuprof cannot list (a number, a command line)
	fi

	if [[ $cur == -* ]]; then
		_pmuprof_match "" "$cur" "${!takes[@]}"
		# sorted, as bash shows them
		mapfile -t COMPREPLY < <(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort)
		return 0
	fi
	case $cmd in
	diff | report) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	stat) mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u) ;;
	esac
	return 0
}

complete -F _pmuprof pmuprof
