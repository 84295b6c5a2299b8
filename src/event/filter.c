/* SPDX-License-Identifier: Apache-2.0 */
/* filter.c: PMEVTYPER filter semantics <-> perf exclude_* flags, both directions: filter-bit
 * terms, where a counter counts (the Arm ARM's CountPMUEvents), what armv8pmu_set_event_filter
 * programs, and which requests Linux cannot honour. Pure. */
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "evspec.h"
#include "filter.h"

static const struct {
	const char *name;	/* Arm ARM spelling; the term is its lower case */
	unsigned bit;
	int pos;		/* PMEVTYPER<n>_EL0 bit */
} bits[FILTER_NBITS] = {
	{ "P", FILTER_P, 31 },   { "U", FILTER_U, 30 },   { "NSK", FILTER_NSK, 29 },
	{ "NSU", FILTER_NSU, 28 }, { "NSH", FILTER_NSH, 27 }, { "M", FILTER_M, 26 },
	{ "SH", FILTER_SH, 24 },
};

static const struct {
	const char *key, *title;
} levels[FILTER_NLEVELS] = {
	[FILTER_NS_EL0] = { "ns_el0", "Non-secure EL0" },
	[FILTER_NS_EL1] = { "ns_el1", "Non-secure EL1" },
	[FILTER_NS_EL2] = { "ns_el2", "Non-secure EL2" },
	[FILTER_S_EL0] = { "s_el0", "Secure EL0" },
	[FILTER_S_EL1] = { "s_el1", "Secure EL1" },
	[FILTER_S_EL2] = { "s_el2", "Secure EL2" },
	[FILTER_EL3] = { "el3", "EL3" },
};

const struct filter_impl filter_impl_full = { .el3 = 1, .sel2 = 1 };

pp_status filter_term(const char *key, const char *value, struct filter_req *fr)
{
	for (int k = 0; k < FILTER_NBITS; k++) {
		if (ascii_strcasecmp(key, bits[k].name) != 0)
			continue;
		if (value && strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
			return PP_EINVAL;
		fr->given |= bits[k].bit;
		if (!value || value[0] == '1')
			fr->value |= bits[k].bit;
		else
			fr->value &= ~bits[k].bit;
		return PP_OK;
	}
	return PP_ENOENT;
}

const char *filter_bit_name(unsigned bit)
{
	for (int k = 0; k < FILTER_NBITS; k++)
		if (bits[k].bit == bit)
			return bits[k].name;
	return "?";
}

int filter_bit_pos(unsigned bit)
{
	for (int k = 0; k < FILTER_NBITS; k++)
		if (bits[k].bit == bit)
			return bits[k].pos;
	return -1;
}

const char *filter_bits_str(unsigned b, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 0; k < FILTER_NBITS && n < len; k++)
		if (b & bits[k].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", bits[k].name);
	if (!b)
		snprintf(buf, len, "none");
	return buf;
}

const char *filter_level_key(enum filter_level l)
{
	return (unsigned)l < FILTER_NLEVELS ? levels[l].key : "?";
}

const char *filter_level_title(enum filter_level l)
{
	return (unsigned)l < FILTER_NLEVELS ? levels[l].title : "?";
}

unsigned filter_effective(unsigned b, const struct filter_impl *impl)
{
	b &= FILTER_ALL;
	/* NSK, NSU and M are RES0 without EL3; SH is RES0 without Secure EL2 */
	if (!impl->el3)
		b &= ~(unsigned)(FILTER_NSK | FILTER_NSU | FILTER_M | FILTER_SH);
	if (!impl->el3 || !impl->sel2)
		b &= ~(unsigned)FILTER_SH;
	return b;
}

unsigned filter_levels_present(const struct filter_impl *impl)
{
	unsigned m = FILTER_NS_LEVELS;

	if (impl->el3)
		m |= 1u << FILTER_S_EL0 | 1u << FILTER_S_EL1 | 1u << FILTER_EL3;
	if (impl->el3 && impl->sel2)
		m |= 1u << FILTER_S_EL2;
	return m;
}

#define B(x) (!!(b & (x)))

unsigned filter_where(unsigned bits_in, const struct filter_impl *impl)
{
	unsigned b = filter_effective(bits_in, impl), m = 0;

	/* CountPMUEvents: each row is "counts unless filtered" */
	if (B(FILTER_U) == B(FILTER_NSU))
		m |= 1u << FILTER_NS_EL0;
	if (B(FILTER_P) == B(FILTER_NSK))
		m |= 1u << FILTER_NS_EL1;
	if (B(FILTER_NSH))
		m |= 1u << FILTER_NS_EL2;
	if (!B(FILTER_U))
		m |= 1u << FILTER_S_EL0;
	if (!B(FILTER_P))
		m |= 1u << FILTER_S_EL1;
	if (B(FILTER_SH) != B(FILTER_NSH))
		m |= 1u << FILTER_S_EL2;
	if (B(FILTER_M) == B(FILTER_P))
		m |= 1u << FILTER_EL3;
	return m & filter_levels_present(impl);
}

#undef B

unsigned filter_from_excl(const struct filter_excl *x, int kernel_el)
{
	unsigned b = 0;

	if (x->user)
		b |= FILTER_U;
	if (x->kernel)
		b |= FILTER_P;
	/* armv8pmu_set_event_filter: with VHE (is_kernel_in_hyp_mode) the kernel is the
	 * hypervisor, so exclude_hv is ignored and EL2 follows exclude_kernel */
	if (kernel_el == 2 ? !x->kernel && !x->host : !x->hv && !x->host)
		b |= FILTER_NSH;
	return b;
}

void filter_excl_from_attr(const struct pp_attr *a, struct filter_excl *x)
{
	memset(x, 0, sizeof(*x));
	x->user = a->exclude_user;
	x->kernel = a->exclude_kernel;
	x->hv = a->exclude_hv;
	x->host = a->exclude_host;
	x->guest = a->exclude_guest;
}

void filter_excl_from_mods(unsigned mods, struct filter_excl *x)
{
	memset(x, 0, sizeof(*x));
	if (mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H)) {
		x->user = !(mods & EVSPEC_MOD_U);
		x->kernel = !(mods & EVSPEC_MOD_K);
		x->hv = !(mods & EVSPEC_MOD_H);
	}
	/* perf: the first of G/H excludes both, each letter then re-includes its side */
	x->guest = (mods & EVSPEC_MOD_HOST) && !(mods & EVSPEC_MOD_GUEST);
	x->host = (mods & EVSPEC_MOD_GUEST) && !(mods & EVSPEC_MOD_HOST);
}

void filter_plan_bits(const struct filter_req *fr, int kernel_el, const struct filter_excl *hg,
		      struct filter_plan *p)
{
	unsigned ns;

	memset(p, 0, sizeof(*p));
	p->kernel_el = kernel_el;
	p->req_bits = fr->given & fr->value & FILTER_ALL;
	p->where_req = filter_where(p->req_bits, &filter_impl_full);
	ns = p->where_req & FILTER_NS_LEVELS;
	if (hg) {
		p->excl.host = hg->host;
		p->excl.guest = hg->guest;
	}
	/* the Non-secure half is all exclude flags can express */
	p->excl.user = !(ns & 1u << FILTER_NS_EL0);
	p->excl.kernel = !(ns & 1u << FILTER_NS_EL1);
	p->excl.hv = !(ns & 1u << FILTER_NS_EL2);
	if (kernel_el == 2)	/* ignored by the driver; shown equal to exclude_kernel */
		p->excl.hv = p->excl.kernel;
	p->drv_bits = filter_from_excl(&p->excl, kernel_el);
	p->where_drv = filter_where(p->drv_bits, &filter_impl_full);
	p->differ = p->where_req ^ p->where_drv;
	if (p->differ & FILTER_NS_LEVELS)
		p->verdict = FILTER_VHE_SPLIT;
	else if (p->differ)
		p->verdict = FILTER_SECURE;
	else
		p->verdict = FILTER_OK;
}

/* "Secure EL1, Secure EL2 and EL3" */
static void list_levels(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;
	int total = __builtin_popcount(mask), k = 0;

	buf[0] = '\0';
	for (int l = 0; l < FILTER_NLEVELS && n < len; l++) {
		if (!(mask & 1u << l))
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      k == 1 ? "" : k == total ? " and " : ", ", levels[l].title);
	}
}

const char *filter_refusal(const struct filter_plan *p, char *buf, size_t len)
{
	char lv[160], b[40];

	buf[0] = '\0';
	if (p->verdict == FILTER_OK)
		return buf;
	if (p->verdict == FILTER_VHE_SPLIT) {
		int el1 = !!(p->where_req & 1u << FILTER_NS_EL1);

		snprintf(buf, len,
			 "this asks for Non-secure EL%d but not Non-secure EL%d; with the kernel at "
			 "EL2 (VHE) the driver counts EL2 exactly when it counts the kernel (NSH "
			 "follows exclude_kernel and exclude_host, exclude_hv is ignored), so the two "
			 "cannot be split", el1 ? 1 : 2, el1 ? 2 : 1);
		return buf;
	}
	list_levels(p->differ, lv, sizeof(lv));
	snprintf(buf, len,
		 "%s would have %s counted differently from what the driver programs; Linux runs "
		 "Non-secure and never sets NSK, NSU, M or SH, and counting in Secure state and at "
		 "EL3 is the firmware's to allow (MDCR_EL3.SPME/MPMX), which perf never asks for",
		 filter_bits_str(p->req_bits & (FILTER_NSK | FILTER_NSU | FILTER_M | FILTER_SH),
				 b, sizeof(b)), lv);
	return buf;
}

const char *filter_remedy(const struct filter_plan *p)
{
	switch (p->verdict) {
	case FILTER_SECURE:
		return "drop the NSK, NSU, M and SH terms, or pass --allow-secure to count what "
		       "Linux can, the Non-secure levels, with the event marked";
	case FILTER_VHE_SPLIT:
		return "count Non-secure EL1 and EL2 together with p=0,nsh=1 or neither with "
		       "p=1,nsh=0, or give --kernel-el 1 if the kernel does not run at EL2";
	default:
		return "";
	}
}

const char *filter_apply_why(pp_status st, const struct filter_plan *p, char *buf, size_t len)
{
	char why[512];

	if (st == PP_EINVAL)
		snprintf(buf, len, "its filter-bit terms and its :u, :k or :h modifier both say "
			 "where to count (give one or the other: p=1 alone counts what :u does)");
	else
		snprintf(buf, len, "%s (%s)", filter_refusal(p, why, sizeof(why)),
			 filter_remedy(p));
	return buf;
}

pp_status filter_apply(const struct filter_req *fr, unsigned mods, int kernel_el,
		       unsigned flags, struct pp_attr *attr, struct filter_plan *plan)
{
	struct filter_excl hg, cur;
	struct filter_req none = { 0, 0 };

	filter_excl_from_attr(attr, &hg);
	if (!fr->given) {
		/* modifiers only: plan the request the attr already holds */
		filter_excl_from_attr(attr, &cur);
		none.given = FILTER_ALL;
		none.value = filter_from_excl(&cur, kernel_el);
		filter_plan_bits(&none, kernel_el, &hg, plan);
		return PP_OK;
	}
	filter_plan_bits(fr, kernel_el, &hg, plan);
	if (mods & (EVSPEC_MOD_U | EVSPEC_MOD_K | EVSPEC_MOD_H))
		return PP_EINVAL;
	if (plan->verdict == FILTER_VHE_SPLIT ||
	    (plan->verdict == FILTER_SECURE && !(flags & FILTER_ALLOW_SECURE)))
		return PP_ENOTSUP;
	attr->exclude_user = plan->excl.user;
	attr->exclude_kernel = plan->excl.kernel;
	attr->exclude_hv = plan->excl.hv;
	return PP_OK;
}
