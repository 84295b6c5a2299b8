#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages pmuprof's build, tests and benchmarks need, only those missing.
# Usage: tools/deps.sh [PACKAGE...]   (default: the build and x86 test set)
# Runs apt-get as root, or through sudo; prints nothing when all are present.
set -eu
pkgs=${*:-"gcc make pkg-config libc6-dev libpfm4-dev libcjson-dev bats bats-assert bats-support jq groff-base linux-perf python3-jsonschema python3-prometheus-client libmicrohttpd-dev libcrypt-dev prometheus apache2-utils curl openssl clang lld libclang-rt-14-dev valgrind gdb strace dpkg-dev debhelper lintian man-db"}
missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in *" installed") ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
echo "pmuprof: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else
	echo "pmuprof: need root (or sudo) to install:$missing" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# an update only when the package lists are missing or older than a day
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
	$sudo apt-get update -qq
fi
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
