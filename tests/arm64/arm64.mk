# SPDX-License-Identifier: Apache-2.0
# arm64.mk: included by the top-level Makefile. `make check-arm64` runs the arm64 end-to-end
# suite under QEMU (tests/arm64/README.md): it installs what it needs, cross-builds pmuprof
# into build/aarch64 and keeps its downloads in build/arm64-cache.
.PHONY: check-arm64
check-arm64:
	HOSTCC="$(HOSTCC)" tests/arm64/run
