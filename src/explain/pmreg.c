/* SPDX-License-Identifier: Apache-2.0 */
/* pmreg.c: PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 values field by field, the counter kind an event
 * needs, and the register writes the kernel's arm_pmuv3 driver performs for a set. Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "pmreg.h"

#define TH_SHIFT 32		/* PMEVTYPER.TH, bits 43:32 */
#define TH_MASK 0xfffull
#define TC_SHIFT 61		/* PMEVTYPER.TC, bits 63:61 */
#define TC_MASK 0x7ull

int pmreg_pmuver_for_arch(const char *arch)
{
	/* PMUv3p1 came with Armv8.1, p4 with 8.4, p5 with 8.5, p7 with 8.7, p8 (TH) with 8.8;
	 * Armv9.0 is Armv8.5 plus, 9.2 is 8.7 plus, 9.3 is 8.8 plus */
	static const struct {
		const char *arch;
		int ver;
	} map[] = {
		{ "armv8-a", 0 },   { "armv8.1-a", 1 }, { "armv8.2-a", 1 }, { "armv8.3-a", 1 },
		{ "armv8.4-a", 4 }, { "armv8.4-r", 4 }, { "armv8.5-a", 5 }, { "armv8.6-a", 5 },
		{ "armv8.7-a", 7 }, { "armv8.8-a", 8 }, { "armv8.9-a", 8 }, { "armv9-a", 5 },
		{ "armv9.1-a", 5 }, { "armv9.2-a", 7 }, { "armv9.3-a", 8 }, { "armv9.4-a", 8 },
	};

	for (size_t k = 0; arch && k < sizeof(map) / sizeof(map[0]); k++)
		if (strcmp(arch, map[k].arch) == 0)
			return map[k].ver;
	return -1;
}

int pmreg_direct_for_release(const char *release)
{
	int major, minor;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
		return 1;
	return major > 5 || (major == 5 && minor >= 11);
}

const char *pmreg_kind_str(enum pmreg_kind k)
{
	switch (k) {
	case PMREG_CYCLE:
		return "cycle counter";
	case PMREG_CHAINED:
		return "chained pair";
	default:
		return "event counter";
	}
}

enum pmreg_kind pmreg_kind_of(const struct pmreg_event *e, const struct pmreg_pmu *p)
{
	/* armv8pmu_get_event_idx: cycles go to PMCCNTR unless thresholded (PMCCFILTR has no
	 * TH/TC); a long event chains two 32-bit counters unless PMUv3p5 made them 64-bit */
	if (e->evt == PMREG_CPU_CYCLES && !e->th)
		return PMREG_CYCLE;
	if (e->is_long && p->pmuver < 5)
		return PMREG_CHAINED;
	return PMREG_ANY;
}

static uint64_t filter_reg_bits(unsigned bits)
{
	uint64_t v = 0;

	for (unsigned b = 1; b <= FILTER_SH; b <<= 1)
		if (bits & b)
			v |= 1ull << filter_bit_pos(b);
	return v;
}

uint64_t pmreg_value(const struct pmreg_event *e, int cycle)
{
	uint64_t v = filter_reg_bits(e->filter);

	if (!cycle)
		v |= e->evt;
	/* set_event_filter installs TH and TC only for a non-zero threshold */
	if (e->th && !cycle)
		v |= ((uint64_t)e->th & TH_MASK) << TH_SHIFT | ((uint64_t)e->tc & TC_MASK) << TC_SHIFT;
	return v;
}

unsigned pmreg_filter_bits(uint64_t reg)
{
	unsigned bits = 0;

	for (unsigned b = 1; b <= FILTER_SH; b <<= 1)
		if (reg >> filter_bit_pos(b) & 1)
			bits |= b;
	return bits;
}

static size_t add_field(struct pmreg_field *out, size_t n, size_t max, const char *name,
			int hi, int lo, uint64_t reg)
{
	if (n < max) {
		out[n].name = name;
		out[n].hi = hi;
		out[n].lo = lo;
		out[n].value = reg >> lo & ((2ull << (hi - lo)) - 1);
	}
	return n + 1;
}

size_t pmreg_decode(uint64_t reg, int cycle, int pmuver, int with_th, struct pmreg_field *out,
		    size_t max)
{
	size_t n = 0;

	if (!cycle)	/* evtCount is 9:0 before PMUv3p1, bits 15:10 RES0 */
		n = add_field(out, n, max, "evtCount", pmuver >= 1 ? 15 : 9, 0, reg);
	for (unsigned b = 1; b <= FILTER_SH; b <<= 1) {
		int pos = filter_bit_pos(b);

		n = add_field(out, n, max, filter_bit_name(b), pos, pos, reg);
		if (b == FILTER_M)	/* MT (FEAT_MTPMU): the kernel never sets it */
			n = add_field(out, n, max, "MT", 25, 25, reg);
	}
	if (with_th && !cycle) {
		n = add_field(out, n, max, "TH", 43, 32, reg);
		n = add_field(out, n, max, "TC", 63, 61, reg);
	}
	return n < max ? n : max;
}
