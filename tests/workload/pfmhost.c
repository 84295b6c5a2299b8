/* SPDX-License-Identifier: Apache-2.0 */
/* pfmhost.c: tells the tests what libpfm4 knows about this host, so that a test of pmuprof's
 * libpfm4 fallback takes its event from the host's own PMU instead of one vendor's name.
 *
 * Prints "pmu NAME" for the core PMU libpfm4 detected (the first present one of type
 * PFM_PMU_TYPE_CORE), then up to three lines "event NAME TYPE CONFIG" (CONFIG in hex): events of
 * that PMU whose bare name libpfm4 encodes for perf_event_open, and encodes on that PMU (its
 * fully qualified name starts with "NAME::"), as pmuprof would ask for them.
 * Exit status: 0 with at least one event; 3 when libpfm4 found no core PMU here (a line
 * "present NAME..." names the PMUs it did find); 2 when libpfm.so.4 cannot be loaded or
 * initialised (a line says why). Loaded with dlopen, like pmuprof, so only the headers are
 * needed to build it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

struct lib {
	pfm_err_t (*init)(void);
	pfm_err_t (*pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	int (*event_next)(int);
	pfm_err_t (*event_info)(int, pfm_os_t, pfm_event_info_t *);
	pfm_err_t (*encode)(const char *, int, pfm_os_t, void *);
};

static int load(struct lib *l)
{
	void *h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		printf("error cannot load libpfm.so.4: %s\n", dlerror());
		return -1;
	}
	/* POSIX: dlsym's void * converts to a function pointer */
	*(void **)&l->init = dlsym(h, "pfm_initialize");
	*(void **)&l->pmu_info = dlsym(h, "pfm_get_pmu_info");
	*(void **)&l->event_next = dlsym(h, "pfm_get_event_next");
	*(void **)&l->event_info = dlsym(h, "pfm_get_event_info");
	*(void **)&l->encode = dlsym(h, "pfm_get_os_event_encoding");
	if (!l->init || !l->pmu_info || !l->event_next || !l->event_info || !l->encode) {
		printf("error libpfm.so.4 lacks a function this helper calls\n");
		return -1;
	}
	if (l->init() != PFM_SUCCESS) {
		printf("error pfm_initialize failed\n");
		return -1;
	}
	return 0;
}

/* Prints up to three events of core PMU p that libpfm4 encodes by their bare names on p. */
static int events(struct lib *l, const pfm_pmu_info_t *p)
{
	size_t plen = strlen(p->name);
	int i, n = 0;

	for (i = p->first_event; i != -1 && n < 3; i = l->event_next(i)) {
		pfm_event_info_t ev = { .size = sizeof(ev) };
		struct perf_event_attr attr = { .size = sizeof(attr) };
		char *fq = NULL;
		pfm_perf_encode_arg_t arg = { .attr = &attr, .fstr = &fq, .size = sizeof(arg) };

		if (l->event_info(i, PFM_OS_NONE, &ev) != PFM_SUCCESS)
			continue;
		if (l->encode(ev.name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) ==
			    PFM_SUCCESS &&
		    fq && !strncmp(fq, p->name, plen) && !strncmp(fq + plen, "::", 2)) {
			printf("event %s %u 0x%llx\n", ev.name, attr.type,
			       (unsigned long long)attr.config);
			n++;
		}
		free(fq);
	}
	return n;
}

int main(void)
{
	struct lib l;
	pfm_pmu_t pmu;
	char present[1024] = "";
	size_t used = 0;

	if (load(&l))
		return 2;
	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t p = { .size = sizeof(p) };

		if (l.pmu_info(pmu, &p) != PFM_SUCCESS || !p.is_present)
			continue;
		if (p.type == PFM_PMU_TYPE_CORE) {
			printf("pmu %s\n", p.name);
			if (events(&l, &p) > 0)
				return 0;
			printf("error libpfm4 encodes no event of %s by its bare name\n", p.name);
			return 2;
		}
		if (used < sizeof(present))
			used += (size_t)snprintf(present + used, sizeof(present) - used, " %s", p.name);
	}
	printf("present%s\n", present);
	return 3;
}
