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

struct evtab_event {
	const char *name;	/* upper case as Arm spells it, e.g. "INST_RETIRED" */
	const char *desc;	/* short, in pmuprof's own words */
	uint16_t code;		/* evtCount, e.g. 0x0008 */
	uint8_t cls;		/* enum evtab_class */
};

struct evtab_core {
	const char *name;	/* canonical id, lower case: "cortex-a57", "neoverse-n1" */
	const char *title;	/* as Arm names it: "Cortex-A57", "Neoverse N1" */
	const char *arch;	/* "armv8-a", "armv8.2-a", "armv9.2-a", ... */
	uint8_t implementer;	/* MIDR_EL1.Implementer, 0x41 for Arm */
	uint16_t part;		/* MIDR_EL1.PartNum */
	int counters;		/* general event counters (PMCR.N) per Arm's data; -1 unknown */
	int slots;		/* PMMIR.SLOTS per Arm's data; 0 unknown */
};

/* Cores, in a stable order (by name). */
size_t evtab_ncores(void);
const struct evtab_core *evtab_core_at(size_t i);
/* By canonical id or title, case-insensitive, with or without the "cortex-"/"neoverse-"
 * prefix spelled with '-', '_' or ' ' ("cortex-a57", "Cortex-A57", "a57", "neoverse_n1",
 * "n1"). NULL when unknown. */
const struct evtab_core *evtab_core_by_name(const char *name);
/* By MIDR_EL1 (implementer and part number; variant and revision ignored). NULL if unknown. */
const struct evtab_core *evtab_core_by_midr(uint64_t midr);

/* The events of a core: the common events it implements plus its own, sorted by name.
 * core == NULL means the common architectural/microarchitectural events of PMUv3. */
size_t evtab_nevents(const struct evtab_core *core);
const struct evtab_event *evtab_event_at(const struct evtab_core *core, size_t i);
/* Lookup by name (case-insensitive) and by code, O(log n). NULL when absent. */
const struct evtab_event *evtab_find_name(const struct evtab_core *core, const char *name);
const struct evtab_event *evtab_find_code(const struct evtab_core *core, unsigned code);

#endif
