#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages pmuprof's build, tests and benchmarks need, only those missing.
# Usage: tools/deps.sh [PACKAGE...]   (default: the build and x86 test set, and the arm64
# cross-build set: see below)
# Runs apt-get as root, or through sudo; prints nothing when all are present, so it is cheap to
# run before every make check.
#
# Without arguments it also makes the arm64 package buildable here (dpkg-buildpackage -a arm64,
# make CROSS=aarch64-linux-gnu-): crossbuild-essential-arm64, the arm64 architecture added to
# dpkg (multiarch), and debian/control's Build-Depends for arm64, read from debian/control
# itself (dpkg-checkbuilddeps -a arm64 says whether they are met, apt-get build-dep -a arm64
# installs them), so a Build-Depends added there needs no second list here.
set -eu
cd "$(dirname "$0")/.."
default=
[ $# -eq 0 ] && default=1
pkgs=${*:-"gcc make pkg-config libc6-dev libpfm4-dev libcjson-dev bats bats-assert bats-support jq groff-base linux-perf python3-jsonschema python3-prometheus-client clang lld libclang-rt-14-dev valgrind gdb strace dpkg-dev debhelper lintian man-db crossbuild-essential-arm64 libmicrohttpd-dev libcrypt-dev prometheus apache2-utils curl openssl"}
if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else sudo=none; fi
export DEBIAN_FRONTEND=noninteractive
# apt waits for a dpkg lock another job holds instead of failing at once
apt="apt-get -o DPkg::Lock::Timeout=600 -y -qq --no-install-recommends"

# as_root CMD...: CMD as root, or a one-line error naming what needed it
as_root() {
	[ "$sudo" != none ] || { echo "pmuprof: need root (or sudo) to run: $*" >&2; exit 1; }
	$sudo "$@"
}

# update: the package lists, when missing or older than a day
update() {
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
		as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
	fi
}

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in *" installed") ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
	echo "pmuprof: installing:$missing" >&2
	update
	# shellcheck disable=SC2086
	as_root $apt install $missing >/dev/null
fi
[ -n "$default" ] || exit 0

# arm64 through multiarch: the architecture, its package lists, then the Build-Depends
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "pmuprof: adding the arm64 architecture (dpkg --add-architecture arm64)" >&2
	as_root dpkg --add-architecture arm64
	as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
elif ! ls /var/lib/apt/lists/*_binary-arm64_Packages* >/dev/null 2>&1; then
	as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
fi
for a in "" arm64; do
	if ! dpkg-checkbuilddeps ${a:+-a "$a"} >/dev/null 2>&1; then
		echo "pmuprof: installing debian/control's Build-Depends${a:+ for $a}" >&2
		update
		# shellcheck disable=SC2086 # apt-get and its options
		as_root $apt build-dep ${a:+-a "$a"} . >/dev/null
	fi
done
