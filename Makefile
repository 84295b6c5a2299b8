# SPDX-License-Identifier: Apache-2.0
# pmuprof: build, test, install and benchmark. Plain GNU make, out-of-tree objects under $(O).
#
#   make                 build ./pmuprof (objects and generated tables under build/)
#   make check           every test: C unit tests, CLI tests (bats), the build matrix (clang
#                        and lld, LTO, gold, Debian's hardening: tests/builds.sh), fuzz-corpus
#                        replay, the same under ASan/UBSan, valgrind memcheck, the arm64 suite
#                        under QEMU, the Debian package (make check-deb) and the arm64 one
#                        run on the arm64 kernel (make check-deb-arm64)
#   make install         PREFIX=/usr/local DESTDIR= : binary, man pages, JSON Schemas, bash
#                        completion, the regions' header (pmuprof/region.h)
#   make bench           start-up, memory and lookup benchmarks; figures in build/bench.txt
#   make deps            install the Debian packages the build and tests need (apt-get)
#
# Cross builds: make CROSS=aarch64-linux-gnu-   builds build/aarch64-linux-gnu/pmuprof with
# the cross tools of that prefix (gcc, pkg-config, ar) against the arm64 -dev packages that
# tools/deps.sh installs through multiarch. CC, PKG_CONFIG, AR and O given on the command line
# win over what CROSS sets. HOSTCC builds the table generator, which runs on the build machine.
#
# Warnings: -Wall -Wextra and more, never fatal in a plain `make`, so that a compiler newer
# than the code's does not stop a user's or a distribution's build. WERROR=-Werror makes them
# errors: the check targets (check, check-unit, check-cli, check-valgrind) set it, and so do
# the test scripts that build in directories of their own (tests/builds.sh, tests/sanitize.sh,
# fuzz/run.sh, the arm64 suite's cross build). Objects a plain make built already are not
# compiled again for it.

VERSION     := 0.1.0
CROSS       ?=
O           ?= build$(if $(CROSS),/$(CROSS:%-=%))
CC          ?= cc
HOSTCC      ?= cc
PKG_CONFIG  ?= $(CROSS)pkg-config
# make's own defaults (origin "default") give way to the cross tools; a user's do not
ifneq ($(CROSS),)
ifeq ($(origin CC),default)
CC          := $(CROSS)gcc
endif
ifeq ($(origin AR),default)
AR          := $(CROSS)ar
endif
endif
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
INCLUDEDIR  ?= $(PREFIX)/include
# pmuprof-serve, the program `pmuprof serve` runs (src/cmd/cmd_serve_exec.c finds it beside
# pmuprof, else in ../libexec/pmuprof from pmuprof's directory)
LIBEXECDIR  ?= $(PREFIX)/libexec/pmuprof
INSTALL     ?= install

WERROR      ?=
# recursive (=), not :=, so that the check targets' WERROR reaches every command
WARN         = -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
               -Wformat=2 -Wno-format-nonliteral
CFLAGS      ?= -O2 -g
CJSON_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null || echo -I/usr/include/cjson)
CJSON_LIBS   ?= $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null || echo -lcjson)
# pmuprof serve's HTTP server (libmicrohttpd) and its bcrypt check (libcrypt); SERVE_HTTP=no
# builds without them (a cross build whose sysroot lacks them): serve then says why it
# cannot serve.
SERVE_HTTP  ?= yes
ifeq ($(SERVE_HTTP),yes)
MHD_CFLAGS   ?= $(shell $(PKG_CONFIG) --cflags libmicrohttpd 2>/dev/null)
MHD_LIBS     ?= $(shell $(PKG_CONFIG) --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) -lcrypt
else
MHD_CFLAGS   :=
MHD_LIBS     :=
endif
# asked once, not at every command that uses them
CJSON_CFLAGS := $(CJSON_CFLAGS)
CJSON_LIBS   := $(CJSON_LIBS)
MHD_CFLAGS   := $(MHD_CFLAGS)
MHD_LIBS     := $(MHD_LIBS)
# libpfm4 ships no .pc file; it is loaded with dlopen only when a name needs it (start-up cost:
# see ../shared/notes/performance.md), so only its headers are needed at build time.
PFM_CFLAGS  ?=
PP_CFLAGS    = -std=c11 -D_GNU_SOURCE -DPMUPROF_VERSION='"$(VERSION)"' \
               -Iinclude -I$(O)/gen $(WARN) $(CJSON_CFLAGS) $(MHD_CFLAGS) $(PFM_CFLAGS)
# libcjson and libm are linked as usual, so that the package's dependencies are computed from
# the binary (dpkg-shlibdeps); -ldl is for libpfm4's dlopen. libmicrohttpd (with gnutls) and
# libcrypt are serve's alone: they are linked into pmuprof-serve only, so that no other
# command loads them at its start.
LDLIBS      += $(CJSON_LIBS) -lm -ldl
SERVE_LIBS  := $(MHD_LIBS) -pthread

SRCS        := $(sort $(wildcard src/*.c src/*/*.c))
ifneq ($(SERVE_HTTP),yes)
SRCS        := $(filter-out src/serve/serve_http.c src/serve/serve_webcfg.c,$(SRCS)) \
               src/serve/off/serve_off.c
endif
LIB_SRCS    := $(filter-out src/main.c src/main_serve.c,$(SRCS))

# The event-table generator and its generated sources (owned by events/events.mk):
# it defines GEN_SRCS (C files under $(O)/gen) and the rules that make them with HOSTCC.
GEN_SRCS    :=
-include events/events.mk

OBJS        := $(patsubst src/%.c,$(O)/obj/%.o,$(LIB_SRCS)) \
               $(patsubst $(O)/gen/%.c,$(O)/obj/gen_%.o,$(GEN_SRCS))
LIBPP       := $(O)/libpmuprof.a

UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))
MAN1        := pmuprof.1 $(sort $(wildcard man/*.1))
MAN5        := $(sort $(wildcard man/*.5))
MAN7        := $(sort $(wildcard man/*.7))
SCHEMAS     := $(sort $(wildcard man/*.schema.json))
DATADIR     ?= $(PREFIX)/share/pmuprof
# bash-completion loads a command's file from here on first use (its name is the command's)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

.PHONY: all check check-unit check-cli check-arm64 check-asan check-valgrind check-deb \
        check-deb-arm64 fuzz install \
        uninstall bench deps demo clean lint-man unit-bins
all: $(O)/pmuprof pmuprof $(O)/pmuprof-serve pmuprof-serve $(O)/ppload $(O)/pfmhost $(O)/ppregion

# The workload the tests and the demo run (tests/workload/ppload.c says what it does).
$(O)/ppload: tests/workload/ppload.c | $(O)/obj
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $<

# The workload that marks regions through the installed header (tests/workload/ppregion.c).
$(O)/ppregion: tests/workload/ppregion.c include/pmuprof/region.h | $(O)/obj
	$(CC) -std=c11 -D_GNU_SOURCE -Iinclude $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -pthread \
		-o $@ $<

# What libpfm4 knows of this host's PMU, for the tests of the libpfm4 fallback (see the file).
$(O)/pfmhost: tests/workload/pfmhost.c | $(O)/obj
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(PFM_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -ldl

# Each object's headers are in its .d file (-MMD -MP, included at the end). The generated
# headers come first, order-only: a clean parallel build makes them before any object that may
# include them; from then on the .d files name them where they are included.
$(O)/obj/%.o: src/%.c | $(O)/obj $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(PP_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/obj/gen_%.o: $(O)/gen/%.c | $(O)/obj
	$(CC) $(PP_CFLAGS) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIBPP): $(OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# Each program takes from the library only what it calls: pmuprof none of serve's objects.
$(O)/pmuprof: $(O)/obj/main.o $(LIBPP)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBPP) $(LDLIBS)

$(O)/pmuprof-serve: $(O)/obj/main_serve.o $(LIBPP)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBPP) $(SERVE_LIBS) $(LDLIBS)

# The top-level ./pmuprof is the native build's binary, so `./pmuprof` works after `make`.
# (copied beside, then renamed over: a program still running, a serve, keeps its old file,
# where cp over it would fail with "Text file busy")
pmuprof: $(O)/pmuprof
	@if [ "$(O)" = build ]; then cp $< $@.new && mv -f $@.new $@; fi

pmuprof-serve: $(O)/pmuprof-serve
	@if [ "$(O)" = build ]; then cp $< $@.new && mv -f $@.new $@; fi

$(O)/obj $(O)/tests $(O)/gen:
	mkdir -p $@

$(O)/tests/%: tests/unit/%.c $(LIBPP) | $(O)/tests
	$(CC) $(PP_CFLAGS) -Itests/unit $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< $(LIBPP) \
		$(SERVE_LIBS) $(LDLIBS)

unit-bins: $(UNIT_BINS)

# The development builds: warnings are errors (see the top of this file).
check check-unit check-cli check-valgrind: WERROR = -Werror

# Every test, one summary line at the end (tests/run aggregates the runners' TAP results).
check: deps all unit-bins
	tests/run

check-unit: all unit-bins
	tests/run unit

check-cli: all
	tests/run cli

# The unit and CLI tests built with clang's AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan: deps
	tests/run asan

check-valgrind: deps all
	tests/run valgrind

# The Debian package (debian/): built in a copy of the tree, linted, installed into a private
# dpkg root, run, removed (tests/deb/run says why so).
check-deb: deps
	tests/run deb

# The arm64 package: cross-built, linted, unpacked with its arm64 dependencies into a guest
# and run on Debian's arm64 kernel under QEMU, exact counts (tests/deb/arm64 says how).
check-deb-arm64: deps
	tests/run deb-arm64

# Each libFuzzer target for FUZZ_SECONDS (default 60) over tests/fuzz-corpus; fails on a crash.
fuzz: deps
	fuzz/run.sh

-include tests/arm64/arm64.mk

deps:
	@tools/deps.sh

# The main job on a bundled workload: CPU time, page faults, sleeps and two children.
demo: deps all
	./pmuprof stat -- $(O)/ppload spin 300 touch 5000 sleep 5 2 fork 2 100

lint-man:
	@for m in $(MAN1) $(MAN5) $(MAN7); do \
	  out=$$(LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -ww -z $$m 2>&1); \
	  if [ -n "$$out" ]; then echo "$$m: $$out"; exit 1; fi; done

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7
	$(INSTALL) -m 755 $(O)/pmuprof $(DESTDIR)$(BINDIR)/pmuprof
	$(INSTALL) -d $(DESTDIR)$(LIBEXECDIR)
	$(INSTALL) -m 755 $(O)/pmuprof-serve $(DESTDIR)$(LIBEXECDIR)/pmuprof-serve
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(if $(MAN7),$(INSTALL) -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7/)
	$(INSTALL) -d $(DESTDIR)$(DATADIR)
	$(INSTALL) -m 644 $(SCHEMAS) $(DESTDIR)$(DATADIR)/
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 644 completion/pmuprof.bash $(DESTDIR)$(BASHCOMPDIR)/pmuprof
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/pmuprof
	$(INSTALL) -m 644 include/pmuprof/region.h $(DESTDIR)$(INCLUDEDIR)/pmuprof/region.h

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pmuprof $(DESTDIR)$(LIBEXECDIR)/pmuprof-serve $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
	      $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7))) \
	      $(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(SCHEMAS))) \
	      $(DESTDIR)$(BASHCOMPDIR)/pmuprof $(DESTDIR)$(INCLUDEDIR)/pmuprof/region.h
	-rmdir $(DESTDIR)$(INCLUDEDIR)/pmuprof $(DESTDIR)$(LIBEXECDIR) 2>/dev/null

# bench/run exits 1 when a target is missed; the Arm figures (bench/arm64, under QEMU) are
# appended to its file either way, and a target of the real job it misses fails too
bench: all
	@rc=0; bench/run $(O) || rc=$$?; \
	bench/arm64 $(O) > $(O)/bench-arm64.txt || rc=1; \
	tee -a $(O)/bench.txt < $(O)/bench-arm64.txt; exit $$rc

clean:
	rm -rf $(O) pmuprof pmuprof-serve

-include $(wildcard $(O)/obj/*.d $(O)/obj/*/*.d $(O)/obj/*/*/*.d $(O)/tests/*.d)
