# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# image.sh: sourced by tests/arm64/run. Cross-builds pmuprof for aarch64 against the unpacked
# arm64 -dev packages, and packs the guest's initramfs: busybox, /init, the case lists (/t/cases
# for every machine, /t/cases-NAME for the one booted with pmuprof_cases=NAME), the workloads
# (/t/w, /t/smp, /t/regions), Debian's perf, pmuprof and pmuprof-serve, and the shared
# libraries they need.

SYSROOT_LIBDIRS="lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu"

# needed_libs FILE...: the sysroot-relative paths of the shared libraries FILE... need,
# recursively (DT_NEEDED closure). Fails naming any library the sysroot lacks.
needed_libs() {
	todo="$*"
	seen=" "
	bad=
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086
		set -- $todo
		f=$1
		shift
		todo="$*"
		for lib in $(aarch64-linux-gnu-readelf -d "$f" |
				sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
			case $seen in *" $lib "*) continue ;; esac
			seen="$seen$lib "
			found=
			for d in $SYSROOT_LIBDIRS; do
				if [ -e "$CACHE/sysroot/$d/$lib" ]; then found=$d/$lib; break; fi
			done
			if [ -z "$found" ]; then bad="$bad $lib"; continue; fi
			echo "$found"
			todo="$todo $CACHE/sysroot/$found"
		done
	done
	[ -z "$bad" ] || { echo "arm64: not in the arm64 packages:$bad (add its package to GUEST_PKGS)" >&2; return 1; }
}

# build_pmuprof: sets PMUPROF to the cross-built binary, or to "" with PMUPROF_WHY saying why
# there is none, and builds pmuprof-serve beside it (the program `pmuprof serve` runs,
# linked with libmicrohttpd: -rpath-link lets the linker find gnutls and the rest of its
# closure in the sysroot). Returns non-zero only when the sources are there and the build
# failed.
build_pmuprof() {
	PMUPROF=
	if [ ! -f src/main.c ]; then
		# shellcheck disable=SC2034 # read by check.sh
		PMUPROF_WHY="pmuprof sources not there yet (no src/main.c)"
		return 0
	fi
	s=$CACHE/sysroot
	# the objects' .d files name the sysroot's headers by absolute path: after a move of the
	# cache (ARM64_CACHE), they would name files that are gone, so start the build afresh
	if [ "$(cat build/aarch64/.sysroot 2>/dev/null)" != "$s" ]; then
		rm -rf build/aarch64
		mkdir -p build/aarch64 && echo "$s" > build/aarch64/.sysroot
	fi
	l=$s/usr/lib/aarch64-linux-gnu
	if make O=build/aarch64 CC=aarch64-linux-gnu-gcc HOSTCC="${HOSTCC:-cc}" WERROR=-Werror \
		CJSON_CFLAGS="-I$s/usr/include/cjson" CJSON_LIBS="-L$l -lcjson" \
		MHD_CFLAGS="-I$s/usr/include" MHD_LIBS="-L$l -lmicrohttpd -lcrypt" \
		LDFLAGS="-Wl,-rpath-link,$l:$s/lib/aarch64-linux-gnu" \
		PFM_CFLAGS="-I$s/usr/include" build/aarch64/pmuprof build/aarch64/pmuprof-serve \
		>"$WORK/pmuprof-build.log" 2>&1
	then
		PMUPROF=build/aarch64/pmuprof
		return 0
	fi
	# shellcheck disable=SC2034 # read by check.sh
	PMUPROF_WHY="pmuprof did not cross-build"
	return 1
}

# build_image OUT: packs the initramfs into OUT (gzip'd newc cpio).
build_image() {
	r=$WORK/root
	s=$CACHE/sysroot
	rm -rf "$r"
	mkdir -p "$r/bin" "$r/usr/bin" "$r/t" "$r/lib/aarch64-linux-gnu" \
		"$r/usr/lib/aarch64-linux-gnu" || return 1
	cp "$s/bin/busybox" "$r/bin/" && ln -s busybox "$r/bin/sh" &&
	cp tests/arm64/guest/init "$r/init" && cp tests/arm64/guest/cases* "$r/t/" &&
	cp -R "$WORK/w" "$r/t/w" && cp -R "$WORK/smp" "$r/t/smp" &&
	cp -R "$WORK/regions" "$r/t/regions" &&
	cp "$s/usr/bin/perf" "$r/usr/bin/perf" || return 1
	bins="$s/usr/bin/perf"
	if [ -n "$PMUPROF" ]; then
		cp "$PMUPROF" "$r/usr/bin/pmuprof" &&
		cp "$PMUPROF-serve" "$r/usr/bin/pmuprof-serve" || return 1
		# pmuprof dlopen()s libpfm.so.4 when a name needs it, so it is not in its
		# DT_NEEDED: add it by hand
		bins="$bins $PMUPROF $PMUPROF-serve"
		for l in usr/lib/aarch64-linux-gnu/libpfm.so.4; do
			bins="$bins $s/$l"
			cp -L "$s/$l" "$r/$l" || return 1
		done
	fi
	# shellcheck disable=SC2086
	libs=$(needed_libs $bins) || return 1
	for l in $libs; do cp -L "$s/$l" "$r/$l" || return 1; done
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$r/lib/ld-linux-aarch64.so.1" || return 1
	(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$1.tmp" &&
		mv "$1.tmp" "$1"
}
