/* SPDX-License-Identifier: Apache-2.0 */
/* ppattr.h: what of perf_event_attr an event carries from resolution to the open: its type,
 * configs and the level flags pmuprof sets. */
#ifndef PMUPROF_PPATTR_H
#define PMUPROF_PPATTR_H

#include <linux/perf_event.h>
#include <stdint.h>

/* The kernel's struct is 128 bytes or more, most of it for sampling, which pmuprof never sets;
 * an event's record carries the part pmuprof sets instead. The members are named as the
 * kernel's, so code reads and writes them alike; ppattr_to_perf makes the kernel's at open
 * time. */
struct pp_attr {
	uint32_t type;
	unsigned exclude_user : 1, exclude_kernel : 1, exclude_hv : 1, exclude_host : 1,
		exclude_guest : 1, pinned : 1;
	uint64_t config, config1, config2;
};

/* The kernel's attr for p: everything else zero, size this build's (an initializer, which
 * the compiler zeroes inline, not a call of memset). */
static inline void ppattr_to_perf(const struct pp_attr *p, struct perf_event_attr *a)
{
	*a = (struct perf_event_attr){
		.size = sizeof(*a), .type = p->type, .config = p->config, .config1 = p->config1,
		.config2 = p->config2, .exclude_user = p->exclude_user,
		.exclude_kernel = p->exclude_kernel, .exclude_hv = p->exclude_hv,
		.exclude_host = p->exclude_host, .exclude_guest = p->exclude_guest,
		.pinned = p->pinned };
}

#endif
