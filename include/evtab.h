/* SPDX-License-Identifier: Apache-2.0 */
/* evtab.h: the Arm PMUv3 event tables generated from events/ at build time, reached only
 * through these accessors: the common events and, per core (recognised by MIDR), its own. */
#ifndef PMUPROF_EVTAB_H
#define PMUPROF_EVTAB_H

#include <stddef.h>
#include <stdint.h>

enum evtab_class {
	EVTAB_ARCH = 1,		/* architectural */
	EVTAB_UARCH = 2,	/* microarchitectural (common, defined by the architecture) */
	EVTAB_IMPDEF = 3,	/* implementation defined, this core's own */
};

/* Handles to an event and a core of the tables. Their layout is the generator's (places are
 * offsets, so the tables need no relocation at start-up; tools/evgen_emit.c): read them
 * through the accessors below. Handles and the strings they give are static (valid for the
 * life of the program, never freed); two handles are the same event (core) exactly when they
 * are equal. */
struct evtab_event;
struct evtab_core;

/* An event's fields. e must be a handle from this module, never NULL. */
const char *evtab_event_name(const struct evtab_event *e);	/* "INST_RETIRED": upper case */
const char *evtab_event_desc(const struct evtab_event *e);	/* short, pmuprof's own words */
unsigned evtab_event_code(const struct evtab_event *e);		/* evtCount, e.g. 0x0008 */
enum evtab_class evtab_event_class(const struct evtab_event *e);

/* A core's fields. c must be a handle from this module, never NULL. */
const char *evtab_core_name(const struct evtab_core *c);	/* id: "cortex-a57", "neoverse-n1" */
const char *evtab_core_title(const struct evtab_core *c);	/* as Arm names it: "Cortex-A57" */
const char *evtab_core_arch(const struct evtab_core *c);	/* "armv8-a", "armv8.2-a", ... */
unsigned evtab_core_implementer(const struct evtab_core *c);	/* MIDR_EL1.Implementer: 0x41 */
unsigned evtab_core_part(const struct evtab_core *c);		/* MIDR_EL1.PartNum */
int evtab_core_counters(const struct evtab_core *c);	/* PMCR.N per Arm's data; -1 unknown */
int evtab_core_slots(const struct evtab_core *c);	/* PMMIR.SLOTS per Arm's data; 0 unknown */

/* Cores, in a stable order (by name). */
size_t evtab_ncores(void);
const struct evtab_core *evtab_core_at(size_t i);
/* By canonical id or title, case-insensitive, with or without the "cortex-"/"neoverse-"
 * prefix spelled with '-', '_' or ' ' ("cortex-a57", "Cortex-A57", "a57", "neoverse_n1",
 * "n1"), optionally with a revision ("neoverse-n2:r0p3"). NULL when unknown, or when the
 * revision after ':' is not rXpY with X and Y from 0 to 15. */
const struct evtab_core *evtab_core_by_name(const char *name);
/* The revision a --cpu-model name gives after ':' ("neoverse-n2:r1p2" -> 0x12: MIDR_EL1's
 * variant << 4 | revision); -1 when it gives none, -2 when it is not rXpY (X, Y 0 to 15). */
int evtab_model_revision(const char *model);
/* By MIDR_EL1 (implementer and part number; variant and revision ignored). NULL if unknown. */
const struct evtab_core *evtab_core_by_midr(uint64_t midr);

/* A row of events/aliases.tsv: a vendor's MIDR of an Arm core. use is "midr" (that MIDR
 * names the core: evtab_core_by_midr finds it), "same" (the vendor's part reports the core's
 * own MIDR) or "metrics" (the core at that MIDR takes this core's metrics). */
struct evtab_alias {
	unsigned implementer, part, rev_lo, rev_hi;	/* revisions: variant << 4 | revision */
	const struct evtab_core *core;
	const char *use, *name, *source;
};
size_t evtab_nalias(void);
/* Row i into *a; 0, or -1 past the last. */
int evtab_alias_at(size_t i, struct evtab_alias *a);

/* The events of a core: the common events it implements plus its own, sorted by name.
 * core == NULL means the common architectural/microarchitectural events of PMUv3. */
size_t evtab_nevents(const struct evtab_core *core);
const struct evtab_event *evtab_event_at(const struct evtab_core *core, size_t i);
/* Lookup by name (case-insensitive: a hash) and by code (O(log n)). NULL when absent. */
const struct evtab_event *evtab_find_name(const struct evtab_core *core, const char *name);
const struct evtab_event *evtab_find_code(const struct evtab_core *core, unsigned code);

#endif
