/* SPDX-License-Identifier: Apache-2.0 */
/* pmreg_seq.c: the counter each event of a set lands on and the register writes the kernel's
 * arm_pmuv3 driver performs to start them (armv8pmu_get_event_idx, armv8pmu_enable_event,
 * armv8pmu_start). Pure and deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "pmreg.h"

#define PMCR_E (1u << 0)	/* enable */
#define PMCR_P (1u << 1)	/* reset event counters */
#define PMCR_C (1u << 2)	/* reset cycle counter */
#define PMCR_LC (1u << 6)	/* cycle counter overflows at 64 bits */
#define PMCR_LP (1u << 7)	/* event counters overflow at 64 bits (PMUv3p5) */

struct builder {
	struct pmreg_seq *s;
	size_t cap;
	pp_status st;
};

static void emit(struct builder *b, int event, uint64_t value, const char *what,
		 const char *fmt, int n)
{
	struct pmreg_write *w;

	if (b->st != PP_OK)
		return;
	if (b->s->nwrites == b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 16;

		if (!(w = realloc(b->s->writes, ncap * sizeof(*w)))) {
			b->st = PP_ENOMEM;
			return;
		}
		b->s->writes = w;
		b->cap = ncap;
	}
	w = &b->s->writes[b->s->nwrites++];
	snprintf(w->reg, sizeof(w->reg), fmt, n);
	w->value = value;
	w->event = event;
	w->what = what;
}

/* armv8pmu_get_single_idx / armv8pmu_get_chain_idx over a used mask (bit 31 = PMCCNTR) */
static int place(const struct pmreg_event *e, const struct pmreg_pmu *p, uint32_t *used,
		 struct pmreg_slot *slot)
{
	slot->counter = slot->low = -1;
	if (pmreg_kind_of(e, p) == PMREG_CYCLE && !(*used & 1u << PMREG_CYCLE_COUNTER)) {
		*used |= 1u << PMREG_CYCLE_COUNTER;
		slot->counter = PMREG_CYCLE_COUNTER;
		return 1;
	}
	if (e->is_long && p->pmuver < 5) {
		/* the odd counter is the event's index; the even one below holds the event */
		for (int c = 1; c < p->counters && c < PMREG_CYCLE_COUNTER; c += 2)
			if (!(*used & (3u << (c - 1)))) {
				*used |= 3u << (c - 1);
				slot->counter = c;
				slot->low = c - 1;
				return 1;
			}
		return 0;
	}
	for (int c = 0; c < p->counters && c < PMREG_CYCLE_COUNTER; c++)
		if (!(*used & 1u << c)) {
			*used |= 1u << c;
			slot->counter = c;
			return 1;
		}
	return 0;
}

/* armv8pmu_write_evtype: PMEVTYPER<n>_EL0 since 5.11, PMSELR_EL0 + PMXEVTYPER_EL0 before */
static void write_type(struct builder *b, const struct pmreg_pmu *p, int event, int counter,
		       uint64_t value, const char *what)
{
	if (!p->direct) {
		emit(b, event, (uint64_t)counter, "select counter", "PMSELR_EL0", 0);
		emit(b, event, value, what, "PMXEVTYPER_EL0", 0);
	} else if (counter == PMREG_CYCLE_COUNTER) {
		emit(b, event, value, what, "PMCCFILTR_EL0", 0);
	} else {
		emit(b, event, value, what, "PMEVTYPER%d_EL0", counter);
	}
}

static void enable_event(struct builder *b, const struct pmreg_pmu *p,
			 const struct pmreg_event *e, int i, const struct pmreg_slot *sl)
{
	uint32_t mask = 1u << sl->counter;
	int cycle = sl->counter == PMREG_CYCLE_COUNTER;

	if (sl->low >= 0)
		mask |= 1u << sl->low;
	emit(b, i, mask, "disable while configuring", "PMCNTENCLR_EL0", 0);
	if (sl->low >= 0) {
		/* chained: the even counter counts the event, the odd one CHAIN at every EL */
		struct pmreg_event chain = { .evt = PMREG_CHAIN, .filter = FILTER_NSH };

		write_type(b, p, i, sl->low, pmreg_value(e, 0), "event type (low half)");
		write_type(b, p, i, sl->counter, pmreg_value(&chain, 0), "CHAIN (high half)");
	} else {
		write_type(b, p, i, sl->counter, pmreg_value(e, cycle),
			   cycle ? "cycle counter filter" : "event type");
	}
	emit(b, i, 1u << sl->counter, "overflow interrupt", "PMINTENSET_EL1", 0);
	emit(b, i, mask, "enable counter", "PMCNTENSET_EL0", 0);
	b->s->cntenset |= mask;
}

pp_status pmreg_program(const struct pmreg_event *ev, size_t n, const struct pmreg_pmu *p,
			struct pmreg_seq *out)
{
	struct builder b = { .s = out, .cap = 0, .st = PP_OK };
	uint32_t used = 0, pmcr = PMCR_P | PMCR_C | PMCR_LC;

	memset(out, 0, sizeof(*out));
	if (n && !(out->slots = calloc(n, sizeof(*out->slots))))
		return PP_ENOMEM;
	/* armv8pmu_reset at probe and CPU online */
	if (p->pmuver >= 5)
		pmcr |= PMCR_LP;
	emit(&b, -1, pmcr, "reset at probe: P, C, LC (and LP with PMUv3p5)", "PMCR_EL0", 0);
	for (size_t i = 0; i < n; i++) {
		if (!place(&ev[i], p, &used, &out->slots[i])) {
			out->unplaced++;
			continue;
		}
		enable_event(&b, p, &ev[i], (int)i, &out->slots[i]);
	}
	emit(&b, -1, PMCR_E, "armv8pmu_start: set E, all enabled counters count", "PMCR_EL0", 0);
	if (b.st != PP_OK)
		pmreg_seq_free(out);
	return b.st;
}

void pmreg_seq_free(struct pmreg_seq *s)
{
	free(s->slots);
	free(s->writes);
	memset(s, 0, sizeof(*s));
}
