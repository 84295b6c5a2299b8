/* SPDX-License-Identifier: Apache-2.0 */
/* pmreg_th.c: FEAT_PMUv3_TH threshold terms (threshold, threshold_compare, threshold_count)
 * placed into config through the PMU's sysfs format/ and validated against caps/threshold_max;
 * never hard-coded bits: a kernel that lacks the format terms offers no threshold counting. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "pmreg.h"

/* PMEVTYPER.TC[2:1] as the kernel's threshold_compare encodes it (Documentation/arch/arm64/
 * perf.rst): 0 not-equal, 1 equal, 2 greater-or-equal, 3 less-than */
static const char *const compares[] = { "ne", "eq", "ge", "lt" };

static const char *const th_terms[] = { "threshold", "threshold_compare", "threshold_count" };

const char *pmreg_th_compare_str(unsigned compare)
{
	return compare < 4 ? compares[compare] : "?";
}

static pp_status parse_num(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return PP_EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return *end || errno ? PP_EINVAL : PP_OK;
}

pp_status pmreg_th_term(const char *key, const char *value, struct pmreg_th_req *r)
{
	uint64_t v;

	if (ascii_strcasecmp(key, "threshold") == 0) {
		if (parse_num(value, &v) != PP_OK)
			return PP_EINVAL;
		r->threshold = v;
		r->given |= PMREG_TH_VALUE;
		return PP_OK;
	}
	if (ascii_strcasecmp(key, "threshold_compare") == 0) {
		for (unsigned k = 0; value && k < 4; k++)
			if (ascii_strcasecmp(value, compares[k]) == 0) {
				r->compare = k;
				r->given |= PMREG_TH_COMPARE;
				return PP_OK;
			}
		if (parse_num(value, &v) != PP_OK || v > 3)
			return PP_EINVAL;
		r->compare = (unsigned)v;
		r->given |= PMREG_TH_COMPARE;
		return PP_OK;
	}
	if (ascii_strcasecmp(key, "threshold_count") == 0) {
		if (value && strcmp(value, "0") != 0 && strcmp(value, "1") != 0)
			return PP_EINVAL;
		r->count = !value || value[0] == '1';
		r->given |= PMREG_TH_COUNT;
		return PP_OK;
	}
	return PP_ENOENT;
}

/* The term's bits of cfg[field] gathered low to high. */
static uint64_t format_get(const struct sysfs_format *f, const uint64_t cfg[4])
{
	uint64_t v = 0, src = cfg[f->field];
	int out = 0, low = f->mask ? __builtin_ctzll(f->mask) : 0;

	if (!((f->mask >> low) & ((f->mask >> low) + 1)))	/* one run of bits: a shift */
		return (src & f->mask) >> low;
	for (int bit = 0; bit < 64; bit++)
		if (f->mask >> bit & 1)
			v |= (src >> bit & 1) << out++;
	return v;
}

uint64_t pmreg_format_value(const struct sysfs_format *f, const uint64_t cfg[4])
{
	return f && f->field >= 0 && f->field < 4 ? format_get(f, cfg) : 0;
}

uint64_t pmreg_format_get(const struct sysfs_pmu *pmu, const char *term, const uint64_t cfg[4])
{
	return pmreg_format_value(sysfs_format_find(pmu, term), cfg);
}

void pmreg_th_extract(const struct sysfs_pmu *pmu, const uint64_t cfg[4], uint32_t *th,
		      unsigned *tc)
{
	*th = (uint32_t)pmreg_format_get(pmu, "threshold", cfg);
	/* armv8pmu_event_threshold_control: TC = compare << 1 | count */
	*tc = (unsigned)(pmreg_format_get(pmu, "threshold_compare", cfg) << 1 |
			 pmreg_format_get(pmu, "threshold_count", cfg));
}

static pp_status put(const struct sysfs_pmu *pmu, const char *term, uint64_t v, uint64_t cfg[4],
		     char *why, size_t len)
{
	const struct sysfs_format *f = sysfs_format_find(pmu, term);

	if (sysfs_format_apply(f, v, cfg) != PP_OK) {
		snprintf(why, len, "%s=%llu does not fit the bits format/%s gives it", term,
			 (unsigned long long)v, term);
		return PP_ERANGE;
	}
	return PP_OK;
}

pp_status pmreg_th_apply(const struct sysfs_pmu *pmu, const struct pmreg_th_req *r,
			 uint64_t cfg[4], char *why, size_t len)
{
	long long max = sysfs_pmu_caps(pmu)->threshold_max;
	pp_status st = PP_OK;

	why[0] = '\0';
	if (!r->given)
		return PP_OK;
	for (size_t k = 0; k < sizeof(th_terms) / sizeof(th_terms[0]); k++)
		if (!sysfs_format_find(pmu, th_terms[k])) {
			snprintf(why, len, "this PMU's kernel offers no threshold counting (no "
				 "format/%s in PMU '%s'; Linux 6.8 added it)", th_terms[k], pmu->name);
			return PP_ENOTSUP;
		}
	if (max <= 0) {
		snprintf(why, len, "PMU '%s' has no FEAT_PMUv3_TH (caps/threshold_max is %s)",
			 pmu->name, max == 0 ? "0" : "absent");
		return PP_ENOTSUP;
	}
	if (!(r->given & PMREG_TH_VALUE) || r->threshold == 0) {
		snprintf(why, len, "threshold_compare and threshold_count need threshold=N with N "
			 "from 1 to %lld (threshold 0 disables thresholding)", max);
		return PP_EINVAL;
	}
	if (r->threshold > (uint64_t)max) {
		snprintf(why, len, "threshold %llu is above caps/threshold_max of PMU '%s', %lld",
			 (unsigned long long)r->threshold, pmu->name, max);
		return PP_ERANGE;
	}
	st = put(pmu, "threshold", r->threshold, cfg, why, len);
	if (st == PP_OK && (r->given & PMREG_TH_COMPARE))
		st = put(pmu, "threshold_compare", r->compare, cfg, why, len);
	if (st == PP_OK && (r->given & PMREG_TH_COUNT))
		st = put(pmu, "threshold_count", r->count, cfg, why, len);
	return st;
}
