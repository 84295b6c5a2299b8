# SPDX-License-Identifier: Apache-2.0
# events/events.mk: builds the table generator with HOSTCC and runs it on events/ (included by Makefile).
#
# The generator runs on the build machine, so it is compiled with HOSTCC and HOSTCFLAGS, never
# with a cross CC or CFLAGS; its stages are tools/evgen*.c (tools/evgen.c names them), and it
# checks the formulas of events/metrics with the program's own parser, src/metrics/mexpr.c. It writes
# $(O)/gen/evtab_data.c (the tables) and evtab_data.h (their layout, included by src/event/evtab.c
# only). The first rule here adds evgen to `all` and keeps `all` the default goal.

EV_SRCS    := $(sort $(wildcard events/*.ev events/*.tsv events/cores/*.ev events/metrics/*.metrics))
EVGEN      := $(O)/host/evgen
EVGEN_SRCS := $(sort $(wildcard tools/evgen*.c))
HOSTCFLAGS ?= -O2 -g
GEN_SRCS   := $(O)/gen/evtab_data.c
GEN_HDRS   := $(O)/gen/evtab_data.h

all: $(EVGEN)

$(EVGEN): $(EVGEN_SRCS) tools/evgen.h src/metrics/mexpr.c include/mexpr.h include/evtab_hash.h \
	  events/events.mk | $(O)/host
	$(HOSTCC) -std=c11 $(WARN) $(HOSTCFLAGS) -Iinclude -o $@ $(EVGEN_SRCS) src/metrics/mexpr.c

$(O)/host:
	mkdir -p $@

$(O)/gen/evtab_data.c $(GEN_HDRS) &: $(EVGEN) $(EV_SRCS) | $(O)/gen
	$(EVGEN) -o $(O)/gen/evtab_data.c -H $(O)/gen/evtab_data.h $(EV_SRCS)
