/* SPDX-License-Identifier: Apache-2.0 */
/* explain_out.c: `pmuprof explain`'s output, text or one JSON document (a cJSON tree printed
 * once; schema in man/pmuprof-explain.1), both from struct explain. */
#include <cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "jsonout.h"

static const char *verdict_str(enum filter_verdict v)
{
	return v == FILTER_SECURE ? "secure" : v == FILTER_VHE_SPLIT ? "vhe-split" : "ok";
}

static const struct pmreg_slot *slot_of(const struct explain *x, size_t k)
{
	for (size_t s = 0; x->seq.slots && s < x->nseq; s++)
		if (x->events[k].is_arm && x->seq_index[s] == k)
			return &x->seq.slots[s];
	return NULL;
}

/* The register an event's type goes to: PMCCFILTR_EL0 on the cycle counter, the even
 * counter's PMEVTYPER for a chained pair, "PMEVTYPER<n>_EL0" when it found no counter. */
static void reg_name(const struct explain *x, size_t k, char *buf, size_t len, int *cycle)
{
	const struct pmreg_slot *sl = slot_of(x, k);

	*cycle = sl && sl->counter == PMREG_CYCLE_COUNTER;
	if (*cycle)
		snprintf(buf, len, "PMCCFILTR_EL0");
	else if (sl && sl->counter >= 0)
		snprintf(buf, len, "PMEVTYPER%d_EL0", sl->low >= 0 ? sl->low : sl->counter);
	else
		snprintf(buf, len, "PMEVTYPER<n>_EL0");
}

static cJSON *levels_json(unsigned where)
{
	cJSON *o = cJSON_CreateObject();

	for (int l = 0; l < FILTER_NLEVELS; l++)
		cJSON_AddBoolToObject(o, filter_level_key(l), where & 1u << l);
	return o;
}

static cJSON *register_json(const struct explain *x, size_t k)
{
	const struct explain_event *e = &x->events[k];
	struct pmreg_field f[16];
	cJSON *o = cJSON_CreateObject(), *fields;
	char name[32];
	int cycle;
	uint64_t v;
	size_t n;

	reg_name(x, k, name, sizeof(name), &cycle);
	v = pmreg_value(&e->reg, cycle);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddItemToObject(o, "value", jsonout_hex(v));
	fields = cJSON_AddObjectToObject(o, "fields");
	n = pmreg_decode(v, cycle, x->pmu.pmuver, e->reg.th != 0, f, 16);
	for (size_t i = 0; i < n; i++)
		cJSON_AddNumberToObject(fields, f[i].name, (double)f[i].value);
	return o;
}

static cJSON *threshold_json(const struct explain_event *e)
{
	cJSON *o;

	if (!e->reg.th)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "threshold", e->reg.th);
	cJSON_AddStringToObject(o, "compare", pmreg_th_compare_str(e->reg.tc >> 1));
	cJSON_AddBoolToObject(o, "count", e->reg.tc & 1);
	return o;
}

static cJSON *event_json(const struct explain *x, size_t k)
{
	const struct explain_event *e = &x->events[k];
	const struct pmreg_slot *sl = slot_of(x, k);
	cJSON *o = cJSON_CreateObject();
	const struct pp_attr *a = &e->sel.ev.attr;
	char b[40];

	cJSON_AddStringToObject(o, "name", e->sel.ev.name);
	cJSON_AddStringToObject(o, "pmu", e->sel.ev.pmu);
	cJSON_AddNumberToObject(o, "type", e->sel.ev.attr.type);
	cJSON_AddItemToObject(o, "config", jsonout_hex(e->sel.ev.attr.config));
	cJSON_AddItemToObject(o, "config1", jsonout_hex(e->sel.ev.attr.config1));
	cJSON_AddItemToObject(o, "config2", jsonout_hex(e->sel.ev.attr.config2));
	cJSON_AddItemToObject(o, "exclude", jsonout_exclude(a->exclude_user, a->exclude_kernel,
							    a->exclude_hv, a->exclude_host,
							    a->exclude_guest));
	cJSON_AddItemToObject(o, "arm_event", e->is_arm ? jsonout_hex((uint64_t)e->sel.ev.arm_code)
						       : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "filter_terms", e->filter_given
		? cJSON_CreateString(filter_bits_str(e->sel.plan.req_bits, b, sizeof(b)))
		: cJSON_CreateNull());
	cJSON_AddStringToObject(o, "verdict", verdict_str(e->sel.plan.verdict));
	cJSON_AddBoolToObject(o, "marked", e->marked);
	cJSON_AddItemToObject(o, "requested_at", e->filter_given ? levels_json(e->sel.plan.where_req)
								 : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "counts_at", e->is_arm
		? levels_json(filter_where(e->reg.filter, &filter_impl_full)) : cJSON_CreateNull());
	if (!e->is_arm) {
		cJSON_AddNullToObject(o, "counter_kind");
		cJSON_AddNullToObject(o, "register");
		cJSON_AddNullToObject(o, "threshold");
		cJSON_AddNullToObject(o, "counter");
		cJSON_AddNullToObject(o, "chained_low");
		return o;
	}
	cJSON_AddStringToObject(o, "counter_kind", pmreg_kind_str(e->kind));
	cJSON_AddItemToObject(o, "register", register_json(x, k));
	cJSON_AddItemToObject(o, "threshold", threshold_json(e));
	cJSON_AddItemToObject(o, "counter", sl && sl->counter >= 0 ? cJSON_CreateNumber(sl->counter)
								   : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "chained_low", sl && sl->low >= 0 ? cJSON_CreateNumber(sl->low)
								   : cJSON_CreateNull());
	return o;
}

static cJSON *machine_json(const struct explain *x)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "kernel_el", x->kel.el);
	cJSON_AddStringToObject(o, "kernel_el_source", x->kel.why);
	cJSON_AddItemToObject(o, "core", x->core ? cJSON_CreateString(x->core) : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "arch", x->arch ? cJSON_CreateString(x->arch) : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "pmuver", x->pmu.pmuver);
	cJSON_AddBoolToObject(o, "pmuver_assumed", x->pmuver_assumed);
	cJSON_AddNumberToObject(o, "counters", x->pmu.counters);
	cJSON_AddBoolToObject(o, "counters_assumed", x->counters_assumed);
	cJSON_AddStringToObject(o, "counters_source", x->counters_source);
	cJSON_AddStringToObject(o, "kernel_release", x->release);
	cJSON_AddStringToObject(o, "evtype_access", x->pmu.direct ? "PMEVTYPER<n>_EL0"
								  : "PMSELR_EL0+PMXEVTYPER_EL0");
	return o;
}

static cJSON *program_json(const struct explain *x)
{
	cJSON *o = cJSON_CreateObject(), *w = cJSON_AddArrayToObject(o, "writes");

	for (size_t k = 0; k < x->seq.nwrites; k++) {
		const struct pmreg_write *pw = &x->seq.writes[k];
		cJSON *j = cJSON_CreateObject();

		cJSON_AddStringToObject(j, "register", pw->reg);
		cJSON_AddItemToObject(j, "value", jsonout_hex(pw->value));
		cJSON_AddItemToObject(j, "event", pw->event >= 0
			? cJSON_CreateNumber((double)x->seq_index[pw->event]) : cJSON_CreateNull());
		cJSON_AddStringToObject(j, "what", pw->what);
		cJSON_AddItemToArray(w, j);
	}
	cJSON_AddItemToObject(o, "pmcntenset", jsonout_hex(x->seq.cntenset));
	cJSON_AddNumberToObject(o, "unplaced", (double)x->seq.unplaced);
	return o;
}

int explain_print_json(const struct explain *x, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *ev;

	cJSON_AddStringToObject(root, "schema_version", "1.1");
	cJSON_AddItemToObject(root, "machine", machine_json(x));
	ev = cJSON_AddArrayToObject(root, "events");
	for (size_t k = 0; k < x->n; k++)
		cJSON_AddItemToArray(ev, event_json(x, k));
	cJSON_AddItemToObject(root, "programming", program_json(x));
	return jsonout_emit(root, out, JSONOUT_PRETTY);
}

static void text_levels(FILE *out, const char *label, unsigned where)
{
	fprintf(out, "  %-14s", label);
	for (int l = 0; l < FILTER_NLEVELS; l++)
		fprintf(out, " %s:%s", filter_level_key(l), where & 1u << l ? "yes" : "no");
	fputc('\n', out);
}

static void text_register(const struct explain *x, size_t k, FILE *out)
{
	const struct explain_event *e = &x->events[k];
	const struct pmreg_slot *sl = slot_of(x, k);
	struct pmreg_field f[16];
	char name[32];
	int cycle;
	uint64_t v;
	size_t n;

	reg_name(x, k, name, sizeof(name), &cycle);
	v = pmreg_value(&e->reg, cycle);
	fprintf(out, "  counter:       %s", pmreg_kind_str(e->kind));
	if (sl && sl->counter == PMREG_CYCLE_COUNTER)
		fprintf(out, " (PMCCNTR_EL0)\n");
	else if (sl && sl->low >= 0)
		fprintf(out, " (counters %d+%d, CHAIN in %d)\n", sl->low, sl->counter, sl->counter);
	else if (sl && sl->counter >= 0)
		fprintf(out, " (counter %d)\n", sl->counter);
	else
		fprintf(out, " (none free: the kernel would multiplex)\n");
	fprintf(out, "  %-14s 0x%016" PRIx64 "\n ", name, v);
	n = pmreg_decode(v, cycle, x->pmu.pmuver, e->reg.th != 0, f, 16);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %s=%#" PRIx64, f[i].name, f[i].value);
	fputc('\n', out);
	if (e->reg.th)
		fprintf(out, "  threshold:     %u, compare %s, %s\n", e->reg.th,
			pmreg_th_compare_str(e->reg.tc >> 1),
			e->reg.tc & 1 ? "count 1 per passing cycle" : "add the event's increment");
}

static void text_event(const struct explain *x, size_t k, FILE *out)
{
	const struct explain_event *e = &x->events[k];
	const struct pp_attr *a = &e->sel.ev.attr;
	char b[40];

	fprintf(out, "%s%s\n", e->sel.ev.name, e->marked ? "  [marked: Secure/EL3 part not counted]"
						    : "");
	fprintf(out, "  pmu:           %s (type %u)\n", e->sel.ev.pmu, a->type);
	fprintf(out, "  config:        0x%llx config1 0x%llx config2 0x%llx\n",
		(unsigned long long)a->config, (unsigned long long)a->config1,
		(unsigned long long)a->config2);
	fprintf(out, "  exclude:       user=%u kernel=%u hv=%u host=%u guest=%u\n",
		a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_host, a->exclude_guest);
	if (e->filter_given) {
		fprintf(out, "  filter terms:  %s\n", filter_bits_str(e->sel.plan.req_bits, b, sizeof(b)));
		text_levels(out, "requested:", e->sel.plan.where_req);
	}
	if (!e->is_arm) {
		fprintf(out, "  not a PMUv3 event: no PMU register is programmed\n");
		return;
	}
	fprintf(out, "  arm event:     0x%04x\n", (unsigned)e->sel.ev.arm_code);
	text_levels(out, "counts at:", filter_where(e->reg.filter, &filter_impl_full));
	text_register(x, k, out);
}

int explain_print_text(const struct explain *x, FILE *out)
{
	fprintf(out, "kernel at EL%d (%s)\n", x->kel.el, x->kel.why);
	fprintf(out, "PMU: %s, PMUv3p%d%s, %d counters (%s), type writes via %s\n",
		x->core ? x->core : "core unknown", x->pmu.pmuver,
		x->pmuver_assumed ? " (assumed)" : "", x->pmu.counters, x->counters_source,
		x->pmu.direct ? "PMEVTYPER<n>_EL0" : "PMSELR_EL0+PMXEVTYPER_EL0");
	fprintf(out, "Secure and EL3 levels show the filter alone: counting there needs EL3 "
		"firmware's consent (MDCR_EL3.SPME/MPMX)\n\n");
	for (size_t k = 0; k < x->n; k++) {
		text_event(x, k, out);
		fputc('\n', out);
	}
	fprintf(out, "programming sequence:\n");
	for (size_t k = 0; k < x->seq.nwrites; k++) {
		const struct pmreg_write *w = &x->seq.writes[k];

		fprintf(out, "  %-16s <- 0x%-10" PRIx64 " %s", w->reg, w->value, w->what);
		if (w->event >= 0)
			fprintf(out, " [%s]", x->events[x->seq_index[w->event]].sel.ev.name);
		fputc('\n', out);
	}
	fprintf(out, "PMCNTENSET_EL0 then holds 0x%" PRIx32 "%s\n", x->seq.cntenset,
		x->seq.unplaced ? " (some events found no counter)" : "");
	return ferror(out) ? -1 : 0;
}
