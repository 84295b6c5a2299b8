# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# fetch.sh: sourced by tests/arm64/run. Everything the suite needs from Debian: the host tools
# (installed with apt-get when missing) and the arm64 guest pieces (downloaded with apt-get
# download into $CACHE/debs, kept between runs, unpacked with dpkg-deb -x, never installed).
# Functions return non-zero with a message on stderr; the caller turns that into a TAP failure.
# Progress lines go to fd 3, which tests/arm64/run opens.

# (device-tree-compiler: dtc, for the hetero machine's devicetree, lib/dtb.sh)
HOST_PKGS="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio jq device-tree-compiler
	python3-jsonschema"

# The arm64 packages: busybox for the guest's userland, the project's libraries (cJSON, libpfm4;
# libmicrohttpd and libcrypt for pmuprof-serve, with the -dev packages of both for the cross
# build) and Debian's perf as the peer, with the shared libraries perf and pmuprof-serve need
# (their NEEDED closure: libmicrohttpd's is gnutls and what gnutls needs; a missing one is
# reported by image.sh, which checks the closure before it builds the image).
GUEST_PKGS="busybox-static libcjson1 libcjson-dev libpfm4 libpfm4-dev linux-perf
 libc6 libgcc-s1 libstdc++6 zlib1g liblzma5 libzstd1 libbz2-1.0 libelf1 libdw1 libcap2
 libnuma1 libslang2 libunwind8 libopencsd1 libbabeltrace1 libglib2.0-0 libpcre2-8-0 libuuid1
 libperl5.36 libcrypt1 libpython3.11 libexpat1
 libmicrohttpd12 libmicrohttpd-dev libcrypt-dev libgnutls30 libnettle8 libhogweed6 libgmp10
 libidn2-0 libunistring2 libp11-kit0 libffi8 libtasn1-6"

# host_tools: installs the host packages that are missing (needs root, as on CI).
host_tools() {
	missing=
	for p in $HOST_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "arm64: missing host packages:$missing (run as root, or apt-get install them)" >&2
		return 1
	fi
	echo "# arm64: installing$missing" >&3
	# shellcheck disable=SC2086 # word splitting of the package list is wanted
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
		>"$WORK/apt-host.log" 2>&1 ||
	{ apt-get update -q >>"$WORK/apt-host.log" 2>&1 &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
		>>"$WORK/apt-host.log" 2>&1; } ||
	{ tail -5 "$WORK/apt-host.log" >&2; return 1; }
}

# cached_deb NAME: prints the cached .deb of package NAME, if there is one.
cached_deb() {
	for f in "$CACHE/debs/$1"_*_arm64.deb "$CACHE/debs/$1"_*_all.deb; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# arm64_lists: makes sure apt knows the arm64 architecture and has its package lists.
arm64_lists() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64 || return 1
		apt-get update -q >"$WORK/apt-arm64.log" 2>&1 || return 1
	elif ! apt-cache show busybox-static:arm64 >/dev/null 2>&1; then
		apt-get update -q >"$WORK/apt-arm64.log" 2>&1 || return 1
	fi
}

# kernel_pkg: the versioned kernel package behind linux-image-arm64 (e.g. linux-image-6.1.0-NN-arm64).
kernel_pkg() {
	apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^:]*\).*/\1/p' | head -1
}

# guest_debs: downloads the arm64 packages not yet in $CACHE/debs. Offline when all are there.
guest_debs() {
	mkdir -p "$CACHE/debs" || return 1
	want=
	for p in $GUEST_PKGS; do cached_deb "$p" >/dev/null || want="$want $p:arm64"; done
	ls "$CACHE"/debs/linux-image-*-arm64_*_arm64.deb >/dev/null 2>&1 || want="$want kernel"
	[ -z "$want" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "arm64: cannot download$want without root (dpkg --add-architecture arm64)" >&2
		return 1
	fi
	arm64_lists || { echo "arm64: apt cannot see the arm64 packages" >&2; return 1; }
	k=$(kernel_pkg)
	[ -n "$k" ] || { echo "arm64: no kernel behind linux-image-arm64:arm64" >&2; return 1; }
	want=$(echo "$want" | sed "s/ kernel/ $k:arm64/")
	echo "# arm64: downloading$want" >&3
	# apt-get download writes into the current directory; as root it warns that the download
	# runs unsandboxed (the _apt user cannot write there): harmless.
	# shellcheck disable=SC2086
	(cd "$CACHE/debs" && apt-get download -q $want >"$WORK/apt-download.log" 2>&1) ||
	{ apt-get update -q >>"$WORK/apt-download.log" 2>&1 &&
	  (cd "$CACHE/debs" && apt-get download -q $want >>"$WORK/apt-download.log" 2>&1); } ||
	{ grep -E '^(E|W):' "$WORK/apt-download.log" | tail -5 >&2; return 1; }
}

# guest_tree: unpacks the arm64 packages into $CACHE/sysroot (once per set of debs) and the
# kernel Image into $CACHE/vmlinuz. $CACHE/sysroot is also the cross build's sysroot.
guest_tree() {
	stamp=$(cd "$CACHE/debs" && printf '%s\n' ./*.deb | cksum)
	if [ ! -f "$CACHE/sysroot.stamp" ] || [ "$(cat "$CACHE/sysroot.stamp")" != "$stamp" ]; then
		rm -rf "$CACHE/sysroot" "$CACHE/vmlinuz"
		mkdir -p "$CACHE/sysroot" || return 1
		for d in "$CACHE"/debs/*.deb; do
			case ${d##*/} in linux-image-*) continue ;; esac
			dpkg-deb -x "$d" "$CACHE/sysroot" || return 1
		done
		echo "$stamp" > "$CACHE/sysroot.stamp"
	fi
	if [ ! -s "$CACHE/vmlinuz" ]; then
		for kdeb in "$CACHE"/debs/linux-image-*-arm64_*_arm64.deb; do :; done
		# the kernel Image only: the package's 300 MB of modules are not needed (the PMU
		# driver, the PL011 console and gzip initramfs support are built in)
		dpkg-deb --fsys-tarfile "$kdeb" | tar -xOf - --wildcards './boot/vmlinuz-*' \
			> "$CACHE/vmlinuz.tmp" && mv "$CACHE/vmlinuz.tmp" "$CACHE/vmlinuz" || return 1
		basename "$kdeb" > "$CACHE/vmlinuz.from"
	fi
}
