/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs_format.c: owns the PMU format/ terms: reading them (the two that recognise a PMU at
 * discovery, the rest on first use), parsing "config1:0-15,32-35", placing a value into a
 * term's bits, and looking up terms by name. */
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "sysfs_priv.h"

static int cmp_format(const void *a, const void *b)
{
	return ascii_strcasecmp(((const struct sysfs_format *)a)->name,
			  ((const struct sysfs_format *)b)->name);
}

/* Reads and parses format/<name> (its text already read when text is not NULL) into
 * p->formats[p->nformats]. */
static pp_status add_format(struct sysfs_pmu *p, const char *name, const char *text)
{
	char own[SYSFS_FORMAT_TEXT_MAX];
	pp_status st = PP_OK;

	if (!sysfs_name_ok(name))
		return PP_EINVAL;
	if (!text) {
		st = sysfs_pmu_read(p->name, "format", name, own, sizeof own);
		text = own;
	}
	if (st == PP_OK)
		st = sysfs_format_parse(name, text, &p->formats[p->nformats]);
	if (st == PP_OK)
		p->nformats++;
	return st;
}

/* Lists format/ and reads every term not read yet. format/ drives how a value is encoded, so
 * a malformed term fails a PMU loaded by name; listed on first use (sysfs_format_listed), it
 * leaves the PMU with the terms read before. */
pp_status sysfs_formats_load(struct sysfs_pmu *p)
{
	struct sysfs_format *had = p->formats;
	size_t n, i, nhad = p->nformats;
	pp_status st;
	char **names;

	st = sysfs_pmu_list(p->name, "format", &names, &n);
	if (st == PP_ENOENT)
		return PP_OK;
	if (st != PP_OK || n == 0)
		return st;
	if (!(p->formats = calloc(n, sizeof *p->formats))) {
		p->formats = had;
		sysfs_names_free(names);
		return PP_ENOMEM;
	}
	p->nformats = 0;
	for (i = 0; i < n && st == PP_OK; i++) {
		size_t k = 0;

		/* a term read already (discovery's event and long) is not read again */
		while (k < nhad && strcmp(had[k].name, names[i]))
			k++;
		if (k < nhad)
			p->formats[p->nformats++] = had[k];
		else
			st = add_format(p, names[i], NULL);
	}
	sysfs_names_free(names);
	if (st != PP_OK) {
		free(p->formats);
		p->formats = had;
		p->nformats = nhad;
		return st;
	}
	free(had);
	qsort(p->formats, p->nformats, sizeof *p->formats, cmp_format);
	return PP_OK;
}

/* What discovery needs of format/ to recognise PMUv3 (looks_like_pmuv3 in sysfs_pmu.c):
 * "event", read already (its text given), and "long". The other terms (rdpmc, threshold...)
 * are read on first use (sysfs_format_listed), when a term names them: two files a run
 * instead of the directory and every file in it. */
pp_status sysfs_formats_known(struct sysfs_pmu *p, const char *event_text)
{
	pp_status st;

	if (!(p->formats = calloc(2, sizeof *p->formats)))
		return PP_ENOMEM;
	if ((st = add_format(p, "event", event_text)) != PP_OK)
		return st;
	st = add_format(p, "long", NULL);
	if (st == PP_ENOENT)
		st = PP_OK;
	p->unread |= SYSFS_UNREAD_FORMATS;
	return st;
}

size_t sysfs_format_listed(const struct sysfs_pmu *pmu)
{
	struct sysfs_pmu *p = (struct sysfs_pmu *)pmu;	/* a cache: see events_listed */

	if (!p)
		return 0;
	/* a term that fails to parse leaves the PMU with the terms it was recognised by */
	if (p->unread & SYSFS_UNREAD_FORMATS) {
		p->unread &= ~SYSFS_UNREAD_FORMATS;
		p->format_err = sysfs_formats_load(p);
	}
	return p->nformats;
}

/* Parses one bit number 0..63; advances *sp. */
static pp_status parse_bit(const char **sp, int *out)
{
	const char *s = *sp;
	int v = 0;

	if (!ascii_isdigit((unsigned char)*s))
		return PP_EINVAL;
	while (ascii_isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > 63)
			return PP_ERANGE;
	}
	*out = v;
	*sp = s;
	return PP_OK;
}

/* Which perf_event_attr field: "config" is 0, "config1".."config3" are 1..3. */
static pp_status parse_field(const char **sp, int *field)
{
	const char *s = *sp;

	if (!str_starts(s, "config"))
		return PP_EINVAL;
	s += 6;
	*field = 0;
	if (*s >= '1' && *s <= '3')
		*field = *s++ - '0';
	if (*s != ':')
		return PP_EINVAL;
	*sp = s + 1;
	return PP_OK;
}

/* One range of bits of a format: added to the mask (the uint64_t arg), or PP_EINVAL for a bit
 * given twice, since the value's placement would be ambiguous. */
static pp_status add_bits(void *arg, int lo, int hi)
{
	uint64_t *mask = arg;
	uint64_t m = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);

	if (*mask & m)
		return PP_EINVAL;
	*mask |= m;
	return PP_OK;
}

/* The kernel writes format attributes as "<field>:<lo>[-<hi>][,<lo>[-<hi>]]..." (see
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-format). */
pp_status sysfs_format_parse(const char *name, const char *text, struct sysfs_format *out)
{
	const char *s = text;
	uint64_t mask = 0;
	pp_status st;

	if (!sysfs_name_ok(name) || !text)
		return PP_EINVAL;
	memset(out, 0, sizeof *out);
	if ((st = parse_field(&s, &out->field)) != PP_OK ||
	    (st = sysfs_walk_ranges(s, parse_bit, add_bits, &mask)) != PP_OK)
		return st;
	out->mask = mask;
	strcpy(out->name, name);	/* length checked by sysfs_name_ok */
	return PP_OK;
}

/* Deposits value's bits, lowest first, into the term's bits from the lowest up (perf's
 * pmu_format_value does the same), so a split field "0-7,32-35" takes the low byte first. */
pp_status sysfs_format_apply(const struct sysfs_format *f, uint64_t value, uint64_t config[4])
{
	uint64_t out = 0, v = value;
	int bit;

	if (!f || !config || f->field < 0 || f->field > 3 || !f->mask)
		return PP_EINVAL;
	bit = __builtin_ctzll(f->mask);
	if (!((f->mask >> bit) & ((f->mask >> bit) + 1))) {
		/* one run of bits, as nearly every format is ("config:0-15"): a shift */
		uint64_t width_mask = f->mask >> bit;

		if (value & ~width_mask)
			return PP_ERANGE;
		config[f->field] = (config[f->field] & ~f->mask) | value << bit;
		return PP_OK;
	}
	for (bit = 0; bit < 64; bit++) {
		if (!(f->mask >> bit & 1))
			continue;
		if (v & 1)
			out |= 1ULL << bit;
		v >>= 1;
	}
	if (v)
		return PP_ERANGE;
	config[f->field] = (config[f->field] & ~f->mask) | out;
	return PP_OK;
}

/* The term among the terms read so far, NULL when not there. */
static const struct sysfs_format *format_in(const struct sysfs_pmu *pmu, const char *term)
{
	for (size_t i = 0; i < pmu->nformats; i++)
		if (!ascii_strcasecmp(pmu->formats[i].name, term))
			return &pmu->formats[i];
	return NULL;
}

const struct sysfs_format *sysfs_format_find(const struct sysfs_pmu *pmu, const char *term)
{
	const struct sysfs_format *f;

	if (!pmu || !term)
		return NULL;
	if ((f = format_in(pmu, term)) || !(pmu->unread & SYSFS_UNREAD_FORMATS))
		return f;
	sysfs_format_listed(pmu);
	return format_in(pmu, term);
}
