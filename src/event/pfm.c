/* SPDX-License-Identifier: Apache-2.0 */
/* pfm.c: owns libpfm4: dlopen("libpfm.so.4") on first need, pfm_initialize, and event
 * encoding for perf_event_open. Never linked: see include/pfm.h for why. */
#include <dlfcn.h>
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

struct pfm_lib {
	void *handle;
	pfm_term_fn terminate;
	pfm_strerror_fn strerror;
	pfm_encode_fn encode;
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
