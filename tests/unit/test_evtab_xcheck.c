/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_evtab_xcheck.c: the generated tables against Arm's machine-readable PMU data.
 *
 * Every (core, event name, code) in the tables must be in Arm's data, and every named event of
 * a covered core in Arm's data must be in the tables. Arm's data is read from
 * $PMUPROF_ARM_REFERENCE/arm-data, the reference directory defaulting to ../shared/reference from
 * the working directory (the repository root under tests/run); docs/testing.md says where its
 * files come from. Skipped, saying so, where the data is absent. Arm's telemetry data
 * (arm-telemetry/pmu/cpu/<family>/<core>.json beside it) is Arm's too: it names
 * the C1 cores' events, which the PMU data lacks, and an event or two of a core the PMU data
 * leaves out (Neoverse N3's STALL_FRONTEND_FLOW).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "evtab.h"
#include "tap.h"

#define MAX_FILES 128

/* $PMUPROF_ARM_REFERENCE/SUB, or ../shared/reference/SUB, into buf. */
static const char *reference_dir(char *buf, size_t size, const char *sub)
{
	const char *d = getenv("PMUPROF_ARM_REFERENCE");

	snprintf(buf, size, "%s/%s", d && *d ? d : "../shared/reference", sub);
	return buf;
}

static const char *data_dir(void)
{
	static char path[1024];
	return reference_dir(path, sizeof(path), "arm-data");
}

static cJSON *load_json(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;
	long size;
	char *buf;
	cJSON *j = NULL;
	snprintf(path, sizeof(path), "%s/pmu/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1))) {
		if (fread(buf, 1, (size_t)size, f) == (size_t)size) {
			buf[size] = '\0';
			j = cJSON_Parse(buf);
		}
		free(buf);
	}
	fclose(f);
	return j;
}

static int json_code_of(const cJSON *events, const char *name);

static const char *telemetry_dir(void)
{
	static char path[1024];
	return reference_dir(path, sizeof(path), "arm-telemetry");
}

/* The events Arm's telemetry files give for core (every revision's file), as an array in the
 * PMU data's shape ({"name", "code": number}); an empty array when none. */
static cJSON *telemetry_events(const struct evtab_core *core)
{
	char dir[4096], sub[4096 + 260];
	cJSON *out = cJSON_CreateArray();
	DIR *d, *f;
	struct dirent *de, *fe;

	snprintf(dir, sizeof(dir), "%s/pmu/cpu", telemetry_dir());
	if (!(d = opendir(dir)))
		return out;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (!(f = opendir(sub)))
			continue;
		while ((fe = readdir(f))) {
			char rel[4400];
			cJSON *j, *ev;
			const cJSON *pc, *impl, *part;

			if (!strstr(fe->d_name, ".json"))
				continue;
			snprintf(rel, sizeof(rel), "cpu/%s/%s", de->d_name, fe->d_name);
			j = load_json(telemetry_dir(), rel);
			pc = cJSON_GetObjectItemCaseSensitive(j, "product_configuration");
			impl = cJSON_GetObjectItemCaseSensitive(pc, "implementer");
			part = cJSON_GetObjectItemCaseSensitive(pc, "part_num");
			if (cJSON_IsString(impl) && cJSON_IsString(part) &&
			    evtab_core_by_midr(strtoull(impl->valuestring, NULL, 16) << 24 |
					       strtoull(part->valuestring, NULL, 16) << 4) == core)
				cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(j, "events")) {
					const cJSON *c = cJSON_GetObjectItemCaseSensitive(ev, "code");
					cJSON *e;

					if (!cJSON_IsString(c) || json_code_of(out, ev->string) >= 0)
						continue;
					e = cJSON_CreateObject();
					cJSON_AddStringToObject(e, "name", ev->string);
					cJSON_AddNumberToObject(e, "code",
								(double)strtol(c->valuestring, NULL, 16));
					cJSON_AddItemToArray(out, e);
				}
			cJSON_Delete(j);
		}
		closedir(f);
	}
	closedir(d);
	return out;
}

static int common_range(unsigned code)
{
	return code <= 0x3F || (code >= 0x4000 && code <= 0x40FF) || code >= 0x8000;
}

/* The code of the event named name in an "events" array; -1 when absent. */
static int json_code_of(const cJSON *events, const char *name)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, events) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
		if (cJSON_IsString(n) && cJSON_IsNumber(c) && !strcmp(n->valuestring, name))
			return c->valueint;
	}
	return -1;
}

/* Arm's events -> tables: each named event with a code must be there with that code. */
static int json_in_tables(const struct evtab_core *core, const cJSON *events, int common_only)
{
	const cJSON *e;
	int bad = 0;
	cJSON_ArrayForEach(e, events) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
		const struct evtab_event *t;
		if (!cJSON_IsString(n) || !cJSON_IsNumber(c))
			continue;	/* unnamed or code-less entries cannot be looked up */
		if (common_only && !common_range((unsigned)c->valueint))
			continue;
		t = evtab_find_name(core, n->valuestring);
		if (!t || evtab_event_code(t) != (unsigned)c->valueint) {
			printf("# %s: Arm has %s = 0x%04x, tables %s\n",
			       core ? evtab_core_name(core) : "common",
			       n->valuestring, c->valueint, t ? "differ in code" : "lack it");
			bad++;
		}
	}
	return bad;
}

/* Tables -> Arm's events: each event of the set must be in one of the arrays with its code. */
static int tables_in_json(const struct evtab_core *core, const cJSON *a, const cJSON *b)
{
	int bad = 0;
	for (size_t i = 0; i < evtab_nevents(core); i++) {
		const struct evtab_event *t = evtab_event_at(core, i);
		const char *name = evtab_event_name(t);
		int code = json_code_of(a, name);
		if (code < 0 && b)
			code = json_code_of(b, name);
		if (code != (int)evtab_event_code(t)) {
			printf("# %s: tables have %s = 0x%04x, Arm %s\n",
			       core ? evtab_core_name(core) : "common", name, evtab_event_code(t),
			       code < 0 ? "does not" : "differs");
			bad++;
		}
	}
	return bad;
}

static void check_common(const char *dir)
{
	cJSON *v8 = load_json(dir, "common_armv8.json"), *v9 = load_json(dir, "common_armv9.json");
	const cJSON *e8 = cJSON_GetObjectItemCaseSensitive(v8, "events");
	const cJSON *e9 = cJSON_GetObjectItemCaseSensitive(v9, "events");
	if (tap_ok(e8 && e9, "common_armv8.json and common_armv9.json read")) {
		int missing = json_in_tables(NULL, e8, 1) + json_in_tables(NULL, e9, 1);
		int extra = tables_in_json(NULL, e8, e9);
		TAP_EQ_INT(missing, 0, "every common Arm event is a common event in the tables");
		TAP_EQ_INT(extra, 0, "every common event in the tables is Arm's, same code");
	}
	cJSON_Delete(v8);
	cJSON_Delete(v9);
}

/* MIDR from the data's "cpuid" ("0x41d0c": implementer 0x41, part 0xd0c). */
static const struct evtab_core *core_of(const cJSON *j)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "cpuid");
	unsigned long v;
	if (!cJSON_IsString(id))
		return NULL;
	v = strtoul(id->valuestring, NULL, 16);
	return evtab_core_by_midr((uint64_t)(v >> 12) << 24 | (uint64_t)(v & 0xFFF) << 4);
}

static int check_core_file(const char *dir, const char *name)
{
	cJSON *j = load_json(dir, name);
	const struct evtab_core *core = core_of(j);
	const cJSON *events = cJSON_GetObjectItemCaseSensitive(j, "events");
	const cJSON *title = cJSON_GetObjectItemCaseSensitive(j, "cpu");
	const cJSON *ctrs = cJSON_GetObjectItemCaseSensitive(j, "counters");
	if (!core) {
		printf("# %s: not a covered core\n", name);
		cJSON_Delete(j);
		return 0;
	}
	TAP_EQ_STR(evtab_core_title(core), cJSON_IsString(title) ? title->valuestring : "?",
		   "%s: title", name);
	TAP_EQ_INT(evtab_core_counters(core), cJSON_IsNumber(ctrs) ? ctrs->valueint : -1,
		   "%s: counters", name);
	cJSON *tel = telemetry_events(core);
	int missing = json_in_tables(core, events, 0), extra = tables_in_json(core, events, tel);
	TAP_EQ_INT(missing, 0, "%s: every named Arm event is in %s", name, evtab_core_name(core));
	TAP_EQ_INT(extra, 0, "%s: every event of %s is Arm's", name, evtab_core_name(core));
	cJSON_Delete(tel);
	cJSON_Delete(j);
	return 1;
}

/* A core the PMU data lacks, against the telemetry data; 0 when that has none either. */
static int check_telemetry_core(const struct evtab_core *core)
{
	cJSON *tel = telemetry_events(core);
	int n = cJSON_GetArraySize(tel);

	if (n > 0) {
		TAP_EQ_INT(json_in_tables(core, tel, 0), 0, "telemetry: every named Arm event is "
			   "in %s", evtab_core_name(core));
		TAP_EQ_INT(tables_in_json(core, tel, NULL), 0, "telemetry: every event of %s is "
			   "Arm's", evtab_core_name(core));
	}
	cJSON_Delete(tel);
	return n > 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The core files of dir/pmu, sorted; returns how many. */
static size_t list_files(const char *dir, char **names)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	size_t n = 0;
	snprintf(path, sizeof(path), "%s/pmu", dir);
	if (!(d = opendir(path)))
		return 0;
	while ((de = readdir(d)) && n < MAX_FILES) {
		size_t len = strlen(de->d_name);
		if (len > 5 && !strcmp(de->d_name + len - 5, ".json") &&
		    strncmp(de->d_name, "common", 6) && strcmp(de->d_name, "pmu-schema.json"))
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), str_cmp);
	return n;
}

int main(void)
{
	const char *dir = data_dir();
	char *names[MAX_FILES];
	size_t n = list_files(dir, names), covered = 0;
	if (n == 0) {
		char why[4200];
		snprintf(why, sizeof(why), "Arm's PMU data not found in %s/pmu "
			 "(set PMUPROF_ARM_REFERENCE: docs/testing.md says where to get it)", dir);
		tap_skip(why);
		return tap_done();
	}
	check_common(dir);
	for (size_t i = 0; i < n; i++) {
		covered += (size_t)check_core_file(dir, names[i]);
		free(names[i]);
	}
	for (size_t i = 0; i < evtab_ncores(); i++) {
		const struct evtab_core *c = evtab_core_at(i);
		char file[1200];
		FILE *f;

		snprintf(file, sizeof(file), "%s/pmu/%s.json", dir, evtab_core_name(c));
		if ((f = fopen(file, "r")))
			fclose(f);	/* checked above */
		else
			covered += (size_t)check_telemetry_core(c);
	}
	TAP_EQ_INT(covered, evtab_ncores(), "every core in the tables has Arm data (%zu)", covered);
	tap_ok(covered >= 35, "at least 35 cores cross-checked (%zu)", covered);
	return tap_done();
}
