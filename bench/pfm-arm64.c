/* SPDX-License-Identifier: Apache-2.0 */
/* pfm-arm64.c: what loading libpfm4 costs in the arm64 guest, step by step, for bench/arm64
 * (why an unknown name took 8 ms). Loads libpfm.so.4 with dlopen as pmuprof does,
 * initialises it and looks one name up, and prints the guest nanoseconds of each step (under
 * QEMU's -icount shift=0 one per executed instruction) and how many names the present PMUs
 * have: "dlopen NS init NS lookup NS names N".
 *   pfm-arm64 NAME */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <perfmon/pfmlib_perf_event.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	pfm_err_t (*init)(void), (*encode)(const char *, int, pfm_os_t, void *);
	pfm_err_t (*pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	long long t0, t1, t2, t3;
	int names = 0;
	void *h;

	if (argc != 2)
		return fprintf(stderr, "usage: pfm-arm64 NAME\n"), 2;
	t0 = now_ns();
	if (!(h = dlopen("libpfm.so.4", RTLD_NOW | RTLD_LOCAL)))
		return fprintf(stderr, "pfm-arm64: %s\n", dlerror()), 1;
	t1 = now_ns();
	/* POSIX: dlsym's void * converts to a function pointer */
	*(void **)&init = dlsym(h, "pfm_initialize");
	*(void **)&encode = dlsym(h, "pfm_get_os_event_encoding");
	*(void **)&pmu_info = dlsym(h, "pfm_get_pmu_info");
	if (!init || !encode || !pmu_info || init() != PFM_SUCCESS)
		return fprintf(stderr, "pfm-arm64: cannot initialise libpfm4\n"), 1;
	t2 = now_ns();
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.size = sizeof(arg);
	encode(argv[1], PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	t3 = now_ns();
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pmu_info((pfm_pmu_t)p, &pi) == PFM_SUCCESS && pi.is_present)
			names += pi.nevents;
	}
	printf("dlopen %lld init %lld lookup %lld names %d\n", t1 - t0, t2 - t1, t3 - t2, names);
	return 0;
}
