# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# lib.sh: sourced by tests/deb/run and tests/deb/arm64. Their TAP lines, the copy of the source
# tree a package is built in, and lintian's verdict on a built package.

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# fail DESC DIAG...: each DIAG (which may hold several lines) goes out as "#   " lines
fail() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
# check DESC CMD...: ok when CMD succeeds
check() { d=$1; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }

# need_tools TOOL...: ends the run with a failure naming the first tool missing
need_tools() {
	for t in "$@"; do
		command -v "$t" >/dev/null || {
			fail "$t is installed (tools/deps.sh installs it)"
			echo "1..$n"
			exit 1
		}
	done
}

# copy_tree DEST: the tracked files and the untracked ones git does not ignore into DEST: what
# a clone would hold, plus the change at hand; no build/ and no ./pmuprof. dpkg-buildpackage
# writes its .deb and .changes into DEST's parent and debian/ gets its build files, so the
# tree itself stays clean. Sets TREE_BEFORE to git's status, for tree_unchanged.
copy_tree() {
	TREE_BEFORE=
	mkdir -p "$1" || return 1
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		TREE_BEFORE=$(git status --porcelain)
		git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$1"
	else
		tar --exclude=./build --exclude=./pmuprof -cf - . | tar -xf - -C "$1"
	fi
}

# tree_unchanged: a TAP line, ok when git's status is what copy_tree saw
tree_unchanged() {
	after=$(git status --porcelain 2>/dev/null)
	if [ "$TREE_BEFORE" = "$after" ]; then
		ok "the source tree is as it was (the build ran in a copy)"
	else
		fail "the source tree is as it was (the build ran in a copy)" "$after"
	fi
}

# lint CHANGES LOG: a TAP line, ok when lintian reports no error on the packages CHANGES names
# (its full output in LOG); its warnings are shown as comments for the reader
lint() {
	lintian "$1" >"$2" 2>&1
	grep '^W:' "$2" | sed 's/^/# lintian: /'
	if ! grep -q '^E:' "$2" && ! grep -qiE 'internal error|^lintian: .*(fail|error)' "$2"; then
		ok "lintian reports no error on ${1##*/} ($(grep -c '^W:' "$2") warnings)"
	else
		fail "lintian reports no error on ${1##*/}" "$(grep '^E:' "$2")" "$(tail -n 5 "$2")"
	fi
}

# holds DEB: a TAP line, ok when DEB holds what the package must: the program, every man page
# of the tree, the JSON Schemas and the bash completion
holds() {
	files=$(dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|')
	missing=
	want="/usr/bin/pmuprof /usr/share/bash-completion/completions/pmuprof"
	for m in pmuprof.1 man/*.1 man/*.5 man/*.7; do
		b=${m##*/}
		want="$want /usr/share/man/man${b##*.}/$b.gz"
	done
	for s in man/*.schema.json; do want="$want /usr/share/pmuprof/${s##*/}"; done
	want="$want /usr/libexec/pmuprof/pmuprof-serve /lib/systemd/system/pmuprof-serve.service"
	want="$want /usr/include/pmuprof/region.h"
	for f in $want; do
		printf '%s\n' "$files" | grep -qx "$f" || missing="$missing $f"
	done
	# shellcheck disable=SC2086 # one path a line
	if [ -z "$missing" ]; then
		ok "${1##*/} holds pmuprof, its $(printf '%s\n' $want | grep -c /man/) man pages, the JSON Schemas, the bash completion, serve's unit and the regions header"
	else
		fail "${1##*/} holds pmuprof, its man pages, the JSON Schemas, the bash completion, serve's unit and the regions header" \
			"missing:$missing"
	fi
}

# depends DEB: two TAP lines, on DEB's Depends and Recommends
depends() {
	deps=$(dpkg-deb -f "$1" Depends) recs=$(dpkg-deb -f "$1" Recommends)
	# libcjson1 comes from the binary's links: dpkg-shlibdeps gives it a version (the symbols
	# pmuprof uses), which a name written by hand in debian/control would not have
	case "$deps" in
	*libc6*libcjson1\ \(\>=* | *libcjson1\ \(\>=*libc6*)
		ok "Depends: libc6 and libcjson1, versioned by dpkg-shlibdeps: $deps" ;;
	*) fail "Depends: libc6 and libcjson1, versioned by dpkg-shlibdeps" "Depends: $deps" ;;
	esac
	case "$recs" in
	*libpfm4*) ok "Recommends: libpfm4 (dlopen'ed, the last resort for names)" ;;
	*) fail "Recommends: libpfm4" "Recommends: $recs" ;;
	esac
}
