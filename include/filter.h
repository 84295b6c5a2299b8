/* SPDX-License-Identifier: Apache-2.0 */
/* filter.h: the PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 filter bits (P, U, NSK, NSU, NSH, M, SH) and
 * their translation to and from perf_event_attr's exclude_* flags. Pure: no kernel access.
 *
 * The model (../shared/notes/arm-pmu-linux.md, the Arm ARM's CountPMUEvents):
 *   Non-secure EL0 filtered when U != NSU      Secure EL0 filtered when U == 1
 *   Non-secure EL1 filtered when P != NSK      Secure EL1 filtered when P == 1
 *   Non-secure EL2 filtered when NSH == 0      Secure EL2 filtered when SH == NSH
 *   EL3            filtered when M != P
 * A PE without EL3 has one Security state (Linux's: Non-secure): the Secure levels and EL3 do
 * not exist and NSK, NSU, M and SH are RES0, so they are read as 0 (Non-secure EL1 follows P
 * alone, EL0 U alone). A PE with EL3 but no Secure EL2 has no Secure EL2 and SH is RES0. */
#ifndef PMUPROF_FILTER_H
#define PMUPROF_FILTER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "ppattr.h"
#include "status.h"

/* One bit each, in PMEVTYPER bit order from the top: P (31) U (30) NSK (29) NSU (28) NSH (27)
 * M (26) SH (24). */
enum filter_bit {
	FILTER_P = 1 << 0,
	FILTER_U = 1 << 1,
	FILTER_NSK = 1 << 2,
	FILTER_NSU = 1 << 3,
	FILTER_NSH = 1 << 4,
	FILTER_M = 1 << 5,
	FILTER_SH = 1 << 6,
};
#define FILTER_NBITS 7
#define FILTER_ALL 0x7fu

/* Filter bits written as event terms (inst_retired/p=1,nsh=1/): which were given, and their
 * values. given == 0 means the event uses perf's modifiers only. */
struct filter_req {
	unsigned given;		/* enum filter_bit mask */
	unsigned value;		/* enum filter_bit mask, meaningful where given */
};

/* Takes one term if it is a filter bit (p, u, nsk, nsu, nsh, m, sh; any case; value 0 or 1;
 * a bare key means 1). PP_ENOENT when key is not a filter bit (the caller tries other
 * meanings), PP_EINVAL when the value is not 0 or 1. */
pp_status filter_term(const char *key, const char *value, struct filter_req *fr);

/* Name of a bit as the Arm ARM spells it ("P", "NSK"); bit is one enum filter_bit. */
const char *filter_bit_name(unsigned bit);
/* PMEVTYPER bit position of one enum filter_bit (31 for P ... 24 for SH). */
int filter_bit_pos(unsigned bit);
/* The bits as "P,NSH" (canonical order), "none" when zero; buf holds at least 32 bytes. */
const char *filter_bits_str(unsigned bits, char *buf, size_t len);

/* The exception levels and Security states a counter can count in. */
enum filter_level {
	FILTER_NS_EL0, FILTER_NS_EL1, FILTER_NS_EL2,
	FILTER_S_EL0, FILTER_S_EL1, FILTER_S_EL2,
	FILTER_EL3,
	FILTER_NLEVELS
};
#define FILTER_NS_LEVELS (1u << FILTER_NS_EL0 | 1u << FILTER_NS_EL1 | 1u << FILTER_NS_EL2)

/* "ns_el0", ... (JSON keys) and "Non-secure EL0", ... (text). */
const char *filter_level_key(enum filter_level l);
const char *filter_level_title(enum filter_level l);

/* Which optional levels the PE implements. filter_impl_full is the architecture's whole table
 * (EL3 and Secure EL2 present), the model pmuprof explains with. */
struct filter_impl {
	int el3;		/* EL3 implemented (and so Secure state) */
	int sel2;		/* Secure EL2 implemented (needs el3) */
};
extern const struct filter_impl filter_impl_full;

/* The bits as the PE reads them: RES0 bits of an absent level cleared. */
unsigned filter_effective(unsigned bits, const struct filter_impl *impl);
/* Levels the PE implements, as a mask of 1 << enum filter_level. */
unsigned filter_levels_present(const struct filter_impl *impl);
/* Where a counter with these bits counts, as a mask of 1 << enum filter_level (absent levels
 * never count). This is the filter alone: counting in Secure state and at EL3 is further
 * prohibited unless EL3 firmware allows it (MDCR_EL3.SPME/MPMX). */
unsigned filter_where(unsigned bits, const struct filter_impl *impl);

/* perf_event_attr's exclude_* flags, the part the filter decides. */
struct filter_excl {
	unsigned user : 1, kernel : 1, hv : 1, host : 1, guest : 1;
};

/* The reverse: the bits armv8pmu_set_event_filter programs for these flags with the kernel at
 * kernel_el (1, or 2 with VHE). exclude_user sets U, exclude_kernel sets P; NSH is set at EL1
 * when !exclude_hv && !exclude_host, at EL2 when !exclude_kernel && !exclude_host (exclude_hv
 * is ignored: the kernel is the hypervisor). NSK, NSU, M and SH are never set. */
unsigned filter_from_excl(const struct filter_excl *x, int kernel_el);
void filter_excl_from_attr(const struct pp_attr *a, struct filter_excl *x);

/* What a request of filter bits becomes under Linux. */
enum filter_verdict {
	FILTER_OK = 0,		/* the driver programs exactly what was asked */
	FILTER_SECURE,		/* differs only in Secure state / EL3: refused unless allowed */
	FILTER_VHE_SPLIT,	/* kernel at EL2: EL1 and EL2 cannot be split by exclude flags */
};

struct filter_plan {
	struct filter_excl excl;	/* the exclude flags that come closest */
	/* a byte each: 7 bits for the 7 levels */
	uint8_t req_bits;	/* the bits asked for (not given = 0) */
	uint8_t drv_bits;	/* the bits the driver will program */
	uint8_t where_req;	/* filter_where(req_bits), full model: 1 << enum filter_level */
	uint8_t where_drv;	/* filter_where(drv_bits), full model */
	uint8_t differ;		/* where_req ^ where_drv */
	int8_t kernel_el;
	uint8_t verdict;	/* enum filter_verdict */
};
_Static_assert(FILTER_NLEVELS <= 8 && FILTER_ALL <= 0xff, "a plan's masks are a byte each");

/* From filter bits to perf's flags, pure. host/guest in *hg (exclude_host/exclude_guest from
 * the H and G modifiers; may be NULL) take part because at EL2 exclude_host clears NSH. */
void filter_plan_bits(const struct filter_req *fr, int kernel_el, const struct filter_excl *hg,
		      struct filter_plan *out);

/* Why a plan is refused, for the message: "Secure EL1 and EL3 would be counted differently
 * (...)". Empty for FILTER_OK. */
const char *filter_refusal(const struct filter_plan *p, char *buf, size_t len);
/* How to proceed, for the message's second part. */
const char *filter_remedy(const struct filter_plan *p);

/* The message part for a filter_apply failure (PP_EINVAL or PP_ENOTSUP): why, then the way
 * out in parentheses, for "cannot ... event 'X': " to lead. */
const char *filter_apply_why(pp_status st, const struct filter_plan *p, char *buf, size_t len);

/* Flags for filter_apply. */
#define FILTER_ALLOW_SECURE 1u	/* count what Linux can of a FILTER_SECURE request */

/* Applies a request to attr (exclude_user/kernel/hv; host/guest as already set by modifiers).
 * mods (enum evspec_mod) must hold no u/k/h letter when bits were given: PP_EINVAL then.
 * PP_ENOTSUP for a refused verdict (FILTER_SECURE without FILTER_ALLOW_SECURE, or
 * FILTER_VHE_SPLIT); attr is then unchanged. *plan is filled in every case. A request with
 * no bits given leaves attr alone and plans what the modifiers asked for. */
pp_status filter_apply(const struct filter_req *fr, unsigned mods, int kernel_el,
		       unsigned flags, struct pp_attr *attr, struct filter_plan *plan);

/* perf's modifier letters (enum evspec_mod) -> exclude flags, as tools/perf parse-events
 * does: any of u/k/h counts only the levels named; H excludes the guest, G the host (both
 * or neither: no exclusion). */
void filter_excl_from_mods(unsigned mods, struct filter_excl *x);

/* Where the kernel runs, and how pmuprof knows. */
struct filter_kernel_el {
	int el;			/* 1, or 2 (VHE) */
	const char *why;	/* "--kernel-el", "kernel command line: kvm-arm.mode=nvhe", ... */
};

/* Decides the kernel's EL from what the machine shows (through the sysfs module's root):
 * the kernel command line forcing nVHE, a core without VHE (Armv8.0, by MIDR or cpu_model),
 * /sys/class/misc/kvm (KVM up means the kernel started at EL2, so an Armv8.1+ core runs it
 * in VHE). override 1 or 2 wins; 0 means detect. cpu_model may be NULL; one that names a core
 * none of the machine's CPUs is gives EL1, assumed (EL1 for certain on an Armv8.0 core): this
 * machine's kernel says nothing of that one's. */
void filter_kernel_el_detect(int override, const char *cpu_model, struct filter_kernel_el *out);

#endif
