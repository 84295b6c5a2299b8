/* pfm.c: owns libpfm4: dlopen("libpfm.so.4") on first need, pfm_initialize, and event
 * encoding for perf_event_open. Never linked: see include/pfm.h for why. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "pfm.h"

/* pfm_perf_encode_arg_t of <perfmon/pfmlib_perf_event.h>, whose companion header redefines
 * struct perf_event_attr and so cannot sit beside <linux/perf_event.h>. The layout is
 * libpfm4's ABI, versioned by the size field (PFM_PERF_ENCODE_ABI0 = 40 bytes). */
struct pfm_perf_arg {
	struct perf_event_attr *attr;
	char **fstr;
	size_t size;
	int idx;
	int cpu;
	int flags;
	int pad0;
};

typedef pfm_err_t (*pfm_init_fn)(void);
typedef void (*pfm_term_fn)(void);
typedef const char *(*pfm_strerror_fn)(int);
typedef pfm_err_t (*pfm_encode_fn)(const char *, int, pfm_os_t, void *);
typedef pfm_err_t (*pfm_pmu_info_fn)(pfm_pmu_t, pfm_pmu_info_t *);
typedef int (*pfm_event_next_fn)(int);
typedef pfm_err_t (*pfm_event_info_fn)(int, pfm_os_t, pfm_event_info_t *);

struct pfm_lib {
	void *handle;
	pfm_term_fn terminate;
	pfm_strerror_fn strerror;
	pfm_encode_fn encode;
	/* for pfm_each_name; NULL when the library lacks them (then it lists nothing) */
	pfm_pmu_info_fn pmu_info;
	pfm_event_next_fn event_next;
	pfm_event_info_fn event_info;
};

static void set_why(char *why, size_t len, const char *what, const char *detail)
{
	if (why && len)
		snprintf(why, len, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
}

/* dlsym returns void *; POSIX guarantees it converts to a function pointer. */
static void *sym(void *h, const char *name)
{
	return dlsym(h, name);
}

pp_status pfm_open(struct pfm_lib **out, char *why, size_t whylen)
{
	struct pfm_lib *lib;
	pfm_init_fn init;
	pfm_err_t rc;

	*out = NULL;
	if (!(lib = calloc(1, sizeof(*lib))))
		return PP_ENOMEM;
	if (!(lib->handle = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL))) {
		set_why(why, whylen, "cannot load libpfm.so.4", dlerror());
		free(lib);
		return PP_ENOTSUP;
	}
	*(void **)&init = sym(lib->handle, "pfm_initialize");
	*(void **)&lib->terminate = sym(lib->handle, "pfm_terminate");
	*(void **)&lib->strerror = sym(lib->handle, "pfm_strerror");
	*(void **)&lib->encode = sym(lib->handle, "pfm_get_os_event_encoding");
	*(void **)&lib->pmu_info = sym(lib->handle, "pfm_get_pmu_info");
	*(void **)&lib->event_next = sym(lib->handle, "pfm_get_event_next");
	*(void **)&lib->event_info = sym(lib->handle, "pfm_get_event_info");
	if (!init || !lib->terminate || !lib->strerror || !lib->encode) {
		set_why(why, whylen, "libpfm.so.4 lacks pfm_get_os_event_encoding", NULL);
		dlclose(lib->handle);
		free(lib);
		return PP_ENOTSUP;
	}
	if ((rc = init()) != PFM_SUCCESS) {
		set_why(why, whylen, "libpfm4 cannot initialise", lib->strerror(rc));
		dlclose(lib->handle);
		free(lib);
		return PP_EIO;
	}
	*out = lib;
	return PP_OK;
}

void pfm_close(struct pfm_lib *lib)
{
	if (!lib)
		return;
	lib->terminate();
	dlclose(lib->handle);
	free(lib);
}

pp_status pfm_encode(struct pfm_lib *lib, const char *name, struct pp_attr *attr,
		     char **fq, char *why, size_t whylen)
{
	struct perf_event_attr a;
	struct pfm_perf_arg arg;
	char *fstr = NULL;
	pfm_err_t rc;

	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	a.size = sizeof(a);
	arg.attr = &a;
	arg.fstr = fq ? &fstr : NULL;
	arg.size = sizeof(arg);
	/* user and kernel: pmuprof's own modifiers decide the levels afterwards */
	rc = lib->encode(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc == PFM_ERR_NOTFOUND)
		return PP_ENOENT;
	if (rc != PFM_SUCCESS) {
		set_why(why, whylen, lib->strerror(rc), NULL);
		return PP_EINVAL;
	}
	attr->type = a.type;
	attr->config = a.config;
	attr->config1 = a.config1;
	attr->config2 = a.config2;
	if (fq)
		*fq = fstr;
	return PP_OK;
}

void pfm_each_name(struct pfm_lib *lib, void (*fn)(const char *name, void *arg), void *arg)
{
	if (!lib || !lib->pmu_info || !lib->event_next || !lib->event_info)
		return;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (lib->pmu_info((pfm_pmu_t)p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		for (int i = pi.first_event; i != -1; i = lib->event_next(i)) {
			pfm_event_info_t ei;

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (lib->event_info(i, PFM_OS_NONE, &ei) == PFM_SUCCESS && ei.name)
				fn(ei.name, arg);
		}
	}
}

const char *pfm_lib_path(struct pfm_lib *lib)
{
	struct link_map *lm = NULL;

	if (!lib || dlinfo(lib->handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name)
		return "";
	return lm->l_name;
}
